"""Property-based testing for any game that plugs into hauntcheck (needs Hypothesis:
``pip install 'hauntcheck[testing]'``).

:class:`GameMachine` is a Hypothesis state machine over a game: its rules are the engine's legal
actions (chance included), and after every step the game's own invariants hold, the game's audit
of the actions taken so far finds nothing, a rejected action leaves the state unchanged, and a
clone is indistinguishable from the original. At the end the recorded log replays to the same
state. A failing run writes its log as a transcript that ``hauntcheck replay --lenient FILE``
reproduces; the path is in the failure message.

A run starts at setup; from a seeded random game played to the game's first milestone (Betrayal:
the reveal); or late in one of the game's golden games played by its policy, following the policy
most of the time, so that the machines also reach the game's endings. Each run's reach and the
rules its steps applied are written beside failure transcripts (``reach-*.json``,
``rules-*.json``); ``hauntcheck coverage --machine-runs DIR`` counts those rules.

A project with its own game (registered through the ``hauntcheck.games`` entry points) tests it
with::

    from hauntcheck.testing import run_machine

    def test_my_game_machine() -> None:
        run_machine("my-game", players=3)
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test

from hauntcheck.checks.verify import golden_file
from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.core import Action, ActionList, Event, GameState, IllegalAction, Rng
from hauntcheck.engine.games import GameDef, GoldenCase, game_spec, get_game
from hauntcheck.engine.play import play, seeded_table
from hauntcheck.engine.transcript import Step, Transcript, TranscriptHeader, ending

__all__ = ["FAILURES", "GameMachine", "machine_for", "run_machine"]

FAILURES = Path(os.environ.get("HAUNTCHECK_FAILURES", tempfile.gettempdir())) / "hauntcheck-machine-failures"

#: How often the machines reached what: per game and player count, the runs, the runs that went
#: past the game's first milestone (Betrayal: the reveal, so the haunt phase), and the endings.
REACH: dict[str, dict[str, int]] = {}
#: Per game and player count: rule id -> how many runs applied it.
RULES: dict[str, dict[str, int]] = {}
_GOLDEN_STEPS: dict[tuple[str, str], list[Step]] = {}


def policy_cases(definition: GameDef, players: int) -> list[GoldenCase]:
    """The game's golden games played by its policy at this player count (late starts)."""
    return [c for c in definition.golden if c.controller == "policy" and c.players == players and c.stop is None]


def golden_steps(game: str, case: GoldenCase) -> list[Step]:
    key = (game, case.name)
    if key not in _GOLDEN_STEPS:
        _GOLDEN_STEPS[key] = transcripts.read(golden_file(game, case)).steps
    return _GOLDEN_STEPS[key]


def spread(seed: int) -> int:
    """``seed`` scrambled (Knuth's multiplicative hash, high bits), so that seeds Hypothesis draws
    close together or alike land on different residues."""
    return (seed * 2654435761) % 2**32 >> 16


