"""Whose abilities apply where, and how often they may be used.

A room's text and the tokens lying in it are abilities of that room (:func:`room_abilities`); the
cards an explorer holds and the events kept in front of them are that explorer's
(:func:`held_abilities`). An ability applies to its ``who`` (the traitor, heroes, anyone) and only
under its variant (:func:`_applies`); its ``limit`` (once per turn, once per game, once per
explorer) is kept in the state's use marks (:func:`_limit_ok`, :func:`_use_limit`). A held omen
may make its holder immune to a room's text (``card.card-beats-book``, :func:`_immune`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal.effects.context import _key, variant_on
from hauntcheck.engine.betrayal.model import Ability

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.state import BetrayalState


def room_abilities(st: BetrayalState, room: str) -> list[tuple[str, int, Ability]]:
    """(source, index, ability) for the room's own text and the tokens lying in it."""
    by_room: dict[str, list[tuple[str, int, Ability]]] = st.t.derived("room_abilities", lambda _: {})
    own = by_room.get(room)
    if own is None:
        own = by_room[room] = [(f"room:{room}", i, a) for i, a in enumerate(st.t.rooms[room].abilities)]
    tokens = st.tokens.get(room)
    if not tokens:
        return own
    out = list(own)
    for token in tokens:
        for i, a in enumerate(st.token_abilities.get(token, ())):
            out.append((f"token:{token}", i, a))
    return out


def room_abilities_with(st: BetrayalState, room: str, triggers: tuple[str, ...]) -> list[tuple[str, int, Ability]]:
    """:func:`room_abilities` with one of ``triggers`` only, in the same order. The room's own are
    sorted out once per spec (kept in the tables' derived data): most rooms have none for a
    trigger, and the moments that ask (entering, leaving, a turn's end, the turn menu) come at
    nearly every step."""
    by_room = st.room_abilities_by_trigger.get(triggers)  # by triggers, then room: no key tuple built per ask
    if by_room is None:
        by_room = st.room_abilities_by_trigger[triggers] = {}
    own = by_room.get(room)
    if own is None:
        own = by_room[room] = [x for x in room_abilities(st, room) if x[0].startswith("room:") and x[2].get("trigger") in triggers]
    if not st.tokens.get(room):
        return own
    return [x for x in room_abilities(st, room) if x[2].get("trigger") in triggers]


_NO_ABILITIES: list[tuple[str, int, Ability]] = []


def held_abilities(st: BetrayalState, seat: str) -> list[tuple[str, int, Ability]]:
    """(source, index, ability) of the cards the explorer holds and the events kept in front of them."""
    e = st.ex[seat]
    if not e.cards and not e.kept:
        return _NO_ABILITIES
    key = (seat, tuple(e.cards), tuple(e.kept))
    cached = st.held_cache.get(key)
    if cached is not None:
        return cached
    out: list[tuple[str, int, Ability]] = []
    for c in e.cards:
        for i, a in enumerate(st.t.cards[c].abilities):
            out.append((f"card:{c}", i, a))
    for c in e.kept:
        for i, a in enumerate(st.kept_abilities.get(c, ())):
            out.append((f"kept:{c}", i, a))
    if len(st.held_cache) > 256:
        st.held_cache.clear()
    st.held_cache[key] = out
    return out


def held_abilities_with(st: BetrayalState, seat: str, trigger: str) -> list[tuple[str, int, Ability]]:
    """:func:`held_abilities` with ``trigger`` only, in the same order, kept per hand like them: the
    turn menu (``on-use``) and the movement cap (``ongoing``) ask at every decision of a turn."""
    e = st.ex[seat]
    if not e.cards and not e.kept:
        return _NO_ABILITIES
    key = (seat, tuple(e.cards), tuple(e.kept), trigger)
    cached = st.held_cache.get(key)  # the hands' own cache: a position edited clears both
    if cached is None:
        held = held_abilities(st, seat)  # first: it may clear the cache when full
        cached = st.held_cache[key] = [x for x in held if x[2].get("trigger") == trigger]
    return cached


def _limit_ok(st: BetrayalState, seat: str, source: str, index: int, ability: Ability) -> bool:
    limit = ability.get("limit")
    key = _key(source, index)
    if limit in ("once-per-turn", "once-per-explorer-turn"):
        return key not in st.turn.keys
    if limit == "once-per-explorer-per-game":
        return key not in st.ex[seat].used
    if limit in ("once-per-game", "single-use"):
        return key not in st.game_used
    return True


def _use_limit(st: BetrayalState, seat: str, source: str, index: int, ability: Ability) -> None:
    limit = ability.get("limit")
    key = _key(source, index)
    if limit in ("once-per-turn", "once-per-explorer-turn"):
        st.turn.keys.add(key)
    elif limit == "once-per-explorer-per-game":
        st.ex[seat].used.add(key)
    elif limit in ("once-per-game", "single-use"):
        st.game_used.add(key)


def _applies(st: BetrayalState, seat: str, ability: Ability) -> bool:
    if ability.get("only_after_haunt") and st.haunt is None:
        return False
    if ("variant" in ability or "unless_variant" in ability) and not variant_on(st, ability):
        return False
    who = ability.get("who")
    if who == "traitor":
        return st.haunt is not None and st.haunt.get("traitor") == seat
    # a traitor-only ability replaces this one for the traitor (the Mystic Elevator's roll)
    return not (ability.get("exemptions", {}).get("traitor_excluded") and st.haunt is not None
                and st.haunt.get("traitor") == seat)


def _immune(st: BetrayalState, seat: str, room: str) -> bool:
    for _, _, a in held_abilities_with(st, seat, "ongoing"):
        for eff in a.get("do", []):
            if room in eff.get("immune_to_rooms", []):
                return True
    return False
