"""Haunt 46, The Feast: Victims that walk straight on by themselves and are escorted by heroes,
Cannibal Freaks, the traitor's attacks on Victims and the Corpses they leave, feasting, the front
door, and the two wins of each side."""

from __future__ import annotations

from betrayal_support import drive, played_out
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState, Monster
from hauntcheck.engine.betrayal.house import step
from hauntcheck.engine.core import Action
from hauntcheck.engine.games import game_spec


def started(players: int) -> HauntState:
    return start_haunt(players, 46)


def victims(st: HauntState) -> list[Monster]:
    return [m for m in st.mon if m.kind == "victim"]


def freaks(st: HauntState) -> list[Monster]:
    return [m for m in st.mon if m.kind == "freak"]


def traitor_of(st: HauntState) -> str:
    t = st.traitor()
    assert t is not None
    return t


def test_one_freak_and_one_victim_per_hero_victims_upstairs_facing_north() -> None:
    for players in (3, 5):
        st = started(players)
        heroes = len(st.heroes())
        assert len(freaks(st)) == len(victims(st)) == heroes == players - 1
        assert {m.room for m in freaks(st)} <= {"dining-room", "foyer"}
        assert all(st.house.floor_of(m.room) == "upper" and m.facing in range(4) for m in victims(st))
        assert st.hs is not None
        assert st._add_monster(st.hs.monsters["victim"], "upper-landing").facing == 0  # every one starts facing north
        assert all(m.facing is None for m in freaks(st))


def test_a_victim_walks_two_rooms_on_its_floor_and_faces_the_way_it_last_went() -> None:
    st = started(4)
    for s in st.seat_ids:
        st.ex[s].room = "entrance-hall"  # no hero upstairs to stop it
    v = victims(st)[0]
    v.room, v.facing = "upper-landing", 0
    assert st.floor_walks(v, v.room)  # the Upper Landing has a way on (at least to the Attic)
    st._events.clear()
    drive(st.walk_straight(v))
    assert sum(1 for e in st._events if " walks " in str(e)) == 2
    assert st.house.floor_of(v.room) == "upper" and v.facing is not None
    # its last step was taken straight along the side it now faces, from a neighbouring room
    came_from = list(st.floor_walks(v, v.room).values())
    assert any(step(st.house.spots[r].cell, v.facing) == st.house.spots[v.room].cell for r in came_from)


def test_a_victim_with_a_hero_does_not_move_and_one_walking_in_stops_there() -> None:
    st = started(4)
    v = victims(st)[0]
    hero = st.living_heroes()[0]
    st.ex[hero].room = v.room
    room = v.room
    drive(st.walk_straight(v))
    assert v.room == room
    # a hero next door: the victim stops on entering its room, whatever spaces are left
    walks = st.floor_walks(v, v.room)
    if walks:
        side, there = sorted(walks.items())[0]
        v.facing = side
        st.ex[hero].room = there
        drive(st.walk_straight(v))
        assert v.room == there


def test_the_victims_walk_at_the_start_of_the_turn_of_the_hero_left_of_the_traitor() -> None:
    st = started(4)
    walker = st.walkers_seat()
    traitor = traitor_of(st)
    assert walker == st.left_of(traitor) or not st.in_play(st.left_of(traitor))
    other = next(s for s in st.living_heroes() if s != walker)
    for s in st.seat_ids:
        st.ex[s].room = "basement-landing"

    def walked() -> int:
        return sum(1 for e in st._events if " walks " in str(e))

    st._events.clear()
    drive(st.walk_at_turn_start(other))
    assert walked() == 0  # not this hero's turn to move them
    assert walker is not None
    drive(st.walk_at_turn_start(walker))
    assert walked() == 2 * len(victims(st))  # two rooms each: none is with a hero


def test_a_hero_starting_with_a_victim_takes_it_along_for_two_spaces_only() -> None:
    st = started(4)
    hero = st.living_heroes()[0]
    v = victims(st)[0]
    st.current = hero
    st.turn.seat, st.turn.moved, st.turn.left_room = hero, 0, False
    st.turn.keys.clear()
    st.ex[hero].room = v.room = "upper-landing"
    offered = [a for a in st._escort_actions(hero) if a["monster"] == v.uid]
    assert offered and all(a.kind == "escort" for a in offered)
    st._escort(hero, offered[0])
    assert st._escort_actions(hero) == []  # one escort a turn
    path = ["grand-staircase", "foyer", "entrance-hall"]
    for room in path:
        src = st.ex[hero].room
        st.ex[hero].room = room
        st._escort_follows(hero, src)
    assert v.room == "foyer" and st.ex[hero].room == "entrance-hall"


