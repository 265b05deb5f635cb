"""House graphs (hauntcheck.checks.graph): hand-built positions for line of sight, distance, one-way
links, barriers and sealed floors, and seeded random Betrayal games up to the reveal in which no
floor is ever sealed and no room ever strands whoever stands in it."""

from __future__ import annotations

from typing import Any

import pytest

from hauntcheck.checks import graph
from hauntcheck.engine.betrayal.house import House
from hauntcheck.engine.betrayal.state import BetrayalState
from hauntcheck.engine.games import game_spec, get_game
from hauntcheck.engine.play import play, seeded_table
from hauntcheck.engine.transcript import Step, TranscriptHeader

N, E, S, W = 0, 1, 2, 3


def blank(tiles_left: tuple[str, ...] = ()) -> BetrayalState:
    """A Betrayal state with an empty house and only ``tiles_left`` still to be drawn."""
    state = get_game("betrayal").new_game(game_spec("betrayal"), 3, {})
    assert isinstance(state, BetrayalState)
    state.house = House(state.t.rooms)
    state.stack, state.aside, state.unshuffled_rooms = list(tiles_left), [], []
    return state


def put(state: BetrayalState, room: str, floor: str, cell: tuple[int, int], rotation: int = 0) -> None:
    state.house.place(room, floor, cell, rotation)


def strip(state: BetrayalState) -> None:
    put(state, "entrance-hall", "ground", (0, 0))
    put(state, "foyer", "ground", (0, 1))
    put(state, "grand-staircase", "ground", (0, 2))


@pytest.fixture
def upper() -> BetrayalState:
    """Upper floor: the landing at (0,0); the Tower (barrier east|west) east of it, then the
    Bedroom; the Balcony and Research Laboratory in a column north of it; the Attic west of it
    with its only door facing south (so the landing's west door meets a wall)."""
    state = blank(tiles_left=("library",))
    strip(state)
    put(state, "upper-landing", "upper", (0, 0))
    put(state, "tower", "upper", (1, 0))
    put(state, "bedroom", "upper", (2, 0))
    put(state, "balcony", "upper", (0, 1))
    put(state, "research-laboratory", "upper", (0, 2))
    put(state, "attic", "upper", (-1, 0))
    return state


# --------------------------------------------------------------------------------------------
# Line of sight


def test_line_of_sight_runs_along_connected_doors(upper: BetrayalState) -> None:
    assert graph.line_of_sight(upper, "upper-landing", "research-laboratory")
    assert graph.line_of_sight(upper, "research-laboratory", "upper-landing")
    assert graph.line_of_sight(upper, "upper-landing", "balcony")


def test_no_line_of_sight_across_a_barrier_diagonally_or_into_a_wall(upper: BetrayalState) -> None:
    assert not graph.line_of_sight(upper, "upper-landing", "bedroom")  # through the Tower's barrier
    assert not graph.line_of_sight(upper, "balcony", "bedroom")  # diagonal
    assert not graph.line_of_sight(upper, "upper-landing", "attic")  # the door meets a wall
    assert not graph.line_of_sight(upper, "upper-landing", "grand-staircase")  # another floor


def test_line_of_sight_into_a_barrier_room_depends_on_the_side(upper: BetrayalState) -> None:
    # Tower splits east|west: part 0 has the east door, part 1 the west door (facing the landing).
    assert graph.line_of_sight(upper, "upper-landing", "tower", part_b=1)
    assert not graph.line_of_sight(upper, "upper-landing", "tower", part_b=0)
    assert graph.line_of_sight(upper, "bedroom", "tower", part_b=0)


def test_line_of_sight_along_the_starting_strip() -> None:
    state = blank()
    strip(state)
    assert graph.line_of_sight(state, "entrance-hall", "grand-staircase")


# --------------------------------------------------------------------------------------------
# Distance and one-way links


def test_distance_counts_rooms_and_not_barrier_crossings(upper: BetrayalState) -> None:
    assert graph.distance(upper, "upper-landing", "bedroom") == 2  # landing, tower (cross free), bedroom
    assert graph.distance(upper, "upper-landing", "research-laboratory") == 2
    assert graph.distance(upper, "entrance-hall", "research-laboratory") == 5  # strip, stairs, 2 up
    assert graph.distance(upper, "upper-landing", "attic") is None


