"""Haunted dispute scenarios: every shipped scenario passes, and a position's mistakes are each
reported at their place."""

from __future__ import annotations

from pathlib import Path

import pytest

from hauntcheck.engine.games import game_spec
from hauntcheck.engine.haunted import GAME, build_position
from hauntcheck.engine.scenario import PositionError, ScenarioRun, load_scenario, scenario_files

ROOT = Path(__file__).resolve().parent.parent
SPEC = game_spec("haunted")
SHIPPED = sorted(scenario_files(ROOT / "scenarios" / "haunted"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_scenario_passes(path: Path) -> None:
    run = ScenarioRun(load_scenario(path, str(path.relative_to(ROOT))), GAME, SPEC)
    result = run.run()
    assert result.ok, "\n".join(result.failures)
    assert set(result.rules_applied) >= set(run.file.data["rules"])
    assert run.file.data["source"]["source"] == "002_33a629ca675f12ec.txt"


def test_a_position_builds_what_it_says() -> None:
    state = build_position(SPEC, 2, {}, {
        "table": {"5H": {"adjacent": ["AD"]}, "AH": {"face_up": True}, "7C": {"face_up": False, "adjacent": ["5H"]}},
        "players": {"P1": {"room": "5H", "fear": 4, "secret_doors": ["2S"]}, "P2": {"stronger": "will", "room": "AH"}},
        "discard": ["KD"], "active": "P2",
    })
    snap = state.snapshot()
    assert snap["table"]["5H"] == {"face_up": True, "adjacent": ["AD", "7C"]}
    assert snap["table"]["AD"]["adjacent"] == ["5H"] and snap["table"]["7C"]["face_up"] is False
    assert [(p["room"], p["fear"], p["will"], p["body"]) for p in snap["players"]] == [("5H", 4, 3, 5), ("AH", 2, 5, 3)]
    assert snap["players"][0]["secret_doors"] == ["2S"] and snap["discard"] == ["KD"]
    assert snap["exits_revealed"] == ["AD", "AH"] and snap["active"] == "P2"
    assert not {"5H", "AH", "7C", "2S", "KD", "AD"} & set(snap["deck"]) and len(snap["deck"]) == 54 - 6
    assert state.to_move() == "P2" and [a.kind for a in state.legal_actions()] == ["open"]


def test_every_mistake_of_a_position_is_reported_at_its_place() -> None:
    with pytest.raises(PositionError) as caught:
        build_position(SPEC, 2, {}, {
            "table": {"5X": {}, "7C": {"face_up": False, "adjacent": ["9D"]}},
            "players": {"P1": {"room": "7C", "stronger": "mind"}, "P2": {"room": "AD", "colour": "red", "fear": -1}},
            "deck": ["7C"], "active": "P3", "tiles": [],
        })
    problems = dict(caught.value.problems)
    assert "unknown card '5X'" in problems[("table", "5X")]
    assert "9D is not on the table" in problems[("table", "7C", "adjacent", 0)]
    assert "body or will" in problems[("players", "P1", "stronger")]
    assert "face-down card 7C" in problems[("players", "P1", "room")]
    assert "unknown key 'colour'" in problems[("players", "P2", "colour")]
    assert "fear is a whole number" in problems[("players", "P2", "fear")]
    assert "already in the table" in problems[("deck", 0)]
    assert "P3" in problems[("active",)] and "unknown key 'tiles'" in problems[("tiles",)]
