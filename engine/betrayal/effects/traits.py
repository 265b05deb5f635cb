"""Traits changed by effects: gain and lose, damage, healing, setting a trait, and attacks by unseen forces.

Damage is spread by the victim over the two traits of its kind, as they choose; cards that reduce
or convert damage apply first unless the damage is ``unreducible`` (:func:`take_damage`,
``damage.*``). Healing raises traits back toward their starting values; ``set_trait`` puts a trait
at a value or its starting value. An ``attack`` effect is an attack by a force nobody controls:
both sides roll and the loser takes the difference.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from hauntcheck.engine.betrayal.effects.abilities import held_abilities
from hauntcheck.engine.betrayal.effects.context import GROUPS, Ctx, _source_name
from hauntcheck.engine.betrayal.effects.interpreter import run
from hauntcheck.engine.betrayal.effects.rolls import _bitsets, dice_for, own_roll
from hauntcheck.engine.betrayal.effects.triggers import lose_card
from hauntcheck.engine.betrayal.model import MENTAL, PHYSICAL, TRAITS
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.state import BetrayalState, Gen


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
        st.emit("damage.dice-of-damage", f"{st.name(ctx.seat)} rolls {spec['dice']} dice of {kind} damage: {points}",
            seat=ctx.seat, count=spec['dice'], kind=kind, amount=points)
    else:
        points = int(spec["points"])
    if spec.get("discard_items"):
        points = yield from _discard_to_reduce(st, ctx.seat, points, int(spec["discard_items"]))
    yield from take_damage(st, ctx.seat, kind, points, ctx, reducible=not spec.get("unreducible"))


def _discard_to_reduce(st: BetrayalState, seat: str, points: int, per_item: int) -> Gen[int]:
    """``discard_items``: before taking the damage the victim may discard item cards, one at a
    time, each taking ``per_item`` points off (the Dragon's fire breath)."""
    e = st.ex[seat]
    while points > 0:
        items = [c for c in e.cards if st.t.cards[c].type == "item"]
        if not items:
            break
        a = yield from st.ask(seat, [Action.of("take-damage", points=points)]
                              + [Action.of("discard-to-reduce", card=c) for c in items],
                              f"discard an item to take {per_item} less of {points} damage?")
        if a.kind != "discard-to-reduce":
            break
        card = str(a["card"])
        e.cards.remove(card)
        st.discards["item"].append(card)
        points = max(0, points - per_item)
        st.emit("card.card-beats-book", f"{st.name(seat)} discards {st.card_name(card)} to take {per_item} less "
                f"damage: {points}", seat=seat, card=card, amount=points)
        yield from lose_card(st, seat, card)
    return points


def take_damage(st: BetrayalState, seat: str, kind: str, points: int, ctx: Ctx | None = None,
                reducible: bool = True) -> Gen[None]:
    """The victim spreads the damage over the two traits of the kind as they choose (cards that
    reduce or convert damage first, unless the damage is ``unreducible``). A haunt status may
    change the kind first (``damage_as``: a Soul takes physical damage as mental)."""
    if points > 0:
        turned = st.damage_kind(seat, kind)
        if turned != kind:
            st.emit("haunt.rules-override", f"{st.name(seat)} takes the {points} {kind} damage as {turned}",
                    seat=seat, amount=points, kind=turned, old=kind)
            kind = turned
    for source, _, ability in held_abilities(st, seat) if reducible else ():
        if ability.get("trigger") != "ongoing":
            continue
        for eff in ability.get("do", []):
            red = eff.get("reduce_damage")
            if red and red.get("type") == kind and points > 0:
                points = max(0, points - int(red["by"]))
                st.emit("card.card-beats-book", f"{_source_name(st, source)} reduces the {kind} damage to {points}",
                    kind=kind, amount=points, source=source)
            conv = eff.get("convert_damage")
            if conv and ability.get("timing") == "when-taking-damage" and conv.get("from") == kind and points > 0:
                a = yield from st.ask(seat, [Action.of("convert", to=conv["to"]), Action.of("keep", type=kind)],
                                      f"take the {kind} damage as {conv['to']}?")
                if a.kind == "convert":
                    kind = str(conv["to"])
                    st.emit("card.card-beats-book", f"{_source_name(st, source)}: the damage is taken as {kind}", kind=kind, source=source)
    if points > 0:
        points = st.damage_taken(seat, kind, points, reducible)
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
    st.emit(rule, f"{st.name(seat)} takes {points} {kind} damage: {ka} to {a_trait}, {kb} to {b_trait}",
        seat=seat, amount=points, kind=kind, **{a_trait: ka, b_trait: kb})
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
        st.emit("card.read-aloud", f"{st.name(ctx.seat)} has nothing to heal", seat=ctx.seat)
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
            st.emit("card.read-aloud", f"{t} is already at its lowest value", seat=ctx.seat, trait=t)
            yield from run(st, spec["if_already"], ctx)
            continue
        if spec.get("only_if_below") and e.idx[t] >= target:
            continue
        delta = target - e.idx[t]
        if delta:
            st.trait_change(ctx.seat, t, delta)


def _attack(st: BetrayalState, spec: Mapping[str, Any], ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    """An attack on the explorer by an unseen force: both sides roll, the loser takes the difference."""
    strength = int(spec["strength"])
    trait = str(spec.get("defend_with", spec["trait"]))
    att = yield from st.roll(strength, f"an attack of {spec['trait']} {strength}")
    a_total = sum(att)
    d_total = yield from own_roll(st, ctx.seat, dice_for(st, ctx.seat, st.value(ctx.seat, trait), ctx, trait_roll=False),
                                  "combat", f"defending with {trait}", ctx)
    st.emit("attack.might-roll-off" if trait == "might" else "attack.other-trait",
            f"{_source_name(st, ctx.source)} attacks {st.name(ctx.seat)}: {a_total} against {d_total}",
        seat=ctx.seat, total=a_total, against=d_total, trait=trait, source=ctx.source)
    if a_total == d_total:
        st.emit("attack.tie-no-damage", "a tie: nobody is hurt")
        return
    if d_total > a_total:
        st.emit("attack.higher-wins", f"{st.name(ctx.seat)} wins; the attacker is not a character and takes nothing", seat=ctx.seat)
        return
    kind = "physical" if trait in PHYSICAL else "mental"
    st.emit("attack.damage-difference", f"{st.name(ctx.seat)} loses by {a_total - d_total}", seat=ctx.seat, amount=a_total - d_total)
    yield from take_damage(st, ctx.seat, kind, a_total - d_total, ctx)


def _no_attack_yet(st: BetrayalState, spec: Any, ctx: Ctx, eff: Mapping[str, Any]) -> Gen[None]:
    st.emit("attack.not-before-haunt", f"{st.name(ctx.seat)} cannot attack before the haunt: nothing happens", seat=ctx.seat)
    return
    yield
