"""Why a Halls of Horror action is refused: the rule clause that keeps it off the legal list.

``HallsState.refusal`` asks here when ``apply`` refuses an action (as Betrayal's ``refusal`` module
does for that game), so every refusal names its rule and a dispute scenario can require it
(``expect_illegal: {action, rule}``). The legal actions stay the engine's single source of truth:
this only explains them. Each decision the engine asks for is defined by one clause
(:data:`DECISION_RULES`); a few decisions have finer reasons (a move into a room closed around a
puzzle, a move card in combat).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.checks.halls_locks import lock_is_safe
from hauntcheck.engine.core import Action
from hauntcheck.engine.halls.model import DIRS

if TYPE_CHECKING:
    from hauntcheck.engine.halls.state import HallsState

Refusal = tuple[str, str]

#: The clause that says what may be decided at each kind of decision (players' and chance's).
DECISION_RULES: dict[str, str] = {
    "start": "setup.participants",
    "killer-place": "setup.killer",
    "choose": "turn.secret-choice",
    "search": "search.options",
    "search-resolve": "search.resolve-draw",
    "search-discard": "search.resolve-discard",
    "weapon": "combat.weapon",
    "combat-resolve": "combat.resolve-reroll",
    "escape": "combat.escape-move",
    "lock": "lock.candidates",
    "mc-card": "mc.card",
    "gift": "mc.gift-place",
    "killer-move": "killer.move",
    "killer-to": "killer.move",
    "symbol": "killer.symbols",
    "toward": "solo.killer-toward",
    "refresh": "mc.card",
    # chance
    "mixed": "variant.mixed-decks",
    "rooms": "setup.room-deck",
    "board": "setup.grid",
    "faces": "setup.grid",
    "mc-shuffle": "setup.decks",
    "gift-shuffle": "setup.decks",
    "reward-shuffle": "setup.decks",
    "combat-roll": "combat.roll",
    "reroll": "combat.resolve-reroll",
}
#: A reshuffle in play (not at setup) follows its own clause.
_RESHUFFLE_RULES = {"mc-shuffle": "mc.reshuffle", "reward-shuffle": "search.reshuffle"}
#: How a finished game ended, by its result word: the clause that ended it.
_END_RULES = {"escape": "end.exit-search", "killer": "end.all-dead", "death": "solo.no-locks", "undecided": "turn.round-limit"}


def refusal(st: HallsState, action: Action) -> Refusal:
    """The rule that refuses ``action`` now, and why (only ever asked about an illegal action)."""
    if st.result is not None:
        rule = _END_RULES.get(st.result.result, "end.exit-search")
        if st.result.result == "escape" and len(st.result.winners) > 1:
            rule = "end.shared-escape"
        return rule, "the game is over"
    need = st._need
    assert need is not None
    if need.kind == "choose":
        return _choice(st, action)
    if need.kind == "lock" and action.kind == "lock":
        return _lock(st, action)
    in_play = need.kind in _RESHUFFLE_RULES and not st.stage.startswith("setup")
    rule = _RESHUFFLE_RULES[need.kind] if in_play else DECISION_RULES[need.kind]
    offered = sorted({a.kind for a in need.options}) if need.chance is None else ["chance"]
    if need.chance is None and action.kind not in offered:
        return rule, f"the decision now is {need.kind} ({', '.join(offered)}), not {action.kind}"
    return rule, f"not one of the choices of this {need.kind} decision"


def _choice(st: HallsState, action: Action) -> Refusal:
    """An action card: what the start of the turn allows (turn.secret-choice), then the card's own limits."""
    need = st._need
    assert need is not None
    p = st.participant(need.actor)
    card = str(action.get("action")) if action.kind == "choose" else ""
    if action.kind != "choose" or card not in (*DIRS, "search", "attack", "escape", "pass"):
        return "turn.secret-choice", "the decision now is the choice of an action card (choose action=...)"
    fighting = st.turn["combat"].get(p.seat, False)
    if fighting != (card in ("attack", "escape")):
        why = (f"{p.name} started the turn with someone and must Attack or Escape" if fighting
               else f"{p.name} started the turn alone: Attack and Escape are combat cards")
        return "combat.trigger", why
    if st.rooms[p.pos].temp and card != "search":
        return "turn.secret-choice", f"{p.name} is locked in a puzzle room and must Search"
    if card in DIRS:
        to = st.step(p.pos, card)
        if to is None:
            return "move.one-space", f"the grid edge blocks the way {card}"
        if st.rooms[to].temp:
            return "move.puzzle-locked-room-closed", f"{st.where(to)} is closed around someone solving its puzzle"
        return "move.one-space", f"{st.where(to)} is locked"
    if card == "search":
        return "search.options", f"nothing in {st.where(p.pos)} can be searched, picked up or used"
    return "turn.impossible-action", f"{p.name} has a possible action, so cannot pass"


def _lock(st: HallsState, action: Action) -> Refusal:
    """A room the MC may not lock: not empty (lock.empty), cutting someone off (lock.path), or
    not a candidate at all (lock.candidates)."""
    r, c = action.get("row"), action.get("col")
    if not (isinstance(r, int) and isinstance(c, int) and 0 <= r < st.rows and 0 <= c < st.cols):
        return "lock.candidates", "not a room of the grid"
    i = st.idx(r, c)
    room = st.rooms[i]
    if room.up and not room.locked and not room.temp and not st.empty(i):
        return "lock.empty", f"{st.where(i)} is not empty"
    if room.up and not room.locked and not lock_is_safe(st.lock_grid(), (r, c)):
        return "lock.path", f"locking {st.where(i)} would cut someone off from an Exit, a body or an unexplored room"
    return "lock.candidates", f"{st.where(i)} is not among the rooms that may be locked"
