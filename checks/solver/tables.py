"""**tables** - player-count tables cover 3 to 6 with no gap or overlap; Turn/Damage stat rows have
no gap or overlap either.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from hauntcheck.checks.solver.world import PLAYER_COUNTS, Finding, SolverReport
from hauntcheck.engine.spec import SpecFile


def table_findings(file: SpecFile, report: SolverReport) -> None:
    """Player-count tables give one value for each of 3..6; stat rows by track have no gaps."""
    data = file.data
    for i, table in enumerate(data.get("tables", ())):
        if not isinstance(table, Mapping):
            continue
        values = table.get("values", {})
        report.count("tables")
        keys: dict[int, list[Any]] = {}
        for k in values if isinstance(values, Mapping) else ():
            try:
                keys.setdefault(int(k), []).append(k)
            except (TypeError, ValueError):
                report.findings.append(Finding("tables", file.where(("tables", i, "values", k)),
                                               f"table {table.get('id')!r}: {k!r} is not a player count"))
        for n, ks in sorted(keys.items()):
            if len(ks) > 1:
                report.findings.append(Finding("tables", file.where(("tables", i, "values")),
                                               f"table {table.get('id')!r} gives {n} players twice"))
        missing = [n for n in PLAYER_COUNTS if n not in keys]
        extra = sorted(n for n in keys if n not in PLAYER_COUNTS)
        if missing:
            report.findings.append(Finding("tables", file.where(("tables", i, "values")),
                                           f"table {table.get('id')!r} has no value for {', '.join(map(str, missing))} players"))
        if extra:
            report.findings.append(Finding("tables", file.where(("tables", i, "values")),
                                           f"table {table.get('id')!r} gives values for {', '.join(map(str, extra))} players "
                                           "(Betrayal is 3-6)"))
    for m_index, monster in enumerate(data.get("monsters", ())):
        rows = monster.get("stats_by_track") if isinstance(monster, Mapping) else None
        if not isinstance(rows, list):
            continue
        report.count("tables")
        tracks = [r.get("track") for r in rows if isinstance(r, Mapping)]
        base = ("monsters", m_index, "stats_by_track")
        for j, (a, b) in enumerate(itertools.pairwise(tracks)):
            if isinstance(a, int) and isinstance(b, int) and b != a + 1:
                what = "repeats" if b <= a else "skips"
                report.findings.append(Finding("tables", file.where((*base, j + 1, "track")),
                                               f"monster {monster.get('id')!r}: stat rows {what} track values ({a} then {b})"))
        for j, row in enumerate(rows[:-1]):
            if isinstance(row, Mapping) and row.get("and_above"):
                report.findings.append(Finding("tables", file.where((*base, j, "and_above")),
                                               f"monster {monster.get('id')!r}: only the last stat row may say 'and above'"))
