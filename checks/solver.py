"""Solver checks over the Betrayal haunt specs: what a haunt's setup and rules can ever do.

For every haunt file and every player count 3 to 6:

* **traitor** - the traitor rule (``traitors.yaml`` and the haunt file's own ``traitor``) picks
  exactly one explorer for every legal party: every choice of explorers with at most one side of
  each character card, every seating, every revealer and every value the compared trait can hold
  on the explorers' 8-value tracks, with the table's tie-break. The claim is proved with z3 (the
  negation is unsatisfiable) or a party that breaks it is printed. Hidden-traitor and no-traitor
  haunts must say so in both places.
* **box** - the monsters and tokens the haunt's setup and play can put out never exceed the counts
  in ``components.yaml`` (large and small monster tokens, item, square and trait-roll tokens).
* **rolls** - every roll with a target can succeed for some explorer that can be in the party
  (at most 8 dice; a die shows 0, 0, 1, 1, 2 or 2), fixed-dice rolls and bands can reach their
  numbers, and rolls that can never fail are noted.
* **goals** - a win or action that needs N tokens earned (or held) has N of them to be had and
  something that earns them; N monsters defeated needs N monsters.
* **tables** - player-count tables cover 3 to 6 with no gap or overlap; Turn/Damage stat rows have
  no gap or overlap either.
* **placement** - rooms and floors a placement names exist, enough rooms with the needed symbol or
  on the needed list exist, and ``min_tiles_from`` constraints fit on some house or declare a
  fallback.
* **chart** - the haunt chart is total over its 13 x 13 cells, every number has a traitor-table
  entry, and every haunt file agrees with the cells and table entry that point to it.

Every finding names the file, line and column of the spec value it is about. ``register()`` adds
the ``solver`` family to the verify report; ``lint_haunt`` runs the same checks on one file.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import z3

from hauntcheck.checks.verify import FAMILIES, Failure, FamilyResult, GameContext
from hauntcheck.engine.betrayal.hauntspec import BOOK_HAUNTS, is_draft
from hauntcheck.engine.spec import SPEC_ROOT, GameSpec, SpecError, SpecFile, Where

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


# --------------------------------------------------------------------------------------------
# The world: what the component specs say, in the shapes the checks need


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


# --------------------------------------------------------------------------------------------
# Traitor rules with z3


@dataclass(frozen=True)
class TraitorVerdict:
    """The result of proving a traitor rule at one player count: None if it always picks exactly
    one explorer, else a message and the counterexample party."""

    players: int
    problem: str | None = None
    counterexample: str | None = None
    #: The breaking party: (explorer id, compared value or None) per seat, revealer first.
    party: tuple[tuple[str, int | None], ...] = ()
    picks: tuple[int, ...] = ()


def describe_rule(rule: Mapping[str, Any]) -> str:
    kind = str(rule.get("rule"))
    text = kind
    if rule.get("trait"):
        text += f" {rule['trait']}"
    if rule.get("except_revealer"):
        text += " (not the revealer)"
    if kind == "explorer":
        text = f"{rule.get('explorer')} if playing"
        fallback = rule.get("else")
        text += f", else {describe_rule(fallback)}" if isinstance(fallback, Mapping) else ", else no one"
    return text


class _Party:
    """z3 variables for a party of ``n`` explorers seated in order, the revealer in seat 0.

    Seat k is k places to the revealer's left (P1 is the revealer, P2 sits to P1's left...).
    Fixing the revealer's seat loses nothing: seating is circular, so every seating and revealer
    is a rotation of one with the revealer first. Explorers are numbered so that the two sides of
    a card are 2c and 2c+1; "one side of each card" is then Distinct(x // 2)."""

    def __init__(self, world: World, n: int) -> None:
        self.world = world
        self.n = n
        self.x = [z3.Int(f"x{s}") for s in range(n)]
        cards = sorted({e.card for e in world.explorers})
        self.pairs = all(
            world.explorers[2 * i].card == c and world.explorers[2 * i + 1].card == c for i, c in enumerate(cards)
        ) and len(world.explorers) == 2 * len(cards)
        self.base: list[Any] = [z3.And(v >= 0, v < len(world.explorers)) for v in self.x]
        if self.pairs:
            self.base.append(z3.Distinct([v / 2 for v in self.x]))
        else:
            card_of = {i: cards.index(e.card) for i, e in enumerate(world.explorers)}
            cvars = [z3.Int(f"c{s}") for s in range(n)]
            for s in range(n):
                self.base.append(z3.Or([z3.And(self.x[s] == i, cvars[s] == c) for i, c in card_of.items()]))
            self.base.append(z3.Distinct(cvars))
        self.values: dict[str, list[Any]] = {}

    def value(self, what: str) -> list[Any]:
        """Per seat, the compared number: a trait's current value (any value on the explorer's
        track) or the printed age."""
        if what not in self.values:
            vs = [z3.Int(f"{what}{s}") for s in range(self.n)]
            for s in range(self.n):
                options = []
                for i, e in enumerate(self.world.explorers):
                    allowed = sorted(set(e.tracks.get(what, ()))) if what != "age" else [e.age]
                    if allowed:
                        options.append(z3.And(self.x[s] == i, z3.Or([vs[s] == v for v in allowed])))
                self.base.append(z3.Or(options) if options else z3.BoolVal(False))
            self.values[what] = vs
        return self.values[what]

    def playing(self, explorer: str) -> Any:
        ids = [i for i, e in enumerate(self.world.explorers) if e.id == explorer]
        return z3.Or([v == i for v in self.x for i in ids]) if ids else z3.BoolVal(False)

    def seat_of(self, explorer: str, s: int) -> Any:
        ids = [i for i, e in enumerate(self.world.explorers) if e.id == explorer]
        return z3.Or([self.x[s] == i for i in ids]) if ids else z3.BoolVal(False)


def _chosen(party: _Party, rule: Mapping[str, Any], tie: TieBreak) -> list[Any]:
    """Per seat, a z3 Bool: the rule picks that seat. Several may be true where the rule and its
    tie-break leave a tie; none where the rule names no one."""
    n = party.n
    kind = str(rule.get("rule"))
    if kind == "haunt-revealer":
        return [z3.BoolVal(s == 0) for s in range(n)]
    if kind == "left-of-revealer":
        return [z3.BoolVal(s == 1 % n) for s in range(n)]
    if kind in ("hidden", "none"):
        return [z3.BoolVal(False) for _ in range(n)]
    if kind == "explorer":
        present = party.playing(str(rule.get("explorer")))
        fallback = rule.get("else")
        other = _chosen(party, fallback, tie) if isinstance(fallback, Mapping) else [z3.BoolVal(False)] * n
        return [z3.If(present, party.seat_of(str(rule.get("explorer")), s), other[s]) for s in range(n)]
    what = "age" if kind in ("oldest", "youngest") else str(rule.get("trait"))
    higher = kind in ("highest", "oldest")
    vals = party.value(what)
    cand = [not (bool(rule.get("except_revealer")) and s == 0) for s in range(n)]
    best = z3.Int(f"best_{kind}_{what}_{id(rule)}")
    party.base.append(z3.And([(vals[s] <= best) if higher else (vals[s] >= best) for s in range(n) if cand[s]]))
    party.base.append(z3.Or([vals[s] == best for s in range(n) if cand[s]]))
    tied = [z3.And(z3.BoolVal(cand[s]), vals[s] == best) for s in range(n)]
    chosen = list(tied)
    if kind in tie.applies_to:
        for step in tie.order:
            if step == "revealer-if-tied":
                # The revealer, when tied, wins outright; other tied seats drop out.
                chosen = [z3.And(chosen[s], z3.Or(z3.Not(chosen[0]), z3.BoolVal(s == 0))) for s in range(n)]
            elif step == "nearest-to-revealers-left":
                # Seat order is the order to the revealer's left: the first still tied wins.
                chosen = [z3.And(chosen[s], *[z3.Not(chosen[t]) for t in range(s)]) for s in range(n)]
    return chosen


def prove_traitor_rule(world: World, rule: Mapping[str, Any], players: int) -> TraitorVerdict:
    """Prove that ``rule`` picks exactly one explorer for every legal party of ``players``, or
    return the party (seat order from the revealer leftwards, trait values) that breaks it."""
    return _prove_cached(world, _freeze(rule), players)


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple) and all(isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str) for x in value):
        return {k: _thaw(v) for k, v in value}
    return value


