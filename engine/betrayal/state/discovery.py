"""Room tiles (``discover.*``): drawn for a floor, fitted to its doors, placed, rearranged.

Discovering through an open door draws the top tile that fits the floor (tiles for other floors
are set aside and shuffled back when the stack runs out); the player chooses among the rotations
that match the door, never one that seals a floor; when no rotation fits, tiles already placed
may be rearranged. A floor with no tiles left cannot be explored further; a haunt may take a floor
out of play (``haunt.floor-removed``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.house import Placement, opposite, step
from hauntcheck.engine.betrayal.model import SIDES, Tables
from hauntcheck.engine.betrayal.state.base import Gen
from hauntcheck.engine.betrayal.state.cards import Cards
from hauntcheck.engine.core import Action


class Discovery(Cards):
    """Room tiles: drawn, fitted to a floor, placed, rearranged."""

    def close_floors(self, floors: Iterable[str]) -> None:
        """Take floors out of play (``haunt.floor-removed``): nothing is explored there any more,
        and a chute down to them no longer slides anyone, so a turn may end on it."""
        self.closed_floors |= set(floors)
        self.chutes_lead_nowhere(lambda to: to in self.t.rooms and set(self.t.rooms[to].floors) <= self.closed_floors)
        self._tile_version += 1

    def chutes_lead_nowhere(self, gone: Callable[[str], bool]) -> None:
        """A chute down to a room out of play (``gone``: a removed floor's, a room fallen into a pit)
        slides nobody any more, so a turn may end on it (judgement: else an explorer put there
        without entering it, jumping clear of a collapse, could neither move on nor end the turn)."""
        self.no_end_rooms = frozenset(r for r in self.no_end_rooms if not any(
            c.kind == "chute" and gone(c.to) for c in self.t.rooms[r].connections))

    def remaining_for(self, floor: str) -> int:
        if floor in self.closed_floors:
            return 0
        cached = self._fit_cache.get(floor)
        if cached is not None and cached[0] == self._tile_version:
            return cached[1]
        fits = self._fitting(floor)
        n = sum(map(fits.__contains__, self.stack)) + sum(map(fits.__contains__, self.aside)) + sum(
            map(fits.__contains__, self.unshuffled_rooms))
        self._fit_cache[floor] = (self._tile_version, n)
        return n

    def _fitting(self, floor: str) -> frozenset[str]:
        """The room tiles that may go on ``floor`` (from the tables, worked out once)."""
        by_floor: dict[str, frozenset[str]] = self.t.derived("tiles_by_floor", lambda _: {})
        fits = by_floor.get(floor)
        if fits is None:
            fits = by_floor[floor] = frozenset(r.id for r in self.t.rooms.values() if floor in r.floors)
        return fits

    def others_remain(self, floor: str, tile: str) -> bool:
        """Whether tiles for ``floor`` remain besides ``tile`` (sealing the floor is then illegal)."""
        n = self.remaining_for(floor)
        if tile in self.stack or tile in self.aside or tile in self.unshuffled_rooms:
            n -= 1
        return n > 0

    def _can_discover(self, floor: str, room: str, side: int) -> bool:
        if self.remaining_for(floor) == 0:
            return False
        cell = step(self.house.spots[room].cell, side)
        if self.house.open_besides(floor, cell) or self.remaining_for(floor) == 1:
            return True
        if not self.all_would_seal(floor, cell, opposite(side)):
            return True
        return bool(self.rearrangements(floor, cell))

    def rearrangements(self, floor: str, target: tuple[int, int]) -> list[tuple[str, Placement]]:
        """Ways to rearrange a floor whose every remaining tile would seal it at ``target``: move
        one empty dead-end room (a placed stack tile joined to a single neighbour, with no
        explorer, item pile or token in it) to another open door of the floor, or turn it where it
        lies, so that a free doorway remains besides the one being explored."""
        house = self.house
        busy = {e.room for e in self.ex.values()} | set(self.piles) | set(self.tokens)
        busy |= {r for link in self.links for r in link[:2]} | {r for p in self.passages for r in p[:2]}
        out: list[tuple[str, Placement]] = []
        for room in house.rooms_on(floor):
            if self.t.rooms[room].placement != "stack" or room in busy:
                continue
            joined = [s for s in house.doors(room) if house.door_neighbour(room, s)[1]]
            if len(joined) != 1:
                continue
            here = house.spots[room]
            for p in house.open_spots(room, floor, keep_open=False, ignore=room):
                if p.cell == target or (p.cell == here.cell and p.rotation == here.rotation):
                    continue  # turning it where it lies counts: another door may then face an empty cell
                trial = house.copy()
                trial.remove(room)
                trial.place(room, floor, p.cell, p.rotation)
                if trial.room_at(floor, target) is not None:
                    continue
                spare = [d for d in trial.free_doorways(floor) if step(trial.spots[d[0]].cell, d[1]) != target]
                if spare:
                    out.append((room, p))
        return out

    def _placements(self, tile: str, floor: str, cell: tuple[int, int], entry: int) -> list[Placement]:
        keep_open = self.others_remain(floor, tile)
        return self.house.placements_at(tile, floor, cell, entry, keep_open)

    def _explore(self, seat: str, side: int) -> Gen[None]:
        e = self.ex[seat]
        src = e.room
        floor = self.house.floor_of(src)
        cell = step(self.house.spots[src].cell, side)
        entry = opposite(side)
        left = yield from effects.leave_room(self.as_betrayal_state(), seat)
        if not left:
            return
        self.note_moving_on(seat)
        if not self.quiet:  # the texts are work: skipped when nobody reads the events
            if self.haunt is not None:
                self.emit("turn.explorers-keep-abilities", f"after the haunt {self.name(seat)} is still an explorer and "
                          "discovers rooms as before", seat=seat)
            self.emit("discover.trigger", f"{self.name(seat)} goes through the {SIDES[side]} doorway of {self.room_name(src)}, "
                      f"which has no room beyond it", seat=seat, room=src, side=side)
        if self.all_would_seal(floor, cell, entry):
            yield from self._rearrange(seat, floor, cell)
        tried: dict[str, list[Placement]] = {}

        def placements(t: str) -> list[Placement]:
            # kept for the tile drawn: nothing changes between draw_tile's try of it and its placing
            found = tried[t] = self._placements(t, floor, cell, entry)
            return found

        tile = yield from self.draw_tile(floor, placements)
        if tile is None:
            self.emit("discover.floor-exhausted", f"no tile is left for the {floor} floor", floor=floor)
            return
        options = tried[tile]
        sealing = 0 if self.quiet else len(self.house.placements_at(tile, floor, cell, entry, keep_open=False)) - len(options)
        if sealing:
            self.emit("discover.no-sealed-floor", f"{sealing} way(s) of placing {self.room_name(tile)} would seal off the "
                      f"{floor} floor and are not allowed", count=sealing, room=tile, floor=floor)
        place = yield from self.choose_placement(seat, tile, floor, options)
        self.put_tile(tile, floor, place.cell, place.rotation)
        if not self.quiet:
            self.emit("discover.floor-match", f"{self.room_name(tile)} fits the {floor} floor and is joined to the doorway "
                      f"(doors {_sides_text(place.doors)})", room=tile, floor=floor, doors=sorted(place.doors))
        self.note_new_room(tile)
        self._note_false_features(tile)
        self.turn.moved += 1
        self.turn.left_room = True
        self._set_room(seat, tile, via_side=entry)
        if not self.quiet:
            self.emit("move.one-space-per-room", f"{self.name(seat)} moves into {self.room_name(tile)} "
                      f"({self.turn.moved} of {self.speed(seat) + self.turn.extra} spaces used)", seat=seat, room=tile,
                      moved=self.turn.moved, speed=self.speed(seat) + self.turn.extra)
        yield from effects.discovered(self.as_betrayal_state(), seat, tile)

    def all_would_seal(self, floor: str, cell: tuple[int, int], entry: int) -> bool:
        """Every remaining tile for the floor would seal it if placed at ``cell``."""
        if self.house.open_besides(floor, cell):
            return False
        return not any(self._placements(t, floor, cell, entry) for t in self.stack + self.aside
                       if floor in self.t.rooms[t].floors)

    def _rearrange(self, seat: str, floor: str, target: tuple[int, int]) -> Gen[None]:
        options = self.rearrangements(floor, target)
        acts = [Action.of("rearrange", room=r, cell=list(p.cell), rotation=p.rotation) for r, p in options]
        a = yield from self.ask(seat, acts, f"rearrange the {floor} floor")
        room, p = options[acts.index(a)]
        how = (f"turns {self.room_name(room)} where it lies" if p.cell == self.house.spots[room].cell
               else f"moves {self.room_name(room)} to {list(p.cell)}")
        self.put_tile(room, floor, p.cell, p.rotation)
        self.emit("discover.rearrange-fallback", f"every remaining {floor} tile would seal the floor: {self.name(seat)} "
                  f"{how} to open another doorway", floor=floor, seat=seat, room=room, cell=list(p.cell))
        self._note_false_features(room)

    def put_tile(self, room: str, floor: str, cell: tuple[int, int], rotation: int) -> None:
        """Lay a room tile in the house, from wherever it is: just drawn, the stack, the set-aside
        pile, or elsewhere in the house (a tile moved)."""
        for pile in (self.stack, self.aside):
            if room in pile:
                pile.remove(room)
        if room in self.house:
            self.house.remove(room)
        self.house.place(room, floor, cell, rotation)
        if self.held_tile == room:
            self.held_tile = None
        if self.room_top == room:
            self.room_top = None  # a tile looked at on top of the stack and then taken from it is no longer on top
        self._tile_version += 1

    def next_room_tile(self) -> Gen[str | None]:
        """Turn up the next room tile (a tile peeked onto the top comes first), reshuffling the
        set-aside pile into a new stack when the stack runs out; None when both are empty."""
        if not self.stack:
            if not self.aside:
                return None
            self.stack = sorted(self.aside)
            self.aside = []
            self._tile_version += 1
            self.emit("discover.reshuffle-discards", f"the room stack is empty: the {len(self.stack)} set-aside tiles "
                      "are shuffled into a new stack", count=len(self.stack))
        if self.room_top is not None:
            tile = self.room_top
            self.room_top = None
            self.stack.remove(tile)
        else:
            tile = yield from self.draw_from(self.stack, "tile", "the top room tile")
        self._tile_version += 1
        if self.closed_floors and set(self.t.rooms[tile].floors) <= self.closed_floors:
            # haunt.floor-removed: a tile that fits only a removed floor leaves the game; draw again
            self.removed_tiles.append(tile)
            self.emit("haunt.floor-removed", f"{self.room_name(tile)} fits only the {'/'.join(self.t.rooms[tile].floors)} "
                      "floor, which is out of play: it is discarded and another tile is drawn", room=tile)
            return (yield from self.next_room_tile())
        return tile

    def draw_tile(self, floor: str, placements: Any) -> Gen[str | None]:
        """Turn up room tiles until one fits ``floor`` and can be placed; set the others aside
        (reshuffling the set-aside pile into a new stack when the stack runs out)."""
        while True:
            if self.remaining_for(floor) == 0:
                return None
            tile = yield from self.next_room_tile()
            if tile is None:
                return None
            if floor not in self.t.rooms[tile].floors:
                self._set_aside(tile)
                if not self.quiet:  # the text is work: skipped when nobody reads the events
                    self.emit("discover.set-aside-mismatch", f"{self.room_name(tile)} does not fit the {floor} floor and is set "
                              "aside", room=tile, floor=floor)
                continue
            if not placements(tile):
                self._set_aside(tile)
                self.emit("discover.sealing-tile-discarded", f"{self.room_name(tile)} could only seal off the {floor} floor "
                          "and is discarded", room=tile, floor=floor)
                continue
            self.held_tile = tile
            return tile

    def _set_aside(self, tile: str) -> None:
        """Put a tile just turned up on the set-aside pile. The piles changed, so the counts of
        tiles left for each floor (``remaining_for``) kept while the tile was in hand go stale."""
        self.aside.append(tile)
        self._tile_version += 1

    def choose_placement(self, seat: str, tile: str, floor: str, options: list[Placement]) -> Gen[Placement]:
        # ``place cell=[x, y] rotation=r``, built directly: a placement's cell is already a tuple
        actions = [Action("place", (("cell", p.cell), ("rotation", p.rotation))) for p in options]
        a = yield from self.ask(seat, actions, f"place {tile} on the {floor} floor")
        i = actions.index(a)
        if len(options) > 1:
            self.emit("discover.match-doors", f"{seat} turns {self.room_name(tile)} to doors {_sides_text(options[i].doors)} "
                      f"(one of {len(options)} legal placements)", seat=seat, room=tile,
                      doors=sorted(options[i].doors), count=len(options))
        return options[i]

    def note_new_room(self, room: str) -> None:
        """Links that wait for this room (the Foyer's secret door) open now."""
        if self.quiet:
            return  # the links open by themselves (``_exits`` asks whether the room is in): this only tells
        for other in self.t.derived("links_waiting_for", _links_waiting_for).get(room, ()):
            if other.id in self.house:
                rule = f"room.{room}.needs-discovery"
                if rule in self.rules:
                    self.emit(rule, f"{self.room_name(room)} is in the house: the way from {other.name} to it opens", room=room,
                              origin=other.id)
        if len(self.t.rooms[room].floors) > 1:
            self.emit("discover.multi-floor-tiles", f"{self.room_name(room)} may go on any of "
                      f"{', '.join(self.t.rooms[room].floors)}", room=room, floors=list(self.t.rooms[room].floors))

    def _note_false_features(self, room: str) -> None:
        """Tell the doors of a room just placed that meet a wall (blocked doors): events only."""
        if self.quiet:
            return
        spot = self.house.spots[room]
        for side in self.house.doors_in_order(room):
            other, meets = self.house.door_neighbour(room, side)
            if other is not None and not meets:
                self.emit("discover.false-feature", f"the {SIDES[side]} door of {self.room_name(room)} meets a wall of "
                          f"{self.room_name(other)}: a blocked door", room=room, side=side, other=other)
        for side in range(4):
            other = self.house.room_at(spot.floor, step(spot.cell, side))
            if other is not None and opposite(side) in self.house.doors(other) and side not in self.house.doors(room):
                self.emit("discover.false-feature", f"the {SIDES[opposite(side)]} door of {self.room_name(other)} now meets "
                          f"a wall of {self.room_name(room)}: a blocked door", other=other, side=opposite(side), room=room)

    def note_moving_on(self, seat: str) -> None:
        """Movement goes on after another action of the turn: before any step (the actions of a
        turn come in any order) or part-way through the movement."""
        turn = self.turn
        if turn.last in ("", "move", "explore") or self.quiet:
            return  # nothing but events (their texts are work: skipped when nobody reads them)
        if turn.moved:
            self.emit("move.actions-mid-move", f"{self.name(seat)} moves on after a {turn.last} part-way through "
                      f"the movement ({turn.moved} space(s) used before it)", seat=seat, last=turn.last, moved=turn.moved)
        else:
            self.emit("turn.actions-any-order", f"{self.name(seat)} moves after a {turn.last} taken before any step",
                seat=seat, last=turn.last)


def _sides_text(sides: Iterable[int]) -> str:
    return "/".join(SIDES[s] for s in sorted(sides)) or "none"


def _links_waiting_for(t: Tables) -> dict[str, list[Any]]:
    """The rooms whose link opens once a room is in the house (``requires: room_in_house``), by that room."""
    waiting: dict[str, list[Any]] = {}
    for other in t.rooms.values():
        for c in other.connections:
            if c.requires and isinstance(c.requires.get("room_in_house"), str):
                waiting.setdefault(c.requires["room_in_house"], []).append(other)
    return waiting
