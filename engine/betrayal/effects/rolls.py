"""Rolls: how many dice, the roll itself, and what the dice bands do.

:func:`dice_for` counts the dice of a roll: the base (a trait or a fixed count), the roll's own
extra dice, ongoing modifiers of tokens in the room and of held cards, at most 8 dice
(``roll.*``). :func:`own_roll` is a roll made by an explorer: held items that change rolls may be
used before it (extra dice, a bonus, naming the result) and after it (rerolls), each within its
limit and paying its cost (:data:`ROLL_TIMINGS`). The ``roll`` verb rolls for one or more
explorers and runs the effects of the band or target the total reaches (:func:`_roll`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hauntcheck.engine.betrayal.effects.abilities import _applies, _limit_ok, _use_limit, held_abilities, room_abilities_with
from hauntcheck.engine.betrayal.effects.context import Ctx, _key, _source_name, _sub, _who, source_rule
from hauntcheck.engine.betrayal.effects.interpreter import condition, run
from hauntcheck.engine.betrayal.model import Ability
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.state import BetrayalState, Gen


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
        sources = [a for _, _, a in room_abilities_with(st, e.room, ("ongoing",))] + [a for _, _, a in held_abilities(st, seat)]
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
        if not st.quiet:  # the text is work: skipped when nobody reads the events
            st.emit("roll.target-at-least", f"{total} against {need}+: {'success' if passed else 'failure'}",
                    total=total, need=need, passed=passed)
        yield from run(st, spec.get("pass" if passed else "fail", []), ctx)
        if "bands" not in spec:
            return
    band = _band(spec.get("bands", []), total)
    if band is not None:
        if band.get("says"):
            st.emit(source_rule(st, ctx), band["says"], total=total, source=ctx.source)
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
        if st.quiet:
            return total  # the texts are work: skipped when nobody reads the events
        note = "" if n == value else f" ({n} dice after modifiers)"
        st.emit("roll.trait-roll", f"{st.name(seat)} makes a {trait} roll with {trait} {value}{note}: {total}",
            seat=seat, trait=trait, value=value, count=n, total=total)
        track = st.t.explorers[st.ex[seat].id].traits[trait]
        if value != track.values[track.start]:
            st.emit("trait.current-value-used", f"the roll counts {trait} {value}, where the clip is now, not the starting "
                    f"{track.values[track.start]}", trait=trait, value=value)
        if value > 8:
            st.emit("roll.max-eight-dice", "no roll uses more than 8 dice")
        return total
    n = dice_for(st, seat, int(spec["dice"]), ctx, extra, trait_roll=False)
    total = yield from own_roll(st, seat, n, "event" if _from_event(st, ctx) else "dice", f"{n} dice", ctx)
    st.emit("roll.fixed-dice", f"{st.name(seat)} rolls {n} dice: {total}", seat=seat, count=n, total=total)
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
    st.emit("item.use-defined", f"{st.name(seat)} uses {_source_name(st, source)} on the roll", seat=seat, source=source)
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
            st.emit("card.card-beats-book", f"{st.name(seat)} names the result {named['value']} instead of rolling",
                seat=seat, value=named['value'])
            return int(named["value"])  # type: ignore[arg-type]
        if adjust.get("stored_result"):
            stored = min(st.stored_rolls.pop(seat), 2 * max(n, 0))
            st.emit("card.card-beats-book", f"{st.name(seat)} uses the stored result {stored} instead of rolling", seat=seat, total=stored)
            return stored
        if "extra_dice" in adjust:
            n = min(n + int(adjust["extra_dice"]), int(adjust.get("max_dice", 8)), 8)
            st.emit("roll.max-eight-dice", f"{st.name(seat)} now rolls {n} dice (never more than 8)", seat=seat, count=n)
        add += int(adjust.get("add_to_result", 0))
    if kind == "trait" and seat == st.current and st.turn.seat == seat:
        if "rolled" in st.turn.keys:
            st.emit("roll.no-limit-per-turn", f"{st.name(seat)} makes another roll this turn ({purpose}): any number of "
                    "different rolls may be made", seat=seat)
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
        st.emit("card.card-beats-book", f"{st.name(seat)} rerolls {len(chosen)} dice: now {sum(faces)}",
            seat=seat, count=len(chosen), dice=list(faces), total=sum(faces))
    if add:
        st.emit("card.card-beats-book", f"{st.name(seat)} adds {add} to the roll", seat=seat, amount=add)
    if kind == "haunt" and len(faces) > 1:
        # cited on the haunt roll, the one roll every game makes with the same six dice
        st.emit("roll.sum-dots", f"the result adds up the dots of all the dice: {' + '.join(map(str, faces))} = {sum(faces)}",
            dice=list(faces), total=sum(faces))
    return sum(faces) + add
