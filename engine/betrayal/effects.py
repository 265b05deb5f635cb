"""The effect vocabulary (``spec/schema/effects.schema.json``) interpreted once, for rooms, cards and tokens.

Rooms, cards and the tokens cards leave carry *abilities*: a trigger, conditions, a limit and a
list of effects. This module finds the abilities a moment calls for (entering or leaving a room,
ending a turn, drawing or gaining a card, an in-room or on-use action) and runs their effects as
generator code against :class:`~hauntcheck.engine.betrayal.state.BetrayalState`: decisions and
dice are yielded to the players and to chance like everything else.

What the vocabulary cannot say is written in the spec as ``{custom: <hook>, says: ...}``; those
names are looked up in :data:`EFFECT_HOOKS` and :data:`CONDITION_HOOKS`. A hook the engine does
not know is reported as an event (``card.read-aloud`` / ``room.text-applies-each-entry``) saying
that it is not simulated before the haunt, so a transcript never hides it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hauntcheck.engine.betrayal.house import Placement, rotate, step
from hauntcheck.engine.betrayal.model import FLOORS, MENTAL, PHYSICAL, SIDES, TRAITS, Ability
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


# The clause a room's ability carries out when its once-per-turn limit keeps it from working again.
ROOM_LIMIT_RULES: dict[str, str] = {"room:mystic-elevator": "room.mystic-elevator.once-per-turn"}
# Square tokens an arrival puts where it lands; in a barrier room they keep that side for later arrivals.
ARRIVAL_TOKENS = frozenset({"below-collapsed-room"})
# Roll-gated ways the traitor takes without the roll (the Revolving Wall's switch), by ability source.
TRAITOR_PASSES: dict[str, str] = {"token:wall-switch": "traitor.revolving-wall"}
# The clause that lets the traitor pass a room's harmful text, where the room has its own.
ROOM_PASS_RULES: dict[str, str] = {"room:collapsed-room": "room.collapsed-room.traitor-monster-pass"}


def source_rule(st: BetrayalState, ctx: Ctx) -> str:
    kind, _, ident = ctx.source.partition(":")
    if ctx.rule:
        return ctx.rule
    if kind == "room":
        return ROOM_RULES.get(ident, "room.text-applies-each-entry")
    if kind == "card":
        return "card.read-aloud"
    return "glossary.tokens"


# --------------------------------------------------------------------------------------------
# Whose abilities apply where


def room_abilities(st: BetrayalState, room: str) -> list[tuple[str, int, Ability]]:
    """(source, index, ability) for the room's own text and the tokens lying in it."""
    by_room: dict[str, list[tuple[str, int, Ability]]] = st.t.derived.setdefault("room_abilities", {})
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


def _key(source: str, index: int) -> str:
    return f"{source}#{index}"


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


def variant_on(st: BetrayalState, entry: Mapping[str, Any]) -> bool:
    """An ability or effect marked ``variant: X`` is active only with variant X switched on; one
    marked ``unless_variant: X`` only with it off (the default reading)."""
    v = entry.get("variant")
    if v is not None and v not in st.variants:
        return False
    u = entry.get("unless_variant")
    return u is None or u not in st.variants


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
    for _, _, a in held_abilities(st, seat):
        if a.get("trigger") == "ongoing":
            for eff in a.get("do", []):
                if room in eff.get("immune_to_rooms", []):
                    return True
    return False


def run_triggered(st: BetrayalState, seat: str, trigger: str, room: str, discovering: bool = False) -> Gen[None]:
    """Run the room's (and its tokens') abilities with this trigger for the explorer."""
    if st.ex[seat].dead:
        return
    for source, index, ability in room_abilities(st, room):
        if ability.get("trigger") != trigger or (st.ex[seat].room != room and trigger not in ("exit",)):
            continue
        if not _applies(st, seat, ability):
            continue
        if not _limit_ok(st, seat, source, index, ability):
            if source in ROOM_LIMIT_RULES and trigger == "enter":
                st.emit(ROOM_LIMIT_RULES[source], f"{st.name(seat)} has used the {st.room_name(room)} this turn: it does not work again")
            continue
        ctx = Ctx(seat, source, discovering=discovering, rule=str(ability.get("rule", "")))
        if "condition" in ability and not condition(st, ability["condition"], ctx):
            continue
        if source.startswith("room:") and _immune(st, seat, room):
            st.emit("card.card-beats-book", f"{st.name(seat)} is immune to the {st.room_name(room)}'s text (held omen)")
            continue
        if source.startswith("room:") and st.room_jammed(room):
            st.emit("haunt.rules-override", f"the {st.room_name(room)} does not work now (haunt)")
            continue
        if source.startswith("room:") and st.waives_room_text(seat, ability):
            st.emit("haunt.rules-override", f"{st.name(seat)} is spared the {st.room_name(room)}'s roll or damage (haunt status)")
            continue
        if (ability.get("exemptions", {}).get("traitor_may_ignore") and st.haunt is not None
                and st.haunt.get("traitor") == seat):
            a = yield from st.ask(seat, [Action.of("suffer-room", ability=_key(source, index)),
                                         Action.of("ignore-room", ability=_key(source, index))],
                                  f"the traitor may ignore {source}")
            if a.kind == "ignore-room":
                st.emit(ROOM_PASS_RULES.get(source, "traitor.room-text"),
                        f"{st.name(seat)} (the traitor) ignores the {st.room_name(room)}'s harmful text")
                continue
        _use_limit(st, seat, source, index, ability)
        if trigger == "enter" and not discovering and source.startswith("room:"):
            st.emit("room.text-applies-each-entry", f"the {st.room_name(room)}'s text applies on every entry, not only its discovery")
        if ability.get("says"):
            st.emit(source_rule(st, ctx), f"{st.room_name(room)}: {ability['says']}")
        if source == "room:coal-chute" and st.haunt is not None and st.haunt.get("traitor") == seat:
            st.emit("traitor.coal-chute", f"{st.name(seat)} is the traitor and still slides")
        if ability.get("optional") and not trigger.startswith("on-"):
            a = yield from st.ask(seat, [Action.of("use", ability=_key(source, index)), Action.of("skip")],
                                  f"use {source}")
            if a.kind == "skip":
                continue
        yield from run(st, ability.get("do", []), ctx)


# --------------------------------------------------------------------------------------------
# Moments of a turn


def start_of_turn(st: BetrayalState, seat: str) -> Gen[None]:
    e = st.ex[seat]
    for name, fails in sorted(e.status.items()):
        auto = st.status_rules.get(name, {}).get("auto_free_after_failures")
        if auto and fails >= auto:
            del e.status[name]
            _discard_status_card(st, seat, name)
            st.emit("card.read-aloud", f"{st.name(seat)} breaks free ({name}) after {fails} failed attempts")
    for source, _index, ability in held_abilities(st, seat):
        if ability.get("trigger") != "start-of-turn" or not _applies(st, seat, ability):
            continue
        ctx = Ctx(seat, source)
        if "condition" in ability and not condition(st, ability["condition"], ctx):
            continue
        if ability.get("says"):
            st.emit("card.read-aloud", f"{_source_name(st, source)}: {ability['says']}")
        yield from run(st, ability.get("do", []), ctx)


def end_of_turn(st: BetrayalState, seat: str) -> Gen[None]:
    e = st.ex[seat]
    yield from run_triggered(st, seat, "end-of-turn", e.room)
    for card in list(e.kept):
        until = st.kept_until.get(card, ())
        ctx = Ctx(seat, f"kept:{card}")
        if any(condition(st, c, ctx) for c in until):
            e.kept.remove(card)
            st.discards["event"].append(card)
            st.emit("event.resolve-and-discard", f"{st.card_name(card)}'s lasting effect ends; it is discarded")


def blocked(st: BetrayalState, seat: str) -> bool:
    e = st.ex[seat]
    return any("all" in st.status_rules.get(s, {}).get("blocks", ["all"]) or "move" in st.status_rules.get(s, {}).get(
        "blocks", []) for s in e.status)


def max_move(st: BetrayalState, seat: str) -> int | None:
    for _, _, a in held_abilities(st, seat):
        if a.get("trigger") == "ongoing":
            for eff in a.get("do", []):
                if "max_move" in eff:
                    return int(eff["max_move"])
    return None


def room_actions(st: BetrayalState, seat: str) -> list[Action]:
    """In-room abilities the explorer may use now, and the barrier crossing."""
    e = st.ex[seat]
    out = []
    rdef = st.t.rooms[e.room]
    for source, index, ability in room_abilities(st, e.room):
        trig = ability.get("trigger")
        if trig not in ("in-room", "cross"):
            continue
        if trig == "cross" and (len(rdef.barrier) < 2 or (st.movement_left(seat) <= 0 and st.turn.stopped)):
            continue
        if not _applies(st, seat, ability) or not _limit_ok(st, seat, source, index, ability):
            continue
        if _key(source, index) in st.turn.keys or (source.startswith("room:") and st.room_jammed(e.room)):
            continue
        ctx = Ctx(seat, source)
        if "condition" in ability and not condition(st, ability["condition"], ctx):
            continue
        if st.closed_floors and leads_to_closed_floor(st, ability.get("do", [])):
            continue  # haunt.floor-removed: a drop to a floor out of play is not offered
        if trig == "cross" and st.turn.stopped:
            continue
        out.append(Action.of("cross" if trig == "cross" else "use", ability=_key(source, index)))
    return out


