"""The policy's fights: whether an attack is worth making (its odds, what winning changes, what
losing costs), which foe to hunt, and when a fight is hopeless or too risky - split from
:mod:`turn`, which moves the explorer toward the attack these choose."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.betrayal.haunt import HERO, HauntState, Monster
from hauntcheck.engine.betrayal.hauntspec import HauntSpec
from hauntcheck.engine.betrayal.policy.fields import (
    _kills,
)
from hauntcheck.engine.betrayal.policy.memo import SpecMemo
from hauntcheck.engine.core import Action


def _worth_hunting(st: HauntState, seat: str, m: Monster) -> bool:
    if m.counterpart and st.mdef(m).controlled_by == "own-dead-hero-player":
        own = m.counterpart == seat
        orphan = st.ex[m.counterpart].dead
        return (own or orphan) and "crystal-ball" in st.ex[seat].cards
    return st.hs is not None and any(
        "monsters_defeated" in w.when and w.when["monsters_defeated"].get("how") == "killed"
        and w.when["monsters_defeated"].get("monster") in (None, m.kind)
        for w in st.hs.heroes_side.wins)


def _probe(st: HauntState, seat: str, attacks: list[Action]) -> Action | None:
    """An attack on a room where an unseen foe may be (``attack-unseen``): the explorer's own room,
    or one in sight of its ranged weapon, among the rooms its side knows the foe may be in - with
    the most dice. Read from the public candidate sets only, never the foe's true room."""
    if not attacks:
        return None
    maybe = {r for s, known in st.concealed.items() if st.side.get(s) != st.side.get(seat) for r in known["rooms"]}
    best: tuple[tuple[bool, int], Action] | None = None
    for a in attacks:
        if str(a["room"]) not in maybe:
            continue
        weapon = st.weapons.get(str(a["weapon"])) if a.get("weapon") else None
        score = (str(a["room"]) == st.ex[seat].room, st._dice(seat, None, str(a["trait"]), weapon.bonus if weapon else 0))
        if best is None or score > best[0]:
            best = (score, a)
    return best[1] if best else None


def _best_attack(st: HauntState, seat: str, attacks: list[Action]) -> Action | None:
    if not attacks:
        return None
    best: tuple[int, Action] | None = None
    fixed = _fixed(st, seat)
    if _kill_with_weapon(st, seat):
        armed = [a for a in attacks if a.get("weapon") or a["target"] not in st.ex]
        if any(a.get("weapon") for a in armed):
            attacks = armed  # only a kill made with a weapon leaves what the side needs (a body)
    for a in attacks:
        target = str(a["target"])
        trait = str(a["trait"])
        weapon = st.weapons.get(str(a["weapon"])) if a.get("weapon") else None
        mine = st._dice(seat, None, trait, weapon.bonus if weapon else 0)
        if target in st.ex:
            theirs = st._dice(target, None, weapon.defend if weapon else trait)
        else:
            m = st.monster(target)
            if m.counterpart and not _worth_hunting(st, seat, m) and m.counterpart == seat:
                continue  # fighting one's own double without the means to kill it only costs
            theirs = st._dice(None, m, weapon.defend if weapon else trait)
        edge = mine - theirs
        used = str(a["weapon"]) if a.get("weapon") else None
        # the rules of a plain attack on an explorer, asked once for the two checks below and the fight
        plain = st.fight_rules(seat, target, weapon=used) if target in st.ex else None
        if plain is not None and st.hs is not None and not plain and any(
                st.hs.statuses.get(x, {}).get("no_skull") for x in st.hstatus.get(target, [])):
            continue  # it cannot die of damage: a fight only risks a loss
        if plain is not None and not plain and _untouchable(st, target):
            continue  # no attack damages it at all: a fight only risks a loss
        chosen = str(a["rule"]) if a.get("rule") else None
        rules = plain if plain is not None and chosen is None else st.fight_rules(seat, target, chosen=chosen, weapon=used)
        if chosen is not None and not _win_changes_anything(st, rules, target):
            continue  # a fight by the haunt's rule whose win would change nothing now only risks a loss
        wins = [eff for r in rules for eff in r.get("on_attacker_wins", [])]
        if wins and all("no_damage" in eff for eff in wins):
            continue  # a win that only spares the loser changes nothing: a fight only risks a loss
        sneak = next((r["undefended"] for r in rules if "undefended" in r), None)
        if sneak is not None:
            edge = st._amount(sneak["dice"])  # a sneak attack: its dice hurt, nothing is risked
        elif wins:
            edge += 2  # a win does more than damage (kills, frees, steals): worth a risk
        elif target in st.ex and st.rivals(seat) and any(r.get("optional") for r in st.fight_rules(seat, target, chosen="*")):
            continue  # a rival holding what we lack is worth a steal, not a brawl
        if (edge >= 0 or fixed) and (best is None or edge > best[0]):
            best = (edge, a)  # an attacker whose traits nothing lowers risks nothing by a fight
    return best[1] if best else None


def _fixed(st: HauntState, seat: str) -> bool:
    """Whether the explorer's traits cannot be lowered (``traits_fixed``): a lost fight costs it nothing."""
    return st.hs is not None and any(st.hs.statuses.get(x, {}).get("traits_fixed") for x in st.hstatus.get(seat, []))


