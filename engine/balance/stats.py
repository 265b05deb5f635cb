"""The numbers of a balance study: Wilson intervals, quantiles, and the summary of one haunt at
one player count, computed from the games' records alone (so merged shards give the same
numbers as one run)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: z for a two-sided 95 % interval.
Z95 = 1.959963984540054
#: Quantiles of game length reported per cell.
QUANTILES = (0.1, 0.5, 0.9)
#: Endings that are not a side's win: a game that ended with no winner, and one stopped by the
#: round (or step) limit.
NO_WINNER, UNDECIDED = "nobody", "undecided"


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``(0, 1)`` when there were no trials): unlike
    the normal approximation it stays inside [0, 1] and is sound for small counts and 0 or n."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def quantile(sorted_values: Sequence[int], q: float) -> float:
    """The ``q`` quantile by linear interpolation between order statistics (numpy's default)."""
    if not sorted_values:
        return 0.0
    position = q * (len(sorted_values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


@dataclass(frozen=True)
class Share:
    """How many games of a cell ended one way, as a rate with its 95 % Wilson interval."""

    count: int
    games: int

    @property
    def rate(self) -> float:
        return self.count / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.count, self.games)

    def to_data(self) -> dict[str, Any]:
        low, high = self.interval
        return {"count": self.count, "rate": round(self.rate, 4), "low": round(low, 4), "high": round(high, 4)}

    def percent(self) -> str:
        return share_text(self.to_data())


def share_text(share: Mapping[str, Any]) -> str:
    """A share as written in a balance.json, shown as ``71 % [64, 77]``."""
    return f"{100 * share['rate']:.0f} % [{100 * share['low']:.0f}, {100 * share['high']:.0f}]"


def summarize(records: Sequence[Mapping[str, Any]], endings: Sequence[str]) -> dict[str, Any]:
    """One cell (a haunt at a player count): every ending's share, the rounds and steps
    quantiles, and the most common winning condition among the games a side won."""
    games = len(records)
    counts = Counter(str(r["ending"]) for r in records)
    rounds = sorted(int(r["rounds"]) for r in records)
    steps = sorted(int(r["steps"]) for r in records)
    won = Counter(str(r["condition"]) for r in records if r["ending"] not in (NO_WINNER, UNDECIDED))
    condition = min(won.items(), key=lambda kv: (-kv[1], kv[0])) if won else None
    return {
        "games": games,
        "endings": {e: Share(counts.get(e, 0), games).to_data() for e in endings},
        "rounds": {f"q{round(100 * q)}": round(quantile(rounds, q), 2) for q in QUANTILES},
        "steps": {f"q{round(100 * q)}": round(quantile(steps, q), 2) for q in QUANTILES},
        "top_condition": {"condition": condition[0], "count": condition[1]} if condition else None,
    }


def imbalance(cells: Mapping[str, Mapping[str, Any]], sides: Sequence[str]) -> float:
    """How surely a haunt is lopsided: the largest lower bound of the 95 % interval of any side's
    win rate at any player count, less 1/2. Above 0, some side wins more than half the games at
    some count with 95 % confidence; it grows with the lopsidedness and with the evidence, so a
    haunt of few games does not sort above a well-measured one by chance."""
    lows = [cell["endings"][s]["low"] for cell in cells.values() for s in sides]
    return round(max(lows, default=0.0) - 0.5, 4)


def verdict(cells: Mapping[str, Mapping[str, Any]], sides: Sequence[str]) -> str:
    """One line a designer reads first: the side whose win rate is above one half with 95 %
    confidence, at the runs of player counts where that holds (counts pooled); failing that, over
    all counts pooled; else the haunt looks even. A high undecided rate is added because it hides
    the real balance."""
    by_count = {int(p): cell for p, cell in cells.items()}
    parts = []
    for side in sides:
        favoured = [p for p, cell in sorted(by_count.items()) if cell["endings"][side]["low"] > 0.5]
        for run in _runs(favoured):
            wins = sum(by_count[p]["endings"][side]["count"] for p in run)
            games = sum(by_count[p]["games"] for p in run)
            where = f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0])
            parts.append(f"{side} favoured at {where} player{'s' if run != [1] else ''}: {Share(wins, games).percent()}")
    total = sum(cell["games"] for cell in by_count.values())
    if not parts and len(by_count) > 1:
        # No single count is sure, but all of them together may be.
        for side in sides:
            pooled = Share(sum(cell["endings"][side]["count"] for cell in by_count.values()), total)
            if pooled.interval[0] > 0.5:
                parts.append(f"{side} favoured over all player counts pooled: {pooled.percent()}")
    if not parts:
        parts.append("no side wins more than half the games with 95 % confidence at any player count")
    undecided = sum(cell["endings"].get(UNDECIDED, {}).get("count", 0) for cell in by_count.values())
    if total and undecided / total >= 0.2:
        parts.append(f"undecided (round limit) in {Share(undecided, total).percent()} of games")
    return "; ".join(parts)


def _runs(numbers: Iterable[int]) -> list[list[int]]:
    """Consecutive runs: [3, 4, 6] -> [[3, 4], [6]]."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return runs
