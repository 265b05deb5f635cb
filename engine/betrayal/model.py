"""The engine's view of the Betrayal spec: plain, typed tables built once from ``spec/betrayal/``.

The engine never reads YAML itself. :func:`tables_from_spec` turns the loaded spec files into
these frozen records (rooms, explorers, cards, the haunt chart, the traitor table); everything the
game does is driven by them and by the rule clauses of ``rules.yaml``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from hauntcheck.engine.betrayal.hauntspec import DRAFT_NUMBER, is_draft

_T = TypeVar("_T")

SIDES: tuple[str, ...] = ("north", "east", "south", "west")
SIDE_INDEX: dict[str, int] = {s: i for i, s in enumerate(SIDES)}
TRAITS: tuple[str, ...] = ("might", "speed", "sanity", "knowledge")
PHYSICAL: tuple[str, ...] = ("might", "speed")
MENTAL: tuple[str, ...] = ("sanity", "knowledge")
FLOORS: tuple[str, ...] = ("ground", "upper", "basement")

Effect = Mapping[str, Any]
Ability = Mapping[str, Any]


@dataclass(frozen=True)
class Connection:
    """A fixed link that is not an ordinary door (strip neighbour, stairs, chute, fall, jump)."""

    to: str
    kind: str
    direction: str = "both"
    side: int | None = None
    counts_as_move: bool = True
    requires: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class RoomDef:
    id: str
    name: str
    placement: str  # "starting" | "stack"
    floors: tuple[str, ...]
    doors: frozenset[int]  # tile-local sides (0 = north)
    symbol: str  # omen | item | event | none
    front_door: int | None = None
    tile: str | None = None
    strip_position: int | None = None
    barrier: tuple[int, ...] = ()  # tile-local door sides of each part (1 side: far part has no door)
    barrier_arrival: str = "chosen"
    symbols_behind_barrier: tuple[str, ...] = ()
    connections: tuple[Connection, ...] = ()
    abilities: tuple[Ability, ...] = ()
    windows: bool | str = "unknown"
    outdoor: bool = False


@dataclass(frozen=True)
class Track:
    values: tuple[int, ...]
    start: int  # index into values


@dataclass(frozen=True)
class ExplorerDef:
    id: str
    name: str
    card: str  # the two-sided card this explorer is printed on
    age: int
    birthday: tuple[int, int]  # (month, day)
    traits: Mapping[str, Track]
    hobbies: tuple[str, ...] = ()  # as printed on the card (a haunt may ask for one: Lost's Music)
    sex: str = ""  # "male" or "female", from the bios (Tomb of Dracula's Domination, Ghost Bride's groom)


@dataclass(frozen=True)
class CardDef:
    id: str
    name: str
    type: str  # omen | item | event
    abilities: tuple[Ability, ...] = ()
    companion: bool = False
    weapon: bool = False
    can_drop: bool = True
    can_trade: bool = True
    can_steal: bool = True
    keep: bool = False  # stays in possession (items and omens), events are discarded unless kept
    #: An item, or an omen held like one (``omen.like-items``). Companions and the Bite are not
    #: (``omen.not-items``): they never go into an item pile nor come out of one.
    item: bool = True


@dataclass(frozen=True)
class TraitorRule:
    """Who becomes the traitor for one haunt: ``kind`` is revealer, left-of-revealer, highest,
    lowest, oldest, youngest, explorer (a named explorer, else ``fallback``), hidden or none."""

    kind: str
    trait: str | None = None
    exclude_revealer: bool = False
    explorer: str | None = None
    fallback: TraitorRule | None = None


@dataclass(frozen=True)
class Haunt:
    number: int
    title: str
    traitor: TraitorRule


@dataclass(frozen=True)
class Tables:
    rooms: Mapping[str, RoomDef]
    explorers: Mapping[str, ExplorerDef]
    cards: Mapping[str, CardDef]
    chart: Mapping[tuple[str, str], int]  # (room id, omen card id) -> haunt number
    haunts: Mapping[int, Haunt]
    haunt_dice: int = 6
    die_faces: tuple[int, ...] = (0, 0, 1, 1, 2, 2)
    notes: tuple[str, ...] = field(default_factory=tuple)
    #: Structures the engine derives from these tables (links, abilities by room), built once and
    #: kept here, on the tables they come from (a `dataclasses.replace` copy starts without them).
    _derived: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def derived(self, name: str, build: Callable[[Tables], _T]) -> _T:
        """``build(self)``, computed once per tables object and kept on it under ``name``, as
        :meth:`GameSpec.derived` keeps a spec's; ``build`` must depend on the tables alone."""
        try:
            return cast(_T, self._derived[name])
        except KeyError:
            value = self._derived[name] = build(self)
            return value

    def stack_rooms(self) -> list[str]:
        """The room tiles of the stack, by id (a fresh list: a game shuffles it into its own stack)."""
        return list(self.derived("stack_rooms", lambda t: tuple(sorted(r.id for r in t.rooms.values() if r.placement == "stack"))))

    def deck(self, card_type: str) -> list[str]:
        """The cards of one type, by id (a fresh list: a game deals from its own)."""
        return list(self.derived(f"deck.{card_type}", lambda t: tuple(sorted(c.id for c in t.cards.values() if c.type == card_type))))

    def explorers_by_id(self) -> tuple[ExplorerDef, ...]:
        """Every explorer, by id: the order setup offers them in (and a position fills free seats in)."""
        return self.derived("explorers_by_id", lambda t: tuple(sorted(t.explorers.values(), key=lambda x: x.id)))


