"""The policy's distance tables, kept from one decision to the next (policy/paths.py), give what a
fresh search gives: checked at every decision of many golden policy games (every player count,
haunts with monsters, tasks, hidden traitors, collapsing and changing houses); and the policy's
memo of what it reads from spec objects (policy/memo.py) tells spec objects apart by identity."""

from __future__ import annotations

import copy
from collections.abc import Iterable

import pytest

from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.betrayal.policy import paths, policy
from hauntcheck.engine.betrayal.policy.memo import SpecMemo, values_of
from hauntcheck.engine.core import Action, Choices, GameState, Rng
from hauntcheck.engine.games import game_spec, get_game
from hauntcheck.engine.play import PolicyController, run_fast, seeded_table

# Haunts whose houses change during the haunt or whose policy leans on distances: monsters (1, 5),
# tasks (10), a hidden traitor with concealed seats (34), fields (27), collapse (40), the Mystic
# Elevator rides (35), escorts (42).
HAUNTS = (1, 5, 10, 27, 34, 35, 40, 42)


def fresh_graph_state(st: HauntState) -> HauntState:
    """A copy of ``st`` whose graph of rooms is rebuilt from the house on first use."""
    other = copy.copy(st)
    other._graph_key = None
    return other


def bfs(graph: dict[str, set[str]], goals: Iterable[str], avoid: set[str]) -> dict[str, int]:
    """Breadth-first spaces to the nearest goal, never through ``avoid`` (the plain definition)."""
    frontier = [g for g in goals if g in graph and g not in avoid]
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


def open_rooms(st: HauntState) -> list[str]:
    """Rooms with a doorway to no room yet on a floor with tiles left (the plain definition)."""
    return [r for r in sorted(st.house.spots) if st.remaining_for(st.house.floor_of(r))
            and any(st.house.door_neighbour(r, d)[0] is None for d in st.house.doors(r))]


def check(st: HauntState) -> int:
    """Compare the kept tables with fresh ones for a few goal sets; the number compared."""
    fresh = fresh_graph_state(st)
    graph = fresh._graph()
    rooms = sorted(graph)
    explorers = sorted({st.ex[s].room for s in st.seat_ids if st.in_play(s)})
    goal_sets = [explorers, rooms[:1], rooms[-1:], paths.frontier(st), ["no-such-room", *explorers[:1]]]
    assert paths.frontier(st) == open_rooms(st)
    for goals in goal_sets:
        assert dict(paths.dist_to(st, goals)) == fresh._dist_to(goals)
        avoid = set(rooms[1::3]) - set(goals[:1])
        assert dict(paths.dist_avoiding(st, goals, avoid)) == bfs(graph, goals, avoid)
    return len(goal_sets)


@pytest.mark.parametrize("haunt", HAUNTS)
def test_kept_distances_equal_fresh_ones_at_every_decision(haunt: int) -> None:
    definition = get_game("betrayal")
    spec = game_spec("betrayal")
    cases = [c for c in definition.golden if c.controller == "policy" and c.options.get("haunt") == haunt]
    assert cases, f"haunt {haunt} has golden policy games"
    compared = 0

    def checked(state: GameState, legal: Choices, rng: Rng) -> Action:
        nonlocal compared
        choice = policy(state, legal, rng)  # fills the tables first, as play does
        if isinstance(state, HauntState) and state.hs is not None:
            compared += check(state)
        return choice

    for case in cases:
        state = definition.new_game(spec, case.players, case.options)
        run_fast(state, seeded_table(case.seed, PolicyController(checked, case.seed)))
    assert compared > 100


def test_a_layout_is_kept_while_the_house_is_the_same_and_dropped_when_it_changes() -> None:
    definition = get_game("betrayal")
    case = next(c for c in definition.golden if c.controller == "policy" and c.options.get("haunt") == 1)
    state = definition.new_game(game_spec("betrayal"), case.players, case.options)
    table = seeded_table(case.seed, PolicyController(policy, case.seed))
    run_fast(state, table, stop="reveal")
    assert isinstance(state, HauntState)
    first = paths.layout(state)
    assert paths.layout(copy.copy(state)) is first  # a view of the same game shares it
    state._tile_version += 1  # a tile drawn, none placed: the house is the same
    assert paths.layout(fresh_graph_state(state)) is first
    room = sorted(state.house.spots)[0]
    spot = state.house.remove(room)  # a room taken away is a new layout
    try:
        assert paths.layout(fresh_graph_state(state)) is not first
    finally:
        state.house.place(room, spot.floor, spot.cell, spot.rotation)


def test_spec_memo_tells_equal_looking_spec_objects_apart() -> None:
    memo: SpecMemo[int] = SpecMemo()
    first, twin = {"id": "t"}, {"id": "t"}
    calls: list[str] = []

    def work(name: str, value: int) -> int:
        calls.append(name)
        return value

    assert memo.get((first,), "heroes", lambda: work("first", 1)) == 1
    assert memo.get((first,), "heroes", lambda: work("again", 9)) == 1  # kept
    assert memo.get((twin,), "heroes", lambda: work("twin", 2)) == 2  # equal, but another object
    assert memo.get((first,), "traitor", lambda: work("traitor", 3)) == 3  # another detail
    assert calls == ["first", "twin", "traitor"]


def test_values_of_finds_a_key_outside_not_branches_in_order() -> None:
    tree = {"all": [{"holds_tokens": {"token": "key", "count": 2}},
                    {"not": {"holds_tokens": {"token": "never"}}},
                    {"any": [{"holds_tokens": {"token": "lamp", "count": 1}}]}]}
    assert values_of(tree, "holds_tokens") == [{"token": "key", "count": 2}, {"token": "lamp", "count": 1}]
