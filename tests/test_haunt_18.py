"""Haunt 18, United We Stand: the traitor's flesh (no attack damage; Might and Speed held on the
track, each kill adding Might and taking Speed), the furnace fuse and the spreading fire (rooms
next to burned ones, doors or not, the floor links, the house falling with its starting rooms),
the front door, the wins, and the policy (no fight against untouchable flesh, exploring for the
Furnace Room)."""

from __future__ import annotations

from betrayal_support import drive, on_hero_turn, played_out, rolled

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState
from hauntcheck.engine.betrayal.hooks.h18_united_we_stand import fire_candidates
from hauntcheck.engine.betrayal.policy.turn import _best_attack
from hauntcheck.engine.betrayal.position import build_position, describe_position
from hauntcheck.engine.core import Action
from hauntcheck.engine.games import game_spec


def game(players: int = 4) -> tuple[HauntState, str, str]:
    """Just after the setup: a hero on its turn and the traitor."""
    return on_hero_turn(players, 18)


def test_the_traitors_might_and_speed_are_held_on_the_track_and_shift_with_each_kill() -> None:
    for players in (3, 6):
        st, _, traitor = game(players)
        assert st.value(traitor, "might") == 5 and st.value(traitor, "speed") == players + 1
        st.hero_kills[traitor] = 2
        assert st.value(traitor, "might") == 7 and st.value(traitor, "speed") == players - 1
        st.hero_kills[traitor] = players + 5
        assert st.value(traitor, "speed") == 1  # never below 1: it always moves a space


def test_a_hero_killed_in_the_traitors_attack_is_counted_and_grows_it() -> None:
    st, hero, traitor = game(3)
    st.ex[hero].room = st.ex[traitor].room
    st.current = traitor
    for t in ("might", "speed"):
        st.ex[hero].idx[t] = 1
    rolled(st._attack(traitor, Action.of("attack", target=hero, trait="might")), [[2] * 5, [0] * 8])
    assert st.ex[hero].dead and st.hero_kills[traitor] == 1
    assert st.value(traitor, "might") == 6 and st.value(traitor, "speed") == 3


def test_the_flesh_takes_no_attack_damage_and_the_policy_does_not_fight_it() -> None:
    st, hero, traitor = game(4)
    st.ex[hero].room = st.ex[traitor].room
    before = dict(st.ex[traitor].idx)
    st.ex[traitor].cards.clear()
    rolled(st._attack(hero, Action.of("attack", target=traitor, trait="might")), [[2] * 8, [0] * 8])
    assert st.ex[traitor].idx == before and not st.ex[traitor].dead
    attack = Action.of("attack", target=traitor, trait="might")
    assert _best_attack(st, hero, [attack]) is None


def test_the_furnace_blows_at_the_end_of_the_setters_next_turn_and_spreads_the_turn_after() -> None:
    st, hero, _ = game(3)
    if "furnace-room" not in st.house.spots:
        st.house.place("furnace-room", "basement", (0, -1), 0)
    st.hflags.add("furnace-overheating")
    drive(st._flag_timers(hero, "end"))  # the setting turn: the fuse is lit
    assert st.track == 0 and st.collapsed == []
    drive(st._flag_timers(hero, "end"))  # the next turn's end: it blows
    assert st.collapsed == ["furnace-room"] and st.collapse_by == "house-fire"
    drive(st._collapse_step(hero))
    assert st.collapsed == ["furnace-room"]  # that same turn spreads nothing more
    other = st.living_heroes()[1]
    drive(st._collapse_step(other))
    assert len(st.collapsed) == 2
    burned = st.collapsed[1]
    assert st.house.floor_of(burned) == "basement"


def test_the_fire_climbs_only_by_the_named_links_and_the_house_falls_with_its_starting_rooms() -> None:
    st, hero, traitor = game(3)
    st.collapsed = ["stairs-from-basement"]
    assert "foyer" in fire_candidates(st)
    assert all(st.house.floor_of(r) != "upper" for r in fire_candidates(st))
    st.collapsed = ["foyer", "entrance-hall"]
    st.collapse_by = "house-fire"
    st.collapsing = True
    st.ex[traitor].room = "gardens" if "gardens" in st.house.spots else st.ex[hero].room
    outside = st.living_heroes()[1]
    st.exited.add(outside)
    drive(st._collapse_step(hero), answer=lambda req: Action.of("collapse", room="grand-staircase"))
    assert st.ex[traitor].dead and st.ex[hero].dead and not st.ex[outside].dead
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_traitor_wins_with_all_but_one_hero_dead_counting_those_outside() -> None:
    st, _, _ = game(4)
    heroes = st.living_heroes()
    st.ex[heroes[0]].dead = True
    st.exited.add(heroes[1])
    assert not st._check_wins()  # two heroes still alive, one of them outside
    st.ex[heroes[2]].dead = True
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR


def test_the_traitor_escapes_only_after_two_kills() -> None:
    st, _, traitor = game(4)
    st.current = traitor
    st.ex[traitor].room = "entrance-hall"
    assert not any(t["id"] == "escape-by-front-door" for t in st.tasks_for(traitor) if st._task_open(traitor, t))
    st.hero_kills[traitor] = 2
    assert any(t["id"] == "escape-by-front-door" for t in st.tasks_for(traitor) if st._task_open(traitor, t))


def test_a_policy_game_plays_to_a_result_with_the_invariants_holding() -> None:
    st = played_out(5, 18)
    assert st.result is not None and st.result.result in (HERO, TRAITOR)


def test_a_described_position_keeps_the_flesh_the_kills_and_the_fire() -> None:
    st, _, traitor = game(3)
    st.hero_kills[traitor] = 1
    st.collapsed = ["furnace-room"]
    st.collapsing = True
    st.collapse_by = "house-fire"
    built = build_position(game_spec("betrayal"), 3, {"haunt": 18}, describe_position(st))
    assert isinstance(built, HauntState)
    assert built.value(traitor, "might") == 6 and built.value(traitor, "speed") == 3
    assert built.collapse_by == "house-fire" and built.collapsed == ["furnace-room"]
    assert built.snapshot()["haunt_phase"] == st.snapshot()["haunt_phase"]
