"""Betrayal before the haunt: setup, turns, movement, discovery, cards, traits, dice, haunt roll, reveal.

The game is written as one straight-line program (:meth:`BetrayalState._game`, a generator). At
each decision the program yields a :class:`Req` naming the actor (a seat or ``chance``) and what
it may choose; :meth:`_apply` sends the chosen action back in and collects the events the
program emits until it stops at the next decision. Every event names the rule clause (by id in
``spec/betrayal/rules.yaml``) that produced it.

A decision with a single legal option is taken without asking (it is not a choice); a chance
process with a single outcome likewise.

``clone()`` rebuilds the state by replaying its action log on a fresh game, so the running
program is never copied; ``snapshot()`` is the complete data state plus the pending decision.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.effects import Ctx
from hauntcheck.engine.betrayal.house import House, Placement, door_rotations, opposite, step
from hauntcheck.engine.betrayal.model import (
    FLOORS,
    MENTAL,
    PHYSICAL,
    SIDES,
    TRAITS,
    Ability,
    Tables,
    TraitorRule,
)
from hauntcheck.engine.core import (
    CHANCE,
    Action,
    ActionList,
    Choices,
    DiceRoll,
    Draw,
    Event,
    GameState,
    Outcome,
    RuleBook,
)

T = TypeVar("T")
#: The prompt of a turn's own decisions (positions recognise a turn decision by it).
TURN_PROMPT = "take an action or end the turn"


@dataclass(slots=True)
class Req:
    """A pending decision: who decides and among what."""

    actor: str
    choices: Choices
    what: str
    recompute: Callable[[], list[Action]] | None = None


Gen = Generator[Req, Action, T]


@dataclass(slots=True)
class Explorer:
    seat: str
    id: str
    room: str = ""
    part: int = 0  # side of a barrier room the explorer is on
    idx: dict[str, int] = field(default_factory=dict)
    over: dict[str, int] = field(default_factory=dict)  # "trait/card" -> points over the top
    cards: list[str] = field(default_factory=list)
    used: set[str] = field(default_factory=set)  # once-per-explorer-per-game benefits taken
    status: dict[str, int] = field(default_factory=dict)  # status name -> failed escape tries
    kept: list[str] = field(default_factory=list)  # event cards kept in front of the player
    dead: bool = False


@dataclass(slots=True)
class Turn:
    seat: str
    moved: int = 0
    extra: int = 0
    stopped: bool = False
    end_now: bool = False
    omens: list[tuple[str, str]] = field(default_factory=list)
    keys: set[str] = field(default_factory=set)  # rolls and abilities already used this turn
    items_acted: set[str] = field(default_factory=set)
    dropped: bool = False
    picked: bool = False
    traded: bool = False
    last: str = ""
    start_room: str = ""
    left_room: bool = False
    no_attack: bool = False
    short_exit: bool = False
    #: The clause that ended the movement (``stopped``), when the engine knows it; a refusal to move names it.
    stop_rule: str = ""


@dataclass(frozen=True)
class Setup:
    tables: Tables
    rules: RuleBook
    players: int
    date: tuple[int, int]
    played: tuple[int, ...]
    options: Mapping[str, Any]


def variant_names(t: Tables) -> tuple[str, ...]:
    """The switchable rule variants: every name the spec's abilities and effects switch on or
    off with ``variant`` / ``unless_variant`` (each also has a rules.yaml clause with ``variant:``)."""
    cached: tuple[str, ...] | None = t.derived.get("variant_names")
    if cached is not None:
        return cached
    names: set[str] = set()

    def scan(node: Any) -> None:
        if isinstance(node, Mapping):
            for key, value in node.items():
                if key in ("variant", "unless_variant") and isinstance(value, str):
                    names.add(value)
                else:
                    scan(value)
        elif isinstance(node, list | tuple):
            for item in node:
                scan(item)

    for room in t.rooms.values():
        scan(room.abilities)
    for card in t.cards.values():
        scan(card.abilities)
    found = t.derived["variant_names"] = tuple(sorted(names))
    return found


def parse_variants(value: Any, known: Iterable[str] | None = None) -> list[str]:
    """The ``variants`` option: named rule variants switched on (a list or a comma list),
    checked against ``known`` when given."""
    if value in (None, "", False):
        return []
    items = value if isinstance(value, list | tuple) else str(value).split(",")
    names = sorted({str(x).strip() for x in items if str(x).strip()})
    if known is None:
        return names
    known = sorted(set(known))
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown betrayal rule variant(s) {', '.join(unknown)}; known: {', '.join(known) or 'none'}")
    return names


class BetrayalState(GameState):
    game = "betrayal"

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.t = setup.tables
        self.rules = setup.rules
        self.n = setup.players
        self.seat_ids = [f"P{i + 1}" for i in range(self.n)]
        self.t_links = _static_links(self.t)
        self.no_end_rooms = frozenset(r.id for r in self.t.rooms.values() if any(c.kind == "chute" for c in r.connections))
        rotations = self.t.derived.get("door_rotations")
        if rotations is None:
            rotations = self.t.derived["door_rotations"] = door_rotations(self.t.rooms)
        self.house = House(self.t.rooms, rotations)
        self.stack: list[str] = []
        self.aside: list[str] = []
        # floors a haunt took out of play (``haunt.floor-removed``) and their tiles, out of the game
        self.closed_floors: set[str] = set()
        # the villain round in which the traitor or a monster last used the Mystic Elevator
        self.elevator_villain_round = -1
        self.removed_tiles: list[str] = []
        self.decks: dict[str, list[str]] = {"omen": [], "item": [], "event": []}
        self.discards: dict[str, list[str]] = {"omen": [], "item": [], "event": []}
        self.unshuffled: dict[str, list[str]] = {k: self.t.deck(k) for k in ("omen", "item", "event")}
        self.unshuffled_rooms: list[str] = self.t.stack_rooms()
        self.ex: dict[str, Explorer] = {}
        self.piles: dict[str, list[str]] = {}
        self.tokens: dict[str, list[str]] = {}
        #: The side of a barrier room an arrival's token was put on, by token (room.barrier.token-side-fixed).
        self.token_parts: dict[str, int] = {}
        self.token_abilities: dict[str, tuple[Ability, ...]] = {}
        self.links: list[tuple[str, str, int, str]] = []
        self.passages: list[tuple[str, str, str]] = []  # roll-gated links (a Revolving Wall)
        self.room_top: str | None = None  # a room tile looked at (Spirit Board) stays on top
        # cards looked at (It Is Meant to Be, Crystal Ball): the known top of each card stack, in order
        self.deck_tops: dict[str, list[str]] = {"omen": [], "item": [], "event": []}
        self.variants: frozenset[str] = frozenset(parse_variants(setup.options.get("variants")))
        self._moves_cache: dict[tuple[str, int, int, int, int], list[tuple[int, Action]]] = {}
        self._exits_cache: dict[tuple[str, int, int, int], list[tuple[str, int, str]]] = {}
        self.held_cache: dict[tuple[str, tuple[str, ...], tuple[str, ...]], list[tuple[str, int, Ability]]] = {}
        self._names: dict[str, str] = {}
        self.adjust_cache: dict[tuple[str, tuple[str, ...], tuple[str, ...]], list[Any]] = {}
        self.held_tile: str | None = None  # drawn and about to be placed
        self.resolving: list[str] = []  # event cards being read and carried out
        self.token_cards: list[str] = []  # event cards whose tokens are in the house
        self.kept_until: dict[str, tuple[Mapping[str, Any], ...]] = {}
        self.status_rules: dict[str, dict[str, Any]] = {}
        self.status_cards: dict[tuple[str, str], str] = {}
        self.item_raised: set[str] = set()
        self.open_boxes: set[str] = set()
        self.masks_worn: set[str] = set()
        self.stored_rolls: dict[str, int] = {}
        self.set_bonus: set[str] = set()  # "seat/card" of ongoing set bonuses in force
        self.kept_abilities: dict[str, tuple[Ability, ...]] = {}
        self.game_used: set[str] = set()
        self.omens_drawn = 0
        self.first_seat = ""
        self.current = ""
        self.turn = Turn("")
        self.turn_number = 0
        self.haunt: dict[str, Any] | None = None
        self.history: list[Action] = []
        self.rebuild: Callable[[], BetrayalState] | None = None  # how a directly built position is made again
        self.phase = "setup"  # setup -> explore -> revealed
        self._events: list[Event] = []
        self._tile_version = 0
        self._fit_cache: dict[str, tuple[int, int]] = {}
        self._gen: Gen[None] = self._game()
        self._req: Req | None = next(self._gen)

    # ---------------------------------------------------------------------------------------
    # GameState interface

    def to_move(self) -> str | None:
        return self._req.actor if self._req is not None else None

    def legal_actions(self) -> Choices:
        if self._req is None:
            return ActionList([])
        return self._req.choices

    def _apply(self, action: Action) -> list[Event]:
        self._events = []
        self.history.append(action)
        try:
            self._req = self._gen.send(action)
        except StopIteration:
            self._req = None
        return self._events

    def refusal(self, action: Action) -> tuple[str, str]:
        from hauntcheck.engine.betrayal.refusal import refusal

        return refusal(self, action)

    def refresh(self) -> None:
        """Recompute the pending turn decision after a test or scenario edited the position."""
        if self._req is not None and self._req.recompute is not None:
            self._req.choices = ActionList(self._req.recompute())

    def outcome(self) -> Outcome | None:
        # The haunt (part 2) decides winners; part 1 ends only if every explorer has died.
        if self._req is None and self.haunt is not None:
            return Outcome("undecided", (), "every explorer died; the haunt's goals are not played yet")
        return None

    def seats(self) -> list[str]:
        return list(self.seat_ids)

    def roster(self) -> dict[str, str]:
        return {s: self.t.explorers[e.id].name for s, e in self.ex.items()}

    def forced_haunt(self) -> int | None:
        """The haunt played at the reveal whatever the chart gives (None: the chart decides)."""
        return None

    def reached(self, milestone: str) -> bool:
        return milestone == "reveal" and self.haunt is not None

    def restart(self) -> BetrayalState:
        """The same game (or directly built position) before any of its actions."""
        return self.rebuild() if self.rebuild is not None else BetrayalState(self.setup)

    def clone(self) -> BetrayalState:
        other = self.restart()
        for action in self.history:
            other.apply(action)
        return other

    def restart_turns(self, seat: str) -> None:
        """Begin the turn sequence afresh with ``seat`` (used to build positions directly)."""
        self._gen.close()
        self.first_seat = seat
        self._gen = self._turns(seat)
        self._events = []
        self._req = next(self._gen)

    def snapshot(self) -> dict[str, Any]:
        req = self._req
        pending: dict[str, Any] | None = None
        if req is not None:
            pending = {"actor": req.actor, "what": req.what, "offered": len(req.choices)}
            if isinstance(req.choices, ActionList):
                pending["actions"] = [str(a) for a in req.choices]
        return {
            "house": {r: [s.floor, list(s.cell), s.rotation] for r, s in sorted(self.house.spots.items())},
            "stack": list(self.stack),
            "room_top": self.room_top,
            "deck_tops": {k: list(v) for k, v in self.deck_tops.items() if v},
            "variants": sorted(self.variants),
            "held_tile": self.held_tile,
            "resolving": list(self.resolving),
            "aside": list(self.aside),
            "closed_floors": sorted(self.closed_floors),
            "removed_tiles": list(self.removed_tiles),
            "unshuffled_rooms": list(self.unshuffled_rooms),
            "decks": {k: list(v) for k, v in self.decks.items()},
            "unshuffled": {k: list(v) for k, v in self.unshuffled.items()},
            "discards": {k: list(v) for k, v in self.discards.items()},
            "explorers": {
                s: {
                    "id": e.id, "room": e.room, "part": e.part, "traits": dict(sorted(e.idx.items())),
                    # The printed values too (derived), so scenarios can state "Might 4" directly.
                    "values": {t: self.value(s, t) for t in sorted(e.idx)},
                    "over": dict(sorted(e.over.items())), "cards": list(e.cards), "used": sorted(e.used),
                    "status": dict(sorted(e.status.items())), "kept": list(e.kept), "dead": e.dead,
                }
                for s, e in sorted(self.ex.items())
            },
            "piles": {r: list(c) for r, c in sorted(self.piles.items()) if c},
            "tokens": {r: list(c) for r, c in sorted(self.tokens.items()) if c},
            "links": [list(x) for x in self.links],
            "passages": [list(x) for x in self.passages],
            "token_cards": list(self.token_cards),
            "item_raised": sorted(self.item_raised),
            "open_boxes": sorted(self.open_boxes),
            "masks_worn": sorted(self.masks_worn),
            "stored_rolls": dict(sorted(self.stored_rolls.items())),
            "set_bonus": sorted(self.set_bonus),
            "game_used": sorted(self.game_used),
            "omens_drawn": self.omens_drawn,
            "phase": self.phase,
            "first": self.first_seat,
            "current": self.current,
            "turn_number": self.turn_number,
            "turn": {
                "moved": self.turn.moved, "extra": self.turn.extra, "stopped": self.turn.stopped,
                "omens": [list(o) for o in self.turn.omens], "keys": sorted(self.turn.keys),
                "items_acted": sorted(self.turn.items_acted), "dropped": self.turn.dropped,
                "picked": self.turn.picked, "traded": self.turn.traded, "last": self.turn.last,
                "seat": self.turn.seat, "end_now": self.turn.end_now, "no_attack": self.turn.no_attack,
                "short_exit": self.turn.short_exit, "start_room": self.turn.start_room, "left_room": self.turn.left_room,
            },
            "status_cards": sorted(f"{s}/{n}={c}" for (s, n), c in self.status_cards.items()),
            "kept_with_abilities": sorted(self.kept_abilities),
            "tokens_with_abilities": sorted(self.token_abilities),
            "haunt": dict(self.haunt) if self.haunt else None,
            "pending": pending,
        }

    # ---------------------------------------------------------------------------------------
    # Small helpers

    def emit(self, rule: str, text: str) -> None:
        if not self.quiet:
            self._events.append(self.rules.event(rule, text))

    def rule_or(self, rule: str, fallback: str) -> str:
        """``rule`` if rules.yaml has it, else ``fallback`` (for clauses added after the rest)."""
        return rule if rule in self.rules else fallback

    def name(self, seat: str) -> str:
        shown = self._names.get(seat)
        if shown is None:
            if seat not in self.ex:
                return seat
            shown = self._names[seat] = f"{seat} ({self.t.explorers[self.ex[seat].id].name})"
        return shown

    def room_name(self, room: str) -> str:
        return self.t.rooms[room].name

    def card_name(self, card: str) -> str:
        return self.t.cards[card].name

    def value(self, seat: str, trait: str) -> int:
        e = self.ex[seat]
        i = e.idx[trait]
        return 0 if i < 0 else self.t.explorers[e.id].traits[trait].values[i]

    def waives_room_text(self, seat: str, ability: Mapping[str, Any]) -> bool:
        """Whether the explorer is spared this room ability (haunt statuses; none before the haunt)."""
        return False

    def room_jammed(self, room: str) -> bool:
        """Whether the room's own text does not work now (haunt hooks; never before the haunt)."""
        return False

    def speed(self, seat: str) -> int:
        return self.value(seat, "speed")

    def left_of(self, seat: str, k: int = 1) -> str:
        i = self.seat_ids.index(seat)
        return self.seat_ids[(i + k) % self.n]

    def ask(self, seat: str, actions: list[Action], what: str) -> Gen[Action]:
        """A player decision; a single option is taken without asking."""
        if len(actions) == 1:
            return actions[0]
        if not actions:
            raise RuntimeError(f"no legal action for {seat}: {what}")
        return (yield Req(seat, ActionList(actions), what))

    def roll(self, count: int, purpose: str) -> Gen[tuple[int, ...]]:
        count = max(0, min(8, count))
        if count == 0:
            return ()
        action = yield Req(CHANCE, DiceRoll(count, self.t.die_faces, purpose), purpose)
        faces = action["faces"]
        assert isinstance(faces, tuple)
        return tuple(int(f) for f in faces)  # type: ignore[arg-type]

    def top_card(self, kind: str) -> Gen[str]:
        """The top card of a card stack: a card already looked at (``card.peek-known-top``) comes
        first, else a chance draw of what is left."""
        tops = self.deck_tops[kind]
        while tops and tops[0] not in self.decks[kind]:
            tops.pop(0)  # defensive: a known card that left the stack by other means
        if tops:
            card = tops.pop(0)
            self.decks[kind].remove(card)
            self.emit("card.peek-known-top", f"the top {kind} card is the one looked at: {self.card_name(card)}")
            return card
        return (yield from self.draw_from(self.decks[kind], "card", f"the top {kind} card"))

    def peek_cards(self, kind: str, count: int) -> Gen[list[str]]:
        """Look at the top ``count`` cards of a stack: the known top cards, then chance draws of
        the unknown rest that stay in the stack, known and in order, on top."""
        tops = self.deck_tops[kind]
        while len(tops) < count and len(tops) < len(self.decks[kind]):
            unknown = [c for c in self.decks[kind] if c not in tops]
            card = unknown[0] if len(unknown) == 1 else str((yield Req(CHANCE, Draw(unknown, arg="card"),
                                                                     f"the next {kind} card looked at"))["card"])
            tops.append(card)
        return list(tops[:count])

    def draw_from(self, pile: list[str], arg: str, what: str) -> Gen[str]:
        """Chance takes one item from a face-down pile (a shuffled stack's top is a uniform
        draw from what remains, so piles are kept as sorted sets and drawn by chance)."""
        if len(set(pile)) == 1:
            item = pile[0]
        else:
            action = yield Req(CHANCE, Draw(pile, arg=arg), what)
            item = str(action[arg])
        pile.remove(item)
        return item

    # ---------------------------------------------------------------------------------------
    # Setup

    def _game(self) -> Gen[None]:
        yield from self._setup()
        yield from self._turns(self.first_seat)

    def _turns(self, seat: str) -> Gen[None]:
        while self.haunt is None:
            yield from self._play_turn(seat)
            seat = self.left_of(seat)
        # The haunt has begun. Part 2 (the haunt's own rules, monsters, attacks, winning) takes
        # over here; until then the explorers go on exploring in the haunt's turn order.
        assert self.haunt is not None
        seat = self.left_of(self.haunt["traitor"] or self.haunt["revealer"])
        while any(not e.dead for e in self.ex.values()):
            if not self.ex[seat].dead:
                yield from self._play_turn(seat)
            seat = self.left_of(seat)

    def _setup(self) -> Gen[None]:
        taken: set[str] = set()
        for seat in self.seat_ids:
            options = [
                Action.of("choose", explorer=x.id)
                for x in sorted(self.t.explorers.values(), key=lambda x: x.id)
                if x.card not in taken
            ]
            a = yield from self.ask(seat, options, "choose an explorer")
            xid = str(a["explorer"])
            taken.add(self.t.explorers[xid].card)
            xdef = self.t.explorers[xid]
            self.ex[seat] = Explorer(seat, xid, idx={t: xdef.traits[t].start for t in TRAITS})
            self.emit("setup.choose-explorer", f"{seat} plays {xdef.name} ({xdef.card}; the other side is out of the game)")
            self.emit("setup.clips-at-start-values", f"{xdef.name} starts at " + ", ".join(
                f"{t} {self.value(seat, t)}" for t in TRAITS))
        for kind in ("omen", "item", "event"):
            self.decks[kind] = sorted(self.unshuffled[kind])
            self.unshuffled[kind] = []
        self.emit("setup.shuffle-card-stacks", "the omen, item and event stacks are shuffled (each draw is a chance draw)")
        self.stack = sorted(self.unshuffled_rooms)
        self.unshuffled_rooms = []
        self._tile_version += 1
        self.emit("setup.room-stack", f"the other {len(self.stack)} room tiles are shuffled into one stack")
        self._place_starting_tiles()
        for e in self.ex.values():
            e.room = "entrance-hall"
        self.emit("setup.explorers-in-entrance-hall", "every explorer starts in the Entrance Hall")
        for room in self.t.rooms.values():
            if room.front_door is not None:
                self.emit("discover.front-door-locked", f"the {SIDES[room.front_door]} front door of {room.name} is locked")
        self.first_seat = self._first_by_birthday()
        xdef = self.t.explorers[self.ex[self.first_seat].id]
        m, d = self.setup.date
        if "setup.game-date" in self.rules:
            self.emit("setup.game-date", f"the game's date is {m:02d}-{d:02d}; a birthday on that day counts as the next")
        self.emit(
            "setup.first-player-next-birthday",
            f"from {m:02d}-{d:02d} the next birthday is {xdef.name}'s ({xdef.birthday[0]:02d}-{xdef.birthday[1]:02d}): "
            f"{self.first_seat} goes first",
        )
        self.emit("turn.order-before-haunt", "turns pass to the left (P1, P2, ... in seat order)")
        self.phase = "explore"

    def _place_starting_tiles(self) -> None:
        strips: dict[str, list[tuple[int, str]]] = {}
        for room in self.t.rooms.values():
            if room.placement != "starting":
                continue
            if room.tile is not None:
                strips.setdefault(room.tile, []).append((room.strip_position or 0, room.id))
            else:
                self.house.place(room.id, room.floors[0], (0, 0), 0)
                self.emit("setup.starting-tiles", f"{room.name} is laid out as the seed of the {room.floors[0]} floor")
        for tile, members in sorted(strips.items()):
            for i, (_, rid) in enumerate(sorted(members)):
                self.house.place(rid, self.t.rooms[rid].floors[0], (0, i), 0)
            names = ", ".join(self.room_name(r) for _, r in sorted(members))
            self.emit("room.entrance-hall.strip-three-rooms", f"the {tile} tile holds {names} as separate rooms")

    def _first_by_birthday(self) -> str:
        m0, d0 = self.setup.date
        start = _day_of_year(m0, d0)

        def wait(seat: str) -> tuple[int, int]:
            m, d = self.t.explorers[self.ex[seat].id].birthday
            return ((_day_of_year(m, d) - start) % 366, self.seat_ids.index(seat))

        return min(self.seat_ids, key=wait)

    # ---------------------------------------------------------------------------------------
    # A turn

    def _play_turn(self, seat: str) -> Gen[None]:
        e = self.ex[seat]
        self.turn_number += 1
        self.current = seat
        self.turn = Turn(seat, start_room=e.room)
        yield from effects.start_of_turn(self, seat)
        yield from self.turn_loop(seat)
        if self.turn.omens and self.haunt is None:
            self.emit("turn.haunt-roll-at-end", f"{self.name(seat)} drew an omen this turn, so the turn ends with a haunt roll")
        elif self.turn.omens:
            self.emit("omen.after-haunt-no-roll", f"the haunt has begun: {self.name(seat)} keeps "
                      f"{', '.join(self.card_name(c) for c, _ in self.turn.omens)} and makes no haunt roll")
        for card, room in list(self.turn.omens):
            if self.haunt is not None:
                break
            yield from self._haunt_roll(seat, card, room)

    def turn_loop(self, seat: str) -> Gen[None]:
        """The body of a turn once its start is over: actions in any order until the explorer
        ends the turn (or must), then the end-of-turn effects."""
        while not self.turn.end_now:
            actions = self._turn_actions(seat)
            if len(actions) == 1:
                a = actions[0]
            else:
                a = yield Req(seat, ActionList(actions), TURN_PROMPT,
                              lambda seat=seat: self._turn_actions(seat))  # type: ignore[misc]
            if a.kind == "end":
                break
            yield from self._turn_action(seat, a)
            self.turn.last = a.kind
        yield from effects.end_of_turn(self, seat)

    def _turn_actions(self, seat: str) -> list[Action]:
        e = self.ex[seat]
        out: list[Action] = []
        blocked = effects.blocked(self, seat)
        if not blocked:
            out.extend(self._move_actions(seat))
            out.extend(effects.room_actions(self, seat))
            out.extend(effects.card_actions(self, seat))
        out.extend(effects.status_actions(self, seat))
        if not blocked:
            out.extend(self._item_actions(seat, e))
        if e.room not in self.no_end_rooms:
            out.append(END)
        return out

    def _turn_action(self, seat: str, a: Action) -> Gen[None]:
        kind = a.kind
        if kind == "move":
            yield from self._move(seat, str(a["to"]), int(a["cost"]))  # type: ignore[arg-type]
        elif kind == "explore":
            yield from self._explore(seat, _side(str(a["door"])))
        elif kind in ("drop", "pickup", "trade"):
            yield from self._item_action(seat, a)
        else:
            yield from effects.do_action(self, seat, a)

    def note_moving_on(self, seat: str) -> None:
        """Movement goes on after another action of the turn: before any step (the actions of a
        turn come in any order) or part-way through the movement."""
        turn = self.turn
        if turn.last in ("", "move", "explore"):
            return
        if turn.moved:
            self.emit("move.actions-mid-move", f"{self.name(seat)} moves on after a {turn.last} part-way through "
                      f"the movement ({turn.moved} space(s) used before it)")
        else:
            self.emit("turn.actions-any-order", f"{self.name(seat)} moves after a {turn.last} taken before any step")

    # ---------------------------------------------------------------------------------------
    # Movement

    def movement_left(self, seat: str) -> int:
        if self.turn.stopped:
            return 0
        left = self.speed(seat) + self.turn.extra - self.turn.moved
        cap = effects.max_move(self, seat)
        if cap is not None:
            left = min(left, cap - self.turn.moved)
        return max(0, left)

    def exits(self, seat: str) -> list[tuple[str, int, str]]:
        """Rooms the explorer can step into from here: (room, cost, how)."""
        e = self.ex[seat]
        key = (e.room, e.part, self.house.version, len(self.links))
        cached = self._exits_cache.get(key)
        if cached is not None:
            return cached
        if len(self._exits_cache) > 512:
            self._exits_cache.clear()
        self._exits_cache[key] = out = self._exits(e)
        return out

    def _exits(self, e: Explorer, every_side: bool = False) -> list[tuple[str, int, str]]:
        room = e.room
        house = self.house
        out: list[tuple[str, int, str]] = []
        seen: set[str] = set()
        allowed = None if every_side else self._part_sides(e)
        for side in sorted(house.doors(room)):
            if allowed is not None and side not in allowed:
                continue
            other, meets = house.door_neighbour(room, side)
            if other is not None and meets and other not in seen:
                seen.add(other)
                out.append((other, 1, DOOR_HOW[side]))
        for to, kind, cost, requires in self.t_links.get(room, ()):
            if to in seen or to not in house.spots:
                continue
            if requires and not self._cond_simple(requires):
                continue
            seen.add(to)
            out.append((to, cost, kind))
        for a, b, cost, token in self.links:
            if a == room and b != room and b not in seen:
                seen.add(b)
                out.append((b, cost, token))
            elif b == room and a != room and a not in seen:
                seen.add(a)
                out.append((a, cost, token))
        return out

    def _cond_simple(self, cond: Mapping[str, Any]) -> bool:
        if "room_in_house" in cond:
            rooms = cond["room_in_house"]
            rooms = [rooms] if isinstance(rooms, str) else rooms
            return any(r in self.house for r in rooms)
        return True

    def _part_sides(self, e: Explorer) -> frozenset[int] | None:
        """World door sides reachable from the explorer's side of a barrier room (None: all)."""
        rdef = self.t.rooms[e.room]
        if len(rdef.barrier) < 2:
            return None
        rot = self.house.spots[e.room].rotation
        return frozenset({(rdef.barrier[e.part] + rot) % 4})

    def _move_actions(self, seat: str) -> list[Action]:
        left = self.movement_left(seat)
        if left <= 0:
            return []
        e = self.ex[seat]
        key = (e.room, e.part, self.house.version, self._tile_version, len(self.links))
        cached = self._moves_cache.get(key)
        if cached is None:
            moves = [(cost, Action("move", (("to", room), ("cost", cost)))) for room, cost, _ in self.exits(seat)]
            allowed = self._part_sides(e)
            floor = self.house.floor_of(e.room)
            for side in sorted(self.house.doors(e.room)):
                if allowed is not None and side not in allowed:
                    continue
                other, _ = self.house.door_neighbour(e.room, side)
                if other is None and self._can_discover(floor, e.room, side):
                    moves.append((1, Action("explore", (("door", SIDES[side]),))))
            if len(self._moves_cache) > 512:
                self._moves_cache.clear()
            self._moves_cache[key] = cached = moves
        return [a for cost, a in cached if cost <= left]

    def close_floors(self, floors: Iterable[str]) -> None:
        """Take floors out of play (``haunt.floor-removed``): nothing is explored there any more,
        and a chute down to them no longer slides anyone, so a turn may end on it."""
        self.closed_floors |= set(floors)
        self.no_end_rooms = frozenset(r for r in self.no_end_rooms if not any(
            c.kind == "chute" and c.to in self.t.rooms and set(self.t.rooms[c.to].floors) <= self.closed_floors
            for c in self.t.rooms[r].connections))
        self._tile_version += 1

    def remaining_for(self, floor: str) -> int:
        if floor in self.closed_floors:
            return 0
        cached = self._fit_cache.get(floor)
        if cached is not None and cached[0] == self._tile_version:
            return cached[1]
        fits = self._fitting(floor)
        n = sum(map(fits.__contains__, self.stack)) + sum(map(fits.__contains__, self.aside)) + sum(
            map(fits.__contains__, self.unshuffled_rooms))
        self._fit_cache[floor] = (self._tile_version, n)
        return n

    def _fitting(self, floor: str) -> frozenset[str]:
        """The room tiles that may go on ``floor`` (from the tables, worked out once)."""
        by_floor: dict[str, frozenset[str]] = self.t.derived.setdefault("tiles_by_floor", {})
        fits = by_floor.get(floor)
        if fits is None:
            fits = by_floor[floor] = frozenset(r.id for r in self.t.rooms.values() if floor in r.floors)
        return fits

    def others_remain(self, floor: str, tile: str) -> bool:
        """Whether tiles for ``floor`` remain besides ``tile`` (sealing the floor is then illegal)."""
        n = self.remaining_for(floor)
        if tile in self.stack or tile in self.aside or tile in self.unshuffled_rooms:
            n -= 1
        return n > 0

    def _can_discover(self, floor: str, room: str, side: int) -> bool:
        if self.remaining_for(floor) == 0:
            return False
        cell = step(self.house.spots[room].cell, side)
        free = len(self.house.free_doorways(floor))
        if free - self.house.cell_blocks(floor, cell) >= 1 or self.remaining_for(floor) == 1:
            return True
        if not self.all_would_seal(floor, cell, opposite(side)):
            return True
        return bool(self.rearrangements(floor, cell))

    def rearrangements(self, floor: str, target: tuple[int, int]) -> list[tuple[str, Placement]]:
        """Ways to rearrange a floor whose every remaining tile would seal it at ``target``: move
        one empty dead-end room (a placed stack tile joined to a single neighbour, with no
        explorer, item pile or token in it) to another open door of the floor, or turn it where it
        lies, so that a free doorway remains besides the one being explored."""
        house = self.house
        busy = {e.room for e in self.ex.values()} | set(self.piles) | set(self.tokens)
        busy |= {r for link in self.links for r in link[:2]} | {r for p in self.passages for r in p[:2]}
        out: list[tuple[str, Placement]] = []
        for room in house.rooms_on(floor):
            if self.t.rooms[room].placement != "stack" or room in busy:
                continue
            joined = [s for s in house.doors(room) if house.door_neighbour(room, s)[1]]
            if len(joined) != 1:
                continue
            here = house.spots[room]
            for p in house.open_spots(room, floor, keep_open=False, ignore=room):
                if p.cell == target or (p.cell == here.cell and p.rotation == here.rotation):
                    continue  # turning it where it lies counts: another door may then face an empty cell
                trial = house.copy()
                trial.remove(room)
                trial.place(room, floor, p.cell, p.rotation)
                if trial.room_at(floor, target) is not None:
                    continue
                spare = [d for d in trial.free_doorways(floor) if step(trial.spots[d[0]].cell, d[1]) != target]
                if spare:
                    out.append((room, p))
        return out

    def _placements(self, tile: str, floor: str, cell: tuple[int, int], entry: int) -> list[Placement]:
        keep_open = self.others_remain(floor, tile)
        return self.house.placements_at(tile, floor, cell, entry, keep_open)

    def _move(self, seat: str, to: str, cost: int) -> Gen[None]:
        e = self.ex[seat]
        left = yield from effects.leave_room(self, seat)
        if not left:
            return
        how = next((h for r, _, h in self.exits(seat) if r == to), "door")
        src = e.room
        self.note_moving_on(seat)
        self.turn.moved += cost
        self.turn.left_room = True
        self._set_room(seat, to, via_side=self._entry_side(src, to))
        rule = {
            "strip": "room.entrance-hall.strip-three-rooms",
            "stairs": "room.grand-staircase.upper-landing",
            "secret-stairs": "room.stairs-from-basement.foyer-link",
        }.get(how, "move.through-matching-doors" if how.startswith("door") else "move.one-space-per-room")
        self.emit(rule, f"{self.name(seat)} moves {self.room_name(src)} -> {self.room_name(to)} ({how}, {cost} space"
                  f"{'' if cost == 1 else 's'}; {self.turn.moved} of {self.speed(seat) + self.turn.extra} used)")
        yield from effects.enter_room(self, seat, discovering=False)
        if self.turn.short_exit:
            self.turn.short_exit = False
            self.turn.stopped = True
            self.turn.stop_rule = "room.junk-room.always-escapes"

    def _entry_side(self, src: str, dst: str) -> int | None:
        a, b = self.house.spots.get(src), self.house.spots.get(dst)
        if a is None or b is None or a.floor != b.floor:
            return None
        for side in range(4):
            if step(a.cell, side) == b.cell:
                return opposite(side)
        return None

    def _set_room(self, seat: str, room: str, via_side: int | None = None, part: int | None = None) -> None:
        e = self.ex[seat]
        e.room = room
        rdef = self.t.rooms[room]
        e.part = 0
        if part is not None:
            e.part = part
        elif len(rdef.barrier) >= 2 and via_side is not None:
            rot = self.house.spots[room].rotation
            for i, s in enumerate(rdef.barrier):
                if (s + rot) % 4 == via_side:
                    e.part = i

    # ---------------------------------------------------------------------------------------
    # Discovery

    def _explore(self, seat: str, side: int) -> Gen[None]:
        e = self.ex[seat]
        src = e.room
        floor = self.house.floor_of(src)
        cell = step(self.house.spots[src].cell, side)
        entry = opposite(side)
        left = yield from effects.leave_room(self, seat)
        if not left:
            return
        self.note_moving_on(seat)
        if self.haunt is not None:
            self.emit("turn.explorers-keep-abilities", f"after the haunt {self.name(seat)} is still an explorer and "
                      "discovers rooms as before")
        self.emit("discover.trigger", f"{self.name(seat)} goes through the {SIDES[side]} doorway of {self.room_name(src)}, "
                  f"which has no room beyond it")
        if self.all_would_seal(floor, cell, entry):
            yield from self._rearrange(seat, floor, cell)
        tile = yield from self.draw_tile(floor, lambda t: self._placements(t, floor, cell, entry))
        if tile is None:
            self.emit("discover.floor-exhausted", f"no tile is left for the {floor} floor")
            return
        options = self._placements(tile, floor, cell, entry)
        sealing = len(self.house.placements_at(tile, floor, cell, entry, keep_open=False)) - len(options)
        if sealing:
            self.emit("discover.no-sealed-floor", f"{sealing} way(s) of placing {self.room_name(tile)} would seal off the "
                      f"{floor} floor and are not allowed")
        place = yield from self.choose_placement(seat, tile, floor, options)
        self.put_tile(tile, floor, place.cell, place.rotation)
        self.emit("discover.floor-match", f"{self.room_name(tile)} fits the {floor} floor and is joined to the doorway "
                  f"(doors {_sides_text(place.doors)})")
        self.note_new_room(tile)
        self._note_false_features(tile)
        self.turn.moved += 1
        self.turn.left_room = True
        self._set_room(seat, tile, via_side=entry)
        self.emit("move.one-space-per-room", f"{self.name(seat)} moves into {self.room_name(tile)} "
                  f"({self.turn.moved} of {self.speed(seat) + self.turn.extra} spaces used)")
        yield from effects.discovered(self, seat, tile)

    def all_would_seal(self, floor: str, cell: tuple[int, int], entry: int) -> bool:
        """Every remaining tile for the floor would seal it if placed at ``cell``."""
        if len(self.house.free_doorways(floor)) - self.house.cell_blocks(floor, cell) >= 1:
            return False
        return not any(self._placements(t, floor, cell, entry) for t in self.stack + self.aside
                       if floor in self.t.rooms[t].floors)

    def _rearrange(self, seat: str, floor: str, target: tuple[int, int]) -> Gen[None]:
        options = self.rearrangements(floor, target)
        acts = [Action.of("rearrange", room=r, cell=list(p.cell), rotation=p.rotation) for r, p in options]
        a = yield from self.ask(seat, acts, f"rearrange the {floor} floor")
        room, p = options[acts.index(a)]
        how = (f"turns {self.room_name(room)} where it lies" if p.cell == self.house.spots[room].cell
               else f"moves {self.room_name(room)} to {list(p.cell)}")
        self.put_tile(room, floor, p.cell, p.rotation)
        self.emit("discover.rearrange-fallback", f"every remaining {floor} tile would seal the floor: {self.name(seat)} "
                  f"{how} to open another doorway")
        self._note_false_features(room)

    def put_tile(self, room: str, floor: str, cell: tuple[int, int], rotation: int) -> None:
        """Lay a room tile in the house, from wherever it is: just drawn, the stack, the set-aside
        pile, or elsewhere in the house (a tile moved)."""
        for pile in (self.stack, self.aside):
            if room in pile:
                pile.remove(room)
        if room in self.house:
            self.house.remove(room)
        self.house.place(room, floor, cell, rotation)
        if self.held_tile == room:
            self.held_tile = None
        self._tile_version += 1

    def next_room_tile(self) -> Gen[str | None]:
        """Turn up the next room tile (a tile peeked onto the top comes first), reshuffling the
        set-aside pile into a new stack when the stack runs out; None when both are empty."""
        if not self.stack:
            if not self.aside:
                return None
            self.stack = sorted(self.aside)
            self.aside = []
            self._tile_version += 1
            self.emit("discover.reshuffle-discards", f"the room stack is empty: the {len(self.stack)} set-aside tiles "
                      "are shuffled into a new stack")
        if self.room_top is not None:
            tile = self.room_top
            self.room_top = None
            self.stack.remove(tile)
        else:
            tile = yield from self.draw_from(self.stack, "tile", "the top room tile")
        self._tile_version += 1
        if self.closed_floors and set(self.t.rooms[tile].floors) <= self.closed_floors:
            # haunt.floor-removed: a tile that fits only a removed floor leaves the game; draw again
            self.removed_tiles.append(tile)
            self.emit("haunt.floor-removed", f"{self.room_name(tile)} fits only the {'/'.join(self.t.rooms[tile].floors)} "
                      "floor, which is out of play: it is discarded and another tile is drawn")
            return (yield from self.next_room_tile())
        return tile

    def draw_tile(self, floor: str, placements: Any) -> Gen[str | None]:
        """Turn up room tiles until one fits ``floor`` and can be placed; set the others aside
        (reshuffling the set-aside pile into a new stack when the stack runs out)."""
        while True:
            if self.remaining_for(floor) == 0:
                return None
            tile = yield from self.next_room_tile()
            if tile is None:
                return None
            if floor not in self.t.rooms[tile].floors:
                self.aside.append(tile)
                self.emit("discover.set-aside-mismatch", f"{self.room_name(tile)} does not fit the {floor} floor and is set aside")
                continue
            if not placements(tile):
                self.aside.append(tile)
                self.emit("discover.sealing-tile-discarded", f"{self.room_name(tile)} could only seal off the {floor} floor "
                          "and is discarded")
                continue
            self.held_tile = tile
            return tile

    def choose_placement(self, seat: str, tile: str, floor: str, options: list[Placement]) -> Gen[Placement]:
        actions = [Action.of("place", cell=list(p.cell), rotation=p.rotation) for p in options]
        a = yield from self.ask(seat, actions, f"place {tile} on the {floor} floor")
        i = actions.index(a)
        if len(options) > 1:
            self.emit("discover.match-doors", f"{seat} turns {self.room_name(tile)} to doors {_sides_text(options[i].doors)} "
                      f"(one of {len(options)} legal placements)")
        return options[i]

    def note_new_room(self, room: str) -> None:
        """Links that wait for this room (the Foyer's secret door) open now."""
        waiting: dict[str, list[Any]] | None = self.t.derived.get("links_waiting_for")
        if waiting is None:
            waiting = self.t.derived["links_waiting_for"] = {}
            for other in self.t.rooms.values():
                for c in other.connections:
                    if c.requires and isinstance(c.requires.get("room_in_house"), str):
                        waiting.setdefault(c.requires["room_in_house"], []).append(other)
        for other in waiting.get(room, ()):
            if other.id in self.house:
                rule = f"room.{room}.needs-discovery"
                if rule in self.rules:
                    self.emit(rule, f"{self.room_name(room)} is in the house: the way from {other.name} to it opens")
        if len(self.t.rooms[room].floors) > 1:
            self.emit("discover.multi-floor-tiles", f"{self.room_name(room)} may go on any of "
                      f"{', '.join(self.t.rooms[room].floors)}")

    def _note_false_features(self, room: str) -> None:
        spot = self.house.spots[room]
        for side in sorted(self.house.doors(room)):
            other, meets = self.house.door_neighbour(room, side)
            if other is not None and not meets:
                self.emit("discover.false-feature", f"the {SIDES[side]} door of {self.room_name(room)} meets a wall of "
                          f"{self.room_name(other)}: a blocked door")
        for side in range(4):
            other = self.house.room_at(spot.floor, step(spot.cell, side))
            if other is not None and opposite(side) in self.house.doors(other) and side not in self.house.doors(room):
                self.emit("discover.false-feature", f"the {SIDES[opposite(side)]} door of {self.room_name(other)} now meets "
                          f"a wall of {self.room_name(room)}: a blocked door")

    # ---------------------------------------------------------------------------------------
    # Items: trade, drop, pick up

    def _item_actions(self, seat: str, e: Explorer) -> list[Action]:
        out: list[Action] = []
        t = self.turn
        last = t.last
        if not e.cards and not self.piles.get(e.room):
            return out
        if not t.dropped or last == "drop":
            for c in e.cards:
                cd = self.t.cards[c]
                if cd.can_drop and c not in t.items_acted:
                    out.append(Action("drop", (("card", c),)))
        if not t.picked or last == "pickup":
            for c in self.piles.get(e.room, ()):
                if c not in t.items_acted and self.t.cards[c].item:  # a companion left here is taken by custody
                    out.append(Action("pickup", (("card", c),)))
        if not t.traded:
            others = [s for s, o in sorted(self.ex.items())
                      if s != seat and o.room == e.room and o.part == e.part and not o.dead]
            for c in e.cards:
                cd = self.t.cards[c]
                if cd.can_trade and c not in t.items_acted:
                    for o in others:
                        if f"refused:{c}:{o}" not in t.keys:
                            out.append(Action.of("trade", card=c, to=o))
        return out

    def _item_action(self, seat: str, a: Action) -> Gen[None]:
        e = self.ex[seat]
        card = str(a["card"])
        self.turn.items_acted.add(card)
        if a.kind == "drop":
            self.turn.dropped = True
            e.cards.remove(card)
            self.piles.setdefault(e.room, []).append(card)
            self.emit("item.drop-once-per-turn", f"{self.name(seat)} drops {self.card_name(card)} in {self.room_name(e.room)} "
                      "(item pile)")
            yield from effects.lose_card(self, seat, card)
        elif a.kind == "pickup":
            self.turn.picked = True
            self.piles[e.room].remove(card)
            e.cards.append(card)
            self.emit("item.pickup-once-per-turn", f"{self.name(seat)} picks up {self.card_name(card)} from the pile in "
                      f"{self.room_name(e.room)}")
            if not self.piles[e.room]:
                del self.piles[e.room]
            yield from effects.gain_card(self, seat, card)
        else:
            to = str(a["to"])
            answer = yield from self.ask(to, [Action.of("accept", card=card), Action.of("refuse", card=card)],
                                         f"accept {card} from {seat}")
            if answer.kind == "refuse":
                self.emit("item.trade-once-per-turn", f"{self.name(to)} refuses {self.card_name(card)} from {self.name(seat)}")
                self.turn.items_acted.discard(card)
                self.turn.keys.add(f"refused:{card}:{to}")
                return
            self.turn.traded = True
            e.cards.remove(card)
            self.ex[to].cards.append(card)
            self.emit("item.trade-once-per-turn", f"{self.name(seat)} trades {self.card_name(card)} to {self.name(to)}")
            yield from effects.lose_card(self, seat, card)
            yield from effects.gain_card(self, to, card)

    # ---------------------------------------------------------------------------------------
    # Cards

    def draw_card(self, seat: str, kind: str, ctx_room: str | None = None) -> Gen[str | None]:
        """Draw the top card of a stack into the explorer's hands and resolve it."""
        if self.ex[seat].dead:
            return None
        if seat == self.current and not self.turn.stopped:
            self.turn.stopped = True
            self.turn.stop_rule = "move.card-ends-movement"
            self.emit("move.card-ends-movement", f"drawing a card ends {self.name(seat)}'s movement this turn")
            self.emit("card.actions-after-draw", f"only the movement ends: {self.name(seat)} may still use items and take "
                      "other actions this turn")
        if not self.decks[kind]:
            if not self.discards[kind]:
                self.emit(self.rule_or("card.empty-stack-reshuffle", "glossary.stack"),
                          f"the {kind} stack and its discards are empty: no card is drawn")
                return None
            self.decks[kind] = sorted(self.discards[kind])
            self.discards[kind] = []
            self.emit(self.rule_or("card.empty-stack-reshuffle", "haunt.no-rule-agree"),
                      f"the {kind} stack ran out: its discards are shuffled into a new stack")
        card = yield from self.top_card(kind)
        e = self.ex[seat]
        room = ctx_room or e.room
        if kind == "omen":
            self.omens_drawn += 1
            if seat == self.current:
                self.turn.omens.append((card, room))
            e.cards.append(card)
            self.emit("omen.kept-face-up", f"{self.name(seat)} draws the omen {self.card_name(card)} in "
                      f"{self.room_name(room)} (omen {self.omens_drawn} of the game)")
            yield from effects.card_drawn(self, seat, card)
            if card in e.cards:
                yield from effects.gain_card(self, seat, card)
        elif kind == "item":
            e.cards.append(card)
            self.emit("item.kept-face-up", f"{self.name(seat)} draws the item {self.card_name(card)}")
            if seat == self.current and any(ab.get("trigger") == "on-use" for ab in self.t.cards[card].abilities):
                self.emit("item.use-on-draw-and-each-turn", f"{self.name(seat)} may use the {self.card_name(card)} "
                          "once now, as this turn's use, and once in each later turn")
            yield from effects.card_drawn(self, seat, card)
            if card in e.cards:
                yield from effects.gain_card(self, seat, card)
        else:
            self.emit("card.read-aloud", f"{self.name(seat)} draws the event {self.card_name(card)}")
            self.resolving.append(card)
            kept = yield from effects.card_drawn(self, seat, card)
            if card in self.resolving:
                self.resolving.remove(card)
            if card in self.discards["event"] or card in e.kept or card in self.token_cards:
                pass
            elif kept == "player":
                e.kept.append(card)
            elif kept == "house":
                self.token_cards.append(card)
            else:
                self.discards["event"].append(card)
                self.emit("event.resolve-and-discard", f"{self.card_name(card)} is resolved and discarded")
        return card

    # ---------------------------------------------------------------------------------------
    # Traits

    def trait_change(self, seat: str, trait: str, steps: int, card: str | None = None, rule: str = "trait.adjust-by-steps") -> int:
        """Move a trait clip ``steps`` (negative: down). Returns the steps really moved.

        Gains past the top are lost, except that a card's bonus notes the excess (over the top)
        so that losing the card later takes only what it really added. Before the haunt a trait
        stays on its lowest value."""
        e = self.ex[seat]
        before = e.idx[trait]
        top = len(self.t.explorers[e.id].traits[trait].values) - 1
        key = f"{trait}/{card}" if card else ""
        if steps > 0:
            new = before + steps
            if new > top:
                excess = new - top
                new = top
                if card:
                    e.over[key] = e.over.get(key, 0) + excess
                    self.emit("item.over-the-top", f"{self.card_name(card)} puts {trait} {excess} over the top (noted)")
                else:
                    self.emit("trait.maximum", f"{trait} is at its maximum; {excess} of the gain is lost")
            e.idx[trait] = new
        elif steps < 0:
            need = -steps
            if card and e.over.get(key, 0):
                used = min(need, e.over[key])
                e.over[key] -= used
                if not e.over[key]:
                    del e.over[key]
                need -= used
                self.emit("item.over-the-top", f"{used} of the loss comes off the noted over-the-top {trait}")
            low = 0 if self.haunt is None else -1
            new = before - need
            if new < low:
                new = low
                if self.haunt is None:
                    self.emit("trait.clamp-before-haunt", f"{trait} stays on its lowest value")
            if new < 0 <= before and not e.dead:
                self.emit("trait.skull-below-lowest", f"{self.name(seat)}'s {trait} clip passes its lowest value "
                          f"({self.t.explorers[e.id].traits[trait].values[0]}) onto the skull below it")
                self.emit("trait.skull-kills-after-haunt", "the haunt has begun, so the skull is reached and is deadly")
            e.idx[trait] = new
        moved = e.idx[trait] - before
        if moved or steps:
            self.emit(rule, f"{self.name(seat)}: {trait} {self.values_text(seat, trait, before)}")
        if e.idx[trait] < 0 and not e.dead:
            self._die(seat, trait)
        return moved

    def _die(self, seat: str, trait: str) -> None:
        """After the haunt a trait on the skull kills: items drop as a pile, companions stay in the
        room for the next explorer to take custody of, and what is neither (the Bite) stays with
        the dead explorer (``omen.not-items``)."""
        e = self.ex[seat]
        e.dead = True
        self.emit("death.skull", f"{self.name(seat)}'s {trait} reaches the skull: {self.name(seat)} dies")
        if e.cards:
            items, companions = self.leave_possessions(seat)
            if companions:
                self.emit("death.companion-stays", f"{', '.join(self.card_name(c) for c in companions)} stay in "
                          f"{self.room_name(e.room)}")
            if items:
                self.emit("death.items-drop", f"{self.name(seat)}'s items drop as an item pile in {self.room_name(e.room)}")
        for card in e.kept:
            self.discards["event"].append(card)
        e.kept = []
        e.status = {}
        if seat == self.current:
            self.turn.end_now = True
            self.turn.stopped = True

    def tile_may_go_to(self, floor: str, tile: str) -> bool:
        """Whether a moving tile (the Mystic Elevator) may be put on ``floor``: not on a floor the
        haunt took out of play (``haunt.floor-removed``); a haunt may forbid more."""
        return floor not in self.closed_floors

    def villain_round(self) -> int:
        """The traitor-and-monsters set of turns under way (the haunt's round; 0 before it)."""
        return 0

    def damage_taken(self, seat: str, kind: str, points: int) -> int:
        """The damage the explorer really takes of ``points`` (a haunt status may change it)."""
        return points

    def leave_possessions(self, seat: str) -> tuple[list[str], list[str]]:
        """An explorer who dies or leaves play leaves its items as a pile in its room, and its
        companions there for the next explorer to take custody of (they lie with the pile, but
        only custody takes them); a card that is neither (the Bite) is no item to drop: it goes
        to its discard pile (``omen.not-items``). Returns the items and the companions left."""
        e = self.ex[seat]
        items = [c for c in e.cards if self.t.cards[c].item]
        companions = [c for c in e.cards if self.t.cards[c].companion]
        left = [c for c in e.cards if c in items or c in companions]
        if left:
            self.piles.setdefault(e.room, []).extend(left)
        for card in [c for c in e.cards if c not in left]:
            # judgement: the rulebook drops only items and leaves only companions behind
            self.discards[self.t.cards[card].type].append(card)
            self.emit("omen.not-items", f"{self.card_name(card)} is no item to drop: it is discarded")
        e.cards = []
        return items, companions

    def values_text(self, seat: str, trait: str, before: int) -> str:
        e = self.ex[seat]
        vals = self.t.explorers[e.id].traits[trait].values
        return f"{vals[before] if before >= 0 else 'skull'} -> {vals[e.idx[trait]] if e.idx[trait] >= 0 else 'skull'}"

    def task_roll(self, seat: str, trait: str, task: str) -> Gen[int | None]:
        """A haunt task roll (an exorcism, a search): one per turn whatever trait it uses.

        Returns the total, or None when a task roll was already made this turn. Haunts (part 2)
        call this; before the haunt there are no tasks."""
        if "task-roll" in self.turn.keys:
            self.emit("roll.task-once-per-turn", f"{self.name(seat)} has already made a task roll this turn")
            return None
        self.turn.keys.add("task-roll")
        total = yield from effects.own_roll(self, seat, self.value(seat, trait), "trait", f"a {trait} task roll",
                                            Ctx(seat, "task"))
        self.emit("roll.task-once-per-turn", f"{self.name(seat)} makes a {trait} roll for {task}: {total}")
        return total

    # ---------------------------------------------------------------------------------------
    # Haunt roll and reveal

    def _haunt_roll(self, seat: str, omen: str, room: str) -> Gen[None]:
        total = yield from effects.own_roll(self, seat, self.t.haunt_dice, "haunt", "the haunt roll", Ctx(seat, "haunt"))
        self.emit("haunt.roll", f"{self.name(seat)} makes a haunt roll: {total} against {self.omens_drawn} omens drawn")
        if len(self.turn.omens) > 1:
            self.emit("haunt.roll-per-omen", f"one haunt roll for the {self.card_name(omen)}")
        if total >= self.omens_drawn:
            return
        self.emit("haunt.revealer", f"{total} < {self.omens_drawn}: the haunt starts; {self.name(seat)} is the haunt revealer")
        self._reveal(seat, omen, room)

    def _reveal(self, seat: str, omen: str, room: str) -> None:
        number = self.t.chart.get((room, omen))
        if number is None:
            # An omen drawn outside an omen room (possible only through card effects).
            omen_rooms = sorted({r for r, _ in self.t.chart})
            room = self._nearest_rooms(seat, omen_rooms)[0]
            number = self.t.chart[(room, omen)]
        self.emit("haunt.chart-lookup", f"chart: {self.card_name(omen)} in {self.room_name(room)} gives haunt {number}")
        self.emit("haunt.only-before-haunt", "no more haunt rolls from now on")
        if self.setup.played and number in self.setup.played:
            number, room, omen = self._select_haunt(seat, omen, room)
        forced = self.forced_haunt()
        if forced is not None and forced != number:
            number = forced
            self.emit("haunt.chart-lookup", f"haunt {number} ({self.t.haunts[number].title}) is played at this reveal "
                      "instead, as the game was asked to (the chart's haunt is set aside)")
        haunt = self.t.haunts[number]
        traitor, how = self._traitor(seat, haunt.traitor)
        kind = haunt.traitor.kind
        self.phase = "revealed"
        self.haunt = {
            "number": number, "title": haunt.title, "omen": omen, "room": room, "revealer": seat,
            "traitor": traitor, "kind": "hidden" if kind == "hidden" else ("none" if kind == "none" else "traitor"),
        }
        first = self.left_of(traitor or seat)
        self.emit("hidden-traitor.turn-order" if kind == "hidden" else "turn.order-after-haunt",
                  f"from now on turns start with {self.name(first)}, left of the "
                  f"{'traitor' if traitor else 'haunt revealer'}")
        if kind == "hidden":
            self.emit("hidden-traitor.deal-tokens", f"haunt {number} ({haunt.title}) has a hidden traitor: numbered tokens "
                      "are dealt when the haunt starts")
        elif kind == "none":
            self.emit("haunt.traitor-from-table", f"haunt {number} ({haunt.title}) has no traitor")
        else:
            self.emit("haunt.traitor-from-table", f"haunt {number} ({haunt.title}): the traitor is {self.name(traitor or '')} ({how})")

    def _select_haunt(self, seat: str, omen: str, room: str) -> tuple[int, str, str]:
        played = set(self.setup.played)
        omen_rooms = [r for r in self.house.spots if self.t.rooms[r].symbol == "omen" and any(k[0] == r for k in self.t.chart)]
        ordered_rooms = [room] + [r for r in self._nearest_rooms(seat, omen_rooms) if r != room]
        own = [c for c in self.ex[seat].cards if self.t.cards[c].type == "omen" and c != omen]
        for i, o in enumerate([omen, *own]):
            for r in ordered_rooms:
                n = self.t.chart.get((r, o))
                if n is not None and n not in played:
                    rule = "haunt.selection-skip" if i == 0 else "haunt.selection-next-omen"
                    self.emit(rule, f"haunt {self.t.chart[(room, omen)]} was played already: {self.card_name(o)} in "
                              f"{self.room_name(r)} gives haunt {n}")
                    return n, r, o
        self.emit("haunt.selection-skip", "every placed omen room gives a played haunt: the original haunt stands")
        return self.t.chart[(room, omen)], room, omen

    def walking_distances(self, seat: str) -> dict[str, int]:
        """Spaces from the explorer to every room reachable by plain movement, with no rolls:
        a barrier room is entered on the side of the door used and cannot be crossed (crossing
        takes a roll), so what lies past a barrier counts only by another way round
        (``room.barrier.cross-roll``). The Dog's errand uses it (``dog-fetch``)."""
        e = self.ex[seat]
        start = (e.room, e.part)
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt: list[tuple[str, int]] = []
            for room, part in frontier:
                for other, _, _ in self._exits(Explorer("probe", "", room=room, part=part)):
                    rdef = self.t.rooms[other]
                    arrive = 0
                    if len(rdef.barrier) >= 2:
                        via = self._entry_side(room, other)
                        rot = self.house.spots[other].rotation
                        arrive = next((i for i, s_ in enumerate(rdef.barrier) if via is not None and (s_ + rot) % 4 == via), 0)
                    if (other, arrive) not in dist:
                        dist[(other, arrive)] = dist[(room, part)] + 1
                        nxt.append((other, arrive))
            frontier = sorted(nxt)
        out: dict[str, int] = {}
        for (room, _), d in dist.items():
            out[room] = min(d, out.get(room, d))
        return out

    def distances(self, start: str) -> dict[str, int]:
        """Tiles apart from ``start`` to every room reachable through doors and fixed links.
        A barrier room counts as one tile whichever side it is entered from, so every door of
        it is searched: what lies past a barrier must not depend on how its tile is turned."""
        dist = {start: 0}
        frontier = [start]
        probe = Explorer("probe", "")
        while frontier:
            nxt = []
            for room in frontier:
                # Every side's exits share the exits cache under part -1 (no explorer's part).
                key = (room, -1, self.house.version, len(self.links))
                exits = self._exits_cache.get(key)
                if exits is None:
                    probe.room = room
                    probe.part = 0
                    if len(self._exits_cache) > 512:
                        self._exits_cache.clear()
                    exits = self._exits_cache[key] = self._exits(probe, every_side=True)
                for other, _, _ in exits:
                    if other not in dist:
                        dist[other] = dist[room] + 1
                        nxt.append(other)
            frontier = sorted(nxt)
        return dist

    def _exits_of(self, probe: Explorer) -> list[tuple[str, int, str]]:
        return self._exits(probe)

    def _nearest_rooms(self, seat: str, rooms: Iterable[str]) -> list[str]:
        dist = self.distances(self.ex[seat].room)
        return sorted(rooms, key=lambda r: (dist.get(r, 10_000), r))

    def _traitor(self, revealer: str, rule: TraitorRule) -> tuple[str | None, str]:
        kind = rule.kind
        if kind == "haunt-revealer":
            return revealer, "the haunt revealer"
        if kind == "left-of-revealer":
            return self.left_of(revealer), "left of the haunt revealer"
        if kind in ("hidden", "none"):
            return None, kind
        if kind == "explorer":
            for s, e in self.ex.items():
                if e.id == rule.explorer:
                    return s, f"{self.t.explorers[e.id].name} is in the game"
            if rule.fallback is None:
                return None, "none"
            who, how = self._traitor(revealer, rule.fallback)
            return who, f"{rule.explorer} is not playing; {how}"
        order = [self.left_of(revealer, k) for k in range(self.n)]  # revealer first, then leftwards
        candidates = [s for s in order if not (rule.exclude_revealer and s == revealer)]
        if kind in ("highest", "lowest"):
            assert rule.trait is not None
            trait = rule.trait
            vals = {s: self.value(s, trait) for s in candidates}
            best = max(vals.values()) if kind == "highest" else min(vals.values())
            tied = [s for s in candidates if vals[s] == best]
            how = f"{kind} {trait} ({best})"
        else:
            ages = {s: self.t.explorers[self.ex[s].id].age for s in candidates}
            best = max(ages.values()) if kind == "oldest" else min(ages.values())
            tied = [s for s in candidates if ages[s] == best]
            how = f"{kind} explorer (age {best})"
        if len(tied) > 1:
            chosen = tied[0]
            why = "the revealer is among them" if chosen == revealer else "nearest to the revealer's left"
            self.emit("traitor.tie-break", f"{', '.join(tied)} tie on {how}: {chosen} ({why})")
            return chosen, how
        return tied[0], how


