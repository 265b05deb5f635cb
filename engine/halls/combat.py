"""Combat (rules ``combat.*``): who fights, weapons, dice and rerolls, the outcome for the
Participants and the Killer, escaping and stunning.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from hauntcheck.engine.core import Action, DiceRoll, act
from hauntcheck.engine.halls.locks import LockRules
from hauntcheck.engine.halls.model import DIRS, Participant, ints


def _subsets(items: Sequence[int]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for k in range(1, len(items) + 1):
        out.extend(itertools.combinations(items, k))
    return out


class CombatRules(LockRules):
    """A combat, resolved as a whole."""

    # ---- combat

    def _start_combat(self, p: Participant) -> None:
        i = p.pos
        start = self.turn["start"]
        members = [self.pp[k].seat for k in self.order()
                   if self.pp[k].alive and start.get(self.pp[k].seat) == i and self.turn["combat"].get(self.pp[k].seat)
                   and self.pp[k].seat not in self.turn["done"]]
        killer = self.killer.active() and self.killer.pos == i
        cards = {s: self.turn["chosen"][s] for s in members}
        self.ctx = {"cell": i, "members": members, "killer": killer, "cards": cards, "weapons": {}, "dice": {},
                    "kdice": None, "spent": {}, "passed": [], "escapers": [], "step": "weapons", "reroll": None,
                    "acro": [], "panicked": []}
        self.turn["fought"] = True
        who = ", ".join(f"{self.participant(s).name} ({cards[s]})" for s in members) + (", the Killer" if killer else "")
        self._ev("combat.trigger", f"combat in {self.where(i)}: {who}", cell=list(self.cell(i)),
                 seats=members, cards=[cards[s] for s in members], killer=killer)
        self.stage = "combat"

    def weapon_options(self, p: Participant) -> list[str]:
        out = ["basic"]
        for w in ("knife", "fireaxe", "pistol", "shotgun"):
            if p.has(w):
                ammo = self.d.weapons[w].ammo
                if (ammo == "bullet" and p.bullets < 1) or (ammo == "shell" and p.shells < 1):
                    continue
                out.append(w)
        return out

    def faces_for(self, p: Participant) -> tuple[int, ...]:
        ctx = self.ctx
        if ctx["cards"][p.seat] == "escape":
            if p.seat in ctx["acro"]:
                return (2, 3, 4, 5, 6)
            return self.d.escape_faces
        w = ctx["weapons"].get(p.seat, "basic")
        if w == "basic":
            if self.power(p, "grapple-master"):
                return tuple(sorted({4, *self.d.attack.faces}))
            return self.d.attack.faces
        return self.d.weapons[w].faces

    def successes(self, seat: str) -> int:
        if seat == "killer":
            kd = self.ctx["kdice"]
            if isinstance(kd, int):
                return kd
            return sum(1 for f in kd if f in self.d.killer_faces)
        faces = self.faces_for(self.participant(seat))
        return sum(1 for f in self.ctx["dice"][seat] if f in faces)

    def _st_combat(self) -> None:
        ctx = self.ctx
        step = ctx["step"]
        members: list[str] = ctx["members"]
        if step == "weapons":
            for s in members:
                if ctx["cards"][s] == "attack" and s not in ctx["weapons"]:
                    p = self.participant(s)
                    opts = self.weapon_options(p)
                    if len(opts) == 1:
                        ctx["weapons"][s] = "basic"
                        continue
                    self.need(s, "weapon", [act("weapon", "name", w) for w in opts])
                    return
            if not ctx["killer"] and all(ctx["cards"][s] == "escape" for s in members):
                self._ev("combat.escape-vs-escape", "everyone escapes; no dice are rolled")
                ctx["escapers"] = list(members)
                ctx["step"] = "escapes"
                return
            ctx["step"] = "roll"
            return
        if step == "roll":
            for s in members:
                if s not in ctx["dice"]:
                    self.need_chance("combat-roll", DiceRoll(self.d.dice, faces=self.d.die, purpose=f"{s} {ctx['cards'][s]}"))
                    return
            if ctx["killer"] and ctx["kdice"] is None:
                if self.solo:
                    ctx["kdice"] = self.d.rage[self.killer.rage][2]
                    self._ev("solo.killer-table", f"the Killer (Rage {self.killer.rage}) counts {ctx['kdice']} successes",
                        rage=self.killer.rage, successes=ctx['kdice'])
                else:
                    n = self.d.rage[self.killer.rage][0]
                    self.need_chance("combat-roll", DiceRoll(n, faces=self.d.die, purpose="the Killer"))
                    return
            ctx["step"] = "resolve"
            return
        if step == "resolve":
            if ctx["reroll"] is not None:
                raise RuntimeError("a re-roll is pending without a chance decision")
            decider = self.decider()
            if decider is None:
                ctx["step"] = "panic"
                return
            self.need(decider, "combat-resolve", self.resolve_options(self.participant(decider)))
            return
        if step == "panic":
            for s in members:
                p = self.participant(s)
                if p.panic and s not in ctx["panicked"]:
                    ctx["panicked"].append(s)
                    faces = self.faces_for(p)
                    hits = [n for n, f in enumerate(ctx["dice"][s]) if f in faces]
                    if hits:
                        ctx["reroll"] = {"who": s, "idx": [hits[0]], "why": "panic"}
                        self.need_chance("reroll", DiceRoll(1, faces=self.d.die, purpose=f"{s} Panic re-roll"))
                        return
            ctx["step"] = "outcome"
            return
        if step == "outcome":
            self._combat_outcome()
            ctx["step"] = "escapes"
            return
        if step == "escapes":
            while ctx["escapers"]:
                s = ctx["escapers"][0]
                p = self.participant(s)
                if not p.alive:
                    ctx["escapers"].pop(0)
                    continue
                opts = [d for d in DIRS if self.open_step(p.pos, d) is not None]
                if not opts:
                    ctx["escapers"].pop(0)
                    self._ev("combat.escape-move", f"{p.name} has nowhere to escape to and stays", seat=p.seat)
                    continue
                self.need(s, "escape", [act("escape", "dir", d) for d in opts])
                return
            self._end_combat()
            return
        raise RuntimeError(f"unknown combat step {step}")

    def _on_weapon(self, action: Action) -> None:
        ctx = self.ctx
        s = next(s for s in ctx["members"] if ctx["cards"][s] == "attack" and s not in ctx["weapons"])
        p = self.participant(s)
        w = str(action["name"])
        ctx["weapons"][s] = w
        text = f"{p.name} attacks with the {w}" if w != "basic" else f"{p.name} uses the basic Attack"
        ammo = self.d.weapons[w].ammo if w != "basic" else ""
        if ammo and len(ctx["members"]) + (1 if ctx["killer"] else 0) > 2:
            self._ev("combat.ammo-once", f"one {ammo} pays for every target", ammo=ammo)
        if ammo == "bullet":
            p.bullets -= 1
            text += " and spends a Bullet"
        elif ammo == "shell":
            p.shells -= 1
            text += " and spends a Shell"
        self._ev("combat.weapon", text, seat=p.seat, weapon=w, ammo=ammo or None)

    def _on_combat_roll(self, action: Action) -> None:
        ctx = self.ctx
        faces = ints(action["faces"])
        for s in ctx["members"]:
            if s not in ctx["dice"]:
                ctx["dice"][s] = faces
                p = self.participant(s)
                rule = "combat.roll"
                if ctx["cards"][s] == "attack" and ctx["weapons"].get(s) == "basic" and self.power(p, "grapple-master"):
                    rule = "power.grapple-master"
                self._ev(rule, f"{p.name} rolls {faces}: {self.successes(s)} successes", seat=p.seat, dice=faces,
                    successes=self.successes(s))
                return
        ctx["kdice"] = faces
        self._ev("killer.roll", f"the Killer (Rage {self.killer.rage}) rolls {faces}: {self.successes('killer')} successes",
            rage=self.killer.rage, dice=faces, successes=self.successes("killer"))

    def decider(self) -> str | None:
        """Rule combat.resolve-reroll: whoever is behind decides first (turn order on ties)."""
        ctx = self.ctx
        best: tuple[int, int, str] | None = None
        for n, s in enumerate(ctx["members"]):
            if s in ctx["passed"]:
                continue
            p = self.participant(s)
            if p.resolve <= 0 or not self.resolve_options(p, probe=True):
                continue
            key = (self.successes(s), n, s)
            if best is None or key < best:
                best = key
        return None if best is None else best[2]

    def resolve_options(self, p: Participant, probe: bool = False) -> list[Action]:
        """What a combatant may do with Resolve before accepting the dice (rules
        combat.resolve-reroll, power.acrobatic, power.quarterback). With ``probe``, only whether
        there is anything: the list then stops at the first option found."""
        ctx = self.ctx
        s = p.seat
        faces = self.faces_for(p)
        failed = [n for n, f in enumerate(ctx["dice"][s]) if f not in faces]
        out: list[Action] = []
        if failed and probe:
            return [Action("reroll", (("dice", (failed[0],)),))]
        if failed:
            if ctx["spent"].get(s, 0) == 0 or self.power(p, "calm-under-pressure"):
                out.extend(Action("reroll", (("dice", sub),)) for sub in _subsets(failed))
            else:
                out.extend(Action("reroll", (("dice", (n,)),)) for n in failed)
        if self.power(p, "acrobatic") and ctx["cards"][s] == "escape" and s not in ctx["acro"]:
            out.append(act("acrobatic"))
        if self.power(p, "quarterback"):
            for t in [*ctx["members"], *(["killer"] if ctx["killer"] else [])]:
                if t != s and self.successes(t) > 0 and not (t == "killer" and isinstance(ctx["kdice"], int)):
                    out.append(act("quarterback", "target", t))
        if probe:
            return out
        return [act("accept"), *out]

    def _on_combat_resolve(self, action: Action) -> None:
        ctx = self.ctx
        s = self._last_actor
        p = self.participant(s)
        if action.kind == "accept":
            ctx["passed"].append(s)
            self._ev("combat.resolve-reroll", f"{p.name} accepts {self.successes(s)} successes", seat=p.seat,
                successes=self.successes(s))
            return
        p.resolve -= 1
        ctx["spent"][s] = ctx["spent"].get(s, 0) + 1
        if action.kind == "acrobatic":
            ctx["acro"].append(s)
            self._ev("power.acrobatic", f"{p.name} spends a Resolve: every die but 1 succeeds ({self.successes(s)} successes)",
                seat=p.seat, successes=self.successes(s))
            return
        if action.kind == "quarterback":
            t = str(action["target"])
            dice = ctx["kdice"] if t == "killer" else ctx["dice"][t]
            faces = self.d.killer_faces if t == "killer" else self.faces_for(self.participant(t))
            hit = next(n for n, f in enumerate(dice) if f in faces)
            ctx["reroll"] = {"who": t, "idx": [hit], "why": "quarterback"}
            self._ev("power.quarterback", f"{p.name} spends a Resolve to make {t} re-roll a success", seat=p.seat, target=t)
            self.need_chance("reroll", DiceRoll(1, faces=self.d.die, purpose=f"{t} forced re-roll"))
            return
        idx = ints(action["dice"])
        ctx["reroll"] = {"who": s, "idx": idx, "why": "resolve"}
        rule = "power.calm-under-pressure" if ctx["spent"][s] > 1 and len(idx) > 1 else "combat.resolve-reroll"
        self._ev(rule, f"{p.name} spends a Resolve to re-roll {len(idx)} dice", seat=p.seat, dice=idx)
        self.need_chance("reroll", DiceRoll(len(idx), faces=self.d.die, purpose=f"{s} re-roll"))

    def _on_reroll(self, action: Action) -> None:
        ctx = self.ctx
        rr = ctx["reroll"]
        ctx["reroll"] = None
        faces = ints(action["faces"])
        who = rr["who"]
        dice = list(ctx["kdice"]) if who == "killer" else list(ctx["dice"][who])
        for n, f in zip(rr["idx"], faces, strict=True):
            dice[n] = f
        if who == "killer":
            ctx["kdice"] = dice
        else:
            ctx["dice"][who] = dice
        name = "the Killer" if who == "killer" else self.participant(who).name
        rule = {"panic": "panic.combat", "quarterback": "power.quarterback"}.get(rr["why"], "combat.resolve-reroll")
        self._ev(rule, f"{name} re-rolls {faces}: now {dice}, {self.successes(who)} successes", seat=who, dice=faces,
            now=dice, successes=self.successes(who))

    def _combat_outcome(self) -> None:
        """Rules combat.attack-vs-attack, combat.attack-vs-escape, combat.multi-*, killer.always-attacks."""
        ctx = self.ctx
        members: list[str] = ctx["members"]
        ids = [*members, *(["killer"] if ctx["killer"] else [])]
        score = {s: self.successes(s) for s in ids}
        card = {s: ctx["cards"].get(s, "attack") for s in ids}
        # The Killer wins ties: half a success more than he rolled.
        eff = {s: score[s] * 2 + (1 if s == "killer" else 0) for s in ids}
        top = max(eff.values())
        tops = [s for s in ids if eff[s] == top]
        two = len(ids) == 2
        hits: list[tuple[str, str, int, str]] = []  # (source, target, damage, rule)
        escapes: list[str] = []
        shown = ", ".join(f"{'the Killer' if s == 'killer' else self.participant(s).name} {score[s]}" for s in ids)
        self._ev("combat.multi-top" if not two else "combat.roll", f"successes: {shown}",
            seats=ids, successes=[score[s] for s in ids])
        top_att = [s for s in tops if card[s] == "attack"]
        top_esc = [s for s in tops if card[s] == "escape"]
        for a in top_att:
            targets = [t for t in ids if t != a]
            base = self.killer_damage() if a == "killer" else self.weapon_damage(a)
            tie = len(top_att) > 1
            dmg = base - (len(targets) - 1) - (1 if tie else 0)
            dmg = max(1, dmg)
            for t in targets:
                if t in top_esc:
                    hits.append((a, t, self.d.tie_flat, "combat.attack-vs-escape"))
                else:
                    if a == "killer":
                        rule = "killer.always-attacks"
                    elif not two:
                        rule = "combat.multi-damage"
                    else:
                        rule = "combat.attack-vs-escape" if card[t] == "escape" else "combat.attack-vs-attack"
                    hits.append((a, t, dmg, rule))
        if not top_att:
            escapes = list(top_esc)
        if two:
            # Two combatants: a beaten Escape still escapes (only a tie with an Attack stops it).
            for s in members:
                if card[s] == "escape" and s not in top_esc and s not in escapes:
                    escapes.append(s)
            if "killer" in top_att:
                escapes = [s for s in members if card[s] == "escape"]
        # Sources in turn order, the Killer last (matters for the Kevlar Vest and the Key).
        order = {s: n for n, s in enumerate(ids)}
        hits.sort(key=lambda h: order[h[0]])
        if not hits and not escapes:
            self._ev("combat.multi-top", "no card takes effect")
        vest_used: set[str] = set()
        for src, tgt, dmg, rule in hits:
            src_name = "the Killer" if src == "killer" else self.participant(src).name
            if tgt == "killer":
                self._hurt_killer(src, dmg, rule)
                continue
            q = self.participant(tgt)
            if not q.alive:
                continue
            if q.has("kevlar-vest") and tgt not in vest_used:
                vest_used.add(tgt)
                q.items.remove("kevlar-vest")
                self._ev("combat.kevlar", f"{q.name}'s Kevlar Vest absorbs {src_name}'s {dmg} damage and is discarded",
                    seat=q.seat, source=src, amount=dmg)
                continue
            self.hurt(q, dmg, rule, f"{dmg} damage from {src_name}")
        ctx["escapers"] = [s for s in members if s in escapes and self.participant(s).alive]
        for s in ctx["escapers"]:
            rule = "combat.escape-move" if two else "combat.multi-escape"
            self._ev(rule, f"{self.participant(s).name} escapes", seat=self.participant(s).seat)

    def weapon_damage(self, seat: str) -> int:
        w = self.ctx["weapons"].get(seat, "basic")
        return self.d.attack.damage if w == "basic" else self.d.weapons[w].damage

    def killer_damage(self) -> int:
        return self.d.rage[self.killer.rage][1]

    def _hurt_killer(self, src: str, dmg: int, rule: str) -> None:
        k = self.killer
        if k.hp <= 0:
            return
        k.hp = max(0, k.hp - dmg)
        p = self.participant(src)
        self._ev(rule, f"{p.name} deals {dmg} damage to the Killer: {k.hp} HP left", seat=p.seat, amount=dmg, hp=k.hp)
        if k.hp == 0:
            k.stunned = True
            k.rage = 0
            self.milestones.add("killer-dies")
            self._ev("killer.death", "the Killer falls to 0 HP: stunned, Rage reset to 0")
            if k.carried > 0:
                k.carried -= 1
                k.key_given = True
                self.give_key(p, "carried by the Killer")
                self._ev("solo.not-enough-keys", f"the Killer still carries {k.carried} Key(s)", count=k.carried)
            elif not k.key_given:
                k.key_given = True
                self.give_key(p, "for bringing the Killer down the first time")

    def _end_combat(self) -> None:
        ctx = self.ctx
        i = ctx["cell"]
        for s in ctx["members"]:
            if s not in self.turn["done"]:
                self.turn["done"].append(s)
        k = self.killer
        if ctx["killer"] and k.pos == i and not self.people_in(i) and not k.stunned:
            self._stun("killer.stun-alone", "the Killer is left alone after the combat")
        self.ctx = {}
        self.stage = "resolve"

    def _on_escape(self, action: Action) -> None:
        ctx = self.ctx
        s = ctx["escapers"].pop(0)
        p = self.participant(s)
        to = self.step(p.pos, str(action["dir"]))
        assert to is not None
        self._enter(p, to, "combat.escape-move", f"{p.name} escapes {action['dir']}", dir=str(action["dir"]))

    def _stun(self, rule: str, why: str) -> None:
        k = self.killer
        k.stunned = True
        k.rage = max(0, k.rage - 1)
        self._ev(rule, f"{why}: he is Stunned, Rage {k.rage}", rage=k.rage)
