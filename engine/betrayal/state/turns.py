"""The game's program: setup, then turns to the left until the haunt (``setup.*``, ``turn.*``).

:meth:`Turns._game` is the whole game as one generator: the setup (explorers chosen, starting
tiles, the first player by the next birthday from the ``date`` option), then each turn in order.
A turn offers its actions (move, discover, items, abilities) until the explorer ends it; at its
end an omen drawn that turn calls for the haunt roll. After the reveal, part 1 on its own goes on
with the turns in the haunt's order; the haunt phase replaces :meth:`Turns._turns`.
"""

from __future__ import annotations

import functools
import itertools

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.model import SIDES, TRAITS, Tables
from hauntcheck.engine.betrayal.state.base import TURN_PROMPT, Explorer, Gen, Req, Turn
from hauntcheck.engine.betrayal.state.haunt_roll import HauntRoll
from hauntcheck.engine.core import Action, ActionList, act


class Turns(HauntRoll):
    """The game's program: setup, then turns to the left."""

    def _game(self) -> Gen[None]:
        yield from self._setup()
        yield from self._turns(self.first_seat)

    def _turns(self, seat: str) -> Gen[None]:
        while self.haunt is None:
            yield from self._play_turn(seat)
            seat = self.left_of(seat)
        # The haunt has begun. Part 2 (the haunt's own rules, monsters, attacks, winning) takes
        # over here; until then the explorers go on exploring in the haunt's turn order.
        assert self.haunt is not None
        seat = self.left_of(self.haunt["traitor"] or self.haunt["revealer"])
        while any(not e.dead for e in self.ex.values()):
            if not self.ex[seat].dead:
                yield from self._play_turn(seat)
            seat = self.left_of(seat)

    def _setup(self) -> Gen[None]:
        taken: set[str] = set()
        choices = _explorer_choices(self.t)
        for seat in self.seat_ids:
            options = [a for card, a in choices if card not in taken]
            a = yield from self.ask(seat, options, "choose an explorer")
            xid = str(a["explorer"])
            taken.add(self.t.explorers[xid].card)
            xdef = self.t.explorers[xid]
            self.ex[seat] = Explorer(seat, xid, idx={t: xdef.traits[t].start for t in TRAITS})
            if not self.quiet:  # the texts and values are work: skipped when nobody reads the events
                self.emit("setup.choose-explorer", f"{seat} plays {xdef.name} ({xdef.card}; the other side is out of the game)",
                    seat=seat, explorer=xid, card=xdef.card)
                self.emit("setup.clips-at-start-values", f"{xdef.name} starts at " + ", ".join(
                    f"{t} {self.value(seat, t)}" for t in TRAITS), seat=seat, explorer=xid, values=[self.value(seat, t) for t in TRAITS])
        for kind in ("omen", "item", "event"):
            self.decks[kind] = sorted(self.unshuffled[kind])
            self.unshuffled[kind] = []
        self.emit("setup.shuffle-card-stacks", "the omen, item and event stacks are shuffled (each draw is a chance draw)")
        self.stack = sorted(self.unshuffled_rooms)
        self.unshuffled_rooms = []
        self._tile_version += 1
        self.emit("setup.room-stack", f"the other {len(self.stack)} room tiles are shuffled into one stack", count=len(self.stack))
        self._place_starting_tiles()
        for e in self.ex.values():
            e.room = "entrance-hall"
        self.emit("setup.explorers-in-entrance-hall", "every explorer starts in the Entrance Hall")
        if not self.quiet:  # a walk over every room for events only
            for room in self.t.rooms.values():
                if room.front_door is not None:
                    self.emit("discover.front-door-locked", f"the {SIDES[room.front_door]} front door of {room.name} is locked",
                              room=room.id, side=room.front_door)
        self.first_seat = self._first_by_birthday()
        xdef = self.t.explorers[self.ex[self.first_seat].id]
        m, d = self.setup.date
        if "setup.game-date" in self.rules:
            self.emit("setup.game-date", f"the game's date is {m:02d}-{d:02d}; a birthday on that day counts as the next", date=[m, d])
        self.emit(
            "setup.first-player-next-birthday",
            f"from {m:02d}-{d:02d} the next birthday is {xdef.name}'s ({xdef.birthday[0]:02d}-{xdef.birthday[1]:02d}): "
            f"{self.first_seat} goes first", date=[m, d], explorer=xdef.id, seat=self.first_seat,
        )
        self.emit("turn.order-before-haunt", "turns pass to the left (P1, P2, ... in seat order)")
        self.phase = "explore"

    def _place_starting_tiles(self) -> None:
        seeds, strips = _starting_tiles(self.t)
        for rid in seeds:
            room = self.t.rooms[rid]
            self.house.place(rid, room.floors[0], (0, 0), 0)
            self.emit("setup.starting-tiles", f"{room.name} is laid out as the seed of the {room.floors[0]} floor",
                      room=rid, floor=room.floors[0])
        for tile, members in strips:
            for i, rid in enumerate(members):
                self.house.place(rid, self.t.rooms[rid].floors[0], (0, i), 0)
            if not self.quiet:
                names = ", ".join(self.room_name(r) for r in members)
                self.emit("room.entrance-hall.strip-three-rooms", f"the {tile} tile holds {names} as separate rooms", tile=tile,
                          rooms=list(members))

    def _first_by_birthday(self) -> str:
        m0, d0 = self.setup.date
        start = _day_of_year(m0, d0)

        def wait(seat: str) -> tuple[int, int]:
            m, d = self.t.explorers[self.ex[seat].id].birthday
            return ((_day_of_year(m, d) - start) % 366, self.seat_ids.index(seat))

        return min(self.seat_ids, key=wait)

    def _play_turn(self, seat: str) -> Gen[None]:
        e = self.ex[seat]
        self.turn_number += 1
        self.current = seat
        self.turn = Turn(seat, start_room=e.room)
        yield from effects.start_of_turn(self.as_betrayal_state(), seat)
        yield from self.turn_loop(seat)
        yield from self.after_turn_loop(seat)

    def after_turn_loop(self, seat: str) -> Gen[None]:
        """The end of a turn once its actions are over: the haunt roll for each omen drawn this
        turn (``turn.haunt-roll-at-end``), none once the haunt has begun (``omen.after-haunt-no-roll``).
        A turn resumed from a position ends the same way."""
        if self.turn.omens and self.haunt is None:
            self.emit("turn.haunt-roll-at-end", f"{self.name(seat)} drew an omen this turn, so the turn ends with a haunt roll", seat=seat)
        elif self.turn.omens:
            self.emit("omen.after-haunt-no-roll", f"the haunt has begun: {self.name(seat)} keeps "
                      f"{', '.join(self.card_name(c) for c, _ in self.turn.omens)} and makes no haunt roll", seat=seat,
                      cards=[c for c, _ in self.turn.omens])
        for card, room in list(self.turn.omens):
            if self.haunt is not None:
                break
            yield from self._haunt_roll(seat, card, room)

    def turn_loop(self, seat: str) -> Gen[None]:
        """The body of a turn once its start is over: actions in any order until the explorer
        ends the turn (or must), then the end-of-turn effects."""
        recompute = functools.partial(self._turn_actions, seat)  # one for the turn, not one per decision
        while not self.turn.end_now:
            actions = self._turn_actions(seat)
            if len(actions) == 1:
                a = actions[0]
            else:
                a = yield Req(seat, ActionList(actions), TURN_PROMPT, recompute)
            if a.kind == "end":
                break
            yield from self._turn_action(seat, a)
            self.turn.last = a.kind
        yield from effects.end_of_turn(self.as_betrayal_state(), seat)

    def _turn_actions(self, seat: str) -> list[Action]:
        """The explorer's turn menu: moves and explores (none while a hindrance blocks moving),
        the room's abilities and the barrier crossing, the held cards' abilities, escapes from
        hindrances, item actions, and ending the turn (not in a chute's room).

        The moves are kept by room between decisions (:meth:`_move_actions`). The other parts are
        empty at nine decisions in ten (measured on random play to the reveal), and each is empty
        whatever else holds when what it lists from is: the room's own abilities for the menu and
        tokens lying in it (``in-room``, ``cross``), the cards held and events kept, the explorer's
        cards and the room's item pile. Each part is asked for only when that is not empty; the
        test is the one the part would make first itself."""
        e = self.ex[seat]
        st = self.as_betrayal_state()
        blocked = effects.blocked(st, seat)
        if blocked:
            out: list[Action] = []
        else:
            out = self._move_actions(seat)  # a new list: extended in place
            if effects.room_abilities_with(st, e.room, effects.MENU_TRIGGERS):
                out += effects.room_actions(st, seat)
            if e.cards or e.kept:
                out += effects.card_actions(st, seat)
        out += effects.status_actions(st, seat)
        if not blocked and (e.cards or self.piles.get(e.room)):
            out += self._item_actions(seat, e)
        if e.room not in self.no_end_rooms:
            out.append(END)
        return out

    def _turn_action(self, seat: str, a: Action) -> Gen[None]:
        kind = a.kind
        if kind == "move":
            yield from self._move(seat, str(a["to"]), int(a["cost"]))  # type: ignore[arg-type]
        elif kind == "explore":
            yield from self._explore(seat, _side(str(a["door"])))
        elif kind in ("drop", "pickup", "trade"):
            yield from self._item_action(seat, a)
        else:
            yield from effects.do_action(self.as_betrayal_state(), seat, a)


