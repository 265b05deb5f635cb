"""Exits and movement (``move.*``): which ways lead out, what a move costs, where an explorer stands.

An explorer moves up to their Speed, one space per room, through doors only where two doors meet,
and along the fixed links (the starting strip, stairs, secret doors). A barrier room has sides: an
explorer stands on the side of the door they came through. Distances for the rules that count
tiles (:meth:`Movement.distances`) and for plain walking (:meth:`Movement.walking_distances`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.house import opposite, step
from hauntcheck.engine.betrayal.model import SIDES
from hauntcheck.engine.betrayal.state.base import ExitsKey, Explorer, Gen, KeptMoves
from hauntcheck.engine.betrayal.state.discovery import Discovery
from hauntcheck.engine.core import Action, act


class Movement(Discovery):
    """Exits, movement, the room an explorer stands in, distances."""

    def movement_left(self, seat: str) -> int:
        """Spaces the explorer may still move this turn: Speed and the turn's extra spaces less
        those moved, under the cap of a held card (none without a card held or kept)."""
        turn = self.turn
        if turn.stopped:
            return 0
        left = self.speed(seat) + turn.extra - turn.moved
        e = self.ex[seat]
        if e.cards or e.kept:  # asked at every menu: an empty hand caps nothing
            cap = effects.max_move(self.as_betrayal_state(), seat)
            if cap is not None:
                left = min(left, cap - turn.moved)
        return max(0, left)

    def exits(self, seat: str) -> list[tuple[str, int, str]]:
        """Rooms the explorer can step into from here: (room, cost, how)."""
        e = self.ex[seat]
        return self.exits_at(e.room, e.part)

    def exits_at(self, room: str, part: int, every_side: bool = False) -> list[tuple[str, int, str]]:
        """:meth:`_exits` from side ``part`` of ``room`` (from every side: ``every_side``), kept until
        a tile is placed or moved next to the room or at a room its fixed links join
        (``House.changed_near``), or the links made change (their count is not enough: a haunt
        takes links out with the rooms it removes, and a new one may come later): the exits of a
        room change only then. The list is shared, not to be changed."""
        key = (room, -1 if every_side else part, self.house.changed_near(room), tuple(self.links))
        cached = self._exits_cache.get(key)
        if cached is None:
            cached = self._keep_exits(key, self._exits_from(room, part, every_side))
        return cached

    def _keep_exits(self, key: ExitsKey, exits: list[tuple[str, int, str]]) -> list[tuple[str, int, str]]:
        """Keep ``exits`` as :meth:`exits_at`'s answer for ``key`` (the kept answers are few: a
        full cache starts over)."""
        if len(self._exits_cache) > 512:
            self._exits_cache.clear()
        self._exits_cache[key] = exits
        return exits

    def _exits(self, e: Explorer, every_side: bool = False) -> list[tuple[str, int, str]]:
        """:meth:`_exits_from` the explorer's room and side, worked out anew."""
        return self._exits_from(e.room, e.part, every_side)

    def _exits_from(self, room: str, part: int, every_side: bool = False) -> list[tuple[str, int, str]]:
        """The ways out of side ``part`` of ``room`` (of every side: ``every_side``): the doors that
        meet a door, the fixed links whose far room is in the house, the links made."""
        return self._ways_out(room, part, every_side)[0]

    def _ways_out(self, room: str, part: int, every_side: bool = False) -> tuple[list[tuple[str, int, str]], list[int]]:
        """:meth:`_exits_from`, and the doors of the same sides that face an empty cell (world
        sides, in side order: the doorways the move menu may explore through), found in one walk
        of the doors."""
        house = self.house
        out: list[tuple[str, int, str]] = []
        empty: list[int] = []
        seen: set[str] = set()
        allowed = None if every_side else self._sides_from(room, part)
        for side in house.doors_in_order(room):
            if allowed is not None and side not in allowed:
                continue
            other, meets = house.door_neighbour(room, side)
            if other is None:
                empty.append(side)
            elif meets and other not in seen:
                seen.add(other)
                out.append((other, 1, DOOR_HOW[side]))
        for to, kind, cost, requires in self.t_links.get(room, ()):
            if to in seen or to not in house.spots:
                continue
            if requires and not self._cond_simple(requires):
                continue
            seen.add(to)
            out.append((to, cost, kind))
        for a, b, cost, token in self.links:
            if a == room and b != room and b not in seen:
                seen.add(b)
                out.append((b, cost, token))
            elif b == room and a != room and a not in seen:
                seen.add(a)
                out.append((a, cost, token))
        return out, empty

    def _cond_simple(self, cond: Mapping[str, Any]) -> bool:
        if "room_in_house" in cond:
            rooms = cond["room_in_house"]
            rooms = [rooms] if isinstance(rooms, str) else rooms
            return any(r in self.house for r in rooms)
        return True

    def _part_sides(self, e: Explorer) -> frozenset[int] | None:
        """World door sides reachable from the explorer's side of a barrier room (None: all)."""
        return self._sides_from(e.room, e.part)

    def _sides_from(self, room: str, part: int) -> frozenset[int] | None:
        """World door sides reachable from side ``part`` of ``room``, a barrier room (None: all)."""
        barrier = self.t.rooms[room].barrier
        if len(barrier) < 2:
            return None
        return frozenset({(barrier[part] + self.house.spots[room].rotation) % 4})

    def _move_actions(self, seat: str) -> list[Action]:
        """The moves and explores the explorer can afford now (a new list at each call).

        The room's menu is kept (:class:`KeptMoves`) by the room, the side stood on, the house's
        changes near the room (``House.changed_near``) and the links made, as :meth:`exits_at`'s
        exits are: the room's ways out and its doorways to an empty cell read nothing else.
        Whether a doorway may be explored also reads the stack and the whole floor (no floor sealed
        while tiles for it remain), so that is decided at each ask: every doorway when a tile for
        the floor remains and the floor keeps more than four free doorways (no tile at one cell can
        close them all) or only one tile is left (``_can_discover``'s own first answers), none when
        no tile is left, else each doorway by ``_can_discover``."""
        left = self.movement_left(seat)
        if left <= 0:
            return []
        e = self.ex[seat]
        room = e.room
        house = self.house
        key = (room, e.part, house.changed_near(room), tuple(self.links))
        kept = self._moves_cache.get(key)
        if kept is None:
            kept = self._keep_moves(key)
        moves = kept.moves
        if kept.doorways:
            floor = house.spots[room].floor
            remaining = self.remaining_for(floor)
            if remaining == 1 or (remaining and house.free_count(floor) > 4):
                moves = kept.with_every_doorway
            elif remaining:
                moves = moves + [(1, _explore_action(side)) for side in kept.doorways if self._can_discover(floor, room, side)]
        return [a for cost, a in moves if cost <= left]

    def _keep_moves(self, key: ExitsKey) -> KeptMoves:
        """Work out and keep the menu of side ``key[1]`` of room ``key[0]`` (:meth:`_move_actions`)."""
        room, part = key[0], key[1]
        # the exits and the doorways come from one walk of the room's doors (the explorer is in a
        # new room at many asks); the exits are kept for exits_at as well
        exits, empty = self._ways_out(room, part)
        self._keep_exits(key, exits)
        moves = [(cost, move_action(to, cost)) for to, cost, _ in exits]
        doorways = tuple(empty)
        kept = KeptMoves(moves, doorways, moves + [(1, _explore_action(side)) for side in doorways])
        if len(self._moves_cache) > 512:
            self._moves_cache.clear()
        self._moves_cache[key] = kept
        return kept

    def _move(self, seat: str, to: str, cost: int) -> Gen[None]:
        e = self.ex[seat]
        left = yield from effects.leave_room(self.as_betrayal_state(), seat)
        if not left:
            return
        src, part = e.room, e.part
        self.note_moving_on(seat)
        self.turn.moved += cost
        self.turn.left_room = True
        # the door come through matters only in a barrier room (it is the side stood on): found only there
        self._set_room(seat, to, via_side=self._entry_side(src, to) if len(self.t.rooms[to].barrier) >= 2 else None)
        if not self.quiet:  # the text is work: skipped when nobody reads the events
            how = next((h for r, _, h in self.exits_at(src, part) if r == to), "door")
            rule = MOVE_RULES.get(how, "move.through-matching-doors" if how.startswith("door") else "move.one-space-per-room")
            self.emit(rule, f"{self.name(seat)} moves {self.room_name(src)} -> {self.room_name(to)} ({how}, {cost} space"
                      f"{'' if cost == 1 else 's'}; {self.turn.moved} of {self.speed(seat) + self.turn.extra} used)",
                seat=seat, origin=src, to=to, way=how, cost=cost, moved=self.turn.moved, speed=self.speed(seat) + self.turn.extra)
        yield from effects.enter_room(self.as_betrayal_state(), seat, discovering=False)
        if self.turn.short_exit:
            self.turn.short_exit = False
            self.turn.stopped = True
            self.turn.stop_rule = "room.junk-room.always-escapes"

    def _entry_side(self, src: str, dst: str) -> int | None:
        a, b = self.house.spots.get(src), self.house.spots.get(dst)
        if a is None or b is None or a.floor != b.floor:
            return None
        for side in range(4):
            if step(a.cell, side) == b.cell:
                return opposite(side)
        return None

    def _set_room(self, seat: str, room: str, via_side: int | None = None, part: int | None = None) -> None:
        e = self.ex[seat]
        e.room = room
        rdef = self.t.rooms[room]
        e.part = 0
        if part is not None:
            e.part = part
        elif len(rdef.barrier) >= 2 and via_side is not None:
            rot = self.house.spots[room].rotation
            for i, s in enumerate(rdef.barrier):
                if (s + rot) % 4 == via_side:
                    e.part = i

    def walking_distances(self, seat: str, within: int | None = None) -> dict[str, int]:
        """Spaces from the explorer to every room reachable by plain movement, with no rolls
        (only those at most ``within`` spaces away, when given):
        a barrier room is entered on the side of the door used and cannot be crossed (crossing
        takes a roll), so what lies past a barrier counts only by another way round
        (``room.barrier.cross-roll``). The Dog's errand uses it (``dog-fetch``)."""
        e = self.ex[seat]
        start = (e.room, e.part)
        dist = {start: 0}
        frontier = [start]
        level = 0
        # breadth first, a space a level: a room is first reached at its distance, so the walk
        # may stop at the last level asked for
        while frontier and (within is None or level < within):
            level += 1
            nxt: list[tuple[str, int]] = []
            for room, part in frontier:
                for other, _, _ in self.exits_at(room, part):
                    rdef = self.t.rooms[other]
                    arrive = 0
                    if len(rdef.barrier) >= 2:
                        via = self._entry_side(room, other)
                        rot = self.house.spots[other].rotation
                        arrive = next((i for i, s_ in enumerate(rdef.barrier) if via is not None and (s_ + rot) % 4 == via), 0)
                    if (other, arrive) not in dist:
                        dist[(other, arrive)] = dist[(room, part)] + 1
                        nxt.append((other, arrive))
            frontier = sorted(nxt)
        out: dict[str, int] = {}
        for (room, _), d in dist.items():
            out[room] = min(d, out.get(room, d))
        return out

    def distances(self, start: str) -> dict[str, int]:
        """Tiles apart from ``start`` to every room reachable through doors and fixed links.
        A barrier room counts as one tile whichever side it is entered from, so every door of
        it is searched: what lies past a barrier must not depend on how its tile is turned."""
        dist = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for room in frontier:
                for other, _, _ in self.exits_at(room, 0, every_side=True):
                    if other not in dist:
                        dist[other] = dist[room] + 1
                        nxt.append(other)
            frontier = sorted(nxt)
        return dist

    def _exits_of(self, probe: Explorer) -> list[tuple[str, int, str]]:
        """The probe's exits (:meth:`exits_at`: shared, not to be changed)."""
        return self.exits_at(probe.room, probe.part)

    def _nearest_rooms(self, seat: str, rooms: Iterable[str]) -> list[str]:
        dist = self.distances(self.ex[seat].room)
        return sorted(rooms, key=lambda r: (dist.get(r, 10_000), r))


@functools.lru_cache(maxsize=None, typed=True)  # typed: a cost of True would not be the cached 1
def move_action(room: str, cost: int) -> Action:
    """``move to=<room> cost=<n>``, built once: the move menus list the same few moves again and again."""
    return Action("move", (("to", room), ("cost", cost)))


def _explore_action(side: int) -> Action:
    """``explore door=<side>`` (shared: :func:`~hauntcheck.engine.core.act` builds each once)."""
    return act("explore", "door", SIDES[side])


DOOR_HOW = tuple(f"door {s}" for s in SIDES)
#: The clause a move along each kind of fixed link follows (a door or another way: ``_move``).
MOVE_RULES = {
    "strip": "room.entrance-hall.strip-three-rooms",
    "stairs": "room.grand-staircase.upper-landing",
    "secret-stairs": "room.stairs-from-basement.foyer-link",
}
