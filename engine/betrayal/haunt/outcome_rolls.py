"""The haunt outcomes that roll dice: a lookup roll or a roll against a target (``roll_dice``),
a trait roll (``trait_roll``), dice of trait points lost or gained (``trait_points``) and a
monster's contest with the best explorer in its room (``contest``). Each takes the haunt state
(:class:`~hauntcheck.engine.betrayal.haunt.outcomes.Outcomes`) and runs the outcomes that follow
through it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt.pieces import Monster
from hauntcheck.engine.betrayal.model import TRAITS
from hauntcheck.engine.betrayal.state import Gen
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.outcomes import Outcomes


def trait_points(st: Outcomes, seat: str, spec: Mapping[str, Any]) -> Gen[None]:
    """``trait_points``: the explorer rolls the dice and loses (or gains) that many trait
    points, choosing a trait for each point in turn among ``traits`` (all four by default)."""
    lose = spec["change"] == "lose"
    traits = [str(t) for t in spec.get("traits", TRAITS)]
    if "points" in spec:
        total = st._amount(spec["points"])
        st.emit("haunt.rules-override", f"{st.name(seat)} {'loses' if lose else 'gains'} {total} trait point(s), "
                  f"spread over {', '.join(traits)}", seat=seat, lose=bool(lose), total=total, traits=list(traits))
    else:
        dice = st._amount(spec["dice"])
        total = yield from effects.own_roll(st, seat, dice, "trait", f"{dice} dice of trait points",
                                            effects.Ctx(seat, "haunt"))
        st.emit("haunt.rules-override", f"{st.name(seat)} {'loses' if lose else 'gains'} {total} trait point(s) "
                  f"({dice} dice), spread over {', '.join(traits)}",
            seat=seat, lose=bool(lose), total=total, count=dice, traits=list(traits))
    for i in range(total):
        e = st.ex[seat]
        if e.dead:
            return
        options = traits if lose else [t for t in traits if e.idx[t] < len(st.t.explorers[e.id].traits[t].values) - 1]
        if not options:
            return  # every trait at its top: nothing left to gain
        kind = "damage" if lose else "trait"
        acts = [Action.of(kind, **{t: 1}) if lose else Action.of(kind, trait=t) for t in options]
        a = yield from st.ask(seat, acts, f"{'lose' if lose else 'gain'} trait point {i + 1} of {total}")
        trait = next(t for t in options if a.get(t) is not None) if lose else str(a["trait"])
        st.trait_change(seat, trait, -1 if lose else 1)


def roll_attack(st: Outcomes, spec: Mapping[str, Any], m: Monster | None) -> Gen[None]:
    """``roll_attack``: one roll of the dice attacks every explorer in play but those meeting
    ``unless``; each resists with a roll of its ``trait``, and one who rolls lower takes the
    difference as damage (physical for Might and Speed, else mental). Above 8 dice the roll is
    capped (``roll.max-eight-dice``) unless ``no_dice_limit``: then it is made in batches of 8."""
    dice = st._amount(spec["dice"])
    trait = str(spec["trait"])
    if dice > 8 and not spec.get("no_dice_limit"):
        st.emit("roll.max-eight-dice", f"{dice} dice are called for: 8 are rolled", count=dice)
        dice = 8
    total = 0
    left = dice
    while left > 0:
        faces = yield from st.roll(min(left, 8), f"an attack of {dice} dice on every explorer")
        total += sum(faces)
        left -= 8
    st.emit("haunt.rules-override", f"{dice} dice attack every explorer in the house: {total}", count=dice, total=total)
    kind = "physical" if trait in ("might", "speed") else "mental"
    for seat in [s for s in st.seat_ids if st.in_play(s)]:
        if "unless" in spec and st.pred(spec["unless"], seat, m):
            continue
        resist = yield from effects.own_roll(st, seat, st.value(seat, trait), "trait", f"{st.name(seat)} resists with {trait}",
                                             effects.Ctx(seat, "haunt"))
        st.emit("haunt.rules-override", f"{st.name(seat)} resists with {trait} {resist} against {total}",
                seat=seat, trait=trait, total=resist, against=total)
        if resist < total and st.in_play(seat):
            yield from st._outcome({"damage": {"type": kind, "points": total - resist}}, seat, m)


def trait_roll(st: Outcomes, seat: str | None, spec: Mapping[str, Any], m: Monster | None) -> Gen[None]:
    """``trait_roll``: a trait roll (or the explorer's pick of ``trait_choice``) against
    ``target``; its ``success`` or ``failure`` outcomes follow."""
    if "dice" in spec:
        dice = st._amount(spec["dice"])
        target = st._amount(spec["target"])
        if dice > 8:
            st.emit("roll.max-eight-dice", f"{dice} dice are called for: 8 are rolled", dice=dice)
        faces = yield from st.roll(min(dice, 8), f"{dice} dice against {target}+")
        ok = sum(faces) >= target
        st.emit("haunt.rules-override", f"{min(dice, 8)} dice roll {sum(faces)} against {target}+: "
                  f"{'success' if ok else 'failure'}", dice=list(faces), total=sum(faces), need=target, passed=bool(ok))
        for eff in spec.get("success" if ok else "failure", []):
            yield from st._outcome(eff, seat, m)
        return
    assert seat is not None
    choice = [str(t) for t in spec.get("trait_choice", [spec.get("trait", "might")])]
    trait = choice[0]
    if len(choice) > 1:
        a = yield from st.ask(seat, [Action.of("roll-trait", trait=t) for t in choice], "roll which trait")
        trait = str(a["trait"])
    target = st._amount(spec["target"])
    total = yield from effects.own_roll(st, seat, st.value(seat, trait), "trait", f"a {trait} roll",
                                        effects.Ctx(seat, "haunt"))
    ok = total >= target
    st.emit("roll.trait-roll", f"{st.name(seat)} rolls {trait} {total} against {target}+: "
              f"{'success' if ok else 'failure'}", seat=seat, trait=trait, total=total, need=target, passed=bool(ok))
    for eff in spec.get("success" if ok else "failure", []):
        if st.in_play(seat):
            yield from st._outcome(eff, seat, m)


def roll_dice(st: Outcomes, spec: Mapping[str, Any], seat: str | None, m: Monster | None, target: str | None,
               rule: str, says: str) -> Gen[None]:
    """The outcome ``roll_dice``: roll the dice and carry out the band the total falls in
    (``bands``), or, against a ``target``, the ``success`` or ``failure`` outcomes (at most 8 dice)."""
    if "bands" not in spec:
        if "trait" in spec:
            if seat is None:
                return  # a trait roll needs an explorer to make it
            # a trait roll of the explorer in question (the Stone Doll's Might roll)
            trait = str(spec["trait"])
            total = yield from effects.own_roll(st, seat, st.value(seat, trait), "trait", f"a {trait} roll ({says})",
                                                effects.Ctx(seat, "haunt"))
            what = f"{st.name(seat)} rolls {trait}"
        else:
            dice = min(8, st._amount(spec["dice"]))
            faces = yield from st.roll(dice, f"{dice} dice ({says})")
            total, what = sum(faces), f"{dice} dice roll"
        ok = total >= st._amount(spec["target"])
        st.emit(rule, f"{what} {total} against {st._amount(spec['target'])}+: {'success' if ok else 'failure'}",
            seat=seat if "trait" in spec else None, total=total, need=st._amount(spec["target"]), passed=bool(ok))
        for sub in spec.get("success" if ok else "failure", []):
            yield from st._outcome(sub, seat, m, target)
        return
    if "trait" in spec:
        if seat is None:
            return
        # a lookup trait roll of the explorer in question (haunt 41's Knowledge roll to follow the traitor)
        trait = str(spec["trait"])
        total = yield from effects.own_roll(st, seat, st.value(seat, trait), "trait", f"a {trait} roll ({says})",
                                            effects.Ctx(seat, "haunt"))
        what = f"{st.name(seat)} rolls {trait}"
    else:
        dice = st._amount(spec["dice"])
        faces = yield from st.roll(dice, f"a roll of {dice} dice")
        total, what = sum(faces), f"{dice} dice roll"
    band = next((b for b in spec["bands"] if int(b.get("min", 0)) <= total <= int(b.get("max", 99))), None)
    st.emit("haunt.rules-override", f"{what} {total}" + (f": {band.get('says', '')}" if band else
                                                         ": no band applies"), total=total)
    for eff in band.get("then", []) if band else []:
        yield from st._outcome(eff, seat, m, target)


def contest(st: Outcomes, spec: Mapping[str, Any], m: Monster) -> Gen[None]:
    """``contest``: the monster rolls its trait against the explorer in its room with the
    highest value of it (first seat on ties); the opponent rolls with ``opponent_bonus``
    dice for cards held (at most 8); with ``reroll_blanks`` the monster rerolls its blank
    dice once. The opponent's higher result does ``opponent_wins``; the monster's, the
    ``margin`` row its lead falls in (each row's ``each_hero`` outcomes for every living
    hero); a tie does nothing."""
    trait = str(spec["trait"])
    # judgement: the contest is with whoever is in the monster's room, whichever side of a
    # barrier (as the company its rules ask for is counted by room)
    here = [s for s in st.seat_ids if st.in_play(s) and st.ex[s].room == m.room]
    if not here:
        return
    opponent = max(here, key=lambda s: (st.value(s, trait), -st.seat_ids.index(s)))
    bonus = sum(int(b.get("dice", 1)) for b in spec.get("opponent_bonus", []) if st.holds(opponent, str(b["holding"])))
    st.emit("monster.rules-overridable", f"{st.mname(m)} takes on {st.name(opponent)}: "
              f"{spec.get('says', 'a ' + trait + ' contest')}", monster=m.uid, target=opponent)
    mine = yield from st.roll(st._dice(None, m, trait), f"{st.mname(m)}'s {trait} roll")
    if spec.get("reroll_blanks") and 0 in mine:
        again = yield from st.roll(mine.count(0), f"{st.mname(m)} rerolls its blanks")
        st.emit("haunt.rules-override", f"{st.mname(m)} rerolls {mine.count(0)} blank dice: {sum(again)} more",
            monster=m.uid, dice=list(again), total=sum(again))
        mine = tuple(f for f in mine if f) + again
    theirs = yield from st.roll(st._dice(opponent, None, trait, bonus), f"{st.name(opponent)}'s {trait} roll")
    lead = sum(mine) - sum(theirs)
    st.emit("monster.rules-overridable", f"{st.mname(m)} {sum(mine)} against {st.name(opponent)} {sum(theirs)}"
              + (f" ({bonus} die from what they carry)" if bonus else ""), monster=m.uid, target=opponent, total=sum(mine),
            against=sum(theirs), bonus=bonus)
    if lead < 0:
        for eff in spec.get("opponent_wins", []):
            yield from st._outcome(eff, opponent, m)
        return
    row = next((r for r in spec.get("margin", []) if int(r["min"]) <= lead <= int(r.get("max", 99))), None)
    if lead == 0 or row is None:
        st.emit("monster.rules-overridable", "a tie: nothing happens" if lead == 0 else "nothing happens")
        return
    if "says" in row:
        st.emit("monster.rules-overridable", str(row["says"]), monster=m.uid, amount=lead)
    for hero in st.living_heroes():
        for eff in row.get("each_hero", []):
            if st.in_play(hero):
                yield from st._outcome(eff, hero, m)
