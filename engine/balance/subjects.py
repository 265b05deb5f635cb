"""What a balance study needs to know about each game: its sides, the haunts (or variants) a
study can ask for, how a finished game's outcome maps to a side, and how long it was.

Betrayal's sides are the heroes and the traitor; a haunt's "no winner" ending is ``nobody``.
Halls of Horror's are the Participants escaping and the Killer (a solo Participant who dies is a
Killer's win). Haunted is a race, not a team game: its "sides" are how the game ended - someone
escaped (``win``), nobody won (``lose``), or the best total won on points (``points``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hauntcheck.engine.balance.stats import NO_WINNER, UNDECIDED
from hauntcheck.engine.core import GameState, Outcome
from hauntcheck.engine.spec import GameSpec


@dataclass(frozen=True)
class Case:
    """One row of a study: a Betrayal haunt (``label`` its number), or a variant of the other
    games, with the game options that ask for it."""

    label: str
    title: str
    options: Mapping[str, Any] = field(default_factory=dict)
    #: The named hooks the haunt's rules still need as code (Betrayal; empty for the others).
    hooks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Subject:
    game: str
    sides: tuple[str, ...]
    default_players: tuple[int, ...]
    #: The outcome's side (or ``nobody``), from its result word.
    side_of: Mapping[str, str]
    #: How a game's winning condition is named: the haunt's goal id, or the result word.
    condition_of: Callable[[Outcome], str]
    rounds_of: Callable[[GameState], int]
    #: All cases the game offers (every playable haunt; every variant), given the loaded spec.
    cases: Callable[[GameSpec], list[Case]]
    #: The option naming a case (``haunt``, ``variant``).
    case_option: str

    @property
    def endings(self) -> tuple[str, ...]:
        """The sides, ``nobody`` where the game has an ending without a winner, ``undecided``."""
        nobody = (NO_WINNER,) if NO_WINNER in self.side_of.values() else ()
        return (*self.sides, *nobody, UNDECIDED)

    def ending(self, outcome: Outcome | None) -> str:
        """The ending a study counts: a side, ``nobody``, or ``undecided`` (the round or step
        limit stopped the game, or it did not end)."""
        if outcome is None:
            return UNDECIDED
        return self.side_of.get(outcome.result, UNDECIDED)


def _betrayal_cases(spec: GameSpec) -> list[Case]:
    from hauntcheck.engine.betrayal.haunt import support

    return [Case(str(n), str(r["title"]), {"haunt": n}, tuple(r["hooks"])) for n, r in support(spec).items() if r["playable"]]


def _betrayal_rounds(state: GameState) -> int:
    return int(getattr(state, "hround", 0))


def _goal_id(outcome: Outcome) -> str:
    """A haunt's win names its goal first (``heroes-gone: Every hero is dead...``)."""
    goal, sep, _ = outcome.detail.partition(":")
    return goal if sep else outcome.result


def _halls_cases(spec: GameSpec) -> list[Case]:
    return [Case(v, f"room deck {v}", {"variant": v}) for v in ("A", "B", "mixed")]


def _haunted_cases(spec: GameSpec) -> list[Case]:
    return [Case(v, f"{v} game", {"variant": v}) for v in ("standard", "long", "multilevel")]


def _haunted_rounds(state: GameState) -> int:
    turns = int(getattr(state, "total_turns", 0))
    return math.ceil(turns / max(1, len(getattr(state, "players", [])) or 1))


SUBJECTS: dict[str, Subject] = {
    "betrayal": Subject(
        "betrayal", ("heroes", "traitor"), (3, 4, 5, 6),
        {"heroes": "heroes", "traitor": "traitor", "nobody": NO_WINNER},
        _goal_id, _betrayal_rounds, _betrayal_cases, "haunt"),
    "halls-of-horror": Subject(
        "halls-of-horror", ("escape", "killer"), (1, 2, 3, 4),
        {"escape": "escape", "killer": "killer", "death": "killer"},
        lambda outcome: outcome.result, lambda state: int(getattr(state, "round", 0)), _halls_cases, "variant"),
    "haunted": Subject(
        "haunted", ("win", "lose", "points"), (2, 3, 4, 5, 6),
        {"escape": "win", "points": "points", "cumulative": "points", "lost": "lose", "nobody": "lose"},
        lambda outcome: outcome.result, _haunted_rounds, _haunted_cases, "variant"),
}
