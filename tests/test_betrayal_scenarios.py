"""Betrayal dispute scenarios: every shipped scenario passes, positions round-trip, pictures parse."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml
from betrayal_support import haunt_seed

from hauntcheck.engine.betrayal import GAME, new_game
from hauntcheck.engine.betrayal.draw import draw_svg
from hauntcheck.engine.betrayal.haunt import HauntState, Monster, support
from hauntcheck.engine.betrayal.house import House
from hauntcheck.engine.betrayal.policy import policy
from hauntcheck.engine.betrayal.position import at_turn_prompt, build_position, describe_position
from hauntcheck.engine.betrayal.position.build import SHARED_FIELDS, WARM_CACHES
from hauntcheck.engine.betrayal.state import BetrayalState, Explorer, Turn, invariants
from hauntcheck.engine.compiled import fields_of
from hauntcheck.engine.games import GameDef, game_spec
from hauntcheck.engine.inputs import FAST_LOADER
from hauntcheck.engine.play import PolicyController, seeded_table
from hauntcheck.engine.scenario import PositionError, ScenarioRun, load_scenario, scenario_files

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "scenarios" / "betrayal"
SPEC = game_spec("betrayal")
DEFINITION: GameDef = dataclasses.replace(
    GAME, position=build_position, describe_position=describe_position, draw_svg=draw_svg
)
SHIPPED = sorted(scenario_files(FOLDER))
MODELINE = "# yaml-language-server: $schema=../../../spec/schema/scenario.schema.json"


def run_text(tmp_path: Path, body: str) -> Any:
    path = tmp_path / "case.yaml"
    path.write_text(f"{MODELINE}\nspec_version: 1\nkind: scenario\ngame: betrayal\ntitle: a case\n"
                    "source: {rules: [move.through-matching-doors]}\nplayers: 3\n" + body)
    return ScenarioRun(load_scenario(path, "case.yaml"), DEFINITION, SPEC).run()


def test_enough_scenarios_are_shipped() -> None:
    disputes = [p for p in SHIPPED if p.parent.name == "disputes"]
    examples = [p for p in SHIPPED if p.parent.name == "examples"]
    assert len(disputes) >= 40 and len(examples) >= 10


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_scenario_passes(path: Path) -> None:
    assert path.read_text().startswith(MODELINE + "\n")
    run = ScenarioRun(load_scenario(path, str(path.relative_to(ROOT))), DEFINITION, SPEC)
    result = run.run()
    assert result.ok, "\n".join(result.failures)
    assert result.before is not None and result.after is not None
    assert set(result.rules_applied) >= set(run.file.data["rules"])


# --------------------------------------------------------------------------------------------
# Positions: defaults, errors, round trips


def test_defaults_are_the_state_after_setup() -> None:
    state = build_position(SPEC, 4, {}, {})
    fresh = new_game(SPEC, 4, {})
    for seat, explorer in zip(fresh.seat_ids, ["brandon-jaspers", "darrin-flash-williams", "father-rhinehardt",
                                               "heather-granville"], strict=True):
        fresh.apply(fresh.legal_actions().__iter__().__next__().__class__.of("choose", explorer=explorer))
        assert fresh.ex[seat].id == explorer
    assert BetrayalState.snapshot(state) == BetrayalState.snapshot(fresh)
    assert state.history == [] and not invariants(state)


def test_position_errors_name_every_bad_path() -> None:
    bad = {
        "explorers": {"P1": "zoe-ingstrom"},
        "rooms": {"kitchn": {"floor": "ground", "at": [1, 1]}, "gymnasium": {"floor": "ground", "at": [2, 2]},
                  "attic": {"floor": "upper", "at": [1, "x"]}},
        "where": {"P2": "vault"},
        "traits": {"P1": {"speed": 99}},
        "cards": {"P3": ["axe", "axe"]},
        "mosnters": {},
    }
    with pytest.raises(PositionError) as info:
        build_position(SPEC, 3, {}, bad)
    problems = dict(info.value.problems)
    assert "unknown room 'kitchn' (did you mean kitchen?)" in problems[("rooms", "kitchn")]
    assert problems[("rooms", "gymnasium", "floor")] == "Gymnasium can only go on upper, basement, not ground"
    assert "at is a cell [x, y]" in problems[("rooms", "attic", "at")]
    assert problems[("where", "P2")] == "vault is not in the house (place it under rooms)"
    assert "99 is not on Zoe Ingstrom's speed track" in problems[("traits", "P1", "speed")]
    assert problems[("cards", "P3", 1)] == "axe is already placed at position.cards.P3.0"
    assert "unknown key 'mosnters'" in problems[("mosnters",)]


def test_position_sections_of_the_wrong_shape_are_reported_not_ignored() -> None:
    bad = {"piles": ["axe"], "discards": "bite", "decks": ["axe"], "tokens": 3, "stored_rolls": [4], "deck_tops": "x",
           "rooms": ["kitchen"]}
    with pytest.raises(PositionError) as info:
        build_position(SPEC, 3, {}, bad)
    problems = dict(info.value.problems)
    assert problems[("piles",)] == "piles maps rooms to the cards in their item pile"
    assert problems[("discards",)] == "discards maps card kinds (omen, item, event) to discarded cards"
    assert problems[("decks",)] == "decks maps card kinds (omen, item, event) to their stacks, top first"
    assert problems[("tokens",)] == "tokens maps rooms to token names"
    assert problems[("stored_rolls",)] == "stored_rolls maps seats to a roll total"
    assert problems[("deck_tops",)] == "deck_tops maps omen|item|event to the cards known on top, top first"
    assert problems[("rooms",)] == "rooms maps room ids to {floor, at: [x, y], rotation}"


def test_a_turn_that_cannot_start_where_placed_is_refused() -> None:
    with pytest.raises(PositionError) as info:
        build_position(SPEC, 3, {}, {"rooms": {"coal-chute": {"floor": "ground", "at": [1, 1], "rotation": 3}},
                                      "where": {"P1": "coal-chute"}, "turn": "P1"})
    assert "moves them on at once to foyer" in info.value.problems[0][1]


def test_trait_values_resolve_near_the_start_and_indexes_are_exact() -> None:
    state = build_position(SPEC, 3, {}, {"explorers": {"P1": "jenny-leclerc"},
                                         "traits": {"P1": {"speed": 4, "might": {"index": 1}}}})
    assert state.ex["P1"].idx["speed"] == 3  # Jenny's Speed 4 appears at 2, 3 and 4; she starts on 3
    assert state.ex["P1"].idx["might"] == 1
    with pytest.raises(PositionError):
        build_position(SPEC, 3, {}, {"traits": {"P1": {"might": "skull"}}})  # no skull before the haunt


def test_built_positions_clone_and_play_on() -> None:
    state = build_position(SPEC, 3, {}, {"rooms": {"coal-chute": {"floor": "ground", "at": [1, 1], "rotation": 3}},
                                         "where": {"P2": "foyer"}, "turn": "P2", "cards": {"P2": ["book"]}})
    table = seeded_table(4)
    for _ in range(40):
        actor = state.to_move()
        assert actor is not None
        state.apply(table.for_actor(actor).choose(state, actor, state.legal_actions()))
    assert state.clone().snapshot() == state.snapshot()
    assert not invariants(state)


def _read(path: Path) -> Any:
    """A scenario file's data, read by libyaml when installed (the same data as yaml.safe_load's,
    several times faster: every pytest-xdist worker reads all of them to collect the tests below)."""
    return yaml.load(path.read_text(), Loader=FAST_LOADER)  # FAST_LOADER is a safe loader


POSITIONS = [(p, d) for p in SHIPPED if isinstance(d := _read(p), dict) and "position" in d]


def _containers(value: Any, found: list[Any]) -> None:
    """Every mutable container and record reachable from ``value`` (what KeptState copies; a
    tuple holds plain values or the spec's own data, such as a token's abilities, and is shared)."""
    if isinstance(value, list | dict | set):
        found.append(value)
        for item in (list(value.items()) if isinstance(value, dict) else list(value)):
            _containers(item, found)
    elif isinstance(value, Explorer | Turn | Monster):
        found.append(value)
        for f in dataclasses.fields(value):
            _containers(getattr(value, f.name), found)
    elif isinstance(value, House):
        found.append(value)
        _containers([value.grid, value.spots, value._floor_changes, value._free_cache], found)


def _own_containers(state: BetrayalState) -> list[Any]:
    found: list[Any] = []
    for key, value in fields_of(state).items():
        if key in WARM_CACHES:
            found.append(value)  # its own mapping; the cached menus in it are shared, never changed
        elif key not in SHARED_FIELDS:
            _containers(value, found)
    return found


def _scribble(found: list[Any]) -> None:
    """Change every container in place, as no game would: a copy sharing one would show it."""
    for item in found:
        if isinstance(item, list):
            item.append("scribbled")
        elif isinstance(item, dict):
            item["scribbled"] = "scribbled"
        elif isinstance(item, set):
            item.add("scribbled")


def _rebuilds_are_independent(state: BetrayalState, fresh: BetrayalState) -> None:
    first, second = state.rebuild(), state.restart()
    assert first.snapshot() == second.snapshot() == fresh.snapshot() == state.snapshot()
    mine, theirs = _own_containers(first), _own_containers(second)
    assert mine and not {id(x) for x in mine} & {id(x) for x in theirs}
    # the spec's data is shared, never copied
    assert first.t is second.t is state.t and first.rules is state.rules and first.setup is second.setup is state.setup
    if isinstance(first, HauntState) and isinstance(state, HauntState):
        assert first.haunts is state.haunts and first.weapons is state.weapons
    _scribble(mine)
    assert state.rebuild().snapshot() == fresh.snapshot()


@pytest.mark.parametrize("path", [p for p, _ in POSITIONS], ids=[p.stem for p, _ in POSITIONS])
def test_a_rebuilt_position_is_a_fresh_build_and_shares_nothing_mutable(path: Path) -> None:
    """A rebuild copies the state the first build kept: every copy equals a fresh build, and
    changing one (every list, mapping and set in it) changes neither the kept state nor another."""
    data = _read(path)
    players, options = data.get("players", 3), data.get("options") or {}
    state = build_position(SPEC, players, options, data["position"])
    _rebuilds_are_independent(state, build_position(SPEC, players, options, data["position"]))


def test_rebuilt_haunt_phase_positions_are_fresh_builds() -> None:
    """Positions in a haunt's own phase (its setup run, monsters and tokens out) rebuild exactly too."""
    checked = 0
    for number in (1, 5, 10, 34):
        position = {"haunt": {"number": number, "traitor": "P2", "revealer": "P2"}}
        state = build_position(SPEC, 4, {}, position)
        if isinstance(state, HauntState) and state.hs is not None:
            checked += 1
        _rebuilds_are_independent(state, build_position(SPEC, 4, {}, position))
        table = seeded_table(number)
        for _ in range(30):  # played on, the rebuild still plays the same game
            actor = state.to_move()
            if actor is None:
                break
            state.apply(table.for_actor(actor).choose(state, actor, state.legal_actions()))
        assert state.clone().snapshot() == state.snapshot()
    assert checked >= 2


