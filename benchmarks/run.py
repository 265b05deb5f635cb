"""Play speed against python-chess, measured side by side: `python benchmarks/run.py [--strict]`.

Every workload below is a kind of play (random Betrayal games to the reveal, a haunt phase played by
the policy, random Haunted games ...). Its speed is its decisions per CPU second (every player and
chance decision counts once), and what is judged is its **ratio** to python-chess playing random
chess in the same process, in the same rounds: rounds interleave every workload with the chess
baseline (each round a fresh order), and the median of the rounds' ratios is reported. A ratio does
not depend on how fast (or how loaded) the machine is, so targets are ratios, never absolute times.

The python-chess baseline is random play from the starting position: every ply enumerates
``board.legal_moves`` and pushes one chosen by a seeded ``random.Random``; a game ends when no
move is legal, on insufficient material, or by the 75-move rule (repetitions are not looked for).

Games are played by ``hauntcheck.engine.play.run_fast`` (no event text, no step records; it plays
the same games as the recorded ``play`` loop: tests/test_play.py), so what is measured is the
engines, not the transcripts. Anything not part of the workload (replaying a golden game to its
reveal before timing its haunt phase) is done outside the timing.

``--strict`` exits 1 when a workload's ratio is below its target (a target per row, each the
least of its cases for the haunt rows), ``--json`` prints the measurements as JSON (``build`` says whether the engine measured was the
pure-Python or the compiled build: ``setup.py``), and names on
the command line pick workloads (``betrayal-reveal haunted ...``; ``verify`` times
``hauntcheck verify`` too, and ``balance`` a balance study's speed-up with two jobs; both are slow
and so only on request).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

Runner = Callable[[], int]
"""Plays one timed game (or game part) and returns the decisions it took."""
#: The least speed-up of a balance study with ``--jobs 2`` over ``--jobs 1`` on a 2-core machine
#: (issue 17; it needs the cores free).
BALANCE_SPEEDUP = 1.2


@dataclass(frozen=True)
class Workload:
    name: str
    title: str
    #: The least ratio to python-chess accepted (issue 20), or None for a row only reported.
    target: float | None
    #: Prepares game number ``k`` (untimed) and returns the runner that plays it (timed).
    prepare: Callable[[int], Runner]
    #: The table row the workload belongs to (the haunt rows have a case per haunt).
    row: str = ""


# --------------------------------------------------------------------------------------------
# python-chess


def chess_game(k: int) -> Runner:
    import chess

    def run() -> int:
        rng = random.Random(k)
        board = chess.Board()
        plies = 0
        while True:
            moves = list(board.legal_moves)
            if not moves or board.is_insufficient_material() or board.halfmove_clock >= 150:
                return plies
            board.push(rng.choice(moves))
            plies += 1

    return run


# --------------------------------------------------------------------------------------------
# hauntcheck


#: The play loop measured: ``run_fast`` (the default), or ``recorded`` (``play``, which keeps every
#: step and its event text, as transcripts need) with ``--recorded``.
LOOP: dict[str, Callable[..., int]] = {}


def fast_loop(state: Any, table: Any, stop: str | None = None) -> int:
    from hauntcheck.engine.play import run_fast

    return run_fast(state, table, stop=stop).decisions


def recorded_loop(state: Any, table: Any, stop: str | None = None) -> int:
    from hauntcheck.engine.play import play
    from hauntcheck.engine.transcript import TranscriptHeader

    return len(play(state, table, TranscriptHeader(state.game, len(state.seats()) or 1), stop=stop).transcript.steps)


def loop(state: Any, table: Any, stop: str | None = None) -> int:
    return LOOP.get("loop", fast_loop)(state, table, stop)


def random_game(game: str, player_counts: tuple[int, ...], stop: str | None = None) -> Callable[[int], Runner]:
    """Seeded random play of ``game`` from setup (player counts in turn), to ``stop`` or the end;
    setting up the game is part of the timed play."""
    from hauntcheck.engine.games import game_spec, get_game
    from hauntcheck.engine.play import seeded_table

    definition = get_game(game)
    spec = game_spec(game)

    def prepare(k: int) -> Runner:
        return lambda: loop(definition.new_game(spec, player_counts[k % len(player_counts)], {}), seeded_table(k), stop)

    return prepare


def haunt_phase(haunt: int, controller: str) -> Callable[[int], Runner]:
    """The haunt phase of haunt ``haunt``'s golden games (every player count), from the reveal to the
    end: played on by the policy (``controller="policy"``: the golden game itself), or by seeded
    random players and chance (``"random"``). Each game is first played to its reveal, untimed."""
    from hauntcheck.engine.betrayal.policy import policy
    from hauntcheck.engine.games import game_spec, get_game
    from hauntcheck.engine.play import PolicyController, run_fast, seeded_table

    definition = get_game("betrayal")
    spec = game_spec("betrayal")
    cases = [c for c in definition.golden if c.options.get("haunt") == haunt and c.controller == "policy"]
    if not cases:
        raise LookupError(f"haunt {haunt} has no golden policy games")

    def prepare(k: int) -> Runner:
        case = cases[k % len(cases)]
        state = definition.new_game(spec, case.players, case.options)
        table = seeded_table(case.seed, PolicyController(policy, case.seed))
        run_fast(state, table, stop="reveal")
        if controller == "random":
            table = seeded_table(case.seed + 1000 * (k // len(cases) + 1))
        return lambda: loop(state, table)

    return prepare


HAUNTS = (1, 5, 10, 34)


def workloads() -> list[Workload]:
    rows = [
        Workload("chess", "python-chess, random play", None, chess_game),
        Workload("betrayal-reveal", "Betrayal exploration to the reveal, random 4p", 1.5,
                 random_game("betrayal", (4,), stop="reveal")),
        Workload("betrayal-full", "Betrayal full game, random 3-6p", 1.0, random_game("betrayal", (3, 4, 5, 6))),
    ]
    for kind, target in (("random", 0.8), ("policy", 0.6)):
        row = f"betrayal-haunt-{kind}"
        for number in HAUNTS:
            rows.append(Workload(f"{row}-{number}", f"Betrayal haunt {number} phase, {kind}", target,
                                 haunt_phase(number, kind), row=row))
    rows += [
        Workload("halls", "Halls of Horror, random 1-4p", 1.5, random_game("halls-of-horror", (1, 2, 3, 4))),
        Workload("haunted", "Haunted, random 1-6p", 3.0, random_game("haunted", (1, 2, 3, 4, 5, 6))),
    ]
    return rows


# --------------------------------------------------------------------------------------------
# Measuring


@dataclass
class Tally:
    decisions: int = 0
    games: int = 0
    cpu: float = 0.0
    wall: float = 0.0


def measure(workload: Workload, seconds: float, seeds: Iterator[int]) -> Tally:
    """Play the workload's games until ``seconds`` of CPU time went into timed play (at least one)."""
    tally = Tally()
    while tally.games == 0 or tally.cpu < seconds:
        run = workload.prepare(next(seeds))
        cpu, wall = time.process_time(), time.perf_counter()
        tally.decisions += run()
        tally.cpu += time.process_time() - cpu
        tally.wall += time.perf_counter() - wall
        tally.games += 1
    return tally


