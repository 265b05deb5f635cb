"""The verb table: each effect verb's key and the function that carries it out.

Most verbs live with what they change (traits, rolls, movement, cards); the ones here steer the
effect list itself: ``choose`` (the explorer picks one option), ``if`` (a condition picks a
branch), ``store_roll``, the turn flags (``stop_moving``, ``end_turn``, ...), ``passive`` (an
ability read elsewhere) and ``custom`` (a named hook of :mod:`.hooks`). The table fills
:data:`~hauntcheck.engine.betrayal.effects.interpreter.VERBS` (declared by the interpreter, which
the verbs call back into).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hauntcheck.engine.betrayal.effects.cards import (
    _discard_self,
    _draw,
    _keep,
    _move_card,
    _peek,
    _place_token,
    _remove_token,
    _return_card,
    _status,
    _take_item,
)
from hauntcheck.engine.betrayal.effects.context import Ctx, _source_name, source_rule
from hauntcheck.engine.betrayal.effects.hooks import EFFECT_HOOKS
from hauntcheck.engine.betrayal.effects.interpreter import VERBS, condition, run
from hauntcheck.engine.betrayal.effects.movement import _draw_room_verb, _link, _move, _move_tile, _pull
from hauntcheck.engine.betrayal.effects.rolls import _roll
from hauntcheck.engine.betrayal.effects.traits import _attack, _damage, _gain_lose, _heal, _no_attack_yet, _set_trait
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.state import BetrayalState, Gen


def _flag(name: str) -> Callable[..., Gen[None]]:
    def handler(st: BetrayalState, value: Any, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
        if ctx.seat != st.current:
            return
        if name == "stop_moving":
            if not st.turn.stopped:
                st.turn.stopped = True
                st.turn.stop_rule = source_rule(st, ctx)
                st.emit(st.turn.stop_rule, f"{st.name(ctx.seat)}'s movement ends", seat=ctx.seat)
        elif name == "end_turn":
            st.turn.end_now = True
            st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)}'s turn ends", seat=ctx.seat)
        elif name == "no_attack_this_turn":
            st.turn.no_attack = True
        elif name == "extra_move":
            st.turn.extra += int(value)
            st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} gets {value} free space(s) of movement", seat=ctx.seat, amount=value)
        return
        yield

    return handler


def _choose(st: BetrayalState, options: Sequence[Mapping[str, Any]], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    acts = [Action.of("option", label=o["label"]) for o in options]
    a = yield from st.ask(ctx.seat, acts, "choose an option")
    chosen = options[acts.index(a)]
    st.emit(source_rule(st, ctx), f"{st.name(ctx.seat)} chooses {chosen['label']}", seat=ctx.seat, label=chosen['label'])
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
    st.emit("roll.fixed-dice", f"{st.name(ctx.seat)} rolls {spec['dice']} dice and keeps the result {sum(faces)} for later",
        seat=ctx.seat, dice=list(faces), total=sum(faces))


def _passive(st: BetrayalState, spec: Any, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    return  # passive effects are looked up where they matter (damage, dice, room text)
    yield


def _custom(st: BetrayalState, name: Any, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    hook = EFFECT_HOOKS.get(str(name))
    if hook is None:
        st.emit(source_rule(st, ctx), f"{_source_name(st, ctx.source)}: not simulated before the haunt: {eff.get('says', name)}",
            source=ctx.source)
        return
    yield from hook(st, ctx, eff)


VERBS.update({
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
})
