"""Dispute scenarios: a position, the disputed moment, and what the rules require.

A scenario file (``kind: scenario``) names a game, builds a position directly (through the game's
``position`` hook, or from the game's normal start when it has none), then runs ``steps`` in
order: actions (``do``), scripted chance, and expectations checked along the way. It is strict by
default: a prompt the scenario does not answer, or scripted chance left unused, fails it; and
every rule id the scenario lists under ``rules`` must actually be applied (by an event, or by the
refusal of an action the scenario expects to be refused).

Every key a scenario writes is carried out or refused: a step runs all of its checks in the order
they are written (its ``do`` first), and a key the language does not know is an error at its line.
``soft: true`` runs on past failed expectations and reports every one; a failed action still
stops the run, since nothing after it would be the position the scenario describes.

Version 2 (``spec_version: 2``) means a ``move``'s ``cost`` is what the step costs in all (the
room's base cost and every surcharge); a version 1 file names the base cost, as it always did.
Operators, purpose-named chance, refusal rule ids and ``expect_probability`` work in both.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from difflib import get_close_matches
from fractions import Fraction
from pathlib import Path
from typing import Any

from hauntcheck.engine.core import (
    CHANCE,
    Action,
    ActionList,
    Choices,
    DiceRoll,
    Draw,
    Event,
    GameState,
    IllegalAction,
    Outcome,
    RuleBook,
    Shuffle,
)
from hauntcheck.engine.games import GameDef, game_spec, get_game, rulebook
from hauntcheck.engine.spec import GameSpec, SpecError, SpecErrors, SpecFile, load_file
from hauntcheck.engine.transcript import is_transcript, legal_by_name


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
    huge = [spec.error(where, "a number this large (over 18 digits) is not a count, a face or a place of anything")
            for where in _huge_numbers(spec.data, ())]
    if huge:
        raise SpecErrors(huge)
    return spec


def _huge_numbers(node: Any, path: tuple[str | int, ...]) -> Iterator[tuple[str | int, ...]]:
    """Paths of integers too large for any scenario (Python cannot even print one of 5,000 digits)."""
    if isinstance(node, bool):
        return
    if isinstance(node, int):
        if abs(node).bit_length() > 60:
            yield path
    elif isinstance(node, Mapping):
        for key, value in node.items():
            yield from _huge_numbers(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _huge_numbers(value, (*path, index))


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


#: Expectation operators: ``{path: {operator: value}}``; a plain value means ``equals``.
OPERATORS = ("equals", "contains", "not_contains", "at_least", "at_most", "changed_by", "one_of")
#: The keys of a step that check or do something, run in the order they are written.
STEP_CHECKS = ("expect", "expect_legal", "expect_illegal", "expect_to_move", "expect_no_prompt", "expect_probability")
#: Keys that only qualify a ``do``.
DO_MODIFIERS = ("by", "error", "rule", "then_chance")
#: Outcomes an ``expect_probability`` may enumerate before it gives up (a clear error past it).
PROBABILITY_BOUND = 20_000
#: A shuffle is enumerated (each distinct order equally likely) when its pile has at most this many
#: permutations to go through (8 items); a bigger one cannot be, and says so.
SHUFFLE_ENUMERATION_LIMIT = math.factorial(8)
#: A ``for:`` purpose spelt like an internal tag (``fall-damage``): purposes are named in the words the
#: engine asks with (``physical damage``, ``speed roll``, ``room tile``), as the explanation prints them.
TAG_PURPOSE = re.compile(r"^[A-Za-z0-9]+([-_][A-Za-z0-9]+)+$")


@dataclass
class ScriptedChance:
    """One scripted chance outcome: in the order the engine asks (``purpose`` empty), or named
    by what it is for and matched whenever chance is asked for that, in any order."""

    path: tuple[str | int, ...]
    purpose: str
    outcome: Mapping[str, Any]

    def action(self, choices: Choices) -> Action:
        data = dict(self.outcome)
        if "kind" in data:
            return Action.from_data(data)
        if "faces" in data:
            return Action.of("roll", **data)
        kind = getattr(choices, "kind", "draw")
        return Action(str(kind), tuple((str(k), _freeze_arg(v)) for k, v in data.items()))

    def describe(self) -> str:
        if not self.purpose and isinstance(self.outcome, Mapping) and isinstance(self.outcome.get("kind"), str):
            return str(Action.from_data(self.outcome))
        shown = ", ".join(f"{k}={v}" for k, v in self.outcome.items()) if isinstance(self.outcome, Mapping) else repr(self.outcome)
        return f"{{for: {self.purpose}, {shown}}}" if self.purpose else shown


def _freeze_arg(value: Any) -> Any:
    return Action.of("x", v=value).args[0][1]


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[^a-z0-9]+", text.lower()) if w]


def decision_text(state: GameState) -> str:
    """What chance (or a player) is asked now, as the engine words it."""
    choices = state.legal_actions()
    parts = [choices.describe()]
    purpose = getattr(choices, "purpose", "")
    if purpose:
        parts.append(str(purpose))
    pending = state.snapshot().get("pending")
    if isinstance(pending, Mapping) and pending.get("what"):
        parts.append(str(pending["what"]))
    return "; ".join(dict.fromkeys(parts))


def purpose_matches(purpose: str, asked: str) -> bool:
    """A purpose matches a decision when every word of it is a word of what is asked
    (``physical damage`` matches ``1 dice of physical damage``; ``haunt roll`` matches the haunt roll).
    A purpose spelt as a tag (``fall-damage``) is refused when the scenario is loaded (``TAG_PURPOSE``)."""
    wanted = _words(purpose)
    have = set(_words(asked))
    return bool(wanted) and all(w in have or (w.endswith("s") and w[:-1] in have) for w in wanted)


class WeightedChoices(Choices):
    """Choices that know the weight of each of their outcomes themselves (another engine's
    chance decision, asked through the conformance protocol)."""

    def weights(self) -> list[tuple[Action, Fraction]] | None:
        raise NotImplementedError


def chance_weights(choices: Choices) -> list[tuple[Action, Fraction]] | None:
    """Every outcome of a chance decision with its exact probability, or None when the outcomes
    cannot be listed with their weights (a shuffle)."""
    if isinstance(choices, WeightedChoices):
        return choices.weights()
    if isinstance(choices, DiceRoll):
        per_face = {f: Fraction(choices.faces.count(f), len(choices.faces)) for f in choices.distinct}
        out = []
        for action in choices:
            weight = Fraction(1)
            faces = action["faces"]
            assert isinstance(faces, tuple)
            for face in faces:
                weight *= per_face[int(face)]  # type: ignore[arg-type]
            out.append((action, weight))
        return out
    if isinstance(choices, Draw):
        total = len(choices.items)
        return [(action, Fraction(choices.items.count(str(action.args[0][1])), total)) for action in choices]
    if isinstance(choices, ActionList):
        actions = list(choices)
        return [(action, Fraction(1, len(actions))) for action in actions] if actions else None
    if isinstance(choices, Shuffle) and math.factorial(len(choices.items)) <= SHUFFLE_ENUMERATION_LIMIT:
        # every distinct order of the pile is equally likely (a deal of tokens, a small deck)
        orders = sorted(set(itertools.permutations(choices.items)))
        return [(Action("shuffle", (("pile", choices.pile), ("order", order))), Fraction(1, len(orders))) for order in orders]
    return None


@dataclass(frozen=True)
class Leaf:
    """What an expectation reads of a position reached by chance: its outcome and snapshot."""

    ending: Outcome | None
    data: dict[str, Any]

    def outcome(self) -> Outcome | None:
        return self.ending

    def snapshot(self) -> dict[str, Any]:
        return self.data


class ScenarioRun:
    """Runs one loaded scenario file against its game."""

    def __init__(self, file: SpecFile, definition: GameDef | None = None, spec: GameSpec | None = None,
                 soft: bool = False) -> None:
        self.file = file
        data = file.data
        self.definition = definition or get_game(data["game"])
        self.spec = spec or game_spec(self.definition.id)
        self.rules: RuleBook = rulebook(self.spec)
        self.result = ScenarioResult(file.display, data.get("title", file.display))
        self.version = data.get("spec_version", 1) if isinstance(data.get("spec_version"), int) else 1
        self.soft = soft or data.get("soft", False) is True  # the file's soft: true, or the run's mode
        self.chance_queue: list[ScriptedChance] = []
        self.applied: dict[str, None] = {}
        self.stopped = False  # an action failed: nothing after it describes the scenario's position
        self.start: dict[str, Any] = {}
        #: The last chance enumeration: the state, (its history, its snapshot, the bound), its leaves.
        self._leaves: tuple[GameState, tuple[tuple[Action, ...], dict[str, Any], int], list[tuple[Leaf, Fraction]]] | None = None
        #: Told of every applied action (state after, actor, action, legal actions before, events).
        self.observer: Callable[[GameState, str, Action, int, list[Event]], None] | None = None

    # -- building ----------------------------------------------------------------------------

    def build(self) -> GameState:
        data = self.file.data
        players = data.get("players", self.definition.min_players)
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
        try:
            return self.definition.new_game(self.spec, players, options)
        except ValueError as exc:
            raise SpecErrors([self.file.error(("players",), str(exc))]) from None

    # -- running -----------------------------------------------------------------------------

    def run(self) -> ScenarioResult:
        try:
            state = self.build()
        except SpecErrors as exc:
            self.result.failures.extend(str(e) for e in exc.errors)
            return self.result
        self.result.before = state.clone()
        self.start = state.snapshot()
        for index, raw in enumerate(self.file.data.get("chance", [])):
            if isinstance(raw, Mapping) and "for" in raw and TAG_PURPOSE.match(str(raw["for"])):
                return self._refuse_load(("chance", index, "for"), f"'for: {raw['for']}' is spelt like an internal tag; name "
                                         "the purpose in the words the engine asks with, as the explanation prints them "
                                         "(e.g. 'physical damage', 'speed roll', 'room tile', 'omen card', 'haunt roll')")
            if isinstance(raw, Mapping) and "for" in raw:
                outcome = {k: v for k, v in raw.items() if k != "for"}
                self.chance_queue.append(ScriptedChance(("chance", index), str(raw["for"]), outcome))
            else:
                self.chance_queue.append(ScriptedChance(("chance", index), "", raw))
        steps = self.file.data.get("steps", [])
        for index, step in enumerate(steps):
            if not self.step(state, step, ("steps", index)) and (self.stopped or not self.soft):
                break
        else:
            self.finish(state)
        self.result.after = state
        self.result.rules_applied = list(self.applied)
        return self.result

    def _refuse_load(self, path: tuple[str | int, ...], message: str) -> ScenarioResult:
        """A scenario that cannot run as written: the failure, located, and nothing run."""
        self.halt(path, message)
        return self.result

    def fail(self, path: tuple[str | int, ...], message: str) -> bool:
        self.result.failures.append(str(SpecError(self.file.where(path), message)))
        self.result.lines.append(Line("fail", message))
        return False

    def halt(self, path: tuple[str | int, ...], message: str) -> bool:
        """A failure after which the run cannot go on (even in soft mode)."""
        self.stopped = True
        return self.fail(path, message)

    def apply(self, state: GameState, action: Action, path: tuple[str | int, ...]) -> bool:
        actor = state.to_move()
        offered = state.legal_actions().size() if self.observer is not None and actor is not None else 0
        try:
            events = state.apply(action)
        except IllegalAction as exc:
            # The same action with its arguments in another order (a YAML tool that sorts keys
            # writes them so) is the same action: arguments are compared by name.
            same = legal_by_name(action, state.legal_actions()) if actor is not None else None
            if same is None or same == action:
                refused = f" (refused by {exc.rule})" if exc.rule else ""
                return self.halt(path, f"{actor} cannot {action}: {exc.reason}{refused}")
            action, events = same, state.apply(same)
        self.result.lines.append(Line("action", f"{actor}: {action}"))
        for event in events:
            self.applied.setdefault(event.rule, None)
            self.result.lines.append(Line("event", event.text, event.rule))
        if self.observer is not None:
            self.observer(state, str(actor), action, offered, events)
        return True

    def next_chance(self, state: GameState) -> ScriptedChance | None:
        """The scripted outcome for the chance decision now: the first one named for what is
        asked, else the next unnamed one in order."""
        asked = decision_text(state)
        for item in self.chance_queue:
            if item.purpose and purpose_matches(item.purpose, asked):
                return item
        for item in self.chance_queue:
            if not item.purpose:
                return item
        return None

    def drain_chance(self, state: GameState, path: tuple[str | int, ...], before_actor: str | None) -> bool:
        """Feed scripted chance outcomes while chance is to move and the next scripted action is
        not itself chance's."""
        while state.to_move() == CHANCE and before_actor != CHANCE:
            item = self.next_chance(state)
            if item is None:
                asked = decision_text(state)
                named = [i.purpose for i in self.chance_queue if i.purpose]
                extra = f"; the outcomes left are named for: {', '.join(named)}" if named else ""
                return self.halt(path, f"chance must decide ({asked}) but the scenario scripts no outcome for it{extra}")
            self.chance_queue.remove(item)
            if item.purpose:
                self.result.lines.append(Line("note", f"chance for {item.purpose!r}: {decision_text(state)}"))
            if not self.apply(state, item.action(state.legal_actions()), item.path):
                return False
        return True

    def step(self, state: GameState, step: Mapping[str, Any], path: tuple[str | int, ...]) -> bool:
        if not isinstance(step, Mapping):
            return self.halt(path, "a step is a mapping (do, expect, note ...)")
        if "do" not in step:
            loose = [k for k in DO_MODIFIERS if k in step]
            if loose:
                return self.halt((*path, loose[0]), f"{loose[0]!r} qualifies a 'do' and this step has none")
        elif "error" not in step and "rule" in step:
            return self.halt((*path, "rule"), "'rule' names the rule that refuses a 'do' and needs 'error' beside it")
        ok = True
        ran = False
        if "do" in step:
            ran = True
            if not self.do(state, step, path):
                return False
        for key in step:
            if key not in STEP_CHECKS:
                continue
            ran = True
            ok = self.check(state, key, step[key], (*path, key)) and ok
            if self.stopped:
                return False
        if "note" in step:
            ran = True
            self.result.lines.append(Line("note", str(step["note"])))
        if not ran:
            return self.halt(path, "a step needs one of: do, " + ", ".join(STEP_CHECKS) + ", note")
        return ok

    def check(self, state: GameState, key: str, value: Any, path: tuple[str | int, ...]) -> bool:
        if key == "expect":
            return self.expect_values(state, value, path)
        if key == "expect_legal":
            return self.expect_legality(state, value, True, path)
        if key == "expect_illegal":
            return self.expect_legality(state, value, False, path)
        if key == "expect_probability":
            return self.expect_probability(state, value, path)
        actor = state.to_move()
        if key == "expect_to_move":
            if actor != value:
                return self.fail(path, f"expected {value} to move, got {actor}")
            self.result.lines.append(Line("expect", f"{actor} is to move"))
            return True
        if actor == value:
            asked = state.legal_actions().describe()
            return self.fail(path, f"expected no decision for {value}, but {value} is asked ({asked})")
        self.result.lines.append(Line("expect", f"nothing is asked of {value} now ({actor or 'game over'} to move)"))
        return True

    def do(self, state: GameState, step: Mapping[str, Any], path: tuple[str | int, ...]) -> bool:
        try:
            action = Action.from_data(step["do"])
        except (ValueError, TypeError) as exc:
            return self.halt((*path, "do"), str(exc))
        by = step.get("by")
        actor_hint = by or (CHANCE if step.get("chance") else None)
        if not self.drain_chance(state, path, actor_hint):
            return False
        actor = state.to_move()
        if by is not None and actor != by:
            legal = state.legal_actions() if actor else None
            prompt = f"{actor} must decide ({legal.describe()})" if legal is not None else "the game is over"
            return self.halt((*path, "by"), f"expected {by} to act, but {prompt}: a prompt the scenario does not answer")
        if "error" in step:
            return self.expect_rejected(state, action, str(step["error"]), step.get("rule"), path)
        costed = self.step_cost(state, action, (*path, "do"))
        if costed is None:
            return False
        action, wanted = costed
        moved_before = self.moved(state)
        if not self.apply(state, action, (*path, "do")):
            return False
        if wanted is not None and moved_before is not None:
            moved_after = self.moved(state)
            base = int(action["cost"])  # type: ignore[arg-type]
            spent = (moved_after or 0) - moved_before
            shown = f"the step costs {spent} (base {base} + {spent - base} surcharge)" if spent != base else f"the step costs {spent}"
            if spent != wanted:
                return self.halt((*path, "do", "cost"), f"{shown}, not {wanted}")
            self.result.lines.append(Line("expect", shown))
        return self.drain_chance(state, path, None) if step.get("then_chance", True) else True

    @staticmethod
    def moved(state: GameState) -> int | None:
        turn = state.snapshot().get("turn")
        moved = turn.get("moved") if isinstance(turn, Mapping) else None
        return moved if isinstance(moved, int) else None

    def step_cost(self, state: GameState, action: Action, path: tuple[str | int, ...]) -> tuple[Action, int | None] | None:
        """A ``move`` with a ``cost``: in version 2 the cost is what the step costs in all, so the
        legal move to that room (whose ``cost`` is the base) is taken and its total checked; a
        version 1 file names the base cost, and a total is accepted when the base is not legal."""
        if action.kind != "move" or "cost" not in dict(action.args) or state.to_move() in (None, CHANCE):
            return action, None
        wanted = action["cost"]
        if not isinstance(wanted, int) or isinstance(wanted, bool):
            self.halt((*path, "cost"), f"a cost is a whole number of spaces, got {wanted!r}")
            return None
        legal = state.legal_actions()
        if self.version < 2 and action in legal:
            return action, None
        same = [a for a in legal if a.kind == "move" and a.get("to") == action.get("to")]
        if len(same) != 1:
            return action, None
        return same[0], wanted

    def expect_rejected(self, state: GameState, action: Action, message: str, rule: Any,
                        path: tuple[str | int, ...]) -> bool:
        before = state.snapshot()
        try:
            state.apply(action)
        except IllegalAction as exc:
            if message not in str(exc):
                return self.fail((*path, "error"), f"{action} was refused, but with {str(exc)!r}, not {message!r}")
            if state.snapshot() != before:
                return self.halt(path, f"refusing {action} changed the state")
            if rule is not None and not self.refused_by(exc, rule, (*path, "rule")):
                return False
            self.result.lines.append(Line("expect", f"refused as expected: {exc}", exc.rule))
            return True
        return self.halt(path, f"expected {action} to be refused ({message!r}), but it was accepted")

    def refused_by(self, exc: IllegalAction, rule: Any, path: tuple[str | int, ...]) -> bool:
        """The refusal names ``rule`` (and that counts as the rule being applied)."""
        if rule not in self.rules:
            return self.fail(path, f"{rule!r} is not a rule of {self.definition.id}")
        if exc.rule != rule:
            named = exc.rule or "no rule"
            return self.fail(path, f"{exc.action} was refused by {named}, not by {rule}")
        self.applied.setdefault(rule, None)
        return True

    # -- expectations ------------------------------------------------------------------------

    def observed(self, state: GameState | Leaf, snapshot: Mapping[str, Any], key: str) -> Any:
        if key in ("winner", "result"):
            outcome = state.outcome()
            return None if outcome is None else (list(outcome.winners) if key == "winner" else outcome.result)
        got = snapshot_value(snapshot, key)
        return list(got) if isinstance(got, tuple) else got

    def expect_values(self, state: GameState, expected: Any, path: tuple[str | int, ...], quiet: bool = False) -> bool:
        if not isinstance(expected, Mapping):
            return self.fail(path, "expect is a mapping of state paths to the values (or operators) required")
        snapshot = state.snapshot()
        ok = True
        for key, want in expected.items():
            try:
                got = self.observed(state, snapshot, str(key))
            except KeyError:
                ok = self.fail((*path, key), f"the state has no {key!r}")
                continue
            for op, value, problem in self.compare(str(key), got, want):
                where = (*path, key, op) if isinstance(want, Mapping) and op in want else (*path, key)
                if problem:
                    ok = self.fail(where, problem)
                elif not quiet:
                    self.result.lines.append(Line("expect", f"{key} {op.replace('_', ' ')} {value!r}"))
        return ok

    def compare(self, key: str, got: Any, want: Any) -> list[tuple[str, Any, str]]:
        """(operator, operand, problem or "") for each operator the expectation states."""
        if not (isinstance(want, Mapping) and want and all(k in OPERATORS for k in want)):
            unknown = [k for k in want if k not in OPERATORS] if isinstance(want, Mapping) else []
            # a mapping that names an operator, or nearly does, is a misspelt operator, not a value
            if unknown and (len(unknown) < len(want) or any(get_close_matches(str(k), OPERATORS, 1, 0.75) for k in unknown)):
                near = get_close_matches(str(unknown[0]), OPERATORS, 1, 0.75)
                hint = f"did you mean {near[0]}?" if near else f"operators: {', '.join(OPERATORS)}"
                return [("equals", want, f"unknown operator {unknown[0]!r} ({hint})")]
            want = {"equals": want}
        out: list[tuple[str, Any, str]] = []
        for op, value in want.items():
            out.append((op, value, self.operator_problem(key, op, got, value)))
        return out

    def operator_problem(self, key: str, op: str, got: Any, value: Any) -> str:
        def number(x: Any) -> bool:
            return isinstance(x, int) and not isinstance(x, bool)

        if op == "equals":
            return "" if got == value else f"expected {key} = {value!r}, got {got!r}"
        if op in ("contains", "not_contains"):
            if not isinstance(got, list | str | Mapping):
                return f"{key} is {got!r}, which cannot contain anything"
            inside = value in got if not isinstance(got, str) else isinstance(value, str) and value in got
            if op == "contains":
                return "" if inside else f"expected {key} to contain {value!r}, got {got!r}"
            return "" if not inside else f"expected {key} not to contain {value!r}, got {got!r}"
        if op == "one_of":
            if not isinstance(value, list):
                return f"one_of takes a list of values, got {value!r}"
            return "" if got in value else f"expected {key} to be one of {value!r}, got {got!r}"
        if not number(value):
            return f"{op} takes a whole number, got {value!r}"
        if not number(got):
            return f"{key} is {got!r}, not a number"
        if op == "at_least":
            return "" if got >= value else f"expected {key} at least {value}, got {got}"
        if op == "at_most":
            return "" if got <= value else f"expected {key} at most {value}, got {got}"
        try:
            start = snapshot_value(self.start, key)
        except KeyError:
            return f"the starting position has no {key!r} to compare with"
        if not number(start):
            return f"{key} was {start!r} at the start, not a number"
        change = got - start
        return "" if change == value else (f"expected {key} to change by {value:+d} since the start, "
                                           f"it changed by {change:+d} ({start} -> {got})")

    def expect_legality(self, state: GameState, raw: Any, legal_wanted: bool, path: tuple[str | int, ...]) -> bool:
        items = raw if isinstance(raw, list) else [raw]
        legal = state.legal_actions()
        ok = True
        for index, item in enumerate(items):
            where = (*path, index) if isinstance(raw, list) else path
            rule = None
            if isinstance(item, Mapping) and "action" in item and "kind" not in item:
                extra = [k for k in item if k not in ("action", "rule")]
                if extra or legal_wanted:
                    bad = extra[0] if extra else "rule"
                    ok = self.fail((*where, bad), f"unknown key {bad!r} here (an action, or {{action, rule}} for a refusal)")
                    continue
                rule, item = item.get("rule"), item["action"]
            try:
                action = Action.from_data(item)
            except (ValueError, TypeError) as exc:
                ok = self.fail(where, str(exc))
                continue
            if (action in legal) != legal_wanted:
                verdict = "illegal" if legal_wanted else "legal"
                ok = self.fail(where, f"expected {action} to be {'legal' if legal_wanted else 'illegal'}, but it is {verdict}")
                continue
            if not legal_wanted:
                before = state.snapshot()
                try:
                    state.apply(action)
                    ok = self.halt(where, f"{action} is not listed as legal but apply() accepted it")
                    continue
                except IllegalAction as exc:
                    if state.snapshot() != before:
                        ok = self.halt(where, f"refusing {action} changed the state")
                        continue
                    if rule is not None and not self.refused_by(exc, rule, (*where, "rule")):
                        ok = False
                        continue
                    self.result.lines.append(Line("expect", f"{action} is illegal", exc.rule))
                    continue
            self.result.lines.append(Line("expect", f"{action} is legal"))
        return ok

    def expect_probability(self, state: GameState, raw: Any, path: tuple[str | int, ...]) -> bool:
        """The exact probability that the ``of`` expectations hold once the chance decisions that
        come next are settled (every outcome enumerated with its weight)."""
        if not isinstance(raw, Mapping) or "of" not in raw or "equals" not in raw:
            return self.fail(path, "expect_probability needs 'of' (expectations) and 'equals' (a fraction such as 1/6)")
        unknown = [k for k in raw if k not in ("of", "equals", "bound")]
        if unknown:
            return self.fail((*path, unknown[0]), f"unknown key {unknown[0]!r} (of, equals, bound)")
        try:
            wanted = Fraction(str(raw["equals"]))
        except (ValueError, ZeroDivisionError):
            return self.fail((*path, "equals"), f"a probability is a fraction such as 1/6 or 0.25, got {raw['equals']!r}")
        bound = raw.get("bound", PROBABILITY_BOUND)
        if not isinstance(bound, int) or isinstance(bound, bool) or not 1 <= bound <= 10 * PROBABILITY_BOUND:
            return self.fail((*path, "bound"), f"bound is a whole number from 1 to {10 * PROBABILITY_BOUND}, got {bound!r}")
        condition = raw["of"]
        if not isinstance(condition, Mapping) or not condition:
            return self.fail((*path, "of"), "'of' is a mapping of state paths to values or operators, as in expect")
        if state.to_move() != CHANCE:
            return self.fail(path, f"no chance decision comes next ({state.to_move() or 'the game is over'} to move)")
        enumerated = self.chance_leaves(state, bound)
        if isinstance(enumerated, str):
            return self.fail(path, enumerated)
        total = sum((weight for leaf, weight in enumerated if self.holds(leaf, condition)), Fraction(0))
        leaves = len(enumerated)
        problems = [p for p in (self.compare_probe(condition),) if p]
        if problems:
            return self.fail((*path, "of"), problems[0])
        if total != wanted:
            return self.fail((*path, "equals"), f"the probability is {total} ({float(total):.4f}) over {leaves} outcomes, not {wanted}")
        self.result.lines.append(Line("expect", f"probability {total} over {leaves} outcomes"))
        return True

    def compare_probe(self, condition: Mapping[str, Any]) -> str:
        """A malformed operator in an ``of`` condition is an error, not a case that never holds."""
        for key, want in condition.items():
            if isinstance(want, Mapping) and any(k in OPERATORS for k in want):
                unknown = [k for k in want if k not in OPERATORS]
                if unknown:
                    return f"unknown operator {unknown[0]!r} for {key}"
        return ""

    def chance_leaves(self, state: GameState, bound: int) -> list[tuple[Leaf, Fraction]] | str:
        """Every position the chance decisions that come next can lead to, with its probability,
        or why they cannot be enumerated within ``bound`` outcomes. Each outcome is played on a
        clone (a game state cannot be copied mid-turn, so a clone replays its history); a
        scenario asking several probabilities of the same roll enumerates it once (the same state
        object, unchanged: its actions so far and its whole data the same)."""
        key = (tuple(getattr(state, "history", ())), state.snapshot(), bound)
        if self._leaves is not None and self._leaves[0] is state and self._leaves[1] == key:
            return self._leaves[2]
        leaves: list[tuple[Leaf, Fraction]] = []
        stack: list[tuple[GameState, Fraction]] = [(state.clone(), Fraction(1))]
        while stack:
            node, weight = stack.pop()
            if node.to_move() != CHANCE:
                leaves.append((Leaf(node.outcome(), node.snapshot()), weight))
                continue
            outcomes = chance_weights(node.legal_actions())
            if outcomes is None:
                return f"chance decides by {node.legal_actions().describe()}, whose outcomes cannot be enumerated"
            if len(leaves) + len(stack) + len(outcomes) > bound:
                return f"more than {bound} chance outcomes to enumerate (raise 'bound', or script some chance first)"
            for index, (action, w) in enumerate(outcomes):
                # the node is a clone of its own, needed no more once its last outcome is played
                child = node if index == len(outcomes) - 1 else node.clone()
                child.apply(action)
                stack.append((child, weight * w))
        self._leaves = (state, key, leaves)
        return leaves

    def holds(self, state: GameState | Leaf, condition: Mapping[str, Any]) -> bool:
        snapshot = state.snapshot()
        for key, want in condition.items():
            try:
                got = self.observed(state, snapshot, str(key))
            except KeyError:
                return False
            if any(problem for _, _, problem in self.compare(str(key), got, want)):
                return False
        return True

    def finish(self, state: GameState) -> None:
        data = self.file.data
        if data.get("strict", True) and self.chance_queue:
            first = self.chance_queue[0]
            self.fail(first.path, f"scripted chance left unused: {first.describe()} (and {len(self.chance_queue) - 1} more)")
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
