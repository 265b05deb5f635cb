"""Haunt 50, Treasure Hunt: the Clues scattered face down, the repeatable banded search with its
bonuses and risky Clues, a Clue's trap when it is taken, and the lone finder's win."""

from __future__ import annotations

from betrayal_support import drive, forced, rolled

from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.core import Action

CLUES = [f"clue-{k:02d}" for k in range(1, 21)]
SYMBOL_ROOMS = {"symbol": ["omen", "item", "event"]}


def started(players: int = 3, seed: int = 3) -> HauntState:
    return forced(players, 50, seed)


def search(st: HauntState, seat: str, faces: list[int]) -> None:
    rolled(st._task(seat, Action.of("task", id="search-for-treasure")), [faces])


def test_every_clue_is_out_once_one_per_room_with_a_symbol() -> None:
    st = started()
    rooms = st._rooms_for(SYMBOL_ROOMS)
    lying = {t: st.htokens.get(t, []) for t in CLUES}
    assert all(len(r) <= 1 for r in lying.values())
    placed = sorted(r[0] for r in lying.values() if r)
    aside = [t for t in CLUES if st.pool.get(t, 0) == 1]
    assert sorted(placed) == sorted(rooms[:20]) and len(placed) + len(aside) == 20
    assert len(set(placed)) == len(placed)


def test_search_is_repeatable_and_costs_a_space_of_movement() -> None:
    st = started()
    seat = st.current
    assert seat is not None
    st.ex[seat].room = st._rooms_for(SYMBOL_ROOMS)[0]
    task = next(t for t in st.tasks_for(seat) if t["id"] == "search-for-treasure")
    st.held[seat] = []
    moved = st.turn.moved
    search(st, seat, [0] * 8)  # a total of 0: nothing
    assert st.turn.moved == moved + 1
    assert st._task_open(seat, task), "a second search in the same turn must be open"


def test_a_high_total_finds_the_treasure_and_wins_alone() -> None:
    st = started()
    seat = st.current
    assert seat is not None
    st.ex[seat].room = st._rooms_for(SYMBOL_ROOMS)[0]
    st.held[seat] = ["clue-09", "clue-01", "clue-02", "clue-03", "clue-04"]  # +3 anywhere, +5 for five Clues
    st.ex[seat].idx["knowledge"] = 4
    search(st, seat, [2] * 8)
    assert "treasure-finder" in st.hstatus.get(seat, [])
    assert st._check_wins()
    assert st.result is not None and st.result.winners == (seat,)


def test_a_risky_clue_kills_on_a_total_under_13() -> None:
    st = started()
    seat = st.current
    assert seat is not None
    windows = ("chapel", "dining-room", "tower", "balcony", "bedroom", "master-bedroom", "grand-staircase")
    room = next(r for r in windows if r in st.house.spots)  # the Grand Staircase is always in play
    st.ex[seat].room = room
    st.held[seat] = ["clue-15"]
    search(st, seat, [0] * 8)  # 0 + 1 Clue + 6 = 7, under 13
    assert st.ex[seat].dead


def test_taking_a_trap_clue_runs_its_effect() -> None:
    st = started()
    seat = st.current
    assert seat is not None
    here = st.ex[seat].room
    for t in CLUES:
        st.htokens[t] = []
    st.htokens["clue-17"] = [here]
    drive(st._outcome({"take_token": {"one_of": CLUES, "from": "room"}}, seat, None))
    assert "clue-17" in st.held[seat] and "poisoned" in st.hstatus[seat]
    assert not st.htokens["clue-17"]
