"""**box** - the monsters and tokens a haunt's setup and play can put out never exceed the box.

The counts come from ``components.yaml`` (large and small monster tokens, item, square and
trait-roll tokens); what a haunt needs is summed from its setup and outcomes at each player count
(:func:`token_needs`). A haunt that knowingly needs more says so (an acknowledgement in its file),
and the finding becomes a note.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from hauntcheck.checks.solver.world import PLAYER_COUNTS, Finding, PathKey, SolverReport, World, amount, walk
from hauntcheck.engine.spec import SpecFile, Where


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
        scatter = node.get("scatter")
        if isinstance(scatter, Mapping):
            # distinct tokens, each put out (or set aside) once
            for token in scatter.get("tokens", ()):
                if isinstance(token, str):
                    placed[token] = max(placed.get(token, 0), 1)
                    note_where(token, 1, (*path, "scatter"))
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
