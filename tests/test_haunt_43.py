"""Haunt 43, The Star-Sickness (a draft in docs/drafts, not playable yet): the win pieces it uses
from the vocabulary instead of its former ``converts`` hook - ``heroes_gone``, ``some_explorer``
and ``latest_convert`` over the traitor side's converts - tried on a haunt in play (39)."""

from __future__ import annotations

from pathlib import Path

from betrayal_support import drive, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import TRAITOR, HauntState
from hauntcheck.engine.betrayal.hauntspec import WinDef, load_haunt
from hauntcheck.engine.betrayal.state import Req
from hauntcheck.engine.core import CHANCE
from hauntcheck.engine.spec import read_yaml

DRAFT = Path(__file__).resolve().parents[1] / "docs" / "drafts" / "43-the-star-sickness.yaml"


def _game() -> HauntState:
    return start_haunt(4, 39)


def _wins(side: str) -> dict[str, WinDef]:
    data, _positions, _text = read_yaml(DRAFT)
    haunt = load_haunt(data)
    own = haunt.sides()[side]
    return {w.id: w for w in own.wins}


def test_converts_are_recorded_in_order_and_the_latest_is_named() -> None:
    st = _game()
    first, second = st.living_heroes()[:2]
    drive(st._outcome({"turn_traitor": True}, first, None))
    drive(st._outcome({"turn_traitor": True}, second, None))
    assert st.converts == [first, second] and st.side[first] == st.side[second] == TRAITOR
    assert st.snapshot()["haunt_phase"]["converts"] == [first, second]
    latest = {"latest_convert": True}
    assert st.pred(latest, second) and not st.pred(latest, first) and not st.pred(latest, None)


def test_every_explorer_in_play_is_some_explorer_negated_twice() -> None:
    st = _game()
    every = {"not": {"some_explorer": {"not": {"has_status": "inoculated"}}}}
    assert not st.pred(every)
    for s in st.seat_ids:
        st.hstatus.setdefault(s, []).append("inoculated")
    assert st.pred(every)
    dead = st.seat_ids[0]
    st.hstatus[dead].remove("inoculated")
    st.ex[dead].dead = True  # the dead are not asked
    assert st.pred(every)


def test_the_drafts_wins_read_with_the_new_leaves() -> None:
    traitor_wins = _wins("traitor")
    heroes_wins = _wins("heroes")
    assert set(traitor_wins) == {"all-converted"} and set(heroes_wins) == {"all-inoculated"}
    st = _game()
    when = heroes_wins["all-inoculated"].when
    for s in st.seat_ids:
        st.hstatus.setdefault(s, []).append("inoculated")
    assert not st.pred(when)  # no Serum yet
    st.hflags.add("serum-made")
    assert st.pred(when)


def _dice_rolled(asked: list[Req]) -> list[int]:
    """How many dice each chance roll among the requests rolled."""
    out = []
    for r in asked:
        if r.actor == CHANCE:
            faces = next(iter(r.choices))["faces"]
            assert isinstance(faces, tuple)
            out.append(len(faces))
    return out


def test_the_disease_attacks_every_explorer_but_the_inoculated_with_no_dice_limit() -> None:
    st = _game()
    spared = st.seat_ids[0]
    st.hstatus.setdefault(spared, []).append("inoculated")
    st.track = 10
    spec = {"dice": {"of": "turn-track"}, "trait": "might", "unless": {"has_status": "inoculated"}, "no_dice_limit": True}
    before = {s: (st.ex[s].idx["might"], st.ex[s].idx["speed"]) for s in st.seat_ids}
    # the attack's 10 dice in two rolls (8 and 2) all show 2: 20; every resisting roll shows 0
    _, asked = rolled(st._outcome({"roll_attack": spec}, None, None), [2, 2], face=0)
    assert _dice_rolled(asked)[:2] == [8, 2]
    for s in st.seat_ids:
        lost = sum(before[s]) - st.ex[s].idx["might"] - st.ex[s].idx["speed"]
        assert (lost == 0) == (s == spared) or st.ex[s].dead, s


def test_the_disease_is_capped_at_eight_dice_without_no_dice_limit() -> None:
    st = _game()
    st.track = 10
    _, asked = rolled(st._outcome({"roll_attack": {"dice": {"of": "turn-track"}, "trait": "might"}}, None, None),
                      [2], face=2)
    assert _dice_rolled(asked)[0] == 8
