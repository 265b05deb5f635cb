"""The moments of a turn that fire abilities: entering, leaving and discovering rooms, a turn's
start and end, and cards drawn, gained, lost or stolen.

A room's abilities with a trigger run for an explorer in that room (:func:`run_triggered`): each
only where it applies and within its limit, not for an explorer whose held omen beats the room's
text, not while the haunt jams the room, and the traitor may ignore a room's harmful text. At the
start of a turn lasting hindrances may lapse after failed escapes and held cards' start-of-turn
abilities run; at its end the room's end-of-turn text runs and kept events whose ``until``
condition holds are discarded. A discovered room's on-discover text runs, then its card symbol is
drawn, then its entry text (``room.card-before-text``). A drawn card's on-draw abilities say
whether an event stays with the explorer, in the house as a token, or is discarded
(:func:`card_drawn`); gaining, losing and having a card stolen run its own triggers and re-check
the held-set bonuses (:data:`ONGOING_HOOKS`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal.effects.abilities import (
    _applies,
    _immune,
    _limit_ok,
    _use_limit,
    held_abilities_with,
    room_abilities_with,
)
from hauntcheck.engine.betrayal.effects.context import Ctx, _key, _source_name, _who, source_rule
from hauntcheck.engine.betrayal.effects.interpreter import ONGOING_HOOKS, condition, run
from hauntcheck.engine.core import Action

# The clause a room's ability carries out when its once-per-turn limit keeps it from working again.
ROOM_LIMIT_RULES: dict[str, str] = {"room:mystic-elevator": "room.mystic-elevator.once-per-turn"}

# The clause that lets the traitor pass a room's harmful text, where the room has its own.
ROOM_PASS_RULES: dict[str, str] = {"room:collapsed-room": "room.collapsed-room.traitor-monster-pass"}

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.state import BetrayalState, Gen


def run_triggered(st: BetrayalState, seat: str, trigger: str, room: str, discovering: bool = False) -> Gen[None]:
    """Run the room's (and its tokens') abilities with this trigger for the explorer."""
    if st.ex[seat].dead:
        return
    for source, index, ability in room_abilities_with(st, room, (trigger,)):
        if st.ex[seat].room != room and trigger != "exit":
            continue
        if not _applies(st, seat, ability):
            continue
        if not _limit_ok(st, seat, source, index, ability):
            if source in ROOM_LIMIT_RULES and trigger == "enter":
                st.emit(ROOM_LIMIT_RULES[source], f"{st.name(seat)} has used the {st.room_name(room)} this turn: it does not work again",
                    seat=seat, room=room)
            continue
        ctx = Ctx(seat, source, discovering=discovering, rule=str(ability.get("rule", "")))
        if "condition" in ability and not condition(st, ability["condition"], ctx):
            continue
        if source.startswith("room:") and _immune(st, seat, room):
            st.emit("card.card-beats-book", f"{st.name(seat)} is immune to the {st.room_name(room)}'s text (held omen)",
                seat=seat, room=room)
            continue
        if source.startswith("room:") and st.room_jammed(room):
            st.emit("haunt.rules-override", f"the {st.room_name(room)} does not work now (haunt)", room=room)
            continue
        if source.startswith("room:") and st.spares_room(seat, room):
            st.emit("haunt.rules-override", f"the {st.room_name(room)} does not affect {st.name(seat)} (haunt status)",
                seat=seat, room=room)
            continue
        if source.startswith("room:") and st.waives_room_text(seat, ability):
            st.emit("haunt.rules-override", f"{st.name(seat)} is spared the {st.room_name(room)}'s roll or damage (haunt status)",
                seat=seat, room=room)
            continue
        if (ability.get("exemptions", {}).get("traitor_may_ignore") and st.haunt is not None
                and st.haunt.get("traitor") == seat):
            a = yield from st.ask(seat, [Action.of("suffer-room", ability=_key(source, index)),
                                         Action.of("ignore-room", ability=_key(source, index))],
                                  f"the traitor may ignore {source}")
            if a.kind == "ignore-room":
                st.emit(ROOM_PASS_RULES.get(source, "traitor.room-text"),
                        f"{st.name(seat)} (the traitor) ignores the {st.room_name(room)}'s harmful text", seat=seat, room=room)
                continue
        _use_limit(st, seat, source, index, ability)
        if trigger == "enter" and not discovering and source.startswith("room:"):
            st.emit("room.text-applies-each-entry", f"the {st.room_name(room)}'s text applies on every entry, not only its discovery",
                room=room)
        if ability.get("says"):
            st.emit(source_rule(st, ctx), f"{st.room_name(room)}: {ability['says']}", room=room)
        if source == "room:coal-chute" and st.haunt is not None and st.haunt.get("traitor") == seat:
            st.emit("traitor.coal-chute", f"{st.name(seat)} is the traitor and still slides", seat=seat)
        if ability.get("optional") and not trigger.startswith("on-"):
            a = yield from st.ask(seat, [Action.of("use", ability=_key(source, index)), Action.of("skip")],
                                  f"use {source}")
            if a.kind == "skip":
                continue
        yield from run(st, ability.get("do", []), ctx)


def has_triggered(st: BetrayalState, room: str, trigger: str) -> bool:
    """Whether the room (or a token lying in it) has an ability with this trigger. Most rooms have
    none for a given moment, and entering, leaving and a turn's end come at nearly every step, so
    :func:`run_triggered` (a generator made and driven to its end) is run only when there are some:
    with none it does nothing."""
    return bool(room_abilities_with(st, room, (trigger,)))


def start_of_turn(st: BetrayalState, seat: str) -> Gen[None]:
    e = st.ex[seat]
    for name, fails in sorted(e.status.items()):
        auto = st.status_rules.get(name, {}).get("auto_free_after_failures")
        if auto and fails >= auto:
            del e.status[name]
            _discard_status_card(st, seat, name)
            st.emit("card.read-aloud", f"{st.name(seat)} breaks free ({name}) after {fails} failed attempts",
                seat=seat, status=name, count=fails)
    for source, _index, ability in held_abilities_with(st, seat, "start-of-turn"):
        if not _applies(st, seat, ability):
            continue
        ctx = Ctx(seat, source)
        if "condition" in ability and not condition(st, ability["condition"], ctx):
            continue
        if ability.get("says"):
            st.emit("card.read-aloud", f"{_source_name(st, source)}: {ability['says']}", source=source)
        yield from run(st, ability.get("do", []), ctx)


def end_of_turn(st: BetrayalState, seat: str) -> Gen[None]:
    e = st.ex[seat]
    if has_triggered(st, e.room, "end-of-turn"):
        yield from run_triggered(st, seat, "end-of-turn", e.room)
    for card in list(e.kept):
        until = st.kept_until.get(card, ())
        ctx = Ctx(seat, f"kept:{card}")
        if any(condition(st, c, ctx) for c in until):
            e.kept.remove(card)
            st.discards["event"].append(card)
            st.emit("event.resolve-and-discard", f"{st.card_name(card)}'s lasting effect ends; it is discarded", card=card)


def leave_room(st: BetrayalState, seat: str) -> Gen[bool]:
    """Exit abilities before leaving by movement; False if the explorer stays (chose to retry)."""
    e = st.ex[seat]
    room = e.room
    before = st.turn.stopped
    if has_triggered(st, room, "exit"):
        yield from run_triggered(st, seat, "exit", room)
    if st.turn.stopped and not before:
        return False
    return e.room == room


def enter_room(st: BetrayalState, seat: str, discovering: bool) -> Gen[None]:
    e = st.ex[seat]
    room = e.room
    if e.dead:
        return
    for card in [c for c in st.piles.get(room, ()) if st.t.cards[c].companion]:
        if st.ex[seat].dead:  # read afresh: an earlier companion may have killed the explorer
            return
        st.piles[room].remove(card)
        if not st.piles[room]:
            del st.piles[room]
        e.cards.append(card)
        st.emit("death.companion-custody", f"{st.name(seat)} gains custody of the {st.card_name(card)}", seat=seat, card=card)
        yield from gain_card(st, seat, card)
    symbol = st.t.rooms[room].symbol
    if not discovering and symbol in ("omen", "item", "event") and not st.quiet:  # the text is work: skipped when nobody reads the events
        st.emit("card.first-discoverer-only", f"{st.room_name(room)} was discovered before: {st.name(seat)} draws no {symbol} card",
            room=room, seat=seat, kind=symbol)
    if has_triggered(st, room, "enter"):
        yield from run_triggered(st, seat, "enter", room, discovering=discovering)


def discovered(st: BetrayalState, seat: str, room: str) -> Gen[None]:
    """A room just discovered by this explorer: its on-discover text, its card, then its text."""
    if has_triggered(st, room, "on-discover"):
        yield from run_triggered(st, seat, "on-discover", room, discovering=True)
    symbol = st.t.rooms[room].symbol
    if symbol in ("omen", "item", "event"):
        if not st.quiet:  # the text is work: skipped when nobody reads the events
            st.emit("card.draw-on-discovery", f"{st.room_name(room)} shows the {symbol} symbol: {st.name(seat)} draws an {symbol} card"
                    if symbol != "item" else f"{st.room_name(room)} shows the item symbol: {st.name(seat)} draws an item card",
                    room=room, seat=seat, kind=symbol)
        yield from st.draw_card(seat, symbol, ctx_room=room)
        if st.ex[seat].room == room and st.t.rooms[room].abilities:
            st.emit("room.card-before-text", f"the card came first; the {st.room_name(room)}'s text applies after it", room=room)
    if st.ex[seat].room == room:
        yield from enter_room(st, seat, discovering=True)


#: Cards besides events whose drawing the traitor may refuse (``traitor.refuse-events`` names the Bite).
TRAITOR_MAY_REFUSE = frozenset({"bite"})


def card_drawn(st: BetrayalState, seat: str, card: str) -> Gen[str]:
    """Run a drawn card's on-draw abilities. Returns where an event card stays: "player"
    (kept in front of the explorer), "house" (as a token) or "" (discarded)."""
    cdef = st.t.cards[card]
    kept = ""
    if ((cdef.type == "event" or card in TRAITOR_MAY_REFUSE) and st.haunt is not None and st.haunt.get("traitor") == seat
            and any(a.get("trigger") == "on-draw" for a in cdef.abilities)):
        # traitor.refuse-events / traitor.accept-before-rolling: decided after reading, before any roll
        a = yield from st.ask(seat, [Action.of("accept-event", card=card), Action.of("refuse-event", card=card)],
                              f"accept or refuse {card}")
        refused = a.kind == "refuse-event"
        st.emit("traitor.refuse-events" if refused else "traitor.accept-before-rolling",
                f"{st.name(seat)} (the traitor) {'refuses' if refused else 'accepts'} {cdef.name}", seat=seat, card=card,
                refused=refused)
        if refused:
            return kept
    for i, ability in enumerate(cdef.abilities):
        if ability.get("trigger") != "on-draw":
            continue
        who = ability.get("who")
        targets = [seat] if who in (None, "self") else _who(st, who, Ctx(seat, f"card:{card}"))
        for target in targets:
            ctx = Ctx(target, f"card:{card}")
            if "condition" in ability and not condition(st, ability["condition"], ctx):
                continue
            if ability.get("says"):
                st.emit("card.read-aloud", f"{cdef.name}: {ability['says']}" + (f" ({target})" if target != seat else ""),
                        card=card, target=target)
            if ability.get("optional"):
                a = yield from st.ask(target, [Action.of("use", ability=f"card:{card}#{i}"), Action.of("skip")],
                                      f"resolve {card}")
                if a.kind == "skip":
                    continue
            yield from run(st, ability.get("do", []), ctx)
            kept = kept or ctx.kept
    return kept


def gain_card(st: BetrayalState, seat: str, card: str) -> Gen[None]:
    if st.t.cards[card].companion:
        st.emit("omen.companions", f"the {st.card_name(card)} is a companion: it goes wherever {st.name(seat)} goes", card=card, seat=seat)
    yield from _card_trigger(st, seat, card, "on-gain")
    yield from _set_bonuses(st, seat, card)


def lose_card(st: BetrayalState, seat: str, card: str) -> Gen[None]:
    yield from _card_trigger(st, seat, card, "on-loss")
    yield from _set_bonuses(st, seat, card)


def card_stolen(st: BetrayalState, seat: str, card: str) -> Gen[None]:
    """``card`` is stolen from ``seat`` (an attack's steal, a pickpocket): it is lost like any
    card, then its ``on-stolen`` abilities act on the explorer it was taken from (the Blood
    Dagger hurts them)."""
    yield from lose_card(st, seat, card)
    if any(a.get("trigger") == "on-stolen" for a in st.t.cards[card].abilities):
        st.emit("card.read-aloud", f"{st.card_name(card)} was stolen from {st.name(seat)}: its card says what that costs them",
            card=card, seat=seat)
        yield from _card_trigger(st, seat, card, "on-stolen")


def _set_bonuses(st: BetrayalState, seat: str, changed: str) -> Gen[None]:
    """Ongoing hooks that depend on what an explorer holds (the Bell, Book and Candle set),
    re-checked whenever a card arrives or leaves."""
    e = st.ex[seat]
    sources = set(e.cards) | {changed}
    for card in sorted(sources):
        for ability in st.t.cards[card].abilities:
            if ability.get("trigger") != "ongoing":
                continue
            for eff in ability.get("do", []):
                hook = ONGOING_HOOKS.get(str(eff.get("custom", "")))
                if hook is None:
                    continue
                holds = card in e.cards and condition(st, ability.get("condition", {}), Ctx(seat, f"card:{card}"))
                yield from hook(st, seat, card, holds)


def _card_trigger(st: BetrayalState, seat: str, card: str, trigger: str) -> Gen[None]:
    for ability in st.t.cards[card].abilities:
        if ability.get("trigger") == trigger:
            yield from run(st, ability.get("do", []), Ctx(seat, f"card:{card}"))


def _discard_status_card(st: BetrayalState, seat: str, name: str) -> None:
    card = st.status_cards.pop((seat, name), None)
    e = st.ex[seat]
    if card and card in e.kept:
        e.kept.remove(card)
        st.discards["event"].append(card)
