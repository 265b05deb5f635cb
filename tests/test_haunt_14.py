"""Haunt 14, The Stars Are Right: the file's tables, the Paint thrown in from a room joined to the
Pentagram Chamber (the ``adjoining`` location), the goal check that counts thrown Paint by the Paint
it comes from, corpses (left by the dead, carried only by the traitor's side at 2 spaces a room,
offered for 4 points), the repeatable sacrifice and both sides' wins in policy games."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest
from betrayal_support import drive, pick, policy_game, started
from compiled_support import replaces_a_compiled_method

from hauntcheck.checks import solver
from hauntcheck.checks.solver import SolverReport
from hauntcheck.engine.betrayal.haunt import playable
from hauntcheck.engine.betrayal.hauntspec import load_haunt
from hauntcheck.engine.betrayal.hooks.h14_the_stars_are_right import PAINT_ROOMS, paint_in_order, sacrifice
from hauntcheck.engine.core import Action
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.spec import SpecFile

PLAYER_COUNTS = (3, 4, 5, 6)


def stars() -> SpecFile:
    return next(f for f in game_spec("betrayal").by_kind("haunt") if f.data["number"] == 14)


def edited(file: SpecFile, change: Any) -> SpecFile:
    data = copy.deepcopy(file.data)
    change(data)
    return SpecFile(file.path, file.display, file.kind, data, file.positions, file.text)


def test_cultists_one_per_other_player_paint_one_per_player_and_13_points() -> None:
    spec = load_haunt(stars().data)
    assert [spec.amount({"table": "cultists"}, p) for p in PLAYER_COUNTS] == [2, 3, 4, 5]
    assert [spec.amount({"table": "paint"}, p) for p in PLAYER_COUNTS] == [3, 4, 5, 6]
    assert {spec.amount({"table": "sacrifice-goal"}, p) for p in PLAYER_COUNTS} == {13}
    assert spec.tokens["paint"].carried_as_item and spec.tokens["paint"].carry_limit == 1
    assert not spec.tokens["thrown-paint"].carried_as_item  # thrown Paint is never picked up again


def test_adjoining_names_the_rooms_joined_by_a_doorway_not_by_stairs() -> None:
    st = started(4, 3)  # any game past the reveal has the three starting tiles
    assert {"entrance-hall", "grand-staircase"} <= set(st._rooms_for({"room": "foyer", "adjoining": True}))
    assert "foyer" not in st._rooms_for({"room": "foyer", "adjoining": True})
    # the Grand Staircase leads up by stairs, not through a doorway: the Upper Landing is not beside it
    assert "upper-landing" not in st._rooms_for({"room": "grand-staircase", "adjoining": True})
    assert st._rooms_for({"room": "grand-staircase", "adjoining": True}) == ["foyer"]


def test_throwing_paint_is_offered_beside_the_chamber_and_pouring_inside_it() -> None:
    heroes = stars().data["heroes_side"]["actions"]
    throw = next(a for a in heroes if a["id"] == "throw-paint")
    assert throw["where"] == {"room": "pentagram-chamber", "adjoining": True}
    assert throw["cost"] == {"movement": 1} and throw["holding"] == ["paint"]
    assert throw["do"] == [{"discard_token": "paint"}, {"earn": {"token": "thrown-paint", "put": "in-haunt-room"}}]


def test_thrown_paint_counts_as_the_paint_it_comes_from_in_the_goal_check() -> None:
    report = SolverReport()
    solver.goal_findings(stars(), report)
    assert report.errors == []

    def thrown_from_nowhere(d: dict[str, Any]) -> None:
        for action in d["heroes_side"]["actions"]:
            action["do"] = [o for o in action["do"] if "discard_token" not in o]

    report = SolverReport()
    solver.goal_findings(edited(stars(), thrown_from_nowhere), report)
    assert [f.message for f in report.errors] == ["at 3 players tokens_collected needs 3 thrown-paint token(s); only 0 can be out"]


def test_the_haunt_plays_with_its_two_hooks_only() -> None:
    assert playable.gaps(stars().data) == []
    assert sorted(h["id"] for h in stars().data["hooks"]) == ["paint-in-order", "sacrifice"]


def test_paint_goes_round_the_listed_rooms_in_the_house_in_the_books_order() -> None:
    st = started(4, 14)
    present = [r for r in PAINT_ROOMS if r in st.house.spots]
    st.htokens.pop("paint", None)
    st.pool["paint"] = 5
    drive(paint_in_order(st))
    assert st.pool["paint"] == 0
    if present:
        assert st.htokens["paint"] == [present[k % len(present)] for k in range(5)]
    else:  # the first Paint room met in the room stack was fetched and holds every token
        assert len(set(st.htokens["paint"])) == 1 and len(st.htokens["paint"]) == 5
        assert st.htokens["paint"][0] in PAINT_ROOMS and st.htokens["paint"][0] in st.house.spots


def test_with_no_paint_room_in_the_house_the_first_one_in_the_stack_takes_all_the_paint() -> None:
    st = started(4, 3)
    for room in PAINT_ROOMS:
        if room in st.house.spots:
            st.house.remove(room)
            st.stack.append(room)
    first = next(r for r in st.stack if r in PAINT_ROOMS)
    st.htokens.pop("paint", None)
    st.pool["paint"] = 3
    drive(paint_in_order(st))
    assert first in st.house.spots and st.htokens["paint"] == [first] * 3


def test_a_cultist_offers_its_whole_load_and_the_traitor_one_chosen_card() -> None:
    st = started(4, 3)
    st.track = 0
    cultist = st.mon[0]
    cultist.cards = ["girl", "axe"]
    drive(sacrifice(st, None, cultist))
    assert cultist.cards == [] and st.track == 3  # the Girl 2, an item 1
    assert {"girl", "axe"} <= set(st.destroyed)
    traitor = st.traitor()
    assert traitor is not None
    st.ex[traitor].cards = ["dog", "revolver"]

    def the_dog(req: Any) -> Action:
        return next(a for a in req.choices if a.get("card") == "dog")

    drive(sacrifice(st, traitor, None), the_dog)
    assert st.ex[traitor].cards == ["revolver"] and st.track == 5


@replaces_a_compiled_method("the state's mdef")
def test_a_monster_rule_without_a_roll_does_its_outcomes_in_its_room(monkeypatch: pytest.MonkeyPatch) -> None:
    st = started(4, 3)
    traitor = st.traitor()
    assert traitor is not None
    carrier = st.mon[0]  # a monster of the started haunt, given the Cultists' rule
    rule = stars().data["monsters"][0]["must"][0]
    kind = replace(st.mdef(carrier), must=(rule,))
    monkeypatch.setattr(st, "mdef", lambda m: kind)
    carrier.cards = ["axe"]
    st.track = 0
    carrier.room = next(r for r in st.house.spots if r != "pentagram-chamber")
    drive(st._monster_checks(carrier, "enter"))
    assert carrier.cards == ["axe"] and st.track == 0  # elsewhere nothing happens
    carrier.room = "pentagram-chamber"
    drive(st._monster_checks(carrier, "enter"))
    assert carrier.cards == [] and st.track == 1


def test_a_dying_explorer_leaves_a_corpse_that_only_the_traitors_side_picks_up() -> None:
    st = started(4, 14)
    traitor = st.traitor()
    assert traitor is not None
    hero, other = [s for s in st.seat_ids if s != traitor][:2]
    room = st.ex[hero].room
    st.ex[hero].idx["might"] = 0
    st._die(hero, "might")
    assert st.ex[hero].dead and st.htokens["corpse"] == [room]
    assert not st._room_for_token(other, "corpse") and st._room_for_token(traitor, "corpse")
    assert not st._room_for_token(traitor, "paint") and st._room_for_token(other, "paint")
    st.ex[other].room = st.ex[traitor].room = room
    st.current = other
    assert Action.of("pickup-token", token="corpse") not in st._token_pickups(other)
    st.current = traitor
    assert Action.of("pickup-token", token="corpse") in st._token_pickups(traitor)


def test_carrying_a_corpse_makes_each_room_cost_two_spaces_for_the_traitor_and_a_cultist() -> None:
    st = started(4, 14)
    traitor = st.traitor()
    assert traitor is not None
    assert st.carrying_cost(traitor) == 1
    st.held[traitor] = ["corpse"]
    assert st.carrying_cost(traitor) == 2
    cultist = next(m for m in st.active_monsters() if m.kind == "cultist")
    free = st._monster_steps(cultist, 1, False)
    st.held[cultist.uid] = ["corpse"]
    assert free and st._monster_steps(cultist, 1, False) == []  # one space left: no room can be entered
    assert st._monster_steps(cultist, 2, False) == free


def test_a_cultist_picks_up_a_corpse_and_offers_it_for_four_points_in_the_chamber() -> None:
    st = started(4, 14)
    cultist = next(m for m in st.active_monsters() if m.kind == "cultist")
    elsewhere = next(r for r in sorted(st.house.spots) if r != "pentagram-chamber")
    cultist.room = elsewhere
    st.htokens["corpse"] = [elsewhere]
    drive(st._monster_token_pickup(cultist), pick("monster-pickup-token"))
    assert st.held[cultist.uid] == ["corpse"] and st.htokens["corpse"] == []
    st.track = 0
    cultist.room = "pentagram-chamber"
    drive(st._monster_checks(cultist, "enter"))
    assert st.held[cultist.uid] == [] and st.track == 4


def test_the_sacrifice_action_repeats_while_the_traitor_has_something_to_offer() -> None:
    st = started(4, 14)
    traitor = st.traitor()
    assert traitor is not None
    task = next(t for t in st.tasks_for(traitor) if t["id"] == "sacrifice")
    assert task["limit"] == "unlimited"
    st.ex[traitor].room = "pentagram-chamber"
    st.ex[traitor].cards = []
    st.held[traitor] = []
    assert not st._task_open(traitor, task)  # nothing to offer: not open, however often allowed
    st.ex[traitor].cards = ["axe"]
    st.held[traitor] = ["corpse"]
    st.track = 0
    for _ in range(2):
        assert st._task_open(traitor, task)
        drive(st._task(traitor, Action.of("task", id="sacrifice")))
    assert st.track == 5 and not st._task_open(traitor, task)


def test_an_unlimited_task_roll_may_be_made_again_in_the_same_turn() -> None:
    st = started(4, 14)
    traitor = st.traitor()
    assert traitor is not None
    roll = {"id": "probe", "by": "traitor", "roll": {"trait": "might", "target": 1}, "do": []}
    st.turn.keys.add("task-roll")  # the turn's one task roll has been made
    assert not st._task_open(traitor, roll)
    assert st._task_open(traitor, {**roll, "limit": "unlimited"})


@pytest.mark.parametrize(("players", "seed", "result"), [(3, 612, "heroes"), (4, 45, "traitor")])
def test_policy_games_reach_both_wins_with_the_invariants_kept(players: int, seed: int, result: str) -> None:
    st = policy_game(players, seed, 14, check_invariants=True)
    outcome = st.outcome()
    assert outcome is not None and outcome.result == result


def test_a_forced_reveal_away_from_the_pentagram_chamber_fetches_it_first() -> None:
    """Played at a reveal the chart did not give (option ``force_haunt``, as balance studies and
    ``play --from-reveal`` do), the haunt first takes its chart room from the stack: its Cultists
    start there, so every one of them stands in a room of the house (this game once put them in a
    Pentagram Chamber that was not in the house, and the monster turn failed)."""
    from betrayal_support import forced

    st = forced(3, 14, 2)
    assert "pentagram-chamber" in st.house.spots
    cultists = [m for m in st.mon if m.kind == "cultist"]
    assert cultists and all(m.room == "pentagram-chamber" for m in cultists)
    # The game plays on to a result.
    from hauntcheck.engine.betrayal.policy import policy
    from hauntcheck.engine.play import PolicyController, run_fast, seeded_table

    run_fast(st, seeded_table(2, PolicyController(policy, 2)))
    assert st.outcome() is not None and st.outcome().result in ("heroes", "traitor")  # type: ignore[union-attr]
    # Where the basement is closed and the Chamber cannot be placed at all, no Cultist enters
    # a room outside the house: the game plays on (to the round limit, as the heroes' task is void).
    shut = forced(3, 14, 14)
    assert "pentagram-chamber" not in shut.house.spots and "pentagram-chamber" in shut.stack
    assert all(m.room in shut.house.spots for m in shut.mon) and not [m for m in shut.mon if m.kind == "cultist"]
    run_fast(shut, seeded_table(14, PolicyController(policy, 14)))
    assert shut.outcome() is not None
