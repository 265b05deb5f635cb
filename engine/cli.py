"""The ``hauntcheck`` command line.

Exit status: 0 all good, 1 a check or replay failed, 2 the input was wrong (a spec, transcript or
option a user gave), 3 hauntcheck itself failed on the input (reported in one line; set
HAUNTCHECK_TRACEBACK=1 for the traceback); a user's mistake never prints a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import json
import os
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table as RichTable

from hauntcheck import __version__
from hauntcheck.checks.output import FORMATS, Check, Location, Problem, Run, display_path, render
from hauntcheck.engine import setup
from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.config import ConfigError, ProjectConfig
from hauntcheck.engine.config import load as load_config
from hauntcheck.engine.core import CHANCE, GameState
from hauntcheck.engine.games import GameDef, GoldenCase, UnknownGame, available_games, game_spec, get_game
from hauntcheck.engine.picture import INSTALL_HINT
from hauntcheck.engine.play import Controller, FirstLegal, PolicyController, play, seeded_table
from hauntcheck.engine.spec import SPEC_ROOT, GameSpec, SpecErrors
from hauntcheck.engine.transcript import Step, TranscriptHeader

EXAMPLES = """\
examples:
  hauntcheck verify                         run every check over the bundled specs
  hauntcheck verify haunted --format junit  the checks of one game as JUnit XML (also json, github, sarif)
  hauntcheck lint spec/betrayal/haunts/03-frog-leg-stew.yaml   check spec files (or folders) as a designer would
  hauntcheck play betrayal --players 4 --seed 7 --stop reveal --out game.yaml --quiet
  hauntcheck replay game.yaml               re-apply a transcript and check every step
  hauntcheck golden haunted                 check the golden transcripts of a game are up to date
  hauntcheck dispute scenarios/betrayal/disputes/front-door-is-locked.yaml --svg b.svg
  hauntcheck report game.yaml --at 40       turn step 40 of a game into a scenario skeleton
  hauntcheck balance betrayal --haunt 5 --games 200 --jobs 2 --out study/  who wins haunt 5, how often
  hauntcheck view scenarios/betrayal/haunts/01-the-mummy-walks/haunt-1-heroes-4p-seed-71.yaml --html game.html
  hauntcheck COMMAND --help                 the options and examples of one command
"""


class UsageError(Exception):
    """A mistake in how the command was called (exit status 2)."""


def _console(stream: Any = None) -> Console:
    return Console(file=stream or sys.stdout, highlight=False, soft_wrap=True)


# --------------------------------------------------------------------------------------------
# verify


def cmd_verify(args: argparse.Namespace) -> int:
    from hauntcheck.checks import verify

    config = project_config()
    games = [*args.games, *(args.game or [])] or config.games or None
    for game in games or []:
        get_game(game)
    families = args.family or config.families
    spec_root = _folder(args.spec, "--spec") or config.spec or SPEC_ROOT
    scenario_root = _folder(args.scenarios, "--scenarios") or config.scenarios or verify.SCENARIO_ROOT
    fmt = output_format(args, config)
    try:
        only = verify.resolve_families(families) if families else None
    except verify.UnknownFamily as exc:
        raise UsageError(str(exc)) from None
    if games is None and spec_root != SPEC_ROOT:
        games = [g for g in available_games() if (spec_root / g).is_dir()]
        if not games:
            raise UsageError(f"--spec {spec_root}: no folder named after a game ({', '.join(available_games())})")
    err = _console(sys.stderr)
    progress = None if fmt != "text" or not err.is_terminal else (lambda msg: err.print(f"[dim]... {msg}[/dim]"))
    report = verify.run(games, only, progress, spec_root, scenario_root)
    run = report.to_run()
    if not run.checks:
        raise UsageError(f"nothing to check: no family of {', '.join(sorted(only or []))} applies to {', '.join(games or [])}")
    if fmt != "text":
        print(render(run, fmt), end="")
        return 0 if run.ok else 1
    out = _console()
    table = RichTable(title="hauntcheck verify")
    for column in ("game", "family", "checked", "failed", "seconds"):
        table.add_column(column, justify="right" if column in ("checked", "failed", "seconds") else "left")
    for r in report.results:
        failed = "skipped" if r.skipped else str(len(r.failures))
        table.add_row(r.game, r.family, str(r.checked), failed, f"{r.seconds:.2f}")
    out.print(table)
    for game, counts in report.counts.items():
        shown = ", ".join(f"{n} {kind}" for kind, n in counts.items())
        out.print(f"[bold]{game}[/bold] spec holds: {shown}")
    for r in report.results:
        for note in r.notes:
            out.print(f"  {r.game} {r.family}: {note}")
    for game, marks in report.marks.items():
        if not marks:
            continue
        by_kind: dict[str, int] = {}
        for mark in marks:
            by_kind[mark.kind] = by_kind.get(mark.kind, 0) + 1
        summary = ", ".join(f"{n} {k}" for k, n in sorted(by_kind.items()))
        out.print(f"[bold]{game}[/bold] marks ({summary}):")
        for mark in marks:
            if args.all_marks or mark.kind == "unverified":
                out.print(f"  {mark.where} {mark.kind} {mark.path}: {mark.note}")
    failures = [(r, f) for r in report.results for f in r.failures]
    for r, f in failures:
        out.print(f"[red]FAIL[/red] {r.game} {r.family}: {f.message}")
        if f.counterexample:
            out.print(f"  counterexample: {f.counterexample}")
    if not run.checked:
        verdict = "[red]nothing was checked[/red] (not a pass)"
    else:
        verdict = "[green]all checks passed[/green]" if run.ok else f"[red]{len(failures)} failure(s)[/red]"
    out.print(f"{verdict} in {report.seconds:.1f}s")
    return 0 if run.ok else 1


def project_config() -> ProjectConfig:
    try:
        return load_config()
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def output_format(args: argparse.Namespace, config: ProjectConfig | None = None) -> str:
    """The format asked for: --format, else --json, else the project's, else text."""
    if getattr(args, "format", None):
        return str(args.format)
    if getattr(args, "json", False):
        return "json"
    config = config or project_config()
    return config.format or "text"


