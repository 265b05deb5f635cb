"""A house that falls into a pit room by room (a side's ``collapse`` in the haunt file).

The piece says where the fall starts (``first_room``, at the end of the traitor's first turn),
who brings more rooms down at the end of their own turns (``by``: living heroes, the traitor -
at its turn slot even once its explorer is gone), how many rooms a turn takes (``rate``: rows by
haunt round, a count or a number of dice), who picks them (``chosen_by``), the order of the
floors, how a fresh floor starts (``new_floor``), what happens to an explorer in an engulfed room
(``engulfed``: a roll to jump to a safe room through a door, else death), a card whose sacrifice
holds the fall back (``pause``) and when the fall stops (``stops_when``). A collapsed room can
never be entered; an explorer found in one (sent there by a card) falls and dies.

Haunt 22 (The Abyss Gazes Back) is its first user; any haunt whose house is eaten room by room
next to rooms already gone can say so with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt.pieces import HERO, TRAITOR
from hauntcheck.engine.betrayal.haunt.tasks import Tasks
from hauntcheck.engine.betrayal.state import Gen
from hauntcheck.engine.core import Action

RULE = "haunt.rules-override"


class Collapse(Tasks):
    """The spreading collapse of a side's ``collapse`` piece."""

    def collapse_rule(self) -> Mapping[str, Any] | None:
        """The haunt's ``collapse`` piece (on either side's page), if it has one."""
        if self.hs is None:
            return None
        for side in self.hs.sides().values():
            if side.collapse is not None:
                return side.collapse
        return None

    def _collapse_neighbours(self, room: str) -> set[str]:
        """Rooms touching ``room`` on its floor, doors or not (and the other rooms of the entrance strip)."""
        out = set(self.house.neighbours(room))
        out |= {c.to for c in self.t.rooms[room].connections if c.kind == "strip" and c.to in self.house.spots}
        return out

    def _open_doorway(self, room: str) -> bool:
        """The room has a door that leads to no room yet (an unexplored door)."""
        return any(self.house.door_neighbour(room, side)[0] is None for side in self.house.doors(room))

    def collapse_candidates(self) -> list[str]:
        """Rooms that may fall next: on the lowest floor (in the piece's ``floors`` order) that
        still stands, those touching a fallen room of that floor; on a fresh floor, by its
        ``new_floor`` rule (an unoccupied room with an unexplored door, else any unoccupied room)."""
        c = self.collapse_rule()
        assert c is not None
        occupied = {self.ex[s].room for s in self.seat_ids if self.in_play(s)} | {m.room for m in self.active_monsters()}
        for floor in c.get("floors", ["basement", "ground", "upper"]):
            left = [r for r in self.house.rooms_on(floor) if r not in self.collapsed]
            if not left:
                continue
            done = {r for r in self.collapsed if self.house.floor_of(r) == floor}
            if done:
                near = [r for r in left if self._collapse_neighbours(r) & done]
                return sorted(near or left)
            free = [r for r in left if r not in occupied]
            if c.get("new_floor") == "unoccupied-with-unexplored-door":
                return sorted([r for r in free if self._open_doorway(r)] or free or left)
            return sorted(free or left)
        return []

    def _collapse_room(self, room: str) -> Gen[None]:
        """``room`` falls: everyone in it rolls to jump clear (``engulfed``) or dies."""
        c = self.collapse_rule()
        assert c is not None
        self.collapsed.append(room)
        self.chutes_lead_nowhere(lambda to: to == room)
        self.emit(RULE, f"{self.room_name(room)} collapses into the pit ({len(self.collapsed)} gone)", room=room, count=len(self.collapsed))
        engulfed = c.get("engulfed", {})
        for victim in self.seat_ids:
            if not self.in_play(victim) or self.ex[victim].room != room:
                continue
            roll = engulfed.get("roll")
            safe = sorted(r for r in self.door_adjacent(room) if r not in self.collapsed)
            if roll is not None:
                trait = str(roll["trait"])
                faces = yield from self.roll(self.value(victim, trait), f"{self.name(victim)} jumps clear ({trait})")
                ok = sum(faces) >= int(roll["target"])
                self.emit("roll.trait-roll", f"{self.name(victim)} rolls {trait} {sum(faces)} against "
                          f"{roll['target']}+ to jump clear: {'success' if ok else 'failure'}",
                    seat=victim, trait=trait, dice=list(faces), total=sum(faces), need=roll['target'], passed=ok)
                if ok and safe:
                    a = yield from self.ask(victim, [Action.of("jump", room=r) for r in safe], "jump to a room still standing")
                    self._set_room(victim, str(a["room"]))
                    self.emit(RULE, f"{self.name(victim)} jumps into {self.room_name(str(a['room']))}", seat=victim,
                              room=str(a['room']))
                    continue
                if ok:
                    self.emit(RULE, f"no room with a connecting door still stands next to {self.room_name(room)}", room=room)
            yield from self._outcome({"kill": True}, victim, None)

    def _plummet(self) -> Gen[None]:
        """An explorer standing in a fallen room (an event or the Mystic Elevator took them
        there) falls into the pit and dies."""
        for seat in self.seat_ids:
            if self.in_play(seat) and self.ex[seat].room in self.collapsed:
                self.emit(RULE, f"{self.name(seat)} is in {self.room_name(self.ex[seat].room)}, which has collapsed, "
                          "and falls to their death", seat=seat, room=self.ex[seat].room)
                yield from self._outcome({"kill": True}, seat, None)

    def _collapse_rate(self, c: Mapping[str, Any]) -> Mapping[str, Any] | None:
        rows = [r for r in c.get("rate", []) if int(r["from_round"]) <= self.hround]
        return rows[-1] if rows else None

    def _pause_offer(self, seat: str, c: Mapping[str, Any]) -> Gen[bool]:
        """``pause``: a hero holding the card, in a room with a door into a fallen room, may
        give it up instead of collapsing; nothing falls until the end of their next turn."""
        pause = c.get("pause")
        if pause is None or not self.in_play(seat) or self.side.get(seat) != HERO:
            return False
        card = str(pause["card"])
        if not self.holds(seat, card) or not self.door_adjacent(self.ex[seat].room) & set(self.collapsed):
            return False
        a = yield from self.ask(seat, [Action.of("sacrifice", card=card), Action.of("collapse-anyway", card=card)],
                                f"give up the {self.card_name(card)} to hold the collapse back")
        if a.kind != "sacrifice":
            return False
        self.ex[seat].cards.remove(card)
        self.destroyed.append(card)
        self.emit(RULE, f"{self.name(seat)} sacrifices the {self.card_name(card)}: no room falls until the end of "
                  f"their next turn", seat=seat, card=card)
        yield from effects.lose_card(self, seat, card)
        self.collapse_state["paused_by"] = seat
        self.collapse_state["paused_round"] = self.hround
        return True

    def collapse_turn(self, seat: str) -> Gen[None]:
        """The end of ``seat``'s turn (or the traitor's turn slot) under a ``collapse`` piece."""
        c = self.collapse_rule()
        if c is None or self.result is not None:
            return
        cs = self.collapse_state
        yield from self._plummet()
        if cs.get("stopped"):
            return
        if "stops_when" in c and self.pred(c["stops_when"]):
            cs["stopped"] = True
            self.emit(RULE, "the house stops collapsing")
            return
        if "started" not in cs:
            if seat != self.traitor():
                return
            cs["started"] = self.hround
            first = [r for r in self._rooms_for(c["first_room"]) if r not in self.collapsed]
            self.emit(RULE, c.get("says", "the house begins to collapse"), seat=seat)
            for room in first[:1]:
                yield from self._collapse_room(room)
            return
        mine = self.side.get(seat)
        if not ((mine == HERO and "heroes" in c["by"]) or (mine == TRAITOR and "traitor" in c["by"])):
            return
        if cs.get("paused_by") and not self.in_play(str(cs["paused_by"])):
            del cs["paused_by"]  # judgement: a sacrifice holds the house only while its hero lives
            self.emit(RULE, "the hero who held the collapse back is gone: the house collapses again")
        if cs.get("paused_by"):
            if cs["paused_by"] == seat and cs.get("paused_round", 0) < self.hround:
                del cs["paused_by"]
                self.emit(RULE, f"the end of {self.name(seat)}'s next turn: the house collapses again", seat=seat)
            else:
                self.emit(RULE, "the sacrifice holds the collapse back this turn")
                return
        if (yield from self._pause_offer(seat, c)):
            return
        rate = self._collapse_rate(c)
        if rate is None:
            return
        if "dice" in rate:
            faces = yield from self.roll(self._amount(rate["dice"]), f"rooms that collapse at the end of {seat}'s turn")
            count = sum(faces)
            self.emit(RULE, f"{self.name(seat) if self.in_play(seat) else seat} rolls {count}: {count} room"
                      f"{'' if count == 1 else 's'} collapse", seat=seat, dice=list(faces), count=count)
        else:
            count = self._amount(rate.get("rooms", 1))
        # the traitor's player chooses even when its explorer is dead (the seat still plays)
        who = (self.traitor() or seat) if c.get("chosen_by", "traitor") == "traitor" else seat
        for _ in range(count):
            if self.decided():
                return
            options = self.collapse_candidates()
            if not options:
                self.emit(RULE, "no room is left to collapse")
                return
            a = yield from self.ask(who, [Action.of("collapse", room=r) for r in options], "choose a room to collapse")
            yield from self._collapse_room(str(a["room"]))
