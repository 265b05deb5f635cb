"""The game-agnostic core: actions, events, chance, and the state interface every game implements.

A game is a sequence of decisions. At every point exactly one actor decides: a player seat
(``"P1"``, ``"P2"``, ...) or ``"chance"`` (dice, draws, shuffles). ``legal_actions()`` lists what
that actor may do; ``apply()`` takes one of those actions, changes the state and returns the
events it caused, each naming the rule clause (by id) that produced it. Nothing in a game state
draws random numbers: chance is an actor like the players, and its decisions are recorded like
theirs, so a transcript of actions replays to the same state without any generator.
"""

from __future__ import annotations

import abc
import functools
import math
import operator
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any, ClassVar, TypeAlias

from hauntcheck.engine.compiled import mypyc_attr

CHANCE = "chance"

Scalar: TypeAlias = str | int | bool | None
Value: TypeAlias = Scalar | tuple["Value", ...]
#: An event argument as a game passes it: plain data (lists and tuples are stored as tuples).
EventArg: TypeAlias = Scalar | Sequence["EventArg"]


def _freeze(value: Any) -> Value:
    """Turn lists (as read from YAML or JSON) into tuples so actions are hashable."""
    if isinstance(value, str):
        return value  # the common case, checked first: engines build many actions a step
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if value is None or isinstance(value, str | int | bool):
        return value
    raise TypeError(f"action arguments must be strings, integers, booleans or lists, not {value!r}")


#: Argument types that are already frozen (``Action.of`` passes them through as they are).
_PLAIN: frozenset[type] = frozenset({str, int, bool, type(None)})


def _thaw(value: Value) -> Any:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: a kind (``move``, ``roll``, ``draw`` ...) and named arguments.

    Actions are plain hashable data. Their dictionary form (``to_data``) is what transcripts and
    scenarios store, with the kind first and the arguments in the order given.
    """

    kind: str
    args: tuple[tuple[str, Value], ...] = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> Action:
        # immutable, so a deep copy is the action itself (compiled, a frozen dataclass cannot be
        # rebuilt field by field, as deepcopy would: Halls of Horror's clone copies its actions)
        return self

    @classmethod
    def of(cls, kind: str, **args: Any) -> Action:
        items = tuple(args.items())
        for _, value in items:
            if type(value) not in _PLAIN:  # lists to freeze (and values to check)
                return cls(kind, tuple((k, _freeze(v)) for k, v in items))
        return cls(kind, items)

    def get(self, name: str, default: Value = None) -> Value:
        for key, value in self.args:
            if key == name:
                return value
        return default

    def __getitem__(self, name: str) -> Value:
        for key, value in self.args:
            if key == name:
                return value
        raise KeyError(f"action {self} has no argument {name!r}")

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for key, value in self.args:
            data[key] = _thaw(value)
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Action:
        if not isinstance(data, Mapping) or not isinstance(data.get("kind"), str):
            raise ValueError(f"an action needs a 'kind' string, got {data!r}")
        return cls(
            data["kind"], tuple((str(k), _freeze(v)) for k, v in data.items() if k != "kind")
        )

    def __str__(self) -> str:
        parts = [self.kind]
        for key, value in self.args:
            shown = _thaw(value)
            parts.append(f"{key}={shown}")
        return " ".join(parts)


@functools.lru_cache(maxsize=None, typed=True)  # typed: a True argument is not the cached 1
def act(kind: str, name: str = "", value: Scalar = None) -> Action:
    """The action ``kind name=value`` (or ``kind`` alone), built once: an engine rebuilds its menus
    at every decision from the same few actions, and one shared object also makes ``apply``'s check
    of the menu an identity match."""
    return Action(kind, ((name, value),) if name else ())


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, and the rule clause (by id) that made it happen. ``args`` are the
    event's structured arguments (who, which, how many), compared by a version 2 transcript's
    replay and by ``hauntcheck conform``; the text is for people."""

    rule: str
    text: str
    args: tuple[tuple[str, Value], ...] = ()

    def to_data(self) -> dict[str, Any]:
        """The structured part: the rule id and the arguments (the prose left out)."""
        data: dict[str, Any] = {"rule": self.rule}
        if self.args:
            data["args"] = {key: _thaw(value) for key, value in self.args}
        return data

    def __str__(self) -> str:
        return f"{self.rule}: {self.text}"

    @classmethod
    def parse(cls, line: str) -> Event:
        rule, sep, text = line.partition(": ")
        if not sep:
            raise ValueError(f"an event reads 'rule-id: what happened', got {line!r}")
        return cls(rule, text)


