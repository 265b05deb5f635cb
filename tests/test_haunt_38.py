"""Haunt 38, Hellbeasts: Firebats placed by the player count, bred by their own movement roll (the
new ones stay put that turn), burning every hero in their rooms with one roll a room, never
attacking or attacked, not slowing heroes; the exorcism and both sides' wins."""

from __future__ import annotations

from betrayal_support import played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState, Monster
from hauntcheck.engine.betrayal.state import Req
from hauntcheck.engine.core import CHANCE, Action, ActionList
from hauntcheck.engine.games import game_spec


def started(players: int = 4) -> HauntState:
    return start_haunt(players, 38)


def firebats(st: HauntState) -> list[Monster]:
    return [m for m in st.active_monsters() if m.kind == "firebat"]


def stop_every_firebat(req: Req) -> Action:
    """The traitor leaves each Firebat where it is (any other question: the first option)."""
    assert isinstance(req.choices, ActionList)
    return next((a for a in req.choices if a.kind == "monster-stop"), req.choices[0])


def dice_rolled(seen: list[Req]) -> list[int]:
    """How many dice each chance roll among the requests asked for."""
    return [len(next(iter(r.choices))["faces"]) for r in seen  # type: ignore[arg-type]
            if r.actor == CHANCE and next(iter(r.choices)).kind == "roll"]


def away_from_the_swarm(st: HauntState) -> str:
    """Move every explorer to a room of the house without Firebats; return that room."""
    swarm = {m.room for m in firebats(st)}
    room = next(r for r in sorted(st.house.spots) if r not in swarm)
    for seat in st.seat_ids:
        st.ex[seat].room = room
    return room


def physical(st: HauntState, seat: str) -> int:
    return st.ex[seat].idx["might"] + st.ex[seat].idx["speed"]


def test_half_the_players_rounded_up_of_firebats_start_in_the_haunt_room() -> None:
    for players, count in ((3, 2), (5, 3)):
        st = started(players)
        assert st.haunt is not None
        bats = firebats(st)
        assert len(bats) == count and {m.room for m in bats} == {st.haunt["room"]}
        assert st.pool == {"knowledge-roll": players, "sanity-roll": players}
        traitor = st.traitor()
        assert traitor is not None and traitor != st.haunt["revealer"] and st.in_play(traitor)
        others = [s for s in st.seat_ids if s not in (traitor, st.haunt["revealer"])]
        assert all(st.value(traitor, "knowledge") <= st.value(s, "knowledge") for s in others)


def test_the_movement_roll_breeds_as_many_firebats_in_the_haunt_room_and_they_do_not_move() -> None:
    st = started(4)
    assert st.haunt is not None
    away_from_the_swarm(st)
    before = {m.uid for m in firebats(st)}
    _, seen = rolled(st._monster_turn(), [1], stop_every_firebat)  # Speed 3: three dice showing 1 -> 3
    assert dice_rolled(seen)[0] == 3
    after = firebats(st)
    new = [m for m in after if m.uid not in before]
    assert len(new) == 3 and {m.room for m in new} == {st.haunt["room"]}
    asked = {str(a["monster"]) for r in seen if isinstance(r.choices, ActionList)
             for a in r.choices if a.kind == "monster-stop"}
    assert asked == before, "only the Firebats that were there when the roll was made move"


def test_a_movement_roll_of_zero_breeds_nothing() -> None:
    st = started(4)
    away_from_the_swarm(st)
    count = len(firebats(st))
    rolled(st._monster_turn(), [0], stop_every_firebat)
    assert len(firebats(st)) == count


