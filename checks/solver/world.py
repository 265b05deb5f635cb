"""What the solver checks read: findings and their report, the world of the component specs, and
walking a haunt file.

A :class:`Finding` is one result (an error, or a note worth knowing) at the file, line and column
of the spec value it is about; a :class:`SolverReport` collects them with the number of claims each
check made. The :class:`World` holds the parts of a loaded Betrayal spec the checks need: the
explorers and their trait tracks, the traitor table's tie-break, the chart, the box's component
counts, the rooms and their floors (:func:`world_of`). :func:`walk` visits every mapping of a haunt
file with its path; :func:`amount` reads a number the haunt vocabulary names (fixed, by player
count, from a table) for each player count.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hauntcheck.engine.spec import GameSpec, SpecFile, Where

PLAYER_COUNTS: tuple[int, ...] = (3, 4, 5, 6)


TRAITS: tuple[str, ...] = ("might", "speed", "sanity", "knowledge")


FLOORS: tuple[str, ...] = ("ground", "upper", "basement")


MAX_DICE = 8


#: Traitor rules that pick one explorer; the others name no one at the reveal.
PICKING = frozenset({"haunt-revealer", "left-of-revealer", "highest", "lowest", "oldest", "youngest", "explorer"})


#: What each haunt kind requires of its traitor rule at the reveal.
KIND_RULES: dict[str, frozenset[str]] = {
    "traitor": PICKING,
    "hidden-traitor": frozenset({"hidden"}),
    "no-traitor": frozenset({"none"}),
    "competitive": frozenset({"none", "hidden"}),
}


PathKey = tuple[str | int, ...]


@dataclass(frozen=True)
class Finding:
    """One result of a solver check: an error (the check failed) or a note (worth knowing)."""

    check: str
    where: Where
    message: str
    counterexample: str | None = None
    severity: str = "error"

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class SolverReport:
    findings: list[Finding] = field(default_factory=list)
    #: How many claims each check established (one per haunt file and player count, or per rule).
    checked: dict[str, int] = field(default_factory=dict)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def notes(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "note"]

    def count(self, check: str, n: int = 1) -> None:
        self.checked[check] = self.checked.get(check, 0) + n

    def extend(self, other: SolverReport) -> None:
        self.findings.extend(other.findings)
        for k, v in other.checked.items():
            self.count(k, v)


@dataclass(frozen=True)
class ExplorerInfo:
    id: str
    name: str
    card: str
    age: int
    tracks: Mapping[str, tuple[int, ...]]


@dataclass(frozen=True)
class TieBreak:
    applies_to: frozenset[str]
    order: tuple[str, ...]


@dataclass(frozen=True, eq=False)
class World:
    """The parts of a loaded Betrayal spec the solver checks read."""

    explorers: tuple[ExplorerInfo, ...]  # ordered by card, two sides of a card next to each other
    tie_break: TieBreak
    traitors: Mapping[int, tuple[str, Mapping[str, Any], PathKey]]  # number -> (title, rule, path)
    traitors_file: SpecFile | None
    parts: Mapping[str, Mapping[str, Any]]  # token component parts by id
    room_floors: Mapping[str, tuple[str, ...]]
    room_symbols: Mapping[str, str]
    chart_file: SpecFile | None
    chart_cells: Mapping[tuple[str, str], int]

    def haunt_rooms(self, number: int) -> list[str]:
        return sorted({room for (room, _), n in self.chart_cells.items() if n == number})


def _files_of(spec: GameSpec, kind: str) -> list[SpecFile]:
    return sorted(spec.by_kind(kind), key=lambda f: f.display)


def world_of(spec: GameSpec) -> World:
    """Read the component specs (explorers, traitors, components, rooms, chart) of a game spec."""
    explorers: list[ExplorerInfo] = []
    for file in _files_of(spec, "explorers"):
        for e in file.data.get("explorers", ()):
            tracks = {t: tuple(int(v) for v in e["traits"][t]["values"]) for t in TRAITS if t in e.get("traits", {})}
            explorers.append(ExplorerInfo(str(e["id"]), str(e["name"]), str(e["card"]), int(e["age"]), tracks))
    explorers.sort(key=lambda x: (x.card, x.id))
    tie = TieBreak(frozenset(), ())
    traitors: dict[int, tuple[str, Mapping[str, Any], PathKey]] = {}
    traitors_file = None
    for file in _files_of(spec, "traitors"):
        traitors_file = file
        tb = file.data.get("tie_break") or {}
        tie = TieBreak(frozenset(tb.get("applies_to", ())), tuple(tb.get("order", ())))
        for i, h in enumerate(file.data.get("haunts", ())):
            traitors[int(h["haunt"])] = (str(h["title"]), h["traitor"], ("haunts", i, "traitor"))
    parts: dict[str, Mapping[str, Any]] = {}

    def visit(entries: Sequence[Any]) -> None:
        for entry in entries:
            if isinstance(entry, Mapping):
                if entry.get("category") in ("token", "figure"):  # a figure may stand for a token (a corpse)
                    parts[str(entry["id"])] = entry
                visit(entry.get("parts", ()))

    for file in _files_of(spec, "components"):
        visit(file.data.get("components", ()))
    floors: dict[str, tuple[str, ...]] = {}
    symbols: dict[str, str] = {}
    for file in _files_of(spec, "rooms"):
        for r in file.data.get("rooms", ()):
            floors[str(r["id"])] = tuple(r.get("floors", ()))
            symbols[str(r["id"])] = str(r.get("symbol", "none"))
    chart_file = None
    cells: dict[tuple[str, str], int] = {}
    for file in _files_of(spec, "haunt-chart"):
        chart_file = file
        columns = file.data.get("columns", [])
        for row in file.data.get("rows", ()):
            for omen, n in zip(columns, row.get("haunts", ()), strict=False):
                cells[(str(row["room"]), str(omen))] = int(n)
    return World(tuple(explorers), tie, traitors, traitors_file, parts, floors, symbols, chart_file, cells)


def walk(node: Any, path: PathKey = ()) -> Iterator[tuple[PathKey, Mapping[str, Any]]]:
    """Every mapping in ``node`` with its path, depth first in file order."""
    # A stack rather than nested generators: each value yielded from a nested generator passes
    # through every level above it, and a haunt file nests a dozen deep.
    # Plain values hold no mapping: they are not put on the stack at all (most of a file's values).
    todo: list[tuple[PathKey, Any]] = [(path, node)]
    while todo:
        where, value = todo.pop()
        if isinstance(value, Mapping):
            yield where, value
            todo.extend(reversed([((*where, key), item) for key, item in value.items() if type(item) not in _PLAIN]))
        elif isinstance(value, list):
            todo.extend(reversed([((*where, index), item) for index, item in enumerate(value) if type(item) not in _PLAIN]))


#: The types of plain values, which :func:`walk` passes over.
_PLAIN: frozenset[type] = frozenset({str, int, float, bool, type(None)})


def _tables(data: Mapping[str, Any]) -> dict[str, Mapping[Any, Any]]:
    return {str(t["id"]): t.get("values", {}) for t in data.get("tables", ()) if isinstance(t, Mapping) and "id" in t}


def amount(data: Mapping[str, Any], value: Any, players: int) -> int | None:
    """An amount at setup for a player count: a number, a table entry or a formula. Formulas of
    heroes or explorers are bounded by the player count; None when the amount is known only in
    play (the Turn/Damage track) or is not a number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if not isinstance(value, Mapping):
        return None
    if "table" in value:
        values = _tables(data).get(str(value["table"]), {})
        got = values.get(str(players), values.get(players)) if isinstance(values, Mapping) else None
        return got if isinstance(got, int) and not isinstance(got, bool) else None
    if "of" in value:
        if value["of"] in ("turn-track", "movement-roll", "monsters-in-room", "fight-margin", "task-roll", "rooms-with-symbol",
                          "tokens-in-house", "heroes-alive") or "plus_of" in value:
            return None  # known only in play
        base = players
        result = base * int(value.get("times", 1)) + int(value.get("plus", 0))
        div = int(value.get("div", 1))
        if div > 1:
            result = -(-result // div) if value.get("round") == "up" else result // div
        if "max" in value:
            result = min(result, int(value["max"]))
        return result
    return None
