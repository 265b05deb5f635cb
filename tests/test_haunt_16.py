"""Haunt 16, The Phantom's Embrace: the Girl set aside, the Phantom appearing in newly found
basement event and omen rooms (a fight instead of the card), fleeing when it wins, killed when a
hero beats it, the bomb's roll, and the two ways out for the heroes."""

from __future__ import annotations

from betrayal_support import drive, forced, rolled

from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.core import Action

BASEMENT_ROOMS = ["catacombs", "crypt", "furnace-room", "pentagram-chamber", "underground-lake", "wine-cellar", "larder"]


def game(players: int = 4, seed: int = 1) -> tuple[HauntState, str]:
    st = forced(players, 16, seed)
    hero = st.current if st.current in st.living_heroes() else st.living_heroes()[0]
    return st, hero


def found(st: HauntState) -> str:
    """A basement room with an event or omen symbol, placed in the house for the test if needed."""
    room = next((r for r in BASEMENT_ROOMS if r in st.house.spots and st.t.rooms[r].symbol in ("event", "omen")), None)
    assert room is not None or any(r in st.stack for r in BASEMENT_ROOMS)
    if room is None:
        room = next(r for r in ("catacombs", "crypt", "pentagram-chamber") if r in st.stack)
        spot = next(iter(st.house.open_spots(room, "basement", keep_open=True)))
        st.stack.remove(room)
        st.put_tile(room, "basement", spot.cell, spot.rotation)
    return room


def test_setup_sets_the_phantom_aside_and_nothing_is_in_the_house() -> None:
    st, _ = game()
    assert not [m for m in st.mon if m.kind == "phantom"]
    assert st.track == 0


def test_discovery_brings_the_phantom_and_a_fight_instead_of_the_card() -> None:
    st, hero = game()
    room = found(st)
    st.ex[hero].room = room
    hand = list(st.ex[hero].cards)
    rolled(st.draw_card(hero, st.t.rooms[room].symbol, ctx_room=room), [[2] * 8, [0] * 8])
    phantom = next(m for m in st.mon if m.kind == "phantom")
    assert room in st.htokens["visited"]
    assert phantom.gone == "killed" and "girl-rescued" in st.hflags
    assert "girl" in st.ex[hero].cards and [c for c in st.ex[hero].cards if c != "girl"] == hand
    assert room in st.htokens["phantom-grave"]


def test_a_phantom_that_wins_flees_and_comes_back_at_the_next_find() -> None:
    st, hero = game()
    room = found(st)
    st.ex[hero].room = room
    rolled(st.draw_card(hero, st.t.rooms[room].symbol, ctx_room=room), [[0] * 8, [2] * 8], lambda req: req.choices[0])
    phantom = next(m for m in st.mon if m.kind == "phantom")
    assert phantom.gone == "away" and "girl-rescued" not in st.hflags
    assert st.appearing(room) is not None  # out of the house again: it will appear at the next find
    drive(st.appear(st.hs.monsters["phantom"], room, None))  # type: ignore[union-attr]
    assert phantom.gone == "" and phantom.room == room and len([m for m in st.mon if m.kind == "phantom"]) == 1


def test_the_bomb_goes_off_on_the_player_counts_total() -> None:
    st, _ = game(4)
    st.track = 3
    roll = {"trait_roll": {"dice": {"of": "turn-track"}, "target": {"table": "blow-up"}, "success": [{"set_flag": "house-blown"}]}}
    rolled(st._outcome(roll, None, None), [[2, 2, 2]])  # 6 < 7 at four players
    assert "house-blown" not in st.hflags
    st.track = 4
    rolled(st._outcome(roll, None, None), [[2, 2, 2, 1]])  # 7
    assert "house-blown" in st.hflags and st._check_wins() and st.result is not None and st.result.result == "traitor"


def test_leaving_by_the_open_door_with_the_girl_wins() -> None:
    st, hero = game()
    st.hflags |= {"girl-rescued", "front-door-open"}
    st.ex[hero].cards.append("girl")
    st.ex[hero].room = "entrance-hall"
    st.done.add("open-front-door")
    rolled(st._task(hero, Action.of("task", id="leave-house")))
    assert hero in st.exited and "girl-escaped" in st.hflags
    assert st._check_wins() and st.result is not None and st.result.result == "heroes"
