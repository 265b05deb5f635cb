"""Haunt 27, Amok Flesh: the Blob as a token field (place, spread, clear_tokens), the side's
rules at the monster turn, engulfing (a Blob-person: Speed 2, the traitor's side, nothing
carried), the heroes' examination, ingredients and throws, and the policy keeping heroes out of
the Blob's way."""

from __future__ import annotations

from betrayal_support import drive
from betrayal_support import started as started_haunt

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState
from hauntcheck.engine.betrayal.haunt.fields import side_monster_rules, side_monster_turn
from hauntcheck.engine.betrayal.policy import turn
from hauntcheck.engine.betrayal.policy.fields import _deadly_entry, _doomed_rooms
from hauntcheck.engine.betrayal.state.base import Turn


def started(players: int = 4) -> HauntState:
    """A policy game of haunt 27 on its first haunt turn (before any monster turn)."""
    return started_haunt(players, 27)


def on_turn(st: HauntState, seat: str) -> None:
    st.current = seat
    st.turn = Turn(seat, start_room=st.ex[seat].room)


def test_the_blob_breaks_out_in_the_crystal_balls_room_and_spreads_each_monster_turn() -> None:
    st = started()
    haunt_room = str(st.haunt["room"]) if st.haunt else ""
    assert "crystal-ball" not in st.ex[str(st.haunt["revealer"])].cards if st.haunt else False
    assert side_monster_rules(st), "the Blob grows at the monster turn although no monster is in play"
    assert st.htokens.get("blob", []) == []
    for seat in st.seat_ids:  # nobody is caught: this test is about the field
        st.ex[seat].room = "entrance-hall" if haunt_room != "entrance-hall" else "foyer"
    drive(side_monster_turn(st))
    first = set(st.htokens["blob"])
    assert first == {haunt_room, *st.adjoining_rooms(haunt_room)}
    assert "blob-out" in st.hflags
    drive(side_monster_turn(st), face=0)  # the die shows 0: one expansion only
    second = set(st.htokens["blob"])
    ways = {other for room in first for other, _cost, _how in st._room_exits(room)}
    assert second == first | ways
    assert len(st.htokens["blob"]) == len(second), "a room holds one Blob token, not two"


def test_spread_grows_only_from_tokens_joined_to_the_first_room() -> None:
    st = started()
    haunt_room = str(st.haunt["room"]) if st.haunt else ""
    far = next(r for r in sorted(st.house.spots) if r != haunt_room and haunt_room not in
               {o for o, _c, _h in st._room_exits(r)} and st._room_exits(r))
    st.htokens["blob"] = [haunt_room, far]
    drive(st._outcome({"spread": {"token": "blob", "from": {"haunt_room": True}}}, None, None))
    grown = set(st.htokens["blob"]) - {haunt_room, far}
    assert grown == {o for o, _c, _h in st._room_exits(haunt_room)} - {far}
    drive(st._outcome({"spread": {"token": "blob"}}, None, None))  # without from: every token room grows
    assert {o for o, _c, _h in st._room_exits(far)} <= set(st.htokens["blob"])


def test_a_hero_entering_the_blob_becomes_a_blob_person_for_the_traitor() -> None:
    st = started()
    hero = st.living_heroes()[0]
    room = st.ex[hero].room
    st.ex[hero].cards.append("axe")
    st.held.setdefault(hero, []).append("ingredient")
    st.htokens["blob"] = [room]
    on_turn(st, hero)
    drive(st.entry_actions(hero))
    assert "blob-person" in st.hstatus[hero]
    assert st.side[hero] == TRAITOR
    assert st.speed(hero) == 2
    assert "axe" not in st.ex[hero].cards and "axe" in st.piles.get(room, [])
    assert st.held.get(hero, []) == [] and room in st.htokens["ingredient"]
    assert st._blocks(hero, "be-attacked") and st._blocks(hero, "draw-cards")
    drive(st.entry_actions(hero))  # a Blob-person is not engulfed twice
    assert st.hstatus[hero].count("blob-person") == 1


def test_the_traitor_engulfed_stays_the_traitor() -> None:
    st = started()
    traitor = st.traitor()
    assert traitor is not None
    st.htokens["blob"] = [st.ex[traitor].room]
    on_turn(st, traitor)
    drive(st.entry_actions(traitor))
    assert "blob-person" in st.hstatus[traitor]
    assert st.side[traitor] == TRAITOR and st.haunt is not None and st.haunt["traitor"] == traitor


def test_blob_people_seed_the_blob_where_they_stand_and_engulf_heroes_there() -> None:
    st = started()
    traitor, hero = st.traitor(), st.living_heroes()[0]
    assert traitor is not None
    st.hflags.add("blob-out")
    st.htokens["blob"] = [str(st.haunt["room"])] if st.haunt else []
    st.hstatus.setdefault(traitor, []).append("blob-person")
    st.ex[traitor].room = st.ex[hero].room = next(r for r in sorted(st.house.spots) if r not in st.htokens["blob"])
    drive(side_monster_turn(st), face=0)
    assert st.ex[hero].room in st.htokens["blob"]
    assert "blob-person" in st.hstatus[hero] and st.side[hero] == TRAITOR


