"""Haunt 9, The Dance of Death: a hero driven mad at the skull turns traitor instead of dying."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal.haunt.pieces import HERO
from hauntcheck.engine.betrayal.haunt.registry import hook

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState


@hook.skull("skull-sanity-turns-traitor")
def skull_sanity_turns_traitor(st: HauntState, seat: str, trait: str) -> bool:
    """Haunt 9, rule ``mad-at-skull``: a hero whose Sanity would reach the skull turns traitor instead of dying (and
    follows the traitor's setup)."""
    if trait != "sanity" or st.side.get(seat) != HERO:
        return False
    st.ex[seat].idx["sanity"] = 0
    st.emit("death.hero-may-turn", f"{st.name(seat)}'s Sanity would reach the skull: {st.name(seat)} turns traitor "
            "instead of dying", seat=seat)
    st._run_now(st._turn_traitor(seat, True))
    return True
