"""Haunt 13, Perchance to Dream: the sleeping traitor, Nightmares that escape through unused
escape rooms (each escape marked, another Nightmare unleashed), the secret number of escapes,
waking the dreamer with the Holy Symbol."""

from __future__ import annotations

from betrayal_support import drive, pick, rolled, started

from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.core import Action

ESCAPE_ROOMS = ["grand-staircase", "master-bedroom", "bedroom", "chapel", "dining-room", "conservatory", "entrance-hall",
                "gardens", "graveyard", "patio", "tower", "balcony"]


def game(players: int = 4) -> tuple[HauntState, str]:
    st = started(players, 13)
    traitor = st.traitor()
    assert traitor is not None
    return st, traitor


def test_setup_puts_the_traitor_to_sleep_and_writes_down_the_escape_rooms() -> None:
    st, traitor = game()
    assert "asleep" in st.hstatus[traitor]
    assert not st.ex[traitor].cards or all(not st.t.cards[c].item for c in st.ex[traitor].cards)
    in_house = [r for r in ESCAPE_ROOMS if r in st.house.spots]
    assert len(in_house) >= st.n
    assert st.track == len(in_house)  # the number written down at the reveal
    nightmares = [m for m in st.mon if m.kind == "nightmare"]
    assert len(nightmares) >= st.n


def test_a_nightmare_escapes_once_per_room_and_another_is_unleashed() -> None:
    st, traitor = game()
    m = next(x for x in st.active_monsters() if x.kind == "nightmare")
    room = next(r for r in ESCAPE_ROOMS if r in st.house.spots)
    m.room = room
    before = len([x for x in st.active_monsters() if x.kind == "nightmare"])
    drive(st._monster_exit(m))
    assert m.gone == "escaped" and st.earned["escape-token"] == 1 and room in st.htokens["escape-token"]
    assert room not in st.exit_rooms(m)
    assert len([x for x in st.active_monsters() if x.kind == "nightmare"]) == before
    assert any(x.room == st.ex[traitor].room and not x.gone for x in st.mon if x is not m)


def test_the_traitor_wins_when_the_written_number_have_escaped() -> None:
    st, _ = game()
    st.earned["escape-token"] = st.track - 1
    assert not st._check_wins()
    st.earned["escape-token"] = st.track
    assert st._check_wins() and st.result is not None and st.result.result == "traitor"


def test_waking_needs_the_holy_symbol_in_the_dreamers_room() -> None:
    st, traitor = game()
    hero = st.current if st.current in st.living_heroes() else st.living_heroes()[0]
    task = next(t for t in st.tasks_for(hero) if t["id"] == "wake-the-dreamer")
    st.ex[hero].room = st.ex[traitor].room
    st.turn.keys.discard("task-roll")
    assert not st._task_open(hero, task)
    st.ex[hero].cards.append("holy-symbol")
    assert st._task_open(hero, task)
    rolled(st._task(hero, Action.of("task", id="wake-the-dreamer", trait="sanity")), [2], pick("task"))
    assert st.earned.get("sanity-roll") == 1


def test_the_heroes_win_with_one_success_per_player() -> None:
    st, _ = game(3)
    st.earned["sanity-roll"], st.earned["might-roll"] = 2, 1
    assert st._check_wins() and st.result is not None and st.result.result == "heroes"


def test_the_sleeper_cannot_move_or_be_attacked() -> None:
    st, traitor = game()
    assert st._blocks(traitor, "move") and st._blocks(traitor, "be-attacked")
