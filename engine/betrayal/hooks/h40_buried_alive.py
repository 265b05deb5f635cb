"""Haunt 40, Buried Alive: the basement grown to five rooms, the buried friend's running damage, and
the Spirit Board's table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt.registry import hook
from hauntcheck.engine.betrayal.state import Gen
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState

#: Rooms the basement must hold before the burial room is chosen (Traitor's Tome, lines 2482-2484).
BASEMENT_ROOMS = 5
#: The buried friend's running damage total (kept in ``HauntState.hook_state[DAMAGE]["total"]``)
#: and what kills the friend.
DAMAGE, DEADLY = "buried-damage", 12
DEAD, FOUND = "buried-friend-dead", "burial-room-found"


def damage_taken(st: HauntState) -> int:
    """The buried friend's damage so far."""
    return int(st.hook_state.get(DAMAGE, {}).get("total", 0))


@hook.setup("grow-basement")
def grow_basement(st: HauntState) -> Gen[None]:
    """Haunt 40, traitor's setup ``grow-basement``: while the basement holds fewer than five rooms
    (the Basement Landing counted), the next basement tile of the room stack is placed at an open
    basement doorway (the revealer choosing where); a tile that finds no doorway ends the growth."""
    while sum(1 for r in st.house.spots if st.house.floor_of(r) == "basement") < BASEMENT_ROOMS:
        tile = next((r for r in st.stack if "basement" in st.t.rooms[r].floors), None)
        if tile is None:
            st.emit("haunt.setup-right-now", "no basement tile is left in the room stack")
            return
        yield from st._fetch_room({"room": tile, "place": {"floor": "basement"}})
        if tile not in st.house.spots:
            return


@hook.outcome("buried-damage")
def buried_damage(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 40, timer ``burial-clock``: as many dice as the track shows are rolled and the buried
    friend takes that much damage, kept as a running total; at 12 the friend dies (flag
    ``buried-friend-dead``)."""
    faces = yield from st.roll(min(8, st.track), f"the buried friend's damage ({st.track} dice)")
    total = damage_taken(st) + sum(faces)
    st.hook_state.setdefault(DAMAGE, {})["total"] = total
    st.emit("haunt.rules-override", f"the buried friend takes {sum(faces)} damage: {total} of {DEADLY}",
        dice=list(faces), amount=sum(faces), total=total, need=DEADLY)
    if total >= DEADLY and DEAD not in st.hflags:
        st.hflags.add(DEAD)
        st.emit("haunt.rules-override", "the buried friend is dead")


@hook.outcome("spirit-board-table")
def spirit_board_table(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 40, action ``consult-spirit-board``: a Sanity roll, then 0-2 nothing; 3-4 move any
    explorer in play up to 3 spaces (the roller chooses; no room is entered by its text); 5-6 roll 2
    dice and take that much off the buried friend's damage; 7+ the traitor names the burial room
    (flag ``burial-room-found``). The roller's turn ends there."""
    if seat is None:
        return
    total = yield from effects.own_roll(st, seat, st.value(seat, "sanity"), "trait", "a sanity roll (Spirit Board)",
                                        effects.Ctx(seat, "task"))
    st.emit("haunt.specific-action", f"{st.name(seat)} consults the Spirit Board: sanity roll {total}", seat=seat, total=total)
    if 3 <= total <= 4:
        acts = [Action.of("spirit-move", who=who, to=room) for who in st.seat_ids if st.in_play(who)
                for room, dist in sorted(st._dist_to([st.ex[who].room]).items()) if 0 < dist <= 3]
        if acts:
            a = yield from st.ask(seat, acts, "move an explorer up to 3 spaces")
            who, room = str(a["who"]), str(a["to"])
            st.emit("haunt.specific-action", f"the Spirit Board moves {st.name(who)} to {st.room_name(room)}", seat=who, room=room)
            st.ex[who].room = room
            st.ex[who].part = 0
    elif 5 <= total <= 6:
        faces = yield from st.roll(2, "healing the buried friend")
        total = max(0, damage_taken(st) - sum(faces))
        st.hook_state.setdefault(DAMAGE, {})["total"] = total
        st.emit("haunt.specific-action", f"the buried friend heals {sum(faces)}: {total} of {DEADLY}",
            dice=list(faces), amount=sum(faces), total=total, need=DEADLY)
    elif total >= 7:
        st.hflags.add(FOUND)
        room = st.htokens.get("burial-site", ["?"])[0]
        st.emit("haunt.specific-action", f"the traitor must name the burial room: {st.room_name(room)}", room=room)
    st.turn.end_now = True
