"""Explorers and room tiles moved by effects: where to, which tile, and what happens on arrival.

An effect puts an explorer in a room without using movement (:func:`move_to`); the room's entry
text applies, and in a barrier room the side they land on is decided (:func:`arrival_part`).
:func:`destination` resolves where an effect sends someone (a named room, a room chosen among a
set, a room fetched from the stack or drawn for a floor). Tiles: a named tile searched out of the
room stack and placed at an open door (:func:`fetch_room`), tiles drawn until one fits a floor
(:func:`draw_room`), a room relocated with everyone in it (the Mystic Elevator, :func:`_move_tile`,
never sealing a floor), and a passage through a doorless wall (:func:`_beyond_wall`). Two rooms
linked by a card's token, and explorers pulled into a room, are moves too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hauntcheck.engine.betrayal.effects.context import Ctx, _source_name, _who, source_rule
from hauntcheck.engine.betrayal.effects.interpreter import run
from hauntcheck.engine.betrayal.effects.triggers import discovered, enter_room
from hauntcheck.engine.betrayal.house import Placement, rotate, step
from hauntcheck.engine.betrayal.model import FLOORS, SIDES
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.state import BetrayalState, Gen


def arrival_part(st: BetrayalState, seat: str, room: str, token: str | None = None) -> Gen[int]:
    """Which side of a barrier room a character put there by an effect lands on: the side of the
    arrival's token when one marks it (``room.barrier.token-side-fixed``), else the one chosen."""
    rdef = st.t.rooms[room]
    if token is not None and token in st.token_parts and token in st.tokens.get(room, ()):
        part = st.token_parts[token]
        side = SIDES[(rdef.barrier[part] + st.house.spots[room].rotation) % 4]
        st.emit("room.barrier.token-side-fixed", f"the {token} token lies on the {side} side of {rdef.name}: "
                f"{st.name(seat)} lands there", token=token, side=side, room=room, seat=seat)
        return part
    if len(rdef.barrier) >= 2 and rdef.barrier_arrival == "chosen":
        opts = [Action.of("side", side=SIDES[(s + st.house.spots[room].rotation) % 4]) for s in rdef.barrier]
        a = yield from st.ask(seat, opts, f"choose the side of {room} to land on")
        st.emit("room.barrier.landing-side", f"{st.name(seat)} lands on the {a['side']} side of {rdef.name}", seat=seat, side=a['side'],
                room=room)
        return opts.index(a)
    if rdef.barrier:
        st.emit("room.vault.arrive-outside", f"{st.name(seat)} lands outside the locked door of {rdef.name}", seat=seat, room=room)
    return 0


def move_to(st: BetrayalState, seat: str, room: str, ctx: Ctx, how: str, token: str | None = None) -> Gen[None]:
    """Put an explorer in a room by an effect (no movement used); the room's entry text applies.
    ``token``: the token that marks the destination (its side of a barrier room is kept)."""
    e = st.ex[seat]
    src = e.room
    rdef = st.t.rooms[room]
    part = yield from arrival_part(st, seat, room, token)
    st._set_room(seat, room, part=part)
    st.emit(source_rule(st, ctx), f"{st.name(seat)} is moved from {st.room_name(src)} to {rdef.name} ({how})",
        seat=seat, origin=src, to=room)
    if ctx.source == "room:coal-chute":
        st.emit("room.coal-chute.one-space", "entering the chute and sliding down count as one space together")
    if seat == st.current and st.turn.start_room == room:
        st.turn.left_room = True
    yield from enter_room(st, seat, discovering=False)


def _move(st: BetrayalState, dest: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    room = yield from destination(st, dest, ctx)
    if room is None:
        return
    if room == st.ex[ctx.seat].room and "drawn_room" not in dest:
        st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} is already in {st.room_name(room)}", seat=ctx.seat, room=room)
        return
    if st.ex[ctx.seat].room != room:
        token = dest.get("room_with_token")
        yield from move_to(st, ctx.seat, room, ctx, _source_name(st, ctx.source), str(token) if token else None)


