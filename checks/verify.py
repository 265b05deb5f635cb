"""The verify report: every family of checks over every bundled game, with counts and times.

A family is a function from a game to a :class:`FamilyResult`. Families are listed in
``FAMILIES``; later checks (graphs, solvers, scenarios) add themselves there, so ``hauntcheck
verify`` picks them up with no change to the report.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hauntcheck.checks.output import Check, Location, Problem, Run, display_path, slug, split_location
from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.games import GameDef, GoldenCase, available_games, game_spec, get_game, rule_id_errors, rulebook
from hauntcheck.engine.spec import SPEC_ROOT, GameSpec, Mark, SpecError, SpecErrors

SCENARIO_ROOT = Path(__file__).resolve().parent.parent / "scenarios"

#: The clock a report's seconds are read from (``benchmarks/bench_verify.py`` reads CPU time).
CLOCK: Callable[[], float] = time.perf_counter


@dataclass
class Failure:
    """A failed check: what is wrong, where, and optionally a replayable counterexample."""

    message: str
    counterexample: str | None = None
    #: Where the problem is, when known apart from the message (else read from its start).
    where: Location | None = None

    @classmethod
    def of(cls, error: SpecError, counterexample: str | None = None) -> Failure:
        """A spec error as a failure, its position kept as a structured location."""
        text = error.message + "".join(f"\n  {where}: note: {note}" for where, note in error.related)
        where = Location(display_path(error.where.file), error.where.line, error.where.column)
        return cls(text, counterexample, where)


@dataclass
class FamilyResult:
    family: str
    game: str
    checked: int = 0
    failures: list[Failure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    skipped: str | None = None
    #: False when the family has nothing to check in this game (left out of the report).
    applies: bool = True

    @property
    def ok(self) -> bool:
        return not self.failures


@dataclass
class GameContext:
    """What the families get: the game, its loaded spec (None if it failed to load)."""

    game: str
    definition: GameDef | None
    spec: GameSpec | None
    spec_errors: list[str]
    #: The folder holding the game's transcripts and scenarios (``<scenarios>/<game>``).
    scenario_root: Path = SCENARIO_ROOT


Family = Callable[[GameContext], FamilyResult]


def family_spec(ctx: GameContext) -> FamilyResult:
    """Every spec file loads safely and validates against its schema; citations name sources."""
    result = FamilyResult("spec", ctx.game)
    result.failures = [Failure(e) for e in ctx.spec_errors]
    if ctx.spec is not None:
        result.checked = len(ctx.spec.files)
    return result


def family_rules(ctx: GameContext) -> FamilyResult:
    """Rule ids are unique and every id the engine's source names is defined in rules.yaml."""
    result = FamilyResult("rules", ctx.game)
    if ctx.spec is None or ctx.definition is None:
        result.skipped = "spec or engine did not load"
        return result
    result.failures = [Failure.of(e) for e in rule_id_errors(ctx.spec)]
    book = rulebook(ctx.spec)
    used = engine_rule_references(ctx.game)
    for rule_id, where in sorted(used.items()):
        if rule_id not in book:
            result.failures.append(Failure(f"{where}: the engine cites rule {rule_id!r}, which {ctx.game}'s rules.yaml does not define"))
    result.checked = len(book.rules) + len(used)
    result.notes.append(f"{len(book.rules)} rule clauses; the engine cites {len(used)} of them by id")
    return result


def family_xref(ctx: GameContext) -> FamilyResult:
    """Cross-references between spec files (a name used in one file is defined in another)."""
    result = FamilyResult("cross-references", ctx.game)
    if ctx.spec is None or ctx.definition is None:
        result.skipped = "spec or engine did not load"
        return result
    errors = ctx.definition.cross_check(ctx.spec)
    result.failures = [Failure.of(e) for e in errors]
    result.checked = len(ctx.spec.files)
    result.notes.extend(ctx.definition.notices(ctx.spec))
    return result


def golden_file(game: str, case: GoldenCase) -> Path:
    """Where a golden case's transcript lives (under the game's own scenario folder, if it has one)."""
    root = get_game(game).scenario_root or SCENARIO_ROOT
    return root / game / case.folder / f"{case.name}.yaml"


