"""Limits per turn, checked from the outside: a ledger of the actions each turn has taken.

The engine enforces the limits below through its own per-turn flags; this ledger counts the
actions a game actually applied, so a flag that is never set (or set too late) shows up as a
violation in the state machines instead of passing silently:

* ``attack.once-per-turn``: an explorer makes at most one attack during its turn.
* ``item.one-action-per-item``: each item or omen takes at most one action a turn: traded (and
  accepted), dropped, picked up, or attacked with.
* ``item.trade-once-per-turn``: at most one accepted trade a turn.
* ``item.drop-once-per-turn`` / ``item.pickup-once-per-turn``: dropping (or picking up) is one
  action, which may move several cards at once, so the drops of a turn come one after another.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from hauntcheck.engine.core import Action, Event, GameState


@dataclass
class TurnLedger:
    """What one turn has done so far."""

    seat: str
    attacks: int = 0
    trades: int = 0
    card_actions: dict[str, list[str]] = field(default_factory=dict)
    runs: dict[str, int] = field(default_factory=dict)  # drop/pickup -> separate runs of them
    last: str = ""
    offered: str = ""  # a card offered in a trade, awaiting the answer


class TurnAudit:
    """Feed it every applied action (``observe``); it returns the limits that action broke."""

    def __init__(self) -> None:
        self.turn_number = -1
        self.ledger = TurnLedger("")

    def observe(self, state: GameState, actor: str, action: Action, events: Sequence[Event]) -> list[str]:
        turn_number = getattr(state, "turn_number", None)
        turn = getattr(state, "turn", None)
        if turn_number is None or turn is None:
            return []
        problems = self._count(actor, action)
        if turn_number != self.turn_number:
            self.turn_number = turn_number
            self.ledger = TurnLedger(str(turn.seat))
        return problems

    def _count(self, actor: str, action: Action) -> list[str]:
        led = self.ledger
        kind = action.kind
        problems: list[str] = []
        card = ""
        if kind == "attack" and actor == led.seat:
            led.attacks += 1
            if led.attacks > 1:
                problems.append(f"attack.once-per-turn: {actor} made attack number {led.attacks} in one turn")
            card = str(action.get("weapon") or "")
        elif kind in ("drop", "pickup") and actor == led.seat:
            card = str(action["card"])
            if led.last != kind:
                led.runs[kind] = led.runs.get(kind, 0) + 1
                if led.runs[kind] > 1:
                    problems.append(f"item.{kind}-once-per-turn: {actor} began a second {kind} action in one turn")
        elif kind == "trade" and actor == led.seat:
            led.offered = str(action["card"])
        elif kind == "accept" and led.offered:
            card, led.offered = led.offered, ""
            led.trades += 1
            if led.trades > 1:
                problems.append(f"item.trade-once-per-turn: {led.seat} completed trade number {led.trades} in one turn")
        elif kind == "refuse":
            led.offered = ""
        if card:
            done = led.card_actions.setdefault(card, [])
            done.append(kind)
            if len(done) > 1:
                problems.append(f"item.one-action-per-item: {card} was used for {', '.join(done)} in one turn")
        if actor == led.seat:
            led.last = kind
        return problems


__all__ = ["TurnAudit", "TurnLedger"]
