"""The ``hauntcheck`` command line.

Exit status: 0 all good, 1 a check or replay failed, 2 the input was wrong (a spec, transcript or
option a user gave); a user's mistake never prints a traceback.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table as RichTable

from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.core import CHANCE, GameState
from hauntcheck.engine.games import GameDef, GoldenCase, UnknownGame, available_games, game_spec, get_game, rule_id_errors
from hauntcheck.engine.picture import INSTALL_HINT
from hauntcheck.engine.play import Controller, FirstLegal, PolicyController, play, seeded_table
from hauntcheck.engine.spec import SPEC_ROOT, GameSpec, SpecError, SpecErrors, SpecFile, citation_errors, load_file
from hauntcheck.engine.transcript import Step, TranscriptHeader

EXAMPLES = """\
examples:
  hauntcheck verify                       run every check over the bundled specs
  hauntcheck verify --json > report.json  the same, as JSON for CI
  hauntcheck lint my-haunt.yaml           check one spec file as a designer would
  hauntcheck play haunted --players 3 --seed 7 --out game.yaml
  hauntcheck replay game.yaml             re-apply a transcript and check every step
  hauntcheck golden --update haunted      regenerate the golden transcripts of a game
  hauntcheck dispute case.yaml --svg b.svg  run a dispute scenario and draw the position
  hauntcheck dispute case.yaml --png b.png  ... drawn as PNG (pip install 'hauntcheck[png]')
  hauntcheck report game.yaml --at 40     turn step 40 of a game into a scenario skeleton
"""


class UsageError(Exception):
    """A mistake in how the command was called (exit status 2)."""


def _console(stream: Any = None) -> Console:
    return Console(file=stream or sys.stdout, highlight=False, soft_wrap=True)


# --------------------------------------------------------------------------------------------
# verify


def cmd_verify(args: argparse.Namespace) -> int:
    from hauntcheck.checks import verify

    games = args.game or None
    for game in games or []:
        get_game(game)
    err = _console(sys.stderr)
    progress = None if args.json or not err.is_terminal else (lambda msg: err.print(f"[dim]... {msg}[/dim]"))
    report = verify.run(games, set(args.family) if args.family else None, progress)
    if args.json:
        print(json.dumps(report.to_data(), indent=2, sort_keys=True))
        return 0 if report.ok else 1
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
    verdict = "[green]all checks passed[/green]" if report.ok else f"[red]{len(failures)} failure(s)[/red]"
    out.print(f"{verdict} in {report.seconds:.1f}s")
    return 0 if report.ok else 1


# --------------------------------------------------------------------------------------------
# lint


def cmd_lint(args: argparse.Namespace) -> int:
    errors: list[SpecError] = []
    for name in args.files:
        path = Path(name)
        try:
            spec_file = load_file(path, name)
        except SpecErrors as exc:
            errors.extend(exc.errors)
            continue
        errors.extend(lint_in_context(spec_file, path))
    for error in sorted(errors, key=lambda e: (e.where.file, e.where.line, e.where.column)):
        print(error, file=sys.stderr)
    if errors:
        print(f"{len(errors)} error(s) in {len({e.where.file for e in errors})} file(s)", file=sys.stderr)
        return 2
    print(f"{len(args.files)} file(s) OK")
    return 0


def lint_in_context(spec_file: SpecFile, path: Path) -> list[SpecError]:
    """Checks of one valid file against the bundled specs: citations name listed sources, rule
    ids are unique, and the game's cross-references hold with this file in place."""
    sources = load_file(SPEC_ROOT / "sources.yaml", "spec/sources.yaml")
    game = _game_of(spec_file.data, path)
    alone = GameSpec(game or "unknown", SPEC_ROOT, {spec_file.display: spec_file}, sources)
    errors = citation_errors(alone)
    if spec_file.kind == "rules":
        errors.extend(rule_id_errors(alone))
    if game is not None and game in available_games():
        definition = get_game(game)
        merged = _with_file(game_spec(game), spec_file, path)
        errors.extend(e for e in definition.cross_check(merged) if e.where.file == spec_file.display)
        if spec_file.kind == "haunt" and game == "betrayal":
            from hauntcheck.checks.solver import lint_haunt

            errors.extend(lint_haunt(spec_file, merged))
    return errors


def _game_of(data: Mapping[str, Any], path: Path) -> str | None:
    from hauntcheck.engine.games import GAME_MODULES

    if isinstance(data.get("game"), str) and data["game"] in GAME_MODULES:
        return str(data["game"])
    for parent in path.resolve().parents:
        if parent.name in GAME_MODULES:
            return parent.name
    return None


def _with_file(bundled: GameSpec, spec_file: SpecFile, path: Path) -> GameSpec:
    """The bundled spec with ``spec_file`` added (or replacing the bundled file of that name)."""
    files = dict(bundled.files)
    key = f"{bundled.game}/{path.name}"
    for name, existing in bundled.files.items():
        if existing.path.resolve() == path.resolve():
            key = name
    if spec_file.kind == "rules":  # a game has one rules file: a linted one stands in for it
        key = next((n for n, f in bundled.files.items() if f.kind == "rules"), key)
    files[key] = spec_file
    return GameSpec(bundled.game, bundled.root, files, bundled.sources)


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


