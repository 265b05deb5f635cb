"""The Haunted game state: :class:`HauntedState` is the top of the rule layers (``base``,
``turns``, ``setup``, ``exits``, ``doors``; see ``base``) and applies each action by its rule.
"""

from __future__ import annotations

from hauntcheck.engine.core import Action, Event
from hauntcheck.engine.haunted.doors import DoorRules


class HauntedState(DoorRules):
    """A game of Haunted. Steps: ``stronger`` (each player), chance ``deal`` draws, then turns.

    Within a turn the step is one of ``choose`` (move or open a Door), ``secret`` (a player is
    offered to play a Secret Door), ``declare`` (Color or Suit), ``connect`` (optional connection
    of the new card), ``trap-play`` (a trapped player places their drawn card) or ``exit-choice``
    (solo: escape or go on to the next level).
    """

    def refusal(self, action: Action) -> tuple[str, str]:
        """The rule clause that refuses an illegal action, and why (engine/haunted/refusal.py)."""
        from hauntcheck.engine.haunted.refusal import refusal

        return refusal(self, action)

    # ---------------------------------------------------------------- applying

    def _apply(self, action: Action) -> list[Event]:
        self._legal = None
        events: list[Event] = []
        kind = action.kind
        step = self.step
        if step == "stronger":
            self._stronger(str(action["stat"]), events)
        elif step == "deal":
            self._dealt(self._drawn(action), events)
        elif step == "reveal":
            self.pending = self._drawn(action)
            seat = self._seat(self.active) if self.st.solo else self._seat(self._house())
            house = seat if self.st.solo else f"{seat} (house)"
            events.append(self._ev("door.reveal", f"{house} turns over {self.pending}", seat=seat, card=self.pending))
            self._check_deck_empty(events)
            self._resolve_door(events)
        elif step == "trap-draw":
            self.pending = self._drawn(action)
            p = self.players[self.active]
            events.append(self._ev("trap.draw", f"{self._seat(self.active)} is trapped in {p.pos} and draws {self.pending}",
                seat=self._seat(self.active), at=p.pos, card=self.pending))
            self._check_deck_empty(events)
            self.step = "trap-play"
        elif kind == "move":
            self._move(str(action["to"]), events)
        elif kind == "open":
            self._open(events)
        elif kind == "pass":
            self.polls.pop(0)
            if not self.polls:
                self.step = "declare"
        elif kind == "secret-door":
            bonus = action.get("bonus")
            self._play_secret(str(action["card"]), None if bonus is None else str(bonus), events)
        elif kind == "declare":
            self._declare(str(action["aspect"]), events)
        elif kind in ("connect", "no-connection"):
            self._connect(None if kind == "no-connection" else str(action["to"]), events)
        elif kind in ("play-face-up", "play-face-down", "discard-door"):
            self._trap_play(action, events)
        elif kind in ("escape", "next-level"):
            self._exit_choice(kind == "escape", events)
        else:  # pragma: no cover - legality is checked before _apply
            raise AssertionError(kind)
        return [] if self.quiet else events
