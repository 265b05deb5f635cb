"""Haunt 36, Better with Friends: flooding by the track (move_fewer, unpreventable damage), the
escape together from the Balcony or Tower (heroes_together_in), and the Rowboat's wins."""

from __future__ import annotations

from typing import Any

from betrayal_support import drive
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.betrayal.state.base import Turn


def started(players: int = 4) -> HauntState:
    return start_haunt(players, 36)


def rule(st: HauntState, side: str, rule_id: str) -> Any:
    own = st.hs.sides()[side] if st.hs is not None else None
    assert own is not None
    return next(r for r in [*own.turn_rules, *own.tasks] if r["id"] == rule_id)


def on_turn(st: HauntState, seat: str) -> None:
    st.current = seat
    st.turn = Turn(seat, start_room=st.ex[seat].room)


def test_move_fewer_takes_spaces_off_the_turn_but_never_below_its_floor() -> None:
    st = started()
    hero = st.living_heroes()[0]
    on_turn(st, hero)
    speed = st.speed(hero)
    assert st.movement_left(hero) == speed
    drive(st._outcome({"move_fewer": {"by": 2, "at_least": 1}}, hero, None))
    assert st.movement_left(hero) == max(1, speed - 2)
    drive(st._outcome({"move_fewer": {"by": 4, "at_least": 1}}, hero, None))
    assert st.movement_left(hero) == 1  # 6 fewer in all: the floor of 1 holds


def test_flooding_reaches_each_floor_as_the_track_rises() -> None:
    st = started()
    hero = st.living_heroes()[0]
    partial = rule(st, "heroes", "flooding-partial")["requires"]
    full = rule(st, "heroes", "flooding-full")["requires"]
    basement = next(r for r in st.house.spots if st.house.floor_of(r) == "basement")
    st.ex[hero].room = basement
    st.track = 0
    assert not st.pred(partial, hero) and not st.pred(full, hero)
    st.track = 1
    assert st.pred(partial, hero) and not st.pred(full, hero)
    st.track = 2
    assert not st.pred(partial, hero) and st.pred(full, hero)
    st.ex[hero].room = "entrance-hall"
    assert not st.pred(partial, hero) and not st.pred(full, hero)
    st.track = 3
    assert st.pred(partial, hero)
    st.track = 4
    assert st.pred(full, hero)


def test_the_heroes_escape_only_together_in_one_room_with_the_rowboat() -> None:
    st = started(4)
    escape = next(w for w in st.hs.sides()["heroes"].wins if w.id == "escaped-together") if st.hs else None
    assert escape is not None
    heroes = st.living_heroes()
    together = {"heroes_together_in": {"rooms": ["balcony", "tower"]}}
    for h in heroes:
        st.ex[h].room = "tower"
    assert st.pred(together)
    assert not st.pred(escape.when)  # nobody carries the Rowboat
    st.ex[heroes[-1]].room = "balcony"
    assert not st.pred(together)  # both escape rooms, but not one room
    st.ex[heroes[-1]].room = "tower"
    st.held.setdefault(heroes[0], []).append("rowboat")
    assert st.pred(escape.when)
    st.ex[heroes[-1]].dead = True  # a dead hero is not left behind, and half the heroes still live
    st.ex[heroes[-1]].room = "entrance-hall"
    assert st.pred(escape.when)


def test_four_blows_on_the_rowboat_then_a_fifth_success_disables_it() -> None:
    st = started(4)
    traitor = st.traitor()
    assert traitor is not None
    strike = rule(st, "traitor", "strike-rowboat")["requires"]
    disable = rule(st, "traitor", "disable-rowboat")["requires"]
    st.htokens["rowboat"] = [st.ex[traitor].room]
    assert st.pred(strike, traitor) and not st.pred(disable, traitor)
    for _ in range(4):
        drive(st._outcome({"earn": {"token": "might-roll", "put": "on-card"}}, traitor, None))
    assert not st.pred(strike, traitor) and st.pred(disable, traitor)
    st.htokens["rowboat"] = []  # carried away by a hero: out of the traitor's reach
    assert not st.pred(disable, traitor)
    win = next(w for w in st.hs.sides()["traitor"].wins if w.id == "rowboat-disabled") if st.hs else None
    assert win is not None and not st.pred(win.when)
    drive(st._outcome({"set_flag": "rowboat-disabled"}, traitor, None))
    assert st.pred(win.when)
