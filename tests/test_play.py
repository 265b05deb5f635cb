"""The fast play loop (``run_fast``: no steps, no event text) plays the very games the recorded
loop (``play``) plays: the same actions in the same order, the same stop and the same final state,
for every game, random and policy players, on many seeds."""

from __future__ import annotations

from typing import Any

import pytest

from hauntcheck.engine.core import Action
from hauntcheck.engine.games import available_games, game_spec, get_game
from hauntcheck.engine.play import PolicyController, Table, play, run_fast, seeded_table
from hauntcheck.engine.transcript import TranscriptHeader

SEEDS = range(12)


def both_loops(game: str, players: int, options: dict[str, Any], table: Any, stop: str | None = None,
               max_steps: int = 100_000) -> tuple[list[Action], list[Action]]:
    """The actions of one game played by each loop (each with its own fresh table from ``table()``)."""
    definition = get_game(game)
    spec = game_spec(game)
    recorded_state = definition.new_game(spec, players, dict(options))
    recorded = play(recorded_state, table(), TranscriptHeader(game, players), stop=stop, max_steps=max_steps)
    fast_state = definition.new_game(spec, players, dict(options))
    taken: list[Action] = []
    result = run_fast(fast_state, table(), stop=stop, max_steps=max_steps, taken=taken)
    assert result.decisions == len(taken)
    assert result.stopped == recorded.stopped
    assert fast_state.snapshot() == recorded_state.snapshot()
    assert fast_state.outcome() == recorded_state.outcome()
    assert not fast_state.quiet, "run_fast leaves the state as it found it (events on)"
    return [s.action for s in recorded.transcript.steps], taken


def counts(game: str) -> list[int]:
    definition = get_game(game)
    return list(range(definition.min_players, definition.max_players + 1))


@pytest.mark.parametrize("game", available_games())
def test_fast_loop_plays_the_recorded_loops_random_games(game: str) -> None:
    players = counts(game)
    for seed in SEEDS:
        n = players[seed % len(players)]
        recorded, fast = both_loops(game, n, {}, lambda seed=seed: seeded_table(seed))
        assert fast == recorded, f"{game} {n}p seed {seed}: the loops part at action {_first_difference(recorded, fast)}"


@pytest.mark.parametrize("game", available_games())
def test_fast_loop_plays_the_recorded_loops_policy_games(game: str) -> None:
    definition = get_game(game)
    if definition.policy is None:
        pytest.skip(f"{game} has no policy")
    policy = definition.policy
    cases = [c for c in definition.golden if c.controller == "policy"][::4] or list(definition.golden[:1])
    for case in cases:
        def table(case: Any = case) -> Table:
            return seeded_table(case.seed, PolicyController(policy, case.seed))
        recorded, fast = both_loops(game, case.players, dict(case.options), table, stop=case.stop)
        assert fast == recorded, f"{case.name}: the loops part at action {_first_difference(recorded, fast)}"


def test_fast_loop_honours_stop_and_step_limit() -> None:
    recorded, fast = both_loops("betrayal", 4, {}, lambda: seeded_table(3), stop="reveal")
    assert fast == recorded and len(fast) > 0
    recorded, fast = both_loops("haunted", 3, {}, lambda: seeded_table(3), max_steps=17)
    assert fast == recorded and len(fast) == 17


def _first_difference(a: list[Action], b: list[Action]) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