END = Action("end")
DOOR_HOW = tuple(f"door {s}" for s in SIDES)


def _static_links(t: Tables) -> dict[str, list[tuple[str, str, int, Mapping[str, Any] | None]]]:
    """Fixed links per room (strip, stairs, secret stairs) in both directions where two-way;
    chutes, falls and jumps are not walked (room text moves you along them)."""
    cached: dict[str, list[tuple[str, str, int, Mapping[str, Any] | None]]] | None = t.derived.get("static_links")
    if cached is not None:
        return cached
    out: dict[str, list[tuple[str, str, int, Mapping[str, Any] | None]]] = {}
    for room in sorted(t.rooms.values(), key=lambda r: r.id):
        for c in room.connections:
            if c.kind in ("chute", "fall", "jump"):
                continue
            cost = 1 if c.counts_as_move else 0
            out.setdefault(room.id, []).append((c.to, c.kind, cost, c.requires))
            if c.direction == "both" and c.to in t.rooms:
                back = out.setdefault(c.to, [])
                if not any(x[0] == room.id for x in back):
                    back.append((room.id, c.kind, cost, c.requires))
    for links in out.values():
        dedup: dict[str, tuple[str, str, int, Mapping[str, Any] | None]] = {}
        for x in links:
            dedup.setdefault(x[0], x)
        links[:] = list(dedup.values())
    t.derived["static_links"] = out
    return out


