"""Haunt 1, The Mummy Walks: the traitor hands the Girl (and its items) to the Mummy."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal.haunt.registry import hook

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState


@hook.action("transfer-custody-to-monster")
def transfer_custody_to_monster(st: HauntState, seat: str) -> None:
    """Haunt 1, rule ``give-girl-to-mummy``: the explorer hands its companions and items to the monster in its room."""
    m = next(m for m in st.active_monsters(st.ex[seat].room) if st.mdef(m).carries.get("items"))
    cards = list(st.ex[seat].cards)
    st.ex[seat].cards = []
    m.cards.extend(cards)
    st.pending_losses = cards
    st.emit("haunt.specific-action", f"{st.name(seat)} hands {', '.join(st.card_name(c) for c in cards) or 'nothing'} "
            f"to the {st.mname(m)}")
