"""Haunt 7, Carnivorous Ivy: Roots and Tips, grabbing and dragging, mulching, the Plant Spray."""

from __future__ import annotations

from betrayal_support import drive
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import HauntState, Monster, grabs
from hauntcheck.engine.core import Action

CREEPER_ROOMS = ("entrance-hall", "balcony", "bedroom", "chapel", "conservatory", "dining-room", "gardens",
                 "grand-staircase", "graveyard", "master-bedroom", "patio", "tower")


def started(players: int, number: int = 7) -> HauntState:
    return start_haunt(players, number)


def pair(st: HauntState, number: int = 1) -> tuple[Monster, Monster]:
    root = st.monster(f"creeper-root-{number}")
    tip = st.monster(f"creeper-tip-{number}")
    return root, tip


def test_setup_puts_a_root_and_its_tip_in_each_creeper_room_and_the_rest_wait() -> None:
    st = started(4)
    traitor = st.traitor()
    assert traitor is not None and st.in_play(traitor)
    assert "book" not in st.ex[traitor].cards
    creeper_rooms = [r for r in CREEPER_ROOMS if r in st.house.spots]
    roots = [m for m in st.mon if m.kind == "creeper-root"]
    tips = [m for m in st.mon if m.kind == "creeper-tip"]
    assert len(roots) == min(8, len(creeper_rooms)) and len(roots) + len(st.waiting) == 8
    assert len({m.room for m in roots}) == len(roots) and all(m.room in CREEPER_ROOMS for m in roots)
    assert [t.room for t in tips] == [r.room for r in roots]


def test_the_traitor_may_never_pick_the_book_up_again_but_a_hero_may() -> None:
    st = started(4)
    traitor = st.traitor()
    assert traitor is not None
    h = st.living_heroes()[0]
    room = st.ex[h].room
    home = next(r for r, pile in st.piles.items() if "book" in pile)  # where the traitor dropped it
    st.piles[home].remove("book")
    st.piles.setdefault(room, []).append("book")
    st.ex[traitor].room = room
    st.turn.picked = False
    assert f"{traitor}/book" in st.no_pickup
    assert not any(a.kind == "pickup" and a["card"] == "book" for a in st._turn_actions(traitor))
    assert any(a.kind == "pickup" and a["card"] == "book" for a in st._turn_actions(h))


def test_a_dropped_plant_spray_can_be_picked_up_again() -> None:
    st = started(4)
    h = st.current
    st.htokens["plant-spray"] = [st.ex[h].room]
    assert Action.of("pickup-token", token="plant-spray") in st._turn_actions(h)
    drive(st._turn_action(h, Action.of("pickup-token", token="plant-spray")))
    assert st.held[h] == ["plant-spray"] and st.htokens["plant-spray"] == []


def test_a_discovered_creeper_room_takes_a_waiting_root_and_its_tip() -> None:
    st = started(4)
    st.waiting = [("creeper-root", CREEPER_ROOMS)]
    free = next(r for r in CREEPER_ROOMS if not any(m.room == r for m in st.mon))
    before = len(st.mon)
    st.note_new_room(free)
    assert len(st.mon) == before + 2 and not st.waiting
    root, tip = st.mon[-2:]
    assert (root.kind, tip.kind, root.room, tip.room) == ("creeper-root", "creeper-tip", free, free)
    assert root.uid.rsplit("-", 1)[-1] == tip.uid.rsplit("-", 1)[-1]


def test_roots_never_attack_cannot_be_attacked_and_do_not_slow() -> None:
    st = started(4)
    root, tip = pair(st)
    h = st.living_heroes()[0]
    st.ex[h].room = root.room
    tip.room = root.room
    tip.stunned = True
    assert not st._may_attack(h, root.uid)
    assert any(r.get("forbidden") for r in st.fight_rules(root.uid, h))
    assert st._slowing(h) == 0
    tip.stunned = False
    assert st._slowing(h) == 1


def _grab(st: HauntState) -> tuple[str, Monster]:
    _, tip = pair(st)
    h = st.current
    st.ex[h].room = tip.room
    drive(st._resolve_fight(tip.uid, h, "might", 6, 2))
    return h, tip


