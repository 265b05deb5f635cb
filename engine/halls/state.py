"""The Halls of Horror game state: :class:`HallsState` is the top of the rule layers (``base``,
``search``, ``locks``, ``combat``, ``turn``, ``killer``; see ``base``), starts the game, and
carries the game's invariants.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hauntcheck.checks.halls_locks import cut_off
from hauntcheck.engine.core import Action, GameState
from hauntcheck.engine.halls.killer import KillerRules
from hauntcheck.engine.spec import GameSpec


class HallsState(KillerRules):
    """A game of Halls of Horror, from setup to its end."""

    def __init__(self, spec: GameSpec, players: int, options: Mapping[str, Any]) -> None:
        super().__init__(spec, players, options)
        self.remake: Callable[[], HallsState] = lambda: HallsState(spec, players, options)
        self._advance()

    def refusal(self, action: Action) -> tuple[str, str]:
        """The rule clause that refuses an illegal action, and why (engine/halls/refusal.py)."""
        from hauntcheck.engine.halls.refusal import refusal

        return refusal(self, action)

    # ---- invariants (used by tests)

    def invariant_errors(self) -> list[str]:
        out = []
        held = sum(p.keys for p in self.pp)
        if held + self.keys_spent != self.keys_made:
            out.append(f"keys: held {held} + spent {self.keys_spent} != made {self.keys_made}")
        for p in self.pp:
            if not 0 <= p.hp <= self.d.hp_max:
                out.append(f"{p.name} HP {p.hp} out of bounds")
            if p.resolve < 0:
                out.append(f"{p.name} Resolve {p.resolve} negative")
            if p.bullets < 0 or p.shells < 0:
                out.append(f"{p.name} ammunition negative")
            if p.alive and p.hp == 0:
                out.append(f"{p.name} alive at 0 HP")
        if not 0 <= self.killer.hp <= self.d.killer_hp_max:
            out.append(f"Killer HP {self.killer.hp} out of bounds")
        if not 0 <= self.killer.rage < len(self.d.rage):
            out.append(f"Killer Rage {self.killer.rage} out of bounds")
        if self.stage not in ("setup-mixed", "setup-rooms", "setup-board", "setup-faces", "setup-mc", "setup-gifts",
                              "setup-rewards", "setup-place", "setup-killer"):
            missing = cut_off(self.lock_grid())
            if missing and self.players > 1:
                out.append(f"cut off: {missing}")
        return out


def invariants(state: GameState) -> list[str]:
    """Key conservation, HP and Rage within bounds, Resolve and ammunition never negative, nobody
    alive at 0 HP, and no living Participant or the Killer cut off from an Exit, a body or (while
    an Exit is hidden) a face-down room (checks.halls_locks)."""
    if not isinstance(state, HallsState):
        return [f"not a Halls of Horror state: {type(state).__name__}"]
    return state.invariant_errors()

