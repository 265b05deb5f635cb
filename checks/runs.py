"""The file-taking commands (``lint``, ``replay``, ``dispute``) as runs of the common result
model (:mod:`hauntcheck.checks.output`): one check per file, every problem located. Folders are
accepted wherever files are. The text output is streamed through ``say`` as each file is done.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from hauntcheck.checks.output import Check, Location, Problem, display_path, split_location
from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.spec import GameSpec, SpecError

if TYPE_CHECKING:
    from hauntcheck.engine.scenario import ScenarioResult, ScenarioRun

Say = Callable[[str], None]


class NothingToCheck(ValueError):
    """A folder given on the command line holds no file of the kind the command reads."""


def expand(names: Sequence[str], keep: Callable[[Path], bool], what: str) -> list[tuple[Path, str]]:
    """Files as given, and every YAML file under each folder given that ``keep`` accepts (in
    name order), each with the name reports show. A name that is neither is passed on as a file,
    so reading it reports the error."""
    out: list[tuple[Path, str]] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            found = [p for p in sorted(path.rglob("*.yaml")) if p.is_file() and keep(p)]
            if not found:
                raise NothingToCheck(f"{name}: no {what} in this folder")
            out.extend((p, display_path(p) if p.is_absolute() else p.as_posix()) for p in found)
        else:
            out.append((path, name))
    return out


def error_problem(error: SpecError, check: str) -> Problem:
    where = error.where
    message = error.message + "".join(f"\n  {w}: note: {n}" for w, n in error.related)
    return Problem(check, message, Location(display_path(where.file), where.line, where.column))


def text_problem(text: str, check: str, file: str, rule: str | None = None, counterexample: str | None = None) -> Problem:
    location, message = split_location(text, Location(display_path(file)))
    return Problem(check, message, location, rule, counterexample)


def replay_checks(files: Iterable[tuple[Path, str]], lenient: bool, say: Say | None, haunt_file: str | None = None) -> list[Check]:
    """Replay each transcript against a fresh game: one check per file. A Betrayal game of a
    designer's haunt replays with the same ``haunt_file`` it was played with."""
    from hauntcheck.checks.verify import replay_transcript
    from hauntcheck.engine import setup
    from hauntcheck.engine.games import game_spec

    # Betrayal's spec with the designer's haunt, built once for every transcript that needs it
    # (a spec built anew also builds its engine tables anew).
    with_haunt: list[GameSpec] = []
    checks = []
    for path, name in files:
        started = time.perf_counter()
        check = Check(f"replay:{name}", name, "replay")
        log = transcripts.read(path)  # a broken file is a user's mistake: SpecErrors, exit 2
        definition = setup.game_of(log)  # an unknown game is an error at its line
        spec = game_spec(definition.id)
        if haunt_file and definition.id == "betrayal":
            if not with_haunt:
                from hauntcheck.engine.betrayal.reveal import load_haunt_file, spec_with_haunt

                with_haunt.append(spec_with_haunt(spec, load_haunt_file(Path(haunt_file))))
            spec = with_haunt[0]
        result = replay_transcript(log, definition, spec, strict=not lenient)  # a refused header: SpecErrors at its line
        check.checked = result.steps_checked + (1 if result.ok else 0)
        check.notes = list(result.notes)
        for note in result.notes:
            if say:
                say(f"{name}: note: {note}")
        if result.ok:
            if say:
                say(f"{name}: OK, {result.steps_checked} steps replayed ({log.end.get('result') or log.end.get('stopped')})")
        else:
            assert result.divergence is not None
            rendered = result.divergence.render(name)
            if say:
                say(rendered)
            d = result.divergence
            rules = [line.partition(": ")[0] for line in d.expected if ": " in line]
            check.problems.append(Problem("replay.divergence", rendered.split(": ", 1)[1], Location(display_path(name), d.line, 0),
                                          rules[0] if rules else None, name))
        check.seconds = time.perf_counter() - started
        checks.append(check)
    return checks


def dispute_checks(files: Iterable[tuple[Path, str]], say: Say | None,
                   each: Callable[[int, ScenarioRun, ScenarioResult], None] | None = None, soft: bool = False) -> list[Check]:
    """Run each dispute scenario: one check per file, its failures located in the file.
    ``each(index, run, result)`` lets the caller draw pictures; ``soft`` runs on past a failed
    expectation and reports every one (as ``soft: true`` in a file)."""
    from hauntcheck.engine.scenario import ScenarioRun, explain, load_scenario

    loaded = [(load_scenario(path, name), name) for path, name in files]
    checks = []
    for index, (file, name) in enumerate(loaded):
        started = time.perf_counter()
        run = ScenarioRun(file, soft=soft)
        result = run.run()
        if say:
            explain(result, run.rules, say)
        rules = ",".join(file.data.get("rules", []) or [])
        check = Check(f"dispute:{name}", f"{name}: {result.title}", "dispute", 1)
        check.problems = [text_problem(f, "dispute.expectation", name, rules or None, name) for f in result.failures]
        check.seconds = time.perf_counter() - started
        checks.append(check)
        if each is not None:
            each(index, run, result)
    return checks


def lint_checks(files: Iterable[tuple[Path, str]], errors: Sequence[SpecError]) -> list[Check]:
    """The errors of one lint run (its files checked together), as one check per file; an error
    placed in another file (the bundled spec a change breaks) joins the first file's check."""
    files = list(files)
    by_file: dict[str, list[SpecError]] = {name: [] for _, name in files}
    first = files[0][1] if files else ""
    for error in errors:
        by_file.setdefault(error.where.file if error.where.file in by_file else first, []).append(error)
    return [Check(f"lint:{name}", name, "lint", 1, [error_problem(e, "lint") for e in found]) for name, found in by_file.items()]


def upgrade(log: transcripts.Transcript) -> transcripts.Transcript:
    """A transcript as format version 2: replayed against the engine (it must replay clean, prose
    and all), each step's events recorded with their structured parts."""
    from hauntcheck.checks.verify import replay_transcript
    from hauntcheck.engine.core import IllegalAction
    from hauntcheck.engine.games import game_spec, get_game

    definition = get_game(log.header.game)
    spec = game_spec(definition.id)
    checked = replay_transcript(log, definition, spec, strict=False)
    if not checked.ok and checked.divergence is not None:
        raise UpgradeError(checked.divergence.render(log.source))
    state = definition.new_game(spec, log.header.players, log.header.options)
    for step in log.steps:
        try:
            events = state.apply(step.action)
        except IllegalAction as exc:  # replay_transcript has just applied the same actions
            raise UpgradeError(f"{log.source}: step {step.n}: {exc}") from None
        step.events = [str(e) for e in events]
        step.structured = [e.to_data() for e in events]
    log.version = 2
    return log


class UpgradeError(ValueError):
    """A transcript that does not replay, so it cannot be upgraded (the message shows where)."""
