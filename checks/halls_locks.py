"""The Halls of Horror locked-room path rule, on the grid graph (rules ``lock.path``, ``lock.candidates``).

A room may be locked only if, afterwards, every living Participant and the Killer can still reach
every Exit and every unsearched body. Before all Exits are revealed the lock must be *guaranteed*
not to block: the rule has to hold for every way the unrevealed Exits could lie among the
face-down rooms. Since every face-down room could hold an unrevealed Exit, that is the same as
requiring every walker to reach every face-down room while an Exit is still hidden;
:func:`lock_is_safe_brute` checks the definition literally (every placement) and the tests hold
the two equal.

Locked rooms are impassable. Rooms temporarily closed around a Participant solving a puzzle are
passable here: they open again, and a path through them is not cut for good.

The functions are pure: they take a :class:`LockGrid` (a small description of the board) and
return answers; the engine and the tests build LockGrids from their own positions.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import networkx as nx

Cell = tuple[int, int]


@dataclass(frozen=True)
class LockGrid:
    """What the path rule needs to know about a board.

    ``walkers`` are the living Participants and the Killer; ``exits`` the revealed Exits;
    ``hidden_exits`` how many Exits are still face down somewhere among ``face_down``."""

    rows: int
    cols: int
    locked: frozenset[Cell] = frozenset()
    face_down: frozenset[Cell] = frozenset()
    exits: frozenset[Cell] = frozenset()
    hidden_exits: int = 0
    walkers: tuple[Cell, ...] = ()
    bodies: frozenset[Cell] = frozenset()
    _graph: nx.Graph | None = field(default=None, compare=False, repr=False)

    def cells(self) -> Iterable[Cell]:
        return ((r, c) for r in range(self.rows) for c in range(self.cols))

    def with_lock(self, cell: Cell) -> LockGrid:
        return LockGrid(self.rows, self.cols, self.locked | {cell}, self.face_down - {cell}, self.exits,
                        self.hidden_exits, self.walkers, self.bodies)


def grid_graph(rows: int, cols: int, blocked: Iterable[Cell] = ()) -> nx.Graph:
    """The rooms as a 4-neighbour grid graph, without the ``blocked`` (locked) rooms."""
    graph = nx.grid_2d_graph(rows, cols)
    graph.remove_nodes_from(list(blocked))
    return graph


def _targets(grid: LockGrid, exits: Iterable[Cell]) -> set[Cell]:
    return set(exits) | set(grid.bodies)


def _all_reach(graph: nx.Graph, walkers: Sequence[Cell], targets: set[Cell]) -> bool:
    for walker in walkers:
        if walker not in graph:
            return False
        component = nx.node_connected_component(graph, walker)
        if not targets <= component:
            return False
    return True


def must_reach(grid: LockGrid) -> set[Cell]:
    """Every room each walker must be able to reach: revealed Exits, bodies, and - while an Exit
    is hidden - every face-down room (any of them could be that Exit)."""
    targets = _targets(grid, grid.exits)
    if grid.hidden_exits > 0:
        targets |= set(grid.face_down)
    return targets


def reachable(rows: int, cols: int, blocked: frozenset[Cell], start: Cell) -> set[Cell]:
    """The rooms reachable from ``start`` through 4-neighbours on a ``rows`` x ``cols`` grid
    without the ``blocked`` rooms (empty when ``start`` is blocked or off the grid): the
    connected component of :func:`grid_graph` holding ``start``, without building the graph
    (the engine asks this for every lock candidate)."""
    if start in blocked or not (0 <= start[0] < rows and 0 <= start[1] < cols):
        return set()
    seen = {start}
    todo = [start]
    while todo:
        r, c = todo.pop()
        for cell in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if cell not in seen and 0 <= cell[0] < rows and 0 <= cell[1] < cols and cell not in blocked:
                seen.add(cell)
                todo.append(cell)
    return seen


def paths_ok(grid: LockGrid) -> bool:
    """Whether every walker reaches every room in :func:`must_reach` on the current board."""
    targets = must_reach(grid)
    components: list[set[Cell]] = []
    for walker in grid.walkers:
        if walker in grid.locked:
            return False
        component = next((c for c in components if walker in c), None)
        if component is None:
            component = reachable(grid.rows, grid.cols, grid.locked, walker)
            if not component:
                return False
            components.append(component)
        if not targets <= component:
            return False
    return True


def lock_is_safe(grid: LockGrid, cell: Cell) -> bool:
    """Rule ``lock.path``: locking ``cell`` keeps every walker connected to every Exit and body,
    for every placement of the hidden Exits. Face-down rooms, walkers' rooms, bodies and revealed
    Exits can never be locked, so they are refused here too."""
    if cell in grid.locked or cell in grid.face_down or cell in grid.exits or cell in grid.bodies:
        return False
    if cell in grid.walkers:
        return False
    return paths_ok(grid.with_lock(cell))


def lock_is_safe_brute(grid: LockGrid, cell: Cell) -> bool:
    """The rule's definition taken literally: for every way the hidden Exits could lie among the
    face-down rooms, every walker reaches every Exit and body after the lock. Slow; for tests."""
    if cell in grid.locked or cell in grid.face_down or cell in grid.exits or cell in grid.bodies or cell in grid.walkers:
        return False
    graph = grid_graph(grid.rows, grid.cols, grid.locked | {cell})
    hidden = min(grid.hidden_exits, len(grid.face_down))
    for placement in itertools.combinations(sorted(grid.face_down), hidden):
        if not _all_reach(graph, grid.walkers, _targets(grid, (*grid.exits, *placement))):
            return False
    return True


def legal_locks(grid: LockGrid, first_class: Iterable[Cell], second_class: Iterable[Cell] = ()) -> list[Cell]:
    """Rule ``lock.candidates``: the rooms of the first priority class (empty exhausted rooms and
    empty starting rooms) that are safe to lock; only if none is, the safe rooms of the second
    class (other empty rooms without an available Key). Sorted; empty when nothing may be locked."""
    first = sorted(c for c in set(first_class) if lock_is_safe(grid, c))
    if first:
        return first
    return sorted(c for c in set(second_class) if lock_is_safe(grid, c))


def cut_off(grid: LockGrid) -> list[tuple[Cell, Cell]]:
    """(walker, target) pairs that cannot reach each other: empty when :func:`paths_ok` holds."""
    graph = grid_graph(grid.rows, grid.cols, grid.locked)
    out: list[tuple[Cell, Cell]] = []
    for walker in grid.walkers:
        component = nx.node_connected_component(graph, walker) if walker in graph else set()
        out.extend((walker, t) for t in sorted(must_reach(grid)) if t not in component)
    return out
