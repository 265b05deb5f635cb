"""``hauntcheck conform``: hold another engine of the same games to hauntcheck's corpus.

The engine runs as a separate process speaking JSON lines on stdin/stdout (the protocol is in
docs/conformance-protocol.md). :class:`RemoteState` puts it behind the :class:`GameState`
interface, so the very replay and scenario code that checks hauntcheck's own engine checks it:
every golden transcript is replayed step by step (actor, number of actions offered, legality of
the recorded action, the rule ids and structured arguments of the events, the ending) and every
dispute scenario is run. For each file the report names the rule at the first disagreement, and
sums the disagreements up by rule, like a perft "divide".
"""

from __future__ import annotations

import contextlib
import dataclasses
import fnmatch
import json
import os
import select
import shlex
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from hauntcheck.checks.output import Check, Location, Problem, display_path, split_location
from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.core import Action, Choices, Event, GameState, IllegalAction, Outcome, Rng, _freeze
from hauntcheck.engine.games import GameDef, game_spec, get_game
from hauntcheck.engine.scenario import WeightedChoices

PROTOCOL_VERSION = 1


class EngineError(RuntimeError):
    """The engine could not be started, broke the protocol, or stopped answering."""


class Engine:
    """An engine process: one JSON request per line in, one JSON answer per line out."""

    def __init__(self, command: str, timeout: float = 60.0) -> None:
        self.command = command
        self.timeout = timeout
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - open for the engine's lifetime, closed in close()
        try:
            self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr)
        except OSError as exc:
            raise EngineError(f"cannot start the engine {command!r}: {exc.strerror or exc}") from None
        self._buffer = b""
        self.handles: list[str] = []
        hello = self.ask("hello", protocol=PROTOCOL_VERSION)
        if hello.get("protocol") != PROTOCOL_VERSION:
            raise EngineError(f"the engine speaks protocol {hello.get('protocol')!r}; hauntcheck speaks {PROTOCOL_VERSION}")
        self.name = str(hello.get("engine", command))

    def _stderr_tail(self) -> str:
        self._stderr.seek(0)
        tail = self._stderr.read().decode("utf-8", "replace").strip().splitlines()[-5:]
        return ("; its last words: " + " | ".join(tail)) if tail else ""

    def ask(self, op: str, **request: Any) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        line = json.dumps({"op": op, **request}, separators=(",", ":")) + "\n"
        try:
            self.process.stdin.write(line.encode())
            self.process.stdin.flush()
        except BrokenPipeError:
            raise EngineError(f"the engine stopped (exit status {self.process.poll()}){self._stderr_tail()}") from None
        fd = self.process.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise EngineError(f"the engine did not answer {op!r} within {self.timeout:g}s")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                status = self.process.wait()
                raise EngineError(f"the engine stopped (exit status {status}) instead of answering {op!r}{self._stderr_tail()}")
            self._buffer += chunk
        answer_line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            answer = json.loads(answer_line)
        except json.JSONDecodeError:
            raise EngineError(f"the engine answered {op!r} with a line that is not JSON: {answer_line[:200]!r}") from None
        if not isinstance(answer, dict):
            raise EngineError(f"the engine answered {op!r} with {answer!r}, not a JSON object")
        if "error" in answer:
            raise EngineError(f"the engine failed on {op!r}: {answer['error']}")
        return answer

    def new_game(self, game: str, players: int, options: Mapping[str, Any], position: Mapping[str, Any] | None = None) -> RemoteState:
        request: dict[str, Any] = {"game": game, "players": players, "options": dict(options)}
        if position is not None:
            request["position"] = dict(position)
        return self._state(self.ask("new_game", **request), game)

    def _state(self, answer: Mapping[str, Any], game: str) -> RemoteState:
        handle = str(answer.get("id", ""))
        if not handle:
            raise EngineError(f"the engine gave no game id: {answer!r}")
        self.handles.append(handle)
        return RemoteState(self, handle, game)

    def drop_all(self) -> None:
        """Forget every game this run made (the engine may free them)."""
        for handle in self.handles:
            self.ask("drop", id=handle)
        self.handles.clear()

    def close(self) -> None:
        with contextlib.suppress(EngineError):
            self.ask("quit")
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._stderr.close()