def _walk_games(seeds: range, every: int) -> list[tuple[int, int, BetrayalState]]:
    """(seed, players, state) at turn decisions of seeded random games, before the haunt."""
    out = []
    for seed in seeds:
        players = 3 + seed % 4
        state = new_game(SPEC, players, {})
        table = seeded_table(seed)
        for step in range(500):
            actor = state.to_move()
            if actor is None or state.haunt is not None:
                break
            if at_turn_prompt(state) and step % every == 0:
                out.append((seed, players, state.clone()))
            state.apply(table.for_actor(actor).choose(state, actor, state.legal_actions()))
    return out


@pytest.mark.long
def test_describe_then_build_gives_the_same_state_and_the_same_future() -> None:
    states = _walk_games(range(8), 9)
    assert len(states) > 60
    for seed, players, state in states:
        described = describe_position(state)
        built = build_position(SPEC, players, {}, described)
        assert BetrayalState.snapshot(built) == BetrayalState.snapshot(state), (seed, described)
        # The built state is a real engine state: the same actions lead to the same states.
        table = seeded_table(seed + 100)
        for _ in range(25):
            actor = state.to_move()
            if actor is None:
                break
            action = table.for_actor(actor).choose(state, actor, state.legal_actions())
            assert [str(e) for e in built.apply(action)] == [str(e) for e in state.apply(action)]
        assert BetrayalState.snapshot(built) == BetrayalState.snapshot(state)


