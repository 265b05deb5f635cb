"""Haunt 22, The Abyss Gazes Back: the Abyss opens in an unoccupied basement room with an omen or
event symbol (from the room stack when none is in the house) and eats the house room by room
(the generic ``collapse`` piece): the first room at the end of the traitor's first turn, then per
the round's rate, each room touching a fallen one, the basement first; Speed 4+ to jump clear;
the Holy Symbol's sacrifice; the traitor collapsing after its death; the exorcism and both wins."""

from __future__ import annotations

from betrayal_support import played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState
from hauntcheck.engine.betrayal.state import Req
from hauntcheck.engine.core import CHANCE, Action, ActionList
from hauntcheck.engine.games import game_spec


def started(players: int = 4) -> HauntState:
    return start_haunt(players, 22)


def abyss(st: HauntState) -> str:
    rooms = st.htokens["abyss-mouth"]
    assert len(rooms) == 1
    return rooms[0]


def everyone_to(st: HauntState, room: str) -> None:
    for seat in st.seat_ids:
        st.ex[seat].room = room
        st.ex[seat].part = 0


def far_from(st: HauntState, rooms: set[str]) -> str:
    """An upper-floor room (or the Upper Landing): out of reach of a basement collapse for now."""
    return next(r for r in sorted(st.house.spots) if st.house.floor_of(r) == "upper" and r not in rooms)


def opened(players: int) -> tuple[HauntState, str]:
    """A started game with everyone upstairs and the Abyss room fallen (the end of the traitor's
    first turn); returns the state and the traitor's seat."""
    st = started(players)
    traitor = st.traitor()
    assert traitor is not None
    everyone_to(st, far_from(st, set()))
    rolled(st.collapse_turn(traitor))
    return st, traitor


def asked(seen: list[Req], kind: str) -> list[list[Action]]:
    return [[a for a in r.choices if a.kind == kind] for r in seen
            if isinstance(r.choices, ActionList) and any(a.kind == kind for a in r.choices)]


def test_the_abyss_opens_in_an_unoccupied_basement_room_with_an_omen_or_event_symbol() -> None:
    for players in (3, 5):
        st = started(players)
        room = abyss(st)
        assert st.house.floor_of(room) == "basement"
        assert st.t.rooms[room].symbol in ("omen", "event")
        assert st.pool == {"sanity-roll": players, "knowledge-roll": players}
        traitor = st.traitor()
        assert traitor is not None and st.haunt is not None and traitor == st.left_of(str(st.haunt["revealer"]))


def test_with_no_such_room_in_the_house_one_is_turned_up_from_the_stack_and_placed_in_the_basement() -> None:
    st = started(4)
    assert st.hs is not None
    step = next(s for s in st.hs.traitor_side.setup if "place" in s)  # type: ignore[union-attr]
    where = step["place"]["in"]
    everyone_to(st, "entrance-hall")
    for room in [r for r in st.house.rooms_on("basement") if st.t.rooms[r].symbol in ("omen", "event")]:
        st.house.remove(room)  # back in the stack: no fitting room is left in the house
        st.stack.append(room)
    before = set(st.house.spots)
    room, seen = rolled(st._location(where, set(), "the Abyss"))
    assert room not in before and st.house.floor_of(room) == "basement"
    assert st.t.rooms[room].symbol in ("omen", "event")
    assert room not in st.stack
    assert any(r.actor == CHANCE for r in seen), "the tile turned up is a chance draw"


def test_the_first_room_falls_at_the_end_of_the_traitors_first_turn_and_not_before() -> None:
    st = started(4)
    traitor = st.traitor()
    assert traitor is not None
    hero = st.living_heroes()[0]
    everyone_to(st, far_from(st, set()))
    rolled(st.collapse_turn(hero))
    assert st.collapsed == []
    rolled(st.collapse_turn(traitor))
    assert st.collapsed == [abyss(st)]


