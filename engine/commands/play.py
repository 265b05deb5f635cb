"""The commands that play games: ``play``, ``golden``, ``new-haunt``, ``balance``.

``play`` plays a seeded game (:func:`record`: the same seed and controller give the same
transcript on every machine) and prints or writes its log; a seed search for a haunt has a time
budget. ``golden`` checks the golden transcripts are up to date, or rewrites those that differ
with ``--update`` (only from a clone, never an installed package). ``new-haunt`` writes a
commented haunt file to start from; ``balance`` runs balance studies (``engine/balance/``).
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from hauntcheck.checks.output import Check, Location, Problem, display_path
from hauntcheck.engine import setup
from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.commands.common import (
    UsageError,
    _check_writable,
    _console,
    _finish,
    _write_picture,
    output_format,
    parse_game_options,
)
from hauntcheck.engine.core import GameState
from hauntcheck.engine.games import GameDef, GoldenCase, available_games, game_spec, get_game
from hauntcheck.engine.play import Controller, FirstLegal, PolicyController, play, seeded_table
from hauntcheck.engine.spec import SPEC_ROOT, GameSpec
from hauntcheck.engine.transcript import Step, TranscriptHeader


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

    expired: list[bool] = []

    def expire(signum: int, frame: Any) -> None:
        expired.append(True)
        raise OutOfTime

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    # The handler's exception is lost when the alarm lands in a finaliser or a garbage-collector
    # callback (Python reports it as unraisable and goes on): the block then ran to its end, late.
    if expired:
        raise OutOfTime


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


def _golden_matches(case: GoldenCase, selector: str) -> bool:
    """A case is selected by its name, a shell pattern over names (``haunt-3-*``), or its folder
    (``haunts/03-frog-leg-stew`` or just ``03-frog-leg-stew``)."""
    return (fnmatch.fnmatchcase(case.name, selector) or selector in (case.folder, case.folder.rsplit("/", 1)[-1]))


def make_golden(definition: GameDef, case: GoldenCase) -> str:
    log = record(definition, case.players, case.seed, case.options, case.controller, case.stop)
    return transcripts.dumps(log, transcripts.GOLDEN_VERSION)


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


def cmd_balance(args: argparse.Namespace) -> int:
    from hauntcheck.engine.balance import command

    return command.run(args)