def destination(st: BetrayalState, dest: Mapping[str, Any], ctx: Ctx) -> Gen[str | None]:
    e = st.ex[ctx.seat]
    if "room" in dest:
        room = str(dest["room"])
        if room in st.house:
            return room
        absent = dest.get("if_absent", "skip")
        if absent == "fetch-from-stack":
            placed = yield from fetch_room(st, ctx.seat, room)
            return placed
        if absent == "entrance-hall":
            return "entrance-hall"
        st.emit(source_rule(st, ctx), f"{st.room_name(room)} is not in the house: nothing happens", room=room)
        return None
    if "other_end_of" in dest:
        token = str(dest["other_end_of"])
        for end_a, end_b, _, tok in st.links:
            if tok == token and e.room in (end_a, end_b):
                return end_b if e.room == end_a else end_a
        for end_a, end_b, tok in st.passages:
            if tok == token and e.room in (end_a, end_b):
                return end_b if e.room == end_a else end_a
        return None
    if "room_choice" in dest:
        rc = dest["room_choice"]
        rooms = _room_choice(st, rc, e.room)
        if not rooms:
            st.emit(source_rule(st, ctx), "no room qualifies: nothing happens")
            return None
        a = yield from st.ask(ctx.seat, [Action.of("room", room=r) for r in rooms], "choose a room")
        return str(a["room"])
    if "adjacent_room" in dest:
        rooms = [r for r, _, _ in st.exits(ctx.seat)]
        if not rooms:
            return None
        a = yield from st.ask(ctx.seat, [Action.of("room", room=r) for r in rooms], "choose an adjacent room")
        return str(a["room"])
    if "room_of" in dest:
        others = [s for s in sorted(st.ex) if s != ctx.seat]
        if dest["room_of"] == "nearest-explorer":
            others = _who(st, "nearest-explorer", ctx)
        rooms = sorted({st.ex[s].room for s in others})
        if not rooms:
            return None
        a = yield from st.ask(ctx.seat, [Action.of("room", room=r) for r in rooms], "choose whose room to go to")
        return str(a["room"])
    if "drawn_room" in dest:
        drawn = yield from draw_room(st, dest["drawn_room"], ctx)
        return drawn
    if "room_with_token" in dest:
        token = str(dest["room_with_token"])
        marked = sorted(r for r, toks in st.tokens.items() if token in toks)
        if not marked:
            st.emit(source_rule(st, ctx), f"no room holds the {token} token: nothing happens", token=token)
            return None
        return marked[0]
    return None


def _room_choice(st: BetrayalState, rc: Mapping[str, Any], here: str) -> list[str]:
    rooms = sorted(st.house.spots)
    among = rc.get("among")
    if among:
        wanted: set[str] = set()
        for x in among:
            if x in st.t.rooms:
                wanted.add(x)
            else:
                wanted.update(r for r, toks in st.tokens.items() if x in toks)
        rooms = [r for r in rooms if r in wanted]
    floor = rc.get("floor")
    if floor:
        mine = st.house.floor_of(here)
        if floor == "lower":
            below = FLOORS[FLOORS.index(mine) + 1:] if mine != "upper" else ("ground", "basement")
            below = ("basement",) if mine == "ground" else (() if mine == "basement" else below)
            rooms = [r for r in rooms if st.house.floor_of(r) in below]
        elif floor == "other":
            rooms = [r for r in rooms if st.house.floor_of(r) != mine]
        else:
            rooms = [r for r in rooms if st.house.floor_of(r) == floor]
    return [r for r in rooms if r != here or among]


def fetch_room(st: BetrayalState, seat: str, room: str) -> Gen[str | None]:
    """Search the room stack for a named tile and place it at an open door of a floor it fits."""
    if room not in st.stack and room not in st.aside:
        return None
    options: list[tuple[str, Any]] = []
    for floor in st.t.rooms[room].floors:
        for p in st.house.open_spots(room, floor, keep_open=st.others_remain(floor, room)):
            options.append((floor, p))
    if not options:
        return None
    acts = placement_actions(options)
    a = yield from st.ask(seat, acts, f"place {room}")
    floor, p = options[acts.index(a)]
    st.put_tile(room, floor, p.cell, p.rotation)
    st.emit("discover.placed-room-no-draw", f"{st.room_name(room)} is taken from the stack and placed on the {floor} floor",
        room=room, floor=floor)
    return room


