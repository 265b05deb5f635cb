"""Hypothesis state machines over every game: the rules are the engine's legal actions (chance
included), and after every step the game's own invariants hold, a rejected action leaves the
state unchanged, and a clone is indistinguishable from the original. At the end the recorded log
replays to the same state. A failing run writes its log as a transcript that
`hauntcheck replay --lenient FILE` reproduces; the path is in the failure message."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test

from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.core import Action, ActionList, GameState, IllegalAction, Rng
from hauntcheck.engine.games import available_games, game_spec, get_game
from hauntcheck.engine.play import play, seeded_table
from hauntcheck.engine.transcript import Step, Transcript, TranscriptHeader, ending

FAILURES = Path(os.environ.get("HAUNTCHECK_FAILURES", tempfile.gettempdir())) / "hauntcheck-machine-failures"

#: How often the machines reached what: per game and player count, the runs, the runs that went
#: past the game's first milestone (Betrayal: the reveal, so the haunt phase), and the endings.
REACH: dict[str, dict[str, int]] = {}


class GameMachine(RuleBasedStateMachine):
    game = ""
    players = 0

    def __init__(self) -> None:
        super().__init__()
        self.definition = get_game(self.game)
        self.spec = game_spec(self.game)
        self.state: GameState = self.definition.new_game(self.spec, self.players, {})
        self.steps: list[Step] = []

    def log(self) -> Transcript:
        header = TranscriptHeader(game=self.game, players=self.players, controller="hypothesis", spec_hash=self.spec.content_hash())
        return Transcript(header, list(self.steps), ending(self.state.outcome(), "machine"))

    def fail(self, message: str) -> None:
        FAILURES.mkdir(parents=True, exist_ok=True)
        path = FAILURES / f"{self.game}-{self.players}p-{len(self.steps)}.yaml"
        transcripts.write(self.log(), path)
        raise AssertionError(f"{message}\nreproduce with: hauntcheck replay --lenient {path}")

    @initialize(ahead=st.booleans(), seed=st.integers(0, 100_000))
    def start(self, ahead: bool, seed: int) -> None:
        """Start at setup, or from a seeded random game played up to the game's first milestone,
        so that the walk also explores what comes after it (Betrayal: the haunt phase)."""
        if not ahead or not self.definition.milestones:
            return
        header = TranscriptHeader(game=self.game, players=self.players, seed=seed)
        result = play(self.state, seeded_table(seed), header, stop=self.definition.milestones[0], max_steps=20_000)
        self.steps.extend(result.transcript.steps)

    @precondition(lambda self: self.state.to_move() is not None)
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        actor = self.state.to_move()
        assert actor is not None
        legal = self.state.legal_actions()
        if len(legal) == 0:
            self.fail(f"{actor} must decide but has no legal action")
        if isinstance(legal, ActionList):
            action = data.draw(st.sampled_from(legal.actions), label="action")
        else:
            action = legal.sample(Rng(data.draw(st.integers(0, 2**63 - 1), label="chance seed")))
        try:
            events = self.state.apply(action)
        except IllegalAction as exc:
            self.fail(f"the engine offered {action} but refused it: {exc.reason}")
        self.steps.append(Step(len(self.steps) + 1, actor, action, legal.size(), [str(e) for e in events]))

    @precondition(lambda self: self.state.to_move() is not None)
    @rule()
    def rejected_action_leaves_state_unchanged(self) -> None:
        before = self.state.snapshot()
        with pytest.raises(IllegalAction):
            self.state.apply(Action.of("no-such-action", x=1))
        if self.state.snapshot() != before:
            self.fail("a rejected action changed the state")

    @precondition(lambda self: self.state.to_move() is None)
    @rule()
    def finished_game_accepts_nothing(self) -> None:
        if self.state.outcome() is None:
            self.fail("nobody is to move but the game has no outcome")
        before = self.state.snapshot()
        with pytest.raises(IllegalAction, match="the game is over"):
            self.state.apply(self.steps[-1].action if self.steps else Action.of("pass"))
        assert self.state.snapshot() == before

    @invariant()
    def game_invariants_hold(self) -> None:
        check = self.definition.invariants
        problems = check(self.state) if check is not None else []
        if problems:
            self.fail("; ".join(problems))

    @invariant()
    def clone_is_faithful(self) -> None:
        if self.state.clone().snapshot() != self.state.snapshot():
            self.fail("clone() differs from the state it copies")

    def teardown(self) -> None:
        reach = REACH.setdefault(f"{self.game}-{self.players}p", {"runs": 0})
        reach["runs"] += 1
        for milestone in self.definition.milestones:
            if self.state.reached(milestone):
                reach[f"reached {milestone}"] = reach.get(f"reached {milestone}", 0) + 1
        outcome = self.state.outcome()
        ending = f"ended {outcome.result}" if outcome is not None else "still playing"
        reach[ending] = reach.get(ending, 0) + 1
        fresh = self.definition.new_game(self.spec, self.players, {})
        result = transcripts.replay(self.log(), fresh, strict=False)
        if not result.ok and result.divergence is not None:
            self.fail(result.divergence.render("machine log"))
        if fresh.snapshot() != self.state.snapshot():
            self.fail("replaying the log does not reproduce the state")


def machine_cases() -> list[Any]:
    cases = []
    for game in available_games():
        definition = get_game(game)
        for players in sorted({definition.min_players, definition.max_players}):
            cases.append(pytest.param(game, players, id=f"{game}-{players}p"))
    return cases


@pytest.mark.parametrize(("game", "players"), machine_cases())
def test_state_machine(game: str, players: int) -> None:
    machine = type(f"{game}Machine", (GameMachine,), {"game": game, "players": players})
    # The active profile (ci or nightly) sets the number of runs; each is a walk of up to 200 steps.
    run_state_machine_as_test(machine, settings=settings(settings.default, stateful_step_count=200))
    reach = REACH[f"{game}-{players}p"]
    FAILURES.mkdir(parents=True, exist_ok=True)
    (FAILURES / f"reach-{game}-{players}p.json").write_text(json.dumps(reach, indent=2, sort_keys=True))
    print(f"{game} {players}p machine reach: {reach}")
    definition = get_game(game)
    if definition.milestones:
        # Half the runs start from a game played up to the milestone: the machine must get past it.
        assert reach.get(f"reached {definition.milestones[0]}", 0) > 0, reach
