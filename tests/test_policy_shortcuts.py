"""The policy's shortcuts give what the long way gives, at every decision of golden policy games:
a seat's view left unentered (policy/decide.py ``_view_hides``) is one that :func:`seat_view`
would not have changed; the traitor's wins read once per side and monster kind
(policy/monsters.py ``_monster_wins``) give what the plain reading of the wins gives; and what an
explorer holds as one set (policy/turn.py ``_holding``) is what :meth:`HauntState.holds` says,
thing by thing."""

from __future__ import annotations

import contextlib
import copy
import importlib
from typing import Any

import pytest

from hauntcheck.engine.betrayal.haunt import HauntState, Monster
from hauntcheck.engine.betrayal.haunt.concealment import concealed_view
from hauntcheck.engine.betrayal.haunt.views import seat_view
from hauntcheck.engine.betrayal.policy import monster_goal, policy, wanted_cards
from hauntcheck.engine.core import Action, Choices, GameState, Rng
from hauntcheck.engine.games import game_spec, get_game
from hauntcheck.engine.play import PolicyController, run_fast, seeded_table

# ``policy`` names the function in the package, so the modules are looked up by their full names.
decide = importlib.import_module("hauntcheck.engine.betrayal.policy.decide")
turn = importlib.import_module("hauntcheck.engine.betrayal.policy.turn")


def play_golden(haunt: int, look: Any) -> None:
    """Play every golden policy game of ``haunt``, calling ``look(state)`` before each haunt-phase
    decision the policy makes."""
    definition = get_game("betrayal")
    spec = game_spec("betrayal")
    cases = [c for c in definition.golden if c.controller == "policy" and c.options.get("haunt") == haunt]
    assert cases, f"haunt {haunt} has golden policy games"

    def checked(state: GameState, legal: Choices, rng: Rng) -> Action:
        if isinstance(state, HauntState) and state.hs is not None:
            look(state)
        return policy(state, legal, rng)

    for case in cases:
        state = definition.new_game(spec, case.players, case.options)
        run_fast(state, seeded_table(case.seed, PolicyController(checked, case.seed)))


def what_a_view_shows(st: HauntState) -> tuple[Any, ...]:
    """Everything :func:`seat_view` may take out of a state, copied."""
    return ({t: list(rooms) for t, rooms in st.htokens.items()}, {s: list(held) for s, held in st.hstatus.items()},
            dict(st.side), st.hidden)


# Hidden tokens and statuses (39), a hidden traitor (34, 43), concealed explorers (41), nothing hidden (1).
VIEWS = (1, 34, 39, 41, 43)


@pytest.mark.parametrize("haunt", VIEWS)
def test_a_view_left_unentered_is_one_seat_view_would_not_change(haunt: int) -> None:
    skipped = entered = 0

    def look(state: HauntState) -> None:
        nonlocal skipped, entered
        seat = state.to_move()
        if seat is None or seat not in state.ex:
            return
        view = concealed_view(state.seen_by(seat), seat)
        if decide._view_hides(view, seat):
            entered += 1
            return
        skipped += 1
        before = what_a_view_shows(view)
        with seat_view(view, seat):
            assert what_a_view_shows(view) == before, f"haunt {haunt}: seat_view changed the view of {seat}"

    play_golden(haunt, look)
    if haunt == 39:  # each side is kept from its hidden tokens or statuses: every view is entered
        assert entered > 0 and not skipped
    else:
        assert skipped > 20


def plain_monster_goal(st: HauntState, m: Monster) -> tuple[set[str], set[str], list[str]]:
    """The traitor's wins read at the decision, as the policy did before it kept them."""
    need_all: set[str] = set()
    need_any: set[str] = set()
    rooms: list[str] = []
    side = st.hs.traitor_side if st.hs is not None else None
    ruled = {str(eff["set_flag"]) for r in (side.rules if side is not None else ()) for eff in r.get("do", [])
             if "set_flag" in eff}
    for w in side.wins if side is not None else ():
        leaves = w.when.get("all", [w.when])
        if any("flag" in x and x["flag"] not in st.hflags and x["flag"] not in ruled for x in leaves):
            continue
        for h in [x["holds"] for x in leaves if "holds" in x and x["holds"].get("who", {}).get("monster") == m.kind]:
            need_all |= set(h.get("all", []))
            need_any |= set(h.get("any", []))
        for spot in [x["monster_in_room"] for x in leaves if "monster_in_room" in x and x["monster_in_room"]["monster"] == m.kind]:
            with contextlib.suppress(NotImplementedError):
                rooms += st._rooms_for(spot["room"])
    return need_all, need_any, rooms


# Traitor's wins asking a monster to hold a card and reach a room (1), one waiting for a flag first (20).
MONSTER_WINS = (1, 20)


@pytest.mark.parametrize("haunt", MONSTER_WINS)
def test_kept_monster_goals_equal_plain_ones_at_every_decision(haunt: int) -> None:
    met = 0

    def look(state: HauntState) -> None:
        nonlocal met
        for m in state.mon:
            goal = monster_goal(state, m)
            assert goal == plain_monster_goal(state, m), f"haunt {haunt}, {m.uid}"
            met += any(goal)

    play_golden(haunt, look)
    assert met > 0  # the wins ask something of its monsters: the check met it


HOLDING = (1, 5, 10, 27, 34, 35)


@pytest.mark.parametrize("haunt", HOLDING)
def test_holding_is_what_holds_says_thing_by_thing(haunt: int) -> None:
    compared = 0

    def look(state: HauntState) -> None:
        nonlocal compared
        things = {*state.t.cards, *state.pool, *(t for held in state.held.values() for t in held)}
        for side in state.hs.sides() if state.hs is not None else ():
            things |= wanted_cards(state, side)
        for seat in state.seat_ids:
            holding = turn._holding(state, seat)
            assert {w for w in things if state.holds(seat, w)} == holding & things
            assert holding <= things  # nothing held is left out of the comparison
            compared += len(holding)

    play_golden(haunt, look)
    assert compared > 0


def test_a_masked_traitor_is_hidden_from_every_other_seat_until_seen_by_masks_it() -> None:
    """In the game itself a masked hidden traitor is something :func:`seat_view` takes out for
    every other seat (not for the traitor); in a seat's own view (``seen_by``) it is out already."""
    definition = get_game("betrayal")
    case = next(c for c in definition.golden if c.controller == "policy" and c.options.get("haunt") == 34)
    state = definition.new_game(game_spec("betrayal"), case.players, case.options)
    table = seeded_table(case.seed, PolicyController(policy, case.seed))
    run_fast(state, table, stop="reveal")
    assert isinstance(state, HauntState)
    while state.hidden is None and state.to_move() is not None:  # the numbered tokens are dealt after the reveal
        run_fast(state, table, max_steps=1)
    assert state.hidden is not None
    game = copy.copy(state)
    game.unmasked = False
    others = [s for s in game.seat_ids if s != game.hidden]
    assert all(decide._view_hides(game, s) for s in others)
    assert not decide._view_hides(game, game.hidden)
    assert not any(decide._view_hides(game.seen_by(s), s) for s in others)  # seen_by masks it in a view
