"""Haunt 18, United We Stand: the overheated furnace blows and the fire eats the house room by room."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal.haunt.registry import hook
from hauntcheck.engine.betrayal.house import step
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState
    from hauntcheck.engine.betrayal.state import Gen

#: Where the fire leaves its floor: a burned room on the left lets the room on the right catch.
FIRE_LINKS = (("stairs-from-basement", "foyer"), ("basement-landing", "coal-chute"))
#: The starting rooms whose burning brings the whole house down.
HOUSE_FALLS_WITH = ("foyer", "entrance-hall", "grand-staircase")


def _burn(st: HauntState, room: str) -> Gen[None]:
    """The room burns: it is out of the house's use from now on and everyone inside dies."""
    st.collapsed.append(room)
    st.emit("haunt.rules-override", f"{st.room_name(room)} burns", room=room)
    for victim in st.seat_ids:
        if st.in_play(victim) and st.ex[victim].room == room:
            yield from st._outcome({"kill": True}, victim, None)


@hook.outcome("furnace-explodes")
def furnace_explodes(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 18, timer ``furnace-fuse``: at the end of the overheating hero's next turn the Furnace
    Room explodes, killing everyone in it (the traitor too), and from then on the fire spreads at
    the end of every living explorer's turn (:func:`house_fire`)."""
    if "furnace-room" in st.house.spots and "furnace-room" not in st.collapsed:
        yield from _burn(st, "furnace-room")
    st.collapsing = True
    st.collapse_by = "house-fire"
    st.hook_state["house-fire"] = {"lit": True}  # the fire spreads from the next turn's end on


def fire_candidates(st: HauntState) -> list[str]:
    """The rooms that may catch fire now: unburned rooms next to a burned one on its floor (doors
    or not), the Foyer once the Stairs from Basement burned, the Coal Chute once the Basement
    Landing burned, the Collapsed Room once any basement room burned. The upper floor never
    catches (judgement: the book names no way up for the fire)."""
    burned = [r for r in st.collapsed if r in st.house.spots]
    out: set[str] = set()
    for room in burned:
        spot = st.house.spots[room]
        if spot.floor == "upper":
            continue
        for other in st.house.rooms_on(spot.floor):
            if other not in st.collapsed and any(step(st.house.spots[other].cell, d) == spot.cell for d in range(4)):
                out.add(other)
    for below, above in FIRE_LINKS:
        if below in burned and above in st.house.spots and above not in st.collapsed:
            out.add(above)
    if any(st.house.floor_of(r) == "basement" for r in burned) and "collapsed-room" in st.house.spots \
            and "collapsed-room" not in st.collapsed:
        out.add("collapsed-room")
    return sorted(r for r in out if st.house.floor_of(r) != "upper")


@hook.outcome("house-fire")
def house_fire(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 18, timer ``furnace-fuse`` (the spreading fire): at the end of a living explorer's turn
    it picks a room next to a burned one (:func:`fire_candidates`), which burns with everyone in
    it; once the Foyer, Entrance Hall and Grand Staircase have burned the house collapses, killing
    everyone still inside (heroes who left by the front door live)."""
    if seat is None or all(r in st.collapsed for r in HOUSE_FALLS_WITH):
        return
    if st.hook_state.get("house-fire", {}).pop("lit", False):
        return  # the turn whose end blew the furnace spreads nothing more
    candidates = fire_candidates(st)
    if candidates:
        a = yield from st.ask(seat, [Action.of("collapse", room=r) for r in candidates], "choose a room to catch fire")
        yield from _burn(st, str(a["room"]))
    if all(r in st.collapsed for r in HOUSE_FALLS_WITH):
        st.emit("haunt.rules-override", "the Foyer, Entrance Hall and Grand Staircase are gone: the house collapses")
        for victim in st.seat_ids:
            if st.in_play(victim):
                yield from st._outcome({"kill": True}, victim, None)
