"""Why a Haunted action is refused: the rule clause that keeps it off the legal list.

``HauntedState.refusal`` asks here when ``apply`` refuses an action (as Betrayal's and Halls of
Horror's ``refusal`` modules do), so every refusal names its rule and a dispute scenario can
require it (``expect_illegal: {action, rule}``). The legal actions stay the engine's single source
of truth: this only explains them. Each step of a turn is defined by one clause
(:data:`STEP_RULES`); moving and opening a Door have finer reasons.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.haunted.state import HauntedState

Refusal = tuple[str, str]

#: The clause that says what may be decided at each step (players' and chance's).
STEP_RULES: dict[str, str] = {
    "stronger": "setup.stats",
    "reveal": "door.reveal",
    "trap-draw": "trap.draw",
    "choose": "turn.must-leave",
    "secret": "secret.play",
    "declare": "door.declare",
    "connect": "door.connect",
    "trap-play": "trap.play-face-down",
    "exit-choice": "solo.next-level",
}
#: What each card of the deal is dealt for.
_DEAL_RULES = {"cross": "setup.cross", "secret": "setup.secret-doors", "start": "setup.starting-room"}


def refusal(st: HauntedState, action: Action) -> Refusal:
    """The rule that refuses ``action`` now, and why (only ever asked about an illegal action)."""
    if st.outcome() is not None:
        return st.finished_by, "the game is over"
    step = st.step
    if step in ("deal", "reveal", "trap-draw") and action.kind == "draw" and action.get("card") in st.deck and st.aside_left > 0:
        return "setup.set-aside", "the set-aside cards are on top of the deck: no Ace or Joker can come yet"
    if step == "deal":
        return _DEAL_RULES[st.deal[0][0]], f"the deal needs a card drawn from the deck for {st.deal[0][0]}"
    if step == "choose":
        return _leaving(st, action)
    if step == "trap-play" and action.kind == "play-face-up":
        return "trap.play-face-up", "face up, the card must join the trap room to a face-up card of its suit, on free edges"
    return STEP_RULES[step], f"not one of the choices of the {step} step"


def _leaving(st: HauntedState, action: Action) -> Refusal:
    """The active player's move: onto an adjacent card (move.adjacent) or through a new Door (door.open)."""
    seat = f"P{st.active + 1}"
    pos = st.players[st.active].pos
    assert pos is not None
    if action.kind == "move":
        return "move.adjacent", f"{action.get('to')} is not adjacent to {pos}"
    if action.kind == "open":
        why = "no card is left in the deck" if not st.deck else f"{pos} has no free edge"
        return "door.open", why
    return "turn.must-leave", f"{seat} must end the turn by moving onto an adjacent card or opening a Door"
