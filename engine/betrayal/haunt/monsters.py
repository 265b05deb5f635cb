"""Monsters on the monster turn: their rolls and checks, movement (speed rolls, group moves,
forced steps toward explorers, barriers, the room text they trigger), abilities and attacks. A
haunt whose monster moves in a way the vocabulary cannot say names a ``move`` or ``turn`` hook
(``engine/betrayal/hooks/``).

This module is over 800 lines: the monster turn grew by the movement modes of the last haunts (straight-ahead
walks, escorts, walls, fields); the next split takes the movement modes to a module of their own.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt import fields, registry
from hauntcheck.engine.betrayal.haunt.combat import Combat
from hauntcheck.engine.betrayal.haunt.grabs import devour, drag
from hauntcheck.engine.betrayal.haunt.pieces import HERO, TRAITOR, Monster
from hauntcheck.engine.betrayal.hauntspec import MonsterDef
from hauntcheck.engine.betrayal.house import opposite, step
from hauntcheck.engine.betrayal.model import SIDES
from hauntcheck.engine.betrayal.state import Gen, Req
from hauntcheck.engine.core import CHANCE, Action, Draw


class Monsters(Combat):
    """The monster turn: rolls, movement, abilities, attacks."""

    def _monster_turn(self) -> Gen[None]:
        assert self.hs is not None
        t = self.traitor()
        if t is not None and self.ex[t].dead:
            self.emit("turn.monster-turn-after-traitor-death", f"the traitor is dead; {t} still runs the monster turn", seat=t)
        else:
            self.emit("traitor.runs-monsters" if t else "monster.one-at-a-time", "the monster turn")
            if t:
                self.emit("turn.traitor-two-turns", f"{t} plays the monsters' turn as well as the traitor's", seat=t)
        yield from fields.side_monster_turn(self)
        # play_rounds judged the goals just before the monster turn, and the sides' monster-turn
        # rules judge them after each of their outcomes: nothing has changed since a judgement
        if self.result is not None:
            return
        yield from self._basement_rescue()
        yield from self._appear_when_explored()
        for kind, mdef in self.hs.monsters.items():
            group = [m for m in self.mon if m.kind == kind and not m.gone]
            if not group or self.control.get(kind, TRAITOR) == HERO or self.allied(group[0]):
                continue  # judgement: a monster the heroes control stays where it is (their ally moves by their rules)
            shared: int | None = None
            grouped = self._group_move(mdef)
            # monsters that attack together (attacks_together) all move first, then attack
            swarm = "attacks_together" in self._monster_raw(mdef)
            moved: list[Monster] = []
            for m in group:
                if m.gone:
                    continue
                if m.stunned:
                    m.stunned = False
                    self.emit("monster.stun-token", f"{self.mname(m)} misses this turn and recovers", monster=m.uid)
                    continue
                if self.monster_ways(m).lures:
                    yield from self._monster_checks(m, "start")
                for rule in mdef.must:
                    if rule.get("when") == "start-of-turn" and "turn-over" not in self.turn_mods.get(m.uid, ()):
                        for eff in rule.get("do", []):
                            yield from self._outcome(eff, None, m)
                if "turn-over" in self.turn_mods.pop(m.uid, set()):
                    self.emit("monster.rules-overridable", f"{self.mname(m)} spends its whole turn so", monster=m.uid)
                    if self._check_wins():
                        return
                    continue
                if m.out_of_play():
                    continue
                if mdef.movement.get("straight_ahead"):
                    if self._walks_at(mdef) == "monster-turn":
                        yield from self.walk_straight(m)
                    yield from self._monster_attack(m)
                    if self._check_wins():
                        return
                    continue
                if mdef.grabs:
                    yield from devour(self.as_haunt_state(), m)
                    if m.out_of_play():
                        continue
                    if (yield from drag(self.as_haunt_state(), m)):
                        continue  # dragging its catch replaced the monster's move and attack
                hook = mdef.movement.get("custom")
                if hook in registry.hook.turn:
                    spent = yield from registry.hook.turn[str(hook)](self.as_haunt_state(), m)
                    if spent:
                        continue  # the hook's move replaced the monster's move and attack
                if mdef.movement.get("roll") == "none":
                    yield from self._monster_attack(m)  # it never moves
                    yield from self._monster_does(m)
                    if self._check_wins():
                        return
                    continue
                if not grouped or shared is None:
                    faces = yield from self.roll(self.mstat(m, "speed"), f"{mdef.name} movement")
                    roll = sum(faces)
                    if grouped:
                        shared = roll
                        self.emit("monster.group-roll", f"the {mdef.name} group rolls {roll} for movement", total=roll)
                    elif not self.quiet:  # no text to build where none is kept
                        self.emit("monster.speed-roll", f"{self.mname(m)} rolls {roll} for movement", monster=m.uid, total=roll)
                    yield from self._after_movement_roll(m, roll)
                    if self._check_wins():
                        return
                else:
                    roll = shared or 0
                if self.monster_ways(m).carries or self.piles.get(m.room):
                    yield from self._monster_pickup(m)
                yield from self._monster_moves(m, roll)
                if m.out_of_play():
                    continue
                yield from self._monster_stops(m)
                if self.monster_ways(m).carries or self.piles.get(m.room):
                    yield from self._monster_pickup(m)
                if swarm:
                    moved.append(m)
                    continue
                yield from self._monster_attack(m)
                if self._check_wins():
                    return
                # a monster without abilities or rolls on its turn changes nothing after its attack,
                # so the goals are judged again only after what it does
                abilities, rolls = self._after_attack(self.mdef(m))
                if abilities:
                    yield from self._monster_abilities(m)
                    if self._check_wins():
                        return
                if rolls:
                    yield from self._monster_rolls(m)
                    if self._check_wins():
                        return
            for m in moved:
                if not m.gone and not m.stunned:
                    yield from self._monster_attack(m)
                    if self._check_wins():
                        return
            yield from self._after_monsters_move(mdef)
            if self._check_wins():
                return

    @staticmethod
    def _walks_at(mdef: MonsterDef) -> str:
        return str(mdef.movement["straight_ahead"].get("moves_at", "monster-turn"))

    def floor_walks(self, m: Monster, room: str) -> dict[int, str]:
        """The rooms a monster may walk into from ``room`` on its floor, by world side: through
        joined doors, or a fixed link to the next cell (the starting strip); never a room it
        ``may_not_use``, and never an unexplored doorway (only placed rooms are reached)."""
        forbidden = set(self._monster_raw(self.mdef(m)).get("may_not_use", ()))
        out: dict[int, str] = {}
        spot = self.house.spots[room]
        for other, _, _ in self._room_exits(room):
            there = self.house.spots[other]
            if other in forbidden or there.floor != spot.floor:
                continue
            side = next((d for d in range(4) if step(spot.cell, d) == there.cell), None)
            if side is not None and side not in out:
                out[side] = other
        return out

    def walk_straight(self, m: Monster) -> Gen[None]:
        """``movement.straight_ahead``: the monster walks its ``spaces`` rooms straight on; where it
        cannot, it turns to the next exit on its left (left, then back, then right: turning left
        until an exit shows) and takes it - the only way its facing changes. With ``stops_with:
        heroes`` it does not set out from a room with a living hero and stops on entering one."""
        spec = self.mdef(m).movement["straight_ahead"]
        with_heroes = spec.get("stops_with") == "heroes"
        if with_heroes and any(self.ex[s].room == m.room for s in self.living_heroes()):
            self.emit("monster.rules-overridable", f"{self.mname(m)} stays with the hero in {self.room_name(m.room)}",
                      monster=m.uid, room=m.room)
            return
        facing = m.facing or 0
        for _ in range(int(spec["spaces"])):
            walks = self.floor_walks(m, m.room)
            side = next(((facing + turn) % 4 for turn in (0, 3, 2, 1) if (facing + turn) % 4 in walks), None)
            if side is None:
                self.emit("monster.rules-overridable", f"{self.mname(m)} has no way out of {self.room_name(m.room)}",
                          monster=m.uid, room=m.room)
                break
            src, m.room, m.facing = m.room, walks[side], side
            how = "straight on" if side == facing else "turning left" if side == (facing + 3) % 4 else \
                "turning back" if side == (facing + 2) % 4 else "turning right"
            facing = side
            self.emit("monster.rules-overridable", f"{self.mname(m)} walks {how} from {self.room_name(src)} to "
                      f"{self.room_name(m.room)} (facing {SIDES[side]})", monster=m.uid, origin=src, to=m.room, side=side)
            self._monster_room_text(m, ("enter", "cross"))
            if self.monster_ways(m).lures:
                yield from self._monster_checks(m, "enter")
            if m.gone or (with_heroes and any(self.ex[s].room == m.room for s in self.living_heroes())):
                break

    def walkers_seat(self) -> str | None:
        """Who moves the monsters that walk at the start of a hero's turn: the living hero
        nearest the traitor's left."""
        traitor = self.traitor()
        if traitor is None:
            return None
        return next((s for s in (self.left_of(traitor, k) for k in range(1, self.n))
                     if self.in_play(s) and self.side.get(s) == HERO), None)

    def walk_at_turn_start(self, seat: str) -> Gen[None]:
        """The monsters whose ``straight_ahead`` moves ``at start-of-turn-left-of-traitor`` walk at
        the start of that hero's turn, in token order."""
        if self.hs is None or seat != self.walkers_seat():
            return
        for m in self.active_monsters():
            walk = self.mdef(m).movement.get("straight_ahead")
            if walk and self._walks_at(self.mdef(m)) == "start-of-turn-left-of-traitor" and not m.gone:
                yield from self.walk_straight(m)
                if self._check_wins():
                    return

    def _after_movement_roll(self, m: Monster, roll: int) -> Gen[None]:
        """A monster's ``must`` rules ``when: after-movement-roll``: once per movement roll (a
        group's one roll), right after it, with the amount ``of: movement-roll`` set to it (the
        Firebats breed by it). Monsters these rules bring in were not in the group that rolled,
        so they do not move this turn."""
        self.movement_roll = roll
        for rule in self.mdef(m).must:
            if rule.get("when") != "after-movement-roll":
                continue
            if "requires" in rule and not self.pred(rule["requires"], None, m):
                continue
            self.emit("monster.rules-overridable", f"{self.mdef(m).name} rolled {roll}: {rule.get('says', rule['id'])}", total=roll,
                clause=rule['id'])
            for eff in rule.get("do", []):
                yield from self._outcome(eff, None, m)

    def _after_monsters_move(self, mdef: MonsterDef) -> Gen[None]:
        """A monster kind's ``must`` rules ``when: after-monsters-move``: once every monster of
        the kind has moved, the rule's outcomes for each room its ``where`` names (by name order),
        about a monster of the kind there (the Firebats' burn)."""
        for rule in mdef.must:
            if rule.get("when") != "after-monsters-move":
                continue
            rooms = self._rooms_for(rule["where"]) if "where" in rule else sorted(
                {x.room for x in self.active_monsters() if x.kind == mdef.id})
            for room in sorted(rooms, key=self.room_name):
                here = next((x for x in self.active_monsters(room) if x.kind == mdef.id), None)
                if here is None or ("requires" in rule and not self.pred(rule["requires"], None, here)):
                    continue
                for eff in rule.get("do", []):
                    yield from self._outcome(eff, None, here)

    def _basement_rescue(self) -> Gen[None]:
        """``monster.basement-rescue``: monsters shut in the basement away from every hero let the
        traitor fetch the Stairs from Basement from the stack to an open basement doorway - not
        monsters the haunt lets explore (``monster.basement-rescue-not-if-exploring``)."""
        t = self.traitor()
        stairs = "stairs-from-basement"
        if t is None or stairs in self.house.spots or (stairs not in self.stack and stairs not in self.aside):
            return
        heroes = [self.ex[s].room for s in self.living_heroes()]
        below = [m for m in self.active_monsters() if self.mdef(m).controlled_by in ("traitor", "traitor-or-heroes")
                 and self.house.floor_of(m.room) == "basement"]
        if not below or not heroes:
            return  # no search needed: nobody can be shut in
        dist = self._dist_to(heroes)
        stuck = [m for m in below if m.room not in dist]
        if not stuck:
            return
        if any(self._monster_raw(self.mdef(m)).get("discovers_rooms") for m in stuck):
            # they find their own way out by discovering rooms
            self.emit("monster.basement-rescue-not-if-exploring", f"{', '.join(self.mname(m) for m in stuck)} cannot reach "
                      "a hero, but this haunt lets them explore: the Stairs from Basement stay in the stack",
                monsters=[m.uid for m in stuck])
            return
        a = yield from self.ask(t, [Action.of("rescue", room=stairs), Action.of("no-rescue", room=stairs)],
                                "fetch the Stairs from Basement for the monsters shut in the basement?")
        if a.kind == "rescue":
            self.emit("monster.basement-rescue", f"{', '.join(self.mname(m) for m in stuck)} cannot reach a hero: the "
                      "Stairs from Basement come out of the stack", monsters=[m.uid for m in stuck])
            yield from self._fetch_room({"room": stairs, "place": {"floor": "basement", "chosen_by": "traitor"}})

    def _monster_pickup(self, m: Monster) -> Gen[None]:
        """A monster allowed to carry items may pick them up from a pile in its room (and the
        haunt tokens its ``carries.tokens`` names, lying there); asked only for a kind that carries
        something (``MonsterWays.carries``) or where a pile lies."""
        yield from self._monster_token_pickup(m)
        pile = self.piles.get(m.room, [])
        if pile and not self.mdef(m).carries.get("items") and not m.stunned and not self.quiet:
            self.emit("monster.no-items", f"{self.mname(m)} leaves the item pile in {self.room_name(m.room)}: this haunt lets "
                      "its monsters carry no items", monster=m.uid, room=m.room)
        if not pile or not self.mdef(m).carries.get("items") or m.stunned:
            return
        acts = [Action.of("monster-pickup", monster=m.uid, card=c) for c in pile]
        a = yield from self.ask(self.monster_controller(m), [Action.of("monster-leave", monster=m.uid), *acts],
                                f"{self.mname(m)} picks up?")
        if a.kind == "monster-pickup":
            card = str(a["card"])
            pile.remove(card)
            if not pile:
                del self.piles[m.room]
            m.cards.append(card)
            self.emit("monster.rules-overridable", f"{self.mname(m)} picks up {self.card_name(card)}", monster=m.uid, card=card)
            self.monster_items_changed(m, 1)

    def _monster_token_pickup(self, m: Monster) -> Gen[None]:
        """A monster whose ``carries.tokens`` names a token lying in its room may pick one up; it
        carries it (under its uid in ``held``) until it is used up. One pick-up a stop."""
        kinds = [str(t) for t in self.mdef(m).carries.get("tokens", ())]
        here = [t for t in kinds if m.room in self.htokens.get(t, [])]
        if not here or m.stunned:
            return
        acts = [Action.of("monster-pickup-token", monster=m.uid, token=t) for t in here]
        a = yield from self.ask(self.monster_controller(m), [Action.of("monster-leave", monster=m.uid), *acts],
                                f"{self.mname(m)} picks up a token?")
        if a.kind == "monster-pickup-token":
            token = str(a["token"])
            self.htokens[token].remove(m.room)
            self.held.setdefault(m.uid, []).append(token)
            self.emit("monster.rules-overridable", f"{self.mname(m)} picks up the {token} token in {self.room_name(m.room)}",
                monster=m.uid, token=token, room=m.room)

    def _group_move(self, mdef: MonsterDef) -> bool:
        raw = self.haunts[self.hs.number][1] if self.hs is not None else {}
        for mon in raw.get("monsters", ()):
            if mon.get("id") == mdef.id and "group_move" in mon:
                return bool(mon["group_move"])
        return True

    def appearing(self, room: str) -> MonsterDef | None:
        """A monster kind that ``appears`` when this room is discovered: the room is on its floor
        with one of its symbols, and the monster is out of the house (not killed, none in play)."""
        assert self.hs is not None
        for mdef in self.hs.monsters.values():
            spec = mdef.appears
            if not spec or not self._out_of_house(mdef):
                continue
            where = spec["on_discovery"]
            symbols = where.get("symbols")
            if self.house.floor_of(room) == where["floor"] and (not symbols or self.t.rooms[room].symbol in symbols):
                return mdef
        return None

    def _out_of_house(self, mdef: MonsterDef) -> bool:
        return not any(m.kind == mdef.id and m.gone in ("", "killed") for m in self.mon)

    def appear(self, mdef: MonsterDef, room: str, seat: str | None) -> Gen[None]:
        """``appears``: the monster comes into the room (back from out of the house, or for the
        first time), its ``mark`` is left there, and with ``instead_of_card: attack`` the explorer
        who found the room attacks it at once (that turn's attack) instead of drawing the card."""
        spec = mdef.appears or {}
        m = next((x for x in self.mon if x.kind == mdef.id and x.gone == "away"), None)
        if m is None:
            m = self._add_monster(mdef, room, rule="monster.rules-overridable")
        else:
            m.gone, m.room, m.stunned = "", room, False
            self.emit("monster.rules-overridable", f"{self.mname(m)} appears in {self.room_name(room)}", monster=m.uid, room=room)
        mark = spec.get("mark")
        if mark and room not in self.htokens.get(str(mark), []):
            self.htokens.setdefault(str(mark), []).append(room)
        if spec.get("instead_of_card") == "attack" and seat is not None and self.in_play(seat):
            trait = next((str(r["attack_with"][0]) for r in self.fight_rules(seat, m.uid) if r.get("attack_with")), "might")
            self.emit("haunt.rules-override", f"{self.name(seat)} must attack {self.mname(m)} instead of drawing a card",
                seat=seat, monster=m.uid)
            yield from self._attack(seat, Action.of("attack", target=m.uid, trait=trait))

    def _appear_when_explored(self) -> Gen[None]:
        """``appears.when_floor_explored``: once the floor has no tile left to discover, a monster
        still out of the house is put by the chooser in a room of that floor without its mark
        (any room of the floor once all are marked), at the start of the monster turn."""
        assert self.hs is not None
        for mdef in self.hs.monsters.values():
            spec = (mdef.appears or {}).get("when_floor_explored")
            if not spec or not self._out_of_house(mdef) or self.remaining_for(str(spec["floor"])) > 0:
                continue
            rooms = [r for r in self.house.rooms_on(str(spec["floor"])) if r not in self.collapsed]
            marked = set(self.htokens.get(str((mdef.appears or {}).get("mark")), []))
            rooms = [r for r in rooms if r not in marked] or rooms
            if not rooms:
                continue
            fallback = self.traitor() or (str(self.haunt["revealer"]) if self.haunt else self.seat_ids[0])
            chooser = self._who(spec.get("chosen_by", "traitor")) or [fallback]
            a = yield from self.ask(chooser[0], [Action.of("place-in", room=r) for r in sorted(rooms)],
                                    f"place the {mdef.name}")
            yield from self.appear(mdef, str(a["room"]), None)

    def exit_rooms(self, m: Monster) -> list[str]:
        """The rooms the monster may still leave the house from (``movement.exit``): with
        ``reuse: once-per-place``, those no monster has left from yet."""
        spec = self.mdef(m).movement.get("exit")
        if not spec:
            return []
        rooms = [r for r in self._rooms_for(spec["where"]) if r in self.house.spots]
        if spec.get("reuse") == "once-per-place":
            rooms = [r for r in rooms if f"exit:{m.kind}/{r}" not in self.used_places]
        return rooms

    def _exit_open(self, m: Monster, left: int) -> bool:
        spec = self.mdef(m).movement.get("exit")
        return spec is not None and left >= int(spec.get("cost", 0)) and m.room in self.exit_rooms(m)

    def _monster_exit(self, m: Monster) -> Gen[None]:
        """``movement.exit``: the monster leaves the house from its room for good (a Nightmare
        escaping); the room is used up, and the exit's ``do`` outcomes follow."""
        spec = self.mdef(m).movement["exit"]
        m.gone = "escaped"
        self.used_places.add(f"exit:{m.kind}/{m.room}")
        self.emit("monster.rules-overridable", f"{self.mname(m)} leaves the house from {self.room_name(m.room)}"
                  + (f": {spec['says']}" if spec.get("says") else ""), monster=m.uid, room=m.room)
        for eff in spec.get("do", []):
            yield from self._outcome(eff, None, m)

    def _monster_moves(self, m: Monster, roll: int) -> Gen[None]:
        hook = self.mdef(m).movement.get("custom")
        if hook in registry.hook.move:
            yield from registry.hook.move[str(hook)](self.as_haunt_state(), m, roll)
            return
        budget = roll
        if roll == 0:
            self.emit("monster.zero-roll-still-moves", f"{self.mname(m)} rolled 0 and may still move one space", monster=m.uid)
            budget = 1
        moved = 0
        seat = self.monster_controller(m)
        teleport = self.mdef(m).movement.get("teleport")
        if teleport and roll in teleport.get("on_roll", []) and teleport.get("to") == "any-room":
            rooms = [r for r in sorted(self.house.spots) if r != m.room]
            acts = [Action.of("monster-teleport", monster=m.uid, to=r) for r in rooms]
            a = yield from self.ask(seat, [Action.of("monster-walk", monster=m.uid), *acts],
                                    f"{self.mname(m)} may take a secret way to any room")
            if a.kind == "monster-teleport":
                src, m.room = m.room, str(a["to"])
                self.emit("monster.rules-overridable", f"{self.mname(m)} rolled {roll} and moves {self.room_name(src)} -> "
                          f"{self.room_name(m.room)} by a secret way", monster=m.uid, total=roll, origin=src, room=m.room)
                if self.monster_ways(m).lures:
                    yield from self._monster_checks(m, "enter")
                return
        while True:
            options = self._monster_steps(m, budget - moved, moved == 0)
            forced = self._forced_steps(m, options)
            acts = [monster_action("monster-move", m.uid, "to", r) for r, _ in (forced if forced is not None else options)]
            if forced is None and (moved == 0 or moved < budget):
                acts += self._monster_explore_actions(m)
            if forced is None or not acts:
                acts.append(monster_action("monster-stop", m.uid))
            if self._exit_open(m, budget - moved):
                acts.append(Action.of("monster-exit", monster=m.uid, room=m.room))
            a = yield from self.ask(seat, acts, f"move {self.mname(m)}")
            if a.kind == "monster-stop":
                return
            if a.kind == "monster-explore":
                src = m.room
                found = yield from self._monster_explore(m, SIDES.index(str(a["door"])))
                if not found:
                    return
                moved += 1
                self._leave_trail(m, src)
                self._monster_room_text(m, ("enter", "cross"))
                if self.monster_ways(m).lures:
                    yield from self._monster_checks(m, "enter")
                if m.gone:
                    return
                continue
            if a.kind == "monster-exit":
                yield from self._monster_exit(m)
                return
            to = str(a["to"])
            cost = next(c for r, c in options if r == to)
            slow = self.heroes_in(m.room)
            src = m.room
            passage = next((how for r, _, how in self.kept_vertical_passages(src) if r == to), None)
            m.room = to
            self._leave_trail(m, src)
            moved += cost + slow + self.carrying_cost(m.uid) - 1 + self._doorway_spaces(m)
            if not self.quiet:  # the busiest event of a monster turn: no text to build where none is kept
                self.emit("monster.speed-roll", f"{self.mname(m)} moves {self.room_name(src)} -> {self.room_name(to)} "
                          f"({min(moved, budget)} of {budget})", monster=m.uid, origin=src, to=to, moved=min(moved, budget),
                          speed=budget)
            if passage is not None:
                self._monster_passage(m, src, passage)
            if any({a, b} == {src, to} for a, b, _ in self.passages):
                self.emit("monster.revolving-wall", f"{self.mname(m)} passes the Revolving Wall between the "
                          f"{self.room_name(src)} and the {self.room_name(to)} without rolling", monster=m.uid, origin=src, to=to)
            card_way = next((tok for a, b, _, tok in self.links if {a, b} == {src, to}), None)
            if card_way is not None:
                self.emit("monster.card-movement", f"{self.mname(m)} uses the {card_way} a card made between the "
                          f"{self.room_name(src)} and the {self.room_name(to)}", monster=m.uid, way=card_way, origin=src, to=to)
            if slow:
                self.emit("monster.slowed-by-heroes", f"{self.mname(m)} pays {slow} extra to leave heroes behind",
                    monster=m.uid, amount=slow)
            if passage is None or not passage.endswith("-up"):
                # climbing up a passage is no entry by the room's way in (the Coal Chute's slide)
                self._monster_room_text(m, ("enter", "cross"))
            if self._steered(m.room):
                yield from effects.villain_elevator(self, seat, m.room, self.mname(m))
            if self.monster_ways(m).lures:
                yield from self._monster_checks(m, "enter")
            if m.gone:
                return

    def _doorway_spaces(self, m: Monster) -> int:
        """Extra spaces each room costs the monster (``movement.room_cost`` beyond the first):
        haunt 35's Cats count each doorway as a space, as the shrunken explorers do."""
        return self.monster_ways(m).extra_per_room

    def _leave_trail(self, m: Monster, room: str) -> None:
        """A monster's ``trail``: the room it just left gets one of the set-aside trail monsters,
        unless one is there already, while any are left (the Ouroboros Body)."""
        trail = self._monster_raw(self.mdef(m)).get("trail")
        if not trail or self.hs is None:
            return
        kind = str(trail["monster"])
        mdef = self.hs.monsters[kind]
        placed = [x for x in self.mon if x.kind == kind]
        if any(x.room == room and not x.gone for x in placed) or len(placed) >= self._amount(mdef.count or 0):
            return
        self._add_monster(mdef, room, rule="monster.rules-overridable")
        self.emit("monster.rules-overridable", f"{self.mname(m)} leaves {mdef.name} {len(placed) + 1} of "
                  f"{self._amount(mdef.count or 0)} in {self.room_name(room)}", monster=m.uid, room=room,
                  kind=mdef.id, count=len(placed) + 1)

    def _monster_explore_actions(self, m: Monster) -> list[Action]:
        """``discovers_rooms: true``: the doorways of the monster's room with no room beyond them
        where a tile can still be placed."""
        if not self._monster_raw(self.mdef(m)).get("discovers_rooms"):
            return []
        floor = self.house.floor_of(m.room)
        return [Action.of("monster-explore", monster=m.uid, door=SIDES[side]) for side in sorted(self.house.doors(m.room))
                if self.house.door_neighbour(m.room, side)[0] is None and self._can_discover(floor, m.room, side)
                and not self.all_would_seal(floor, step(self.house.spots[m.room].cell, side), opposite(side))]

    def _monster_explore(self, m: Monster, side: int) -> Gen[bool]:
        """A monster discovers a room through a doorway: the tile is drawn and placed as its
        controller chooses, and the monster moves in; it draws no card and the room's symbol does
        not end its move. False (and the move ends) when no tile fits or the room is one it may
        not use."""
        src = m.room
        floor = self.house.floor_of(src)
        cell = step(self.house.spots[src].cell, side)
        entry = opposite(side)
        tile = yield from self.draw_tile(floor, lambda t: self._placements(t, floor, cell, entry))
        if tile is None:
            self.emit("discover.floor-exhausted", f"no tile is left for the {floor} floor", floor=floor)
            return False
        options = self._placements(tile, floor, cell, entry)
        place = yield from self.choose_placement(self.monster_controller(m), tile, floor, options)
        self.put_tile(tile, floor, place.cell, place.rotation)
        self.note_new_room(tile)
        if tile in self._monster_raw(self.mdef(m)).get("may_not_use", ()):
            # judgement: the room is found, but a monster that may not use it stays out and stops
            self.emit("haunt.rules-override", f"{self.mname(m)} discovers {self.room_name(tile)}, which it may not "
                      "enter: it stops", monster=m.uid, room=tile)
            return False
        m.room = tile
        self.emit("haunt.rules-override", f"{self.mname(m)} discovers {self.room_name(tile)} through the "
                  f"{SIDES[side]} doorway of {self.room_name(src)}; it draws no card and keeps moving",
            monster=m.uid, room=tile, origin=src)
        return True

    def _steered(self, room: str) -> bool:
        """The room is one the traitor's side steers without rolling (the Mystic Elevator's
        ``mystic-elevator-steer`` ability), for monsters as for the traitor."""
        return any(eff.get("custom") == "mystic-elevator-steer" for a in self.t.rooms[room].abilities for eff in a.get("do", []))

    def _monster_passage(self, m: Monster, src: str, how: str) -> None:
        """A monster went up or down a vertical passage (``monster.vertical-passages``)."""
        kind, _, way = how.partition("-")
        if kind == "jump" and way == "up":
            self.emit("room.gallery.monsters-climb-up", f"{self.mname(m)} climbs up from the {self.room_name(src)} to the "
                      f"{self.room_name(m.room)}", monster=m.uid, origin=src, room=m.room)
            return
        self.emit("monster.vertical-passages", f"{self.mname(m)} goes {way} from the {self.room_name(src)} to the "
                  f"{self.room_name(m.room)} ({kind})", monster=m.uid, way=how, origin=src, room=m.room)
        for c in self.t.rooms[src].connections:
            if kind == "fall" and c.kind == "fall" and c.to not in self.t.rooms \
                    and not any(c.to in ts for ts in self.tokens.values()):
                self.tokens.setdefault(m.room, []).append(c.to)
                self.emit("room.collapsed-room.monster-first", f"{self.mname(m)} is the first down the "
                          f"{self.room_name(src)}: no tile is drawn, the {c.to} token marks the "
                          f"{self.room_name(m.room)}", monster=m.uid, origin=src, to=c.to, room=m.room)

    def _monster_room_text(self, m: Monster, triggers: tuple[str, ...]) -> None:
        """Room text does nothing to monsters: harmful text and barriers are ignored
        (``monster.ignore-harmful-room-text``, ``room.barrier.monsters-ignore``) and trait gains are not
        for them (``monster.no-trait-gain-rooms``); text that moves monsters too moves them (the
        Coal Chute's slide, ``monster.coal-chute``)."""
        rdef = self.t.rooms[m.room]
        if "cross" in triggers and len(rdef.barrier) >= 2:
            self.emit("room.barrier.monsters-ignore", f"{self.mname(m)} ignores the barrier of {rdef.name}", monster=m.uid, room=rdef.id)
        for ability in rdef.abilities:
            if ability.get("trigger") not in triggers or ability.get("trigger") == "cross":
                continue
            exempt = ability.get("exemptions", {})
            if exempt.get("monsters_immune"):
                self.emit("monster.ignore-harmful-room-text", f"{self.mname(m)} ignores the {rdef.name}'s text",
                    monster=m.uid, room=rdef.id)
            elif exempt.get("monsters_excluded"):
                self.emit("monster.no-trait-gain-rooms", f"{self.mname(m)} gains nothing from the {rdef.name}", monster=m.uid, room=rdef.id)
            elif exempt.get("monsters_affected"):
                # Text that moves monsters too (the Coal Chute's slide, part of the same space).
                for eff in ability.get("do", []):
                    to = eff.get("move", {}).get("room")
                    if to in self.house.spots:
                        m.room = str(to)
                        self.emit("room.coal-chute.affects-all", f"the {rdef.name}'s slide is no harmful text: it moves "
                                  f"{self.mname(m)} too", monster=m.uid, room=rdef.id)
                        self.emit("monster.coal-chute", f"{self.mname(m)} slides from the {rdef.name} to the "
                                  f"{self.room_name(m.room)}", monster=m.uid, room=m.room)

    def _monster_stops(self, m: Monster) -> Gen[None]:
        """Where a monster ends its move: room text meant for the end of a turn does not touch it,
        and in a barrier room its controller picks the side it stands on (``room.barrier.monsters-ignore``)."""
        self._monster_room_text(m, ("end-of-turn",))
        rdef = self.t.rooms[m.room]
        if len(rdef.barrier) < 2:
            m.part = 0
            return
        rot = self.house.spots[m.room].rotation
        opts = [Action.of("monster-side", monster=m.uid, side=SIDES[(s + rot) % 4]) for s in rdef.barrier]
        a = yield from self.ask(self.monster_controller(m), opts, f"choose the side of {rdef.name} {self.mname(m)} stands on")
        m.part = opts.index(a)
        self.emit("room.barrier.monsters-ignore", f"{self.mname(m)} stops on the {a['side']} side of {rdef.name}", room=rdef.id,
            monster=m.uid, side=a['side'])

    def _monster_steps(self, m: Monster, left: int, first: bool) -> list[tuple[str, int]]:
        """Rooms a monster may step into now (no exploring: ``monster.no-exploring``)."""
        if left <= 0:
            return []
        ways = self.monster_ways(m)
        here = m.room
        slow = self.heroes_in(here) + self.carrying_cost(m.uid) - 1 \
            + ways.extra_per_room
        out = []
        # passages the tokens it may not use make are closed to it
        steps = [(room, cost) for room, cost, how in self._room_exits(here) if how not in ways.no_tokens]
        if ways.through_walls:
            steps += [(r, 1) for r in self.house.neighbours(here) if r not in {x for x, _ in steps}]
        collapsed = self.collapsed
        for room, cost in steps:
            if room in ways.forbidden or (room in collapsed and not ways.through_collapsed):
                continue
            if first or cost + slow <= left:
                out.append((room, cost))
        return out

    def _forced_steps(self, m: Monster, options: list[tuple[str, int]]) -> list[tuple[str, int]] | None:
        """Steps a monster must take (toward its quarry), or None when it moves freely."""
        mv = self.mdef(m).movement
        goal: list[str] = []
        if mv.get("toward") == "own-counterpart" and m.counterpart and self.in_play(m.counterpart):
            goal = [self.ex[m.counterpart].room]
        elif mv.get("toward") == "nearest-hero":
            goal = [self.ex[s].room for s in self.living_heroes()]
        elif mv.get("toward") == "nearest-explorer-not-revealer":
            revealer = self.haunt["revealer"] if self.haunt else None
            goal = [self.ex[s].room for s in self.living_heroes() if s != revealer]
        elif isinstance(mv.get("toward"), Mapping) and "token" in mv["toward"]:
            goal = list(self.htokens.get(str(mv["toward"]["token"]), []))  # the nearest haunt token of a kind
        elif isinstance(mv.get("toward"), Mapping) and "nearest_with_status" in mv["toward"]:
            status = mv["toward"]["nearest_with_status"]
            # carried explorers are ignored like items (the Cat and carried Frogs)
            goal = [self.ex[s].room for s in self.seat_ids if self.in_play(s) and s not in self.carried
                    and status in self.hstatus.get(s, [])]
        elif mv.get("chase_when_seen"):
            seen = self.line_of_sight(m.room) | {m.room}
            goal = [self.ex[s].room for s in self.living_heroes() if self.ex[s].room in seen]
        if not goal:
            return None
        dist = self._monster_dist(m, goal)
        here = dist.get(m.room, 10_000)
        if here == 0:
            return []
        return [(r, c) for r, c in options if dist.get(r, 10_000) < here]

    def _monster_dist(self, m: Monster, goals: Iterable[str]) -> dict[str, int]:
        """Spaces to the goals as this monster moves (through walls if it may)."""
        if not self.mdef(m).movement.get("through_walls"):
            return self._dist_to(goals)
        frontier = sorted(set(goals) & set(self.house.spots))
        dist = dict.fromkeys(frontier, 0)
        graph = self._graph()
        while frontier:
            nxt: list[str] = []
            for room in frontier:
                for other in sorted(graph[room] | set(self.house.neighbours(room))):
                    if other not in dist:
                        dist[other] = dist[room] + 1
                        nxt.append(other)
            frontier = nxt
        return dist

    def _monster_checks(self, m: Monster, moment: str) -> Gen[None]:
        """The monster's ``must`` rules that fire on entering or starting in a room (a lure);
        asked only for a kind that has any (``MonsterWays.lures``)."""
        for rule in self.mdef(m).must:
            if rule.get("when") != "on-enter-or-start":
                continue
            if "where" not in rule or not self.in_place(m.room, rule["where"]):
                continue
            key = f"{rule['id']}/{m.room}"
            if rule.get("reuse") == "once-per-place" and key in self.used_places:
                continue
            if "roll" not in rule:  # no roll: its outcomes happen there (a Cultist's sacrifice, haunt 14)
                for eff in rule.get("do", []):
                    yield from self._outcome(eff, None, m)
                continue
            roll = rule.get("roll", {})
            trait = str(roll.get("trait"))
            faces = yield from self.roll(self.mstat(m, trait), f"{self.mname(m)}'s {trait} roll")
            total = sum(faces)
            ok = total >= int(roll.get("target", 0))
            self.emit("haunt.specific-action", f"{self.mname(m)} {'enters' if moment == 'enter' else 'starts in'} "
                      f"{self.room_name(m.room)}: {trait} {total} against {roll.get('target')}+ "
                      f"({'resists' if ok else 'fails'})", monster=m.uid, room=m.room, trait=trait, total=total, passed=bool(ok))
            for eff in rule.get("success" if ok else "failure", []):
                yield from self._outcome(eff, None, m)
                if rule.get("reuse") == "once-per-place":
                    self.used_places.add(key)
            if m.gone:
                return

    def _monster_does(self, m: Monster) -> Gen[None]:
        """A monster's ``must`` rules ``when: monster-turn`` with plain outcomes (a ``contest``)
        for a monster that never moves: done on its turn, in place of moving."""
        for rule in self.mdef(m).must:
            if rule.get("when") != "monster-turn" or rule.get("who") == "each-explorer" or "roll" in rule:
                continue
            if any("monster_attack" in d for d in rule.get("do", [])):
                continue
            if "requires" in rule and not self.pred(rule["requires"], None, m):
                continue
            for eff in rule.get("do", []):
                if not m.gone:
                    yield from self._outcome(eff, None, m)

    @staticmethod
    def _turn_rolls(mdef: MonsterDef) -> list[Mapping[str, Any]]:
        """The monster's ``must`` rules that make each explorer roll on the monster turn."""
        return [rule for rule in mdef.must
                if rule.get("when") == "monster-turn" and rule.get("who") == "each-explorer" and "roll" in rule]

    @staticmethod
    def _turn_abilities(mdef: MonsterDef) -> list[Mapping[str, Any]]:
        """The monster's ``abilities`` used on the monster turn."""
        return [ab for ab in mdef.abilities if ab.get("timing") == "monster-turn"]

    def _after_attack(self, mdef: MonsterDef) -> tuple[bool, bool]:
        """Whether a monster of ``mdef`` has monster-turn abilities, and rolls for each explorer:
        without them :meth:`_monster_abilities` and :meth:`_monster_rolls` do nothing."""
        return bool(self._turn_abilities(mdef)), bool(self._turn_rolls(mdef))

    def _monster_rolls(self, m: Monster) -> Gen[None]:
        """A monster's ``must`` rules for ``each-explorer`` on the monster turn: every explorer in
        play that the requirement picks (and the ``unless`` spares) rolls, and the band of the
        result says what happens (the Banshee's wail)."""
        for rule in self._turn_rolls(self.mdef(m)):
            for seat in self.seat_ids:
                if m.gone or not self.in_play(seat):
                    continue
                if "requires" in rule and not self.pred(rule["requires"], seat, m):
                    continue
                if "unless" in rule and self.pred(rule["unless"], seat, m):
                    self.emit("monster.rules-overridable", f"{self.name(seat)} is spared: {rule.get('says', rule['id'])}", seat=seat,
                        clause=rule['id'])
                    continue
                trait = str(rule["roll"]["trait"])
                faces = yield from self.roll(self.value(seat, trait), f"{rule['id']}: {self.name(seat)} rolls {trait}")
                total = sum(faces)
                band = next((b for b in rule["roll"].get("bands", ())
                             if b.get("min", 0) <= total <= b.get("max", 99)), None)
                self.emit("monster.rules-overridable", f"{self.mname(m)}'s {rule['id']} reaches {self.name(seat)}: "
                          f"{trait} {total}", monster=m.uid, seat=seat, trait=trait, total=total)
                for eff in band.get("then", []) if band else []:
                    yield from self._outcome(eff, seat, m)

    def _monster_abilities(self, m: Monster) -> Gen[None]:
        """A monster's ``abilities`` on the monster turn (the Witch's spells): its controller may
        use one of them, after its movement, in place of an attack."""
        abilities = self._turn_abilities(self.mdef(m))
        if m.gone or m.stunned or not abilities:
            return
        acts: list[Action] = []
        for ab in abilities:
            if "where" in ab and not self.in_place(m.room, ab["where"]):
                continue  # an ability used only in certain rooms (haunt 49's ritual by a body)
            if "requires" in ab and not self.pred(ab["requires"], None, m):
                continue
            if "target" in ab:
                acts += [Action.of("monster-ability", monster=m.uid, id=ab["id"], target=t)
                         for t in self.targets(ab["target"], m.room, None)]
            else:
                acts.append(Action.of("monster-ability", monster=m.uid, id=ab["id"]))
        if not acts:
            return
        a = yield from self.ask(self.monster_controller(m), [*acts, Action.of("monster-pass", monster=m.uid)],
                                f"{self.mname(m)} uses an ability?")
        if a.kind == "monster-pass":
            return
        ab = next(x for x in abilities if x["id"] == a["id"])
        target = str(a["target"]) if a.get("target") else None
        self.emit("monster.rules-overridable", f"{self.mname(m)}: {ab.get('says', ab['id'])}"
                  + (f" (on {self.name(target)})" if target else ""), monster=m.uid, ability=ab["id"], target=target)
        roll = ab.get("roll")
        ok = True
        if roll:
            trait = str(roll["trait"])
            mine = yield from self.roll(self._dice(None, m, trait), f"{self.mname(m)}'s {trait} roll")
            theirs: tuple[int, ...] = ()
            if roll.get("opposed_by") == "target" and target is not None:
                theirs = yield from self.roll(self._dice(target, None, trait), f"{self.name(target)}'s {trait} roll")
                ok = sum(mine) > sum(theirs)
            else:
                ok = sum(mine) >= int(roll.get("target", 0))
            self.emit("monster.rules-overridable", f"{self.mname(m)} rolls {trait} {sum(mine)}"
                      + (f" against {sum(theirs)}" if roll.get("opposed_by") else "")
                      + (": it works" if ok else ": it fails"),
                      monster=m.uid, trait=trait, dice=list(mine), against=list(theirs) if theirs else None, passed=ok)
        for eff in (ab.get("success" if ok else "failure", []) if roll else ab.get("do", [])):
            yield from self._outcome(eff, None, m, target)

    def _ability_attacks(self, m: Monster) -> list[tuple[Mapping[str, Any], list[str]]]:
        """The monster's abilities that attack a target set instead of its normal attack
        (``monster_attack`` with ``targets``), each with the heroes it would attack now: those in
        the room whose fight the ability's attack rules allow."""
        assert self.hs is not None
        out: list[tuple[Mapping[str, Any], list[str]]] = []
        for ability in self.mdef(m).abilities:
            if ability.get("timing") != "instead-of-attack" or not any(
                    "targets" in d.get("monster_attack", {}) for d in ability.get("do", [])):
                continue
            own = [r for side in self.hs.sides().values() for r in side.attack_rules if r.get("by_ability") == ability["id"]]
            targets = []
            for s in self.living_heroes():
                if self.ex[s].room != m.room:
                    continue
                rules = self.fight_rules(m.uid, s, str(ability["id"]))
                if any(r.get("forbidden") for r in rules) or (own and not any(r in own for r in rules)):
                    continue
                targets.append(s)
            if targets:
                out.append((ability, targets))
        return out

    def _attack_each(self, m: Monster, ability: Mapping[str, Any], targets: list[str]) -> Gen[None]:
        """``monster_attack`` with ``targets``: one attack on each hero of the set, in seat order,
        each rolled and settled on its own under the ability's attack rules."""
        name = str(ability["id"])
        self.emit("haunt.rules-override", f"{self.mname(m)} uses {name} instead of its attack: "
                  f"{ability.get('says', name)}", monster=m.uid, ability=name)
        for target in targets:
            if not self.in_play(target) or m.gone or self.ex[target].room != m.room:
                continue
            rules = self.fight_rules(m.uid, target, name)
            trait = next((str(r["attack_with"][0]) for r in rules if "attack_with" in r), "might")
            self.emit("monster.one-attack", f"{self.mname(m)} attacks {self.name(target)} ({name})",
                monster=m.uid, target=target, ability=name)
            att = yield from self.roll(self._dice(None, m, trait), f"{self.mname(m)} attacks")
            dfn = yield from self.roll(self._dice(target, None, trait), f"{self.name(target)} defends")
            yield from self._resolve_fight(m.uid, target, trait, sum(att), sum(dfn), ability=name)

    def _swarm_dice(self, m: Monster, trait: str, plus: int = 0) -> int:
        """The dice of a monster's attack (``plus`` from its attack rules' ``dice_bonus``); under
        ``attacks_together`` every other monster of its kind in the room that is not stunned joins
        in, adding its trait (at most ``max_dice``), and makes no attack of its own this turn."""
        together = self._monster_raw(self.mdef(m)).get("attacks_together")
        if together is None:
            return self._dice(None, m, trait, plus)
        swarm = [x for x in self.active_monsters(m.room) if x.kind == m.kind and x is not m and not x.stunned
                 and self.joined.get(x.uid) != self.hround and self.together(x.uid, m.uid)]
        for x in (m, *swarm):
            self.joined[x.uid] = self.hround
        dice = min(int(together.get("max_dice", 8)), self._dice(None, m, trait, plus + sum(self.mstat(x, trait) for x in swarm)))
        if swarm:
            self.emit("haunt.rules-override", f"{len(swarm) + 1} {self.mdef(m).name}s attack together: {dice} dice",
                      monsters=[x.uid for x in (m, *swarm)], count=dice)
        return dice

    def _monster_attack(self, m: Monster) -> Gen[None]:
        if self.joined.get(m.uid) == self.hround:
            return  # it attacked with its room's swarm this turn (attacks_together)
        here = [s for s in self.living_heroes() if self.together(m.uid, s)]
        across = [s for s in self.living_heroes() if self.ex[s].room == m.room and s not in here]
        if across:
            self.emit("room.barrier.no-interaction-across", f"{self.mname(m)} cannot reach "
                      f"{', '.join(self.name(s) for s in across)} across the {self.room_name(m.room)}",
                monster=m.uid, seats=list(across), room=m.room)
        if not here:
            return
        attack_rules = [r for r in self.mdef(m).must if r.get("when") == "monster-turn"
                        and any("monster_attack" in d for d in r.get("do", []))]
        here = [s for s in here if not any(r.get("forbidden") for r in self.fight_rules(m.uid, s))]
        # attack.target-needs-trait, for the attacker: a monster without the trait (the Banshee's
        # Might is "none") makes no attack with it
        here = [s for s in here if self.mdef(m).stats_by_track or next(
            (str(r["attack_with"][0]) for r in self.fight_rules(m.uid, s) if "attack_with" in r), "might") in m.stats]
        specials = self._ability_attacks(m) if not attack_rules else []
        if not here and not specials:
            return
        seat = self.monster_controller(m)
        forced = bool(attack_rules) and (not attack_rules[0].get("requires")
                                         or self.pred(attack_rules[0]["requires"], here[0], m))
        target: str | None = None
        spec = attack_rules[0]["do"][0]["monster_attack"] if attack_rules else {}
        if forced and spec.get("prefer") == "own-counterpart" and m.counterpart in here:
            target = m.counterpart
        elif forced and spec.get("else") == "random" and len(here) > 1:
            a = yield Req(CHANCE, Draw(here, arg="target"), f"{self.mname(m)} attacks a hero at random")
            target = str(a["target"])
        else:
            acts = [Action.of("monster-attack", monster=m.uid, target=s) for s in here]
            acts += [Action.of("monster-ability", monster=m.uid, ability=str(ab["id"])) for ab, _ in specials]
            if not forced:
                acts.append(Action.of("monster-pass", monster=m.uid))
            a = yield from self.ask(seat, acts, f"{self.mname(m)} attacks?")
            if a.kind == "monster-pass":
                return
            if a.kind == "monster-ability":
                ability, targets = next((ab, ts) for ab, ts in specials if ab["id"] == a["ability"])
                yield from self._attack_each(m, ability, targets)
                return
            target = str(a["target"])
        rules = self.fight_rules(m.uid, target)
        trait = next((str(r["attack_with"][0]) for r in rules if "attack_with" in r), "might")
        self.emit("monster.one-attack", f"{self.mname(m)} attacks {self.name(target)}", monster=m.uid, target=target)
        plus, minus = self._dice_bonus(rules)
        att = yield from self.roll(self._swarm_dice(m, trait, plus), f"{self.mname(m)} attacks")
        if any(r.get("reroll_blanks") for r in rules) and 0 in att:
            again = yield from self.roll(att.count(0), f"{self.mname(m)} rerolls its blanks")
            self.emit("haunt.rules-override", f"{self.mname(m)} rerolls {att.count(0)} blank dice: {sum(again)} more",
                monster=m.uid, dice=list(again), total=sum(again))
            att = tuple(f for f in att if f) + again
        dfn = yield from self.roll(self._dice(target, None, trait, minus), f"{self.name(target)} defends")
        yield from self._resolve_fight(m.uid, target, trait, sum(att), sum(dfn))


@functools.lru_cache(maxsize=4096)
def monster_action(kind: str, monster: str, name: str = "", value: str = "") -> Action:
    """``kind monster=<uid>`` (and ``name=value``), built once: a monster's every step offers the
    same few moves again (the monsters and rooms of a game are few; the cache is bounded)."""
    return Action(kind, (("monster", monster), (name, value)) if name else (("monster", monster),))
