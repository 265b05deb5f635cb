"""Haunt 8, Wail of the Banshee: the Banshee's path through the house and whom its wail reaches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hauntcheck.engine.betrayal.haunt.pieces import Monster
from hauntcheck.engine.betrayal.haunt.registry import hook
from hauntcheck.engine.betrayal.state import Gen, Req
from hauntcheck.engine.core import CHANCE, Action, Draw

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState


#: Rooms from which the Banshee may hop to "the corresponding room elsewhere" (haunt 8), besides
#: the rooms joined by a Secret Stairs, Secret Passage or Wall Switch token: the Tome's Upper
#: Landing, Collapsed Room, Gallery and Foyer, and (judgement: these ways go both ways, as they
#: do for explorers) the Grand Staircase and the Stairs from Basement at their other ends.
BANSHEE_HOP_ROOMS = frozenset({"upper-landing", "grand-staircase", "collapsed-room", "gallery", "foyer",
                               "stairs-from-basement"})
#: Turn preferences of the Banshee's wall-hugging modes: quarter turns from its facing, in order
#: (left = 3, straight = 0, right = 1; back = 2 only at a dead end).
BANSHEE_TURNS = {"hug-left": (3, 0, 1), "hug-right": (1, 0, 3)}


def banshee_walks(st: HauntState, m: Monster, room: str) -> dict[int, str]:
    """The rooms the Banshee may walk into from ``room``, by world side: through joined doors, or
    a fixed link to the next cell of the same floor (the starting strip) - the interpreter's
    ``floor_walks``, shared with the ``straight_ahead`` movement."""
    return st.floor_walks(m, room)


def banshee_hops(st: HauntState, m: Monster, room: str) -> list[str]:
    """Where the Banshee may hop from ``room``: the other end of the Upper Landing's stairs, the
    Gallery's drop, the Collapsed Room's fall, the Foyer's Stairs from Basement (a room the Tome
    names), or of a passage token's link."""
    forbidden = set(st._monster_raw(st.mdef(m)).get("may_not_use", ()))
    out: list[str] = []
    if room in BANSHEE_HOP_ROOMS:
        for c in st.t.rooms[room].connections:
            if c.side is None and c.to in st.house.spots and (not c.requires or st._cond_simple(c.requires)):
                out.append(c.to)
    for a, b, _, _ in st.links:
        if room in (a, b):
            out.append(b if room == a else a)
    return sorted({r for r in out if r != room and r not in forbidden})


