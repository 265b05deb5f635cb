"""Benchmark: random games of Halls of Horror (solo, 2, 3 and 4 players in turn, seeded), measured
in actions and games per second through the same ``play`` loop the CLI uses.

Run standalone: ``python benchmarks/bench_halls.py [SECONDS]``.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from hauntcheck.engine.games import game_spec
from hauntcheck.engine.halls import GAME
from hauntcheck.engine.play import play, seeded_table
from hauntcheck.engine.transcript import TranscriptHeader


def bench(seconds: float) -> dict[str, Any]:
    """Play seeded random games for about ``seconds`` and report the rates."""
    spec = game_spec("halls-of-horror")
    games = actions = 0
    seed = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or games == 0:
        players = 1 + seed % 4
        state = GAME.new_game(spec, players, {})
        result = play(state, seeded_table(seed), TranscriptHeader("halls-of-horror", players, seed))
        actions += len(result.transcript.steps)
        games += 1
        seed += 1
        elapsed = time.perf_counter() - start
    return {
        "seconds": round(elapsed, 3),
        "games": games,
        "actions": actions,
        "actions_per_second": round(actions / elapsed, 1),
        "games_per_second": round(games / elapsed, 2),
    }


if __name__ == "__main__":
    print(json.dumps(bench(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0), indent=2))
