"""Haunt 7, Carnivorous Ivy: a Creeper's Tip grabs and drags heroes to its Root, and jams the Mystic Elevator."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt.pieces import Monster
from hauntcheck.engine.betrayal.haunt.registry import hook
from hauntcheck.engine.betrayal.state import Gen

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState


GRABBED = "grabbed"  # Carnivorous Ivy's status of a hero a Tip holds


@hook.monster("creeper-grab")
def creeper_grab(st: HauntState, seat: str | None, m: Monster | None) -> Gen[None]:
    """Haunt 7, a Creeper's hold (rules ``tip-grabs`` and ``tip-drops-hero``, the Creeper's ``mulch``),
    called where the haunt file names it:

    * after a Tip beats a hero (the hero is now grabbed): the Tip holds the hero, who drops every
      item and omen but companions and the Bite, and every token carried like an item, in the room;
    * after a Tip is stunned or killed: it lets go;
    * at the start of a Creeper's turn (``seat`` is None): a hero the Tip holds in the room of
      its own Root is killed, and the Creeper (Root and Tip) is removed."""
    if m is None:
        return
    if m.gone or m.stunned:
        st._release_gone()
        return
    if seat is not None:
        if GRABBED not in st.hstatus.get(seat, []) or any(held == seat for held, _ in st.grips.values()):
            return
        st.grips[m.uid] = (seat, GRABBED)
        e = st.ex[seat]
        drop = [c for c in e.cards if st.t.cards[c].item]  # the Bite and companions are no items
        e.cards = [c for c in e.cards if c not in drop]
        if drop:
            st.piles.setdefault(e.room, []).extend(drop)
        tokens = list(st.held.get(seat, []))
        for token in tokens:
            st.htokens.setdefault(token, []).append(e.room)
        st.held[seat] = []
        st.emit("haunt.rules-override", f"{st.mname(m)} holds {st.name(seat)}, who drops "
                + (", ".join([st.card_name(c) for c in drop] + [f"the {k} token" for k in tokens]) or "nothing")
                + f" in {st.room_name(e.room)}")
        for card in drop:
            yield from effects.lose_card(st, seat, card)
        return
    held = st.grips.get(m.uid)
    roots = st.partners(m)
    if held is None or not roots or st.ex[held[0]].room != roots[0].room:
        return
    victim = held[0]
    st.emit("haunt.rules-override", f"{st.name(victim)} is at the Root of {st.mname(m)}'s Creeper when its turn starts")
    yield from st._outcome({"kill": True}, victim, None)
    for part in [m, *roots]:
        part.gone = "removed"
        st.emit("haunt.rules-override", f"{st.mname(part)} is removed")
    st._release_gone()


@hook.turn("creeper-grab")
def creeper_drag(st: HauntState, m: Monster) -> Gen[bool]:
    """Haunt 7, the ``creeper-tip``'s movement: a Tip that starts its turn holding a hero moves 2 spaces toward its own Root
    instead of its normal move, taking the hero along, and does not attack. True when it did."""
    held = st.grips.get(m.uid)
    roots = st.partners(m)
    if held is None or not roots:
        return False
    seat = held[0]
    dist = st._dist_to([roots[0].room])
    for _ in range(2):
        here = dist.get(m.room, 10_000)
        steps = sorted(r for r, _c, _how in st._room_exits(m.room) if dist.get(r, 10_000) < here)
        if not steps:
            break
        src = m.room
        m.room = steps[0]
        st._set_room(seat, m.room)
        st.emit("monster.rules-overridable", f"{st.mname(m)} drags {st.name(seat)} {st.room_name(src)} -> "
                f"{st.room_name(m.room)}, toward its Root")
    return True
    yield  # a generator: the move asks nobody


@hook.room("jam-mystic-elevator")
def jam_mystic_elevator(st: HauntState, room: str) -> bool:
    """Haunt 7, rule ``jam-elevator``: while a Tip is in the Mystic Elevator, the elevator does not work."""
    return room == "mystic-elevator" and any(m.kind == "creeper-tip" for m in st.active_monsters(room))
