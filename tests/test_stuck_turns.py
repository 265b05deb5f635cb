"""No decision is ever left without a legal action: haunt 22's collapsing house once put an explorer
who jumped clear into the Coal Chute, whose only door led to a fallen room and whose chute led to
the fallen Basement Landing, where the turn could neither go on nor end (``room.coal-chute.no-ending-turn``
has a judgement for it: a chute down to a room out of play slides nobody, so a turn may end on it).
Found by random play of every haunt over many seeds; these are the two games that met it."""

from __future__ import annotations

import pytest

from hauntcheck.engine.betrayal import new_game
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import seeded_table

SPEC = game_spec("betrayal")
#: (players, seed) of haunt 22's games that met the stuck turn.
GAMES = [(6, 11722), (3, 13822)]


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_haunt_22_games_that_met_a_stuck_turn_play_to_their_end(players: int, seed: int) -> None:
    st = new_game(SPEC, players, {"haunt": 22, "force_haunt": True})
    st.quiet = True
    table = seeded_table(seed)
    landing_fell = False
    for _ in range(5000):
        actor = st.to_move()
        if actor is None:
            break
        legal = st.legal_actions()
        assert legal.size() > 0, f"step {len(st.history)}: {actor} has no legal action"
        st.apply(table.for_actor(actor).choose(st, actor, legal))
        if "basement-landing" in getattr(st, "collapsed", ()):
            landing_fell = True
            assert "coal-chute" not in st.no_end_rooms, "the chute down to a fallen room still forbids ending a turn"
    assert actor is None, "the game must end"
    assert landing_fell, "the game must see the Basement Landing fall"