@lru_cache(maxsize=4096)
def _prove_cached(world: World, frozen: Any, players: int) -> TraitorVerdict:
    rule = _thaw(frozen)
    kind = str(rule.get("rule"))
    if kind in ("haunt-revealer", "left-of-revealer"):
        # One fixed seat in every party: true by construction, no search needed.
        return TraitorVerdict(players)
    party = _Party(world, players)
    chosen = _chosen(party, rule, world.tie_break)
    solver = z3.Solver()
    solver.add(*party.base)
    # The proof below is "no legal party breaks the rule"; make sure legal parties exist at all,
    # or it would hold vacuously.
    if solver.check() != z3.sat:
        cards = len({e.card for e in world.explorers})
        return TraitorVerdict(players, f"no legal party of {players} exists to apply the traitor rule '{describe_rule(rule)}' to "
                              f"({cards} character cards in explorers.yaml, or a compared trait missing from a track)")
    picked = z3.Sum([z3.If(c, 1, 0) for c in chosen])
    solver.add(picked != 1)
    if solver.check() != z3.sat:
        return TraitorVerdict(players)
    model = solver.model()
    seats = [model.eval(v, model_completion=True).as_long() for v in party.x]
    picks = [s for s in range(players) if z3.is_true(model.eval(chosen[s], model_completion=True))]
    shown = []
    for s, idx in enumerate(seats):
        e = world.explorers[idx]
        bits = [f"{t} {model.eval(party.values[t][s], model_completion=True)}" for t in sorted(party.values) if t != "age"]
        if "age" in party.values:
            bits.append(f"age {e.age}")
        label = f"P{s + 1}{' (revealer)' if s == 0 else ''}: {e.name}"
        shown.append(label + (f" [{', '.join(bits)}]" if bits else ""))
    party_text = f"{players} players, seated leftwards from the revealer: " + "; ".join(shown)
    if picks:
        problem = f"can leave {len(picks)} explorers tied ({', '.join(f'P{s + 1}' for s in picks)}) with no tie-break settling it"
    else:
        problem = "can pick no explorer"
    compared = [t for t in sorted(party.values) if t != "age"]
    structured = tuple(
        (world.explorers[idx].id, model.eval(party.values[compared[0]][s], model_completion=True).as_long() if compared else None)
        for s, idx in enumerate(seats)
    )
    return TraitorVerdict(players, f"the traitor rule '{describe_rule(rule)}' {problem}", party_text, structured, tuple(picks))


