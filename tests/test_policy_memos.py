"""What the policy's turn works out once per spec object (policy/turn.py, readings.py, places.py, goals.py:
the tokens a side's tasks must hold, the long-shot rooms, each task's token room and its id, what
a task's rooms depend on, the bonuses for what is held, the rooms the goals name, the rituals and
the places earning counted tokens) gives what the plain reading of the spec at every decision
gives: checked at every decision of the golden policy games of the haunts whose rules use those
parts of the spec."""

from __future__ import annotations

import contextlib
import copy
import importlib
from collections.abc import Mapping
from typing import Any

import pytest

from hauntcheck.engine.betrayal.haunt import HERO, TOKEN_ROOM_HOOKS, HauntState
from hauntcheck.engine.betrayal.policy import goal_rooms, paths, policy
from hauntcheck.engine.betrayal.policy.attacks import _hopeless
from hauntcheck.engine.betrayal.policy.fields import _harmful_rooms, harmful_on_entry
from hauntcheck.engine.betrayal.policy.goals import _meeting_room
from hauntcheck.engine.betrayal.policy.memo import values_of
from hauntcheck.engine.betrayal.policy.places import _escort_places, _ritual_rooms, _win_token_rooms
from hauntcheck.engine.core import Action, Choices, GameState, Rng
from hauntcheck.engine.games import game_spec, get_game
from hauntcheck.engine.play import PolicyController, run_fast, seeded_table

# ``policy`` names the function in the package, so the module is looked up by its full name.
turn = importlib.import_module("hauntcheck.engine.betrayal.policy.turn")
readings = importlib.import_module("hauntcheck.engine.betrayal.policy.readings")

# Tasks that must hold tokens (34), rolled with every trait (34, 46, 48), done where a token lies (1,
# 34, 35, 46), in any of several places (8), once per place (1, 8, 11), with bonuses for what is held
# (50), on entry (27), repeated without limit (14, 35, 50); other rules that hold tokens (15, 50: not
# tasks, so not counted); monsters trapped in rooms (10), heroes gathering in a room (36), wins
# counting earned tokens (1, 8, 11, 14, 27, 46, 48), monsters the heroes escort (46).
HAUNTS = (1, 8, 10, 11, 14, 15, 27, 34, 35, 36, 46, 48, 50)
KINDS = ("token needs", "rooms", "tasks", "task rooms", "bonus rooms", "goal rooms", "rituals", "win tokens", "escorts")


def plain_token_needs(st: HauntState, side: str) -> dict[str, int]:
    out: dict[str, int] = {}
    if st.hs is None:
        return out
    for task in st.tasks_for(next((s for s in st.seat_ids if st.side.get(s) == side), st.seat_ids[0])):
        for value in values_of(task.get("requires", {}), "holds_tokens"):
            with contextlib.suppress(TypeError, ValueError):
                out[str(value["token"])] = max(out.get(str(value["token"]), 0), st._amount(value["count"]))
    return out


def plain_worth_trying(st: HauntState, room: str) -> bool:
    assert st.hs is not None
    for side in st.hs.sides().values():
        for task in side.tasks:
            if task.get("roll", {}).get("each_trait") and room in st._rooms_for(task.get("where", {})):
                return False
    return all(TOKEN_ROOM_HOOKS[h](st, room) for h in st.hooks_used if h in TOKEN_ROOM_HOOKS)


def plain_task(st: HauntState, side: str, task_id: str) -> Mapping[str, Any] | None:
    assert st.hs is not None
    own = st.hs.sides().get(side)
    return next((t for t in [*own.tasks, *own.actions] if t["id"] == task_id), None) if own else None


def plain_room_token(st: HauntState, task_id: str) -> str | None:
    assert st.hs is not None
    for side in st.hs.sides().values():
        for task in [*side.tasks, *side.actions]:
            if task["id"] == task_id:
                where = task.get("where", {})
                return str(where["room_with_token"]) if "room_with_token" in where else None
    return None


def plain_task_rooms(st: HauntState, seat: str, things: set[str] | None, holding_only: bool) -> list[str]:
    out: list[str] = []
    for task in st.tasks_for(seat):
        if any("take_item" in d for d in task.get("do", [])):
            continue
        if things is not None and not things & readings._found(task):
            continue
        if things is None and readings._found(task):
            continue
        if "requires" in task and not st.pred(task["requires"], seat):
            continue
        if _hopeless(st, seat, task) or harmful_on_entry(st, task):
            continue
        held = task.get("holding")
        if held and not all(st.holds(seat, h) for h in ([held] if isinstance(held, str) else held)):
            continue
        if holding_only and not any(st._carried(h) for h in ([held] if isinstance(held, str) else held or [])):
            continue
        if any(not turn._left_to_take(st, str(e["take_token"])) for e in task.get("success", []) + task.get("do", [])
               if "take_token" in e):
            continue
        places = [task["where"]] if "where" in task else [w["in"] for w in task.get("where_any", []) if "in" in w]
        spent = {u.split("/", 1)[1] for u in st.used_places if u.startswith(f"{task['id']}/")} \
            if task.get("reuse") == "once-per-place" else set()
        for where in places:
            with contextlib.suppress(NotImplementedError):
                out += [r for r in st._rooms_for(where) if r in st.house.spots and r not in spent]
    if out and any(t.get("timing") == "on-entry" for t in st.tasks_for(seat)):
        harmful = _harmful_rooms(st, seat)
        out = [r for r in out if r not in harmful]
    return out