def placement_actions(options: Sequence[tuple[str, Any]]) -> list[Action]:
    """The ``place`` choices for a tile: one per (floor, spot) option."""
    # built directly (a placement's cell is already a tuple): ``Action.of`` would freeze a list per option
    return [Action("place", (("floor", f), ("cell", p.cell), ("rotation", p.rotation))) for f, p in options]


def draw_room(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx) -> Gen[str | None]:
    """Draw tiles until one fits the floor, place it (at an open door of that floor) and
    optionally move in; the discoverer draws for its symbol."""
    e = st.ex[ctx.seat]
    floor = str(spec.get("floor", "same"))
    if floor == "same":
        floor = st.house.floor_of(e.room)
    if floor in st.closed_floors:
        st.emit("haunt.floor-removed", f"the {floor} floor is out of play: no room is drawn for it", floor=floor)
        return None
    floors = FLOORS if floor == "any" else (floor,)
    tile: str | None = None
    chosen_floor = ""
    if floor == "any":
        tile, chosen_floor = yield from _draw_any_floor(st, ctx)
    elif st.remaining_for(floor) > 0:

        def spots(t: str) -> list[Any]:
            return st.house.open_spots(t, floor, keep_open=st.others_remain(floor, t))

        tile = yield from st.draw_tile(floor, spots)
        chosen_floor = floor
    if tile is None:
        fallback = spec.get("fallback", "stay")
        if fallback == "existing-room-on-floor":
            rooms = [r for r in st.house.rooms_on(floors[0])]
            st.emit("room.collapsed-room.basement-full", f"no {floors[0]} tile is left: choose a {floors[0]} room", floor=floors[0])
            a = yield from st.ask(ctx.seat, [Action.of("room", room=r) for r in rooms], "choose a room to land in")
            room = str(a["room"])
            if spec.get("enter"):
                yield from move_to(st, ctx.seat, room, ctx, "no tile left")
            return room
        if fallback == "entrance-hall":
            if spec.get("enter"):
                yield from move_to(st, ctx.seat, "entrance-hall", ctx, "no tile left")
            return "entrance-hall"
        st.emit("discover.floor-exhausted", "no tile fits: nothing happens")
        return None
    if floor == "any":
        opts = _any_floor_spots(st, tile)
        acts = placement_actions(opts)
        chosen = yield from st.ask(ctx.seat, acts, f"place {tile}")
        chosen_floor, place = opts[acts.index(chosen)]
    else:
        spots_here = st.house.open_spots(tile, chosen_floor, keep_open=st.others_remain(chosen_floor, tile))
        place = yield from st.choose_placement(ctx.seat, tile, chosen_floor, spots_here)
    st.put_tile(tile, chosen_floor, place.cell, place.rotation)
    st.emit("discover.effect-discovery-draws", f"{st.room_name(tile)} is placed on the {chosen_floor} floor by "
            f"{_source_name(st, ctx.source)}", room=tile, floor=chosen_floor, source=ctx.source)
    if ctx.source == "room:collapsed-room":
        st.emit("room.collapsed-room.first-fall-places-tile", f"the first fall from the Collapsed Room places {st.room_name(tile)}",
            room=tile)
    st.note_new_room(tile)
    st._note_false_features(tile)
    if spec.get("enter"):
        part = yield from arrival_part(st, ctx.seat, tile)
        st._set_room(ctx.seat, tile, part=part)
        st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} lands in {st.room_name(tile)}", seat=ctx.seat, room=tile)
        yield from discovered(st, ctx.seat, tile)
    return tile


def _any_floor_spots(st: BetrayalState, tile: str) -> list[tuple[str, Any]]:
    return [(f, p) for f in st.t.rooms[tile].floors
            for p in st.house.open_spots(tile, f, keep_open=st.others_remain(f, tile))]


def _draw_any_floor(st: BetrayalState, ctx: Ctx) -> Gen[tuple[str | None, str]]:
    """The next room tile, for whichever floor it fits (set aside only if it cannot be placed)."""
    while True:
        tile = yield from st.next_room_tile()
        if tile is None:
            return None, ""
        if _any_floor_spots(st, tile):
            st.held_tile = tile
            return tile, st.t.rooms[tile].floors[0]
        st._set_aside(tile)
        st.emit("discover.sealing-tile-discarded", f"{st.room_name(tile)} has no place in the house and is set aside", room=tile)
        if not any(_any_floor_spots(st, t) for t in st.stack + st.aside):
            return None, ""


