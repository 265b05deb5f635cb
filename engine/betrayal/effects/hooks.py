"""The named hooks of rooms and cards: what the effect vocabulary cannot say, in a few lines of code each.

A spec writes ``{custom: <hook>, says: ...}`` where its text needs code; the name is looked up in
:data:`EFFECT_HOOKS` (an effect), :data:`ONGOING_HOOKS` (re-checked whenever an explorer's cards
change: the Bell, Book and Candle set) or :data:`CONDITION_HOOKS` (a condition). A name no table
holds is reported as not simulated before the haunt. The haunt phase's own hooks are elsewhere,
one module per haunt in :mod:`hauntcheck.engine.betrayal.hooks`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from hauntcheck.engine.betrayal.effects.context import Ctx
from hauntcheck.engine.betrayal.effects.interpreter import CONDITION_HOOKS, ONGOING_HOOKS, run
from hauntcheck.engine.betrayal.effects.movement import _move_tile
from hauntcheck.engine.betrayal.effects.triggers import gain_card, lose_card
from hauntcheck.engine.betrayal.model import TRAITS
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.state import BetrayalState, Gen


def _hook_bell_book_candle(st: BetrayalState, seat: str, card: str, holds: bool) -> Gen[None]:
    key = f"{seat}/{card}"
    if holds and key not in st.set_bonus:
        st.set_bonus.add(key)
        st.emit("card.read-aloud", f"{st.name(seat)} holds the Bell, the Book and the Candle: every trait rises by 2", seat=seat)
        for trait in TRAITS:
            st.trait_change(seat, trait, 2, card=card)
    elif not holds and key in st.set_bonus:
        st.set_bonus.discard(key)
        st.emit("card.read-aloud", f"the Bell, Book and Candle set is broken: every trait of {st.name(seat)} drops by 2", seat=seat)
        for trait in TRAITS:
            st.trait_change(seat, trait, -2, card=card)
    return
    yield


def _hook_junk_exit(st: BetrayalState, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    if ctx.seat == st.current and st.turn.moved + 1 > st.speed(ctx.seat) + st.turn.extra:
        st.turn.short_exit = True
        st.emit("room.junk-room.always-escapes", f"{st.name(ctx.seat)} has too little Speed left but still gets out; "
                "movement stops in the next room", seat=ctx.seat)
    return
    yield


def _hook_music_toggle(st: BetrayalState, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    card = ctx.source.partition(":")[2]
    if card in st.open_boxes:
        st.open_boxes.discard(card)
        st.emit("card.read-aloud", f"{st.name(ctx.seat)} closes the {st.card_name(card)}", seat=ctx.seat, card=card)
    else:
        st.open_boxes.add(card)
        st.emit("card.read-aloud", f"{st.name(ctx.seat)} opens the {st.card_name(card)}", seat=ctx.seat, card=card)
    return
    yield


def _hook_music_drop(st: BetrayalState, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    e = st.ex[ctx.seat]
    for card in list(e.cards):
        if card in st.open_boxes or any(x.get("custom") == "music-box-toggle" for a in st.t.cards[card].abilities
                                        for x in a.get("do", [])):
            e.cards.remove(card)
            st.piles.setdefault(e.room, []).append(card)
            st.emit("card.read-aloud", f"{st.name(ctx.seat)} is mesmerized and drops the {st.card_name(card)}", seat=ctx.seat, card=card)
            yield from lose_card(st, ctx.seat, card)


def _music_open_here(st: BetrayalState, ctx: Ctx) -> bool:
    room = st.ex[ctx.seat].room
    for card in st.open_boxes:
        if card in st.piles.get(room, []):
            return True
        for x in st.ex.values():
            if card in x.cards and x.room == room:
                return True
    return False


def _hook_jonah(st: BetrayalState, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    for seat, e in sorted(st.ex.items()):
        if "puzzle-box" in e.cards:
            e.cards.remove("puzzle-box")
            st.discards["item"].append("puzzle-box")
            st.emit("card.read-aloud", f"{st.name(seat)} discards the Puzzle Box and draws a replacement item", seat=seat)
            yield from lose_card(st, seat, "puzzle-box")
            yield from st.draw_card(seat, "item")
            return


def _hook_pass_left(kind: str) -> Callable[..., Gen[None]]:
    def hook(st: BetrayalState, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
        card = ctx.source.partition(":")[2]
        for k in range(1, st.n):
            other = st.left_of(ctx.seat, k)
            o = st.ex[other]
            if (kind == "item" and any(st.t.cards[c].type == "item" for c in o.cards)) or (
                kind == "not-basement" and st.house.floor_of(o.room) != "basement"
            ):
                st.emit("card.read-aloud", f"{st.card_name(card)} passes to {st.name(other)}", card=card, to=other)
                sub = Ctx(other, ctx.source)
                for ability in st.t.cards[card].abilities:
                    if ability.get("trigger") == "on-draw":
                        if kind == "not-basement":
                            yield from run(st, ability["do"][0]["if"]["else"], sub)
                        else:
                            yield from run(st, ability["do"][0]["if"]["then"], sub)
                ctx.kept = ctx.kept or sub.kept
                return
        st.emit("card.read-aloud", f"nobody qualifies: {st.card_name(card)} has no effect", card=card)

    return hook


#: How many spaces away the Dog fetches or carries an item.
DOG_REACH = 6


def _hook_dog(st: BetrayalState, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    """The Dog runs up to 6 spaces through explored rooms (no one-way passages, no rolls) and
    back: it fetches one item from a pile there, or carries one of yours to a room there."""
    e = st.ex[ctx.seat]
    carriable = [c for c in e.cards if st.t.cards[c].can_drop and c not in st.turn.items_acted]
    near: list[str] = []
    if st.piles or carriable:  # where the Dog reaches matters only with something to fetch or carry
        # as movement goes: no barrier crossed without its roll
        near = sorted(st.walking_distances(ctx.seat, within=DOG_REACH))
    acts = [Action.of("dog", fetch=c, room=r) for r in near for c in st.piles.get(r, ())
            if st.t.cards[c].item and c not in st.turn.items_acted]
    acts += [Action.of("dog", carry=c, room=r) for c in carriable for r in near if r != e.room]
    acts.append(Action.of("dog", stay=True))
    a = yield from st.ask(ctx.seat, acts, "send the Dog")
    room = a.get("room")
    if a.get("fetch") is not None and isinstance(room, str):
        card = str(a["fetch"])
        st.piles[room].remove(card)
        if not st.piles[room]:
            del st.piles[room]
        e.cards.append(card)
        st.turn.items_acted.add(card)
        st.emit("card.read-aloud", f"the Dog fetches {st.card_name(card)} from {st.room_name(room)} for {st.name(ctx.seat)}",
            card=card, room=room, seat=ctx.seat)
        yield from gain_card(st, ctx.seat, card)
    elif a.get("carry") is not None and isinstance(room, str):
        card = str(a["carry"])
        e.cards.remove(card)
        st.piles.setdefault(room, []).append(card)
        st.turn.items_acted.add(card)
        st.emit("card.read-aloud", f"the Dog carries {st.card_name(card)} to {st.room_name(room)}", card=card, room=room)
        yield from lose_card(st, ctx.seat, card)
    else:
        st.emit("card.read-aloud", "the Dog stays")


def _hook_elevator_steer(st: BetrayalState, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    """``traitor.elevator-choice``: the traitor sends the Mystic Elevator beside any open door of
    any floor (or keeps it where it is) without rolling; a move never seals a floor."""
    yield from villain_elevator(st, ctx.seat, st.ex[ctx.seat].room, st.name(ctx.seat))


def villain_elevator(st: BetrayalState, seat: str, room: str, who: str) -> Gen[None]:
    """The traitor (or, for a monster, its controller ``seat``) enters the Mystic Elevator:
    no roll, the player chooses where it goes (``room.mystic-elevator.villains-choose``), but the
    tile moves only the first time the traitor or a monster enters it in each set of traitor and
    monster turns (``room.mystic-elevator.once-per-villain-round``)."""
    if st.elevator_villain_round == st.villain_round():
        st.emit("room.mystic-elevator.once-per-villain-round", f"{who} enters the {st.room_name(room)}, which already "
                "moved for the traitor's side this round: it stays", seat=seat, room=room)
        return
    st.elevator_villain_round = st.villain_round()
    st.emit("room.mystic-elevator.villains-choose", f"{who} rides the {st.room_name(room)} without rolling", seat=seat, room=room)
    st.emit("traitor.elevator-choice", f"{st.name(seat)} chooses where the {st.room_name(room)} goes", seat=seat, room=room)
    spec = {"tile": "this-room", "floor": "any", "if_no_spot": "stay", "steer": True, "room": room}
    yield from _move_tile(st, spec, Ctx(seat, f"room:{room}"), {})


EFFECT_HOOKS: dict[str, Callable[..., Gen[None]]] = {
    "mystic-elevator-steer": _hook_elevator_steer,
    "dog-fetch": _hook_dog,
    "junk-room-short-exit": _hook_junk_exit,
    "music-box-toggle": _hook_music_toggle,
    "music-box-drop": _hook_music_drop,
    "jonah-swap-puzzle-box": _hook_jonah,
    "mirror-pass-left": _hook_pass_left("item"),
    "slide-redirect": _hook_pass_left("not-basement"),
}


def _elevator_stayed(st: BetrayalState, ctx: Ctx) -> bool:
    turn = st.turn
    return ctx.seat == turn.seat and not turn.left_room and turn.start_room == st.ex[ctx.seat].room


ONGOING_HOOKS.update({
    "bell-book-candle": _hook_bell_book_candle,
})


CONDITION_HOOKS.update({
    "below-collapsed-token-placed": lambda st, ctx: any("below-collapsed-room" in t for t in st.tokens.values()),
    "vault-opened": lambda st, ctx: "vault-empty" in st.tokens.get(st.ex[ctx.seat].room, []),
    "elevator-stayed-whole-turn": _elevator_stayed,
    "music-box-open": _music_open_here,
    "item-raised-trait": lambda st, ctx: ctx.seat in st.item_raised,
    "mask-worn": lambda st, ctx: ctx.source.partition(":")[2] in st.masks_worn,
})
