"""Outcomes: the ``do`` lists of the haunt vocabulary (``docs/haunt-format.md``) carried out -
damage, statuses, flags, tokens, monsters added or removed, explorers killed, turned traitor or
sent elsewhere - with death at the skull, the hidden traitor's reveal and a hero turning traitor.

This module is over 800 lines: one dispatch over every outcome verb of the vocabulary; the next split takes the
hidden-traitor outcomes (swaps, reveals on death, the house attack) to a module like
``outcome_rolls``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt import concealment, fields, outcome_rolls, registry
from hauntcheck.engine.betrayal.haunt.grabs import grab, retreat
from hauntcheck.engine.betrayal.haunt.pieces import HERO, TRAITOR, Monster
from hauntcheck.engine.betrayal.haunt.wins import Wins
from hauntcheck.engine.betrayal.state import Gen, Req
from hauntcheck.engine.core import CHANCE, Action, Draw


class Outcomes(Wins):
    """The haunt vocabulary's outcomes (``do`` lists), death and turning traitor."""

    def _free_traitor(self, seat: str) -> None:
        """``traitor.freed-from-events``: lasting hindrances from event cards end for the traitor."""
        e = self.ex[seat]
        held = sorted(e.status)
        for name in held:
            effects._discard_status_card(self, seat, name)
        e.status = {}
        if held:
            self.emit("traitor.freed-from-events", f"{self.name(seat)} is freed from {', '.join(held)}", seat=seat, statuses=list(held))

    def reveal_traitor(self, how: str) -> None:
        """The hidden traitor's token is turned face up: by choice (``hidden-traitor.self-reveal``,
        ``how`` "self"), on its death (``hidden-traitor.reveal-on-death``, "death"), or because the
        haunt forces it ("haunt"). From now on the table knows the sides."""
        seat = self.hidden
        if seat is None or self.unmasked:
            return
        self.unmasked = True
        assert self.haunt is not None
        self.haunt["traitor"] = seat  # from now on the part-1 traitor powers apply to it
        rule = {"self": "hidden-traitor.self-reveal", "death": "hidden-traitor.reveal-on-death"}.get(how,
                                                                                                      "haunt.rules-override")
        why = {"self": "chooses to turn", "death": "dies and turns", "haunt": "must turn"}.get(how, "turns")
        self.emit(rule, f"{self.name(seat)} {why} token 1 face up: {self.name(seat)} is the traitor", seat=seat)
        if not self.ex[seat].dead:
            self._free_traitor(seat)

    def _left_of_traitor(self, p: Mapping[str, Any]) -> str | None:
        """The living hero nearest the traitor's left (in seat order) meeting the predicate."""
        traitor = self.traitor()
        if traitor is None:
            return None
        for k in range(1, self.n):
            seat = self.left_of(traitor, k)
            if self.in_play(seat) and self.side.get(seat) == HERO and self.pred(p, seat):
                return seat
        return None


    def _outcome(self, eff: Mapping[str, Any], seat: str | None, m: Monster | None, target: str | None = None
                 ) -> Gen[None]:
        """Carry out one haunt outcome for explorer ``seat`` (monster ``m``; ``target`` of an action)."""
        verb = next(k for k in eff if k not in ("says", "cite", "unverified", "judgement", "who"))
        spec = eff[verb]
        rule = "haunt.rules-override"
        if eff.get("who") == "trapped-explorer":
            seat = str(self.haunt["revealer"]) if self.haunt else seat
        if eff.get("who") == "traitor":
            seat = self.traitor()
            if seat is None or not self.in_play(seat):
                return
            eff = {k: v for k, v in eff.items() if k != "who"}
        if isinstance(eff.get("who"), Mapping) and "left_of_traitor" in eff["who"]:
            seat = self._left_of_traitor(eff["who"]["left_of_traitor"])
            if seat is None:
                self.emit(rule, f"no hero meets it: {eff.get('says', verb)}", verb=verb)
                return
        if verb == "on_target":
            for sub in spec:
                if target is not None and target in self.ex:
                    yield from self._outcome(sub, target, m)
                else:
                    yield from self._outcome(sub, seat, self.monster(target) if target else m, target)
            return
        if verb in ("kill_monster", "trap_monster"):
            victim = m
            if isinstance(spec, str) and spec not in ("target", "true") and self.hs is not None and spec in self.hs.monsters:
                victim = next((x for x in self.mon if x.kind == spec and not x.gone and (m is None or x is m)), m)
            if target is not None and target not in self.ex:
                victim = self.monster(target)
            if victim is not None:
                victim.gone = "killed" if verb == "kill_monster" else "trapped"
                where = f" in {self.room_name(victim.room)} for good" if verb == "trap_monster" else ""
                self.emit(rule, f"{self.mname(victim)} is {victim.gone}{where}", monster=victim.uid, gone=victim.gone)
                self.leave_remains(victim)
                for partner in self.partners(victim):
                    partner.gone = victim.gone
                    self.emit(rule, f"{self.mname(partner)}, its other part, is {victim.gone} with it",
                        monster=partner.uid, gone=victim.gone)
                self._release_gone()
        elif verb == "hit_monster":
            victim = self.monster(target) if target is not None and target not in self.ex else m
            cap = self.mdef(victim).damage_capacity if victim is not None else None
            if victim is not None and cap is not None and not victim.gone:
                need = self._amount(cap["points"])
                hits = self._count_hit(victim, cap, need)
                if hits >= need:
                    victim.gone = "killed"
                    self.emit(rule, f"{self.mname(victim)} is killed", monster=victim.uid)
        elif verb == "grab" and seat is not None and m is not None:
            yield from grab(self.as_haunt_state(), seat, m)
        elif verb == "retreat":
            mover = self.monster(target) if target is not None and target not in self.ex else m
            if mover is not None:
                retreat(self.as_haunt_state(), mover)
        elif verb == "rise_as" and seat is not None and self.hs is not None:
            risen = self._add_monster(self.hs.monsters[str(spec)], self.ex[seat].room, rule=rule)
            risen.counterpart = seat  # run by the dead explorer's player (monster_controller)
            self.emit(rule, f"{self.name(seat)} rises as {self.mname(risen)}, run by the same player", seat=seat, monster=risen.uid)
        elif verb == "swap_tokens" and seat is not None:
            yield from self._swap_tokens(seat, spec)
        elif verb in ("mark_monster", "set_monster_stat"):
            marked = self.monster(target) if target is not None and target not in self.ex else m
            if marked is not None and verb == "mark_monster":
                marks = self.hook_state.setdefault("monster-marks", {}).setdefault(marked.uid, [])
                if str(spec) not in marks:
                    marks.append(str(spec))
                self.emit(rule, f"{self.mname(marked)} is {spec} for the rest of the game", monster=marked.uid, status=spec)
            elif marked is not None:
                marked.stats.update({str(k): int(v) for k, v in spec.items()})
                self.emit(rule, f"{self.mname(marked)} now has " + ", ".join(f"{k} {v}" for k, v in sorted(spec.items())),
                          monster=marked.uid, **{str(k): int(v) for k, v in spec.items()})
        elif verb == "roll_dice":
            yield from outcome_rolls.roll_dice(self, spec, seat, m, target, rule, str(eff.get("says", "a haunt roll")))
        elif verb == "fetch_room":
            yield from self._fetch_room(spec)
        elif verb == "room_cost" and seat is not None:
            self.turn_mods.setdefault(seat, set()).add(f"room-cost:{int(spec)}")
            self.emit(rule, f"for the rest of the turn each room {self.name(seat)} moves into costs {int(spec)} spaces", seat=seat)
        elif verb == "return_monster" and self.hs is not None:
            kind = str(spec["monster"])
            for back in [x for x in self.mon if x.kind == kind and x.gone == "away"]:
                rooms = [r for r in self._rooms_for(spec["in"]) if r in self.house.spots]
                back.gone = ""
                back.room = rooms[0] if rooms else str(self.haunt["room"] if self.haunt else back.room)
                gain = int(spec.get("gain_each_trait", 0))
                for trait in back.stats:
                    back.stats[trait] += gain
                self.emit(rule, f"{self.mname(back)} comes back in {self.room_name(back.room)}"
                          + (f", each trait {gain} higher: " + ", ".join(f"{k} {v}" for k, v in sorted(back.stats.items()))
                             if gain else ""), monster=back.uid, room=back.room, amount=gain)
        elif verb == "monster_gain":
            fed = self.monster(target) if target is not None and target not in self.ex else m
            if fed is not None and not fed.gone:
                for trait in fed.stats:
                    fed.stats[trait] += int(spec["each_trait"])
                self.emit(rule, f"{self.mname(fed)} grows stronger: " + ", ".join(f"{k} {v}" for k, v in sorted(fed.stats.items())),
                          monster=fed.uid, amount=int(spec["each_trait"]))
        elif verb == "return_token" and seat is not None:
            if str(spec) in self.held.get(seat, []):
                self.held[seat].remove(str(spec))
                self.pool[str(spec)] = self.pool.get(str(spec), 0) + 1
                self.emit(rule, f"{self.name(seat)}'s {spec} token goes back to the set-aside tokens", seat=seat, token=spec)
        elif verb == "stun_monster":
            victim = self.monster(target) if target is not None and target not in self.ex else m
            if victim is not None and not victim.gone and not victim.stunned:
                victim.stunned = True
                self.emit("monster.stun-token", f"{self.mname(victim)} is stunned", monster=victim.uid)
            self._release_gone()  # a stunned holder lets go
        elif verb == "kill" and seat is not None:
            self.lethal = True
            e = self.ex[seat]
            e.idx["might"] = -1
            self._die(seat, "might")
            self.lethal = False
            self.emit(rule, f"{self.name(seat)} is killed", seat=seat)
        elif verb == "lose" and seat is not None:
            self.own_change = True  # the haunt's own rule: it moves even fixed traits (traits_fixed)
            try:
                for trait, k in spec.items():
                    if not self.ex[seat].dead:
                        self.trait_change(seat, trait, -int(k))
            finally:
                self.own_change = False
        elif verb == "each_hero":
            traitor = self.traitor()
            start = traitor or (str(self.haunt["revealer"]) if self.haunt else self.seat_ids[0])
            for hero in [self.left_of(start, k) for k in range(1, self.n + 1)]:
                if hero not in self.living_heroes() or ("requires" in spec and not self.pred(spec["requires"], hero)):
                    continue
                if "says" in eff:
                    self.emit(rule, f"{self.name(hero)}: {eff['says']}", seat=hero)
                for sub in spec["do"]:
                    if self.in_play(hero):
                        yield from self._outcome(sub, hero, m, target)
                if self._check_wins():
                    return
        elif verb == "room_kill" and seat is not None:
            room = self.ex[seat].room
            blasted = [seat] + [s for s in self.seat_ids if s != seat and self.in_play(s) and self.ex[s].room == room
                                and (spec.get("to") == "explorers" or self.side.get(s) == HERO)]
            self.emit(rule, f"{eff.get('says', 'everyone there dies')} in {self.room_name(room)}: "
                      f"{', '.join(self.name(v) for v in blasted)}", room=room, seats=list(blasted))
            for dying in blasted:
                if spec.get("destroy_cards") and self.ex[dying].cards:
                    gone = list(self.ex[dying].cards)
                    self.ex[dying].cards = []
                    self.destroyed.extend(gone)
                    self.emit(rule, f"destroyed with {self.name(dying)}: {', '.join(self.card_name(c) for c in gone)}",
                        seat=dying, cards=list(gone))
                if self.in_play(dying):
                    yield from self._outcome({"kill": True}, dying, None)
        elif verb == "trait_points" and seat is not None:
            yield from outcome_rolls.trait_points(self, seat, spec)
        elif verb == "become" and seat is not None:
            status = str(spec)
            immune = [s for s in self.hstatus.get(seat, []) if self.hs is not None
                      and status in self.hs.statuses.get(s, {}).get("immune_to_statuses", [])]
            if immune:
                self.emit(rule, f"{self.name(seat)} is {immune[0]} and cannot become {status}", seat=seat, status=status)
            elif status not in self.hstatus.setdefault(seat, []):
                self.hstatus[seat].append(status)
                self.emit(rule, f"{self.name(seat)} becomes {status}", seat=seat, status=status)
                if self.hs is not None and self.hs.statuses.get(status, {}).get("drops_items"):
                    yield from self._drop_everything(seat)
                if self.hs is not None and self.hs.statuses.get(status, {}).get("trait_values"):
                    self._status_traits(seat, status)
                if self.hs is not None and self.hs.statuses.get(status, {}).get("removes_from_play"):
                    self.removed.add(seat)
                    self.emit(rule, f"{self.name(seat)} is out of the game ({status})", seat=seat, status=status)
                    if seat == self.current:
                        self.turn.end_now = True
        elif verb == "lose_status" and seat is not None:
            if spec in self.hstatus.get(seat, []):
                self.hstatus[seat].remove(spec)
                self.emit(rule, f"{self.name(seat)} is no longer {spec}", seat=seat, status=spec)
                if self.hs is not None and self.hs.statuses.get(str(spec), {}).get("trait_values"):
                    self.trait_values.pop(seat, None)
        elif verb == "turn_traitor" and seat is not None:
            yield from self._turn_traitor(seat, bool(spec.get("run_setup")) if isinstance(spec, Mapping) else False)
        elif verb == "set_flag":
            self.hflags.add(str(spec))
            self.emit(rule, f"{self.hs.flags.get(str(spec), spec) if self.hs else spec}", flag=str(spec))
        elif verb == "clear_flag":
            self.hflags.discard(str(spec))
        elif verb == "earn":
            token = str(spec["token"])
            if token == "trait-used" and self.hs is not None:
                # the token of the trait that was rolled, among those the haunt names
                token = next((t for t in spec.get("tokens", []) if self.hs.tokens[t].trait == self.rolled), token)
            if token in self.pool:
                if self.pool[token] <= 0:
                    self.emit(rule, f"no {token} token is left to earn", token=token)
                    return
                self.pool[token] -= 1
            self.earned[token] = self.earned.get(token, 0) + 1
            if spec.get("put") in ("in-room", "next-to-target") and seat is not None:
                self.htokens.setdefault(token, []).append(self.ex[seat].room)
            elif spec.get("put") == "in-room" and m is not None:
                self.htokens.setdefault(token, []).append(m.room)  # a monster's room (an escape marked)
            elif spec.get("put") == "in-haunt-room" and self.haunt is not None:
                self.htokens.setdefault(token, []).append(str(self.haunt["room"]))
            self.emit(rule, f"a {token} token is earned ({self.earned[token]} so far)", token=token)
        elif verb == "take_token" and seat is not None and isinstance(spec, Mapping):
            yield from self._take_one_of(seat, spec)
        elif verb == "take_token" and seat is not None:
            token = str(spec)
            rooms = self.htokens.get(token, [])
            here = self.ex[seat].room
            if here in rooms:
                rooms.remove(here)
            elif self.pool.get(token, 0) > 0:
                self.pool[token] -= 1
            else:
                self.emit(rule, f"no {token} token is left to take", token=token)
                return
            self.held.setdefault(seat, []).append(token)
            self.emit(rule, f"{self.name(seat)} takes a {token} token", seat=seat, token=token)
        elif verb == "fetch_card" and seat is not None:
            cards = spec["card"] if isinstance(spec["card"], list) else [spec["card"]]
            for card in cards:
                kind = str(spec.get("stack", "item"))
                if kind == "own-stack":
                    kind = self.t.cards[card].type  # each card from its own stack (the Spear is an omen)
                for pile in (self.decks[kind], self.discards[kind], self.token_cards):
                    if card in pile:
                        pile.remove(card)
                        if pile is self.decks[kind] and kind == "omen":
                            self.omens_drawn += 1  # it has left the omen stack
                        self.ex[seat].cards.append(card)
                        self.emit(rule, f"{self.name(seat)} finds the {self.card_name(card)} in the {kind} stack"
                                  if pile is not self.token_cards else f"{self.name(seat)} takes the set-aside {self.card_name(card)}",
                                  seat=seat, card=card)
                        yield from effects.gain_card(self, seat, card)
                        return
            where = "its" if spec.get("stack") == "own-stack" else f"the {spec.get('stack', 'item')}"
            self.emit(rule, f"the {', '.join(cards)} is not in {where} stack: nothing is found",
                cards=list(cards), stack=spec.get("stack", "item"))
        elif verb == "steal" and spec == "chosen-token" and seat is not None and target in self.ex:
            loot = sorted({t for t in self.held.get(target, []) if self._carried(t) and self._room_for_token(seat, t)})
            if not loot:
                self.emit("item.tokens-like-cards", f"{self.name(target)} carries no token {self.name(seat)} can take",
                    target=target, seat=seat)
                return
            token = loot[0]
            if len(loot) > 1:
                a = yield from self.ask(seat, [Action.of("steal-token", token=t) for t in loot], "take which token")
                token = str(a["token"])
            self.held[target].remove(token)
            self.held.setdefault(seat, []).append(token)
            self.emit("item.tokens-like-cards", f"{self.name(seat)} takes the {token} token from {self.name(target)}",
                      seat=seat, token=token, target=target)
        elif verb == "steal" and spec in ("item", "any-card") and seat is not None and target in self.ex:
            yield from self._take_from_explorer(seat, target, omens=spec == "any-card")
        elif verb == "learn_position":
            for s in [s for s in self.concealed if self.in_play(s)]:
                concealment.learn(self, s, str(spec), str(eff.get("says", "the table learns where it is")))
        elif verb == "steal" and spec in ("item", "any-card") and seat is not None and target is not None \
                and target not in self.ex:
            yield from self._take_from_monster(seat, self.monster(target), omens=spec == "any-card")
        elif verb == "monster_draws" and m is not None and not m.gone:
            kind = str(spec)
            if not self.decks[kind]:
                self.emit(rule, f"the {kind} stack is empty: {self.mname(m)} draws nothing", kind=kind, monster=m.uid)
                return
            card = yield from self.top_card(kind)
            m.cards.append(card)
            self.emit(rule, f"{self.mname(m)} draws {self.card_name(card)} and keeps it (its effects do nothing for it)",
                monster=m.uid, card=card)
            self.monster_items_changed(m, 1)
        elif verb == "move_track":
            way = "up" if "up" in spec else "down"
            by = self._amount(spec[way])
            self.move_track(by if way == "up" else -by, str(eff.get("says", f"the track moves {way} {by}")))
        elif verb == "ride_with" and seat is not None:
            # the explorer in question is carried by the one in its room with that status (a passenger and its pilot)
            here = self.ex[seat].room
            carrier = next((s for s in self.seat_ids if s != seat and self.in_play(s) and self.ex[s].room == here
                            and str(spec) in self.hstatus.get(s, [])), None)
            if carrier is not None and self.status_value(seat, "carried_like_item"):
                self.carried[seat] = carrier
                self.emit(rule, f"{self.name(seat)} rides with {self.name(carrier)}", seat=seat, holder=carrier)
        elif verb == "exit_house" and seat is not None:
            self.exited.add(seat)
            self.emit(rule, f"{self.name(seat)} leaves the house", seat=seat)
            if seat == self.current:
                self.turn.end_now = True
        elif verb == "end_turn" and seat is None and m is not None:
            self.turn_mods.setdefault(m.uid, set()).add("turn-over")  # the monster's turn ends here (a feast)
        elif verb in PART1_EFFECTS:
            if seat is not None:
                yield from effects.run(self, [eff], effects.Ctx(seat, "token:haunt"))
        elif verb == "place" and isinstance(spec, Mapping) and "monster" in spec and self.hs is not None:
            assert self.haunt is not None
            mdef = self.hs.monsters[str(spec["monster"])]
            if "any_room" in spec["in"] or "next_to_room" in spec["in"]:
                room = yield from self._location(spec["in"], set(), f"place the {mdef.name}")
            else:
                room = ([r for r in self._rooms_for(spec["in"]) if r in self.house.spots] or [str(self.haunt["room"])])[0]
            there = [x for x in self.active_monsters() if x.kind == mdef.id]
            if "count" in spec:
                # a counted placement always brings new monsters (the Firebats' breeding)
                count = self._amount(spec["count"], room)
                if mdef.count is not None:
                    # a kind with a set number of tokens never has more in the house at once
                    count = max(0, min(count, self._amount(mdef.count) - len(there)))
                for _ in range(count):
                    self._add_monster(mdef, room, rule=rule)
                if count == 0:
                    self.emit(rule, f"no new {mdef.name} appears", kind=mdef.id, room=room)
            elif len(there) == 1 and mdef.count is None:
                # a single monster already in the house is moved there (the Witch's Wings of Raven)
                src, there[0].room = there[0].room, room
                self.emit(rule, f"{self.mname(there[0])} moves {self.room_name(src)} -> {self.room_name(room)}",
                    monster=there[0].uid, origin=src, room=room)
            else:
                self._add_monster(mdef, room)
        elif verb == "place" and isinstance(spec, Mapping) and "token" in spec:
            if spec.get("each_room"):
                fields.place_tokens(self, spec)  # one in each room of the location that has none (the Blob's start)
            else:
                yield from self._place_tokens(spec)  # tokens placed in play as the setup places them (The Heir's later Assassins)
        elif verb == "spread":
            fields.spread(self, spec)
        elif verb == "clear_tokens":
            fields.clear_tokens(self, str(spec))
        elif verb == "release" and self.hs is not None and (seat is not None or m is not None):
            room = m.room if seat is None and m is not None else self.ex[str(seat)].room
            rooms = self.htokens.get(str(spec["token"]), [])
            if room in rooms:
                rooms.remove(room)
                freed = self._add_monster(self.hs.monsters[str(spec["monster"])], room, rule=rule)
                self.emit(rule, f"the face-down token in {self.room_name(room)} is turned up: {self.mname(freed)} is in play",
                    room=room, monster=freed.uid)
        elif verb == "monster_leaves" and m is not None and not m.gone:
            m.gone = "away"
            self.emit(rule, f"{self.mname(m)} leaves the house for now", monster=m.uid)
        elif verb == "collapse_room" and seat is not None:
            yield from self._collapse_one(seat, spec)
        elif verb == "on_each" and (seat is not None or m is not None):
            yield from self._on_each(seat, spec, m)
        elif verb == "trait_roll" and (seat is not None or "dice" in spec):
            yield from outcome_rolls.trait_roll(self, seat, spec, m)
        elif verb == "room_damage":
            yield from self._room_damage(spec, seat, m)
        elif verb == "house_attack":
            yield from self._house_attack(spec)
        elif verb == "contest" and m is not None:
            yield from outcome_rolls.contest(self, spec, m)
        elif verb == "weaken_monster" and self.hs is not None:
            for x in [x for x in self.mon if x.kind == spec["monster"] and not x.gone]:
                trait = str(spec["trait"])
                x.stats[trait] = max(0, self.mstat(x, trait) - self._amount(spec["by"]))
                self.emit(rule, f"{self.mname(x)}'s {trait} drops to {x.stats[trait]}", monster=x.uid, trait=trait, value=x.stats[trait])
        elif verb == "control":
            self.control[str(spec["monster"])] = str(spec["to"])
            self.emit(rule, f"the {spec['monster']} is now controlled by the {spec['to']}", monster=spec['monster'], to=spec['to'])
        elif verb == "branch":
            chosen = spec["then"] if self.pred(spec["when"], seat, m) else spec.get("else", [])
            for sub in chosen:
                yield from self._outcome(sub, seat, m, target)
        elif verb == "move_monster" and seat is not None:
            yield from self._move_monster(seat, spec, rule)
        elif verb == "move_fewer" and seat is not None:
            # kept with the turn's limits; movement_left takes it off, never below ``at_least``
            self.turn_mods.setdefault(seat, set()).add(f"move-fewer:{int(spec['by'])}:{int(spec.get('at_least', 1))}")
            self.emit(rule, f"{self.name(seat)} moves {int(spec['by'])} fewer spaces this turn "
                      f"(at least {int(spec.get('at_least', 1))})", seat=seat)
        elif verb == "max_move" and seat is not None:
            if int(spec) == 0:
                self.turn_mods.setdefault(seat, set()).add("no-move")
                self.emit(rule, f"{self.name(seat)} cannot move this turn", seat=seat)
        elif verb == "destroy_item" and seat is not None and str(spec) in self.held.get(seat, []):
            # a token carried like an item: the one the actor holds (others may hold more of them)
            self.held[seat].remove(str(spec))
            self.destroyed.append(str(spec))
            self.emit(rule, f"{self.name(seat)}'s {spec} token is destroyed", seat=seat, token=spec)
        elif verb == "destroy_item":
            card = str(spec)
            for s_ in self.seat_ids:
                if card in self.held.get(s_, []):
                    self.held[s_].remove(card)
                    self.destroyed.append(card)
                    self.emit(rule, f"the {card} token is destroyed", card=card)
                if card in self.ex[s_].cards:
                    self.ex[s_].cards.remove(card)
                    self.destroyed.append(card)
                    self.emit(rule, f"the {self.card_name(card)} is destroyed", card=card)
                    yield from effects.lose_card(self, s_, card)
        elif verb == "discard_token" and seat is not None and seat in self.dealt.get(str(spec), {}):
            number = self.dealt[str(spec)].pop(seat)
            self.emit(rule, f"{self.name(seat)}'s {spec} token ({number}) is discarded", seat=seat, token=spec, value=number)
        elif verb == "discard_token" and seat is not None and str(spec) in self.held.get(seat, []) and \
                self.hs is not None and self.hs.tokens[str(spec)].carried_as_item:
            self.held[seat].remove(str(spec))  # a token carried like an item is spent from the hand
            self.emit(rule, f"{self.name(seat)} spends a {spec} token", seat=seat, token=spec)
        elif verb == "discard_token" and seat is None and m is not None:
            rooms = self.htokens.get(str(spec), [])
            if m.room in rooms:
                rooms.remove(m.room)  # the token lying in the monster's room (a Corpse a Freak eats)
                self.emit(rule, f"the {spec} token in {self.room_name(m.room)} is discarded", token=spec, room=m.room)
        elif verb == "discard_token" and seat is not None:
            rooms = self.htokens.get(str(spec), [])
            if self.ex[seat].room in rooms:
                rooms.remove(self.ex[seat].room)
            elif str(spec) in self.held.get(seat, []):
                self.held[seat].remove(str(spec))
            self.emit(rule, f"a {spec} token is discarded", token=spec)
        elif verb == "custom" and spec in registry.hook.outcome:
            yield from registry.hook.outcome[spec](self.as_haunt_state(), seat, target)
        elif verb == "custom" and spec in registry.hook.standing:
            registry.hook.standing[spec](self.as_haunt_state())
        elif verb == "custom" and spec in registry.hook.monster:
            yield from registry.hook.monster[spec](self.as_haunt_state(), seat, m)
        elif verb == "custom" and spec in registry.hook.action and seat is not None:
            registry.hook.action[spec](self.as_haunt_state(), seat)
            yield from self._after_hook(seat)
        elif verb == "custom":
            raise NotImplementedError(f"haunt hook {spec!r}")
        else:
            raise NotImplementedError(f"haunt outcome {verb!r}")

    def _status_traits(self, seat: str, status: str) -> None:
        """A status with ``trait_values``: those traits are held as numbers while it lasts (the
        ``trait_values`` the setup verb also keeps), not read from the character card."""
        assert self.hs is not None
        values = {str(t): self._amount(v) for t, v in self.hs.statuses[status]["trait_values"].items()}
        self.trait_values[seat] = {"values": values, "per_hero_killed": {}, "minimum": 0}
        self.emit("haunt.rules-override", f"{self.name(seat)} ({status}) has "
                  + ", ".join(f"{t} {v}" for t, v in values.items()), seat=seat, status=status, **values)

    def _take_one_of(self, seat: str, spec: Mapping[str, Any]) -> Gen[None]:
        """``take_token: {one_of, from}``: the explorer takes the one of these distinct tokens lying
        in its room (``from: room``), or ``count`` of those lying anywhere, chosen (``from:
        anywhere``); each is turned face up and its ``on_take`` outcomes run."""
        kinds = [str(t) for t in spec["one_of"]]
        here = self.ex[seat].room
        count = self._amount(spec.get("count", 1))
        for _ in range(count):
            if spec["from"] == "room":
                lying = [t for t in kinds if here in self.htokens.get(t, [])]
            else:
                lying = [t for t in kinds if self.htokens.get(t)]
            if not lying:
                self.emit("haunt.rules-override", f"no face-down {kinds[0].rsplit('-', 1)[0]} token is left to take", tokens=list(kinds))
                return
            token = lying[0]
            if len(lying) > 1:
                a = yield from self.ask(seat, [Action.of("take-token", token=t, room=sorted(self.htokens[t])[0])
                                               for t in lying], "take which token")
                token = str(a["token"])
            rooms = self.htokens[token]
            rooms.remove(here if here in rooms else sorted(rooms)[0])
            self.held.setdefault(seat, []).append(token)
            tdef = self.hs.tokens.get(token) if self.hs is not None else None
            self.emit("haunt.rules-override", f"{self.name(seat)} takes {token} and turns it face up"
                      + (f": {tdef.represents}" if tdef is not None else ""), seat=seat, token=token)
            for eff in tdef.on_take if tdef is not None else ():
                if self.in_play(seat):
                    yield from self._outcome(eff, seat, None)

    def _on_each(self, seat: str | None, spec: Mapping[str, Any], m: Monster | None) -> Gen[None]:
        """``on_each``: the outcomes happen to every explorer in play in the location, in seat
        order from the actor (``same_floor_as: actor``: on the actor's floor, the actor too) -
        from the traitor for a monster's ability or rule; ``unless`` spares those it holds of
        (the Shield's room from the Dragon's fire)."""
        where = spec["in"]
        if where.get("same_floor_as") == "actor" and seat is not None:
            floor = self.house.floor_of(self.ex[seat].room)
            rooms = {r for r in self.house.spots if self.house.floor_of(r) == floor}
        else:
            rooms = set(self._rooms_for(where))
        first = seat if seat is not None else self.traitor() or self.seat_ids[0]
        start = self.seat_ids.index(first)
        order = self.seat_ids[start:] + self.seat_ids[:start]
        for who in [s for s in order if self.in_play(s) and self.ex[s].room in rooms]:
            if "unless" in spec and self.pred(spec["unless"], who, m):
                self.emit("haunt.rules-override", f"{self.name(who)} is spared in {self.room_name(self.ex[who].room)}",
                          seat=who, room=self.ex[who].room)
                continue
            for eff in spec["do"]:
                if self.in_play(who):
                    yield from self._outcome(eff, who, m)


    def _collapse_one(self, seat: str, spec: Mapping[str, Any]) -> Gen[None]:
        """Declared here, carried out by the turn (:meth:`Turns._collapse_one`)."""
        raise NotImplementedError
        yield

    def _take_from_monster(self, seat: str, m: Monster, omens: bool = False) -> Gen[None]:
        """``steal: item``: the explorer who beat a monster takes one item card it carries, chosen
        by the explorer (A Breath of Wind's Speed attack on the Poltergeist); ``any-card``
        (``omens``) also an omen (the Ring a Demon stole)."""
        loot = [c for c in m.cards if self.t.cards[c].item or omens]
        if not loot:
            self.emit("attack.steal", f"{self.mname(m)} carries no item for {self.name(seat)} to take", monster=m.uid, seat=seat)
            return
        card = loot[0]
        if len(loot) > 1:
            a = yield from self.ask(seat, [Action.of("steal", card=c) for c in loot], f"take which item from {self.mname(m)}")
            card = str(a["card"])
        m.cards.remove(card)
        self.ex[seat].cards.append(card)
        self.emit("attack.steal", f"{self.name(seat)} takes {self.card_name(card)} from {self.mname(m)}",
            seat=seat, card=card, monster=m.uid)
        self.monster_items_changed(m, -1)
        yield from effects.gain_card(self, seat, card)

    def damage_kind(self, seat: str, kind: str) -> str:
        """A status with ``damage_as`` turns damage of the other kind into that kind (haunt 49:
        physical damage to a Soul is taken as mental)."""
        for status in self.hstatus.get(seat, []):
            turned = self.hs.statuses.get(status, {}).get("damage_as") if self.hs is not None else None
            if turned:
                return str(turned)
        return kind

    def damage_taken(self, seat: str, kind: str, points: int, reducible: bool = True) -> int:
        """A status with ``damage_taken: half-up`` halves, rounded up, all damage the explorer
        takes, whatever its source (an attack, a card, a room, the haunt). One with ``none``
        stops it all, except unreducible damage and attack damage from an opponent holding one of
        its ``hurt_by_holders`` cards."""
        for status in self.hstatus.get(seat, []):
            sdef = self.hs.statuses.get(status, {}) if self.hs is not None else {}
            if sdef.get("damage_taken") == "none" and reducible:
                source = self.damage_source
                if source is not None and source in self.ex and any(self.holds(source, c) for c in sdef.get("hurt_by_holders", [])):
                    self.emit("haunt.rules-override", f"{self.name(seat)} ({status}) is hurt by {self.name(source)}, "
                              f"who holds {' or '.join(self.card_name(c) for c in sdef['hurt_by_holders'])}",
                        seat=seat, status=status, source=source, cards=list(sdef['hurt_by_holders']))
                    continue
                self.emit("haunt.rules-override", f"{self.name(seat)} ({status}) takes none of the {points} {kind} damage",
                    seat=seat, status=status, amount=points, kind=kind)
                return 0
            if self.hs is not None and self.hs.statuses.get(status, {}).get("damage_taken") == "half-up":
                points = -(-points // 2)
                self.emit("haunt.rules-override", f"{self.name(seat)} ({status}) takes half the {kind} damage, "
                          f"rounded up: {points}", seat=seat, status=status, kind=kind, amount=points)
            less = sdef.get("less_damage")
            # ``from: attacks``: only damage from a fight it lost (damage_source is the winner then)
            if less and reducible and less["type"] in (kind, "any") and points > 0 and \
                    (less.get("from", "any") == "any" or self.damage_source is not None):
                points = max(0, points - int(less["by"]))
                self.emit("haunt.rules-override", f"{self.name(seat)} ({status}) takes {less['by']} less {kind} "
                          f"damage: {points}", seat=seat, status=status, kind=kind, amount=points)
        return points

    def _room_damage(self, spec: Mapping[str, Any], seat: str | None, m: Monster | None) -> Gen[None]:
        """``room_damage``: one roll of ``dice`` for the room in question (the monster's, else the
        explorer's); every hero there (every explorer with ``to: explorers``) takes the total as
        damage of the type, each splitting it and reducing it by their own cards (the Armor)."""
        room = m.room if m is not None else self.ex[seat].room if seat is not None else None
        if room is None:
            return
        kind = str(spec["type"])
        pool = [s for s in self.seat_ids if self.in_play(s)] if spec.get("to") == "explorers" else self.living_heroes()
        victims = [s for s in pool if self.ex[s].room == room]
        if not victims:
            return
        dice = self._amount(spec["dice"], room)
        if dice > 8:
            self.emit("roll.max-eight-dice", f"{dice} dice are called for in {self.room_name(room)}: 8 are rolled", count=dice, room=room)
        faces = yield from self.roll(dice, f"{kind} damage in {self.room_name(room)}")
        total = sum(faces)
        rolled = min(dice, 8)
        self.emit("haunt.rules-override", f"{rolled} {'die' if rolled == 1 else 'dice'} of {kind} damage in "
                  f"{self.room_name(room)}: {total} to "
                  f"{', '.join(self.name(s) for s in victims)}", count=rolled, kind=kind, room=room, total=total, seats=list(victims))
        for victim in victims:
            if total > 0 and self.in_play(victim):
                yield from effects.take_damage(self, victim, kind, total, effects.Ctx(victim, "token:haunt"))

    def _house_attack(self, spec: Mapping[str, Any]) -> Gen[None]:
        """``house_attack``: one roll of ``dice`` attacks every explorer in the house (``to:
        explorers``; every hero with ``to: heroes``) but those with an ``unless_status`` status;
        each defends with the ``trait`` as in a fight, and one who rolls lower takes the
        difference as that trait's damage (``combat.damage-is-difference``). With ``no_cap`` more
        than 8 dice are rolled, 8 at a time (the Star-Sickness's disease)."""
        trait = str(spec.get("trait", "might"))
        kind = "physical" if trait in ("might", "speed") else "mental"
        barred = set(spec.get("unless_status", ()))
        pool = [s for s in self.seat_ids if self.in_play(s)] if spec.get("to") == "explorers" else self.living_heroes()
        start = str(self.haunt["revealer"]) if self.haunt else self.seat_ids[0]
        order = [self.left_of(start, k) for k in range(0, self.n)]
        victims = [s for s in order if s in pool and not barred & set(self.hstatus.get(s, ()))]
        if not victims:
            return
        dice = self._amount(spec["dice"])
        if dice > 8 and not spec.get("no_cap"):
            self.emit("roll.max-eight-dice", f"{dice} dice are called for: 8 are rolled", count=dice)
            dice = 8
        total = 0
        while dice > 0:
            faces = yield from self.roll(min(dice, 8), f"{spec.get('says', 'the attack')}: {trait}")
            total += sum(faces)
            dice -= 8
        self.emit("haunt.rules-override", f"an attack of {total} on {', '.join(self.name(s) for s in victims)}",
                  total=total, seats=victims)
        for victim in victims:
            if not self.in_play(victim):
                continue
            ctx = effects.Ctx(victim, "token:haunt")
            resist = yield from effects.own_roll(
                self, victim, effects.dice_for(self, victim, self.value(victim, trait), ctx, trait_roll=False),
                "combat", f"defending with {trait}", ctx)
            if total > resist:
                self.emit("attack.damage-difference", f"{self.name(victim)} rolls {resist} and loses by {total - resist}",
                          seat=victim, total=resist, against=total, amount=total - resist)
                yield from effects.take_damage(self, victim, kind, total - resist, ctx)
            else:
                self.emit("attack.higher-wins" if resist > total else "attack.tie-no-damage",
                          f"{self.name(victim)} rolls {resist} and takes no damage", seat=victim, total=resist, against=total)
            if self._check_wins():
                return

    def _drop_everything(self, seat: str) -> Gen[None]:
        """A status with ``drops_items``: the explorer's items and omens fall as a pile in its room,
        tokens carried like items lie there again, companions are discarded, and an explorer it
        carried is put down."""
        e = self.ex[seat]
        for card in list(e.cards):
            if card not in e.cards:
                continue  # losing an earlier card took it away already
            e.cards.remove(card)
            if not self.t.cards[card].item:
                if not self.t.cards[card].companion:
                    e.cards.append(card)  # the Bite is no item to drop (omen.not-items)
                    continue
                self.discards[self.t.cards[card].type].append(card)
                self.emit("haunt.rules-override", f"{self.name(seat)} discards the {self.card_name(card)}", seat=seat, card=card)
            else:
                self.piles.setdefault(e.room, []).append(card)
                self.emit("haunt.rules-override", f"{self.name(seat)} drops the {self.card_name(card)} in "
                          f"{self.room_name(e.room)}", seat=seat, card=card, room=e.room)
            yield from effects.lose_card(self, seat, card)
        for token in self.held.pop(seat, []):
            # judgement: a dropped token lies in the room as before it was taken
            self.htokens.setdefault(token, []).append(e.room)
            self.emit("haunt.rules-override", f"{self.name(seat)} drops a {token} token in {self.room_name(e.room)}",
                seat=seat, token=token, room=e.room)
        for who, carrier in sorted(self.carried.items()):
            if carrier == seat:
                del self.carried[who]
                self.emit("haunt.rules-override", f"{self.name(seat)} puts {self.name(who)} down", seat=seat, target=who)

    def _count_hit(self, victim: Monster, cap: Mapping[str, Any], need: int) -> int:
        """One hit on a ``damage_capacity`` of ``type: hits``: counted on the Turn/Damage track, or
        (``counted_on: {token}``) as one of those set-aside tokens placed in the monster's room.
        Returns the hits so far."""
        counted = cap.get("counted_on")
        if counted == "monster":
            victim.damage += 1
            self.emit("monster.rules-overridable", f"{self.mname(victim)} takes a hit ({victim.damage} of {need})",
                monster=victim.uid, damage=victim.damage, need=need)
            return victim.damage
        if isinstance(counted, Mapping):
            token = str(counted["token"])
            if self.pool.get(token, 0) > 0:
                self.pool[token] -= 1
            self.htokens.setdefault(token, []).append(victim.room)
            victim.damage += 1
            self.emit("monster.rules-overridable", f"{self.mname(victim)} would take damage: a {token} token is placed "
                      f"in {self.room_name(victim.room)} ({victim.damage} of {need})",
                monster=victim.uid, token=token, room=victim.room, damage=victim.damage, need=need)
            return victim.damage
        self.track += 1
        self.emit("monster.rules-overridable", f"{self.mname(victim)} takes a hit on the Turn/Damage track "
                  f"({self.track} of {need})", monster=victim.uid, track=self.track, need=need)
        return self.track


    def _release_gone(self) -> None:
        """Holds end when the holder is gone or stunned or the one held is out of play."""
        for uid, (seat, status) in sorted(self.grips.items()):
            m = self.monster(uid)
            if m.gone or m.stunned or not self.in_play(seat):
                del self.grips[uid]
                if self.in_play(seat) and status in self.hstatus.get(seat, []):
                    self.hstatus[seat].remove(status)
                    self.emit("haunt.rules-override", f"{self.mname(m)} lets go of {self.name(seat)}, who is no "
                              f"longer {status}", monster=m.uid, seat=seat, status=status)

    def _die(self, seat: str, trait: str) -> None:
        """``death.skull``, unless a status keeps the explorer off the skull (``no_skull``) or
        a haunt hook turns the death into something else."""
        hero = self.side.get(seat) == HERO
        if self.hs is not None and not self.lethal:
            for hook in self.hooks_used:
                if hook in registry.hook.skull and registry.hook.skull[hook](self.as_haunt_state(), seat, trait):
                    return
            for status in self.hstatus.get(seat, []):
                if self.hs.statuses.get(status, {}).get("no_skull"):
                    self.ex[seat].idx[trait] = 0
                    self.emit("haunt.rules-override", f"{self.name(seat)} is {status}: {trait} stops on its lowest value",
                        seat=seat, status=status, trait=trait)
                    return
        super()._die(seat, trait)
        if self.hs is None or not self.ex[seat].dead:
            return
        if self.side.get(seat) == HERO:
            self.deaths_pending.append(seat)  # on-hero-death rules run once the step that killed is over
        if self.held.get(seat):
            room = self.ex[seat].room
            for token in self.held.pop(seat):
                if self.hs.tokens.get(token) is not None and self.hs.tokens[token].carried_as_item:
                    # death.items-drop: a token carried like an item lies in the room again
                    self.htokens.setdefault(token, []).append(room)
                    self.emit("death.items-drop", f"{self.name(seat)}'s {token} token stays in {self.room_name(room)}",
                        seat=seat, token=token, room=room)
                else:
                    self.held.setdefault(seat, []).append(token)
        for token in sorted(t for t, tdef in self.hs.tokens.items() if self._leaves_body(tdef.left_on_death)):
            # a token left by the dead (a corpse) lies where the explorer died
            room = self.ex[seat].room
            self.htokens.setdefault(token, []).append(room)
            self.emit("haunt.rules-override", f"{self.name(seat)} leaves a {token} token in {self.room_name(room)}",
                seat=seat, token=token, room=room)
        if hero:
            self._on_death(seat)
        if seat in self.hidden_converts:
            self.emit("hidden-traitor.reveal-on-death", f"{self.name(seat)}'s tokens are turned face up: "
                      f"{self.name(seat)} became a traitor", seat=seat)
        elif seat == self.hidden:
            self.reveal_traitor("death")
        elif self.hidden is not None and self.hidden_token in self.hands:
            held = sorted(self.hands[self.hidden_token].get(seat, []))
            numbers = ", ".join(str(k) for k in held)
            self.emit("hidden-traitor.reveal-on-death", f"{self.name(seat)}'s tokens are turned face up: {numbers}, "
                      "not a traitor", seat=seat, values=held)
        elif self.hidden is not None:
            number = self.dealt.get(self.hidden_token, {}).get(seat)
            self.emit("hidden-traitor.reveal-on-death", f"{self.name(seat)}'s token is turned face up"
                      + (f": {number}, not the traitor" if number is not None else ": not the traitor"), seat=seat, value=number)
        if not hero and self.side.get(seat) == TRAITOR:
            self._on_death(seat, "traitor")  # after the reveal: the table knows whose body transforms

    def trait_change(self, seat: str, trait: str, steps: int, card: str | None = None,
                     rule: str = "trait.adjust-by-steps") -> int:
        """A status with ``traits_fixed`` keeps the explorer's traits where they are, whatever the
        source (items gained or lost, cards, rooms, damage); only the haunt's own ``lose``
        outcomes move them (Comes the Hero: the immortal traitor, worn down by the Statue)."""
        if steps and not self.own_change and self.hs is not None and any(
                self.hs.statuses.get(x, {}).get("traits_fixed") for x in self.hstatus.get(seat, ())):
            self.emit("haunt.rules-override", f"{self.name(seat)}'s traits are fixed: {trait} does not change",
                      seat=seat, trait=trait)
            return 0
        return super().trait_change(seat, trait, steps, card, rule)

    def _move_monster(self, seat: str, spec: Mapping[str, Any], rule: str) -> Gen[None]:
        """``move_monster``: the explorer moves the monster of the kind in its room up to ``spaces``
        rooms, a step at a time (each way out costing what it costs a monster), and may stop at any
        time; explorers in a room do not make it pay extra (Comes the Hero: the Statue moved by a
        hero's roll)."""
        mover = next((x for x in self.active_monsters(self.ex[seat].room) if x.kind == spec["monster"]), None)
        left = self._amount(spec["spaces"])
        if mover is None or left <= 0:
            self.emit(rule, f"{self.name(seat)} moves no {spec['monster']} ({left} spaces)",
                      seat=seat, kind=str(spec["monster"]), count=left)
            return
        self.emit(rule, f"{self.name(seat)} may move {self.mname(mover)} up to {left} spaces", seat=seat, monster=mover.uid, count=left)
        while left > 0:
            steps = [(r, cost) for r, cost, _ in self._room_exits(mover.room) if cost <= left and r not in self.collapsed]
            if not steps:
                return
            acts = [Action.of("monster-move", monster=mover.uid, to=r) for r, _ in steps]
            a = yield from self.ask(seat, [*acts, Action.of("monster-stop", monster=mover.uid)], f"move {self.mname(mover)}")
            if a.kind == "monster-stop":
                return
            src, mover.room = mover.room, str(a["to"])
            left -= next(c for r, c in steps if r == mover.room)
            self.emit(rule, f"{self.name(seat)} moves {self.mname(mover)} {self.room_name(src)} -> "
                      f"{self.room_name(mover.room)} ({left} left)", seat=seat, monster=mover.uid, origin=src, to=mover.room, count=left)

    def _swap_tokens(self, seat: str, spec: Mapping[str, Any]) -> Gen[None]:
        """``swap_tokens``: once a turn the explorer and one roommate each give the other one of
        their face-down tokens of a ``per_player`` deal, each chosen by chance. The roommate is one
        it has not swapped with before where possible (judgement: the book leaves the pick open;
        the nearest such explorer to its left). Explorers with an ``unless_status`` status take no
        part. Whoever receives the hidden-traitor number becomes a hidden traitor for good
        (``hidden-traitor.token-one``); the table is told only that tokens changed hands."""
        token = str(spec["token"])
        hands = self.hands.get(token, {})
        key = f"swap:{seat}:{self.hround}"
        barred = set(spec.get("unless_status", ()))

        def able(s: str) -> bool:
            return self.in_play(s) and bool(hands.get(s)) and not barred & set(self.hstatus.get(s, ()))

        if key in self.done or not able(seat):
            return
        room = self.ex[seat].room
        mates = [self.left_of(seat, k) for k in range(1, self.n)]
        mates = [s for s in mates if able(s) and self.ex[s].room == room]
        if not mates:
            return
        before = self.swapped.setdefault(seat, [])
        partner = next((s for s in mates if s not in before), mates[0])
        self.done.add(key)
        before.append(partner)
        self.swapped.setdefault(partner, []).append(seat)
        picks: dict[str, int] = {}
        for s in (seat, partner):
            slots = [str(k) for k in range(len(hands[s]))]
            a = yield Req(CHANCE, Draw(slots, arg="slot"), f"{self.name(s)} gives a face-down {token} token at random")
            picks[s] = int(str(a["slot"]))
        given = {s: hands[s].pop(picks[s]) for s in (seat, partner)}
        hands[seat].append(given[partner])
        hands[partner].append(given[seat])
        self.emit("haunt.rules-override", f"{self.name(seat)} and {self.name(partner)} swap a face-down {token} token",
                  seat=seat, other=partner, token=token)
        number = self.hidden_number
        if token == self.hidden_token:
            for s in (seat, partner):
                if given[seat if s == partner else partner] == number and self.side.get(s) != TRAITOR:
                    self.side[s] = TRAITOR  # for good, whatever later swaps do
                    self.converts.append(s)
                    self.hidden_converts.add(s)

    def _leaves_body(self, left: bool | Mapping[str, Any]) -> bool:
        """Whether the death being settled leaves a ``left_on_death`` token: any death, or (``{killed_by,
        with_weapon}``) only one dealt by an attack won by that side, with a weapon if asked -
        Comes the Hero's sacrifice."""
        if not isinstance(left, Mapping):
            return bool(left)
        killer = self.damage_source
        if killer is None or killer not in self.ex:
            return False
        if left["killed_by"] == "traitor" and self.side.get(killer) != TRAITOR:
            return False
        return not left.get("with_weapon") or self.damage_weapon is not None

    def _on_death(self, seat: str, whose: str = "hero") -> None:
        """The side rules ``on_death: hero`` (or ``traitor``: any explorer of the traitor's side,
        a hidden one included): their outcomes happen for the explorer who just died, unless it
        meets the rule's ``unless`` (a dead hero rises as a Zombie; a traitor not killed by the
        Serum rises as an Alien). They may ask nobody anything (a death happens inside a trait
        change)."""
        assert self.hs is not None
        for side in self.hs.sides().values():
            for r in side.rules:
                if r.get("on_death") != whose or ("unless" in r and self.pred(r["unless"], seat)):
                    continue
                self.emit("haunt.rules-override", f"{self.name(seat)} died: {r.get('says', r['id'])}", seat=seat, clause=r['id'])
                for eff in r.get("do", []):
                    self._run_now(self._outcome(eff, seat, None))

    def _turn_traitor(self, seat: str, run_setup: bool) -> Gen[None]:
        self.side[seat] = TRAITOR
        self.converts.append(seat)
        self.emit("death.hero-may-turn", f"{self.name(seat)} joins the traitor's side", seat=seat)
        if run_setup and self.hs is not None and self.hs.traitor_side is not None:
            for step_ in self.hs.traitor_side.setup:
                verb = next(k for k in step_ if k not in ("says", "cite", "unverified", "judgement", "who"))
                spec = step_[verb]
                if verb == "place" or (isinstance(spec, Mapping) and spec.get("who") not in (None, "traitor")):
                    continue
                yield from self._setup_step("traitor", step_, seat)




    def _take_from_explorer(self, seat: str, victim: str, *, omens: bool) -> Gen[None]:
        """``steal: item`` aimed at an explorer: the actor takes one of the victim's items (with
        ``any-card`` an omen too) that can be stolen, its own choice."""
        types = ("item", "omen") if omens else ("item",)
        loot = [c for c in self.ex[victim].cards if self.t.cards[c].can_steal and self.t.cards[c].type in types]
        if not loot:
            self.emit("attack.steal", f"{self.name(victim)} has nothing {self.name(seat)} can take", seat=seat, owner=victim)
            return
        a = yield from self.ask(seat, [Action.of("steal", card=c) for c in loot], f"take which item from {self.name(victim)}")
        card = str(a["card"])
        self.ex[victim].cards.remove(card)
        self.ex[seat].cards.append(card)
        self.emit("attack.steal", f"{self.name(seat)} takes {self.card_name(card)} from {self.name(victim)}",
                  seat=seat, card=card, owner=victim)
        yield from effects.card_stolen(self, victim, card)
        yield from effects.gain_card(self, seat, card)


#: Part-1 effects (``effects.schema.json``) an outcome hands to the part-1 engine as they are.
PART1_EFFECTS = frozenset({"stop_moving", "end_turn", "draw", "gain", "damage", "set_trait", "move"})
#: Part-1 effect verbs an outcome may use: those handed on, two :meth:`Outcomes._outcome` does
#: itself, and ``take_item``, which a side action does (``Turns._side_actions``).
OUTCOME_EFFECTS = PART1_EFFECTS | {"lose", "max_move", "custom", "take_item"}
#: The haunt outcome verbs carried out: by :meth:`Outcomes._outcome`, and (``no_damage``,
#: ``damage_scaled``, ``monster_attack``) by the fight and the monster turn where they appear.
OUTCOME_VERBS = frozenset({
    "on_target", "kill_monster", "trap_monster", "stun_monster", "kill", "become", "lose_status", "turn_traitor",
    "set_flag", "clear_flag", "earn", "take_token", "fetch_card", "steal", "exit_house", "place", "control", "branch",
    "destroy_item", "discard_token", "custom", "no_damage", "damage_scaled", "monster_attack", "hit_monster",
    "return_monster", "return_token", "room_damage", "monster_draws", "move_track", "trait_points", "roll_dice", "room_kill",
    "contest", "weaken_monster", "grab", "retreat", "ride_with", "fetch_room", "room_cost", "rise_as", "mark_monster",
    "set_monster_stat", "each_hero", "collapse_room", "on_each", "trait_roll", "monster_leaves", "release", "move_fewer",
    "move_monster", "learn_position", "monster_gain", "swap_tokens", "house_attack", "spread", "clear_tokens"})