@pytest.mark.parametrize("number", sorted(n for n, r in support(SPEC).items() if r["playable"]))
def test_haunt_phase_states_round_trip_through_a_position(number: int) -> None:
    """States in the haunt phase of seeded policy games describe and rebuild exactly (monsters,
    haunt tokens, sides, statuses, the round) and play on the same."""
    seed = haunt_seed(3, number)
    state = new_game(SPEC, 3, {})
    table = seeded_table(seed, PolicyController(policy, seed))
    checked = 0
    prompts = 0
    for _ in range(3000):
        actor = state.to_move()
        if actor is None:
            break
        if isinstance(state, HauntState) and state.hs is not None and at_turn_prompt(state):
            prompts += 1
            if prompts % 4 == 1:
                described = describe_position(state)
                assert described["haunt"]["set_up"] is True and "monsters" in described
                built = build_position(SPEC, 3, {}, described)
                assert built.snapshot() == state.snapshot(), (number, described)
                if checked < 2:
                    ahead, twin = state.clone(), built
                    for _ in range(15):
                        who = ahead.to_move()
                        if who is None:
                            break
                        action = table.for_actor(who).choose(ahead, who, ahead.legal_actions())
                        assert [str(e) for e in twin.apply(action)] == [str(e) for e in ahead.apply(action)]
                    assert twin.snapshot() == ahead.snapshot()
                checked += 1
        state.apply(table.for_actor(actor).choose(state, actor, state.legal_actions()))
    assert checked >= 2, f"haunt {number}: only {checked} haunt-phase turn decisions checked"