class IllegalAction(Exception):
    """An action that is not legal now. The state is unchanged when this is raised."""

    def __init__(self, action: Action, actor: str | None, reason: str, rule: str = "") -> None:
        shown = f"{reason} (refused by {rule})" if rule else reason
        super().__init__(f"{actor or 'nobody'} cannot {action}: {shown}")
        self.action = action
        self.actor = actor
        self.reason = reason
        #: The id of the rule clause that refuses the action ("" when the game cannot say).
        self.rule = rule


@mypyc_attr(native_class=False)  # mypyc compiles no subclass of KeyError
class UnknownRule(KeyError):
    """The engine referred to a rule id that the game's rules.yaml does not define."""


# --------------------------------------------------------------------------------------------
# Deterministic randomness


class Rng:
    """A small seeded generator (SplitMix64) that gives the same numbers on every machine and
    Python version. It feeds chance and seeded-random players; a replay never uses it."""

    _MASK = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        self._state = seed & self._MASK

    def __copy__(self) -> Rng:
        # written out: compiled, a native class cannot be copied by copy's default
        other = Rng(0)
        other._state = self._state
        return other

    def next64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & self._MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self._MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self._MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, so no modulo bias)."""
        limit = _BELOW_LIMITS.get(n)
        if limit is None:
            limit = _below_limit(n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[Any]) -> list[Any]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def fork(self, stream: int) -> Rng:
        """An independent generator derived from this one's seed and a stream number."""
        return Rng(self._state ^ (0xD1B54A32D192ED03 * (stream + 1)))


#: :func:`_below_limit` of the bounds asked so far (the sizes of menus and piles: a few dozen).
_BELOW_LIMITS: dict[int, int] = {}


def _below_limit(n: int) -> int:
    """The rejection limit of :meth:`Rng.below` for ``n``: the largest multiple of ``n`` up to
    2**64, so the draws under it fall evenly on ``range(n)``. Kept for small bounds (worked out
    at every draw otherwise); the numbers drawn are the same either way."""
    if n <= 0:
        raise ValueError("below() needs a positive bound")
    limit = (1 << 64) - ((1 << 64) % n)
    if n < 4096:
        _BELOW_LIMITS[n] = limit
    return limit


# --------------------------------------------------------------------------------------------
# Choices: what the actor to move may do


@mypyc_attr(allow_interpreted_subclasses=True)  # games and tests define their own
class Choices(abc.ABC):
    """The legal actions at a decision point. Players get an explicit list; chance gets a
    description of the random process (dice, a draw, a shuffle) whose outcomes may be too many
    to list, but which can be counted, sampled and tested for membership."""

    @abc.abstractmethod
    def __len__(self) -> int: ...

    def size(self) -> int:
        """The exact number of legal actions (``len()`` is capped at ``sys.maxsize`` by Python,
        which the orders of a large shuffle exceed)."""
        return len(self)

    @abc.abstractmethod
    def __contains__(self, action: object) -> bool: ...

    #: Whether :meth:`sample` gives only actions these choices hold (``in`` them), so that an
    #: action sampled from them needs no check against them: true of the core's own kinds, which
    #: sample from what they list; a subclass whose ``sample`` may give anything else sets it False.
    samples_members: ClassVar[bool] = False

    @abc.abstractmethod
    def sample(self, rng: Rng) -> Action: ...

    @abc.abstractmethod
    def __iter__(self) -> Iterator[Action]: ...

    def describe(self) -> str:
        return f"{len(self)} actions"


class ActionList(Choices):
    """An explicit list of legal actions, in the engine's stable order."""

    __slots__ = ("_set", "actions")

    samples_members = True

    def __init__(self, actions: Sequence[Action]) -> None:
        self.actions = list(actions)
        self._set: frozenset[Action] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> ActionList:
        return ActionList(self.actions)  # (see DiceRoll.__deepcopy__) actions are immutable

    def __len__(self) -> int:
        return len(self.actions)

    def __contains__(self, action: object) -> bool:
        # The action applied is nearly always one of these very objects (a controller picked it
        # from the list): look for it by identity first, in C, before hashing the whole menu.
        if any(map(operator.is_, self.actions, repeat(action))):
            return True
        if self._set is None:
            self._set = frozenset(self.actions)
        return action in self._set

    def __iter__(self) -> Iterator[Action]:
        return iter(self.actions)

    def __getitem__(self, index: int) -> Action:
        return self.actions[index]

    def sample(self, rng: Rng) -> Action:
        return self.actions[rng.below(len(self.actions))]