def pick_traitor(world: World, rule: Mapping[str, Any], party: Sequence[tuple[str, Mapping[str, int]]]) -> list[int]:
    """The seats the z3 encoding of ``rule`` picks for one given party: (explorer id, current
    trait values) per seat, the revealer first and then leftwards. Used to cross-check the
    engine's own traitor selection."""
    seated = _Party(world, len(party))
    chosen = _chosen(seated, rule, world.tie_break)
    solver = z3.Solver()
    solver.add(*seated.base)
    index = {e.id: i for i, e in enumerate(world.explorers)}
    for s, (explorer, values) in enumerate(party):
        solver.add(seated.x[s] == index[explorer])
        for trait, vs in seated.values.items():
            if trait != "age" and trait in values:
                solver.add(vs[s] == values[trait])
    if solver.check() != z3.sat:
        raise ValueError("not a legal party (two sides of one card, or a value off its track)")
    model = solver.model()
    return [s for s in range(len(party)) if z3.is_true(model.eval(chosen[s], model_completion=True))]


def traitor_findings(world: World, file: SpecFile, rule: Mapping[str, Any], path: PathKey,
                     haunt_kind: str | None, report: SolverReport) -> None:
    """Check one traitor rule (from traitors.yaml or a haunt file) at every player count."""
    kind = str(rule.get("rule"))
    where = file.where(path)
    allowed = KIND_RULES.get(haunt_kind or "traitor", PICKING)
    if haunt_kind == "traitor" and kind == "none" and rule.get("later"):
        allowed = allowed | {"none"}  # traitors appear during the haunt (the rule says how)
    if haunt_kind is not None and kind not in allowed:
        report.findings.append(Finding("traitor", where, f"haunt_kind {haunt_kind!r} does not fit the traitor rule {kind!r} "
                                       f"(expected one of: {', '.join(sorted(allowed))})"))
        return
    if kind not in PICKING:
        report.count("traitor")
        return
    broken = []
    for n in PLAYER_COUNTS:
        verdict = prove_traitor_rule(world, rule, n)
        report.count("traitor")
        if verdict.problem is not None:
            broken.append(verdict)
    if broken:
        counts = ", ".join(str(v.players) for v in broken)
        first = broken[0]
        report.findings.append(Finding("traitor", where, f"at {counts} players {first.problem}", first.counterexample))


# --------------------------------------------------------------------------------------------
# Walking a haunt file


def walk(node: Any, path: PathKey = ()) -> Iterator[tuple[PathKey, Mapping[str, Any]]]:
    """Every mapping in ``node`` with its path, depth first in file order."""
    if isinstance(node, Mapping):
        yield path, node
        for key, value in node.items():
            yield from walk(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, (*path, i))


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
        if value["of"] in ("turn-track", "movement-roll", "monsters-in-room"):
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


# --------------------------------------------------------------------------------------------
# The box suffices


def _part_name(part: Mapping[str, Any]) -> str:
    return str(part.get("name", part.get("id"))).lower()


def _acknowledged(file: SpecFile, part: Mapping[str, Any]) -> Where | None:
    """A mark (unverified/judgement) in the haunt that already names this component's shortage:
    the words of the component's name, e.g. 'item tokens'. The finding is then a note."""
    name = _part_name(part)
    words = [w for w in re.findall(r"[a-z]+", name) if w not in ("large", "small", "circular", "pentagonal", "square", "triangular")]
    needle = " ".join(words[-2:])
    for mark in file.marks():
        if mark.kind in ("unverified", "judgement") and needle and needle in mark.note.lower():
            return mark.where
    return None


def token_needs(data: Mapping[str, Any], players: int) -> tuple[dict[str, int], dict[str, PathKey], list[str]]:
    """How many of each token kind the haunt can have out at once for a player count, with the
    path of the step that needs the most, and notes for amounts known only in play.

    A token kind's need is the largest of: what is set aside for it, what its monsters count
    (a placed monster uses its token), and the sum of what is placed, dealt or swapped in for it.
    Steps repeated during play are counted once (the books reuse set-aside tokens)."""
    tokens = {str(t["id"]): t for t in data.get("tokens", ()) if isinstance(t, Mapping)}
    monster_token = {str(m["id"]): str(m.get("token")) for m in data.get("monsters", ()) if isinstance(m, Mapping)}
    aside: dict[str, int] = {}
    placed: dict[str, int] = {}
    monsters: dict[str, int] = {}
    where: dict[str, tuple[int, PathKey]] = {}
    notes: list[str] = []

    def note_where(token: str, n: int, path: PathKey) -> None:
        if token not in where or n > where[token][0]:
            where[token] = (n, path)

    for index, m in enumerate(data.get("monsters", ())):
        if not isinstance(m, Mapping):
            continue
        count = amount(data, m.get("count", 1), players)
        kind = str(m.get("token"))
        if count is None:
            notes.append(f"monster {m.get('id')!r}: count known only in play")
            continue
        monsters[kind] = monsters.get(kind, 0) + count
        note_where(kind, count, ("monsters", index, "count" if "count" in m else "token"))
    for path, node in walk(data):
        if path[:1] in (("tokens",), ("monsters",), ("tables",)):
            continue
        for verb, bucket in (("set_aside", aside), ("place", placed), ("deal", placed)):
            step = node.get(verb)
            if not isinstance(step, Mapping):
                continue
            token: Any = step.get("token")
            if token is None and step.get("monster") is not None:
                if verb == "place":
                    continue  # counted through the monster's own count
                token = monster_token.get(str(step["monster"]))
            if not isinstance(token, str):
                continue
            count = amount(data, step.get("count", 1), players)
            if count is None:
                notes.append(f"{'.'.join(str(p) for p in path)}: count known only in play")
                continue
            bucket[token] = bucket.get(token, 0) + count if bucket is placed else max(bucket.get(token, 0), count)
            note_where(token, count, (*path, verb))
        swap = node.get("replace_with_token")
        if isinstance(swap, str):
            placed[swap] = placed.get(swap, 0) + 1
            note_where(swap, 1, (*path, "replace_with_token"))
    need = {t: max(aside.get(t, 0), placed.get(t, 0), monsters.get(t, 0)) for t in tokens}
    return need, {t: where[t][1] if t in where else ("tokens",) for t in tokens}, notes


