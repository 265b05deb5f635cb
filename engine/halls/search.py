"""Searching a room (rules ``search.*``): what a Search may do, drawing and resolving Reward
cards, puzzles, Exits, Gifts and bodies, and what a Participant gains or loses by it (items,
ammunition, Keys, damage, death).
"""

from __future__ import annotations

from collections.abc import Sequence

from hauntcheck.engine.core import Action, EventArg, Shuffle, act
from hauntcheck.engine.halls.base import HallsBase
from hauntcheck.engine.halls.model import ITEM_ORDER, NEGATIVE, Participant, RoomDef, Slot

#: Seat name -> index into the Participants ("P1" -> 0), for every seat a layout can have.
_SEAT_INDEX = {f"P{k + 1}": k for k in range(8)}


class SearchRules(HallsBase):
    """The Search action and its rewards."""

    def search_options(self, p: Participant) -> list[str]:
        """Rule search.options: what a Search action could do here."""
        out = []
        room = self.rooms[p.pos]
        rd = self.rdef(p.pos)
        if room.temp:
            return ["puzzle"]
        if not room.exhausted:
            searchable = rd.mode == "search" or (rd.mode == "automatic" and self.meets(p, rd))
            if searchable and self.room_available(p.pos):
                out.append("room")
            elif rd.mode == "puzzle" and self.puzzle_steps_left(p.pos) >= 0:
                out.append("puzzle")
            elif rd.mode == "exit" and p.keys >= rd.needs_keys:
                out.append("exit")
        if room.gift:
            out.append("gift")
        if any(not q.alive and not q.searched and q.pos == p.pos for q in self.pp):
            out.append("body")
        if p.has("first-aid-kit") and p.hp < self.d.hp_max:
            out.append("first-aid")
        if p.panic:
            out.append("panic")
        return out

    def meets(self, p: Participant, rd: RoomDef) -> bool:
        req = rd.requires
        if "item" in req and not p.has(req["item"]):
            return False
        if req.get("spend_ammo") == "bullet" and p.bullets < 1:
            return False
        if req.get("spend_ammo") == "shell" and p.shells < 1:
            return False
        if p.keys < int(req.get("spend_key", 0)):
            return False
        return p.hp > int(req.get("spend_hp", 0))

    def available_slots(self, i: int) -> list[int]:
        room = self.rooms[i]
        if room.exhausted:
            return []
        return [k for k in range(len(self.rdef(i).rewards)) if k not in room.covered]

    def room_available(self, i: int) -> bool:
        rd = self.rdef(i)
        return any(rd.rewards[k].reward not in NEGATIVE for k in self.available_slots(i))

    def puzzle_steps_left(self, i: int) -> int:
        return len(self.available_slots(i)) - 1

    # ---- searching

    def _start_search(self, p: Participant) -> None:
        opts = self.search_options(p)
        self.ctx = {"seat": p.seat}
        if not opts:
            self._ev("search.options", f"{p.name} finds nothing left to search", seat=p.seat)
            return
        if len(opts) == 1:
            self._search_with(p, opts[0])
        else:
            self.need(p.seat, "search", [act("search", "what", o) for o in opts])

    def _on_search(self, action: Action) -> None:
        """Rule search.options: with several ways open, the Participant names one as the Search
        resolves (never when choosing the action card), and the Search does only that."""
        p = self.participant(self.ctx["seat"])
        what = str(action["what"])
        self._ev("search.options", f"{p.name} uses the Search for: {what} (open: {', '.join(self.search_options(p))})",
            seat=p.seat, what=what, open=self.search_options(p))
        self._search_with(p, what)

    def participant(self, seat: str) -> Participant:
        return self.pp[_SEAT_INDEX[seat]]

    def _search_with(self, p: Participant, what: str) -> None:
        if len(self.people_in(p.pos)) > 1:
            self._ev("search.alone-at-start", f"{p.name} was alone when choosing, so the Search goes ahead", seat=p.seat)
        if what == "gift":
            self._pick_gift(p)
        elif what == "body":
            self._search_body(p)
        elif what == "first-aid":
            p.items.remove("first-aid-kit")
            healed = min(int(self.d.items["first-aid-kit"].get("heal", 3)), self.d.hp_max - p.hp)
            p.hp += healed
            self._ev("item.first-aid", f"{p.name} uses the First Aid Kit: +{healed} HP ({p.hp})", seat=p.seat, amount=healed, hp=p.hp)
        elif what == "panic":
            p.panic = False
            self._ev("panic.discard", f"{p.name} discards the Panic card", seat=p.seat)
        else:
            rd = self.rdef(p.pos)
            if rd.mode == "automatic":
                self._automatic(p, rd)
                return
            self.ctx = {"seat": p.seat, "what": what, "drawn": [], "spent": 0, "to_draw": self.draw_count(p, what)}
            if what in ("puzzle", "exit") and self.power(p, "problem-solver"):
                self._ev("power.problem-solver", f"{p.name} is a Problem Solver: one more card", seat=p.seat)
            self.stage = "search-draw"

    def draw_count(self, p: Participant, what: str) -> int:
        rd = self.rdef(p.pos)
        n = rd.search
        if what == "puzzle":
            slots = self.available_slots(p.pos)
            if slots and rd.rewards[slots[0]].draw:
                n = rd.rewards[slots[0]].draw
        if what in ("puzzle", "exit") and self.power(p, "problem-solver"):
            n += 1
        if p.panic:
            n = max(1, n - 1)
        return n

    def _st_search_draw(self) -> None:
        ctx = self.ctx
        p = self.participant(ctx["seat"])
        while ctx["to_draw"] > 0:
            if not self.reward_deck:
                if self.reward_discard:
                    self.need_chance("reward-shuffle", Shuffle("rewards", self.reward_discard))
                    return
                ctx["to_draw"] = 0
                break
            ctx["drawn"].append(self.reward_deck.pop(0))
            ctx["to_draw"] -= 1
        if not ctx.get("shown"):
            ctx["shown"] = True
            rule = {"room": "search.draw", "puzzle": "puzzle.draw-pair", "exit": "end.exit-search"}[ctx["what"]]
            self._ev(rule, f"{p.name} draws {', '.join(ctx['drawn'])}", seat=p.seat, cards=ctx["drawn"])
        if p.resolve > 0 and (self.reward_deck or self.reward_discard):
            self.stage = "search-resolve"
            self.need(p.seat, "search-resolve", [act("resolve", "spend", True), act("resolve", "spend", False)])
            return
        self._search_discard_or_finish()

    def _on_search_resolve(self, action: Action) -> None:
        ctx = self.ctx
        p = self.participant(ctx["seat"])
        if action["spend"]:
            p.resolve -= 1
            ctx["spent"] += 1
            ctx["to_draw"] = 2 if ctx["spent"] == 1 else 1
            rule = "puzzle.resolve-draw" if ctx["what"] != "room" else "search.resolve-draw"
            before = len(ctx["drawn"])
            self.stage = "search-draw"
            self._st_search_draw_quiet()
            self._ev(rule, f"{p.name} spends a Resolve and draws {', '.join(ctx['drawn'][before:]) or 'nothing'}", seat=p.seat,
                     cards=ctx["drawn"][before:])
        else:
            self._search_discard_or_finish()

    def _st_search_draw_quiet(self) -> None:
        # Draw what is owed; a needed reshuffle waits for chance and drawing resumes after it.
        ctx = self.ctx
        while ctx["to_draw"] > 0 and self.reward_deck:
            ctx["drawn"].append(self.reward_deck.pop(0))
            ctx["to_draw"] -= 1

    def _search_discard_or_finish(self) -> None:
        ctx = self.ctx
        p = self.participant(ctx["seat"])
        if ctx["what"] == "room" and ctx["spent"] > 0 and not ctx.get("discard_offered"):
            ctx["discard_offered"] = True
            cards = sorted(set(ctx["drawn"]))
            self.stage = "search-wait"
            self.need(p.seat, "search-discard", [act("discard", "card", "none")] + [act("discard", "card", c) for c in cards])
            return
        self._finish_search()

    def _st_search_resolve(self) -> None:
        # Defensive: a Resolve decision always changes the stage; if not, draw (and offer) again.
        self.stage = "search-draw"

    def _st_search_wait(self) -> None:
        raise RuntimeError("search waiting without a decision")

    def _on_search_discard(self, action: Action) -> None:
        card = str(action["card"])
        if card != "none":
            self.ctx["drawn"].remove(card)
            self.reward_discard.append(card)
            p = self.participant(self.ctx["seat"])
            self._ev("search.resolve-discard", f"{p.name} removes a {card} card", seat=p.seat, card=card)
        self._finish_search()

    def _finish_search(self) -> None:
        ctx = self.ctx
        p = self.participant(ctx["seat"])
        drawn: list[str] = ctx["drawn"]
        self.reward_discard.extend(drawn)
        self.stage = "resolve"
        if ctx["what"] == "room":
            self._award_search(p, drawn)
        elif ctx["what"] == "puzzle":
            self._puzzle(p, drawn)
        else:
            self._exit(p, drawn)
        self.ctx = {}

    def best_reward(self, i: int, drawn: Sequence[str]) -> int | None:
        """Rules search.discard-unrepresented and search.most-copies: the slot index won, or None."""
        rd = self.rdef(i)
        slots = self.available_slots(i)
        first: dict[str, int] = {}
        for k in slots:
            first.setdefault(rd.rewards[k].reward, k)
        counts: dict[str, int] = {}
        for card in drawn:
            for sym in self.d.reward_symbols[card]:
                if sym in first:
                    counts[sym] = counts.get(sym, 0) + 1
        if not counts:
            return None
        top = max(counts.values())
        return min(first[s] for s, n in counts.items() if n == top)

    def _award_search(self, p: Participant, drawn: Sequence[str]) -> None:
        i = p.pos
        k = self.best_reward(i, drawn)
        wanted = {self.rdef(i).rewards[j].reward for j in self.available_slots(i)}
        unused = [c for c in drawn if not wanted & set(self.d.reward_symbols[c])]
        if unused:
            self._ev("search.discard-unrepresented", f"not on the room, discarded: {', '.join(unused)}", cards=unused)
        if k is None:
            p.resolve += 1
            self._ev("search.consolation", f"nothing drawn matches {self.where(i)}: {p.name} gains 1 Resolve",
                cell=list(self.cell(i)), seat=p.seat)
            return
        rd = self.rdef(i)
        slot = rd.rewards[k]
        self._ev("search.most-copies", f"{p.name} finds {slot.label()} in {self.where(i)}", seat=p.seat, cell=list(self.cell(i)),
                 slot=k)
        self._take_slot(p, i, k)
        if slot.also >= 0 and slot.also in self.available_slots(i) and p.alive:
            self._ev("search.reward", f"{rd.name}: the {slot.label()} also gives {rd.rewards[slot.also].label()}",
                     room=rd.id, slot=slot.also)
            self._take_slot(p, i, slot.also)

    def _take_slot(self, p: Participant, i: int, k: int) -> None:
        slot = self.rdef(i).rewards[k]
        self.gain(p, slot, "search")
        self.cover(i, k)

    def cover(self, i: int, k: int) -> None:
        """Rules search.exhaust-reward and search.exhaust-room."""
        room = self.rooms[i]
        rd = self.rdef(i)
        slot = rd.rewards[k]
        if slot.outline == "square" and k not in room.covered:
            room.covered.append(k)
            self._ev("search.exhaust-reward", f"{slot.label()} in {self.where(i)} is covered", cell=list(self.cell(i)), slot=k)
        if slot.outline == "octagon":
            self._exhaust(i, f"taking {slot.label()} exhausts {self.where(i)}", slot=k)
        elif not room.exhausted and rd.mode == "search" and not self.room_available(i):
            self._exhaust(i, f"only Panic and Damage are left in {self.where(i)}: it is exhausted")

    def _exhaust(self, i: int, text: str, **args: EventArg) -> None:
        room = self.rooms[i]
        if not room.exhausted:
            room.exhausted = True
            room.covered = []
            self._ev("search.exhaust-room", text, cell=list(self.cell(i)), **args)

    def gain(self, p: Participant, slot: Slot, how: str) -> None:
        """Rule search.reward (and item.limits, item.firearm-ammo, search.consolation)."""
        r = slot.reward
        if r in ("melee", "firearm", "utility"):
            item = slot.item
            if p.has(item):
                p.resolve += 1
                self._ev("search.consolation", f"{p.name} already holds the {item}: 1 Resolve instead", seat=p.seat, item=item)
                return
            p.items.append(item)
            p.items.sort(key=ITEM_ORDER.index)
            self._ev("item.limits", f"{p.name} gains the {item}", seat=p.seat, item=item)
            info = self.d.items[item]
            if info.get("comes_with") or slot.extra_ammo:
                self._ammo(p, info.get("ammo", ""), int(info.get("comes_with", 0)) + slot.extra_ammo, "item.firearm-ammo")
        elif r == "ammo":
            self._ammo(p, slot.ammo, slot.amount, "search.reward")
        elif r == "key":
            self.give_key(p, how)
        elif r == "damage":
            self.hurt(p, slot.amount, "search.damage-resolve", f"{slot.amount} damage while searching", resolve=True)
        elif r == "panic":
            if p.panic:
                p.resolve += 1
                self._ev("search.consolation", f"{p.name} is already Panicked: 1 Resolve instead", seat=p.seat)
            else:
                p.panic = True
                self._ev("search.reward", f"{p.name} is Panicked", seat=p.seat)

    def _ammo(self, p: Participant, kind: str, n: int, rule: str) -> None:
        if n <= 0 or not kind:
            return
        if self.power(p, "every-shot-counts"):
            n += 1
            rule = "power.every-shot-counts"
        if kind == "bullet":
            p.bullets += n
        else:
            p.shells += n
        self._ev(rule, f"{p.name} gains {n} {kind}{'s' if n > 1 else ''}", seat=p.seat, amount=n, kind=kind)

    def give_key(self, p: Participant, how: str, made: bool = True) -> None:
        """Rule keys.find: a Key, and (outside solo) one room to lock in the MC phase."""
        p.keys += 1
        if made:
            self.keys_made += 1
        self.milestones.add("key")
        self._ev("keys.find", f"{p.name} gains a Key ({how}); holds {p.keys}", seat=p.seat, keys=p.keys)
        if not self.solo:
            self.turn.setdefault("locks", []).append([p.seat, 1])

    def hurt(self, p: Participant, n: int, rule: str, why: str, resolve: bool = True) -> None:
        """Damage to a Participant: Tough, Resolve per point, death at 0 (rules search.damage-resolve,
        combat.damage, power.tough)."""
        if not p.alive or n <= 0:
            return
        if self.power(p, "tough"):
            reduced = max(1, n - 1)
            if reduced < n:
                self._ev("power.tough", f"{p.name} is Tough: {n} damage becomes {reduced}", seat=p.seat, amount=n, reduced=reduced)
            n = reduced
        taken = min(n, p.hp)
        p.hp -= taken
        if resolve:
            p.resolve += n
        self._ev(rule, f"{p.name} takes {why}: {p.hp} HP left" + (f", +{n} Resolve" if resolve else ""),
                 seat=p.seat, amount=n, hp=p.hp, resolve=n if resolve else 0)
        if p.hp == 0:
            if rule == "search.damage-resolve":
                self._ev("search.death", f"{p.name} is killed by the search", seat=p.seat)
            else:  # every other damage is a combat's hit (a room's HP price never reaches 0: search.requires-item)
                self._ev("combat.damage", f"{p.name} is brought to 0 HP in the combat and dies", seat=p.seat)
            self._die(p)

    def _die(self, p: Participant) -> None:
        """Rule death.participant."""
        p.alive = False
        k = int(p.seat[1:]) - 1
        self.dead_order.append(k)
        self.mc_index = k
        if k not in self.mc_holders:
            self.mc_holders.append(k)
        self.milestones.add("death")
        if self.solo:
            self._ev("solo.no-locks", f"{p.name} dies in {self.where(p.pos)}: the game is lost", seat=p.seat, cell=list(self.cell(p.pos)))
            return
        self._ev("death.participant", f"{p.name} dies in {self.where(p.pos)}; P{k + 1} becomes the MC and will lock two rooms",
            seat=p.seat, cell=list(self.cell(p.pos)))
        self._ev("mc.role", f"P{k + 1} now holds the MC card", seat=f"P{k + 1}")
        self.turn.setdefault("locks", []).append([p.seat, 2])

    def _automatic(self, p: Participant, rd: RoomDef) -> None:
        req = rd.requires
        if req.get("spend_ammo"):
            if req["spend_ammo"] == "bullet":
                p.bullets -= 1
            else:
                p.shells -= 1
            self._ev("search.requires-item", f"{p.name} uses the {req.get('item', 'weapon')} and spends a {req['spend_ammo']}",
                seat=p.seat, ammo=req['spend_ammo'])
        if req.get("spend_key"):
            p.keys -= int(req["spend_key"])
            self.keys_spent += int(req["spend_key"])
            self._ev("search.requires-item", f"{p.name} spends {req['spend_key']} Key in {rd.name}",
                seat=p.seat, keys=int(req['spend_key']), room=rd.id)
        if req.get("spend_hp"):
            self.hurt(p, int(req["spend_hp"]), "search.requires-item", f"{req['spend_hp']} HP as the price of {rd.name}",
                      resolve=False)
        if p.alive:
            k = self.available_slots(p.pos)[0]
            self._ev("search.reward", f"{rd.name} gives {rd.rewards[k].label()} without a draw", room=rd.id, slot=k)
            self._take_slot(p, p.pos, k)

    def _pairs(self, drawn: Sequence[str]) -> bool:
        seen: set[str] = set()
        for card in drawn:
            for sym in self.d.reward_symbols[card]:
                if sym in seen:
                    return True
            seen.update(self.d.reward_symbols[card])
        return False

    def _puzzle(self, p: Participant, drawn: Sequence[str]) -> None:
        """Rules puzzle.draw-pair, puzzle.solve, puzzle.progress, puzzle.penalty, puzzle.failure-exhausts."""
        i = p.pos
        rd = self.rdef(i)
        room = self.rooms[i]
        slots = self.available_slots(i)
        if self._pairs(drawn):
            k = slots[0]
            slot = rd.rewards[k]
            self._ev("puzzle.solve", f"{p.name} solves the puzzle of {self.where(i)} and receives {slot.label()}",
                seat=p.seat, cell=list(self.cell(i)), slot=k)
            if room.temp:
                room.temp = False
            self.gain(p, slot, "puzzle")
            self._exhaust(i, f"{self.where(i)} has been solved and is exhausted")
            return
        if rd.on_fail == "exhaust-and-penalty":
            self._ev("puzzle.failure-exhausts", f"{p.name} fails the puzzle of {self.where(i)}", seat=p.seat, cell=list(self.cell(i)))
            self._exhaust(i, f"{self.where(i)} is exhausted by the failure")
            if rd.penalty:
                self.gain(p, rd.penalty, "puzzle")
            return
        if rd.on_fail == "penalty":
            self._ev("puzzle.failure-exhausts", f"{p.name} fails the puzzle of {self.where(i)} and takes the penalty",
                seat=p.seat, cell=list(self.cell(i)))
            if rd.penalty:
                self.gain(p, rd.penalty, "puzzle")
            return
        room.covered.append(slots[0])
        left = self.available_slots(i)
        if left:
            nxt = rd.rewards[left[0]].draw or rd.search
            self._ev("puzzle.progress", f"{p.name} fails; a progress token covers {rd.rewards[slots[0]].label()}, next attempt draws {nxt}",
                seat=p.seat, slot=slots[0], count=nxt)
            return
        self._ev("puzzle.penalty", f"every reward of {self.where(i)} is covered: {p.name} takes the penalty and the room opens",
            cell=list(self.cell(i)), seat=p.seat)
        room.temp = False
        self._exhaust(i, f"{self.where(i)} is used up")
        if rd.penalty:
            self.gain(p, rd.penalty, "puzzle")

    def _exit(self, p: Participant, drawn: Sequence[str]) -> None:
        if self._pairs(drawn):
            self.turn["exit_wins"].append(p.seat)
            self._ev("end.exit-search", f"{p.name} finds a pair at the Exit with {p.keys} Keys and will escape", seat=p.seat, keys=p.keys)
        else:
            self._ev("end.exit-search", f"{p.name} finds no pair at the Exit", seat=p.seat)

    def _pick_gift(self, p: Participant) -> None:
        room = self.rooms[p.pos]
        gift, room.gift = room.gift, ""
        self._ev("gift.pick-up", f"{p.name} picks up an MC Gift: {gift}", seat=p.seat, gift=gift)
        for slot in self.d.gifts[gift]:
            if p.alive:
                self.gain(p, slot, "gift")

    def _search_body(self, p: Participant) -> None:
        body = next(q for q in self.pp if not q.alive and not q.searched and q.pos == p.pos)
        body.searched = True
        self._ev("body.search", f"{p.name} searches the body of {body.name}", seat=p.seat, body=body.seat)
        for item in list(body.items):
            if p.has(item):
                self._ev("body.search", f"{p.name} cannot carry a second {item}; it is discarded", seat=p.seat, item=item)
            else:
                p.items.append(item)
                self._ev("body.search", f"{p.name} takes the {item}", seat=p.seat, item=item)
        p.items.sort(key=ITEM_ORDER.index)
        body.items = []
        p.bullets += body.bullets
        p.shells += body.shells
        body.bullets = body.shells = 0
        carried, body.keys = body.keys, 0
        for _ in range(carried):
            self.give_key(p, f"from {body.name}'s body", made=False)
        self.give_key(p, "the body's guaranteed Key")
