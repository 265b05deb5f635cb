"""Halls of Horror dispute scenarios: every shipped scenario passes; positions build with their
documented defaults, report every mistake at its place and round-trip through describe_position;
the combined-decks option of 8.1 works; pictures parse."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from halls_support import set_up_in_spec_order

from hauntcheck.engine.cli import parse_game_options
from hauntcheck.engine.core import Action, Shuffle
from hauntcheck.engine.games import game_spec, get_game
from hauntcheck.engine.halls import GAME, HallsState, build_position, describe_position, draw_svg, invariants, lead_up
from hauntcheck.engine.play import play, seeded_table
from hauntcheck.engine.scenario import PositionError, ScenarioRun, load_scenario, scenario_files
from hauntcheck.engine.transcript import TranscriptHeader

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "scenarios" / "halls-of-horror"
SPEC = game_spec("halls-of-horror")
SHIPPED = sorted(scenario_files(FOLDER))
MODELINE = "# yaml-language-server: $schema=../../../spec/schema/scenario.schema.json"
HEADER = f"{MODELINE}\nspec_version: 1\nkind: scenario\ngame: halls-of-horror\ntitle: a case\n"


def run_text(tmp_path: Path, body: str) -> Any:
    path = tmp_path / "case.yaml"
    path.write_text(HEADER + body)
    return ScenarioRun(load_scenario(path, "case.yaml"), GAME, SPEC).run()


def test_every_worked_example_is_shipped() -> None:
    names = {p.stem for p in SHIPPED if p.parent.name == "examples"}
    assert {
        "dan-searches-the-room-filled-with-tombs", "dan-spends-resolve-in-the-room-filled-with-tombs",
        "kat-solves-the-puzzle-room", "kat-and-dan-resolve-duel", "kat-fireaxe-against-three",
        "kat-dan-and-tim-tied-attacks", "kat-and-dan-against-the-killer", "kat-and-dan-against-a-stronger-killer",
        "dan-finds-a-key-in-a-puzzle-and-locks-a-room", "kat-searches-dans-body-for-two-keys",
        "the-room-above-ian-cannot-be-locked", "solo-inhuman-frenzy-stops-the-killer-at-1-hp",
        "solo-killers-wrath-at-1-hp",
    } <= names


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_scenario_passes(path: Path) -> None:
    assert path.read_text().startswith(MODELINE + "\n")
    run = ScenarioRun(load_scenario(path, str(path.relative_to(ROOT))), GAME, SPEC)
    result = run.run()
    assert result.ok, "\n".join(result.failures)
    assert set(result.rules_applied) >= set(run.file.data["rules"])
    assert run.file.data["source"]["source"] == "001_7a8a8c41495a0ff9.txt"
    assert result.before is not None and not invariants(result.before)
    assert result.after is not None and not invariants(result.after)


def test_the_lock_that_would_cut_ian_off_is_refused_and_explained() -> None:
    path = FOLDER / "examples" / "the-room-above-ian-cannot-be-locked.yaml"
    result = ScenarioRun(load_scenario(path, path.name), GAME, SPEC).run()
    assert result.ok, result.failures
    events = {line.rule: line.text for line in result.lines if line.kind == "event"}
    assert events["lock.path"].endswith("Storage (sample) [2,0]")
    assert "Workshop (sample) [1,1]" in events["lock.empty"]
    assert "lock row=2 col=0 is illegal" in [line.text for line in result.lines if line.kind == "expect"]


# --------------------------------------------------------------------------------------------
# Positions




@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_default_position_is_the_game_after_an_unshuffled_setup(players: int) -> None:
    built = build_position(SPEC, players, {}, {})
    assert built.snapshot() == set_up_in_spec_order(players).snapshot()
    assert built.to_move() == "P1" and not invariants(built)


def test_position_errors_name_every_bad_path() -> None:
    bad = {
        "rooms": {
            "r03x": {"at": [1, 1]},
            "r05a": {"at": [1, 1]},
            "r06a": {"at": [1, 1]},
            "r07a": {"at": [9, 0]},
            "r09a": {"at": [2, 2], "locked": True, "up": True},
            "start-1-b": {"at": [2, 1]},
            "r10a": {"at": [0, 0]},
            "r12a": {"at": [3, 1], "covered": [7]},
        },
        "participants": {"P1": {"room": "r09a", "hp": 11, "items": ["chainsaw"]}, "P5": {}},
        "killer": {"hp": 0, "stunned": False},
        "decks": {"rewards": ["key", "key", "key"], "mc": ["nonsense"]},
        "mosnters": {},
    }
    with pytest.raises(PositionError) as info:
        build_position(SPEC, 4, {}, bad)
    problems = dict(info.value.problems)
    assert problems[("rooms", "r03x")] == "unknown room 'r03x' (did you mean r03b?)"
    assert problems[("rooms", "r06a", "at")] == "[1, 1] already holds r05a"
    assert "inside the 5x4 grid" in problems[("rooms", "r07a", "at")]
    assert problems[("rooms", "r09a", "up")] == "a locked room lies face down"
    assert "starting rooms lie on the corners" in problems[("rooms", "start-1-b", "at")]
    assert "only a starting room card goes there" in problems[("rooms", "r10a", "at")]
    assert "covered lists reward places of Sealed Vault (0-3" in problems[("rooms", "r12a", "covered")]
    assert "cannot be in the locked room [2, 2]" in problems[("participants", "P1", "room")]
    assert "hp is a whole number from 1 to 10, got 11" in problems[("participants", "P1", "hp")]
    assert "chainsaw" in problems[("participants", "P1", "items")]
    assert "unknown key 'P5'" in problems[("participants", "P5")]
    assert problems[("killer", "stunned")] == "a Killer at 0 HP is dead, and so Stunned"
    assert problems[("decks", "rewards", 2)] == "more 'key' than the Reward deck holds (2)"
    assert problems[("decks", "mc", 0)].startswith("unknown MC card 'nonsense'")
    assert "unknown key 'mosnters'" in problems[("mosnters",)]


def test_a_position_that_cuts_someone_off_is_refused() -> None:
    with pytest.raises(PositionError) as info:
        build_position(SPEC, 2, {}, {"rooms": {"r01a": {"at": [0, 1], "locked": True}, "r02a": {"at": [1, 0], "locked": True}}})
    [(path, message)] = info.value.problems
    assert path == ("rooms",) and "cut [0, 0] off from" in message


def test_a_dead_participant_hands_the_mc_role_and_first_player_moves_on() -> None:
    state = build_position(SPEC, 3, {}, {"participants": {"P1": {"alive": False, "keys": 1}}})
    snap = state.snapshot()
    assert snap["dead"] == ["P1"] and snap["mc"] == "P1" and snap["mc_holders"] == ["P1"]
    assert snap["first"] == "P2" and state.to_move() == "P2"
    assert snap["keys_made"] == 1 and not invariants(state)
    with pytest.raises(PositionError) as info:
        build_position(SPEC, 3, {}, {"participants": {"P1": {"alive": False}}, "first": "P1", "mc": "P2"})
    problems = dict(info.value.problems)
    assert problems[("first",)] == "the First Player's Participant must be alive"
    assert problems[("mc",)] == "the MC is a player whose Participant is dead"


def test_deck_tops_come_first_and_the_rest_follows_in_spec_order() -> None:
    state = build_position(SPEC, 2, {}, {"decks": {"rewards": ["key", "panic"]}, "discards": {"rewards": ["key"]},
                                         "rooms": {"r05a": {"at": [1, 0], "gift": "gift-knife"}},
                                         "used_gifts": ["gift-panic"]})
    full = state.d.reward_deck
    assert state.reward_deck[:2] == ["key", "panic"] and state.reward_discard == ["key"]
    assert sorted(state.reward_deck + state.reward_discard) == sorted(full)
    assert "key" not in state.reward_deck[2:]
    assert len(state.gift_pile) == len(state.d.gift_pool) - 2 and "gift-knife" not in state.gift_pile


def _walk(players: int, seed: int, options: dict[str, str]) -> list[tuple[HallsState, bool]]:
    """(state, at a turn start) pairs along a seeded random game."""
    state = GAME.new_game(SPEC, players, options)
    assert isinstance(state, HallsState)
    table = seeded_table(seed)
    out: list[tuple[HallsState, bool]] = []
    steps = 0
    while state.to_move() is not None and steps < 1500:
        if not state.stage.startswith("setup"):
            start = state.stage == "select" and not state.turn.get("chosen")
            if start or steps % 7 == 0:
                out.append((state.clone(), start))
        actor = state.to_move()
        assert actor is not None
        state.apply(table.for_actor(actor).choose(state, actor, state.legal_actions()))
        steps += 1
    return out


WALKS = [(4, 1, {}), (3, 2, {"variant": "mixed"}), (2, 3, {"side": "advanced"}), (1, 4, {}),
         (4, 5, {"variant": "B", "decks": "combined"}), (2, 6, {})]


@pytest.mark.parametrize("players, seed, options", WALKS)
def test_positions_round_trip_through_describe(players: int, seed: int, options: dict[str, str]) -> None:
    walked = _walk(players, seed, options)
    starts = [s for s, start in walked if start]
    assert len(starts) >= 5
    for state, start in walked:
        built = build_position(SPEC, players, options, describe_position(state))
        if start:
            assert built.snapshot() == state.snapshot(), f"round {state.round}"
            assert "note" not in describe_position(state)
        else:
            # Mid-round: described at the round's start; the recorded lead-up brings it back exactly.
            assert "note" in describe_position(state) and built.stage == "select"
            assert not invariants(built)
            for _actor, action in lead_up(state):
                built.apply(action)
            assert built.snapshot() == state.snapshot(), f"round {state.round}, stage {state.stage}"
        assert not invariants(built)


def test_a_mistyped_scenario_fails_with_file_line_and_column(tmp_path: Path) -> None:
    result = run_text(tmp_path, """\