def counter() -> Iterator[int]:
    k = 0
    while True:
        yield k
        k += 1


def verify_seconds() -> dict[str, float]:
    """CPU and wall seconds of one in-process ``hauntcheck verify`` (every game, every family), with
    the command's tuning of the garbage collector."""
    from hauntcheck.checks import verify
    from hauntcheck.engine.commands.verify import long_lived_collector

    cpu, wall = time.process_time(), time.perf_counter()
    with long_lived_collector():
        report = verify.run()
    if not all(r.ok for r in report.results):
        raise SystemExit("verify failed; benchmark its speed once it passes")
    return {"cpu_seconds": round(time.process_time() - cpu, 2), "wall_seconds": round(time.perf_counter() - wall, 2)}


def balance_study(seconds: float) -> dict[str, Any]:
    """A balance study with ``--jobs 1`` then ``--jobs 2`` (``bench_balance.py``; only on request)."""
    import importlib.util
    from pathlib import Path

    found = importlib.util.spec_from_file_location("bench_balance", Path(__file__).with_name("bench_balance.py"))
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    measured: dict[str, Any] = module.bench(seconds)
    return measured


def build_measured() -> dict[str, Any]:
    """Which build was measured: the hauntcheck modules loaded compiled (mypyc, ``HAUNTCHECK_COMPILE=1
    pip install .``), none in the pure-Python install. Asked after the play, when every module it
    needed is imported."""
    from hauntcheck.engine.compiled import compiled_modules

    modules = compiled_modules()
    return {"compiled": bool(modules), "compiled_modules": len(modules)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds (default 9)")
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU seconds of play per workload per round")
    parser.add_argument("--json", action="store_true", help="print the measurements as JSON")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a ratio is below its target")
    parser.add_argument("--recorded", action="store_true", help="measure the recorded loop (play: steps and event text)")
    parser.add_argument("only", nargs="*", help="workload or row names (default: all but verify)")
    args = parser.parse_args(argv)
    if args.recorded:
        LOOP["loop"] = recorded_loop
    every = workloads()
    known = {w.name for w in every} | {w.row for w in every if w.row} | {"verify", "balance"}
    unknown = [n for n in args.only if n not in known]
    if unknown:
        parser.error(f"unknown workload(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    chosen = [w for w in every if w.name == "chess" or not args.only or w.name in args.only or w.row in args.only]
    seeds = {w.name: counter() for w in chosen}
    tallies: dict[str, list[Tally]] = {w.name: [] for w in chosen}
    order = random.Random(20)
    for _ in range(max(1, args.rounds)):
        for workload in order.sample(chosen, len(chosen)):
            tallies[workload.name].append(measure(workload, args.seconds, seeds[workload.name]))
    chess_rates = [t.decisions / t.cpu for t in tallies["chess"]]
    results: dict[str, dict[str, Any]] = {}
    for workload in chosen:
        rounds = tallies[workload.name]
        rates = [t.decisions / t.cpu for t in rounds]
        results[workload.name] = {
            "title": workload.title,
            "ratio": round(statistics.median(r / c for r, c in zip(rates, chess_rates, strict=True)), 3),
            "target": workload.target,
            "decisions_per_cpu_second": round(statistics.median(rates)),
            "decisions_per_second": round(statistics.median(t.decisions / t.wall for t in rounds)),
            "decisions_per_game": round(sum(t.decisions for t in rounds) / sum(t.games for t in rounds), 1),
            "games": sum(t.games for t in rounds),
        }
    missed = [f"{name}: ratio {r['ratio']:.2f} < {r['target']}" for name, r in results.items()
              if r["target"] is not None and r["ratio"] < r["target"]]
    if "verify" in args.only:
        results["verify"] = verify_seconds()
    if "balance" in args.only:
        results["balance"] = balance_study(args.seconds)
        speedup = results["balance"].get("halls", {}).get("speedup_jobs_2")
        if speedup is not None and speedup < BALANCE_SPEEDUP:
            missed.append(f"balance: halls speed-up of --jobs 2 = {speedup:.2f} < {BALANCE_SPEEDUP}")
    build = build_measured()
    if args.json:
        print(json.dumps({**results, "build": build}, indent=2))
    else:
        print("build:", f"compiled with mypyc ({build['compiled_modules']} modules)" if build["compiled"] else "pure Python")
        print(f"{'workload':<28} {'ratio':>6} {'target':>7} {'dec/cpu-s':>10} {'dec/s':>8} {'dec/game':>9}  title")
        for name, r in results.items():
            if name == "verify":
                print(f"{'verify':<28} cpu {r['cpu_seconds']} s, wall {r['wall_seconds']} s")
                continue
            if name == "balance":
                print(f"{'balance':<28} {json.dumps(r, sort_keys=True)}")
                continue
            target = f">={r['target']}" if r["target"] is not None else ""
            print(f"{name:<28} {r['ratio']:>6.2f} {target:>7} {r['decisions_per_cpu_second']:>10,} "
                  f"{r['decisions_per_second']:>8,} {r['decisions_per_game']:>9}  {r['title']}")
        for line in missed:
            print(f"target missed: {line}")
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
