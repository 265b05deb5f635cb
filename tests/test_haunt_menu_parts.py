"""The parts of the haunt-phase turn menu a haunt file never lets offer anything are not asked
(``haunt/turns.py`` ``MenuParts``: escorts, tokens carried like items, special actions that take an
item). At every step of a seeded random game of each of the 50 haunts, those parts and the whole
menu must be what they are with every part asked (``menu_parts`` answering "everything"), for every
explorer in play."""

from __future__ import annotations

import pytest
from betrayal_support import haunt_walk

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.betrayal.haunt.turns import MenuParts, Turns
from hauntcheck.engine.games import game_spec

SPEC = game_spec("betrayal")
HAUNTS = sorted(hauntmod.haunt_tables(SPEC)[0])
PLAYERS = (3, 4, 5, 6)


def parts_of(st: HauntState) -> dict[str, object]:
    """The menu parts of every explorer in play, and the whole menu of the one whose turn it is."""
    seats = [s for s in st.seat_ids if st.in_play(s)]
    out: dict[str, object] = {f"{s}:{part}": getattr(st, part)(s) for s in seats
                              for part in ("_escort_actions", "_side_actions", "_token_pickups")}
    if st.current in seats:
        out["menu"] = st._turn_actions(st.current)
    return out


def everything(st: Turns) -> MenuParts:
    """Every part asked: escorts, item tokens and every side's item-taking actions."""
    assert st.hs is not None
    return MenuParts(True, True, frozenset(st.hs.sides()))


@pytest.mark.parametrize("number", HAUNTS)
def test_menu_parts_left_out_offer_nothing(number: int, monkeypatch: pytest.MonkeyPatch) -> None:
    def alike(st: HauntState) -> None:
        kept = parts_of(st)
        with monkeypatch.context() as m:
            m.setattr(Turns, "menu_parts", everything)
            full = parts_of(st)
        assert kept == full, f"haunt {number}, step {len(st.history)}"

    checked = haunt_walk(number, 0, PLAYERS[(number + 2) % len(PLAYERS)], alike)
    assert checked, f"haunt {number}: no haunt-phase step was checked"
