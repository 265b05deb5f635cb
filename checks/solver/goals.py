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
    converted = _converted_tokens(data)
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
                out_now = token_needs(data, players)[0]
                have = sum(out_now.get(k, 0) + sum(out_now.get(x, 0) for x in converted.get(k, ()) if x not in kinds)
                           for k in kinds)
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


def _converted_tokens(data: Mapping[str, Any]) -> dict[str, set[str]]:
    """Token kinds an outcome list turns into others: a ``discard_token`` of X and an ``earn`` of Y
    in one list (a Paint token thrown into the Pentagram Chamber becomes a thrown one): Y -> {X}."""
    out: dict[str, set[str]] = {}
    for _path, node in walk(data):
        for key in ("do", "success"):
            outcomes = node.get(key)
            if not isinstance(outcomes, list):
                continue
            spent = {o["discard_token"] for o in outcomes if isinstance(o, Mapping) and isinstance(o.get("discard_token"), str)}
            for o in outcomes:
                earn = o.get("earn") if isinstance(o, Mapping) else None
                if spent and isinstance(earn, Mapping) and isinstance(earn.get("token"), str):
                    out.setdefault(earn["token"], set()).update(spent)
    return out
