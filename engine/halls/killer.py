"""The Killer and the Master of the Ceremony (rules ``mc.*``, ``killer.*``, ``solo.*``): the end of
resolution (puzzle locks, escapes, everyone dead), the MC phase (locks, the MC card and its
effects, Gifts), the Killer's symbols and moves, the solo MC deck, and the end of the round.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

from hauntcheck.checks.halls_locks import Cell
from hauntcheck.engine.core import Action, Outcome, Shuffle, act
from hauntcheck.engine.halls.model import DIRS, act_cell, num
from hauntcheck.engine.halls.turn import TurnRules


class KillerRules(TurnRules):
    """The MC phase and the Killer."""

    # ---- end of resolution

    def _end_resolution(self) -> None:
        for seat, i in self.turn["revealed"]:
            rd = self.rdef(i)
            room = self.rooms[i]
            p = self.participant(seat)
            if rd.locks_on_entry and not room.exhausted and p.alive and p.pos == i and len(self.people_in(i)) == 1 \
                    and not (self.killer.active() and self.killer.pos == i):
                room.temp = True
                self._ev("move.puzzle-lock", f"{p.name} is locked inside {self.where(i)}", seat=p.seat, cell=list(self.cell(i)))
        for i, room in enumerate(self.rooms):
            if room.temp and not self.people_in(i):
                room.temp = False
                self._ev("move.puzzle-locked-room-closed", f"{self.where(i)} opens: nobody is inside", cell=list(self.cell(i)))
        wins = self.turn["exit_wins"]
        if wins:
            for s in wins:
                self.participant(s).escaped = True
            names = ", ".join(self.participant(s).name for s in wins)
            rule = "end.shared-escape" if len(wins) > 1 else "end.exit-search"
            self._ev(rule, f"{names} escape{'s' if len(wins) == 1 else ''} the Halls of Horror", seats=list(wins))
            self.result = Outcome("escape", tuple(wins), f"{names} escaped in round {self.round}")
            self.stage = "over"
            return
        if not self.living():
            if self.solo:
                self.result = Outcome("death", (), f"{self.pp[0].name} died in round {self.round}")
            else:
                winners = tuple(f"P{k + 1}" for k in sorted(self.turn["mc_start"]))
                self._ev("end.all-dead", "every Participant is dead: the players who held the MC role win")
                self.result = Outcome("killer", winners, f"all Participants dead in round {self.round}")
            self.stage = "over"
            return
        if self.solo:
            self._solo_keys_check()
        # The MC phase counts its own copies down: the turn keeps the locks it earned (a clone,
        # which copies the two apart, must behave the same).
        self.mc = {"step": "locks", "locks": [list(entry) for entry in self.turn.get("locks", [])]}
        self.stage = "mc"

    # ================================================================= MC phase

    def controller(self) -> str:
        if self.dead_order:
            return f"P{self.mc_index + 1}"
        return self.pp[self.first].seat

    def _st_mc(self) -> None:
        mc = self.mc
        step = mc["step"]
        if step == "locks":
            while mc["locks"]:
                seat, n = mc["locks"][0]
                if n <= 0:
                    mc["locks"].pop(0)
                    continue
                opts = self.lock_options(explain=True)
                if not opts:
                    mc["locks"].pop(0)
                    self._ev("lock.none", f"{self.participant(seat).name}'s player finds no room that may be locked",
                        seat=self.participant(seat).seat)
                    continue
                self.need(seat, "lock", [act_cell("lock", r, c) for r, c in opts])
                return
            mc["step"] = "draw"
            return
        if step == "draw":
            if self.solo:
                if self.turn["fought"]:
                    self._ev("solo.turn", "a turn spent in combat: no MC Solo card")
                    mc["step"] = "end"
                    return
                self._solo_draw()
                return
            want = len(self.dead_order) + 1 if self.dead_order else 1
            if not self._deck_ready(want):
                return
            cards = [self.mc_deck.pop(0) for _ in range(min(want, len(self.mc_deck)))]
            if not cards:
                mc["step"] = "end"
                return
            if len(cards) == 1:
                self._play_mc(cards[0])
                return
            mc["offered"] = cards
            self.need(self.controller(), "mc-card", [act("mc-card", "card", c) for c in sorted(set(cards))])
            return
        if step == "effects":
            self._run_effects()
            return
        if step == "symbols":
            self._symbols()
            return
        if step == "end":
            self._end_round()
            return
        raise RuntimeError(f"unknown MC step {step}")

    def _deck_ready(self, want: int) -> bool:
        if len(self.mc_deck) < want and self.mc_discard:
            self.need_chance("mc-shuffle", Shuffle("mc", [*self.mc_deck, *self.mc_discard]))
            return False
        return True

    def _on_mc_card(self, action: Action) -> None:
        mc = self.mc
        chosen = str(action["card"])
        offered: list[str] = mc.pop("offered")
        offered.remove(chosen)
        self.mc_deck.extend(offered)
        self._ev("mc.after-death", f"the MC draws {len(offered) + 1} cards, plays {self.d.mc[chosen]['name']} "
                f"and puts {len(offered)} under the deck", card=chosen, cards=offered)
        self._play_mc(chosen)

    def _play_mc(self, card: str) -> None:
        info = self.d.mc[card]
        mc = self.mc
        mc["card"] = card
        mc["effects"] = [dict(e) for e in info["effects"]]
        mc["symbols"] = int(info["symbols"])
        mc["step"] = "effects"
        rule = "mc.after-death" if self.dead_order else "mc.draw"
        self._ev(rule, f"{self.controller()} plays the MC card {info['name']} ({info['symbols']} Killer symbols)",
            seat=self.controller(), card=card, symbols=info['symbols'])

    def _run_effects(self) -> None:
        mc = self.mc
        while mc["effects"]:
            eff = mc["effects"][0]
            do = eff["do"]
            n = int(eff.get("amount", 1))
            k = self.killer
            if do == "gift":
                opts = self.gift_rooms()
                if not self.gift_pile or not opts or n <= 0:
                    mc["effects"].pop(0)
                    self._ev("mc.gift-place", "no MC Gift can be placed")
                    continue
                self.need(self.controller(), "gift", [act_cell("gift", r, c) for r, c in opts])
                return
            if do == "lock":
                mc["effects"].pop(0)
                mc["locks"] = [[self.controller(), n]]
                mc["step"] = "card-locks"
                self.stage = "mc-card-locks"
                return
            if do == "move-killer":
                dirs = self.killer_moves() if eff.get("left", n) > 0 else []
                if not dirs:
                    mc["effects"].pop(0)
                    continue
                self.need(self.controller(), "killer-move",
                          [act("killer-move", "dir", "stop")] + [act("killer-move", "dir", d) for d in dirs])
                return
            if do == "teleport-killer":
                mc["effects"].pop(0)
                reach = self.distances(self.living()[0].pos) if self.living() else {}
                opts = [self.cell(i) for i, r in enumerate(self.rooms)
                        if r.up and not r.locked and not r.temp and not self.people_in(i) and i != k.pos and i in reach]
                if k.active() and opts and not self.people_in(k.pos):
                    self.need(self.controller(), "killer-to", [act_cell("killer-to", r, c) for r, c in opts])
                    return
                self._ev("mc.card", "the Killer cannot be moved")
                continue
            mc["effects"].pop(0)
            self._simple_effect(do, n)
        mc["step"] = "symbols"

    def _simple_effect(self, do: str, n: int) -> None:
        k = self.killer
        if do == "stun":
            if k.stunned:
                self._ev("mc.card", "the Killer is already Stunned")
            else:
                self._stun("mc.card", "the MC card stuns the Killer")
        elif do == "activate":
            if k.stunned and k.hp > 0:
                k.stunned = False
                self._ev("killer.activate", "the Killer is Activated")
        elif do == "heal":
            gained = min(n, self.d.killer_hp_max - k.hp)
            k.hp += gained
            self._ev("killer.heal", f"the Killer heals {gained}: {k.hp} HP", amount=gained, hp=k.hp)
        elif do == "enrage":
            if k.hp <= 0:
                self._ev("killer.enrage", "a dead Killer cannot gain Rage")
                return
            gained = min(n, len(self.d.rage) - 1 - k.rage)
            k.rage += gained
            self._ev("killer.enrage", f"the Killer's Rage rises by {gained} to {k.rage}", amount=gained, rage=k.rage)
        elif do == "hurt-killer":
            lost = max(0, min(n, k.hp - 1))
            k.hp -= lost
            self._ev("solo.caps" if self.solo else "mc.card", f"the Killer loses {lost} HP (never below 1): {k.hp} HP",
                amount=lost, hp=k.hp)
        elif do == "resolve-all":
            for p in self.living():
                p.resolve += n
            self._ev("mc.card", f"every living Participant gains {n} Resolve", amount=n)
        else:
            self._ev("mc.card", f"{do}: nothing happens", effect=do)

    def gift_rooms(self) -> list[Cell]:
        return [self.cell(i) for i, r in enumerate(self.rooms) if r.up and not r.locked and not r.gift]

    def _on_gift(self, action: Action) -> None:
        i = self.idx(num(action["row"]), num(action["col"]))
        self.rooms[i].gift = self.gift_pile.pop(0)
        self.mc["effects"][0]["amount"] = int(self.mc["effects"][0].get("amount", 1)) - 1
        if self.mc["effects"][0]["amount"] <= 0:
            self.mc["effects"].pop(0)
        self._ev("mc.gift-place", f"an MC Gift is placed face down in {self.where(i)}", cell=list(self.cell(i)))

    # ---- Killer symbols and moves

    def killer_moves(self) -> list[str]:
        """Rule killer.move: the directions an Active Killer, not in combat, may move."""
        k = self.killer
        if not k.active() or self.people_in(k.pos) or self.mc.get("met"):
            return []
        return [d for d in DIRS if self.open_step(k.pos, d, killer=True) is not None]

    def _move_killer(self, d: str, rule: str) -> None:
        k = self.killer
        to = self.step(k.pos, d)
        assert to is not None
        k.pos = to
        met = bool(self.people_in(to))
        self._ev(rule, f"the Killer moves {d} to {self.where(to)}" + (" and meets a Participant" if met else ""),
                 dir=d, to=list(self.cell(to)), met=met)
        if met:
            self.mc["met"] = True

    def _on_killer_move(self, action: Action) -> None:
        eff = self.mc["effects"][0]
        d = str(action["dir"])
        if d == "stop":
            self.mc["effects"].pop(0)
            return
        eff["left"] = int(eff.get("left", eff.get("amount", 1))) - 1
        self._move_killer(d, "killer.move")
        if eff["left"] <= 0:
            self.mc["effects"].pop(0)

    def _on_killer_to(self, action: Action) -> None:
        i = self.idx(num(action["row"]), num(action["col"]))
        self.killer.pos = i
        self._ev("mc.card", f"the Killer appears in {self.where(i)}", cell=list(self.cell(i)))

    def symbol_options(self) -> list[Action]:
        k = self.killer
        out = [act("symbol", "use", "stop")]
        if k.hp > 0 and k.rage < len(self.d.rage) - 1:
            out.append(act("symbol", "use", "enrage"))
        if k.hp < self.d.killer_hp_max:
            out.append(act("symbol", "use", "heal"))
        out.extend(act("symbol", "use", d) for d in self.killer_moves())
        return out

    def _symbols(self) -> None:
        """Rule killer.symbols: forced Heal at 0 HP, forced Activate when stunned, then free uses."""
        mc = self.mc
        k = self.killer
        while mc["symbols"] > 0:
            if k.hp == 0:
                mc["symbols"] -= 1
                k.hp = 1
                self._ev("killer.heal", "a symbol must heal the dead Killer: 1 HP")
                continue
            if k.stunned and mc["symbols"] >= self.d.costs["activate"]:
                mc["symbols"] -= self.d.costs["activate"]
                k.stunned = False
                self._ev("killer.activate", "two symbols must Activate the Stunned Killer")
                continue
            opts = self.symbol_options()
            if len(opts) == 1:
                break
            self.need(self.controller(), "symbol", opts)
            return
        mc["symbols"] = 0
        mc["step"] = "end"

    def _on_symbol(self, action: Action) -> None:
        use = str(action["use"])
        mc = self.mc
        if use == "stop":
            self._ev("killer.symbols", f"{mc['symbols']} symbols left unspent", symbols=mc['symbols'])
            mc["symbols"] = 0
            return
        mc["symbols"] -= 1
        if use == "enrage":
            self.killer.rage += 1
            self._ev("killer.enrage", f"the Killer's Rage rises to {self.killer.rage}", rage=self.killer.rage)
        elif use == "heal":
            self.killer.hp += 1
            self._ev("killer.heal", f"the Killer heals to {self.killer.hp} HP", hp=self.killer.hp)
        else:
            self._move_killer(use, "killer.move")

    # ---- solo MC

    def _solo_draw(self) -> None:
        mc = self.mc
        if not self.mc_deck:
            if not self.mc_discard:
                mc["step"] = "end"
                return
            self._deck_ready(1)
            return
        tries = mc.setdefault("tries", 0)
        card = self.mc_deck.pop(0)
        info = self.d.solo[card]
        status = "dead" if self.killer.hp <= 0 else ("stunned" if self.killer.stunned else "active")
        effects = [dict(e) for e in info[status]]
        if not any(self._solo_can(e) for e in effects) and tries < len(self.d.solo_deck):
            mc["tries"] = tries + 1
            self.mc_deck.append(card)
            self._ev("solo.redraw", f"{info['name']} cannot be carried out (Killer {status}): it goes under the deck",
                     card=card, status=status)
            return
        self.mc_discard.append(card)
        mc["card"] = card
        mc["effects"] = effects
        mc["step"] = "solo-effects"
        mc["from"] = self.killer.pos
        self._ev("solo.card-status", f"MC Solo card {info['name']}: the Killer is {status}", card=card, status=status)
        self.stage = "solo-effects"

    def _solo_can(self, e: Mapping[str, Any]) -> bool:
        k = self.killer
        do = e["do"]
        if do in ("killer-steps", "killer-toward"):
            return k.active() and any(self.open_step(k.pos, d) is not None for d in DIRS)
        if do == "hurt-killer":
            return k.hp > 1
        if do == "enrage":
            return k.hp > 0 and k.rage < len(self.d.rage) - 1
        if do == "heal":
            return k.hp < self.d.killer_hp_max
        if do == "activate":
            return k.stunned and k.hp > 0
        if do == "gift":
            return bool(self.gift_pile) and not self.rooms[k.pos].gift and not self.rooms[k.pos].locked
        if do == "replace-room":
            return any(r.exhausted and not r.locked for r in self.rooms)
        return False

    def _st_solo_effects(self) -> None:
        mc = self.mc
        k = self.killer
        p = self.pp[0]
        while mc["effects"]:
            eff = mc["effects"][0]
            do = eff["do"]
            n = int(eff.get("amount", 1))
            if do == "killer-steps":
                mc["effects"].pop(0)
                for _ in range(n):
                    if not k.active() or p.pos == k.pos:
                        break
                    moved = False
                    for d in eff["dirs"]:
                        to = self.open_step(k.pos, d)
                        if to is not None and to != mc["from"]:
                            self._move_killer(d, "solo.killer-steps")
                            moved = True
                            break
                    if not moved:
                        break
                continue
            if do == "killer-toward":
                left = int(eff.get("left", n))
                opts = self.toward_options() if left > 0 else []
                if not opts:
                    mc["effects"].pop(0)
                    continue
                if len(opts) == 1:
                    self._toward(opts[0])
                    continue
                self.need(p.seat, "toward", [act("killer-step", "dir", d) for d in opts])
                return
            if do == "gift":
                mc["effects"].pop(0)
                if self._solo_can(eff):
                    self.rooms[k.pos].gift = self.gift_pile.pop(0)
                    self._ev("mc.gift-place", f"an MC Gift is left in {self.where(k.pos)}", cell=list(self.cell(k.pos)))
                continue
            if do == "replace-room":
                mc["effects"].pop(0)
                worn = [self.cell(i) for i, r in enumerate(self.rooms) if r.exhausted and not r.locked]
                if worn:
                    self.need(p.seat, "refresh", [act_cell("refresh", r, c) for r, c in worn])
                    return
                continue
            mc["effects"].pop(0)
            if do == "enrage" and k.rage >= len(self.d.rage) - 1:
                self._ev("solo.caps", "the Killer's Rage is at its maximum: ignored")
                continue
            if do == "heal" and k.hp >= self.d.killer_hp_max:
                self._ev("solo.caps", "the Killer is at 12 HP: ignored")
                continue
            self._simple_effect(do, n)
        mc["step"] = "end"
        self.stage = "mc"

    def toward_options(self) -> list[str]:
        """Rule solo.killer-toward: the steps that bring the Killer one room closer to the Participant."""
        k = self.killer
        p = self.pp[0]
        if not k.active() or k.pos == p.pos or not p.alive:
            return []
        if self.rooms[p.pos].temp and self.step_distance(k.pos, p.pos) == 1:
            return []
        dist = self.distances(p.pos)
        here = dist.get(k.pos)
        if here is None:
            return []
        out = []
        for d in DIRS:
            j = self.open_step(k.pos, d)
            if j is not None and dist.get(j) == here - 1:
                out.append(d)
        return out

    def step_distance(self, a: int, b: int) -> int:
        (r1, c1), (r2, c2) = self.cell(a), self.cell(b)
        return abs(r1 - r2) + abs(c1 - c2)

    def distances(self, src: int) -> dict[int, int]:
        dist = {src: 0}
        queue = deque([src])
        while queue:
            i = queue.popleft()
            for d in DIRS:
                j = self.step(i, d)
                if j is None or j in dist or self.rooms[j].locked or (self.rooms[j].temp and j != src):
                    continue
                dist[j] = dist[i] + 1
                queue.append(j)
        return dist

    def _toward(self, d: str) -> None:
        eff = self.mc["effects"][0]
        eff["left"] = int(eff.get("left", eff.get("amount", 1))) - 1
        self._move_killer(d, "solo.killer-toward")
        if eff["left"] <= 0 or self.killer.pos == self.pp[0].pos:
            self.mc["effects"].pop(0)

    def _on_toward(self, action: Action) -> None:
        self._toward(str(action["dir"]))

    def _on_refresh(self, action: Action) -> None:
        i = self.idx(num(action["row"]), num(action["col"]))
        self.rooms[i].exhausted = False
        self.rooms[i].covered = []
        self._ev("mc.card", f"Something Changed: {self.where(i)} can be searched again", cell=list(self.cell(i)))

    def _solo_keys_check(self) -> None:
        """Rule solo.not-enough-keys."""
        k = self.killer
        if k.two_keys:
            return
        reach = self.distances(self.pp[0].pos)
        if any(not self.rooms[i].up for i in reach):
            return
        if any(self.rooms[i].up and not self.rooms[i].locked and self.key_available(i) for i in range(len(self.rooms))):
            return
        k.two_keys = True
        k.carried = 2
        self._ev("solo.not-enough-keys", "every room is explored and no Key is left: the Killer now carries two Keys")

    # ---- end of round

    def _end_round(self) -> None:
        card = self.mc.get("card")
        if card and not self.solo:
            self.mc_discard.append(card)
        self.mc = {}
        if not self.solo:
            n = self.players
            for step in range(1, n + 1):
                k = (self.first + step) % n
                if self.pp[k].alive:
                    if k != self.first:
                        self.first = k
                        self._ev("mc.first-player-passes", f"the First Player card passes to {self.pp[k].name}", seat=self.pp[k].seat)
                    break
            if len(self.dead_order) > 1:
                dead = sorted(self.dead_order)
                pos = dead.index(self.mc_index)
                self.mc_index = dead[(pos + 1) % len(dead)]
                self._ev("mc.role", f"the MC card passes to P{self.mc_index + 1}", seat=f"P{self.mc_index + 1}")
        self.round += 1
        self.turn = {}
        self._begin_turn()