def test_heroes_may_not_attack_victims_the_traitor_may_and_a_winning_victim_deals_no_damage() -> None:
    st = started(4)
    hero = st.living_heroes()[0]
    traitor = traitor_of(st)
    v = victims(st)[0]
    st.ex[hero].room = st.ex[traitor].room = v.room
    st.turn.keys.clear()
    st.turn.no_attack = False
    assert v.uid not in {a["target"] for a in st._attack_actions(hero)}
    assert v.uid in {a["target"] for a in st._attack_actions(traitor)}
    before = {t: st.value(traitor, t) for t in ("might", "speed")}
    drive(st._resolve_fight(traitor, v.uid, "might", 1, 6))
    assert {t: st.value(traitor, t) for t in ("might", "speed")} == before and not v.gone
    drive(st._resolve_fight(traitor, v.uid, "might", 6, 1))
    assert v.gone == "killed" and v.room in st.htokens["victim-corpse"]


def test_the_traitor_feasts_on_a_corpse_only_at_the_start_of_a_turn_with_no_hero_there() -> None:
    st = started(4)
    traitor = traitor_of(st)
    room = st.ex[traitor].room
    for s in st.living_heroes():
        st.ex[s].room = "basement-landing" if room != "basement-landing" else "entrance-hall"
    st.htokens.setdefault("victim-corpse", []).append(room)
    st.current = traitor
    st.turn.seat, st.turn.moved, st.turn.left_room = traitor, 0, False
    st.turn.keys.clear()
    assert any(a.get("id") == "feast-on-victim" for a in st._task_actions(traitor))
    st.turn.moved = 1
    assert not any(a.get("id") == "feast-on-victim" for a in st._task_actions(traitor))  # it moved first
    st.turn.moved = 0
    hero = st.living_heroes()[0]
    st.ex[hero].room = room
    assert not any(a.get("id") == "feast-on-victim" for a in st._task_actions(traitor))  # a hero is there
    st.ex[hero].room = "entrance-hall" if room != "entrance-hall" else "foyer"
    values = {t: st.value(traitor, t) for t in ("might", "speed", "sanity", "knowledge")}
    drive(st._task(traitor, Action.of("task", id="feast-on-victim")))
    assert room not in st.htokens["victim-corpse"] and st.earned.get("victim-eaten") == 1
    assert all(st.value(traitor, t) >= v for t, v in values.items())
    assert sum(st.value(traitor, t) for t in values) > sum(values.values()) or all(v >= 7 for v in values.values())
    assert st.turn.end_now or st.turn.stopped


def test_a_freak_with_a_corpse_and_no_hero_feasts_instead_of_moving() -> None:
    st = started(4)
    f = freaks(st)[0]
    for s in st.living_heroes():
        st.ex[s].room = "basement-landing" if f.room != "basement-landing" else "entrance-hall"
    st.htokens.setdefault("victim-corpse", []).append(f.room)
    rule = st.mdef(f).must[0]
    for eff in rule["do"]:
        drive(st._outcome(eff, None, f))
    assert f.stats == {"speed": 5, "might": 5, "sanity": 5}
    assert f.room not in st.htokens["victim-corpse"] and st.earned.get("victim-eaten") == 1
    assert "turn-over" in st.turn_mods.get(f.uid, set())


def test_each_side_has_two_ways_to_win_and_an_escape_cut_short_ends_with_no_winner() -> None:
    st = started(3)
    assert not st._check_wins()
    st.earned["victim-eaten"] = len(victims(st))
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR
    st = started(3)
    st.earned["victim-escaped"] = len(victims(st))
    for m in victims(st):
        m.gone = "away"
    st.exited.add(st.living_heroes()[0])
    assert not st._check_wins()
    st.exited.update(st.living_heroes())
    assert st._check_wins() and st.result is not None and st.result.result == HERO
    st = started(3)
    for m in freaks(st):
        m.gone = "killed"
    assert not st._check_wins()
    st.ex[traitor_of(st)].dead = True
    assert st._check_wins() and st.result is not None and st.result.result == HERO
    st = started(3)
    first, second = st.living_heroes()
    st.exited.add(first)
    st.ex[second].dead = True
    assert st._check_wins() and st.result is not None and st.result.result == "nobody"


def test_the_front_door_opens_on_knowledge_or_might_five_and_leaving_waits_for_every_victim() -> None:
    st = started(4)
    hero = st.living_heroes()[0]
    st.current = hero
    st.turn.seat, st.turn.moved, st.turn.left_room = hero, 0, False
    st.turn.keys.clear()
    st.ex[hero].room = "entrance-hall"
    offered = {(a.get("id"), a.get("trait")) for a in st._task_actions(hero)}
    assert {("open-front-door", "knowledge"), ("open-front-door", "might")} <= offered
    st.hflags.add("front-door-open")
    assert not any(a.get("id") == "leave-house" for a in st._task_actions(hero))
    v = victims(st)[0]
    v.room = "entrance-hall"
    lead = [a for a in st._task_actions(hero) if a.get("id") == "lead-victim-out"]
    assert [a["target"] for a in lead] == [v.uid]
    drive(st._task(hero, lead[0]))
    assert v.gone and st.earned.get("victim-escaped") == 1 and st.in_play(hero) and hero not in st.exited


def test_a_policy_game_keeps_the_invariants_and_the_haunt_plays_without_hooks() -> None:
    assert played_out(4, 46).outcome() is not None
    report = hauntmod.support(game_spec("betrayal"))
    assert report[46]["playable"] and report[46]["hooks"] == [] and not report[46]["blockers"]
