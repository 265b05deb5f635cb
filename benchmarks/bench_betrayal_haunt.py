"""Benchmark: whole games of Betrayal through the haunt, played by the goal-directed policy.

Each game is a golden-style game: seeded chance, the policy for every seat, from setup through
exploration, the reveal, the haunt's setup and rounds, to a win (or the round limit). Seeds are
taken in order; games that reveal a haunt the engine does not play yet end at the reveal, so
``haunt_games`` counts the games that went through a haunt. Reported: games and engine actions per
second (all games), and the haunt-phase actions per second.
Run standalone: ``python benchmarks/bench_betrayal_haunt.py [SECONDS]``.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from hauntcheck.engine.betrayal.haunt import new_game
from hauntcheck.engine.betrayal.policy import policy
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import PolicyController, play, seeded_table
from hauntcheck.engine.transcript import TranscriptHeader


def bench(seconds: float) -> dict[str, Any]:
    """Play seeded 4-player policy games to their end for about ``seconds``; report the rates."""
    spec = game_spec("betrayal")
    new_game(spec, 4, {})  # load the tables and haunt files once, outside the timing
    games = actions = haunt_games = haunt_actions = 0
    results: dict[str, int] = {}
    seed = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or games == 0:
        state = new_game(spec, 4, {})
        result = play(state, seeded_table(seed, PolicyController(policy, seed)), TranscriptHeader("betrayal", 4, seed))
        steps = result.transcript.steps
        actions += len(steps)
        games += 1
        outcome = state.outcome()
        if state.hs is not None and outcome is not None:
            haunt_games += 1
            results[outcome.result] = results.get(outcome.result, 0) + 1
            first = next(i for i, s in enumerate(steps) if any(e.startswith("haunt.revealer") for e in s.events))
            haunt_actions += len(steps) - first
        seed += 1
        elapsed = time.perf_counter() - start
    return {
        "seconds": round(elapsed, 3),
        "games": games,
        "actions": actions,
        "games_per_second": round(games / elapsed, 2),
        "actions_per_second": round(actions / elapsed, 1),
        "haunt_games": haunt_games,
        "haunt_actions": haunt_actions,
        "haunt_results": dict(sorted(results.items())),
    }


if __name__ == "__main__":
    print(json.dumps(bench(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0), indent=2))
