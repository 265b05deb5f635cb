"""Haunt 24, Fly Away Home: the traitor dead, the first Bats only where their rooms are, Bats
entering by a roll of one die per player (capped by the box, none after the organ), latching on
with a 2, drinking and slowing (Armor -1 on the total), the organ driving the loose ones off,
killing latched Bats, the wins, and a policy game."""

from __future__ import annotations

from betrayal_support import drive, played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState
from hauntcheck.engine.betrayal.hooks.h24_fly_away_home import (
    BATS_IN_BOX,
    ENTRY_ROOMS,
    FIRST_ROOSTS,
    bat_latches,
    bats_arrive,
    bats_bite,
    drive_off_bats,
    first_bats,
    kill_latched_bat,
    latched,
)


def game(players: int = 4) -> HauntState:
    st = start_haunt(players, 24)
    st.current = st.living_heroes()[0]
    st.turn.keys.clear()
    return st


def bats(st: HauntState) -> list[str]:
    return [m.room for m in st.active_monsters() if m.kind == "bat"]


def test_the_traitor_is_dead_and_the_first_bats_roost_only_where_their_rooms_are() -> None:
    st = game(3)
    traitor = st.traitor()
    assert traitor is not None and not st.in_play(traitor)
    for m in [m for m in st.mon if m.kind == "bat"]:
        st.mon.remove(m)
    roosts = [next((r for r in pair if r in st.house.spots), None) for pair in FIRST_ROOSTS]
    drive(first_bats(st))
    for room in roosts:
        if room is not None:
            assert bats(st).count(room) == 3
    assert len(bats(st)) == 3 * sum(r is not None for r in roosts)
    st.house.spots = {r: spot for r, spot in st.house.spots.items() if r not in ("tower", "attic", "chasm", "catacombs")}
    for m in [m for m in st.mon if m.kind == "bat"]:
        st.mon.remove(m)
    drive(first_bats(st))
    assert bats(st) == []  # no roost in the house: the haunt begins with fewer Bats


def test_bats_enter_by_a_die_per_player_one_per_entry_room_capped_by_the_box() -> None:
    st = game(4)
    for m in [m for m in st.mon if m.kind == "bat"]:
        st.mon.remove(m)
    rolled(bats_arrive(st, None, None), [[1, 1, 2, 0]])
    rooms = [r for r in ENTRY_ROOMS if r in st.house.spots]
    assert len(bats(st)) == 4 and set(bats(st)) <= set(rooms)
    if len(rooms) >= 4:
        assert len(set(bats(st))) == 4  # one per room while rooms last
    latched(st)[st.living_heroes()[0]] = BATS_IN_BOX - 5
    rolled(bats_arrive(st, None, None), [[2, 2, 2, 2]])
    assert len(bats(st)) + sum(latched(st).values()) == BATS_IN_BOX
    st.hflags.add("bats-driven-off")
    before = len(bats(st))
    rolled(bats_arrive(st, None, None), [[2, 2, 2, 2]])
    assert len(bats(st)) == before


def test_a_bat_latches_on_a_two_and_drinks_with_armor_taking_one_off() -> None:
    st = game(4)
    hero = st.living_heroes()[0]
    for m in [m for m in st.mon if m.kind == "bat"]:
        st.mon.remove(m)
    assert st.hs is not None
    bat = st._add_monster(st.hs.monsters["bat"], st.ex[hero].room)
    rolled(bat_latches(st, None, bat), [1])
    assert latched(st).get(hero, 0) == 0 and not bat.gone
    rolled(bat_latches(st, None, bat), [2])
    assert latched(st)[hero] == 1 and bat.gone == "latched" and "bat-bitten" in st.hstatus[hero]
    latched(st)[hero] = 2
    st.ex[hero].cards.append("armor")
    before = dict(st.ex[hero].idx)
    drive(bats_bite(st, hero, None))
    lost = sum(before[t] - st.ex[hero].idx[t] for t in ("might", "speed"))
    assert lost == 1 and "slowed:2" in st.turn_mods[hero]


def test_latched_bats_slow_their_hero_but_leave_one_space() -> None:
    st = game(4)
    hero = st.current
    st.turn.seat = hero
    st.turn.moved = 0
    full = st.movement_left(hero)
    st.turn_mods.setdefault(hero, set()).add("slowed:2")
    assert st.movement_left(hero) == max(full - 2, 1)
    st.turn_mods[hero] = {"slowed:9"}
    assert st.movement_left(hero) == 1


def test_the_organ_drives_off_loose_bats_and_killing_the_latched_ones_wins() -> None:
    st = game(4)
    hero = st.living_heroes()[0]
    assert st.hs is not None
    st._add_monster(st.hs.monsters["bat"], st.ex[hero].room)
    latched(st)[hero] = 1
    st.hstatus.setdefault(hero, []).append("bat-bitten")
    st.hflags.add("bats-driven-off")
    drive(drive_off_bats(st, hero, None))
    assert bats(st) == []
    assert not st._check_wins()  # a Bat still clings to a hero
    drive(kill_latched_bat(st, hero, hero))
    assert latched(st)[hero] == 0 and "bat-bitten" not in st.hstatus[hero]
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_bats_win_when_every_hero_is_dead() -> None:
    st = game(3)
    for s in st.living_heroes():
        st.ex[s].dead = True
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR


def test_a_policy_game_plays_to_a_result_with_the_invariants_holding() -> None:
    st = played_out(4, 24)
    assert st.result is not None and st.result.result in (HERO, TRAITOR)


def test_a_hero_may_fight_a_bat_latched_onto_itself() -> None:
    st = game(4)
    hero = st.current
    latched(st)[hero] = 1
    st.hstatus.setdefault(hero, []).append("bat-bitten")
    offered = [a for a in st._turn_actions(hero) if a.kind == "task" and a["id"] == "fight-latched-bat"]
    assert [a["target"] for a in offered] == [hero]
    rolled(st._task(hero, offered[0]), [[2] * 8, [0, 0]])
    assert latched(st)[hero] == 0 and "bat-bitten" not in st.hstatus[hero]
