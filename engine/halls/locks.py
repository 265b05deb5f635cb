"""Locking rooms (rules ``lock.*``): which rooms the MC may lock after a Key or a death. The path
rule itself is decided by :mod:`hauntcheck.checks.halls_locks`.
"""

from __future__ import annotations

from hauntcheck.checks.halls_locks import Cell, LockGrid, legal_locks, lock_is_safe
from hauntcheck.engine.core import Action
from hauntcheck.engine.halls.model import act_cell, num
from hauntcheck.engine.halls.search import SearchRules


class LockRules(SearchRules):
    """The locks of the MC phase."""

    def _st_mc_card_locks(self) -> None:
        mc = self.mc
        seat, n = mc["locks"][0] if mc["locks"] else ("", 0)
        if n > 0:
            opts = self.lock_options(explain=True)
            if opts:
                self.need(seat, "lock", [act_cell("lock", r, c) for r, c in opts])
                return
            self._ev("lock.none", "no room may be locked")
        mc["locks"] = []
        mc["step"] = "effects"
        self.stage = "mc"

    def _on_lock(self, action: Action) -> None:
        i = self.idx(num(action["row"]), num(action["col"]))
        room = self.rooms[i]
        room.locked = True
        room.up = False
        entry = self.mc["locks"][0]
        entry[1] -= 1
        if entry[1] <= 0:
            self.mc["locks"].pop(0)
        name = self.d.rooms[room.card].name
        self._ev("lock.apply", f"{self.participant(entry[0]).name}'s player locks {name} [{action['row']},{action['col']}]",
            seat=self.participant(entry[0]).seat, room=room.card, cell=[action['row'], action['col']])

    def lock_grid(self) -> LockGrid:
        locked = frozenset(self.cell(i) for i, r in enumerate(self.rooms) if r.locked)
        face_down = frozenset(self.cell(i) for i, r in enumerate(self.rooms) if not r.up and not r.locked)
        exits = frozenset(self.cell(i) for i, r in enumerate(self.rooms) if r.up and self.d.rooms[r.card].mode == "exit")
        hidden = len(self.d.exits) - len(exits)
        walkers = tuple(sorted({self.cell(p.pos) for p in self.living()} | {self.cell(self.killer.pos)}))
        bodies = frozenset(self.cell(p.pos) for p in self.pp if not p.alive and not p.searched)
        return LockGrid(self.rows, self.cols, locked, face_down, exits, hidden, walkers, bodies)

    def empty(self, i: int) -> bool:
        """Rule lock.empty."""
        r = self.rooms[i]
        return (not self.people_in(i) and self.killer.pos != i and not r.gift
                and not any(not p.alive and not p.searched and p.pos == i for p in self.pp))

    def key_available(self, i: int) -> bool:
        rd = self.rdef(i)
        return any(rd.rewards[k].reward == "key" for k in self.available_slots(i))

    def lock_options(self, explain: bool = False) -> list[Cell]:
        """Rules lock.candidates and lock.path, via checks.halls_locks. With ``explain``, events
        say which first-choice rooms (exhausted or starting) are refused and why: not empty
        (lock.empty) or cutting someone off (lock.path)."""
        first: list[Cell] = []
        second: list[Cell] = []
        occupied: list[int] = []
        for i, r in enumerate(self.rooms):
            if not r.up or r.locked or r.temp or self.d.rooms[r.card].mode == "exit":
                continue
            if not self.empty(i):
                if r.exhausted or r.start:
                    occupied.append(i)
                continue
            if r.exhausted or r.start:
                first.append(self.cell(i))
            elif not self.key_available(i):
                second.append(self.cell(i))
        grid = self.lock_grid()
        options = legal_locks(grid, first, second)
        if explain and not self.quiet:  # explanations only: nothing below changes the options
            if occupied:
                self._ev("lock.empty", "not empty, so not lockable: " + ", ".join(self.where(i) for i in occupied),
                         cells=[list(self.cell(i)) for i in occupied])
            blocked = [c for c in first if c not in options and not lock_is_safe(grid, c)]
            if blocked:
                self._ev("lock.path", "locking would cut someone off from an Exit, a body or an unexplored room: "
                         + ", ".join(self.where(self.idx(*c)) for c in blocked), cells=[list(c) for c in blocked])
            rule = "lock.candidates"
            self._ev(rule, "rooms that may be locked: " + (", ".join(self.where(self.idx(*c)) for c in options) or "none"),
                     cells=[list(c) for c in options])
        return options