def test_from_turn_three_each_hero_rolls_dice_and_each_room_falls_next_to_a_fallen_one() -> None:
    st, traitor = opened(4)
    st.hround = 3
    hero = st.living_heroes()[0]
    _, seen = rolled(st.collapse_turn(hero), [[2, 1]])  # two dice showing 3: three rooms
    assert len(st.collapsed) == 4
    dice = [len(next(iter(r.choices))["faces"]) for r in seen  # type: ignore[arg-type]
            if r.actor == CHANCE and next(iter(r.choices)).kind == "roll"]
    assert dice == [2]
    for i, room in enumerate(st.collapsed[1:], start=1):
        same_floor = {r for r in st.collapsed[:i] if st.house.floor_of(r) == st.house.floor_of(room)}
        assert st._collapse_neighbours(room) & same_floor or not same_floor
    assert all(r.actor in (CHANCE, traitor) for r in seen), "the traitor picks the rooms"


def test_in_round_two_a_hero_brings_down_one_room_the_traitor_chooses() -> None:
    st, _ = opened(4)
    st.hround = 2
    _, seen = rolled(st.collapse_turn(st.living_heroes()[0]))
    assert len(st.collapsed) == 2
    assert not [r for r in seen if r.actor == CHANCE]


def test_an_engulfed_explorer_who_fails_the_speed_roll_dies_and_one_who_makes_it_jumps_through_a_door() -> None:
    st = started(4)
    traitor = st.traitor()
    assert traitor is not None
    room = abyss(st)
    a, b = st.living_heroes()[:2]
    everyone_to(st, far_from(st, {room}))
    st.ex[a].room = st.ex[b].room = room
    safe = st.door_adjacent(room)
    rolled(st.collapse_turn(traitor), [[0], [2, 2]])  # a rolls 0: falls; b rolls 4+: jumps
    assert st.ex[a].dead
    if safe:
        assert not st.ex[b].dead and st.ex[b].room in safe
    else:
        assert st.ex[b].dead, "with no room to jump to, even a success falls"


def test_an_explorer_found_in_a_fallen_room_falls() -> None:
    st, traitor = opened(4)
    hero = st.living_heroes()[0]
    st.ex[hero].room = st.collapsed[0]  # an event sent them there
    rolled(st.collapse_turn(traitor))
    assert st.ex[hero].dead


def test_the_traitor_collapses_rooms_at_its_turn_slot_after_its_death() -> None:
    st, traitor = opened(4)
    st.ex[traitor].dead = True
    st.hround = 2
    rolled(st._slot_rules(traitor))
    assert len(st.collapsed) == 2


def test_sacrificing_the_holy_symbol_holds_the_house_until_the_end_of_the_heros_next_turn() -> None:
    st, traitor = opened(4)
    st.collapsed.append("foyer")  # a fallen room with a connecting doorway into the Entrance Hall
    hero, other = st.living_heroes()[:2]
    st.ex[hero].room = "entrance-hall"
    st.ex[hero].cards.append("holy-symbol")
    st.hround = 2
    _, seen = rolled(st.collapse_turn(hero), [], lambda r: next(a for a in r.choices if a.kind == "sacrifice"))  # type: ignore[union-attr]
    assert asked(seen, "sacrifice") and "holy-symbol" not in st.ex[hero].cards and "holy-symbol" in st.destroyed
    assert len(st.collapsed) == 2
    rolled(st.collapse_turn(other))
    rolled(st.collapse_turn(traitor))
    assert len(st.collapsed) == 2, "nothing falls until the end of the hero's next turn"
    st.hround = 3
    rolled(st.collapse_turn(hero), [[1, 0]])
    assert len(st.collapsed) == 3, "at the end of the next turn the house falls again"


