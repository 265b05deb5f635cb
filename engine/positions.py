"""What every game's position builder shares: collecting each problem of a scenario's ``position``
(its path inside ``position`` and a message) before failing, and the checks of its plain values
(mappings with known keys, flags, bounded numbers, lists of known ids).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

PathKey = tuple[str | int, ...]


def guess(word: object, choices: Iterable[str]) -> str:
    """`` (did you mean X?)`` for the closest known name, or nothing."""
    close = difflib.get_close_matches(str(word), list(choices), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


class Problems:
    """Collects every problem of a position before failing (``raise_any``)."""

    def __init__(self) -> None:
        self.problems: list[tuple[PathKey, str]] = []

    def bad(self, path: PathKey, message: str) -> None:
        self.problems.append((path, message))

    def raise_any(self) -> None:
        from hauntcheck.engine.scenario import PositionError

        if self.problems:
            raise PositionError(self.problems)

    def mapping(self, value: Any, path: PathKey, allowed: Sequence[str], what: str) -> Mapping[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            self.bad(path, f"{what} is a mapping, got {value!r}")
            return {}
        for key in value:
            if key not in allowed:
                self.bad((*path, key), f"unknown key {key!r} in {what}{guess(key, allowed)}; known: {', '.join(allowed)}")
        return value

    def flag(self, entry: Mapping[str, Any], key: str, path: PathKey, default: bool) -> bool:
        value = entry.get(key, default)
        if not isinstance(value, bool):
            self.bad((*path, key), f"{key} is true or false, got {value!r}")
            return default
        return value

    def number(self, entry: Mapping[str, Any], key: str, path: PathKey, default: int, lo: int, hi: int | None = None) -> int:
        value = entry.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < lo or (hi is not None and value > hi):
            span = f"from {lo} to {hi}" if hi is not None else f"of at least {lo}"
            self.bad((*path, key), f"{key} is a whole number {span}, got {value!r}")
            return default
        return value

    def ids(self, value: Any, path: PathKey, known: Iterable[str], what: str) -> list[str]:
        """A list of known ids (each unknown one a problem at its place)."""
        if value is None:
            return []
        if not isinstance(value, list):
            self.bad(path, f"{what} is a list of ids, got {value!r}")
            return []
        known = list(known)
        out = []
        for n, item in enumerate(value):
            if item not in known:
                self.bad((*path, n), f"unknown {what} {item!r}{guess(item, known)}")
            else:
                out.append(str(item))
        return out