def test_coal_chute_is_one_way_until_the_stairs_from_basement_are_found() -> None:
    state = blank(tiles_left=("crypt",))
    strip(state)
    put(state, "coal-chute", "ground", (1, 0), rotation=3)  # its door turned to face west
    put(state, "basement-landing", "basement", (0, 0))
    assert graph.distance(state, "entrance-hall", "basement-landing") == 2
    assert graph.distance(state, "basement-landing", "entrance-hall") is None
    assert graph.distance(state, "entrance-hall", "basement-landing", walked_only=True) is None
    reach = graph.unreachable(state)
    assert reach.one_way_only == ["basement-landing"] and reach.stranded == []
    put(state, "stairs-from-basement", "basement", (0, -1), rotation=2)  # door turned to face north
    assert graph.distance(state, "basement-landing", "entrance-hall") == 3  # stairs, foyer, hall
    assert graph.unreachable(state).one_way_only == []


def test_collapsed_room_falls_to_the_token_and_gallery_drops_to_ballroom() -> None:
    state = blank()
    strip(state)
    put(state, "collapsed-room", "ground", (1, 0))
    put(state, "ballroom", "ground", (-1, 0))
    put(state, "upper-landing", "upper", (0, 0))
    put(state, "gallery", "upper", (0, 1))
    put(state, "basement-landing", "basement", (0, 0))
    put(state, "crypt", "basement", (0, -1))
    assert graph.distance(state, "collapsed-room", "crypt") is None
    state.tokens["crypt"] = ["below-collapsed-room"]
    assert graph.distance(state, "collapsed-room", "crypt") == 1
    assert graph.distance(state, "crypt", "collapsed-room") is None
    assert graph.distance(state, "gallery", "ballroom") == 1
    assert graph.distance(state, "ballroom", "gallery") == 5  # hall, foyer, staircase, landing, gallery
    kinds = {d["kind"] for _, _, d in graph.house_graph(state).out_edges("gallery", data=True)}
    assert kinds == {"door", "jump"}


def test_card_passages_join_their_rooms_both_ways() -> None:
    state = blank()
    strip(state)
    put(state, "upper-landing", "upper", (0, 0))
    assert graph.distance(state, "entrance-hall", "upper-landing") == 3
    state.links.append(("entrance-hall", "upper-landing", 1, "secret-stairs"))
    assert graph.distance(state, "entrance-hall", "upper-landing") == 1
    assert graph.distance(state, "upper-landing", "entrance-hall") == 1


def test_the_mystic_elevator_links_where_it_stands() -> None:
    state = blank(tiles_left=("crypt",))
    strip(state)
    put(state, "upper-landing", "upper", (0, 0))
    put(state, "mystic-elevator", "upper", (0, 1), rotation=2)  # door faces south, onto the landing
    assert graph.distance(state, "entrance-hall", "mystic-elevator") == 4
    state.house.remove("mystic-elevator")
    put(state, "mystic-elevator", "ground", (1, 0), rotation=3)  # door faces west, onto the hall
    assert graph.distance(state, "entrance-hall", "mystic-elevator") == 1
    assert graph.house_graph(state).nodes["mystic-elevator"]["floor"] == "ground"


# --------------------------------------------------------------------------------------------
# Sealed floors and stranded rooms


def boxed_basement(tiles_left: tuple[str, ...]) -> BetrayalState:
    """The Basement Landing with a one-door room against each of its four doors: no free doorway."""
    state = blank(tiles_left=tiles_left)
    strip(state)
    put(state, "upper-landing", "upper", (0, 0))
    put(state, "basement-landing", "basement", (0, 0))
    put(state, "crypt", "basement", (0, -1))  # door north
    put(state, "pentagram-chamber", "basement", (-1, 0))  # door east
    put(state, "storeroom", "basement", (0, 1), rotation=2)  # door turned south
    put(state, "stairs-from-basement", "basement", (1, 0), rotation=1)  # door turned west
    return state