def card_actions(st: BetrayalState, seat: str) -> list[Action]:
    """On-use abilities of held cards that can be used at any time in the turn."""
    out = []
    for source, index, ability in held_abilities(st, seat):
        if ability.get("trigger") != "on-use" or not _applies(st, seat, ability):
            continue
        timing = ability.get("timing", "any-time-in-turn")
        if timing not in ("any-time-in-turn", "before-moving"):
            continue  # roll adjustments are offered only around a roll (not simulated in part 1)
        if timing == "before-moving" and (st.turn.moved or st.turn.left_room):
            continue
        card = source.partition(":")[2]
        if source.startswith("card:") and card in st.turn.items_acted:
            continue
        if not _limit_ok(st, seat, source, index, ability) or _key(source, index) in st.turn.keys:
            continue
        ctx = Ctx(seat, source)
        if "condition" in ability and not condition(st, ability["condition"], ctx):
            continue
        if all("custom" in eff and eff["custom"] not in EFFECT_HOOKS for eff in ability.get("do", [])):
            continue  # nothing the engine can do yet (reported in docs/betrayal-engine.md)
        out.append(Action.of("use", ability=_key(source, index)))
    return out


def status_actions(st: BetrayalState, seat: str) -> list[Action]:
    """Escape rolls from lasting hindrances (buried, stuck) for yourself or someone here."""
    out: list[Action] = []
    if not any(x.status for x in st.ex.values()):
        return out
    e = st.ex[seat]
    for other_seat, other in sorted(st.ex.items()):
        if other.room != e.room:
            continue
        for name in sorted(other.status):
            rule = st.status_rules.get(name, {}).get("escape_roll")
            if not rule:
                continue
            if other_seat != seat and rule.get("by", "self") == "self":
                continue
            key = f"escape:{other_seat}:{name}"
            if key in st.turn.keys:
                continue
            out.append(Action.of("free", who=other_seat, status=name))
    return out


def do_action(st: BetrayalState, seat: str, a: Action) -> Gen[None]:
    if a.kind == "free":
        yield from _escape(st, seat, str(a["who"]), str(a["status"]))
        return
    key = str(a["ability"])
    source, _, idx = key.rpartition("#")
    index = int(idx)
    ability = _ability_of(st, source, index)
    _use_limit(st, seat, source, index, ability)
    st.turn.keys.add(key)
    ctx = Ctx(seat, source)
    if source.startswith("card:"):
        st.turn.items_acted.add(source.partition(":")[2])
        st.emit("item.once-per-turn-use", f"{st.name(seat)} uses {_source_name(st, source)}")
    if a.kind == "cross":
        st.emit("room.barrier.once-per-turn", f"{st.name(seat)} tries to cross the barrier of {st.room_name(st.ex[seat].room)}")
        stopped = st.turn.stopped
        yield from run(st, ability.get("do", []), ctx)
        if st.turn.stopped and not stopped:
            st.emit("room.barrier.fail-ends-move", f"{st.name(seat)} fails to cross; movement ends")
        elif ctx.passed is not False:
            e = st.ex[seat]
            e.part = 1 - e.part
            st.emit("room.barrier.crossing-free", f"{st.name(seat)} crosses to the far side (no space used)")
        return
    if ability.get("says") and source.startswith(("room:", "token:")):
        st.emit(source_rule(st, ctx), f"{_source_name(st, source)}: {ability['says']}")
    if source == "room:vault" and st.haunt is not None and st.haunt.get("traitor") == seat:
        st.emit("room.vault.traitor-rolls", f"{st.name(seat)} is the traitor but still rolls to open the Vault")
    if source in TRAITOR_PASSES and st.haunt is not None and st.haunt.get("traitor") == seat:
        st.emit(TRAITOR_PASSES[source], f"{st.name(seat)} is the traitor and passes {_source_name(st, source)} without rolling")
        for step in ability.get("do", []):
            yield from run(st, step["roll"].get("pass", []) if "roll" in step else [step], ctx)
        return
    if source == "room:collapsed-room":
        st.emit("room.collapsed-room.later-optional", f"{st.name(seat)} jumps down on purpose")
        st.emit("room.collapsed-room.fall-free", "the fall uses no space of movement")
    who = ability.get("who")
    if who in ("self-or-explorer-here", "chosen-explorer-here"):
        targets = _who(st, who, ctx)
        t = yield from _pick_seat(st, seat, targets, "choose whom the card helps")
        ctx.seat = t
        ctx.actor = seat
    yield from run(st, ability.get("do", []), ctx)


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


def leave_room(st: BetrayalState, seat: str) -> Gen[bool]:
    """Exit abilities before leaving by movement; False if the explorer stays (chose to retry)."""
    e = st.ex[seat]
    room = e.room
    before = st.turn.stopped
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
        if e.dead:
            return
        st.piles[room].remove(card)
        if not st.piles[room]:
            del st.piles[room]
        e.cards.append(card)
        st.emit("death.companion-custody", f"{st.name(seat)} gains custody of the {st.card_name(card)}")
        yield from gain_card(st, seat, card)
    symbol = st.t.rooms[room].symbol
    if not discovering and symbol in ("omen", "item", "event"):
        st.emit("card.first-discoverer-only", f"{st.room_name(room)} was discovered before: {st.name(seat)} draws no {symbol} card")
    yield from run_triggered(st, seat, "enter", room, discovering=discovering)


def discovered(st: BetrayalState, seat: str, room: str) -> Gen[None]:
    """A room just discovered by this explorer: its on-discover text, its card, then its text."""
    yield from run_triggered(st, seat, "on-discover", room, discovering=True)
    symbol = st.t.rooms[room].symbol
    if symbol in ("omen", "item", "event"):
        st.emit("card.draw-on-discovery", f"{st.room_name(room)} shows the {symbol} symbol: {st.name(seat)} draws an {symbol} card"
                if symbol != "item" else f"{st.room_name(room)} shows the item symbol: {st.name(seat)} draws an item card")
        yield from st.draw_card(seat, symbol, ctx_room=room)
        if st.ex[seat].room == room and st.t.rooms[room].abilities:
            st.emit("room.card-before-text", f"the card came first; the {st.room_name(room)}'s text applies after it")
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
                f"{st.name(seat)} (the traitor) {'refuses' if refused else 'accepts'} {cdef.name}")
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
                st.emit("card.read-aloud", f"{cdef.name}: {ability['says']}" + (f" ({target})" if target != seat else ""))
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
        st.emit("omen.companions", f"the {st.card_name(card)} is a companion: it goes wherever {st.name(seat)} goes")
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
        st.emit("card.read-aloud", f"{st.card_name(card)} was stolen from {st.name(seat)}: its card says what that costs them")
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


def _hook_bell_book_candle(st: BetrayalState, seat: str, card: str, holds: bool) -> Gen[None]:
    key = f"{seat}/{card}"
    if holds and key not in st.set_bonus:
        st.set_bonus.add(key)
        st.emit("card.read-aloud", f"{st.name(seat)} holds the Bell, the Book and the Candle: every trait rises by 2")
        for trait in TRAITS:
            st.trait_change(seat, trait, 2, card=card)
    elif not holds and key in st.set_bonus:
        st.set_bonus.discard(key)
        st.emit("card.read-aloud", f"the Bell, Book and Candle set is broken: every trait of {st.name(seat)} drops by 2")
        for trait in TRAITS:
            st.trait_change(seat, trait, -2, card=card)
    return
    yield


def _card_trigger(st: BetrayalState, seat: str, card: str, trigger: str) -> Gen[None]:
    for ability in st.t.cards[card].abilities:
        if ability.get("trigger") == trigger:
            yield from run(st, ability.get("do", []), Ctx(seat, f"card:{card}"))


# --------------------------------------------------------------------------------------------
# Running effects


def closed_floor_of(st: BetrayalState, eff: Mapping[str, Any]) -> str | None:
    """The floor out of play (``haunt.floor-removed``) an effect would move, drop or draw an
    explorer or a tile into, or None: a move to a room of that floor, a drawn room for it, the
    Mystic Elevator sent to it."""
    if not st.closed_floors:
        return None
    verb = _verb(eff)
    spec = eff.get(verb)
    if not isinstance(spec, Mapping):
        return None
    if verb == "move":
        if "drawn_room" in spec:
            spec = spec["drawn_room"]
        elif "room" in spec and str(spec["room"]) in st.t.rooms:
            floors = set(st.t.rooms[str(spec["room"])].floors)
            return "/".join(sorted(floors)) if floors <= st.closed_floors else None
        else:
            return None
    elif verb not in ("draw_room", "move_tile"):
        return None
    floor = spec.get("floor")
    return str(floor) if floor in st.closed_floors else None


def leads_to_closed_floor(st: BetrayalState, effs: Effects) -> bool:
    """Whether an effect list (through its ``if`` branches) would take someone to a floor out of
    play: such an optional ability (the Collapsed Room's deliberate drop) is not offered."""
    for eff in effs:
        if closed_floor_of(st, eff) is not None:
            return True
        branch = eff.get("if")
        if isinstance(branch, Mapping) and any(
                leads_to_closed_floor(st, branch.get(k, [])) for k in ("then", "else")):
            return True
    return False


