"""Benchmark: random 4-player games of Betrayal from setup to the haunt reveal (seeded), measured
in engine actions and games per second through the same ``play`` loop the CLI uses.

Target (issue 4): at least 25,000 engine actions per second on the 2-core reference machine.
Run standalone: ``python benchmarks/bench_betrayal.py [SECONDS]``.
"""

from __future__ import annotations

import json
import sys

from hauntcheck.engine.games import game_spec, get_game
from hauntcheck.engine.play import measure_random_play


def bench(seconds: float) -> dict[str, float]:
    get_game("betrayal").new_game(game_spec("betrayal"), 4, {})  # build the tables once, outside the timing
    return measure_random_play("betrayal", seconds, [4], stop="reveal")


if __name__ == "__main__":
    print(json.dumps(bench(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0), indent=2))