def box_findings(world: World, file: SpecFile, report: SolverReport) -> None:
    """The tokens a haunt needs, per component (and colour, trait or printed name), fit the box.
    A shortfall found at several player counts is reported once (its counterexample is the largest
    player count's)."""
    found = SolverReport()
    _box_findings(world, file, found)
    report.checked["box"] = report.checked.get("box", 0) + found.checked.get("box", 0)
    groups: dict[tuple[str, str, str], list[tuple[str, str, Finding]]] = {}
    for f in found.findings:
        match = re.match(r"at (\d) players the haunt needs (\d+) (.*)$", f.message)
        if match is None:
            report.findings.append(f)
            continue
        key = (str(f.where), match.group(3), f.severity)
        groups.setdefault(key, []).append((match.group(1), match.group(2), f))
    for (_, rest, _), items in groups.items():
        counts = ", ".join(p for p, _, _ in items)
        needs = sorted({int(n) for _, n, _ in items})
        amount_text = str(needs[0]) if len(needs) == 1 else f"up to {needs[-1]}"
        f0 = items[-1][2]
        report.findings.append(Finding(f0.check, f0.where, f"at {counts} players the haunt needs {amount_text} {rest}",
                                       f0.counterexample, f0.severity))


def _box_findings(world: World, file: SpecFile, report: SolverReport) -> None:
    data = file.data
    tokens = {str(t["id"]): t for t in data.get("tokens", ()) if isinstance(t, Mapping)}
    for players in PLAYER_COUNTS:
        need, where, _notes = token_needs(data, players)
        report.count("box")
        by_part: dict[str, list[tuple[str, int]]] = {}
        for token, n in need.items():
            if n:
                by_part.setdefault(str(tokens[token].get("component")), []).append((token, n))
        for component, uses in sorted(by_part.items()):
            part = world.parts.get(component)
            if part is None or not isinstance(part.get("count"), int):
                continue
            total = sum(n for _, n in uses)
            names = part.get("names")
            if isinstance(names, list):
                for token, n in uses:
                    printed = tokens[token].get("name")
                    if printed is not None and n > names.count(printed):
                        report.findings.append(Finding(
                            "box", file.where(where[token]),
                            f"at {players} players the haunt needs {n} '{printed}' square tokens; the box has {names.count(printed)}",
                            f"{players} players: {token} x{n}"))
            if total <= int(part["count"]):
                continue
            worst = max(uses, key=lambda u: (u[1], u[0]))[0]
            detail = ", ".join(f"{t} x{n} (line {file.where(where[t]).line})" for t, n in sorted(uses))
            message = (f"at {players} players the haunt needs {total} {_part_name(part)}; "
                       f"components.yaml counts {part['count']}")
            known = _acknowledged(file, part)
            if known is not None:
                report.findings.append(Finding("box", file.where(where[worst]), f"{message} (acknowledged at {known})",
                                               f"{players} players: {detail}", severity="note"))
            else:
                report.findings.append(Finding("box", file.where(where[worst]), message, f"{players} players: {detail}"))
    # The colour and trait splits of small monster and trait-roll tokens are not printed: say
    # what the haunt needs so a reader can check it against a real box.
    for players in (6,):
        need, _, _ = token_needs(data, players)
        split: dict[str, int] = {}
        for token, n in need.items():
            t = tokens[token]
            key = t.get("colour") or t.get("trait")
            if key and n:
                label = f"{key} {'monster' if t.get('colour') else 'trait-roll'} tokens"
                split[label] = split.get(label, 0) + n
        for label, n in sorted(split.items()):
            kinds = 7 if "monster" in label else 4
            part = world.parts.get("small-monster-tokens" if "monster" in label else "trait-roll-tokens", {})
            even = int(part.get("count", 0)) // kinds
            if n > even:
                report.findings.append(Finding("box", file.where(("tokens",)), f"needs up to {n} {label} at 6 players; an even "
                                               f"split of the box would give {even} (the split is not printed)", severity="note"))


# --------------------------------------------------------------------------------------------
# Rolls can succeed


def best_dice(world: World, roll: Mapping[str, Any]) -> tuple[int, str] | None:
    """The most dice any explorer that can be in the party rolls for ``roll`` (capped at 8),
    with how it was found; None for opposed rolls (they have no fixed target)."""
    if "dice" in roll and isinstance(roll["dice"], int):
        return min(MAX_DICE, int(roll["dice"])), f"{roll['dice']} dice"
    if "trait" in roll and isinstance(roll["trait"], str):
        traits: list[str] = [roll["trait"]]
    elif "trait_choice" in roll:
        traits = [str(t) for t in roll["trait_choice"]]
    elif roll.get("each_trait"):
        # Every trait must pass: the explorer whose weakest best trait is strongest.
        best, who = 0, ""
        for e in world.explorers:
            low = min(max(e.tracks.get(t, (0,))) for t in TRAITS)
            if low > best:
                best, who = low, e.name
        return min(MAX_DICE, best), f"every trait (best weakest trait: {who}, {best})"
    else:
        return None
    best, how = 0, ""
    for e in world.explorers:
        for t in traits:
            top = max(e.tracks.get(t, (0,)))
            if top > best:
                best, how = top, f"{t} (highest value {top}, {e.name})"
    return min(MAX_DICE, best), how