def run(st: BetrayalState, effects: Effects, ctx: Ctx) -> Gen[None]:
    skip_marks = False
    for eff in effects:
        if st.ex[ctx.seat].dead or ctx.halt:
            return
        if st.turn.end_now and ctx.seat == st.current:
            return
        if ("variant" in eff or "unless_variant" in eff) and not variant_on(st, eff):
            continue
        closed = closed_floor_of(st, eff)
        if closed is not None:
            # judgement (haunt.floor-removed): nobody goes to a floor out of play; the rest of
            # the effect (damage) still happens, and a token marking the landing is not placed
            st.emit("haunt.floor-removed", f"{_source_name(st, ctx.source)} would take {st.name(ctx.seat)} to the "
                    f"{closed} floor, which is out of play: nobody moves")
            skip_marks = True
            continue
        if skip_marks and _verb(eff) == "place_token":
            continue
        who = eff.get("who")
        if who not in (None, "self", "holder"):
            if who == "explorers-here" and ctx.source == "room:mystic-elevator":
                st.emit("room.mystic-elevator.zero-hurts-all", "everyone in the elevator takes the damage")
            for target in _who(st, who, ctx):
                sub = _sub(ctx, target)
                yield from _one(st, eff, sub)
                ctx.took_damage = ctx.took_damage or sub.took_damage
            continue
        if eff.get("optional"):
            label = eff.get("says", "the optional effect")
            a = yield from st.ask(ctx.seat, [Action.of("use", effect=_verb(eff)), Action.of("skip", effect=_verb(eff))],
                                  f"optional: {label}")
            if a.kind == "skip":
                continue
        yield from _one(st, eff, ctx)


def _sub(ctx: Ctx, seat: str) -> Ctx:
    return Ctx(seat, ctx.source, ctx.discovering, ctx.rolled)


def _verb(eff: Mapping[str, Any]) -> str:
    for k in eff:
        if k not in ("who", "optional", "says", "cite", "unverified", "judgement", "variant", "unless_variant"):
            return k
    return "custom"


def _one(st: BetrayalState, eff: Mapping[str, Any], ctx: Ctx) -> Gen[None]:
    verb = _verb(eff)
    handler = VERBS.get(verb)
    if handler is None:
        st.emit(source_rule(st, ctx), f"{_source_name(st, ctx.source)}: '{verb}' is not simulated before the haunt"
                + (f" ({eff['says']})" if eff.get("says") else ""))
        return
    yield from handler(st, eff[verb], ctx, eff)


