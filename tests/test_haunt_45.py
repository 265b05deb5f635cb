"""Haunt 45, Tick, Tick, Tick: the Dynamite taken and the traitor fixed in its room, a bomb on
every hero, the traitor's clock and detonation roll (the track plus the living heroes in dice,
at most 8; the nearest bombed hero to its left), the proximity trigger (rooms next to the
traitor's, doors or not), defusing with its deadly 2-or-less band, the wins, and the policy."""

from __future__ import annotations

from betrayal_support import played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState
from hauntcheck.engine.betrayal.policy.turn import _deadly_entry, _too_risky
from hauntcheck.engine.core import Action

BOMB = "time-bomb"


def game(players: int = 4) -> tuple[HauntState, str, str]:
    """Just after the setup: a hero on its turn and the traitor."""
    st = start_haunt(players, 45)
    hero = st.living_heroes()[0]
    traitor = st.traitor()
    assert traitor is not None
    st.current = hero
    st.turn.keys.clear()
    return st, hero, traitor


def test_setup_arms_every_hero_fixes_the_traitor_and_gives_it_the_dynamite() -> None:
    for players in (3, 6):
        st, _, traitor = game(players)
        assert all(BOMB in st.hstatus.get(h, []) for h in st.living_heroes())
        assert "dynamite" in st.ex[traitor].cards
        assert not any(st.holds(h, "dynamite") for h in st.living_heroes())
        assert st.track == 0 and "at-work" in st.hstatus[traitor]
        st.current = traitor
        assert not any(a.kind in ("move", "explore") for a in st._turn_actions(traitor))


def test_the_clock_rolls_track_plus_living_heroes_dice_and_blows_the_nearest_left_bomb() -> None:
    st, _, traitor = game(4)
    heroes = [st.left_of(traitor, k) for k in range(1, 4)]
    first, second = heroes[0], heroes[1]
    st.hstatus[first].remove(BOMB)  # defused: passed over
    st.ex[second].room = st.ex[heroes[2]].room  # a roommate dies with it
    st.ex[second].cards.append("bottle")
    _, reqs = rolled(st._advance_timers("end-of-traitor-turn"), [2])
    rolls = [r for r in reqs if r.actor != traitor and all(a.kind == "roll" for a in r.choices)]
    assert st.track == 1 and "trigger-armed" in st.hflags
    assert len(next(iter(rolls[0].choices))["faces"]) == 1 + 3  # track 1 + three heroes alive
    assert st.ex[second].dead and st.ex[heroes[2]].dead and not st.ex[first].dead
    assert "bottle" in st.destroyed and not st.ex[traitor].dead


def test_a_low_detonation_roll_blows_nothing() -> None:
    st, _, _ = game(4)
    rolled(st._advance_timers("end-of-traitor-turn"), [1])  # 4 dice showing 1: 4 < 8
    assert all(not st.ex[h].dead for h in st.heroes())


def test_the_proximity_trigger_counts_rooms_next_to_the_traitor_without_doors() -> None:
    st, hero, traitor = game(3)
    room = st.ex[traitor].room
    floor = st.house.floor_of(room)
    near = st._rooms_for({"room_of": "traitor", "with_neighbours": True})
    assert room in near and all(st.house.floor_of(r) == floor for r in near)
    far = next((r for r in st.house.rooms_on(floor) if r not in near), None)
    st.hflags.add("trigger-armed")
    assert _deadly_entry(st, hero, room)
    if far is not None:
        assert not _deadly_entry(st, hero, far)
    st.hstatus[hero].remove(BOMB)
    assert not _deadly_entry(st, hero, room)  # a defused hero may walk in and fight
    st.hstatus[hero].append(BOMB)
    st.hflags.discard("trigger-armed")
    assert not _deadly_entry(st, hero, room)  # not before the traitor's first turn is over


def test_defusing_succeeds_on_seven_and_a_two_or_less_sets_the_bomb_off() -> None:
    st, hero, _ = game(3)
    st.ex[hero].cards = [c for c in st.ex[hero].cards if c != "madman"]
    st.ex[hero].idx["knowledge"] = len(st.t.explorers[st.ex[hero].id].traits["knowledge"].values) - 1
    own = Action.of("task", id="defuse-own")
    assert own in st._task_actions(hero)
    rolled(st._task(hero, own), [[2, 2, 2, 1]])
    assert BOMB not in st.hstatus[hero] and not st.ex[hero].dead
    other = st.living_heroes()[1]
    st.ex[other].room = st.ex[hero].room
    st.turn.keys.clear()
    st.ex[other].cards = [c for c in st.ex[other].cards if c != "madman"]
    helping = Action.of("task", id="defuse-other", target=other)
    assert helping in st._task_actions(hero)
    rolled(st._task(hero, helping), [[1, 1, 0, 0]])  # the dice show 2: the bomb goes off
    assert st.ex[other].dead and st.ex[hero].dead


def test_the_madman_lowers_the_defusing_target_to_five() -> None:
    st, hero, _ = game(3)
    st.ex[hero].cards.append("madman")
    tasks = {a["id"] for a in st._task_actions(hero) if a.kind == "task"}
    assert "defuse-own-with-madman" in tasks and "defuse-own" not in tasks
    st.ex[hero].idx["knowledge"] = len(st.t.explorers[st.ex[hero].id].traits["knowledge"].values) - 1
    dice = st.value(hero, "knowledge")
    rolled(st._task(hero, Action.of("task", id="defuse-own-with-madman")), [[2, 2, 1] + [0] * (dice - 3)])  # 5
    assert BOMB not in st.hstatus[hero]


def test_the_policy_tries_a_defusing_only_while_success_is_as_likely_as_the_blast() -> None:
    st, hero, _ = game(3)
    task = next(t for t in st.tasks_for(hero) if t["id"] == "defuse-own")
    st.ex[hero].idx["knowledge"] = 1
    assert st.value(hero, "knowledge") <= 4 and _too_risky(st, hero, task)
    st.ex[hero].idx["knowledge"] = len(st.t.explorers[st.ex[hero].id].traits["knowledge"].values) - 1
    assert not _too_risky(st, hero, task)


def test_the_wins_the_traitor_dead_or_the_big_bomb() -> None:
    st, _, traitor = game()
    st.track = 11
    assert not st._check_wins()
    st.ex[traitor].dead = True
    assert st._check_wins() and st.result is not None and st.result.result == HERO
    st2, _, _ = game()
    st2.track = 12
    assert st2._check_wins() and st2.result is not None and st2.result.result == TRAITOR


def test_a_policy_game_plays_to_a_result_with_the_invariants_holding() -> None:
    st = played_out(5, 45)
    assert st.result is not None and st.result.result in (HERO, TRAITOR)
