"""House graphs of Betrayal positions (networkx): reachability, sealed floors, line of sight, distance.

This module reads a Betrayal engine state - where each placed room lies (floor, cell, rotation),
the room definitions, the tokens and the passages cards made - and builds its own graph from
them. It deliberately does not call the engine's door, exit or distance helpers: it is an
independent reading of the rules, so that the two can disagree and a test can notice.

Rules encoded (ids in ``spec/betrayal/rules.yaml``):

* rooms on one floor are joined where two doors meet across a shared side
  (``move.through-matching-doors``); the starting strip joins its three rooms; the Grand
  Staircase and the Upper Landing are joined; the Foyer and the Stairs from Basement are joined
  once that room is in the house (``room.stairs-from-basement.foyer-link``);
* one-way links: the Coal Chute slides to the Basement Landing, the Collapsed Room falls to the
  room with the Below Collapsed Room token, the Gallery drops to the Ballroom once it is placed;
* a two-sided barrier room (Chasm, Catacombs, Tower) is two nodes, one per side, joined by a
  crossing edge (the crossing needs a roll but no movement); each door belongs to one side;
* passages made by cards (Secret Passage, Secret Stairs tokens) join their two rooms;
* the Mystic Elevator is wherever its tile stands now;
* a floor is sealed when no door of its rooms faces an empty square while room tiles for that
  floor remain (``discover.no-sealed-floor``);
* line of sight runs along one row or column of one floor through rooms joined door to door,
  never across a barrier (``glossary.line-of-sight``); distance is the number of room-to-room
  steps (crossing a barrier is not a step).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from hauntcheck.checks.verify import FAMILIES, Failure, FamilyResult, GameContext

FLOORS: tuple[str, ...] = ("ground", "upper", "basement")
#: World side -> (dx, dy); north is +y, sides clockwise from north.
STEP: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))
SIDE_NAMES: tuple[str, ...] = ("north", "east", "south", "west")
ENTRANCE = "entrance-hall"
#: Link kinds a character walks (the others move you by a room's text).
WALKED = frozenset({"door", "strip", "stairs", "secret-stairs", "passage", "barrier"})


def _opposite(side: int) -> int:
    return (side + 2) % 4


@dataclass(frozen=True)
class Placed:
    """A placed room as this module reads it from a state."""

    room: str
    floor: str
    cell: tuple[int, int]
    doors: frozenset[int]  # world sides
    parts: tuple[int, ...]  # world side of each barrier part's door (two parts) or ()


def placed_rooms(state: Any) -> dict[str, Placed]:
    """Every placed room: floor, cell, world door sides (local sides turned by the rotation, a
    quarter turn clockwise each) and, for two-sided barrier rooms, each side's door."""
    out: dict[str, Placed] = {}
    for room, spot in state.house.spots.items():
        rdef = state.t.rooms[room]
        turn = int(spot.rotation) % 4
        doors = frozenset((int(s) + turn) % 4 for s in rdef.doors)
        parts = tuple((int(s) + turn) % 4 for s in rdef.barrier) if len(rdef.barrier) >= 2 else ()
        out[room] = Placed(room, str(spot.floor), (int(spot.cell[0]), int(spot.cell[1])), doors, parts)
    return out


def node_of(placed: Placed, side: int | None = None) -> str:
    """The graph node for a room, or for the side of a barrier room whose door faces ``side``."""
    if not placed.parts:
        return placed.room
    part = placed.parts.index(side) if side in placed.parts else 0
    return f"{placed.room}#{part}"


def nodes_of(placed: Placed) -> list[str]:
    return [f"{placed.room}#{i}" for i in range(len(placed.parts))] if placed.parts else [placed.room]


def _token_rooms(state: Any, token: str) -> list[str]:
    return sorted(room for room, tokens in getattr(state, "tokens", {}).items() if token in tokens)


