"""The house: one square grid per floor, room tiles placed with a rotation, and the links between rooms.

Rules encoded here (ids in ``spec/betrayal/rules.yaml``): doors connect only door-to-door; a door
that meets a wall or a doorless side is a false feature; the front door is locked; the starting
strip is three rooms on one tile; staircases and the secret door to the Foyer are fixed links;
a placement that leaves a floor with no free doorway (while tiles for that floor remain) seals it
off and is illegal.

Coordinates: ``(x, y)`` with north = +y. A tile's doors are given upright (tile-local sides,
0 = north, clockwise); a tile placed with rotation ``r`` (quarter turns clockwise) has its local
side ``s`` facing world side ``(s + r) % 4``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from hauntcheck.engine.betrayal.model import FLOORS, RoomDef

DELTA: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
Cell = tuple[int, int]


def opposite(side: int) -> int:
    return (side + 2) % 4


def rotate(sides: Iterable[int], rotation: int) -> frozenset[int]:
    return frozenset((s + rotation) % 4 for s in sides)


def step(cell: Cell, side: int) -> Cell:
    dx, dy = DELTA[side]
    return (cell[0] + dx, cell[1] + dy)


#: Every set of sides in order: door sets are frozensets (tested for a side often), walked in order here.
SORTED_SIDES: dict[frozenset[int], tuple[int, ...]] = {
    frozenset(s for s in range(4) if bits >> s & 1): tuple(s for s in range(4) if bits >> s & 1) for bits in range(16)
}


def door_rotations(rooms: Mapping[str, RoomDef]) -> dict[str, tuple[frozenset[int], ...]]:
    """Each room's world door sides for rotations 0-3."""
    return {r: tuple(rotate(d.doors, k) for k in range(4)) for r, d in rooms.items()}


def link_watchers(rooms: Mapping[str, RoomDef]) -> dict[str, frozenset[str]]:
    """For each room, the rooms whose ways out may change when it comes into the house or leaves
    it: both ends of every fixed link (strip, stairs, chute ...) that leads to it or whose
    ``requires`` names it. More rooms than need it is harmless (they only work their ways out
    again); one missing would keep a stale menu."""
    out: dict[str, set[str]] = {}
    for room in rooms.values():
        for c in room.connections:
            ends = {room.id, c.to}
            named = ends | {name for value in (c.requires or {}).values() for name in _names(value) if name in rooms}
            for name in named:
                out.setdefault(name, set()).update(ends)
    return {name: frozenset(ends) for name, ends in out.items()}


def _names(value: object) -> list[str]:
    """The names a ``requires`` value gives: one name, or a list of them (anything else: none)."""
    if isinstance(value, str):
        return [value]
    return [x for x in value if isinstance(x, str)] if isinstance(value, list | tuple) else []


# Spots and placements are named tuples rather than frozen dataclasses: a frozen dataclass is built
# field by field through object.__setattr__, and placing a tile makes one spot and trying its
# rotations a placement each, many times a turn.
class Spot(NamedTuple):
    """Where a room lies: floor, cell and rotation."""

    floor: str
    cell: Cell
    rotation: int


class Placement(NamedTuple):
    """A legal way to put a tile down: cell and rotation (and the door sides that result)."""

    cell: Cell
    rotation: int
    doors: frozenset[int]


