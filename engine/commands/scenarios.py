"""The commands about scenarios and positions: ``dispute``, ``view``, ``report``.

``dispute`` runs dispute scenarios and explains each verdict rule by rule (with pictures of the
position), ``view`` writes a transcript, golden game or scenario as one offline HTML page, and
``report`` turns the position at a step of a transcript into a scenario skeleton.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from hauntcheck.engine import setup
from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.commands.common import UsageError, _finish, _inputs, _write_picture, output_format
from hauntcheck.engine.core import CHANCE
from hauntcheck.engine.games import game_spec


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