class RemoteChoices(WeightedChoices):
    """The legal actions of a remote game: counted and tested by asking the engine."""

    def __init__(self, state: RemoteState, count: int, description: str) -> None:
        self.state = state
        self.count = count
        self.description = description

    def __len__(self) -> int:
        return min(self.count, 2**63 - 1)

    def size(self) -> int:
        return self.count

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action):
            return False
        return bool(self.state.engine.ask("is_legal", id=self.state.handle, action=action.to_data()).get("legal"))

    def __iter__(self) -> Iterator[Action]:
        listed = self.state.engine.ask("legal", id=self.state.handle).get("actions")
        if listed is None:
            raise TypeError(f"the engine does not list these actions ({self.description})")
        return iter([Action.from_data(a) for a in listed])

    def weights(self) -> list[tuple[Action, Fraction]] | None:
        outcomes = self.state.engine.ask("chance", id=self.state.handle).get("outcomes")
        if not isinstance(outcomes, list):
            return None
        return [(Action.from_data(o["action"]), Fraction(str(o["weight"]))) for o in outcomes]

    def sample(self, rng: Rng) -> Action:
        raise TypeError("conform never samples a remote engine's actions")

    def describe(self) -> str:
        return self.description


class RemoteState(GameState):
    """A game held by the engine process, behind hauntcheck's GameState interface."""

    game = "remote"

    def __init__(self, engine: Engine, handle: str, game: str) -> None:
        self.engine = engine
        self.handle = handle
        self.game_id = game
        self._info: dict[str, Any] | None = None

    def info(self) -> dict[str, Any]:
        if self._info is None:
            self._info = self.engine.ask("state", id=self.handle)
        return self._info

    def to_move(self) -> str | None:
        actor = self.info().get("to_move")
        return None if actor is None else str(actor)

    def legal_actions(self) -> Choices:
        info = self.info()
        return RemoteChoices(self, int(info.get("offered", 0)), str(info.get("describe", "")))

    def apply(self, action: Action) -> list[Event]:
        actor = self.to_move()
        answer = self.engine.ask("apply", id=self.handle, action=action.to_data())
        self._info = None
        if "illegal" in answer:
            raise IllegalAction(action, actor, str(answer["illegal"]), str(answer.get("rule") or ""))
        events = []
        for raw in answer.get("events", []):
            args = raw.get("args") or {}
            events.append(Event(str(raw.get("rule")), str(raw.get("text", "")), tuple((k, _freeze(v)) for k, v in args.items())))
        return events

    def _apply(self, action: Action) -> list[Event]:
        raise NotImplementedError("RemoteState.apply asks the engine")

    def outcome(self) -> Outcome | None:
        data = self.info().get("outcome")
        if data is None:
            return None
        return Outcome(str(data["result"]), tuple(data.get("winners", [])), str(data.get("detail", "")))

    def roster(self) -> dict[str, str]:
        roster = self.info().get("roster") or {}
        return {str(seat): str(who) for seat, who in roster.items()} if isinstance(roster, dict) else {}

    def snapshot(self) -> dict[str, Any]:
        snapshot = self.engine.ask("snapshot", id=self.handle).get("snapshot")
        if not isinstance(snapshot, dict):
            raise EngineError("the engine gave no snapshot")
        return snapshot

    def clone(self) -> GameState:
        return self.engine._state(self.engine.ask("clone", id=self.handle), self.game_id)

    def reached(self, milestone: str) -> bool:
        return bool(self.engine.ask("reached", id=self.handle, milestone=milestone).get("reached"))


# --------------------------------------------------------------------------------------------


def remote_definition(definition: GameDef, engine: Engine) -> GameDef:
    """The game's definition with its games made by the engine (for ScenarioRun)."""

    def new_game(spec: Any, players: int, options: Mapping[str, Any]) -> GameState:
        return engine.new_game(definition.id, players, options)

    def position(spec: Any, players: int, options: Mapping[str, Any], where: Mapping[str, Any]) -> GameState:
        return engine.new_game(definition.id, players, options, where)

    return dataclasses.replace(definition, new_game=new_game, position=position if definition.position is not None else None)