def house_graph(state: Any) -> nx.MultiDiGraph:
    """The house as a directed multigraph. Nodes are room ids (``room#0``/``room#1`` for the two
    sides of a barrier room) with ``room``, ``floor`` and ``cell`` attributes; edges carry
    ``kind`` (door, strip, stairs, secret-stairs, chute, fall, jump, passage, barrier) and
    ``tiles`` (1 for a step into another room, 0 for crossing a barrier). Two-way links are two
    edges."""
    rooms = placed_rooms(state)
    graph = nx.MultiDiGraph()
    by_cell: dict[tuple[str, tuple[int, int]], Placed] = {(p.floor, p.cell): p for p in rooms.values()}
    for p in rooms.values():
        for node in nodes_of(p):
            graph.add_node(node, room=p.room, floor=p.floor, cell=p.cell)
        if p.parts:
            graph.add_edge(f"{p.room}#0", f"{p.room}#1", kind="barrier", tiles=0)
            graph.add_edge(f"{p.room}#1", f"{p.room}#0", kind="barrier", tiles=0)

    def link(a: str, b: str, kind: str, two_way: bool, side_a: int | None = None, side_b: int | None = None) -> None:
        if a not in rooms or b not in rooms or a == b:
            return
        na, nb = node_of(rooms[a], side_a), node_of(rooms[b], side_b)
        graph.add_edge(na, nb, kind=kind, tiles=1)
        if two_way:
            graph.add_edge(nb, na, kind=kind, tiles=1)

    for p in rooms.values():
        for side in sorted(p.doors):
            dx, dy = STEP[side]
            other = by_cell.get((p.floor, (p.cell[0] + dx, p.cell[1] + dy)))
            if other is not None and _opposite(side) in other.doors:
                link(p.room, other.room, "door", False, side, _opposite(side))
        for c in state.t.rooms[p.room].connections:
            kind = str(c.kind)
            if kind == "fall":
                for target in _token_rooms(state, str(c.to)):
                    link(p.room, target, "fall", False)
                continue
            target = str(c.to)
            if target not in rooms:
                continue  # links to a room not yet placed (Stairs from Basement, Ballroom) wait
            faces = None if c.side is None else (int(c.side) + int(state.house.spots[p.room].rotation)) % 4
            # A two-way link listed on one room only is still two-way.
            link(p.room, target, kind, str(c.direction) == "both", faces)
    for a, b, *_ in getattr(state, "links", ()):
        link(str(a), str(b), "passage", True)
    return graph


# --------------------------------------------------------------------------------------------
# Floors and reachability


def tiles_left(state: Any, floor: str) -> int:
    """Room tiles still to come that may go on ``floor`` (stack, set aside, not yet shuffled)."""
    pending = list(getattr(state, "stack", ())) + list(getattr(state, "aside", ())) + list(getattr(state, "unshuffled_rooms", ()))
    return sum(1 for r in pending if floor in state.t.rooms[r].floors)


def free_doorways(state: Any, floor: str) -> list[tuple[str, str]]:
    """(room, side name) for every door on ``floor`` that faces an empty square."""
    rooms = placed_rooms(state)
    taken = {p.cell for p in rooms.values() if p.floor == floor}
    out = []
    for p in sorted(rooms.values(), key=lambda x: x.room):
        if p.floor != floor:
            continue
        for side in sorted(p.doors):
            dx, dy = STEP[side]
            if (p.cell[0] + dx, p.cell[1] + dy) not in taken:
                out.append((p.room, SIDE_NAMES[side]))
    return out


def sealed_floors(state: Any) -> list[str]:
    """Floors with room tiles still to come but no free doorway left to place them at."""
    return [f for f in FLOORS if tiles_left(state, f) > 0 and not free_doorways(state, f)]


@dataclass
class Reachability:
    """Which placed rooms the Entrance Hall reaches, which reach it, and which strand whoever is in
    them (reaching neither the Entrance Hall nor a doorway where the house can still grow)."""

    not_reached: list[str] = field(default_factory=list)
    no_way_back: list[str] = field(default_factory=list)
    stranded: list[str] = field(default_factory=list)
    one_way_only: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.stranded


def reached(neighbours: Mapping[str, Iterable[str]], sources: Iterable[str]) -> set[str]:
    """The sources and every node a path along ``neighbours`` leads to from one of them: with
    the graph's ``succ`` what they reach (networkx's ``descendants``, for many sources at once),
    with its ``pred`` what reaches them (``ancestors``)."""
    seen = set(sources)
    todo = list(seen)
    while todo:
        for node in neighbours[todo.pop()]:
            if node not in seen:
                seen.add(node)
                todo.append(node)
    return seen


