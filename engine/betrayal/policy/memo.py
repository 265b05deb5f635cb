"""What the policy works out from spec objects alone (a side's rules, a task, a haunt), worked out
once per object instead of at every decision.

A :class:`SpecMemo` keeps each value with the spec objects it came from: it holds them (so their
ids are never reused by other objects meanwhile) and compares them by identity at every look-up,
so an answer is never one worked out for another object that merely looks alike.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class SpecMemo(Generic[V]):
    """Values kept by the spec objects (and plain hashable details, such as a side's name) they
    were worked out from."""

    def __init__(self) -> None:
        self._values: dict[tuple[Hashable, ...], tuple[tuple[object, ...], V]] = {}

    def get(self, specs: tuple[object, ...], detail: Hashable, work: Callable[[], V]) -> V:
        """The value for ``specs`` (compared by identity) and ``detail``; ``work()`` the first time."""
        key = (*map(id, specs), detail)
        kept = self._values.get(key)
        if kept is not None and all(a is b for a, b in zip(kept[0], specs, strict=True)):
            return kept[1]
        value = work()
        self._values[key] = (specs, value)
        return value
