"""What Betrayal keeps between decisions for exploring and moving must be what a fresh computation
gives: each floor's count of free doorways (kept up to date as tiles are placed and taken off, not
walked again), the ways out of every room from each side and from every side and the explorer's
move menu (kept by the room, the house's changes near it and the links; which doorways may be
explored decided at each ask: tests/test_turn_menu_kept.py checks the whole turn menu in every
haunt); and the walking distances cut short at a distance (the Dog's reach) must be
the whole walk's as near. Checked at every step of seeded random games from the setup to the end,
in haunts that take rooms out of the house (31, 32) and in random haunts (the Mystic Elevator
moves its tile in exploration)."""

from __future__ import annotations

import pytest

from hauntcheck.engine.betrayal import new_game
from hauntcheck.engine.betrayal.house import DELTA, House
from hauntcheck.engine.betrayal.model import FLOORS
from hauntcheck.engine.betrayal.state import BetrayalState
from hauntcheck.engine.betrayal.state.base import TURN_PROMPT
from hauntcheck.engine.core import Action
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import seeded_table

SPEC = game_spec("betrayal")
#: (players, options): random haunts at every player count, and two haunts whose hooks take rooms
#: out of the house (31's airborne rooms, 32's lost rooms).
GAMES: list[tuple[int, dict[str, object]]] = [(3 + k % 4, {}) for k in range(8)] + [(4, {"haunt": 31, "force_haunt": True}), (5, {"haunt": 32, "force_haunt": True})]


def walked_free_count(house: House, floor: str) -> int:
    """The floor's doors that face an empty cell, counted by walking every tile on it."""
    grid = house.grid[floor]
    return sum((cell[0] + DELTA[side][0], cell[1] + DELTA[side][1]) not in grid
               for cell, room in grid.items() for side in house.doors(room))


def fresh_move_actions(st: BetrayalState, seat: str) -> list[Action]:
    """The explorer's move menu worked out with nothing kept (the kept entries are put back)."""
    kept = st._moves_cache, st._exits_cache
    st._moves_cache, st._exits_cache = {}, {}
    try:
        return list(st._move_actions(seat))
    finally:
        st._moves_cache, st._exits_cache = kept


@pytest.mark.parametrize("game", range(len(GAMES)))
def test_kept_doorways_exits_and_moves_match_fresh_ones_at_every_step(game: int) -> None:
    players, options = GAMES[game]
    st = new_game(SPEC, players, options)
    st.quiet = True
    table = seeded_table(100 + game)
    menus = removed = 0
    for _ in range(4000):
        if st.phase != "setup":
            for floor in FLOORS:
                assert st.house.free_count(floor) == walked_free_count(st.house, floor), f"game {game}, step {len(st.history)}, {floor}"
            for room in sorted(st.house.spots):
                for part in range(max(1, len(st.t.rooms[room].barrier))):
                    assert st.exits_at(room, part) == st._exits_from(room, part), f"game {game}, step {len(st.history)}, {room}"
                assert st.exits_at(room, 0, every_side=True) == st._exits_from(room, 0, every_side=True)
        req = st._req
        if req is not None and req.what == TURN_PROMPT and not st.ex[req.actor].dead:
            assert st._move_actions(req.actor) == fresh_move_actions(st, req.actor), f"game {game}, step {len(st.history)}"
            # the walk cut short at a distance finds exactly the rooms the whole walk finds that near
            whole = st.walking_distances(req.actor)
            for within in (1, 3, 6):
                assert st.walking_distances(req.actor, within) == {r: d for r, d in whole.items() if d <= within}
            menus += 1
        actor = st.to_move()
        if actor is None:
            break
        placed = len(st.house.spots)
        st.apply(table.for_actor(actor).choose(st, actor, st.legal_actions()))
        removed += len(st.house.spots) < placed
    assert menus > 50, f"game {game}: too few turn menus checked ({menus})"
    if options:
        assert removed, f"game {game} (haunt {options['haunt']}) takes rooms out of the house: the check must see it"
