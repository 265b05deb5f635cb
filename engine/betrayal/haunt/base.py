"""The haunt phase's state and the questions every rule asks of it.

:class:`HauntBase` holds the haunt phase's fields (sides, statuses, flags, the Turn/Damage track,
haunt tokens, monsters, timers, hooks' own state) on top of the part-1 state, and answers the
questions the rules below ask: who is in play and on which side, which monsters are where and with
what stats, how far one room is from another for a monster, whether a status blocks something.

The haunt phase is built as a chain of classes, one module each, every one adding one part of
the rules (``amounts`` -> ``predicates`` -> ``wins`` -> ``outcomes`` -> ``combat`` -> ``monsters`` ->
``setup_steps`` -> ``tasks`` -> ``collapse`` -> ``turns`` -> ``state``). A rule lower in the chain that must call
one defined higher up (the "Right Now" steps, which outcomes re-run when a hero turns traitor)
finds it declared at the end of this class.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Self, cast

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt import registry
from hauntcheck.engine.betrayal.haunt.pieces import DEFAULT_ROUNDS, HERO, Monster, Weapon, whole_option
from hauntcheck.engine.betrayal.haunt.ways import MonsterWays, drop_rooms, landing_marks, no_ways, raw_monsters
from hauntcheck.engine.betrayal.hauntspec import DRAFT_NUMBER, HauntSpec, MonsterDef
from hauntcheck.engine.betrayal.house import House
from hauntcheck.engine.betrayal.model import SIDES, TRAITS, Connection
from hauntcheck.engine.betrayal.state import BetrayalState, Gen, Setup
from hauntcheck.engine.core import Outcome

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState


class HauntBase(BetrayalState):
    """The haunt phase's fields and the queries every haunt rule asks."""

    def __init__(self, setup: Setup, haunts: Mapping[int, tuple[HauntSpec, Mapping[str, Any]]],
                 weapons: Mapping[str, Weapon]) -> None:
        self.haunts = haunts
        self.weapons = weapons
        self.hs: HauntSpec | None = None
        self.mon: list[Monster] = []
        self.side: dict[str, str] = {}
        self.removed: set[str] = set()
        self.hstatus: dict[str, list[str]] = {}
        self.hflags: set[str] = set()
        self.track = 0
        self.used_places: set[str] = set()  # "rule/room" of rules that serve each place once
        self.htokens: dict[str, list[str]] = {}  # haunt token id -> rooms holding one (repeats allowed)
        self.pool: dict[str, int] = {}  # haunt tokens set aside, by id
        self.held: dict[str, list[str]] = {}  # haunt tokens carried like items, by seat
        self.earned: dict[str, int] = {}  # tokens a side has earned (by token id)
        self.done: set[str] = set()  # tasks that have succeeded at least once
        self.exited: set[str] = set()  # seats whose explorers left the house
        self.lethal = False  # a kill that ignores no_skull statuses is under way
        self.fetches: list[tuple[str, str, str]] = []  # (side, card, stack): take it instead of a draw
        self.fetch_floor: dict[str, str] = {}  # card of a fetch -> the floor the drawer must be on
        self.destroyed: list[str] = []  # cards a haunt destroyed (out of the game)
        self.next_omen: list[tuple[str, tuple[str, ...]]] = []  # (side, cards) taken at its next omen draw
        self.hooks_used: list[str] = []
        self.positioned = False
        self._trait = "might"  # the trait of the fight being settled
        self._weapon: str | None = None  # the weapon card of the explorer's attack being settled
        self.hero_killers: set[str] = set()  # explorers who won an attack that killed a hero
        self.hero_kills: dict[str, int] = {}  # seat -> heroes killed by attacks it won (``heroes_killed``)
        # seats that joined the traitor's side during the haunt, in order (``latest_convert``): heroes
        # turned (``turn_traitor``) and hidden traitors made by receiving the number (``swap_tokens``)
        self.converts: list[str] = []
        self.hidden_converts: set[str] = set()  # converts made hidden traitors by a swap: masked until they die
        # seat -> traits held as numbers (``trait_values``): {"values", "per_hero_killed", "minimum"}
        self.trait_values: dict[str, dict[str, Any]] = {}
        self.stunned_left = False
        self.rolled = ""  # the trait of the last task roll (for trait-used tokens)
        self.movement_roll = 0  # the last monster movement roll (amount ``of: movement-roll``)
        self.fight_margin = 0  # the margin of the fight being settled (amount ``of: fight-margin``)
        self.damage_source: str | None = None  # the winner of the fight whose damage is being taken
        self.damage_weapon: str | None = None  # the weapon of that winner's attack, if it attacked with one
        self.task_total = 0  # the result of the task roll just made (amount ``of: task-roll``)
        self.own_change = False  # a haunt outcome is changing traits (``traits_fixed`` lets it)
        self.control: dict[str, str] = {}  # monster kind -> side now controlling it
        self.collapsed: list[str] = []  # rooms a haunt has collapsed, in order
        self.collapsing = False
        self.joined: dict[str, int] = {}  # monster uid -> the round it joined a joint attack (attacks_together)
        self.collapse_state: dict[str, Any] = {}  # a ``collapse`` piece's progress (started, paused, stopped)
        self.collapse_by = ""  # an outcome hook that takes each step of the collapse instead of the floors' order
        self.timer_state: dict[str, dict[str, Any]] = {}
        self.pending_losses: list[str] = []
        self.deaths_pending: list[str] = []  # heroes who died since the last on-hero-death rules ran
        self.turn_mods: dict[str, set[str]] = {}  # seat -> limits on its next or current turn (no-move)
        self.carried: dict[str, str] = {}  # seat carried like an item (a Frog) -> the seat carrying it
        self.hook_state: dict[str, dict[str, Any]] = {}  # named hooks' own state (JSON-able), by hook id
        self.waiting_tokens: list[tuple[str, str]] = []  # (token, room): placed when the room is discovered
        self.waiting_pool: list[tuple[str, str]] = []  # (token, room): one from the pool when the room is discovered
        self.grips: dict[str, tuple[str, str]] = {}  # monster uid -> (seat held, the status holding it)
        self.waiting: list[tuple[str, tuple[str, ...]]] = []  # (monster kind, rooms): placed when one is found
        self.no_pickup: set[str] = set()  # "seat/card": cards the explorer may never pick up again
        self._graph_key: tuple[int, int, int] | None = None
        self._graph_cache: dict[str, set[str]] = {}
        self._back_cache: dict[str, list[str]] = {}  # the graph with the chutes taken backwards, sorted (_dist_to)
        self._dist_kept: dict[tuple[str, ...], dict[str, int]] = {}  # _dist_to's answers on that graph, by the goals
        # line_of_sight's answers, by room and house version, and the house they were found in
        self._sight_kept: dict[tuple[str, int], frozenset[str]] = {}
        self._sight_house: House | None = None
        # a monster's ways out of a room and its vertical passages (_room_ways), by what they read
        self._monster_exits: dict[tuple[Any, ...], tuple[list[tuple[str, int, str]], list[tuple[str, int, str]]]] = {}
        self.hround = 0
        self.result: Outcome | None = None
        self.dealt: dict[str, dict[str, int]] = {}  # numbered tokens dealt one per player: token -> seat -> number
        self.hidden: str | None = None  # the hidden traitor's seat (known to the engine, not to the table)
        # seat -> what the other side knows of a concealed explorer's room (``concealment``)
        self.concealed: dict[str, dict[str, Any]] = {}
        self.unmasked = False  # the hidden traitor has turned token 1 face up
        self.hidden_token = ""  # the token id dealt to pick the hidden traitor
        # a deal of several tokens each (``per_player``): token -> seat -> its face-down numbers, in hand order
        self.hands: dict[str, dict[str, list[int]]] = {}
        self.hidden_number = 1  # the number that makes its holder the hidden traitor
        self.swapped: dict[str, list[str]] = {}  # seat -> the explorers it has swapped tokens with
        self.rule_moment = ""  # the moment whose turn rules are being carried out (hooks read it)
        self.setting_up = False
        self.extra_turns: list[str] = []  # seats owed an extra turn before the first round (setup ``extra_turn``)
        asked = setup.options.get("haunt")
        # a designer's draft without a number plays as haunt DRAFT_NUMBER (0)
        draft = type(asked) is int and asked == DRAFT_NUMBER and DRAFT_NUMBER in setup.tables.haunts
        want = DRAFT_NUMBER if draft else whole_option(setup.options, "haunt")
        if want is not None and want not in setup.tables.haunts:
            raise ValueError(f"option haunt={want} names no haunt of the haunt chart")
        self.want = want
        self.force = bool(setup.options.get("force_haunt")) and want is not None
        self.rounds = whole_option(setup.options, "rounds") or DEFAULT_ROUNDS
        super().__init__(setup)

    def __copy__(self) -> Self:
        """``copy.copy``: a new state of the same spec whose every field is this state's own object
        (the seats' views of hidden information, ``seen_by`` and ``concealed_view``, are such copies).

        Written out for the compiled build, whose state is a native mypyc class: ``copy.copy``'s
        default (a bare ``__new__``, then the instance dict) cannot make one, since a native class's
        ``__new__`` runs ``__init__`` and it keeps its fields in slots, named by ``__mypyc_attrs__``.
        There the copy is made by the constructor (the game it starts is then replaced field by
        field); pure Python keeps the default's way, which is several times cheaper."""
        native = getattr(type(self), "__mypyc_attrs__", None)
        if native is None:
            other = type(self).__new__(type(self))
            vars(other).update(vars(self))
            return other
        other = type(self)(self.setup, self.haunts, self.weapons)
        for name in native:
            if name != "__dict__" and hasattr(self, name):  # "__dict__" is listed, but a native state has none
                setattr(other, name, getattr(self, name))
        return other

    def forced_haunt(self) -> int | None:
        """With option ``force_haunt``, the haunt of option ``haunt`` is played at the first reveal
        whatever the chart gives (a designer's draft, ``play --from-reveal``)."""
        return self.want if self.force else None

    def value(self, seat: str, trait: str) -> int:
        """A trait's value; a trait a haunt holds as a number (``trait_values``: on the Turn/Damage
        track rather than the character card) is that number, shifted by the heroes the explorer killed."""
        if self.trait_values:  # few haunts hold any: the rest read the card straight away
            held = self.trait_values.get(seat)
            if held is not None and trait in held["values"]:
                shift = int(held["per_hero_killed"].get(trait, 0)) * self.hero_kills.get(seat, 0)
                return max(int(held["minimum"]), int(held["values"][trait]) + shift)
        # the haunt phase's chain of classes is single inheritance: this is super()'s method,
        # without the look-up of super() on every trait read (snapshots, menus, rolls)
        return BetrayalState.value(self, seat, trait)

    def in_play(self, seat: str) -> bool:
        return not self.ex[seat].dead and seat not in self.removed and seat not in self.exited

    def heroes(self) -> list[str]:
        """Every seat on the heroes' side, dead or alive (counts include the dead)."""
        side = self.side
        return [s for s in self.seat_ids if side.get(s) == HERO]

    def living_heroes(self) -> list[str]:
        """The seats on the heroes' side in play (:meth:`in_play`), in seating order."""
        # heroes() and in_play() inlined in one pass: monster moves, attacks and goals ask at every step
        side, ex, removed, exited = self.side, self.ex, self.removed, self.exited
        return [s for s in self.seat_ids
                if side.get(s) == HERO and not ex[s].dead and s not in removed and s not in exited]

    def heroes_in(self, room: str) -> int:
        """How many living heroes (:meth:`living_heroes`) stand in ``room``: each slows a monster
        leaving it (``monster.slowed-by-heroes``)."""
        # one pass, no list or generator made: a monster's move asks at every step
        side, ex, removed, exited = self.side, self.ex, self.removed, self.exited
        n = 0
        for s in self.seat_ids:
            e = ex[s]
            if e.room == room and side.get(s) == HERO and not e.dead and s not in removed and s not in exited:
                n += 1
        return n

    def traitor(self) -> str | None:
        """The traitor's seat: the haunt's traitor, or the hidden traitor once dealt (the engine
        knows it; the table does not until it is revealed)."""
        if not self.haunt:
            return None
        return self.haunt.get("traitor") or self.hidden

    def seen_side(self, seat: str) -> str | None:
        """The side the table knows a seat to be on: an unrevealed hidden traitor plays as a hero
        in public (``hidden-traitor.token-one``)."""
        if self.masked(seat):
            return HERO
        return self.side.get(seat)

    def masked(self, seat: str) -> bool:
        """Whether ``seat`` is the hidden traitor and has not been revealed yet."""
        return (seat == self.hidden and not self.unmasked) or (
            seat in self.hidden_converts and not self.ex[seat].dead)

    def rivals(self, seat: str) -> bool:
        """Whether the explorer's side are one another's opponents (``move.haunt-rivals``)."""
        if self.hs is None:
            return False
        own = self.hs.sides().get(self.side.get(seat, HERO))
        return own is not None and own.rivals

    def has_company(self, seat: str, room: str) -> bool:
        """Whether any other explorer's figure (in play or not) is in ``room``. Every explorer an
        explorer meets in its room is among these, so the menus ask this first: most of the time an
        explorer is alone in its room and there is nobody there to sort into sides."""
        ex = self.ex
        for s in self.seat_ids:  # noqa: SIM110 - a plain loop: asked at every decision, no generator frame
            if s != seat and ex[s].room == room:
                return True
        return False

    def opponents_of(self, seat: str) -> list[str]:
        """Explorer seats on the other side as the table knows them, in play
        (``move.opponents-are-sides``): an unrevealed hidden traitor counts as a hero. With
        ``rivals`` every other explorer of the side too (``move.haunt-rivals``)."""
        mine = self.seen_side(seat)
        in_play = self.in_play
        if self.rivals(seat):
            return [s for s in self.seat_ids if s != seat and in_play(s) and self.side.get(s) is not None]
        # seen_side inlined: this runs for every move and attack offered
        hidden = None if self.unmasked else self.hidden
        converts = self.hidden_converts
        side = self.side
        out = []
        for s in self.seat_ids:
            if s != seat and in_play(s):
                theirs = HERO if s == hidden or s in converts else side.get(s)
                if theirs is not None and theirs != mine:
                    out.append(s)
        return out

    def allies_of(self, seat: str) -> list[str]:
        """The explorers in play working with this one (itself included): its side, unless the
        side are rivals."""
        if self.rivals(seat):
            return [seat] if self.in_play(seat) else []
        return [s for s in self.seat_ids if self.in_play(s) and self.side.get(s) == self.side.get(seat)]

    def active_monsters(self, room: str | None = None) -> list[Monster]:
        """The monsters in play (not gone), in ``room`` if one is given."""
        if room is None:
            return [m for m in self.mon if not m.gone]
        return [m for m in self.mon if not m.gone and m.room == room]

    def monster(self, uid: str) -> Monster:
        for m in self.mon:
            if m.uid == uid:
                return m
        raise KeyError(uid)

    def mdef(self, m: Monster) -> MonsterDef:
        assert self.hs is not None
        return self.hs.monsters[m.kind]

    def mname(self, m: Monster) -> str:
        base = self.mdef(m).name
        if m.counterpart:
            return f"{base} of {self.name(m.counterpart)}"
        same = [x for x in self.mon if x.kind == m.kind]
        return base if len(same) == 1 else f"{base} {m.uid.rsplit('-', 1)[-1]}"

    def monster_controller(self, m: Monster) -> str:
        """The seat that decides for a monster (``traitor.runs-monsters``, even after the traitor dies)."""
        how = self.mdef(m).controlled_by
        if m.counterpart and how != "own-dead-hero-player" and self.ex[m.counterpart].dead:
            return m.counterpart  # a dead explorer risen as a monster (rise_as) is run by its own player
        if how == "own-dead-hero-player" and m.counterpart:
            # judgement: while its hero lives, the player to that hero's left steers the Twin
            # along its forced shortest path; once the hero dies, that player takes it over.
            return m.counterpart if self.ex[m.counterpart].dead else self.left_of(m.counterpart)
        t = self.traitor()
        return t if t is not None else self.haunt["revealer"] if self.haunt else self.seat_ids[0]

    def _run_now(self, program: Gen[None]) -> None:
        """Run a sub-program that must not ask anyone anything (inside a trait change)."""
        try:
            req = next(program)
        except StopIteration:
            return
        raise RuntimeError(f"{req.actor} would have to decide ({req.what}) where no decision can be asked")

    def _add_monster(self, mdef: MonsterDef, room: str, index: int = 0, rule: str = "haunt.setup-right-now") -> Monster:
        assert self.hs is not None
        uid = f"{mdef.id}-{sum(1 for m in self.mon if m.kind == mdef.id) + 1}"
        stats: dict[str, int] = {}
        counterpart = ""
        if mdef.stats_from == "counterpart-at-haunt-start":
            counterpart = self.seat_ids[index % self.n]
            stats = {t: self.value(counterpart, t) for t in TRAITS}
        else:
            stats = self.printed_stats(mdef)
        m = Monster(uid, mdef.id, room, stats, counterpart=counterpart)
        walk = mdef.movement.get("straight_ahead")
        if walk:
            m.facing = SIDES.index(str(walk["facing"]))  # every such monster starts facing the same way
        self.mon.append(m)
        self.emit(rule, f"{self.mname(m)} enters in {self.room_name(room)} ("
                  + (", ".join(f"{k} {v}" for k, v in sorted(stats.items())) or "no traits") + ")",
                  monster=uid, kind=mdef.id, room=room, seat=counterpart or None, **stats)
        return m

    def speed(self, seat: str) -> int:
        """The spaces the explorer moves a turn: its Speed, or the ``moves_at`` of a status
        (haunt 35's pilot flies the Toy Airplane at its Speed of 5)."""
        fixed = self.status_value(seat, "moves_at")
        return int(fixed) if fixed is not None else super().speed(seat)

    def status_value(self, seat: str, key: str) -> Any:
        """The value of ``key`` in the first of the explorer's statuses that sets it (None if none does)."""
        if self.hs is None:
            return None
        for s in self.hstatus.get(seat, ()):
            value = self.hs.statuses.get(s, {}).get(key)
            if value is not None:
                return value
        return None

    def allied(self, m: Monster) -> bool:
        """``controlled_by: heroes``: a monster on the heroes' side (Comes the Hero's Statue, the
        Feast's Victims) - the traitor may attack it, the heroes do not, and it takes no monster turn."""
        return self.mdef(m).controlled_by == HERO

    def leave_remains(self, m: Monster) -> None:
        """``remains``: a killed monster of the kind leaves that haunt token in its room (a Corpse)."""
        token = self._monster_raw(self.mdef(m)).get("remains")
        if token and m.gone == "killed":
            self.htokens.setdefault(str(token), []).append(m.room)
            self.emit("haunt.rules-override", f"{self.mname(m)} leaves a {token} token in {self.room_name(m.room)}",
                      monster=m.uid, token=str(token), room=m.room)

    def movement_left(self, seat: str) -> int:
        mods = self.turn_mods.get(seat, _NO_MODS)  # no set made for the many explorers without mods
        if not mods and self.hs is None:
            return super().movement_left(seat)  # before the haunt (no turn modifiers, no burden): asked at every menu
        if "no-move" in mods:
            return 0
        left = super().movement_left(seat)
        # only the turn's mods, held tokens and statuses take spaces away: most explorers have none
        burden = self.burden(seat) if seat in self.held or self.hstatus.get(seat) else 0
        if not mods and not burden:
            return left
        cuts = [k.split(":")[1:] for k in mods if k.startswith("move-fewer:")]
        if burden:
            cuts.append([str(burden), "1"])
        if cuts and not self.turn.stopped:
            # the penalty comes off the turn's whole allowance, which it never takes below the floor
            allowance = self.speed(seat) + self.turn.extra
            least = max(int(c[1]) for c in cuts)
            cut = max(0, min(sum(int(c[0]) for c in cuts), allowance - least))
            left = max(0, left - cut)
        # "slowed:N": N spaces fewer this turn (haunt 24's latched Bats), one space always left
        slow = sum(int(k.split(":", 1)[1]) for k in mods if k.startswith("slowed:"))
        if slow and left > 0 and self.turn.seat == seat:
            return max(left - slow, 1 if self.turn.moved == 0 else 0)
        return left

    def burden(self, seat: str) -> int:
        """Spaces a turn the explorer loses to what it carries and wears: the ``move_fewer`` of
        each haunt token it holds and of each of its statuses (the Shield, the Antique Armor)."""
        if self.hs is None:
            return 0
        held = 0
        tokens = self.held.get(seat)
        if tokens:  # most explorers hold no haunt token: the file's tokens need no reading then
            raw = {str(t.get("id")): t for t in self.haunts[self.hs.number][1].get("tokens", ())}
            held = sum(int(raw.get(t, {}).get("move_fewer", 0)) for t in tokens)
        worn = sum(int(self.hs.statuses.get(s, {}).get("move_fewer", 0)) for s in self.hstatus.get(seat, []))
        return held + worn

    def door_adjacent(self, room: str) -> set[str]:
        """Rooms joined to ``room`` by a connecting doorway (both doors meet), on its floor; the
        rooms of the starting strip are joined by the open doorways of their one tile."""
        out = {c.to for c in self.t.rooms[room].connections if c.kind == "strip" and c.to in self.house.spots}
        for side in self.house.doors(room):
            other, meets = self.house.door_neighbour(room, side)
            if other is not None and meets:
                out.add(other)
        return out

    def line_of_sight(self, room: str) -> frozenset[str]:
        """Rooms seen from ``room``: straight on through joined doorways on one floor. Kept by the
        room and the house's version (the doors and tiles it reads change only with the version),
        for this house only: a monster that chases what it sees looks at every step of its move."""
        house = self.house
        if self._sight_house is not house:
            self._sight_kept, self._sight_house = {}, house
        key = (room, house.version)
        kept = self._sight_kept.get(key)
        if kept is None:
            if len(self._sight_kept) > 512:
                self._sight_kept.clear()  # old versions of the house: never asked again
            kept = self._sight_kept[key] = frozenset(self.work_out_line_of_sight(room))
        return kept

    def work_out_line_of_sight(self, room: str) -> set[str]:
        """:meth:`line_of_sight` worked out anew."""
        seen: set[str] = set()
        for side in range(4):
            cur = room
            while side in self.house.doors(cur):
                other, meets = self.house.door_neighbour(cur, side)
                if other is None or not meets or other in seen:
                    break
                seen.add(other)
                cur = other
        return seen

    def printed_stats(self, mdef: MonsterDef) -> dict[str, int]:
        """A monster kind's stats as printed now: its row by the Turn/Damage track, or its fixed
        stats, a ``{table: id}`` one read for the player count or a formula; traits it lacks are left out."""
        source: Mapping[str, Any] = self._track_row(mdef) if mdef.stats_by_track else mdef.stats
        stats: dict[str, int] = {}
        for t, v in source.items():
            if isinstance(v, Mapping) and "table" in v and self.hs is not None:
                stats[t] = self.hs.amount(v, self.n)
            elif isinstance(v, Mapping):
                stats[t] = self.as_haunt_state()._amount(v)  # a formula (the Elder God's Speed = the players)
            elif isinstance(v, int) and not isinstance(v, bool):
                stats[t] = v
        return stats

    def _track_row(self, mdef: MonsterDef) -> Mapping[str, int | str]:
        # before the track is set up the first row applies
        return mdef.stats_at(max(self.track, int(mdef.stats_by_track[0]["track"])))

    def mstat(self, m: Monster, trait: str) -> int:
        """A monster's trait now (rows by Turn/Damage track value where the haunt gives them)."""
        mdef = self.mdef(m)
        if mdef.stats_by_track:
            value = self._track_row(mdef).get(trait)
            return value if isinstance(value, int) and not isinstance(value, bool) else 0
        return m.stats.get(trait, 0)

    def _dice(self, seat: str | None, m: Monster | None, trait: str, bonus: int = 0, cap: int = 8) -> int:
        base = self.value(seat, trait) if seat is not None else (self.mstat(m, trait) if m is not None else 0)
        return max(0, min(cap, 8, base + bonus))

    def move_track(self, by: int, why: str) -> None:
        """The Turn/Damage track moves by ``by`` (never below 0)."""
        before, self.track = self.track, max(0, self.track + by)
        if self.track != before:
            self.emit("haunt.rules-override", f"{why}: the Turn/Damage track goes from {before} to {self.track}",
                old=before, track=self.track)

    def monster_items_changed(self, m: Monster, delta: int) -> None:
        """``carries.on_track``: each item a monster gains puts the track up by 1 and each item it
        loses puts it down by 1 (A Breath of Wind's Poltergeist)."""
        if delta and self.mdef(m).carries.get("on_track"):
            self.move_track(delta, f"{self.mname(m)} {'gains' if delta > 0 else 'loses'} {abs(delta)} "
                            f"item{'s' if abs(delta) > 1 else ''}")

    def _room_of(self, who: str) -> str:
        return self.ex[who].room if who in self.ex else self.monster(who).room

    def _who_name(self, who: str) -> str:
        return self.name(who) if who in self.ex else self.mname(self.monster(who))

    def _dead(self, who: str) -> bool:
        return self.ex[who].dead if who in self.ex else bool(self.monster(who).gone)

    def together(self, a: str, b: str) -> bool:
        """Two figures (seats or monster ids) can interact: same room and, in a barrier room, the
        same side of it (``room.barrier.no-interaction-across``)."""
        if self._room_of(a) != self._room_of(b):
            return False
        return self._part_of(a) == self._part_of(b) or len(self.t.rooms[self._room_of(a)].barrier) < 2

    def _part_of(self, who: str) -> int:
        return self.ex[who].part if who in self.ex else self.monster(who).part

    #: The haunt spec :attr:`_raw_monsters_kept` is for, with its file's monster entries by id.
    _raw_monsters_kept: tuple[HauntSpec, dict[str, Mapping[str, Any]]] | None = None

    def _monster_raw(self, mdef: MonsterDef) -> Mapping[str, Any]:
        """The monster kind's entry as the haunt file writes it (empty if it has none)."""
        hs = self.hs
        assert hs is not None
        kept = self._raw_monsters_kept
        if kept is None or kept[0] is not hs:
            raw = self.haunts[hs.number][1]
            # the haunt file is the one the haunt spec was read from (haunts holds them as a pair), so
            # its entries by id are kept on the spec, and on the state by the spec: a monster's every step asks
            kept = self._raw_monsters_kept = (hs, hs.derived("raw-monsters", lambda spec: raw_monsters(raw)))
        return kept[1].get(mdef.id, {})

    def monster_ways(self, m: Monster) -> MonsterWays:
        """What the monster's steps depend on that its haunt file fixes (:class:`MonsterWays`),
        worked out once per kind."""
        assert self.hs is not None
        kept: dict[str, MonsterWays] = self.hs.derived("monster-ways", no_ways)
        ways = kept.get(m.kind)
        if ways is None:
            mdef = self.mdef(m)
            ways = kept[m.kind] = MonsterWays.of(mdef, self._monster_raw(mdef))
        return ways

    def villain_round(self) -> int:
        return self.hround

    def tile_may_go_to(self, floor: str, tile: str) -> bool:
        """The haunt's text wins over the room's (``haunt.rules-override``): in The Seance the
        Mystic Elevator cannot go to a floor whose rooms have all collapsed."""
        if not super().tile_may_go_to(floor, tile):
            return False
        rooms = [r for r in self.house.rooms_on(floor) if r != tile]
        if self.collapsed and rooms and all(r in self.collapsed for r in rooms):
            self.emit("haunt.rules-override", f"every room of the {floor} floor has collapsed: the "
                      f"{self.room_name(tile)} cannot go there", floor=floor, room=tile)
            return False
        return True

    def _room_exits(self, room: str) -> list[tuple[str, int, str]]:
        """A monster's ways out of a room: every doorway, whichever side of a barrier it is on
        (``room.barrier.monsters-ignore``), and the vertical passages it may use both ways. Kept
        by what they read: the room, the house version (the tiles placed and so the rooms a
        passage needs), the links, the roll-gated passages and where the fall landings are
        marked; a monster asks at every step of its move. The kept list is never changed."""
        return self._room_ways(room)[0]

    def kept_vertical_passages(self, room: str) -> list[tuple[str, int, str]]:
        """:meth:`vertical_passages`, kept with :meth:`_room_exits` by the same key (the passages
        read the house and the fall landings, both in it): a monster looks for the passage it
        took after every step. The kept list is never changed."""
        return self._room_ways(room)[1]

    def _room_ways(self, room: str) -> tuple[list[tuple[str, int, str]], list[tuple[str, int, str]]]:
        """:meth:`_room_exits` and :meth:`vertical_passages` of the room, kept together."""
        key = (room, self.house.version, len(self.links), tuple(self.passages), self._landings())
        got = self._monster_exits.get(key)
        if got is None:
            if len(self._monster_exits) > 512:
                self._monster_exits.clear()  # old versions of the house: never asked again
            passages = self.vertical_passages(room)
            got = self._monster_exits[key] = (self._work_out_room_exits(room, passages), passages)
        return got

    def _work_out_room_exits(self, room: str, passages: list[tuple[str, int, str]] | None = None) -> list[tuple[str, int, str]]:
        """:meth:`_room_exits` worked out anew (``passages``: the room's :meth:`vertical_passages`, if
        already found)."""
        out = list(self.exits_at(room, 0, every_side=True))
        seen = {r for r, _, _ in out}
        out += [x for x in (self.vertical_passages(room) if passages is None else passages) if x[0] not in seen]
        seen |= {r for r, _, _ in out}
        # ``monster.revolving-wall``: through a Revolving Wall without its roll, one space (judgement,
        # as for the vertical passages: the card frees explorers' steps, a monster's move stays finite)
        for a, b, token in self.passages:
            other = b if a == room else a if b == room else None
            if other is not None and other not in seen and other in self.house.spots:
                seen.add(other)
                out.append((other, 1, f"passage:{token}"))
        return out

    def _drop_rooms(self) -> list[tuple[str, list[Connection]]]:
        """The rooms with chutes, falls and jumps (:func:`~hauntcheck.engine.betrayal.haunt.ways.drop_rooms`)."""
        return self.t.derived("drop-rooms", drop_rooms)

    def _landings(self) -> tuple[tuple[str, str], ...]:
        """Each token marking where a fall in the house lands (the Collapsed Room's: placed by its
        first fall) with its room, in the order of ``tokens``; none while no such room is placed."""
        spots = self.house.spots
        marks = [token for rid, token in self._landing_marks() if rid in spots]
        if not marks:
            return ()
        return tuple((t, r) for r, ts in self.tokens.items() for t in ts if t in marks)

    def _landing_marks(self) -> list[tuple[str, str]]:
        """The falls of :meth:`_drop_rooms` that land where a token marks (room, token)."""
        return self.t.derived("landing-marks", landing_marks)

    def vertical_passages(self, room: str) -> list[tuple[str, int, str]]:
        """``monster.vertical-passages``: a monster moves freely up and down the passages between
        floors that room text makes explorers slide, fall or jump along (the Coal Chute, the
        Collapsed Room, the Gallery: ``room.gallery.monsters-climb-up``), one space each way
        (judgement: the rulebook does not count them; a step keeps a monster's move finite). A
        Collapsed Room nobody has fallen through yet leads down to any basement room
        (``room.collapsed-room.monster-first``): the first monster's landing is marked there."""
        out: list[tuple[str, int, str]] = []
        marked = dict(self._landings())
        for rid, drops in self._drop_rooms():
            if rid not in self.house.spots:
                continue
            for c in drops:
                if c.requires and not self._cond_simple(c.requires):
                    continue
                if c.to in self.t.rooms:
                    ends = [c.to] if c.to in self.house.spots else []
                elif c.to in marked:
                    ends = [marked[c.to]]
                else:  # the first fall: the monster chooses where it lands
                    ends = self.house.rooms_on("basement") if rid == room else []
                if rid == room:
                    out += [(end, 1, f"{c.kind}-down") for end in ends if end != room]
                elif room in ends:
                    out.append((rid, 1, f"{c.kind}-up"))
        return out

    def _graph(self) -> dict[str, set[str]]:
        """The house as an undirected graph of rooms (doors, stairs and links, every side of a
        barrier room), cached until a tile is placed or taken away, a link is added or a room
        falls. Drawing a tile changes no way through the house, so the tile draws are not in the
        key (as in the explorers' own ``exits`` cache)."""
        key = (self.house.version, len(self.links), len(self.collapsed))
        if self._graph_key == key:
            return self._graph_cache
        # under a ``collapse`` piece nobody enters a fallen room: it is no way through
        gone = set(self.collapsed) if self.hs is not None and any(
            s.collapse is not None for s in self.hs.sides().values()) else set()
        graph: dict[str, set[str]] = {r: set() for r in self.house.spots if r not in gone}
        for room in sorted(graph):
            for part in range(max(1, len(self.t.rooms[room].barrier))):
                # the kept exits of each side, as an explorer there has them (``_exits_of``), with no
                # explorer made to ask: a house has some 30 rooms, and the graph is built anew at
                # nearly every monster turn (a tile placed since the last one)
                for other, _, _ in self.exits_at(room, part):
                    if other in graph:
                        graph[room].add(other)
                        graph[other].add(room)
        back: dict[str, set[str]] = {r: set(n) for r, n in graph.items()}
        for room in graph:
            for c in self.t.rooms[room].connections:
                if c.kind == "chute" and c.to in back:
                    back[c.to].add(room)
        # sorted once here rather than at every room of every search (``_dist_to``)
        self._graph_key, self._graph_cache = key, graph
        self._back_cache = {r: sorted(n) for r, n in back.items()}
        self._dist_kept = {}  # a new dict, not cleared: a view of the game may share the old one
        return graph

    def _dist_to(self, goals: Iterable[str]) -> dict[str, int]:
        """Spaces from every room to the nearest of ``goals`` (a breadth-first search backwards,
        with the one-way chutes that room text slides you down). Kept with the graph, by the goals
        as asked (a monster heading for the heroes asks again at every step of its move, and at the
        next monster turn if no tile was placed): the answer is shared, not to be changed."""
        self._graph()
        asked = tuple(goals)
        kept = self._dist_kept.get(asked)
        if kept is None:
            if len(self._dist_kept) > 64:
                self._dist_kept.clear()  # goals asked once (the heroes have moved on)
            kept = self._dist_kept[asked] = self.work_out_dist_to(asked)
        return kept

    def work_out_dist_to(self, goals: Iterable[str]) -> dict[str, int]:
        """:meth:`_dist_to` worked out anew on the kept graph."""
        self._graph()
        back = self._back_cache  # built with the graph: both change only when a tile or link does
        frontier = sorted({g for g in goals if g in back})
        dist = dict.fromkeys(frontier, 0)
        while frontier:
            nxt: list[str] = []
            for room in frontier:
                for other in back[room]:
                    if other not in dist:
                        dist[other] = dist[room] + 1
                        nxt.append(other)
            frontier = nxt
        return dist

    def holds(self, seat: str, thing: str) -> bool:
        """A card or a haunt token carried like an item."""
        return thing in self.ex[seat].cards or thing in self.held.get(seat, [])

    def _token_left(self, seat: str, token: str) -> bool:
        """Whether a ``take_token`` by this explorer would find one (in its room or set aside)."""
        return self.ex[seat].room in self.htokens.get(token, []) or self.pool.get(token, 0) > 0

    def _carried(self, token: str) -> bool:
        """A haunt token carried like an item (``item.tokens-like-cards``)."""
        return self.hs is not None and token in self.hs.tokens and self.hs.tokens[token].carried_as_item

    def _room_for_token(self, seat: str, token: str) -> bool:
        """Whether the explorer may take one more of these tokens (the token's ``carry_limit``), and
        is of the side allowed to carry it (``carried_by``)."""
        tdef = self.hs.tokens.get(token) if self.hs is not None else None
        if tdef is None:
            return True
        if tdef.carried_by is not None and self.side.get(seat, HERO) != tdef.carried_by:
            return False
        return tdef.carry_limit is None or self.held.get(seat, []).count(token) < tdef.carry_limit

    def carrying_cost(self, carrier: str) -> int:
        """Spaces it costs to enter a room for an explorer (or a monster, by its uid) carrying
        tokens with a ``move_cost``: the dearest of them, 1 when none."""
        if self.hs is None or carrier not in self.held:
            return 1
        tokens = self.hs.tokens
        return max((tokens[t].move_cost for t in self.held[carrier] if t in tokens), default=1)

    def partners(self, m: Monster) -> list[Monster]:
        """The other parts of a paired monster (``paired_with``: the same number, the other kind)."""
        assert self.hs is not None
        kinds = {k for k, d in self.hs.monsters.items() if d.paired_with == m.kind} | {self.mdef(m).paired_with}
        number = m.uid.rsplit("-", 1)[-1]
        return [x for x in self.mon if x.kind in kinds and x.uid.rsplit("-", 1)[-1] == number and not x.gone]

    def _after_hook(self, seat: str) -> Gen[None]:
        """Cards an action hook took away from the explorer lose their effects."""
        for card in self.pending_losses:
            yield from effects.lose_card(self, seat, card)
        self.pending_losses = []

    def waives_room_text(self, seat: str, ability: Mapping[str, Any]) -> bool:
        """A status that blocks ``make-room-rolls`` spares room text that rolls, and one that
        blocks ``take-damage-from-rooms`` room text that hurts (damage or trait loss)."""
        verbs: set[str] = set()
        if self._blocks(seat, "make-room-rolls"):
            verbs.add("roll")
        if self._blocks(seat, "take-damage-from-rooms"):
            verbs |= {"damage", "lose"}
        return bool(verbs) and _mentions(ability.get("do", []), verbs)

    def spares_room(self, seat: str, room: str) -> bool:
        """A status's ``unaffected_by_rooms``: those rooms' own text does nothing for the explorer
        (haunt 35's shrunken explorers and the Gallery, Gymnasium and Vault)."""
        return room in (self.status_value(seat, "unaffected_by_rooms") or ())

    def room_jammed(self, room: str) -> bool:
        """A haunt hook stops the room's own text from working (the Mystic Elevator with a Tip in it)."""
        rooms = registry.hook.room
        return self.hs is not None and any(rooms[h](self.as_haunt_state(), room) for h in self.hooks_used if h in rooms)

    def _blocks(self, seat: str, what: str) -> bool:
        """Whether one of the explorer's statuses blocks ``what`` (its ``blocks`` list)."""
        statuses = self.hstatus.get(seat)
        if not statuses or self.hs is None:
            return False  # asked many times a step, mostly of explorers without statuses
        blocks = self.hs.derived("status-blocks", _status_blocks)
        for s in statuses:  # noqa: SIM110 - a plain loop, no generator: asked several times at every menu
            if what in blocks.get(s, ()):
                return True
        return False

    def as_haunt_state(self) -> HauntState:
        """This state as the whole game, the type named hooks are written against."""
        return cast("HauntState", self)

    # Rules defined higher in the chain that rules lower down call (see the module docstring).

    def _setup_step(self, side: str, step_: Mapping[str, Any], only: str | None = None) -> Gen[None]:
        """One "Right Now" setup step (:class:`~hauntcheck.engine.betrayal.haunt.setup_steps.SetupSteps`)."""
        raise NotImplementedError

    def _fetch_room(self, spec: Mapping[str, Any]) -> Gen[None]:
        """A room taken from the stack and placed (:class:`~hauntcheck.engine.betrayal.haunt.setup_steps.SetupSteps`)."""
        raise NotImplementedError

    def _location(self, where: Mapping[str, Any], used: set[str], what: str) -> Gen[str]:
        """The room a placement names (:class:`~hauntcheck.engine.betrayal.haunt.setup_steps.SetupSteps`)."""
        raise NotImplementedError

    def _place_tokens(self, spec: Mapping[str, Any]) -> Gen[None]:
        """A ``place`` of haunt tokens (:class:`~hauntcheck.engine.betrayal.haunt.setup_steps.SetupSteps`)."""
        raise NotImplementedError


def _status_blocks(hs: HauntSpec) -> dict[str, frozenset[str]]:
    """What each status of the haunt file blocks (its ``blocks``), as a set: asked of every
    status an explorer has, many times a step."""
    return {name: frozenset(str(w) for w in status.get("blocks", ())) for name, status in hs.statuses.items()}


def _mentions(node: Any, verbs: set[str]) -> bool:
    """Whether an effect list uses any of ``verbs``, at any depth."""
    if isinstance(node, Mapping):
        return any(k in verbs or _mentions(v, verbs) for k, v in node.items())
    if isinstance(node, list):
        return any(_mentions(x, verbs) for x in node)
    return False


#: An explorer's turn modifiers when it has none (:meth:`HauntBase.movement_left`).
_NO_MODS: frozenset[str] = frozenset()