def test_a_haunt_position_runs_the_haunts_setup_then_states_its_monsters() -> None:
    built = build_position(SPEC, 3, {}, {"haunt": {"number": 5, "traitor": "P2", "revealer": "P2"}})
    assert isinstance(built, HauntState)
    phase = built.snapshot()["haunt_phase"]
    assert phase["statuses"] == {"P2": ["werewolf"]} and [m["id"] for m in phase["monsters"]] == ["dog-1"]
    assert built.to_move() == "P3" and phase["round"] == 1  # left of the traitor
    moved = build_position(SPEC, 3, {}, {"haunt": {"number": 5, "traitor": "P2", "revealer": "P2"},
                                         "monsters": [{"kind": "dog", "room": "foyer", "stunned": True}]})
    dog = moved.snapshot()["haunt_phase"]["monsters"][0]
    assert (dog["id"], dog["room"], dog["stunned"]) == ("dog-1", "foyer", True)
    with pytest.raises(PositionError) as info:
        build_position(SPEC, 3, {}, {"haunt": {"number": 5, "traitor": "P2", "revealer": "P2"},
                                     "monsters": [{"kind": "mummy", "room": "foyer"}]})
    assert info.value.problems[0][0] == ("monsters", 0, "kind") and "no monster 'mummy'" in info.value.problems[0][1]


def test_a_monster_in_a_barrier_room_stands_on_a_stated_side() -> None:
    haunt = {"number": 1, "traitor": "P1", "revealer": "P1", "room": "entrance-hall"}
    chasm = {"chasm": {"floor": "basement", "at": [1, 0], "rotation": 0}}
    built = build_position(SPEC, 3, {}, {"rooms": chasm, "haunt": haunt, "monsters": [{"kind": "mummy", "room": "chasm", "side": "west"}]})
    assert isinstance(built, HauntState) and built.mon[0].part == 1  # the Chasm's sides, in tile order: east (0), west (1)
    with pytest.raises(PositionError) as info:
        build_position(SPEC, 3, {}, {"rooms": chasm, "haunt": haunt,
                                     "monsters": [{"kind": "mummy", "room": "chasm", "side": "north"}, {"kind": "mummy", "room": "foyer", "part": 1}]})
    problems = dict(info.value.problems)
    assert problems[("monsters", 0, "side")] == "Chasm has no 'north' side here (sides: east, west)"
    assert problems[("monsters", 1, "part")] == "part is the index of a side of Foyer (0 to 0)"