class GameMachine(RuleBasedStateMachine):
    """The state machine of one game at one player count (subclass it, or use :func:`machine_for`)."""

    game = ""
    players = 0

    def __init__(self) -> None:
        super().__init__()
        self.definition = get_game(self.game)
        self.spec = game_spec(self.game)
        self.options: dict[str, Any] = {}
        self.state: GameState = self.definition.new_game(self.spec, self.players, self.options)
        self.steps: list[Step] = []
        self.audit = self.definition.audit() if self.definition.audit is not None else None
        self.follow_policy = False
        self.policy_rng = Rng(0)
        #: A clone taken when the walk began, given every later action too (see clone_is_faithful).
        self.shadow: GameState | None = None

    def log(self) -> Transcript:
        header = TranscriptHeader(game=self.game, players=self.players, options=self.options, controller="hypothesis",
                                  spec_hash=self.spec.content_hash())
        return Transcript(header, list(self.steps), ending(self.state.outcome(), "machine"))

    def fail(self, message: str) -> None:
        FAILURES.mkdir(parents=True, exist_ok=True)
        path = FAILURES / f"{self.game}-{self.players}p-{len(self.steps)}.yaml"
        transcripts.write(self.log(), path)
        raise AssertionError(f"{message}\nreproduce with: hauntcheck replay --lenient {path}")

    @initialize(seed=st.integers(0, 100_000), late=st.integers(1, 10))
    def begin(self, seed: int, late: int) -> None:
        """Start (as ``seed`` modulo 3 says) at setup; from a seeded random game played up to the
        game's first milestone, so that the walk also explores what comes after it (Betrayal: the
        haunt phase); or late in a golden policy game (``late``: how many of its steps are left
        unplayed - a share of them would leave a long game's end out of a walk's reach), following
        the policy. (The seed picks the start, rather than a draw of its own, because
        Hypothesis's generation favours the first of few choices. Its seeds are not spread evenly
        over residues either: a run of the ci profile drew sixteen seeds, none of them 2 modulo 3,
        and so no late start at all; a multiplicative hash of the seed spreads them.)"""
        start = ("setup", "milestone", "late")[spread(seed) % 3]
        cases = policy_cases(self.definition, self.players)
        if start == "late" and cases and self.definition.policy is not None:
            case = cases[seed % len(cases)]
            self.options = dict(case.options)
            self.state = self.definition.new_game(self.spec, self.players, self.options)
            recorded = golden_steps(self.game, case)
            for step in recorded[: max(0, len(recorded) - late)]:
                self.take(step.actor, step.action, step.offered)
            self.follow_policy = True
            self.policy_rng = Rng(seed)
        elif start != "setup" and self.definition.milestones:
            header = TranscriptHeader(game=self.game, players=self.players, seed=seed)
            scratch = self.definition.new_game(self.spec, self.players, self.options)
            result = play(scratch, seeded_table(seed), header, stop=self.definition.milestones[0], max_steps=20_000)
            # Taken again step by step, so that the audit sees each action with the state it made.
            for step in result.transcript.steps:
                self.take(step.actor, step.action, step.offered)

    def take(self, actor: str, action: Action, offered: int) -> None:
        try:
            events = self.state.apply(action)
        except IllegalAction as exc:
            self.fail(f"the engine offered {action} but refused it: {exc.reason}")
        lines = [str(e) for e in events]
        self.steps.append(Step(len(self.steps) + 1, actor, action, offered, lines))
        if self.shadow is not None:
            self.shadow.apply(action)
        self.observe(actor, action, lines)

    def observe(self, actor: str, action: Action, lines: list[str]) -> None:
        if self.audit is None:
            return
        problems = self.audit.observe(self.state, actor, action, [Event.parse(line) for line in lines])
        if problems:
            self.fail("; ".join(problems))

    @precondition(lambda self: self.state.to_move() is not None)
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        actor = self.state.to_move()
        assert actor is not None
        legal = self.state.legal_actions()
        if len(legal) == 0:
            self.fail(f"{actor} must decide but has no legal action")
        if isinstance(legal, ActionList):
            policy = self.definition.policy
            if self.follow_policy and policy is not None and data.draw(st.integers(0, 19), label="stray") > 0:
                action = policy(self.state, legal, self.policy_rng)
            else:
                action = data.draw(st.sampled_from(legal.actions), label="action")
        else:
            action = legal.sample(Rng(data.draw(st.integers(0, 2**63 - 1), label="chance seed")))
        self.take(actor, action, legal.size())

    @precondition(lambda self: self.state.to_move() is not None)
    @rule()
    def rejected_action_leaves_state_unchanged(self) -> None:
        before = self.state.snapshot()
        try:
            self.state.apply(Action.of("no-such-action", x=1))
        except IllegalAction:
            pass
        else:
            self.fail("an action no game has was accepted")
        if self.state.snapshot() != before:
            self.fail("a rejected action changed the state")

    @precondition(lambda self: self.state.to_move() is None)
    @rule()
    def finished_game_accepts_nothing(self) -> None:
        if self.state.outcome() is None:
            self.fail("nobody is to move but the game has no outcome")
        before = self.state.snapshot()
        try:
            self.state.apply(self.steps[-1].action if self.steps else Action.of("pass"))
        except IllegalAction as exc:
            if "the game is over" not in exc.reason:
                self.fail(f"a finished game refused an action for another reason: {exc.reason}")
        else:
            self.fail("a finished game accepted an action")
        if self.state.snapshot() != before:
            self.fail("an action refused by a finished game changed the state")

    @invariant()
    def game_invariants_hold(self) -> None:
        check = self.definition.invariants
        problems = check(self.state) if check is not None else []
        if problems:
            self.fail("; ".join(problems))

    @invariant()
    def clone_is_faithful(self) -> None:
        """A clone is indistinguishable from its state, and stays so under the same actions.

        Checked at every step at a cost that does not grow with the game: the clone taken when the
        walk began (``shadow``) is given every action the state is given and must match it after
        each one. Betrayal's ``clone()`` *is* a fresh start given the whole history, so the shadow at
        step k is exactly what ``clone()`` at step k would build (the same actions applied in the same
        order to the same restart), without replaying the history again at every step (quadratic: it
        was most of the suite's time). For games whose ``clone()`` copies the state, the shadow checks
        more than before (a copy and its original stay equal, each given the same actions), and a
        fresh ``clone()`` of the current state is still compared at steps 1, 2, 4, 8, ... (a doubling
        schedule: at most twice the cost of one replay of the whole walk)."""
        if self.shadow is None:
            self.shadow = self.state.clone()
        snapshot = self.state.snapshot()
        if self.shadow.snapshot() != snapshot:
            self.fail("a clone given the same actions as its original no longer matches it")
        taken = len(self.steps)
        if taken & (taken - 1) == 0 and self.state.clone().snapshot() != snapshot:
            self.fail("clone() differs from the state it copies")

    def teardown(self) -> None:
        if self.state.clone().snapshot() != self.state.snapshot():
            self.fail("clone() differs from the state it copies (at the end of the walk)")
        reach = REACH.setdefault(f"{self.game}-{self.players}p", {"runs": 0})
        reach["runs"] += 1
        for milestone in self.definition.milestones:
            if self.state.reached(milestone):
                reach[f"reached {milestone}"] = reach.get(f"reached {milestone}", 0) + 1
        outcome = self.state.outcome()
        ending = f"ended {outcome.result}" if outcome is not None else "still playing"
        reach[ending] = reach.get(ending, 0) + 1
        if self.follow_policy:
            reach["late starts"] = reach.get("late starts", 0) + 1
            if outcome is not None:
                reach[f"late starts ended {outcome.result}"] = reach.get(f"late starts ended {outcome.result}", 0) + 1
        applied = RULES.setdefault(f"{self.game}-{self.players}p", {})
        for rule_id in self.log().rules_applied():
            applied[rule_id] = applied.get(rule_id, 0) + 1
        fresh = self.definition.new_game(self.spec, self.players, self.options)
        result = transcripts.replay(self.log(), fresh, strict=False)
        if not result.ok and result.divergence is not None:
            self.fail(result.divergence.render("machine log"))
        if fresh.snapshot() != self.state.snapshot():
            self.fail("replaying the log does not reproduce the state")


def machine_for(game: str, players: int) -> type[GameMachine]:
    """The state machine class of a game at a player count."""
    return type(f"{game.title().replace('-', '')}{players}pMachine", (GameMachine,), {"game": game, "players": players})


def run_machine(game: str, players: int, step_count: int = 200, **overrides: Any) -> dict[str, int]:
    """Run a game's state machine as a test (the active Hypothesis profile sets the number of
    runs; ``overrides`` are further Hypothesis settings), write its reach and rules records to
    FAILURES, and return the reach: runs, milestones reached and endings."""
    run_state_machine_as_test(machine_for(game, players),
                              settings=settings(settings.default, stateful_step_count=step_count, **overrides))
    key = f"{game}-{players}p"
    reach = REACH[key]
    FAILURES.mkdir(parents=True, exist_ok=True)
    (FAILURES / f"reach-{key}.json").write_text(json.dumps(reach, indent=2, sort_keys=True))
    (FAILURES / f"rules-{key}.json").write_text(json.dumps(
        {"game": game, "players": players, "runs": reach["runs"], "rules": RULES[key]}, indent=2, sort_keys=True))
    return reach
