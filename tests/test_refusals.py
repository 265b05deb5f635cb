"""Every refusal names the rule that decides it (issue 19), in Halls of Horror and Haunted.

Seeded random games of every size offer, at each decision, actions that are not legal there: every
action offered or taken earlier in these games (another decision's kind, another room, another
card, a chance outcome of another draw), an action of a kind no game has, and, once the game is
over, any action. Each must be refused by ``apply`` with a rule id from the game's rules.yaml and
the state left unchanged. The rules named must be the specific ones where the engine can tell (a
move off the grid, a combat card while alone ...), not one catch-all clause.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from hauntcheck.engine.core import Action, GameState, IllegalAction, Rng
from hauntcheck.engine.games import game_spec, get_game, rulebook

GAMES = ("halls-of-horror", "haunted")
#: Per game: rules the probes must see named (each decides a kind of refusal of its own).
EXPECTED = {
    "halls-of-horror": {"turn.secret-choice", "move.one-space", "combat.trigger", "search.options", "combat.weapon",
                        "setup.decks", "combat.roll", "end.exit-search"},
    "haunted": {"setup.stats", "move.adjacent", "door.declare", "door.reveal", "setup.set-aside", "turn.must-leave",
                "secret.play", "door.connect"},
}


def probe(state: GameState, action: Action, book: set[str], named: Counter[str], full: bool) -> None:
    before = state.snapshot() if full else None
    with pytest.raises(IllegalAction) as caught:
        state.apply(action)
    assert caught.value.rule, f"{action} refused with no rule: {caught.value}"
    assert caught.value.rule in book, f"{action} refused by {caught.value.rule!r}, which is not a rule of the game"
    assert f"(refused by {caught.value.rule})" in str(caught.value)
    if before is not None:
        assert state.snapshot() == before, f"refusing {action} changed the state"
    named[caught.value.rule] += 1


@pytest.mark.parametrize("game", GAMES)
def test_no_refusal_is_left_without_a_rule(game: str) -> None:
    definition = get_game(game)
    spec = game_spec(game)
    book = set(rulebook(spec).rules)
    named: Counter[str] = Counter()
    # Shared by the games, so that a game's setup is offered what only later play draws (an Ace).
    seen: list[Action] = [Action.of("no-such-action")]
    known: set[Action] = set(seen)
    for seed in range(12):
        players = definition.min_players + seed % (definition.max_players - definition.min_players + 1)
        state = definition.new_game(spec, players, {})
        rng = Rng(seed)
        for _step in range(600):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            offered = list(legal) if legal.size() <= 60 else []
            for action in offered:
                if action not in known:
                    known.add(action)
                    seen.append(action)
            for k in range(6):
                candidate = seen[rng.below(len(seen))]
                if candidate not in legal:
                    probe(state, candidate, book, named, full=k == 0)
            taken = legal.sample(rng)
            if taken not in known:
                known.add(taken)
                seen.append(taken)
            state.apply(taken)
        if state.is_terminal():
            probe(state, seen[-1], book, named, full=True)
    missing = EXPECTED[game] - set(named)
    assert not missing, f"no probe was refused by {sorted(missing)}; named: {dict(named)}"


ENGINE = Path(__file__).resolve().parent.parent / "engine"


def test_every_decision_the_engines_ask_for_has_its_refusing_rule() -> None:
    """The decisions random play may never reach (a solo hunting step, a room refreshed ...) are
    explained too: every decision kind the engines' code can ask for has its clause, and every
    clause the refusal tables name is defined."""
    from hauntcheck.engine.halls import refusal as halls
    from hauntcheck.engine.haunted import refusal as haunted

    asked = set()
    for path in sorted((ENGINE / "halls").glob("*.py")):
        asked |= set(re.findall(r'self\.need\([^,]+, "([a-z-]+)"|need_chance\("([a-z-]+)"', path.read_text()))
    kinds = {a or b for a, b in asked}
    assert len(kinds) > 20 and kinds <= set(halls.DECISION_RULES), sorted(kinds - set(halls.DECISION_RULES))
    steps = set()
    for path in sorted((ENGINE / "haunted").glob("*.py")):
        steps |= set(re.findall(r'self\.step = "([a-z-]+)"', path.read_text()))
    assert len(steps) > 8 and steps - {"deal", "over"} <= set(haunted.STEP_RULES), sorted(steps - set(haunted.STEP_RULES))
    for game, tables in (("halls-of-horror", (halls.DECISION_RULES, halls._RESHUFFLE_RULES, halls._END_RULES)),
                         ("haunted", (haunted.STEP_RULES, haunted._DEAL_RULES))):
        book = set(rulebook(game_spec(game)).rules)
        for table in tables:
            assert set(table.values()) <= book, sorted(set(table.values()) - book)