def _body_tokens(st: HauntState, side: str) -> frozenset[str]:
    """Tokens the side's tasks need held that only a death leaves (``left_on_death``): a body."""
    if st.hs is None or not st.hs.derived("policy-death-tokens", _death_tokens):
        return frozenset()  # no token of the haunt is left by a death: nothing to look for
    hs = st.hs
    tasks = st.tasks_for(next((s for s in st.seat_ids if st.side.get(s) == side), st.seat_ids[0]))
    # from the tasks' spec and the haunt's tokens alone: kept by the task list and the haunt
    return _BODIES.pair(tasks, hs, None, lambda: frozenset(
        k for k in {str(t.get("holding")) for t in tasks} if k in hs.tokens and hs.tokens[k].left_on_death))


_BODIES: SpecMemo[frozenset[str]] = SpecMemo()


def _death_tokens(hs: HauntSpec) -> bool:
    """Whether any token kind of the haunt is left by a death (``left_on_death``)."""
    return any(t.left_on_death for t in hs.tokens.values())


def _weapon_bodies(hs: HauntSpec) -> bool:
    """Whether any of the haunt's tokens is left only by a kill with a weapon (else no fight
    needs a weapon for a body)."""
    return any(isinstance(t.left_on_death, Mapping) and bool(t.left_on_death.get("with_weapon")) for t in hs.tokens.values())


def _kill_with_weapon(st: HauntState, seat: str) -> bool:
    """Whether the explorer's side still needs a body that only a kill with a weapon leaves."""
    if st.hs is None or not st.hs.derived("policy-weapon-bodies", _weapon_bodies):
        return False
    side = st.side.get(seat, HERO)
    allies = st.allies_of(seat)
    for k in _body_tokens(st, side):
        left = st.hs.tokens[k].left_on_death
        if isinstance(left, Mapping) and left.get("with_weapon") and not st.htokens.get(k) \
                and not any(st.holds(s, k) for s in allies):
            return True
    return False


def _untouchable(st: HauntState, target: str) -> bool:
    """Whether the explorer ``target`` takes no damage from anyone's attacks (``damage_taken:
    none`` with no ``hurt_by_holders`` card that gets through: United We Stand's flesh)."""
    return st.hs is not None and any(
        st.hs.statuses.get(x, {}).get("damage_taken") == "none" and not st.hs.statuses.get(x, {}).get("hurt_by_holders")
        for x in st.hstatus.get(target, []))


def _unhurt_by(st: HauntState, seat: str, target: str) -> bool:
    """Whether the explorer ``target`` takes no damage from ``seat``'s attacks: a status with
    ``damage_taken: none`` whose ``hurt_by_holders`` cards ``seat`` does not hold."""
    if st.hs is None:
        return False
    for x in st.hstatus.get(target, []):
        status = st.hs.statuses.get(x, {})
        if status.get("damage_taken") == "none" and not any(st.holds(seat, c) for c in status.get("hurt_by_holders", ())):
            return True
    return False


def _hopeless(st: HauntState, seat: str, task: Mapping[str, Any]) -> bool:
    """A task roll with bonuses (``roll.modifiers``) that cannot reach its target now even with
    every die showing 2: the bonuses still to be had are worth more than trying."""
    roll = task.get("roll")
    if not isinstance(roll, Mapping) or "modifiers" not in roll or "target" not in roll:
        return False
    trait = str(roll.get("trait", "might"))
    dice = min(8, st.value(seat, trait)) if "trait" in roll else int(roll.get("dice", 0))
    return 2 * dice + st.roll_modifiers(seat, roll, tell=False) < st._amount(roll["target"])


def _win_changes_anything(st: HauntState, rules: list[Mapping[str, Any]], target: str) -> bool:
    """Whether winning a fight by these rules would change something now: a win that deals its
    damage as usual always does; a steal from a monster needs something to take, lowering the
    track needs a track above 0; any other outcome counts."""
    outs = [eff for r in rules for eff in r.get("on_attacker_wins", [])]
    if not any("no_damage" in eff for eff in outs):
        return True
    for eff in outs:
        if "no_damage" in eff:
            continue
        if eff.get("steal") == "item" and target not in st.ex:
            if any(st.t.cards[c].item for c in st.monster(target).cards):
                return True
        elif "down" in eff.get("move_track", {}):
            if st.track > 0:
                return True
        else:
            return True
    return False


def _sum_odds(dice: int) -> list[float]:
    """The chance of each total of ``dice`` Betrayal dice (faces 0, 0, 1, 1, 2, 2)."""
    odds = [1.0]
    for _ in range(dice):
        nxt = [0.0] * (len(odds) + 2)
        for total, p in enumerate(odds):
            for face in (0, 1, 2):
                nxt[total + face] += p / 3
        odds = nxt
    return odds


def _too_risky(st: HauntState, seat: str, task: Mapping[str, Any]) -> bool:
    """A task roll with a deadly band of the dice (a bomb set off on 2 or less) is tried only
    while success is at least as likely as the disaster."""
    roll = task.get("roll")
    if not isinstance(roll, Mapping) or "target" not in roll or "trait" not in roll:
        return False
    deadly = [b for b in roll.get("bands", ()) if _kills(b.get("then", ()))]
    if not deadly:
        return False
    odds = _sum_odds(min(8, st.value(seat, str(roll["trait"]))))
    need = st._amount(roll["target"]) - st.roll_modifiers(seat, roll, tell=False)
    win = sum(p for total, p in enumerate(odds) if total >= need)
    lose = sum(p for total, p in enumerate(odds) for b in deadly if b.get("min", 0) <= total <= b.get("max", 99))
    return win < lose
