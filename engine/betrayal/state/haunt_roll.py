"""The haunt roll, the reveal, the haunt chosen from the chart, and the traitor (``haunt.*``, ``traitor.*``).

At the end of a turn in which an omen was drawn, its explorer makes a haunt roll (the haunt dice)
against the number of omens drawn so far; a total below it reveals the haunt and makes that
explorer the haunt revealer. The chart gives the haunt from the omen and the room (a haunt already
played gives way to the next one the omens and omen rooms give; a haunt the game was asked to
play replaces the chart's), and the traitor table names the
traitor by that haunt's rule: the revealer, the one left of the revealer, a named explorer if in
the game (else a fallback rule), a hidden traitor, or none.
"""

from __future__ import annotations

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.effects import Ctx
from hauntcheck.engine.betrayal.model import TraitorRule
from hauntcheck.engine.betrayal.state.base import Gen
from hauntcheck.engine.betrayal.state.movement import Movement


class HauntRoll(Movement):
    """The haunt roll, the reveal, which haunt and who the traitor is."""

    def _haunt_roll(self, seat: str, omen: str, room: str) -> Gen[None]:
        total = yield from effects.own_roll(self.as_betrayal_state(), seat, self.t.haunt_dice, "haunt", "the haunt roll",
                                            Ctx(seat, "haunt"))
        self.emit("haunt.roll", f"{self.name(seat)} makes a haunt roll: {total} against {self.omens_drawn} omens drawn",
            seat=seat, total=total, omens=self.omens_drawn)
        if len(self.turn.omens) > 1:
            self.emit("haunt.roll-per-omen", f"one haunt roll for the {self.card_name(omen)}", card=omen)
        if total >= self.omens_drawn:
            return
        self.emit("haunt.revealer", f"{total} < {self.omens_drawn}: the haunt starts; {self.name(seat)} is the haunt revealer",
            total=total, omens=self.omens_drawn, seat=seat)
        self._reveal(seat, omen, room)

    def _reveal(self, seat: str, omen: str, room: str) -> None:
        number = self.t.chart.get((room, omen))
        if number is None:
            # An omen drawn outside an omen room (possible only through card effects).
            omen_rooms = sorted({r for r, _ in self.t.chart})
            room = self._nearest_rooms(seat, omen_rooms)[0]
            number = self.t.chart[(room, omen)]
        self.emit("haunt.chart-lookup", f"chart: {self.card_name(omen)} in {self.room_name(room)} gives haunt {number}",
            card=omen, room=room, haunt=number)
        self.emit("haunt.only-before-haunt", "no more haunt rolls from now on")
        if self.setup.played and number in self.setup.played:
            number, room, omen = self._select_haunt(seat, omen, room)
        forced = self.forced_haunt()
        if forced is not None and forced != number:
            number = forced
            self.emit("haunt.chart-lookup", f"haunt {number} ({self.t.haunts[number].title}) is played at this reveal "
                      "instead, as the game was asked to (the chart's haunt is set aside)", haunt=number)
        haunt = self.t.haunts[number]
        traitor, how = self._traitor(seat, haunt.traitor)
        kind = haunt.traitor.kind
        self.phase = "revealed"
        self.haunt = {
            "number": number, "title": haunt.title, "omen": omen, "room": room, "revealer": seat,
            "traitor": traitor, "kind": "hidden" if kind == "hidden" else ("none" if kind == "none" else "traitor"),
        }
        first = self.left_of(traitor or seat)
        self.emit("hidden-traitor.turn-order" if kind == "hidden" else "turn.order-after-haunt",
                  f"from now on turns start with {self.name(first)}, left of the "
                  f"{'traitor' if traitor else 'haunt revealer'}", seat=first, traitor=traitor or None)
        if kind == "hidden":
            self.emit("hidden-traitor.deal-tokens", f"haunt {number} ({haunt.title}) has a hidden traitor: numbered tokens "
                      "are dealt when the haunt starts", haunt=number)
        elif kind == "none":
            self.emit("haunt.traitor-from-table", f"haunt {number} ({haunt.title}) has no traitor", haunt=number)
        else:
            self.emit("haunt.traitor-from-table", f"haunt {number} ({haunt.title}): the traitor is {self.name(traitor or '')} ({how})",
                haunt=number, traitor=traitor)

    def _select_haunt(self, seat: str, omen: str, room: str) -> tuple[int, str, str]:
        played = set(self.setup.played)
        omen_rooms = [r for r in self.house.spots if self.t.rooms[r].symbol == "omen" and any(k[0] == r for k in self.t.chart)]
        ordered_rooms = [room] + [r for r in self._nearest_rooms(seat, omen_rooms) if r != room]
        own = [c for c in self.ex[seat].cards if self.t.cards[c].type == "omen" and c != omen]
        for i, o in enumerate([omen, *own]):
            for r in ordered_rooms:
                n = self.t.chart.get((r, o))
                if n is not None and n not in played:
                    rule = "haunt.selection-skip" if i == 0 else "haunt.selection-next-omen"
                    self.emit(rule, f"haunt {self.t.chart[(room, omen)]} was played already: {self.card_name(o)} in "
                              f"{self.room_name(r)} gives haunt {n}", card=o, room=r, haunt=n)
                    return n, r, o
        self.emit("haunt.selection-skip", "every placed omen room gives a played haunt: the original haunt stands")
        return self.t.chart[(room, omen)], room, omen

    def _traitor(self, revealer: str, rule: TraitorRule) -> tuple[str | None, str]:
        kind = rule.kind
        if kind == "haunt-revealer":
            return revealer, "the haunt revealer"
        if kind == "left-of-revealer":
            return self.left_of(revealer), "left of the haunt revealer"
        if kind in ("hidden", "none"):
            return None, kind
        if kind == "explorer":
            for s, e in self.ex.items():
                if e.id == rule.explorer:
                    return s, f"{self.t.explorers[e.id].name} is in the game"
            if rule.fallback is None:
                return None, "none"
            who, how = self._traitor(revealer, rule.fallback)
            return who, f"{rule.explorer} is not playing; {how}"
        order = [self.left_of(revealer, k) for k in range(self.n)]  # revealer first, then leftwards
        candidates = [s for s in order if not (rule.exclude_revealer and s == revealer)]
        if kind in ("highest", "lowest"):
            assert rule.trait is not None
            trait = rule.trait
            vals = {s: self.value(s, trait) for s in candidates}
            best = max(vals.values()) if kind == "highest" else min(vals.values())
            tied = [s for s in candidates if vals[s] == best]
            how = f"{kind} {trait} ({best})"
        else:
            ages = {s: self.t.explorers[self.ex[s].id].age for s in candidates}
            best = max(ages.values()) if kind == "oldest" else min(ages.values())
            tied = [s for s in candidates if ages[s] == best]
            how = f"{kind} explorer (age {best})"
        if len(tied) > 1:
            chosen = tied[0]
            why = "the revealer is among them" if chosen == revealer else "nearest to the revealer's left"
            self.emit("traitor.tie-break", f"{', '.join(tied)} tie on {how}: {chosen} ({why})",
                seats=tied, seat=chosen)
            return chosen, how
        return tied[0], how
