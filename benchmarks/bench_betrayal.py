"""Benchmark: random 4-player games of Betrayal from setup to the haunt reveal (seeded), measured
in engine actions and games per second through the same ``play`` loop the CLI uses.

Target (issue 4): at least 25,000 engine actions per second on the 2-core reference machine.
Run standalone: ``python benchmarks/bench_betrayal.py [SECONDS]``.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from hauntcheck.engine.betrayal import GAME
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import play, seeded_table
from hauntcheck.engine.transcript import TranscriptHeader


def bench(seconds: float) -> dict[str, Any]:
    """Play seeded random 4-player games to the reveal for about ``seconds``; report the rates."""
    spec = game_spec("betrayal")
    GAME.new_game(spec, 4, {})  # build the tables once, outside the timing
    games = actions = 0
    seed = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    elapsed = 0.0
    while elapsed < seconds or games == 0:
        state = GAME.new_game(spec, 4, {})
        result = play(state, seeded_table(seed), TranscriptHeader("betrayal", 4, seed), stop="reveal")
        actions += len(result.transcript.steps)
        games += 1
        seed += 1
        elapsed = time.perf_counter() - start
    cpu = max(time.process_time() - cpu_start, 1e-9)
    return {
        "seconds": round(elapsed, 3),
        "games": games,
        "actions": actions,
        "actions_per_second": round(actions / elapsed, 1),
        "games_per_second": round(games / elapsed, 2),
        "actions_per_game": round(actions / games, 1),
        # CPU time as well: on a shared 2-core machine the wall-clock rate drops with the load
        "cpu_seconds": round(cpu, 3),
        "actions_per_cpu_second": round(actions / cpu, 1),
    }


if __name__ == "__main__":
    print(json.dumps(bench(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0), indent=2))
