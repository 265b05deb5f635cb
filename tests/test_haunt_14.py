"""Haunt 14, The Stars Are Right: what is encoded so far - the file's tables, the Paint thrown in
from a room joined to the Pentagram Chamber (the ``adjoining`` location), the goal check that counts
thrown Paint by the Paint it comes from, and the pieces still missing before it plays."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest
from betrayal_support import drive, started

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


def test_what_keeps_the_haunt_from_playing_is_named_where_the_file_uses_it() -> None:
    missing = sorted({gap.message for gap in playable.gaps(stars().data)})
    assert missing == ["hook 'corpses' is not registered"]


def test_paint_goes_round_the_listed_rooms_in_the_house_in_the_books_order() -> None:
    st = started(4, 3)  # a house past the reveal (haunt 14 itself cannot be started yet)
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
    cultist = st.mon[0]  # a monster of the started haunt stands in for a Cultist carrying a load
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
