"""Amounts, rooms and who: how the haunt vocabulary names a number, a set of rooms or a set of
explorers (``docs/haunt-format.md``: ``amount``, ``where``, ``who``, ``target``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.betrayal.haunt import concealment
from hauntcheck.engine.betrayal.haunt.base import HauntBase
from hauntcheck.engine.betrayal.haunt.pieces import HERO


class Amounts(HauntBase):
    """Numbers, rooms and explorers as the haunt vocabulary names them."""

    def _who(self, who: Any) -> list[str]:
        if who == "traitor":
            t = self.traitor()
            return [t] if t else []
        if who in ("revealer", "trapped-explorer") and self.haunt is not None:
            # judgement: "the trapped explorer" of a web haunt is the revealer it traps
            return [str(self.haunt["revealer"])]
        if who in ("heroes", "each-hero"):
            return self.living_heroes()
        if who == "player-left-of-revealer" and self.haunt is not None:
            return [self.left_of(str(self.haunt["revealer"]))]
        return []

    def targets(self, target: Mapping[str, Any], room: str, seat: str | None) -> list[str]:
        """Explorers an action or ability may aim at (``target``: kind and range) from ``room``."""
        rooms = {room} | (self.line_of_sight(room) if target.get("range") == "same-room-or-line-of-sight" else set())
        kind = target.get("kind")
        out = []
        for s in self.seat_ids:
            if (s == seat and not target.get("include_self")) or not self.in_play(s) or self.ex[s].room not in rooms:
                continue
            if concealment.concealed_from(self, s, seat):
                continue  # a concealed explorer is no target its opponents can pick out
            if kind in ("hero", "hero-with-status") and self.side.get(s) != HERO:
                continue
            if kind == "hero-with-status" and target.get("status") not in self.hstatus.get(s, []):
                continue
            if kind == "explorer-without-status" and target.get("status") in self.hstatus.get(s, []):
                continue  # (the Witch's spells spare Frogs for her Cat, haunt 3)
            out.append(s)
        return out

    def adjoining_rooms(self, room: str) -> list[str]:
        """The rooms joined to ``room`` by a doorway whose doors meet, or open to it within the
        starting strip (no stairs, passages or secret ways)."""
        out = []
        for side in sorted(self.house.doors(room)):
            other, meet = self.house.door_neighbour(room, side)
            if other is not None and meet:
                out.append(other)
        out += [to for to, kind, _cost, _requires in self.t_links.get(room, ()) if kind == "strip" and to in self.house.spots]
        return out

    def _amount(self, value: Any, room: str | None = None) -> int:
        """An amount during play: a number, a table entry, or a formula of the player count, the
        explorers at the haunt's start, the heroes, the movement roll just made, the margin of the
        fight being settled, the monsters of a kind in ``room`` (the room in question), the rooms in
        the house showing a symbol, or the haunt tokens of a kind lying in rooms."""
        if type(value) is int:
            return value  # the common case, checked first (predicates ask at every step)
        if isinstance(value, Mapping) and "plus_of" in value:
            # a second quantity added to the first: the track plus the heroes still alive
            extra = self._amount({"of": value["plus_of"]}, room)
            value = {**{k: v for k, v in value.items() if k != "plus_of"}, "plus": int(value.get("plus", 0)) + extra}
        if isinstance(value, Mapping) and value.get("of") in ("turn-track", "heroes-alive"):
            from hauntcheck.engine.betrayal.hauntspec import evaluate_formula

            return evaluate_formula(value, self.track if value["of"] == "turn-track" else len(self.living_heroes()))
        if isinstance(value, Mapping) and value.get("of") == "explorers-in-room":
            from hauntcheck.engine.betrayal.hauntspec import evaluate_formula

            return evaluate_formula(value, sum(1 for s in self.seat_ids if self.in_play(s) and self.ex[s].room == room))
        if isinstance(value, Mapping) and value.get("of") in ("movement-roll", "monsters-in-room"):
            from hauntcheck.engine.betrayal.hauntspec import evaluate_formula

            if value["of"] == "movement-roll":
                return evaluate_formula(value, self.movement_roll)
            kind = value.get("monster")
            return evaluate_formula(value, sum(1 for m in self.active_monsters() if m.kind == kind and m.room == room))
        if isinstance(value, Mapping) and value.get("of") == "task-roll":
            from hauntcheck.engine.betrayal.hauntspec import evaluate_formula

            return evaluate_formula(value, self.task_total)
        if isinstance(value, Mapping) and value.get("of") == "fight-margin":
            from hauntcheck.engine.betrayal.hauntspec import evaluate_formula

            return evaluate_formula(value, self.fight_margin)
        if isinstance(value, Mapping) and value.get("of") in ("rooms-with-symbol", "tokens-in-house"):
            from hauntcheck.engine.betrayal.hauntspec import evaluate_formula

            if value["of"] == "rooms-with-symbol":
                symbol = value.get("symbol")
                return evaluate_formula(value, sum(1 for r in self.house.spots if self.t.rooms[r].symbol == symbol))
            return evaluate_formula(value, len(self.htokens.get(str(value.get("token")), [])))
        if isinstance(value, Mapping) and value.get("of") in ("rooms-in-house", "turn-track"):
            from hauntcheck.engine.betrayal.hauntspec import evaluate_formula

            if value["of"] == "turn-track":
                return evaluate_formula(value, self.track)
            return evaluate_formula(value, sum(1 for r in value.get("rooms", ()) if r in self.house.spots))
        if isinstance(value, Mapping) and value.get("of") == "explorers-at-haunt-start":
            from hauntcheck.engine.betrayal.hauntspec import evaluate_formula

            return evaluate_formula(value, self.n)
        if isinstance(value, Mapping) and value.get("of") in ("heroes", "heroes-at-haunt-start"):
            from hauntcheck.engine.betrayal.hauntspec import evaluate_formula

            return evaluate_formula(value, len(self.heroes()))
        assert self.hs is not None
        return self.hs.amount(value, self.n)

    def roller_amount(self, value: Any, seat: str) -> int:
        """An amount about the explorer rolling (a task roll's modifiers): ``of: roller-tokens``
        counts the listed haunt tokens the roller carries, ``of: roller-trait`` is the roller's
        current value of the highest of ``traits``; any other amount as :meth:`_amount`."""
        if isinstance(value, Mapping) and value.get("of") in ("roller-tokens", "roller-trait"):
            from hauntcheck.engine.betrayal.hauntspec import evaluate_formula

            if value["of"] == "roller-tokens":
                wanted = set(value.get("tokens", ()))
                return evaluate_formula(value, sum(1 for t in self.held.get(seat, []) if t in wanted))
            return evaluate_formula(value, max(self.value(seat, str(t)) for t in value.get("traits", ())))
        return self._amount(value)

    def in_place(self, room: str, where: Mapping[str, Any]) -> bool:
        """Whether ``room`` is one of the rooms the location names (:meth:`_rooms_for`). A location
        decided by a room named outright, a haunt token's room or a monster's room is answered
        without listing its rooms (a task's place, a monster's lure and a goal's room are asked at
        every menu, step and judgement); any other as :meth:`_rooms_for` lists them."""
        if where.get("with_neighbours") or where.get("adjoining"):
            return room in self._rooms_for(where)
        # the keys in the order _rooms_for tries them: the first present decides
        if "room" in where:
            return room == str(where["room"])
        if "rooms" in where:
            return any(room == str(r) for r in where["rooms"])
        if "room_with_token" in where:
            kinds = where["room_with_token"]
            htokens = self.htokens
            return any(room in htokens.get(str(k), ()) for k in ([kinds] if isinstance(kinds, str) else kinds))
        if "room_with_monster" in where:
            kind = where["room_with_monster"]
            return any(m.room == room and not m.gone and m.kind == kind for m in self.mon)
        return room in self._rooms_for(where)

    def _rooms_for(self, where: Mapping[str, Any]) -> list[str]:
        """The rooms a location names (without choices): rooms, tokens, monsters, statuses;
        ``with_neighbours``: also every room next to one of them on its floor, doors or not; with
        ``adjoining``, the rooms joined to those by a doorway instead."""
        if where.get("with_neighbours"):
            base = self._rooms_for({k: v for k, v in where.items() if k != "with_neighbours"})
            beside = {other for r in base if r in self.house.spots for other in self.house.neighbours(r)}
            return sorted(set(base) | beside)
        if where.get("adjoining"):
            base = self._rooms_for({k: v for k, v in where.items() if k != "adjoining"})
            return sorted({r for room in base if room in self.house.spots for r in self.adjoining_rooms(room)})
        if "room" in where:
            return [str(where["room"])]
        if "rooms" in where:
            return [str(r) for r in where["rooms"]]
        if "room_with_token" in where:
            kinds = where["room_with_token"]
            kinds = [kinds] if isinstance(kinds, str) else kinds
            return sorted({r for k in kinds for r in self.htokens.get(str(k), [])})
        if "room_with_monster" in where:
            return sorted({m.room for m in self.active_monsters() if m.kind == where["room_with_monster"]})
        if "room_with_status" in where:
            return sorted({self.ex[s].room for s in self.seat_ids if self.in_play(s)
                           and where["room_with_status"] in self.hstatus.get(s, [])})
        if "symbol" in where:
            symbols = [where["symbol"]] if isinstance(where["symbol"], str) else list(where["symbol"])
            return [r for r in sorted(self.house.spots) if self.t.rooms[r].symbol in symbols]
        if "symbols" in where:
            return [r for r in sorted(self.house.spots) if self.t.rooms[r].symbol in where["symbols"]]
        if "next_to_room" in where:
            room = str(where["next_to_room"])
            return sorted(self.house.neighbours(room)) if room in self.house.spots else []
        if "room_of" in where:
            return [self.ex[s].room for s in self._who(where["room_of"])]
        if "haunt_room" in where:
            return [str(self.haunt["room"])] if self.haunt else []
        if "room_of_holder" in where:
            held = where["room_of_holder"]
            cards = [held] if isinstance(held, str) else list(held)
            return sorted({self.ex[s].room for s in self.seat_ids if self.in_play(s)
                           and any(self.holds(s, str(c)) for c in cards)})
        if where.get("any_room") and ("same_floor_as" in where or "floor" in where):
            # every room in the house on one floor (the haunt room's, or a named one)
            near = where.get("same_floor_as")
            anchor = str(self.haunt["room"]) if near == "haunt-room" and self.haunt else \
                next((self.ex[s].room for s in self._who(near)), None) if near else None
            floor = self.house.floor_of(anchor) if anchor is not None else str(where.get("floor"))
            return [r for r in sorted(self.house.spots) if self.house.floor_of(r) == floor]
        raise NotImplementedError(f"haunt location {sorted(where)}")