@hook.move("banshee-path")
def banshee_path(st: HauntState, m: Monster, roll: int) -> Gen[None]:
    """Haunt 8, the ``banshee``'s movement: the Banshee always moves its whole Speed roll (one space at least), in the mode a
    roll of 2 dice picks (``modes_by_roll``): 0 - put it in any room up to 8 spaces away (only
    that room is entered); 1 / 3 - the traitor picks its first room, then it turns left / right
    wherever it can (else straight, else the other way, else back the way it came); 2 - first
    room picked, then straight on where it can (a random turn when only left and right are
    open); 4 - the traitor moves it freely, but its wail then reaches one explorer once. In a
    room the Tome names (and at passage tokens) the traitor may hop it to the corresponding room
    as its next move. It walks placed rooms only, never the Mystic Elevator, and neither slows
    nor is slowed by explorers. The rooms it entered are kept for the wail (``banshee-path``
    requirement). Its facing only matters within a move (each move's first room is chosen)."""
    spec = st.mdef(m).movement["modes_by_roll"]
    faces = yield from st.roll(int(spec.get("dice", 2)), f"{st.mname(m)}'s way of moving")
    mode_roll = sum(faces)
    band = next(b for b in spec["bands"] if b["min"] <= mode_roll <= b["max"])
    mode = str(band["mode"])
    budget = roll
    if roll == 0:
        st.emit("monster.zero-roll-still-moves", f"{st.mname(m)} rolled 0 and still moves one space", monster=m.uid)
        budget = 1
    state: dict[str, Any] = {"mode": mode, "entered": [], "only": None}
    st.hook_state["banshee-path"] = state
    st.emit("monster.rules-overridable", f"{st.mname(m)} rolls {mode_roll} for its way: {mode} ({budget} "
            f"space{'' if budget == 1 else 's'})", monster=m.uid, total=mode_roll, way=mode, speed=budget)
    controller = st.monster_controller(m)
    here = m.room

    def enter(room: str, moved: int) -> None:
        src, m.room = m.room, room
        state["entered"].append(room)
        st.emit("monster.speed-roll", f"{st.mname(m)} moves {st.room_name(src)} -> {st.room_name(room)} "
                f"({moved} of {budget})", monster=m.uid, origin=src, room=room, moved=moved, speed=budget)

    if mode == "jump":
        dist = st._dist_to([here])
        rooms = [r for r in sorted(st.house.spots) if 0 < dist.get(r, 99) <= int(band.get("range", 8))
                 and r not in st._monster_raw(st.mdef(m)).get("may_not_use", ())]
        if rooms:
            a = yield from st.ask(controller, [Action.of("monster-teleport", monster=m.uid, to=r) for r in rooms],
                                  f"put {st.mname(m)} in a room up to {band.get('range', 8)} spaces away")
            enter(str(a["to"]), budget)
        return
    facing: int | None = None
    prev: str | None = None
    for moved in range(1, budget + 1):
        walks = banshee_walks(st, m, m.room)
        hops = banshee_hops(st, m, m.room)
        if mode == "controlled" or moved == 1:
            options = sorted(set(walks.values()) | set(hops))
        else:
            forced: str | None = None
            if facing is not None:
                turns = BANSHEE_TURNS.get(mode)
                if turns is not None:
                    forced = next((walks[(facing + t) % 4] for t in turns if (facing + t) % 4 in walks), None)
                elif facing in walks:
                    forced = walks[facing]
                else:
                    sides = [(facing + t) % 4 for t in (3, 1) if (facing + t) % 4 in walks]
                    if len(sides) == 2:
                        a = yield Req(CHANCE, Draw([walks[x] for x in sides], arg="to"),
                                      f"{st.mname(m)} turns left or right at random")
                        forced = str(a["to"])
                    elif sides:
                        forced = walks[sides[0]]
            if forced is None:
                # a dead end (or a room reached by a hop with no way on): back the way it came
                forced = prev if prev is not None and prev in st.house.spots else next(iter(sorted(walks.values())), None)
            options = sorted({forced, *hops} - {None})  # type: ignore[arg-type]
        if not options:
            st.emit("monster.rules-overridable", f"{st.mname(m)} has nowhere to go", monster=m.uid)
            return
        if len(options) == 1:
            to = options[0]
        else:
            a = yield from st.ask(controller, [Action.of("monster-move", monster=m.uid, to=r) for r in options],
                                  f"move {st.mname(m)} ({mode})")
            to = str(a["to"])
        side = next((d for d, r in walks.items() if r == to), None)
        prev = m.room
        enter(to, moved)
        if side is not None:
            facing = side
        else:
            # a hop: the traitor sets its facing in the new room (the way on that is then straight ahead)
            ways = banshee_walks(st, m, to)
            if ways and moved < budget and mode not in ("controlled",):
                a = yield from st.ask(controller, [Action.of("monster-face", monster=m.uid, to=r, side=d)
                                                   for d, r in sorted(ways.items())], f"face {st.mname(m)}")
                facing = int(str(a["side"]))
            else:
                facing = None
    if mode == "controlled":
        entered = set(state["entered"])
        reached = [x for x in st.seat_ids if st.in_play(x) and st.ex[x].room in entered]
        if reached:
            a = yield from st.ask(controller, [Action.of("wail-target", who=x) for x in reached],
                                  f"the one explorer {st.mname(m)}'s wail reaches")
            state["only"] = str(a["who"])


@hook.predicate("banshee-path")
def banshee_reaches(st: HauntState, seat: str | None, m: Monster | None) -> bool:
    """Haunt 8, the ``banshee``'s ``wail`` requirement: the explorer is in a room the Banshee entered this monster turn (on a controlled
    move, only the one explorer the traitor picked)."""
    state = st.hook_state.get("banshee-path")
    if seat is None or not state:
        return False
    if state.get("mode") == "controlled":
        return state.get("only") == seat
    return st.ex[seat].room in state.get("entered", [])
