"""Haunt 33, An Invocation of Darkness: the traitor's stronger traits and extra turn, the Elder God's
Speed by the player count and Might above 8, the summoning's repeatable Knowledge rolls (a space
each) whose fifth success kills the traitor and brings the Elder God, the heroes' two wins (the
Book thrown into the Furnace Room or the Chasm, the traitor killed before the summoning)."""

from __future__ import annotations

from typing import Any

import pytest
from betrayal_support import drive, haunt_seed, policy_game, started

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HauntState, playable
from hauntcheck.engine.betrayal.model import TRAITS
from hauntcheck.engine.betrayal.policy import policy
from hauntcheck.engine.core import Action
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import PolicyController, seeded_table


def invocation() -> Any:
    return next(f for f in game_spec("betrayal").by_kind("haunt") if f.data["number"] == 33)


def at_end_of_setup(players: int) -> HauntState:
    """The first seed revealing haunt 33, played by the policy until its setup is complete."""
    seed = haunt_seed(players, 33)
    st = hauntmod.new_game(game_spec("betrayal"), players, {"haunt": 33})
    table = seeded_table(seed, PolicyController(policy, seed))
    while st.hs is None or st.setting_up:
        actor = st.to_move()
        assert actor is not None, st.outcome()
        st.apply(table.for_actor(actor).choose(st, actor, st.legal_actions()))
    return st


def test_the_haunt_plays_without_hooks() -> None:
    assert playable.gaps(invocation().data) == []
    assert "hooks" not in invocation().data


def test_the_elder_gods_speed_is_the_player_count_and_its_might_12_rolls_8_dice() -> None:
    for players in (3, 5):
        st = started(players, 33)
        god = st._add_monster(st.hs.monsters["elder-god"], st.ex[st.seat_ids[0]].room)  # type: ignore[union-attr]
        assert god.stats == {"speed": players, "might": 12, "sanity": 7}
        assert st._dice(None, god, "might") == 8


def test_the_traitor_starts_at_least_at_starting_values_and_takes_an_extra_turn_first() -> None:
    st = at_end_of_setup(4)
    traitor = st.traitor()
    assert traitor is not None
    start = st.t.explorers[st.ex[traitor].id].traits
    assert all(st.ex[traitor].idx[t] >= start[t].start for t in TRAITS)
    assert sum(st.ex[traitor].idx[t] - start[t].start for t in TRAITS) > 0  # the four 2-dice rolls raised some
    assert st.hround == 0 and st.extra_turns == [] and st.to_move() == traitor  # before the first round


def summon_ready(st: HauntState, earned: int) -> str:
    traitor = st.traitor()
    assert traitor is not None
    st.ex[traitor].room = "pentagram-chamber"
    st.earned["knowledge-roll"] = earned
    st.pool["knowledge-roll"] = 5 - earned
    st.current = traitor
    return traitor


def test_summoning_rolls_repeat_a_space_each_and_the_fifth_success_brings_the_elder_god() -> None:
    st = started(4, 33)
    traitor = summon_ready(st, 3)
    st.ex[traitor].cards = ["book"]
    task = next(t for t in st.tasks_for(traitor) if t["id"] == "summoning")
    moved = st.turn.moved
    drive(st._task(traitor, Action.of("task", id="summoning")))  # every die a 2: a success
    assert st.earned["knowledge-roll"] == 4 and st.turn.moved == moved + 1
    assert st._task_open(traitor, task)  # the turn's task roll does not close it
    drive(st._task(traitor, Action.of("task", id="summoning")))
    assert st.ex[traitor].dead and "elder-god-summoned" in st.hflags
    god = [m for m in st.active_monsters() if m.kind == "elder-god"]
    assert len(god) == 1 and god[0].room == "pentagram-chamber"
    assert "book" in st.piles.get("pentagram-chamber", [])  # the Book lies where the ritual was made
    assert not st._check_wins()  # the traitor died of the summoning: no heroes' win


def test_a_failed_summoning_roll_earns_nothing() -> None:
    st = started(4, 33)
    traitor = summon_ready(st, 4)
    drive(st._task(traitor, Action.of("task", id="summoning")), face=0)
    assert st.earned["knowledge-roll"] == 4 and not st.ex[traitor].dead


def test_killing_the_traitor_before_the_summoning_wins_for_the_heroes() -> None:
    st = started(4, 33)
    traitor = st.traitor()
    assert traitor is not None and not st._check_wins()
    st.ex[traitor].idx["might"] = 0
    st._die(traitor, "might")
    assert st._check_wins()
    outcome = st.outcome()
    assert outcome is not None and outcome.result == "heroes" and "traitor-killed" in outcome.detail


@pytest.mark.parametrize("room", ["furnace-room", "chasm"])
def test_a_hero_throws_the_book_into_the_furnace_or_the_chasm_for_a_space(room: str) -> None:
    st = started(4, 33)
    hero = next(s for s in st.seat_ids if s != st.traitor())
    throw = next(t for t in st.tasks_for(hero) if t["id"] == "throw-book")
    st.ex[hero].cards = ["book"]
    st.ex[hero].room = "pentagram-chamber"
    assert not st._task_open(hero, throw)
    st.ex[hero].room = room
    st.current = hero
    assert st._task_open(hero, throw)
    drive(st._task(hero, Action.of("task", id="throw-book")))
    assert "book" in st.destroyed and st._check_wins()
    outcome = st.outcome()
    assert outcome is not None and outcome.result == "heroes"


@pytest.mark.parametrize(("players", "seed", "result"), [(3, 102, "traitor"), (4, 68, "heroes")])
def test_policy_games_reach_both_wins_with_the_invariants_kept(players: int, seed: int, result: str) -> None:
    st = policy_game(players, seed, 33, check_invariants=True)
    outcome = st.outcome()
    assert outcome is not None and outcome.result == result
