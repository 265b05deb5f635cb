"""Haunt 40, Buried Alive: the basement grown to five rooms and a burial room chosen there, the
clock that rolls as many dice as the track for the buried friend (12 kill), the heroes' searches and
digging, the Spirit Board's table, the heroes' policy not reading the secret room, and both wins."""

from __future__ import annotations

import pytest
from betrayal_support import drive, pick, policy_game, rolled, started

from hauntcheck.engine.betrayal.haunt import HERO, HauntState, playable
from hauntcheck.engine.betrayal.hooks.h40_buried_alive import DAMAGE, buried_damage, damage_taken, spirit_board_table
from hauntcheck.engine.betrayal.policy.turn import _task_rooms
from hauntcheck.engine.core import Action
from hauntcheck.engine.games import game_spec


def buried() -> HauntState:
    return started(4, 40)


def basement(st: HauntState) -> list[str]:
    return sorted(r for r in st.house.spots if st.house.floor_of(r) == "basement")


def a_hero(st: HauntState) -> str:
    return next(s for s in st.seat_ids if s != st.traitor() and st.in_play(s))


def test_the_haunt_plays_with_its_three_hooks() -> None:
    data = next(f for f in game_spec("betrayal").by_kind("haunt") if f.data["number"] == 40).data
    assert playable.gaps(data) == []
    assert sorted(h["id"] for h in data["hooks"]) == ["buried-damage", "grow-basement", "spirit-board-table"]


def test_the_basement_has_five_rooms_and_the_burial_room_is_one_of_them() -> None:
    st = buried()
    left = [r for r in st.stack if "basement" in st.t.rooms[r].floors]
    assert len(basement(st)) >= 5 or not left
    assert len(st.htokens["burial-site"]) == 1 and st.htokens["burial-site"][0] in basement(st)
    assert st.pool["might-roll"] == 4 and st.track >= 0


def test_the_clock_rolls_as_many_dice_as_the_track_and_twelve_kill_the_friend() -> None:
    st = buried()
    st.track = 3
    st.hook_state[DAMAGE] = {"total": 0}
    _, seen = drive(buried_damage(st, None, None))  # every die a 2
    assert damage_taken(st) == 6 and len(next(iter(seen[0].choices))["faces"]) == 3  # type: ignore[arg-type]
    assert "buried-friend-dead" not in st.hflags and not st._check_wins()
    drive(buried_damage(st, None, None))
    assert damage_taken(st) == 12 and "buried-friend-dead" in st.hflags
    assert st._check_wins()
    outcome = st.outcome()
    assert outcome is not None and outcome.result == "traitor"


def test_a_search_finds_the_burial_room_only_there() -> None:
    st = buried()
    hero = a_hero(st)
    grave = st.htokens["burial-site"][0]
    other = next((r for r in basement(st) if r != grave), None)
    st.current = hero
    if other is not None:
        st.ex[hero].room = other
        drive(st._task(hero, Action.of("task", id="search-room")))  # every die a 2: a success
        assert "burial-room-found" not in st.hflags
        st.turn.keys.discard("task-roll")
    st.ex[hero].room = grave
    drive(st._task(hero, Action.of("task", id="search-room")))
    assert "burial-room-found" in st.hflags


def test_digging_opens_once_the_room_is_found_and_frees_the_friend_at_one_success_a_player() -> None:
    st = buried()
    hero = a_hero(st)
    grave = st.htokens["burial-site"][0]
    st.ex[hero].room = grave
    st.current = hero
    dig = next(t for t in st.tasks_for(hero) if t["id"] == "dig")
    assert not st._task_open(hero, dig)
    st.hflags.add("burial-room-found")
    for k in range(4):
        st.turn.keys.clear()
        assert st._task_open(hero, dig)
        assert not st._check_wins()
        drive(st._task(hero, Action.of("task", id="dig")))
        assert st.htokens["might-roll"].count(grave) == k + 1
    assert st._check_wins()
    outcome = st.outcome()
    assert outcome is not None and outcome.result == "heroes"


def test_where_the_heroes_search_does_not_depend_on_the_secret_room() -> None:
    st = buried()
    hero = a_hero(st)
    rooms = basement(st)
    seen = []
    for grave in rooms[:2]:
        st.htokens["burial-site"] = [grave]
        seen.append(sorted(_task_rooms(st, hero, HERO, None)))
    assert seen[0] == seen[1] == rooms


@pytest.mark.parametrize(("faces", "found", "healed"), [(0, False, 0), (1, False, 4), (2, True, 0)])
def test_the_spirit_board_table(faces: int, found: bool, healed: int) -> None:
    st = buried()
    hero = a_hero(st)
    st.current = hero
    st.ex[hero].idx["sanity"] = next(i for i, v in enumerate(st.t.explorers[st.ex[hero].id].traits["sanity"].values)
                                     if v == 5)
    st.hook_state[DAMAGE] = {"total": 8}
    rolled(spirit_board_table(st, hero, None), [faces, 2], pick("spirit-move"))  # 5 dice; the heal's 2 dice show 2 each
    assert ("burial-room-found" in st.hflags) == found
    assert damage_taken(st) == 8 - healed
    assert st.turn.end_now


def test_a_middle_roll_moves_an_explorer_up_to_three_spaces() -> None:
    st = buried()
    hero = a_hero(st)
    st.current = hero
    sanity = st.t.explorers[st.ex[hero].id].traits["sanity"].values
    st.ex[hero].idx["sanity"] = next(i for i, v in enumerate(sanity) if v == 3)
    before = {s: st.ex[s].room for s in st.seat_ids}
    _, seen = rolled(spirit_board_table(st, hero, None), [[1, 1, 1]])  # 3: move an explorer
    choice = next(r for r in seen if r.actor == hero)
    first = next(iter(choice.choices))
    assert first.kind == "spirit-move"
    who = str(first["who"])
    assert st.ex[who].room == first["to"] != before[who]
    assert 0 < st._dist_to([before[who]])[st.ex[who].room] <= 3


@pytest.mark.parametrize(("players", "seed", "result"), [(3, 213, "heroes"), (4, 184, "traitor")])
def test_policy_games_reach_both_wins_with_the_invariants_kept(players: int, seed: int, result: str) -> None:
    st = policy_game(players, seed, 40, check_invariants=True)
    outcome = st.outcome()
    assert outcome is not None and outcome.result == result


def test_the_spirit_board_holder_may_not_trade_or_drop_it_but_may_drop_other_items() -> None:
    st = buried()
    hero = a_hero(st)
    other = next(s for s in st.seat_ids if s not in (hero, st.traitor()) and st.in_play(s))
    st.ex[hero].cards = ["spirit-board", "axe"]
    st.ex[other].room = st.ex[hero].room
    st.current = hero
    offered = st._turn_actions(hero)
    assert not [a for a in offered if a.kind in ("trade", "drop", "give") and a.get("card") == "spirit-board"]
    assert [a for a in offered if a.kind == "drop" and a.get("card") == "axe"]
