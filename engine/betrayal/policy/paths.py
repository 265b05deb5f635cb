"""Distances over the house, kept from one decision to the next while the house stays the same.

The policy asks for the same distances many times: every decision of a turn, and every seat,
looks for the spaces to the same goal rooms. The house changes only when a tile is placed or
taken away, or a link or a fallen room is added; so the tables are kept for one house layout
(:class:`Layout`) and dropped when it changes.

A layout is known by the game's tables (``st.t``), its haunt (``st.hs``) and house (the objects
themselves, checked by identity) and the numbers that move when a room or a way between rooms
may have changed: the house's version (tiles placed or taken away), the links and the fallen
rooms - the same numbers the game keys its cached exits by (tiles drawn but not placed move
none of them). When they move, the game's rebuilt graph of rooms is compared with the layout's,
and the tables are kept if nothing changed. A table is what :meth:`HauntState._dist_to` gives
for the same goals on the same graph, so a cached answer never differs from a fresh one
(``tests/test_policy_paths.py`` checks both over many seeded games).

When the house has only grown since the last layout (tiles placed, none taken away or moved, the
same links and fallen rooms), the new layout's graph is the last one grown by the new rooms
(:func:`_grown`) instead of the game's graph rebuilt from every room's exits: a rebuild was a
quarter of the policy's time. ``tests/test_policy_memos.py`` compares the grown graph with a
rebuilt one at every decision of many golden games.

The tables are shared: callers read them, never change them (hence ``Mapping``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.betrayal.house import House, Spot
from hauntcheck.engine.betrayal.model import Tables


@dataclass
class Layout:
    """One house layout of one game, with the tables worked out on it so far."""

    tables: Any  # the game's spec tables (``st.t``): where the chutes go
    haunt: Any  # the haunt spec (``st.hs``): whether fallen rooms are ways through
    house: House
    version: tuple[int, int, int]
    graph: dict[str, set[str]]
    spots: dict[str, Spot]  # where each room of the house lay when the graph was made
    back: dict[str, set[str]] | None = None  # the graph with the chutes' one-way slides, walked backwards
    dist: dict[frozenset[str], dict[str, int]] = field(default_factory=dict)
    #: the same tables by the goals as asked (a list in its order): found without building the set
    by_goals: dict[tuple[str, ...], dict[str, int]] = field(default_factory=dict)
    avoiding: dict[tuple[frozenset[str], frozenset[str]], dict[str, int]] = field(default_factory=dict)
    open_rooms: tuple[int, list[tuple[str, str]]] | None = None  # by the house's own version (tiles placed or taken)
    #: :func:`frontier`'s answer by the house's version and the game's tile version (tiles drawn,
    #: set aside or shuffled back, floors closed: what the tiles left on a floor are counted by)
    frontier: tuple[tuple[int, int], list[str]] | None = None


# The layout of the game the policy played last: one game is played at a time, and a layout of
# another game (another house object) is simply replaced.
_last: Layout | None = None


def layout(st: HauntState) -> Layout:
    """The current layout of ``st``'s house, with the tables kept while it has not changed."""
    global _last
    version = (st.house.version, len(st.links), len(st.collapsed))
    kept = _last
    same_game = kept is not None and kept.tables is st.t and kept.haunt is st.hs and kept.house is st.house
    if kept is not None and same_game and kept.version == version:
        return kept
    grown = _grown(st, kept, version) if kept is not None and same_game else None
    graph = grown if grown is not None else st._graph()
    if kept is not None and same_game and (kept.graph is graph or kept.graph == graph):
        kept.version = version  # the numbers moved, the rooms and ways did not
        kept.spots = dict(st.house.spots)
        return kept
    _last = Layout(st.t, st.hs, st.house, version, graph, dict(st.house.spots))
    return _last


