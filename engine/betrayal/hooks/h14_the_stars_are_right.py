"""Haunt 14, The Stars Are Right: the Paint set out room by room, and sacrifices counted in points."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt.pieces import Monster
from hauntcheck.engine.betrayal.haunt.registry import hook
from hauntcheck.engine.betrayal.state import Gen
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState

#: The rooms that receive Paint, in the book's order (Secrets of Survival, line 3586).
PAINT_ROOMS = ("kitchen", "larder", "junk-room", "storeroom", "research-laboratory", "attic")

#: The token a dead explorer leaves (``left_on_death``) and its worth (Traitor's Tome, line 1331).
CORPSE, CORPSE_POINTS = "corpse", 4

#: Points of a sacrificed card (Traitor's Tome, lines 1331-1333); any other tradable card is worth 1.
COMPANION_POINTS = {"girl": 2, "madman": 2, "dog": 2}


@hook.setup("paint-in-order")
def paint_in_order(st: HauntState) -> Gen[None]:
    """Haunt 14, heroes' setup step ``paint-in-order``: the set-aside Paint tokens go one to a room
    through the Kitchen, Larder, Junk Room, Storeroom, Research Laboratory and Attic - only those in
    the house, round again while tokens are left; with none of them in the house, the first of them
    met in the room stack is placed (by the revealer) and takes every token."""
    count = st.pool.get("paint", 0)
    rooms = [r for r in PAINT_ROOMS if r in st.house.spots]
    if not rooms:
        found = next((r for r in st.stack if r in PAINT_ROOMS), None)
        if found is not None:
            yield from st._fetch_room({"room": found, "place": {}})
        rooms = [found] if found is not None and found in st.house.spots else []
    if not rooms:
        st.emit("haunt.setup-right-now", "none of the Paint rooms can be put in the house: the Paint stays aside")
        return
    for k in range(count):
        room = rooms[k % len(rooms)]
        st.htokens.setdefault("paint", []).append(room)
        st.emit("haunt.setup-right-now", f"a paint token is placed in {st.room_name(room)}", room=room)
    st.pool["paint"] = 0


def _points(st: HauntState, card: str) -> int:
    return COMPANION_POINTS.get(card, 1)


def _offer(st: HauntState, card: str, who: str, by: str) -> None:
    """Remove a sacrificed card from the game (kept apart) and count its points on the track."""
    st.destroyed.append(card)
    st.track += _points(st, card)
    st.emit("haunt.rules-override", f"{who} sacrifices the {st.card_name(card)} for {_points(st, card)} point(s): "
            f"{st.track} sacrifice point(s)", by=by, card=card, amount=_points(st, card), track=st.track)


def _offer_corpse(st: HauntState, carrier: str, who: str) -> None:
    """A carried corpse leaves the game for :data:`CORPSE_POINTS` points on the track."""
    st.held[carrier].remove(CORPSE)
    st.track += CORPSE_POINTS
    st.emit("haunt.rules-override", f"{who} sacrifices a corpse for {CORPSE_POINTS} points: {st.track} sacrifice point(s)",
        by=carrier, token=CORPSE, amount=CORPSE_POINTS, track=st.track)


def _offerable(st: HauntState, seat: str) -> list[str]:
    """The cards an explorer could sacrifice: the Girl, Madman or Dog, or any tradable item or omen."""
    return [c for c in st.ex[seat].cards if c in COMPANION_POINTS or (st.t.cards[c].can_trade and not st.t.cards[c].companion)]


@hook.predicate("sacrifice")
def has_sacrifice(st: HauntState, seat: str | None, m: Monster | None) -> bool:
    """Haunt 14, action ``sacrifice``: open only while the traitor holds something to offer (a
    card worth points or a corpse), so the repeatable action always gives something up."""
    if seat is None:
        return False
    return bool(_offerable(st, seat)) or CORPSE in st.held.get(seat, [])


@hook.monster("sacrifice")
def sacrifice(st: HauntState, seat: str | None, m: Monster | None) -> Gen[None]:
    """Haunt 14, the traitor's action ``sacrifice`` and the Cultists' rule ``cultist-sacrifices``:
    in the Pentagram Chamber a Cultist offers everything it carries, and the traitor offers one
    card or corpse it holds - a corpse for 4 points, the Girl, Madman or Dog for 2, any other
    tradable item or omen for 1 (Paint is a token and never offered). Points add up on the
    Turn/Damage track."""
    if m is not None:
        for card in list(m.cards):
            m.cards.remove(card)
            _offer(st, card, st.mname(m), m.uid)
        while CORPSE in st.held.get(m.uid, []):
            _offer_corpse(st, m.uid, st.mname(m))
        return
    if seat is None:
        return
    e = st.ex[seat]
    cards = _offerable(st, seat)
    acts = [Action.of("sacrifice", card=c) for c in cards]
    if CORPSE in st.held.get(seat, []):
        acts.insert(0, Action.of("sacrifice", token=CORPSE))
    if not acts:
        st.emit("haunt.rules-override", f"{st.name(seat)} has nothing to sacrifice", seat=seat)
        return
    a = yield from st.ask(seat, acts, "sacrifice a card or a corpse")
    if a.get("token"):
        _offer_corpse(st, seat, st.name(seat))
        return
    card = str(a["card"])
    e.cards.remove(card)
    _offer(st, card, st.name(seat), seat)
    yield from effects.lose_card(st, seat, card)
