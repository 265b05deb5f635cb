"""**chart** - the haunt chart is total, and every haunt file agrees with what points to it.

The chart is total over its 13 x 13 cells and every number on it has a traitor-table entry; every
haunt file of the book agrees with the cells and table entry that point to it (title, traitor
rule, file name and slug). A designer's draft lives outside the bundled spec, and its own chart
place, if any, is a cell of the chart.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from hauntcheck.checks.solver.traitor import _freeze, describe_rule
from hauntcheck.checks.solver.world import Finding, SolverReport, World
from hauntcheck.engine.betrayal.hauntspec import BOOK_HAUNTS, is_draft
from hauntcheck.engine.spec import SPEC_ROOT, SpecFile


def chart_findings(world: World, report: SolverReport) -> None:
    """The chart is total over its cells and every number on it has a traitor-table entry."""
    file = world.chart_file
    if file is None:
        return
    data = file.data
    columns = data.get("columns", [])
    first, last = int(data.get("haunts", {}).get("first", 1)), int(data.get("haunts", {}).get("last", 50))
    omen_rooms = sorted(r for r, s in world.room_symbols.items() if s == "omen")
    rows = {str(row.get("room")): (i, row) for i, row in enumerate(data.get("rows", ()))}
    for room in omen_rooms:
        report.count("chart")
        if room not in rows:
            report.findings.append(Finding("chart", file.where(("rows",)),
                                           f"omen room {room!r} has no row: {len(columns)} cells are missing"))
    for room, (i, row) in rows.items():
        cells = row.get("haunts", [])
        if len(cells) != len(columns):
            report.findings.append(Finding("chart", file.where(("rows", i, "haunts")),
                                           f"row {room!r} has {len(cells)} cells for {len(columns)} omen columns"))
        for j, n in enumerate(cells):
            report.count("chart")
            if not isinstance(n, int) or not first <= n <= last:
                omen = columns[j] if j < len(columns) else j
                report.findings.append(Finding("chart", file.where(("rows", i, "haunts", j)),
                                               f"cell {room} x {omen} holds {n!r}, not a haunt {first}-{last}"))
            elif world.traitors_file is not None and n not in world.traitors:
                report.findings.append(Finding("chart", file.where(("rows", i, "haunts", j)), f"haunt {n} has no entry in traitors.yaml"))
    total = len(omen_rooms) * len(columns)
    filled = sum(1 for room in omen_rooms if room in rows for _ in rows[room][1].get("haunts", [])[: len(columns)])
    if filled != total:
        report.findings.append(Finding("chart", file.where(("rows",)), f"the chart fills {filled} of its {total} cells"))
    numbers = {n for n in world.chart_cells.values()}
    for n in range(first, last + 1):
        if n not in numbers:
            report.findings.append(Finding("chart", file.where(("haunts",)), f"haunt {n} is reached by no chart cell"))


_NAME = re.compile(r"^(\d+)-(.+)\.yaml$")


def identity_findings(world: World, file: SpecFile, report: SolverReport) -> None:
    """A haunt file agrees with the chart cells and the traitor-table entry that point to it."""
    data = file.data
    number = data.get("number")
    report.count("chart")
    if is_draft(data):
        draft_findings(world, file, report)
        return
    for key in ("sources", "chart"):
        if key in data:
            report.findings.append(Finding("chart", file.where((key,)), f"only a designer's draft (numbered above "
                                           f"{BOOK_HAUNTS}, or not at all) has its own {key}: the book's haunts use "
                                           "spec/sources.yaml and the haunt chart"))
    if "traitors_tome" not in (data.get("cite") or {}):
        report.findings.append(Finding("chart", file.where(("cite",)), "a haunt of the book cites where its Traitor's "
                                       "Tome and Secrets of Survival sides are printed (traitors_tome, secrets_of_survival)"))
    assert isinstance(number, int)
    cells = [(r, o) for (r, o), n in world.chart_cells.items() if n == number]
    if world.chart_file is not None and not cells:
        report.findings.append(Finding("chart", file.where(("number",)), f"no haunt chart cell leads to haunt {number}"))
    entry = world.traitors.get(number)
    if entry is None:
        if world.traitors_file is not None:
            report.findings.append(Finding("chart", file.where(("number",)), f"traitors.yaml has no entry for haunt {number}"))
        return
    title, rule, tpath = entry
    assert world.traitors_file is not None
    if str(data.get("title")) != title:
        report.findings.append(Finding("chart", file.where(("title",)),
                                       f"title {data.get('title')!r} differs from traitors.yaml's {title!r} "
                                       f"({world.traitors_file.where(tpath[:2])}) for haunt {number}"))
    if _freeze(data.get("traitor")) != _freeze(rule):
        report.findings.append(Finding("traitor", file.where(("traitor",)),
                                       f"traitor rule '{describe_rule(data.get('traitor') or {})}' differs from traitors.yaml's "
                                       f"'{describe_rule(rule)}' ({world.traitors_file.where(tpath)})"))
    match = _NAME.match(file.path.name)
    if match and int(match.group(1)) != number:
        report.findings.append(Finding("chart", file.where(("number",)),
                                       f"file name says haunt {int(match.group(1))} but number is {number}"))
    if match and isinstance(data.get("slug"), str) and match.group(2) != data["slug"]:
        report.findings.append(Finding("chart", file.where(("slug",)),
                                       f"file name says slug {match.group(2)!r} but slug is {data['slug']!r}"))


def draft_findings(world: World, file: SpecFile, report: SolverReport) -> None:
    """A designer's draft: it lives outside the bundled spec, and its own chart place (if any)
    is a cell of the chart (an omen room and an omen card)."""
    data = file.data
    bundled = SPEC_ROOT / "betrayal" / "haunts"
    if file.path.resolve().parent == bundled.resolve():
        report.findings.append(Finding("chart", file.where(("number",) if "number" in data else ()),
                                       f"the haunts of spec/betrayal/haunts are the book's, numbered 1-{BOOK_HAUNTS}; "
                                       "a designer's draft lives outside the package"))
    place = data.get("chart")
    if isinstance(place, Mapping) and world.chart_file is not None:
        rooms = {r for r, _ in world.chart_cells}
        omens = {o for _, o in world.chart_cells}
        if place.get("room") not in rooms:
            report.findings.append(Finding("chart", file.where(("chart", "room")),
                                           f"{place.get('room')!r} is not a room of the haunt chart: {', '.join(sorted(rooms))}"))
        if place.get("omen") not in omens:
            report.findings.append(Finding("chart", file.where(("chart", "omen")),
                                           f"{place.get('omen')!r} is not an omen of the haunt chart: {', '.join(sorted(omens))}"))
