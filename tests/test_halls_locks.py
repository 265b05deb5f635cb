"""The Halls of Horror locked-room path rule (rules lock.path, lock.candidates) on hand-built grids
and under a Hypothesis state machine that locks, reveals and moves at random."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from hauntcheck.checks.halls_locks import (
    Cell,
    LockGrid,
    cut_off,
    legal_locks,
    lock_is_safe,
    lock_is_safe_brute,
    must_reach,
    paths_ok,
)


def test_ian_example_room_above_him_cannot_be_locked() -> None:
    """6.6's example: the exhausted room above Ian is his only way towards the Exits (his other
    neighbour is already locked), so locking it is refused; an exhausted room elsewhere is fine."""
    # 5 rows x 4 columns, Ian in the bottom-left starting room (4, 0); (4, 1) already locked.
    grid = LockGrid(
        rows=5, cols=4, locked=frozenset({(4, 1)}), exits=frozenset({(0, 2), (2, 3)}),
        walkers=((4, 0), (0, 0), (1, 3), (2, 1)),  # Ian, two other Participants, the Killer
    )
    assert paths_ok(grid)
    assert not lock_is_safe(grid, (3, 0))
    assert not lock_is_safe_brute(grid, (3, 0))
    assert lock_is_safe(grid, (1, 1))
    assert legal_locks(grid, [(3, 0), (1, 1)]) == [(1, 1)]
    assert cut_off(grid.with_lock((3, 0)))[0][0] == (4, 0)


def test_lock_refused_when_it_cuts_the_killer_from_a_body() -> None:
    # 3x3: body at (0, 2), Killer at (2, 0); locking the middle column's only open room cuts them.
    grid = LockGrid(rows=3, cols=3, locked=frozenset({(0, 1), (2, 1)}), walkers=((2, 0),), bodies=frozenset({(0, 2)}))
    assert paths_ok(grid)
    assert not lock_is_safe(grid, (1, 1))
    assert lock_is_safe(grid, (0, 0))


def test_hidden_exit_could_be_behind_the_lock() -> None:
    """Before all Exits are revealed a lock must not wall off any face-down room: the hidden Exit
    could be there. Once the Exits are known, the same lock becomes legal."""
    grid = LockGrid(rows=1, cols=4, face_down=frozenset({(0, 3)}), exits=frozenset({(0, 0)}), hidden_exits=1, walkers=((0, 0),))
    assert not lock_is_safe(grid, (0, 2))
    assert not lock_is_safe_brute(grid, (0, 2))
    revealed = LockGrid(rows=1, cols=4, exits=frozenset({(0, 0), (0, 1)}), walkers=((0, 0),))
    assert lock_is_safe(revealed, (0, 2))
    assert lock_is_safe(revealed, (0, 3))


def test_priority_classes() -> None:
    grid = LockGrid(rows=2, cols=3, exits=frozenset({(0, 0)}), walkers=((1, 0),))
    # A safe first-class room wins over the second class.
    assert legal_locks(grid, [(0, 2)], [(1, 2)]) == [(0, 2)]
    # No safe first-class room: the second class is used.
    cutting = LockGrid(rows=1, cols=3, exits=frozenset({(0, 2)}), walkers=((0, 0),))
    assert legal_locks(cutting, [(0, 1)], [(0, 2)]) == []
    assert legal_locks(grid, [], [(1, 2), (0, 2)]) == [(0, 2), (1, 2)]


def test_unlockable_kinds_of_room() -> None:
    grid = LockGrid(rows=2, cols=2, face_down=frozenset({(0, 1)}), exits=frozenset({(1, 1)}), walkers=((0, 0),), bodies=frozenset({(1, 0)}))
    for cell in [(0, 1), (1, 1), (0, 0), (1, 0)]:
        assert not lock_is_safe(grid, cell)


def _random_grid(draw: st.DrawFn) -> LockGrid:
    rows, cols = draw(st.integers(2, 5)), draw(st.integers(2, 5))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    walkers = tuple(draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3)))
    face_down = frozenset(draw(st.sets(st.sampled_from(cells))) - set(walkers))
    hidden = draw(st.integers(0, min(2, len(face_down))))
    open_cells = [c for c in cells if c not in face_down]
    exits = frozenset(draw(st.sets(st.sampled_from(open_cells), max_size=2 - hidden)))
    return LockGrid(rows, cols, face_down=face_down, exits=exits, hidden_exits=hidden, walkers=walkers)


@st.composite
def grids(draw: st.DrawFn) -> LockGrid:
    return _random_grid(draw)


def test_fast_rule_equals_the_definition() -> None:
    """lock_is_safe (reach every face-down room) equals the literal 'every placement' rule."""

    @settings(max_examples=150, deadline=None)
    @given(grids())
    def check(grid: LockGrid) -> None:
        for cell in itertools.product(range(grid.rows), range(grid.cols)):
            assert lock_is_safe(grid, cell) == lock_is_safe_brute(grid, cell)

    check()


class LockingMachine(RuleBasedStateMachine):
    """Locks legal rooms, reveals face-down rooms (some as Exits), moves walkers and drops bodies;
    after every step every walker must reach every revealed Exit, every body and every face-down
    room that could still hold an Exit."""

    @initialize(rows=st.integers(3, 5), cols=st.integers(3, 5), data=st.data())
    def setup(self, rows: int, cols: int, data: st.DataObject) -> None:
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        walkers = data.draw(st.lists(st.sampled_from(cells), min_size=2, max_size=4))
        self.rows, self.cols = rows, cols
        self.walkers: list[Cell] = list(walkers)
        self.face_down: set[Cell] = {c for c in cells if c not in walkers}
        self.hidden = 2
        self.exits: set[Cell] = set()
        self.locked: set[Cell] = set()
        self.bodies: set[Cell] = set()

    def grid(self) -> LockGrid:
        return LockGrid(self.rows, self.cols, frozenset(self.locked), frozenset(self.face_down), frozenset(self.exits),
                        self.hidden, tuple(self.walkers), frozenset(self.bodies))

    def open_cells(self) -> list[Cell]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols)
                if (r, c) not in self.locked and (r, c) not in self.face_down]

    def turn_up(self, cell: Cell, as_exit: bool) -> None:
        self.face_down.discard(cell)
        # The last face-down rooms must be the hidden Exits.
        if self.hidden and (as_exit or len(self.face_down) < self.hidden):
            self.hidden -= 1
            self.exits.add(cell)

    @rule(data=st.data())
    def lock(self, data: st.DataObject) -> None:
        grid = self.grid()
        empty = [c for c in self.open_cells() if c not in self.walkers and c not in self.bodies and c not in self.exits]
        legal = legal_locks(grid, empty)
        for cell in empty:
            if cell not in legal:
                assert not lock_is_safe(grid, cell)
        if legal:
            self.locked.add(data.draw(st.sampled_from(legal)))

    @precondition(lambda self: bool(self.face_down))
    @rule(data=st.data(), as_exit=st.booleans())
    def reveal(self, data: st.DataObject, as_exit: bool) -> None:
        self.turn_up(data.draw(st.sampled_from(sorted(self.face_down))), as_exit)

    @rule(data=st.data(), as_exit=st.booleans())
    def move(self, data: st.DataObject, as_exit: bool) -> None:
        i = data.draw(st.integers(0, len(self.walkers) - 1))
        r, c = self.walkers[i]
        steps = [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        steps = [s for s in steps if 0 <= s[0] < self.rows and 0 <= s[1] < self.cols and s not in self.locked]
        assume(steps)
        self.walkers[i] = data.draw(st.sampled_from(steps))
        if self.walkers[i] in self.face_down:
            self.turn_up(self.walkers[i], as_exit)

    @precondition(lambda self: len(self.walkers) > 1)
    @rule(data=st.data())
    def die(self, data: st.DataObject) -> None:
        i = data.draw(st.integers(0, len(self.walkers) - 1))
        self.bodies.add(self.walkers.pop(i))

    @invariant()
    def everyone_reaches_everything(self) -> None:
        grid = self.grid()
        assert paths_ok(grid), cut_off(grid)
        assert must_reach(grid) >= self.exits | self.bodies


TestLockingMachine = LockingMachine.TestCase
TestLockingMachine.settings = settings(max_examples=60, stateful_step_count=25, deadline=None,
                                       suppress_health_check=[HealthCheck.filter_too_much])