def _folder(name: str | None, option: str) -> Path | None:
    if name is None:
        return None
    path = Path(name)
    if not path.is_dir():
        raise UsageError(f"{option} {name}: no such folder")
    return path.resolve()


def _inputs(names: Sequence[str], keep: Callable[[Path], bool], what: str) -> list[tuple[Path, str]]:
    from hauntcheck.checks.runs import NothingToCheck, expand

    try:
        return expand(names, keep, what)
    except NothingToCheck as exc:
        raise UsageError(str(exc)) from None


def _finish(command: str, checks: list[Check], fmt: str, started: float) -> int:
    """Print a non-text run and give the exit status (0 only when something was checked and passed)."""
    run = Run(command, checks, time.perf_counter() - started)
    if fmt != "text":
        print(render(run, fmt), end="")
    return 0 if run.ok else 1


# --------------------------------------------------------------------------------------------
# lint


def cmd_lint(args: argparse.Namespace) -> int:
    from hauntcheck.checks.runs import lint_checks
    from hauntcheck.engine.lint import lint

    started = time.perf_counter()
    fmt = output_format(args)
    files = _inputs(args.files, lambda p: True, "YAML files")
    # The files given together are one change (see engine/lint.py), whatever the format.
    result = lint([name for _, name in files])
    if fmt != "text":
        return _finish("lint", lint_checks(files, result.errors), fmt, started)
    errors, unplayable = result.errors, result.unplayable
    for error in sorted(errors, key=lambda e: (e.where.file, e.where.line, e.where.column)):
        print(error, file=sys.stderr)
    for note in result.notes:
        print(note)
    if errors:
        print(f"{len(errors)} error(s) in {len({e.where.file for e in errors})} file(s)", file=sys.stderr)
        return 2
    if unplayable:
        # a valid haunt the engine cannot play yet: each missing piece where the file uses it
        for line in unplayable:
            print(line, file=sys.stderr)
        print(f"valid, but the engine cannot play it yet: {len(unplayable)} missing piece(s)", file=sys.stderr)
        return 1
    print(f"{len(files)} file(s) OK")
    return 0


# --------------------------------------------------------------------------------------------
# play


def parse_game_options(definition: GameDef, extra: Sequence[str]) -> dict[str, Any]:
    """Turn leftover ``--name value`` / ``--name=value`` words into the game's options."""
    known = {o.name.replace("_", "-"): o for o in definition.options}
    options: dict[str, Any] = {}
    words = list(extra)
    while words:
        word = words.pop(0)
        if not word.startswith("--"):
            raise UsageError(f"unexpected argument {word!r}")
        name, eq, value = word[2:].partition("=")
        if name not in known:
            listing = ", ".join(f"--{n}" for n in sorted(known)) or "none"
            raise UsageError(f"{definition.id} has no option --{name}; its options: {listing}")
        if not eq:
            if not words or words[0].startswith("--"):
                raise UsageError(f"--{name} needs a value")
            value = words.pop(0)
        options[known[name].name] = _option_value(value)
    return options


def _option_value(text: str) -> Any:
    if text.lower() in ("true", "yes", "on"):
        return True
    if text.lower() in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def start_game(definition: GameDef, players: int, options: Mapping[str, Any],
               spec: GameSpec | None = None) -> tuple[GameState, TranscriptHeader]:
    spec = spec if spec is not None else game_spec(definition.id)
    try:
        state = setup.start(definition, spec, players, options)
    except setup.SetupError as exc:
        raise UsageError(exc.message) from None
    header = TranscriptHeader(
        game=definition.id,
        players=players,
        options=dict(options),
        spec_hash=spec.content_hash(),
        title=definition.title,
    )
    return state, header


def controller_for(definition: GameDef, name: str, seed: int) -> Controller | None:
    if name == "random":
        return None
    if name == "first-legal":
        return FirstLegal()
    if name == "policy":
        if definition.policy is None:
            raise UsageError(f"{definition.id} has no policy controller yet; use --controller random")
        return PolicyController(definition.policy, seed)
    raise UsageError(f"unknown controller {name!r}")