def test_a_state_mid_process_is_described_at_its_last_turn_decision() -> None:
    state = new_game(SPEC, 3, {})
    table = seeded_table(2)
    while at_turn_prompt(state) or state.phase == "setup" or state.turn.moved == 0 or state.to_move() != "chance":
        actor = state.to_move()
        assert actor is not None
        state.apply(table.for_actor(actor).choose(state, actor, state.legal_actions()))
    described = describe_position(state)
    assert "recorded action(s) lead on from here" in described["note"]
    built = build_position(SPEC, 3, {}, described)
    assert at_turn_prompt(built) and built.current == state.current


# --------------------------------------------------------------------------------------------
# Scenario failures are clear


def test_a_wrong_expectation_fails_with_file_line_and_the_values(tmp_path: Path) -> None:
    result = run_text(tmp_path, """\
rules: [move.through-matching-doors]
position:
  rooms: {kitchen: {floor: ground, at: [-1, 0], rotation: 0}}
  turn: P1
steps:
  - do: {kind: move, to: kitchen, cost: 1}
  - expect: {explorers.P1.room: foyer}
""")
    assert not result.ok
    assert result.failures == ["case.yaml:14:33: error: expected explorers.P1.room = 'foyer', got 'kitchen'"]


def test_a_bad_position_fails_at_its_path(tmp_path: Path) -> None:
    result = run_text(tmp_path, """\
rules: [move.through-matching-doors]
position:
  rooms: {kitchen: {floor: upper, at: [-1, 0]}}
steps:
  - do: {kind: end}
""")
    assert result.failures == ["case.yaml:10:28: error: Kitchen can only go on ground, basement, not upper"]


def test_a_rule_listed_but_not_applied_fails(tmp_path: Path) -> None:
    result = run_text(tmp_path, """\
rules: [room.coal-chute.slide]
position: {turn: P1}
steps:
  - do: {kind: move, to: foyer, cost: 1}
""")
    assert any("room.coal-chute.slide decides it, but that rule was never applied" in f for f in result.failures)


# --------------------------------------------------------------------------------------------
# Pictures


def test_draw_svg_shows_monsters_and_haunt_tokens() -> None:
    state = build_position(SPEC, 3, {}, {
        "explorers": {"P1": "zoe-ingstrom", "P2": "ox-bellows", "P3": "vivian-lopez"},
        "haunt": {"number": 1, "traitor": "P1", "revealer": "P1", "room": "entrance-hall"},
        "monsters": [{"kind": "mummy", "room": "foyer", "stunned": True}]})
    assert isinstance(state, HauntState) and state.htokens
    root = ET.fromstring(draw_svg(state))
    titles = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}title")]
    assert any(t.startswith("Mummy (mummy-1) (stunned)") for t in titles)
    text = " ".join(" ".join(node.itertext()) for node in root.iter())
    assert "mummy-1" in text and "round 1" in text
    assert all(token in text for token in state.htokens)


def test_draw_svg_is_well_formed_and_names_every_placed_room() -> None:
    for seed in (1, 5):
        state = new_game(SPEC, 4, {})
        table = seeded_table(seed)
        for _ in range(300):
            actor = state.to_move()
            if actor is None:
                break
            state.apply(table.for_actor(actor).choose(state, actor, state.legal_actions()))
        svg = draw_svg(state)
        root = ET.fromstring(svg)
        text = " ".join(" ".join(node.itertext()) for node in root.iter())
        titles = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}title"))
        assert len(state.house.spots) > 8
        for room in state.house.spots:
            name = state.t.rooms[room].name
            assert f"{name} ({room})" in titles
            assert all(word in text for word in name.split())
        for seat in state.ex:
            assert f">{seat}<" in svg
