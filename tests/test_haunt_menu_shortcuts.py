"""The haunt turn menu's shortcuts must give what the full computation gives, at every step of
seeded random games of all 50 haunts:

- the filters that only a status can make do anything (blocks, carrying, pulls, walls, barred
  rooms, a status's room costs and burdens) are skipped for an explorer without statuses
  (``haunt/turns.py`` ``_turn_actions`` and ``_move_actions``, ``haunt/base.py`` ``movement_left``):
  the menu and the movement left of the explorer whose turn it is must be the same when every
  explorer is given a status that means nothing, which sends every one of them down the full path;
- what decides whether a task is open that the task itself fixes is worked out once per haunt
  file (``haunt/tasks.py`` ``TaskGate``): ``_task_open`` must agree, for every task and every
  explorer in play, with the test below read straight from the task, as the state is and with
  the flags the task sets all set.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from betrayal_support import haunt_walk

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.betrayal.haunt.tasks import task_gate
from hauntcheck.engine.games import game_spec

SPEC = game_spec("betrayal")
HAUNTS = sorted(hauntmod.haunt_tables(SPEC)[0])
SEEDS = (0, 1)
PLAYERS = (3, 4, 5, 6)
#: A status no haunt file declares: it blocks, carries, pulls and costs nothing, but an explorer
#: who has it is no longer an explorer without statuses.
INERT = "test-inert-status"


def menus_alike(st: HauntState) -> None:
    """The menu and movement left of the explorer whose turn it is are the same with the inert
    status given to everyone (the full path) as without it."""
    seats = [st.current] if st.in_play(st.current) else []
    quick = {s: (st._turn_actions(s), st.movement_left(s)) for s in seats}
    saved = {s: st.hstatus.get(s) for s in st.seat_ids}
    try:
        for s in st.seat_ids:
            st.hstatus[s] = [*(saved[s] or []), INERT]
        full = {s: (st._turn_actions(s), st.movement_left(s)) for s in seats}
    finally:
        for s, kept in saved.items():
            if kept is None:
                del st.hstatus[s]
            else:
                st.hstatus[s] = kept
    assert quick == full, f"haunt {st.hs.number if st.hs else '?'}, step {len(st.history)}"


def task_open_as_written(st: HauntState, seat: str, task: Mapping[str, Any]) -> bool:
    """Whether the task is open, every condition read from the task itself as it is checked."""
    keys = st.turn.keys
    if "roll" in task and "task-roll" in keys and task.get("limit") != "unlimited":
        return False
    if task.get("timing") == "instead-of-attack" and ("attack" in keys or st.turn.no_attack):
        return False
    if task.get("timing") in ("full-turn", "start-of-turn") and not st._turn_untouched():
        return False
    if task.get("limit") == "once-per-turn" and f"task:{task['id']}" in keys:
        return False
    if "exclusive_group" in task and f"group:{task['exclusive_group']}" in keys:
        return False
    if "after" in task and task["after"] not in st.done:
        return False
    flags = [str(eff["set_flag"]) for eff in task.get("success", []) + task.get("do", []) if "set_flag" in eff]
    if flags and all(f in st.hflags for f in flags):
        return False
    if task.get("after") and f"done-this-turn:{task['after']}" in keys:
        return False
    if "where" in task and not st._where_ok(seat, task["where"]):
        return False
    if "where_any" in task and st._task_places(seat, task) == []:
        return False
    if "where_any" in task and not any(st._where_ok(seat, w["in"]) for w in task["where_any"] if "in" in w) \
            and st._task_places(seat, task) is None:
        return False
    held = task.get("holding")
    if held and not all(st.holds(seat, h) for h in ([held] if isinstance(held, str) else held)):
        return False
    if "requires" in task and not st.pred(task["requires"], seat):
        return False
    if task.get("reuse") == "once-per-place" and st._task_places(seat, task) is None \
            and f"{task['id']}/{st.ex[seat].room}" in st.used_places:
        return False
    cost = task.get("cost", {}).get("movement", 0)
    return not (cost and st.movement_left(seat) < cost)


def tasks_alike(st: HauntState) -> None:
    """Every task's gate is the one worked out afresh, and it opens as the task reads; also with
    the flags its outcomes set all set (random play rarely gets a flag set while the task is
    otherwise open, and such a task is done)."""
    assert st.hs is not None
    tasks = {id(t): t for hero in (False, True) for traitor in (False, True) for t in st.hs.tasks_by(hero, traitor)}
    for task in tasks.values():
        gate = st._task_gate(task)
        assert gate == task_gate(task)
        flags = set(st.hflags)
        sets = tuple(str(eff["set_flag"]) for eff in task.get("success", []) + task.get("do", []) if "set_flag" in eff)
        for extra in ((), sets) if sets else ((),):
            st.hflags.update(extra)
            try:
                for seat in st.seat_ids:
                    if st.in_play(seat):
                        assert st._task_open(seat, task) == task_open_as_written(st, seat, task), \
                            f"haunt {st.hs.number}, step {len(st.history)}, {seat}, task {task['id']}, flags {extra}"
            finally:
                st.hflags.clear()
                st.hflags.update(flags)


def both_alike(st: HauntState) -> None:
    menus_alike(st)
    tasks_alike(st)


@pytest.mark.long
@pytest.mark.parametrize("number", HAUNTS)
def test_menu_shortcuts_match_the_full_path(number: int) -> None:
    checked = 0
    for k, seed in enumerate(SEEDS):
        checked += haunt_walk(number, seed, PLAYERS[(number + k) % len(PLAYERS)], both_alike)
    assert checked > 0, f"haunt {number}: no haunt-phase step was checked"