def record(definition: GameDef, players: int, seed: int, options: Mapping[str, Any], controller: str = "random",
           stop: str | None = None, max_steps: int = 200_000, on_step: Any = None,
           spec: GameSpec | None = None) -> transcripts.Transcript:
    state, header = start_game(definition, players, options, spec)
    header.seed = seed
    header.controller = controller
    header.stop = stop
    table = seeded_table(seed, controller_for(definition, controller, seed))
    result = play(state, table, header, stop=stop, max_steps=max_steps, on_step=on_step)
    result.transcript.header.roster = state.roster()
    return result.transcript


class OutOfTime(Exception):
    """A bounded search ran out of its time budget."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise OutOfTime in the block after ``seconds`` of wall-clock time (where the platform has
    interval timers and this is the main thread; elsewhere the block runs unbounded)."""
    import signal
    import threading

    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise OutOfTime

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _seconds_from_environment(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise UsageError(f"{name} must be a number of seconds, got {raw!r}") from None
    if not value > 0:
        raise UsageError(f"{name} must be a positive number of seconds, got {raw!r}")
    return value


def _check_writable(path: Path) -> None:
    """Refuse an output file that cannot be written before any work is done."""
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"--out {path}: no such folder {folder}; create it first")
    if path.is_dir():
        raise UsageError(f"--out {path}: is a folder, not a file")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise UsageError(f"--out {path}: not writable")


def cmd_play(args: argparse.Namespace, extra: Sequence[str]) -> int:
    definition = get_game(args.game)
    options = parse_game_options(definition, extra)
    if args.stop and args.stop not in definition.milestones:
        listing = ", ".join(definition.milestones) or "none"
        raise UsageError(f"{definition.id} has no milestone {args.stop!r}; its milestones: {listing}")
    if args.svg and definition.draw_svg is None:
        raise UsageError(f"{definition.id} has no pictures yet")
    out = _console()

    last_state: list[GameState] = []

    def show(state: GameState, step: Step) -> None:
        last_state[:] = [state]
        if args.quiet:
            return
        out.print(f"[bold]{step.n:>5}[/bold] {step.actor:<7} {step.action}  [dim]({step.offered} offered)[/dim]")
        for event in step.events:
            out.print(f"        [dim]{event}[/dim]")

    if args.out:
        _check_writable(Path(args.out))
    seed, controller = args.seed, args.controller or "random"
    spec: GameSpec | None = None
    if args.haunt_file or args.from_reveal:
        from hauntcheck.engine.betrayal.designer import haunt_file_options
        from hauntcheck.engine.lint import lint_in_context

        spec, options = haunt_file_options(definition, args, options, lint_in_context)
        controller = args.controller or "policy"
    if args.from_reveal:
        from hauntcheck.engine.betrayal.designer import record_from_reveal

        assert spec is not None
        log = record_from_reveal(definition, args, spec, options, controller, show, out.print)
    elif definition.seed_search is not None and spec is None:
        budget = _seconds_from_environment("HAUNTCHECK_SEED_SEARCH_SECONDS", 120.0)
        try:
            with time_limit(budget):
                found = definition.seed_search(args.players, args.seed, options)
        except OutOfTime:
            raise UsageError(f"no seed from {args.seed} gave the game asked for within {budget:g} seconds; try another --seed "
                             "(or set HAUNTCHECK_SEED_SEARCH_SECONDS to search longer)") from None
        except (LookupError, ValueError) as exc:
            raise UsageError(str(exc)) from None
        if found is not None:
            seed, passed_over = found
            controller = "policy"
            note = f" (passed over, round limit hit: {', '.join(map(str, passed_over))})" if passed_over else ""
            out.print(f"seed {seed}: the first policy game from seed {args.seed} that is the game asked for{note}")
    if not args.from_reveal:
        log = record(definition, args.players, seed, options, controller, args.stop, args.max_steps, show, spec)
    end = log.end
    if definition.summary is not None and last_state:
        for line in definition.summary(last_state[0]):
            out.print(line)
    if end.get("terminal"):
        detail = f"; {end['detail']}" if end.get("detail") else ""
        out.print(f"[bold]game over[/bold]: {end.get('result')} (winners: {', '.join(end.get('winners', [])) or 'none'}{detail})")
    else:
        out.print(f"[bold]stopped[/bold]: {end.get('stopped')}")
    out.print(f"{len(log.steps)} steps; roster: {', '.join(f'{k}={v}' for k, v in log.header.roster.items())}")
    if args.out:
        try:
            transcripts.write(log, Path(args.out), args.transcript_version)
        except OSError as exc:
            raise UsageError(f"--out {args.out}: cannot write: {exc.strerror or exc}") from None
        out.print(f"transcript written to {args.out}")
    if args.svg and last_state and definition.draw_svg is not None:
        _write_picture(Path(args.svg), definition.draw_svg(last_state[0]).encode())
        out.print(f"picture of the last position: {args.svg}")
    if end.get("stopped") == "step-limit":
        return 1
    return 0


