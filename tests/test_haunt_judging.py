"""The goals are judged once per change where a judgement could only repeat the one before it
(``haunt/monsters.py``: the monster turn after the sides' monster-turn rules, a monster's abilities
and rolls when it has none). Seeded random games of all 50 haunts must end with the same outcome at
the same step, through the same actions, as when the goals are judged at every one of those places."""

from __future__ import annotations

from typing import Any

import pytest

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import fields
from hauntcheck.engine.betrayal.haunt.monsters import Monsters
from hauntcheck.engine.betrayal.haunt.state import haunt_tables
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import seeded_table

SPEC = game_spec("betrayal")
HAUNTS = sorted(haunt_tables(SPEC)[0])
SEEDS = (0, 1)
PLAYERS = (3, 4, 5, 6)


def played(number: int, seed: int, players: int) -> tuple[list[Any], Any, int]:
    """The actions of a seeded random game of haunt ``number``, its outcome and its last step."""
    st = hauntmod.new_game(SPEC, players, {"haunt": number, "force_haunt": True})
    table = seeded_table(seed)
    st.quiet = True
    actions = []
    for _ in range(5000):
        actor = st.to_move()
        if actor is None:
            break
        a = table.for_actor(actor).choose(st, actor, st.legal_actions())
        actions.append(a)
        st.apply(a)
    return actions, st.outcome(), len(st.history)


@pytest.mark.parametrize("number", HAUNTS)
def test_skipped_judgements_change_no_game(number: int, monkeypatch: pytest.MonkeyPatch) -> None:
    games = [(seed, PLAYERS[(number + k) % len(PLAYERS)]) for k, seed in enumerate(SEEDS)]
    skipped = [played(number, seed, players) for seed, players in games]
    with monkeypatch.context() as m:
        side_monster_turn = fields.side_monster_turn

        def judged_after(st: Any) -> Any:
            yield from side_monster_turn(st)
            st._check_wins()

        m.setattr(fields, "side_monster_turn", judged_after)
        m.setattr(Monsters, "_after_attack", lambda self, mdef: (True, True))
        everywhere = [played(number, seed, players) for seed, players in games]
    for (seed, players), got, want in zip(games, skipped, everywhere, strict=True):
        assert got[1] is not None, f"haunt {number}, seed {seed}: the game did not end"
        assert got[1:] == want[1:], f"haunt {number}, seed {seed}, {players} players: outcome and last step"
        assert got[0] == want[0], f"haunt {number}, seed {seed}, {players} players: the actions differ"