def test_the_traitor_wins_when_no_hero_is_left_unengulfed() -> None:
    st = started(3)
    win = next(w for w in st.hs.sides()["traitor"].wins if w.id == "heroes-engulfed") if st.hs else None
    assert win is not None
    heroes = st.living_heroes()
    assert not st.pred(win.when)
    st.ex[heroes[0]].dead = True
    assert not st.pred(win.when)
    for hero in heroes[1:]:
        drive(st._outcome({"turn_traitor": {}}, hero, None))
    assert st.pred(win.when)


def test_examining_then_ingredients_then_throws_destroy_the_blob() -> None:
    st = started(3)
    hero = st.living_heroes()[0]
    sides = st.hs.sides() if st.hs else {}
    examine = next(t for t in sides["heroes"].tasks if t["id"] == "examine-blob")
    search = next(t for t in sides["heroes"].tasks if t["id"] == "search-ingredient")
    win = next(w for w in sides["heroes"].wins if w.id == "blob-destroyed")
    blob_room = next(r for r in sorted(st.house.spots) if st.adjoining_rooms(r))
    beside = st.adjoining_rooms(blob_room)[0]
    st.htokens["blob"] = [blob_room]
    st.ex[hero].room = beside
    assert st._where_ok(hero, examine["where"]) and st.pred(examine["requires"], hero)
    assert not st.pred(search["requires"], hero)
    for k in range(3):
        for eff in examine["success"]:
            drive(st._outcome(eff, hero, None))
        assert ("weakness-found" in st.hflags) == (k == 2)
    assert not st.pred(examine["requires"], hero) and st.pred(search["requires"], hero)
    st.held.setdefault(hero, []).extend(["ingredient"] * 3)
    on_turn(st, hero)
    throw = next(a for a in st._task_actions(hero) if a["id"] == "throw-ingredient")
    for _ in range(3):
        assert not st.pred(win.when)
        drive(st._task(hero, throw))
    assert st.pred(win.when)
    assert st.htokens["blob"] == []
    assert st.turn.moved == 3, "each throw costs 1 space of movement"


def test_the_policy_keeps_heroes_out_of_the_blob_and_out_of_its_reach() -> None:
    st = started()
    hero = st.living_heroes()[0]
    assert st.side[hero] == HERO
    blob_room = next(r for r in sorted(st.house.spots) if r != st.ex[hero].room and st._room_exits(r))
    st.htokens["blob"] = [blob_room]
    st.hflags.add("blob-out")
    assert _deadly_entry(st, hero, blob_room)
    doomed = _doomed_rooms(st)
    assert {blob_room, *(o for o, _c, _h in st._room_exits(blob_room))} <= doomed


def test_heroes_examine_from_beside_the_blob_before_they_look_for_ingredients() -> None:
    st = started()
    hero = st.living_heroes()[0]
    blob_room = next(r for r in sorted(st.house.spots) if r != st.ex[hero].room and len(st.adjoining_rooms(r)) > 1)
    st.htokens["blob"] = [blob_room]
    st.hflags.add("blob-out")
    assert turn._waits_on_work(st, hero, {"ingredient"}), "the search waits on the weakness being found"
    rooms = turn._task_rooms(st, hero, HERO, None)
    assert rooms and blob_room not in rooms, "the examination is made from beside the Blob, never inside it"
    assert set(rooms) <= set(st.adjoining_rooms(blob_room))
    st.hflags.add("weakness-found")
    assert not turn._waits_on_work(st, hero, {"ingredient"})


def test_an_ingredient_lost_to_the_blob_can_be_found_again_until_enough_are_thrown() -> None:
    st = started(3)
    assert st.pool["ingredient"] == 13, "one ingredient per listed room, not one per player"
    assert turn._counted_spend(st, HERO) == {"ingredient"}
    heroes = st.living_heroes()
    st.held.setdefault(heroes[0], []).extend(["ingredient"] * 2)
    assert turn._counted_spend(st, HERO) == {"ingredient"}, "two held, three needed"
    st.destroyed.append("ingredient")
    assert turn._counted_spend(st, HERO) == set(), "one thrown and two held make the three the formula needs"


def test_allies_split_the_rooms_of_their_work_by_nearness() -> None:
    st = started()
    a, b = st.living_heroes()[:2]
    rooms = sorted(r for r in st.house.spots if st._room_exits(r))
    far_apart = next((x, y) for x in rooms for y in rooms
                     if st._dist_to([x]).get(y, 0) >= 3)
    st.ex[a].room, st.ex[b].room = far_apart
    for s in st.living_heroes()[2:]:
        st.ex[s].room = far_apart[0]
    assert turn._shared_out(st, a, list(far_apart)) == [far_apart[0]]
    assert turn._shared_out(st, b, list(far_apart)) == [far_apart[1]]
