"""**placement** - what a placement names exists and its constraints fit some house.

Rooms and floors a placement names exist, enough rooms with the needed symbol or on the needed list
exist, and ``min_tiles_from`` constraints fit on some house or declare a fallback.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.checks.solver.world import FLOORS, PLAYER_COUNTS, Finding, PathKey, SolverReport, World, amount, walk
from hauntcheck.engine.spec import SpecFile


def placement_findings(world: World, file: SpecFile, report: SolverReport) -> None:
    """Placement constraints fit some reachable house, or declare a fallback."""
    data = file.data
    number = data.get("number")
    haunt_floors: list[str] = []
    if isinstance(number, int):
        haunt_floors = sorted({f for r in world.haunt_rooms(number) for f in world.room_floors.get(r, ())})
    for path, node in walk(data):
        for verb in ("place", "fetch_room"):
            step = node.get(verb)
            if not isinstance(step, Mapping):
                continue
            loc = step.get("in") if verb == "place" else step.get("place")
            if not isinstance(loc, Mapping):
                continue
            lpath = (*path, verb, "in" if verb == "place" else "place")
            report.count("placement")
            _check_location(world, file, data, step, loc, lpath, haunt_floors, report)


def _check_location(world: World, file: SpecFile, data: Mapping[str, Any], step: Mapping[str, Any], loc: Mapping[str, Any],
                    lpath: PathKey, haunt_floors: list[str], report: SolverReport) -> None:
    rooms = world.room_floors
    named = [loc["room"]] if isinstance(loc.get("room"), str) else [r for r in loc.get("rooms", ()) if isinstance(r, str)]
    for r in named:
        if r not in rooms:
            key = "room" if "room" in loc else "rooms"
            report.findings.append(Finding("placement", file.where((*lpath, key)), f"no room {r!r} in rooms.yaml"))
    floor = loc.get("floor")
    floors: list[str] = list(FLOORS)
    if isinstance(floor, str) and floor in FLOORS:
        floors = [floor]
    if loc.get("same_floor_as") == "haunt-room" and haunt_floors:
        floors = [f for f in floors if f in haunt_floors]
    counts = [amount(data, step.get("count", 1), n) for n in PLAYER_COUNTS]
    most = max((c for c in counts if c is not None), default=1)
    overflow = "overflow" in loc or loc.get("on_discovery") or "fallback" in loc
    if named and loc.get("one_per_room") and most > len(set(named)) and not overflow:
        report.findings.append(Finding("placement", file.where((*lpath, "rooms")),
                                       f"{most} placed one per room in only {len(set(named))} named rooms, with no overflow rule"))
    if isinstance(floor, str) and named:
        off = [r for r in named if r in rooms and floor not in rooms[r]]
        if off and len(off) == len(named):
            report.findings.append(Finding("placement", file.where((*lpath, "floor")),
                                           f"none of {', '.join(off)} can be on the {floor} floor"))
    symbol = loc.get("symbol")
    if isinstance(symbol, str):
        fitting = [r for r, fl in rooms.items() if world.room_symbols.get(r) == symbol and any(f in fl for f in floors)]
        needed = most if loc.get("one_per_room") else 1
        if len(fitting) < needed and not overflow:
            report.findings.append(Finding("placement", file.where((*lpath, "symbol")),
                                           f"needs {needed} {symbol}-symbol room(s) on {'/'.join(floors)}; only {len(fitting)} exist"))
    far = loc.get("min_tiles_from")
    if isinstance(far, Mapping) and isinstance(far.get("tiles"), int):
        tiles = int(far["tiles"])
        # A path of `tiles` steps on one floor needs tiles + 1 rooms that can lie on that floor.
        room_count = {f: sum(1 for fl in rooms.values() if f in fl) for f in floors}
        fits = [f for f, c in room_count.items() if c >= tiles + 1]
        if not fits:
            if "fallback" in loc:
                report.findings.append(Finding("placement", file.where((*lpath, "min_tiles_from")),
                                               f"{tiles} tiles apart cannot happen on {'/'.join(floors)}; the fallback "
                                               f"{loc['fallback']!r} always applies", severity="note"))
            else:
                report.findings.append(Finding("placement", file.where((*lpath, "min_tiles_from")),
                                               f"{tiles} tiles apart cannot happen on {'/'.join(floors)} and no fallback is declared"))
        elif "fallback" not in loc:
            report.findings.append(Finding("placement", file.where((*lpath, "min_tiles_from")),
                                           f"{tiles} tiles apart fits some house but not every one; no fallback is declared",
                                           severity="note"))
