#!/usr/bin/env python3
"""The reference adapter with one rule changed, to show that `hauntcheck conform` catches a rule
an engine gets wrong and names it:

    hauntcheck conform --engine "python examples/broken_adapter.py" --game betrayal

The change is a common misreading of Betrayal's haunt roll (rule ``haunt.roll`` and
``haunt.revealer``): the haunt starts when the roll is *less than* the number of omens drawn;
this engine starts it when the roll is *at most* that number. Games where a haunt roll equals the
omen count reveal the haunt too early, and conform reports ``haunt.revealer`` at that step.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference_adapter import Adapter, serve

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.effects import Ctx
from hauntcheck.engine.betrayal.state import BetrayalState


def haunt_roll_at_most(self: BetrayalState, seat: str, omen: str, room: str) -> Any:
    """BetrayalState._haunt_roll with the comparison changed: the roll starts the haunt when it
    is at most (not less than) the number of omens drawn."""
    total = yield from effects.own_roll(self, seat, self.t.haunt_dice, "haunt", "the haunt roll", Ctx(seat, "haunt"))
    self.emit("haunt.roll", f"{self.name(seat)} makes a haunt roll: {total} against {self.omens_drawn} omens drawn",
              seat=seat, total=total, omens=self.omens_drawn)
    if len(self.turn.omens) > 1:
        self.emit("haunt.roll-per-omen", f"one haunt roll for the {self.card_name(omen)}", card=omen)
    if total > self.omens_drawn:  # the rule says: no haunt when total >= omens drawn
        return
    self.emit("haunt.revealer", f"{total} <= {self.omens_drawn}: the haunt starts; {self.name(seat)} is the haunt revealer",
              total=total, omens=self.omens_drawn, seat=seat)
    self._reveal(seat, omen, room)


if __name__ == "__main__":
    BetrayalState._haunt_roll = haunt_roll_at_most  # type: ignore[method-assign]
    serve(Adapter())