def test_a_floor_without_a_free_doorway_is_sealed_only_while_tiles_remain() -> None:
    assert graph.sealed_floors(boxed_basement(tiles_left=("wine-cellar", "library"))) == ["basement"]
    assert graph.sealed_floors(boxed_basement(tiles_left=("library",))) == []
    assert graph.free_doorways(boxed_basement(()), "basement") == []
    assert graph.problems(boxed_basement(("wine-cellar",)))[0].startswith("the basement floor is sealed")


def test_a_room_reaching_no_way_out_is_stranded(upper: BetrayalState) -> None:
    # The Attic's only door faces an empty square: while upper tiles remain, someone there could
    # explore; once none remain it is a dead end nobody can leave.
    assert graph.unreachable(upper).stranded == []
    assert "attic" in graph.unreachable(upper).not_reached
    upper.stack = []
    assert graph.unreachable(upper).stranded == ["attic"]


# --------------------------------------------------------------------------------------------
# Random games: the engine never seals a floor or strands a room


def _watch(failures: list[str], seed: int) -> Any:
    seen: dict[tuple[int, int, int, int], list[str]] = {}

    def check(state: Any, step: Step) -> None:
        key = (state.house.version, len(state.links), len(state.stack) + len(state.aside), sum(map(len, state.tokens.values())))
        if key not in seen:
            seen[key] = graph.problems(state)
            failures.extend(f"seed {seed} step {step.n}: {p}" for p in seen[key])

    return check


@pytest.mark.parametrize("seed", range(40))
def test_random_games_never_seal_a_floor_or_strand_a_room(seed: int) -> None:
    players = 3 + seed % 4
    state = get_game("betrayal").new_game(game_spec("betrayal"), players, {})
    failures: list[str] = []
    header = TranscriptHeader(game="betrayal", players=players, seed=seed)
    result = play(state, seeded_table(seed), header, stop="reveal", max_steps=4000, on_step=_watch(failures, seed))
    assert failures == []
    assert isinstance(result.state, BetrayalState)
    assert len(result.state.house.spots) >= 5  # the starting tiles and landings at least


@pytest.mark.parametrize("seed", range(40))
def test_graph_distances_agree_with_the_engine(seed: int) -> None:
    """Independent cross-check: walking distances from the Entrance Hall by this module's graph
    and by the engine's own search agree exactly at the reveal (barrier rooms included)."""
    players = 3 + seed % 4
    state = get_game("betrayal").new_game(game_spec("betrayal"), players, {})
    header = TranscriptHeader(game="betrayal", players=players, seed=seed)
    final = play(state, seeded_table(seed), header, stop="reveal", max_steps=4000).state
    assert isinstance(final, BetrayalState)
    assert graph.distances_from(final, "entrance-hall", walked_only=True) == final.distances("entrance-hall")


def test_engine_distances_see_past_a_barrier_however_it_is_turned() -> None:
    """The Catacombs between the Basement Landing and the Wine Cellar: crossing costs no space, so
    the Wine Cellar is 2 rooms away whichever way the tile is turned (a bug this test caught in
    the engine's search, which looked only through the doors of side 0)."""
    found = {}
    for rotation in (0, 2):
        state = blank()
        strip(state)
        put(state, "basement-landing", "basement", (0, 0))
        put(state, "catacombs", "basement", (0, 1), rotation=rotation)
        put(state, "wine-cellar", "basement", (0, 2))
        assert graph.distance(state, "basement-landing", "wine-cellar", walked_only=True) == 2
        found[rotation] = state.distances("basement-landing").get("wine-cellar")
    assert found == {0: 2, 2: 2}


def test_verify_family_watches_random_games() -> None:
    from hauntcheck.checks.verify import FAMILIES, load_context

    graph.register()
    assert [name for name, _ in FAMILIES].count("house graph") == 1
    result = graph.family_house(load_context("betrayal"))
    assert result.ok and result.checked > len(graph.VERIFY_SEEDS)
    assert graph.family_house(load_context("haunted")).applies is False