def roll_findings(world: World, file: SpecFile, report: SolverReport) -> None:
    """Every roll with a target can succeed; band ranges can be rolled; never-failing rolls noted."""
    data = file.data
    for path, node in walk(data):
        roll = node.get("roll")
        if not isinstance(roll, Mapping):
            continue
        rpath = (*path, "roll")
        dice = best_dice(world, roll)
        if dice is None:
            continue
        count, how = dice
        top = 2 * count
        report.count("rolls")
        if "target" in roll:
            seen: set[tuple[int, str]] = set()
            for players in PLAYER_COUNTS:
                target = amount(data, roll["target"], players)
                if target is None:
                    continue
                if target > top and (target, "fail") not in seen:
                    seen.add((target, "fail"))
                    at = f" at {players} players" if not isinstance(roll["target"], int) else ""
                    report.findings.append(Finding(
                        "rolls", file.where((*rpath, "target")),
                        f"roll needs {target}+{at} but no explorer can roll more than {top} ({how}: {count} dice of 0-2)",
                        f"best possible roll: {count} dice all showing 2 = {top} < {target}"))
                elif target <= 0 and (target, "note") not in seen:
                    seen.add((target, "note"))
                    report.findings.append(Finding("rolls", file.where((*rpath, "target")),
                                                   f"roll of {target}+ can never fail", severity="note"))
        for i, band in enumerate(roll.get("bands", ()) if isinstance(roll.get("bands"), list) else ()):
            low = band.get("min") if isinstance(band, Mapping) else None
            if isinstance(low, int) and low > top:
                report.findings.append(Finding("rolls", file.where((*rpath, "bands", i, "min")),
                                               f"band {low}+ can never be rolled (at most {top} with {count} dice)"))


# --------------------------------------------------------------------------------------------
# Goals: what a win or an action needs is there to be had


def _earned_tokens(data: Mapping[str, Any]) -> set[str]:
    """Token kinds some outcome earns or takes (``earn``, ``take_token``)."""
    out: set[str] = set()
    for _path, node in walk(data):
        earn = node.get("earn")
        if isinstance(earn, Mapping):
            if isinstance(earn.get("token"), str):
                out.add(earn["token"])
            out.update(t for t in earn.get("tokens", ()) if isinstance(t, str))
        if isinstance(node.get("take_token"), str):
            out.add(node["take_token"])
    return out


def _converted_tokens(data: Mapping[str, Any]) -> dict[str, set[str]]:
    """Token kinds an outcome list turns into others: a ``discard_token`` of X and an ``earn`` of Y
    in one list (a Paint token thrown into the Pentagram Chamber becomes a thrown one): Y -> {X}."""
    out: dict[str, set[str]] = {}
    for _path, node in walk(data):
        for key in ("do", "success"):
            outcomes = node.get(key)
            if not isinstance(outcomes, list):
                continue
            spent = {o["discard_token"] for o in outcomes if isinstance(o, Mapping) and isinstance(o.get("discard_token"), str)}
            for o in outcomes:
                earn = o.get("earn") if isinstance(o, Mapping) else None
                if spent and isinstance(earn, Mapping) and isinstance(earn.get("token"), str):
                    out.setdefault(earn["token"], set()).update(spent)
    return out


def goal_findings(file: SpecFile, report: SolverReport) -> None:
    """Token and monster counts a predicate asks for can be reached: a win needing N tokens
    earned has N of them to earn and some task earns them; N monsters defeated needs N monsters."""
    data = file.data
    earned = _earned_tokens(data)
    converted = _converted_tokens(data)
    monster_counts = {str(m["id"]): m.get("count", 1) for m in data.get("monsters", ()) if isinstance(m, Mapping)}
    for path, node in walk(data):
        for key in ("tokens_collected", "holds_tokens"):
            want = node.get(key)
            if not isinstance(want, Mapping):
                continue
            kinds = [want["token"]] if isinstance(want.get("token"), str) else [t for t in want.get("tokens", ()) if isinstance(t, str)]
            report.count("goals")
            where = file.where((*path, key))
            for kind in kinds:
                if key == "tokens_collected" and kind not in earned:
                    report.findings.append(Finding("goals", where,
                                                   f"{key} counts {kind!r} tokens, but nothing in the haunt earns or takes one"))
            for players in PLAYER_COUNTS:
                need = amount(data, want.get("count"), players)
                out_now = token_needs(data, players)[0]
                have = sum(out_now.get(k, 0) + sum(out_now.get(x, 0) for x in converted.get(k, ()) if x not in kinds)
                           for k in kinds)
                if need is not None and need > have:
                    report.findings.append(Finding(
                        "goals", where, f"at {players} players {key} needs {need} {'/'.join(kinds)} token(s); only {have} can be out",
                        f"{players} players: set aside, placed or dealt {have}"))
                    break
        beaten = node.get("monsters_defeated")
        if isinstance(beaten, Mapping) and isinstance(beaten.get("monster"), str):
            report.count("goals")
            for players in PLAYER_COUNTS:
                wanted = amount(data, beaten.get("count"), players)
                exist = amount(data, monster_counts.get(beaten["monster"], 0), players)
                if wanted is not None and exist is not None and wanted > exist:
                    report.findings.append(Finding(
                        "goals", file.where((*path, "monsters_defeated")),
                        f"at {players} players the haunt needs {wanted} {beaten['monster']} defeated; only {exist} exist"))
                    break


