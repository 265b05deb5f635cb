"""The Hypothesis state machines of :mod:`hauntcheck.testing` over every game this installation
has, at its smallest and largest player counts; see that module for what they check. Here: that
the runs get past each game's first milestone and that late starts in golden policy games reach
an ending."""

from __future__ import annotations

from typing import Any

import pytest

from hauntcheck.engine.games import available_games, get_game
from hauntcheck.testing import policy_cases, run_machine


def machine_cases() -> list[Any]:
    cases = []
    for game in available_games():
        definition = get_game(game)
        for players in sorted({definition.min_players, definition.max_players}):
            cases.append(pytest.param(game, players, id=f"{game}-{players}p"))
    return cases


@pytest.mark.long
@pytest.mark.parametrize(("game", "players"), machine_cases())
def test_state_machine(game: str, players: int) -> None:
    # The active profile (ci or nightly) sets the number of runs; each is a walk of up to 200 steps.
    reach = run_machine(game, players)
    print(f"{game} {players}p machine reach: {reach}")
    definition = get_game(game)
    if definition.milestones:
        # A third of the runs start from a game played up to the milestone: the machine must get past it.
        assert reach.get(f"reached {definition.milestones[0]}", 0) > 0, reach
    if policy_cases(definition, players) and definition.policy is not None:
        # Late starts in golden policy games, following the policy: some of them must end the game.
        assert any(key.startswith("late starts ended") for key in reach), reach