def cmd_new_haunt(args: argparse.Namespace) -> int:
    from hauntcheck.engine.betrayal.skeleton import skeleton, slug_of

    try:
        target = Path(args.out) if args.out else Path(f"{slug_of(args.name)}.yaml")
        text = skeleton(args.name, str(target))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if target.exists():
        raise UsageError(f"{target} exists already; name another file with --out")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"--out {target}: cannot write: {exc.strerror or exc}") from None
    print(f"wrote {target}; next: hauntcheck lint {target}")
    return 0


# --------------------------------------------------------------------------------------------
# replay


def cmd_replay(args: argparse.Namespace) -> int:
    from hauntcheck.checks.runs import replay_checks

    started = time.perf_counter()
    fmt = output_format(args)
    files = _inputs(args.files, transcripts.is_transcript, "transcripts")
    checks = replay_checks(files, args.lenient, print if fmt == "text" else None, args.haunt_file)
    return _finish("replay", checks, fmt, started)


def cmd_upgrade(args: argparse.Namespace) -> int:
    from hauntcheck.checks.runs import UpgradeError, upgrade

    files = _inputs(args.files, transcripts.is_transcript, "transcripts")
    if args.out and len(files) != 1:
        raise UsageError("--out takes one transcript")
    for path, name in files:
        log = transcripts.read(path)
        if log.version >= 2:
            print(f"{name}: already version {log.version}")
            continue
        try:
            upgraded = upgrade(log)
        except UpgradeError as exc:
            print(f"{exc}\n{name}: not upgraded: it does not replay", file=sys.stderr)
            return 1
        target = Path(args.out) if args.out else path
        transcripts.write(upgraded, target, 2)
        print(f"{name}: upgraded to version 2 -> {target}")
    return 0


def cmd_conform(args: argparse.Namespace) -> int:
    from hauntcheck.checks.conform import EngineError, conform

    started = time.perf_counter()
    fmt = output_format(args)
    for game in args.game or []:
        get_game(game)
    try:
        checks = conform(args.engine, args.game or available_games(), args.only, args.timeout, print if fmt == "text" else None)
    except EngineError as exc:
        raise UsageError(str(exc)) from None
    if not checks:
        raise UsageError(f"nothing to check: no transcript or scenario matches {args.only!r}")
    return _finish("conform", checks, fmt, started)


# --------------------------------------------------------------------------------------------
# golden


def _golden_matches(case: GoldenCase, selector: str) -> bool:
    """A case is selected by its name, a shell pattern over names (``haunt-3-*``), or its folder
    (``haunts/03-frog-leg-stew`` or just ``03-frog-leg-stew``)."""
    return (fnmatch.fnmatchcase(case.name, selector) or selector in (case.folder, case.folder.rsplit("/", 1)[-1]))


def make_golden(definition: GameDef, case: GoldenCase) -> str:
    log = record(definition, case.players, case.seed, case.options, case.controller, case.stop)
    return transcripts.dumps(log)


def cmd_golden(args: argparse.Namespace) -> int:
    from hauntcheck.checks.verify import golden_file

    selected: list[tuple[GameDef, GoldenCase]] = []
    names = args.names or available_games()
    for name in names:
        game, _, case_name = name.partition("/")
        definition = get_game(game)
        cases = [c for c in definition.golden if not case_name or _golden_matches(c, case_name)]
        if case_name and not cases:
            raise UsageError(f"{game} has no golden case {case_name!r}")
        selected.extend((definition, c) for c in cases)
    if args.update:
        _refuse_installed_package(selected)
    fmt = output_format(args)
    say = print if fmt == "text" else None
    run_started = time.perf_counter()
    checks: list[Check] = []
    for definition, case in selected:
        path = golden_file(definition.id, case)
        shown = display_path(path)
        started = time.perf_counter()
        text = make_golden(definition, case)
        took = time.perf_counter() - started
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        label = f"{definition.id}/{case.name}"
        check = Check(f"golden:{label}", label, definition.id, 1, seconds=took)
        checks.append(check)
        if current == text:
            if say:
                say(f"{label}: up to date ({took:.1f}s)")
            continue
        if args.update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            if say:
                say(f"{label}: {'rewritten' if current else 'written'} -> {path}")
        else:
            line = _first_difference(current, text) if current else 0
            what = "differs from what the engine plays now" if current else "is missing"
            check.problems.append(Problem("golden.stale", f"the golden transcript {what}; run `hauntcheck golden --update {label}`",
                                          Location(shown, line, 1 if line else 0), counterexample=label))
            if say:
                say(f"{label}: {'differs from' if current else 'missing:'} {path}; run `hauntcheck golden --update {label}`")
    return _finish("golden", checks, fmt, run_started)


def _first_difference(old: str, new: str) -> int:
    """The 1-based line where two texts first differ."""
    for n, (a, b) in enumerate(zip(old.splitlines(), new.splitlines(), strict=False), start=1):
        if a != b:
            return n
    return min(len(old.splitlines()), len(new.splitlines())) + 1


