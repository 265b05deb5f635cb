"""Controllers that supply decisions, and the loop that plays a game into a transcript.

Every decision — a player's or chance's — comes from a controller. Scenario tests, golden
transcripts, the CLI and the Hypothesis machines all drive games through ``play``.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hauntcheck.engine.compiled import mypyc_attr
from hauntcheck.engine.core import CHANCE, Action, Choices, GameState, Rng
from hauntcheck.engine.transcript import Step, Transcript, TranscriptHeader, ending


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and studies define their own
class Controller(abc.ABC):
    """Chooses an action for the actor to move."""

    name: str = "controller"
    #: Whether :meth:`choose` gives what ``legal.sample`` gives (so, with choices that sample only
    #: their members, a legal action: the fast loop then skips apply's check of it).
    samples: bool = False

    @abc.abstractmethod
    def choose(self, state: GameState, actor: str, legal: Choices) -> Action: ...


class ScriptExhausted(Exception):
    """A scripted controller was asked for a decision its script does not hold."""


class Scripted(Controller):
    """Plays a fixed list of actions in order (a scenario's moves, or a transcript's log)."""

    name = "scripted"

    def __init__(self, actions: Sequence[Action]) -> None:
        self.actions = list(actions)
        self.position = 0

    def choose(self, state: GameState, actor: str, legal: Choices) -> Action:
        if self.position >= len(self.actions):
            raise ScriptExhausted(f"{actor} must decide ({legal.describe()}) but the script has no more actions")
        action = self.actions[self.position]
        self.position += 1
        return action

    @property
    def unused(self) -> list[Action]:
        return self.actions[self.position :]


class SeededRandom(Controller):
    """Chooses uniformly among the legal actions with its own seeded generator."""

    name = "random"
    samples = True

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, state: GameState, actor: str, legal: Choices) -> Action:
        return legal.sample(self.rng)


class FirstLegal(Controller):
    """Always takes the first legal action the engine lists (chance: the first outcome)."""

    name = "first-legal"

    def choose(self, state: GameState, actor: str, legal: Choices) -> Action:
        return next(iter(legal))


class PolicyController(Controller):
    """Wraps a game's goal-directed policy: ``policy(state, legal, rng) -> Action``."""

    name = "policy"

    def __init__(self, policy: Callable[[GameState, Choices, Rng], Action], seed: int) -> None:
        self.policy = policy
        self.rng = Rng(seed)

    def choose(self, state: GameState, actor: str, legal: Choices) -> Action:
        return self.policy(state, legal, self.rng)


@dataclass
class Table:
    """Who decides for whom: chance has its own controller, players share one (or per seat)."""

    chance: Controller
    players: Controller
    seats: Mapping[str, Controller] | None = None

    def for_actor(self, actor: str) -> Controller:
        if actor == CHANCE:
            return self.chance
        if self.seats and actor in self.seats:
            return self.seats[actor]
        return self.players


def seeded_table(seed: int, players: Controller | None = None) -> Table:
    """Chance from one generator seeded with ``seed``; players random from a separate stream."""
    chance_rng = Rng(seed)
    chance = SeededRandom(0)
    chance.rng = chance_rng
    if players is None:
        player = SeededRandom(0)
        player.rng = chance_rng.fork(1)
        players = player
    return Table(chance=chance, players=players)


@dataclass
class PlayResult:
    state: GameState
    transcript: Transcript
    stopped: str | None


def play(
    state: GameState,
    table: Table,
    header: TranscriptHeader,
    *,
    stop: str | None = None,
    max_steps: int = 100_000,
    on_step: Callable[[GameState, Step], None] | None = None,
) -> PlayResult:
    """Play until the game ends, a milestone ``stop`` is reached, or ``max_steps`` steps.

    Every decision is recorded with the number of legal actions offered and its events."""
    steps: list[Step] = []
    stopped: str | None = None
    while True:
        if stop is not None and state.reached(stop):
            stopped = stop
            break
        actor = state.to_move()
        if actor is None:
            break
        if len(steps) >= max_steps:
            stopped = "step-limit"
            break
        legal = state.legal_actions()
        action = table.for_actor(actor).choose(state, actor, legal)
        events = state.apply(action)
        step = Step(len(steps) + 1, actor, action, legal.size(), [str(e) for e in events], [e.to_data() for e in events])
        steps.append(step)
        if on_step is not None:
            on_step(state, step)
    outcome = state.outcome()
    transcript = Transcript(header, steps, ending(outcome, stopped))
    return PlayResult(state, transcript, stopped)


@dataclass(frozen=True)
class FastResult:
    decisions: int
    stopped: str | None


def run_fast(
    state: GameState,
    table: Table,
    *,
    stop: str | None = None,
    max_steps: int = 100_000,
    taken: list[Action] | None = None,
) -> FastResult:
    """Play on like :func:`play`, with the same decisions and the same stopping rules, but keep no
    record: no steps, no event text (for studies and benchmarks, which count or look at the final
    state). An action a controller sampled from the menu (``Controller.samples``, with choices that
    sample only their members) is applied without :meth:`~GameState.apply`'s check against the menu
    it came from. ``taken``, when given, receives every action in order (tests/test_play.py compares
    them with the recorded loop's)."""
    decisions = 0
    stopped: str | None = None
    quiet = state.quiet
    state.quiet = True
    try:
        while True:
            if stop is not None and state.reached(stop):
                stopped = stop
                break
            actor = state.to_move()
            if actor is None:
                break
            if decisions >= max_steps:
                stopped = "step-limit"
                break
            legal = state.legal_actions()
            controller = table.for_actor(actor)
            action = controller.choose(state, actor, legal)
            if controller.samples and legal.samples_members:
                state.apply_sampled(action)  # a sample of this very menu: apply's check would find it there
            else:
                state.apply(action)
            if taken is not None:
                taken.append(action)
            decisions += 1
    finally:
        state.quiet = quiet
    return FastResult(decisions, stopped)


def measure_random_play(
    game: str,
    seconds: float,
    player_counts: Sequence[int],
    *,
    stop: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> dict[str, float]:
    """Play seeded random games of ``game`` for about ``seconds`` (player counts in turn) and
    report actions and games per second, by the wall clock and by CPU time (on a shared machine
    the wall-clock rate drops with the load; the CPU rate does not)."""
    import time

    from hauntcheck.engine.games import game_spec, get_game

    definition = get_game(game)
    spec = game_spec(game)
    games = actions = seed = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    elapsed = 0.0
    while elapsed < seconds or games == 0:
        players = player_counts[seed % len(player_counts)]
        state = definition.new_game(spec, players, dict(options or {}))
        result = play(state, seeded_table(seed), TranscriptHeader(game, players, seed), stop=stop)
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
        "actions_per_cpu_second": round(actions / cpu, 1),
    }
