"""Winning: after every step the haunt's goals (``goals`` of the haunt file) are judged; the first
side whose goal holds wins, and a game in which no side can win any more ends with no winner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from hauntcheck.engine.betrayal.haunt.pieces import HERO, TRAITOR
from hauntcheck.engine.betrayal.haunt.predicates import Judge, Predicates, judge_of
from hauntcheck.engine.betrayal.hauntspec import HauntSpec, WinDef
from hauntcheck.engine.core import Outcome


class Goal(NamedTuple):
    """One ``wins`` or ``ends_without_winner`` entry of a haunt, its ``when`` compiled."""

    side: str
    win: WinDef
    judge: Judge
    #: False for an ``ends_without_winner`` entry (the game ends, nobody wins).
    wins: bool


def goals_of(hs: HauntSpec) -> tuple[Goal, ...]:
    """The haunt's goals in the order they are judged (compiled once per haunt spec): side by side
    (the heroes first), each side's ``wins`` and then its ``ends_without_winner``."""
    return hs.derived("goals", _compile_goals)


def _compile_goals(hs: HauntSpec) -> tuple[Goal, ...]:
    return tuple(
        goal for side_name, side in hs.sides().items()
        for goal in ([Goal(side_name, w, judge_of(w.when), True) for w in side.wins]
                     + [Goal(side_name, w, judge_of(w.when), False) for w in side.ends_without_winner]))


class Wins(Predicates):
    """The haunt's goals, judged after every step."""

    #: The haunt spec whose goals :attr:`goals` holds (compiled by :func:`goals_of`).
    goals_for: HauntSpec | None = None
    goals: tuple[Goal, ...] = ()

    def decided(self) -> bool:
        """Whether a side has won. Asked again after a step that may have ended the game: a
        method, because a test of ``result`` itself would be taken by mypy (and compiled code) as
        still holding what an earlier test of it found."""
        return self.result is not None

    def _check_wins(self) -> bool:
        """``win.first-side``: after every step, the first side whose goals hold wins."""
        if self.result is not None:
            return True
        hs = self.hs
        if hs is None or self.setting_up:
            return False
        if self.goals_for is not hs:  # kept on the state: this runs after every step
            self.goals_for, self.goals = hs, goals_of(hs)
        for side_name, w, judge, wins in self.goals:
            if not judge(self, None, None, None):
                continue
            if wins:
                if side_name == HERO and not self.living_heroes() and not self.exited & set(self.heroes()):
                    continue  # win.heroes-need-survivor (a hero who left the house alive survived)
                if isinstance(w.winners, Mapping) and "heroes_where" in w.winners:
                    winners = tuple(s for s in self.heroes() if self.pred(w.winners["heroes_where"], s))
                elif isinstance(w.winners, Mapping) and "side_where" in w.winners:
                    side_seats = [s for s in self.seat_ids if self.side.get(s) == side_name]
                    winners = tuple(s for s in side_seats if self.pred(w.winners["side_where"], s))
                    if len(winners) < len(side_seats):
                        self.emit("haunt.rules-override", f"of the {side_name}, only {', '.join(winners) or 'nobody'} "
                                  f"share the win ({w.says})", side=side_name, clause=w.id, seats=list(winners))
                else:
                    winners = tuple(s for s in self.seat_ids if self.side.get(s) == side_name)
                if isinstance(w.when, Mapping) and w.when.get("heroes_dead") not in (None, "all"):
                    heroes = self.heroes()
                    self.emit("haunt.count-includes-dead", f"the heroes are counted with the dead among them: "
                              f"{sum(1 for h in heroes if self.ex[h].dead)} of {len(heroes)} are dead",
                        count=sum(1 for h in heroes if self.ex[h].dead), heroes=len(heroes))
                self.result = Outcome(side_name, winners, f"{w.id}: {w.says}")
                self.emit("win.first-side", f"the {side_name} win: {w.says}", side=side_name, clause=w.id)
                if side_name == TRAITOR and winners and all(self.ex[x].dead or x in self.removed for x in winners):
                    self.emit("win.traitor-after-death", "the traitor's side wins though its explorers are gone")
                self.emit("win.goals-from-haunt", f"winners: {', '.join(winners) or 'none'}", seats=list(winners))
            else:
                self.result = Outcome("nobody", (), f"{w.id}: {w.says}")
                self.emit("win.heroes-need-survivor", f"the game ends with no winner: {w.says}", clause=w.id)
            return True
        return False
