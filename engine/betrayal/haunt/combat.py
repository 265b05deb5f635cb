"""Combat and damage in the haunt phase: which attacks an explorer may make (one a turn, with
Might or another trait, weapons, distance attacks, stealing), the fight rules a haunt adds, the
rolls, who takes how much damage, and a monster's stun or defeat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt import concealment
from hauntcheck.engine.betrayal.haunt.outcomes import Outcomes
from hauntcheck.engine.betrayal.haunt.pieces import HERO, TRAITOR, Monster
from hauntcheck.engine.betrayal.hauntspec import HauntSpec
from hauntcheck.engine.betrayal.model import PHYSICAL
from hauntcheck.engine.betrayal.state import Gen
from hauntcheck.engine.core import Action


class Combat(Outcomes):
    """Attacks, fight rules, damage and defeated monsters."""

    def _attack_traits(self, seat: str) -> list[str]:
        traits = ["might"]
        lost = self._lost_powers(seat)
        for source, _, ability in effects.held_abilities(self, seat):
            if ability.get("trigger") != "ongoing":
                continue
            if (source.removeprefix("card:"), "attack_option") in lost:
                continue  # the haunt took this power away from the card (the Ring's Sanity attack, haunt 41)
            for eff in ability.get("do", []):
                opt = eff.get("attack_option")
                if opt and opt.get("trait") not in traits:
                    traits.append(str(opt["trait"]))
        return traits

    def _attack_actions(self, seat: str) -> list[Action]:
        if "attack" in self.turn.keys or self.turn.no_attack or self.ex[seat].dead or self._blocks(seat, "attack"):
            return []
        e = self.ex[seat]
        company = self.has_company(seat, e.room)
        near = [s for s in self.opponents_of(seat) if self.ex[s].room == e.room] if company else []
        if self.hidden is not None and company:
            # hidden-traitor.anyone-attacks: any explorer may attack any other explorer
            near = [s for s in self.seat_ids if s != seat and self.in_play(s) and self.ex[s].room == e.room]
        near += self._foe_monsters(seat, e.room)
        if company and self.side.get(seat) == HERO and self.hs is not None \
                and self.hs.derived("ally-fights", _ally_fight_rules):
            near += [s for s in self.living_heroes() if s != seat and self.ex[s].room == e.room and self._ally_fight(seat, s)]
        if near and self.concealed:
            near = [t for t in near if not concealment.concealed_from(self, t, seat)]  # attacked by room: attack-unseen
        targets = [(t, False) for t in near if self.together(seat, t) and self._may_attack(seat, t)]
        # A weapon that already took its one action this turn (picked up, say) cannot attack too.
        weapons = [w for c in e.cards if (w := self.weapons.get(c)) is not None and c not in self.turn.items_acted] \
            if e.cards else []
        ranged = [w for w in weapons if w.ranged]
        if ranged:
            seen = self.line_of_sight(e.room)
            far = [s for s in self.opponents_of(seat) if self.ex[s].room in seen and not concealment.concealed_from(self, s, seat)]
            far += [uid for uid in self._foe_monsters(seat) if self.monster(uid).room in seen]
            targets += [(t, True) for t in far if self._may_attack(seat, t)]
        out: list[Action] = self._reach_actions(seat) + self._unseen_attack_actions(seat)
        for target, distant in targets:
            rules = self.fight_rules(seat, target)
            if not distant:
                # an optional rule (a steal) is a fight of its own the attacker may choose
                for r in self.fight_rules(seat, target, chosen="*"):
                    if r.get("optional"):
                        out += [Action.of("attack", target=target, trait=t, rule=r["id"])
                                for t in r.get("attack_with", ["might"])
                                if self._target_has(target, t) or r.get("despite_immunity")]
            allowed = next((tuple(r["attack_with"]) for r in rules if "attack_with" in r), None)
            traits = [t for t in self._attack_traits(seat) if allowed is None or t in allowed]
            if allowed:
                traits += [t for t in allowed if t not in traits]
            if not distant:
                for trait in traits:
                    if self._target_has(target, trait):
                        out.append(Action.of("attack", target=target, trait=trait))
                for w in weapons:
                    if self._target_has(target, w.trait) and (allowed is None or w.trait in allowed):
                        out.append(Action.of("attack", target=target, trait=w.trait, weapon=w.card))
            else:
                for w in ranged:  # an attack_with rule binds a distance attack too (haunt 49's Souls)
                    if self._target_has(target, w.trait) and (allowed is None or w.trait in allowed):
                        out.append(Action.of("attack", target=target, trait=w.trait, weapon=w.card))
        return out

    def _lost_powers(self, seat: str) -> set[tuple[str, str]]:
        """(card, effect) powers the explorer's side may no longer use (``lost_powers``)."""
        side = self.hs.sides().get(self.side.get(seat, HERO)) if self.hs is not None else None
        return set(side.lost_powers) if side is not None else set()

    def _unseen_attack_actions(self, seat: str) -> list[Action]:
        """``attack-unseen``: against a concealed opponent an explorer attacks a room, not a
        figure - its own (with any trait or weapon it could attack with) or, with a ranged weapon, a
        room in line of sight. Offered whatever the room holds: the offer tells nothing."""
        if not self.concealed or not concealment.hidden_from(self, seat):
            return []  # nobody hides (most haunts): no need to sort the concealed
        e = self.ex[seat]
        weapons = [w for c in e.cards if (w := self.weapons.get(c)) is not None and c not in self.turn.items_acted]
        out = [Action.of("attack-unseen", room=e.room, trait=t) for t in self._attack_traits(seat)]
        out += [Action.of("attack-unseen", room=e.room, trait=w.trait, weapon=w.card) for w in weapons]
        out += [Action.of("attack-unseen", room=r, trait=w.trait, weapon=w.card)
                for w in weapons if w.ranged for r in sorted(self.line_of_sight(e.room))]
        return out

    def _attack_unseen(self, seat: str, a: Action) -> Gen[None]:
        """An attack on a room where a concealed opponent may be: if it is there, the attack is an
        ordinary one on it (and it is seen there); if not, the attack is spent for the turn and the
        attacker's side knows the room is empty."""
        room = str(a["room"])
        there = [s for s in concealment.hidden_from(self, seat) if self.ex[s].room == room]
        if not there:
            self.turn.keys.add("attack")
            self.emit("haunt.concealed-explorer", f"{self.name(seat)} attacks into {self.room_name(room)}: nobody is "
                      "there, and the attack of this turn is spent", seat=seat, room=room)
            for s in concealment.hidden_from(self, seat):
                concealment.missed(self, s, room)
            return
        target = there[0]
        concealment.learn(self, target, "room", f"{self.name(seat)} finds {self.name(target)}")
        args = {"target": target, "trait": a["trait"]} | ({"weapon": a["weapon"]} if a.get("weapon") else {})
        yield from self._attack(seat, Action.of("attack", **args))

    def _reach_actions(self, seat: str) -> list[Action]:
        """Attacks by an ``optional`` rule with ``reach: adjacent`` on a foe in a room joined to the
        explorer's by a connecting doorway (a thrown Torch); ``despite_immunity`` lets the rule's
        trait be used against a defender otherwise immune to it."""
        if self.hs is None or not self.hs.derived("reach-rules", _reach_rules):
            return []  # most haunts have no such rule: no need to look next door
        room = self.ex[seat].room
        out: list[Action] = []
        for other in sorted(self.door_adjacent(room)):
            foes = [s for s in self.opponents_of(seat) if self.ex[s].room == other]
            foes += self._foe_monsters(seat, other)
            for target in foes:
                if not self._may_attack(seat, target):
                    continue
                for r in self.fight_rules(seat, target, chosen="*"):
                    if r.get("optional") and r.get("reach") == "adjacent":
                        out += [Action.of("attack", target=target, trait=t, rule=r["id"])
                                for t in r.get("attack_with", ["might"])
                                if self._target_has(target, t) or r.get("despite_immunity")]
        return out

    def _foe_monsters(self, seat: str, room: str | None = None) -> list[str]:
        """Monsters the explorer may fight (in ``room``, else anywhere): a hero those of the
        traitor's side, the traitor (or a hero's rival) those on the heroes' side
        (``controlled_by: heroes``: Comes the Hero's Statue)."""
        hero = self.side.get(seat) == HERO
        return [m.uid for m in self.active_monsters(room) if self.allied(m) != hero]

    def _ally_fight(self, seat: str, ally: str) -> bool:
        """A hero may attack another hero only where an attack rule naming hero against hero
        applies (freeing a controlled friend)."""
        return any(_ally_fight(r) for r in self.fight_rules(seat, ally))

    def _target_has(self, target: str, trait: str) -> bool:
        """``attack.target-needs-trait``: a trait the target lacks cannot be attacked with."""
        if target in self.ex:
            return True
        m = self.monster(target)
        immune = self.mdef(m).immune_to
        if immune and {f"{trait}-attacks", "all-attacks",
                       "physical-attacks" if trait in PHYSICAL else "mental-attacks"} & set(immune):
            return False
        return self.mstat(m, trait) > 0 or trait in m.stats

    def _may_attack(self, seat: str, target: str) -> bool:
        holder = next((uid for uid, (held, _) in self.grips.items() if held == seat), None)
        if holder is not None and target != holder:
            return False  # a held explorer may fight only what holds it
        rules = self.fight_rules(seat, target)
        if any(r.get("forbidden") for r in rules):
            return False
        if target in self.ex:
            return True
        m = self.monster(target)
        if self.mdef(m).attackable != "normally" and not rules:
            return False
        if m.stunned:
            return any(r.get("may_target_stunned") for r in rules)
        return True

    def fight_rules(self, attacker: str, defender: str, ability: str | None = None, *,
                    chosen: str | None = None, weapon: str | None = None) -> list[Mapping[str, Any]]:
        """The haunt's attack rules whose attacker and defender fit and whose requirement holds.

        Requirements read ``seat`` as the explorer in the fight (the attacker if both are), and
        ``opponent`` as the other fighter. A rule with ``by_ability`` governs only the attacks of
        that monster ability (``ability``), and those fights only such rules and the general ones.
        An ``optional`` rule counts only when the attack chose it (``chosen``: its id, or ``*`` for
        every rule). A rule ``with_weapon`` counts only for an attack made with that weapon:
        ``weapon`` (a planned attack's), else the weapon of the attack being settled."""
        assert self.hs is not None
        seat, m, opponent = self._fight_ctx(attacker, defender)
        used = weapon if weapon is not None else self._weapon
        out = []
        for side in self.hs.sides().values():
            for r in side.attack_rules:
                if ("by_ability" in r and r.get("by_ability") != ability) or (r.get("optional") and chosen not in ("*", r["id"])):
                    continue
                if not self._role_fits(r.get("attacker"), attacker):
                    continue
                if "defender" in r and not self._role_fits(r["defender"], defender):
                    continue
                if "requires" in r and not self.pred(r["requires"], seat, m, opponent):
                    continue
                if "with_weapon" in r and used != r["with_weapon"]:
                    continue  # the rule needs the attack made with that weapon, not only held
                if r.get("unarmed") and used is not None:
                    continue  # the rule governs attacks made without a weapon only
                out.append(r)
        return out

    def _fight_ctx(self, attacker: str, defender: str) -> tuple[str | None, Monster | None, str | None]:
        m = next((self.monster(w) for w in (attacker, defender) if w not in self.ex), None)
        seat = attacker if attacker in self.ex else defender if defender in self.ex else None
        opponent = defender if seat == attacker else attacker
        return seat, m, opponent

    def _role_fits(self, role: Any, who: str) -> bool:
        is_seat = who in self.ex
        if role is None or role == "anyone":
            return True
        if isinstance(role, Mapping) and "monster" in role:
            return not is_seat and self.monster(who).kind == role["monster"]
        if role == "hero":
            return is_seat and self.side.get(who) == HERO
        if role == "traitor":
            return is_seat and self.side.get(who) == TRAITOR
        if role == "traitor-or-monsters":
            return not is_seat or self.side.get(who) == TRAITOR
        if role == "monsters":
            return not is_seat
        if role in ("revealer", "trapped-explorer"):
            return is_seat and who in self._who(role)
        if isinstance(role, str) and self.hs is not None:
            # a plural status name ("werewolves", "frogs") means the explorers with that status
            singular = next((x for x in (role[:-1], role[:-3] + "f") if x in self.hs.statuses), None)
            if singular is not None:
                return is_seat and singular in self.hstatus.get(who, [])
        raise NotImplementedError(f"attack rule role {role!r}")

    def _attack(self, seat: str, a: Action) -> Gen[None]:
        """``attack.*``: roll off, the higher total wins and the loser takes the difference."""
        self.turn.keys.add("attack")
        target = str(a["target"])
        trait = str(a["trait"])
        chosen = str(a["rule"]) if a.get("rule") else None
        w = self.weapons.get(str(a["weapon"])) if a.get("weapon") else None
        self._weapon = w.card if w is not None else None
        ranged = w is not None and w.ranged and self._room_of(target) != self.ex[seat].room
        defend = w.defend if w is not None else trait
        self.emit("attack.once-per-turn", f"{self.name(seat)} makes the one attack of this turn", seat=seat)
        held = [c for c in self.ex[target].cards if c in self.weapons] if target in self.ex else []
        if held:
            self.emit("item.weapon-attack-only", f"{self.name(target)} defends without the "
                      f"{', '.join(self.card_name(c) for c in held)}: a weapon helps only its attacker", target=target, cards=list(held))
        if w is not None:
            self.turn.keys.add(f"attack-weapon:{w.card}")  # for the predicate attack_weapon
            self.emit("item.weapons", f"{self.name(seat)} attacks with the {self.card_name(w.card)} "
                      f"(+{w.bonus} {'die' if w.bonus == 1 else 'dice'}, one weapon per attack)", seat=seat, card=w.card, bonus=w.bonus)
            # Attacking is the weapon's one action this turn: it cannot then be traded or dropped.
            self.turn.items_acted.add(w.card)
            self.emit("item.one-action-per-item", f"the {self.card_name(w.card)} has been used this turn", card=w.card)
        if not ranged and self._room_of(target) != self.ex[seat].room:
            self.emit("haunt.rules-override", f"{self.name(seat)} attacks into {self.room_name(self._room_of(target))}, "
                      "joined by a doorway, as the haunt's rule allows", seat=seat)
        elif not ranged:
            self.emit("attack.same-room", f"the target is in {self.room_name(self.ex[seat].room)}", room=self.ex[seat].room)
        if self.hidden is not None and target in self.ex and self.seen_side(target) == self.seen_side(seat):
            self.emit("hidden-traitor.anyone-attacks", f"{self.name(seat)} may attack {self.name(target)}: with a "
                      "hidden traitor any explorer may attack any other", seat=seat, target=target)
        if ranged:
            self.emit("attack.distance", f"a distance attack into {self.room_name(self._room_of(target))}, in line of sight",
                      seat=seat, target=target, room=self._room_of(target))
        m = None if target in self.ex else self.monster(target)
        # the rules of this fight are those in force when it starts (a steal changes what is held)
        ends_turn = any(r.get("ends_turn") for r in self.fight_rules(seat, target, chosen=chosen))
        plus, minus = self._dice_bonus(self.fight_rules(seat, target, chosen=chosen))
        plain = self.value(seat, trait)
        if effects.dice_for(self, seat, plain, effects.Ctx(seat, "attack")) != plain:
            self.emit("roll.attack-not-trait-roll", f"{self.name(seat)}'s attack roll is no trait roll: what changes "
                      f"trait rolls does not change it ({plain} dice of {trait})", seat=seat, count=plain, trait=trait)
        if not ranged and concealment.concealed_from(self, seat, target):
            concealment.learn(self, seat, "room", f"{self.name(target)} is attacked by the unseen {self.name(seat)}")
        sneak = next((r for r in self.fight_rules(seat, target, chosen=chosen) if "undefended" in r), None)
        if sneak is not None:
            dice = self._amount(sneak["undefended"]["dice"])
            self.emit("haunt.rules-override", f"{sneak.get('says', sneak['id'])} ({dice} dice, no defence roll)", seat=seat,
                      target=target, count=dice)
            att = yield from self.roll(min(8, dice), f"{self.name(seat)}'s sneak attack")
            dfn: tuple[int, ...] = ()
        else:
            att = yield from self.roll(self._dice(seat, None, trait, (w.bonus if w else 0) + plus, w.cap if w else 8),
                                       f"{self.name(seat)}'s {trait} attack")
            dfn = yield from self.roll(self._dice(target if m is None else None, m, defend, minus),
                                       f"{self._who_name(target)} defends")
        yield from self._resolve_fight(seat, target, trait, sum(att), sum(dfn), ranged=ranged, chosen=chosen)
        self._weapon = None
        if ends_turn:
            self.turn.end_now = True

    def _dice_bonus(self, rules: list[Mapping[str, Any]]) -> tuple[int, int]:
        """Dice the fight's rules add to the attacker's and the defender's rolls (``dice_bonus``)."""
        att = sum(int(r.get("dice_bonus", {}).get("attacker", 0)) for r in rules)
        dfn = sum(int(r.get("dice_bonus", {}).get("defender", 0)) for r in rules)
        for r in rules:
            if r.get("dice_bonus"):
                self.emit("haunt.rules-override", f"{r.get('says', r['id'])} (dice {att:+d} attacking, {dfn:+d} defending)",
                    clause=r['id'], attack=att, defend=dfn)
        return att, dfn

    def _resolve_fight(self, attacker: str, defender: str, trait: str, a_total: int, d_total: int, *,
                       ranged: bool = False, ability: str | None = None, chosen: str | None = None) -> Gen[None]:
        """Settle an attack between ``attacker`` and ``defender`` (seats or monster ids), with the
        haunt's attack rules: ``extra`` happens either way, ``on_attacker_wins`` and
        ``on_defender_wins`` add to the normal result, and ``no_damage``, ``damage_scaled`` and
        ``steal`` change the damage."""
        self._trait = trait  # the damage is physical for Speed attacks too (attack.speed-physical)
        rules = self.fight_rules(attacker, defender, ability, chosen=chosen) if self.hs is not None else []
        for r in rules:
            bonus = r.get("result_bonus", {})
            if bonus.get("attacker") or bonus.get("defender"):
                a_total += int(bonus.get("attacker", 0))
                d_total += int(bonus.get("defender", 0))
                self.emit("haunt.rules-override", f"{r.get('says', r['id'])} (results now {a_total} and {d_total})",
                    clause=r['id'], total=a_total, against=d_total)
        rule = "attack.might-roll-off" if trait == "might" else "attack.other-trait"
        self.emit(rule, f"{self._who_name(attacker)} attacks {self._who_name(defender)} with {trait}: "
                  f"{a_total} against {d_total}", seat=attacker, target=defender, trait=trait, total=a_total,
                  against=d_total)
        if chosen is not None:
            self.emit("haunt.rules-override", f"{self._who_name(attacker)} fights by the haunt's rule {chosen}",
                seat=attacker, clause=chosen)
        seat, m, _ = self._fight_ctx(attacker, defender)
        for r in rules:
            if r.get("extra"):
                self.emit("haunt.rules-override", f"{r.get('says', r['id'])}", clause=r['id'])
            for eff in r.get("extra", []):
                yield from self._outcome(eff, seat, m)
        if self._dead(attacker) or self._dead(defender):
            return  # the fight's cost killed a fighter: nothing is left to settle
        if a_total == d_total:
            self.emit("attack.tie-no-damage", "a tie: nobody is hurt")
            return
        win, lose = (attacker, defender) if a_total > d_total else (defender, attacker)
        points = abs(a_total - d_total)
        self.fight_margin = points
        kind = "physical" if trait in PHYSICAL else "mental"
        if lose in self.ex:
            kind = next((str(r["damage_type"]) for r in rules if "damage_type" in r), kind)
        self.emit("attack.higher-wins", f"{self._who_name(win)} wins by {points}", winner=win, amount=points)
        if win == defender and ranged:
            self.emit("attack.distance-safe", f"{self._who_name(attacker)} attacked from a distance and takes no damage", seat=attacker)
            return
        if win not in self.ex and self.monster(win).stunned:
            self.emit("attack.stunned-target", f"{self._who_name(win)} is stunned and deals no damage", winner=win)
            return
        outs = [eff for r in rules for eff in r.get("on_attacker_wins" if win == attacker else "on_defender_wins", [])]
        changes = {k for eff in outs for k in eff} | {k for eff in outs for sub in eff.get("on_target", []) for k in sub}
        if outs:
            self.emit("attack.other-outcome", f"the haunt adds to {self._who_name(win)}'s win: "
                      + ", ".join(sorted(changes - {"says"})), winner=win, changes=sorted(changes - {"says"}))
        if changes & {"kill_monster", "kill"}:
            pass  # judgement: a win that kills replaces the damage (or stun) it would deal
        elif "no_damage" in changes:
            self.emit("haunt.rules-override", "the haunt's attack rule: nobody takes damage")
        else:
            for eff in outs:
                if "damage_scaled" in eff:
                    points = points // 2 if eff["damage_scaled"] == "half-down" else -(-points // 2)
                    self.emit("haunt.rules-override", f"the damage is halved to {points}", amount=points)
            yield from self._deal(win, lose, points, kind, attacker, ranged, rules)
        for eff in outs:
            if not {"no_damage", "damage_scaled"} & set(eff):
                yield from self._outcome(eff, seat, m, target=lose)

    def _deal(self, win: str, lose: str, points: int, kind: str, attacker: str, ranged: bool,
              rules: list[Mapping[str, Any]]) -> Gen[None]:
        if lose in self.ex and win not in self.ex and win == attacker:
            margin = next((int(r["steal_margin"]) for r in rules if "steal_margin" in r), None)
            m = self.monster(win)
            loot = [c for c in self.ex[lose].cards if self.t.cards[c].can_steal or self.t.cards[c].companion]
            only = [str(c) for r in rules for c in r.get("steal_only", [])]
            if only:
                loot = [c for c in loot if c in only]  # the Demons steal the Ring and nothing else
            if margin is None and points >= 2 and any(self.t.cards[c].can_steal for c in self.ex[lose].cards):
                self.emit("monster.no-special-attacks", f"{self.mname(m)} may not steal (the haunt does not allow it): "
                          "it deals the damage", monster=m.uid)
            if margin is not None and points >= margin and loot and self.mdef(m).carries.get("items"):
                acts = [Action.of("damage-them")] + [Action.of("steal", card=c) for c in loot]
                choice = yield from self.ask(self.monster_controller(m), acts, f"deal {points} damage or steal")
                if choice.kind == "steal":
                    card = str(choice["card"])
                    self.ex[lose].cards.remove(card)
                    m.cards.append(card)
                    self.emit("attack.steal", f"{self.mname(m)} takes {self.card_name(card)} from {self.name(lose)} "
                              "instead of dealing damage", monster=m.uid, card=card, loser=lose)
                    yield from effects.card_stolen(self, lose, card)
                    self.monster_items_changed(m, 1)
                    return
            stolen = yield from self._monster_takes_token(m, lose, points, margin, rules)
            if stolen:
                return
            order = next((list(r["damage_to"]) for r in rules if "damage_to" in r), None)
            if order:
                self.emit("haunt.rules-override", f"{self.name(lose)} takes {points} damage in the haunt's order: "
                          f"{', '.join(order)}", loser=lose, amount=points, order=list(order))
                left = points
                for i, trait in enumerate(order):
                    room = self.ex[lose].idx[trait] if i < len(order) - 1 else left  # the last takes the rest
                    take = min(left, room)
                    if take:
                        self.trait_change(lose, trait, -take, rule="damage.lowers-traits")
                    left -= take
                    if left <= 0 or self.ex[lose].dead:
                        break
                return
        if lose in self.ex:
            undefended = any("undefended" in r for r in rules)  # a sneak attack deals its damage, no steal
            if win == attacker and win in self.ex and kind == "physical" and points >= 2 and not ranged and not undefended:
                stealable = [c for c in self.ex[lose].cards if self.t.cards[c].can_steal and f"{win}/{c}" not in self.no_pickup]
                tokens = sorted({k for k in self.held.get(lose, []) if self.hs is not None and k in self.hs.tokens
                                 and self.hs.tokens[k].carried_as_item})
                if stealable or tokens:
                    acts = [Action.of("damage-them")] + [Action.of("steal", card=c) for c in stealable + tokens]
                    choice = yield from self.ask(win, acts, f"deal {points} damage or steal")
                    if choice.kind == "steal" and str(choice["card"]) in tokens:
                        token = str(choice["card"])
                        self.held[lose].remove(token)
                        self.held.setdefault(win, []).append(token)
                        self.emit("attack.steal", f"{self.name(win)} steals the {token} token from {self.name(lose)} "
                                  "instead of dealing damage (item.tokens-like-cards)", winner=win, token=token, loser=lose)
                        return
                    if choice.kind == "steal":
                        card = str(choice["card"])
                        self.ex[lose].cards.remove(card)
                        self.ex[win].cards.append(card)
                        self.emit("attack.steal", f"{self.name(win)} steals {self.card_name(card)} from {self.name(lose)} "
                                  "instead of dealing damage", winner=win, card=card, loser=lose)
                        yield from effects.card_stolen(self, lose, card)
                        yield from effects.gain_card(self, win, card)
                        return
            if kind == "physical" and points >= 2 and win in self.ex:
                if ranged and win == attacker and any(self.t.cards[c].can_steal for c in self.ex[lose].cards):
                    self.emit("attack.no-steal-at-range", "nothing can be stolen with a distance attack")
                elif win != attacker and any(self.t.cards[c].can_steal for c in self.ex[lose].cards):
                    self.emit("attack.steal-by-attacker", f"{self.name(win)} defended: only an attacker may steal", winner=win)
            rule = "attack.mental" if kind == "mental" else "attack.speed-physical" if self._trait == "speed" else \
                "attack.damage-difference"
            self.emit(rule, f"{self.name(lose)} takes {points} {kind} damage", loser=lose, amount=points, kind=kind)
            hero = self.side.get(lose) == HERO
            self.damage_source = win
            self.damage_weapon = self._weapon if win == attacker else None
            yield from effects.take_damage(self, lose, kind, points)
            self.damage_source = self.damage_weapon = None
            if hero and self.ex[lose].dead and win in self.ex:
                self.hero_killers.add(win)
                self.hero_kills[win] = self.hero_kills.get(win, 0) + 1
                if win in self.trait_values:
                    shown = ", ".join(f"{t} {self.value(win, t)}" for t in self.trait_values[win]["values"])
                    self.emit("haunt.rules-override", f"{self.name(win)} has killed {self.hero_kills[win]} hero(es): {shown}",
                        winner=win, count=self.hero_kills[win], values=[self.value(win, t) for t in self.trait_values[win]["values"]])
            elif hero and self.ex[lose].dead and (owner := self.monster(win).counterpart) and self.ex[owner].dead:
                self.hero_killers.add(owner)  # a dead explorer's player, whose risen monster killed
        else:
            self._defeat_monster(self.monster(lose), points, kind)

    def _monster_takes_token(self, m: Monster, lose: str, points: int, margin: int | None,
                             rules: list[Mapping[str, Any]]) -> Gen[bool]:
        """``steal_tokens`` with ``steal_margin``: a monster beating a hero by the margin may take
        one of the named tokens the hero carries instead of dealing damage; the token is then
        destroyed (out of the game) or goes back to the set-aside tokens (``fate``)."""
        spec = next((r["steal_tokens"] for r in rules if "steal_tokens" in r), None)
        if spec is None or margin is None or points < margin:
            return False
        tokens = sorted({k for k in self.held.get(lose, []) if k in spec["tokens"]})
        if not tokens:
            return False
        acts = [Action.of("damage-them", target=lose, points=points)] + [Action.of("steal-token", token=k) for k in tokens]
        choice = yield from self.ask(self.monster_controller(m), acts, f"deal {points} damage or take a token")
        if choice.kind != "steal-token":
            return False
        token = str(choice["token"])
        self.held[lose].remove(token)
        if spec["fate"] == "set-aside":
            self.pool[token] = self.pool.get(token, 0) + 1
        self.emit("attack.steal", f"{self.mname(m)} takes {self.name(lose)}'s {token} token instead of dealing damage; "
                  f"it is {'destroyed' if spec['fate'] == 'destroyed' else 'put back with the set-aside tokens'}",
            monster=m.uid, loser=lose, token=token)
        return True

    def _defeat_monster(self, m: Monster, points: int, kind: str) -> None:
        mdef = self.mdef(m)
        cap = mdef.damage_capacity
        if cap is not None and cap.get("type", kind) in (kind, "any"):
            if cap.get("reduced_by"):
                points = max(0, points - int(cap["reduced_by"]))
                self.emit("monster.rules-overridable", f"{self.mname(m)} takes {cap['reduced_by']} less damage "
                          f"each time it is beaten: {points}", monster=m.uid, amount=points)
            self.track += points
            self.emit("monster.rules-overridable", f"{self.mname(m)} takes {points} damage on the Turn/Damage track "
                      f"({self.track} of {self._amount(cap['points'])})", monster=m.uid, amount=points, track=self.track)
            if self.track >= self._amount(cap["points"]):
                m.gone = "killed"
                self.emit("monster.rules-overridable", f"{self.mname(m)} is killed", monster=m.uid)
            return
        if mdef.on_defeat == "leaves-house":
            m.gone = "away"
            m.stunned = False
            self.emit("monster.rules-overridable", f"{self.mname(m)} is beaten and leaves the house for now "
                      "(no stun, no damage)", monster=m.uid)
            if m.cards:
                self.piles.setdefault(m.room, []).extend(m.cards)
                self.monster_items_changed(m, -len(m.cards))
                m.cards = []
            self._release_gone()
            return
        if mdef.on_defeat in ("killed", "destroyed"):
            # a monster whose defeat kills it (the Rats of haunt 26) drops what it carried
            m.gone = "killed"
            m.stunned = False
            self.emit("monster.rules-overridable", f"{self.mname(m)} loses the fight and is killed", monster=m.uid)
            self.leave_remains(m)
            if m.cards:
                self.piles.setdefault(m.room, []).extend(m.cards)
                m.cards = []
            self._release_gone()
            return
        if mdef.on_defeat == "not-stunned":
            # haunt 49's Astral Spirit: only the attack rules' outcomes (the heroes' tokens) count
            self.emit("monster.rules-overridable", f"{self.mname(m)} loses the fight but is neither stunned nor hurt",
                      monster=m.uid)
            return
        if mdef.on_defeat not in ("stun", "as-attack-rules-say"):
            raise NotImplementedError(f"monster on_defeat {mdef.on_defeat!r}")
        m.stunned = True
        self.emit("attack.monsters-stunned", f"{self.mname(m)} loses the fight", monster=m.uid)
        self.emit("monster.stun-instead-of-damage", f"{self.mname(m)} is stunned and misses its next turn", monster=m.uid)
        self._release_gone()
        kept = mdef.carries.get("keeps", [])  # only a steal takes these back (the Demons' Ring)
        items = [c for c in m.cards if self.t.cards[c].item and c not in kept]
        if items:
            # a companion in its custody is no item: it stays with the monster (omen.not-items)
            self.piles.setdefault(m.room, []).extend(items)
            self.emit("monster.stunned-drops-items", f"{self.mname(m)} drops {', '.join(self.card_name(c) for c in items)} "
                      "as an item pile", monster=m.uid, cards=list(items))
            m.cards = [c for c in m.cards if c not in items]
            self.monster_items_changed(m, -len(items))
        if m.cards:
            self.emit("omen.not-items", f"{self.mname(m)} keeps custody of {', '.join(self.card_name(c) for c in m.cards)}",
                monster=m.uid, cards=list(m.cards))


def _reach_rules(hs: HauntSpec) -> tuple[Mapping[str, Any], ...]:
    """The haunt's attack rules that let an explorer attack into a room next door."""
    return tuple(r for side in hs.sides().values() for r in side.attack_rules
                 if r.get("optional") and r.get("reach") == "adjacent")


def _ally_fight(rule: Mapping[str, Any]) -> bool:
    """An attack rule that lets a hero attack another hero."""
    return rule.get("attacker") == "hero" and rule.get("defender") == "hero" and not rule.get("forbidden")


def _ally_fight_rules(hs: HauntSpec) -> tuple[Mapping[str, Any], ...]:
    """The haunt's attack rules letting a hero attack another hero (most haunts have none)."""
    return tuple(r for side in hs.sides().values() for r in side.attack_rules if _ally_fight(r))
