"""What the policy works out from spec objects alone (a side's rules, a task, a haunt), worked out
once per object instead of at every decision.

A :class:`SpecMemo` keeps each value with the spec objects it came from: it holds them (so their
ids are never reused by other objects meanwhile) and compares them by identity at every look-up,
so an answer is never one worked out for another object that merely looks alike.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Mapping
from typing import Any, Generic, TypeVar

V = TypeVar("V")


class SpecMemo(Generic[V]):
    """Values kept by the spec objects (and plain hashable details, such as a side's name) they
    were worked out from."""

    def __init__(self) -> None:
        self._values: dict[tuple[Hashable, ...], tuple[tuple[object, ...], V]] = {}
        self._by_one: dict[int, tuple[object, V]] = {}
        self._by_pair: dict[tuple[int, int, Hashable], tuple[object, object, V]] = {}

    def one(self, spec: object, work: Callable[[], V]) -> V:
        """The value for the one spec object ``spec`` (compared by identity); ``work()`` the first
        time. The short way of :meth:`get` for the policy's most frequent look-ups."""
        kept = self._by_one.get(id(spec))
        if kept is not None and kept[0] is spec:
            return kept[1]
        value = work()
        self._by_one[id(spec)] = (spec, value)
        return value

    def pair(self, first: object, second: object, detail: Hashable, work: Callable[[], V]) -> V:
        """The value for the two spec objects (each compared by identity: a task list and its
        haunt, a side and its haunt) and ``detail``; ``work()`` the first time. :meth:`get` for two
        objects, without building and walking a tuple of them: the policy asks at every decision."""
        key = (id(first), id(second), detail)
        kept = self._by_pair.get(key)
        if kept is not None and kept[0] is first and kept[1] is second:
            return kept[2]
        value = work()
        self._by_pair[key] = (first, second, value)
        return value

    def get(self, specs: tuple[object, ...], detail: Hashable, work: Callable[[], V]) -> V:
        """The value for ``specs`` (compared by identity) and ``detail``; ``work()`` the first time."""
        key = (*map(id, specs), detail)
        kept = self._values.get(key)
        if kept is not None and all(map(operator.is_, kept[0], specs)):
            return kept[1]
        value = work()
        self._values[key] = (specs, value)
        return value


def values_of(tree: Any, key: str) -> list[Any]:
    """The values of every ``key`` in a spec tree of mappings and lists, in the order met, not
    looking inside them nor inside ``not`` (what must not hold is not asked for)."""
    out: list[Any] = []

    def visit(p: Any) -> None:
        if isinstance(p, Mapping):
            for k, value in p.items():
                if k == key:
                    out.append(value)
                elif k != "not":
                    visit(value)
        elif isinstance(p, list):
            for x in p:
                visit(x)

    visit(tree)
    return out
