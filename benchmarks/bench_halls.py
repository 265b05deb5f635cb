"""Benchmark: seeded random games of Halls of Horror (1, 2, 3, 4 players in turn) through the same
``play`` loop the CLI uses, in actions and games per second.

Run standalone: ``python benchmarks/bench_halls.py [SECONDS]``.
"""

from __future__ import annotations

import json
import sys

from hauntcheck.engine.play import measure_random_play


def bench(seconds: float) -> dict[str, float]:
    return measure_random_play("halls-of-horror", seconds, [1, 2, 3, 4])


if __name__ == "__main__":
    print(json.dumps(bench(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0), indent=2))