def corpus(game: str) -> Iterator[tuple[str, Path]]:
    """The game's golden transcripts, then its dispute scenarios: ("golden" | "scenario", path)."""
    from hauntcheck.checks.verify import SCENARIO_ROOT, golden_files
    from hauntcheck.engine.scenario import scenario_files

    definition = get_game(game)
    for path in golden_files(definition):
        yield "golden", path
    folder = (definition.scenario_root or SCENARIO_ROOT) / game
    for path in scenario_files(folder) if folder.is_dir() else []:
        yield "scenario", path


def first_difference(expected: list[str], actual: list[str]) -> tuple[str | None, str | None]:
    """The rules at the first line where two event lists differ (``rule-id {args}`` lines): the
    transcript's and the engine's (None where one list has ended)."""
    for index in range(max(len(expected), len(actual))):
        left = expected[index] if index < len(expected) else None
        right = actual[index] if index < len(actual) else None
        if left != right:
            return (left.split(" ", 1)[0] if left else None), (right.split(" ", 1)[0] if right else None)
    return None, None


def conform(command: str, games: list[str], only: str | None = None, timeout: float = 60.0,
            say: Callable[[str], None] | None = None) -> list[Check]:
    """Replay every golden transcript and run every dispute scenario of the games against the
    engine started by ``command``; one check per file."""
    from hauntcheck.engine.scenario import ScenarioRun, load_scenario

    engine = Engine(command, timeout)
    checks: list[Check] = []
    by_rule: dict[str, list[str]] = {}
    try:
        if say:
            say(f"engine: {engine.name}")
        for game in games:
            definition = get_game(game)
            spec = game_spec(game)
            remote = remote_definition(definition, engine)
            for kind, path in corpus(game):
                shown = display_path(path)
                if only and not fnmatch.fnmatchcase(shown, only):
                    continue
                started = time.perf_counter()
                check = Check(f"conform:{shown}", shown, game, 1)
                if kind == "golden":
                    log = transcripts.read(path)
                    state = engine.new_game(game, log.header.players, log.header.options)
                    result = transcripts.replay(log, state, structured=True)
                    check.checked = max(result.steps_checked, 1)
                    if result.divergence is not None:
                        d = result.divergence
                        consequences = d.what.startswith("different consequences")
                        ours, theirs = first_difference(d.expected, d.actual) if consequences else (None, None)
                        # The engine's rule is named when it applied one where the transcript has
                        # another (or none); else the transcript's rule the engine left out; else,
                        # for another decision point, the last rule of the step that made it.
                        rule = theirs or ours
                        if rule is None and d.step > 1 and d.step - 2 < len(log.steps):
                            rules = log.steps[d.step - 2].rules()
                            rule = rules[-1] if rules else None
                        named = f"first disagreement on rule {rule}" if rule else "first disagreement"
                        if ours and theirs and ours != theirs:
                            named += f" (the engine applies {theirs} where the transcript has {ours})"
                        body = d.render(shown).split(": ", 1)[1]
                        check.problems.append(Problem("conform.golden", f"{named}: {body}", Location(shown, d.line, 0), rule, shown))
                else:
                    outcome = ScenarioRun(load_scenario(path, shown), remote, spec).run()
                    # A scenario is about the rules it lists: those are named.
                    about = ",".join(str(r) for r in load_scenario(path, shown).data.get("rules", [])) or None
                    for failure in outcome.failures:
                        location, message = split_location(failure, Location(shown))
                        check.problems.append(Problem("conform.scenario", message, location, about, shown))
                engine.drop_all()
                check.seconds = time.perf_counter() - started
                checks.append(check)
                for problem in check.problems[:1]:
                    by_rule.setdefault(problem.rule or "(no rule)", []).append(f"{shown}:{problem.location.line}")
                if say:
                    verdict = "OK" if check.ok else f"FAIL: {check.problems[0].message.splitlines()[0]}"
                    say(f"{shown}: {verdict}")
    finally:
        engine.close()
    if by_rule and checks:
        summary = [f"{rule}: {len(places)} file(s), first at {places[0]}" for rule, places in sorted(by_rule.items())]
        checks[0].notes.extend(["disagreements by rule:", *summary])
        if say:
            say("disagreements by rule:")
            for line in summary:
                say(f"  {line}")
    if say:
        failed = sum(1 for c in checks if not c.ok)
        say(f"{len(checks) - failed} of {len(checks)} transcripts and scenarios agree")
    return checks
