"""Betrayal before the haunt as the core's game interface, and the invariants checked after every step.

:class:`BetrayalState` is the whole part-1 state: the decision pending, applying an action
(:meth:`BetrayalState._apply` sends it into the program and collects the events up to the next
decision), the outcome, ``clone()`` (the action log replayed on a fresh game, so the running
program is never copied) and ``snapshot()`` (the complete data state plus the pending decision).
:func:`invariants`: every tile and card in exactly one place, traits on their tracks (nobody dead
before the haunt), no floor sealed off while tiles for it remain, the omen count equal to the omens
drawn, explorers in placed rooms.
"""

from __future__ import annotations

from typing import Any

from hauntcheck.engine.betrayal.model import FLOORS, TRAITS
from hauntcheck.engine.betrayal.state.turns import Turns
from hauntcheck.engine.core import Action, ActionList, Choices, Event, GameState, Outcome


class BetrayalState(Turns):
    """Betrayal before the haunt, as the core's :class:`~hauntcheck.engine.core.GameState`."""

    def to_move(self) -> str | None:
        return self._req.actor if self._req is not None else None

    def legal_actions(self) -> Choices:
        if self._req is None:
            return ActionList([])
        return self._req.choices

    def _apply(self, action: Action) -> list[Event]:
        self._events = []
        self.history.append(action)
        try:
            self._req = self._gen.send(action)
        except StopIteration:
            self._req = None
        return self._events

    def refusal(self, action: Action) -> tuple[str, str]:
        from hauntcheck.engine.betrayal.refusal import refusal

        return refusal(self, action)

    def refresh(self) -> None:
        """Recompute the pending turn decision after a test or scenario edited the position."""
        if self._req is not None and self._req.recompute is not None:
            self._req.choices = ActionList(self._req.recompute())

    def outcome(self) -> Outcome | None:
        # The haunt (part 2) decides winners; part 1 ends only if every explorer has died.
        if self._req is None and self.haunt is not None:
            return Outcome("undecided", (), "every explorer died; the haunt's goals are not played yet")
        return None

    def seats(self) -> list[str]:
        return list(self.seat_ids)

    def roster(self) -> dict[str, str]:
        return {s: self.t.explorers[e.id].name for s, e in self.ex.items()}

    def reached(self, milestone: str) -> bool:
        return milestone == "reveal" and self.haunt is not None

    def restart(self) -> BetrayalState:
        """The same game (or directly built position) before any of its actions."""
        return self.rebuild() if self.rebuild is not None else BetrayalState(self.setup)

    def clone(self) -> BetrayalState:
        other = self.restart()
        for action in self.history:
            other.apply(action)
        return other

    def setup_only(self) -> None:
        """Let the program end with the setup, before a first turn begins: a position built
        directly plays the setup's choices, then restarts the turns at its own turn
        (:meth:`restart_turns`), so the first player's turn would only be begun to be thrown away.
        Only a game nothing was played in yet is cut short so."""
        assert not self.history and self.phase == "setup", "only a new game's program is cut to its setup"
        self._gen.close()
        self._gen = self._setup()
        self._req = next(self._gen, None)

    def restart_turns(self, seat: str) -> None:
        """Begin the turn sequence afresh with ``seat`` (used to build positions directly)."""
        self._gen.close()
        self.first_seat = seat
        self._gen = self._turns(seat)
        self._events = []
        self._req = next(self._gen)

    def snapshot(self) -> dict[str, Any]:
        req = self._req
        pending: dict[str, Any] | None = None
        if req is not None:
            pending = {"actor": req.actor, "what": req.what, "offered": len(req.choices)}
            if isinstance(req.choices, ActionList):
                pending["actions"] = [str(a) for a in req.choices]
        return {
            "house": {r: [s.floor, list(s.cell), s.rotation] for r, s in sorted(self.house.spots.items())},
            "stack": list(self.stack),
            "room_top": self.room_top,
            "deck_tops": {k: list(v) for k, v in self.deck_tops.items() if v},
            "variants": sorted(self.variants),
            "held_tile": self.held_tile,
            "resolving": list(self.resolving),
            "aside": list(self.aside),
            "closed_floors": sorted(self.closed_floors),
            "removed_tiles": list(self.removed_tiles),
            "unshuffled_rooms": list(self.unshuffled_rooms),
            "decks": {k: list(v) for k, v in self.decks.items()},
            "unshuffled": {k: list(v) for k, v in self.unshuffled.items()},
            "discards": {k: list(v) for k, v in self.discards.items()},
            "explorers": {
                s: {
                    "id": e.id, "room": e.room, "part": e.part, "traits": dict(sorted(e.idx.items())),
                    # The printed values too (derived), so scenarios can state "Might 4" directly.
                    "values": {t: self.value(s, t) for t in sorted(e.idx)},
                    "over": dict(sorted(e.over.items())), "cards": list(e.cards), "used": sorted(e.used),
                    "status": dict(sorted(e.status.items())), "kept": list(e.kept), "dead": e.dead,
                }
                for s, e in sorted(self.ex.items())
            },
            "piles": {r: list(c) for r, c in sorted(self.piles.items()) if c},
            "tokens": {r: list(c) for r, c in sorted(self.tokens.items()) if c},
            "links": [list(x) for x in self.links],
            "passages": [list(x) for x in self.passages],
            "token_cards": list(self.token_cards),
            "item_raised": sorted(self.item_raised),
            "open_boxes": sorted(self.open_boxes),
            "masks_worn": sorted(self.masks_worn),
            "stored_rolls": dict(sorted(self.stored_rolls.items())),
            "set_bonus": sorted(self.set_bonus),
            "game_used": sorted(self.game_used),
            "omens_drawn": self.omens_drawn,
            "phase": self.phase,
            "first": self.first_seat,
            "current": self.current,
            "turn_number": self.turn_number,
            "turn": {
                "moved": self.turn.moved, "extra": self.turn.extra, "stopped": self.turn.stopped,
                "omens": [list(o) for o in self.turn.omens], "keys": sorted(self.turn.keys),
                "items_acted": sorted(self.turn.items_acted), "dropped": self.turn.dropped,
                "picked": self.turn.picked, "traded": self.turn.traded, "last": self.turn.last,
                "seat": self.turn.seat, "end_now": self.turn.end_now, "no_attack": self.turn.no_attack,
                "short_exit": self.turn.short_exit, "start_room": self.turn.start_room, "left_room": self.turn.left_room,
            },
            "status_cards": sorted(f"{s}/{n}={c}" for (s, n), c in self.status_cards.items()),
            "kept_with_abilities": sorted(self.kept_abilities),
            "tokens_with_abilities": sorted(self.token_abilities),
            "haunt": dict(self.haunt) if self.haunt else None,
            "pending": pending,
        }


