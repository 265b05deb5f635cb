"""The actions abilities add to an explorer's turn, and what doing one runs.

In-room abilities the explorer may use now and the barrier crossing (:func:`room_actions`),
on-use abilities of held cards usable at any time in the turn (:func:`card_actions`), escape
rolls from lasting hindrances for oneself or someone in the room (:func:`status_actions`), and
:func:`do_action` carrying out the one chosen. A hindrance may block moving (:func:`blocked`); a
held card may cap the spaces moved (:func:`max_move`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal.effects.abilities import (
    _applies,
    _limit_ok,
    _use_limit,
    held_abilities_with,
    room_abilities_with,
)
from hauntcheck.engine.betrayal.effects.cards import _escape
from hauntcheck.engine.betrayal.effects.context import Ctx, _ability_of, _key, _pick_seat, _source_name, _who, source_rule
from hauntcheck.engine.betrayal.effects.hooks import EFFECT_HOOKS
from hauntcheck.engine.betrayal.effects.interpreter import condition, leads_to_closed_floor, run
from hauntcheck.engine.core import Action, act

#: The triggers of the room abilities the turn menu offers (:func:`room_actions`).
MENU_TRIGGERS = ("in-room", "cross")

# Roll-gated ways the traitor takes without the roll (the Revolving Wall's switch), by ability source.
TRAITOR_PASSES: dict[str, str] = {"token:wall-switch": "traitor.revolving-wall"}

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.state import BetrayalState, Gen


def blocked(st: BetrayalState, seat: str) -> bool:
    """Whether a lasting hindrance of the explorer blocks everything or moving."""
    e = st.ex[seat]
    if not e.status:
        return False  # the usual case, asked at every decision of a turn
    return any("all" in st.status_rules.get(s, {}).get("blocks", ["all"]) or "move" in st.status_rules.get(s, {}).get(
        "blocks", []) for s in e.status)


def max_move(st: BetrayalState, seat: str) -> int | None:
    for _, _, a in held_abilities_with(st, seat, "ongoing"):
        for eff in a.get("do", []):
            if "max_move" in eff:
                return int(eff["max_move"])
    return None


def room_actions(st: BetrayalState, seat: str) -> list[Action]:
    """In-room abilities the explorer may use now, and the barrier crossing."""
    e = st.ex[seat]
    out = []
    rdef = st.t.rooms[e.room]
    for source, index, ability in room_abilities_with(st, e.room, MENU_TRIGGERS):
        trig = ability.get("trigger")
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
        out.append(act("cross" if trig == "cross" else "use", "ability", _key(source, index)))
    return out


def card_actions(st: BetrayalState, seat: str) -> list[Action]:
    """On-use abilities of held cards that can be used at any time in the turn."""
    out = []
    for source, index, ability in held_abilities_with(st, seat, "on-use"):
        if not _applies(st, seat, ability):
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
        out.append(act("use", "ability", _key(source, index)))
    return out


def status_actions(st: BetrayalState, seat: str) -> list[Action]:
    """Escape rolls from lasting hindrances (buried, stuck) for yourself or someone here."""
    out: list[Action] = []
    for x in st.ex.values():
        if x.status:
            break
    else:
        return out  # nobody is hindered (asked at every decision of a turn)
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
        if not st.quiet:  # the text is work: skipped when nobody reads the events
            st.emit("item.once-per-turn-use", f"{st.name(seat)} uses {_source_name(st, source)}", seat=seat, source=source)
    if a.kind == "cross":
        st.emit("room.barrier.once-per-turn", f"{st.name(seat)} tries to cross the barrier of {st.room_name(st.ex[seat].room)}",
            seat=seat, room=st.ex[seat].room)
        stopped = st.turn.stopped
        yield from run(st, ability.get("do", []), ctx)
        if st.turn.stopped and not stopped:
            st.emit("room.barrier.fail-ends-move", f"{st.name(seat)} fails to cross; movement ends", seat=seat)
        elif ctx.passed is not False:
            e = st.ex[seat]
            e.part = 1 - e.part
            st.emit("room.barrier.crossing-free", f"{st.name(seat)} crosses to the far side (no space used)", seat=seat)
        return
    if ability.get("says") and source.startswith(("room:", "token:")):
        st.emit(source_rule(st, ctx), f"{_source_name(st, source)}: {ability['says']}", source=source)
    if source == "room:vault" and st.haunt is not None and st.haunt.get("traitor") == seat:
        st.emit("room.vault.traitor-rolls", f"{st.name(seat)} is the traitor but still rolls to open the Vault", seat=seat)
    if source in TRAITOR_PASSES and st.haunt is not None and st.haunt.get("traitor") == seat:
        st.emit(TRAITOR_PASSES[source], f"{st.name(seat)} is the traitor and passes {_source_name(st, source)} without rolling", seat=seat,
            source=source)
        for step in ability.get("do", []):
            yield from run(st, step["roll"].get("pass", []) if "roll" in step else [step], ctx)
        return
    if source == "room:collapsed-room":
        st.emit("room.collapsed-room.later-optional", f"{st.name(seat)} jumps down on purpose", seat=seat)
        st.emit("room.collapsed-room.fall-free", "the fall uses no space of movement")
    who = ability.get("who")
    if who in ("self-or-explorer-here", "chosen-explorer-here"):
        targets = _who(st, who, ctx)
        t = yield from _pick_seat(st, seat, targets, "choose whom the card helps")
        ctx.seat = t
        ctx.actor = seat
    yield from run(st, ability.get("do", []), ctx)
