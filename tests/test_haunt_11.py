"""Haunt 11, Let Them In: face-down Specters at the front door and the windows (and in window rooms
found later), let in by the traitor or the Madman, who heads for them; Sanity-only Specters that
the Ring banishes; the exorcism's one success per room or item."""

from __future__ import annotations

from betrayal_support import drive, forced, rolled

from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.core import Action

WINDOWS = ["entrance-hall", "grand-staircase", "master-bedroom", "bedroom", "chapel", "dining-room"]


def game(players: int = 4, seed: int = 2) -> tuple[HauntState, str, str]:
    st = forced(players, 11, seed)
    traitor = st.traitor()
    assert traitor is not None
    hero = st.current if st.current in st.living_heroes() else st.living_heroes()[0]
    return st, traitor, hero


def test_setup_puts_a_face_down_specter_at_the_door_and_each_window_in_the_house() -> None:
    st, traitor, _ = game()
    waiting = st.htokens["specter-waiting"]
    assert "entrance-hall" in waiting and "grand-staircase" in waiting
    later = [r for t, r in st.waiting_tokens if t == "specter-waiting"]
    assert sorted(set(waiting) | set(later)) == sorted(WINDOWS)
    assert not [m for m in st.mon if m.kind == "specter"]
    madman = next(m for m in st.mon if m.kind == "madman")
    assert madman.room == st.ex[traitor].room


def test_the_traitor_lets_a_specter_in_for_a_space_of_movement() -> None:
    st, traitor, _ = game()
    st.ex[traitor].room = "entrance-hall"
    st.current = traitor
    moved = st.turn.moved
    drive(st._task(traitor, Action.of("task", id="open-window")))
    assert st.turn.moved == moved + 1
    assert "entrance-hall" not in st.htokens["specter-waiting"]
    assert [m.room for m in st.active_monsters() if m.kind == "specter"] == ["entrance-hall"]


def test_the_madman_heads_for_the_nearest_face_down_specter_and_opens_it() -> None:
    st, _, _ = game()
    madman = next(m for m in st.mon if m.kind == "madman")
    options = st._monster_steps(madman, 1, True)
    forced_steps = st._forced_steps(madman, options)
    goal = st._monster_dist(madman, st.htokens["specter-waiting"])
    assert forced_steps is not None and all(goal[r] < goal[madman.room] for r, _ in forced_steps)
    madman.room = "grand-staircase"
    drive(st._after_monsters_move(st.hs.monsters["madman"]))  # type: ignore[union-attr]
    assert "grand-staircase" not in st.htokens["specter-waiting"]
    assert any(m.kind == "specter" and m.room == "grand-staircase" for m in st.active_monsters())


def test_only_a_ring_holder_may_attack_a_specter_and_beating_it_banishes() -> None:
    st, _, hero = game()
    st.ex[hero].room = "entrance-hall"
    drive(st._outcome({"release": {"token": "specter-waiting", "monster": "specter"}}, hero, None))
    specter = next(m for m in st.active_monsters() if m.kind == "specter")
    st.ex[hero].cards = [c for c in st.ex[hero].cards if c != "ring"]
    assert not st._may_attack(hero, specter.uid)
    st.ex[hero].cards.append("ring")
    assert st._may_attack(hero, specter.uid)
    st.ex[hero].idx["sanity"] = 4
    rolled(st._attack(hero, Action.of("attack", target=specter.uid, trait="sanity")), [[2] * 8, [0] * 8])
    assert specter.gone == "killed"


def test_each_room_or_item_serves_one_exorcism_success() -> None:
    st, _, hero = game()
    if "chapel" not in st.house.spots:
        st.ex[hero].cards.append("holy-symbol")
        place = "holy-symbol"
    else:
        st.ex[hero].room = "chapel"
        place = "chapel"
    task = next(t for t in st.tasks_for(hero) if t["id"] == "exorcism-sanity")
    st.turn.keys.discard("task-roll")
    assert place in st._task_places(hero, task)  # type: ignore[operator]
    rolled(st._task(hero, Action.of("task", id="exorcism-sanity", place=place)), [[2] * 8])
    assert st.earned["sanity-roll"] == 1
    assert place not in (st._task_places(hero, task) or [])
