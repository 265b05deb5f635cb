"""Typed records of the Betrayal component specs, and the consistency checks between the files.

The component specs live in ``spec/betrayal/``: ``rooms.yaml``, ``explorers.yaml``,
``omens.yaml``, ``items.yaml``, ``events.yaml``, ``haunt-chart.yaml``, ``traitors.yaml`` and
``components.yaml``. Each is validated on its own by its JSON Schema; this module holds what no
single-file schema can check: that the files agree with each other (the chart's rows are the omen
rooms, its columns the omen cards, the traitor table covers every haunt, the explorer cards pair up,
the box counts match the lists, every named room, card, explorer and token exists).

This module never reads files. Call it with the already loaded data, keyed by kind (or by file
name, with or without folder and ``.yaml``)::

    from hauntcheck.engine.spec import load_game
    from hauntcheck.engine.betrayal.specdata import cross_check, BetrayalData

    game = load_game("betrayal")
    files = {f.kind: f.data for f in game.files.values()}
    problems = cross_check(files)          # [] when the files agree; else one line per problem
    data = BetrayalData.from_files(files)  # typed records (raises SpecDataError on missing kinds)

``cross_check`` never raises on bad data: a file that is missing or malformed is reported as a
problem line, so it can run on whatever the loader managed to read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

TRAITS: tuple[str, ...] = ("might", "speed", "sanity", "knowledge")
CARD_KINDS: dict[str, str] = {"omens": "omen", "items": "item", "events": "event"}
KINDS: tuple[str, ...] = (
    "rooms", "explorers", "omens", "items", "events", "haunt-chart", "traitors", "components",
)

Effect = Mapping[str, Any]


class SpecDataError(ValueError):
    """The data cannot be turned into records (a kind is missing or a required field is absent)."""


# --------------------------------------------------------------------------------------------
# Records


@dataclass(frozen=True, slots=True)
class Connection:
    """A non-door link from a room: strip neighbour, stairs, chute, fall or jump. ``to`` names a
    room; ``to_token`` instead names the token that marks the destination room."""

    kind: str
    direction: str
    to: str | None = None
    to_token: str | None = None
    side: str | None = None
    counts_as_move: bool | None = None


@dataclass(frozen=True, slots=True)
class Room:
    """One room. ``placement`` is ``starting`` (laid out at setup) or ``stack`` (drawn)."""

    id: str
    name: str
    placement: str
    floors: tuple[str, ...]
    doors: tuple[str, ...]
    windows: bool | str
    symbol: str
    tile: str | None = None
    strip_position: int | None = None
    front_door: str | None = None
    outdoor: bool = False
    symbols_behind_barrier: tuple[str, ...] = ()
    barrier_splits: tuple[str, ...] = ()
    connections: tuple[Connection, ...] = ()
    effects: tuple[Effect, ...] = ()

    @property
    def drawable(self) -> bool:
        """True for the rooms of the room stack."""
        return self.placement == "stack"

    @property
    def omen_room(self) -> bool:
        """True when the room shows the omen symbol (a row of the haunt chart)."""
        return self.symbol == "omen"


@dataclass(frozen=True, slots=True)
class Track:
    """A trait track: printed values lowest first (the skull below index 0 is not a value) and
    the 0-based index of the starting value."""

    values: tuple[int, ...]
    start: int

    @property
    def start_value(self) -> int:
        return self.values[self.start]

    def moved(self, index: int, steps: int, *, haunt_started: bool = False) -> int | None:
        """The index after moving ``steps`` (positive = up). The top value caps a rise. Before
        the haunt a fall stops at the lowest value; after it, falling below index 0 reaches the
        skull and the result is None (the explorer dies)."""
        new = min(index + steps, len(self.values) - 1)
        if new < 0:
            return None if haunt_started else 0
        return new


@dataclass(frozen=True, slots=True)
class Explorer:
    id: str
    name: str
    card: str
    other_side: str
    age: int
    birthday: tuple[int, int]  # (month, day)
    height_inches: int
    weight_lb: int
    hobbies: tuple[str, ...]
    traits: Mapping[str, Track]


@dataclass(frozen=True, slots=True)
class ExplorerCard:
    """A two-sided character card: its colour (also the figure's) and the explorers on it."""

    id: str
    colour: str
    sides: tuple[str, str]


@dataclass(frozen=True, slots=True)
class Card:
    """An omen, item or event card. ``flags`` holds only what the spec states; use the
    properties for the defaults (items and omens may change hands unless a flag says no)."""

    id: str
    name: str
    type: str
    flags: Mapping[str, bool]
    effects: tuple[Effect, ...] = ()
    weapon: Mapping[str, Any] | None = None
    copies: int = 1

    @property
    def is_weapon(self) -> bool:
        return bool(self.flags.get("weapon", False))

    @property
    def is_companion(self) -> bool:
        return bool(self.flags.get("companion", False))

    def may(self, action: str) -> bool:
        """Whether the card may be ``tradable``/``droppable``/``stealable``: events never, items
        and omens unless a flag forbids it or the card is a companion or not an item."""
        if self.type == "event":
            return False
        default = not (self.is_companion or self.flags.get("not_an_item", False))
        return bool(self.flags.get(action, default))


@dataclass(frozen=True, slots=True)
class HauntChart:
    """Omen rooms (rows) by omen cards (columns) to haunt numbers."""

    columns: tuple[str, ...]
    rows: Mapping[str, tuple[int, ...]]
    first: int
    last: int

    def haunt(self, room: str, omen: str) -> int:
        """The haunt revealed when ``omen`` is drawn in ``room`` (KeyError if not on the chart)."""
        return self.rows[room][self.columns.index(omen)]

    def cells(self, haunt: int) -> list[tuple[str, str]]:
        """Every (room, omen) pair that reveals ``haunt``, in chart order."""
        return [(room, omen) for room, row in self.rows.items()
                for omen, n in zip(self.columns, row, strict=False) if n == haunt]

    def numbers(self) -> set[int]:
        return {n for row in self.rows.values() for n in row}


@dataclass(frozen=True, slots=True)
class TraitorRule:
    """Who becomes the traitor. ``rule`` is haunt-revealer, left-of-revealer, highest, lowest,
    oldest, youngest, explorer (``explorer`` if playing, else ``otherwise``), hidden or none."""

    rule: str
    trait: str | None = None
    except_revealer: bool = False
    explorer: str | None = None
    hobby: str | None = None
    otherwise: TraitorRule | None = None
    later: str | None = None
    details_in: str | None = None


@dataclass(frozen=True, slots=True)
class HauntTraitor:
    haunt: int
    title: str
    traitor: TraitorRule


@dataclass(frozen=True, slots=True)
class TieBreak:
    """How ties in the trait-based traitor rules are broken: steps tried in order."""

    applies_to: tuple[str, ...]
    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Component:
    id: str
    name: str
    category: str
    count: int | None = None
    faces: tuple[int, ...] = ()
    colours: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    spec_file: str | None = None
    parts: tuple[Component, ...] = ()

    def walk(self) -> Iterator[Component]:
        """This component and all its parts, depth first."""
        yield self
        for part in self.parts:
            yield from part.walk()


@dataclass(frozen=True, slots=True)
class BetrayalData:
    """All component specs as records."""

    rooms: Mapping[str, Room]
    explorer_cards: Mapping[str, ExplorerCard]
    explorers: Mapping[str, Explorer]
    cards: Mapping[str, Card]
    chart: HauntChart
    traitors: Mapping[int, HauntTraitor]
    tie_break: TieBreak
    components: tuple[Component, ...]

    @classmethod
    def from_files(cls, files: Mapping[str, Any]) -> BetrayalData:
        """Build every record from loaded data keyed by kind or file name (see module doc)."""
        by_kind = _by_kind(files)
        missing = [k for k in KINDS if k not in by_kind]
        if missing:
            raise SpecDataError(f"missing spec kinds: {', '.join(missing)}")
        try:
            cards: dict[str, Card] = {}
            for kind, card_type in CARD_KINDS.items():
                cards.update((c.id, c) for c in cards_from(by_kind[kind], card_type))
            explorer_cards, explorers = explorers_from(by_kind["explorers"])
            traitor_table, tie_break = traitors_from(by_kind["traitors"])
            return cls(
                rooms={r.id: r for r in rooms_from(by_kind["rooms"])},
                explorer_cards={c.id: c for c in explorer_cards},
                explorers={e.id: e for e in explorers},
                cards=cards,
                chart=haunt_chart_from(by_kind["haunt-chart"]),
                traitors={h.haunt: h for h in traitor_table},
                tie_break=tie_break,
                components=components_from(by_kind["components"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise SpecDataError(f"malformed spec data: {exc!r}") from exc


# --------------------------------------------------------------------------------------------
# Builders (each takes the dict of one loaded file)


def rooms_from(data: Mapping[str, Any]) -> list[Room]:
    out = []
    for r in data["rooms"]:
        barrier = r.get("barrier") or {}
        out.append(
            Room(
                id=r["id"], name=r["name"], placement=r["placement"], floors=tuple(r["floors"]),
                doors=tuple(r["doors"]), windows=r["windows"], symbol=r["symbol"],
                tile=r.get("tile"), strip_position=r.get("strip_position"),
                front_door=r.get("front_door"), outdoor=bool(r.get("outdoor", False)),
                symbols_behind_barrier=tuple(r.get("symbols_behind_barrier", ())),
                barrier_splits=tuple(barrier.get("splits", ())),
                connections=tuple(
                    Connection(
                        kind=c["kind"], direction=c["direction"], to=c.get("to"),
                        to_token=c.get("to_token"), side=c.get("side"),
                        counts_as_move=c.get("counts_as_move"),
                    )
                    for c in r.get("connections", ())
                ),
                effects=tuple(r.get("effects", ())),
            )
        )
    return out


def explorers_from(data: Mapping[str, Any]) -> tuple[list[ExplorerCard], list[Explorer]]:
    cards = [ExplorerCard(c["id"], c["colour"], (c["sides"][0], c["sides"][1])) for c in data["cards"]]
    explorers = []
    for e in data["explorers"]:
        explorers.append(
            Explorer(
                id=e["id"], name=e["name"], card=e["card"], other_side=e["other_side"],
                age=int(e["age"]), birthday=(int(e["birthday"]["month"]), int(e["birthday"]["day"])),
                height_inches=12 * int(e["height"]["feet"]) + int(e["height"]["inches"]),
                weight_lb=int(e["weight_lb"]), hobbies=tuple(e["hobbies"]),
                traits={t: Track(tuple(int(v) for v in tr["values"]), int(tr["start"]))
                        for t, tr in e["traits"].items()},
            )
        )
    return cards, explorers


def cards_from(data: Mapping[str, Any], card_type: str) -> list[Card]:
    return [
        Card(
            id=c["id"], name=c["name"], type=card_type, flags=dict(c.get("flags", {})),
            effects=tuple(c.get("effects", ())), weapon=c.get("weapon"), copies=int(c.get("copies", 1)),
        )
        for c in data["cards"]
    ]


def haunt_chart_from(data: Mapping[str, Any]) -> HauntChart:
    return HauntChart(
        columns=tuple(data["columns"]),
        rows={row["room"]: tuple(int(n) for n in row["haunts"]) for row in data["rows"]},
        first=int(data["haunts"]["first"]),
        last=int(data["haunts"]["last"]),
    )


def traitor_rule_from(data: Mapping[str, Any]) -> TraitorRule:
    otherwise = data.get("else")
    return TraitorRule(
        rule=data["rule"], trait=data.get("trait"), except_revealer=bool(data.get("except_revealer", False)),
        explorer=data.get("explorer"), hobby=data.get("hobby"),
        otherwise=traitor_rule_from(otherwise) if isinstance(otherwise, Mapping) else None,
        later=data.get("later"), details_in=data.get("details_in"),
    )


def traitors_from(data: Mapping[str, Any]) -> tuple[list[HauntTraitor], TieBreak]:
    haunts = [HauntTraitor(int(h["haunt"]), h["title"], traitor_rule_from(h["traitor"])) for h in data["haunts"]]
    tb = data["tie_break"]
    return haunts, TieBreak(tuple(tb["applies_to"]), tuple(tb["order"]))


def component_from(c: Mapping[str, Any]) -> Component:
    return Component(
        id=c["id"], name=c["name"], category=c["category"], count=c.get("count"),
        faces=tuple(c.get("faces", ())), colours=tuple(c.get("colours", ())),
        names=tuple(c.get("names", ())), spec_file=c.get("spec_file"),
        parts=tuple(component_from(p) for p in c.get("parts", ())),
    )


def components_from(data: Mapping[str, Any]) -> tuple[Component, ...]:
    return tuple(component_from(c) for c in data["components"])


# --------------------------------------------------------------------------------------------
# Walking the effect vocabulary


def walk(node: Any) -> Iterator[Mapping[str, Any]]:
    """Every mapping inside ``node`` (itself included), depth first."""
    if isinstance(node, Mapping):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list | tuple):
        for value in node:
            yield from walk(value)


def custom_hooks(files: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """Every ``custom`` hook named in effects or conditions: (kind, hook name, its ``says``)."""
    out = []
    for kind, data in sorted(_by_kind(files).items()):
        for node in walk(data):
            hook = node.get("custom")
            if isinstance(hook, str):
                out.append((kind, hook, str(node.get("says", ""))))
    return out


#: The mappings inside each node the cross-check looks ids up in, walked once per cross-check
#: (the check asks for many keys of the same files: one walk each would be as many passes).
_WALKED: dict[int, tuple[Any, list[Mapping[str, Any]]]] = {}


def _mappings(node: Any) -> list[Mapping[str, Any]]:
    found = _WALKED.get(id(node))
    if found is None or found[0] is not node:
        found = (node, list(walk(node)))
        _WALKED[id(node)] = found
    return found[1]


def _ids_at(node: Any, key: str) -> Iterator[str]:
    """Ids stored under ``key`` anywhere in ``node`` (a single id or a list of ids)."""
    for m in _mappings(node):
        value = m.get(key)
        if isinstance(value, str):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, str))


# --------------------------------------------------------------------------------------------
# Cross-file checks


def _by_kind(files: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, data in files.items():
        name = key.rsplit("/", 1)[-1]
        name = name[: -len(".yaml")] if name.endswith(".yaml") else name
        kind = data.get("kind", name) if isinstance(data, Mapping) else name
        out[str(kind)] = data
    return out


def cross_check(files: Mapping[str, object]) -> list[str]:
    """Check that the Betrayal component files agree with each other.

    ``files`` maps kind (``"rooms"``) or file name (``"betrayal/rooms.yaml"``) to the loaded data.
    Returns one line per problem, prefixed with the file it concerns; [] means consistent.
    Missing kinds are reported; checks that need them are skipped."""
    by_kind = _by_kind(files)
    problems: list[str] = [f"{k}.yaml: missing (no spec file of kind {k!r})" for k in KINDS if k not in by_kind]
    try:
        problems += _cross_check(by_kind)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        problems.append(f"cross-check stopped on malformed data: {exc!r}")
    finally:
        _WALKED.clear()
    return problems


def _dupes(ids: list[str]) -> list[str]:
    return sorted(i for i, n in Counter(ids).items() if n > 1)


def _cross_check(k: dict[str, Any]) -> list[str]:
    p: list[str] = []
    rooms = rooms_from(k["rooms"]) if "rooms" in k else []
    room_ids = {r.id for r in rooms}
    cards: dict[str, list[Card]] = {kind: cards_from(k[kind], t) for kind, t in CARD_KINDS.items() if kind in k}
    card_ids = {c.id for cs in cards.values() for c in cs}
    omen_ids = [c.id for c in cards.get("omens", [])]
    explorer_cards, explorers = explorers_from(k["explorers"]) if "explorers" in k else ([], [])
    components = components_from(k["components"]) if "components" in k else ()
    comp = {c.id: c for top in components for c in top.walk()}

    # unique ids
    for kind, ids in (("rooms", [r.id for r in rooms]), ("explorers", [e.id for e in explorers]),
                      *((kind, [c.id for c in cs]) for kind, cs in cards.items())):
        for d in _dupes(ids):
            p.append(f"{kind}.yaml: id {d!r} is used more than once")
    all_card_ids = [c.id for cs in cards.values() for c in cs]
    for d in _dupes(all_card_ids):
        p.append(f"omens/items/events.yaml: card id {d!r} appears in more than one card file")

    # rooms: connections, tiles, named rooms in effects
    if "rooms" in k:
        by_id = {r.id: r for r in rooms}
        for r in rooms:
            for conn in r.connections:
                if conn.to is not None and conn.to not in room_ids:
                    p.append(f"rooms.yaml: {r.id} connects to unknown room {conn.to!r}")
                elif conn.to is not None and conn.direction == "both":
                    back = [b for b in by_id[conn.to].connections if b.to == r.id and b.direction == "both"]
                    if not back:
                        p.append(f"rooms.yaml: {r.id} -> {conn.to} is two-way but {conn.to} has no connection back")
        for t in k["rooms"].get("tiles", []):
            members = [r for r in rooms if r.tile == t["id"]]
            if sorted(m.id for m in members) != sorted(t["rooms"]):
                p.append(f"rooms.yaml: tile {t['id']!r} lists {t['rooms']} but rooms on it are {[m.id for m in members]}")
        for r in rooms:
            if r.tile is not None and r.tile not in {t["id"] for t in k["rooms"].get("tiles", [])}:
                p.append(f"rooms.yaml: {r.id} is on unknown tile {r.tile!r}")
    known_places = room_ids
    for kind in ("rooms", *CARD_KINDS):
        if kind not in k or not rooms:
            continue
        for key in ("room", "in_room", "room_in_house", "among", "immune_to_rooms"):
            for rid in _ids_at(k[kind], key):
                if rid not in known_places:
                    p.append(f"{kind}.yaml: {key} names unknown room {rid!r}")
        if card_ids:
            for key in ("holds", "anyone_holds"):
                for cid in _ids_at(k[kind], key):
                    if cid not in card_ids:
                        p.append(f"{kind}.yaml: {key} names unknown card {cid!r}")

    # cards: weapon flag and weapon stats go together
    for kind, cs in cards.items():
        for card in cs:
            if card.is_weapon != (card.weapon is not None):
                p.append(f"{kind}.yaml: {card.id} weapon flag and weapon stats disagree")

    # explorers: cards pair up symmetrically; tracks have the declared length
    if "explorers" in k:
        by_e = {e.id: e for e in explorers}
        length = int(k["explorers"]["track_length"])
        for xcard in explorer_cards:
            for side in xcard.sides:
                if side not in by_e:
                    p.append(f"explorers.yaml: card {xcard.id} names unknown explorer {side!r}")
        for e in explorers:
            holders = [c for c in explorer_cards if e.id in c.sides]
            if len(holders) != 1 or holders[0].id != e.card:
                p.append(f"explorers.yaml: {e.id} says card {e.card!r} but is on {[c.id for c in holders]}")
            other = by_e.get(e.other_side)
            if other is None or other.other_side != e.id or other.card != e.card or other.id == e.id:
                p.append(f"explorers.yaml: {e.id} and its other side {e.other_side!r} do not pair up")
            if set(e.traits) != set(TRAITS):
                p.append(f"explorers.yaml: {e.id} must have exactly the traits {TRAITS}")
            for t, tr in e.traits.items():
                if len(tr.values) != length:
                    p.append(f"explorers.yaml: {e.id} {t} track has {len(tr.values)} values, expected {length}")
                if not 0 <= tr.start < len(tr.values):
                    p.append(f"explorers.yaml: {e.id} {t} start index {tr.start} is off the track")
                if list(tr.values) != sorted(tr.values):
                    p.append(f"explorers.yaml: {e.id} {t} track is not lowest-to-highest")
        for d in _dupes([c.colour for c in explorer_cards]):
            p.append(f"explorers.yaml: two cards share the colour {d!r}")

    # haunt chart: rows are omen rooms, columns omens, every haunt present
    if "haunt-chart" in k:
        chart = haunt_chart_from(k["haunt-chart"])
        if rooms:
            omen_rooms = {r.id for r in rooms if r.omen_room}
            for extra in sorted(set(chart.rows) - omen_rooms):
                p.append(f"haunt-chart.yaml: row {extra!r} is not an omen room of rooms.yaml")
            for gap in sorted(omen_rooms - set(chart.rows)):
                p.append(f"haunt-chart.yaml: omen room {gap!r} has no row")
        if len(k["haunt-chart"]["rows"]) != len(chart.rows):
            p.append("haunt-chart.yaml: a room has more than one row")
        if "omens" in k and sorted(chart.columns) != sorted(omen_ids):
            p.append(f"haunt-chart.yaml: columns {list(chart.columns)} are not the omens of omens.yaml")
        for room, row in chart.rows.items():
            if len(row) != len(chart.columns):
                p.append(f"haunt-chart.yaml: row {room!r} has {len(row)} cells for {len(chart.columns)} columns")
        expected = set(range(chart.first, chart.last + 1))
        for n in sorted(expected - chart.numbers()):
            p.append(f"haunt-chart.yaml: haunt {n} does not appear on the chart")
        for n in sorted(chart.numbers() - expected):
            p.append(f"haunt-chart.yaml: haunt {n} is outside {chart.first}..{chart.last}")
        for cell in k["haunt-chart"].get("cells", []):
            try:
                value = chart.haunt(cell["room"], cell["omen"])
            except (KeyError, ValueError):
                p.append(f"haunt-chart.yaml: cell note names {cell['room']!r} x {cell['omen']!r}, not on the chart")
                continue
            if value != cell["haunt"]:
                p.append(f"haunt-chart.yaml: cell note {cell['room']} x {cell['omen']} says {cell['haunt']}, chart has {value}")

        # traitor table covers exactly the chart's haunts
        if "traitors" in k:
            table, _ = traitors_from(k["traitors"])
            numbers = [h.haunt for h in table]
            for d in _dupes([str(n) for n in numbers]):
                p.append(f"traitors.yaml: haunt {d} is listed more than once")
            for n in sorted(expected - set(numbers)):
                p.append(f"traitors.yaml: haunt {n} has no traitor rule")
            for n in sorted(set(numbers) - expected):
                p.append(f"traitors.yaml: haunt {n} is not on the chart")
    if "traitors" in k and explorers:
        table, _ = traitors_from(k["traitors"])
        by_e = {e.id: e for e in explorers}
        for h in table:
            rule: TraitorRule | None = h.traitor
            while rule is not None:
                if rule.explorer is not None:
                    named = by_e.get(rule.explorer)
                    if named is None:
                        p.append(f"traitors.yaml: haunt {h.haunt} names unknown explorer {rule.explorer!r}")
                    elif rule.hobby is not None and rule.hobby not in named.hobbies:
                        p.append(
                            f"traitors.yaml: haunt {h.haunt} gives {rule.explorer} the hobby {rule.hobby!r},"
                            f" not one of {list(named.hobbies)}"
                        )
                rule = rule.otherwise

    # components: counts against the lists, figure colours, tokens named by cards and rooms
    if components:
        counts = {
            "rooms.yaml": {
                "room-tiles": sum(1 for r in rooms if r.tile is None),
                "stack-tiles": sum(1 for r in rooms if r.drawable),
                "landing-tiles": sum(1 for r in rooms if not r.drawable and r.tile is None),
                "starting-strip": len({r.tile for r in rooms if r.tile is not None}),
            },
            "explorers.yaml": {"character-cards": len(explorer_cards)},
            **{f"{kind}.yaml": {f"{CARD_KINDS[kind]}-cards": sum(c.copies for c in cs)} for kind, cs in cards.items()},
        }
        for cid, item in comp.items():
            for file, tally in counts.items():
                if cid in tally and item.count is not None and (file[:-5] in k) and tally[cid] != item.count:
                    p.append(f"components.yaml: {cid} counts {item.count}, {file} has {tally[cid]}")
        for item in comp.values():
            if item.parts and item.count is not None:
                total = sum(part.count or 0 for part in item.parts)
                if total != item.count:
                    p.append(f"components.yaml: {item.id} counts {item.count} but its parts add up to {total}")
            if item.names and item.count is not None and len(item.names) != item.count:
                p.append(f"components.yaml: {item.id} counts {item.count} but names {len(item.names)} tokens")
        figures = comp.get("explorer-figures")
        if figures is not None and explorer_cards and sorted(figures.colours) != sorted(c.colour for c in explorer_cards):
            p.append("components.yaml: figure colours differ from the character card colours")
        square = comp.get("event-room-tokens")
        if square is not None:
            for kind in ("rooms", *CARD_KINDS):
                if kind not in k:
                    continue
                used = set(_ids_at(k[kind], "token")) | set(_ids_at(k[kind], "remove_token"))
                used |= set(_ids_at(k[kind], "to_token")) | set(_ids_at(k[kind], "room_with_token"))
                used |= set(_ids_at(k[kind], "other_end_of"))
                for t in sorted(used - set(square.names)):
                    p.append(f"{kind}.yaml: token {t!r} is not among the square tokens of components.yaml")
    return p
