"""The effect interpreter: an effect list run in order, verb by verb, and the conditions that guard it.

:func:`run` carries out a list of effects for ``ctx.seat``: an effect for other explorers (``who``)
runs once for each of them; an ``optional`` effect is offered as a use-or-skip decision; an effect
switched off by its variant is skipped; an effect that would take someone to a floor out of play
is not carried out (``haunt.floor-removed``, :func:`closed_floor_of`). Each effect's verb is looked
up in :data:`VERBS`; a verb the engine does not carry out is reported as an event saying that it is
not simulated before the haunt, so a transcript never hides it. :func:`condition` evaluates a
condition (``all_of``, ``any_of``, ``not``, traits, cards, rooms, the roll just made, and the
named conditions of :data:`CONDITION_HOOKS`).

The tables this module looks names up in are filled by the modules that define their entries:
:data:`VERBS` by :mod:`.verbs`, :data:`CONDITION_HOOKS` and :data:`ONGOING_HOOKS` by :mod:`.hooks`
(those modules call back into :func:`run`, so the tables live here and are filled there).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from hauntcheck.engine.betrayal.effects.context import Ctx, Effects, _source_name, _sub, _verb, _who, source_rule, variant_on
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.state import BetrayalState, Gen


#: Each effect verb's handler, by its key (filled by :mod:`.verbs`).
VERBS: dict[str, Callable[..., Gen[None]]] = {}

#: Named conditions (``{custom: <name>}`` in a condition), filled by :mod:`.hooks`.
CONDITION_HOOKS: dict[str, Callable[[BetrayalState, Ctx], bool]] = {}

#: Hooks re-checked whenever an explorer's cards change, filled by :mod:`.hooks`.
ONGOING_HOOKS: dict[str, Callable[..., Gen[None]]] = {}


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
                    f"{closed} floor, which is out of play: nobody moves", seat=ctx.seat, floor=closed, source=ctx.source)
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


def _one(st: BetrayalState, eff: Mapping[str, Any], ctx: Ctx) -> Gen[None]:
    verb = _verb(eff)
    handler = VERBS.get(verb)
    if handler is None:
        st.emit(source_rule(st, ctx), f"{_source_name(st, ctx.source)}: '{verb}' is not simulated before the haunt"
                + (f" ({eff['says']})" if eff.get("says") else ""), source=ctx.source, verb=verb)
        return
    yield from handler(st, eff[verb], ctx, eff)


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