def _gain_lose(sign: int) -> Callable[..., Gen[None]]:
    def handler(st: BetrayalState, amounts: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
        card = ctx.source.partition(":")[2] if ctx.source.startswith("card:") else None
        if card is not None and st.t.cards[card].type == "event":
            card = None  # only possessions note what they put over the top
        if "choose" in amounts:
            n = int(amounts["amount"])
            if amounts.get("same_as_rolled") and ctx.rolled:
                steps = {ctx.rolled: n}
            else:
                choice = amounts["choose"]
                options = list(GROUPS.get(choice, (choice,)) if isinstance(choice, str) else choice)
                a = yield from st.ask(ctx.seat, [Action.of("trait", trait=t) for t in options],
                                      f"choose a trait to {'gain' if sign > 0 else 'lose'} {n}")
                steps = {str(a["trait"]): n}
        else:
            steps = {t: int(v) for t, v in amounts.items() if t in TRAITS}
        for trait in TRAITS:
            if trait in steps:
                st.trait_change(ctx.seat, trait, sign * steps[trait], card=card)
                if sign > 0 and card and st.t.cards[card].type == "item":
                    st.item_raised.add(ctx.seat)

    return handler


def _damage(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    kind = str(spec["type"])
    if "dice" in spec:
        points = yield from own_roll(st, ctx.seat, int(spec["dice"]), "damage", f"{spec['dice']} dice of {kind} damage", ctx)
        st.emit("damage.dice-of-damage", f"{st.name(ctx.seat)} rolls {spec['dice']} dice of {kind} damage: {points}")
    else:
        points = int(spec["points"])
    yield from take_damage(st, ctx.seat, kind, points, ctx, reducible=not spec.get("unreducible"))


def take_damage(st: BetrayalState, seat: str, kind: str, points: int, ctx: Ctx | None = None,
                reducible: bool = True) -> Gen[None]:
    """The victim spreads the damage over the two traits of the kind as they choose (cards that
    reduce or convert damage first, unless the damage is ``unreducible``)."""
    for source, _, ability in held_abilities(st, seat) if reducible else ():
        if ability.get("trigger") != "ongoing":
            continue
        for eff in ability.get("do", []):
            red = eff.get("reduce_damage")
            if red and red.get("type") == kind and points > 0:
                points = max(0, points - int(red["by"]))
                st.emit("card.card-beats-book", f"{_source_name(st, source)} reduces the {kind} damage to {points}")
            conv = eff.get("convert_damage")
            if conv and ability.get("timing") == "when-taking-damage" and conv.get("from") == kind and points > 0:
                a = yield from st.ask(seat, [Action.of("convert", to=conv["to"]), Action.of("keep", type=kind)],
                                      f"take the {kind} damage as {conv['to']}?")
                if a.kind == "convert":
                    kind = str(conv["to"])
                    st.emit("card.card-beats-book", f"{_source_name(st, source)}: the damage is taken as {kind}")
    if points > 0:
        points = st.damage_taken(seat, kind, points)
    if points <= 0:
        return
    if ctx is not None:
        ctx.took_damage = True
    a_trait, b_trait = PHYSICAL if kind == "physical" else MENTAL
    e = st.ex[seat]
    low = 0 if st.haunt is None else -1
    options: list[Action] = []
    seen: set[tuple[int, int]] = set()
    for k in range(points + 1):
        result = (max(low, e.idx[a_trait] - k), max(low, e.idx[b_trait] - (points - k)))
        if result in seen:
            continue
        seen.add(result)
        options.append(Action.of("damage", **{a_trait: k, b_trait: points - k}))
    a = yield from st.ask(seat, options, f"split {points} {kind} damage")
    ka, kb = int(a[a_trait]), int(a[b_trait])  # type: ignore[arg-type]
    rule = "damage.physical-split" if kind == "physical" else "damage.mental-split"
    st.emit(rule, f"{st.name(seat)} takes {points} {kind} damage: {ka} to {a_trait}, {kb} to {b_trait}")
    if ka:
        st.trait_change(seat, a_trait, -ka, rule="damage.lowers-traits")
    if kb:
        st.trait_change(seat, b_trait, -kb, rule="damage.lowers-traits")


def _heal(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    traits = GROUPS.get(spec["traits"], (spec["traits"],))
    e = st.ex[ctx.seat]
    xdef = st.t.explorers[e.id]
    room = {t: max(0, xdef.traits[t].start - e.idx[t]) for t in traits}
    points = min(int(spec["points"]), sum(room.values()))
    if points <= 0:
        st.emit("card.read-aloud", f"{st.name(ctx.seat)} has nothing to heal")
        return
    options = []
    for combo in _splits(points, [room[t] for t in traits]):
        options.append(Action.of("heal", **{t: k for t, k in zip(traits, combo, strict=True)}))
    a = yield from st.ask(ctx.seat, options, f"heal {points}")
    for t in traits:
        k = int(a[t])  # type: ignore[arg-type]
        if k:
            st.trait_change(ctx.seat, t, k)


def _splits(total: int, caps: list[int]) -> list[tuple[int, ...]]:
    if not caps:
        return [()] if total == 0 else []
    out = []
    for k in range(min(total, caps[0]) + 1):
        for rest in _splits(total - k, caps[1:]):
            out.append((k, *rest))
    return out


def _set_trait(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    e = st.ex[ctx.seat]
    xdef = st.t.explorers[e.id]
    traits_spec = spec["traits"]
    if traits_spec == "chosen":
        if ctx.rolled and not ctx.chosen_done:
            traits: tuple[str, ...] = (ctx.rolled,)
            ctx.chosen_done = True
        else:
            options = [t for t in TRAITS if t != ctx.rolled]
            a = yield from st.ask(ctx.seat, [Action.of("trait", trait=t) for t in options], "choose a trait")
            traits = (str(a["trait"]),)
    elif isinstance(traits_spec, str):
        traits = GROUPS.get(traits_spec, (traits_spec,))
    else:
        traits = tuple(traits_spec)
    if spec.get("pick_any_subset") and len(traits) > 1:
        below = [t for t in traits if e.idx[t] < xdef.traits[t].start]
        if below:
            subsets = [Action.of("traits", pick=[t for t, bit in zip(below, bits, strict=True) if bit])
                       for bits in _bitsets(len(below)) if any(bits)]
            picked = yield from st.ask(ctx.seat, subsets, "choose the traits to restore")
            pick = picked["pick"]
            assert isinstance(pick, tuple)
            traits = tuple(str(x) for x in pick)
    for t in traits:
        target = 0 if spec["to"] == "lowest" else xdef.traits[t].start
        if spec["to"] == "lowest" and e.idx[t] == 0 and spec.get("if_already"):
            st.emit("card.read-aloud", f"{t} is already at its lowest value")
            yield from run(st, spec["if_already"], ctx)
            continue
        if spec.get("only_if_below") and e.idx[t] >= target:
            continue
        delta = target - e.idx[t]
        if delta:
            st.trait_change(ctx.seat, t, delta)


def _bitsets(n: int) -> list[tuple[bool, ...]]:
    out: list[tuple[bool, ...]] = [()]
    for _ in range(n):
        out = [(*b, x) for b in out for x in (True, False)]
    return out


def dice_for(st: BetrayalState, seat: str, base: int, ctx: Ctx, extra: Iterable[Mapping[str, Any]] = (),
             trait_roll: bool = True) -> int:
    """Dice for a roll: the base count, the roll's own extra dice, ongoing modifiers (tokens in
    the room, held cards), capped at 8."""
    n = base
    lo, hi = 0, 8
    for x in extra:
        if condition(st, x["if"], ctx):
            n += int(x["dice"])
    if trait_roll:
        e = st.ex[seat]
        sources = [a for _, _, a in room_abilities(st, e.room)] + [a for _, _, a in held_abilities(st, seat)]
        for ability in sources:
            if ability.get("trigger") != "ongoing":
                continue
            if ability.get("who") == "heroes-here" and st.haunt is None:
                continue
            for eff in ability.get("do", []):
                mod = eff.get("modify_rolls")
                if not mod:
                    continue
                applies = mod.get("applies_to")
                if applies == "event-trait-rolls" and not _from_event(st, ctx):
                    continue
                if applies not in ("trait-rolls", "event-trait-rolls", "any-roll"):
                    continue
                n += int(mod["dice"])
                lo = max(lo, int(mod.get("min_dice", 0)))
                hi = min(hi, int(mod.get("max_dice", 8)))
    return max(min(n, hi), lo if base > 0 else 0)


def _from_event(st: BetrayalState, ctx: Ctx) -> bool:
    kind, _, ident = ctx.source.partition(":")
    return kind == "card" and st.t.cards[ident].type == "event"


def _roll(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    roller = ctx.actor or ctx.seat
    if spec.get("who") not in (None, "self"):
        for victim in _who(st, spec["who"], ctx):
            yield from _roll(st, {k: v for k, v in spec.items() if k != "who"}, _sub(ctx, victim), eff)
        return
    if "each_trait" in spec:
        all_top = True
        for each in spec["each_trait"]:
            if st.ex[ctx.seat].dead:
                return
            total = yield from _roll_once(st, roller, each, spec, ctx)
            bands = spec.get("bands", [])
            band = _band(bands, total)
            if bands and band is not bands[0]:
                all_top = False
            sub = _sub(ctx, ctx.seat)
            sub.rolled = each
            if band is not None:
                yield from run(st, band["then"], sub)
        if all_top and spec.get("if_all_pass"):
            yield from run(st, spec["if_all_pass"], ctx)
        if spec.get("after_all"):
            yield from run(st, spec["after_all"], ctx)
        return
    trait: str | None = spec.get("trait")
    if "trait_choice" in spec:
        chosen = yield from st.ask(roller, [Action.of("trait", trait=t) for t in spec["trait_choice"]],
                                   "choose the trait to roll")
        trait = str(chosen["trait"])
    total = yield from _roll_once(st, roller, trait, spec, ctx)
    ctx.rolled = trait
    target = spec.get("target")
    if target is not None:
        need = st.omens_drawn if target == "omens-drawn" else int(target)
        passed = total >= need
        ctx.passed = passed
        st.emit("roll.target-at-least", f"{total} against {need}+: {'success' if passed else 'failure'}")
        yield from run(st, spec.get("pass" if passed else "fail", []), ctx)
        if "bands" not in spec:
            return
    band = _band(spec.get("bands", []), total)
    if band is not None:
        if band.get("says"):
            st.emit(source_rule(st, ctx), band["says"])
        yield from run(st, band["then"], ctx)


def _band(bands: Sequence[Mapping[str, Any]], total: int) -> Mapping[str, Any] | None:
    for band in bands:
        if band["min"] <= total and ("max" not in band or total <= band["max"]):
            return band
    return None


def _roll_once(st: BetrayalState, seat: str, trait: str | None, spec: Mapping[str, Any], ctx: Ctx) -> Gen[int]:
    extra = spec.get("extra_dice", [])
    if trait is not None:
        value = st.value(seat, trait)
        n = dice_for(st, seat, value, ctx, extra)
        total = yield from own_roll(st, seat, n, "trait", f"a {trait} roll", ctx)
        note = "" if n == value else f" ({n} dice after modifiers)"
        st.emit("roll.trait-roll", f"{st.name(seat)} makes a {trait} roll with {trait} {value}{note}: {total}")
        track = st.t.explorers[st.ex[seat].id].traits[trait]
        if value != track.values[track.start]:
            st.emit("trait.current-value-used", f"the roll counts {trait} {value}, where the clip is now, not the starting "
                    f"{track.values[track.start]}")
        if value > 8:
            st.emit("roll.max-eight-dice", "no roll uses more than 8 dice")
        return total
    n = dice_for(st, seat, int(spec["dice"]), ctx, extra, trait_roll=False)
    total = yield from own_roll(st, seat, n, "event" if _from_event(st, ctx) else "dice", f"{n} dice", ctx)
    st.emit("roll.fixed-dice", f"{st.name(seat)} rolls {n} dice: {total}")
    return total


# Which rolls each roll-adjusting ability may touch (``adjust_roll.applies_to``).
_APPLIES: dict[str, tuple[str, ...]] = {
    "trait-roll": ("trait",),
    "trait-combat-or-event-roll": ("trait", "combat", "event"),
    "any-roll": ("trait", "combat", "event", "dice", "damage", "haunt"),
    "own-roll": ("trait", "combat", "event", "dice", "damage", "haunt"),
}
_BEFORE = ("before-trait-roll", "before-any-roll", "instead-of-roll")
ROLL_TIMINGS = (*_BEFORE, "after-any-roll")


def _roll_items(st: BetrayalState, seat: str) -> list[tuple[str, int, Ability, Mapping[str, Any]]]:
    """The explorer's held abilities that adjust rolls (cached per cards held)."""
    e = st.ex[seat]
    key = (seat, tuple(e.cards), tuple(e.kept))
    cached = st.adjust_cache.get(key)
    if cached is not None:
        return cached
    out = []
    for source, index, ability in held_abilities(st, seat):
        if ability.get("trigger") == "on-use" and ability.get("timing") in ROLL_TIMINGS:
            adjust = next((eff["adjust_roll"] for eff in ability.get("do", []) if "adjust_roll" in eff), None)
            if adjust is not None:
                out.append((source, index, ability, adjust))
    if len(st.adjust_cache) > 256:
        st.adjust_cache.clear()
    st.adjust_cache[key] = out
    return out


def _adjusters(st: BetrayalState, seat: str, kind: str, timings: tuple[str, ...]) -> list[tuple[str, int, Ability, Mapping[str, Any]]]:
    e = st.ex[seat]
    if not e.cards and not e.kept:
        return []
    out = []
    for source, index, ability, adjust in _roll_items(st, seat):
        if ability.get("timing") not in timings or not _applies(st, seat, ability):
            continue
        if kind not in _APPLIES.get(str(adjust.get("applies_to", "any-roll")), ()):
            continue
        if adjust.get("applies_to") == "own-roll" and ability.get("limit") == "once-per-turn" and seat != st.current:
            continue  # "once during your turn"
        card = source.partition(":")[2]
        if source.startswith("card:") and card in st.turn.items_acted:
            continue
        if adjust.get("stored_result") and seat not in st.stored_rolls:
            continue
        if _limit_ok(st, seat, source, index, ability) and _key(source, index) not in st.turn.keys:
            out.append((source, index, ability, adjust))
    return out


def _spend(st: BetrayalState, seat: str, source: str, index: int, ability: Ability) -> Gen[None]:
    """Mark a roll-adjusting ability used and pay what it costs (its other effects)."""
    _use_limit(st, seat, source, index, ability)
    st.turn.keys.add(_key(source, index))
    if source.startswith("card:"):
        st.turn.items_acted.add(source.partition(":")[2])
    st.emit("item.use-defined", f"{st.name(seat)} uses {_source_name(st, source)} on the roll")
    yield from run(st, [e for e in ability.get("do", []) if "adjust_roll" not in e], Ctx(seat, source))


def own_roll(st: BetrayalState, seat: str, n: int, kind: str, purpose: str, ctx: Ctx) -> Gen[int]:
    """A roll made by an explorer: items that change rolls may be used before it (extra dice, a
    bonus, naming the result) and after it (rerolls). Without such items it is a plain roll."""
    add = 0
    while True:
        before = _adjusters(st, seat, kind, _BEFORE)
        if not before:
            break
        acts = [Action.of("roll")] + [Action.of("adjust", ability=_key(src, i)) for src, i, _, _ in before]
        a = yield from st.ask(seat, acts, f"roll {purpose}, or use an item first")
        if a.kind == "roll":
            break
        source, index, ability, adjust = before[acts.index(a) - 1]
        yield from _spend(st, seat, source, index, ability)
        if "name_result" in adjust:
            low, high = adjust["name_result"]
            named = yield from st.ask(seat, [Action.of("result", value=v) for v in range(low, high + 1)],
                                      "name the result")
            st.emit("card.card-beats-book", f"{st.name(seat)} names the result {named['value']} instead of rolling")
            return int(named["value"])  # type: ignore[arg-type]
        if adjust.get("stored_result"):
            stored = min(st.stored_rolls.pop(seat), 2 * max(n, 0))
            st.emit("card.card-beats-book", f"{st.name(seat)} uses the stored result {stored} instead of rolling")
            return stored
        if "extra_dice" in adjust:
            n = min(n + int(adjust["extra_dice"]), int(adjust.get("max_dice", 8)), 8)
            st.emit("roll.max-eight-dice", f"{st.name(seat)} now rolls {n} dice (never more than 8)")
        add += int(adjust.get("add_to_result", 0))
    if kind == "trait" and seat == st.current and st.turn.seat == seat:
        if "rolled" in st.turn.keys:
            st.emit("roll.no-limit-per-turn", f"{st.name(seat)} makes another roll this turn ({purpose}): any number of "
                    "different rolls may be made")
        st.turn.keys.add("rolled")
    faces = list((yield from st.roll(n, purpose)))
    while faces:
        after = _adjusters(st, seat, kind, ("after-any-roll",))
        if not after:
            break
        acts = [Action.of("keep")] + [Action.of("adjust", ability=_key(src, i)) for src, i, _, _ in after]
        a = yield from st.ask(seat, acts, f"keep the roll {faces}, or use an item")
        if a.kind == "keep":
            break
        source, index, ability, adjust = after[acts.index(a) - 1]
        yield from _spend(st, seat, source, index, ability)
        if adjust.get("reroll") == "one-die":
            pick = yield from st.ask(seat, [Action.of("reroll", dice=[i]) for i in range(len(faces))], "reroll a die")
        else:
            subsets = [Action.of("reroll", dice=[i for i, bit in enumerate(bits) if bit])
                       for bits in _bitsets(len(faces)) if any(bits)]
            pick = yield from st.ask(seat, subsets, "reroll any dice")
        chosen = pick["dice"]
        assert isinstance(chosen, tuple)
        again = yield from st.roll(len(chosen), "the reroll")
        for i, face in zip(chosen, again, strict=True):
            assert isinstance(i, int)
            faces[i] = face
        st.emit("card.card-beats-book", f"{st.name(seat)} rerolls {len(chosen)} dice: now {sum(faces)}")
    if add:
        st.emit("card.card-beats-book", f"{st.name(seat)} adds {add} to the roll")
    if kind == "haunt" and len(faces) > 1:
        # cited on the haunt roll, the one roll every game makes with the same six dice
        st.emit("roll.sum-dots", f"the result adds up the dots of all the dice: {' + '.join(map(str, faces))} = {sum(faces)}")
    return sum(faces) + add


# --------------------------------------------------------------------------------------------
# Moving explorers and tiles


def arrival_part(st: BetrayalState, seat: str, room: str, token: str | None = None) -> Gen[int]:
    """Which side of a barrier room a character put there by an effect lands on: the side of the
    arrival's token when one marks it (``room.barrier.token-side-fixed``), else the one chosen."""
    rdef = st.t.rooms[room]
    if token is not None and token in st.token_parts and token in st.tokens.get(room, ()):
        part = st.token_parts[token]
        side = SIDES[(rdef.barrier[part] + st.house.spots[room].rotation) % 4]
        st.emit("room.barrier.token-side-fixed", f"the {token} token lies on the {side} side of {rdef.name}: "
                f"{st.name(seat)} lands there")
        return part
    if len(rdef.barrier) >= 2 and rdef.barrier_arrival == "chosen":
        opts = [Action.of("side", side=SIDES[(s + st.house.spots[room].rotation) % 4]) for s in rdef.barrier]
        a = yield from st.ask(seat, opts, f"choose the side of {room} to land on")
        st.emit("room.barrier.landing-side", f"{st.name(seat)} lands on the {a['side']} side of {rdef.name}")
        return opts.index(a)
    if rdef.barrier:
        st.emit("room.vault.arrive-outside", f"{st.name(seat)} lands outside the locked door of {rdef.name}")
    return 0


def move_to(st: BetrayalState, seat: str, room: str, ctx: Ctx, how: str, token: str | None = None) -> Gen[None]:
    """Put an explorer in a room by an effect (no movement used); the room's entry text applies.
    ``token``: the token that marks the destination (its side of a barrier room is kept)."""
    e = st.ex[seat]
    src = e.room
    rdef = st.t.rooms[room]
    part = yield from arrival_part(st, seat, room, token)
    st._set_room(seat, room, part=part)
    st.emit(source_rule(st, ctx), f"{st.name(seat)} is moved from {st.room_name(src)} to {rdef.name} ({how})")
    if ctx.source == "room:coal-chute":
        st.emit("room.coal-chute.one-space", "entering the chute and sliding down count as one space together")
    if seat == st.current and st.turn.start_room == room:
        st.turn.left_room = True
    yield from enter_room(st, seat, discovering=False)


def _move(st: BetrayalState, dest: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    room = yield from destination(st, dest, ctx)
    if room is None:
        return
    if room == st.ex[ctx.seat].room and "drawn_room" not in dest:
        st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} is already in {st.room_name(room)}")
        return
    if st.ex[ctx.seat].room != room:
        token = dest.get("room_with_token")
        yield from move_to(st, ctx.seat, room, ctx, _source_name(st, ctx.source), str(token) if token else None)


def destination(st: BetrayalState, dest: Mapping[str, Any], ctx: Ctx) -> Gen[str | None]:
    e = st.ex[ctx.seat]
    if "room" in dest:
        room = str(dest["room"])
        if room in st.house:
            return room
        absent = dest.get("if_absent", "skip")
        if absent == "fetch-from-stack":
            placed = yield from fetch_room(st, ctx.seat, room)
            return placed
        if absent == "entrance-hall":
            return "entrance-hall"
        st.emit(source_rule(st, ctx), f"{st.room_name(room)} is not in the house: nothing happens")
        return None
    if "other_end_of" in dest:
        token = str(dest["other_end_of"])
        for end_a, end_b, _, tok in st.links:
            if tok == token and e.room in (end_a, end_b):
                return end_b if e.room == end_a else end_a
        for end_a, end_b, tok in st.passages:
            if tok == token and e.room in (end_a, end_b):
                return end_b if e.room == end_a else end_a
        return None
    if "room_choice" in dest:
        rc = dest["room_choice"]
        rooms = _room_choice(st, rc, e.room)
        if not rooms:
            st.emit(source_rule(st, ctx), "no room qualifies: nothing happens")
            return None
        a = yield from st.ask(ctx.seat, [Action.of("room", room=r) for r in rooms], "choose a room")
        return str(a["room"])
    if "adjacent_room" in dest:
        rooms = [r for r, _, _ in st.exits(ctx.seat)]
        if not rooms:
            return None
        a = yield from st.ask(ctx.seat, [Action.of("room", room=r) for r in rooms], "choose an adjacent room")
        return str(a["room"])
    if "room_of" in dest:
        others = [s for s in sorted(st.ex) if s != ctx.seat]
        if dest["room_of"] == "nearest-explorer":
            others = _who(st, "nearest-explorer", ctx)
        rooms = sorted({st.ex[s].room for s in others})
        if not rooms:
            return None
        a = yield from st.ask(ctx.seat, [Action.of("room", room=r) for r in rooms], "choose whose room to go to")
        return str(a["room"])
    if "drawn_room" in dest:
        drawn = yield from draw_room(st, dest["drawn_room"], ctx)
        return drawn
    if "room_with_token" in dest:
        token = str(dest["room_with_token"])
        marked = sorted(r for r, toks in st.tokens.items() if token in toks)
        if not marked:
            st.emit(source_rule(st, ctx), f"no room holds the {token} token: nothing happens")
            return None
        return marked[0]
    return None


def _room_choice(st: BetrayalState, rc: Mapping[str, Any], here: str) -> list[str]:
    rooms = sorted(st.house.spots)
    among = rc.get("among")
    if among:
        wanted: set[str] = set()
        for x in among:
            if x in st.t.rooms:
                wanted.add(x)
            else:
                wanted.update(r for r, toks in st.tokens.items() if x in toks)
        rooms = [r for r in rooms if r in wanted]
    floor = rc.get("floor")
    if floor:
        mine = st.house.floor_of(here)
        if floor == "lower":
            below = FLOORS[FLOORS.index(mine) + 1:] if mine != "upper" else ("ground", "basement")
            below = ("basement",) if mine == "ground" else (() if mine == "basement" else below)
            rooms = [r for r in rooms if st.house.floor_of(r) in below]
        elif floor == "other":
            rooms = [r for r in rooms if st.house.floor_of(r) != mine]
        else:
            rooms = [r for r in rooms if st.house.floor_of(r) == floor]
    return [r for r in rooms if r != here or among]


def fetch_room(st: BetrayalState, seat: str, room: str) -> Gen[str | None]:
    """Search the room stack for a named tile and place it at an open door of a floor it fits."""
    if room not in st.stack and room not in st.aside:
        return None
    options: list[tuple[str, Any]] = []
    for floor in st.t.rooms[room].floors:
        for p in st.house.open_spots(room, floor, keep_open=st.others_remain(floor, room)):
            options.append((floor, p))
    if not options:
        return None
    acts = placement_actions(options)
    a = yield from st.ask(seat, acts, f"place {room}")
    floor, p = options[acts.index(a)]
    st.put_tile(room, floor, p.cell, p.rotation)
    st.emit("discover.placed-room-no-draw", f"{st.room_name(room)} is taken from the stack and placed on the {floor} floor")
    return room


def placement_actions(options: Sequence[tuple[str, Any]]) -> list[Action]:
    """The ``place`` choices for a tile: one per (floor, spot) option."""
    return [Action.of("place", floor=f, cell=list(p.cell), rotation=p.rotation) for f, p in options]


def draw_room(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx) -> Gen[str | None]:
    """Draw tiles until one fits the floor, place it (at an open door of that floor) and
    optionally move in; the discoverer draws for its symbol."""
    e = st.ex[ctx.seat]
    floor = str(spec.get("floor", "same"))
    if floor == "same":
        floor = st.house.floor_of(e.room)
    if floor in st.closed_floors:
        st.emit("haunt.floor-removed", f"the {floor} floor is out of play: no room is drawn for it")
        return None
    floors = FLOORS if floor == "any" else (floor,)
    tile: str | None = None
    chosen_floor = ""
    if floor == "any":
        tile, chosen_floor = yield from _draw_any_floor(st, ctx)
    elif st.remaining_for(floor) > 0:

        def spots(t: str) -> list[Any]:
            return st.house.open_spots(t, floor, keep_open=st.others_remain(floor, t))

        tile = yield from st.draw_tile(floor, spots)
        chosen_floor = floor
    if tile is None:
        fallback = spec.get("fallback", "stay")
        if fallback == "existing-room-on-floor":
            rooms = [r for r in st.house.rooms_on(floors[0])]
            st.emit("room.collapsed-room.basement-full", f"no {floors[0]} tile is left: choose a {floors[0]} room")
            a = yield from st.ask(ctx.seat, [Action.of("room", room=r) for r in rooms], "choose a room to land in")
            room = str(a["room"])
            if spec.get("enter"):
                yield from move_to(st, ctx.seat, room, ctx, "no tile left")
            return room
        if fallback == "entrance-hall":
            if spec.get("enter"):
                yield from move_to(st, ctx.seat, "entrance-hall", ctx, "no tile left")
            return "entrance-hall"
        st.emit("discover.floor-exhausted", "no tile fits: nothing happens")
        return None
    if floor == "any":
        opts = _any_floor_spots(st, tile)
        acts = placement_actions(opts)
        chosen = yield from st.ask(ctx.seat, acts, f"place {tile}")
        chosen_floor, place = opts[acts.index(chosen)]
    else:
        spots_here = st.house.open_spots(tile, chosen_floor, keep_open=st.others_remain(chosen_floor, tile))
        place = yield from st.choose_placement(ctx.seat, tile, chosen_floor, spots_here)
    st.put_tile(tile, chosen_floor, place.cell, place.rotation)
    st.emit("discover.effect-discovery-draws", f"{st.room_name(tile)} is placed on the {chosen_floor} floor by "
            f"{_source_name(st, ctx.source)}")
    if ctx.source == "room:collapsed-room":
        st.emit("room.collapsed-room.first-fall-places-tile", f"the first fall from the Collapsed Room places {st.room_name(tile)}")
    st.note_new_room(tile)
    st._note_false_features(tile)
    if spec.get("enter"):
        part = yield from arrival_part(st, ctx.seat, tile)
        st._set_room(ctx.seat, tile, part=part)
        st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} lands in {st.room_name(tile)}")
        yield from discovered(st, ctx.seat, tile)
    return tile


def _any_floor_spots(st: BetrayalState, tile: str) -> list[tuple[str, Any]]:
    return [(f, p) for f in st.t.rooms[tile].floors
            for p in st.house.open_spots(tile, f, keep_open=st.others_remain(f, tile))]


def _draw_any_floor(st: BetrayalState, ctx: Ctx) -> Gen[tuple[str | None, str]]:
    """The next room tile, for whichever floor it fits (set aside only if it cannot be placed)."""
    while True:
        tile = yield from st.next_room_tile()
        if tile is None:
            return None, ""
        if _any_floor_spots(st, tile):
            st.held_tile = tile
            return tile, st.t.rooms[tile].floors[0]
        st.aside.append(tile)
        st.emit("discover.sealing-tile-discarded", f"{st.room_name(tile)} has no place in the house and is set aside")
        if not any(_any_floor_spots(st, t) for t in st.stack + st.aside):
            return None, ""


def _move_tile(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    """Relocate the room tile (with everyone in it) next to an open door; never sealing a floor.
    The tile is the one the explorer stands in, or ``room`` (a monster's, moved by its controller)."""
    room = str(spec.get("room") or st.ex[ctx.seat].room)
    spot = st.house.spots[room]
    if st.t.rooms[room].placement != "stack":
        st.emit(source_rule(st, ctx), f"{st.room_name(room)} cannot be moved")
        return
    target = spec["floor"]
    if target == "same":
        floors: tuple[str, ...] = (spot.floor,)
    elif target == "any":
        floors = tuple(f for f in FLOORS if f in st.t.rooms[room].floors or True)
    elif target == "other":
        floors = tuple(f for f in FLOORS if f != spot.floor)
    else:
        floors = (target,)
    named = floors
    floors = tuple(f for f in floors if st.tile_may_go_to(f, room))  # haunt.floor-removed, a haunt's own ban
    options: list[tuple[str, Any]] = []
    for f in floors:
        for p in st.house.open_spots(room, f, keep_open=st.remaining_for(f) > 0, ignore=room):
            if f == spot.floor and p.cell == spot.cell:
                continue  # the same floor: a different door
            options.append((f, p))
    if not options and spec.get("if_no_spot") == "other-floor" and target == "same":
        for f in FLOORS:
            if f == spot.floor or not st.tile_may_go_to(f, room):
                continue
            for p in st.house.open_spots(room, f, keep_open=st.remaining_for(f) > 0, ignore=room):
                options.append((f, p))
    is_elevator = room == "mystic-elevator"
    steer = bool(spec.get("steer"))
    if is_elevator:
        sealing = sum(len(st.house.open_spots(room, f, keep_open=False, ignore=room))
                      - len(st.house.open_spots(room, f, keep_open=True, ignore=room))
                      for f in floors if st.remaining_for(f) > 0)
        if sealing > 0:
            st.emit("room.mystic-elevator.cannot-seal", f"{sealing} place(s) on the {'/'.join(floors)} floor would seal "
                    f"off a floor: the elevator does not go there")
    if not options:
        st.emit("room.mystic-elevator.no-door-stays" if is_elevator else source_rule(st, ctx),
                f"no open door on the {'/'.join(floors or named)} floor takes {st.room_name(room)} without sealing a floor: it stays")
        return
    acts = placement_actions(options)
    if steer:
        acts.append(Action.of("stay"))
    a = yield from st.ask(ctx.seat, acts, f"move {room}")
    if a.kind == "stay":
        st.emit("traitor.elevator-choice", f"{st.name(ctx.seat)} keeps {st.room_name(room)} where it is")
        return
    floor, p = options[acts.index(a)]
    st.put_tile(room, floor, p.cell, p.rotation)
    riders = sorted(s for s, x in st.ex.items() if x.room == room)
    rule = "room.mystic-elevator.two-dice-floor" if is_elevator else source_rule(st, ctx)
    if is_elevator and floor == spot.floor:
        rule = "room.mystic-elevator.same-floor-relocate"
    if steer:
        rule = "traitor.elevator-choice"
    st.emit(rule, f"{st.room_name(room)} moves to the {floor} floor at {list(p.cell)} carrying {', '.join(riders)}")
    st._note_false_features(room)
    if is_elevator and st.tokens.get(room):
        st.emit("room.mystic-elevator.tokens-ride", f"the tokens on the elevator ride with it: {', '.join(st.tokens[room])}")


def _draw(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    for _ in range(int(spec.get("count", 1))):
        yield from st.draw_card(ctx.seat, str(spec["type"]))


def _draw_room_verb(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    if spec.get("where") == "beyond-this-wall":
        yield from _beyond_wall(st, spec, ctx)
        return
    yield from draw_room(st, spec, ctx)


def _beyond_wall(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx) -> Gen[None]:
    """A passage through a doorless wall (Revolving Wall): pick the wall; the room beyond it, or a
    tile drawn for this floor and placed there, is joined to this room by the card's token."""
    e = st.ex[ctx.seat]
    here = e.room
    spot = st.house.spots[here]
    floor = spot.floor
    walls = [s for s in range(4) if s not in st.house.doors(here) and s != st.t.rooms[here].front_door]
    options: list[Action] = []
    for s in walls:
        beyond = st.house.room_at(floor, step(spot.cell, s))
        if beyond is not None or st.remaining_for(floor) > 0:
            options.append(Action.of("wall", side=SIDES[s]))
    if not options:
        st.emit(source_rule(st, ctx), f"no wall of {st.room_name(here)} can take the passage: the card is discarded")
        ctx.halt = True
        return
    a = yield from st.ask(ctx.seat, options, "choose the wall for the passage")
    side = SIDES.index(str(a["side"]))
    cell = step(spot.cell, side)
    there = st.house.room_at(floor, cell)
    drawn = False
    if there is None:
        def spots(t: str) -> list[Any]:
            seen: set[frozenset[int]] = set()
            out = []
            for r in range(4):
                p = _rotation_at(st, t, cell, r)
                if p.doors in seen:
                    continue
                seen.add(p.doors)
                if st.house.free_after(floor, cell, p.doors) > 0 or not st.others_remain(floor, t):
                    out.append(p)
            return out

        tile = yield from st.draw_tile(floor, spots)
        if tile is None:
            st.emit("discover.floor-exhausted", f"no tile is left for the {floor} floor: the card is discarded")
            ctx.halt = True
            return
        place = yield from st.choose_placement(ctx.seat, tile, floor, spots(tile))
        st.put_tile(tile, floor, cell, place.rotation)
        st.emit("discover.effect-discovery-draws", f"{st.room_name(tile)} is placed beyond the {SIDES[side]} wall of "
                f"{st.room_name(here)}")
        st._note_false_features(tile)
        st.note_new_room(tile)
        there = tile
        drawn = True
    token = "wall-switch"
    st.passages.append((here, there, token))
    st.tokens.setdefault(here, []).append(token)
    ctx.kept = ctx.kept or "house"
    st.emit("glossary.tokens", f"a {token} joins {st.room_name(here)} and {st.room_name(there)} through the wall")
    if not spec.get("enter"):
        return
    if drawn:
        part = yield from arrival_part(st, ctx.seat, there)
        st._set_room(ctx.seat, there, part=part)
        st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} goes through the wall into {st.room_name(there)}")
        yield from discovered(st, ctx.seat, there)
    else:
        yield from move_to(st, ctx.seat, there, ctx, "through the wall")


def _rotation_at(st: BetrayalState, tile: str, cell: tuple[int, int], r: int) -> Placement:
    return Placement(cell, r, rotate(st.t.rooms[tile].doors, r))


def _flag(name: str) -> Callable[..., Gen[None]]:
    def handler(st: BetrayalState, value: Any, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
        if ctx.seat != st.current:
            return
        if name == "stop_moving":
            if not st.turn.stopped:
                st.turn.stopped = True
                st.turn.stop_rule = source_rule(st, ctx)
                st.emit(st.turn.stop_rule, f"{st.name(ctx.seat)}'s movement ends")
        elif name == "end_turn":
            st.turn.end_now = True
            st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)}'s turn ends")
        elif name == "no_attack_this_turn":
            st.turn.no_attack = True
        elif name == "extra_move":
            st.turn.extra += int(value)
            st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} gets {value} free space(s) of movement")
        return
        yield

    return handler


def _attack(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    """An attack on the explorer by an unseen force: both sides roll, the loser takes the difference."""
    strength = int(spec["strength"])
    trait = str(spec.get("defend_with", spec["trait"]))
    att = yield from st.roll(strength, f"an attack of {spec['trait']} {strength}")
    a_total = sum(att)
    d_total = yield from own_roll(st, ctx.seat, dice_for(st, ctx.seat, st.value(ctx.seat, trait), ctx, trait_roll=False),
                                  "combat", f"defending with {trait}", ctx)
    st.emit("attack.might-roll-off" if trait == "might" else "attack.other-trait",
            f"{_source_name(st, ctx.source)} attacks {st.name(ctx.seat)}: {a_total} against {d_total}")
    if a_total == d_total:
        st.emit("attack.tie-no-damage", "a tie: nobody is hurt")
        return
    if d_total > a_total:
        st.emit("attack.higher-wins", f"{st.name(ctx.seat)} wins; the attacker is not a character and takes nothing")
        return
    kind = "physical" if trait in PHYSICAL else "mental"
    st.emit("attack.damage-difference", f"{st.name(ctx.seat)} loses by {a_total - d_total}")
    yield from take_damage(st, ctx.seat, kind, a_total - d_total, ctx)


def _no_attack_yet(st: BetrayalState, spec: Any, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    st.emit("attack.not-before-haunt", f"{st.name(ctx.seat)} cannot attack before the haunt: nothing happens")
    return
    yield


def _pull(st: BetrayalState, spec: Any, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    st.emit(source_rule(st, ctx), "no monsters or heroes exist before the haunt: nothing is pulled")
    return
    yield


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
                f"where {st.name(ctx.seat)} landed")
    if spec.get("abilities"):
        st.token_abilities[token] = tuple(spec["abilities"])
    ctx.kept = ctx.kept or "house"  # the card's effect stays in the house as a token
    rule = "room.vault.empty-token" if token == "vault-empty" else (
        "room.collapsed-room.below-token" if token == "below-collapsed-room" else "glossary.tokens")
    st.emit(rule, f"the {token} token is placed in {st.room_name(room)}")


def _remove_token(st: BetrayalState, token: Any, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    room = st.ex[ctx.seat].room
    if token in st.tokens.get(room, []):
        st.tokens[room].remove(token)
        st.emit("glossary.tokens", f"the {token} token is removed from {st.room_name(room)}")
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


def _link(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    here = st.ex[ctx.seat].room
    there = yield from destination(st, spec["to"], ctx)
    if there is None or there == here:
        st.emit("glossary.tokens", "no room for the other end: the passage is not made")
        return
    token = str(spec["token"])
    st.links.append((here, there, int(spec["cost"]), token))
    st.tokens.setdefault(here, []).append(token)
    st.tokens.setdefault(there, []).append(token)
    ctx.kept = ctx.kept or "house"
    st.emit("glossary.tokens", f"{token} tokens link {st.room_name(here)} and {st.room_name(there)} "
            f"(moving between them costs {spec['cost']})")
    if spec.get("usable_now_without_movement") and ctx.seat == st.current:
        a = yield from st.ask(ctx.seat, [Action.of("pass", to=there), Action.of("stay")], "use the passage now?")
        if a.kind == "pass":
            yield from move_to(st, ctx.seat, there, ctx, token)
            if spec.get("on_arrival"):
                yield from run(st, spec["on_arrival"], ctx)


def _discard_self(st: BetrayalState, value: Any, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    kind, _, card = ctx.source.partition(":")
    if kind not in ("card", "kept"):
        return
    for s, e in st.ex.items():
        if card in e.cards:
            e.cards.remove(card)
            st.discards[st.t.cards[card].type].append(card)
            st.emit("card.read-aloud", f"{st.card_name(card)} is discarded")
            yield from lose_card(st, s, card)
            return
        if card in e.kept:
            e.kept.remove(card)
            st.discards["event"].append(card)
            st.emit("event.resolve-and-discard", f"{st.card_name(card)} is discarded")
            return
    if card in st.resolving:
        st.resolving.remove(card)
        st.discards["event"].append(card)
        st.emit("event.resolve-and-discard", f"{st.card_name(card)} is discarded")


def _keep(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    card = ctx.source.partition(":")[2]
    if spec.get("abilities"):
        st.kept_abilities[card] = tuple(spec["abilities"])
    st.kept_until[card] = tuple(spec.get("until", ()))
    st.item_raised.discard(ctx.seat)  # only items that raise a trait from now on end the effect
    if spec.get("status"):
        yield from _status(st, spec["status"], ctx, eff)
    ctx.kept = "player"
    st.emit("event.resolve-and-discard", f"{st.card_name(card)} stays in front of {st.name(ctx.seat)} (lasting effect)")


def _status(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    name = str(spec["name"])
    st.status_rules[name] = dict(spec)
    st.ex[ctx.seat].status[name] = 0
    card = ctx.source.partition(":")[2]
    st.status_cards[(ctx.seat, name)] = card
    ctx.kept = "player"
    st.emit("card.read-aloud", f"{st.name(ctx.seat)} is {name}: they keep {st.card_name(card)} and can do nothing until freed")
    if ctx.seat == st.current:
        st.turn.stopped = True
        st.turn.stop_rule = "card.read-aloud"  # the status card's own text holds the explorer
    return
    yield


def _discard_status_card(st: BetrayalState, seat: str, name: str) -> None:
    card = st.status_cards.pop((seat, name), None)
    e = st.ex[seat]
    if card and card in e.kept:
        e.kept.remove(card)
        st.discards["event"].append(card)


def _escape(st: BetrayalState, helper: str, seat: str, name: str) -> Gen[None]:
    rule = st.status_rules[name]["escape_roll"]
    st.turn.keys.add(f"escape:{seat}:{name}")
    ctx = Ctx(helper, f"status:{name}")
    total = yield from _roll_once(st, helper, str(rule["trait"]), {}, ctx)
    if total >= int(rule["target"]):
        del st.ex[seat].status[name]
        st.emit("roll.target-at-least", f"{total} against {rule['target']}+: {st.name(seat)} is freed ({name})")
        _discard_status_card(st, seat, name)
        on_escape = st.status_rules[name].get("on_escape")
        if on_escape:
            yield from run(st, on_escape, Ctx(seat, f"status:{name}"))
    else:
        st.ex[seat].status[name] += 1
        st.emit("roll.target-at-least", f"{total} against {rule['target']}+: {st.name(seat)} stays {name} "
                f"({st.ex[seat].status[name]} failed)")
        if helper != seat and rule.get("helper_fail_stops_helper"):
            st.turn.stopped = True


def _choose(st: BetrayalState, options: Sequence[Mapping[str, Any]], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    acts = [Action.of("option", label=o["label"]) for o in options]
    a = yield from st.ask(ctx.seat, acts, "choose an option")
    chosen = options[acts.index(a)]
    st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} chooses {chosen['label']}")
    yield from run(st, chosen["do"], ctx)


def _if(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    holds = condition(st, spec["condition"], ctx)
    yield from run(st, spec["then"] if holds else spec.get("else", []), ctx)
    if spec["condition"].get("custom") == "mask-worn":
        card = ctx.source.partition(":")[2]
        if holds:
            st.masks_worn.discard(card)
        else:
            st.masks_worn.add(card)


def _store_roll(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    faces = yield from st.roll(int(spec["dice"]), "a roll to keep for later")
    st.stored_rolls[ctx.seat] = sum(faces)
    st.emit("roll.fixed-dice", f"{st.name(ctx.seat)} rolls {spec['dice']} dice and keeps the result {sum(faces)} for later")


def _passive(st: BetrayalState, spec: Any, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    return  # passive effects are looked up where they matter (damage, dice, room text)
    yield


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
                f"{st.room_name(seen) if seen else 'nothing'}")
        return
    kinds = {"any": ("omen", "item", "event"), "item-or-event": ("item", "event")}.get(stack, (stack,))
    kinds = tuple(k for k in kinds if st.decks.get(k))
    if not kinds:
        st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} has no card stack to look at")
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
                "on top of the shuffled rest")
        return
    count = len(st.decks[kind]) if spec["count"] == "all" else int(spec["count"])
    looked = yield from st.peek_cards(kind, count)
    st.emit("card.peek-known-top", f"{st.name(ctx.seat)} looks at the top {len(looked)} {kind} card(s)"
            + ("" if spec.get("secret") else ": " + ", ".join(st.card_name(c) for c in looked)))
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
    st.emit("card.peek-reorder", f"{st.name(ctx.seat)} puts the {len(order)} {kind} cards back in a chosen order")


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
    st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} takes {st.card_name(card)} from {st.name(owner)}")
    yield from card_stolen(st, owner, card)
    yield from gain_card(st, ctx.seat, card)


def _return_card(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    from hauntcheck.engine.core import Draw

    e = st.ex[ctx.seat]
    types = ("item",) if spec["type"] == "item" else ("item", "omen")
    cards = [c for c in e.cards if st.t.cards[c].type in types]
    if not cards:
        st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} has no card to give up")
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
        st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} discards {st.card_name(card)}")
    else:
        st.decks[kind] = sorted([*st.decks[kind], card])
        st.deck_tops[kind] = []  # shuffled: cards looked at are no longer known on top
        st.emit(source_rule(st, ctx), f"{st.card_name(card)} goes back into the {kind} stack, which is shuffled")
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
    st.emit(source_rule(st, ctx), f"{st.card_name(card)} ends up in an item pile in {st.room_name(room)}")
    yield from lose_card(st, ctx.seat, card)


def _custom(st: BetrayalState, name: Any, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    hook = EFFECT_HOOKS.get(str(name))
    if hook is None:
        st.emit(source_rule(st, ctx), f"{_source_name(st, ctx.source)}: not simulated before the haunt: {eff.get('says', name)}")
        return
    yield from hook(st, ctx, eff)


VERBS: dict[str, Callable[..., Gen[None]]] = {
    "gain": _gain_lose(1),
    "lose": _gain_lose(-1),
    "damage": _damage,
    "heal": _heal,
    "set_trait": _set_trait,
    "roll": _roll,
    "move": _move,
    "draw": _draw,
    "draw_room": _draw_room_verb,
    "move_tile": _move_tile,
    "stop_moving": _flag("stop_moving"),
    "end_turn": _flag("end_turn"),
    "no_attack_this_turn": _flag("no_attack_this_turn"),
    "extra_move": _flag("extra_move"),
    "attack": _attack,
    "must_attack": _no_attack_yet,
    "pull": _pull,
    "place_token": _place_token,
    "remove_token": _remove_token,
    "link": _link,
    "discard_self": _discard_self,
    "keep": _keep,
    "status": _status,
    "choose": _choose,
    "if": _if,
    "store_roll": _store_roll,
    "adjust_roll": _passive,
    "modify_rolls": _passive,
    "reduce_damage": _passive,
    "convert_damage": _passive,
    "immune_to_rooms": _passive,
    "attack_option": _passive,
    "max_move": _passive,
    "block_line_of_sight": _passive,
    "peek": _peek,
    "take_item": _take_item,
    "return_card": _return_card,
    "move_card": _move_card,
    "custom": _custom,
}


# --------------------------------------------------------------------------------------------
# Conditions and targets


def condition(st: BetrayalState, cond: Mapping[str, Any], ctx: Ctx) -> bool:
    e = st.ex[ctx.seat]
    for key, value in cond.items():
        if key in ("says", "cite", "unverified", "judgement"):
            continue
        ok: bool
        if key == "in_room":
            ok = e.room in ([value] if isinstance(value, str) else value)
        elif key == "room_in_house":
            ok = any(r in st.house for r in ([value] if isinstance(value, str) else value))
        elif key == "on_floor":
            ok = st.house.floor_of(e.room) == value
        elif key == "room_symbol":
            ok = st.t.rooms[e.room].symbol == value
        elif key == "room_has_window":
            ok = (st.t.rooms[e.room].windows is True) == bool(value)
        elif key == "holds":
            ok = all(c in e.cards for c in ([value] if isinstance(value, str) else value))
        elif key == "anyone_holds":
            ok = any(value in x.cards for x in st.ex.values())
        elif key == "holds_card_type":
            ok = any(st.t.cards[c].type == value for c in e.cards)
        elif key == "haunt_started":
            ok = (st.haunt is not None) == bool(value)
        elif key == "is_traitor":
            ok = (st.haunt is not None and st.haunt.get("traitor") == ctx.seat) == bool(value)
        elif key == "other_explorer_here":
            ok = any(s != ctx.seat and x.room == e.room for s, x in st.ex.items()) == bool(value)
        elif key == "took_damage":
            ok = ctx.took_damage == bool(value)
        elif key == "target_has_trait":
            ok = True
        elif key == "first_time":
            ok = ctx.discovering == bool(value)
        elif key == "all_of":
            ok = all(condition(st, c, ctx) for c in value)
        elif key == "any_of":
            ok = any(condition(st, c, ctx) for c in value)
        elif key == "not":
            ok = not condition(st, value, ctx)
        elif key == "custom":
            hook = CONDITION_HOOKS.get(str(value))
            ok = hook(st, ctx) if hook is not None else False
        else:
            ok = False
        if not ok:
            return False
    return True


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


# --------------------------------------------------------------------------------------------
# Named hooks for what the vocabulary cannot say


def _hook_junk_exit(st: BetrayalState, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    if ctx.seat == st.current and st.turn.moved + 1 > st.speed(ctx.seat) + st.turn.extra:
        st.turn.short_exit = True
        st.emit("room.junk-room.always-escapes", f"{st.name(ctx.seat)} has too little Speed left but still gets out; "
                "movement stops in the next room")
    return
    yield


def _hook_music_toggle(st: BetrayalState, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    card = ctx.source.partition(":")[2]
    if card in st.open_boxes:
        st.open_boxes.discard(card)
        st.emit("card.read-aloud", f"{st.name(ctx.seat)} closes the {st.card_name(card)}")
    else:
        st.open_boxes.add(card)
        st.emit("card.read-aloud", f"{st.name(ctx.seat)} opens the {st.card_name(card)}")
    return
    yield


def _hook_music_drop(st: BetrayalState, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    e = st.ex[ctx.seat]
    for card in list(e.cards):
        if card in st.open_boxes or any(x.get("custom") == "music-box-toggle" for a in st.t.cards[card].abilities
                                        for x in a.get("do", [])):
            e.cards.remove(card)
            st.piles.setdefault(e.room, []).append(card)
            st.emit("card.read-aloud", f"{st.name(ctx.seat)} is mesmerized and drops the {st.card_name(card)}")
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
            st.emit("card.read-aloud", f"{st.name(seat)} discards the Puzzle Box and draws a replacement item")
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
                st.emit("card.read-aloud", f"{st.card_name(card)} passes to {st.name(other)}")
                sub = Ctx(other, ctx.source)
                for ability in st.t.cards[card].abilities:
                    if ability.get("trigger") == "on-draw":
                        if kind == "not-basement":
                            yield from run(st, ability["do"][0]["if"]["else"], sub)
                        else:
                            yield from run(st, ability["do"][0]["if"]["then"], sub)
                ctx.kept = ctx.kept or sub.kept
                return
        st.emit("card.read-aloud", f"nobody qualifies: {st.card_name(card)} has no effect")

    return hook


def _hook_dog(st: BetrayalState, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    """The Dog runs up to 6 spaces through explored rooms (no one-way passages, no rolls) and
    back: it fetches one item from a pile there, or carries one of yours to a room there."""
    e = st.ex[ctx.seat]
    dist = st.walking_distances(ctx.seat)  # as movement goes: no barrier crossed without its roll
    near = sorted(r for r, d in dist.items() if d <= 6)
    acts = [Action.of("dog", fetch=c, room=r) for r in near for c in st.piles.get(r, ())
            if st.t.cards[c].item and c not in st.turn.items_acted]
    acts += [Action.of("dog", carry=c, room=r) for c in e.cards if st.t.cards[c].can_drop
             and c not in st.turn.items_acted for r in near if r != e.room]
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
        st.emit("card.read-aloud", f"the Dog fetches {st.card_name(card)} from {st.room_name(room)} for {st.name(ctx.seat)}")
        yield from gain_card(st, ctx.seat, card)
    elif a.get("carry") is not None and isinstance(room, str):
        card = str(a["carry"])
        e.cards.remove(card)
        st.piles.setdefault(room, []).append(card)
        st.turn.items_acted.add(card)
        st.emit("card.read-aloud", f"the Dog carries {st.card_name(card)} to {st.room_name(room)}")
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
                "moved for the traitor's side this round: it stays")
        return
    st.elevator_villain_round = st.villain_round()
    st.emit("room.mystic-elevator.villains-choose", f"{who} rides the {st.room_name(room)} without rolling")
    st.emit("traitor.elevator-choice", f"{st.name(seat)} chooses where the {st.room_name(room)} goes")
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


ONGOING_HOOKS: dict[str, Callable[..., Gen[None]]] = {
    "bell-book-candle": _hook_bell_book_candle,
}

CONDITION_HOOKS: dict[str, Callable[[BetrayalState, Ctx], bool]] = {
    "below-collapsed-token-placed": lambda st, ctx: any("below-collapsed-room" in t for t in st.tokens.values()),
    "vault-opened": lambda st, ctx: "vault-empty" in st.tokens.get(st.ex[ctx.seat].room, []),
    "elevator-stayed-whole-turn": _elevator_stayed,
    "music-box-open": _music_open_here,
    "item-raised-trait": lambda st, ctx: ctx.seat in st.item_raised,
    "mask-worn": lambda st, ctx: ctx.source.partition(":")[2] in st.masks_worn,
}

