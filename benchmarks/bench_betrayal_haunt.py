"""Benchmark: whole Betrayal games through each playable haunt, by the policy and at random.

For every haunt with golden games, each golden case's seed is played again from setup:

* **policy**: the goal-directed policy for every seat, setup to the end (the golden game itself);
* **random**: the golden game's actions up to the reveal (not timed), then seeded random
  decisions for every seat to the end of the haunt (or its round limit).

Reported overall: engine actions per second over all timed play, and per haunt: policy and random
games per second, their actions per game and how they ended. Each pass plays every case once; passes
repeat until the time budget is spent.
Run standalone: ``python benchmarks/bench_betrayal_haunt.py [SECONDS]``.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from hauntcheck.checks.verify import golden_file
from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.betrayal.haunt import new_game
from hauntcheck.engine.betrayal.policy import policy
from hauntcheck.engine.games import GoldenCase, game_spec, get_game
from hauntcheck.engine.play import PolicyController, play, seeded_table
from hauntcheck.engine.transcript import Step, TranscriptHeader


def _reveal_prefix(case: GoldenCase, steps: list[Step]) -> list[Step]:
    """The recorded steps up to the one that began the haunt phase."""
    state = new_game(game_spec("betrayal"), case.players, case.options)
    for i, step in enumerate(steps):
        state.apply(step.action)
        if state.hs is not None:
            return steps[: i + 1]
    raise LookupError(f"{case.name} never reaches the haunt")


def bench(seconds: float) -> dict[str, Any]:
    spec = game_spec("betrayal")
    cases: list[GoldenCase] = [c for c in get_game("betrayal").golden if "haunt" in c.options]
    prefixes = {c.name: _reveal_prefix(c, transcripts.read(golden_file("betrayal", c)).steps) for c in cases}
    per: dict[str, dict[str, Any]] = {}
    actions = 0
    timed_seconds = 0.0
    passes = 0
    start = time.perf_counter()
    while passes == 0 or time.perf_counter() - start < seconds:
        passes += 1
        for case in cases:
            row = per.setdefault(f"haunt {case.options['haunt']}", {
                "policy_games": 0, "policy_actions": 0, "policy_seconds": 0.0,
                "random_games": 0, "random_actions": 0, "random_seconds": 0.0, "endings": {}})
            header = TranscriptHeader("betrayal", case.players, case.seed, dict(case.options))
            state = new_game(spec, case.players, case.options)
            for step in prefixes[case.name]:
                state.apply(step.action)
            runs = (("policy", new_game(spec, case.players, case.options), seeded_table(case.seed, PolicyController(policy, case.seed))),
                    ("random", state, seeded_table(case.seed + 1000 * passes)))
            for kind, game, table in runs:
                began = time.perf_counter()
                steps = len(play(game, table, header).transcript.steps)
                took = time.perf_counter() - began
                row[f"{kind}_games"] += 1
                row[f"{kind}_actions"] += steps
                row[f"{kind}_seconds"] += took
                actions += steps
                timed_seconds += took
            outcome = state.outcome()
            ending = outcome.result if outcome is not None else "unfinished"
            row["endings"][ending] = row["endings"].get(ending, 0) + 1
    haunts = {}
    for name, row in sorted(per.items(), key=lambda kv: int(kv[0].split()[1])):
        haunts[name] = {
            "policy_games_per_second": round(row["policy_games"] / row["policy_seconds"], 2),
            "policy_actions_per_game": round(row["policy_actions"] / row["policy_games"]),
            "random_games_per_second": round(row["random_games"] / row["random_seconds"], 2),
            "random_actions_per_game": round(row["random_actions"] / row["random_games"]),
            "random_endings": dict(sorted(row["endings"].items())),
        }
    return {
        "seconds": round(time.perf_counter() - start, 3),
        "passes": passes,
        "actions_per_second": round(actions / timed_seconds, 1),
        "per_haunt": haunts,
    }


if __name__ == "__main__":
    print(json.dumps(bench(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0), indent=2))
