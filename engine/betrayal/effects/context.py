"""Who an effect resolves for and where it came from: the shared ground of the effect interpreter.

:class:`Ctx` travels with every effect (the affected explorer, the room, card or token it came
from, the roll just made); :func:`source_rule` names the rule clause a source's text is cited under
(a room's own clause from :data:`ROOM_RULES`, ``card.read-aloud`` for a card, ``glossary.tokens``
for a token). Here too: the ``variant`` / ``unless_variant`` switch of an ability or effect
(:func:`variant_on`), the verb of an effect, and the explorers a ``who`` names (:func:`_who`).

The effect vocabulary is ``spec/schema/effects.schema.json`` (``docs/effects.md``); the package
:mod:`hauntcheck.engine.betrayal.effects` says which module carries out which part of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hauntcheck.engine.betrayal.model import MENTAL, PHYSICAL, TRAITS, Ability
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.state import BetrayalState, Gen


@dataclass(slots=True)
class Ctx:
    """Who an effect is resolving for, and where it came from."""

    seat: str
    source: str  # "room:<id>", "card:<id>", "token:<name>", "kept:<card>"
    discovering: bool = False
    rolled: str | None = None
    took_damage: bool = False
    actor: str = ""  # whose traits are rolled (the user of an item that helps someone else)
    passed: bool | None = None
    kept: str = ""  # "player": the card stays with the explorer; "house": it stays as a token
    chosen_done: bool = False
    halt: bool = False  # the rest of the card does not apply (e.g. its fallback discards it)
    rule: str = ""  # the clause the ability carries out, when the spec names one (its ``rule``)


Effects = Sequence[Mapping[str, Any]]


GROUPS: dict[str, tuple[str, ...]] = {"physical": PHYSICAL, "mental": MENTAL, "any": TRAITS}


# Rule clauses that a room's own text gets cited under (the general one otherwise).
ROOM_RULES: dict[str, str] = {
    "coal-chute": "room.coal-chute.slide",
    "collapsed-room": "room.collapsed-room.first-discoverer-rolls",
    "junk-room": "room.junk-room.stay-and-retry",
    "attic": "room.attic.stay-and-retry",
    "graveyard": "room.graveyard.stay-and-retry",
    "pentagram-chamber": "room.pentagram-chamber.stay-and-retry",
    "chapel": "room.chapel.once-per-game",
    "gymnasium": "room.gymnasium.once-per-game",
    "larder": "room.larder.once-per-game",
    "library": "room.library.once-per-game",
    "crypt": "room.crypt.monsters-ignore",
    "furnace-room": "room.furnace-room.monsters-ignore",
    "gallery": "room.gallery.ballroom-required",
    "mystic-elevator": "room.mystic-elevator.moves-on-entry",
    "vault": "room.vault.empty-token",
    "catacombs": "room.barrier.cross-roll",
    "chasm": "room.barrier.cross-roll",
    "tower": "room.barrier.cross-roll",
}


def source_rule(st: BetrayalState, ctx: Ctx) -> str:
    kind, _, ident = ctx.source.partition(":")
    if ctx.rule:
        return ctx.rule
    if kind == "room":
        return ROOM_RULES.get(ident, "room.text-applies-each-entry")
    if kind == "card":
        return "card.read-aloud"
    return "glossary.tokens"


def _key(source: str, index: int) -> str:
    return f"{source}#{index}"


def variant_on(st: BetrayalState, entry: Mapping[str, Any]) -> bool:
    """An ability or effect marked ``variant: X`` is active only with variant X switched on; one
    marked ``unless_variant: X`` only with it off (the default reading)."""
    v = entry.get("variant")
    if v is not None and v not in st.variants:
        return False
    u = entry.get("unless_variant")
    return u is None or u not in st.variants


def _ability_of(st: BetrayalState, source: str, index: int) -> Ability:
    kind, _, ident = source.partition(":")
    if kind == "room":
        return st.t.rooms[ident].abilities[index]
    if kind == "card":
        return st.t.cards[ident].abilities[index]
    if kind == "kept":
        return st.kept_abilities[ident][index]
    return st.token_abilities[ident][index]


def _source_name(st: BetrayalState, source: str) -> str:
    kind, _, ident = source.partition(":")
    if kind == "room":
        return st.room_name(ident)
    if kind in ("card", "kept"):
        return st.card_name(ident)
    return f"the {ident} token"


def _sub(ctx: Ctx, seat: str) -> Ctx:
    return Ctx(seat, ctx.source, ctx.discovering, ctx.rolled)


#: The keys of an effect that qualify it (who, whether, under which variant, notes) rather than name its verb.
_QUALIFIERS = frozenset({"who", "optional", "says", "cite", "unverified", "judgement", "variant", "unless_variant"})


def _verb(eff: Mapping[str, Any]) -> str:
    """The effect's verb: its first key that is not a qualifier (``custom`` if none is)."""
    for k in eff:
        if k not in _QUALIFIERS:
            return k
    return "custom"


def _who(st: BetrayalState, who: str, ctx: Ctx) -> list[str]:
    me = ctx.seat
    here = st.ex[me].room
    order = [s for s in (st.left_of(me, k) for k in range(st.n)) if not st.ex[s].dead]
    if who in ("self", "holder", None):
        return [me]
    if who == "every-explorer":
        return order
    if who == "every-other-explorer":
        return [s for s in order if s != me]
    if who in ("explorers-here", "heroes-here", "explorers-and-monsters-here", "every-character-entering"):
        return [s for s in order if st.ex[s].room == here]
    if who == "explorers-in-basement":
        return [s for s in order if st.house.floor_of(st.ex[s].room) == "basement"]
    if who == "explorers-outdoors-or-by-window":
        return [s for s in order if st.t.rooms[st.ex[s].room].outdoor or st.t.rooms[st.ex[s].room].windows is True]
    if who == "nearest-explorer":
        dist = st.distances(here)
        others = [s for s in order if s != me]
        if not others:
            return []
        best = min(dist.get(st.ex[s].room, 10_000) for s in others)
        return [next(s for s in others if dist.get(st.ex[s].room, 10_000) == best)]
    if who in ("chosen-explorer-here",):
        return [s for s in order if s != me and st.ex[s].room == here]
    if who == "self-or-explorer-here":
        return [s for s in order if st.ex[s].room == here]
    if who == "spear-holder":
        return [s for s in order if "spear" in st.ex[s].cards and s != me]
    if who == "characters-in-adjacent-room":
        # the Dynamite is thrown through a connecting door: the rooms joined to this one by doors
        joined = {other for side in st.house.doors(here) for other, meets in [st.house.door_neighbour(here, side)] if meets}
        return [s for s in order if st.ex[s].room in joined]
    if who == "player-to-right":
        return [st.left_of(me, -1)]
    if who == "traitor":
        t = st.haunt.get("traitor") if st.haunt else None
        return [t] if t else []
    return []


def _pick_seat(st: BetrayalState, seat: str, options: list[str], what: str) -> Gen[str]:
    if not options:
        return seat
    a = yield from st.ask(seat, [Action.of("target", who=s) for s in options], what)
    return str(a["who"])