source: {source: 001_7a8a8c41495a0ff9.txt, section: "5.2.2.1 Searching a Room"}
rules: [search.draw]
players: 2
position:
  rooms:
    r03x: {at: [1, 0]}
  participants:
    P1: {room: [1, 0], hp: 12}
steps:
  - do: {kind: choose, action: search}
    by: P1
""")
    assert result.failures == [
        "case.yaml:11:11: error: unknown room 'r03x' (did you mean r03b?)",
        "case.yaml:13:16: error: P1 (Ben) cannot be in the face-down room [1, 0] (entering a room turns it face up)",
        "case.yaml:13:28: error: hp is a whole number from 1 to 10, got 12",
    ]


SEARCH_CASE = """\
source: {rules: [search.draw]}
rules: [search.draw, RULE]
players: 2
position:
  rooms: {r03a: {at: [1, 0]}}
  participants: {P1: {room: r03a, resolve: 0}}
  decks: {rewards: [damage, damage, utility, melee, panic]}
steps:
  - do: {kind: choose, action: search}
    by: P1
  - do: {kind: choose, action: up}
    by: P2
  - expect: {participants.P1.hp: HP}
"""


def test_a_wrong_expectation_fails_at_its_line(tmp_path: Path) -> None:
    right = run_text(tmp_path, SEARCH_CASE.replace("RULE", "search.damage-resolve").replace("HP", "8"))
    assert right.ok, right.failures
    wrong = run_text(tmp_path, SEARCH_CASE.replace("RULE", "search.damage-resolve").replace("HP", "10"))
    assert wrong.failures == ["case.yaml:18:34: error: expected participants.P1.hp = 10, got 8"]


def test_a_rule_the_scenario_never_applies_fails_at_its_line(tmp_path: Path) -> None:
    result = run_text(tmp_path, SEARCH_CASE.replace("RULE", "keys.find").replace("HP", "8"))
    assert result.failures == ["case.yaml:7:22: error: the scenario says keys.find decides it, but that rule was never applied"]


# --------------------------------------------------------------------------------------------
# 8.1: both room decks shuffled into one deck


@pytest.mark.parametrize("players, cards", [(4, 48), (3, 46), (1, 46)])
def test_combined_decks_shuffle_every_numbered_room(players: int, cards: int) -> None:
    state = GAME.new_game(SPEC, players, {"decks": "combined"})
    legal = state.legal_actions()
    assert isinstance(legal, Shuffle) and legal.pile == "rooms"
    assert len(legal.items) == cards
    assert {"r01a", "r01b", "r24a", "r24b"} <= set(legal.items)
    if players < 4:
        assert not {"r10a", "r10b"} & set(legal.items)
    events = state.apply(Action.of("shuffle", pile="rooms", order=list(reversed(legal.items))))
    assert any(e.rule == "variant.combined-decks" for e in events)
    assert isinstance(state, HallsState) and state.pool[:2] == ["r24b", "r24a"]  # both faces of one number can come up


def test_combined_decks_play_through_and_are_an_option() -> None:
    definition = get_game("halls-of-horror")
    assert parse_game_options(definition, ["--decks", "combined"]) == {"decks": "combined"}
    state = GAME.new_game(SPEC, 4, {"decks": "combined"})
    result = play(state, seeded_table(9), TranscriptHeader(game="halls-of-horror", players=4, options={"decks": "combined"}))
    assert result.state.outcome() is not None and not invariants(result.state)
    with pytest.raises(ValueError, match="two alternative ways"):
        GAME.new_game(SPEC, 4, {"decks": "combined", "variant": "mixed"})
    with pytest.raises(ValueError, match="decks must be separate or combined"):
        GAME.new_game(SPEC, 4, {"decks": "shuffled"})


# --------------------------------------------------------------------------------------------
# Hooks and pictures


def test_the_game_provides_every_scenario_hook() -> None:
    assert GAME.position is build_position and GAME.describe_position is describe_position
    assert GAME.invariants is invariants and GAME.draw_svg is draw_svg


def test_invariants_catch_a_broken_state() -> None:
    state = build_position(SPEC, 2, {}, {})
    state.pp[0].keys = 1  # a Key from nowhere
    state.pp[1].resolve = -1
    problems = invariants(state)
    assert any(p.startswith("keys: held 1") for p in problems)
    assert "Mia Resolve -1 negative" in problems


def test_draw_svg_is_well_formed() -> None:
    state = build_position(SPEC, 3, {}, {"rooms": {"r12a": {"at": [1, 1], "temp": True}, "r02a": {"at": [2, 2], "locked": True},
                                                   "r05a": {"at": [1, 0], "gift": "gift-knife", "exhausted": True}},
                                         "participants": {"P1": {"room": [1, 1]}, "P2": {"alive": False}},
                                         "killer": {"stunned": True}})
    svg = draw_svg(state)
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert {"P1", "P2", "P3", "K", "G", "locked", "Sealed Vault"} <= set(texts)
