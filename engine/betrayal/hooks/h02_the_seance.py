"""Haunt 2, The Seance: the house collapses room by room once the traitor completes the seance."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal.haunt.registry import hook

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState


@hook.standing("house-collapse")
def house_collapse(st: HauntState) -> None:
    """Haunt 2, rule ``house-collapses``: from the end of the traitor's next turn, one room collapses at the end of every
    explorer's turn (see :meth:`HauntState._collapse_step`)."""
    st.collapsing = True
    st.emit("haunt.rules-override", "the house starts to collapse at the end of the traitor's next turn")