def _day_of_year(month: int, day: int) -> int:
    lengths = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
    return sum(lengths[: month - 1]) + day - 1


def _side(name: str) -> int:
    return SIDES.index(name)


def _sides_text(sides: Iterable[int]) -> str:
    return "/".join(SIDES[s] for s in sorted(sides)) or "none"


__all__ = ["FLOORS", "MENTAL", "PHYSICAL", "BetrayalState", "Ctx", "Explorer", "Gen", "Req", "Setup", "Turn"]


def invariants(state: GameState) -> list[str]:
    """What must hold after every step before the haunt: every tile and card in exactly one
    place, traits on their tracks (nobody dead before the haunt), no floor sealed off while
    tiles for it remain, the omen count equal to the omens drawn, explorers in placed rooms."""
    if not isinstance(state, BetrayalState):
        return [f"not a Betrayal state: {type(state).__name__}"]
    st = state
    problems: list[str] = []
    tiles = list(st.house.spots) + st.stack + st.aside + st.unshuffled_rooms + ([st.held_tile] if st.held_tile else [])
    tiles += st.removed_tiles
    if st.phase == "setup":
        tiles += [r.id for r in st.t.rooms.values() if r.placement == "starting" and r.id not in st.house.spots]
    if sorted(tiles) != sorted(st.t.rooms):
        dup = sorted({t for t in tiles if tiles.count(t) > 1})
        missing = sorted(set(st.t.rooms) - set(tiles))
        problems.append(f"room tiles misplaced: duplicated {dup}, missing {missing}")
    cards: list[str] = []
    for kind in ("omen", "item", "event"):
        cards += st.decks[kind] + st.discards[kind] + st.unshuffled[kind]
    for e in st.ex.values():
        cards += e.cards + e.kept
    for pile in st.piles.values():
        cards += pile
    cards += st.token_cards + st.resolving
    if sorted(cards) != sorted(st.t.cards):
        dup = sorted({c for c in cards if cards.count(c) > 1})
        missing = sorted(set(st.t.cards) - set(cards))
        problems.append(f"cards misplaced: duplicated {dup}, missing {missing}")
    low = 0 if st.haunt is None else -1
    for seat, e in st.ex.items():
        if e.dead and (e.cards or e.kept):
            problems.append(f"{seat} is dead but still holds cards")
        for trait in TRAITS:
            top = len(st.t.explorers[e.id].traits[trait].values) - 1
            if not low <= e.idx[trait] <= top:
                problems.append(f"{seat} {trait} index {e.idx[trait]} is off its track")
        if st.phase == "setup":
            continue
        if e.room not in st.house.spots:
            problems.append(f"{seat} is in {e.room!r}, which is not in the house")
        elif e.part and len(st.t.rooms[e.room].barrier) < 2:
            problems.append(f"{seat} is on side {e.part} of {e.room}, which has no barrier")
    if st.phase != "setup":
        for floor in FLOORS:
            if not st.house.free_doorways(floor) and st.remaining_for(floor) > 0:
                problems.append(f"the {floor} floor is sealed off while {st.remaining_for(floor)} tile(s) for it remain")
    in_deck = len(st.decks["omen"]) + len(st.unshuffled["omen"])
    total = sum(1 for c in st.t.cards.values() if c.type == "omen")
    if st.omens_drawn != total - in_deck:
        problems.append(f"omen count {st.omens_drawn} but {total - in_deck} omens have left the stack")
    for room in st.piles:
        if room not in st.house.spots:
            problems.append(f"an item pile lies in {room}, which is not in the house")
    return problems