def _grown(st: HauntState, kept: Layout, version: tuple[int, int, int]) -> dict[str, set[str]] | None:
    """The graph :meth:`HauntState._graph` would build now, grown from ``kept``'s when the house has
    only gained rooms since (every room of it still where it was, the same links and fallen
    rooms); None otherwise. The ways of a room change only with what its exits look at: its doors'
    neighbouring cells, its printed connections and the links. So the new rooms' exits are added,
    and those of the rooms beside them, of the rooms with printed connections to them or with a
    requirement, and of the linked rooms are looked at again; every other room's exits are those
    the kept graph was made of (``tests/test_policy_memos.py`` compares the grown graph with a
    rebuilt one at every decision of many golden games)."""
    if kept.version[1:] != version[1:]:
        return None
    spots = st.house.spots
    if len(spots) <= len(kept.spots) or any(spots.get(room) is not spot for room, spot in kept.spots.items()):
        return None
    gone = set(st.collapsed) if st.hs is not None and any(s.collapse is not None for s in st.hs.sides().values()) else set()
    new = [room for room in spots if room not in kept.spots and room not in gone]
    graph = {room: set(ways) for room, ways in kept.graph.items()}
    for room in new:
        graph[room] = set()
    added = set(new)
    again = set(new)
    for room in new:
        again.update(st.house.neighbours(room))
    # a printed connection (stairs, a strip) counts once the room it leads to is placed, and one
    # with a requirement once that holds (the rooms in the house)
    again.update(room for room, ways in st.t_links.items() if room in graph
                 and any(to in added or requires for to, _kind, _cost, requires in ways))
    again.update(room for link in st.links for room in link[:2])
    for room in sorted(again & graph.keys()):
        for part in range(max(1, len(st.t.rooms[room].barrier))):
            for other, _, _ in st.exits_at(room, part):
                if other in graph:
                    graph[room].add(other)
                    graph[other].add(room)
    return graph


def dist_to(st: HauntState, goals: Iterable[str]) -> Mapping[str, int]:
    """Spaces from every room to the nearest of ``goals``, as :meth:`HauntState._dist_to` counts
    them (a breadth-first search backwards, with the one-way chutes that room text slides you
    down; goals not in the house count for nothing), worked out once per layout and set of goals."""
    lay = layout(st)
    asked = tuple(goals)
    kept = lay.by_goals.get(asked)
    if kept is not None:
        return kept  # the goals were asked in this order before (the turn's next step)
    key = frozenset(asked).intersection(lay.graph)
    table = lay.dist.get(key)
    if table is None:
        if lay.back is None:
            lay.back = {room: set(ways) for room, ways in lay.graph.items()}
            for top, bottom in st.t.derived("policy.chutes", _chutes):
                if top in lay.back and bottom in lay.back:
                    lay.back[bottom].add(top)  # walked backwards: from where it lands to its top
        table = lay.dist[key] = _search(lay.back, sorted(key), frozenset())
    lay.by_goals[asked] = table
    return table


def _chutes(t: Tables) -> tuple[tuple[str, str], ...]:
    """Every chute of the game's room tiles, as (the room it starts in, where it lands)."""
    return tuple((room.id, c.to) for room in t.rooms.values() for c in room.connections if c.kind == "chute")


def dist_avoiding(st: HauntState, goals: Iterable[str], avoid: set[str]) -> Mapping[str, int]:
    """Spaces from every room to the nearest of ``goals`` by ways that never pass through a room
    of ``avoid`` (a breadth-first search on the house graph without them, chutes not taken)."""
    lay = layout(st)
    key = (frozenset(g for g in goals if g in lay.graph and g not in avoid), frozenset(avoid))
    table = lay.avoiding.get(key)
    if table is None:
        table = lay.avoiding[key] = _search(lay.graph, sorted(key[0]), key[1])
    return table


def _search(graph: Mapping[str, set[str]], starts: list[str], avoid: frozenset[str]) -> dict[str, int]:
    """Breadth-first spaces from ``starts`` (never through ``avoid``). A room's spaces are the round
    it is first reached in, whatever the order within a round: the ways out of a room are not
    sorted (the tables are read by room, never in their order)."""
    frontier = starts
    dist = dict.fromkeys(frontier, 0)
    while frontier:
        nxt: list[str] = []
        for room in frontier:
            for other in graph[room]:
                if other not in dist and other not in avoid:
                    dist[other] = dist[room] + 1
                    nxt.append(other)
        frontier = nxt
    return dist


def frontier(st: HauntState) -> list[str]:
    """Rooms with a doorway that leads to no room yet, on floors whose room tiles are not all
    used up (where exploring can go on), in room order. The list is shared: not to be changed."""
    lay = layout(st)
    # every decision of a turn asks again, with the same tiles placed and left: kept by the same
    # numbers the room stack's own count of tiles left on a floor (``remaining_for``) is kept by
    key = (st.house.version, st._tile_version)
    if lay.frontier is not None and lay.frontier[0] == key:
        return lay.frontier[1]
    if lay.open_rooms is None or lay.open_rooms[0] != st.house.version:
        # a doorway facing an empty cell is what the house's free doorways list (cached per version)
        rooms = sorted({(room, floor) for floor in st.house.grid for room, _side in st.house.free_doorways(floor)})
        lay.open_rooms = (st.house.version, rooms)
    # the tiles left for a floor change with every tile drawn: asked afresh, once per floor
    left = {floor: st.remaining_for(floor) for floor in {floor for _room, floor in lay.open_rooms[1]}}
    found = [room for room, floor in lay.open_rooms[1] if left[floor]]
    lay.frontier = (key, found)
    return found
