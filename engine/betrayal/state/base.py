"""The part-1 state's fields and plain types, and the questions and chance every rule asks.

:class:`Req` is a pending decision (who, among what); ``Gen`` is the type of the game's program and
of every rule that may ask or roll. :class:`Explorer`, :class:`Turn` and :class:`Setup` are plain
data. :class:`StateBase` holds every field of the state and answers what all rules ask: names,
trait values and Speed, who sits to the left, asking a player (a single legal option is taken
without asking), rolling dice (a roll with one outcome is not a choice of chance), and taking the
top card of a stack (a known top from a peek first, then a chance draw of what is left).

The state is built as a chain of classes, one module each, every one adding one part of the rules
(``base`` -> ``traits`` -> ``cards`` -> ``discovery`` -> ``movement`` -> ``haunt_roll`` -> ``turns``
-> ``game``). A rule lower in the chain that must call one defined higher up finds it declared at
the end of :class:`StateBase`. A few questions here are the haunt phase's to answer differently
(``waives_room_text``, ``room_jammed``, ``damage_taken``, ``villain_round``, ``tile_may_go_to``,
``forced_haunt``).
The rule variants a spec switches on (``variant`` / ``unless_variant``) are found by
:func:`variant_names` and chosen with the ``variants`` option (:func:`parse_variants`).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias, TypeVar

from hauntcheck.engine.betrayal.house import House, door_rotations, link_watchers
from hauntcheck.engine.betrayal.model import Ability, Tables
from hauntcheck.engine.core import CHANCE, Action, ActionList, Choices, DiceRoll, Draw, Event, EventArg, GameState, RuleBook

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.state.game import BetrayalState

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


#: A kept room's exits and move menu: (room, side stood on or -1 for every side,
#: ``House.changed_near(room)``, the links made).
ExitsKey: TypeAlias = tuple[str, int, int, tuple[tuple[str, str, int, str], ...]]


class KeptMoves(NamedTuple):
    """A room's move menu as kept between decisions (``Movement._move_actions``), each action with
    its cost in spaces: the moves along its ways out, the doorways facing an empty cell (world
    sides, in side order) and the whole menu when every one of them may be explored. Which may be
    explored depends on the stack too, so it is decided at each ask."""

    moves: list[tuple[int, Action]]
    doorways: tuple[int, ...]
    with_every_doorway: list[tuple[int, Action]]


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
    return t.derived("variant_names", _scan_variant_names)


def _scan_variant_names(t: Tables) -> tuple[str, ...]:
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
    return tuple(sorted(names))


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


class StateBase(GameState):
    """The state's fields, and the questions and chance every rule below uses."""

    game = "betrayal"

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.t = setup.tables
        self.rules = setup.rules
        self.n = setup.players
        self.seat_ids = [f"P{i + 1}" for i in range(self.n)]
        self.t_links = _static_links(self.t)
        self.no_end_rooms = _chute_rooms(self.t)
        self.house = House(self.t.rooms, self.t.derived("door_rotations", lambda t: door_rotations(t.rooms)),
                           self.t.derived("link_watchers", lambda t: link_watchers(t.rooms)))
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
        #: Each room's kept move menu (``Movement._move_actions``) and exits (``exits_at``), by
        #: room, side, the house's changes near it and the links made.
        self._moves_cache: dict[ExitsKey, KeptMoves] = {}
        self._exits_cache: dict[ExitsKey, list[tuple[str, int, str]]] = {}
        #: Each room's own abilities by triggers, then room (``effects.room_abilities_with``), shared by every game of the spec.
        self.room_abilities_by_trigger: dict[tuple[str, ...], dict[str, list[tuple[str, int, Ability]]]] = (
            self.t.derived("room_abilities_by_triggers", lambda _: {}))
        #: The abilities of each hand (seat, cards, kept), and of each hand by trigger (seat, cards, kept,
        #: trigger): ``effects.held_abilities`` and ``held_abilities_with``; cleared when a position is edited.
        self.held_cache: dict[tuple[Any, ...], list[tuple[str, int, Ability]]] = {}
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

    def forced_haunt(self) -> int | None:
        """The haunt played at the reveal whatever the chart gives (None: the chart decides)."""
        return None

    def emit(self, rule: str, text: str, **args: EventArg) -> None:
        """Record an event of ``rule``: ``text`` for people, ``args`` the facts it states as plain data
        (ids, seats, amounts; the names are listed in docs/conformance-protocol.md)."""
        if not self.quiet:
            self._events.append(self.rules.event(rule, text, **args))

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

    def spares_room(self, seat: str, room: str) -> bool:
        """Whether the room's own text does nothing for the explorer (haunt statuses; never before the haunt)."""
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
            self.emit("card.peek-known-top", f"the top {kind} card is the one looked at: {self.card_name(card)}", kind=kind, card=card)
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
        if pile and pile.count(pile[0]) == len(pile):  # one kind of item left: nothing to draw
            item = pile[0]
        else:
            action = yield Req(CHANCE, Draw(pile, arg=arg), what)
            item = str(action[arg])
        pile.remove(item)
        return item

    def tile_may_go_to(self, floor: str, tile: str) -> bool:
        """Whether a moving tile (the Mystic Elevator) may be put on ``floor``: not on a floor the
        haunt took out of play (``haunt.floor-removed``); a haunt may forbid more."""
        return floor not in self.closed_floors

    def villain_round(self) -> int:
        """The traitor-and-monsters set of turns under way (the haunt's round; 0 before it)."""
        return 0

    def damage_kind(self, seat: str, kind: str) -> str:
        """The kind of damage the explorer takes for damage of ``kind`` (a haunt status may turn
        physical damage into mental)."""
        return kind

    def damage_taken(self, seat: str, kind: str, points: int, reducible: bool = True) -> int:
        """The damage the explorer really takes of ``points`` (a haunt status may change it;
        ``reducible`` False: damage nothing may lessen)."""
        return points

    def as_betrayal_state(self) -> BetrayalState:
        """This state as the whole part-1 game, the type the effects are written against: each class
        of the chain passes itself to them as the :class:`BetrayalState` it is part of."""
        # not typing.cast: this is asked at almost every step, and a call less each time counts
        return self  # type: ignore[return-value]

    # Rules defined higher in the chain that rules lower down call (see the module docstring).

    def _game(self) -> Gen[None]:
        """Defined by :class:`~hauntcheck.engine.betrayal.state.turns.Turns`."""
        raise NotImplementedError

    def _set_room(self, seat: str, room: str, via_side: int | None = None, part: int | None = None) -> None:
        """Defined by :class:`~hauntcheck.engine.betrayal.state.movement.Movement`."""
        raise NotImplementedError


def _chute_rooms(t: Tables) -> frozenset[str]:
    """The rooms with a chute out of them (found once per tables)."""
    return t.derived("chute_rooms", lambda t: frozenset(
        r.id for r in t.rooms.values() if any(c.kind == "chute" for c in r.connections)))


def _static_links(t: Tables) -> dict[str, list[tuple[str, str, int, Mapping[str, Any] | None]]]:
    """Fixed links per room (strip, stairs, secret stairs) in both directions where two-way;
    chutes, falls and jumps are not walked (room text moves you along them); found once per tables."""
    return t.derived("static_links", _find_static_links)


def _find_static_links(t: Tables) -> dict[str, list[tuple[str, str, int, Mapping[str, Any] | None]]]:
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
    return out