def start_game(definition: GameDef, players: int, options: Mapping[str, Any]) -> tuple[GameState, TranscriptHeader]:
    if not definition.min_players <= players <= definition.max_players:
        raise UsageError(f"{definition.id} is for {definition.min_players}-{definition.max_players} players, not {players}")
    spec = game_spec(definition.id)
    try:
        state = definition.new_game(spec, players, options)
    except ValueError as exc:  # a game refuses an option value with ValueError naming the option
        raise UsageError(str(exc)) from None
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
           stop: str | None = None, max_steps: int = 200_000, on_step: Any = None) -> transcripts.Transcript:
    state, header = start_game(definition, players, options)
    header.seed = seed
    header.controller = controller
    header.stop = stop
    table = seeded_table(seed, controller_for(definition, controller, seed))
    result = play(state, table, header, stop=stop, max_steps=max_steps, on_step=on_step)
    result.transcript.header.roster = state.roster()
    return result.transcript


def cmd_play(args: argparse.Namespace, extra: Sequence[str]) -> int:
    definition = get_game(args.game)
    options = parse_game_options(definition, extra)
    if args.stop and args.stop not in definition.milestones:
        listing = ", ".join(definition.milestones) or "none"
        raise UsageError(f"{definition.id} has no milestone {args.stop!r}; its milestones: {listing}")
    out = _console()

    last_state: list[GameState] = []

    def show(state: GameState, step: Step) -> None:
        last_state[:] = [state]
        if args.quiet:
            return
        out.print(f"[bold]{step.n:>5}[/bold] {step.actor:<7} {step.action}  [dim]({step.offered} offered)[/dim]")
        for event in step.events:
            out.print(f"        [dim]{event}[/dim]")

    seed, controller = args.seed, args.controller
    if definition.seed_search is not None:
        try:
            found = definition.seed_search(args.players, args.seed, options)
        except (LookupError, ValueError) as exc:
            raise UsageError(str(exc)) from None
        if found is not None:
            seed, passed_over = found
            controller = "policy"
            note = f" (passed over, round limit hit: {', '.join(map(str, passed_over))})" if passed_over else ""
            out.print(f"seed {seed}: the first policy game from seed {args.seed} that is the game asked for{note}")
    log = record(definition, args.players, seed, options, controller, args.stop, args.max_steps, show)
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
        transcripts.write(log, Path(args.out))
        out.print(f"transcript written to {args.out}")
    if end.get("stopped") == "step-limit":
        return 1
    return 0


# --------------------------------------------------------------------------------------------
# replay


def cmd_replay(args: argparse.Namespace) -> int:
    from hauntcheck.checks.verify import replay_transcript

    failed = 0
    for name in args.files:
        log = transcripts.read(Path(name))
        definition = get_game(log.header.game)
        spec = game_spec(definition.id)
        result = replay_transcript(log, definition, spec, strict=not args.lenient)
        for note in result.notes:
            print(f"{name}: note: {note}")
        if result.ok:
            print(f"{name}: OK, {result.steps_checked} steps replayed ({log.end.get('result') or log.end.get('stopped')})")
        else:
            failed += 1
            assert result.divergence is not None
            print(result.divergence.render(name))
    return 1 if failed else 0


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
    stale = 0
    for definition, case in selected:
        path = golden_file(definition.id, case)
        started = time.perf_counter()
        text = make_golden(definition, case)
        took = time.perf_counter() - started
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        label = f"{definition.id}/{case.name}"
        if current == text:
            print(f"{label}: up to date ({took:.1f}s)")
            continue
        if args.update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"{label}: {'rewritten' if current else 'written'} -> {path}")
        else:
            stale += 1
            print(f"{label}: {'differs from' if current else 'missing:'} {path}; run `hauntcheck golden --update {label}`")
    return 1 if stale else 0


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
        for problem in cov.problems:
            out.print(f"  [red]problem[/red]: {problem}")
    return 0


# --------------------------------------------------------------------------------------------
# dispute and report


