"""The policy's shortcuts give what the long way gives, at every decision of golden policy games:
a seat's view left unentered (policy/decide.py ``_view_hides``) is one that :func:`seat_view`
would not have changed; the traitor's wins read once per side and monster kind
(policy/monsters.py ``_monster_wins``) give what the plain reading of the wins gives; what an
explorer holds as one set (policy/turn.py ``_holding``) is what :meth:`HauntState.holds` says,
thing by thing; and the loops that walk only the tasks their spec lets matter
(policy/readings.py ``tasks_that``) answer as the loops over every task did."""

from __future__ import annotations

import contextlib
import copy
import importlib
from typing import Any

import pytest

from hauntcheck.engine.betrayal.haunt import HauntState, Monster
from hauntcheck.engine.betrayal.haunt.concealment import concealed_view
from hauntcheck.engine.betrayal.haunt.views import seat_view
from hauntcheck.engine.betrayal.policy import monster_goal, policy, wanted_cards
from hauntcheck.engine.betrayal.policy.fields import harmful_on_entry
from hauntcheck.engine.betrayal.policy.memo import SpecMemo
from hauntcheck.engine.core import Action, Choices, GameState, Rng
from hauntcheck.engine.games import game_spec, get_game
from hauntcheck.engine.play import PolicyController, run_fast, seeded_table

# ``policy`` names the function in the package, so the modules are looked up by their full names.
attacks = importlib.import_module("hauntcheck.engine.betrayal.policy.attacks")
fields = importlib.import_module("hauntcheck.engine.betrayal.policy.fields")
decide = importlib.import_module("hauntcheck.engine.betrayal.policy.decide")
monsters = importlib.import_module("hauntcheck.engine.betrayal.policy.monsters")
readings = importlib.import_module("hauntcheck.engine.betrayal.policy.readings")
turn = importlib.import_module("hauntcheck.engine.betrayal.policy.turn")


def play_golden(haunt: int, look: Any) -> None:
    """Play every golden policy game of ``haunt``, calling ``look(state)`` before each haunt-phase
    decision the policy makes."""
    definition = get_game("betrayal")
    spec = game_spec("betrayal")
    cases = [c for c in definition.golden if c.controller == "policy" and c.options.get("haunt") == haunt]
    assert cases, f"haunt {haunt} has golden policy games"

    def checked(state: GameState, legal: Choices, rng: Rng) -> Action:
        if isinstance(state, HauntState) and state.hs is not None:
            look(state)
        return policy(state, legal, rng)

    for case in cases:
        state = definition.new_game(spec, case.players, case.options)
        run_fast(state, seeded_table(case.seed, PolicyController(checked, case.seed)))


def what_a_view_shows(st: HauntState) -> tuple[Any, ...]:
    """Everything :func:`seat_view` may take out of a state, copied."""
    return ({t: list(rooms) for t, rooms in st.htokens.items()}, {s: list(held) for s, held in st.hstatus.items()},
            dict(st.side), st.hidden)


# Hidden tokens and statuses (39), a hidden traitor (34, 43), concealed explorers (41), nothing hidden (1).
VIEWS = (1, 34, 39, 41, 43)


@pytest.mark.parametrize("haunt", VIEWS)
def test_a_view_left_unentered_is_one_seat_view_would_not_change(haunt: int) -> None:
    skipped = entered = 0

    def look(state: HauntState) -> None:
        nonlocal skipped, entered
        seat = state.to_move()
        if seat is None or seat not in state.ex:
            return
        view = concealed_view(state.seen_by(seat), seat)
        if decide._view_hides(view, seat):
            entered += 1
            return
        skipped += 1
        before = what_a_view_shows(view)
        with seat_view(view, seat):
            assert what_a_view_shows(view) == before, f"haunt {haunt}: seat_view changed the view of {seat}"

    play_golden(haunt, look)
    if haunt == 39:  # each side is kept from its hidden tokens or statuses: every view is entered
        assert entered > 0 and not skipped
    else:
        assert skipped > 20


def plain_monster_goal(st: HauntState, m: Monster) -> tuple[set[str], set[str], list[str]]:
    """The traitor's wins read at the decision, as the policy did before it kept them."""
    need_all: set[str] = set()
    need_any: set[str] = set()
    rooms: list[str] = []
    side = st.hs.traitor_side if st.hs is not None else None
    ruled = {str(eff["set_flag"]) for r in (side.rules if side is not None else ()) for eff in r.get("do", [])
             if "set_flag" in eff}
    for w in side.wins if side is not None else ():
        leaves = w.when.get("all", [w.when])
        if any("flag" in x and x["flag"] not in st.hflags and x["flag"] not in ruled for x in leaves):
            continue
        for h in [x["holds"] for x in leaves if "holds" in x and x["holds"].get("who", {}).get("monster") == m.kind]:
            need_all |= set(h.get("all", []))
            need_any |= set(h.get("any", []))
        for spot in [x["monster_in_room"] for x in leaves if "monster_in_room" in x and x["monster_in_room"]["monster"] == m.kind]:
            with contextlib.suppress(NotImplementedError):
                rooms += st._rooms_for(spot["room"])
    return need_all, need_any, rooms


