"""Seat views: what one seat may know of the haunt's hidden information.

The engine (and the transcript, which records everything) knows all; a player knows only what
the rules tell its side. A haunt file keeps things from a side with ``hidden_from``: on a token
kind (where those tokens lie - The Heir's Assassins, written on the traitor's sheet) or on a
status (who has it - the heir, whom only the heroes know; ``told_on_death``: a dead explorer's
status is told to all). :func:`seat_view` takes those facts out of the state while a seat's
policy decides, and puts them back afterwards, so no policy code - present or future - can read
what its seat may not know. :func:`kept_from` says what that is.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from hauntcheck.engine.betrayal.haunt.pieces import HERO, TRAITOR
from hauntcheck.engine.betrayal.haunt.state import HauntState
from hauntcheck.engine.betrayal.hauntspec import HauntSpec

#: The side a ``hidden_from`` value names.
_SIDE = {"heroes": HERO, "traitor": TRAITOR}


@dataclass(frozen=True)
class Kept:
    """What a seat may not know: token kinds whose places are hidden from it, and statuses whose
    holders are (except, for ``told_on_death`` statuses, dead holders)."""

    tokens: frozenset[str] = frozenset()
    statuses: frozenset[str] = frozenset()
    told_on_death: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.tokens or self.statuses)


def kept_from(st: HauntState, seat: str) -> Kept:
    """The hidden information kept from ``seat``: that of the haunt's token kinds and statuses
    whose ``hidden_from`` names the seat's side (its true side: a hidden traitor knows it is one)."""
    if st.hs is None or seat not in st.side:
        return Kept()
    # the haunt file alone decides what each side is kept from: worked out once per haunt spec
    return st.hs.derived("kept-by-side", _kept_by_side).get(st.side[seat], Kept())


def _kept_by_side(hs: HauntSpec) -> dict[str, Kept]:
    """What each side is kept from (see :func:`kept_from`)."""
    out = {}
    for side in _SIDE.values():
        tokens = frozenset(t.id for t in hs.tokens.values() if t.hidden_from is not None and _SIDE[t.hidden_from] == side)
        statuses = {sid: sdef for sid, sdef in hs.statuses.items()
                    if sdef.get("hidden_from") is not None and _SIDE[str(sdef["hidden_from"])] == side}
        told = frozenset(sid for sid, sdef in statuses.items() if sdef.get("told_on_death"))
        out[side] = Kept(tokens, frozenset(statuses), told)
    return out


@contextmanager
def seat_view(st: HauntState, seat: str) -> Iterator[Kept]:
    """Within the block the state shows only what ``seat`` may know: the hidden tokens are out of
    the token table, the hidden statuses off their (living, or never told) holders, and an
    unrevealed hidden traitor (``hidden-traitor.token-one``) is a hero to every other seat.
    Everything is put back on leaving, however the block ends."""
    kept = kept_from(st, seat)
    hidden = st.hidden if st.hidden is not None and st.hidden != seat and not st.unmasked else None
    if hidden is not None:
        side = st.side.get(hidden)
        st.hidden, st.side[hidden] = None, HERO
        try:
            with seat_view(st, seat) as inner:
                yield inner
        finally:
            st.hidden = hidden
            if side is None:
                st.side.pop(hidden, None)
            else:
                st.side[hidden] = side
        return
    if not kept:
        yield kept
        return
    table = dict(st.htokens)  # the token table as it was, in its order
    for t in kept.tokens:
        st.htokens.pop(t, None)
    statuses: dict[str, list[str]] = {}
    for s, held in st.hstatus.items():
        told = kept.told_on_death if st.ex[s].dead else frozenset()
        if any(x in kept.statuses and x not in told for x in held):
            statuses[s] = held
    for s, held in statuses.items():
        told = kept.told_on_death if st.ex[s].dead else frozenset()
        st.hstatus[s] = [x for x in held if x not in kept.statuses or x in told]
    try:
        yield kept
    finally:
        st.htokens.clear()
        st.htokens.update(table)
        st.hstatus.update(statuses)