def test_without_a_connecting_door_into_a_fallen_room_the_holy_symbol_is_not_offered() -> None:
    st, _ = opened(4)
    hero = st.living_heroes()[0]
    st.ex[hero].cards.append("holy-symbol")
    assert not st.door_adjacent(st.ex[hero].room) & set(st.collapsed)
    st.hround = 2
    _, seen = rolled(st.collapse_turn(hero))
    assert not asked(seen, "sacrifice") and len(st.collapsed) == 2


def test_a_traitor_holding_the_holy_symbol_is_offered_no_sacrifice() -> None:
    st = started(4)
    traitor = st.traitor()
    assert traitor is not None
    room = abyss(st)
    everyone_to(st, far_from(st, {room}))
    rolled(st.collapse_turn(traitor))
    st.ex[traitor].room = room
    st.ex[traitor].dead = False
    st.ex[traitor].cards.append("holy-symbol")
    st.hround = 2
    _, seen = rolled(st._pause_offer(traitor, st.collapse_rule() or {}))
    assert not asked(seen, "sacrifice")


def test_a_fresh_floor_starts_with_an_unoccupied_room_with_an_unexplored_door() -> None:
    st = started(4)
    traitor = st.traitor()
    assert traitor is not None
    everyone_to(st, far_from(st, set()))
    st.collapsed = list(st.house.rooms_on("basement"))
    st.collapse_state["started"] = 1
    options = st.collapse_candidates()
    assert options and all(st.house.floor_of(r) == "ground" for r in options)
    assert all(st._open_doorway(r) for r in options) or not any(
        st._open_doorway(r) for r in st.house.rooms_on("ground"))


def test_the_collapse_stops_and_the_heroes_win_with_one_exorcism_success_per_player() -> None:
    st = started(3)
    traitor = st.traitor()
    assert traitor is not None
    everyone_to(st, far_from(st, set()))
    rolled(st.collapse_turn(traitor))
    st.earned["sanity-roll"] = 2
    st.earned["knowledge-roll"] = 1
    st.hround = 2
    rolled(st.collapse_turn(traitor))
    assert len(st.collapsed) == 1 and st.collapse_state.get("stopped")
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_traitor_wins_when_every_hero_is_dead_even_after_its_own_death() -> None:
    st, traitor = opened(3)
    st.ex[traitor].dead = True
    assert not st._check_wins()
    for seat in st.seat_ids:
        st.ex[seat].room = st.collapsed[0] if seat != traitor else st.ex[seat].room  # sent into the pit
    rolled(st._slot_rules(traitor))
    assert all(st.ex[s].dead for s in st.heroes())
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR


def test_fallen_rooms_are_no_way_through_for_moves_or_plans() -> None:
    st, _ = opened(4)
    gone = st.collapsed[0]
    assert gone not in st._graph()
    assert gone not in st._dist_to([r for r in st.house.spots if r != gone])


def test_the_traitor_may_take_the_secret_stairs_instead_of_an_event_only_in_the_basement() -> None:
    st = started(4)
    traitor = st.traitor()
    assert traitor is not None
    for card in ("secret-stairs", "secret-passage"):
        if card not in st.decks["event"]:
            st.decks["event"].append(card)
    st.ex[traitor].room = "entrance-hall"
    _, seen = rolled(st.draw_card(traitor, "event"))
    assert not asked(seen, "fetch")
    st.ex[traitor].room = "basement-landing"
    card, seen = rolled(st.draw_card(traitor, "event"), [], lambda r: next(a for a in r.choices if a.kind == "fetch"))  # type: ignore[union-attr]
    assert asked(seen, "fetch") and card in ("secret-stairs", "secret-passage") and card in st.ex[traitor].cards


def test_a_policy_game_keeps_the_invariants_and_the_haunt_plays_without_hooks() -> None:
    assert played_out(4, 22).outcome() is not None
    report = hauntmod.support(game_spec("betrayal"))
    assert report[22]["playable"] and report[22]["hooks"] == [] and not report[22]["blockers"]
