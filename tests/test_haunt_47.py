"""Haunt 47, Worm Ouroboros: two Heads that crawl, discover rooms and leave the Body behind; the
Skull's weakening spell; hits per Head; the Body complete wins for the traitor."""

from __future__ import annotations

from betrayal_support import drive, played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState, Monster
from hauntcheck.engine.betrayal.model import SIDES
from hauntcheck.engine.core import Action
from hauntcheck.engine.games import game_spec


def started(players: int) -> HauntState:
    return start_haunt(players, 47)


def heads(st: HauntState) -> list[Monster]:
    return [m for m in st.mon if m.kind == "head"]


def bodies(st: HauntState) -> list[Monster]:
    return [m for m in st.mon if m.kind == "body"]


def test_the_traitor_becomes_two_heads_in_the_haunt_room_and_drops_its_things_there() -> None:
    st = started(4)
    traitor = st.traitor()
    assert traitor is not None and not st.in_play(traitor) and st.haunt is not None
    assert [m.room for m in heads(st)] == [st.haunt["room"]] * 2 and bodies(st) == []
    assert "skull" in st.piles.get(str(st.haunt["room"]), [])
    assert not any(st.t.cards[c].companion for c in st.piles.get(str(st.haunt["room"]), []))  # devoured


def test_a_head_leaves_one_body_per_room_left_and_no_more_than_sixteen() -> None:
    st = started(4)
    head = heads(st)[0]
    start = head.room
    st._leave_trail(head, start)
    st._leave_trail(head, start)
    assert [b.room for b in bodies(st)] == [start]
    rooms = sorted(r for r in st.house.spots if r != start)
    for room in rooms:
        st._leave_trail(head, room)
    assert len(bodies(st)) == min(16, len(rooms) + 1)
    assert st._slowing(st.current) >= 0 and not any(st._may_attack(st.current, b.uid) for b in bodies(st))


def test_the_body_complete_wins_for_the_traitor() -> None:
    st = started(3)
    assert st.hs is not None
    rooms = sorted(st.house.spots)
    for i in range(15):
        st._add_monster(st.hs.monsters["body"], rooms[i % len(rooms)])
    assert not st._check_wins()
    st._add_monster(st.hs.monsters["body"], rooms[0])
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR


def test_the_skull_spell_weakens_a_head_which_then_takes_hits_and_dies() -> None:
    st = started(4)
    h = st.current
    head = heads(st)[0]
    st.ex[h].room = head.room
    assert not st._may_attack(h, head.uid)  # no attack before the spell
    for s in st.seat_ids:
        if "skull" in st.ex[s].cards:
            st.ex[s].cards.remove("skull")
    st.piles = {r: [c for c in p if c != "skull"] for r, p in st.piles.items()}
    st.ex[h].cards.append("skull")
    st.ex[h].idx["sanity"] = 5
    offered = [a for a in st._task_actions(h) if a.get("id") == "weakening-spell"]
    assert offered and {a["target"] for a in offered} == {m.uid for m in heads(st) if m.room == head.room}
    rolled(st._task(h, Action.of("task", id="weakening-spell", target=head.uid)), [2])
    assert st.mstat(head, "might") == 5 and st._may_attack(h, head.uid)
    st.turn.keys.clear()
    assert not any(a.get("target") == head.uid for a in st._task_actions(h) if a.get("id") == "weakening-spell")
    drive(st._resolve_fight(head.uid, h, "might", 1, 6))  # a weakened Head that loses takes a hit
    assert head.damage == 1 and not head.stunned and not head.gone
    drive(st._resolve_fight(h, head.uid, "might", 6, 1))  # 4 players: 2 hits destroy it
    assert head.gone == "killed" and not st._check_wins()
    heads(st)[1].gone = "killed"
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_an_unweakened_head_that_loses_is_neither_hurt_nor_stunned() -> None:
    st = started(4)
    h = st.current
    head = heads(st)[0]
    st.ex[h].room = head.room
    drive(st._resolve_fight(head.uid, h, "might", 1, 6))
    assert head.damage == 0 and not head.stunned and not head.gone


def test_a_policy_game_keeps_the_invariants_and_the_haunt_plays_without_hooks() -> None:
    assert played_out(4, 47).outcome() is not None
    report = hauntmod.support(game_spec("betrayal"))
    assert report[47]["playable"] and report[47]["hooks"] == [] and not report[47]["blockers"]


def test_a_head_discovers_a_room_draws_no_card_and_keeps_its_move() -> None:
    st = started(4)
    head = heads(st)[0]
    frontier = next(r for r in sorted(st.house.spots) if r != "mystic-elevator" and any(
        st.house.door_neighbour(r, side)[0] is None and st._can_discover(st.house.floor_of(r), r, side)
        for side in st.house.doors(r)))
    head.room = frontier
    acts = st._monster_explore_actions(head)
    assert acts and all(a.kind == "monster-explore" for a in acts)
    rooms, cards = set(st.house.spots), {s: list(st.ex[s].cards) for s in st.seat_ids}
    found, _ = drive(st._monster_explore(head, SIDES.index(str(acts[0]["door"]))))
    new = set(st.house.spots) - rooms
    assert len(new) == 1 and cards == {s: list(st.ex[s].cards) for s in st.seat_ids}
    assert (found and head.room in new) or (not found and head.room == frontier)