# Traitor's wins asking a monster to hold a card and reach a room (1), one waiting for a flag first (20).
MONSTER_WINS = (1, 20)


@pytest.mark.parametrize("haunt", MONSTER_WINS)
def test_kept_monster_goals_equal_plain_ones_at_every_decision(haunt: int) -> None:
    met = 0

    def look(state: HauntState) -> None:
        nonlocal met
        for m in state.mon:
            goal = monster_goal(state, m)
            assert goal == plain_monster_goal(state, m), f"haunt {haunt}, {m.uid}"
            met += any(goal)

    play_golden(haunt, look)
    assert met > 0  # the wins ask something of its monsters: the check met it


HOLDING = (1, 5, 10, 27, 34, 35)


@pytest.mark.parametrize("haunt", HOLDING)
def test_holding_is_what_holds_says_thing_by_thing(haunt: int) -> None:
    compared = 0

    def look(state: HauntState) -> None:
        nonlocal compared
        things = {*state.t.cards, *state.pool, *(t for held in state.held.values() for t in held)}
        for side in state.hs.sides() if state.hs is not None else ():
            things |= wanted_cards(state, side)
        for seat in state.seat_ids:
            holding = turn._holding(state, seat)
            assert {w for w in things if state.holds(seat, w)} == holding & things
            assert holding <= things  # nothing held is left out of the comparison
            compared += len(holding)

    play_golden(haunt, look)
    assert compared > 0


def test_a_masked_traitor_is_hidden_from_every_other_seat_until_seen_by_masks_it() -> None:
    """In the game itself a masked hidden traitor is something :func:`seat_view` takes out for
    every other seat (not for the traitor); in a seat's own view (``seen_by``) it is out already."""
    definition = get_game("betrayal")
    case = next(c for c in definition.golden if c.controller == "policy" and c.options.get("haunt") == 34)
    state = definition.new_game(game_spec("betrayal"), case.players, case.options)
    table = seeded_table(case.seed, PolicyController(policy, case.seed))
    run_fast(state, table, stop="reveal")
    assert isinstance(state, HauntState)
    while state.hidden is None and state.to_move() is not None:  # the numbered tokens are dealt after the reveal
        run_fast(state, table, max_steps=1)
    assert state.hidden is not None
    game = copy.copy(state)
    game.unmasked = False
    others = [s for s in game.seat_ids if s != game.hidden]
    assert all(decide._view_hides(game, s) for s in others)
    assert not decide._view_hides(game, game.hidden)
    assert not any(decide._view_hides(game.seen_by(s), s) for s in others)  # seen_by masks it in a view


def plain_waits_on_work(st: HauntState, seat: str, things: set[str]) -> bool:
    return any(things & readings._yields(task) and "requires" in task and not st.pred(task["requires"], seat)
               for task in st.tasks_for(seat))


def plain_task_rooms_unfound(st: HauntState, seat: str) -> bool:
    for task in st.tasks_for(seat):
        if "requires" in task and not st.pred(task["requires"], seat):
            continue
        room = task.get("where", {}).get("room")
        if isinstance(room, str) and room not in st.house.spots and room in st.t.rooms:
            return True
        rooms = task.get("where", {}).get("rooms")
        if isinstance(rooms, list) and rooms and not any(r in st.house.spots for r in rooms):
            return True
    return False


def plain_carried_task_unfound(st: HauntState, seat: str) -> set[str]:
    out: set[str] = set()
    for task in st.tasks_for(seat):
        held = task.get("holding")
        rooms = task.get("where", {}).get("rooms")
        if isinstance(held, str) and st._carried(held) and st.holds(seat, held) and rooms \
                and not any(r in st.house.spots for r in rooms):
            out |= {f for r in rooms if r in st.t.rooms for f in st.t.rooms[r].floors}
    return out


def plain_body_tokens(st: HauntState, side: str) -> set[str]:
    assert st.hs is not None
    held = {str(t.get("holding")) for t in st.tasks_for(next((s for s in st.seat_ids if st.side.get(s) == side), st.seat_ids[0]))}
    return {k for k in held if k in st.hs.tokens and st.hs.tokens[k].left_on_death}


# Tasks gated by a flag another task sets (27, 43), tasks tied to rooms still in the stack (2, 42),
# bodies left only by a death (42), monsters that hide between appearances (16), on-entry rules that
# harm whoever enters (27, 45), and haunts with none of these (1, 10).
TASK_FILTERS = (1, 2, 10, 16, 27, 42, 43, 45)


