"""Haunt 35, Small Change: the shrunken explorers' movement (doorways as spaces, stair rolls, no
cards), the Cats' cat-and-mouse hold (escape by a contest, swallowed at the next monster turn,
dropped by a stunned Cat) and the Toy Airplane (found, started, boarded, flown out)."""

from __future__ import annotations

from betrayal_support import drive, forced, pick, rolled

from hauntcheck.engine.betrayal.effects.triggers import run_triggered
from hauntcheck.engine.betrayal.haunt import HauntState, grabs
from hauntcheck.engine.core import Action

SEED = 3


def started() -> tuple[HauntState, str, str]:
    st = forced(3, 35, SEED)
    hero = st.living_heroes()[0]
    traitor = st.traitor()
    assert traitor is not None
    st.current = hero
    st.turn.seat = hero
    st.turn.keys.clear()
    st.turn.moved = 0
    return st, hero, traitor


def cat(st: HauntState) -> str:
    return next(m.uid for m in st.active_monsters() if m.kind == "cat")


def test_everyone_is_small_and_one_cat_waits_in_the_entrance_hall() -> None:
    st, _, traitor = started()
    assert all("small" in st.hstatus.get(s, []) for s in [*st.living_heroes(), traitor])
    cats = [m for m in st.mon if m.kind == "cat"]
    assert len(cats) == 1  # three players: the Entrance Hall's Cat only


def test_each_room_costs_two_spaces_and_stairs_need_might_3() -> None:
    st, hero, _ = started()
    st.ex[hero].room = "grand-staircase"
    st.ex[hero].idx["might"] = 3
    assert st._room_cost_extra(hero) == 1
    rolled(st._move(hero, "upper-landing", 1), [0])  # a Might roll of 0: no climb, the turn is over
    assert st.ex[hero].room == "grand-staircase" and st.turn.end_now
    st.turn.end_now = False
    rolled(st._move(hero, "upper-landing", 1), [2])
    assert st.ex[hero].room == "upper-landing"
    assert st.turn.moved == 2, "the stairs cost the room's two spaces"


def test_the_pilot_flies_up_the_stairs_without_a_roll_at_speed_5() -> None:
    st, hero, _ = started()
    st.ex[hero].room = "grand-staircase"
    st.hstatus[hero].append("pilot")
    assert st.speed(hero) == 5
    _, reqs = rolled(st._move(hero, "upper-landing", 1), [0])
    assert st.ex[hero].room == "upper-landing" and not st.turn.end_now
    assert not reqs  # no dice were asked for


def test_no_card_is_drawn_and_a_symbol_room_ends_the_turn() -> None:
    st, hero, _ = started()
    deck = list(st.decks["item"])
    value, _ = drive(st.draw_card(hero, "item", ctx_room=st.ex[hero].room))
    assert value is None and st.decks["item"] == deck
    assert st.turn.end_now


def test_a_caught_hero_keeps_its_items_and_escapes_by_outrolling_the_cat() -> None:
    st, hero, _ = started()
    uid = cat(st)
    m = st.monster(uid)
    st.ex[hero].room = m.room
    st.ex[hero].cards.append("axe")
    drive(st._outcome({"grab": True}, hero, m))
    assert "captured" in st.hstatus[hero] and "axe" in st.ex[hero].cards
    assert st._blocks(hero, "move")
    st.ex[hero].idx["might"] = 7
    free, _ = rolled(grabs.escape(st, hero), [0, 2], answer=pick("contest-trait", trait="might"))
    assert free is False and "captured" in st.hstatus[hero], "a lower roll leaves the hero held, its turn over"
    free, _ = rolled(grabs.escape(st, hero), [2, 0], answer=pick("contest-trait", trait="might"))
    assert free is True and "captured" not in st.hstatus[hero] and uid not in st.grips


def test_a_cat_swallows_its_hero_at_the_monster_turn_after_the_heros_escape_turn() -> None:
    st, hero, _ = started()
    m = st.monster(cat(st))
    st.ex[hero].room = m.room
    drive(st._outcome({"grab": True}, hero, m))  # caught on its own turn (it lost an attack on the Cat)
    drive(grabs.devour(st, m))
    assert not st.ex[hero].dead, "the hero's next turn, with its chance to escape, comes first"
    stays, _ = drive(grabs.drag(st, m))
    assert stays is True, "the Cat stays with its catch instead of moving on"
    rolled(grabs.escape(st, hero), [0, 2], answer=pick("contest-trait", trait="might"))
    drive(grabs.devour(st, m))
    assert st.ex[hero].dead and not m.gone and m.uid not in st.grips


