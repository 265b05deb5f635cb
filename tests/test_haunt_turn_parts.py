"""A turn's moments the haunt file gives nothing to do are not entered (``haunt/turns.py``
``TurnParts``: timers, monsters walking at a turn's start, turn rules by moment, standing rules, the
collapse piece; deaths are answered only when someone died), nor a monster's lure checks and
pick-ups where its kind has no lure and carries nothing and no pile lies in its room
(``haunt/ways.py`` ``MonsterWays``). Seeded random games of all 50 haunts must play the same
actions with the same events and end the same way at the same step as when every moment is entered
and every monster checked (``turn_parts`` and ``monster_ways`` answering "everything")."""

from __future__ import annotations

from typing import Any

import pytest

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt.base import HauntBase
from hauntcheck.engine.betrayal.haunt.pieces import Monster
from hauntcheck.engine.betrayal.haunt.turns import TurnParts, Turns
from hauntcheck.engine.betrayal.haunt.ways import MonsterWays
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import seeded_table

SPEC = game_spec("betrayal")
HAUNTS = sorted(hauntmod.haunt_tables(SPEC)[0])
PLAYERS = (3, 4, 5, 6)
#: Every moment of a turn at which turn rules may run.
MOMENTS = ("start-of-turn", "during-turn", "after-each-action", "end-of-turn")


def played(number: int) -> tuple[list[Any], Any, int]:
    """The actions of a seeded random game of haunt ``number`` with each one's events (rule and
    arguments), its outcome and its last step."""
    st = hauntmod.new_game(SPEC, PLAYERS[(number + 3) % len(PLAYERS)], {"haunt": number, "force_haunt": True})
    table = seeded_table(2)
    steps = []
    for _ in range(5000):
        actor = st.to_move()
        if actor is None:
            break
        a = table.for_actor(actor).choose(st, actor, st.legal_actions())
        events = st.apply(a)
        steps.append((a, [e.to_data() for e in events]))
    return steps, st.outcome(), len(st.history)


def everything(st: Turns) -> TurnParts:
    return TurnParts(True, True, frozenset(MOMENTS), MOMENTS[:3], True, True, True)


def checked_ways(st: HauntBase, m: Monster) -> MonsterWays:
    """The monster's ways as they are, but with lures and pick-ups always looked for."""
    return MONSTER_WAYS(st, m)._replace(lures=True, carries=True)


MONSTER_WAYS = HauntBase.monster_ways


@pytest.mark.parametrize("number", HAUNTS)
def test_moments_left_out_change_no_game(number: int, monkeypatch: pytest.MonkeyPatch) -> None:
    got = played(number)
    with monkeypatch.context() as m:
        m.setattr(Turns, "turn_parts", everything)
        m.setattr(HauntBase, "monster_ways", checked_ways)
        want = played(number)
    assert got[1] is not None, f"haunt {number}: the game did not end"
    assert got[1:] == want[1:], f"haunt {number}: outcome and last step"
    assert got[0] == want[0], f"haunt {number}: the actions or their events differ"