@pytest.mark.parametrize("haunt", TASK_FILTERS)
def test_tasks_walked_by_their_spec_give_what_walking_every_task_gives(haunt: int) -> None:
    met = dict.fromkeys(("waits", "unfound", "carried", "bodies", "appearing", "dangers"), 0)

    def look(state: HauntState) -> None:
        assert state.hs is not None
        for side in state.hs.sides():
            bodies = plain_body_tokens(state, side)
            assert attacks._body_tokens(state, side) == bodies
            met["bodies"] += bool(bodies)
        appearing = [mdef for mdef in state.hs.monsters.values() if mdef.appears]
        assert list(turn._appearing(state.hs)) == appearing
        met["appearing"] += bool(appearing)
        for seat in state.seat_ids:
            if not state.in_play(seat):
                continue
            things = set(state.pool) | wanted_cards(state, state.side.get(seat, "heroes"))
            waits = plain_waits_on_work(state, seat, things)
            assert turn._waits_on_work(state, seat, things) == waits
            unfound = plain_task_rooms_unfound(state, seat)
            assert turn._task_rooms_unfound(state, seat, state.side.get(seat, "heroes")) == unfound
            carried = plain_carried_task_unfound(state, seat)
            assert turn._carried_task_unfound(state, seat) == carried
            dangers = [t for t in state.tasks_for(seat) if harmful_on_entry(state, t)]
            assert list(fields._entry_dangers(state, seat)) == dangers
            met["dangers"] += bool(dangers)
            met["waits"] += waits
            met["unfound"] += unfound
            met["carried"] += bool(carried)

    play_golden(haunt, look)
    expected = {27: "waits", 43: "waits", 2: "unfound", 42: "bodies", 16: "appearing", 45: "dangers"}
    if haunt in expected:  # the part of the spec the haunt is here for was met
        assert met[expected[haunt]] > 0, met


def plain_unload_rooms(st: HauntState, m: Monster) -> list[str]:
    return [r for rule in st.mdef(m).must if rule.get("when") == "on-enter-or-start" and "where" in rule
            and "roll" not in rule and (m.cards or st.held.get(m.uid) or st.mdef(m).carries)
            for r in st._rooms_for(rule["where"]) if r in st.house.spots]


def plain_ability_rooms(st: HauntState, m: Monster) -> list[str]:
    out: set[str] = set()
    home = m.room
    try:
        for ab in st.mdef(m).abilities:
            if ab.get("timing") != "monster-turn" or "where" not in ab:
                continue
            for room in st._rooms_for(ab["where"]):
                m.room = room
                if "requires" not in ab or st.pred(ab["requires"], None, m):
                    out.add(room)
    finally:
        m.room = home
    return sorted(out)


# Monsters that unload what they carry (14's Cultists), use an ability in a place (49's Spirit), give
# statuses (3's Witch), are trapped on entering a room (10), and plain monsters (1, 5).
MONSTER_READINGS = (1, 3, 5, 10, 14, 49)


@pytest.mark.parametrize("haunt", MONSTER_READINGS)
def test_a_monster_kinds_kept_readings_equal_plain_ones_at_every_decision(haunt: int) -> None:
    met = dict.fromkeys(("unload", "ability", "gives"), 0)

    def look(state: HauntState) -> None:
        for m in state.active_monsters():
            unload = plain_unload_rooms(state, m)
            assert monsters._unload_rooms(state, m) == unload
            ability = plain_ability_rooms(state, m)
            assert monsters._ability_rooms(state, m) == ability
            gives = readings._gives([d for ab in state.mdef(m).abilities for d in ab.get("success", []) + ab.get("do", [])])
            assert monsters._abilities_give(state.mdef(m)) == gives
            met["unload"] += bool(unload)
            met["ability"] += bool(ability)
            met["gives"] += bool(gives)

    play_golden(haunt, look)
    expected = {14: "unload", 49: "ability", 3: "gives"}
    if haunt in expected:  # the part of the monster's spec the haunt is here for was met
        assert met[expected[haunt]] > 0, met


def test_spec_memo_pairs_tell_equal_looking_spec_objects_apart() -> None:
    memo: SpecMemo[int] = SpecMemo()
    tasks, haunt, twin = ({"id": "t"},), {"number": 1}, {"number": 1}
    calls: list[str] = []

    def work(name: str, value: int) -> int:
        calls.append(name)
        return value

    assert memo.pair(tasks, haunt, "plain", lambda: work("first", 1)) == 1
    assert memo.pair(tasks, haunt, "plain", lambda: work("again", 9)) == 1  # kept
    assert memo.pair(tasks, twin, "plain", lambda: work("twin", 2)) == 2  # an equal haunt, but another object
    assert memo.pair(haunt, tasks, "plain", lambda: work("swapped", 3)) == 3  # the order counts
    assert memo.pair(tasks, haunt, "lacking", lambda: work("detail", 4)) == 4  # another detail
    assert calls == ["first", "twin", "swapped", "detail"]
