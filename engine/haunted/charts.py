"""Haunted's two charts, Room Description (by colour and value) and Card Effects (by suit and value):
read from ``spec/haunted/charts.yaml`` or a user's ``--charts FILE`` and checked.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from hauntcheck.engine.haunted.model import RANKS_WITH_CHARTS, STATS, Charts, Entry
from hauntcheck.engine.spec import SpecError, SpecErrors, SpecFile, load_file


def _entry(data: Mapping[str, Any]) -> Entry:
    effect = data.get("effect", {})
    return Entry(str(data["room"]), tuple((s, int(effect[s])) for s in STATS if effect.get(s)))


def chart_errors(file: SpecFile) -> list[SpecError]:
    """Every suit of the Card Effects chart must cover all twelve values (by ``any`` or one by one)."""
    errors = []
    for suit, entries in file.data["card_effects"].items():
        if "any" not in entries:
            missing = [r for r in RANKS_WITH_CHARTS if r not in entries]
            if missing:
                errors.append(
                    file.error(
                        ("card_effects", suit),
                        f"{suit} has no 'any' entry and no entry for {', '.join(missing)}; give 'any' or every value 2..10, J, Q, K",
                    )
                )
    return errors


def charts_from(file: SpecFile) -> Charts:
    """Charts from a validated ``haunted-charts`` file (raises SpecErrors on gaps)."""
    if file.kind != "haunted-charts":
        raise SpecErrors([file.error(("kind",), f"expected a chart file (kind: haunted-charts), got kind {file.kind!r}")])
    errors = chart_errors(file)
    if errors:
        raise SpecErrors(errors)
    data = file.data
    colour = {c: {r: _entry(data["room_description"][c][r]) for r in RANKS_WITH_CHARTS} for c in ("red", "black")}
    suit: dict[str, dict[str, Entry]] = {}
    for name, entries in data["card_effects"].items():
        suit[name] = {r: _entry(entries.get(r, entries.get("any"))) for r in RANKS_WITH_CHARTS}
    return Charts(str(data["source"]), colour, suit, file.display)


def load_charts(path: Path | str) -> Charts:
    """Read user-supplied charts (``--charts FILE``), validated by the haunted-charts schema.

    Every problem is raised as SpecErrors with file:line:col."""
    file = load_file(Path(path), str(path))
    return charts_from(file)


@cache
def cached_charts(path: str) -> Charts:
    return load_charts(path)
