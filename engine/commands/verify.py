"""The checking commands: ``verify``, ``lint``, ``replay``, ``upgrade``, ``conform``, ``coverage``.

``verify`` runs every check family over the bundled specs (or a project's own), ``lint`` checks
spec files as a designer would, ``replay`` re-applies transcripts and checks every recorded
consequence, ``upgrade`` converts version 1 transcripts, ``conform`` replays the golden transcripts
and dispute scenarios against another engine, ``coverage`` says which rules the scenarios, golden
transcripts and playouts exercise.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from rich.table import Table as RichTable

from hauntcheck.checks.output import render
from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.commands.common import UsageError, _console, _finish, _folder, _inputs, output_format, project_config
from hauntcheck.engine.games import available_games, get_game
from hauntcheck.engine.spec import SPEC_ROOT

#: How many new container objects the cyclic collector lets pile up before its youngest collection
#: while verify runs (Python's default is 700). Verify makes millions of short-lived objects (the
#: goldens' steps, the scenarios' clones), and each chance outcome's clone is a cycle (its state and
#: the program running it) that only the collector frees: at the default, about 3,400 collections
#: walked them and the long-lived spec data, a sixth of verify's CPU time. At this threshold about
#: 140 collections free the same objects, for about 30 MB more memory at the peak.
VERIFY_GC_THRESHOLD = 10_000
#: How many collections of the middle generation come before a collection of everything
#: (Python's default is 10): at 10, one or two whole collections a run walked the spec and the
#: goldens' data loaded after the freeze (0.3 CPU-s each) to free little that a younger one would
#: not; at 100 none comes in a verify of the bundled games.
VERIFY_GC_FULL_EVERY = 100


@contextlib.contextmanager
def long_lived_collector() -> Iterator[None]:
    """Tune the cyclic garbage collector for one verify run, and restore it afterwards: what is
    already loaded (the modules, their tables) lives to the end, so it is moved out of the
    collector's walks (``gc.freeze``), the youngest generation is collected at
    :data:`VERIFY_GC_THRESHOLD` objects instead of 700 and the whole heap after
    :data:`VERIFY_GC_FULL_EVERY` collections of the middle one instead of 10. It changes when
    garbage is freed, never what is checked."""
    threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
    gc.freeze()
    gc.set_threshold(VERIFY_GC_THRESHOLD, threshold[1], VERIFY_GC_FULL_EVERY)
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        if not frozen:  # (objects a caller froze before stay frozen: gc cannot unfreeze only ours)
            gc.unfreeze()


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
    with long_lived_collector():
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