# --------------------------------------------------------------------------------------------
# Player-count tables


def table_findings(file: SpecFile, report: SolverReport) -> None:
    """Player-count tables give one value for each of 3..6; stat rows by track have no gaps."""
    data = file.data
    for i, table in enumerate(data.get("tables", ())):
        if not isinstance(table, Mapping):
            continue
        values = table.get("values", {})
        report.count("tables")
        keys: dict[int, list[Any]] = {}
        for k in values if isinstance(values, Mapping) else ():
            try:
                keys.setdefault(int(k), []).append(k)
            except (TypeError, ValueError):
                report.findings.append(Finding("tables", file.where(("tables", i, "values", k)),
                                               f"table {table.get('id')!r}: {k!r} is not a player count"))
        for n, ks in sorted(keys.items()):
            if len(ks) > 1:
                report.findings.append(Finding("tables", file.where(("tables", i, "values")),
                                               f"table {table.get('id')!r} gives {n} players twice"))
        missing = [n for n in PLAYER_COUNTS if n not in keys]
        extra = sorted(n for n in keys if n not in PLAYER_COUNTS)
        if missing:
            report.findings.append(Finding("tables", file.where(("tables", i, "values")),
                                           f"table {table.get('id')!r} has no value for {', '.join(map(str, missing))} players"))
        if extra:
            report.findings.append(Finding("tables", file.where(("tables", i, "values")),
                                           f"table {table.get('id')!r} gives values for {', '.join(map(str, extra))} players "
                                           "(Betrayal is 3-6)"))
    for m_index, monster in enumerate(data.get("monsters", ())):
        rows = monster.get("stats_by_track") if isinstance(monster, Mapping) else None
        if not isinstance(rows, list):
            continue
        report.count("tables")
        tracks = [r.get("track") for r in rows if isinstance(r, Mapping)]
        base = ("monsters", m_index, "stats_by_track")
        for j, (a, b) in enumerate(itertools.pairwise(tracks)):
            if isinstance(a, int) and isinstance(b, int) and b != a + 1:
                what = "repeats" if b <= a else "skips"
                report.findings.append(Finding("tables", file.where((*base, j + 1, "track")),
                                               f"monster {monster.get('id')!r}: stat rows {what} track values ({a} then {b})"))
        for j, row in enumerate(rows[:-1]):
            if isinstance(row, Mapping) and row.get("and_above"):
                report.findings.append(Finding("tables", file.where((*base, j, "and_above")),
                                               f"monster {monster.get('id')!r}: only the last stat row may say 'and above'"))


# --------------------------------------------------------------------------------------------
# Placement


def placement_findings(world: World, file: SpecFile, report: SolverReport) -> None:
    """Placement constraints fit some reachable house, or declare a fallback."""
    data = file.data
    number = data.get("number")
    haunt_floors: list[str] = []
    if isinstance(number, int):
        haunt_floors = sorted({f for r in world.haunt_rooms(number) for f in world.room_floors.get(r, ())})
    for path, node in walk(data):
        for verb in ("place", "fetch_room"):
            step = node.get(verb)
            if not isinstance(step, Mapping):
                continue
            loc = step.get("in") if verb == "place" else step.get("place")
            if not isinstance(loc, Mapping):
                continue
            lpath = (*path, verb, "in" if verb == "place" else "place")
            report.count("placement")
            _check_location(world, file, data, step, loc, lpath, haunt_floors, report)