DIE_FACES: tuple[int, ...] = (0, 0, 1, 1, 2, 2)


@functools.lru_cache(maxsize=64)
def _distinct_faces(faces: tuple[int, ...]) -> tuple[int, ...]:
    """The different faces of a die, in order (worked out once per die: every roll builds a DiceRoll)."""
    return tuple(sorted(set(faces)))


class DiceRoll(Choices):
    """Chance rolls ``count`` dice. The action is ``roll faces=[...]`` with one face per die."""

    samples_members = True

    def __init__(self, count: int, faces: Sequence[int] = DIE_FACES, purpose: str = "") -> None:
        self.count = count
        self.faces = tuple(faces)
        self.distinct = _distinct_faces(self.faces)
        self.purpose = purpose

    def __deepcopy__(self, memo: dict[int, Any]) -> DiceRoll:
        # Each menu writes its deep copy out: compiled, a native class cannot be rebuilt by
        # deepcopy's default, and Halls of Horror's clone copies the pending menu. A roll holds
        # only immutable values, so its copy is itself.
        return self

    def __len__(self) -> int:
        return int(len(self.distinct) ** self.count)

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action) or action.kind != "roll" or len(action.args) != 1:
            return False
        rolled = action.get("faces")
        return (
            isinstance(rolled, tuple)
            and len(rolled) == self.count
            and all(isinstance(f, int) and f in self.distinct for f in rolled)
        )

    def __iter__(self) -> Iterator[Action]:
        def rec(prefix: tuple[int, ...]) -> Iterator[Action]:
            if len(prefix) == self.count:
                yield Action.of("roll", faces=prefix)
                return
            for face in self.distinct:
                yield from rec((*prefix, face))

        return rec(())

    def sample(self, rng: Rng) -> Action:
        faces = self.faces
        return Action("roll", (("faces", tuple([faces[rng.below(len(faces))] for _ in range(self.count)])),))

    def describe(self) -> str:
        return f"roll {self.count} dice" + (f" for {self.purpose}" if self.purpose else "")


class Draw(Choices):
    """Chance draws one item from a pile whose order is unknown: ``draw <arg>=<item>``.

    An item listed several times (copies) is that much likelier; the action names the item only."""

    samples_members = True

    def __init__(self, items: Sequence[str], arg: str = "card", kind: str = "draw") -> None:
        self.items = list(items)
        self.arg = arg
        self.kind = kind

    def __deepcopy__(self, memo: dict[int, Any]) -> Draw:
        return Draw(self.items, self.arg, self.kind)  # (see DiceRoll.__deepcopy__)

    def __len__(self) -> int:
        return len(set(self.items))

    def __contains__(self, action: object) -> bool:
        # the pile itself is searched, not a set of it: a draw is checked once (by ``apply``), and
        # a set would cost more to build than this one search of a few dozen names
        return (
            isinstance(action, Action)
            and action.kind == self.kind
            and len(action.args) == 1
            and action.args[0][0] == self.arg
            and action.args[0][1] in self.items
        )

    def __iter__(self) -> Iterator[Action]:
        seen: set[str] = set()
        for item in self.items:
            if item not in seen:
                seen.add(item)
                yield Action(self.kind, ((self.arg, item),))

    def sample(self, rng: Rng) -> Action:
        return act(self.kind, self.arg, self.items[rng.below(len(self.items))])

    def describe(self) -> str:
        return f"{self.kind} one of {len(self)}"


class Shuffle(Choices):
    """Chance puts a pile in a random order: ``shuffle pile=<name> order=[...]`` (top first)."""

    samples_members = True

    def __init__(self, pile: str, items: Sequence[str]) -> None:
        self.pile = pile
        self.items = tuple(items)
        self._sorted = sorted(self.items)

    def __deepcopy__(self, memo: dict[int, Any]) -> Shuffle:
        return Shuffle(self.pile, self.items)  # (see DiceRoll.__deepcopy__)

    def __len__(self) -> int:
        return min(self.size(), sys.maxsize)

    def size(self) -> int:
        # Distinct orders of a multiset: n! / prod(k_i!).
        total = math.factorial(len(self.items))
        counts: dict[str, int] = {}
        for item in self.items:
            counts[item] = counts.get(item, 0) + 1
        for k in counts.values():
            total //= math.factorial(k)
        return total

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action) or action.kind != "shuffle":
            return False
        order = action.get("order")
        return (
            action.get("pile") == self.pile
            and len(action.args) == 2
            and isinstance(order, tuple)
            and sorted(str(x) for x in order) == self._sorted
        )

    def __iter__(self) -> Iterator[Action]:
        raise TypeError(f"a shuffle of {len(self.items)} has too many orders to list")

    def sample(self, rng: Rng) -> Action:
        return Action("shuffle", (("pile", self.pile), ("order", tuple(rng.shuffled(self.items)))))

    def describe(self) -> str:
        return f"shuffle {self.pile} ({len(self.items)} items)"


