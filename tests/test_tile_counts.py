"""The count of room tiles left for a floor (``remaining_for``), kept between decisions by the tile
version, must be a fresh count of the piles at every step: a tile turned up and set aside because it
could only seal the floor (``discover.sealing-tile-discarded``) and haunt 32's rooms set aside before
the stack is shuffled each change the piles after the count was kept, so each must count again.
And a tile looked at on top of the stack (``room_top``, the Crystal Ball) is always in the stack: a
haunt's set-up that takes it from the stack to place it (haunt 14's Stairs from Basement) takes it
off the top too."""

from __future__ import annotations

import pytest

from hauntcheck.engine.betrayal import new_game
from hauntcheck.engine.betrayal.model import FLOORS
from hauntcheck.engine.betrayal.state import BetrayalState
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import seeded_table

SPEC = game_spec("betrayal")
#: (players, options, seed): whole games in which a tile turned up could only seal its floor (found
#: by playing seeds 500-559); haunt 32, whose set-up sets most of the house aside; and haunt 14 at
#: seed 7014, whose set-up places the tile a Crystal Ball had shown on top of the stack.
GAMES: list[tuple[int, dict[str, object], int]] = [
    (5, {}, 534), (5, {}, 538), (5, {}, 546), (4, {"haunt": 32, "force_haunt": True}, 537),
    (5, {"haunt": 14, "force_haunt": True}, 7014)]


def counted_afresh(st: BetrayalState, floor: str) -> int:
    """The tiles in the stack, the set-aside pile and the unshuffled tiles that fit ``floor``."""
    if floor in st.closed_floors:
        return 0
    return sum(floor in st.t.rooms[t].floors for t in st.stack + st.aside + st.unshuffled_rooms)


@pytest.mark.parametrize("game", range(len(GAMES)))
def test_tiles_left_and_the_top_tile_match_the_piles_at_every_step(game: int) -> None:
    players, options, seed = GAMES[game]
    st = new_game(SPEC, players, options)
    table = seeded_table(seed)
    discarded = False
    for _ in range(3000):
        for floor in FLOORS:
            assert st.remaining_for(floor) == counted_afresh(st, floor), f"step {len(st.history)}, {floor}"
        assert st.room_top is None or st.room_top in st.stack, f"step {len(st.history)}: {st.room_top} is not in the stack"
        actor = st.to_move()
        if actor is None:
            break
        st.apply(table.for_actor(actor).choose(st, actor, st.legal_actions()))
        discarded = discarded or any(e.rule == "discover.sealing-tile-discarded" for e in st._events)
    if options:
        assert st.hs is not None and st.hs.number == options["haunt"], "the game must reach its haunt"
        assert actor is None, "the game must be played to its end"
    else:
        assert discarded, "the game must set aside a tile that could only seal its floor"
