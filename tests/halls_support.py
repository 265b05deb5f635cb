"""Helpers shared by the Halls of Horror tests."""

from __future__ import annotations

from hauntcheck.engine.core import Action, DiceRoll, Shuffle
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.halls import GAME, HallsState


def set_up_in_spec_order(players: int = 4, **options: str) -> HallsState:
    """A game past setup: every shuffle keeps spec order, every face roll is 0, every choice the
    first offered (so the seats sit in the corners in order)."""
    state = GAME.new_game(game_spec("halls-of-horror"), players, options)
    assert isinstance(state, HallsState)
    while state.stage.startswith("setup"):
        legal = state.legal_actions()
        if isinstance(legal, Shuffle):
            state.apply(Action.of("shuffle", pile=legal.pile, order=list(legal.items)))
        elif isinstance(legal, DiceRoll):
            state.apply(Action.of("roll", faces=[0] * legal.count))
        else:
            state.apply(next(iter(legal)))
    return state