def unreachable(state: Any) -> Reachability:
    """Reachability over the house graph, respecting one-way links.

    ``not_reached``: placed rooms the Entrance Hall cannot reach (a basement before the Stairs
    from Basement, say); ``no_way_back``: rooms that cannot reach the Entrance Hall;
    ``one_way_only``: rooms the Entrance Hall reaches that cannot get back to it (entered but not
    left); ``stranded``: rooms that reach neither the Entrance Hall nor a free doorway on a floor
    with tiles to come - nobody in them could ever get out, even by exploring."""
    graph = house_graph(state)
    rooms = placed_rooms(state)
    result = Reachability()
    if ENTRANCE not in rooms:
        result.not_reached = sorted(rooms)
        return result
    start = nodes_of(rooms[ENTRANCE])
    forward = reached(graph.succ, start)
    backward = reached(graph.pred, start)
    open_floors = [f for f in FLOORS if tiles_left(state, f) > 0]
    growing = {p.room for f in open_floors for p in rooms.values() if p.floor == f}
    doorway_rooms = {room for f in open_floors for room, _ in free_doorways(state, f)}
    exits = set(backward)
    for room in doorway_rooms & growing:
        exits.update(nodes_of(rooms[room]))
    escape = reached(graph.pred, exits)
    for room, p in sorted(rooms.items()):
        nodes = nodes_of(p)
        if not any(n in forward for n in nodes):
            result.not_reached.append(room)
        if not any(n in backward for n in nodes):
            result.no_way_back.append(room)
            if any(n in forward for n in nodes):
                result.one_way_only.append(room)
        if not any(n in escape for n in nodes):
            result.stranded.append(room)
    return result


# --------------------------------------------------------------------------------------------
# Line of sight and distance


def _side_toward(a: tuple[int, int], b: tuple[int, int]) -> int | None:
    if a[0] == b[0] and b[1] != a[1]:
        return 0 if b[1] > a[1] else 2
    if a[1] == b[1] and b[0] != a[0]:
        return 1 if b[0] > a[0] else 3
    return None


def line_of_sight(state: Any, a: str, b: str, part_a: int | None = None, part_b: int | None = None) -> bool:
    """Whether a straight line of connected doors runs from room ``a`` to room ``b``: same floor,
    same row or column, every room between them present and joined door to door on both sides,
    and no barrier crossed (a line through a two-sided barrier room enters one side and leaves by
    the other). ``part_a``/``part_b`` name the side of a barrier room the looker stands on.
    A room sees itself."""
    rooms = placed_rooms(state)
    if a not in rooms or b not in rooms:
        return False
    pa, pb = rooms[a], rooms[b]
    if a == b:
        return True
    if pa.floor != pb.floor:
        return False
    side = _side_toward(pa.cell, pb.cell)
    if side is None:
        return False
    by_cell = {p.cell: p for p in rooms.values() if p.floor == pa.floor}
    strip = _strip_sides(state, rooms)
    dx, dy = STEP[side]

    def opens(p: Placed, s: int) -> bool:
        return s in p.doors or s in strip.get(p.room, ())

    if pa.parts and part_a is not None and pa.parts[part_a] != side:
        return False
    if pb.parts and part_b is not None and pb.parts[part_b] != _opposite(side):
        return False
    cell = pa.cell
    here = pa
    while here is not pb:
        if not opens(here, side):
            return False
        cell = (cell[0] + dx, cell[1] + dy)
        there = by_cell.get(cell)
        if there is None or not opens(there, _opposite(side)):
            return False
        if there is not pb and there.parts:
            return False  # entering one side and leaving by the other crosses the barrier
        here = there
    return True


def _strip_sides(state: Any, rooms: dict[str, Placed]) -> dict[str, set[int]]:
    """Open sides made by fixed links with a side (the starting strip's three rooms)."""
    out: dict[str, set[int]] = {}
    for room, p in rooms.items():
        turn = int(state.house.spots[room].rotation) % 4
        for c in state.t.rooms[room].connections:
            if c.side is not None and str(c.to) in rooms and rooms[str(c.to)].floor == p.floor:
                out.setdefault(room, set()).add((int(c.side) + turn) % 4)
    return out


def distance(state: Any, a: str, b: str, walked_only: bool = False) -> int | None:
    """Tiles apart: the fewest room-to-room steps from ``a`` to ``b`` along the house graph
    (one-way links only their way; crossing a barrier is no step). ``walked_only`` leaves out the
    links a room's text moves you along (chute, fall, jump). None when ``b`` cannot be reached."""
    graph = house_graph(state)
    if walked_only:
        drop = [(u, v, k) for u, v, k, kind in graph.edges(keys=True, data="kind") if kind not in WALKED]
        graph.remove_edges_from(drop)
    rooms = placed_rooms(state)
    if a not in rooms or b not in rooms:
        return None
    targets = set(nodes_of(rooms[b]))
    best: int | None = None
    lengths = nx.multi_source_dijkstra_path_length(graph, set(nodes_of(rooms[a])), weight=_tiles)
    for node, length in lengths.items():
        if node in targets and (best is None or length < best):
            best = int(length)
    return best