def _refuse_installed_package(selected: Sequence[tuple[GameDef, GoldenCase]]) -> None:
    """Golden transcripts belong to a clone of hauntcheck (reviewed as diffs and committed); an
    installed package's copies are not the place to write them."""
    from hauntcheck.checks.verify import golden_file

    clone = SPEC_ROOT.parent / "pyproject.toml"
    for definition, case in selected[:1]:
        target = golden_file(definition.id, case)
        if not clone.is_file() or not os.access(target.parent if target.parent.is_dir() else SPEC_ROOT.parent, os.W_OK):
            raise UsageError(
                f"golden --update writes into the source tree, but hauntcheck is installed as a package here "
                f"({SPEC_ROOT.parent}); work from a clone instead: git clone the project, then "
                "`python3 -m venv .venv && .venv/bin/pip install -e .` and run `.venv/bin/hauntcheck golden --update` there"
            )


# --------------------------------------------------------------------------------------------
# coverage


def cmd_coverage(args: argparse.Namespace) -> int:
    from hauntcheck.checks.coverage import measure

    machine_runs = Path(args.machine_runs) if args.machine_runs else None
    if machine_runs is not None and not machine_runs.is_dir():
        raise UsageError(f"--machine-runs {args.machine_runs}: no such folder")
    results = [measure(game, playouts=args.playouts, machine_runs=machine_runs) for game in (args.games or available_games())]
    if args.json:
        print(json.dumps([c.to_data() for c in results], indent=2, sort_keys=True))
        return 0
    out = _console()
    for cov in results:
        table = RichTable(title=f"{cov.game}: rule coverage")
        table.add_column("rule")
        for source in cov.sources:
            table.add_column(source, justify="right")
        exercised = {s: sum(1 for r in cov.rules if cov.counts[s][r]) for s in cov.sources}
        if args.rules:
            for rule in cov.rules:
                table.add_row(rule, *(str(cov.counts[s][rule]) for s in cov.sources))
            out.print(table)
        never = cov.never()
        shown = ", ".join(f"{s} {exercised[s]}" for s in cov.sources)
        out.print(f"[bold]{cov.game}[/bold]: {len(cov.rules)} rules; exercised by {shown}; never exercised: {len(never)}"
                  f"; without mechanics (reason given): {len(cov.explained())}")
        for rule in never:
            variant = f" (variant {cov.variants[rule]})" if rule in cov.variants else ""
            out.print(f"  never: {rule}{variant}")
        for rule in cov.explained():
            out.print(f"  no mechanics: {rule}: {cov.reasons[rule]}", markup=False)
        for name, hooks in cov.hooks.items():
            out.print(f"  hooks in {name}: {', '.join(hooks)}")
        for name, blockers in cov.haunts.items():
            out.print(f"  haunt {name}: " + ("the engine plays it" if not blockers else "not playable yet"))
            for blocker in blockers:
                out.print(f"    {blocker}")
        for problem in cov.problems:
            out.print(f"  [red]problem[/red]: {problem}")
    return 0


# --------------------------------------------------------------------------------------------
# dispute and report


def cmd_dispute(args: argparse.Namespace) -> int:
    from hauntcheck.engine import picture
    from hauntcheck.engine.scenario import ScenarioResult, ScenarioRun

    if args.png:
        try:
            picture.require_renderer()
        except picture.PictureError as exc:
            raise UsageError(f"--png: {exc}") from None
    from hauntcheck.checks.runs import dispute_checks

    started = time.perf_counter()
    fmt = output_format(args)
    files = _inputs(args.files, lambda p: not transcripts.is_transcript(p), "dispute scenarios")

    say = print if fmt == "text" else (lambda text: print(text, file=sys.stderr))

    def pictures(index: int, run: ScenarioRun, result: ScenarioResult) -> None:
        if args.svg or args.png:
            draw = run.definition.draw_svg
            if draw is None:
                raise UsageError(f"{run.definition.id} cannot draw positions yet")
            panels = [("before", result.before), ("after", result.after)]
            svg = _side_by_side([(label, draw(state)) for label, state in panels if state is not None])
            if args.svg:
                target = _numbered(args.svg, index, len(files))
                _write_picture(target, svg.encode())
                say(f"  picture: {target}")
            if args.png:
                target = _numbered(args.png, index, len(files))
                try:
                    png = picture.svg_to_png(svg)
                except picture.PictureError as exc:
                    raise UsageError(f"--png: {exc}") from None
                _write_picture(target, png)
                say(f"  picture: {target}")

    checks = dispute_checks(files, print if fmt == "text" else None, pictures, soft=args.soft)
    if fmt == "text":
        failed = sum(1 for c in checks if not c.ok)
        print(f"{len(checks) - failed} passed, {failed} failed")
    return _finish("dispute", checks, fmt, started)


def cmd_view(args: argparse.Namespace) -> int:
    from hauntcheck.engine.viewer import ViewError, write_html

    try:
        view = write_html(Path(args.file), Path(args.html), args.file)
    except ViewError as exc:  # already located: file:line:column: error: ...
        print(exc, file=sys.stderr)
        return 2
    except OSError as exc:
        raise UsageError(f"cannot read {args.file} or write {args.html}: {exc.strerror or exc}") from None
    print(f"{len(view.frames) - 1} steps, {len(view.pictures)} pictures: {args.html}")
    return 0