def side_set(sides: Sequence[str]) -> frozenset[int]:
    return frozenset(SIDE_INDEX[s] for s in sides)


# --------------------------------------------------------------------------------------------
# Building the tables from the loaded spec


def _traitor_rule(data: Mapping[str, Any]) -> TraitorRule:
    fallback = data.get("else")
    return TraitorRule(
        kind=str(data["rule"]),
        trait=data.get("trait"),
        exclude_revealer=bool(data.get("except_revealer", False)),
        explorer=data.get("explorer"),
        fallback=_traitor_rule(fallback) if isinstance(fallback, Mapping) else None,
    )


def _room(data: Mapping[str, Any]) -> RoomDef:
    barrier = data.get("barrier") or {}
    conns = []
    for c in data.get("connections", []):
        conns.append(
            Connection(
                to=str(c.get("to") or c.get("to_token")),
                kind=str(c["kind"]),
                direction=str(c.get("direction", "both")),
                side=SIDE_INDEX[c["side"]] if "side" in c else None,
                counts_as_move=bool(c.get("counts_as_move", True)),
                requires=c.get("requires"),
            )
        )
    return RoomDef(
        id=str(data["id"]),
        name=str(data["name"]),
        placement=str(data["placement"]),
        floors=tuple(data["floors"]),
        doors=side_set(data.get("doors", [])),
        symbol=str(data.get("symbol", "none")),
        front_door=SIDE_INDEX[data["front_door"]] if "front_door" in data else None,
        tile=data.get("tile"),
        strip_position=data.get("strip_position"),
        barrier=tuple(SIDE_INDEX[s] for s in barrier.get("splits", [])),
        barrier_arrival=str(barrier.get("arrival_side", "chosen")),
        symbols_behind_barrier=tuple(data.get("symbols_behind_barrier", [])),
        connections=tuple(conns),
        abilities=tuple(data.get("effects", [])),
        windows=data.get("windows", "unknown"),
        outdoor=bool(data.get("outdoor", False)),
    )


def _card(data: Mapping[str, Any], card_type: str) -> CardDef:
    flags = data.get("flags") or {}
    companion = bool(flags.get("companion", False))
    not_item = bool(flags.get("not_an_item", False)) or companion
    return CardDef(
        id=str(data["id"]),
        name=str(data["name"]),
        type=card_type,
        abilities=tuple(data.get("effects", [])),
        companion=companion,
        weapon=bool(flags.get("weapon", False)),
        can_drop=bool(flags.get("droppable", not not_item)),
        can_trade=bool(flags.get("tradable", not not_item)),
        can_steal=bool(flags.get("stealable", not not_item)),
        keep=bool(flags.get("keep", card_type != "event")),
        item=card_type != "event" and not not_item,
    )


def tables_from_spec(spec: Any) -> Tables:
    """Build the engine's tables from a loaded :class:`GameSpec` of Betrayal."""
    rooms = {r["id"]: _room(r) for r in spec.one("rooms").data["rooms"]}
    explorers: dict[str, ExplorerDef] = {}
    for e in spec.one("explorers").data["explorers"]:
        traits = {t: Track(tuple(v["values"]), int(v["start"])) for t, v in e["traits"].items()}
        bday = e["birthday"]
        explorers[e["id"]] = ExplorerDef(
            id=e["id"], name=e["name"], card=e["card"], age=int(e["age"]),
            birthday=(int(bday["month"]), int(bday["day"])), traits=traits,
            hobbies=tuple(str(h) for h in e.get("hobbies", ())), sex=str(e.get("sex", "")),
        )
    cards: dict[str, CardDef] = {}
    for kind, card_type in (("omens", "omen"), ("items", "item"), ("events", "event")):
        for file in spec.by_kind(kind):
            for c in file.data["cards"]:
                card = _card(c, card_type)
                copies = int(c.get("copies", 1))
                if copies == 1:
                    cards[card.id] = card
                else:
                    for i in range(copies):
                        cid = f"{card.id}-{i + 1}"
                        cards[cid] = CardDef(**{**card.__dict__, "id": cid})
    chart_data = spec.one("haunt-chart").data
    columns = chart_data["columns"]
    chart = {}
    for row in chart_data["rows"]:
        for omen, number in zip(columns, row["haunts"], strict=True):
            chart[(row["room"], omen)] = int(number)
    haunts = {}
    for h in spec.one("traitors").data["haunts"]:
        haunts[int(h["haunt"])] = Haunt(int(h["haunt"]), str(h.get("title", f"Haunt {h['haunt']}")), _traitor_rule(h["traitor"]))
    for draft in spec.by_kind("haunt"):
        # a designer's draft brings its own traitor rule and (optionally) its own chart place
        if is_draft(draft.data):
            number = int(draft.data.get("number", DRAFT_NUMBER))
            haunts[number] = Haunt(number, str(draft.data["title"]), _traitor_rule(draft.data["traitor"]))
            place = draft.data.get("chart")
            if isinstance(place, Mapping):
                chart[(str(place["room"]), str(place["omen"]))] = number
    faces: tuple[int, ...] = (0, 0, 1, 1, 2, 2)
    for comp in spec.by_kind("components"):
        for c in comp.data.get("components", []):
            if c.get("id") == "dice" and "faces" in c:
                faces = tuple(int(f) for f in c["faces"])
    return Tables(rooms=rooms, explorers=explorers, cards=cards, chart=chart, haunts=haunts, die_faces=faces)