def plain_bonus_rooms(st: HauntState, seat: str, task_id: str) -> list[str]:
    task = next((t for t in st.tasks_for(seat) if t["id"] == task_id), None)
    roll = task.get("roll") if task is not None else None
    if task is None or not isinstance(roll, Mapping):
        return []
    out: set[str] = set()
    for mod in roll.get("modifiers", ()):
        leaves = mod.get("when", {}).get("all", []) if "add" in mod else []
        held = [x["holding"] for x in leaves if "holding" in x]
        where = [x["in"] for x in leaves if "in" in x]
        if not held or not where or not all(st.holds(seat, h) for h in held if isinstance(h, str)):
            continue
        if "fatal_below" in mod:
            continue
        with contextlib.suppress(NotImplementedError):
            rooms = {r for w in where for r in st._rooms_for(w) if r in st.house.spots and r not in st.collapsed}
            if "where" in task:
                rooms &= set(st._rooms_for(task["where"]))
            out |= rooms
    return sorted(out)


def plain_goal_rooms(st: HauntState, side: str) -> list[str]:
    assert st.hs is not None
    rooms: list[str] = []
    if side == HERO:
        for mdef in st.hs.monsters.values():
            for rule in mdef.must:
                if rule.get("when") == "on-enter-or-start" and any("trap_monster" in f for f in rule.get("failure", [])):
                    rooms += [r for r in rule.get("where", {}).get("rooms", [])
                              if r in st.house.spots and f"{rule['id']}/{r}" not in st.used_places]
    own = st.hs.sides().get(side)
    if own is not None:
        rooms += _meeting_room(st, own.wins)
        for task in own.tasks:
            rooms += [r for r in task.get("where", {}).get("rooms", []) if r in st.house.spots and not (
                task.get("reuse") == "once-per-place" and f"{task['id']}/{r}" in st.used_places)]
    return sorted(set(rooms))


def plain_ritual_rooms(st: HauntState, seat: str) -> list[str]:
    out: list[str] = []
    for task in st.tasks_for(seat):
        if "roll" not in task or task.get("limit") != "unlimited" or "where" not in task:
            continue
        if "requires" in task and not st.pred(task["requires"], seat):
            continue
        with contextlib.suppress(NotImplementedError):
            out += [r for r in st._rooms_for(task["where"]) if r in st.house.spots]
    return out


def counted_tokens(p: Any) -> set[str]:
    """Every token a ``tokens_collected`` counts in a win's tree, outside ``not``."""
    out: set[str] = set()
    if isinstance(p, Mapping):
        spec = p.get("tokens_collected")
        if isinstance(spec, Mapping):
            out |= {str(t) for t in ([spec["token"]] if "token" in spec else spec.get("tokens", []))}
        for key, value in p.items():
            if key != "not":
                out |= counted_tokens(value)
    elif isinstance(p, list):
        for x in p:
            out |= counted_tokens(x)
    return out


def plain_win_token_rooms(st: HauntState, side: str) -> list[str]:
    assert st.hs is not None
    own = st.hs.sides().get(side)
    if own is None:
        return []
    counted = {t for win in own.wins for t in counted_tokens(win.when)}
    out: list[str] = []
    for task in own.tasks:
        earns = {str(e["earn"].get("token")) for e in task.get("success", []) + task.get("do", []) if "earn" in e}
        if earns & counted and "where" in task:
            out += [r for r in st._rooms_for(task["where"]) if r in st.house.spots]
    return out


def plain_escort_places(st: HauntState) -> dict[str, list[str]]:
    assert st.hs is not None
    out: dict[str, list[str]] = {}
    for act in [*st.hs.heroes_side.tasks, *st.hs.heroes_side.actions]:
        kind = act.get("target", {}).get("monster")
        mdef = st.hs.monsters.get(str(kind)) if kind is not None else None
        if mdef is None or not st._monster_raw(mdef).get("escort") or "where" not in act:
            continue
        with contextlib.suppress(NotImplementedError):
            out.setdefault(str(kind), []).extend(r for r in st._rooms_for(act["where"]) if r in st.house.spots)
    return out