def _write_picture(target: Path, data: bytes) -> None:
    try:
        target.write_bytes(data)
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None


def _numbered(name: str, index: int, count: int) -> Path:
    """The picture file of the index-th of count scenarios: the name itself for one, else the
    name with -1, -2, ... before its suffix, in the same folder."""
    path = Path(name)
    return path if count == 1 else path.with_name(f"{path.stem}-{index + 1}{path.suffix}")


def _side_by_side(panels: list[tuple[str, str]]) -> str:
    """Put several SVG pictures next to each other, each under a caption."""
    import re

    parts, x, height = [], 0, 0
    for label, svg in panels:
        w = re.search(r'width="(\d+)', svg)
        h = re.search(r'height="(\d+)', svg)
        width, tall = (int(w.group(1)) if w else 400), (int(h.group(1)) if h else 400)
        inner = re.sub(r"^.*?<svg[^>]*>|</svg>\s*$", "", svg, flags=re.S)
        caption = f'<text x="4" y="-6" font-family="sans-serif" font-size="16">{label}</text>'
        parts.append(f'<g transform="translate({x},24)">{caption}{inner}</g>')
        x += width + 20
        height = max(height, tall)
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{x}" height="{height + 30}">' + "".join(parts) + "</svg>\n"


def cmd_report(args: argparse.Namespace) -> int:
    log = transcripts.read(Path(args.transcript))
    definition = setup.game_of(log)
    if definition.describe_position is None:
        raise UsageError(f"{definition.id} cannot describe positions yet")
    if not 1 <= args.at <= len(log.steps):
        raise UsageError(f"--at must be a step from 1 to {len(log.steps)}")
    spec = game_spec(definition.id)
    state = setup.start_from_header(log, definition, spec)
    stopped = {"terminal": False, "stopped": "report"}
    prefix = transcripts.Transcript(log.header, log.steps[: args.at - 1], stopped, log.source, log.step_lines, log.positions)
    replayed = transcripts.replay(prefix, state, strict=False)
    if not replayed.ok and replayed.divergence is not None:
        print(replayed.divergence.render(args.transcript), file=sys.stderr)
        return 1
    step = log.steps[args.at - 1]
    # A moment inside a process (a roll, a placement) is described at the decision before it; the
    # recorded actions from there become the scenario's steps and scripted chance. The chance
    # outcomes recorded right after the moment are scripted too, so the scenario stops at the next
    # decision, as the game did.
    lead = definition.lead_up(state) if definition.lead_up is not None else []
    after = []
    for later in log.steps[args.at:]:
        if later.actor != CHANCE:
            break
        after.append((later.actor, later.action))
    steps: list[dict[str, Any]] = []
    chance: list[dict[str, Any]] = []
    for actor, action in [*lead, (step.actor, step.action), *after]:
        if actor == CHANCE:
            chance.append(action.to_data())
        else:
            steps.append({"do": action.to_data(), "by": actor})
    steps.append({"expect": {}, "note": "TODO: what the rules require after this action"})
    # The rules applied at the moment (and by the chance that follows it); for a moment that
    # applied none, those of the steps the skeleton plays before it; else a placeholder id, which
    # the scenario check refuses until it is replaced.
    following = [log.steps[args.at + i] for i in range(len(after))]
    leading = log.steps[args.at - 1 - len(lead): args.at - 1]
    decided = (list(dict.fromkeys(rule for s in (step, *following) for rule in s.rules()))
               or list(dict.fromkeys(rule for s in leading for rule in s.rules()))
               or ["todo.name-the-deciding-rule"])
    skeleton = {
        "spec_version": 1,
        "kind": "scenario",
        "game": definition.id,
        "title": f"{Path(args.transcript).name} at step {step.n}",
        "question": "TODO: the disputed question, in one line",
        "source": {"rules": decided},
        "rules": decided,
        "players": log.header.players,
        "options": dict(log.header.options),
        "position": definition.describe_position(state),
        **({"chance": chance} if chance else {}),
        "steps": steps,
    }
    from hauntcheck.engine import report

    text = report.schema_modeline(Path(args.out).parent if args.out else Path.cwd())
    text += "# Made by `hauntcheck report`; the recorded events of this step were:\n"
    text += "".join(f"#   {e}\n" for e in step.events)
    text += report.dump(skeleton)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"scenario skeleton written to {args.out}")
    else:
        print(text, end="")
    return 0


# --------------------------------------------------------------------------------------------
# balance (engine/balance/)


def cmd_balance(args: argparse.Namespace) -> int:
    from hauntcheck.engine.balance import command

    return command.run(args)


