"""Betrayal after the reveal: the haunt phase, driven by the haunt's spec file.

:class:`HauntState` extends the part-1 state (:class:`~hauntcheck.engine.betrayal.state.BetrayalState`)
at one seam, the turn sequence (``_turns``): once the haunt is revealed it

* reads the haunt's file (``spec/betrayal/haunts/NN-slug.yaml``) through a small interpreter of
  the haunt vocabulary (``docs/haunt-format.md``) - the "Right Now" setup, monsters, statuses,
  attack rules, monster ``must`` rules and win conditions are data, interpreted here once;
* runs the rounds in the haunt's order (``turn.order-after-haunt``): the player to the traitor's
  left first (the revealer's left when there is no traitor), the heroes, the traitor, then the
  monster turn;
* adds the haunt-phase rules of the rulebook: one attack per turn with Might or another trait,
  weapons, distance attacks, stealing, death at the skull, opponents slowing movement, monsters
  (group movement rolls, stun, no exploring), and win evaluation after every step.

Haunts whose vocabulary the interpreter does not cover yet (:data:`PLAYABLE`) end at the reveal
as ``undecided`` with the reason in the outcome: the engine never guesses a haunt's rules.

A game carries a round limit (option ``rounds``, default :data:`DEFAULT_ROUNDS`); a game that
reaches it ends ``undecided`` - a failure to report, never a result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.hauntspec import HauntSpec, MonsterDef, custom_hooks_used, load_haunt
from hauntcheck.engine.betrayal.house import step
from hauntcheck.engine.betrayal.model import PHYSICAL, SIDES, TRAITS
from hauntcheck.engine.betrayal.state import BetrayalState, Explorer, Gen, Req, Setup
from hauntcheck.engine.core import CHANCE, Action, Draw, Event, GameState, Outcome, RuleBook, Shuffle
from hauntcheck.engine.games import rulebook
from hauntcheck.engine.spec import GameSpec

#: Haunts whose every setup step, rule and goal the interpreter below carries out.
PLAYABLE: frozenset[int] = frozenset({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 31, 34})
DEFAULT_ROUNDS = 40
HERO, TRAITOR = "heroes", "traitor"


@dataclass(slots=True)
class Monster:
    """One monster token in the house."""

    uid: str  # "zombie-1"
    kind: str  # the monster id in the haunt file
    room: str
    stats: dict[str, int] = field(default_factory=dict)
    stunned: bool = False
    gone: str = ""  # "" while in play; else how it left: killed, trapped, banished
    damage: int = 0
    counterpart: str = ""  # the seat whose double this is (Evil Twins)
    cards: list[str] = field(default_factory=list)  # items and companions it carries
    part: int = 0  # side of a barrier room it stopped on (chosen by its controller)


@dataclass(frozen=True, slots=True)
class Weapon:
    card: str
    trait: str
    defend: str
    bonus: int
    ranged: bool
    cap: int = 8


def _whole(options: Mapping[str, Any], name: str) -> int | None:
    """A positive whole-number option, or None when it is not given."""
    value = options.get(name)
    if value in (None, "", False):
        return None
    try:
        number = int(str(value))
    except ValueError:
        raise ValueError(f"option {name} must be a whole number, got {value!r}") from None
    if number < 1:
        raise ValueError(f"option {name} must be at least 1, got {value!r}")
    return number


def load_haunts(spec: Any) -> dict[int, tuple[HauntSpec, Mapping[str, Any]]]:
    """Every haunt file of the spec by number: the typed record and the raw data."""
    out: dict[int, tuple[HauntSpec, Mapping[str, Any]]] = {}
    for file in spec.by_kind("haunt"):
        record = load_haunt(file.data)
        out[record.number] = (record, file.data)
    return out


def load_weapons(spec: Any) -> dict[str, Weapon]:
    """The weapon cards (items and omens with a ``weapon`` entry) by card id."""
    out: dict[str, Weapon] = {}
    for kind in ("items", "omens"):
        for file in spec.by_kind(kind):
            for card in file.data["cards"]:
                w = card.get("weapon")
                if not isinstance(w, Mapping):
                    continue
                trait = str(w.get("attack_trait", "might"))
                out[str(card["id"])] = Weapon(
                    card=str(card["id"]), trait=trait, defend=str(w.get("defend_trait", trait)),
                    bonus=int(w.get("bonus_dice", 0)), ranged=bool(w.get("ranged", False)),
                    cap=int(w.get("max_dice", 8)),
                )
    return out


class HauntState(BetrayalState):
    """The whole game: exploration (part 1), the reveal, and the haunt to its end."""

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
        self.destroyed: list[str] = []  # cards a haunt destroyed (out of the game)
        self.next_omen: list[tuple[str, tuple[str, ...]]] = []  # (side, cards) taken at its next omen draw
        self.hooks_used: list[str] = []
        self.positioned = False
        self._trait = "might"  # the trait of the fight being settled
        self.stunned_left = False
        self.rolled = ""  # the trait of the last task roll (for trait-used tokens)
        self.control: dict[str, str] = {}  # monster kind -> side now controlling it
        self.collapsed: list[str] = []  # rooms a haunt has collapsed, in order
        self.collapsing = False
        self.timer_state: dict[str, dict[str, Any]] = {}
        self.pending_losses: list[str] = []
        self.turn_mods: dict[str, set[str]] = {}  # seat -> limits on its next or current turn (no-move)
        self.carried: dict[str, str] = {}  # seat carried like an item (a Frog) -> the seat carrying it
        self.hook_state: dict[str, dict[str, Any]] = {}  # named hooks' own state (JSON-able), by hook id
        self.waiting_tokens: list[tuple[str, str]] = []  # (token, room): placed when the room is discovered
        self.grips: dict[str, tuple[str, str]] = {}  # monster uid -> (seat held, the status holding it)
        self.waiting: list[tuple[str, tuple[str, ...]]] = []  # (monster kind, rooms): placed when one is found
        self.no_pickup: set[str] = set()  # "seat/card": cards the explorer may never pick up again
        self._graph_key: tuple[int, int, int] | None = None
        self._graph_cache: dict[str, set[str]] = {}
        self.hround = 0
        self.result: Outcome | None = None
        self.dealt: dict[str, dict[str, int]] = {}  # numbered tokens dealt one per player: token -> seat -> number
        self.hidden: str | None = None  # the hidden traitor's seat (known to the engine, not to the table)
        self.unmasked = False  # the hidden traitor has turned token 1 face up
        self.hidden_token = ""  # the token id dealt to pick the hidden traitor
        self.rule_moment = ""  # the moment whose turn rules are being carried out (hooks read it)
        self.setting_up = False
        want = _whole(setup.options, "haunt")
        if want is not None and want not in setup.tables.haunts:
            raise ValueError(f"option haunt={want} names no haunt of the haunt chart")
        self.want = want
        self.rounds = _whole(setup.options, "rounds") or DEFAULT_ROUNDS
        super().__init__(setup)

    # ---------------------------------------------------------------------------------------
    # GameState interface

    def _apply(self, action: Action) -> list[Event]:
        super()._apply(action)
        if self.carried:
            self._sync_carried()
        if self._req is not None and self.hs is not None and self.result is None:
            self._check_wins()
            if self.result is not None:
                self._gen.close()
                self._req = None
        return self._events

    def outcome(self) -> Outcome | None:
        if self.result is not None:
            return self.result
        return super().outcome()

    def restart(self) -> HauntState:
        other = self.rebuild() if self.rebuild is not None else HauntState(self.setup, self.haunts, self.weapons)
        assert isinstance(other, HauntState)
        return other

    def clone(self) -> HauntState:
        other = self.restart()
        for action in self.history:
            other.apply(action)
        return other

    def snapshot(self) -> dict[str, Any]:
        data = super().snapshot()
        data["haunt_phase"] = {
            "round": self.hround,
            "sides": dict(sorted(self.side.items())),
            "removed": sorted(self.removed),
            "statuses": {s: list(v) for s, v in sorted(self.hstatus.items()) if v},
            "flags": sorted(self.hflags),
            "track": self.track,
            "used_places": sorted(self.used_places),
            "tokens": {k: sorted(v) for k, v in sorted(self.htokens.items()) if v},
            "pool": dict(sorted(self.pool.items())),
            "held": {k: list(v) for k, v in sorted(self.held.items()) if v},
            "earned": dict(sorted(self.earned.items())),
            "done": sorted(self.done),
            "exited": sorted(self.exited),
            "destroyed": list(self.destroyed),
            "control": dict(sorted(self.control.items())),
            "collapsed": list(self.collapsed),
            "collapsing": self.collapsing,
            "timers": {k: dict(sorted(v.items())) for k, v in sorted(self.timer_state.items())},
            "turn_mods": {k: sorted(v) for k, v in sorted(self.turn_mods.items()) if v},
            "carried": dict(sorted(self.carried.items())),
            "hook_state": {k: dict(sorted(v.items())) for k, v in sorted(self.hook_state.items())},
            "waiting_tokens": [list(x) for x in self.waiting_tokens],
            "grips": {k: list(v) for k, v in sorted(self.grips.items())},
            "waiting": [[k, list(r)] for k, r in self.waiting],
            "no_pickup": sorted(self.no_pickup),
            "dealt": {k: dict(sorted(v.items())) for k, v in sorted(self.dealt.items())},
            "hidden_traitor": {"seat": self.hidden, "revealed": self.unmasked} if self.hidden else None,
            "monsters": [
                {"id": m.uid, "room": m.room, "stunned": m.stunned, "gone": m.gone, "damage": m.damage,
                 "counterpart": m.counterpart, "stats": dict(sorted(m.stats.items())), "cards": list(m.cards),
                 "part": m.part}
                for m in self.mon
            ],
            "result": self.result.to_data() if self.result else None,
        }
        return data

    # ---------------------------------------------------------------------------------------
    # Who is who

    def in_play(self, seat: str) -> bool:
        return not self.ex[seat].dead and seat not in self.removed and seat not in self.exited

    def heroes(self) -> list[str]:
        """Every seat on the heroes' side, dead or alive (counts include the dead)."""
        side = self.side
        return [s for s in self.seat_ids if side.get(s) == HERO]

    def living_heroes(self) -> list[str]:
        in_play = self.in_play
        return [s for s in self.heroes() if in_play(s)]

    def traitor(self) -> str | None:
        """The traitor's seat: the haunt's traitor, or the hidden traitor once dealt (the engine
        knows it; the table does not until it is revealed)."""
        if not self.haunt:
            return None
        return self.haunt.get("traitor") or self.hidden

    def seen_side(self, seat: str) -> str | None:
        """The side the table knows a seat to be on: an unrevealed hidden traitor plays as a hero
        in public (``hidden-traitor.token-one``)."""
        if seat == self.hidden and not self.unmasked:
            return HERO
        return self.side.get(seat)

    def masked(self, seat: str) -> bool:
        """Whether ``seat`` is the hidden traitor and has not been revealed yet."""
        return seat == self.hidden and not self.unmasked

    def rivals(self, seat: str) -> bool:
        """Whether the explorer's side are one another's opponents (``move.haunt-rivals``)."""
        if self.hs is None:
            return False
        own = self.hs.sides().get(self.side.get(seat, HERO))
        return own is not None and own.rivals

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
        side = self.side
        out = []
        for s in self.seat_ids:
            if s != seat and in_play(s):
                theirs = HERO if s == hidden else side.get(s)
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
        if how == "own-dead-hero-player" and m.counterpart:
            # judgement: while its hero lives, the player to that hero's left steers the Twin
            # along its forced shortest path; once the hero dies, that player takes it over.
            return m.counterpart if self.ex[m.counterpart].dead else self.left_of(m.counterpart)
        t = self.traitor()
        return t if t is not None else self.haunt["revealer"] if self.haunt else self.seat_ids[0]

    # ---------------------------------------------------------------------------------------
    # The turn sequence

    def restart_turns(self, seat: str) -> None:
        """A position built directly (``position.py``) with its haunt already under way plays on by
        part 1's rules: positions do not describe the haunt phase (monsters, tokens, sides) yet. A
        position from before the reveal plays the haunt like any game."""
        self.positioned = self.haunt is not None and self.hs is None
        super().restart_turns(seat)

    def _turns(self, seat: str) -> Gen[None]:
        if self.positioned:
            yield from super()._turns(seat)
            return
        while self.haunt is None:
            yield from self._play_turn(seat)
            seat = self.left_of(seat)
        yield from self._haunt_phase()

    def _haunt_phase(self) -> Gen[None]:
        assert self.haunt is not None
        number = int(self.haunt["number"])
        if self.want is not None and number != self.want:
            self.result = Outcome("other-haunt", (), f"haunt {number} was revealed, not haunt {self.want}")
            return
        if number not in PLAYABLE or number not in self.haunts:
            self.result = Outcome("undecided", (), f"haunt {number} ({self.haunt['title']}) is not playable by the "
                                  "engine yet")
            return
        self.enter_haunt(number)
        yield from self.set_up_haunt(self.traitor())
        order, traitor = self.round_order()
        if self._check_wins():
            return
        yield from self.play_rounds(order, traitor)

    def enter_haunt(self, number: int) -> None:
        """The haunt phase of haunt ``number`` begins: its spec and the named hooks it uses."""
        self.hs, raw = self.haunts[number]
        self.hooks_used = sorted({h for _, h in custom_hooks_used(raw)})

    def set_up_haunt(self, traitor: str | None) -> Gen[None]:
        """Sides (the traitor against the heroes), the traitor freed from lasting events, the secret
        deal of a hidden-traitor haunt, then the haunt's "Right Now" setup; goals are judged once
        the setup is complete."""
        for s in self.seat_ids:
            self.side[s] = TRAITOR if s == traitor else HERO
        if traitor is not None:
            self._free_traitor(traitor)
        self.setting_up = True
        if self.haunt is not None and self.haunt.get("kind") == "hidden":
            yield from self._deal_hidden()
        yield from self._haunt_setup()
        self.setting_up = False

    def round_order(self) -> tuple[list[str], str | None]:
        """``turn.order-after-haunt`` (``hidden-traitor.turn-order``): each round runs from the
        player left of the traitor round to the traitor, or from the revealer's left when there is
        no traitor or it is hidden (revealed or not). Returns the seats in order and the traitor
        whose turn closes the round (None for none or a hidden one)."""
        assert self.haunt is not None
        traitor = None if self.haunt.get("kind") == "hidden" else (self.haunt.get("traitor") or None)
        anchor = traitor or str(self.haunt["revealer"])
        order = [self.left_of(anchor, k) for k in range(1, self.n + 1)]
        self.emit("turn.order-after-haunt", "each round: " + ", ".join(order) + ", then the monster turn")
        return order, traitor

    def play_rounds(self, order: list[str], traitor: str | None, start: str | None = None,
                    resume: Gen[None] | None = None) -> Gen[None]:
        """The haunt's rounds: each seat in play takes its turn (a traitor out of play keeps its
        slot), timers tick at the end of the traitor's and the revealer's turns, then the monster
        turn; goals are judged after every turn. A round past the limit ends the game undecided.
        ``start``: the first round is already under way and goes on from that seat, whose turn is
        ``resume`` (a turn begun before) if given."""
        assert self.haunt is not None
        anchor, revealer = order[-1], str(self.haunt["revealer"])
        first = start is not None
        while True:
            if not first:
                self.hround += 1
                if self.hround > self.rounds:
                    self.result = Outcome("undecided", (), f"no side met its goals within the round limit ({self.rounds} rounds)")
                    self.emit("win.first-side", f"round {self.rounds} is over and no side has met its goals: the game is "
                              "stopped undecided")
                    return
            for seat in order[order.index(start):] if first and start is not None else order:
                if self.in_play(seat):
                    if first and seat == start and resume is not None:
                        yield from resume
                    else:
                        yield from self._play_turn(seat)
                elif seat == traitor:
                    self.emit("turn.traitor-turn-survives-removal", f"the traitor's turn ({seat}) comes; the traitor's "
                              "explorer is not in play")
                if seat == anchor:
                    yield from self._advance_timers("end-of-traitor-turn")
                if seat == revealer:
                    # judgement: like the traitor's slot, the revealer's turn slot keeps its clock
                    # ticking after the revealer's explorer is gone
                    yield from self._advance_timers("end-of-revealer-turn")
                if self._check_wins():
                    return
            first = False
            if self.active_monsters():
                yield from self._monster_turn()
                if self._check_wins():
                    return

    # ---------------------------------------------------------------------------------------
    # Setup ("Right Now")

    def _flag_timers(self, seat: str, moment: str) -> Gen[None]:
        """Timers that start when a flag is set and tick on the turns of the explorer who set it."""
        assert self.hs is not None
        for side in self.hs.sides().values():
            for timer in side.timers:
                if timer.get("starts") != "on-flag":
                    continue
                state = self.timer_state.get(timer["id"])
                if state is None:
                    if moment == "end" and timer.get("start_flag") in self.hflags:
                        self.timer_state[timer["id"]] = {"setter": seat, "stopped": False}
                        self.track = self._amount(timer.get("start_at", 1))
                        self.emit("haunt.rules-override", f"{timer.get('says', timer['id'])} (track at {self.track})")
                    continue
                if state["stopped"] or state["setter"] != seat:
                    continue
                if "stops_when" in timer and self.pred(timer["stops_when"]):
                    state["stopped"] = True
                    self.emit("haunt.rules-override", f"the {timer['id']} timer stops")
                    continue
                if moment == "end" and timer.get("advance", {}).get("when") == "end-of-turn-of-flag-setter":
                    self.track += int(timer["advance"].get("by", 1))
                    self.emit("haunt.rules-override", f"the Turn/Damage track advances to {self.track} ({timer['id']})")
                if moment == "start":
                    for at in timer.get("at", []):
                        if at.get("moment") == "start-of-that-turn" and self.track == int(at["value"]):
                            self.emit("haunt.rules-override", at.get("says", f"{timer['id']} reaches {at['value']}"))
                            for eff in at.get("do", []):
                                yield from self._outcome(eff, seat, None)

    def _collapse_step(self, seat: str) -> Gen[None]:
        """One room collapses at the end of this explorer's turn, next to a collapsed room: the
        upper floor first (the Attic, else an empty upper room), then the ground floor from the
        Grand Staircase, then the basement from the Basement Landing. Anyone inside dies."""
        if not self.collapsed and seat != self.traitor() and "collapse-started" not in self.hflags:
            return
        self.hflags.add("collapse-started")
        starts = {"upper": "attic", "ground": "grand-staircase", "basement": "basement-landing"}
        candidates: list[str] = []
        for floor in ("upper", "ground", "basement"):
            left = [r for r in self.house.rooms_on(floor) if r not in self.collapsed]
            if not left:
                continue
            done = [r for r in self.collapsed if self.house.floor_of(r) == floor]
            if not done:
                first = starts[floor]
                occupied = {self.ex[x].room for x in self.seat_ids if self.in_play(x)}
                candidates = [first] if first in left else [r for r in left if r not in occupied] or left
            else:
                cells = {self.house.spots[r].cell for r in done}
                candidates = [r for r in left if any(step(self.house.spots[r].cell, d) in cells for d in range(4))] or left
            break
        if not candidates:
            return
        a = yield from self.ask(seat, [Action.of("collapse", room=r) for r in sorted(candidates)], "choose a room to collapse")
        room = str(a["room"])
        self.collapsed.append(room)
        self.emit("haunt.rules-override", f"{self.room_name(room)} collapses")
        for victim in self.seat_ids:
            if self.in_play(victim) and self.ex[victim].room == room:
                yield from self._outcome({"kill": True}, victim, None)

    def _free_traitor(self, seat: str) -> None:
        """``traitor.freed-from-events``: lasting hindrances from event cards end for the traitor."""
        e = self.ex[seat]
        held = sorted(e.status)
        for name in held:
            effects._discard_status_card(self, seat, name)
        e.status = {}
        if held:
            self.emit("traitor.freed-from-events", f"{self.name(seat)} is freed from {', '.join(held)}")

    def _advance_timers(self, moment: str) -> Gen[None]:
        """Timers on the Turn/Damage track advance at their moment (``advance.when``), then do
        their ``after_advance`` outcomes."""
        assert self.hs is not None
        for side in self.hs.sides().values():
            for timer in side.timers:
                if timer.get("advance", {}).get("when") == moment:
                    self.track += int(timer["advance"].get("by", 1))
                    self.emit("haunt.rules-override", f"the Turn/Damage track advances to {self.track} ({timer['id']})")
                    for eff in timer.get("after_advance", []):
                        if self._check_wins():
                            return
                        yield from self._outcome(eff, None, None)

    # ---------------------------------------------------------------------------------------
    # The hidden traitor (rulebook "Haunts with a Hidden Traitor")

    def _hidden_deal_step(self) -> Mapping[str, Any] | None:
        """The haunt's setup step that deals the hidden-traitor tokens (``deal`` with
        ``traitor_number``), if the file names one."""
        assert self.hs is not None
        for side in self.hs.sides().values():
            for step_ in side.setup:
                deal = step_.get("deal")
                if isinstance(deal, Mapping) and "traitor_number" in deal:
                    return deal
        return None

    def _deal_hidden(self) -> Gen[None]:
        """``hidden-traitor.deal-tokens``: numbered tokens 1..players are shuffled by chance and
        dealt face down, one to each player from the revealer's left; the holder of the traitor's
        number (1 unless the haunt says otherwise) is the traitor (``hidden-traitor.token-one``).
        The sides are the truth the engine keeps; the table sees everyone as a hero until the
        traitor is revealed (:meth:`seen_side`)."""
        assert self.haunt is not None and self.hs is not None
        deal = self._hidden_deal_step() or {}
        token = str(deal.get("token", "hidden-traitor-token"))
        count = self.hs.amount(deal["count"], self.n) if "count" in deal else self.n
        number = int(deal.get("traitor_number", 1))
        yield from self._deal_tokens(token, count)
        self.hidden_token = token
        self.hidden = next(s for s, k in self.dealt[token].items() if k == number)
        for s in self.seat_ids:
            self.side[s] = TRAITOR if s == self.hidden else HERO
        self.emit("hidden-traitor.token-one", f"whoever holds token {number} is the traitor; nobody else knows who")
        self.emit("hidden-traitor.all-read-survival", "every player reads the haunt, the traitor's goals included")

    def _deal_tokens(self, token: str, count: int, face_down: bool = True) -> Gen[None]:
        """Deal numbered tokens 1..count by chance (a shuffle), one per player from the revealer's
        left (``haunt.setup-right-now``)."""
        assert self.haunt is not None
        numbers = [str(k) for k in range(1, count + 1)]
        a = yield Req(CHANCE, Shuffle(token, numbers), f"deal the {token} tokens")
        order = [str(x) for x in a["order"]]  # type: ignore[union-attr]
        seats = [self.left_of(str(self.haunt["revealer"]), k) for k in range(1, self.n + 1)]
        self.dealt[token] = {s: int(k) for s, k in zip(seats, order, strict=False)}
        rule = "hidden-traitor.deal-tokens" if face_down else "haunt.setup-right-now"
        if face_down:
            self.emit(rule, f"the {token} tokens are dealt face down, one to each player")
        else:
            self.emit(rule, f"the {token} tokens are dealt face up: "
                      + ", ".join(f"{self.name(s)} {self.dealt[token][s]}" for s in seats if s in self.dealt[token]))

    def reveal_traitor(self, how: str) -> None:
        """The hidden traitor's token is turned face up: by choice (``hidden-traitor.self-reveal``,
        ``how`` "self"), on its death (``hidden-traitor.reveal-on-death``, "death"), or because the
        haunt forces it ("haunt"). From now on the table knows the sides."""
        seat = self.hidden
        if seat is None or self.unmasked:
            return
        self.unmasked = True
        assert self.haunt is not None
        self.haunt["traitor"] = seat  # from now on the part-1 traitor powers apply to it
        rule = {"self": "hidden-traitor.self-reveal", "death": "hidden-traitor.reveal-on-death"}.get(how,
                                                                                                      "haunt.rules-override")
        why = {"self": "chooses to turn", "death": "dies and turns", "haunt": "must turn"}.get(how, "turns")
        self.emit(rule, f"{self.name(seat)} {why} token 1 face up: {self.name(seat)} is the traitor")
        if not self.ex[seat].dead:
            self._free_traitor(seat)

    def draw_card(self, seat: str, kind: str, ctx_room: str | None = None) -> Gen[str | None]:
        """A draw, unless the haunt lets the explorer's side take a named card instead (or a
        status forbids drawing)."""
        if self.hs is not None and self._blocks(seat, "draw-cards"):
            self.emit("haunt.rules-override", f"{self.name(seat)} cannot draw cards")
            return None
        for entry in list(self.next_omen):
            side, cards = entry
            present = [c for c in cards if c in self.decks["omen"]]
            if kind == "omen" and self.side.get(seat) == side and present and not self.ex[seat].dead:
                self.next_omen.remove(entry)
                a = yield from self.ask(seat, [Action.of("fetch", card=c) for c in present],
                                        "take a card from the omen stack instead of drawing")
                card = str(a["card"])
                if seat == self.current and not self.turn.stopped:
                    self.turn.stopped = True
                    self.emit("move.card-ends-movement", f"taking a card ends {self.name(seat)}'s movement this turn")
                self.decks["omen"].remove(card)
                self.omens_drawn += 1  # it has left the omen stack
                self.ex[seat].cards.append(card)
                self.emit("haunt.rules-override", f"{self.name(seat)} takes the {self.card_name(card)} from the omen stack "
                          "instead of drawing")
                yield from effects.gain_card(self, seat, card)
                return card
        for side, card, stack in self.fetches:
            if stack == kind and self.side.get(seat) == side and card in self.decks[kind] and not self.ex[seat].dead:
                a = yield from self.ask(seat, [Action.of("fetch", card=card), Action.of("draw-instead", card=card)],
                                        f"take the {self.card_name(card)} instead of drawing")
                if a.kind == "fetch":
                    if seat == self.current and not self.turn.stopped:
                        self.turn.stopped = True
                        self.emit("move.card-ends-movement", f"taking a card ends {self.name(seat)}'s movement this turn")
                    self.decks[kind].remove(card)
                    self.ex[seat].cards.append(card)
                    self.emit("haunt.rules-override", f"{self.name(seat)} takes the {self.card_name(card)} from the "
                              f"{kind} stack instead of drawing")
                    yield from effects.gain_card(self, seat, card)
                    return card
        return (yield from super().draw_card(seat, kind, ctx_room))

    def _haunt_setup(self) -> Gen[None]:
        hs = self.hs
        assert hs is not None and self.haunt is not None
        sides = [("traitor", hs.traitor_side), ("heroes", hs.heroes_side)]
        for side_name, side in sides:
            if side is None:
                continue
            for step_ in side.setup:
                yield from self._setup_step(side_name, step_)

    def _who(self, who: Any) -> list[str]:
        if who == "traitor":
            t = self.traitor()
            return [t] if t else []
        if who in ("revealer", "trapped-explorer") and self.haunt is not None:
            # judgement: "the trapped explorer" of a web haunt is the revealer it traps
            return [str(self.haunt["revealer"])]
        if who in ("heroes", "each-hero"):
            return self.living_heroes()
        return []

    def _setup_step(self, side: str, step_: Mapping[str, Any], only: str | None = None) -> Gen[None]:
        """One "Right Now" step; ``only`` limits the steps about the traitor to one seat (a hero
        turning traitor later follows the traitor's setup)."""
        assert self.hs is not None and self.haunt is not None
        verb = next(k for k in step_ if k not in ("says", "cite", "unverified", "judgement", "who"))
        spec = step_[verb]
        rule = "haunt.setup-right-now"

        def who(name: Any) -> list[str]:
            return [only] if only is not None and name == "traitor" else self._who(name)

        if isinstance(spec, Mapping) and "if_players" in spec and self.n not in spec["if_players"]:
            return
        if verb == "remove_explorer":
            for seat in who(spec["who"]):
                self.removed.add(seat)
                self.emit(rule, f"{self.name(seat)} leaves play (the haunt removes the traitor's explorer)")
                e = self.ex[seat]
                if e.cards and not spec.get("keeps_possessions"):
                    # judgement: an explorer taken out of play leaves its items behind as a pile
                    self.piles.setdefault(e.room, []).extend(e.cards)
                    self.emit(rule, f"{self.name(seat)}'s {', '.join(self.card_name(c) for c in e.cards)} stay in "
                              f"{self.room_name(e.room)} as an item pile")
                    e.cards = []
                token = spec.get("replace_with")
                for mdef in self.hs.monsters.values():
                    if mdef.token == token:
                        self._add_monster(mdef, self.ex[seat].room)
        elif verb == "drop_items":
            for seat in who(spec["who"]):
                e = self.ex[seat]
                named = spec.get("cards")
                drop = [c for c in e.cards if named is None or c in ([named] if isinstance(named, str) else named)]
                if spec.get("may_not_pick_up"):
                    self.no_pickup.update(f"{seat}/{c}" for c in drop)
                if drop:
                    self.piles.setdefault(e.room, []).extend(drop)
                    self.emit(rule, f"{self.name(seat)} drops {', '.join(self.card_name(c) for c in drop)} as an item "
                              f"pile in {self.room_name(e.room)}" + (" and may never pick it up again"
                                                                     if spec.get("may_not_pick_up") else ""))
                    e.cards = [c for c in e.cards if c not in drop]
                    for card in drop:  # a dropped card's bonuses go with it (item.over-the-top)
                        yield from effects.lose_card(self, seat, card)
        elif verb == "place":
            if "monster" in spec and "rooms" in spec["in"] and spec["in"].get("on_discovery"):
                yield from self._place_in_listed_rooms(spec)
            elif "monster" in spec and "room_with_monster" in spec["in"] and \
                    self.hs.monsters[str(spec["monster"])].paired_with == spec["in"]["room_with_monster"]:
                mdef = self.hs.monsters[str(spec["monster"])]
                for other in [m for m in self.mon if m.kind == mdef.paired_with]:
                    self._add_monster(mdef, other.room)
                self.emit(rule, f"each {mdef.name} starts with its matching {self.hs.monsters[str(mdef.paired_with)].name}"
                          + (" (the others come with theirs)" if self.waiting else ""))
            elif "monster" in spec:
                mdef = self.hs.monsters[str(spec["monster"])]
                count = self.hs.amount(spec.get("count", 1), self.n)
                used: set[str] = set()
                for i in range(count):
                    room = yield from self._location(spec["in"], used, f"place {mdef.name} {i + 1} of {count}")
                    used.add(room)
                    self._add_monster(mdef, room, index=i)
            else:
                token = str(spec["token"])
                count = self.hs.amount(spec.get("count", 1), self.n)
                where = spec["in"]
                if where.get("on_discovery"):
                    self._place_on_discovery(token, count, where)
                    return
                if "any_room" in where:
                    rooms = [(yield from self._location(where, set(), f"place the {token} token"))]
                else:
                    rooms = self._rooms_for(where)
                for i in range(count if rooms else 0):
                    spot = rooms[i % len(rooms)]
                    self.htokens.setdefault(token, []).append(spot)
                    self.emit(rule, f"a {token} token is placed in {self.room_name(spot)}")
        elif verb == "become":
            for seat in ([only] if only else [str(self.haunt["revealer"])] if spec["who"] == "revealer" else who(spec["who"])):
                yield from self._outcome({"become": spec["status"]}, seat, None)
        elif verb == "set_aside_card":
            for seat in who(spec.get("from", "traitor")):
                card = str(spec["card"])
                room = self.ex[seat].room
                if card in self.ex[seat].cards:
                    self.ex[seat].cards.remove(card)
                    self.piles.setdefault(room, []).append(card)
                    yield from effects.lose_card(self, seat, card)
                token = spec.get("replace_with_token")
                placed_later = any(isinstance(x.get("place"), Mapping) and x["place"].get("token") == token
                                   for x in (self.hs.traitor_side.setup if self.hs.traitor_side else ()))
                if placed_later and card in self.piles.get(room, []):
                    self.piles[room].remove(card)
                    if not self.piles[room]:
                        del self.piles[room]
                    self.token_cards.append(card)
                    self.emit(rule, f"the {self.card_name(card)} is set aside; its {token} token stands for it")
                elif card in self.piles.get(room, []):
                    # judgement: the token standing for the card is kept as the card itself in
                    # the room's item pile, where others may collect it.
                    self.emit(rule, f"the {self.card_name(card)} stays in {self.room_name(room)} for others to collect")
        elif verb == "do":
            for seat in who(step_.get("who", "traitor")):
                yield from effects.run(self, spec, effects.Ctx(seat, "token:haunt"))
        elif verb == "spend_trait_points":
            for seat in who(spec["who"]):
                points = self._amount(spec["points"])
                for k in range(points):
                    xdef = self.t.explorers[self.ex[seat].id]
                    room_left = [t for t in TRAITS if self.ex[seat].idx[t] < len(xdef.traits[t].values) - 1]
                    if not room_left:
                        break
                    a = yield from self.ask(seat, [Action.of("raise", trait=t) for t in room_left],
                                            f"spend trait point {k + 1} of {points}")
                    self.trait_change(seat, str(a["trait"]), 1)
        elif verb == "fetch_card" and spec.get("when") == "next-omen-room-discovered":
            cards = spec["card"] if isinstance(spec["card"], list) else [spec["card"]]
            in_play = [c for c in cards if any(self.holds(x, c) for x in self.seat_ids)
                       or any(c in pile for pile in self.piles.values())]
            if spec.get("only_if_absent") and in_play:
                self.emit(rule, f"the {self.card_name(in_play[0])} is in play: no card is fetched")
            else:
                self.next_omen.append((side, tuple(cards)))
                self.emit(rule, f"the {side}' next omen-room discovery takes "
                          f"{' or '.join(self.card_name(c) for c in cards)} from the omen stack")
        elif verb == "fetch_card" and spec.get("when") == "instead-of-item-draw":
            self.fetches.append((side, str(spec["card"]), str(spec.get("stack", "item"))))
            self.emit(rule, f"while the {self.card_name(str(spec['card']))} is in the {spec.get('stack', 'item')} stack, "
                      f"the {side} may take it instead of drawing")
        elif verb == "fetch_room":
            yield from self._fetch_room(spec)
        elif verb == "traitor_in_play":
            self.emit(rule, "the traitor's explorer stays in play")
        elif verb == "start_track":
            self.track = self._amount(spec.get("at", 0))
            self.emit(rule, f"the Turn/Damage track starts at {self.track}")
        elif verb == "set_aside" and "monster" in spec:
            mdef = self.hs.monsters[str(spec["monster"])]
            self.emit(rule, f"{self.hs.amount(spec.get('count', 1), self.n)} {mdef.name} token(s) are set aside")
        elif verb == "set_aside":
            token = str(spec["token"])
            self.pool[token] = self.pool.get(token, 0) + self.hs.amount(spec.get("count", 1), self.n)
            self.emit(rule, f"{self.pool[token]} {token} token(s) are set aside")
        elif verb == "deal":
            if "traitor_number" in spec and str(spec["token"]) in self.dealt:
                return  # the hidden-traitor deal is done before the rest of the setup (_deal_hidden)
            yield from self._deal_tokens(str(spec["token"]), self.hs.amount(spec["count"], self.n), bool(spec.get("face_down")))
        elif verb == "first_player":
            self.emit(rule, f"first player: {str(spec).replace('-', ' ')}")
        elif verb == "custom" and spec in SETUP_HOOKS:
            yield from SETUP_HOOKS[spec](self)
        else:
            raise NotImplementedError(f"haunt setup verb {verb!r}")

    def _place_on_discovery(self, token: str, count: int, where: Mapping[str, Any]) -> None:
        """Tokens for named rooms: in the room now if it is in the house, else when it is
        discovered (``on_discovery``); a ``secret`` placement does not say which rooms wait."""
        rooms = self._rooms_for(where)
        waiting = 0
        for i in range(count if rooms else 0):
            spot = rooms[i % len(rooms)]
            if spot in self.house.spots:
                self.htokens.setdefault(token, []).append(spot)
                self.emit("haunt.setup-right-now", f"a {token} token is placed in {self.room_name(spot)}")
            else:
                self.waiting_tokens.append((token, spot))
                waiting += 1
        if waiting:
            where_ = "rooms not found yet" if where.get("secret") else \
                ", ".join(self.room_name(r) for t, r in self.waiting_tokens if t == token)
            self.emit("haunt.setup-right-now", f"{waiting} {token} token(s) wait for {where_}")

    def _place_in_listed_rooms(self, spec: Mapping[str, Any]) -> Gen[None]:
        """Monsters put one to a room among listed rooms (``rooms`` with ``on_discovery``): every
        listed room in play gets one (the chooser picks when the rooms outnumber the monsters);
        the rest wait and go into listed rooms as they are discovered (``note_new_room``)."""
        assert self.hs is not None
        mdef = self.hs.monsters[str(spec["monster"])]
        where = spec["in"]
        listed = tuple(str(r) for r in where["rooms"])
        count = self.hs.amount(spec.get("count", 1), self.n)
        free = [r for r in listed if r in self.house.spots]
        if len(free) > count:
            chooser = self._who(where.get("chosen_by", "traitor")) or [str(self.haunt["revealer"]) if self.haunt else ""]
            chosen: list[str] = []
            for i in range(count):
                left = [r for r in free if r not in chosen]
                a = yield from self.ask(chooser[0], [Action.of("place-in", room=r) for r in left],
                                        f"place {mdef.name} {i + 1} of {count}")
                chosen.append(str(a["room"]))
            free = chosen
        for room in free:
            self._add_monster(mdef, room)
        self.waiting.extend((mdef.id, listed) for _ in range(count - len(free)))
        if count > len(free):
            self.emit("haunt.setup-right-now", f"{count - len(free)} {mdef.name} token(s) wait for their rooms to be "
                      "discovered")

    def note_new_room(self, room: str) -> None:
        """A room found in the haunt phase receives the tokens and monsters waiting for it
        (``on_discovery``)."""
        super().note_new_room(room)
        for token_entry in [x for x in self.waiting_tokens if x[1] == room]:
            self.waiting_tokens.remove(token_entry)
            self.htokens.setdefault(token_entry[0], []).append(room)
            self.emit("haunt.setup-right-now", f"{self.room_name(room)} is discovered: a {token_entry[0]} token is placed there")
        if self.hs is None or not self.waiting:
            return
        for entry in self.waiting:
            kind, rooms = entry
            if room in rooms and not any(m.room == room and m.kind == kind for m in self.mon):
                self.waiting.remove(entry)
                mdef = self.hs.monsters[kind]
                self._add_monster(mdef, room)
                for partner in self.hs.monsters.values():
                    if partner.paired_with == kind:
                        self._add_monster(partner, room)
                return

    def _fetch_room(self, spec: Mapping[str, Any]) -> Gen[None]:
        """Search the room stack for a tile and place it at an open doorway (``fetch_room``)."""
        assert self.haunt is not None
        room = str(spec["room"])
        rule = "discover.placed-room-no-draw"
        if room in self.house.spots:
            self.emit(rule, f"{self.room_name(room)} is already in the house")
            return
        if room not in self.stack and room not in self.aside:
            self.emit(rule, f"{self.room_name(room)} is not in the room stack")
            return
        place = spec.get("place", {})
        rdef = self.t.rooms[room]
        floors = [f for f in ([place["floor"]] if "floor" in place else list(rdef.floors)) if f in rdef.floors]
        options = [(f, p) for f in floors for p in self.house.open_spots(room, f, keep_open=self.others_remain(f, room))]
        if not options:
            self.emit(rule, f"{self.room_name(room)} has no open doorway to go to")
            return
        far = place.get("as_far_as_possible_from") or place.get("min_tiles_from", {}).get("from")
        if far:
            dist = self._dist_to([self.ex[s].room for s in self._who(far.get("who"))])

            def reach(option: tuple[str, Any]) -> int:
                floor, p = option
                near = [self.house.room_at(floor, step(p.cell, side)) for side in range(4)]
                return max(dist.get(r, 999) for r in near if r is not None)

            need = place.get("min_tiles_from", {}).get("tiles")
            enough = [o for o in options if need is not None and reach(o) + 1 >= int(need)]
            if enough:
                options = enough
            else:
                best = max(reach(o) for o in options)
                options = [o for o in options if reach(o) == best]
        chooser = self._who(place.get("chosen_by", "revealer")) or [str(self.haunt["revealer"])]
        acts = effects.placement_actions(options)
        a = yield from self.ask(chooser[0], acts, f"place {room}")
        floor, p = options[acts.index(a)]
        self.put_tile(room, floor, p.cell, p.rotation)
        self.emit(rule, f"{self.room_name(room)} is taken from the stack and placed on the {floor} floor")
        self.note_new_room(room)

    def _run_now(self, program: Gen[None]) -> None:
        """Run a sub-program that must not ask anyone anything (inside a trait change)."""
        try:
            req = next(program)
        except StopIteration:
            return
        raise RuntimeError(f"{req.actor} would have to decide ({req.what}) where no decision can be asked")

    def _add_monster(self, mdef: MonsterDef, room: str, index: int = 0) -> Monster:
        assert self.hs is not None
        uid = f"{mdef.id}-{sum(1 for m in self.mon if m.kind == mdef.id) + 1}"
        stats: dict[str, int] = {}
        counterpart = ""
        if mdef.stats_from == "counterpart-at-haunt-start":
            counterpart = self.seat_ids[index % self.n]
            stats = {t: self.value(counterpart, t) for t in TRAITS}
        else:
            source = self._track_row(mdef) if mdef.stats_by_track else mdef.stats
            for t, v in source.items():
                if isinstance(v, int) and not isinstance(v, bool):
                    stats[t] = v
        m = Monster(uid, mdef.id, room, stats, counterpart=counterpart)
        self.mon.append(m)
        self.emit("haunt.setup-right-now", f"{self.mname(m)} enters in {self.room_name(room)} ("
                  + (", ".join(f"{k} {v}" for k, v in sorted(stats.items())) or "no traits") + ")")
        return m

    def _location(self, where: Mapping[str, Any], used: set[str], what: str) -> Gen[str]:
        """A room for a setup placement (the location vocabulary of haunt-format.md)."""
        assert self.haunt is not None
        rooms: list[str]
        if "room" in where:
            rooms = [str(where["room"])]
        elif "room_of" in where:
            who = self._who(where["room_of"])
            rooms = [self.ex[who[0]].room] if who else [str(self.haunt["room"])]
        elif "haunt_room" in where:
            rooms = [str(self.haunt["room"])]
        elif "room_of_holder" in where:
            holder = [s for s in self.seat_ids if self.holds(s, str(where["room_of_holder"]))]
            rooms = [self.ex[holder[0]].room] if holder else [str(self.haunt["room"])]
        elif "symbol" in where:
            rooms = [r for r in sorted(self.house.spots) if self.t.rooms[r].symbol == where["symbol"]]
        else:
            rooms = sorted(self.house.spots)
        if where.get("same_floor_as") == "haunt-room":
            floor = self.house.floor_of(str(self.haunt["room"]))
            rooms = [r for r in rooms if self.house.floor_of(r) == floor]
        if "min_tiles_from" in where:
            far = where["min_tiles_from"]
            source = far.get("from", {})
            starts = [m.room for m in self.active_monsters() if m.kind == source.get("monster")] if "monster" in source \
                else [self.ex[s].room for s in self._who(source.get("who"))]
            dist = self._dist_to(starts)
            enough = [r for r in rooms if dist.get(r, 999) >= int(far["tiles"])]
            if not enough and where.get("fallback") == "as-far-as-possible" and rooms:
                # judgement: tiles are counted as spaces of movement
                best = max(dist.get(r, 999) for r in rooms)
                enough = [r for r in rooms if dist.get(r, 999) == best]
            rooms = enough or rooms
        if where.get("one_per_room"):
            free = [r for r in rooms if r not in used]
            if not free and "overflow" in where:
                bad = where["overflow"].get("without_symbol")
                free = [r for r in sorted(self.house.spots) if self.t.rooms[r].symbol != bad and r not in used]
            rooms = free or rooms
        if len(rooms) == 1 or "chosen_by" not in where:
            return rooms[0]
        chooser = self._who(where["chosen_by"]) or [str(self.haunt["revealer"])]
        a = yield from self.ask(chooser[0], [Action.of("place-in", room=r) for r in rooms], what)
        return str(a["room"])

    # ---------------------------------------------------------------------------------------
    # Turn actions: attacks and movement past opponents

    def _turn_actions(self, seat: str) -> list[Action]:
        out = super()._turn_actions(seat)
        if self.hs is None or not self.in_play(seat):
            return out
        if self._blocks(seat, "give-away"):
            out = [a for a in out if not (a.kind in ("trade", "drop") and self._bound(seat, str(a["card"])))]
        if self._blocks(seat, "discover-rooms"):
            out = [a for a in out if a.kind != "explore"]
        # An explorer that may not carry items (a Werewolf; and, judgement, a Frog carried like an
        # item) picks none up and is handed none.
        if self._carriable(seat) or self._blocks(seat, "carry-items"):
            out = [a for a in out if a.kind != "pickup"]
        out = [a for a in out if not (a.kind == "trade" and (self._carriable(str(a["to"]))
                                                              or self._blocks(str(a["to"]), "carry-items")))]
        out.extend(self._carry_actions(seat))
        if self.no_pickup:
            out = [a for a in out if not (a.kind == "pickup" and f"{seat}/{a['card']}" in self.no_pickup)]
        if self._blocks(seat, "move") and not any(a.kind == "end" for a in out):
            out.append(Action.of("end"))  # held where a turn may not end (the Coal Chute): it still ends
        if self._blocks(seat, "use-items"):
            out = [a for a in out if a.kind not in ("use", "drop", "pickup", "trade")]
        else:
            out.extend(self._token_pickups(seat))
        if self._toward(seat) is not None and any(a.kind == "move" for a in out):
            out = [a for a in out if a.kind != "end"]  # pulled toward a room: the explorer must go on
        if self._blocks(seat, "act"):
            # judgement: a status that forbids acting leaves moving (where allowed), ending the turn
            # and escaping one's own hindrance (Webs, Debris), which only serves the pull
            return [a for a in out if a.kind in ("move", "end") or (a.kind == "free" and a.get("who") == seat)]
        out.extend(self._attack_actions(seat))
        out.extend(self._side_actions(seat))
        out.extend(self._task_actions(seat))
        if self.masked(seat):
            out.append(Action.of("reveal-traitor"))  # hidden-traitor.self-reveal
        return out

    def _token_pickups(self, seat: str) -> list[Action]:
        """``item.tokens-like-cards``: a token carried like an item lying in the room may be picked up."""
        assert self.hs is not None
        room = self.ex[seat].room
        return [Action.of("pickup-token", token=tok) for tok, rooms in sorted(self.htokens.items())
                if room in rooms and tok in self.hs.tokens and self.hs.tokens[tok].carried_as_item]

    def _play_turn(self, seat: str) -> Gen[None]:
        if self.hs is None:
            yield from super()._play_turn(seat)
            return
        if seat in self.carried:
            self.emit("haunt.rules-override", f"{self.name(seat)} is carried by {self.name(self.carried[seat])} and does "
                      "nothing this turn")
            yield from self._end_haunt_turn(seat)
            return
        yield from self._flag_timers(seat, "start")
        yield from self._turn_rules(seat, "start-of-turn")
        yield from self._turn_rules(seat, "during-turn")
        if self.in_play(seat) and not self._check_wins():
            yield from super()._play_turn(seat)
        yield from self._end_haunt_turn(seat)

    def _end_haunt_turn(self, seat: str) -> Gen[None]:
        """What closes a seat's turn in the haunt phase: end-of-turn rules, timers, the house
        collapsing, pulls toward a room running out, then the standing rules."""
        assert self.hs is not None, "only the haunt phase ends turns this way"
        if self.in_play(seat) and not self._check_wins():
            yield from self._turn_rules(seat, "end-of-turn")
            for task in self.tasks_for(seat):
                if task.get("timing") == "end-of-turn" and "roll" not in task and self._task_open(seat, task):
                    self.emit("haunt.specific-action", f"{self.name(seat)} ends the turn here: {task.get('says', task['id'])}")
                    for eff in task.get("do", []):
                        yield from self._outcome(eff, seat, None)
        self.turn_mods.pop(seat, None)
        yield from self._flag_timers(seat, "end")
        if self.collapsing and self.in_play(seat):
            yield from self._collapse_step(seat)
        for status in list(self.hstatus.get(seat, [])):
            # judgement: a pull toward a room lasts the turn; a during-turn rule renews it
            if self.hs.statuses.get(status, {}).get("must_move_toward", {}).get("room"):
                self.hstatus[seat].remove(status)
        yield from self._standing_rules()

    def _turn_action(self, seat: str, a: Action) -> Gen[None]:
        if a.kind == "attack":
            yield from self._attack(seat, a)
        elif a.kind == "reveal-traitor":
            self.reveal_traitor("self")
        elif a.kind == "haunt-action":
            yield from self._side_action(seat, a)
        elif a.kind == "task":
            yield from self._task(seat, a)
            yield from self._turn_rules(seat, "during-turn")
        elif a.kind in ("carry", "put-down"):
            self._carry(seat, a)
        elif a.kind == "pickup-token":
            token = str(a["token"])
            self.turn.picked = True
            self.htokens[token].remove(self.ex[seat].room)
            self.held.setdefault(seat, []).append(token)
            self.emit("item.tokens-like-cards", f"{self.name(seat)} picks up the {token} token in "
                      f"{self.room_name(self.ex[seat].room)}")
        elif a.kind == "give-token":
            token, to = str(a["token"]), str(a["to"])
            self.turn.traded = True
            self.held[seat].remove(token)
            self.held.setdefault(to, []).append(token)
            self.emit("item.tokens-like-cards", f"{self.name(seat)} trades the {token} token to {self.name(to)}")
        else:
            yield from super()._turn_action(seat, a)

    def _carriable(self, seat: str) -> bool:
        """The explorer has a status that lets others carry it like an item (a Frog)."""
        assert self.hs is not None
        return any(self.hs.statuses.get(x, {}).get("carried_like_item") for x in self.hstatus.get(seat, []))

    def _carry_actions(self, seat: str) -> list[Action]:
        """Pick up an explorer carried like an item (``carried_like_item``) in the room, or put one
        down; once each a turn, by an explorer whose statuses do not block carrying."""
        out: list[Action] = []
        if self._blocks(seat, "carry-items") or self._carriable(seat):
            return out
        room = self.ex[seat].room
        if "carry" not in self.turn.keys:
            out += [Action.of("carry", who=s) for s in self.seat_ids if s != seat and s not in self.carried
                    and self.in_play(s) and self.ex[s].room == room and self._carriable(s)]
        if "put-down" not in self.turn.keys:
            out += [Action.of("put-down", who=s) for s, c in sorted(self.carried.items()) if c == seat]
        return out

    def _carry(self, seat: str, a: Action) -> None:
        who = str(a["who"])
        self.turn.keys.add(a.kind)
        if a.kind == "carry":
            self.carried[who] = seat
            self.emit("haunt.rules-override", f"{self.name(seat)} picks up {self.name(who)} and carries them like an item")
        else:
            del self.carried[who]
            self.emit("haunt.rules-override", f"{self.name(seat)} puts {self.name(who)} down in "
                      f"{self.room_name(self.ex[seat].room)}")

    def _sync_carried(self) -> None:
        """A carried explorer is where its carrier is; it is dropped when the carrier leaves play
        or can no longer carry, or when it loses the status that made it carriable."""
        for who, carrier in sorted(self.carried.items()):
            if not (self.in_play(who) and self.in_play(carrier) and self._carriable(who)) \
                    or self._blocks(carrier, "carry-items"):
                del self.carried[who]
                continue
            self.ex[who].room = self.ex[carrier].room
            self.ex[who].part = self.ex[carrier].part

    def _bound(self, seat: str, card: str) -> bool:
        """A card a status forbids giving away: the one the status is about (held by ``holding``)."""
        assert self.hs is not None
        for side in self.hs.sides().values():
            for r in side.turn_rules:
                if any(d.get("become") in self.hstatus.get(seat, []) for d in r.get("do", [])):
                    held = r.get("requires", {}).get("holding")
                    if held == card:
                        return True
        return False

    def _side_actions(self, seat: str) -> list[Action]:
        """The haunt's special actions for the explorer's side (``haunt.specific-action``); each
        may be taken once a turn. Only ``take_item`` from a willing ally here is interpreted."""
        assert self.hs is not None
        side = self.hs.sides().get(self.side.get(seat, HERO))
        out: list[Action] = []
        if side is None:
            return out
        e = self.ex[seat]
        if not self.turn.picked:
            # item.tokens-like-cards: a token carried like an item lying here may be picked up
            for token in sorted({t for t, rooms in self.htokens.items() if e.room in rooms}):
                if self._carried(token) and self._room_for_token(seat, token):
                    out.append(Action.of("pickup-token", token=token))
        if not self.turn.traded:
            # item.tokens-like-cards: tokens carried like items are traded like them
            for token in sorted(set(self.held.get(seat, []))):
                for s in self.seat_ids:
                    if s != seat and self.in_play(s) and self.seen_side(s) == self.seen_side(seat) and self.ex[s].room == e.room \
                            and self._room_for_token(s, token):
                        out.append(Action.of("give-token", token=token, to=s))
        for act in side.actions:
            if f"action:{act['id']}" in self.turn.keys:
                continue
            for eff in act.get("do", []):
                take = eff.get("take_item")
                if not take:
                    continue  # other actions are offered as tasks
                if take.get("from") != "chosen-explorer-here":
                    raise NotImplementedError(f"haunt action {act['id']!r}")
                types = ("item", "omen") if take.get("type") == "item-or-omen" else (str(take.get("type")),)
                for s in self.seat_ids:
                    o = self.ex[s]
                    if s == seat or not self.in_play(s) or self.seen_side(s) != self.seen_side(seat) or o.room != e.room:
                        continue
                    for c in o.cards:
                        cd = self.t.cards[c]
                        if cd.type in types and cd.can_trade:
                            out.append(Action.of("haunt-action", id=act["id"], card=c, owner=s))
        return out

    def _side_action(self, seat: str, a: Action) -> Gen[None]:
        self.turn.keys.add(f"action:{a['id']}")
        card, owner = str(a["card"]), str(a["owner"])
        answer = yield from self.ask(owner, [Action.of("accept", card=card), Action.of("refuse", card=card)],
                                     f"let {seat} take {card}")
        if answer.kind == "refuse":
            self.emit("haunt.specific-action", f"{self.name(owner)} keeps {self.card_name(card)}")
            return
        self.ex[owner].cards.remove(card)
        self.ex[seat].cards.append(card)
        self.emit("haunt.specific-action", f"{self.name(seat)} takes {self.card_name(card)} from {self.name(owner)} "
                  f"({a['id']})")
        yield from effects.lose_card(self, owner, card)
        yield from effects.gain_card(self, seat, card)

    def _slowing(self, seat: str) -> int:
        """Extra spaces to leave the explorer's room: one per opponent there (``move.opponent-slows``)."""
        room = self.ex[seat].room
        n = sum(1 for s in self.opponents_of(seat) if self.ex[s].room == room)
        if self.side.get(seat) == HERO:
            n += sum(1 for m in self.active_monsters(room) if not m.stunned and self.mdef(m).slows_explorers)
        return n

    def movement_left(self, seat: str) -> int:
        if "no-move" in self.turn_mods.get(seat, set()):
            return 0
        return super().movement_left(seat)

    def _toward(self, seat: str) -> str | None:
        """The room a status makes the explorer head for (``must_move_toward``), if any."""
        if self.hs is None:
            return None
        for status in self.hstatus.get(seat, []):
            target = self.hs.statuses.get(status, {}).get("must_move_toward", {})
            if "room" in target and target["room"] in self.house.spots:
                return str(target["room"])
            if "token" in target:
                rooms = sorted(set(self.htokens.get(str(target["token"]), [])))
                if rooms:
                    return rooms[0]
        return None

    def _move_actions(self, seat: str) -> list[Action]:
        actions = super()._move_actions(seat)
        if self.hs is None or not actions:
            return actions
        if self._blocks(seat, "move"):
            return []
        if self.collapsed:
            actions = [a for a in actions if not (a.kind == "move" and a.get("to") in self.collapsed)]
        goal = self._toward(seat)
        if goal is not None:
            dist = self._dist_to([goal])
            here = dist.get(self.ex[seat].room, 10_000)
            closer = [a for a in actions if a.kind == "move" and dist.get(str(a["to"]), 10_000) < here]
            if closer or here == 0:
                actions = closer  # the status drags the explorer by the shortest way
        extra = self._slowing(seat)
        if not extra or self.turn.moved == 0:
            return actions  # move.minimum-one: the first space is always possible
        left = self.movement_left(seat)
        return [a for a in actions if int(a.get("cost", 1) or 0) + extra <= left]  # type: ignore[arg-type]

    def _move(self, seat: str, to: str, cost: int) -> Gen[None]:
        extra = self._slowing(seat) if self.hs is not None else 0
        self.stunned_left = self.hs is not None and self.side.get(seat) == HERO and any(
            m.stunned for m in self.active_monsters(self.ex[seat].room))
        yield from super()._move(seat, to, cost)
        self._pay_slowing(seat, extra)
        if self.carried:
            self._sync_carried()
        if self.hs is not None:
            yield from self._take_custody(seat)

    def _take_custody(self, seat: str) -> Gen[None]:
        """``death.companion-custody``: the next explorer to enter takes a companion left in a room."""
        e = self.ex[seat]
        pile = self.piles.get(e.room, [])
        for card in [c for c in pile if self.t.cards[c].companion]:
            if e.dead or self._blocks(seat, "carry-items"):
                return
            pile.remove(card)
            e.cards.append(card)
            self.emit("death.companion-custody", f"{self.name(seat)} enters {self.room_name(e.room)} and takes custody "
                      f"of the {self.card_name(card)}")
            yield from effects.gain_card(self, seat, card)
        if not pile and e.room in self.piles:
            del self.piles[e.room]

    def _explore(self, seat: str, side: int) -> Gen[None]:
        extra = self._slowing(seat) if self.hs is not None else 0
        yield from super()._explore(seat, side)
        self._pay_slowing(seat, extra)
        if self.hs is not None and self.ex[seat].room == "collapsed-room":
            # the discoverer's roll to avoid falling was made and passed (haunt 34's Key rule reads it)
            self.turn.keys.add("passed:collapsed-room")

    def _pay_slowing(self, seat: str, extra: int) -> None:
        if self.turn.left_room and self.stunned_left:
            self.emit("move.stunned-do-not-slow", "stunned monsters in the room left behind cost nothing")
        self.stunned_left = False
        if not extra:
            return
        self.turn.moved += extra
        if self.rivals(seat):
            self.emit("move.haunt-rivals", f"{self.name(seat)} pays {extra} extra space{'s' if extra > 1 else ''} to leave "
                      "rivals behind (every other explorer is an opponent in this haunt)")
        else:
            self.emit("move.opponent-slows", f"{self.name(seat)} pays {extra} extra space{'s' if extra > 1 else ''} to "
                      "leave opponents behind (heroes and the traitor's side slow each other)")
        if self.turn.moved > self.speed(seat) + self.turn.extra:
            self.emit("move.minimum-one", f"{self.name(seat)} may always move at least one space")

    # ---------------------------------------------------------------------------------------
    # Attacks

    def _attack_traits(self, seat: str) -> list[str]:
        traits = ["might"]
        for _, _, ability in effects.held_abilities(self, seat):
            if ability.get("trigger") != "ongoing":
                continue
            for eff in ability.get("do", []):
                opt = eff.get("attack_option")
                if opt and opt.get("trait") not in traits:
                    traits.append(str(opt["trait"]))
        return traits

    def _attack_actions(self, seat: str) -> list[Action]:
        if "attack" in self.turn.keys or self.turn.no_attack or self.ex[seat].dead or self._blocks(seat, "attack"):
            return []
        e = self.ex[seat]
        near = [s for s in self.opponents_of(seat) if self.ex[s].room == e.room]
        if self.hidden is not None:
            # hidden-traitor.anyone-attacks: any explorer may attack any other explorer
            near = [s for s in self.seat_ids if s != seat and self.in_play(s) and self.ex[s].room == e.room]
        if self.side.get(seat) == HERO:
            near += [m.uid for m in self.active_monsters(e.room)]
            near += [s for s in self.living_heroes() if s != seat and self.ex[s].room == e.room and self._ally_fight(seat, s)]
        targets = [(t, False) for t in near if self.together(seat, t) and self._may_attack(seat, t)]
        # A weapon that already took its one action this turn (picked up, say) cannot attack too.
        weapons = [w for c in e.cards if (w := self.weapons.get(c)) is not None and c not in self.turn.items_acted]
        ranged = [w for w in weapons if w.ranged]
        if ranged:
            seen = self.line_of_sight(e.room)
            far = [s for s in self.opponents_of(seat) if self.ex[s].room in seen]
            if self.side.get(seat) == HERO:
                far += [m.uid for m in self.active_monsters() if m.room in seen]
            targets += [(t, True) for t in far if self._may_attack(seat, t)]
        out: list[Action] = []
        for target, distant in targets:
            rules = self.fight_rules(seat, target)
            if not distant:
                # an optional rule (a steal) is a fight of its own the attacker may choose
                for r in self.fight_rules(seat, target, chosen="*"):
                    if r.get("optional"):
                        out += [Action.of("attack", target=target, trait=t, rule=r["id"])
                                for t in r.get("attack_with", ["might"]) if self._target_has(target, t)]
            allowed = next((tuple(r["attack_with"]) for r in rules if "attack_with" in r), None)
            traits = [t for t in self._attack_traits(seat) if allowed is None or t in allowed]
            if allowed:
                traits += [t for t in allowed if t not in traits]
            if not distant:
                for trait in traits:
                    if self._target_has(target, trait):
                        out.append(Action.of("attack", target=target, trait=trait))
                for w in weapons:
                    if self._target_has(target, w.trait) and (allowed is None or w.trait in allowed):
                        out.append(Action.of("attack", target=target, trait=w.trait, weapon=w.card))
            else:
                for w in ranged:
                    if self._target_has(target, w.trait):
                        out.append(Action.of("attack", target=target, trait=w.trait, weapon=w.card))
        return out

    def _ally_fight(self, seat: str, ally: str) -> bool:
        """A hero may attack another hero only where an attack rule naming hero against hero
        applies (freeing a controlled friend)."""
        return any(r.get("attacker") == "hero" and r.get("defender") == "hero" and not r.get("forbidden")
                   for r in self.fight_rules(seat, ally))

    def _target_has(self, target: str, trait: str) -> bool:
        """``attack.target-needs-trait``: a trait the target lacks cannot be attacked with."""
        if target in self.ex:
            return True
        m = self.monster(target)
        if trait == "speed" and "speed-attacks" in self.mdef(m).immune_to:
            return False
        return self.mstat(m, trait) > 0 or trait in m.stats

    def _may_attack(self, seat: str, target: str) -> bool:
        holder = next((uid for uid, (held, _) in self.grips.items() if held == seat), None)
        if holder is not None and target != holder:
            return False  # a held explorer may fight only what holds it
        rules = self.fight_rules(seat, target)
        if any(r.get("forbidden") for r in rules):
            return False
        if target in self.ex:
            return True
        m = self.monster(target)
        if self.mdef(m).attackable != "normally" and not rules:
            return False
        if m.stunned:
            return any(r.get("may_target_stunned") for r in rules)
        return True

    def line_of_sight(self, room: str) -> set[str]:
        """Rooms seen from ``room``: straight on through joined doorways on one floor."""
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

    def fight_rules(self, attacker: str, defender: str, ability: str | None = None, *,
                    chosen: str | None = None) -> list[Mapping[str, Any]]:
        """The haunt's attack rules whose attacker and defender fit and whose requirement holds.

        Requirements read ``seat`` as the explorer in the fight (the attacker if both are), and
        ``opponent`` as the other fighter. A rule with ``by_ability`` governs only the attacks of
        that monster ability (``ability``), and those fights only such rules and the general ones.
        An ``optional`` rule counts only when the attack chose it (``chosen``: its id, or ``*`` for
        every rule)."""
        assert self.hs is not None
        seat, m, opponent = self._fight_ctx(attacker, defender)
        out = []
        for side in self.hs.sides().values():
            for r in side.attack_rules:
                if ("by_ability" in r and r.get("by_ability") != ability) or (r.get("optional") and chosen not in ("*", r["id"])):
                    continue
                if not self._role_fits(r.get("attacker"), attacker):
                    continue
                if "defender" in r and not self._role_fits(r["defender"], defender):
                    continue
                if "requires" in r and not self.pred(r["requires"], seat, m, opponent):
                    continue
                out.append(r)
        return out

    def _fight_ctx(self, attacker: str, defender: str) -> tuple[str | None, Monster | None, str | None]:
        m = next((self.monster(w) for w in (attacker, defender) if w not in self.ex), None)
        seat = attacker if attacker in self.ex else defender if defender in self.ex else None
        opponent = defender if seat == attacker else attacker
        return seat, m, opponent

    def _role_fits(self, role: Any, who: str) -> bool:
        is_seat = who in self.ex
        if role is None or role == "anyone":
            return True
        if isinstance(role, Mapping) and "monster" in role:
            return not is_seat and self.monster(who).kind == role["monster"]
        if role == "hero":
            return is_seat and self.side.get(who) == HERO
        if role == "traitor":
            return is_seat and self.side.get(who) == TRAITOR
        if role == "traitor-or-monsters":
            return not is_seat or self.side.get(who) == TRAITOR
        if role == "monsters":
            return not is_seat
        if role in ("revealer", "trapped-explorer"):
            return is_seat and who in self._who(role)
        if isinstance(role, str) and self.hs is not None:
            # a plural status name ("werewolves", "frogs") means the explorers with that status
            singular = next((x for x in (role[:-1], role[:-3] + "f") if x in self.hs.statuses), None)
            if singular is not None:
                return is_seat and singular in self.hstatus.get(who, [])
        raise NotImplementedError(f"attack rule role {role!r}")

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

    def _attack(self, seat: str, a: Action) -> Gen[None]:
        """``attack.*``: roll off, the higher total wins and the loser takes the difference."""
        self.turn.keys.add("attack")
        target = str(a["target"])
        trait = str(a["trait"])
        chosen = str(a["rule"]) if a.get("rule") else None
        w = self.weapons.get(str(a["weapon"])) if a.get("weapon") else None
        ranged = w is not None and w.ranged and self._room_of(target) != self.ex[seat].room
        defend = w.defend if w is not None else trait
        self.emit("attack.once-per-turn", f"{self.name(seat)} makes the one attack of this turn")
        if w is not None:
            self.emit("item.weapons", f"{self.name(seat)} attacks with the {self.card_name(w.card)} "
                      f"(+{w.bonus} {'die' if w.bonus == 1 else 'dice'}, one weapon per attack)")
            # Attacking is the weapon's one action this turn: it cannot then be traded or dropped.
            self.turn.items_acted.add(w.card)
            self.emit("item.one-action-per-item", f"the {self.card_name(w.card)} has been used this turn")
        if not ranged:
            self.emit("attack.same-room", f"the target is in {self.room_name(self.ex[seat].room)}")
        if self.hidden is not None and target in self.ex and self.seen_side(target) == self.seen_side(seat):
            self.emit("hidden-traitor.anyone-attacks", f"{self.name(seat)} may attack {self.name(target)}: with a "
                      "hidden traitor any explorer may attack any other")
        if ranged:
            self.emit("attack.distance", f"a distance attack into {self.room_name(self._room_of(target))}, in line of sight")
        m = None if target in self.ex else self.monster(target)
        # the rules of this fight are those in force when it starts (a steal changes what is held)
        ends_turn = any(r.get("ends_turn") for r in self.fight_rules(seat, target, chosen=chosen))
        att = yield from self.roll(self._dice(seat, None, trait, w.bonus if w else 0, w.cap if w else 8),
                                   f"{self.name(seat)}'s {trait} attack")
        dfn = yield from self.roll(self._dice(target if m is None else None, m, defend), f"{self._who_name(target)} defends")
        yield from self._resolve_fight(seat, target, trait, sum(att), sum(dfn), ranged=ranged, chosen=chosen)
        if ends_turn:
            self.turn.end_now = True

    def _room_of(self, who: str) -> str:
        return self.ex[who].room if who in self.ex else self.monster(who).room

    def _who_name(self, who: str) -> str:
        return self.name(who) if who in self.ex else self.mname(self.monster(who))

    def _dead(self, who: str) -> bool:
        return self.ex[who].dead if who in self.ex else bool(self.monster(who).gone)

    def _resolve_fight(self, attacker: str, defender: str, trait: str, a_total: int, d_total: int, *,
                       ranged: bool = False, ability: str | None = None, chosen: str | None = None) -> Gen[None]:
        """Settle an attack between ``attacker`` and ``defender`` (seats or monster ids), with the
        haunt's attack rules: ``extra`` happens either way, ``on_attacker_wins`` and
        ``on_defender_wins`` add to the normal result, and ``no_damage``, ``damage_scaled`` and
        ``steal`` change the damage."""
        rule = "attack.might-roll-off" if trait == "might" else "attack.other-trait"
        self.emit(rule, f"{self._who_name(attacker)} attacks {self._who_name(defender)} with {trait}: "
                  f"{a_total} against {d_total}")
        rules = self.fight_rules(attacker, defender, ability, chosen=chosen) if self.hs is not None else []
        if chosen is not None:
            self.emit("haunt.rules-override", f"{self._who_name(attacker)} fights by the haunt's rule {chosen}")
        seat, m, _ = self._fight_ctx(attacker, defender)
        for r in rules:
            if r.get("extra"):
                self.emit("haunt.rules-override", f"{r.get('says', r['id'])}")
            for eff in r.get("extra", []):
                yield from self._outcome(eff, seat, m)
        if self._dead(attacker) or self._dead(defender):
            return  # the fight's cost killed a fighter: nothing is left to settle
        if a_total == d_total:
            self.emit("attack.tie-no-damage", "a tie: nobody is hurt")
            return
        win, lose = (attacker, defender) if a_total > d_total else (defender, attacker)
        points = abs(a_total - d_total)
        kind = "physical" if trait in PHYSICAL else "mental"
        self.emit("attack.higher-wins", f"{self._who_name(win)} wins by {points}")
        if win == defender and ranged:
            self.emit("attack.distance-safe", f"{self._who_name(attacker)} attacked from a distance and takes no damage")
            return
        if win not in self.ex and self.monster(win).stunned:
            self.emit("attack.stunned-target", f"{self._who_name(win)} is stunned and deals no damage")
            return
        outs = [eff for r in rules for eff in r.get("on_attacker_wins" if win == attacker else "on_defender_wins", [])]
        changes = {k for eff in outs for k in eff} | {k for eff in outs for sub in eff.get("on_target", []) for k in sub}
        if outs:
            self.emit("attack.other-outcome", f"the haunt adds to {self._who_name(win)}'s win: "
                      + ", ".join(sorted(changes - {"says"})))
        if changes & {"kill_monster", "kill"}:
            pass  # judgement: a win that kills replaces the damage (or stun) it would deal
        elif "no_damage" in changes:
            self.emit("haunt.rules-override", "the haunt's attack rule: nobody takes damage")
        else:
            for eff in outs:
                if "damage_scaled" in eff:
                    points = points // 2 if eff["damage_scaled"] == "half-down" else -(-points // 2)
                    self.emit("haunt.rules-override", f"the damage is halved to {points}")
            yield from self._deal(win, lose, points, kind, attacker, ranged, rules)
        for eff in outs:
            if not {"no_damage", "damage_scaled"} & set(eff):
                yield from self._outcome(eff, seat, m, target=lose)

    def _deal(self, win: str, lose: str, points: int, kind: str, attacker: str, ranged: bool,
              rules: list[Mapping[str, Any]]) -> Gen[None]:
        if lose in self.ex and win not in self.ex and win == attacker:
            margin = next((int(r["steal_margin"]) for r in rules if "steal_margin" in r), None)
            m = self.monster(win)
            loot = [c for c in self.ex[lose].cards if self.t.cards[c].can_steal or self.t.cards[c].companion]
            if margin is not None and points >= margin and loot and self.mdef(m).carries.get("items"):
                acts = [Action.of("damage-them")] + [Action.of("steal", card=c) for c in loot]
                choice = yield from self.ask(self.monster_controller(m), acts, f"deal {points} damage or steal")
                if choice.kind == "steal":
                    card = str(choice["card"])
                    self.ex[lose].cards.remove(card)
                    m.cards.append(card)
                    self.emit("attack.steal", f"{self.mname(m)} takes {self.card_name(card)} from {self.name(lose)} "
                              "instead of dealing damage")
                    yield from effects.lose_card(self, lose, card)
                    return
            order = next((list(r["damage_to"]) for r in rules if "damage_to" in r), None)
            if order:
                self.emit("haunt.rules-override", f"{self.name(lose)} takes {points} damage in the haunt's order: "
                          f"{', '.join(order)}")
                left = points
                for i, trait in enumerate(order):
                    room = self.ex[lose].idx[trait] if i < len(order) - 1 else left  # the last takes the rest
                    take = min(left, room)
                    if take:
                        self.trait_change(lose, trait, -take, rule="damage.lowers-traits")
                    left -= take
                    if left <= 0 or self.ex[lose].dead:
                        break
                return
        if lose in self.ex:
            if win == attacker and win in self.ex and kind == "physical" and points >= 2 and not ranged:
                stealable = [c for c in self.ex[lose].cards if self.t.cards[c].can_steal]
                tokens = sorted({k for k in self.held.get(lose, []) if self.hs is not None and k in self.hs.tokens
                                 and self.hs.tokens[k].carried_as_item})
                if stealable or tokens:
                    acts = [Action.of("damage-them")] + [Action.of("steal", card=c) for c in stealable + tokens]
                    choice = yield from self.ask(win, acts, f"deal {points} damage or steal")
                    if choice.kind == "steal" and str(choice["card"]) in tokens:
                        token = str(choice["card"])
                        self.held[lose].remove(token)
                        self.held.setdefault(win, []).append(token)
                        self.emit("attack.steal", f"{self.name(win)} steals the {token} token from {self.name(lose)} "
                                  "instead of dealing damage (item.tokens-like-cards)")
                        return
                    if choice.kind == "steal":
                        card = str(choice["card"])
                        self.ex[lose].cards.remove(card)
                        self.ex[win].cards.append(card)
                        self.emit("attack.steal", f"{self.name(win)} steals {self.card_name(card)} from {self.name(lose)} "
                                  "instead of dealing damage")
                        yield from effects.lose_card(self, lose, card)
                        yield from effects.gain_card(self, win, card)
                        return
            if kind == "physical" and points >= 2 and win in self.ex:
                if ranged and win == attacker and any(self.t.cards[c].can_steal for c in self.ex[lose].cards):
                    self.emit("attack.no-steal-at-range", "nothing can be stolen with a distance attack")
                elif win != attacker and any(self.t.cards[c].can_steal for c in self.ex[lose].cards):
                    self.emit("attack.steal-by-attacker", f"{self.name(win)} defended: only an attacker may steal")
            for status in self.hstatus.get(lose, []):
                if self.hs is not None and self.hs.statuses.get(status, {}).get("damage_taken") == "half-up":
                    points = -(-points // 2)
                    self.emit("haunt.rules-override", f"{self.name(lose)} ({status}) takes half damage, rounded up: {points}")
            rule = "attack.mental" if kind == "mental" else "attack.speed-physical" if self._trait == "speed" else \
                "attack.damage-difference"
            self.emit(rule, f"{self.name(lose)} takes {points} {kind} damage")
            yield from effects.take_damage(self, lose, kind, points)
        else:
            self._defeat_monster(self.monster(lose), points, kind)

    def _defeat_monster(self, m: Monster, points: int, kind: str) -> None:
        mdef = self.mdef(m)
        cap = mdef.damage_capacity
        if cap is not None and cap.get("type", kind) == kind:
            self.track += points
            self.emit("monster.rules-overridable", f"{self.mname(m)} takes {points} damage on the Turn/Damage track "
                      f"({self.track} of {cap['points']})")
            if self.track >= int(cap["points"]):
                m.gone = "killed"
                self.emit("monster.rules-overridable", f"{self.mname(m)} is killed")
            return
        if mdef.on_defeat not in ("stun", "as-attack-rules-say"):
            raise NotImplementedError(f"monster on_defeat {mdef.on_defeat!r}")
        m.stunned = True
        self.emit("attack.monsters-stunned", f"{self.mname(m)} loses the fight")
        self.emit("monster.stun-instead-of-damage", f"{self.mname(m)} is stunned and misses its next turn")
        self._release_gone()
        if m.cards:
            self.piles.setdefault(m.room, []).extend(m.cards)
            self.emit("monster.stunned-drops-items", f"{self.mname(m)} drops {', '.join(self.card_name(c) for c in m.cards)} "
                      "as an item pile")
            m.cards = []

    # ---------------------------------------------------------------------------------------
    # The monster turn

    def _monster_turn(self) -> Gen[None]:
        assert self.hs is not None
        t = self.traitor()
        if t is not None and self.ex[t].dead:
            self.emit("turn.monster-turn-after-traitor-death", f"the traitor is dead; {t} still runs the monster turn")
        else:
            self.emit("traitor.runs-monsters" if t else "monster.one-at-a-time", "the monster turn")
            if t:
                self.emit("turn.traitor-two-turns", f"{t} plays the monsters' turn as well as the traitor's")
        yield from self._basement_rescue()
        for kind, mdef in self.hs.monsters.items():
            group = [m for m in self.mon if m.kind == kind and not m.gone]
            if not group or self.control.get(kind, TRAITOR) == HERO:
                continue  # judgement: a monster the heroes control stays where it is
            shared: int | None = None
            grouped = self._group_move(mdef)
            for m in group:
                if m.gone:
                    continue
                if m.stunned:
                    m.stunned = False
                    self.emit("monster.stun-token", f"{self.mname(m)} misses this turn and recovers")
                    continue
                yield from self._monster_checks(m, "start")
                for rule in mdef.must:
                    if rule.get("when") == "start-of-turn":
                        for eff in rule.get("do", []):
                            yield from self._outcome(eff, None, m)
                if m.gone:
                    continue
                hook = mdef.movement.get("custom")
                if hook in TURN_HOOKS:
                    spent = yield from TURN_HOOKS[hook](self, m)
                    if spent:
                        continue  # the hook's move replaced the monster's move and attack
                if mdef.movement.get("roll") == "none":
                    yield from self._monster_attack(m)  # it never moves
                    continue
                if not grouped or shared is None:
                    faces = yield from self.roll(self.mstat(m, "speed"), f"{mdef.name} movement")
                    roll = sum(faces)
                    if grouped:
                        shared = roll
                        self.emit("monster.group-roll", f"the {mdef.name} group rolls {roll} for movement")
                    else:
                        self.emit("monster.speed-roll", f"{self.mname(m)} rolls {roll} for movement")
                else:
                    roll = shared or 0
                yield from self._monster_pickup(m)
                yield from self._monster_moves(m, roll)
                if m.gone:
                    continue
                yield from self._monster_stops(m)
                yield from self._monster_pickup(m)
                yield from self._monster_attack(m)
                if self._check_wins():
                    return
                yield from self._monster_abilities(m)
                if self._check_wins():
                    return
                yield from self._monster_rolls(m)
                if self._check_wins():
                    return

    def _basement_rescue(self) -> Gen[None]:
        """``monster.basement-rescue``: monsters shut in the basement away from every hero let the
        traitor fetch the Stairs from Basement from the stack to an open basement doorway."""
        t = self.traitor()
        stairs = "stairs-from-basement"
        if t is None or stairs in self.house.spots or (stairs not in self.stack and stairs not in self.aside):
            return
        heroes = [self.ex[s].room for s in self.living_heroes()]
        dist = self._dist_to(heroes)
        stuck = [m for m in self.active_monsters() if self.mdef(m).controlled_by in ("traitor", "traitor-or-heroes")
                 and self.house.floor_of(m.room) == "basement" and m.room not in dist]
        if not stuck or not heroes:
            return
        a = yield from self.ask(t, [Action.of("rescue", room=stairs), Action.of("no-rescue", room=stairs)],
                                "fetch the Stairs from Basement for the monsters shut in the basement?")
        if a.kind == "rescue":
            self.emit("monster.basement-rescue", f"{', '.join(self.mname(m) for m in stuck)} cannot reach a hero: the "
                      "Stairs from Basement come out of the stack")
            yield from self._fetch_room({"room": stairs, "place": {"floor": "basement", "chosen_by": "traitor"}})

    def _monster_pickup(self, m: Monster) -> Gen[None]:
        """A monster allowed to carry items may pick them up from a pile in its room."""
        pile = self.piles.get(m.room, [])
        if not pile or not self.mdef(m).carries.get("items") or m.stunned:
            return
        acts = [Action.of("monster-pickup", monster=m.uid, card=c) for c in pile]
        a = yield from self.ask(self.monster_controller(m), [Action.of("monster-leave", monster=m.uid), *acts],
                                f"{self.mname(m)} picks up?")
        if a.kind == "monster-pickup":
            card = str(a["card"])
            pile.remove(card)
            if not pile:
                del self.piles[m.room]
            m.cards.append(card)
            self.emit("monster.rules-overridable", f"{self.mname(m)} picks up {self.card_name(card)}")

    def _group_move(self, mdef: MonsterDef) -> bool:
        raw = self.haunts[self.hs.number][1] if self.hs is not None else {}
        for mon in raw.get("monsters", ()):
            if mon.get("id") == mdef.id and "group_move" in mon:
                return bool(mon["group_move"])
        return True

    def _monster_moves(self, m: Monster, roll: int) -> Gen[None]:
        hook = self.mdef(m).movement.get("custom")
        if hook in MOVE_HOOKS:
            yield from MOVE_HOOKS[str(hook)](self, m, roll)
            return
        budget = roll
        if roll == 0:
            self.emit("monster.zero-roll-still-moves", f"{self.mname(m)} rolled 0 and may still move one space")
            budget = 1
        moved = 0
        seat = self.monster_controller(m)
        teleport = self.mdef(m).movement.get("teleport")
        if teleport and roll in teleport.get("on_roll", []) and teleport.get("to") == "any-room":
            rooms = [r for r in sorted(self.house.spots) if r != m.room]
            acts = [Action.of("monster-teleport", monster=m.uid, to=r) for r in rooms]
            a = yield from self.ask(seat, [Action.of("monster-walk", monster=m.uid), *acts],
                                    f"{self.mname(m)} may take a secret way to any room")
            if a.kind == "monster-teleport":
                src, m.room = m.room, str(a["to"])
                self.emit("monster.rules-overridable", f"{self.mname(m)} rolled {roll} and moves {self.room_name(src)} -> "
                          f"{self.room_name(m.room)} by a secret way")
                yield from self._monster_checks(m, "enter")
                return
        while True:
            options = self._monster_steps(m, budget - moved, moved == 0)
            forced = self._forced_steps(m, options)
            acts = [Action.of("monster-move", monster=m.uid, to=r) for r, _ in (forced if forced is not None else options)]
            if forced is None or not acts:
                acts.append(Action.of("monster-stop", monster=m.uid))
            a = yield from self.ask(seat, acts, f"move {self.mname(m)}")
            if a.kind == "monster-stop":
                return
            to = str(a["to"])
            cost = next(c for r, c in options if r == to)
            slow = sum(1 for s in self.living_heroes() if self.ex[s].room == m.room)
            src = m.room
            m.room = to
            moved += cost + slow
            self.emit("monster.speed-roll", f"{self.mname(m)} moves {self.room_name(src)} -> {self.room_name(to)} "
                      f"({min(moved, budget)} of {budget})")
            if slow:
                self.emit("monster.slowed-by-heroes", f"{self.mname(m)} pays {slow} extra to leave heroes behind")
            self._monster_room_text(m, ("enter", "cross"))
            yield from self._monster_checks(m, "enter")
            if m.gone:
                return

    def _monster_room_text(self, m: Monster, triggers: tuple[str, ...]) -> None:
        """Room text does nothing to monsters: harmful text and barriers are ignored
        (``monster.ignore-harmful-room-text``, ``room.barrier.monsters-ignore``) and trait gains are not
        for them (``monster.no-trait-gain-rooms``); text that moves monsters too moves them (the
        Coal Chute's slide, ``monster.coal-chute``)."""
        rdef = self.t.rooms[m.room]
        if "cross" in triggers and len(rdef.barrier) >= 2:
            self.emit("room.barrier.monsters-ignore", f"{self.mname(m)} ignores the barrier of {rdef.name}")
        for ability in rdef.abilities:
            if ability.get("trigger") not in triggers or ability.get("trigger") == "cross":
                continue
            exempt = ability.get("exemptions", {})
            if exempt.get("monsters_immune"):
                self.emit("monster.ignore-harmful-room-text", f"{self.mname(m)} ignores the {rdef.name}'s text")
            elif exempt.get("monsters_excluded"):
                self.emit("monster.no-trait-gain-rooms", f"{self.mname(m)} gains nothing from the {rdef.name}")
            elif exempt.get("monsters_affected"):
                # Text that moves monsters too (the Coal Chute's slide, part of the same space).
                for eff in ability.get("do", []):
                    to = eff.get("move", {}).get("room")
                    if to in self.house.spots:
                        m.room = str(to)
                        self.emit("monster.coal-chute", f"{self.mname(m)} slides from the {rdef.name} to the "
                                  f"{self.room_name(m.room)}")

    def _monster_stops(self, m: Monster) -> Gen[None]:
        """Where a monster ends its move: room text meant for the end of a turn does not touch it,
        and in a barrier room its controller picks the side it stands on (``room.barrier.monsters-ignore``)."""
        self._monster_room_text(m, ("end-of-turn",))
        rdef = self.t.rooms[m.room]
        if len(rdef.barrier) < 2:
            m.part = 0
            return
        rot = self.house.spots[m.room].rotation
        opts = [Action.of("monster-side", monster=m.uid, side=SIDES[(s + rot) % 4]) for s in rdef.barrier]
        a = yield from self.ask(self.monster_controller(m), opts, f"choose the side of {rdef.name} {self.mname(m)} stands on")
        m.part = opts.index(a)
        self.emit("room.barrier.monsters-ignore", f"{self.mname(m)} stops on the {a['side']} side of {rdef.name}")

    def together(self, a: str, b: str) -> bool:
        """Two figures (seats or monster ids) can interact: same room and, in a barrier room, the
        same side of it (``room.barrier.no-interaction-across``)."""
        if self._room_of(a) != self._room_of(b):
            return False
        return self._part_of(a) == self._part_of(b) or len(self.t.rooms[self._room_of(a)].barrier) < 2

    def _part_of(self, who: str) -> int:
        return self.ex[who].part if who in self.ex else self.monster(who).part

    def _monster_steps(self, m: Monster, left: int, first: bool) -> list[tuple[str, int]]:
        """Rooms a monster may step into now (no exploring: ``monster.no-exploring``)."""
        if left <= 0:
            return []
        mdef = self.mdef(m)
        raw_forbidden = set(self._monster_raw(mdef).get("may_not_use", ()))
        slow = sum(1 for s in self.living_heroes() if self.ex[s].room == m.room)
        out = []
        steps = [(room, cost) for room, cost, _how in self._room_exits(m.room)]
        if mdef.movement.get("through_walls"):
            steps += [(r, 1) for r in self._wall_neighbours(m.room) if r not in {x for x, _ in steps}]
        for room, cost in steps:
            if room in raw_forbidden or (room in self.collapsed and not mdef.movement.get("through_collapsed")):
                continue
            if first or cost + slow <= left:
                out.append((room, cost))
        return out

    def _monster_raw(self, mdef: MonsterDef) -> Mapping[str, Any]:
        assert self.hs is not None
        for mon in self.haunts[self.hs.number][1].get("monsters", ()):
            if mon.get("id") == mdef.id:
                return mon  # type: ignore[no-any-return]
        return {}

    def _room_exits(self, room: str) -> list[tuple[str, int, str]]:
        """A monster's ways out of a room: every doorway, whichever side of a barrier it is on
        (``room.barrier.monsters-ignore``)."""
        return self._exits(Explorer("probe", "", room=room), every_side=True)

    def _forced_steps(self, m: Monster, options: list[tuple[str, int]]) -> list[tuple[str, int]] | None:
        """Steps a monster must take (toward its quarry), or None when it moves freely."""
        mv = self.mdef(m).movement
        goal: list[str] = []
        if mv.get("toward") == "own-counterpart" and m.counterpart and self.in_play(m.counterpart):
            goal = [self.ex[m.counterpart].room]
        elif mv.get("toward") == "nearest-hero":
            goal = [self.ex[s].room for s in self.living_heroes()]
        elif mv.get("toward") == "nearest-explorer-not-revealer":
            revealer = self.haunt["revealer"] if self.haunt else None
            goal = [self.ex[s].room for s in self.living_heroes() if s != revealer]
        elif isinstance(mv.get("toward"), Mapping) and "nearest_with_status" in mv["toward"]:
            status = mv["toward"]["nearest_with_status"]
            # carried explorers are ignored like items (the Cat and carried Frogs)
            goal = [self.ex[s].room for s in self.seat_ids if self.in_play(s) and s not in self.carried
                    and status in self.hstatus.get(s, [])]
        elif mv.get("chase_when_seen"):
            seen = self.line_of_sight(m.room) | {m.room}
            goal = [self.ex[s].room for s in self.living_heroes() if self.ex[s].room in seen]
        if not goal:
            return None
        dist = self._monster_dist(m, goal)
        here = dist.get(m.room, 10_000)
        if here == 0:
            return []
        return [(r, c) for r, c in options if dist.get(r, 10_000) < here]

    def _wall_neighbours(self, room: str) -> list[str]:
        spot = self.house.spots[room]
        out = []
        for side in range(4):
            other = self.house.room_at(spot.floor, step(spot.cell, side))
            if other is not None:
                out.append(other)
        return out

    def _monster_dist(self, m: Monster, goals: Iterable[str]) -> dict[str, int]:
        """Spaces to the goals as this monster moves (through walls if it may)."""
        if not self.mdef(m).movement.get("through_walls"):
            return self._dist_to(goals)
        frontier = sorted(set(goals) & set(self.house.spots))
        dist = dict.fromkeys(frontier, 0)
        graph = self._graph()
        while frontier:
            nxt: list[str] = []
            for room in frontier:
                for other in sorted(graph[room] | set(self._wall_neighbours(room))):
                    if other not in dist:
                        dist[other] = dist[room] + 1
                        nxt.append(other)
            frontier = nxt
        return dist

    def _graph(self) -> dict[str, set[str]]:
        """The house as an undirected graph of rooms (doors, stairs and links, every side of a
        barrier room), cached until a tile or link is added."""
        key = (self.house.version, self._tile_version, len(self.links))
        if self._graph_key == key:
            return self._graph_cache
        graph: dict[str, set[str]] = {r: set() for r in self.house.spots}
        for room in sorted(self.house.spots):
            for part in range(max(1, len(self.t.rooms[room].barrier))):
                for other, _, _ in self._exits_of(Explorer("probe", "", room=room, part=part)):
                    if other in graph:
                        graph[room].add(other)
                        graph[other].add(room)
        self._graph_key, self._graph_cache = key, graph
        return graph

    def _dist_to(self, goals: Iterable[str]) -> dict[str, int]:
        """Spaces from every room to the nearest of ``goals`` (a breadth-first search backwards,
        with the one-way chutes that room text slides you down)."""
        graph = self._graph()
        back: dict[str, set[str]] = {r: set(n) for r, n in graph.items()}
        for room in graph:
            for c in self.t.rooms[room].connections:
                if c.kind == "chute" and c.to in back:
                    back[c.to].add(room)
        frontier = sorted({g for g in goals if g in back})
        dist = dict.fromkeys(frontier, 0)
        while frontier:
            nxt: list[str] = []
            for room in frontier:
                for other in sorted(back[room]):
                    if other not in dist:
                        dist[other] = dist[room] + 1
                        nxt.append(other)
            frontier = nxt
        return dist

    def _monster_checks(self, m: Monster, moment: str) -> Gen[None]:
        """The monster's ``must`` rules that fire on entering or starting in a room (a lure)."""
        for rule in self.mdef(m).must:
            if rule.get("when") != "on-enter-or-start":
                continue
            rooms = rule.get("where", {}).get("rooms", [])
            if m.room not in rooms:
                continue
            key = f"{rule['id']}/{m.room}"
            if rule.get("reuse") == "once-per-place" and key in self.used_places:
                continue
            roll = rule.get("roll", {})
            trait = str(roll.get("trait"))
            faces = yield from self.roll(self.mstat(m, trait), f"{self.mname(m)}'s {trait} roll")
            total = sum(faces)
            ok = total >= int(roll.get("target", 0))
            self.emit("haunt.specific-action", f"{self.mname(m)} {'enters' if moment == 'enter' else 'starts in'} "
                      f"{self.room_name(m.room)}: {trait} {total} against {roll.get('target')}+ "
                      f"({'resists' if ok else 'fails'})")
            for eff in rule.get("success" if ok else "failure", []):
                yield from self._outcome(eff, None, m)
                if rule.get("reuse") == "once-per-place":
                    self.used_places.add(key)
            if m.gone:
                return

    def targets(self, target: Mapping[str, Any], room: str, seat: str | None) -> list[str]:
        """Explorers an action or ability may aim at (``target``: kind and range) from ``room``."""
        rooms = {room} | (self.line_of_sight(room) if target.get("range") == "same-room-or-line-of-sight" else set())
        kind = target.get("kind")
        out = []
        for s in self.seat_ids:
            if s == seat or not self.in_play(s) or self.ex[s].room not in rooms:
                continue
            if kind in ("hero", "hero-with-status") and self.side.get(s) != HERO:
                continue
            if kind == "hero-with-status" and target.get("status") not in self.hstatus.get(s, []):
                continue
            if kind == "explorer-without-status" and target.get("status") in self.hstatus.get(s, []):
                continue  # (the Witch's spells spare Frogs for her Cat, haunt 3)
            out.append(s)
        return out

    def _monster_rolls(self, m: Monster) -> Gen[None]:
        """A monster's ``must`` rules for ``each-explorer`` on the monster turn: every explorer in
        play that the requirement picks (and the ``unless`` spares) rolls, and the band of the
        result says what happens (the Banshee's wail)."""
        for rule in self.mdef(m).must:
            if rule.get("when") != "monster-turn" or rule.get("who") != "each-explorer" or "roll" not in rule:
                continue
            for seat in self.seat_ids:
                if m.gone or not self.in_play(seat):
                    continue
                if "requires" in rule and not self.pred(rule["requires"], seat, m):
                    continue
                if "unless" in rule and self.pred(rule["unless"], seat, m):
                    self.emit("monster.rules-overridable", f"{self.name(seat)} is spared: {rule.get('says', rule['id'])}")
                    continue
                trait = str(rule["roll"]["trait"])
                faces = yield from self.roll(self.value(seat, trait), f"{rule['id']}: {self.name(seat)} rolls {trait}")
                total = sum(faces)
                band = next((b for b in rule["roll"].get("bands", ())
                             if b.get("min", 0) <= total <= b.get("max", 99)), None)
                self.emit("monster.rules-overridable", f"{self.mname(m)}'s {rule['id']} reaches {self.name(seat)}: "
                          f"{trait} {total}")
                for eff in band.get("then", []) if band else []:
                    yield from self._outcome(eff, seat, m)

    def _monster_abilities(self, m: Monster) -> Gen[None]:
        """A monster's ``abilities`` on the monster turn (the Witch's spells): its controller may
        use one of them, after its movement, in place of an attack."""
        abilities = [ab for ab in self.mdef(m).abilities if ab.get("timing") == "monster-turn"]
        if m.gone or m.stunned or not abilities:
            return
        acts: list[Action] = []
        for ab in abilities:
            if "requires" in ab and not self.pred(ab["requires"], None, m):
                continue
            if "target" in ab:
                acts += [Action.of("monster-ability", monster=m.uid, id=ab["id"], target=t)
                         for t in self.targets(ab["target"], m.room, None)]
            else:
                acts.append(Action.of("monster-ability", monster=m.uid, id=ab["id"]))
        if not acts:
            return
        a = yield from self.ask(self.monster_controller(m), [*acts, Action.of("monster-pass", monster=m.uid)],
                                f"{self.mname(m)} uses an ability?")
        if a.kind == "monster-pass":
            return
        ab = next(x for x in abilities if x["id"] == a["id"])
        target = str(a["target"]) if a.get("target") else None
        self.emit("monster.rules-overridable", f"{self.mname(m)}: {ab.get('says', ab['id'])}"
                  + (f" (on {self.name(target)})" if target else ""))
        roll = ab.get("roll")
        ok = True
        if roll:
            trait = str(roll["trait"])
            mine = yield from self.roll(self._dice(None, m, trait), f"{self.mname(m)}'s {trait} roll")
            theirs: tuple[int, ...] = ()
            if roll.get("opposed_by") == "target" and target is not None:
                theirs = yield from self.roll(self._dice(target, None, trait), f"{self.name(target)}'s {trait} roll")
                ok = sum(mine) > sum(theirs)
            else:
                ok = sum(mine) >= int(roll.get("target", 0))
            self.emit("monster.rules-overridable", f"{self.mname(m)} rolls {trait} {sum(mine)}"
                      + (f" against {sum(theirs)}" if roll.get("opposed_by") else "")
                      + (": it works" if ok else ": it fails"))
        for eff in (ab.get("success" if ok else "failure", []) if roll else ab.get("do", [])):
            yield from self._outcome(eff, None, m, target)
    def _ability_attacks(self, m: Monster) -> list[tuple[Mapping[str, Any], list[str]]]:
        """The monster's abilities that attack a target set instead of its normal attack
        (``monster_attack`` with ``targets``), each with the heroes it would attack now: those in
        the room whose fight the ability's attack rules allow."""
        assert self.hs is not None
        out: list[tuple[Mapping[str, Any], list[str]]] = []
        for ability in self.mdef(m).abilities:
            if ability.get("timing") != "instead-of-attack" or not any(
                    "targets" in d.get("monster_attack", {}) for d in ability.get("do", [])):
                continue
            own = [r for side in self.hs.sides().values() for r in side.attack_rules if r.get("by_ability") == ability["id"]]
            targets = []
            for s in self.living_heroes():
                if self.ex[s].room != m.room:
                    continue
                rules = self.fight_rules(m.uid, s, str(ability["id"]))
                if any(r.get("forbidden") for r in rules) or (own and not any(r in own for r in rules)):
                    continue
                targets.append(s)
            if targets:
                out.append((ability, targets))
        return out

    def _attack_each(self, m: Monster, ability: Mapping[str, Any], targets: list[str]) -> Gen[None]:
        """``monster_attack`` with ``targets``: one attack on each hero of the set, in seat order,
        each rolled and settled on its own under the ability's attack rules."""
        name = str(ability["id"])
        self.emit("haunt.rules-override", f"{self.mname(m)} uses {name} instead of its attack: "
                  f"{ability.get('says', name)}")
        for target in targets:
            if not self.in_play(target) or m.gone or self.ex[target].room != m.room:
                continue
            rules = self.fight_rules(m.uid, target, name)
            trait = next((str(r["attack_with"][0]) for r in rules if "attack_with" in r), "might")
            self.emit("monster.one-attack", f"{self.mname(m)} attacks {self.name(target)} ({name})")
            att = yield from self.roll(self._dice(None, m, trait), f"{self.mname(m)} attacks")
            dfn = yield from self.roll(self._dice(target, None, trait), f"{self.name(target)} defends")
            yield from self._resolve_fight(m.uid, target, trait, sum(att), sum(dfn), ability=name)

    def _monster_attack(self, m: Monster) -> Gen[None]:
        here = [s for s in self.living_heroes() if self.together(m.uid, s)]
        across = [s for s in self.living_heroes() if self.ex[s].room == m.room and s not in here]
        if across:
            self.emit("room.barrier.no-interaction-across", f"{self.mname(m)} cannot reach "
                      f"{', '.join(self.name(s) for s in across)} across the {self.room_name(m.room)}")
        if not here:
            return
        attack_rules = [r for r in self.mdef(m).must if r.get("when") == "monster-turn"
                        and any("monster_attack" in d for d in r.get("do", []))]
        here = [s for s in here if not any(r.get("forbidden") for r in self.fight_rules(m.uid, s))]
        # attack.target-needs-trait, for the attacker: a monster without the trait (the Banshee's
        # Might is "none") makes no attack with it
        here = [s for s in here if self.mdef(m).stats_by_track or next(
            (str(r["attack_with"][0]) for r in self.fight_rules(m.uid, s) if "attack_with" in r), "might") in m.stats]
        specials = self._ability_attacks(m) if not attack_rules else []
        if not here and not specials:
            return
        seat = self.monster_controller(m)
        forced = bool(attack_rules) and (not attack_rules[0].get("requires")
                                         or self.pred(attack_rules[0]["requires"], here[0], m))
        target: str | None = None
        spec = attack_rules[0]["do"][0]["monster_attack"] if attack_rules else {}
        if forced and spec.get("prefer") == "own-counterpart" and m.counterpart in here:
            target = m.counterpart
        elif forced and spec.get("else") == "random" and len(here) > 1:
            a = yield Req(CHANCE, Draw(here, arg="target"), f"{self.mname(m)} attacks a hero at random")
            target = str(a["target"])
        else:
            acts = [Action.of("monster-attack", monster=m.uid, target=s) for s in here]
            acts += [Action.of("monster-ability", monster=m.uid, ability=str(ab["id"])) for ab, _ in specials]
            if not forced:
                acts.append(Action.of("monster-pass", monster=m.uid))
            a = yield from self.ask(seat, acts, f"{self.mname(m)} attacks?")
            if a.kind == "monster-pass":
                return
            if a.kind == "monster-ability":
                ability, targets = next((ab, ts) for ab, ts in specials if ab["id"] == a["ability"])
                yield from self._attack_each(m, ability, targets)
                return
            target = str(a["target"])
        rules = self.fight_rules(m.uid, target)
        trait = next((str(r["attack_with"][0]) for r in rules if "attack_with" in r), "might")
        self.emit("monster.one-attack", f"{self.mname(m)} attacks {self.name(target)}")
        att = yield from self.roll(self._dice(None, m, trait), f"{self.mname(m)} attacks")
        if any(r.get("reroll_blanks") for r in rules) and 0 in att:
            again = yield from self.roll(att.count(0), f"{self.mname(m)} rerolls its blanks")
            self.emit("haunt.rules-override", f"{self.mname(m)} rerolls {att.count(0)} blank dice: {sum(again)} more")
            att = tuple(f for f in att if f) + again
        dfn = yield from self.roll(self._dice(target, None, trait), f"{self.name(target)} defends")
        yield from self._resolve_fight(m.uid, target, trait, sum(att), sum(dfn))

    # ---------------------------------------------------------------------------------------
    # Predicates and winning

    def pred(self, p: Mapping[str, Any], seat: str | None = None, m: Monster | None = None,
             opponent: str | None = None) -> bool:
        """Evaluate a haunt predicate (``docs/haunt-format.md``): ``seat`` is the explorer it is
        about (if any), ``m`` a monster in question, ``opponent`` the other fighter.

        A predicate is tested by its key (see ``PREDICATE_TESTS``); other keys (``says``) are
        notes. Should a predicate carry two test keys, the one earlier in ``PREDICATE_TESTS``
        decides, as it always has."""
        rank = -1
        for key in p:
            r = PREDICATE_RANK.get(key, -1)
            if r >= 0 and (rank < 0 or r < rank):
                rank = r
        if rank < 0:
            raise NotImplementedError(f"haunt predicate {sorted(p)}")
        return PREDICATE_ORDER[rank][1](self, p, seat, m, opponent)

    # One method per predicate key (``pred`` picks them): each gets the predicate, the explorer
    # it is about, the monster in question and the other fighter.

    def _pred_all(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return all(self.pred(x, seat, m, opponent) for x in p["all"])

    def _pred_any(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return any(self.pred(x, seat, m, opponent) for x in p["any"])

    def _pred_not(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return not self.pred(p["not"], seat, m, opponent)

    def _pred_opponent(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """The predicate holds of the other fighter (an explorer or a monster)."""
        if opponent is None:
            return False
        if opponent in self.ex:
            return self.pred(p["opponent"], opponent, m, seat)
        return self.pred(p["opponent"], None, self.monster(opponent), seat)

    def _pred_heroes_dead(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """All heroes dead, or (any other value) more than half of them."""
        heroes = self.heroes()
        ex = self.ex
        dead = sum(1 for s in heroes if ex[s].dead)
        return dead == len(heroes) if p["heroes_dead"] == "all" else dead * 2 > len(heroes)

    def _pred_heroes_gone(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """No hero left in the house: dead, removed, (``or_exited``) gone out, or with one of
        the ``or_status`` statuses."""
        spec = p["heroes_gone"] or {}
        statuses = spec.get("or_status") or ()
        or_exited = spec.get("or_exited")
        for s in self.heroes():
            if self.ex[s].dead or s in self.removed or (or_exited and s in self.exited):
                continue
            if statuses and any(x in statuses for x in self.hstatus.get(s, ())):
                continue
            return False  # this hero is still about
        return True

    def _pred_heroes_alive(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return len(self.living_heroes()) >= self._amount(p["heroes_alive"].get("at_least", 1))

    def _pred_heroes_exited(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return sum(1 for s in self.heroes() if s in self.exited) >= self._amount(p["heroes_exited"].get("at_least", 1))

    def _pred_exited(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return seat is not None and (seat in self.exited) == bool(p["exited"])

    def _pred_monsters_defeated(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                                opponent: str | None) -> bool:
        """All (or ``count``) monsters of a kind gone, by ``how`` if given."""
        spec = p["monsters_defeated"]
        kind = spec["monster"]
        how = spec.get("how")
        mine = [x for x in self.mon if x.kind == kind]
        # judgement: a haunt that banishes a monster does it by a kill_monster outcome
        done = [x for x in mine if x.gone and (how is None or x.gone == how or {x.gone, how} == {"killed", "banished"})]
        count = spec.get("count", "all")
        return bool(mine) and (len(done) == len(mine) if count == "all" else len(done) >= self._amount(count))

    def _pred_none_alive_with_status(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                                     opponent: str | None) -> bool:
        return not any(p["none_alive_with_status"] in self.hstatus.get(s, []) for s in self.seat_ids if self.in_play(s))

    def _pred_has_status(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """The explorer (without one: any explorer in play) has the status."""
        who = [seat] if seat else [s for s in self.seat_ids if self.in_play(s)]
        return any(p["has_status"] in self.hstatus.get(s, []) for s in who)

    def _pred_flag(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return str(p["flag"]) in self.hflags

    def _pred_carried(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return seat is not None and seat in self.carried

    def _pred_custom(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return PRED_HOOKS[str(p["custom"])](self, seat, m)

    def _pred_condition(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return seat is not None and effects.condition(self, p["condition"], effects.Ctx(seat, "token:haunt"))

    def _pred_holds(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """Someone ``who`` names (explorers, or monsters of a kind) holds ``all`` and one of ``any``."""
        spec = p["holds"]
        who = spec.get("who", {})
        if isinstance(who, Mapping) and "monster" in who:
            bags = [x.cards for x in self.active_monsters() if x.kind == who["monster"]]
        else:
            bags = [self.ex[s].cards + self.held.get(s, []) for s in self._who(who)]
        return any(all(c in bag for c in spec.get("all", [])) and (not spec.get("any") or any(c in bag for c in spec["any"]))
                   for bag in bags)

    def _pred_monster_in_room(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                              opponent: str | None) -> bool:
        spec = p["monster_in_room"]
        rooms = set(self._rooms_for(spec["room"]))
        return any(x.room in rooms for x in self.active_monsters() if x.kind == spec["monster"])

    def _pred_item_destroyed(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                             opponent: str | None) -> bool:
        return str(p["item_destroyed"]) in self.destroyed

    def _pred_item_in_room(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """The item is carried into, or lies in, one of the rooms."""
        spec = p["item_in_room"]
        rooms = set(self._rooms_for(spec["room"]))
        item = str(spec["item"])
        return any(self.holds(s, item) and self.ex[s].room in rooms for s in self.seat_ids if self.in_play(s)) \
            or any(item in self.piles.get(r, []) for r in rooms)

    def _pred_track_reaches(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                            opponent: str | None) -> bool:
        return self.track >= int(p["track_reaches"])

    def _pred_tokens_collected(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                               opponent: str | None) -> bool:
        """Enough of the tokens earned, or (``in``) lying in the rooms named."""
        spec = p["tokens_collected"]
        need = self._amount(spec.get("count", 1))
        tokens = [spec["token"]] if "token" in spec else list(spec.get("tokens", []))
        if "in" in spec:
            rooms = set(self._rooms_for(spec["in"]))
            got = sum(1 for t in tokens for r in self.htokens.get(t, []) if r in rooms)
        else:
            got = sum(self.earned.get(t, 0) for t in tokens)
        return got >= need

    def _pred_alive(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return seat is not None and self.in_play(seat) == bool(p["alive"])

    def _pred_holds_tokens(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                           opponent: str | None) -> bool:
        spec = p["holds_tokens"]
        return seat is not None and self.held.get(seat, []).count(str(spec["token"])) >= self._amount(spec["count"])

    def _pred_holding(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        cards = p["holding"]
        cards = [cards] if isinstance(cards, str) else cards
        return seat is not None and all(self.holds(seat, c) for c in cards)

    def _pred_counterpart_fight(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                                opponent: str | None) -> bool:
        """A fight with the monster that is an explorer's counterpart: ``own`` (the explorer's
        own), else another's whose explorer is dead."""
        if m is None or seat is None or not m.counterpart:
            return False
        if p["counterpart_fight"] == "own":
            return m.counterpart == seat
        return m.counterpart != seat and self.ex[m.counterpart].dead

    def _pred_in(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """The explorer (without one: the monster) is in one of the rooms; ``room_of: heroes``
        asks whether the monster shares a room with a living hero."""
        where = p["in"]
        room = m.room if m is not None and seat is None else self.ex[seat].room if seat else None
        if where.get("room_of") == "heroes" and m is not None:
            return any(self.ex[s].room == m.room for s in self.living_heroes())
        return room is not None and room in self._rooms_for(where)

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
        """Whether the explorer may take one more of these tokens (the token's ``carry_limit``)."""
        limit = self.hs.tokens[token].carry_limit if self.hs is not None and token in self.hs.tokens else None
        return limit is None or self.held.get(seat, []).count(token) < limit

    def _amount(self, value: Any) -> int:
        """An amount during play: a number, a table entry, or a formula of the player count, the
        explorers at the haunt's start or the heroes."""
        if type(value) is int:
            return value  # the common case, checked first (predicates ask at every step)
        if isinstance(value, Mapping) and value.get("of") == "explorers-at-haunt-start":
            from hauntcheck.engine.betrayal.hauntspec import evaluate_formula

            return evaluate_formula(value, self.n)
        if isinstance(value, Mapping) and value.get("of") in ("heroes", "heroes-at-haunt-start"):
            from hauntcheck.engine.betrayal.hauntspec import evaluate_formula

            return evaluate_formula(value, len(self.heroes()))
        assert self.hs is not None
        return self.hs.amount(value, self.n)

    def _rooms_for(self, where: Mapping[str, Any]) -> list[str]:
        """The rooms a location names (without choices): rooms, tokens, monsters, statuses."""
        if "room" in where:
            return [str(where["room"])]
        if "rooms" in where:
            return [str(r) for r in where["rooms"]]
        if "room_with_token" in where:
            return sorted(set(self.htokens.get(str(where["room_with_token"]), [])))
        if "room_with_monster" in where:
            return sorted({m.room for m in self.active_monsters() if m.kind == where["room_with_monster"]})
        if "room_with_status" in where:
            return sorted({self.ex[s].room for s in self.seat_ids if self.in_play(s)
                           and where["room_with_status"] in self.hstatus.get(s, [])})
        if "symbol" in where:
            return [r for r in sorted(self.house.spots) if self.t.rooms[r].symbol == where["symbol"]]
        if "room_of" in where:
            return [self.ex[s].room for s in self._who(where["room_of"])]
        if "haunt_room" in where:
            return [str(self.haunt["room"])] if self.haunt else []
        raise NotImplementedError(f"haunt location {sorted(where)}")

    # ---------------------------------------------------------------------------------------
    # Outcomes, statuses, tasks, turn rules

    def _outcome(self, eff: Mapping[str, Any], seat: str | None, m: Monster | None, target: str | None = None
                 ) -> Gen[None]:
        """Carry out one haunt outcome for explorer ``seat`` (monster ``m``; ``target`` of an action)."""
        verb = next(k for k in eff if k not in ("says", "cite", "unverified", "judgement", "who"))
        spec = eff[verb]
        rule = "haunt.rules-override"
        if eff.get("who") == "trapped-explorer":
            seat = str(self.haunt["revealer"]) if self.haunt else seat
        if eff.get("who") == "traitor":
            seat = self.traitor()
            if seat is None or not self.in_play(seat):
                return
            eff = {k: v for k, v in eff.items() if k != "who"}
        if verb == "on_target":
            for sub in spec:
                if target is not None and target in self.ex:
                    yield from self._outcome(sub, target, m)
                else:
                    yield from self._outcome(sub, seat, self.monster(target) if target else m, target)
            return
        if verb in ("kill_monster", "trap_monster"):
            victim = m
            if isinstance(spec, str) and spec not in ("target", "true") and self.hs is not None and spec in self.hs.monsters:
                victim = next((x for x in self.mon if x.kind == spec and not x.gone and (m is None or x is m)), m)
            if target is not None and target not in self.ex:
                victim = self.monster(target)
            if victim is not None:
                victim.gone = "killed" if verb == "kill_monster" else "trapped"
                where = f" in {self.room_name(victim.room)} for good" if verb == "trap_monster" else ""
                self.emit(rule, f"{self.mname(victim)} is {victim.gone}{where}")
                for partner in self.partners(victim):
                    partner.gone = victim.gone
                    self.emit(rule, f"{self.mname(partner)}, its other part, is {victim.gone} with it")
                self._release_gone()
        elif verb == "stun_monster":
            victim = self.monster(target) if target is not None and target not in self.ex else m
            if victim is not None and not victim.gone and not victim.stunned:
                victim.stunned = True
                self.emit("monster.stun-token", f"{self.mname(victim)} is stunned")
        elif verb == "kill" and seat is not None:
            self.lethal = True
            e = self.ex[seat]
            e.idx["might"] = -1
            self._die(seat, "might")
            self.lethal = False
            self.emit(rule, f"{self.name(seat)} is killed")
        elif verb == "lose" and seat is not None:
            for trait, k in spec.items():
                if not self.ex[seat].dead:
                    self.trait_change(seat, trait, -int(k))
        elif verb == "become" and seat is not None:
            status = str(spec)
            immune = [s for s in self.hstatus.get(seat, []) if self.hs is not None
                      and status in self.hs.statuses.get(s, {}).get("immune_to_statuses", [])]
            if immune:
                self.emit(rule, f"{self.name(seat)} is {immune[0]} and cannot become {status}")
            elif status not in self.hstatus.setdefault(seat, []):
                self.hstatus[seat].append(status)
                self.emit(rule, f"{self.name(seat)} becomes {status}")
                if self.hs is not None and self.hs.statuses.get(status, {}).get("drops_items"):
                    yield from self._drop_everything(seat)
                if self.hs is not None and self.hs.statuses.get(status, {}).get("removes_from_play"):
                    self.removed.add(seat)
                    self.emit(rule, f"{self.name(seat)} is out of the game ({status})")
                    if seat == self.current:
                        self.turn.end_now = True
        elif verb == "lose_status" and seat is not None:
            if spec in self.hstatus.get(seat, []):
                self.hstatus[seat].remove(spec)
                self.emit(rule, f"{self.name(seat)} is no longer {spec}")
        elif verb == "turn_traitor" and seat is not None:
            yield from self._turn_traitor(seat, bool(spec.get("run_setup")) if isinstance(spec, Mapping) else False)
        elif verb == "set_flag":
            self.hflags.add(str(spec))
            self.emit(rule, f"{self.hs.flags.get(str(spec), spec) if self.hs else spec}")
        elif verb == "clear_flag":
            self.hflags.discard(str(spec))
        elif verb == "earn":
            token = str(spec["token"])
            if token == "trait-used" and self.hs is not None:
                # the token of the trait that was rolled, among those the haunt names
                token = next((t for t in spec.get("tokens", []) if self.hs.tokens[t].trait == self.rolled), token)
            if token in self.pool:
                if self.pool[token] <= 0:
                    self.emit(rule, f"no {token} token is left to earn")
                    return
                self.pool[token] -= 1
            self.earned[token] = self.earned.get(token, 0) + 1
            if spec.get("put") in ("in-room", "next-to-target") and seat is not None:
                self.htokens.setdefault(token, []).append(self.ex[seat].room)
            elif spec.get("put") == "in-haunt-room" and self.haunt is not None:
                self.htokens.setdefault(token, []).append(str(self.haunt["room"]))
            self.emit(rule, f"a {token} token is earned ({self.earned[token]} so far)")
        elif verb == "take_token" and seat is not None:
            token = str(spec)
            rooms = self.htokens.get(token, [])
            here = self.ex[seat].room
            if here in rooms:
                rooms.remove(here)
            elif self.pool.get(token, 0) > 0:
                self.pool[token] -= 1
            else:
                self.emit(rule, f"no {token} token is left to take")
                return
            self.held.setdefault(seat, []).append(token)
            self.emit(rule, f"{self.name(seat)} takes a {token} token")
        elif verb == "fetch_card" and seat is not None:
            cards = spec["card"] if isinstance(spec["card"], list) else [spec["card"]]
            kind = str(spec.get("stack", "item"))
            for card in cards:
                for pile in (self.decks[kind], self.discards[kind], self.token_cards):
                    if card in pile:
                        pile.remove(card)
                        if pile is self.decks[kind] and kind == "omen":
                            self.omens_drawn += 1  # it has left the omen stack
                        self.ex[seat].cards.append(card)
                        self.emit(rule, f"{self.name(seat)} finds the {self.card_name(card)} in the {kind} stack")
                        yield from effects.gain_card(self, seat, card)
                        return
            self.emit(rule, f"the {', '.join(cards)} is not in the {kind} stack: nothing is found")
        elif verb == "steal" and spec == "chosen-token" and seat is not None and target in self.ex:
            loot = sorted({t for t in self.held.get(target, []) if self._carried(t) and self._room_for_token(seat, t)})
            if not loot:
                self.emit("item.tokens-like-cards", f"{self.name(target)} carries no token {self.name(seat)} can take")
                return
            token = loot[0]
            if len(loot) > 1:
                a = yield from self.ask(seat, [Action.of("steal-token", token=t) for t in loot], "take which token")
                token = str(a["token"])
            self.held[target].remove(token)
            self.held.setdefault(seat, []).append(token)
            self.emit("item.tokens-like-cards", f"{self.name(seat)} takes the {token} token from {self.name(target)}")
        elif verb == "exit_house" and seat is not None:
            self.exited.add(seat)
            self.emit(rule, f"{self.name(seat)} leaves the house")
            if seat == self.current:
                self.turn.end_now = True
        elif verb in ("stop_moving", "end_turn", "draw", "gain", "damage", "set_trait", "move"):
            if seat is not None:
                yield from effects.run(self, [eff], effects.Ctx(seat, "token:haunt"))
        elif verb == "place" and isinstance(spec, Mapping) and "monster" in spec and self.hs is not None:
            assert self.haunt is not None
            mdef = self.hs.monsters[str(spec["monster"])]
            if "any_room" in spec["in"]:
                room = yield from self._location(spec["in"], set(), f"place the {mdef.name}")
            else:
                room = ([r for r in self._rooms_for(spec["in"]) if r in self.house.spots] or [str(self.haunt["room"])])[0]
            there = [x for x in self.active_monsters() if x.kind == mdef.id]
            if len(there) == 1 and mdef.count is None:
                # a single monster already in the house is moved there (the Witch's Wings of Raven)
                src, there[0].room = there[0].room, room
                self.emit(rule, f"{self.mname(there[0])} moves {self.room_name(src)} -> {self.room_name(room)}")
            else:
                self._add_monster(mdef, room)
        elif verb == "control":
            self.control[str(spec["monster"])] = str(spec["to"])
            self.emit(rule, f"the {spec['monster']} is now controlled by the {spec['to']}")
        elif verb == "branch":
            chosen = spec["then"] if self.pred(spec["when"], seat, m) else spec.get("else", [])
            for sub in chosen:
                yield from self._outcome(sub, seat, m, target)
        elif verb == "max_move" and seat is not None:
            if int(spec) == 0:
                self.turn_mods.setdefault(seat, set()).add("no-move")
                self.emit(rule, f"{self.name(seat)} cannot move this turn")
        elif verb == "destroy_item":
            card = str(spec)
            for s_ in self.seat_ids:
                if card in self.held.get(s_, []):
                    self.held[s_].remove(card)
                    self.destroyed.append(card)
                    self.emit(rule, f"the {card} token is destroyed")
                if card in self.ex[s_].cards:
                    self.ex[s_].cards.remove(card)
                    self.destroyed.append(card)
                    self.emit(rule, f"the {self.card_name(card)} is destroyed")
                    yield from effects.lose_card(self, s_, card)
        elif verb == "discard_token" and seat is not None and seat in self.dealt.get(str(spec), {}):
            number = self.dealt[str(spec)].pop(seat)
            self.emit(rule, f"{self.name(seat)}'s {spec} token ({number}) is discarded")
        elif verb == "discard_token" and seat is not None and str(spec) in self.held.get(seat, []) and \
                self.hs is not None and self.hs.tokens[str(spec)].carried_as_item:
            self.held[seat].remove(str(spec))  # a token carried like an item is spent from the hand
            self.emit(rule, f"{self.name(seat)} spends a {spec} token")
        elif verb == "discard_token" and seat is not None:
            rooms = self.htokens.get(str(spec), [])
            if self.ex[seat].room in rooms:
                rooms.remove(self.ex[seat].room)
            elif str(spec) in self.held.get(seat, []):
                self.held[seat].remove(str(spec))
            self.emit(rule, f"a {spec} token is discarded")
        elif verb == "custom" and spec in OUTCOME_HOOKS:
            yield from OUTCOME_HOOKS[spec](self, seat, target)
        elif verb == "custom" and spec in RULE_HOOKS:
            RULE_HOOKS[spec](self)
        elif verb == "custom" and spec in MONSTER_HOOKS:
            yield from MONSTER_HOOKS[spec](self, seat, m)
        elif verb == "custom" and spec in ACTION_HOOKS and seat is not None:
            ACTION_HOOKS[spec](self, seat)
            yield from self._after_hook(seat)
        elif verb == "custom":
            raise NotImplementedError(f"haunt hook {spec!r}")
        else:
            raise NotImplementedError(f"haunt outcome {verb!r}")

    def _drop_everything(self, seat: str) -> Gen[None]:
        """A status with ``drops_items``: the explorer's items and omens fall as a pile in its room,
        tokens carried like items lie there again, companions are discarded, and an explorer it
        carried is put down."""
        e = self.ex[seat]
        for card in list(e.cards):
            if card not in e.cards:
                continue  # losing an earlier card took it away already
            e.cards.remove(card)
            if self.t.cards[card].companion:
                self.discards[self.t.cards[card].type].append(card)
                self.emit("haunt.rules-override", f"{self.name(seat)} discards the {self.card_name(card)}")
            else:
                self.piles.setdefault(e.room, []).append(card)
                self.emit("haunt.rules-override", f"{self.name(seat)} drops the {self.card_name(card)} in "
                          f"{self.room_name(e.room)}")
            yield from effects.lose_card(self, seat, card)
        for token in self.held.pop(seat, []):
            # judgement: a dropped token lies in the room as before it was taken
            self.htokens.setdefault(token, []).append(e.room)
            self.emit("haunt.rules-override", f"{self.name(seat)} drops a {token} token in {self.room_name(e.room)}")
        for who, carrier in sorted(self.carried.items()):
            if carrier == seat:
                del self.carried[who]
                self.emit("haunt.rules-override", f"{self.name(seat)} puts {self.name(who)} down")
    def partners(self, m: Monster) -> list[Monster]:
        """The other parts of a paired monster (``paired_with``: the same number, the other kind)."""
        assert self.hs is not None
        kinds = {k for k, d in self.hs.monsters.items() if d.paired_with == m.kind} | {self.mdef(m).paired_with}
        number = m.uid.rsplit("-", 1)[-1]
        return [x for x in self.mon if x.kind in kinds and x.uid.rsplit("-", 1)[-1] == number and not x.gone]

    def _release_gone(self) -> None:
        """Holds end when the holder is gone or stunned or the one held is out of play."""
        for uid, (seat, status) in sorted(self.grips.items()):
            m = self.monster(uid)
            if m.gone or m.stunned or not self.in_play(seat):
                del self.grips[uid]
                if self.in_play(seat) and status in self.hstatus.get(seat, []):
                    self.hstatus[seat].remove(status)
                    self.emit("haunt.rules-override", f"{self.mname(m)} lets go of {self.name(seat)}, who is no "
                              f"longer {status}")

    def _after_hook(self, seat: str) -> Gen[None]:
        """Cards an action hook took away from the explorer lose their effects."""
        for card in self.pending_losses:
            yield from effects.lose_card(self, seat, card)
        self.pending_losses = []

    def _die(self, seat: str, trait: str) -> None:
        """``death.skull``, unless a status keeps the explorer off the skull (``no_skull``) or
        a haunt hook turns the death into something else."""
        if self.hs is not None and not self.lethal:
            for hook in self.hooks_used:
                if hook in SKULL_HOOKS and SKULL_HOOKS[hook](self, seat, trait):
                    return
            for status in self.hstatus.get(seat, []):
                if self.hs.statuses.get(status, {}).get("no_skull"):
                    self.ex[seat].idx[trait] = 0
                    self.emit("haunt.rules-override", f"{self.name(seat)} is {status}: {trait} stops on its lowest value")
                    return
        super()._die(seat, trait)
        if self.hs is None or not self.ex[seat].dead:
            return
        if self.held.get(seat):
            room = self.ex[seat].room
            for token in self.held.pop(seat):
                if self.hs.tokens.get(token) is not None and self.hs.tokens[token].carried_as_item:
                    # death.items-drop: a token carried like an item lies in the room again
                    self.htokens.setdefault(token, []).append(room)
                    self.emit("death.items-drop", f"{self.name(seat)}'s {token} token stays in {self.room_name(room)}")
                else:
                    self.held.setdefault(seat, []).append(token)
        if seat == self.hidden:
            self.reveal_traitor("death")
        elif self.hidden is not None:
            number = self.dealt.get(self.hidden_token, {}).get(seat)
            self.emit("hidden-traitor.reveal-on-death", f"{self.name(seat)}'s token is turned face up"
                      + (f": {number}, not the traitor" if number is not None else ": not the traitor"))

    def waives_room_text(self, seat: str, ability: Mapping[str, Any]) -> bool:
        """A status that blocks ``make-room-rolls`` spares room text that rolls, and one that
        blocks ``take-damage-from-rooms`` room text that hurts (damage or trait loss)."""
        verbs: set[str] = set()
        if self._blocks(seat, "make-room-rolls"):
            verbs.add("roll")
        if self._blocks(seat, "take-damage-from-rooms"):
            verbs |= {"damage", "lose"}
        return bool(verbs) and _mentions(ability.get("do", []), verbs)

    def room_jammed(self, room: str) -> bool:
        """A haunt hook stops the room's own text from working (the Mystic Elevator with a Tip in it)."""
        return self.hs is not None and any(ROOM_HOOKS[h](self, room) for h in self.hooks_used if h in ROOM_HOOKS)

    def _blocks(self, seat: str, what: str) -> bool:
        """Whether one of the explorer's statuses blocks ``what`` (its ``blocks`` list)."""
        statuses = self.hstatus.get(seat)
        if not statuses or self.hs is None:
            return False  # asked many times a step, mostly of explorers without statuses
        return any(what in self.hs.statuses.get(s, {}).get("blocks", []) for s in statuses)

    def _turn_traitor(self, seat: str, run_setup: bool) -> Gen[None]:
        self.side[seat] = TRAITOR
        self.emit("death.hero-may-turn", f"{self.name(seat)} joins the traitor's side")
        if run_setup and self.hs is not None and self.hs.traitor_side is not None:
            for step_ in self.hs.traitor_side.setup:
                verb = next(k for k in step_ if k not in ("says", "cite", "unverified", "judgement", "who"))
                spec = step_[verb]
                if verb == "place" or (isinstance(spec, Mapping) and spec.get("who") not in (None, "traitor")):
                    continue
                yield from self._setup_step("traitor", step_, seat)

    def tasks_for(self, seat: str) -> list[Mapping[str, Any]]:
        """Every task and special action the explorer may take (by its ``by``: the explorer's
        side, or ``explorers`` on either side's page)."""
        assert self.hs is not None
        mine = self.side.get(seat, HERO)
        hero = mine == HERO or self.masked(seat)  # the hidden traitor plays as a hero in public
        return list(self.hs.tasks_by(hero, mine == TRAITOR))

    def _task_actions(self, seat: str) -> list[Action]:
        """Task rolls and special actions that are possible now."""
        out: list[Action] = []
        if self._blocks(seat, "act"):
            return out
        for task in self.tasks_for(seat):
            if any("take_item" in d for d in task.get("do", [])):
                continue  # offered by _side_actions
            if task.get("timing") == "end-of-turn" and "roll" not in task:
                continue  # happens by itself when the turn ends there
            if not self._task_open(seat, task):
                continue
            roll = task.get("roll", {})
            places = self._task_places(seat, task)
            if places is not None:
                out.extend(Action.of("task", id=task["id"], place=x) for x in places)
            elif task.get("target", {}).get("kind") == "monster":
                out.extend(Action.of("task", id=task["id"], target=m.uid) for m in self.active_monsters(self.ex[seat].room))
            elif "target" in task:
                out.extend(Action.of("task", id=task["id"], target=t) for t in self._task_targets(seat, task))
            elif "trait_choice" in roll:
                out.extend(Action.of("task", id=task["id"], trait=t) for t in roll["trait_choice"])
            else:
                out.append(Action.of("task", id=task["id"]))
        return out

    def _task_targets(self, seat: str, task: Mapping[str, Any]) -> list[str]:
        """Explorers an action may be aimed at (``target``): in play, in range; an action that
        takes away a dealt token (a collar) needs a target still holding one."""
        spec = task["target"]
        if spec.get("kind") != "explorer" or spec.get("range") != "same-room":
            return self.targets(spec, self.ex[seat].room, seat)
        room = self.ex[seat].room
        out = [s for s in self.seat_ids if self.in_play(s) and self.ex[s].room == room]
        for eff in task.get("do", []) + task.get("success", []):
            for sub in eff.get("on_target", []):
                token = sub.get("discard_token")
                if token is not None and str(token) in self.dealt:
                    out = [s for s in out if s in self.dealt[str(token)]]
        return out

    def _task_open(self, seat: str, task: Mapping[str, Any]) -> bool:
        keys = self.turn.keys
        e = self.ex[seat]
        if "roll" in task and "task-roll" in keys:
            return False
        if task.get("timing") == "instead-of-attack" and ("attack" in keys or self.turn.no_attack):
            return False
        if task.get("limit") == "once-per-turn" and f"task:{task['id']}" in keys:
            return False
        if "exclusive_group" in task and f"group:{task['exclusive_group']}" in keys:
            return False
        if "after" in task and task["after"] not in self.done:
            return False
        flags = [str(eff["set_flag"]) for eff in task.get("success", []) + task.get("do", []) if "set_flag" in eff]
        if flags and all(f in self.hflags for f in flags):
            return False  # judgement: a step that sets a flag is done once the flag is set
        if task.get("after") and f"done-this-turn:{task['after']}" in keys:
            return False
        if "where" in task and not self._where_ok(seat, task["where"]):
            return False
        if "where_any" in task and self._task_places(seat, task) == []:
            return False
        if "where_any" in task and not any(self._where_ok(seat, w["in"]) for w in task["where_any"] if "in" in w) \
                and self._task_places(seat, task) is None:
            return False
        held = task.get("holding")
        if held and not all(self.holds(seat, h) for h in ([held] if isinstance(held, str) else held)):
            return False
        if "requires" in task and not self.pred(task["requires"], seat):
            return False
        if task.get("reuse") == "once-per-place" and self._task_places(seat, task) is None \
                and f"{task['id']}/{e.room}" in self.used_places:
            return False
        cost = task.get("cost", {}).get("movement", 0)
        return not (cost and self.movement_left(seat) < cost)

    def _task_places(self, seat: str, task: Mapping[str, Any]) -> list[str] | None:
        """For a task whose ``where_any`` also offers cards (``holding``: carrying any of them),
        the rooms and cards the explorer could use for it now (unused ones, with ``reuse:
        once-per-place``); None for other tasks."""
        alternatives = task.get("where_any", [])
        if not any("holding" in w for w in alternatives):
            return None
        room = self.ex[seat].room
        out: list[str] = []
        for w in alternatives:
            if "in" in w and room in self._rooms_for(w["in"]):
                out.append(room)
            held = w.get("holding", [])
            out += [c for c in ([held] if isinstance(held, str) else held) if self.holds(seat, c)]
        if task.get("reuse") == "once-per-place":
            out = [x for x in out if f"{task['id']}/{x}" not in self.used_places]
        return sorted(set(out))

    def _where_ok(self, seat: str, where: Mapping[str, Any]) -> bool:
        if where.get("any_room"):
            return True
        return self.ex[seat].room in self._rooms_for(where)

    def _task(self, seat: str, a: Action) -> Gen[None]:
        """``haunt.specific-action``: a task roll (``roll.task-once-per-turn``) or a special action."""
        task = next(t for t in self.tasks_for(seat) if t["id"] == a["id"])
        keys = self.turn.keys
        keys.add(f"task:{task['id']}")
        if task.get("timing") == "instead-of-attack":
            keys.add("attack")
        if "exclusive_group" in task:
            keys.add(f"group:{task['exclusive_group']}")
        cost = task.get("cost", {}).get("movement", 0)
        if cost:
            self.turn.moved += cost
        room = self.ex[seat].room
        ok = True
        roll = task.get("roll")
        target = str(a["target"]) if a.get("target") else None
        if roll and roll.get("each_trait"):
            # one task roll made with every trait in turn; all must reach the target
            results = []
            for trait in TRAITS:
                if trait == TRAITS[0]:
                    total = yield from self.task_roll(seat, trait, task["id"])
                    if total is None:
                        return
                else:
                    total = yield from effects.own_roll(self, seat, self.value(seat, trait), "trait", f"a {trait} task roll",
                                                        effects.Ctx(seat, "task"))
                results.append(f"{trait} {total}")
                ok = ok and total >= int(roll.get("target", 0))
            self.emit("haunt.specific-action", f"{self.name(seat)}: {task.get('says', task['id'])} - "
                      f"{', '.join(results)} against {roll.get('target')}+ each: {'success' if ok else 'failure'}")
        elif roll:
            trait = str(a["trait"]) if a.get("trait") else str(roll.get("trait", "might"))
            self.rolled = trait
            total = yield from self.task_roll(seat, trait, task["id"])
            if total is None or self.ex[seat].dead:
                return  # an item used on the roll can cost the explorer's life before it counts
            if roll.get("opposed_by") == "target" and target is not None:
                other = yield from self.roll(self.value(target, trait), f"{self.name(target)}'s {trait} roll")
                ok = total > sum(other)
                self.emit("haunt.specific-action", f"{task['id']}: {total} against {self.name(target)}'s {sum(other)}")
            elif "against_dice" in roll:
                other = yield from self.roll(int(roll["against_dice"]), f"{task['id']} defends")
                ok = total > sum(other)
                self.emit("haunt.specific-action", f"{task['id']}: {total} against {sum(other)}")
            else:
                ok = total >= int(roll.get("target", 0))
            self.emit("haunt.specific-action", f"{self.name(seat)}: {task.get('says', task['id'])} - "
                      f"{'success' if ok else 'failure'}")
        else:
            self.emit("haunt.specific-action", f"{self.name(seat)}: {task.get('says', task['id'])}")
        outs = task.get("do", []) if not roll else [*task.get("success" if ok else "failure", []), *task.get("do", [])]
        gone = [str(e["take_token"]) for e in outs if "take_token" in e and not self._token_left(seat, str(e["take_token"]))]
        if ok and gone and len(outs) > 1:
            # judgement: a search that finds nothing (every token already taken) is no find: the
            # place is not used up and what follows a find (stopping) does not happen
            self.emit("haunt.specific-action", f"no {gone[0]} token is left to find: {self.name(seat)} finds nothing")
            return
        if ok:
            self.done.add(str(task["id"]))
            keys.add(f"done-this-turn:{task['id']}")
            if task.get("reuse") == "once-per-place":
                self.used_places.add(f"{task['id']}/{a.get('place') or room}")
        for eff in outs:
            yield from self._outcome(eff, seat, None, target)
        if ok and any("take_token" in eff or "earn" in eff for eff in outs):
            self.emit("haunt.knowledge-shared", "what was found is known to every hero")

    def _turn_rules(self, seat: str, when: str) -> Gen[None]:
        """The haunt's ``turn_rules`` for ``seat`` at ``when`` (start-of-turn, end-of-turn)."""
        assert self.hs is not None
        for side in self.hs.sides().values():
            for r in side.turn_rules:
                if r.get("when") != when:
                    continue
                who = r.get("who")
                mine = self.side.get(seat)
                if who == "traitor" and mine != TRAITOR:
                    continue
                if who in ("each-hero", "heroes") and mine != HERO:
                    continue
                if when == "during-turn" and "roll" not in r and all(
                        "become" in d and d["become"] in self.hstatus.get(seat, []) for d in r.get("do", [])):
                    continue  # already so: nothing to announce
                self.rule_moment = when
                held = ("requires" not in r or self.pred(r["requires"], seat)) and not (
                    "unless" in r and self.pred(r["unless"], seat))
                self.rule_moment = ""
                if not held:
                    continue
                self.emit("haunt.rules-override", f"{self.name(seat)}: {r.get('says', r['id'])}")
                outs = list(r.get("do", []))
                if "roll" in r:
                    trait = str(r["roll"]["trait"])
                    faces = yield from self.roll(self.value(seat, trait), f"{r['id']}: {trait}")
                    total = sum(faces)
                    if "bands" in r["roll"]:
                        band = next(b for b in r["roll"]["bands"] if b.get("min", 0) <= total <= b.get("max", 99))
                        self.emit("roll.trait-roll", f"{self.name(seat)} rolls {trait} {total}: {band.get('says', '')}")
                        outs += list(band.get("then", []))
                    else:
                        ok = total >= int(r["roll"].get("target", 0))
                        self.emit("roll.trait-roll", f"{self.name(seat)} rolls {trait} {total}: "
                                  f"{'success' if ok else 'failure'}")
                        outs += list(r.get("success" if ok else "failure", []))
                for eff in outs:
                    yield from self._outcome(eff, seat, None)
                    if self.ex[seat].dead:
                        return

    def _standing_rules(self) -> Gen[None]:
        """``rules`` with ``while``: fire once when the predicate becomes true."""
        assert self.hs is not None
        for side in self.hs.sides().values():
            for r in side.rules:
                if "while" not in r or f"rule:{r['id']}" in self.done:
                    continue
                if self.pred(r["while"]):
                    self.done.add(f"rule:{r['id']}")
                    self.emit("haunt.rules-override", r.get("says", r["id"]))
                    for eff in r.get("do", []):
                        yield from self._outcome(eff, None, None)

    def _check_wins(self) -> bool:
        """``win.first-side``: after every step, the first side whose goals hold wins."""
        if self.result is not None:
            return True
        if self.hs is None or self.setting_up:
            return False
        for side_name, side in self.hs.sides().items():
            for w in side.wins:
                if not self.pred(w.when):
                    continue
                if side_name == HERO and not self.living_heroes() and not self.exited & set(self.heroes()):
                    continue  # win.heroes-need-survivor (a hero who left the house alive survived)
                if isinstance(w.winners, Mapping) and "heroes_where" in w.winners:
                    winners = tuple(s for s in self.heroes() if self.pred(w.winners["heroes_where"], s))
                else:
                    winners = tuple(s for s in self.seat_ids if self.side.get(s) == side_name)
                self.result = Outcome(side_name, winners, f"{w.id}: {w.says}")
                self.emit("win.first-side", f"the {side_name} win: {w.says}")
                if side_name == TRAITOR and winners and all(self.ex[x].dead or x in self.removed for x in winners):
                    self.emit("win.traitor-after-death", "the traitor's side wins though its explorers are gone")
                self.emit("win.goals-from-haunt", f"winners: {', '.join(winners) or 'none'}")
                return True
            for w in side.ends_without_winner:
                if self.pred(w.when):
                    self.result = Outcome("nobody", (), f"{w.id}: {w.says}")
                    self.emit("win.heroes-need-survivor", f"the game ends with no winner: {w.says}")
                    return True
        return False


def _mentions(node: Any, verbs: set[str]) -> bool:
    """Whether an effect list uses any of ``verbs``, at any depth."""
    if isinstance(node, Mapping):
        return any(k in verbs or _mentions(v, verbs) for k, v in node.items())
    if isinstance(node, list):
        return any(_mentions(x, verbs) for x in node)
    return False


def _skull_sanity_turns_traitor(st: HauntState, seat: str, trait: str) -> bool:
    """Haunt 9: a hero whose Sanity would reach the skull turns traitor instead of dying (and
    follows the traitor's setup)."""
    if trait != "sanity" or st.side.get(seat) != HERO:
        return False
    st.ex[seat].idx["sanity"] = 0
    st.emit("death.hero-may-turn", f"{st.name(seat)}'s Sanity would reach the skull: {st.name(seat)} turns traitor "
            "instead of dying")
    st._run_now(st._turn_traitor(seat, True))
    return True


def _transfer_custody_to_monster(st: HauntState, seat: str) -> None:
    """Haunt 1: the explorer hands its companions and items to the monster in its room."""
    m = next(m for m in st.active_monsters(st.ex[seat].room) if st.mdef(m).carries.get("items"))
    cards = list(st.ex[seat].cards)
    st.ex[seat].cards = []
    m.cards.extend(cards)
    st.pending_losses = cards
    st.emit("haunt.specific-action", f"{st.name(seat)} hands {', '.join(st.card_name(c) for c in cards) or 'nothing'} "
            f"to the {st.mname(m)}")


def _house_collapse(st: HauntState) -> None:
    """Haunt 2: from the end of the traitor's next turn, one room collapses at the end of every
    explorer's turn (see :meth:`HauntState._collapse_step`)."""
    st.collapsing = True
    st.emit("haunt.rules-override", "the house starts to collapse at the end of the traitor's next turn")


#: Rooms from which the Banshee may hop to "the corresponding room elsewhere" (haunt 8), besides
#: the rooms joined by a Secret Stairs, Secret Passage or Wall Switch token: the Tome's Upper
#: Landing, Collapsed Room, Gallery and Foyer, and (judgement: these ways go both ways, as they
#: do for explorers) the Grand Staircase and the Stairs from Basement at their other ends.
BANSHEE_HOP_ROOMS = frozenset({"upper-landing", "grand-staircase", "collapsed-room", "gallery", "foyer",
                               "stairs-from-basement"})
#: Turn preferences of the Banshee's wall-hugging modes: quarter turns from its facing, in order
#: (left = 3, straight = 0, right = 1; back = 2 only at a dead end).
BANSHEE_TURNS = {"hug-left": (3, 0, 1), "hug-right": (1, 0, 3)}


def _banshee_walks(st: HauntState, m: Monster, room: str) -> dict[int, str]:
    """The rooms the Banshee may walk into from ``room``, by world side: through joined doors, or
    a fixed link to the next cell of the same floor (the starting strip)."""
    forbidden = set(st._monster_raw(st.mdef(m)).get("may_not_use", ()))
    out: dict[int, str] = {}
    spot = st.house.spots[room]
    for other, _, _ in st._room_exits(room):
        there = st.house.spots[other]
        if other in forbidden or there.floor != spot.floor:
            continue
        side = next((d for d in range(4) if step(spot.cell, d) == there.cell), None)
        if side is not None and side not in out:
            out[side] = other
    return out


def _banshee_hops(st: HauntState, m: Monster, room: str) -> list[str]:
    """Where the Banshee may hop from ``room``: the other end of the Upper Landing's stairs, the
    Gallery's drop, the Collapsed Room's fall, the Foyer's Stairs from Basement (a room the Tome
    names), or of a passage token's link."""
    forbidden = set(st._monster_raw(st.mdef(m)).get("may_not_use", ()))
    out: list[str] = []
    if room in BANSHEE_HOP_ROOMS:
        for c in st.t.rooms[room].connections:
            if c.side is None and c.to in st.house.spots and (not c.requires or st._cond_simple(c.requires)):
                out.append(c.to)
    for a, b, _, _ in st.links:
        if room in (a, b):
            out.append(b if room == a else a)
    return sorted({r for r in out if r != room and r not in forbidden})


def _banshee_path(st: HauntState, m: Monster, roll: int) -> Gen[None]:
    """Haunt 8: the Banshee always moves its whole Speed roll (one space at least), in the mode a
    roll of 2 dice picks (``modes_by_roll``): 0 - put it in any room up to 8 spaces away (only
    that room is entered); 1 / 3 - the traitor picks its first room, then it turns left / right
    wherever it can (else straight, else the other way, else back the way it came); 2 - first
    room picked, then straight on where it can (a random turn when only left and right are
    open); 4 - the traitor moves it freely, but its wail then reaches one explorer once. In a
    room the Tome names (and at passage tokens) the traitor may hop it to the corresponding room
    as its next move. It walks placed rooms only, never the Mystic Elevator, and neither slows
    nor is slowed by explorers. The rooms it entered are kept for the wail (``banshee-path``
    requirement). Its facing only matters within a move (each move's first room is chosen)."""
    spec = st.mdef(m).movement["modes_by_roll"]
    faces = yield from st.roll(int(spec.get("dice", 2)), f"{st.mname(m)}'s way of moving")
    mode_roll = sum(faces)
    band = next(b for b in spec["bands"] if b["min"] <= mode_roll <= b["max"])
    mode = str(band["mode"])
    budget = roll
    if roll == 0:
        st.emit("monster.zero-roll-still-moves", f"{st.mname(m)} rolled 0 and still moves one space")
        budget = 1
    state: dict[str, Any] = {"mode": mode, "entered": [], "only": None}
    st.hook_state["banshee-path"] = state
    st.emit("monster.rules-overridable", f"{st.mname(m)} rolls {mode_roll} for its way: {mode} ({budget} "
            f"space{'' if budget == 1 else 's'})")
    controller = st.monster_controller(m)
    here = m.room

    def enter(room: str, moved: int) -> None:
        src, m.room = m.room, room
        state["entered"].append(room)
        st.emit("monster.speed-roll", f"{st.mname(m)} moves {st.room_name(src)} -> {st.room_name(room)} "
                f"({moved} of {budget})")

    if mode == "jump":
        dist = st._dist_to([here])
        rooms = [r for r in sorted(st.house.spots) if 0 < dist.get(r, 99) <= int(band.get("range", 8))
                 and r not in st._monster_raw(st.mdef(m)).get("may_not_use", ())]
        if rooms:
            a = yield from st.ask(controller, [Action.of("monster-teleport", monster=m.uid, to=r) for r in rooms],
                                  f"put {st.mname(m)} in a room up to {band.get('range', 8)} spaces away")
            enter(str(a["to"]), budget)
        return
    facing: int | None = None
    prev: str | None = None
    for moved in range(1, budget + 1):
        walks = _banshee_walks(st, m, m.room)
        hops = _banshee_hops(st, m, m.room)
        if mode == "controlled" or moved == 1:
            options = sorted(set(walks.values()) | set(hops))
        else:
            forced: str | None = None
            if facing is not None:
                turns = BANSHEE_TURNS.get(mode)
                if turns is not None:
                    forced = next((walks[(facing + t) % 4] for t in turns if (facing + t) % 4 in walks), None)
                elif facing in walks:
                    forced = walks[facing]
                else:
                    sides = [(facing + t) % 4 for t in (3, 1) if (facing + t) % 4 in walks]
                    if len(sides) == 2:
                        a = yield Req(CHANCE, Draw([walks[x] for x in sides], arg="to"),
                                      f"{st.mname(m)} turns left or right at random")
                        forced = str(a["to"])
                    elif sides:
                        forced = walks[sides[0]]
            if forced is None:
                # a dead end (or a room reached by a hop with no way on): back the way it came
                forced = prev if prev is not None and prev in st.house.spots else next(iter(sorted(walks.values())), None)
            options = sorted({forced, *hops} - {None})  # type: ignore[arg-type]
        if not options:
            st.emit("monster.rules-overridable", f"{st.mname(m)} has nowhere to go")
            return
        if len(options) == 1:
            to = options[0]
        else:
            a = yield from st.ask(controller, [Action.of("monster-move", monster=m.uid, to=r) for r in options],
                                  f"move {st.mname(m)} ({mode})")
            to = str(a["to"])
        side = next((d for d, r in walks.items() if r == to), None)
        prev = m.room
        enter(to, moved)
        if side is not None:
            facing = side
        else:
            # a hop: the traitor sets its facing in the new room (the way on that is then straight ahead)
            ways = _banshee_walks(st, m, to)
            if ways and moved < budget and mode not in ("controlled",):
                a = yield from st.ask(controller, [Action.of("monster-face", monster=m.uid, to=r, side=d)
                                                   for d, r in sorted(ways.items())], f"face {st.mname(m)}")
                facing = int(str(a["side"]))
            else:
                facing = None
    if mode == "controlled":
        entered = set(state["entered"])
        reached = [x for x in st.seat_ids if st.in_play(x) and st.ex[x].room in entered]
        if reached:
            a = yield from st.ask(controller, [Action.of("wail-target", who=x) for x in reached],
                                  f"the one explorer {st.mname(m)}'s wail reaches")
            state["only"] = str(a["who"])


def _banshee_reaches(st: HauntState, seat: str | None, m: Monster | None) -> bool:
    """Haunt 8: the explorer is in a room the Banshee entered this monster turn (on a controlled
    move, only the one explorer the traitor picked)."""
    state = st.hook_state.get("banshee-path")
    if seat is None or not state:
        return False
    if state.get("mode") == "controlled":
        return state.get("only") == seat
    return st.ex[seat].room in state.get("entered", [])
GRABBED = "grabbed"  # Carnivorous Ivy's status of a hero a Tip holds


def _creeper_grab(st: HauntState, seat: str | None, m: Monster | None) -> Gen[None]:
    """Haunt 7, a Creeper's hold, called where the haunt file names it:

    * after a Tip beats a hero (the hero is now grabbed): the Tip holds the hero, who drops every
      item and omen but companions, and every token carried like an item, in the room;
    * after a Tip is stunned or killed: it lets go;
    * at the start of a Creeper's turn (``seat`` is None): a hero the Tip holds in the room of
      its own Root is killed, and the Creeper (Root and Tip) is removed."""
    if m is None:
        return
    if m.gone or m.stunned:
        st._release_gone()
        return
    if seat is not None:
        if GRABBED not in st.hstatus.get(seat, []) or any(held == seat for held, _ in st.grips.values()):
            return
        st.grips[m.uid] = (seat, GRABBED)
        e = st.ex[seat]
        drop = [c for c in e.cards if not st.t.cards[c].companion]
        e.cards = [c for c in e.cards if c not in drop]
        if drop:
            st.piles.setdefault(e.room, []).extend(drop)
        tokens = list(st.held.get(seat, []))
        for token in tokens:
            st.htokens.setdefault(token, []).append(e.room)
        st.held[seat] = []
        st.emit("haunt.rules-override", f"{st.mname(m)} holds {st.name(seat)}, who drops "
                + (", ".join([st.card_name(c) for c in drop] + [f"the {k} token" for k in tokens]) or "nothing")
                + f" in {st.room_name(e.room)}")
        for card in drop:
            yield from effects.lose_card(st, seat, card)
        return
    held = st.grips.get(m.uid)
    roots = st.partners(m)
    if held is None or not roots or st.ex[held[0]].room != roots[0].room:
        return
    victim = held[0]
    st.emit("haunt.rules-override", f"{st.name(victim)} is at the Root of {st.mname(m)}'s Creeper when its turn starts")
    yield from st._outcome({"kill": True}, victim, None)
    for part in [m, *roots]:
        part.gone = "removed"
        st.emit("haunt.rules-override", f"{st.mname(part)} is removed")
    st._release_gone()


def _creeper_drag(st: HauntState, m: Monster) -> Gen[bool]:
    """Haunt 7: a Tip that starts its turn holding a hero moves 2 spaces toward its own Root
    instead of its normal move, taking the hero along, and does not attack. True when it did."""
    held = st.grips.get(m.uid)
    roots = st.partners(m)
    if held is None or not roots:
        return False
    seat = held[0]
    dist = st._dist_to([roots[0].room])
    for _ in range(2):
        here = dist.get(m.room, 10_000)
        steps = sorted(r for r, _c, _how in st._room_exits(m.room) if dist.get(r, 10_000) < here)
        if not steps:
            break
        src = m.room
        m.room = steps[0]
        st._set_room(seat, m.room)
        st.emit("monster.rules-overridable", f"{st.mname(m)} drags {st.name(seat)} {st.room_name(src)} -> "
                f"{st.room_name(m.room)}, toward its Root")
    return True
    yield  # a generator: the move asks nobody


def _jam_mystic_elevator(st: HauntState, room: str) -> bool:
    """Haunt 7: while a Tip is in the Mystic Elevator, the elevator does not work."""
    return room == "mystic-elevator" and any(m.kind == "creeper-tip" for m in st.active_monsters(room))


COLLAR = "collar-timer"
KEY = "key"
#: Haunt 34: rooms whose Key is taken after a roll made as though leaving the room.
LEAVE_ROLL_KEY_ROOMS = ("attic", "junk-room", "pentagram-chamber")
#: Haunt 34: barrier rooms whose Key needs a successful crossing first.
CROSSING_KEY_ROOMS = ("catacombs", "chasm", "tower")


def _collars_removed(st: HauntState, seat: str | None, m: Monster | None = None) -> bool:
    """Haunt 34: every collar is removed - unlocked or detonated (its token discarded), worn by
    an explorer no longer in play (killed some other way), or worn by the traitor once revealed
    (or dead)."""
    on = st.dealt.get(COLLAR, {})
    return not any(s in on and st.in_play(s) and not (s == st.hidden and st.unmasked) for s in st.seat_ids)


def _collar_checks(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 34, after the track advances: each explorer in play still wearing a collar whose
    number is at most the track rolls 3 dice, from the revealer's left; a total below the track
    kills (the collar detonates and is removed). The hidden traitor's collar is fake: where it
    would kill, the traitor must reveal instead, and a revealed traitor's collar counts as
    removed and is not rolled for."""
    assert st.haunt is not None
    order = [st.left_of(str(st.haunt["revealer"]), k) for k in range(1, st.n + 1)]
    for who in order:
        number = st.dealt.get(COLLAR, {}).get(who)
        if number is None or number > st.track or not st.in_play(who) or (who == st.hidden and st.unmasked):
            continue
        if st._check_wins():
            return
        faces = yield from st.roll(3, f"{st.name(who)}'s collar ({number})")
        total = sum(faces)
        deadly = total < st.track
        st.emit("haunt.rules-override", f"{st.name(who)}'s collar {number} (track {st.track}): 3 dice roll {total} - "
                + ("below the track" if deadly else "the blade holds"))
        if not deadly:
            continue
        if st.masked(who):
            st.emit("haunt.rules-override", f"{st.name(who)}'s collar is fake and would kill: the traitor must reveal")
            st.reveal_traitor("haunt")
            continue
        del st.dealt[COLLAR][who]
        st.emit("haunt.rules-override", f"{st.name(who)}'s collar detonates")
        yield from st._outcome({"kill": True}, who, None)


def _key_rules_allow(st: HauntState, seat: str | None, m: Monster | None = None) -> bool:
    """Haunt 34: whether the explorer may try for the Key in its room now under that room's own
    rule (one try per room a turn): Crypt and Furnace Room only after taking the room's
    end-of-turn damage (the turn began there); Gallery only with the Ballroom in the house;
    Catacombs, Chasm and Tower only after crossing successfully this turn; the Vault only at the
    end of a turn, once open; never in the Operating Laboratory (its own task roll); Attic, Junk
    Room, Pentagram Chamber and Collapsed Room always (the try is a roll)."""
    if seat is None:
        return False
    room = st.ex[seat].room
    if f"key-try:{room}" in st.turn.keys:
        return False
    if room in ("crypt", "furnace-room"):
        # judgement: "after taking the room's damage" - the damage comes at the end of a turn
        # spent there, so the Key can be taken on the next turn begun in the room
        return st.turn.start_room == room
    if room == "gallery":
        return "ballroom" in st.house.spots
    if room in CROSSING_KEY_ROOMS:
        crossed = any(k.startswith(f"room:{room}#") for k in st.turn.keys) and not st.turn.stopped
        return crossed
    if room == "vault":
        return st.rule_moment == "end-of-turn" and "vault-empty" in st.tokens.get(room, [])
    return room != "operating-laboratory"


def _key_rules_take(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 34, taking a Key: Attic, Junk Room and Pentagram Chamber roll the room's leaving
    roll (a failure costs the room's loss and no Key); the Collapsed Room rolls Speed 5+ (a
    failure is the fall to the basement with its damage, and no Key); from the Gallery the taker
    jumps to the Ballroom (with the jump's damage). A found Key ends the finder's movement."""
    if seat is None:
        return
    room = st.ex[seat].room
    st.turn.keys.add(f"key-try:{room}")
    rdef = st.t.rooms[room]
    ctx = effects.Ctx(seat, f"room:{room}")
    if room == "collapsed-room" and "passed:collapsed-room" in st.turn.keys:
        st.emit("haunt.specific-action", f"{st.name(seat)} passed the Collapsed Room's roll on finding it: the Key "
                "is found")
    elif room in LEAVE_ROLL_KEY_ROOMS or room == "collapsed-room":
        if room == "collapsed-room":
            first = next(a for a in rdef.abilities if a.get("id") == "collapse-first-entry")
            roll = first["do"][0]["roll"]  # the discoverer's roll to avoid falling
            fall = next(a for a in rdef.abilities if a.get("id") == "collapse-deliberate-fall")
            failure = list(fall.get("do", []))
        else:
            leave = next(a for a in rdef.abilities if a.get("trigger") == "exit")
            roll = leave["do"][0]["roll"]
            loss = next(c for c in roll["fail"][0]["choose"] if c.get("label") == "take-loss")
            failure = [eff for eff in loss["do"] if "lose" in eff]
        trait = str(roll["trait"])
        total = yield from effects.own_roll(st, seat, st.value(seat, trait), "trait", f"a {trait} roll for the Key", ctx)
        ok = total >= int(str(roll["target"]))
        st.emit("haunt.specific-action", f"{st.name(seat)} tries for the Key in {st.room_name(room)}: {trait} {total} "
                f"against {roll['target']}+ ({'found' if ok else 'failed'})")
        if not ok:
            yield from effects.run(st, failure, ctx)
            return
    yield from st._outcome({"take_token": KEY}, seat, None)
    if not st.turn.stopped and seat == st.current:
        yield from st._outcome({"stop_moving": True}, seat, None)
    if room == "gallery":
        jump = next(a for a in rdef.abilities if a.get("trigger") == "in-room")
        st.emit("haunt.specific-action", f"{st.name(seat)} jumps down to the Ballroom with the Key")
        yield from effects.run(st, jump.get("do", []), ctx)


def _key_room_open(st: HauntState, room: str) -> bool:
    """Haunt 34, for planning: whether the Key in ``room`` can be had at all now (the Gallery's
    needs the Ballroom in the house, the Vault's an opened vault)."""
    if room == "gallery":
        return "ballroom" in st.house.spots
    if room == "vault":
        return "vault-empty" in st.tokens.get(room, [])
    return True


#: Named hooks of outcomes that may roll or ask (``custom`` in ``do`` lists), by id.
OUTCOME_HOOKS: dict[str, Callable[[HauntState, str | None, str | None], Gen[None]]] = {
    "collars": _collar_checks,
    "key-rules": _key_rules_take,
}
#: Hook companions for planning (policy): whether a token lying in a room can be had now.
TOKEN_ROOM_HOOKS: dict[str, Callable[[HauntState, str], bool]] = {"key-rules": _key_room_open}
def _remove_basement(st: HauntState) -> Gen[None]:
    """Haunt 31: the basement leaves play for good (``haunt.floor-removed``). Explorers in it
    ride the Mystic Elevator (fetched from the stack if needed) to a spot beside a ground-floor
    door; otherwise the Elevator, if in the basement or still in the stack, goes to the ground or
    upper floor (the revealer chooses). Every basement tile leaves the game with the item piles,
    tokens and links in it; the room stack is shuffled (a known top is forgotten); from now on a
    drawn basement-only tile is discarded, and nothing sends anyone down (see the rule)."""
    rule = "haunt.floor-removed"
    floor = "basement"
    elevator = "mystic-elevator"
    chooser = str(st.haunt["revealer"]) if st.haunt else st.seat_ids[0]
    riders = [s for s in st.seat_ids if not st.ex[s].dead and st.house.floor_of(st.ex[s].room) == floor]
    where = st.house.floor_of(elevator) if elevator in st.house.spots else None
    if riders or where in (None, floor):
        floors = ("ground",) if riders else ("ground", "upper")
        fetched = elevator in st.stack or elevator in st.aside
        options = [(f, p) for f in floors for p in st.house.open_spots(
            elevator, f, keep_open=st.others_remain(f, elevator), ignore=elevator if where else None)]
        landing = elevator
        if options and (fetched or where is not None):
            acts = effects.placement_actions(options)
            a = yield from st.ask(chooser, acts, "place the Mystic Elevator")
            f, p = options[acts.index(a)]
            st.put_tile(elevator, f, p.cell, p.rotation)
            st.emit("haunt.setup-right-now", f"the Mystic Elevator is {'fetched from the stack and ' if fetched else ''}"
                    f"placed on the {f} floor at {list(p.cell)}")
            st.note_new_room(elevator)
        elif riders:
            # judgement: with no spot for the Elevator, the Entrance Hall is the way out of the basement
            landing = "entrance-hall"
            st.emit(rule, "the Mystic Elevator has no spot beside a ground-floor door: the explorers in the basement go "
                    "to the Entrance Hall")
        if landing == "entrance-hall" and where == floor:
            riders += [s for s in st.seat_ids if st.ex[s].room == elevator and s not in riders]
        for seat in riders:
            st._set_room(seat, landing)
        if riders:
            st.emit("haunt.setup-right-now", f"{', '.join(st.name(s) for s in riders)} ride(s) up to "
                    f"{st.room_name(landing)}")
    gone = [r for r in st.house.rooms_on(floor)]
    for room in gone:
        st.house.remove(room)
        st.removed_tiles.append(room)
        pile = st.piles.pop(room, [])
        st.destroyed.extend(pile)
        for token in st.tokens.pop(room, []):
            card = effects._token_card(st, token)
            if card is not None and card in st.token_cards and not any(token in v for v in st.tokens.values()):
                st.token_cards.remove(card)
                st.discards["event"].append(card)
        if pile:
            st.emit(rule, f"{', '.join(st.card_name(c) for c in pile)} leave(s) the game with {st.room_name(room)}")
    for end_a, end_b, _, mark in [x for x in st.links if x[0] in gone or x[1] in gone]:
        for end in (end_a, end_b):
            if mark in st.tokens.get(end, []):
                st.tokens[end].remove(mark)
    st.tokens = {r: v for r, v in st.tokens.items() if v}
    st.links = [x for x in st.links if x[0] not in gone and x[1] not in gone]
    st.passages = [x for x in st.passages if x[0] not in gone and x[1] not in gone]
    st.close_floors([floor])
    st.room_top = None
    st.emit(rule, f"the basement leaves play: {', '.join(st.room_name(r) for r in gone) or 'no basement room'} "
            "removed; the room stack is shuffled; basement-only tiles will be discarded when drawn")


#: Named hooks of "Right Now" setup steps, by id (they may ask for decisions).
SETUP_HOOKS: dict[str, Callable[[HauntState], Gen[None]]] = {"remove-basement": _remove_basement}
#: Named hooks of standing rules, by id.
RULE_HOOKS: dict[str, Callable[[HauntState], None]] = {"house-collapse": _house_collapse}
#: Named hooks of special actions, by id.
ACTION_HOOKS: dict[str, Callable[[HauntState, str], None]] = {
    "transfer-custody-to-monster": _transfer_custody_to_monster,
}
#: Named hooks (``custom: <id>`` in haunt files) consulted when a trait reaches the skull.
SKULL_HOOKS: dict[str, Callable[[HauntState, str, str], bool]] = {
    "skull-sanity-turns-traitor": _skull_sanity_turns_traitor,
}
#: Named hooks of monster movement (``movement.custom``): they move the monster on its turn.
MOVE_HOOKS: dict[str, Callable[[HauntState, Monster, int], Gen[None]]] = {"banshee-path": _banshee_path}
#: Named hooks run when a monster's move would begin: True when they replaced its move and attack.
TURN_HOOKS: dict[str, Callable[[HauntState, Monster], Gen[bool]]] = {"creeper-grab": _creeper_drag}
#: Named hooks of requirements (``custom`` predicates), given the explorer and monster in question.
PRED_HOOKS: dict[str, Callable[[HauntState, str | None, Monster | None], bool]] = {
    "banshee-path": _banshee_reaches,
    "collars": _collars_removed,
    "key-rules": _key_rules_allow,
}

#: ``HauntState.pred``'s tests by predicate key, in the order they are tried: a predicate is
#: decided by the first of its keys in this list (other keys, like ``says``, are notes).
PREDICATE_ORDER: tuple[tuple[str, Callable[[HauntState, Mapping[str, Any], str | None, Monster | None, str | None],
                                           bool]], ...] = tuple(
    (key, getattr(HauntState, f"_pred_{key}")) for key in (
        "all", "any", "not", "opponent", "heroes_dead", "heroes_gone", "heroes_alive", "heroes_exited", "exited",
        "monsters_defeated", "none_alive_with_status", "has_status", "flag", "carried", "custom", "condition",
        "holds", "monster_in_room", "item_destroyed", "item_in_room", "track_reaches", "tokens_collected", "alive",
        "holds_tokens", "holding", "counterpart_fight", "in"))
#: Where each predicate key stands in ``PREDICATE_ORDER``.
PREDICATE_RANK: dict[str, int] = {key: i for i, (key, _) in enumerate(PREDICATE_ORDER)}
#: Named hooks of monster outcomes (fights and monster rules): the explorer concerned (if any) and the monster.
MONSTER_HOOKS: dict[str, Callable[[HauntState, str | None, Monster | None], Gen[None]]] = {
    "creeper-grab": _creeper_grab,
}
#: Named hooks that stop a room's own text from working (``room_jammed``).
ROOM_HOOKS: dict[str, Callable[[HauntState, str], bool]] = {"jam-mystic-elevator": _jam_mystic_elevator}
#: Every named hook this engine carries out, by id (the others block their haunt).
HOOKS: dict[str, str] = {name: fn.__doc__ or "" for name, fn in
                         [*SKULL_HOOKS.items(), *ACTION_HOOKS.items(), *RULE_HOOKS.items(), *MONSTER_HOOKS.items(),
                          *TURN_HOOKS.items(), *ROOM_HOOKS.items(), *MOVE_HOOKS.items(), *PRED_HOOKS.items(),
                          *OUTCOME_HOOKS.items(), *SETUP_HOOKS.items()]}


def support(spec: GameSpec) -> dict[int, dict[str, Any]]:
    """Per haunt file: whether the engine plays it, the hooks it uses, and what stands in the
    way of playing it (for the coverage report and the final report)."""
    out: dict[int, dict[str, Any]] = {}
    for number, (record, data) in sorted(load_haunts(spec).items()):
        hooks = sorted({h for _, h in custom_hooks_used(data)})
        blockers = [f"hook {h} has no function" for h in hooks if h not in HOOKS]
        blockers += [f"monster {m.id} has no printed stats" for m in record.monsters.values()
                     if m.stats_from == "none-printed"]
        if number not in PLAYABLE and not blockers:
            blockers.append("uses vocabulary the interpreter does not carry out yet")
        out[number] = {"title": record.title, "playable": number in PLAYABLE, "hooks": hooks, "blockers": blockers}
    return out


def invariants(state: GameState) -> list[str]:
    """Part 1's invariants (cards a haunt destroyed count as out of the game) plus the haunt
    phase's own: monsters in placed rooms, sides for every seat, the track not negative."""
    from hauntcheck.engine.betrayal.state import invariants as part1

    if not isinstance(state, HauntState):
        return part1(state)
    saved = list(state.token_cards)
    state.token_cards.extend(state.destroyed)
    for m in state.mon:
        state.token_cards.extend(m.cards)
    try:
        problems = part1(state)
    finally:
        state.token_cards[:] = saved
    if state.hs is not None:
        for m in state.mon:
            if m.room not in state.house.spots:
                problems.append(f"{m.uid} is in {m.room!r}, which is not in the house")
        if set(state.side) != set(state.seat_ids):
            problems.append("not every seat has a side")
        if state.track < 0:
            problems.append(f"the Turn/Damage track is at {state.track}")
    return problems


_HAUNTS: dict[int, dict[int, tuple[HauntSpec, Mapping[str, Any]]]] = {}
_WEAPONS: dict[int, dict[str, Weapon]] = {}


_RULES: dict[int, RuleBook] = {}


def _rules(spec: GameSpec) -> RuleBook:
    key = id(spec)
    if key not in _RULES:
        _RULES[key] = rulebook(spec)
    return _RULES[key]


def haunt_tables(spec: GameSpec) -> tuple[dict[int, tuple[HauntSpec, Mapping[str, Any]]], dict[str, Weapon]]:
    """The haunt files and weapon cards of a loaded spec (read once per spec object)."""
    key = id(spec)
    if key not in _HAUNTS:
        _HAUNTS[key] = load_haunts(spec)
        _WEAPONS[key] = load_weapons(spec)
    return _HAUNTS[key], _WEAPONS[key]


def new_game(spec: GameSpec, players: int, options: Mapping[str, Any]) -> HauntState:
    """A whole game of Betrayal: exploration, the reveal and the haunt (options as part 1, plus
    ``haunt``: the haunt this game is expected to reveal, and ``rounds``: the round limit)."""
    from hauntcheck.engine import betrayal

    if not 3 <= players <= 6:
        raise ValueError(f"Betrayal is for 3 to 6 players, not {players}")
    haunts, weapons = haunt_tables(spec)
    tables = betrayal.tables(spec)
    setup = Setup(
        tables=tables, rules=_rules(spec), players=players,
        date=betrayal.parse_date(options.get("date")), played=betrayal.parse_played(options.get("select_haunt")),
        options=dict(options),
    )
    return HauntState(setup, haunts, weapons)


__all__ = [
    "DEFAULT_ROUNDS",
    "HOOKS",
    "PLAYABLE",
    "TOKEN_ROOM_HOOKS",
    "HauntState",
    "Monster",
    "Weapon",
    "haunt_tables",
    "invariants",
    "load_haunts",
    "load_weapons",
    "new_game",
    "support",
]
