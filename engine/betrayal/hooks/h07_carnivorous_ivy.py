"""Haunt 7, Carnivorous Ivy: a Tip in the Mystic Elevator jams it. (A Tip's grab and drag are the
vocabulary's monster ``grabs``, haunt/grabs.py.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal.haunt.registry import hook

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState


@hook.room("jam-mystic-elevator")
def jam_mystic_elevator(st: HauntState, room: str) -> bool:
    """Haunt 7, rule ``jam-elevator``: while a Tip is in the Mystic Elevator, the elevator does not work."""
    return room == "mystic-elevator" and any(m.kind == "creeper-tip" for m in st.active_monsters(room))