# --------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hauntcheck",
        description="Rules-verification and scenario test harness for haunted-house board games.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"hauntcheck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    fmt = argparse.RawDescriptionHelpFormatter

    def add_format(p: argparse.ArgumentParser) -> None:
        p.add_argument("--format", choices=FORMATS, help="output format (default text, or [tool.hauntcheck] format in pyproject.toml): "
                       "json (spec/schema/results.schema.json), junit XML, github annotations, sarif 2.1.0")

    p = sub.add_parser("verify", help="run every check over the bundled specs (or a project's own)", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck verify\n  hauntcheck verify haunted --format junit > verify.xml\n"
                              "  hauntcheck verify betrayal --family spec --family cross-references --format github\n"
                              "  hauntcheck verify haunted --spec spec --scenarios scenarios   (a project's own folders)\n"
                              "defaults may be set in pyproject.toml under [tool.hauntcheck] (games, families, spec, scenarios, format)")
    p.add_argument("games", nargs="*", metavar="GAME", help=f"only these games ({', '.join(available_games())})")
    p.add_argument("--game", action="append", help="only this game (repeatable; the same as GAME)")
    p.add_argument("--family", action="append", help="only this family of checks, by name or id (repeatable)")
    p.add_argument("--spec", metavar="DIR", help="a spec folder with one subfolder per game (default: the bundled specs)")
    p.add_argument("--scenarios", metavar="DIR", help="a folder of transcripts and scenarios, one subfolder per game")
    add_format(p)
    p.add_argument("--json", action="store_true", help="the same as --format json")
    p.add_argument("--all-marks", action="store_true", help="list judgement and sample marks too, not just unverified ones")

    p = sub.add_parser("lint", help="check spec files: schema, cross-references, game checks", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck lint spec/betrayal/rooms.yaml\n"
                              "  hauntcheck lint spec/betrayal/haunts --format sarif")
    p.add_argument("files", nargs="+", metavar="FILE|DIR")
    add_format(p)

    p = sub.add_parser("play", help="play a game with seeded decisions and print its log", formatter_class=fmt, allow_abbrev=False,
                       epilog="examples:\n  hauntcheck play haunted --players 3 --seed 7\n"
                              "  hauntcheck play betrayal --players 4 --seed 7 --stop reveal --out game.yaml\n"
                              "  hauntcheck play haunted --players 1 --variant solo\n\n" + games_help())
    p.add_argument("game", metavar="GAME", help=f"one of: {', '.join(available_games())}")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", metavar="FILE", help="write the transcript here")
    p.add_argument("--controller", choices=["random", "first-legal", "policy"],
                   help="who decides (default: random; policy with --haunt N or --haunt-file)")
    p.add_argument("--svg", metavar="FILE", help="draw the last position (the end, or --stop) as SVG")
    p.add_argument("--haunt-file", metavar="FILE", help="Betrayal: play this haunt file (from anywhere) at the game's reveal")
    p.add_argument("--from-reveal", action="store_true", help="Betrayal: with --haunt N or --haunt-file, no seed search - "
                   "the seeded exploration runs to its reveal and the haunt is played there (printed from the reveal on)")
    p.add_argument("--stop", metavar="MILESTONE", help="stop at a milestone (e.g. reveal)")
    p.add_argument("--max-steps", type=int, default=200_000)
    p.add_argument("--quiet", action="store_true", help="print only the summary")
    p.add_argument("--transcript-version", type=int, choices=[1, 2], default=transcripts.DEFAULT_VERSION,
                   help="the transcript format --out writes: 1 (events as prose) or 2 (structured events, prose as comments)")

    p = sub.add_parser("replay", help="re-apply transcripts and check every recorded consequence", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck replay game.yaml\n  hauntcheck replay --lenient game.yaml\n"
                              "  hauntcheck replay scenarios/haunted/golden --format junit")
    p.add_argument("files", nargs="+", metavar="FILE|DIR")
    p.add_argument("--lenient", action="store_true", help="do not fail on unanswered prompts or leftover steps")
    p.add_argument("--haunt-file", metavar="FILE", help="Betrayal: the designer's haunt file the games were played with")
    add_format(p)

    p = sub.add_parser("golden", help="check or regenerate golden transcripts", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck golden            check all are up to date\n"
                              "  hauntcheck golden haunted/solo-seed-140\n  hauntcheck golden betrayal/03-frog-leg-stew --format junit")
    p.add_argument("names", nargs="*", metavar="GAME[/CASE]")
    p.add_argument("--update", action="store_true", help="rewrite the transcripts that differ")
    add_format(p)

    p = sub.add_parser("coverage", help="which rules the scenarios, golden transcripts and playouts exercise", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck coverage\n  hauntcheck coverage betrayal --rules\n  hauntcheck coverage --json\n"
                              "  hauntcheck coverage --machine-runs /tmp/hauntcheck-machine-failures")
    p.add_argument("games", nargs="*", metavar="GAME")
    p.add_argument("--playouts", type=int, default=20, help="seeded random games per game (default 20)")
    p.add_argument("--rules", action="store_true", help="print the count of every rule, not only the ones never exercised")
    p.add_argument("--machine-runs", metavar="DIR", help="add the state machines' runs (their rules-*.json records in DIR) "
                   "as a source")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("dispute", help="run dispute scenarios and explain each verdict rule by rule", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck dispute scenarios/betrayal/disputes/coal-chute-slides-to-basement-landing.yaml\n"
                              "  hauntcheck dispute scenarios/betrayal/disputes --format junit\n"
                              "  hauntcheck dispute scenarios/betrayal/disputes/front-door-is-locked.yaml --svg board.svg --png board.png")
    p.add_argument("files", nargs="+", metavar="FILE|DIR")
    add_format(p)
    p.add_argument("--svg", metavar="FILE", help="draw the position before and after as SVG")
    p.add_argument("--png", metavar="FILE", help=f"draw the same picture as PNG (needs resvg-py: {INSTALL_HINT})")
    p.add_argument("--soft", action="store_true", help="run on past failed expectations and report every one "
                   "(as soft: true in the file)")

    p = sub.add_parser("view", help="a transcript, golden game or scenario as one offline HTML page", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck view scenarios/betrayal/golden/reveal-3p-seed-3.yaml --html game.html")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--html", required=True, metavar="OUT.html", help="the page to write")

    p = sub.add_parser("upgrade", help="convert version 1 transcripts to format version 2 (structured events)", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck upgrade game.yaml\n  hauntcheck upgrade game.yaml --out game-v2.yaml")
    p.add_argument("files", nargs="+", metavar="FILE|DIR")
    p.add_argument("--out", metavar="FILE", help="write here instead of in place (one transcript only)")

    p = sub.add_parser("conform", help="replay the golden transcripts and dispute scenarios against another engine", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck conform --engine \"python examples/reference_adapter.py\" --game haunted\n"
                              "  hauntcheck conform --engine \"python examples/reference_adapter.py\" --format junit > conform.xml\n"
                              "the protocol: docs/conformance-protocol.md")
    p.add_argument("--engine", required=True, metavar="CMD", help="the command that starts the engine (JSON lines on stdin/stdout)")
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    p.add_argument("--only", metavar="PATTERN", help="only transcripts and scenarios whose path matches this shell pattern")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for one answer of the engine (default 60)")
    add_format(p)

    p = sub.add_parser("new-haunt", help="write a commented haunt file to start a new haunt from", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck new-haunt \"The Hungry Cellar\"      writes the-hungry-cellar.yaml\n"
                              "  hauntcheck new-haunt Ghouls --out drafts/ghouls.yaml")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--out", metavar="FILE", help="where to write it (default: NAME as a file name, .yaml)")

    p = sub.add_parser("report", help="turn the position at a step of a transcript into a scenario skeleton", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck report game.yaml --at 120 --out dispute.yaml")
    p.add_argument("transcript", metavar="TRANSCRIPT")
    p.add_argument("--at", type=int, required=True, metavar="STEP", help="the step whose action is disputed")
    p.add_argument("--out", metavar="FILE")

    from hauntcheck.engine.balance import command as balance

    balance.add_parser(sub)
    return parser


def games_help() -> str:
    """The games, their player counts, options and milestones, for `play -h`."""
    lines = ["games:"]
    for game in available_games():
        try:
            definition = get_game(game)
        except Exception as exc:  # a broken game module must not break --help for the others
            lines.append(f"  {game}: cannot be loaded ({type(exc).__name__})")
            continue
        lines.append(f"  {game} ({definition.title}): {definition.min_players}-{definition.max_players} players")
        for option in definition.options:
            default = "" if option.default is None else f" (default {option.default})"
            lines.append(f"      --{option.name.replace('_', '-')} VALUE  {option.help}{default}")
        if definition.milestones:
            lines.append(f"      --stop: {', '.join(definition.milestones)}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command is None:
        # A bare `hauntcheck` lists the commands (a usage mistake: exit 2).
        parser.print_help(sys.stderr)
        return 2
    try:
        if args.command == "play":
            return cmd_play(args, extra)
        if extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        handlers = {"verify": cmd_verify, "lint": cmd_lint, "replay": cmd_replay, "golden": cmd_golden,
                    "dispute": cmd_dispute, "report": cmd_report, "coverage": cmd_coverage, "upgrade": cmd_upgrade,
                    "conform": cmd_conform, "new-haunt": cmd_new_haunt,
                    "balance": cmd_balance, "view": cmd_view}
        return handlers[args.command](args)
    except SpecErrors as exc:
        for error in exc.errors:
            print(error, file=sys.stderr)
        return 2
    except (UsageError, UnknownGame) as exc:
        print(f"hauntcheck: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`hauntcheck ... | head`): stop quietly, as other tools do.
        # The interpreter flushes stdout at exit: point it at nothing so that flush cannot fail.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except RecursionError:
        print("hauntcheck: error: the input is nested too deeply to process", file=sys.stderr)
        return 2
    except Exception as exc:
        # A game's hook or the engine failed on this input (a haunt mutant's hook that calls
        # next() on nothing): say so in one line rather than with a traceback.
        if os.environ.get("HAUNTCHECK_TRACEBACK"):
            raise
        print(f"hauntcheck: internal error in `{args.command}`: {type(exc).__name__}: {exc}\n"
              "  the engine (or a haunt's hook) failed on this input; please report it with the input attached "
              "(set HAUNTCHECK_TRACEBACK=1 to see the traceback)", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