class House:
    """Placed rooms by floor and cell. Mutable; ``copy()`` gives an independent house."""

    __slots__ = ("_floor_changes", "_free_cache", "_free_counts", "_near", "_rot", "_watchers", "grid", "rooms", "spots", "version")

    def __init__(self, rooms: Mapping[str, RoomDef], rotations: Mapping[str, tuple[frozenset[int], ...]] | None = None,
                 watchers: Mapping[str, frozenset[str]] | None = None) -> None:
        self.rooms = rooms
        # every room's door sides under each rotation (``door_rotations``; pass them in to share them)
        self._rot = rotations if rotations is not None else door_rotations(rooms)
        # the rooms whose fixed links depend on each room being placed (``link_watchers``; likewise)
        self._watchers = watchers if watchers is not None else link_watchers(rooms)
        # each room's changed_near(): the version of the last change at or next to it
        self._near: dict[str, int] = {}
        self.grid: dict[str, dict[Cell, str]] = {f: {} for f in FLOORS}
        self.spots: dict[str, Spot] = {}
        self.version = 0
        # changes per floor, so that a floor's free doorways are worked out again only when it changed
        self._floor_changes: dict[str, int] = dict.fromkeys(FLOORS, 0)
        self._free_cache: dict[str, tuple[int, list[tuple[str, int]]]] = {}
        # how many free doorways each floor has, by the floor's changes: kept up to date by a tile
        # placed or taken off (which changes only the doorways at its own cell), not walked again
        self._free_counts: dict[str, tuple[int, int]] = {}

    def copy(self) -> House:
        other = House(self.rooms, self._rot, self._watchers)
        other.grid = {f: dict(g) for f, g in self.grid.items()}
        other.spots = dict(self.spots)
        other.version = self.version
        other._near = dict(self._near)
        other._floor_changes = dict(self._floor_changes)
        return other

    # ---------------------------------------------------------------------------------------
    # Placing and removing

    def place(self, room: str, floor: str, cell: Cell, rotation: int) -> None:
        if cell in self.grid[floor]:
            raise ValueError(f"{floor} {cell} is taken by {self.grid[floor][cell]}")
        free = self._kept_free_count(floor)
        if free is not None:
            # the tile closes the doorways facing its cell and opens its own doors that face an empty cell
            free += self._open_sides(self.grid[floor], cell, self._rot[room][rotation % 4], None) - self.cell_blocks(floor, cell)
        self.grid[floor][cell] = room
        self.spots[room] = Spot(floor, cell, rotation % 4)
        self._changed(floor, free)
        self._touch(room, floor, cell)

    def remove(self, room: str) -> Spot:
        spot = self.spots.pop(room)
        grid = self.grid[spot.floor]
        del grid[spot.cell]
        free = self._kept_free_count(spot.floor)
        if free is not None:
            # the reverse of placing it: its doors that faced an empty cell close, those facing its cell open
            free += self.cell_blocks(spot.floor, spot.cell) - self._open_sides(grid, spot.cell, self._rot[room][spot.rotation], None)
        self._changed(spot.floor, free)
        self._touch(room, spot.floor, spot.cell)
        return spot

    def _kept_free_count(self, floor: str) -> int | None:
        """The floor's free doorways as counted for it as it is now (None: not counted since it changed)."""
        counted = self._free_counts.get(floor)
        return counted[1] if counted is not None and counted[0] == self._floor_changes[floor] else None

    def _changed(self, floor: str, free: int | None) -> None:
        """A tile was placed on or taken off ``floor``, which now has ``free`` free doorways (None: not counted)."""
        self.version += 1
        self._floor_changes[floor] += 1
        if free is not None:
            self._free_counts[floor] = (self._floor_changes[floor], free)

    def _touch(self, room: str, floor: str, cell: Cell) -> None:
        """``room`` was placed at or taken off ``cell``: the rooms whose ways out this can change (the
        room, the rooms in the four cells around, the rooms whose fixed links join or require it)
        are marked with the new version."""
        version = self.version
        near = self._near
        near[room] = version
        grid = self.grid[floor]
        x, y = cell
        for dx, dy in DELTA:
            other = grid.get((x + dx, y + dy))
            if other is not None:
                near[other] = version
        for other in self._watchers.get(room, ()):
            near[other] = version

    def changed_near(self, room: str) -> int:
        """The house's :attr:`version` when a tile last came to or left the room's own cell, a cell
        next to it, or a room one of its fixed links joins or requires (0: never). The room's ways
        out (which doors meet a door, which face an empty cell, which fixed links lead somewhere)
        read nothing else of the house, so they stay as they are while this does: the menus keep
        them by it rather than by :attr:`version`, which every tile anywhere changes."""
        return self._near.get(room, 0)

    def __contains__(self, room: object) -> bool:
        return room in self.spots

    def floor_of(self, room: str) -> str:
        return self.spots[room].floor

    def doors(self, room: str) -> frozenset[int]:
        """World sides of the room's usable doors (the front door is not one)."""
        return self._rot[room][self.spots[room].rotation]

    def doors_in_order(self, room: str) -> tuple[int, ...]:
        """:meth:`doors` in side order (north first), as menus list them."""
        return SORTED_SIDES[self._rot[room][self.spots[room].rotation]]

    def room_at(self, floor: str, cell: Cell) -> str | None:
        return self.grid[floor].get(cell)

    def neighbours(self, room: str) -> list[str]:
        """The rooms in the four cells beside ``room`` on its floor (north, east, south, west),
        whether or not a door joins them (a wall between them: monsters that go through walls)."""
        spot = self.spots[room]
        grid = self.grid[spot.floor]
        return [other for other in (grid.get(step(spot.cell, side)) for side in range(4)) if other is not None]

    def rooms_on(self, floor: str) -> list[str]:
        return sorted(self.grid[floor].values())

    # ---------------------------------------------------------------------------------------
    # Doors and links

    def door_neighbour(self, room: str, side: int) -> tuple[str | None, bool]:
        """Beyond the room's door on ``side``: (room there or None if empty, whether the doors meet)."""
        # step(), opposite() and doors() inlined: movement, distances and monsters ask this all the time
        spot = self.spots[room]
        x, y = spot.cell
        dx, dy = DELTA[side]
        other = self.grid[spot.floor].get((x + dx, y + dy))
        if other is None:
            return None, False
        return other, (side + 2) % 4 in self._rot[other][self.spots[other].rotation]

    def free_doorways(self, floor: str) -> list[tuple[str, int]]:
        """Doors on this floor that face an empty cell: the places the floor can still grow."""
        changes = self._floor_changes[floor]
        cached = self._free_cache.get(floor)
        if cached is not None and cached[0] == changes:
            return cached[1]
        out = []
        grid = self.grid[floor]
        for (x, y), room in sorted(grid.items()):
            for s in SORTED_SIDES[self._rot[room][self.spots[room].rotation]]:
                dx, dy = DELTA[s]  # step(), inlined: this walks every door of the floor
                if (x + dx, y + dy) not in grid:
                    out.append((room, s))
        self._free_cache[floor] = (changes, out)
        return out

    def free_count(self, floor: str) -> int:
        """How many free doorways the floor has (``len(free_doorways(floor))``, kept as tiles come and go)."""
        free = self._kept_free_count(floor)
        if free is None:
            free = len(self.free_doorways(floor))
            self._free_counts[floor] = (self._floor_changes[floor], free)
        return free

    def cell_blocks(self, floor: str, cell: Cell) -> int:
        """How many free doorways face this empty cell (they close if a tile goes there)."""
        grid = self.grid[floor]
        n = 0
        x, y = cell
        for side, (dx, dy) in enumerate(DELTA):
            other = grid.get((x + dx, y + dy))
            if other is not None and (side + 2) % 4 in self.doors(other):  # its door faces back: opposite(side)
                n += 1
        return n

    def open_besides(self, floor: str, cell: Cell) -> bool:
        """Whether the floor keeps a free doorway besides those facing the empty ``cell`` (so a tile
        there cannot seal it, whatever its doors). More than four free doorways always leave one:
        at most four face a cell, so the cell is looked at only when the floor is nearly closed."""
        free = self.free_count(floor)
        return free > 4 or free - self.cell_blocks(floor, cell) >= 1

    def free_after(self, floor: str, cell: Cell, doors: frozenset[int], ignore: str | None = None) -> int:
        """Free doorways the floor would have after a tile with world ``doors`` goes to ``cell``.

        ``ignore`` names a room being moved (the Mystic Elevator): it counts as already gone."""
        grid = self.grid[floor]
        if ignore is None:
            return self.free_count(floor) - self.cell_blocks(floor, cell) + self._open_sides(grid, cell, doors, None)
        free = 0
        for c, room in grid.items():
            if room == ignore:
                continue
            for s in self._rot[room][self.spots[room].rotation]:
                n = step(c, s)
                if n == cell:
                    continue
                beyond = grid.get(n)
                if beyond is None or beyond == ignore:
                    free += 1
        return free + self._open_sides(grid, cell, doors, ignore)

    @staticmethod
    def _open_sides(grid: Mapping[Cell, str], cell: Cell, doors: frozenset[int], ignore: str | None) -> int:
        """How many of ``doors`` (of a tile at ``cell``) would face an empty cell (or ``ignore``'s)."""
        x, y = cell
        free = 0
        for s in doors:
            dx, dy = DELTA[s]
            beyond = grid.get((x + dx, y + dy))
            if beyond is None or beyond == ignore:
                free += 1
        return free

    # ---------------------------------------------------------------------------------------
    # Legal placements

    def placements_at(
        self, room: str, floor: str, cell: Cell, entry: int, keep_open: bool
    ) -> list[Placement]:
        """Rotations of ``room`` at ``cell`` that put a door on world side ``entry`` (facing the
        doorway it is discovered through). Rotations giving the same door layout are one
        placement. With ``keep_open``, placements that leave the floor no free doorway are out."""
        seen: set[frozenset[int]] = set()
        out = []
        keep_open = keep_open and not self.open_besides(floor, cell)  # else no rotation can seal the floor
        for r, doors in enumerate(self._rot[room]):
            if entry not in doors or doors in seen:
                continue
            seen.add(doors)
            if keep_open and self.free_after(floor, cell, doors) == 0:
                continue
            out.append(Placement(cell, r, doors))
        return out

    def open_spots(self, room: str, floor: str, keep_open: bool, ignore: str | None = None) -> list[Placement]:
        """Every way to put ``room`` next to a free doorway of ``floor`` with one of its doors
        meeting that doorway (``ignore``: a room being moved, treated as absent)."""
        grid = self.grid[floor]
        targets: dict[Cell, set[int]] = {}
        for c, other in grid.items():
            if other == ignore:
                continue
            for s in self._rot[other][self.spots[other].rotation]:
                n = step(c, s)
                beyond = grid.get(n)
                if beyond is None or beyond == ignore:
                    targets.setdefault(n, set()).add(opposite(s))
        out = []
        turned = self._rot[room]
        # The floor's free doorways now (``ignore``'s left out): each target cell's set holds one side
        # per doorway facing it. A tile at a cell closes the doorways facing it and opens its own
        # doors that face empty cells: free_after() without walking the floor again for each rotation.
        free_now = sum(map(len, targets.values()))
        for cell in sorted(targets):
            seen: set[frozenset[int]] = set()
            for r, doors in enumerate(turned):
                if not doors & targets[cell] or doors in seen:
                    continue
                seen.add(doors)
                if keep_open and free_now - len(targets[cell]) + self._open_sides(grid, cell, doors, ignore) == 0:
                    continue
                out.append(Placement(cell, r, doors))
        return out