def cmd_dispute(args: argparse.Namespace) -> int:
    from hauntcheck.engine import picture
    from hauntcheck.engine.scenario import ScenarioRun, explain, load_scenario

    if args.png:
        try:
            picture.require_pillow()
        except picture.PictureError as exc:
            raise UsageError(f"--png: {exc}") from None
    failed = 0
    files = [load_scenario(Path(name), name) for name in args.files]
    for index, file in enumerate(files):
        run = ScenarioRun(file)
        result = run.run()
        explain(result, run.rules, print)
        if not result.ok:
            failed += 1
        if args.svg or args.png:
            draw = run.definition.draw_svg
            if draw is None:
                raise UsageError(f"{run.definition.id} cannot draw positions yet")
            panels = [("before", result.before), ("after", result.after)]
            svg = _side_by_side([(label, draw(state)) for label, state in panels if state is not None])
            if args.svg:
                target = _numbered(args.svg, index, len(files))
                _write_picture(target, svg.encode())
                print(f"  picture: {target}")
            if args.png:
                target = _numbered(args.png, index, len(files))
                try:
                    png = picture.svg_to_png(svg)
                except picture.PictureError as exc:
                    raise UsageError(f"--png: {exc}") from None
                _write_picture(target, png)
                print(f"  picture: {target}")
    print(f"{len(files) - failed} passed, {failed} failed")
    return 1 if failed else 0


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
    import yaml

    log = transcripts.read(Path(args.transcript))
    definition = get_game(log.header.game)
    if definition.describe_position is None:
        raise UsageError(f"{definition.id} cannot describe positions yet")
    if not 1 <= args.at <= len(log.steps):
        raise UsageError(f"--at must be a step from 1 to {len(log.steps)}")
    spec = game_spec(definition.id)
    state = definition.new_game(spec, log.header.players, log.header.options)
    stopped = {"terminal": False, "stopped": "report"}
    prefix = transcripts.Transcript(log.header, log.steps[: args.at - 1], stopped, log.source, log.step_lines)
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
    text = "# yaml-language-server: $schema=" + _schema_ref(args.out) + "\n"
    text += "# Made by `hauntcheck report`; the recorded events of this step were:\n"
    text += "".join(f"#   {e}\n" for e in step.events)
    text += yaml.safe_dump(skeleton, sort_keys=False, allow_unicode=True, width=120)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"scenario skeleton written to {args.out}")
    else:
        print(text, end="")
    return 0


def _schema_ref(out: str | None) -> str:
    import os

    schema = SPEC_ROOT / "schema" / "scenario.schema.json"
    if out:
        try:
            return os.path.relpath(schema, Path(out).resolve().parent)
        except ValueError:
            pass
    return str(schema)


# --------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hauntcheck",
        description="Rules-verification and scenario test harness for haunted-house board games.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    fmt = argparse.RawDescriptionHelpFormatter

    p = sub.add_parser("verify", help="run every check over the bundled specs", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck verify\n  hauntcheck verify --game haunted --json")
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    p.add_argument("--family", action="append", help="only this family of checks (repeatable)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--all-marks", action="store_true", help="list judgement and sample marks too, not just unverified ones")

    p = sub.add_parser("lint", help="check spec files: schema, cross-references, game checks", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck lint spec/betrayal/rooms.yaml\n  hauntcheck lint my-haunt.yaml")
    p.add_argument("files", nargs="+", metavar="FILE")

    p = sub.add_parser("play", help="play a game with seeded decisions and print its log", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck play haunted --players 3 --seed 7\n"
                              "  hauntcheck play betrayal --players 4 --seed 7 --stop reveal --out game.yaml\n"
                              "game options are given as --NAME VALUE (see docs/cli.md)")
    p.add_argument("game", metavar="GAME")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", metavar="FILE", help="write the transcript here")
    p.add_argument("--controller", default="random", choices=["random", "first-legal", "policy"])
    p.add_argument("--stop", metavar="MILESTONE", help="stop at a milestone (e.g. reveal)")
    p.add_argument("--max-steps", type=int, default=200_000)
    p.add_argument("--quiet", action="store_true", help="print only the summary")

    p = sub.add_parser("replay", help="re-apply transcripts and check every recorded consequence", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck replay game.yaml\n  hauntcheck replay --lenient partial.yaml")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--lenient", action="store_true", help="do not fail on unanswered prompts or leftover steps")

    p = sub.add_parser("golden", help="check or regenerate golden transcripts", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck golden            check all are up to date\n"
                              "  hauntcheck golden --update haunted\n  hauntcheck golden --update haunted/solo")
    p.add_argument("names", nargs="*", metavar="GAME[/CASE]")
    p.add_argument("--update", action="store_true", help="rewrite the transcripts that differ")

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
                       epilog="examples:\n  hauntcheck dispute scenarios/betrayal/disputes/coal-chute.yaml\n"
                              "  hauntcheck dispute my-case.yaml --svg board.svg --png board.png")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--svg", metavar="FILE", help="draw the position before and after as SVG")
    p.add_argument("--png", metavar="FILE", help=f"draw the same picture as PNG (needs Pillow: {INSTALL_HINT})")

    p = sub.add_parser("report", help="turn the position at a step of a transcript into a scenario skeleton", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck report game.yaml --at 120 --out dispute.yaml")
    p.add_argument("transcript", metavar="TRANSCRIPT")
    p.add_argument("--at", type=int, required=True, metavar="STEP", help="the step whose action is disputed")
    p.add_argument("--out", metavar="FILE")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    try:
        if args.command == "play":
            return cmd_play(args, extra)
        if extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        handlers = {"verify": cmd_verify, "lint": cmd_lint, "replay": cmd_replay, "golden": cmd_golden,
                    "dispute": cmd_dispute, "report": cmd_report, "coverage": cmd_coverage}
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


if __name__ == "__main__":
    sys.exit(main())