def test_a_tip_that_wins_grabs_the_hero_who_drops_everything_and_takes_no_damage() -> None:
    st = started(4)
    h = st.current
    st.ex[h].cards.append("bottle")
    before = dict(st.ex[h].idx)
    cards = [c for c in st.ex[h].cards if not st.t.cards[c].companion]
    h2, tip = _grab(st)
    assert h2 == h and st.hstatus[h] == ["grabbed"] and st.grips[tip.uid] == (h, "grabbed")
    assert st.ex[h].idx == before and all(c in st.piles[tip.room] for c in cards)
    assert st._move_actions(h) == []
    other = st.monster("creeper-tip-2")
    other.room = tip.room
    assert any(r.get("forbidden") for r in st.fight_rules(other.uid, h))  # other Tips leave a grabbed hero alone
    assert st._may_attack(h, tip.uid) and not st._may_attack(h, other.uid)


def test_a_grabbed_hero_who_loses_to_the_tip_takes_no_damage_and_a_win_frees() -> None:
    st = started(4)
    h, tip = _grab(st)
    assert h == st.current
    before = dict(st.ex[h].idx)
    st.turn.end_now = False
    drive(st._resolve_fight(h, tip.uid, "might", 2, 6))
    assert st.ex[h].idx == before and st.hstatus[h] == ["grabbed"] and st.turn.end_now
    drive(st._resolve_fight(h, tip.uid, "might", 6, 2))
    assert tip.stunned and tip.uid not in st.grips and st.hstatus[h] == []


def test_a_holding_tip_drags_its_hero_toward_the_root_and_mulches_there() -> None:
    st = started(4)
    root, tip = pair(st)
    h = st.living_heroes()[0]
    start = next(r for r in sorted(st.house.spots) if st._dist_to([root.room]).get(r) == 3)
    tip.room = start
    st.ex[h].room = start
    drive(st._resolve_fight(tip.uid, h, "might", 6, 2))
    spent, _ = drive(grabs.drag(st, tip))
    assert spent and st._dist_to([root.room])[tip.room] == 1 and st.ex[h].room == tip.room
    drive(grabs.drag(st, tip))
    assert tip.room == root.room == st.ex[h].room and not st.ex[h].dead
    drive(grabs.devour(st, tip))  # the start of the Creeper's turn
    assert st.ex[h].dead and root.gone == tip.gone == "removed" and not st.grips
    assert not st.pred({"monsters_defeated": {"monster": "creeper-root", "count": 1, "how": "killed"}})


def test_the_plant_spray_kills_a_whole_creeper_and_enough_kills_win() -> None:
    st = started(3)
    h = st.current
    assert st.side[h] == "heroes"
    st.held[h] = ["plant-spray"]
    for killed, number in enumerate((1, 2, 3), start=1):
        root, tip = pair(st, number)
        st.ex[h].room = tip.room
        st.turn.keys.clear()
        acts = [a for a in st._task_actions(h) if a["id"] == "spray"]
        assert Action.of("task", id="spray", target=tip.uid) in acts
        drive(st._task(h, Action.of("task", id="spray", target=tip.uid)))
        assert root.gone == tip.gone == "killed"
        assert st._check_wins() == (killed == 3)
    assert st.result is not None and st.result.result == "heroes"


def test_the_traitor_steals_the_spray_and_destroys_it_by_ending_the_turn_in_the_furnace() -> None:
    st = started(4)
    traitor = st.traitor()
    assert traitor is not None
    h = st.living_heroes()[0]
    st.held[h] = ["plant-spray"]
    st.ex[h].room = st.ex[traitor].room
    _, reqs = drive(st._resolve_fight(traitor, h, "might", 6, 2))
    steal = [r for r in reqs if r.actor == traitor]
    assert steal and Action.of("steal", card="plant-spray") in steal[0].choices  # type: ignore[operator]
    st.held = {traitor: ["plant-spray"]}
    assert not st._check_wins()
    st.ex[traitor].room = "furnace-room"
    drive(st._end_haunt_turn(traitor))
    assert "plant-spray" in st.destroyed and st._check_wins()
    assert st.result is not None and st.result.result == "traitor"


def test_a_tip_in_the_mystic_elevator_jams_it() -> None:
    st = started(4)
    _, tip = pair(st)
    assert not st.room_jammed("mystic-elevator")
    tip.room = "mystic-elevator"
    assert st.room_jammed("mystic-elevator")
    tip.stunned = True
    assert st.room_jammed("mystic-elevator")  # a stunned Tip is still in it
