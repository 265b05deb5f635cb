"""Dispute scenarios: a position, the disputed moment, and what the rules require.

A scenario file (``kind: scenario``) names a game, builds a position directly (through the game's
``position`` hook, or from the game's normal start when it has none), then runs ``steps`` in
order: actions (``do``), scripted chance, and expectations checked along the way. It is strict by
default: a prompt the scenario does not answer, or scripted chance left unused, fails it; and
every rule id the scenario lists under ``rules`` must actually be applied.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hauntcheck.engine.core import CHANCE, Action, GameState, IllegalAction, RuleBook
from hauntcheck.engine.games import GameDef, game_spec, get_game, rulebook
from hauntcheck.engine.spec import GameSpec, SpecError, SpecErrors, SpecFile, load_file
from hauntcheck.engine.transcript import is_transcript


@dataclass
class Line:
    """One line of the explanation a scenario run prints."""

    kind: str  # action, event, expect, fail, note
    text: str
    rule: str = ""


@dataclass
class ScenarioResult:
    path: str
    title: str
    lines: list[Line] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    rules_applied: list[str] = field(default_factory=list)
    before: GameState | None = None
    after: GameState | None = None

    @property
    def ok(self) -> bool:
        return not self.failures


def load_scenario(path: Path, display: str | None = None) -> SpecFile:
    spec = load_file(path, display)
    if spec.kind != "scenario":
        raise SpecErrors([spec.error(("kind",), f"expected a scenario (kind: scenario), got kind {spec.kind!r}")])
    return spec


def snapshot_value(snapshot: Any, dotted: str) -> Any:
    """Follow a dotted path (``explorers.P1.might``; list items by index) into a snapshot."""
    node = snapshot
    for part in dotted.split("."):
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.lstrip("-").isdigit() and -len(node) <= int(part) < len(node):
            node = node[int(part)]
        else:
            raise KeyError(dotted)
    return node


class ScenarioRun:
    """Runs one loaded scenario file against its game."""

    def __init__(self, file: SpecFile, definition: GameDef | None = None, spec: GameSpec | None = None) -> None:
        self.file = file
        data = file.data
        self.definition = definition or get_game(data["game"])
        self.spec = spec or game_spec(self.definition.id)
        self.rules: RuleBook = rulebook(self.spec)
        self.result = ScenarioResult(file.display, data.get("title", file.display))
        self.chance_queue: list[tuple[tuple[str | int, ...], Action]] = []
        self.applied: dict[str, None] = {}

    # -- building ----------------------------------------------------------------------------

    def build(self) -> GameState:
        data = self.file.data
        players = int(data.get("players", self.definition.min_players))
        options = dict(data.get("options", {}))
        if data.get("variants"):
            options["variants"] = list(data["variants"])
        position = data.get("position")
        if position is not None:
            if self.definition.position is None:
                raise SpecErrors([self.file.error(("position",), f"{self.definition.id} cannot build positions directly yet")])
            try:
                return self.definition.position(self.spec, players, options, position)
            except PositionError as exc:
                raise SpecErrors([self.file.error(("position", *p), m) for p, m in exc.problems]) from None
        return self.definition.new_game(self.spec, players, options)

    # -- running -----------------------------------------------------------------------------

    def run(self) -> ScenarioResult:
        try:
            state = self.build()
        except SpecErrors as exc:
            self.result.failures.extend(str(e) for e in exc.errors)
            return self.result
        self.result.before = state.clone()
        for index, raw in enumerate(self.file.data.get("chance", [])):
            self.chance_queue.append((("chance", index), Action.from_data(raw)))
        steps = self.file.data.get("steps", [])
        for index, step in enumerate(steps):
            if not self.step(state, step, ("steps", index)):
                break
        else:
            self.finish(state)
        self.result.after = state
        self.result.rules_applied = list(self.applied)
        return self.result

    def fail(self, path: tuple[str | int, ...], message: str) -> bool:
        self.result.failures.append(str(SpecError(self.file.where(path), message)))
        self.result.lines.append(Line("fail", message))
        return False

    def apply(self, state: GameState, action: Action, path: tuple[str | int, ...]) -> bool:
        actor = state.to_move()
        try:
            events = state.apply(action)
        except IllegalAction as exc:
            return self.fail(path, f"{actor} cannot {action}: {exc.reason}")
        self.result.lines.append(Line("action", f"{actor}: {action}"))
        for event in events:
            self.applied.setdefault(event.rule, None)
            self.result.lines.append(Line("event", event.text, event.rule))
        return True

    def drain_chance(self, state: GameState, path: tuple[str | int, ...], before_actor: str | None) -> bool:
        """Feed queued chance outcomes while chance is to move and the next scripted action is
        not itself chance's."""
        while state.to_move() == CHANCE and before_actor != CHANCE:
            if not self.chance_queue:
                legal = state.legal_actions()
                return self.fail(path, f"chance must decide ({legal.describe()}) but the scenario scripts no outcome")
            chance_path, action = self.chance_queue.pop(0)
            if not self.apply(state, action, chance_path):
                return False
        return True

    def step(self, state: GameState, step: Mapping[str, Any], path: tuple[str | int, ...]) -> bool:
        if "do" in step:
            action = Action.from_data(step["do"])
            by = step.get("by")
            actor_hint = by or (CHANCE if step.get("chance") else None)
            if not self.drain_chance(state, path, actor_hint):
                return False
            actor = state.to_move()
            if by is not None and actor != by:
                legal = state.legal_actions() if actor else None
                prompt = f"{actor} must decide ({legal.describe()})" if legal is not None else "the game is over"
                return self.fail((*path, "by"), f"expected {by} to act, but {prompt}: a prompt the scenario does not answer")
            if "error" in step:
                return self.expect_rejected(state, action, str(step["error"]), path)
            if not self.apply(state, action, (*path, "do")):
                return False
            return self.drain_chance(state, path, None) if step.get("then_chance", True) else True
        if "expect" in step:
            return self.expect_values(state, step["expect"], (*path, "expect"))
        if "expect_legal" in step:
            return self.expect_legality(state, step["expect_legal"], True, (*path, "expect_legal"))
        if "expect_illegal" in step:
            return self.expect_legality(state, step["expect_illegal"], False, (*path, "expect_illegal"))
        if "expect_to_move" in step:
            actor = state.to_move()
            if actor != step["expect_to_move"]:
                return self.fail((*path, "expect_to_move"), f"expected {step['expect_to_move']} to move, got {actor}")
            self.result.lines.append(Line("expect", f"{actor} is to move"))
            return True
        if "expect_no_prompt" in step:
            seat = step["expect_no_prompt"]
            actor = state.to_move()
            if actor == seat:
                asked = state.legal_actions().describe()
                return self.fail((*path, "expect_no_prompt"), f"expected no decision for {seat}, but {seat} is asked ({asked})")
            self.result.lines.append(Line("expect", f"nothing is asked of {seat} now ({actor or 'game over'} to move)"))
            return True
        if "note" in step:
            self.result.lines.append(Line("note", str(step["note"])))
            return True
        return self.fail(path, "a step needs one of: do, expect, expect_legal, expect_illegal, expect_to_move, expect_no_prompt, note")

    def expect_rejected(self, state: GameState, action: Action, message: str, path: tuple[str | int, ...]) -> bool:
        before = state.snapshot()
        try:
            state.apply(action)
        except IllegalAction as exc:
            if message not in str(exc):
                return self.fail((*path, "error"), f"{action} was refused, but with {str(exc)!r}, not {message!r}")
            if state.snapshot() != before:
                return self.fail(path, f"refusing {action} changed the state")
            self.result.lines.append(Line("expect", f"refused as expected: {exc}"))
            return True
        return self.fail(path, f"expected {action} to be refused ({message!r}), but it was accepted")

    def expect_values(self, state: GameState, expected: Mapping[str, Any], path: tuple[str | int, ...]) -> bool:
        snapshot = state.snapshot()
        ok = True
        for key, want in expected.items():
            if key == "winner" or key == "result":
                outcome = state.outcome()
                got: Any = None if outcome is None else (list(outcome.winners) if key == "winner" else outcome.result)
            else:
                try:
                    got = snapshot_value(snapshot, key)
                except KeyError:
                    ok = self.fail((*path, key), f"the state has no {key!r}")
                    continue
            if isinstance(got, tuple):
                got = list(got)
            if got != want:
                ok = self.fail((*path, key), f"expected {key} = {want!r}, got {got!r}")
            else:
                self.result.lines.append(Line("expect", f"{key} = {want!r}"))
        return ok

    def expect_legality(self, state: GameState, raw: Any, legal_wanted: bool, path: tuple[str | int, ...]) -> bool:
        actions = raw if isinstance(raw, list) else [raw]
        legal = state.legal_actions()
        ok = True
        for index, item in enumerate(actions):
            action = Action.from_data(item)
            if (action in legal) != legal_wanted:
                verdict = "illegal" if legal_wanted else "legal"
                ok = self.fail((*path, index), f"expected {action} to be {'legal' if legal_wanted else 'illegal'}, but it is {verdict}")
                continue
            if not legal_wanted:
                before = state.snapshot()
                try:
                    state.apply(action)
                    ok = self.fail((*path, index), f"{action} is not listed as legal but apply() accepted it")
                except IllegalAction:
                    if state.snapshot() != before:
                        ok = self.fail((*path, index), f"refusing {action} changed the state")
            self.result.lines.append(Line("expect", f"{action} is {'legal' if legal_wanted else 'illegal'}"))
        return ok

    def finish(self, state: GameState) -> None:
        data = self.file.data
        if data.get("strict", True) and self.chance_queue:
            path, action = self.chance_queue[0]
            self.fail(path, f"scripted chance left unused: {action} (and {len(self.chance_queue) - 1} more)")
        for index, rule in enumerate(data.get("rules", [])):
            if rule not in self.rules:
                self.fail(("rules", index), f"{rule!r} is not a rule of {self.definition.id}")
            elif rule not in self.applied:
                self.fail(("rules", index), f"the scenario says {rule} decides it, but that rule was never applied")