def _tiles(u: str, v: str, data: dict[Any, Any]) -> int:
    return int(min(d.get("tiles", 1) for d in data.values()))


def distances_from(state: Any, start: str, walked_only: bool = True) -> dict[str, int]:
    """Tiles from ``start`` to every room it reaches (see :func:`distance`)."""
    graph = house_graph(state)
    if walked_only:
        graph.remove_edges_from([(u, v, k) for u, v, k, kind in graph.edges(keys=True, data="kind") if kind not in WALKED])
    rooms = placed_rooms(state)
    if start not in rooms:
        return {}
    lengths = nx.multi_source_dijkstra_path_length(graph, set(nodes_of(rooms[start])), weight=_tiles)
    out: dict[str, int] = {}
    for node, length in lengths.items():
        room = str(graph.nodes[node]["room"])
        out[room] = min(out.get(room, int(length)), int(length))
    return out


def problems(state: Any) -> list[str]:
    """What must hold in every position once the starting tiles are laid: no floor sealed while
    tiles remain, no room stranded."""
    if ENTRANCE not in state.house.spots:
        return []
    out = [f"the {f} floor is sealed: {tiles_left(state, f)} tile(s) for it remain and no doorway is free" for f in sealed_floors(state)]
    reach = unreachable(state)
    out += [f"{room} is stranded: it reaches neither the Entrance Hall nor a free doorway" for room in reach.stranded]
    return out


def rooms_in(state: Any, names: Iterable[str]) -> list[str]:
    """The named rooms that are placed (helper for reports)."""
    rooms = placed_rooms(state)
    return [n for n in names if n in rooms]


# --------------------------------------------------------------------------------------------
# The verify family

#: Seeds of the random games (to the reveal) the verify family watches.
VERIFY_SEEDS: tuple[int, ...] = tuple(range(8))


def family_house(ctx: GameContext) -> FamilyResult:
    """The verify family: in seeded random Betrayal games up to the reveal, no floor is ever sealed
    and no room strands whoever is in it (checked after every step that changes the house); at
    the reveal, walking distances by this module and by the engine are compared (notes)."""
    from hauntcheck.engine.play import play, seeded_table
    from hauntcheck.engine.transcript import TranscriptHeader

    result = FamilyResult("house graph", ctx.game)
    if ctx.game != "betrayal":
        result.applies = False
        return result
    if ctx.spec is None or ctx.definition is None:
        result.skipped = "spec or engine did not load"
        return result
    for seed in VERIFY_SEEDS:
        players = 3 + seed % 4
        seen: set[tuple[int, int, int, int]] = set()
        found: list[str] = []

        def check(state: Any, step: Any, seen: set[tuple[int, int, int, int]] = seen, found: list[str] = found) -> None:
            key = (state.house.version, len(state.links), len(state.stack) + len(state.aside), sum(map(len, state.tokens.values())))
            if key in seen:
                return
            seen.add(key)
            found.extend(f"step {step.n}: {p}" for p in problems(state))

        header = TranscriptHeader(game=ctx.game, players=players, seed=seed)
        try:
            game = ctx.definition.new_game(ctx.spec, players, {})
            game.quiet = True  # only the positions are looked at: the events' texts need not be made
            final: Any = play(game, seeded_table(seed), header, stop="reveal", max_steps=5_000, on_step=check).state
        except Exception as exc:  # an engine crash is the engine's failure, reported by other families
            result.notes.append(f"seed {seed}: the game stopped with {type(exc).__name__}: {exc}")
            continue
        result.checked += len(seen)
        if found:
            where = f"hauntcheck play betrayal --players {players} --seed {seed}"
            result.failures.append(Failure(f"seed {seed} ({players} players): {found[0]}", counterexample=where))
        engine = getattr(final, "distances", None)
        if engine is not None and ENTRANCE in final.house.spots:
            ours = distances_from(final, ENTRANCE, walked_only=True)
            theirs = engine(ENTRANCE)
            diff = sorted(r for r in set(ours) | set(theirs) if ours.get(r) != theirs.get(r))
            if diff:
                shown = ", ".join(f"{r} {ours.get(r)} vs engine {theirs.get(r)}" for r in diff[:3])
                result.notes.append(f"seed {seed}: walking distances from the Entrance Hall disagree with the engine: {shown}")
    return result


def register() -> None:
    """Add the house-graph family to the verify report (once)."""
    if not any(name == "house graph" for name, _ in FAMILIES):
        FAMILIES.append(("house graph", family_house))


register()