def invariants(state: GameState) -> list[str]:
    """What must hold after every step before the haunt: every tile and card in exactly one
    place, traits on their tracks (nobody dead before the haunt), no floor sealed off while
    tiles for it remain, the omen count equal to the omens drawn, explorers in placed rooms."""
    if not isinstance(state, BetrayalState):
        return [f"not a Betrayal state: {type(state).__name__}"]
    st = state
    problems: list[str] = []
    tiles = list(st.house.spots) + st.stack + st.aside + st.unshuffled_rooms + ([st.held_tile] if st.held_tile else [])
    tiles += st.removed_tiles
    if st.phase == "setup":
        tiles += [r.id for r in st.t.rooms.values() if r.placement == "starting" and r.id not in st.house.spots]
    if sorted(tiles) != sorted(st.t.rooms):
        dup = sorted({t for t in tiles if tiles.count(t) > 1})
        missing = sorted(set(st.t.rooms) - set(tiles))
        problems.append(f"room tiles misplaced: duplicated {dup}, missing {missing}")
    cards: list[str] = []
    for kind in ("omen", "item", "event"):
        cards += st.decks[kind] + st.discards[kind] + st.unshuffled[kind]
    for e in st.ex.values():
        cards += e.cards + e.kept
    for pile in st.piles.values():
        cards += pile
    cards += st.token_cards + st.resolving
    if sorted(cards) != sorted(st.t.cards):
        dup = sorted({c for c in cards if cards.count(c) > 1})
        missing = sorted(set(st.t.cards) - set(cards))
        problems.append(f"cards misplaced: duplicated {dup}, missing {missing}")
    low = 0 if st.haunt is None else -1
    for seat, e in st.ex.items():
        if e.dead and (e.cards or e.kept):
            problems.append(f"{seat} is dead but still holds cards")
        for trait in TRAITS:
            top = len(st.t.explorers[e.id].traits[trait].values) - 1
            if not low <= e.idx[trait] <= top:
                problems.append(f"{seat} {trait} index {e.idx[trait]} is off its track")
        if st.phase == "setup":
            continue
        if e.room not in st.house.spots:
            problems.append(f"{seat} is in {e.room!r}, which is not in the house")
        elif e.part and len(st.t.rooms[e.room].barrier) < 2:
            problems.append(f"{seat} is on side {e.part} of {e.room}, which has no barrier")
    if st.phase != "setup":
        for floor in FLOORS:
            if not st.house.free_doorways(floor) and st.remaining_for(floor) > 0:
                problems.append(f"the {floor} floor is sealed off while {st.remaining_for(floor)} tile(s) for it remain")
    in_deck = len(st.decks["omen"]) + len(st.unshuffled["omen"])
    total = sum(1 for c in st.t.cards.values() if c.type == "omen")
    if st.omens_drawn != total - in_deck:
        problems.append(f"omen count {st.omens_drawn} but {total - in_deck} omens have left the stack")
    for room in st.piles:
        # a tile set back into the room stack keeps the items lying on it (haunt 32's reshuffle)
        if room not in st.house.spots and room not in st.stack and room not in st.aside:
            problems.append(f"an item pile lies in {room}, which is neither in the house nor in the room stack")
    return problems