def _check_location(world: World, file: SpecFile, data: Mapping[str, Any], step: Mapping[str, Any], loc: Mapping[str, Any],
                    lpath: PathKey, haunt_floors: list[str], report: SolverReport) -> None:
    rooms = world.room_floors
    named = [loc["room"]] if isinstance(loc.get("room"), str) else [r for r in loc.get("rooms", ()) if isinstance(r, str)]
    for r in named:
        if r not in rooms:
            key = "room" if "room" in loc else "rooms"
            report.findings.append(Finding("placement", file.where((*lpath, key)), f"no room {r!r} in rooms.yaml"))
    floor = loc.get("floor")
    floors: list[str] = list(FLOORS)
    if isinstance(floor, str) and floor in FLOORS:
        floors = [floor]
    if loc.get("same_floor_as") == "haunt-room" and haunt_floors:
        floors = [f for f in floors if f in haunt_floors]
    counts = [amount(data, step.get("count", 1), n) for n in PLAYER_COUNTS]
    most = max((c for c in counts if c is not None), default=1)
    overflow = "overflow" in loc or loc.get("on_discovery") or "fallback" in loc
    if named and loc.get("one_per_room") and most > len(set(named)) and not overflow:
        report.findings.append(Finding("placement", file.where((*lpath, "rooms")),
                                       f"{most} placed one per room in only {len(set(named))} named rooms, with no overflow rule"))
    if isinstance(floor, str) and named:
        off = [r for r in named if r in rooms and floor not in rooms[r]]
        if off and len(off) == len(named):
            report.findings.append(Finding("placement", file.where((*lpath, "floor")),
                                           f"none of {', '.join(off)} can be on the {floor} floor"))
    symbol = loc.get("symbol")
    if isinstance(symbol, str):
        fitting = [r for r, fl in rooms.items() if world.room_symbols.get(r) == symbol and any(f in fl for f in floors)]
        needed = most if loc.get("one_per_room") else 1
        if len(fitting) < needed and not overflow:
            report.findings.append(Finding("placement", file.where((*lpath, "symbol")),
                                           f"needs {needed} {symbol}-symbol room(s) on {'/'.join(floors)}; only {len(fitting)} exist"))
    far = loc.get("min_tiles_from")
    if isinstance(far, Mapping) and isinstance(far.get("tiles"), int):
        tiles = int(far["tiles"])
        # A path of `tiles` steps on one floor needs tiles + 1 rooms that can lie on that floor.
        room_count = {f: sum(1 for fl in rooms.values() if f in fl) for f in floors}
        fits = [f for f, c in room_count.items() if c >= tiles + 1]
        if not fits:
            if "fallback" in loc:
                report.findings.append(Finding("placement", file.where((*lpath, "min_tiles_from")),
                                               f"{tiles} tiles apart cannot happen on {'/'.join(floors)}; the fallback "
                                               f"{loc['fallback']!r} always applies", severity="note"))
            else:
                report.findings.append(Finding("placement", file.where((*lpath, "min_tiles_from")),
                                               f"{tiles} tiles apart cannot happen on {'/'.join(floors)} and no fallback is declared"))
        elif "fallback" not in loc:
            report.findings.append(Finding("placement", file.where((*lpath, "min_tiles_from")),
                                           f"{tiles} tiles apart fits some house but not every one; no fallback is declared",
                                           severity="note"))


# --------------------------------------------------------------------------------------------
# The haunt chart and the haunt files' identity


def chart_findings(world: World, report: SolverReport) -> None:
    """The chart is total over its cells and every number on it has a traitor-table entry."""
    file = world.chart_file
    if file is None:
        return
    data = file.data
    columns = data.get("columns", [])
    first, last = int(data.get("haunts", {}).get("first", 1)), int(data.get("haunts", {}).get("last", 50))
    omen_rooms = sorted(r for r, s in world.room_symbols.items() if s == "omen")
    rows = {str(row.get("room")): (i, row) for i, row in enumerate(data.get("rows", ()))}
    for room in omen_rooms:
        report.count("chart")
        if room not in rows:
            report.findings.append(Finding("chart", file.where(("rows",)),
                                           f"omen room {room!r} has no row: {len(columns)} cells are missing"))
    for room, (i, row) in rows.items():
        cells = row.get("haunts", [])
        if len(cells) != len(columns):
            report.findings.append(Finding("chart", file.where(("rows", i, "haunts")),
                                           f"row {room!r} has {len(cells)} cells for {len(columns)} omen columns"))
        for j, n in enumerate(cells):
            report.count("chart")
            if not isinstance(n, int) or not first <= n <= last:
                omen = columns[j] if j < len(columns) else j
                report.findings.append(Finding("chart", file.where(("rows", i, "haunts", j)),
                                               f"cell {room} x {omen} holds {n!r}, not a haunt {first}-{last}"))
            elif world.traitors_file is not None and n not in world.traitors:
                report.findings.append(Finding("chart", file.where(("rows", i, "haunts", j)), f"haunt {n} has no entry in traitors.yaml"))
    total = len(omen_rooms) * len(columns)
    filled = sum(1 for room in omen_rooms if room in rows for _ in rows[room][1].get("haunts", [])[: len(columns)])
    if filled != total:
        report.findings.append(Finding("chart", file.where(("rows",)), f"the chart fills {filled} of its {total} cells"))
    numbers = {n for n in world.chart_cells.values()}
    for n in range(first, last + 1):
        if n not in numbers:
            report.findings.append(Finding("chart", file.where(("haunts",)), f"haunt {n} is reached by no chart cell"))


_NAME = re.compile(r"^(\d+)-(.+)\.yaml$")


def identity_findings(world: World, file: SpecFile, report: SolverReport) -> None:
    """A haunt file agrees with the chart cells and the traitor-table entry that point to it."""
    data = file.data
    number = data.get("number")
    report.count("chart")
    if is_draft(data):
        draft_findings(world, file, report)
        return
    for key in ("sources", "chart"):
        if key in data:
            report.findings.append(Finding("chart", file.where((key,)), f"only a designer's draft (numbered above "
                                           f"{BOOK_HAUNTS}, or not at all) has its own {key}: the book's haunts use "
                                           "spec/sources.yaml and the haunt chart"))
    if "traitors_tome" not in (data.get("cite") or {}):
        report.findings.append(Finding("chart", file.where(("cite",)), "a haunt of the book cites where its Traitor's "
                                       "Tome and Secrets of Survival sides are printed (traitors_tome, secrets_of_survival)"))
    assert isinstance(number, int)
    cells = [(r, o) for (r, o), n in world.chart_cells.items() if n == number]
    if world.chart_file is not None and not cells:
        report.findings.append(Finding("chart", file.where(("number",)), f"no haunt chart cell leads to haunt {number}"))
    entry = world.traitors.get(number)
    if entry is None:
        if world.traitors_file is not None:
            report.findings.append(Finding("chart", file.where(("number",)), f"traitors.yaml has no entry for haunt {number}"))
        return
    title, rule, tpath = entry
    assert world.traitors_file is not None
    if str(data.get("title")) != title:
        report.findings.append(Finding("chart", file.where(("title",)),
                                       f"title {data.get('title')!r} differs from traitors.yaml's {title!r} "
                                       f"({world.traitors_file.where(tpath[:2])}) for haunt {number}"))
    if _freeze(data.get("traitor")) != _freeze(rule):
        report.findings.append(Finding("traitor", file.where(("traitor",)),
                                       f"traitor rule '{describe_rule(data.get('traitor') or {})}' differs from traitors.yaml's "
                                       f"'{describe_rule(rule)}' ({world.traitors_file.where(tpath)})"))
    match = _NAME.match(file.path.name)
    if match and int(match.group(1)) != number:
        report.findings.append(Finding("chart", file.where(("number",)),
                                       f"file name says haunt {int(match.group(1))} but number is {number}"))
    if match and isinstance(data.get("slug"), str) and match.group(2) != data["slug"]:
        report.findings.append(Finding("chart", file.where(("slug",)),
                                       f"file name says slug {match.group(2)!r} but slug is {data['slug']!r}"))