def golden_files(definition: GameDef) -> list[Path]:
    """Every transcript in the folders the game's golden cases use (so a transcript left behind
    by a removed case is still replayed, and noticed)."""
    folders = sorted({golden_file(definition.id, case).parent for case in definition.golden})
    return sorted(path for folder in folders if folder.is_dir() for path in folder.glob("*.yaml"))


def family_golden(ctx: GameContext) -> FamilyResult:
    """Every golden case has a transcript, and every transcript replays clean in strict mode."""
    result = FamilyResult("golden replay", ctx.game)
    if ctx.spec is None or ctx.definition is None:
        result.skipped = "spec or engine did not load"
        return result
    bundled = ctx.scenario_root == (ctx.definition.scenario_root or SCENARIO_ROOT)
    for case in ctx.definition.golden if bundled else ():
        if not golden_file(ctx.game, case).is_file():
            result.failures.append(
                Failure(f"golden case {case.name!r} has no transcript; make it with `hauntcheck golden --update {ctx.game}/{case.name}`")
            )
    paths = golden_files(ctx.definition) if bundled else transcript_files(ctx.scenario_root / ctx.game)
    spec_hash = ctx.spec.content_hash()
    for path in paths:
        result.checked += 1
        try:
            # Lazily: only a step whose event lines differ from the engine's is read. A file that
            # does not replay is read in full first, so that a mistake in it is named as before.
            replayed = replay_transcript(transcripts.read(path, lazy_events=True), ctx.definition, ctx.spec, spec_hash=spec_hash)
            if not replayed.ok:
                transcripts.read(path)
        except SpecErrors as exc:
            result.failures.extend(Failure.of(e) for e in exc.errors)
            continue
        if not replayed.ok and replayed.divergence is not None:
            shown = display_path(path)
            result.failures.append(Failure(replayed.divergence.render(shown), counterexample=shown))
    return result


def transcript_files(folder: Path) -> list[Path]:
    """Every transcript under a folder (scenarios kept beside them are left out)."""
    return [p for p in sorted(folder.rglob("*.yaml")) if transcripts.is_transcript(p)] if folder.is_dir() else []


def replay_transcript(log: transcripts.Transcript, definition: GameDef, spec: GameSpec, strict: bool = True,
                      spec_hash: str | None = None) -> transcripts.ReplayResult:
    """Replay a transcript on a fresh game from its header. ``spec_hash``: the spec's content hash,
    when the caller has it already (hashing the spec's text costs a millisecond per transcript)."""
    from hauntcheck.engine.setup import start_from_header

    state = start_from_header(log, definition, spec)
    return transcripts.replay(log, state, strict=strict, spec_hash=spec_hash or spec.content_hash())


def family_scenarios(ctx: GameContext) -> FamilyResult:
    """Every dispute scenario shipped for the game passes, and applies the rules it cites."""
    from hauntcheck.engine.scenario import ScenarioRun, load_scenario, scenario_files

    result = FamilyResult("scenarios", ctx.game)
    if ctx.spec is None or ctx.definition is None:
        result.skipped = "spec or engine did not load"
        return result
    folder = ctx.scenario_root / ctx.game
    for path in scenario_files(folder) if folder.is_dir() else []:
        result.checked += 1
        shown = display_path(path)
        try:
            outcome = ScenarioRun(load_scenario(path, shown), ctx.definition, ctx.spec).run()
        except SpecErrors as exc:
            result.failures.extend(Failure.of(e) for e in exc.errors)
            continue
        result.failures.extend(Failure(f, counterexample=shown) for f in outcome.failures)
    return result


FAMILIES: list[tuple[str, Family]] = [
    ("spec", family_spec),
    ("rules", family_rules),
    ("cross-references", family_xref),
    ("golden replay", family_golden),
    ("scenarios", family_scenarios),
]

#: Modules that add families to FAMILIES when imported (graph, solver and scenario checks).
FAMILY_MODULES: tuple[str, ...] = ("hauntcheck.checks.solver", "hauntcheck.checks.graph", "hauntcheck.checks.vocabulary")


#: Calls through which engine code cites a rule id as its first argument (a string literal).
RULE_CALLS = frozenset({"event", "emit", "_ev", "_emit", "rule"})


def engine_rule_references(game: str) -> dict[str, str]:
    """Rule ids named as string literals in the game's engine source, as the first argument of
    the calls in RULE_CALLS (``rules.event("move.speed", ...)``, ``self.emit(...)``), with the
    first place each is named (``file:line``)."""
    return dict(engine_source(game).rule_references)


