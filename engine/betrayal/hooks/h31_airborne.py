"""Haunt 31, Airborne: the basement leaves play at the haunt's start."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt.registry import hook
from hauntcheck.engine.betrayal.state import Gen

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState


@hook.setup("remove-basement")
def remove_basement(st: HauntState) -> Gen[None]:
    """Haunt 31, the "Right Now" step ``remove-basement``: the basement leaves play for good
    (``haunt.floor-removed``). Explorers in it ride the Mystic Elevator (fetched from the stack if
    needed) to a spot beside a ground-floor door; otherwise the Elevator, if in the basement or
    still in the stack, goes to the ground or upper floor (the revealer chooses). Every basement
    tile leaves the game with the item piles, tokens and links in it; the room stack is shuffled (a
    known top is forgotten); from now on a drawn basement-only tile is discarded, and nothing sends
    anyone down (see the rule)."""
    rule = "haunt.floor-removed"
    floor = "basement"
    elevator = "mystic-elevator"
    chooser = str(st.haunt["revealer"]) if st.haunt else st.seat_ids[0]
    riders = [s for s in st.seat_ids if not st.ex[s].dead and st.house.floor_of(st.ex[s].room) == floor]
    where = st.house.floor_of(elevator) if elevator in st.house.spots else None
    if riders or where in (None, floor):
        floors = ("ground",) if riders else ("ground", "upper")
        fetched = elevator in st.stack or elevator in st.aside
        options = [(f, p) for f in floors for p in st.house.open_spots(
            elevator, f, keep_open=st.others_remain(f, elevator), ignore=elevator if where else None)]
        landing = elevator
        if options and (fetched or where is not None):
            acts = effects.placement_actions(options)
            a = yield from st.ask(chooser, acts, "place the Mystic Elevator")
            f, p = options[acts.index(a)]
            st.put_tile(elevator, f, p.cell, p.rotation)
            st.emit("haunt.setup-right-now", f"the Mystic Elevator is {'fetched from the stack and ' if fetched else ''}"
                    f"placed on the {f} floor at {list(p.cell)}", fetched=bool(fetched), floor=f, cell=list(p.cell))
            st.note_new_room(elevator)
        elif riders:
            # judgement: with no spot for the Elevator, the Entrance Hall is the way out of the basement
            landing = "entrance-hall"
            st.emit(rule, "the Mystic Elevator has no spot beside a ground-floor door: the explorers in the basement go "
                    "to the Entrance Hall")
        if landing == "entrance-hall" and where == floor:
            riders += [s for s in st.seat_ids if st.ex[s].room == elevator and s not in riders]
        for seat in riders:
            st._set_room(seat, landing)
        if riders:
            st.emit("haunt.setup-right-now", f"{', '.join(st.name(s) for s in riders)} ride(s) up to "
                    f"{st.room_name(landing)}", seats=list(riders), room=landing)
    gone = [r for r in st.house.rooms_on(floor)]
    for room in gone:
        st.house.remove(room)
        st.removed_tiles.append(room)
        pile = st.piles.pop(room, [])
        st.destroyed.extend(pile)
        for token in st.tokens.pop(room, []):
            card = effects._token_card(st, token)
            if card is not None and card in st.token_cards and not any(token in v for v in st.tokens.values()):
                st.token_cards.remove(card)
                st.discards["event"].append(card)
        if pile:
            st.emit(rule, f"{', '.join(st.card_name(c) for c in pile)} leave(s) the game with {st.room_name(room)}",
                cards=list(pile), room=room)
    for end_a, end_b, _, mark in [x for x in st.links if x[0] in gone or x[1] in gone]:
        for end in (end_a, end_b):
            if mark in st.tokens.get(end, []):
                st.tokens[end].remove(mark)
    st.tokens = {r: v for r, v in st.tokens.items() if v}
    st.links = [x for x in st.links if x[0] not in gone and x[1] not in gone]
    st.passages = [x for x in st.passages if x[0] not in gone and x[1] not in gone]
    st.close_floors([floor])
    st.room_top = None
    st.emit(rule, f"the basement leaves play: {', '.join(st.room_name(r) for r in gone) or 'no basement room'} "
            "removed; the room stack is shuffled; basement-only tiles will be discarded when drawn", rooms=list(gone))