def draft_findings(world: World, file: SpecFile, report: SolverReport) -> None:
    """A designer's draft: it lives outside the bundled spec, and its own chart place (if any)
    is a cell of the chart (an omen room and an omen card)."""
    data = file.data
    bundled = SPEC_ROOT / "betrayal" / "haunts"
    if file.path.resolve().parent == bundled.resolve():
        report.findings.append(Finding("chart", file.where(("number",) if "number" in data else ()),
                                       f"the haunts of spec/betrayal/haunts are the book's, numbered 1-{BOOK_HAUNTS}; "
                                       "a designer's draft lives outside the package"))
    place = data.get("chart")
    if isinstance(place, Mapping) and world.chart_file is not None:
        rooms = {r for r, _ in world.chart_cells}
        omens = {o for _, o in world.chart_cells}
        if place.get("room") not in rooms:
            report.findings.append(Finding("chart", file.where(("chart", "room")),
                                           f"{place.get('room')!r} is not a room of the haunt chart: {', '.join(sorted(rooms))}"))
        if place.get("omen") not in omens:
            report.findings.append(Finding("chart", file.where(("chart", "omen")),
                                           f"{place.get('omen')!r} is not an omen of the haunt chart: {', '.join(sorted(omens))}"))


# --------------------------------------------------------------------------------------------
# Entry points


def check_haunt(file: SpecFile, world: World) -> SolverReport:
    """Every solver check of one haunt file."""
    report = SolverReport()
    data = file.data
    if isinstance(data.get("traitor"), Mapping):
        traitor_findings(world, file, data["traitor"], ("traitor",), str(data.get("haunt_kind")), report)
    box_findings(world, file, report)
    roll_findings(world, file, report)
    goal_findings(file, report)
    table_findings(file, report)
    placement_findings(world, file, report)
    identity_findings(world, file, report)
    return report


def check_game(spec: GameSpec) -> SolverReport:
    """The solver checks over a whole game spec: the chart, every traitor-table rule, every haunt."""
    world = world_of(spec)
    report = SolverReport()
    chart_findings(world, report)
    if world.traitors_file is not None:
        for _number, (_title, rule, path) in sorted(world.traitors.items()):
            traitor_findings(world, world.traitors_file, rule, path, None, report)
    for file in sorted(spec.by_kind("haunt"), key=lambda f: f.display):
        report.extend(check_haunt(file, world))
    return report


_WORLDS: list[tuple[GameSpec, World]] = []


def _world_cached(spec: GameSpec) -> World:
    """world_of, kept for the last few specs (lint checks many files against one spec)."""
    for known, world in _WORLDS:
        if known is spec:
            return world
    world = world_of(spec)
    _WORLDS[:] = [*_WORLDS[-3:], (spec, world)]
    return world


def lint_haunt(spec_file: SpecFile, game_spec: GameSpec) -> list[SpecError]:
    """The solver checks of one haunt file against a game's component specs, as SpecErrors
    (notes are left out: lint reports what must be fixed)."""
    if spec_file.kind != "haunt":
        return []
    world = _world_cached(game_spec)
    report = check_haunt(spec_file, world)
    out = []
    for f in report.errors:
        message = f"[{f.check}] {f.message}" + (f"\n    counterexample: {f.counterexample}" if f.counterexample else "")
        out.append(SpecError(f.where, message))
    return out


def family_solver(ctx: GameContext) -> FamilyResult:
    """The verify family: the solver checks over a game's haunts (Betrayal only)."""
    result = FamilyResult("solver", ctx.game)
    if ctx.spec is None:
        result.skipped = "spec did not load"
        return result
    if not ctx.spec.by_kind("haunt") and not ctx.spec.by_kind("traitors"):
        result.applies = False
        return result
    report = check_game(ctx.spec)
    result.checked = sum(report.checked.values())
    result.failures = [Failure(f"[{f.check}] {f}", counterexample=f.counterexample) for f in report.errors]
    result.notes = [f"{k}: {v} claims checked" for k, v in sorted(report.checked.items())]
    result.notes += [f"[{f.check}] {f}" + (f" ({f.counterexample})" if f.counterexample else "") for f in report.notes]
    return result


def register() -> None:
    """Add the solver family to the verify report (once)."""
    if not any(name == "solver" for name, _ in FAMILIES):
        FAMILIES.append(("solver", family_solver))


register()
