"""Haunt 1, The Mummy Walks: the traitor hands the Girl and the items it chooses to the Mummy."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt.registry import hook
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState
    from hauntcheck.engine.betrayal.state import Gen


@hook.outcome("transfer-custody-to-monster")
def transfer_custody_to_monster(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 1, rule ``give-girl-to-mummy``: the explorer hands the monster in its room the
    companions and items it chooses, one at a time, until it keeps the rest (the Tome says it
    *can* transfer items and the Girl, not that it must hand over everything)."""
    if seat is None:
        return
    m = next(m for m in st.active_monsters(st.ex[seat].room) if st.mdef(m).carries.get("items"))
    given: list[str] = []
    while True:
        offer = [c for c in st.ex[seat].cards if st.t.cards[c].item or st.t.cards[c].companion]
        if not offer:
            break
        a = yield from st.ask(seat, [Action.of("hand-over", card=c) for c in offer] + [Action.of("keep-the-rest")],
                              f"hand the {st.mname(m)} what")
        if a.kind != "hand-over":
            break
        card = str(a["card"])
        st.ex[seat].cards.remove(card)
        m.cards.append(card)
        given.append(card)
        yield from effects.lose_card(st, seat, card)
    st.emit("haunt.specific-action", f"{st.name(seat)} hands {', '.join(st.card_name(c) for c in given) or 'nothing'} "
            f"to the {st.mname(m)}", seat=seat, monster=m.uid, cards=given)
