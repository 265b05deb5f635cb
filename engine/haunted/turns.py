"""Turns and the end of the game (rules ``turn.*``, ``end.*``): beginning and ending a turn, an
empty deck, and the final scores.
"""

from __future__ import annotations

from collections.abc import Mapping

from hauntcheck.engine.core import Event, Outcome
from hauntcheck.engine.haunted.base import HauntedBase


class TurnRules(HauntedBase):
    """A turn's start and end, and the end of the game."""

    # ---------------------------------------------------------------- turns

    def _begin_turn(self, events: list[Event]) -> None:
        i = self.active
        p = self.players[i]
        house = self._house()
        if self.st.solo:
            events.append(self._ev("solo.own-doors", f"{self._seat(i)} is active and turns over their own Doors", seat=self._seat(i)))
        else:
            events.append(self._ev("turn.active-player", f"{self._seat(i)} is active", seat=self._seat(i)))
            trapped = " (trapped, but still the house player)" if self.players[house].trapped else ""
            events.append(
                self._ev("trap.still-house" if trapped else "turn.house-player", f"{self._seat(house)} is the house player{trapped}",
                    seat=self._seat(house), trapped=bool(trapped))
            )
        assert p.pos is not None
        if p.first_turn:
            p.first_turn = False
            card = self.st.cards[p.pos]
            if card.suit is not None and card.role == "room":
                entry = self.st.charts.suit[card.suit][card.rank]
                events.append(self._ev("turn.starting-room-effect", f"{self._seat(i)}'s starting Room {p.pos} is the {entry.room}",
                    seat=self._seat(i), at=p.pos, room=entry.room))
                self._apply_entry(i, entry, f"{card.suit} chart", events)
        if p.trapped:
            if not self.deck:
                events.append(self._ev("trap.empty-deck", f"{self._seat(i)} is trapped and has no Door to draw", seat=self._seat(i)))
                self._end_turn(events)
                return
            self.step = "trap-draw"
            return
        if not self.adj[p.pos] and not self._can_open(p.pos):
            events.append(self._ev("turn.stuck", f"{self._seat(i)} can neither move nor open a Door and passes", seat=self._seat(i)))
            self._end_turn(events)
            return
        if not self.adj[p.pos]:
            events.append(self._ev("turn.must-leave", f"{self._seat(i)} has no adjacent card and must open a Door", seat=self._seat(i)))
        self.step = "choose"

    def _players_in(self) -> int:
        return sum(1 for p in self.players if not p.escaped)

    def _check_deck_empty(self, events: list[Event]) -> None:
        if not self.deck and self.countdown is None and self.end_reason is None:
            self.end_reason = "end.deck-empty"
            events.append(self._ev("end.deck-empty", "the last card of the deck has been played; every player takes one more turn"))

    def _note_exit_revealed(self, card: str, events: list[Event]) -> None:
        if card not in self.exits_revealed:
            self.exits_revealed.append(card)
            if len(self.exits_revealed) == 4 and self.end_reason is None:
                self.end_reason = "end.all-exits"
                events.append(self._ev("end.all-exits", "all four Exits are revealed; every player takes one more turn"))

    def _end_turn(self, events: list[Event]) -> None:
        p = self.players[self.active]
        p.turns += 1
        self.total_turns += 1
        self.step = "choose"
        self.pending = None
        self.door_from = ""
        self.aspect = ""
        if self._outcome is not None:
            return
        if self.countdown is not None:
            self.countdown -= 1
            if self.countdown <= 0:
                self._finish(self.end_reason or "end.deck-empty", "every player has taken their last turn", events)
                return
        elif self.end_reason is not None:
            self.countdown = self._players_in()
        if self.total_turns >= self.st.setup.turns_per_player * self.n:
            self._finish("end.turn-limit", f"{self.total_turns} turns have been played", events)
            return
        nxt = self.active
        for _ in range(self.n):
            nxt = (nxt + 1) % self.n
            if not self.players[nxt].escaped:
                break
        else:  # pragma: no cover - the game ends once everyone has escaped
            raise AssertionError("no player left to take a turn")
        if self.n > 1:
            events.append(self._ev("turn.next", f"{self._seat(nxt)} becomes the active player", seat=self._seat(nxt)))
        self.active = nxt
        self._begin_turn(events)

    # ---------------------------------------------------------------- the end

    def _finish(self, rule: str, why: str, events: list[Event]) -> None:
        self.step = "over"
        self.pending = None
        self.finished_by = rule
        if rule != "end.escape":
            events.append(self._ev(rule, f"the game ends: {why}", turns=self.total_turns))
        scores = {i: p.score() for i, p in enumerate(self.players)}
        for i, p in enumerate(self.players):
            events.append(
                self._ev("score.total", f"{self._seat(i)} scores {p.will} + {p.body} - {p.fear} + {len(p.questions)} = {scores[i]}",
                    seat=self._seat(i), will=p.will, body=p.body, fear=p.fear, questions=len(p.questions), total=scores[i])
            )
            if p.trapped:
                events.append(self._ev("trap.fate", f"{self._seat(i)} is still trapped and meets the worst fate", seat=self._seat(i)))
        eligible = [i for i, p in enumerate(self.players) if not p.trapped]
        escaped = [i for i, p in enumerate(self.players) if p.escaped]
        if self.st.solo:
            if escaped:
                events.append(self._ev("solo.win", "P1 escaped and wins"))
                self._outcome = Outcome("escape", ("P1",), f"score {scores[0]}")
            else:
                events.append(self._ev("solo.win", "P1 failed to escape and is trapped in the house forever"))
                self._outcome = Outcome("lost", (), f"score {scores[0]}")
            return
        if self.st.multilevel:
            totals = {i: sum(self.players[i].notes) + scores[i] for i in eligible}
            self._best(totals, "multi.winner", "cumulative", events)
            return
        if self.st.long:
            self._best({i: scores[i] for i in escaped if i in eligible}, "long.winner", "escape", events)
            return
        if escaped:
            i = escaped[0]
            events.append(self._ev("win.escaped", f"{self._seat(i)} escaped and wins", seat=self._seat(i)))
            self._outcome = Outcome("escape", (self._seat(i),), f"score {scores[i]}")
            return
        self._best({i: scores[i] for i in eligible}, "win.points", "points", events)

    def _best(self, totals: Mapping[int, int], rule: str, result: str, events: list[Event]) -> None:
        positive = {i: s for i, s in totals.items() if s > 0}
        if not positive:
            events.append(self._ev("win.nobody", "no player has a positive total: nobody wins"))
            self._outcome = Outcome("nobody", (), "")
            return
        top = max(positive.values())
        winners = tuple(self._seat(i) for i in sorted(positive) if positive[i] == top)
        if len(winners) > 1:
            events.append(self._ev("win.ties", f"{', '.join(winners)} tie with {top} and share the win", seats=list(winners), total=top))
        events.append(self._ev(rule, f"{', '.join(winners)} wins with {top}", seats=list(winners), total=top))
        self._outcome = Outcome(result, winners, f"best total {top}")
