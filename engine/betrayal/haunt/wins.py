"""Winning: after every step the haunt's goals (``goals`` of the haunt file) are judged; the first
side whose goal holds wins, and a game in which no side can win any more ends with no winner.
"""

from __future__ import annotations

from collections.abc import Mapping

from hauntcheck.engine.betrayal.haunt.pieces import HERO, TRAITOR
from hauntcheck.engine.betrayal.haunt.predicates import Predicates
from hauntcheck.engine.core import Outcome


class Wins(Predicates):
    """The haunt's goals, judged after every step."""

    def _check_wins(self) -> bool:
        """``win.first-side``: after every step, the first side whose goals hold wins."""
        if self.result is not None:
            return True
        if self.hs is None or self.setting_up:
            return False
        for side_name, side in self.hs.sides().items():
            for w in side.wins:
                if not self.pred(w.when):
                    continue
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
                return True
            for w in side.ends_without_winner:
                if self.pred(w.when):
                    self.result = Outcome("nobody", (), f"{w.id}: {w.says}")
                    self.emit("win.heroes-need-survivor", f"the game ends with no winner: {w.says}", clause=w.id)
                    return True
        return False