END = Action("end")


#: The days of a leap year before each month's first (a birthday on 02-29 has its day).
_MONTH_STARTS = tuple(itertools.accumulate((31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30), initial=0))


def _day_of_year(month: int, day: int) -> int:
    return _MONTH_STARTS[month - 1] + day - 1


def _side(name: str) -> int:
    return SIDES.index(name)


def _explorer_choices(t: Tables) -> tuple[tuple[str, Action], ...]:
    """Each explorer's character card and the action choosing it, by explorer id (built once per
    tables: setup offers them to every seat, leaving out the cards already taken)."""
    return t.derived("explorer_choices", lambda t: tuple((x.card, act("choose", "explorer", x.id)) for x in t.explorers_by_id()))


def _starting_tiles(t: Tables) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    """The starting tiles as setup lays them out (found once per tables): the rooms that seed a
    floor alone, in the tables' order, and each tile holding several rooms (``tile``, by name)
    with its rooms in strip order."""
    return t.derived("starting_tiles", _lay_out_starting_tiles)


def _lay_out_starting_tiles(t: Tables) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    seeds: list[str] = []
    strips: dict[str, list[tuple[int, str]]] = {}
    for room in t.rooms.values():
        if room.placement != "starting":
            continue
        if room.tile is not None:
            strips.setdefault(room.tile, []).append((room.strip_position or 0, room.id))
        else:
            seeds.append(room.id)
    return tuple(seeds), tuple((tile, tuple(rid for _, rid in sorted(members))) for tile, members in sorted(strips.items()))