class PositionError(Exception):
    """A position that cannot be built: each problem is (path inside ``position``, message)."""

    def __init__(self, problems: list[tuple[tuple[str | int, ...], str]]) -> None:
        super().__init__("; ".join(m for _, m in problems))
        self.problems = problems


def run_file(path: Path, display: str | None = None) -> ScenarioResult:
    file = load_scenario(path, display)
    return ScenarioRun(file).run()


def scenario_files(root: Path) -> Iterator[Path]:
    """The scenario files under a folder (golden transcripts may sit beside them and are skipped)."""
    for path in sorted(root.rglob("*.yaml")):
        if not is_transcript(path):
            yield path


def explain(result: ScenarioResult, rules: RuleBook, say: Callable[[str], None]) -> None:
    """Print what happened step by step, with the rule that decided each event."""
    say(f"{result.path}: {result.title}")
    for line in result.lines:
        if line.kind == "action":
            say(f"  > {line.text}")
        elif line.kind == "event":
            says = rules.rules[line.rule].says if line.rule in rules else ""
            say(f"      {line.rule}: {line.text}")
            if says:
                say(f"          ({says})")
        elif line.kind == "expect":
            say(f"  ✓ {line.text}")
        elif line.kind == "note":
            say(f"  # {line.text}")
        else:
            say(f"  ✗ {line.text}")
    verdict = "PASS" if result.ok else "FAIL"
    say(f"  verdict: {verdict}" + ("" if result.ok else f" ({len(result.failures)} problem(s))"))
    for failure in result.failures:
        say(f"    {failure}")