def check(st: HauntState) -> dict[str, int]:
    """Compare the kept readings with the plain ones in this position; what was compared, by kind."""
    assert st.hs is not None
    seen = dict.fromkeys(KINDS, 0)
    for side in st.hs.sides():
        assert turn.token_needs(st, side) == plain_token_needs(st, side)
        seen["token needs"] += bool(plain_token_needs(st, side))
        for own in [*st.hs.sides()[side].tasks, *st.hs.sides()[side].actions]:
            task_id = str(own["id"])
            assert turn._side_task(st, side, task_id) is plain_task(st, side, task_id)
            assert turn._task_room_token(st, task_id) == plain_room_token(st, task_id)
            seen["tasks"] += 1
        assert goal_rooms(st, side) == plain_goal_rooms(st, side)
        seen["goal rooms"] += bool(plain_goal_rooms(st, side))
        assert _win_token_rooms(st, "", side) == plain_win_token_rooms(st, side)
        seen["win tokens"] += bool(plain_win_token_rooms(st, side))
    assert _escort_places(st) == plain_escort_places(st)
    seen["escorts"] += any(plain_escort_places(st).values())
    rooms = sorted(st.house.spots)
    assert turn._worth_trying(st, rooms) == [r for r in rooms if plain_worth_trying(st, r)]
    seen["rooms"] += len(rooms)
    for seat in st.seat_ids:
        if not st.in_play(seat):
            continue
        lacking = set(turn.wanted_cards(st, st.side.get(seat, HERO))) | set(st.pool)
        for things in (None, lacking):
            for holding_only in (False, True):
                kept = turn._task_rooms(st, seat, st.side.get(seat, HERO), things, holding_only)
                assert kept == plain_task_rooms(st, seat, things, holding_only)
                seen["task rooms"] += bool(kept)
        for task in st.tasks_for(seat):
            rooms = plain_bonus_rooms(st, seat, str(task["id"]))
            assert turn._bonus_rooms(st, seat, str(task["id"])) == rooms
            seen["bonus rooms"] += bool(rooms)
        assert sorted({r for i in readings._bonus_task_ids(st.tasks_for(seat)) for r in turn._bonus_rooms(st, seat, i)}) \
            == sorted({r for t in st.tasks_for(seat) for r in plain_bonus_rooms(st, seat, str(t["id"]))})
        assert _ritual_rooms(st, seat) == plain_ritual_rooms(st, seat)
        seen["rituals"] += bool(plain_ritual_rooms(st, seat))
    return seen


@pytest.mark.parametrize("haunt", HAUNTS)
def test_kept_spec_readings_equal_plain_ones_at_every_decision(haunt: int) -> None:
    definition = get_game("betrayal")
    spec = game_spec("betrayal")
    cases = [c for c in definition.golden if c.controller == "policy" and c.options.get("haunt") == haunt]
    assert cases, f"haunt {haunt} has golden policy games"
    seen = dict.fromkeys(KINDS, 0)

    def checked(state: GameState, legal: Choices, rng: Rng) -> Action:
        if isinstance(state, HauntState) and state.hs is not None:
            for kind, n in check(state).items():
                seen[kind] += n
        return policy(state, legal, rng)

    for case in cases:
        state = definition.new_game(spec, case.players, case.options)
        run_fast(state, seeded_table(case.seed, PolicyController(checked, case.seed)))
    assert seen["rooms"] > 100
    assert seen["tasks"] > 100 or haunt == 10  # haunt 10's sides have no tasks
    if haunt == 34:  # its tasks ask for held tokens (Keys): the check met some
        assert seen["token needs"] > 0
    if haunt in (1, 8, 34, 35, 46):  # their tasks have rooms to go to: the check met some
        assert seen["task rooms"] > 0
    met = {50: ["bonus rooms"], 10: ["goal rooms"], 36: ["goal rooms"], 35: ["rituals"], 46: ["win tokens", "escorts"]}
    for kind in met.get(haunt, []):  # the part of the spec the haunt is here for was met in a position
        assert seen[kind] > 0, (kind, seen)


# Houses that grow during the haunt phase; in their golden games a room also moves (1, 27), a room is
# taken away (31), links are made (22) or rooms fall (5): the graph is then rebuilt, and grown again
# from that. The grown graph must be the rebuilt one.
GROWING = (1, 3, 5, 10, 22, 27, 31, 34, 35, 40, 42)


@pytest.mark.parametrize("haunt", GROWING)
def test_a_grown_graph_equals_the_rebuilt_one_at_every_decision(haunt: int) -> None:
    definition = get_game("betrayal")
    spec = game_spec("betrayal")
    cases = [c for c in definition.golden if c.controller == "policy" and c.options.get("haunt") == haunt]
    compared: list[bool] = []  # whether each layout compared was grown rather than rebuilt

    def checked(state: GameState, legal: Choices, rng: Rng) -> Action:
        choice = policy(state, legal, rng)  # makes the layout first, as play does
        if isinstance(state, HauntState) and state.hs is not None:
            fresh = copy.copy(state)
            fresh._graph_key = None
            lay = paths.layout(state)
            assert lay.graph == fresh._graph()
            compared.append(lay.graph is not state._graph_cache)
        return choice

    for case in cases:
        state = definition.new_game(spec, case.players, case.options)
        run_fast(state, seeded_table(case.seed, PolicyController(checked, case.seed)))
    assert len(compared) > 100
    assert any(compared)  # some layouts were grown, not the game's rebuilt graph
