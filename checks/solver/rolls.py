"""**rolls** - every roll with a target can succeed for some explorer that can be in the party.

At most 8 dice; a die shows 0, 0, 1, 1, 2 or 2. Fixed-dice rolls and bands can reach their numbers,
and rolls that can never fail are noted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.checks.solver.world import MAX_DICE, PLAYER_COUNTS, TRAITS, Finding, SolverReport, World, amount, walk
from hauntcheck.engine.spec import SpecFile


def best_dice(world: World, roll: Mapping[str, Any]) -> tuple[int, str] | None:
    """The most dice any explorer that can be in the party rolls for ``roll`` (capped at 8),
    with how it was found; None for opposed rolls (they have no fixed target)."""
    if "dice" in roll and isinstance(roll["dice"], int):
        return min(MAX_DICE, int(roll["dice"])), f"{roll['dice']} dice"
    if "trait" in roll and isinstance(roll["trait"], str):
        traits: list[str] = [roll["trait"]]
    elif "trait_choice" in roll:
        traits = [str(t) for t in roll["trait_choice"]]
    elif roll.get("each_trait"):
        # Every trait must pass: the explorer whose weakest best trait is strongest.
        best, who = 0, ""
        for e in world.explorers:
            low = min(max(e.tracks.get(t, (0,))) for t in TRAITS)
            if low > best:
                best, who = low, e.name
        return min(MAX_DICE, best), f"every trait (best weakest trait: {who}, {best})"
    else:
        return None
    best, how = 0, ""
    for e in world.explorers:
        for t in traits:
            top = max(e.tracks.get(t, (0,)))
            if top > best:
                best, how = top, f"{t} (highest value {top}, {e.name})"
    return min(MAX_DICE, best), how


def best_bonus(world: World, data: Mapping[str, Any], roll: Mapping[str, Any], players: int) -> int:
    """The most a roll's ``modifiers`` can add at once: every ``add`` (a count of rooms with a
    symbol at most every such room in the box); a ``subtract`` never helps."""
    bonus = 0
    for mod in roll.get("modifiers", ()) if isinstance(roll.get("modifiers"), list) else ():
        add = mod.get("add") if isinstance(mod, Mapping) else None
        value = amount(data, add, players)
        if value is None and isinstance(add, Mapping) and add.get("of") == "rooms-with-symbol":
            rooms = sum(1 for s in world.room_symbols.values() if s == add.get("symbol"))
            value = rooms * int(add.get("times", 1)) + int(add.get("plus", 0))
        bonus += max(0, value or 0)
    return bonus


def roll_findings(world: World, file: SpecFile, report: SolverReport) -> None:
    """Every roll with a target can succeed; band ranges can be rolled; never-failing rolls noted."""
    data = file.data
    for path, node in walk(data):
        roll = node.get("roll")
        if not isinstance(roll, Mapping):
            continue
        rpath = (*path, "roll")
        dice = best_dice(world, roll)
        if dice is None:
            continue
        count, how = dice
        top = 2 * count
        report.count("rolls")
        if "target" in roll:
            seen: set[tuple[int, str]] = set()
            for players in PLAYER_COUNTS:
                target = amount(data, roll["target"], players)
                if target is None:
                    continue
                reach = top + best_bonus(world, data, roll, players)
                if target > reach and (target, "fail") not in seen:
                    seen.add((target, "fail"))
                    at = f" at {players} players" if not isinstance(roll["target"], int) else ""
                    report.findings.append(Finding(
                        "rolls", file.where((*rpath, "target")),
                        f"roll needs {target}+{at} but no explorer can roll more than {reach} ({how}: {count} dice of 0-2"
                        + (f", bonuses {reach - top})" if reach > top else ")"),
                        f"best possible roll: {count} dice all showing 2 = {top}"
                        + (f", bonuses {reach - top}" if reach > top else "") + f" < {target}"))
                elif target <= 0 and (target, "note") not in seen:
                    seen.add((target, "note"))
                    report.findings.append(Finding("rolls", file.where((*rpath, "target")),
                                                   f"roll of {target}+ can never fail", severity="note"))
        for i, band in enumerate(roll.get("bands", ()) if isinstance(roll.get("bands"), list) else ()):
            low = band.get("min") if isinstance(band, Mapping) else None
            if isinstance(low, int) and low > top:
                report.findings.append(Finding("rolls", file.where((*rpath, "bands", i, "min")),
                                               f"band {low}+ can never be rolled (at most {top} with {count} dice)"))