def test_the_burn_is_one_roll_a_room_for_every_hero_there_and_spares_the_traitor() -> None:
    st = started(4)
    traitor = st.traitor()
    assert traitor is not None and st.hs is not None
    quiet = away_from_the_swarm(st)
    hot = next(r for r in sorted(st.house.spots) if r != quiet)
    for m in firebats(st):
        m.room = hot
    heroes = st.living_heroes()
    for seat in (*heroes[:2], traitor):
        st.ex[seat].room = hot
    burnt = {s: physical(st, s) for s in st.seat_ids}
    _, seen = rolled(st._after_monsters_move(st.hs.monsters["firebat"]), [1])
    assert dice_rolled(seen) == [len(firebats(st))], "one roll, one die per Firebat in the room"
    damage = len(firebats(st))
    assert [burnt[s] - physical(st, s) for s in heroes[:2]] == [damage, damage]
    assert physical(st, traitor) == burnt[traitor] and physical(st, heroes[2]) == burnt[heroes[2]]


def test_the_armor_takes_one_point_off_the_burn_and_no_roll_uses_more_than_eight_dice() -> None:
    st = started(4)
    assert st.hs is not None
    hero = st.living_heroes()[0]
    room = st.ex[hero].room
    for m in firebats(st):
        m.room = room
    while len(firebats(st)) < 10:
        st._add_monster(st.hs.monsters["firebat"], room)
    for seat in st.seat_ids:
        if seat != hero:
            st.ex[seat].room = next(r for r in sorted(st.house.spots) if r != room)
    st.ex[hero].cards.append("armor")
    before = physical(st, hero)
    _, seen = rolled(st._after_monsters_move(st.hs.monsters["firebat"]), [[1, 1, 0, 0, 0, 0, 0, 0]])
    assert dice_rolled(seen) == [8]
    assert before - physical(st, hero) == 1  # 2 rolled, 1 taken off by the Armor


def test_firebats_neither_attack_nor_are_attacked_nor_slow_heroes() -> None:
    st = started(4)
    m = firebats(st)[0]
    hero = st.living_heroes()[0]
    st.ex[hero].room = m.room
    _, seen = rolled(st._monster_attack(m), [])
    assert seen == []
    assert not any(a.get("target") == m.uid for a in st._attack_actions(hero))
    assert st._slowing(hero) == sum(1 for s in st.opponents_of(hero) if st.ex[s].room == m.room)


def test_the_ring_serves_the_exorcism_once_and_one_success_per_player_banishes_the_firebats() -> None:
    st = started(3)
    hero, other = st.living_heroes()[:2]
    st.ex[hero].cards.append("ring")
    st.current = hero
    st.turn.keys.clear()
    task = Action.of("task", id="exorcise-sanity", place="ring")
    assert task in st._task_actions(hero)
    rolled(st._task(hero, task), [2])
    assert st.earned.get("sanity-roll") == 1
    st.ex[hero].cards.remove("ring")
    st.ex[other].cards.append("ring")
    st.current = other
    st.turn.keys.clear()
    assert not any(a.get("place") == "ring" for a in st._task_actions(other))
    assert not st._check_wins()
    st.earned["knowledge-roll"] = 2
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_traitor_wins_when_every_hero_is_dead() -> None:
    st = started(3)
    for seat in st.living_heroes():
        st.ex[seat].dead = True
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR


def test_a_policy_game_keeps_the_invariants_and_the_haunt_plays_without_hooks() -> None:
    assert played_out(4, 38).outcome() is not None
    report = hauntmod.support(game_spec("betrayal"))
    assert report[38]["playable"] and report[38]["hooks"] == [] and not report[38]["blockers"]


def test_a_side_rule_at_a_monster_moment_is_named_as_not_carried_out() -> None:
    data = dict(hauntmod.load_haunts(game_spec("betrayal"))[38][1])
    rule = {"id": "early-burn", "who": "traitor", "when": "after-monsters-move", "says": "x"}
    data["traitor_side"] = {**data["traitor_side"], "turn_rules": [rule]}
    assert [str(g) for g in hauntmod.gaps(data)] == [
        "traitor_side.turn_rules.0.when: 'after-monsters-move' is carried out only in a monster's must rules"]
