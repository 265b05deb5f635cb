"""Amounts, rooms and who: how the haunt vocabulary names a number, a set of rooms or a set of
explorers (``docs/haunt-format.md``: ``amount``, ``where``, ``who``, ``target``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
        return []

    def targets(self, target: Mapping[str, Any], room: str, seat: str | None) -> list[str]:
        """Explorers an action or ability may aim at (``target``: kind and range) from ``room``."""
        rooms = {room} | (self.line_of_sight(room) if target.get("range") == "same-room-or-line-of-sight" else set())
        kind = target.get("kind")
        out = []
        for s in self.seat_ids:
            if s == seat or not self.in_play(s) or self.ex[s].room not in rooms:
                continue
            if kind in ("hero", "hero-with-status") and self.side.get(s) != HERO:
                continue
            if kind == "hero-with-status" and target.get("status") not in self.hstatus.get(s, []):
                continue
            if kind == "explorer-without-status" and target.get("status") in self.hstatus.get(s, []):
                continue  # (the Witch's spells spare Frogs for her Cat, haunt 3)
            out.append(s)
        return out

    def _amount(self, value: Any, room: str | None = None) -> int:
        """An amount during play: a number, a table entry, or a formula of the player count, the
        explorers at the haunt's start, the heroes, the movement roll just made, the margin of the
        fight being settled, the monsters of a kind in ``room`` (the room in question), the rooms in
        the house showing a symbol, or the haunt tokens of a kind lying in rooms."""
        if type(value) is int:
            return value  # the common case, checked first (predicates ask at every step)
        if isinstance(value, Mapping) and value.get("of") in ("movement-roll", "monsters-in-room"):
            from hauntcheck.engine.betrayal.hauntspec import evaluate_formula

            if value["of"] == "movement-roll":
                return evaluate_formula(value, self.movement_roll)
            kind = value.get("monster")
            return evaluate_formula(value, sum(1 for m in self.active_monsters() if m.kind == kind and m.room == room))
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

    def _rooms_for(self, where: Mapping[str, Any]) -> list[str]:
        """The rooms a location names (without choices): rooms, tokens, monsters, statuses."""
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
