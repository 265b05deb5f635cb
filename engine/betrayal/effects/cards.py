"""Cards and tokens handled by effects: drawing, placing and removing tokens, keeping, discarding
and returning cards, lasting hindrances, looking at a stack, taking an item.

An event that stays in front of an explorer is kept (``event.resolve-and-discard``); a lasting
hindrance (buried, stuck) is a status kept with its card until the explorer or someone in the room
makes the escape roll (:func:`_escape`). A peek at a stack fixes the top card by a chance draw that
stays on top, so later draws take the known card first (:func:`_peek`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hauntcheck.engine.betrayal.effects.context import Ctx, _who, source_rule
from hauntcheck.engine.betrayal.effects.interpreter import run
from hauntcheck.engine.betrayal.effects.movement import destination
from hauntcheck.engine.betrayal.effects.rolls import _roll_once
from hauntcheck.engine.betrayal.effects.triggers import _discard_status_card, card_stolen, gain_card, lose_card
from hauntcheck.engine.betrayal.model import SIDES
from hauntcheck.engine.core import Action

# Square tokens an arrival puts where it lands; in a barrier room they keep that side for later arrivals.
ARRIVAL_TOKENS = frozenset({"below-collapsed-room"})

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.state import BetrayalState, Gen


def _draw(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    for _ in range(int(spec.get("count", 1))):
        yield from st.draw_card(ctx.seat, str(spec["type"]))


def _place_token(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    token = str(spec["token"])
    room = st.ex[ctx.seat].room
    if "where" in spec:
        chosen = yield from destination(st, spec["where"], ctx)
        if chosen is None:
            return
        room = chosen
    for _ in range(int(spec.get("count", 1))):
        st.tokens.setdefault(room, []).append(token)
    e = st.ex[ctx.seat]
    if token in ARRIVAL_TOKENS and len(st.t.rooms[room].barrier) >= 2 and e.room == room:
        st.token_parts[token] = e.part
        side = SIDES[(st.t.rooms[room].barrier[e.part] + st.house.spots[room].rotation) % 4]
        st.emit("room.barrier.token-side-fixed", f"the {token} token stays on the {side} side of {st.room_name(room)}, "
                f"where {st.name(ctx.seat)} landed", token=token, side=side, room=room, seat=ctx.seat)
    if spec.get("abilities"):
        st.token_abilities[token] = tuple(spec["abilities"])
    ctx.kept = ctx.kept or "house"  # the card's effect stays in the house as a token
    rule = "room.vault.empty-token" if token == "vault-empty" else (
        "room.collapsed-room.below-token" if token == "below-collapsed-room" else "glossary.tokens")
    st.emit(rule, f"the {token} token is placed in {st.room_name(room)}", token=token, room=room)


def _remove_token(st: BetrayalState, token: Any, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    room = st.ex[ctx.seat].room
    if token in st.tokens.get(room, []):
        st.tokens[room].remove(token)
        st.emit("glossary.tokens", f"the {token} token is removed from {st.room_name(room)}", token=token, room=room)
        if not st.tokens[room]:
            del st.tokens[room]
        card = _token_card(st, str(token))
        if card and card in st.token_cards:
            st.token_cards.remove(card)
            st.discards["event"].append(card)
    return
    yield


def _token_card(st: BetrayalState, token: str) -> str | None:
    for cid, cdef in st.t.cards.items():
        for a in cdef.abilities:
            for eff in a.get("do", []):
                if eff.get("place_token", {}).get("token") == token:
                    return cid
    return None


def _discard_self(st: BetrayalState, value: Any, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    kind, _, card = ctx.source.partition(":")
    if kind not in ("card", "kept"):
        return
    for s, e in st.ex.items():
        if card in e.cards:
            e.cards.remove(card)
            st.discards[st.t.cards[card].type].append(card)
            st.emit("card.read-aloud", f"{st.card_name(card)} is discarded", card=card)
            yield from lose_card(st, s, card)
            return
        if card in e.kept:
            e.kept.remove(card)
            st.discards["event"].append(card)
            st.emit("event.resolve-and-discard", f"{st.card_name(card)} is discarded", card=card)
            return
    if card in st.resolving:
        st.resolving.remove(card)
        st.discards["event"].append(card)
        st.emit("event.resolve-and-discard", f"{st.card_name(card)} is discarded", card=card)


def _keep(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    card = ctx.source.partition(":")[2]
    if spec.get("abilities"):
        st.kept_abilities[card] = tuple(spec["abilities"])
    st.kept_until[card] = tuple(spec.get("until", ()))
    st.item_raised.discard(ctx.seat)  # only items that raise a trait from now on end the effect
    if spec.get("status"):
        yield from _status(st, spec["status"], ctx, eff)
    ctx.kept = "player"
    st.emit("event.resolve-and-discard", f"{st.card_name(card)} stays in front of {st.name(ctx.seat)} (lasting effect)",
        card=card, seat=ctx.seat)


def _status(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    name = str(spec["name"])
    st.status_rules[name] = dict(spec)
    st.ex[ctx.seat].status[name] = 0
    card = ctx.source.partition(":")[2]
    st.status_cards[(ctx.seat, name)] = card
    ctx.kept = "player"
    st.emit("card.read-aloud", f"{st.name(ctx.seat)} is {name}: they keep {st.card_name(card)} and can do nothing until freed",
        seat=ctx.seat, status=name, card=card)
    if ctx.seat == st.current:
        st.turn.stopped = True
        st.turn.stop_rule = "card.read-aloud"  # the status card's own text holds the explorer
    return
    yield


def _escape(st: BetrayalState, helper: str, seat: str, name: str) -> Gen[None]:
    rule = st.status_rules[name]["escape_roll"]
    st.turn.keys.add(f"escape:{seat}:{name}")
    ctx = Ctx(helper, f"status:{name}")
    total = yield from _roll_once(st, helper, str(rule["trait"]), {}, ctx)
    if total >= int(rule["target"]):
        del st.ex[seat].status[name]
        st.emit("roll.target-at-least", f"{total} against {rule['target']}+: {st.name(seat)} is freed ({name})",
            total=total, need=rule["target"], seat=seat, status=name)
        _discard_status_card(st, seat, name)
        on_escape = st.status_rules[name].get("on_escape")
        if on_escape:
            yield from run(st, on_escape, Ctx(seat, f"status:{name}"))
    else:
        st.ex[seat].status[name] += 1
        st.emit("roll.target-at-least", f"{total} against {rule['target']}+: {st.name(seat)} stays {name} "
                f"({st.ex[seat].status[name]} failed)", total=total, need=rule["target"], seat=seat, status=name)
        if helper != seat and rule.get("helper_fail_stops_helper"):
            st.turn.stopped = True


def _peek(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    """Looking at a stack. The room stack's top tile is fixed by a chance draw that stays on top
    (Spirit Board). Card stacks (``card.peek-known-top``): the cards looked at are drawn by chance
    into a known, ordered top of the stack; with ``reorder`` the player puts them back in the
    chosen order (``card.peek-reorder``, It Is Meant to Be); with ``chosen_to_top`` the player
    searches the stack for one card, which ends on top of the shuffled rest (``card.peek-search``,
    Crystal Ball). Later draws take the known top first."""
    stack = spec["stack"]
    if stack == "room" and spec["count"] == 1:
        if st.room_top is None and st.stack:
            st.room_top = yield from st.draw_from(list(st.stack), "tile", "the top room tile")
        seen = st.room_top
        st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} looks at the top of the room stack: "
                f"{st.room_name(seen) if seen else 'nothing'}", seat=ctx.seat, room=seen)
        return
    kinds = {"any": ("omen", "item", "event"), "item-or-event": ("item", "event")}.get(stack, (stack,))
    kinds = tuple(k for k in kinds if st.decks.get(k))
    if not kinds:
        st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} has no card stack to look at", seat=ctx.seat)
        return
    kind = kinds[0]
    if len(kinds) > 1:
        a = yield from st.ask(ctx.seat, [Action.of("stack", stack=k) for k in kinds], "choose a stack to look at")
        kind = str(a["stack"])
    if spec.get("chosen_to_top"):
        cards = sorted(set(st.decks[kind]))
        a = yield from st.ask(ctx.seat, [Action.of("search", card=c) for c in cards], f"choose a card of the {kind} stack")
        card = str(a["card"])
        st.deck_tops[kind] = [card]  # the rest is shuffled under it: nothing else is known
        st.emit("card.peek-search", f"{st.name(ctx.seat)} searches the {kind} stack and puts {st.card_name(card)} "
                "on top of the shuffled rest", seat=ctx.seat, kind=kind, card=card)
        return
    count = len(st.decks[kind]) if spec["count"] == "all" else int(spec["count"])
    looked = yield from st.peek_cards(kind, count)
    st.emit("card.peek-known-top", f"{st.name(ctx.seat)} looks at the top {len(looked)} {kind} card(s)"
            + ("" if spec.get("secret") else ": " + ", ".join(st.card_name(c) for c in looked)),
            seat=ctx.seat, kind=kind, count=len(looked), cards=None if spec.get("secret") else looked)
    if not spec.get("reorder") or len(looked) < 2:
        return
    order: list[str] = []
    left = list(looked)
    while len(left) > 1:
        a = yield from st.ask(ctx.seat, [Action.of("next-on-top", card=c) for c in sorted(left)],
                              f"put back the {kind} cards: which comes next from the top")
        order.append(str(a["card"]))
        left.remove(str(a["card"]))
    order += left
    st.deck_tops[kind] = order + st.deck_tops[kind][len(looked):]
    st.emit("card.peek-reorder", f"{st.name(ctx.seat)} puts the {len(order)} {kind} cards back in a chosen order",
        seat=ctx.seat, count=len(order), kind=kind)


def _take_item(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    victims = _who(st, spec["from"], ctx)
    choices = [Action.of("take", card=c, owner=s) for s in victims for c in st.ex[s].cards
               if st.t.cards[c].type == "item" and st.t.cards[c].can_steal]
    if not choices:
        st.emit(source_rule(st, ctx), "nothing to take")
        return
    a = yield from st.ask(ctx.seat, choices, "choose an item to take")
    card, owner = str(a["card"]), str(a["owner"])
    st.ex[owner].cards.remove(card)
    st.ex[ctx.seat].cards.append(card)
    st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} takes {st.card_name(card)} from {st.name(owner)}",
        seat=ctx.seat, card=card, owner=owner)
    yield from card_stolen(st, owner, card)
    yield from gain_card(st, ctx.seat, card)


def _return_card(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    from hauntcheck.engine.core import Draw

    e = st.ex[ctx.seat]
    types = ("item",) if spec["type"] == "item" else ("item", "omen")
    cards = [c for c in e.cards if st.t.cards[c].type in types]
    if not cards:
        st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} has no card to give up", seat=ctx.seat)
        return
    if spec.get("random"):
        if len(cards) == 1:
            card = cards[0]
        else:
            from hauntcheck.engine.betrayal.state import Req

            a = yield Req("chance", Draw(cards, arg="card"), "a card at random")
            card = str(a["card"])
    else:
        a = yield from st.ask(ctx.seat, [Action.of("give", card=c) for c in cards], "choose a card to give up")
        card = str(a["card"])
    e.cards.remove(card)
    kind = st.t.cards[card].type
    if spec["to"] == "discard":
        st.discards[kind].append(card)
        st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} discards {st.card_name(card)}", seat=ctx.seat, card=card)
    else:
        st.decks[kind] = sorted([*st.decks[kind], card])
        st.deck_tops[kind] = []  # shuffled: cards looked at are no longer known on top
        st.emit(source_rule(st, ctx), f"{st.card_name(card)} goes back into the {kind} stack, which is shuffled", card=card, kind=kind)
    yield from lose_card(st, ctx.seat, card)


def _move_card(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    e = st.ex[ctx.seat]
    cards = [c for c in e.cards if st.t.cards[c].type == "item"]
    if not cards:
        return
    room = yield from destination(st, spec["to"], ctx)
    if room is None:
        return
    a = yield from st.ask(ctx.seat, [Action.of("give", card=c) for c in cards], "choose the item that is blown away")
    card = str(a["card"])
    e.cards.remove(card)
    st.piles.setdefault(room, []).append(card)
    st.emit(source_rule(st, ctx), f"{st.card_name(card)} ends up in an item pile in {st.room_name(room)}", card=card, room=room)
    yield from lose_card(st, ctx.seat, card)