def test_a_stunned_cat_drops_its_hero() -> None:
    st, hero, _ = started()
    m = st.monster(cat(st))
    st.ex[hero].room = m.room
    drive(st._outcome({"grab": True}, hero, m))
    drive(st._outcome({"stun_monster": True}, None, m))
    assert "captured" not in st.hstatus[hero] and not st.ex[hero].dead


def test_the_airplane_is_boarded_and_flies_out_with_every_living_hero() -> None:
    st, pilot, _ = started()
    other = next(s for s in st.living_heroes() if s != pilot)
    st.ex[pilot].room = st.ex[other].room = "grand-staircase"  # a room with a window, always in the house
    st.hflags.add("airplane-found")
    st.htokens["toy-airplane"] = ["grand-staircase"]
    rolled(st._task(pilot, Action.of("task", id="start-the-airplane")), [2])
    assert "pilot" in st.hstatus[pilot] and "airplane-started" in st.hflags
    assert st.turn.stopped, "the started Airplane stays on the ground this turn"
    st.current = st.turn.seat = other
    st.turn.keys.clear()
    _, reqs = drive(st._task(other, Action.of("task", id="board-on-the-ground")))
    assert not reqs, "climbing into the grounded Airplane takes no roll"
    assert "passenger" in st.hstatus[other] and st.carried.get(other) == pilot
    st.current = st.turn.seat = pilot
    st.turn.keys.clear()
    st.turn.moved = 0
    st.turn.stopped = False
    assert not any(a.get("id") == "fly-out" for a in st._task_actions(pilot)), "not before it takes off"
    drive(st._turn_rules(pilot, "start-of-turn"))
    assert "airplane-flying" in st.hflags
    assert not st._attack_actions(pilot), "a flying hero makes no attack"
    assert any(a.get("id") == "fly-out" for a in st._task_actions(pilot))
    drive(st._task(pilot, Action.of("task", id="fly-out")))
    assert st.exited & {pilot, other}, "the Airplane leaves with its heroes (the win is told as soon as enough are out)"
    assert st._check_wins() and st.result is not None and st.result.result == "heroes"


def test_a_crash_while_boarding_grounds_the_airplane() -> None:
    st, pilot, _ = started()
    other = next(s for s in st.living_heroes() if s != pilot)
    st.ex[pilot].room = st.ex[other].room = "grand-staircase"
    st.hflags.update({"airplane-found", "airplane-started", "airplane-flying"})
    st.htokens["toy-airplane"] = ["grand-staircase"]
    st.hstatus[pilot].append("pilot")
    st.current = st.turn.seat = other
    st.turn.keys.clear()
    rolled(st._task(other, Action.of("task", id="board-the-airplane")), [0])  # dice show 0: a crash
    assert not {"airplane-started", "airplane-flying"} & st.hflags and "pilot" not in st.hstatus[pilot]
    assert "passenger" not in st.hstatus.get(other, [])


def test_a_cat_catches_a_hero_in_the_grounded_airplane_but_not_in_the_flying_one() -> None:
    st, pilot, _ = started()
    other = next(s for s in st.living_heroes() if s != pilot)
    m = st.monster(cat(st))
    room = m.room
    st.ex[pilot].room = st.ex[other].room = room
    st.hflags.update({"airplane-found", "airplane-started", "airplane-flying"})
    st.hstatus[pilot].append("pilot")
    st.hstatus[other].append("passenger")
    st.carried[other] = pilot
    _, reqs = rolled(st._monster_attack(m), [2, 0])
    assert not reqs, "nobody to attack in the air: no target offered, no dice rolled"
    assert not any("captured" in st.hstatus.get(s, []) for s in (pilot, other))
    st.hflags.discard("airplane-flying")  # on the ground, its heroes may be attacked
    rolled(st._monster_attack(m), [2, 0], answer=pick("monster-attack", target=other))
    assert "captured" in st.hstatus[other] and "passenger" not in st.hstatus[other]
    st._sync_carried()
    assert other not in st.carried, "a caught hero is out of the Airplane"


def test_the_gymnasium_gallery_and_vault_do_nothing_for_the_small() -> None:
    st, hero, _ = started()
    assert st.spares_room(hero, "gallery") and st.spares_room(hero, "vault") and not st.spares_room(hero, "chapel")
    st.ex[hero].room = "gymnasium"
    before = st.ex[hero].idx["speed"]
    drive(run_triggered(st, hero, "end-of-turn", "gymnasium"))
    assert st.ex[hero].idx["speed"] == before, "no Speed from the Gymnasium for the small"
    st.hstatus[hero].remove("small")
    drive(run_triggered(st, hero, "end-of-turn", "gymnasium"))
    assert st.ex[hero].idx["speed"] == before + 1