def _move_tile(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    """Relocate the room tile (with everyone in it) next to an open door; never sealing a floor.
    The tile is the one the explorer stands in, or ``room`` (a monster's, moved by its controller)."""
    room = str(spec.get("room") or st.ex[ctx.seat].room)
    spot = st.house.spots[room]
    if st.t.rooms[room].placement != "stack":
        st.emit(source_rule(st, ctx), f"{st.room_name(room)} cannot be moved", room=room)
        return
    target = spec["floor"]
    if target == "same":
        floors: tuple[str, ...] = (spot.floor,)
    elif target == "any":
        floors = tuple(f for f in FLOORS if f in st.t.rooms[room].floors or True)
    elif target == "other":
        floors = tuple(f for f in FLOORS if f != spot.floor)
    else:
        floors = (target,)
    named = floors
    floors = tuple(f for f in floors if st.tile_may_go_to(f, room))  # haunt.floor-removed, a haunt's own ban
    options: list[tuple[str, Any]] = []
    for f in floors:
        for p in st.house.open_spots(room, f, keep_open=st.remaining_for(f) > 0, ignore=room):
            if f == spot.floor and p.cell == spot.cell:
                continue  # the same floor: a different door
            options.append((f, p))
    if not options and spec.get("if_no_spot") == "other-floor" and target == "same":
        for f in FLOORS:
            if f == spot.floor or not st.tile_may_go_to(f, room):
                continue
            for p in st.house.open_spots(room, f, keep_open=st.remaining_for(f) > 0, ignore=room):
                options.append((f, p))
    is_elevator = room == "mystic-elevator"
    steer = bool(spec.get("steer"))
    if is_elevator and not st.quiet:  # a count for the event's text only: skipped when nobody reads the events
        sealing = sum(len(st.house.open_spots(room, f, keep_open=False, ignore=room))
                      - len(st.house.open_spots(room, f, keep_open=True, ignore=room))
                      for f in floors if st.remaining_for(f) > 0)
        if sealing > 0:
            st.emit("room.mystic-elevator.cannot-seal", f"{sealing} place(s) on the {'/'.join(floors)} floor would seal "
                    f"off a floor: the elevator does not go there", count=sealing, floors=list(floors))
    if not options:
        st.emit("room.mystic-elevator.no-door-stays" if is_elevator else source_rule(st, ctx),
                f"no open door on the {'/'.join(floors or named)} floor takes {st.room_name(room)} without sealing a floor: it stays",
            room=room)
        return
    acts = placement_actions(options)
    if steer:
        acts.append(Action.of("stay"))
    a = yield from st.ask(ctx.seat, acts, f"move {room}")
    if a.kind == "stay":
        st.emit("traitor.elevator-choice", f"{st.name(ctx.seat)} keeps {st.room_name(room)} where it is", seat=ctx.seat, room=room)
        return
    floor, p = options[acts.index(a)]
    st.put_tile(room, floor, p.cell, p.rotation)
    riders = sorted(s for s, x in st.ex.items() if x.room == room)
    rule = "room.mystic-elevator.two-dice-floor" if is_elevator else source_rule(st, ctx)
    if is_elevator and floor == spot.floor:
        rule = "room.mystic-elevator.same-floor-relocate"
    if steer:
        rule = "traitor.elevator-choice"
    st.emit(rule, f"{st.room_name(room)} moves to the {floor} floor at {list(p.cell)} carrying {', '.join(riders)}",
        room=room, floor=floor, cell=list(p.cell), seats=riders)
    st._note_false_features(room)
    if is_elevator and st.tokens.get(room):
        st.emit("room.mystic-elevator.tokens-ride", f"the tokens on the elevator ride with it: {', '.join(st.tokens[room])}",
                room=room, tokens=st.tokens[room])


def _draw_room_verb(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    if spec.get("where") == "beyond-this-wall":
        yield from _beyond_wall(st, spec, ctx)
        return
    yield from draw_room(st, spec, ctx)


def _beyond_wall(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx) -> Gen[None]:
    """A passage through a doorless wall (Revolving Wall): pick the wall; the room beyond it, or a
    tile drawn for this floor and placed there, is joined to this room by the card's token."""
    e = st.ex[ctx.seat]
    here = e.room
    spot = st.house.spots[here]
    floor = spot.floor
    walls = [s for s in range(4) if s not in st.house.doors(here) and s != st.t.rooms[here].front_door]
    options: list[Action] = []
    for s in walls:
        beyond = st.house.room_at(floor, step(spot.cell, s))
        if beyond is not None or st.remaining_for(floor) > 0:
            options.append(Action.of("wall", side=SIDES[s]))
    if not options:
        st.emit(source_rule(st, ctx), f"no wall of {st.room_name(here)} can take the passage: the card is discarded", room=here)
        ctx.halt = True
        return
    a = yield from st.ask(ctx.seat, options, "choose the wall for the passage")
    side = SIDES.index(str(a["side"]))
    cell = step(spot.cell, side)
    there = st.house.room_at(floor, cell)
    drawn = False
    if there is None:
        def spots(t: str) -> list[Any]:
            seen: set[frozenset[int]] = set()
            out = []
            for r in range(4):
                p = _rotation_at(st, t, cell, r)
                if p.doors in seen:
                    continue
                seen.add(p.doors)
                if st.house.free_after(floor, cell, p.doors) > 0 or not st.others_remain(floor, t):
                    out.append(p)
            return out

        tile = yield from st.draw_tile(floor, spots)
        if tile is None:
            st.emit("discover.floor-exhausted", f"no tile is left for the {floor} floor: the card is discarded", floor=floor)
            ctx.halt = True
            return
        place = yield from st.choose_placement(ctx.seat, tile, floor, spots(tile))
        st.put_tile(tile, floor, cell, place.rotation)
        st.emit("discover.effect-discovery-draws", f"{st.room_name(tile)} is placed beyond the {SIDES[side]} wall of "
                f"{st.room_name(here)}", room=tile, side=side, origin=here)
        st._note_false_features(tile)
        st.note_new_room(tile)
        there = tile
        drawn = True
    token = "wall-switch"
    st.passages.append((here, there, token))
    st.tokens.setdefault(here, []).append(token)
    ctx.kept = ctx.kept or "house"
    st.emit("glossary.tokens", f"a {token} joins {st.room_name(here)} and {st.room_name(there)} through the wall", token=token, room=here,
            to=there)
    if not spec.get("enter"):
        return
    if drawn:
        part = yield from arrival_part(st, ctx.seat, there)
        st._set_room(ctx.seat, there, part=part)
        st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} goes through the wall into {st.room_name(there)}", seat=ctx.seat, room=there)
        yield from discovered(st, ctx.seat, there)
    else:
        yield from move_to(st, ctx.seat, there, ctx, "through the wall")


def _rotation_at(st: BetrayalState, tile: str, cell: tuple[int, int], r: int) -> Placement:
    return Placement(cell, r, rotate(st.t.rooms[tile].doors, r))


def _pull(st: BetrayalState, spec: Any, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    st.emit(source_rule(st, ctx), "no monsters or heroes exist before the haunt: nothing is pulled")
    return
    yield


def _link(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    here = st.ex[ctx.seat].room
    there = yield from destination(st, spec["to"], ctx)
    if there is None or there == here:
        st.emit("glossary.tokens", "no room for the other end: the passage is not made")
        return
    token = str(spec["token"])
    st.links.append((here, there, int(spec["cost"]), token))
    st.tokens.setdefault(here, []).append(token)
    st.tokens.setdefault(there, []).append(token)
    ctx.kept = ctx.kept or "house"
    st.emit("glossary.tokens", f"{token} tokens link {st.room_name(here)} and {st.room_name(there)} "
            f"(moving between them costs {spec['cost']})", token=token, room=here, to=there, cost=spec['cost'])
    if spec.get("usable_now_without_movement") and ctx.seat == st.current:
        a = yield from st.ask(ctx.seat, [Action.of("pass", to=there), Action.of("stay")], "use the passage now?")
        if a.kind == "pass":
            yield from move_to(st, ctx.seat, there, ctx, token)
            if spec.get("on_arrival"):
                yield from run(st, spec["on_arrival"], ctx)
