"""Haunt 32, Lost: the house is torn down to its starting tiles and the rooms people stand in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt.registry import hook
from hauntcheck.engine.betrayal.house import Placement, opposite, step
from hauntcheck.engine.betrayal.state import Gen

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState

ORGAN_ROOM = "organ-room"


def _beside_start(st: HauntState, floor: str, p: Placement, starting: set[str]) -> bool:
    """Whether the placement puts a door of the tile against a door of a starting tile."""
    for side in p.doors:
        other = st.house.room_at(floor, step(p.cell, side))
        if other in starting and opposite(side) in st.house.doors(other):
            return True
    return False


def _next_to_start(st: HauntState, room: str, floors: list[str], starting: set[str], chooser: str,
                   moving: bool) -> Gen[bool]:
    """Put ``room`` against a starting tile of one of ``floors`` (the chooser picks the spot);
    with no such spot, anywhere it fits on those floors. False when it fits nowhere."""
    ignore = room if moving else None
    options = [(f, p) for f in floors
               for p in st.house.open_spots(room, f, keep_open=st.others_remain(f, room), ignore=ignore)]
    beside = [(f, p) for f, p in options if _beside_start(st, f, p, starting)]
    options = beside or options
    if not options:
        return False
    acts = effects.placement_actions(options)
    a = yield from st.ask(chooser, acts, f"place {st.room_name(room)} next to a starting tile")
    floor, p = options[acts.index(a)]
    st.put_tile(room, floor, p.cell, p.rotation)
    st.emit("haunt.setup-right-now", f"{st.room_name(room)} is placed on the {floor} floor at {list(p.cell)}"
            + ("" if beside else " (no spot is left beside a starting tile)"), room=room, floor=floor, cell=list(p.cell))
    return True


def _set_aside_rooms(st: HauntState, gone: list[str]) -> None:
    """Take the tiles out of the house with the passage tokens and links that join them; items
    lying in a room stay with its tile, and other tokens on it go back with their card."""
    for room in gone:
        st.house.remove(room)
        st.aside.append(room)  # shuffled into the stack below; counted among the tiles left meanwhile
        for token in st.tokens.pop(room, []):
            card = effects._token_card(st, token)
            if card is not None and card in st.token_cards and not any(token in v for v in st.tokens.values()):
                st.token_cards.remove(card)
                st.discards["event"].append(card)
    for end_a, end_b, _, mark in [x for x in st.links if x[0] in gone or x[1] in gone]:
        for end in (end_a, end_b):
            if mark in st.tokens.get(end, []):
                st.tokens[end].remove(mark)
    st.tokens = {r: v for r, v in st.tokens.items() if v}
    st.links = [x for x in st.links if x[0] not in gone and x[1] not in gone]
    st.passages = [x for x in st.passages if x[0] not in gone and x[1] not in gone]
    st._tile_version += 1  # the piles changed: the tiles left for each floor are counted again


@hook.setup("lost-house-reshuffle")
def lost_house_reshuffle(st: HauntState) -> Gen[None]:
    """Haunt 32, the traitor's "Right Now" step ``lost-house-reshuffle``: every placed room
    tile but the starting tiles and the rooms an explorer stands in is set aside, with the Secret
    Passage, Secret Stairs and Wall Switch links that reach it; the Organ Room, if not in the
    house, is taken from the stack and put against a starting tile (the traitor's choice); the
    set-aside tiles, the room stack and the set-aside pile are shuffled into one stack; each
    occupied room is moved against a starting tile of its own floor (the traitor chooses where)."""
    chooser = st.traitor() or (str(st.haunt["revealer"]) if st.haunt else st.seat_ids[0])
    starting = {r for r in st.house.spots if st.t.rooms[r].placement == "starting"}
    occupied = {st.ex[s].room for s in st.seat_ids if st.in_play(s)}
    gone = sorted(r for r in st.house.spots if r not in starting and r not in occupied)
    _set_aside_rooms(st, gone)
    st.emit("haunt.setup-right-now", f"{len(gone)} room tile(s) are set aside: "
            f"{', '.join(st.room_name(r) for r in gone) or 'none'}", count=len(gone), rooms=gone)
    if ORGAN_ROOM not in st.house.spots and (ORGAN_ROOM in st.stack or ORGAN_ROOM in st.aside):
        placed = yield from _next_to_start(st, ORGAN_ROOM, list(st.t.rooms[ORGAN_ROOM].floors), starting, chooser,
                                           moving=False)
        if placed:
            st.note_new_room(ORGAN_ROOM)
        else:
            st.emit("haunt.setup-right-now", "the Organ Room has no spot beside the house and stays in the stack")
    st.stack = sorted(st.stack + st.aside)
    st.aside = []
    st.room_top = None
    st._tile_version += 1
    st.emit("haunt.setup-right-now", f"the room stack is shuffled: {len(st.stack)} tiles", count=len(st.stack))
    for room in sorted(occupied - starting):
        floor = st.house.floor_of(room)
        spot = st.house.spots[room]
        p = Placement(spot.cell, spot.rotation, st.house.doors(room))
        if _beside_start(st, floor, p, starting):
            continue  # already against a starting tile of its floor
        yield from _next_to_start(st, room, [floor], starting, chooser, moving=True)
