"""Benchmark: balance studies (``hauntcheck balance``) on one and on two worker processes.

The same study runs with ``--jobs 1`` and then ``--jobs 2`` (the records must be identical);
reported: games per second of each, games per second per core (the two-job rate over two), the
speed-up of two jobs over one, and games per CPU second of each (unaffected by other load).
Two studies: Halls of Horror (room deck A, 1-4 players, the policy) and Betrayal haunt 1 at 4
players started at its reveal. Each study is sized from a short calibration run so that the
one-job pass takes about half the time budget (at least 25 games a player count, so the workers'
start-up does not dominate). The speed-up needs free cores: on a loaded machine the kernel shares
CPU between sessions, so a second worker gains little (the CPU-second rates show the work itself).
Run standalone: ``python benchmarks/bench_balance.py [SECONDS]``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

from hauntcheck.engine.balance.study import Backend, Study, run_study
from hauntcheck.engine.balance.subjects import Case


def _studies(games: dict[str, int]) -> dict[str, Study]:
    return {
        "halls": Study("halls-of-horror", (Case("A", "room deck A", {"variant": "A"}),), (1, 2, 3, 4), games["halls"]),
        "betrayal": Study("betrayal", (Case("1", "The Mummy Walks", {"haunt": 1}),), (4,), games["betrayal"]),
    }


def _cpu() -> float:
    """CPU seconds of this process and of its finished workers."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _timed(study: Study, jobs: int) -> tuple[float, list[dict[str, Any]], float]:
    started, cpu = time.perf_counter(), _cpu()
    records = run_study(study, Backend("local", jobs))
    return time.perf_counter() - started, records, _cpu() - cpu


def bench(seconds: float) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, probe in _studies({"halls": 2, "betrayal": 1}).items():
        _timed(probe, 1)  # loads the spec and warms the caches
        took, _, _ = _timed(probe, 1)
        per_game = took / len(probe.tasks())
        wanted = max(25, int(seconds / 2 / per_game / len(probe.players)))
        study = _studies({"halls": wanted, "betrayal": wanted})[name]
        one_time, one, one_cpu = _timed(study, 1)
        two_time, two, two_cpu = _timed(study, 2)
        games = len(one)
        out[name] = {
            "games": games,
            "games_per_second_jobs_1": round(games / one_time, 2),
            "games_per_second_jobs_2": round(games / two_time, 2),
            "games_per_second_per_core": round(games / two_time / 2, 2),
            "speedup_jobs_2": round(one_time / two_time, 2),
            # By CPU time, which a shared machine's load does not change: the work per game
            # on one job and on two (their ratio is the cost of the worker processes).
            "games_per_cpu_second_jobs_1": round(games / one_cpu, 2),
            "games_per_cpu_second_jobs_2": round(games / two_cpu, 2),
            "identical": one == two,
        }
    return out


if __name__ == "__main__":
    print(json.dumps(bench(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0), indent=2))
