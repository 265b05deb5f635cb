"""The conformance report: for every Betrayal haunt, how much of it is encoded and checked.

``render(game_spec)`` returns the Markdown of ``docs/conformance.md``: a summary row per haunt of
the traitor table, then a table per encoded haunt giving what its spec file encodes, the named
hooks it still needs, the golden transcripts that reveal it, the solver checks' results, and the
dispute scenarios that cover it. Regenerate with ``python -m hauntcheck.checks.conformance``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from hauntcheck.checks.solver import PLAYER_COUNTS, SolverReport, check_haunt, describe_rule, world_of
from hauntcheck.engine.betrayal.haunt import support
from hauntcheck.engine.spec import GameSpec, SpecErrors, SpecFile

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"
DOCS = ROOT / "docs"
CHECKS = ("traitor", "box", "rolls", "goals", "tables", "placement", "chart")
_REVEAL = re.compile(r"^haunt (\d+) \(")
_FOLDER = re.compile(r"^(\d+)-")


def _walk(node: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(node, Mapping):
        for key, value in node.items():
            yield str(key), value
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def golden_reveals(game: str) -> dict[int, list[str]]:
    """Haunt number -> golden transcripts (file names) in which that haunt is revealed: every
    transcript in a haunt's golden folder (``scenarios/<game>/haunts/NN-slug/``), and any other
    golden transcript whose reveal names the haunt."""
    from hauntcheck.checks.verify import golden_files
    from hauntcheck.engine import transcript as transcripts
    from hauntcheck.engine.games import get_game

    out: dict[int, list[str]] = {}
    for path in golden_files(get_game(game)):
        try:
            log = transcripts.read(path)
        except SpecErrors:
            continue
        folder = _FOLDER.match(path.parent.name)
        number = int(folder.group(1)) if folder else None
        for step in log.steps if number is None else ():
            for event in step.events:
                rule, _, text = event.partition(": ")
                match = _REVEAL.match(text)
                if rule in ("haunt.traitor-from-table", "hidden-traitor.deal-tokens") and match:
                    number = int(match.group(1))
        if number is not None:
            out.setdefault(number, []).append(path.stem)
    return out


def scenario_haunts(game: str) -> dict[int, list[str]]:
    """Haunt number -> dispute scenarios whose position or options name that haunt."""
    from hauntcheck.engine.scenario import load_scenario, scenario_files

    out: dict[int, list[str]] = {}
    folder = SCENARIOS / game
    for path in scenario_files(folder) if folder.is_dir() else []:
        try:
            data = load_scenario(path, str(path)).data
        except SpecErrors:
            continue
        numbers = set()
        for key, value in _walk(data):
            if key in ("haunt", "haunt_number") and isinstance(value, int) and not isinstance(value, bool):
                numbers.add(value)
            elif key == "haunt" and isinstance(value, Mapping) and isinstance(value.get("number"), int):
                numbers.add(int(value["number"]))
        for n in numbers:
            out.setdefault(n, []).append(path.relative_to(SCENARIOS).as_posix())
    return out


def _count(side: Mapping[str, Any] | None, key: str) -> int:
    return len(side.get(key, ())) if isinstance(side, Mapping) else 0


def encoded(file: SpecFile) -> str:
    d = file.data
    parts = [f"{len(d.get(k, ()))} {k}" for k in ("tables", "tokens", "monsters", "statuses", "flags") if d.get(k)]
    for side_key, label in (("traitor_side", "traitor"), ("heroes_side", "heroes")):
        side = d.get(side_key)
        if not isinstance(side, Mapping):
            continue
        bits = [f"{_count(side, k)} {k.replace('_', ' ')}" for k in ("setup", "tasks", "actions", "timers", "turn_rules", "attack_rules",
                                                                   "rules", "wins") if _count(side, k)]
        parts.append(f"{label}: " + ", ".join(bits))
    marks = file.marks()
    unverified = sum(1 for m in marks if m.kind == "unverified")
    judgement = sum(1 for m in marks if m.kind == "judgement")
    parts.append(f"{unverified} unverified / {judgement} judgement marks")
    return "; ".join(parts)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def solver_cell(report: SolverReport, check: str) -> str:
    errors = [f for f in report.errors if f.check == check]
    notes = [f for f in report.notes if f.check == check]
    if errors:
        return "FAILS: " + "; ".join(_cell(f"{f.message} (line {f.where.line})") for f in errors)
    claims = report.checked.get(check, 0)
    text = f"passes ({claims} claim{'s' if claims != 1 else ''})" if claims else "nothing to check"
    if notes:
        text += "; notes: " + "; ".join(_cell(f"{f.message} (line {f.where.line})") for f in notes)
    return text


def render(game_spec: GameSpec) -> str:
    """The conformance report of a game spec, as Markdown."""
    world = world_of(game_spec)
    haunts = {int(f.data["number"]): f for f in game_spec.by_kind("haunt") if isinstance(f.data.get("number"), int)}
    reports = {n: check_haunt(f, world) for n, f in haunts.items()}
    golden = golden_reveals(game_spec.game)
    engine = support(game_spec)
    disputes = scenario_haunts(game_spec.game)
    lines = [
        "# Haunt conformance",
        "",
        "Generated by `python -m hauntcheck.checks.conformance` from the spec files; do not edit by hand.",
        "For each haunt: what its spec encodes, the named hooks (rules still written as code), the judgements",
        "made where the books are damaged or silent and the parts not carried out, whether the engine plays it",
        "(decided from the file: see [haunt-phase.md](haunt-phase.md)), the golden transcripts that reveal it,",
        "the solver checks (see [checks.md](checks.md)) and the dispute scenarios that cover it. Each side's",
        "win rate under the goal-directed policy, with the hooks again, is in [balance.md](balance.md).",
        f"Player counts checked: {PLAYER_COUNTS[0]}-{PLAYER_COUNTS[-1]}.",
        "",
        "## Summary",
        "",
        "| # | haunt | spec file | traitor rule | hooks | plays | golden | solver | disputes |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for number, (title, rule, _path) in sorted(world.traitors.items()):
        file = haunts.get(number)
        if file is None:
            lines.append(f"| {number} | {_cell(title)} | not encoded yet | {_cell(describe_rule(rule))} | - | - | - | - | - |")
            continue
        report = reports[number]
        verdict = "passes" if not report.errors else f"{len(report.errors)} failing"
        hooks = ", ".join(f"`{h.get('id')}`" for h in file.data.get("hooks", ()) if isinstance(h, Mapping)) or "-"
        lines.append(
            f"| {number} | {_cell(title)} | `{Path(file.display).name}` | {_cell(describe_rule(rule))} | {hooks} | "
            f"{'yes' if engine[number]['playable'] else 'no'} | {len(golden.get(number, []))} | {verdict} | "
            f"{len(disputes.get(number, []))} |"
        )
    encoded_count = len(haunts)
    lines += ["", f"{encoded_count} of {len(world.traitors)} haunts are encoded.", ""]
    for number, file in sorted(haunts.items()):
        report = reports[number]
        d = file.data
        lines += [f"## {number}. {d.get('title')}", "", f"`{file.display}` - {d.get('haunt_kind')} haunt", ""]
        lines += ["| aspect | status |", "|---|---|"]
        lines.append(f"| encoded | {_cell(encoded(file))} |")
        cells = [f"{room} x {omen}" for (room, omen), n in sorted(world.chart_cells.items()) if n == number]
        lines.append(f"| chart cells | {_cell(', '.join(cells)) or 'none'} |")
        hooks = d.get("hooks", ())
        hook_text = "; ".join(f"`{h.get('id')}`: {h.get('says')}" for h in hooks if isinstance(h, Mapping)) or "none"
        lines.append(f"| hooks | {_cell(hook_text)} |")
        for kind, label in (("judgement", "judgements"), ("unverified", "not carried out (unverified)")):
            notes = [f"{m.note} (line {m.where.line})" for m in file.marks() if m.kind == kind]
            if notes:
                lines.append(f"| {label} | {_cell('; '.join(notes))} |")
        blockers = engine[number]["blockers"]
        lines.append(f"| engine | {_cell('; '.join(blockers)) if blockers else 'plays it to the end'} |")
        gold = golden.get(number, [])
        lines.append(f"| golden outcomes | {_cell(', '.join(gold) + ' (revealed)') if gold else 'none yet'} |")
        for check in CHECKS:
            lines.append(f"| solver: {check} | {solver_cell(report, check)} |")
        covered = disputes.get(number, [])
        lines.append(f"| disputes covered | {_cell(', '.join(covered)) if covered else 'none yet'} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write docs/conformance.md (or the path given) from the bundled Betrayal spec."""
    from hauntcheck.engine.games import game_spec

    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0]) if args else DOCS / "conformance.md"
    target.write_text(render(game_spec("betrayal")), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
