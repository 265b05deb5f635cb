"""The Ways Out (rules ``exit.*``, ``level.*``): which branch of "A Way Out" applies
(:func:`exit_result`), rescues, escaping, and going on to the next level.
"""

from __future__ import annotations

from collections.abc import Collection

from hauntcheck.engine.core import Event
from hauntcheck.engine.haunted.setup import SetupRules


def exit_result(will: int, body: int, fear: int, exit_colour: str) -> str:
    """Which branch of "A Way Out" applies (rules exit.*).

    FEAR is highest only when above both others (exit.fear-ties); a BODY/WILL tie for the top,
    or a three-way tie, goes to WILL at a red Exit and to BODY at a black one (exit.tie-colour).
    """
    if fear > body and fear > will:
        return "fear-blocked"
    if body > will or (body == will and exit_colour == "black"):
        return "body-mad" if fear >= will else "body-remember"
    return "will-locked" if fear >= body else "will-escape"


class WayOutRules(SetupRules):
    """What happens when a player reaches a Way Out."""

    def _rescue(self, i: int, card: str, events: list[Event]) -> None:
        freed = [j for j, q in enumerate(self.players) if j != i and q.trapped and q.pos == card]
        for j in freed:
            self.players[j].trapped = False
            events.append(self._ev("trap.rescue", f"{self._seat(i)} frees {self._seat(j)} from the Trap",
                seat=self._seat(i), target=self._seat(j)))
            self._set(j, "fear", self.st.setup.rescue_fear, "trap.rescue", "rescued", events)
        if freed:
            self._set(i, "fear", self.st.setup.rescue_fear, "trap.rescue", "rescuer", events)

    def _discard_face_up_except(self, kept: Collection[str | None]) -> list[str]:
        """Discard every face-up card on the table but ``kept`` (a new level starts from them);
        returns the cards discarded."""
        gone = [c for c in sorted(self.table, key=self._key) if self.table[c] and c not in kept]
        for c in gone:
            for other in self.adj.pop(c):
                if other in self.adj:
                    self.adj[other].discard(c)
            del self.table[c]
            self.discard.append(c)
        return gone

    def _new_level(self, card: str, events: list[Event]) -> None:
        self.levels.append(card)
        scores = []
        for j, q in enumerate(self.players):
            q.notes.append(q.score())
            scores.append(f"{self._seat(j)} {q.score()}")
        events.append(self._ev("multi.note-scores", f"level {len(self.levels)} at {card}: scores noted: " + ", ".join(scores),
                               level=len(self.levels), card=card, scores=[q.score() for q in self.players]))
        gone = self._discard_face_up_except({q.pos for q in self.players if not q.escaped})
        events.append(self._ev("multi.discard", f"{len(gone)} unoccupied face-up cards are discarded; play continues from {card}",
            count=len(gone), card=card))

    def _exit(self, i: int, card: str, events: list[Event]) -> None:
        p = self.players[i]
        seat = self._seat(i)
        colour = self.st.cards[card].colour or "red"
        result = exit_result(p.will, p.body, p.fear, colour)
        self.milestones.add("exit")
        events.append(self._ev("exit.check", f"{seat} at {card} ({colour} Exit): WILL {p.will}, BODY {p.body}, FEAR {p.fear} -> {result}",
            seat=seat, card=card, colour=colour, will=p.will, body=p.body, fear=p.fear, result=result))
        if p.body == p.will and not (p.fear > p.body):
            events.append(
                self._ev(
                    "exit.tie-colour",
                    f"BODY and WILL tie: the {colour} Exit makes {'WILL' if colour == 'red' else 'BODY'} count as higher",
                    seat=seat, colour=colour,
                )
            )
        if p.fear == max(p.will, p.body) and p.will != p.body:
            events.append(self._ev("exit.fear-ties", "FEAR ties the top stat, so the other stat counts as highest"))
        if result == "fear-blocked":
            events.append(self._ev("exit.fear-highest", f"{seat}'s FEAR is highest: {seat} cannot take the Exit", seat=seat))
            self._answer(i, "fear", events)
            self._end_turn(events)
            return
        if result == "will-locked":
            events.append(self._ev("exit.will-highest", f"{seat}'s WILL is highest", seat=seat))
            self._answer(i, "remember", events)
            if p.locked:
                events.append(self._ev("exit.will-locked", f"{seat} cannot escape; WILL stays locked at {p.will}", seat=seat, will=p.will))
            else:
                p.locked = True
                events.append(self._ev("exit.will-locked", f"{seat} cannot escape; WILL is locked at {p.will}", seat=seat, will=p.will))
            self._end_turn(events)
            return
        if result == "will-escape":
            events.append(self._ev("exit.will-highest", f"{seat}'s WILL is highest", seat=seat))
            self._answer(i, "remember", events)
        else:
            events.append(self._ev("exit.body-highest", f"{seat}'s BODY is highest", seat=seat))
        if self.st.multilevel and len(self.exits_revealed) < 4:
            events.append(
                self._ev("multi.no-early-escape", f"only {len(self.exits_revealed)} Exits are revealed: {seat} cannot escape yet",
                    count=len(self.exits_revealed), seat=seat)
            )
            self._end_turn(events)
            return
        if self.st.solo and self.st.next_level:
            self.pending = card
            self.step = "exit-choice"
            return
        self._escape(i, card, result, events)

    def _exit_choice(self, escape: bool, events: list[Event]) -> None:
        i = self.active
        card = self.pending
        assert card is not None
        if escape:
            p = self.players[i]
            colour = self.st.cards[card].colour or "red"
            self._escape(i, card, exit_result(p.will, p.body, p.fear, colour), events)
            return
        gone = self._discard_face_up_except({card})
        self.levels.append(card)
        events.append(
            self._ev("solo.next-level", f"{self._seat(i)} goes on to level {len(self.levels) + 1}: {len(gone)} face-up cards are discarded",
                seat=self._seat(i), count=len(gone))
        )
        self._end_turn(events)

    def _escape(self, i: int, card: str, result: str, events: list[Event]) -> None:
        p = self.players[i]
        seat = self._seat(i)
        if result == "will-escape":
            events.append(self._ev("exit.will-escape", f"{seat}'s BODY is above FEAR: {seat} escapes", seat=seat))
            self._answer(i, "bring", events)
        else:
            events.append(self._ev("exit.body-highest", f"{seat} escapes", seat=seat))
            self._answer(i, "bring", events)
            if result == "body-mad":
                events.append(self._ev("exit.body-mad", f"{seat}'s FEAR is not below WILL: {seat} loses their sanity", seat=seat))
                self._set(i, "will", 0, "exit.body-mad", "lost sanity", events)
            else:
                events.append(self._ev("exit.body-remember", f"{seat}'s WILL is above FEAR: {seat} remembers", seat=seat))
                self._answer(i, "remember", events)
        p.escaped = True
        p.trapped = False
        self.milestones.add("escape")
        self.pending = None
        if self.st.long:
            events.append(self._ev("exit.escaped", f"{seat} has escaped; they open no more Doors", seat=seat))
            if self._players_in() == 0:
                self._finish("long.play-on", "everyone has escaped", events)
                return
            self._end_turn(events)
            return
        events.append(self._ev("end.escape", f"{seat} has escaped: the game ends", seat=seat))
        p.turns += 1
        self.total_turns += 1
        self._finish("end.escape", f"{seat} escaped", events)