@dataclass(frozen=True)
class EngineSource:
    """What the checks read of a game's engine source, from one parse of each file."""

    #: Every string literal, docstrings (any constant standing alone as a statement) left out.
    strings: frozenset[str]
    #: Rule ids cited as the first argument of a call in RULE_CALLS, with the first place each is cited.
    rule_references: dict[str, str]


#: The last reading of each game's engine source, with the files' (path, mtime, size) it was read from.
_SOURCES: dict[str, tuple[tuple[tuple[str, int, int], ...], EngineSource]] = {}


def engine_source(game: str) -> EngineSource:
    """The game's engine source as the rules and vocabulary families read it, parsed once per
    process while no file of it changes."""
    files = engine_source_files(game)
    stamp = tuple((str(file), stat.st_mtime_ns, stat.st_size) for file in files for stat in (file.stat(),))
    cached = _SOURCES.get(game)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    strings: set[str] = set()
    found: dict[str, str] = {}
    for file in files:
        standalone: set[int] = set()
        for node in _nodes(ast.parse(file.read_text(encoding="utf-8"))):  # breadth first: a statement before its value
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                standalone.add(id(node.value))
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in standalone:
                strings.add(node.value)
            elif (
                isinstance(node, ast.Call)
                and _callee(node.func) in RULE_CALLS
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.setdefault(node.args[0].value, f"{display_path(file)}:{node.lineno}:{node.col_offset + 1}")
    source = EngineSource(frozenset(strings), found)
    _SOURCES[game] = (stamp, source)
    return source


def _nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` in the order of ``ast.walk`` (breadth first, each node's children in
    the order of its fields), gathered in one list: ``ast.walk``'s generators cost more than the
    checks made on the nodes."""
    found = [tree]
    for node in found:  # the list grows behind the loop: breadth first
        for name in node._fields:
            child = getattr(node, name, None)
            if isinstance(child, ast.AST):
                found.append(child)
            elif isinstance(child, list):
                found.extend(item for item in child if isinstance(item, ast.AST))
    return found


def engine_source_files(game: str) -> list[Path]:
    """The Python files of the game's engine: its module, or every file of its package."""
    from hauntcheck.engine.games import game_modules

    spec = importlib.util.find_spec(game_modules()[game].partition(":")[0])
    if spec is None or spec.origin is None:
        return []
    origin = Path(spec.origin)
    return sorted(origin.parent.rglob("*.py")) if origin.name == "__init__.py" else [origin]


def _callee(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def load_context(game: str, root: Path = SPEC_ROOT, scenario_root: Path = SCENARIO_ROOT) -> GameContext:
    """A game's context; an outside game's own folders stand in for the bundled defaults."""
    problems: list[str] = []
    definition: GameDef | None = None
    try:
        definition = get_game(game)
    except Exception as exc:  # a broken game module is a failed check, not a crash of the report
        problems.append(f"the {game} engine module failed to load: {type(exc).__name__}: {exc}")
    if definition is not None and root == SPEC_ROOT and definition.spec_root is not None:
        root = definition.spec_root
    if definition is not None and scenario_root == SCENARIO_ROOT and definition.scenario_root is not None:
        scenario_root = definition.scenario_root
    try:
        spec = game_spec(game, root)
    except SpecErrors as exc:
        return GameContext(game, definition, None, problems + [str(e) for e in exc.errors], scenario_root)
    return GameContext(game, definition, spec, problems, scenario_root)


@dataclass
class Report:
    results: list[FamilyResult]
    marks: dict[str, list[Mark]]
    counts: dict[str, dict[str, int]]
    seconds: float

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.results)

    def to_run(self) -> Run:
        """The report in the common result model (one check per game and family)."""
        checks = []
        for r in self.results:
            family_id = slug(r.family)
            fallback = Location(f"spec/{r.game}")
            problems = [failure_problem(f, family_id, fallback) for f in r.failures]
            checks.append(Check(f"{r.game}/{family_id}", f"{r.game} {r.family}", r.game, r.checked, problems, r.seconds, r.skipped,
                                list(r.notes), {"game": r.game, "family": r.family}))
        marks = {
            game: [{"where": str(m.where), "location": Location(display_path(m.where.file), m.where.line, m.where.column).to_data(),
                    "kind": m.kind, "path": m.path, "note": m.note} for m in marks]
            for game, marks in self.marks.items()
        }
        return Run("verify", checks, self.seconds, {"counts": self.counts, "marks": marks})


_CHECK_TAG = re.compile(r"^\[(?P<check>[\w.-]+)\] ")


def failure_problem(failure: Failure, family_id: str, fallback: Location) -> Problem:
    """A family's failure as a problem: the check id is the family's, refined by a ``[check]``
    tag at the start of the message (the solver's), and the location is the failure's own or the
    ``file:line:col:`` the message starts with."""
    message, check = failure.message, family_id
    tagged = _CHECK_TAG.match(message)
    if tagged:
        check = f"{family_id}.{tagged['check']}"
        message = message[tagged.end():]
    if failure.where is not None:
        location = failure.where
    else:
        location, message = split_location(message, fallback)
    return Problem(check, message, location, counterexample=failure.counterexample)


def families() -> Iterator[tuple[str, Family]]:
    for module in FAMILY_MODULES:
        importlib.import_module(module)
    yield from FAMILIES


class UnknownFamily(LookupError):
    """A family name that no family has (the message lists the names)."""


def family_names() -> list[str]:
    return [name for name, _ in families()]


def resolve_families(names: list[str]) -> set[str]:
    """Family names as given (``golden replay`` or its id ``golden-replay``) as the families'
    names; an unknown one raises UnknownFamily listing the valid names."""
    known = family_names()
    by_id = {slug(name): name for name in known}
    out = set()
    for name in names:
        found = name if name in known else by_id.get(slug(name))
        if found is None:
            listing = ", ".join(f"{n!r}" + (f" ({slug(n)})" if slug(n) != n else "") for n in known)
            raise UnknownFamily(f"unknown family {name!r}; families: {listing}")
        out.add(found)
    return out


def run(games: list[str] | None = None, only: set[str] | None = None, progress: Callable[[str], None] | None = None,
        spec_root: Path = SPEC_ROOT, scenario_root: Path = SCENARIO_ROOT) -> Report:
    """Run every family over every game (or the ones named), over the bundled spec and scenario
    folders or a project's own."""
    start = CLOCK()
    results: list[FamilyResult] = []
    marks: dict[str, list[Mark]] = {}
    counts: dict[str, dict[str, int]] = {}
    if only:
        only = resolve_families(sorted(only))
    for game in games or available_games():
        ctx = load_context(game, spec_root, scenario_root)
        if ctx.spec is not None:
            marks[game] = ctx.spec.marks()
            counts[game] = spec_counts(ctx.spec)
        for name, family in families():
            if only and name not in only:
                continue
            if progress:
                progress(f"{game}: {name}")
            t0 = CLOCK()
            try:
                result = family(ctx)
            except Exception as exc:  # a crashing check is a failure of that check, reported with where it broke
                frame = traceback.extract_tb(exc.__traceback__)[-1]
                place = f"{Path(frame.filename).name}:{frame.lineno}"
                crash = Failure(f"the check crashed at {place}: {type(exc).__name__}: {exc}",
                                where=Location(display_path(frame.filename), frame.lineno or 0))
                result = FamilyResult(name, game, failures=[crash])
            result.seconds = CLOCK() - t0
            if result.applies:
                results.append(result)
    return Report(results, marks, counts, CLOCK() - start)


def spec_counts(spec: GameSpec) -> dict[str, int]:
    """How many entries each spec kind holds: the files, for kinds written one file per entry
    (haunts), else the length of the file's main (largest) top-level list."""
    counts: dict[str, int] = {}
    for kind in sorted({f.kind for f in spec.files.values()}):
        files = spec.by_kind(kind)
        if len(files) > 1:
            counts[kind] = len(files)
            continue
        lists = [len(v) for v in files[0].data.values() if isinstance(v, list)]
        counts[kind] = max(lists) if lists else 1
    counts["custom effects"] = sum(1 for _ in _customs(spec))
    return counts


def _customs(spec: GameSpec) -> Iterator[str]:
    def walk(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            if isinstance(node.get("custom"), str):
                yield node["custom"]
            for value in node.values():
                yield from walk(value)
        elif isinstance(node, list):
            for value in node:
                yield from walk(value)

    for file in spec.files.values():
        yield from walk(file.data)