# --------------------------------------------------------------------------------------------
# Rules and states


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    says: str


class RuleBook:
    """The rule clauses of one game by id. Engines emit events through ``event(rule_id, ...)``,
    which refuses an id the game's rules.yaml does not define."""

    def __init__(self, game: str, rules: Mapping[str, Rule]) -> None:
        self.game = game
        self.rules = dict(rules)

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self.rules

    def __getitem__(self, rule_id: str) -> Rule:
        try:
            return self.rules[rule_id]
        except KeyError:
            raise UnknownRule(f"{self.game} has no rule {rule_id!r} in its rules.yaml") from None

    def event(self, rule_id: str, text: str, **args: EventArg) -> Event:
        if rule_id not in self.rules:
            raise UnknownRule(f"{self.game} has no rule {rule_id!r} in its rules.yaml")
        return Event(rule_id, text, tuple((k, _freeze(v)) for k, v in args.items()) if args else ())


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: the winning seats (possibly several, possibly none) and a
    short result word (``heroes``, ``traitor``, ``escape``, ``draw``, ``undecided``...)."""

    result: str
    winners: tuple[str, ...] = ()
    detail: str = ""

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"result": self.result, "winners": list(self.winners)}
        if self.detail:
            data["detail"] = self.detail
        return data


@mypyc_attr(allow_interpreted_subclasses=True)  # games and tests define their own
class GameState(abc.ABC):
    """The interface every game's state implements. Subclasses implement the underscored
    methods; ``apply`` checks legality first so a rejected action leaves the state unchanged."""

    game: ClassVar[str]
    #: Set by :func:`~hauntcheck.engine.play.run_fast` while it plays: nobody reads this game's
    #: events, so an engine may skip building them (``apply`` may then return fewer or none). It
    #: must never change what is legal or what happens (tests/test_play.py compares the games).
    quiet: bool = False

    @abc.abstractmethod
    def to_move(self) -> str | None:
        """The seat that decides now (``"P1"``...), ``"chance"``, or None when the game is over."""

    @abc.abstractmethod
    def legal_actions(self) -> Choices:
        """Every legal decision for the actor to move."""

    @abc.abstractmethod
    def _apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return its events (legality already checked)."""

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """The outcome once the game is over, else None."""

    @abc.abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain, canonical data (for replay checks and invariants)."""

    @abc.abstractmethod
    def clone(self) -> GameState: ...

    def is_terminal(self) -> bool:
        return self.outcome() is not None

    def seats(self) -> list[str]:
        """The player seats, in seating order."""
        return []

    def roster(self) -> dict[str, str]:
        """Who plays each seat (explorer or character names), once chosen."""
        return {}

    def reached(self, milestone: str) -> bool:
        """Whether a named stopping point (such as ``reveal``) has been reached."""
        return False

    def apply(self, action: Action) -> list[Event]:
        actor = self.to_move()
        if actor is None:
            rule, _ = self.refusal(action)
            raise IllegalAction(action, None, "the game is over", rule)
        legal = self.legal_actions()
        if action not in legal:
            rule, why = self.refusal(action)
            reason = f"not among the {legal.size()} legal actions ({legal.describe()})"
            raise IllegalAction(action, actor, f"{why}; {reason}" if why else reason, rule)
        return self._apply(action)

    def apply_sampled(self, action: Action) -> list[Event]:
        """:meth:`apply` an action sampled from this state's :meth:`legal_actions` now, by choices
        that sample only their members (``Choices.samples_members``): it is legal, so :meth:`apply`'s
        check against the menu is left out (the fast play loop's random players and chance)."""
        return self._apply(action)

    def refusal(self, action: Action) -> tuple[str, str]:
        """Why an action that is not legal now is refused: (the rule id that refuses it, a short
        reason). Games that can tell override this; ("", "") means the game cannot say."""
        return "", ""


StateFactory: TypeAlias = Callable[..., GameState]
