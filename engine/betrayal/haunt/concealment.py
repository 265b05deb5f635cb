"""Concealed explorers: an explorer whose figure is off the board (the setup step ``conceal``).

The engine always knows where a concealed explorer is (``Explorer.room``, recorded in the
transcript); the other side knows only a *candidate set*, the rooms it may be in, kept in
``HauntBase.concealed[seat]["rooms"]``. Every piece of the game the other side sees is worked out
from that set, never from the true room:

* the set starts as every room of the house, and at the end of each of the concealed explorer's
  turns grows by its Speed (it may have moved that far);
* ``learn_position`` narrows it: ``room`` (the room itself: it placed a tile, stole, was found),
  ``exit`` (whether it is still in the room where it was last known, else the rooms reached through
  the doorway it left by), ``floor`` or ``symbol`` (the rooms sharing its room's floor or symbol);
* an attack that misses (``attack-unseen`` on an empty room) takes that room out of the set;
* its opponents get no attack, trade or target on it; it neither slows them nor is slowed by them.

:func:`concealed_view` is what a seat's policy is given (inside :func:`views.seat_view`): for a
seat the explorer is concealed from, a copy of the state whose record of that explorer stands in the candidate room nearest the viewer
(or out of play while the set is every room: no lead at all), so a policy cannot read the
true room (``tests/test_haunt_41.py`` proves it).
"""

from __future__ import annotations

import copy
import dataclasses
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.base import HauntBase
    from hauntcheck.engine.core import EventArg

S = TypeVar("S", bound="HauntBase")

#: ``learn_position`` precisions.
PRECISIONS = ("room", "exit", "floor", "symbol")


def concealed_from(st: HauntBase, seat: str, viewer: str | None) -> bool:
    """Whether ``seat`` is concealed from ``viewer`` (its opponents; its own side sees it, and so
    does nobody in particular, ``viewer`` None, as the engine does)."""
    if seat not in st.concealed or viewer is None or viewer == seat:
        return False
    return st.side.get(viewer) != st.side.get(seat)


def hidden_from(st: HauntBase, viewer: str | None) -> list[str]:
    """The concealed explorers in play that ``viewer`` may not see."""
    return [s for s in st.concealed if st.in_play(s) and concealed_from(st, s, viewer)]


def conceal(st: HauntBase, seat: str, room: str) -> None:
    """``seat`` writes down ``room`` as where it is and takes its figure off the board."""
    st._set_room(seat, room, part=0)
    st.concealed[seat] = {"rooms": sorted(st.house.spots), "seen": "", "exit": ""}


def candidates(st: HauntBase, seat: str) -> list[str]:
    """The rooms the other side knows the concealed explorer may be in."""
    return list(st.concealed[seat]["rooms"])


def _set(st: HauntBase, seat: str, rooms: set[str] | list[str]) -> None:
    st.concealed[seat]["rooms"] = sorted(rooms)


def learn(st: HauntBase, seat: str, precision: str, why: str) -> None:
    """The other side learns ``precision`` of the concealed explorer's whereabouts (``learn_position``)."""
    state = st.concealed[seat]
    room = st.ex[seat].room
    known = set(state["rooms"]) | {room}
    facts: dict[str, EventArg]  # what the other side learns, and nothing more
    if precision == "room":
        _set(st, seat, {room})
        state["seen"], state["exit"] = room, ""
        told = f"it is in {st.room_name(room)}"
        facts = {"room": room}
    elif precision == "exit":
        seen = state["seen"] or room
        if room == seen:
            _set(st, seat, {room})
            told = f"it is still in {st.room_name(room)}"
            facts = {"room": room}
        else:
            way = state["exit"] or room
            dist = st._dist_to([way])
            reach = max(0, st.speed(seat) - 1)
            _set(st, seat, {r for r in known if dist.get(r, 10_000) <= reach and r != seen} | {room})
            told = f"it left {st.room_name(seen)} for {st.room_name(way)}"
            facts = {"origin": seen, "to": way}
    elif precision == "floor":
        floor = st.house.floor_of(room)
        _set(st, seat, {r for r in known if st.house.floor_of(r) == floor})
        told = f"it is on the {floor} floor"
        facts = {"floor": floor}
    elif precision == "symbol":
        symbol = st.t.rooms[room].symbol
        _set(st, seat, {r for r in known if st.t.rooms[r].symbol == symbol})
        told = f"its room shows {'the ' + str(symbol) + ' symbol' if symbol else 'no symbol'}"
        facts = {"kind": symbol}
    else:
        raise ValueError(f"learn_position {precision!r}: expected one of {', '.join(PRECISIONS)}")
    st.emit("haunt.concealed-explorer", f"{why}: {told} ({len(state['rooms'])} room(s) possible)",
            seat=seat, count=len(state["rooms"]), **facts)


def missed(st: HauntBase, seat: str, room: str) -> None:
    """An attack into ``room`` found nobody: the concealed explorer is not there."""
    rooms = set(st.concealed[seat]["rooms"]) - {room}
    _set(st, seat, rooms or set(st.house.spots) - {room})


def moved(st: HauntBase, seat: str, src: str, to: str) -> None:
    """A concealed explorer's step, written down: the first step away from where it was last
    known is the exit an ``exit`` lead reveals."""
    state = st.concealed.get(seat)
    if state is not None and state["seen"] == src and not state["exit"]:
        state["exit"] = to


def spread(st: HauntBase, seat: str) -> None:
    """End of the concealed explorer's turn: it may have gone as far as its Speed, and rooms found
    meanwhile are in the house too."""
    dist = st._dist_to(st.concealed[seat]["rooms"])
    reach = st.speed(seat)
    _set(st, seat, {r for r in st.house.spots if dist.get(r, 10_000) <= reach})


def believed_room(st: HauntBase, seat: str, viewer: str) -> str | None:
    """Where ``viewer`` believes the concealed explorer is: the candidate room nearest the viewer,
    or None while every room of the house is a candidate (no lead)."""
    rooms = candidates(st, seat)
    if not rooms or set(st.house.spots) <= set(rooms):
        return None
    here = st.ex[viewer].room
    dist = st._dist_to([here])
    return min(rooms, key=lambda r: (dist.get(r, 10_000), r))


def concealed_view(st: S, viewer: str | None) -> S:
    """The state as ``viewer`` may know it (see the module docstring): the state itself when
    nothing is concealed from the viewer, else a shallow copy in which each concealed explorer's
    record is a copy standing in its believed room (out of play without a lead)."""
    unseen = hidden_from(st, viewer) if viewer is not None and viewer in st.ex else []
    if not unseen:
        return st
    view = copy.copy(st)
    view.ex = dict(st.ex)
    view.removed = set(st.removed)
    # only the candidate rooms are public: where it was last seen and the exit it truly took are not
    view.concealed = {s: {"rooms": list(v["rooms"])} for s, v in st.concealed.items()}
    for seat in unseen:
        assert viewer is not None
        belief = believed_room(st, seat, viewer)
        stand_in: Any = dataclasses.replace(st.ex[seat], room=belief or st.ex[viewer].room, part=0)
        view.ex[seat] = stand_in
        if belief is None:
            view.removed.add(seat)
    return view
