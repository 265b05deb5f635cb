"""Before the haunt, the haunt layer's turn overrides (``_turn_action``, ``_move``, ``_explore``,
``draw_card`` in ``haunt/turns.py``) hand straight to the base game's: what they add reads only
haunt state that is empty until the haunt begins (carried explorers, concealed ones, tokens held
or lying about, turn modifiers, fetches and omen takes, deaths waiting for their rules, stunned
monsters left behind). This checks that premise at every step before the haunt of seeded random
games at every player count, and that the haunt spec is set only between turns (so no override
sees it appear halfway through an action)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

import pytest
from compiled_support import replaces_a_compiled_method

from hauntcheck.engine.betrayal import new_game
from hauntcheck.engine.betrayal.haunt.state import HauntState
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import seeded_table

SPEC = game_spec("betrayal")


def haunt_state_left_empty(st: HauntState) -> list[str]:
    """The haunt-only fields the overrides read that are not empty (or not off)."""
    fields = {"carried": st.carried, "concealed": st.concealed, "held": st.held, "htokens": st.htokens,
              "turn_mods": st.turn_mods, "fetches": st.fetches, "next_omen": st.next_omen,
              "deaths_pending": st.deaths_pending, "stunned_left": st.stunned_left}
    return [name for name, value in fields.items() if value]


#: The overrides that hand straight to the base game's while no haunt is set.
OVERRIDES = ("_turn_action", "_move", "_explore", "draw_card")


def watched(method: Callable[..., Generator[Any, Any, Any]], entered: list[str]) -> Callable[..., Generator[Any, Any, Any]]:
    """``method`` (a generator method), failing if the haunt spec is set while it runs before the haunt."""

    def run(st: HauntState, *args: Any, **kwargs: Any) -> Generator[Any, Any, Any]:
        before = st.hs is None
        result = yield from method(st, *args, **kwargs)
        assert not before or st.hs is None, f"{method.__name__} saw the haunt begin halfway"
        entered.append(method.__name__)
        return result

    return run


@replaces_a_compiled_method("HauntState's methods")
@pytest.mark.parametrize("seed", range(12))
def test_haunt_state_is_empty_at_every_step_before_the_haunt(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    entered: list[str] = []
    for name in OVERRIDES:
        monkeypatch.setattr(HauntState, name, watched(getattr(HauntState, name), entered))
    st = new_game(SPEC, 3 + seed % 4, {})
    assert isinstance(st, HauntState)
    st.quiet = True
    table = seeded_table(500 + seed)
    steps = 0
    while st.hs is None:
        assert haunt_state_left_empty(st) == [], f"seed {seed}, step {len(st.history)}"
        actor = st.to_move()
        if actor is None:
            break
        st.apply(table.for_actor(actor).choose(st, actor, st.legal_actions()))
        steps += 1
    assert steps > 50, f"seed {seed}: too few steps before the haunt ({steps})"
    assert {"_turn_action", "_move", "_explore"} <= set(entered), f"seed {seed}: {sorted(set(entered))}"
