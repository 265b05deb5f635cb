"""**goals** - what a win or an action needs is there to be had.

A win or action that needs N tokens earned (or held) has N of them to be had and something that
earns them; N monsters defeated needs N monsters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.checks.solver.box import token_needs
from hauntcheck.checks.solver.world import PLAYER_COUNTS, Finding, SolverReport, amount, walk
from hauntcheck.engine.spec import SpecFile


def _earned_tokens(data: Mapping[str, Any]) -> set[str]:
    """Token kinds some outcome earns or takes (``earn``, ``take_token``)."""
    out: set[str] = set()
    for _path, node in walk(data):
        earn = node.get("earn")
        if isinstance(earn, Mapping):
            if isinstance(earn.get("token"), str):
                out.add(earn["token"])
            out.update(t for t in earn.get("tokens", ()) if isinstance(t, str))
        take = node.get("take_token")
        if isinstance(take, str):
            out.add(take)
        elif isinstance(take, Mapping):
            out.update(t for t in take.get("one_of", ()) if isinstance(t, str))
    return out


def goal_findings(file: SpecFile, report: SolverReport) -> None:
    """Token and monster counts a predicate asks for can be reached: a win needing N tokens
    earned has N of them to earn and some task earns them; N monsters defeated needs N monsters."""
    data = file.data
    earned = _earned_tokens(data)
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
                if key == "tokens_collected" and kind not in earned and "in" not in want:  # tokens lying in rooms need no earning
                    report.findings.append(Finding("goals", where,
                                                   f"{key} counts {kind!r} tokens, but nothing in the haunt earns or takes one"))
            for players in PLAYER_COUNTS:
                need = amount(data, want.get("count"), players)
                have = sum(token_needs(data, players)[0].get(k, 0) for k in kinds)
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
