"""An explorer's turn in the haunt phase: the actions on offer (moves slowed by opponents, carrying,
side actions, attacks, tasks), the turn rules of the haunt file at their moments, standing
rules, timers, and the house collapsing where a haunt makes it.

This module is over 800 lines: the turn's menu and moments in one place; the next split takes the per-status
movement rules (stairs rolls, walls, escorts, carried tokens) to a module of their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt import concealment, registry
from hauntcheck.engine.betrayal.haunt.collapse import Collapse
from hauntcheck.engine.betrayal.haunt.grabs import escape
from hauntcheck.engine.betrayal.haunt.pieces import HERO, TRAITOR
from hauntcheck.engine.betrayal.haunt.tasks import tasks_by_timing
from hauntcheck.engine.betrayal.hauntspec import HauntSpec
from hauntcheck.engine.betrayal.house import step
from hauntcheck.engine.betrayal.state import Gen
from hauntcheck.engine.core import Action


class Turns(Collapse):
    """An explorer's haunt-phase turn: actions, movement, turn rules, timers."""

    def _flag_timers(self, seat: str, moment: str) -> Gen[None]:
        """Timers that start when a flag is set and tick on the turns of the explorer who set it."""
        assert self.hs is not None
        for side in self.hs.sides().values():
            for timer in side.timers:
                if timer.get("starts") != "on-flag":
                    continue
                state = self.timer_state.get(timer["id"])
                if state is None:
                    if moment == "end" and timer.get("start_flag") in self.hflags:
                        self.timer_state[timer["id"]] = {"setter": seat, "stopped": False}
                        self.track = self._amount(timer.get("start_at", 1))
                        self.emit("haunt.rules-override", f"{timer.get('says', timer['id'])} (track at {self.track})", track=self.track,
                            timer=timer['id'])
                    continue
                if state["stopped"] or state["setter"] != seat:
                    continue
                if "stops_when" in timer and self.pred(timer["stops_when"]):
                    state["stopped"] = True
                    self.emit("haunt.rules-override", f"the {timer['id']} timer stops", timer=timer['id'])
                    continue
                if moment == "end" and timer.get("advance", {}).get("when") == "end-of-turn-of-flag-setter":
                    self.track += int(timer["advance"].get("by", 1))
                    self.emit("haunt.rules-override", f"the Turn/Damage track advances to {self.track} ({timer['id']})",
                        track=self.track, timer=timer['id'])
                    for at in timer.get("at", []):
                        if at.get("moment") == "end-of-that-turn" and self.track == int(at["value"]):
                            self.emit("haunt.rules-override", at.get("says", f"{timer['id']} reaches {at['value']}"),
                                      timer=timer["id"], track=self.track)
                            for eff in at.get("do", []):
                                yield from self._outcome(eff, seat, None)
                if moment == "start":
                    for at in timer.get("at", []):
                        if at.get("moment") == "start-of-that-turn" and self.track == int(at["value"]):
                            self.emit("haunt.rules-override", at.get("says", f"{timer['id']} reaches {at['value']}"),
                                      timer=timer["id"], track=self.track)
                            for eff in at.get("do", []):
                                yield from self._outcome(eff, seat, None)

    def _collapse_step(self, seat: str) -> Gen[None]:
        """One room collapses at the end of this explorer's turn, next to a collapsed room: the
        upper floor first (the Attic, else an empty upper room), then the ground floor from the
        Grand Staircase, then the basement from the Basement Landing. Anyone inside dies."""
        if self.collapse_by:
            # a haunt whose collapse has its own shape (United We Stand's fire) steps it by its hook
            yield from registry.hook.outcome[self.collapse_by](self.as_haunt_state(), seat, None)
            return
        if not self.collapsed and seat != self.traitor() and "collapse-started" not in self.hflags:
            return
        self.hflags.add("collapse-started")
        starts = {"upper": "attic", "ground": "grand-staircase", "basement": "basement-landing"}
        candidates = self._collapse_candidates(("upper", "ground", "basement"), starts)
        if not candidates:
            return
        yield from self._collapse_chosen_room(seat, candidates)

    def _collapse_candidates(self, floors: tuple[str, ...], starts: dict[str, str]) -> list[str]:
        """The rooms that may collapse next: on the first listed floor with rooms standing, its
        starting room (``starts``; else an unoccupied room) if none has collapsed there yet, else
        one next to a collapsed room of that floor (doors or not)."""
        for floor in floors:
            left = [r for r in self.house.rooms_on(floor) if r not in self.collapsed]
            if not left:
                continue
            done = [r for r in self.collapsed if self.house.floor_of(r) == floor]
            if not done:
                first = starts.get(floor)
                occupied = {self.ex[x].room for x in self.seat_ids if self.in_play(x)}
                return [first] if first in left else [r for r in left if r not in occupied] or left
            cells = {self.house.spots[r].cell for r in done}
            return [r for r in left if any(step(self.house.spots[r].cell, d) in cells for d in range(4))] or left
        return []

    def _collapse_one(self, seat: str, spec: Mapping[str, Any]) -> Gen[None]:
        """``collapse_room``: one room collapses, chosen by the explorer (Treasure Hunt's search):
        the first an unoccupied room of the first listed floor, the ground floor from the Grand
        Staircase; once every listed floor is gone, everyone on ``last_floor_kills`` dies."""
        floors = tuple(str(f) for f in spec["floors"])
        starts = {"ground": "grand-staircase", "basement": "basement-landing"}
        candidates = self._collapse_candidates(floors, starts)
        if candidates:
            yield from self._collapse_chosen_room(seat, candidates)
        doomed = spec.get("last_floor_kills")
        if doomed and not self._collapse_candidates(floors, starts):
            self.emit("haunt.rules-override", f"the {floors[-1]} floor has collapsed: everyone in the {doomed} dies",
                floor=floors[-1], room=doomed)
            for victim in self.seat_ids:
                if self.in_play(victim) and self.house.floor_of(self.ex[victim].room) == doomed:
                    yield from self._outcome({"kill": True}, victim, None)

    def _collapse_chosen_room(self, seat: str, candidates: list[str]) -> Gen[None]:
        """The explorer picks one of the candidates; it collapses and anyone inside dies."""
        a = yield from self.ask(seat, [Action.of("collapse", room=r) for r in sorted(candidates)], "choose a room to collapse")
        room = str(a["room"])
        self.collapsed.append(room)
        self.emit("haunt.rules-override", f"{self.room_name(room)} collapses", room=room)
        for victim in self.seat_ids:
            if self.in_play(victim) and self.ex[victim].room == room:
                yield from self._outcome({"kill": True}, victim, None)

    def _advance_timers(self, moment: str) -> Gen[None]:
        """Timers on the Turn/Damage track advance at their moment (``advance.when``), then do
        their ``after_advance`` outcomes."""
        assert self.hs is not None
        for side in self.hs.sides().values():
            for timer in side.timers:
                if timer.get("starts") == "on-flag" and timer.get("start_flag") not in self.hflags:
                    continue  # a clock started by a flag stands still until it is set (Ghost Bride's wedding)
                if timer.get("advance", {}).get("when") == moment:
                    self.track += int(timer["advance"].get("by", 1))
                    self.emit("haunt.rules-override", f"the Turn/Damage track advances to {self.track} ({timer['id']})",
                        track=self.track, timer=timer['id'])
                    for eff in timer.get("after_advance", []):
                        if self._check_wins():
                            return
                        yield from self._outcome(eff, None, None)
                    for at in timer.get("at", []):
                        # the track just reached a value: its outcomes now, at the moment that advanced it
                        if int(at["value"]) != self.track or at.get("moment") == "start-of-that-turn":
                            continue
                        self.emit("haunt.rules-override", at.get("says", f"{timer['id']} reaches {at['value']}"),
                                  timer=timer["id"], track=self.track)
                        for eff in at.get("do", []):
                            if self._check_wins():
                                return
                            yield from self._outcome(eff, None, None)

    def draw_card(self, seat: str, kind: str, ctx_room: str | None = None) -> Gen[str | None]:
        """A draw, unless the haunt lets the explorer's side take a named card instead (or a
        status forbids drawing)."""
        if self.hs is None:
            return (yield from super().draw_card(seat, kind, ctx_room))  # before the haunt: nothing below applies
        if self._blocks(seat, "draw-cards"):
            self.emit("haunt.rules-override", f"{self.name(seat)} cannot draw cards", seat=seat)
            if ctx_room is not None and seat == self.current and self.status_value(seat, "symbol_rooms_end_turn"):
                self.turn.end_now = True
                self.emit("haunt.rules-override", f"discovering a room with a symbol ends {self.name(seat)}'s turn", seat=seat)
            return None
        appearing = self.appearing(ctx_room) if ctx_room is not None else None
        if appearing is not None and ctx_room is not None:
            yield from self.appear(appearing, ctx_room, seat)
            return None
        for entry in list(self.next_omen):
            side, cards = entry
            present = [c for c in cards if c in self.decks["omen"]]
            if kind == "omen" and self.side.get(seat) == side and present and not self.ex[seat].dead:
                self.next_omen.remove(entry)
                a = yield from self.ask(seat, [Action.of("fetch", card=c) for c in present],
                                        "take a card from the omen stack instead of drawing")
                card = str(a["card"])
                if seat == self.current and not self.turn.stopped:
                    self.turn.stopped = True
                    self.turn.stop_rule = "move.card-ends-movement"
                    self.emit("move.card-ends-movement", f"taking a card ends {self.name(seat)}'s movement this turn", seat=seat)
                self.decks["omen"].remove(card)
                self.omens_drawn += 1  # it has left the omen stack
                self.ex[seat].cards.append(card)
                self.emit("haunt.rules-override", f"{self.name(seat)} takes the {self.card_name(card)} from the omen stack "
                          "instead of drawing", seat=seat, card=card)
                yield from effects.gain_card(self, seat, card)
                return card
        for side, card, stack in self.fetches:
            if card in self.fetch_floor and self.house.floor_of(self.ex[seat].room) != self.fetch_floor[card]:
                continue
            if stack == kind and self.side.get(seat) == side and card in self.decks[kind] and not self.ex[seat].dead:
                a = yield from self.ask(seat, [Action.of("fetch", card=card), Action.of("draw-instead", card=card)],
                                        f"take the {self.card_name(card)} instead of drawing")
                if a.kind == "fetch":
                    if seat == self.current and not self.turn.stopped:
                        self.turn.stopped = True
                        self.turn.stop_rule = "move.card-ends-movement"
                        self.emit("move.card-ends-movement", f"taking a card ends {self.name(seat)}'s movement this turn", seat=seat)
                    self.decks[kind].remove(card)
                    self.ex[seat].cards.append(card)
                    self.emit("haunt.rules-override", f"{self.name(seat)} takes the {self.card_name(card)} from the "
                              f"{kind} stack instead of drawing", seat=seat, card=card, kind=kind)
                    yield from effects.gain_card(self, seat, card)
                    return card
        yield from self._draw_choice(seat, kind)
        return (yield from super().draw_card(seat, kind, ctx_room))

    def _draw_choice(self, seat: str, kind: str) -> Gen[None]:
        """A side's ``draw_choice`` setup step: before the explorer draws from the stack it looks
        at the top ``draw`` cards and keeps one, which it then draws; the others go back into the
        stack (judgement: 'the bottom of the stack' - the engine keeps no known bottom, so they are
        unknown again and may come up in any later draw)."""
        if self.hs is None:
            return
        sides = self.hs.sides()
        steps = [st_["draw_choice"] for st_ in getattr(sides.get(self.side.get(seat, HERO)), "setup", ())
                 if "draw_choice" in st_ and st_["draw_choice"]["stack"] == kind]
        if not steps or self.ex[seat].dead or len(self.decks[kind]) < 2:
            return
        count = min(int(steps[0]["draw"]), len(self.decks[kind]))
        seen = yield from self.peek_cards(kind, count)
        a = yield from self.ask(seat, [Action.of("keep-card", card=c) for c in seen],
                                f"draw {count} {kind} cards and keep one")
        card = str(a["card"])
        tops = self.deck_tops[kind]
        self.deck_tops[kind] = [card, *tops[count:]]
        back = [c for c in seen if c != card]
        self.emit("haunt.rules-override", f"{self.name(seat)} draws {count} {kind} cards, keeps the "
                  f"{self.card_name(card)} and puts back {', '.join(self.card_name(c) for c in back)}",
            seat=seat, count=count, kind=kind, card=card, cards=list(back))

    def _turn_actions(self, seat: str) -> list[Action]:
        out = super()._turn_actions(seat)
        if self.hs is None or not self.in_play(seat):
            return out
        # Every limit below but the side's bound cards comes from a status: an explorer with none
        # (nearly every explorer at nearly every decision) is blocked from nothing, carried by
        # nobody and pulled nowhere, so those filters are not even asked.
        statuses = self.hstatus.get(seat)
        if statuses and self._blocks(seat, "give-away"):
            out = [a for a in out if not (a.kind in ("trade", "drop") and self._bound(seat, str(a["card"])))]
        side = self.hs.sides().get(self.side.get(seat, HERO))
        if side is not None and side.bound_cards:
            # the side's bound cards stay with their holder (a Spirit Board); death still drops them
            out = [a for a in out if not (a.kind in ("trade", "drop", "give") and str(a.get("card")) in side.bound_cards)]
        if statuses and self._blocks(seat, "discover-rooms"):
            out = [a for a in out if a.kind != "explore"]
        # An explorer that may not carry items (a Werewolf; and, judgement, a Frog carried like an
        # item) picks none up and is handed none.
        if statuses and (self._carriable(seat) or self._blocks(seat, "carry-items")):
            out = [a for a in out if a.kind != "pickup"]
        if any(self.hstatus.values()):  # only a status keeps a trade's receiver from carrying
            out = [a for a in out if not (a.kind == "trade" and (self._carriable(str(a["to"]))
                                                                  or self._blocks(str(a["to"]), "carry-items")))]
        out.extend(self._carry_actions(seat))
        if self.no_pickup:
            out = [a for a in out if not (a.kind == "pickup" and f"{seat}/{a['card']}" in self.no_pickup)]
        if statuses and self._blocks(seat, "move") and not any(a.kind == "end" for a in out):
            out.append(Action.of("end"))  # held where a turn may not end (the Coal Chute): it still ends
        spared = self.status_value(seat, "unaffected_by_rooms") if statuses else None
        if spared:
            # the room's own text does nothing for it: its use (the Gallery's drop, the Vault) is not offered
            out = [a for a in out if not (a.kind == "use" and str(a.get("ability", "")).split("#")[0] in
                                          {f"room:{r}" for r in spared})]
        if statuses and self._blocks(seat, "use-items"):
            out = [a for a in out if a.kind not in ("use", "drop", "pickup", "trade")]
        else:
            out.extend(self._token_pickups(seat))
        if statuses and self._toward(seat) is not None and any(a.kind == "move" for a in out):
            out = [a for a in out if a.kind != "end"]  # pulled toward a room: the explorer must go on
        if statuses and self._blocks(seat, "act"):
            # judgement: a status that forbids acting leaves moving (where allowed), ending the turn
            # and escaping one's own hindrance (Webs, Debris), which only serves the pull
            return [a for a in out if a.kind in ("move", "end") or (a.kind == "free" and a.get("who") == seat)]
        out.extend(self._attack_actions(seat))
        if self.menu_parts().escorts:
            out.extend(self._escort_actions(seat))
        out.extend(self._side_actions(seat))
        out.extend(self._task_actions(seat))
        if self.masked(seat) and not (self._hidden_deal_step() or {}).get("no_reveal"):
            out.append(Action.of("reveal-traitor"))  # hidden-traitor.self-reveal
        unseen = concealment.hidden_from(self, seat)
        if unseen:
            # nothing offered may name an explorer the seat cannot see (a trade would give it away)
            out = [a for a in out if not any(str(v) in unseen for _, v in a.args)]
        return out

    #: The haunt spec :attr:`_menu_parts` is for, with them (kept on the state: asked at every menu).
    _menu_parts: tuple[HauntSpec, MenuParts] | None = None

    def menu_parts(self) -> MenuParts:
        """Which parts of the turn menu this haunt's file lets offer anything (:class:`MenuParts`)."""
        hs = self.hs
        assert hs is not None
        kept = self._menu_parts
        if kept is None or kept[0] is not hs:
            raw = self.haunts[hs.number][1]  # the file the haunt spec was read from (haunts holds the pair)
            kept = self._menu_parts = (hs, hs.derived("menu-parts", lambda spec: menu_parts(spec, raw)))
        return kept[1]

    def _token_pickups(self, seat: str) -> list[Action]:
        """``item.tokens-like-cards``: a token carried like an item lying in the room may be picked up."""
        assert self.hs is not None
        if not self.menu_parts().item_tokens:
            return []
        room = self.ex[seat].room
        return [Action.of("pickup-token", token=tok) for tok in self.hs.derived("item-tokens", _item_tokens)
                if room in self.htokens.get(tok, ()) and self._may_pick_up(seat, tok)
                and self.hs.tokens[tok].carried_by in (None, self.side.get(seat, HERO))]

    def _may_pick_up(self, seat: str, token: str) -> bool:
        """A token whose ``picked_up_by`` names a side is picked up by that side only."""
        assert self.hs is not None
        raw: Mapping[str, Any] = next(
            (t for t in self.haunts[self.hs.number][1].get("tokens", ()) if t.get("id") == token), {})
        side = raw.get("picked_up_by")
        return side is None or (side == "heroes") == (self.side.get(seat) == HERO)

    def _play_turn(self, seat: str) -> Gen[None]:
        if self.hs is None:
            yield from super()._play_turn(seat)
            return
        yield from self.haunt_turn(seat)

    def haunt_turn(self, seat: str, judged: bool = False) -> Gen[bool]:
        """A seat's turn in the haunt phase, to its end (:meth:`_end_haunt_turn`). ``judged``: the
        goals were judged just before and held for nobody, and nothing has changed since; where
        nothing happens before the turn's own judgement (no timer, walker or rule of this haunt
        acts then: :func:`quiet_turns`), that judgement would repeat it and is not made. True when
        the turn ends the same way: its last judgement is still good when it returns."""
        assert self.hs is not None
        quiet = judged and seat not in self.carried and not self.grips and not self.deaths_pending \
            and self.quiet_turns().start
        if seat in self.carried and not (self._carriable(seat) and self._may_carry(self.carried[seat], seat)):
            self._sync_carried()  # a carrier who lost what let it carry (a downed pilot) has let go
        if seat in self.carried:
            self.emit("haunt.rules-override", f"{self.name(seat)} is carried by {self.name(self.carried[seat])} and does "
                      "nothing this turn", seat=seat)
            return (yield from self._end_haunt_turn(seat))
        if any(held == seat for held, _ in self.grips.values()):
            free = yield from escape(self.as_haunt_state(), seat)
            if not free:
                return (yield from self._end_haunt_turn(seat))
        # each moment is entered only where the haunt has something for it (turn_parts)
        parts = self.turn_parts()
        if parts.timers:
            yield from self._flag_timers(seat, "start")
        if parts.walkers:
            yield from self.walk_at_turn_start(seat)
        for when in parts.start_rules:
            yield from self._turn_rules(seat, when)
        if self.deaths_pending:
            yield from self._death_rules()
        if self.in_play(seat) and (quiet or not self._check_wins()):
            yield from super()._play_turn(seat)
        return (yield from self._end_haunt_turn(seat))

    def turn_parts(self) -> TurnParts:
        """What this haunt does at the moments of a turn (:func:`turn_parts`)."""
        assert self.hs is not None
        return self.hs.derived("turn-parts", turn_parts)

    def quiet_turns(self) -> QuietTurns:
        """What this haunt does around its turns' own judgements of the goals (:func:`quiet_turns`)."""
        assert self.hs is not None
        return self.hs.derived("quiet-turns", quiet_turns)

    def _end_haunt_turn(self, seat: str) -> Gen[bool]:
        """What closes a seat's turn in the haunt phase: end-of-turn rules, timers, the house
        collapsing, pulls toward a room running out, then the standing rules. True when the goals
        were judged here (holding for nobody) and nothing after that could change them."""
        assert self.hs is not None, "only the haunt phase ends turns this way"
        if seat in self.concealed and self.in_play(seat):
            concealment.spread(self, seat)  # it may have gone as far as its Speed since it was last known
        judged = False
        parts = self.turn_parts()
        if self.in_play(seat) and not self._check_wins():
            judged = True
            if "end-of-turn" in parts.rule_moments:
                yield from self._turn_rules(seat, "end-of-turn")
            for task in self.tasks_at(seat, "end-of-turn"):
                if "roll" not in task and self._task_open(seat, task):
                    self.emit("haunt.specific-action", f"{self.name(seat)} ends the turn here: {task.get('says', task['id'])}", seat=seat,
                        task=task['id'])
                    for eff in task.get("do", []):
                        yield from self._outcome(eff, seat, None)
        # what follows does nothing in a haunt whose turn ends are quiet, without deaths to answer
        # and with no house collapsing (the mods dropped here are read by no goal)
        judged = judged and not self.deaths_pending and not self.collapsing and self.quiet_turns().end
        if self.deaths_pending:
            yield from self._death_rules()
        self.turn_mods.pop(seat, None)
        if parts.timers:
            yield from self._flag_timers(seat, "end")
        if self.collapsing and self.in_play(seat):
            yield from self._collapse_step(seat)
        if parts.collapse and self.in_play(seat):
            yield from self.collapse_turn(seat)
        for status in list(self.hstatus.get(seat, [])):
            # judgement: a pull toward a room lasts the turn; a during-turn rule renews it
            if self.hs.statuses.get(status, {}).get("must_move_toward", {}).get("room"):
                self.hstatus[seat].remove(status)
        if parts.standing:
            yield from self._standing_rules()
        return judged

    def _turn_action(self, seat: str, a: Action) -> Gen[None]:
        if self.hs is None:
            return (yield from super()._turn_action(seat, a))  # before the haunt: nothing below applies
        haunt_actions = ("task", "haunt-action")
        # the turn's keys are searched for a haunt action only when this is an attack (not at every move)
        if (a.kind == "attack" and any(k.startswith(("task:", "action:")) for k in self.turn.keys)) \
                or (a.kind in haunt_actions and "attack" in self.turn.keys):
            self.emit("turn.haunt-action-and-attack", f"{self.name(seat)} takes both a haunt action and an attack this turn", seat=seat)
        if a.kind == "attack":
            yield from self._attack(seat, a)
        elif a.kind == "attack-unseen":
            yield from self._attack_unseen(seat, a)
        elif a.kind == "reveal-traitor":
            self.reveal_traitor("self")
        elif a.kind == "haunt-action":
            yield from self._side_action(seat, a)
        elif a.kind == "task":
            yield from self._task(seat, a)
            yield from self._turn_rules(seat, "during-turn")
        elif a.kind in ("carry", "put-down"):
            self._carry(seat, a)
        elif a.kind == "escort":
            self._escort(seat, a)
        elif a.kind == "pickup-token":
            token = str(a["token"])
            self.turn.picked = True
            self.htokens[token].remove(self.ex[seat].room)
            self.held.setdefault(seat, []).append(token)
            self.emit("item.tokens-like-cards", f"{self.name(seat)} picks up the {token} token in "
                      f"{self.room_name(self.ex[seat].room)}", seat=seat, token=token, room=self.ex[seat].room)
        elif a.kind == "give-token":
            token, to = str(a["token"]), str(a["to"])
            self.turn.traded = True
            self.held[seat].remove(token)
            self.held.setdefault(to, []).append(token)
            self.emit("item.tokens-like-cards", f"{self.name(seat)} trades the {token} token to {self.name(to)}",
                seat=seat, token=token, to=to)
        else:
            yield from super()._turn_action(seat, a)
        if self.in_play(seat) and a.kind != "end" and "after-each-action" in self.turn_parts().rule_moments:
            yield from self._turn_rules(seat, "after-each-action")  # e.g. on meeting a roommate
        if self.deaths_pending:
            yield from self._death_rules()

    def _carriable(self, seat: str) -> bool:
        """The explorer has a status that lets others carry it like an item (a Frog)."""
        assert self.hs is not None
        return any(self.hs.statuses.get(x, {}).get("carried_like_item") for x in self.hstatus.get(seat, []))

    def _carry_actions(self, seat: str) -> list[Action]:
        """Pick up an explorer carried like an item (``carried_like_item``) in the room, or put one
        down; once each a turn, by an explorer whose statuses do not block carrying."""
        out: list[Action] = []
        if not self.carried and not any(self.hstatus.values()):
            return out  # only a status makes an explorer carriable, and nobody is carried yet
        if self._blocks(seat, "carry-items") or self._carriable(seat):
            return out
        room = self.ex[seat].room
        if "carry" not in self.turn.keys and self.has_company(seat, room):
            out += [Action.of("carry", who=s) for s in self.seat_ids if s != seat and s not in self.carried
                    and self.in_play(s) and self.ex[s].room == room and self._carriable(s) and self._may_carry(seat, s)]
        if "put-down" not in self.turn.keys and self.carried:
            out += [Action.of("put-down", who=s) for s, c in sorted(self.carried.items()) if c == seat]
        return out

    def _may_carry(self, carrier: str, who: str) -> bool:
        """A status with ``carried_only_by`` lets only an explorer with that status carry (or keep
        carrying) the explorer who has it: the Toy Airplane's passengers ride with its pilot."""
        only = self.status_value(who, "carried_only_by")
        return only is None or str(only) in self.hstatus.get(carrier, [])

    def _carry(self, seat: str, a: Action) -> None:
        who = str(a["who"])
        self.turn.keys.add(a.kind)
        if a.kind == "carry":
            self.carried[who] = seat
            self.emit("haunt.rules-override", f"{self.name(seat)} picks up {self.name(who)} and carries them like an item",
                seat=seat, target=who)
        else:
            del self.carried[who]
            self.emit("haunt.rules-override", f"{self.name(seat)} puts {self.name(who)} down in "
                      f"{self.room_name(self.ex[seat].room)}", seat=seat, target=who, room=self.ex[seat].room)

    def _escort_actions(self, seat: str) -> list[Action]:
        """A hero who has not moved yet this turn may take along one monster of its room that
        allows an ``escort`` (a Victim), once a turn."""
        if self.side.get(seat) != HERO or self.turn.moved or self.turn.left_room or "escort" in self.turn.keys:
            return []
        return [Action.of("escort", monster=m.uid) for m in self.active_monsters(self.ex[seat].room)
                if self._monster_raw(self.mdef(m)).get("escort")]

    def _escort(self, seat: str, a: Action) -> None:
        m = self.monster(str(a["monster"]))
        spaces = int(self._monster_raw(self.mdef(m))["escort"]["spaces"])
        self.turn.keys.add("escort")
        self.turn_mods.setdefault(seat, set()).add(f"escort:{m.uid}:{spaces}")
        self.emit("haunt.rules-override", f"{self.name(seat)} takes {self.mname(m)} along for up to {spaces} spaces",
                  seat=seat, monster=m.uid, count=spaces)

    def _escort_follows(self, seat: str, src: str) -> None:
        """The monster a hero escorts moves with it while escort spaces are left and it was in
        the room the hero just left."""
        for mod in sorted(k for k in self.turn_mods.get(seat, set()) if k.startswith("escort:")):
            _, uid, left = mod.split(":")
            m = self.monster(uid)
            self.turn_mods[seat].discard(mod)
            if m.gone or m.room != src or int(left) <= 0 or self.ex[seat].room == src:
                continue
            m.room = self.ex[seat].room
            self.emit("haunt.rules-override", f"{self.mname(m)} comes along with {self.name(seat)} to "
                      f"{self.room_name(m.room)}", monster=m.uid, seat=seat, origin=src, to=m.room)
            if int(left) > 1:
                self.turn_mods[seat].add(f"escort:{uid}:{int(left) - 1}")

    def _sync_carried(self) -> None:
        """A carried explorer is where its carrier is; it is dropped when the carrier leaves play
        or can no longer carry, or when it loses the status that made it carriable."""
        for who, carrier in sorted(self.carried.items()):
            if not (self.in_play(who) and self.in_play(carrier) and self._carriable(who)) \
                    or self._blocks(carrier, "carry-items") or not self._may_carry(carrier, who):
                del self.carried[who]
                continue
            self.ex[who].room = self.ex[carrier].room
            self.ex[who].part = self.ex[carrier].part

    def _bound(self, seat: str, card: str) -> bool:
        """A card a status forbids giving away: the one the status is about (held by ``holding``)."""
        assert self.hs is not None
        for side in self.hs.sides().values():
            for r in side.turn_rules:
                if any(d.get("become") in self.hstatus.get(seat, []) for d in r.get("do", [])):
                    held = r.get("requires", {}).get("holding")
                    if held == card:
                        return True
        return False

    def _side_actions(self, seat: str) -> list[Action]:
        """The haunt's special actions for the explorer's side (``haunt.specific-action``); each
        may be taken once a turn. Only ``take_item`` from a willing ally here is interpreted."""
        assert self.hs is not None
        side = self.hs.sides().get(self.side.get(seat, HERO))
        out: list[Action] = []
        if side is None:
            return out
        e = self.ex[seat]
        parts = self.menu_parts()
        if not self.turn.picked and parts.item_tokens:
            # item.tokens-like-cards: a token carried like an item lying here may be picked up
            for token in self.hs.derived("item-tokens", _item_tokens):
                if e.room in self.htokens.get(token, ()) and self._room_for_token(seat, token) \
                        and self._may_pick_up(seat, token):
                    out.append(Action.of("pickup-token", token=token))
        if not self.turn.traded:
            # item.tokens-like-cards: tokens carried like items are traded like them
            for token in sorted(set(self.held.get(seat, []))):
                for s in self.seat_ids:
                    if s != seat and self.in_play(s) and self.seen_side(s) == self.seen_side(seat) and self.ex[s].room == e.room \
                            and self._room_for_token(s, token):
                        out.append(Action.of("give-token", token=token, to=s))
        if self.side.get(seat, HERO) not in parts.take_item_sides:
            return out  # the side's special actions are all offered as tasks
        for act in side.actions:
            if f"action:{act['id']}" in self.turn.keys:
                continue
            for eff in act.get("do", []):
                take = eff.get("take_item")
                if not take:
                    continue  # other actions are offered as tasks
                if take.get("from") != "chosen-explorer-here":
                    raise NotImplementedError(f"haunt action {act['id']!r}")
                types = ("item", "omen") if take.get("type") == "item-or-omen" else (str(take.get("type")),)
                for s in self.seat_ids:
                    o = self.ex[s]
                    if s == seat or not self.in_play(s) or self.seen_side(s) != self.seen_side(seat) or o.room != e.room:
                        continue
                    for c in o.cards:
                        cd = self.t.cards[c]
                        if cd.type in types and cd.can_trade:
                            out.append(Action.of("haunt-action", id=act["id"], card=c, owner=s))
        return out

    def _side_action(self, seat: str, a: Action) -> Gen[None]:
        self.turn.keys.add(f"action:{a['id']}")
        card, owner = str(a["card"]), str(a["owner"])
        answer = yield from self.ask(owner, [Action.of("accept", card=card), Action.of("refuse", card=card)],
                                     f"let {seat} take {card}")
        if answer.kind == "refuse":
            self.emit("haunt.specific-action", f"{self.name(owner)} keeps {self.card_name(card)}", owner=owner, card=card)
            return
        self.ex[owner].cards.remove(card)
        self.ex[seat].cards.append(card)
        self.emit("haunt.specific-action", f"{self.name(seat)} takes {self.card_name(card)} from {self.name(owner)} "
                  f"({a['id']})", seat=seat, card=card, owner=owner, clause=a["id"])
        yield from effects.lose_card(self, owner, card)
        yield from effects.gain_card(self, seat, card)

    def _slowing(self, seat: str) -> int:
        """Extra spaces to leave the explorer's room: one per opponent there (``move.opponent-slows``),
        none for an explorer whose status blocks ``be-slowed`` (Comes the Hero's immortal traitor)."""
        if self._blocks(seat, "be-slowed"):
            return 0
        room = self.ex[seat].room
        if seat in self.concealed:
            return 0  # an unseen explorer slips past its opponents
        n = 0
        if self.has_company(seat, room):
            n = sum(1 for s in self.opponents_of(seat) if self.ex[s].room == room
                    and not concealment.concealed_from(self, s, seat))
        if self.side.get(seat) == HERO:
            for m in self.active_monsters(room):  # a plain loop, no generator: mostly no monster is there
                if not m.stunned and self.mdef(m).slows_explorers:
                    n += 1
        return n

    def _toward(self, seat: str) -> str | None:
        """The room a status makes the explorer head for (``must_move_toward``), if any."""
        if self.hs is None:
            return None
        for status in self.hstatus.get(seat, []):
            target = self.hs.statuses.get(status, {}).get("must_move_toward", {})
            if "room" in target and target["room"] in self.house.spots:
                return str(target["room"])
            if "token" in target:
                rooms = sorted(set(self.htokens.get(str(target["token"]), [])))
                if rooms:
                    return rooms[0]
        return None

    def _barred_rooms(self, seat: str) -> set[str]:
        """Rooms the explorer's statuses forbid (``may_not_use``): it may not move into them."""
        assert self.hs is not None
        out = {str(r) for s in self.hstatus.get(seat, []) for r in self.hs.statuses.get(s, {}).get("may_not_use", ())}
        for s in self.hstatus.get(seat, []):
            where = self.hs.statuses.get(s, {}).get("may_not_enter")
            if where is not None:
                out.update(self._rooms_for(where))
        return out

    def _move_actions(self, seat: str) -> list[Action]:
        actions = super()._move_actions(seat)
        if self.hs is None or not actions:
            return actions
        statuses = self.hstatus.get(seat)  # walls, barred rooms and pulls come from statuses only
        if statuses and self._blocks(seat, "move"):
            return []
        if statuses:
            actions = actions + self._wall_moves(seat, actions)
        if self.collapsed:
            actions = [a for a in actions if not (a.kind == "move" and a.get("to") in self.collapsed)]
        barred = self._barred_rooms(seat) if statuses else None
        if barred:
            actions = [a for a in actions if not (a.kind == "move" and a.get("to") in barred)]
        goal = self._toward(seat) if statuses else None
        if goal is not None:
            dist = self._dist_to([goal])
            here = dist.get(self.ex[seat].room, 10_000)
            closer = [a for a in actions if a.kind == "move" and dist.get(str(a["to"]), 10_000) < here]
            if closer or here == 0:
                actions = closer  # the status drags the explorer by the shortest way
        if self.turn.moved == 0:
            return actions  # move.minimum-one: the first space is always possible, whatever it costs
        extra = self._slowing(seat) + self._room_cost_extra(seat) + self.carrying_cost(seat) - 1
        if not extra:
            return actions
        left = self.movement_left(seat)
        return [a for a in actions if int(a.get("cost", 1) or 0) + extra <= left]  # type: ignore[arg-type]

    def _stairs_refused(self, seat: str, to: str) -> Gen[bool]:
        """A status's ``stairs_roll`` (haunt 35's shrunken explorers): going up or down stairs
        (the ways its ``ways`` name) takes a roll of the trait against the target first, unless the
        explorer meets its ``unless``; a failure ends the turn where the explorer stands (it may try
        again next turn). True when the move does not happen."""
        spec = self.status_value(seat, "stairs_roll")
        if spec is None or ("unless" in spec and self.pred(spec["unless"], seat)):
            return False
        how = next((h for r, _, h in self.exits(seat) if r == to), "door")
        if how not in spec.get("ways", ("stairs", "secret-stairs")):
            return False
        trait = str(spec["trait"])
        total = yield from effects.own_roll(self, seat, self.value(seat, trait), "trait", f"a {trait} roll to use the stairs",
                                            effects.Ctx(seat, "haunt"))
        target = self._amount(spec["target"])
        if total >= target:
            self.emit("haunt.rules-override", f"{self.name(seat)} rolls {total} against {target}+ and may use the stairs",
                      seat=seat, trait=trait, total=total, need=target, passed=True)
            return False
        self.emit("haunt.rules-override", f"{self.name(seat)} rolls {total} against {target}+ and cannot use the stairs: "
                  "the turn is over", seat=seat, trait=trait, total=total, need=target, passed=False)
        self.turn.end_now = True
        return True

    def _wall_moves(self, seat: str, actions: list[Action]) -> list[Action]:
        """A status with ``through_walls`` (haunt 49's Souls) lets the explorer step through a wall
        into any room beside its own on the floor, as through a connecting doorway, for 1 space."""
        if self.hs is None or not any(self.hs.statuses.get(s, {}).get("through_walls") for s in self.hstatus.get(seat, [])) \
                or self.movement_left(seat) < 1:
            return []  # the status first: it is rare, and movement_left is not cheap
        near = {str(a["to"]) for a in actions if a.kind == "move"}
        return [Action("move", (("to", room), ("cost", 1))) for room in sorted(self.house.neighbours(self.ex[seat].room))
                if room not in near]

    def _move(self, seat: str, to: str, cost: int) -> Gen[None]:
        if self.hs is None:
            return (yield from super()._move(seat, to, cost))  # before the haunt: nothing below applies
        # only a status sets a stairs roll (status_value): an explorer without one is not asked
        if self.hstatus.get(seat) and (yield from self._stairs_refused(seat, to)):
            return
        if to not in {r for r, _, _ in self.exits(seat)}:
            self.emit("haunt.rules-override", f"{self.name(seat)} passes through the wall into {self.room_name(to)}",
                      seat=seat, room=to)
        src = self.ex[seat].room
        extra = self._slowing(seat)
        self._pay_carrying(seat)
        self.stunned_left = self.side.get(seat) == HERO and any(
            m.stunned for m in self.active_monsters(self.ex[seat].room))
        here = self.ex[seat].room
        allies = ([s for s in self.allies_of(seat) if s != seat and self.ex[s].room == here]
                  if not extra and self.has_company(seat, here) else [])
        yield from super()._move(seat, to, cost)
        if seat in self.concealed:
            concealment.moved(self, seat, src, self.ex[seat].room)
        self._pay_slowing(seat, extra)
        dear = self._room_cost_extra(seat)
        if dear:
            self.turn.moved += dear
            self.emit("haunt.rules-override", f"{self.name(seat)} pays {dear} more: each room costs {dear + 1} spaces this turn",
                seat=seat, amount=dear)
        if allies:
            self.emit("move.opponents-are-sides", f"{self.name(seat)} leaves {', '.join(self.name(s) for s in allies)} "
                      "behind at no extra cost: allies never slow each other", seat=seat, seats=list(allies))
        if self.carried:
            self._sync_carried()
        if seat in self.turn_mods:
            self._escort_follows(seat, src)
        self._bring_token(seat, src)
        # what happens on entering, looked for only where the room has a pile, the explorer has
        # tasks done on entry, or the haunt has tokens that spring on whoever enters
        if self.ex[seat].room in self.piles:
            yield from self._take_custody(seat)
        if self.tasks_at(seat, "on-entry"):
            yield from self.entry_actions(seat)
        if self.turn_parts().ambushes:
            yield from self.ambushes(seat)

    def _bring_token(self, seat: str, src: str) -> None:
        """A status's ``carries_token``: one token of that kind lying in the room the explorer left
        goes along with it (the Toy Airplane under its pilot)."""
        token = self.status_value(seat, "carries_token")
        rooms = self.htokens.get(str(token), []) if token is not None else []
        here = self.ex[seat].room
        if src in rooms and here != src:
            rooms.remove(src)
            rooms.append(here)
            self.emit("haunt.rules-override", f"the {token} token goes with {self.name(seat)} to {self.room_name(here)}",
                      token=str(token), seat=seat, origin=src, to=here)

    def _take_custody(self, seat: str) -> Gen[None]:
        """``death.companion-custody``: the next explorer to enter takes a companion left in a room."""
        e = self.ex[seat]
        pile = self.piles.get(e.room, [])
        for card in [c for c in pile if self.t.cards[c].companion]:
            if e.dead or self._blocks(seat, "carry-items"):
                return
            pile.remove(card)
            e.cards.append(card)
            self.emit("death.companion-custody", f"{self.name(seat)} enters {self.room_name(e.room)} and takes custody "
                      f"of the {self.card_name(card)}", seat=seat, room=e.room, card=card)
            yield from effects.gain_card(self, seat, card)
        if not pile and e.room in self.piles:
            del self.piles[e.room]

    def _explore(self, seat: str, side: int) -> Gen[None]:
        if self.hs is None:
            return (yield from super()._explore(seat, side))  # before the haunt: nothing below applies
        extra = self._slowing(seat)
        src = self.ex[seat].room
        self._pay_carrying(seat)
        yield from super()._explore(seat, side)
        if seat in self.concealed and self.ex[seat].room != src:
            concealment.moved(self, seat, src, self.ex[seat].room)
            concealment.learn(self, seat, "room", f"{self.name(seat)} places a new room")
        self._pay_slowing(seat, extra)
        if seat in self.turn_mods:
            self._escort_follows(seat, src)
        if self.ex[seat].room == "collapsed-room":
            # the discoverer's roll to avoid falling was made and passed (haunt 34's Key rule reads it)
            self.turn.keys.add("passed:collapsed-room")

    def _room_cost_extra(self, seat: str) -> int:
        """Extra spaces each room costs this turn beyond the first (the outcome ``room_cost``)."""
        mods = self.turn_mods.get(seat)  # most turns have none: no list to build then
        costs = [int(k.split(":", 1)[1]) for k in mods if k.startswith("room-cost:")] if mods else []
        standing = self.status_value(seat, "room_cost") if self.hs is not None else None
        if standing is not None:
            costs.append(int(standing))  # a status's lasting room cost (doorways counted as spaces)
        return max(costs) - 1 if costs else 0

    def _pay_carrying(self, seat: str) -> None:
        """A token with a ``move_cost`` makes each room its carrier enters cost that many spaces
        (the extra is paid as the carrier sets out; ``move.minimum-one`` still lets it take a first step)."""
        extra = self.carrying_cost(seat) - 1
        if extra > 0:
            self.turn.moved += extra
            self.emit("haunt.rules-override", f"{self.name(seat)} carries a load: entering the room costs {extra} "
                      f"more space{'s' if extra > 1 else ''}", seat=seat, amount=extra)

    def _pay_slowing(self, seat: str, extra: int) -> None:
        if self.turn.left_room and self.stunned_left:
            self.emit("move.stunned-do-not-slow", "stunned monsters in the room left behind cost nothing")
        self.stunned_left = False
        if not extra:
            return
        self.turn.moved += extra
        if self.rivals(seat):
            self.emit("move.haunt-rivals", f"{self.name(seat)} pays {extra} extra space{'s' if extra > 1 else ''} to leave "
                      "rivals behind (every other explorer is an opponent in this haunt)", seat=seat, amount=extra)
        else:
            self.emit("move.opponent-slows", f"{self.name(seat)} pays {extra} extra space{'s' if extra > 1 else ''} to "
                      "leave opponents behind (heroes and the traitor's side slow each other)", seat=seat, amount=extra)
        if self.turn.moved > self.speed(seat) + self.turn.extra:
            self.emit("move.minimum-one", f"{self.name(seat)} may always move at least one space", seat=seat)

    def _slot_rules(self, seat: str) -> Gen[None]:
        """The traitor's start-of-turn rules marked ``slot: true`` at its turn slot when its
        explorer is out of play (``turn.traitor-turn-survives-removal``): what the monsters do then
        (Crimson Jack's return) still happens."""
        assert self.hs is not None
        side = self.hs.traitor_side
        # the start-of-turn slot rules, then the end-of-turn ones ("even if you have been killed")
        for moment in ("start-of-turn", "end-of-turn"):
            for r in side.turn_rules if side is not None else ():
                if r.get("when") != moment or not r.get("slot") or r.get("who") != "traitor":
                    continue
                if "requires" in r and not self.pred(r["requires"], None):
                    continue
                self.emit("haunt.rules-override", f"{seat}'s turn slot: {r.get('says', r['id'])}", seat=seat, clause=r['id'])
                for eff in r.get("do", []):
                    yield from self._outcome(eff, None, None)
        yield from self.collapse_turn(seat)  # a traitor's collapse goes on after its death
        yield from self._death_rules()

    def _death_rules(self) -> Gen[None]:
        """Turn rules ``when: on-hero-death``, once for each hero who died since they last ran
        (after the step that killed): for the traitor (if in play) or each living hero meeting
        ``requires``."""
        while self.deaths_pending and self.hs is not None:
            dead = self.deaths_pending.pop(0)
            for side in self.hs.sides().values():
                for r in side.turn_rules:
                    if r.get("when") != "on-hero-death":
                        continue
                    who = r.get("who")
                    traitor = self.traitor()
                    seats = ([traitor] if traitor and self.in_play(traitor) else []) if who == "traitor" \
                        else self.living_heroes() if who in ("each-hero", "heroes") else []
                    for seat in seats:
                        if "requires" in r and not self.pred(r["requires"], seat):
                            continue
                        self.emit("haunt.rules-override", f"{self.name(dead)} is dead: {self.name(seat)}: "
                                  f"{r.get('says', r['id'])}", target=dead, seat=seat, clause=r['id'])
                        for eff in r.get("do", []):
                            yield from self._outcome(eff, seat, None)

    def _turn_rules(self, seat: str, when: str) -> Gen[None]:
        """The haunt's ``turn_rules`` for ``seat`` at ``when`` (start-of-turn, end-of-turn)."""
        assert self.hs is not None
        for r in self.hs.derived("turn-rules", _turn_rules_by_moment).get(when, ()):
            who = r.get("who")
            mine = self.side.get(seat)
            if who == "traitor" and mine != TRAITOR:
                continue
            if who in ("each-hero", "heroes") and mine != HERO:
                continue
            if when == "during-turn" and "roll" not in r and all(
                    "become" in d and d["become"] in self.hstatus.get(seat, []) for d in r.get("do", [])):
                continue  # already so: nothing to announce
            self.rule_moment = when
            held = ("requires" not in r or self.pred(r["requires"], seat)) and not (
                "unless" in r and self.pred(r["unless"], seat))
            self.rule_moment = ""
            if not held:
                continue
            if when != "after-each-action":  # checked after every action: its outcomes say what happened
                self.emit("haunt.rules-override", f"{self.name(seat)}: {r.get('says', r['id'])}", seat=seat, clause=r['id'])
            outs = list(r.get("do", []))
            if "roll" in r:
                trait = str(r["roll"]["trait"])
                faces = yield from self.roll(self.value(seat, trait), f"{r['id']}: {trait}")
                total = sum(faces)
                if "bands" in r["roll"]:
                    band = next(b for b in r["roll"]["bands"] if b.get("min", 0) <= total <= b.get("max", 99))
                    self.emit("roll.trait-roll", f"{self.name(seat)} rolls {trait} {total}: {band.get('says', '')}",
                        seat=seat, trait=trait, total=total)
                    outs += list(band.get("then", []))
                else:
                    ok = total >= int(r["roll"].get("target", 0))
                    self.emit("roll.trait-roll", f"{self.name(seat)} rolls {trait} {total}: "
                              f"{'success' if ok else 'failure'}", seat=seat, trait=trait, total=total, passed=bool(ok))
                    outs += list(r.get("success" if ok else "failure", []))
            for eff in outs:
                yield from self._outcome(eff, seat, None)
                if self.ex[seat].dead:
                    return

    def _standing_rules(self) -> Gen[None]:
        """``rules`` with ``while``: fire once when the predicate becomes true."""
        assert self.hs is not None
        for side in self.hs.sides().values():
            for r in side.rules:
                if "while" not in r or f"rule:{r['id']}" in self.done:
                    continue
                if self.pred(r["while"]):
                    self.done.add(f"rule:{r['id']}")
                    self.emit("haunt.rules-override", r.get("says", r["id"]), clause=r["id"])
                    for eff in r.get("do", []):
                        yield from self._outcome(eff, None, None)


class QuietTurns(NamedTuple):
    """Whether a haunt does anything around a turn's own judgements of the goals."""

    #: Nothing happens as a turn starts, before its judgement: no timer, no monster walking at the
    #: start of a turn, no start-of-turn, during-turn or after-each-action rule.
    start: bool
    #: Nothing happens as a turn ends, after its judgement, nor between turns: no timer, no
    #: end-of-turn rule or task, no standing rule, no collapse piece, no status pulling toward a room.
    end: bool


def quiet_turns(hs: HauntSpec) -> QuietTurns:
    """The haunt's :class:`QuietTurns` (from its file: worked out once per haunt spec)."""
    sides = hs.sides().values()
    rules = hs.derived("turn-rules", _turn_rules_by_moment)
    no_timers = not any(side.timers for side in sides)
    walkers = any(str(m.movement["straight_ahead"].get("moves_at", "")) == "start-of-turn-left-of-traitor"
                  for m in hs.monsters.values() if m.movement.get("straight_ahead"))
    start = no_timers and not walkers and not any(rules.get(w) for w in ("start-of-turn", "during-turn", "after-each-action"))
    ending_tasks = any(by_timing.get("end-of-turn") for by_timing in tasks_by_timing(hs).values())
    pulls = any("room" in status.get("must_move_toward", {}) for status in hs.statuses.values())
    end = no_timers and not rules.get("end-of-turn") and not ending_tasks and not pulls \
        and not any("while" in r for side in sides for r in side.rules) and all(side.collapse is None for side in sides)
    return QuietTurns(start, end)


class TurnParts(NamedTuple):
    """What a haunt file gives a turn's moments to do (worked out once per haunt spec): a moment
    it gives nothing is not entered at every turn and action (each is a generator of its own)."""

    #: Timers on the Turn/Damage track (``_flag_timers``, ``_advance_timers``).
    timers: bool
    #: Monsters that walk at the start of the turn of the hero left of the traitor (``walk_at_turn_start``).
    walkers: bool
    #: The moments (``when``) of its turn rules, and those of a turn's start in the order they run.
    rule_moments: frozenset[str]
    start_rules: tuple[str, ...]
    #: Standing rules (``rules`` with ``while``: ``_standing_rules``).
    standing: bool
    #: A ``collapse`` piece (``collapse_turn``).
    collapse: bool
    #: Tokens that spring on whoever enters their room (``on_enter``: ``ambushes``).
    ambushes: bool


def turn_parts(hs: HauntSpec) -> TurnParts:
    """The haunt's :class:`TurnParts` (from its file)."""
    sides = hs.sides().values()
    rules = hs.derived("turn-rules", _turn_rules_by_moment)
    moments = frozenset(when for when, listed in rules.items() if listed)
    return TurnParts(
        timers=any(side.timers for side in sides),
        walkers=any(str(m.movement["straight_ahead"].get("moves_at", "monster-turn")) == "start-of-turn-left-of-traitor"
                    for m in hs.monsters.values() if m.movement.get("straight_ahead")),
        rule_moments=moments,
        start_rules=tuple(w for w in ("start-of-turn", "during-turn", "after-each-action") if w in moments),
        standing=any("while" in r for side in sides for r in side.rules),
        collapse=any(side.collapse is not None for side in sides),
        ambushes=any(token.on_enter is not None for token in hs.tokens.values()))


class MenuParts(NamedTuple):
    """Which parts of a haunt-phase turn menu a haunt file lets offer anything at all (worked out
    once per haunt spec): a part that can never offer an action is not asked at every decision."""

    #: Some monster kind may be taken along by a hero (``escort``: ``_escort_actions``).
    escorts: bool
    #: Some token is carried like an item (picked up: ``_token_pickups``, ``_side_actions``).
    item_tokens: bool
    #: The sides with a special action that takes an item (``take_item``: ``_side_actions``).
    take_item_sides: frozenset[str]


def menu_parts(hs: HauntSpec, raw: Mapping[str, Any]) -> MenuParts:
    """:class:`MenuParts` of the haunt spec ``hs``, read from it and its file ``raw``."""
    return MenuParts(
        escorts=any(bool(mon.get("escort")) for mon in raw.get("monsters", ())),
        item_tokens=bool(_item_tokens(hs)),
        take_item_sides=frozenset(name for name, side in hs.sides().items()
                                  if any("take_item" in eff for act in side.actions for eff in act.get("do", []))))


def _item_tokens(hs: HauntSpec) -> tuple[str, ...]:
    """The haunt's tokens carried like items (``item.tokens-like-cards``), by name: the only ones
    a menu offers to pick up (most haunts have none, and their other tokens lie in many rooms)."""
    return tuple(sorted(name for name, token in hs.tokens.items() if token.carried_as_item))


def _turn_rules_by_moment(hs: HauntSpec) -> dict[str, tuple[Mapping[str, Any], ...]]:
    """The haunt's ``turn_rules`` by their ``when``, each moment's in the order of the sides and
    the file (they are looked for at several moments of every turn)."""
    out: dict[str, list[Mapping[str, Any]]] = {}
    for side in hs.sides().values():
        for r in side.turn_rules:
            out.setdefault(str(r.get("when")), []).append(r)
    return {when: tuple(rules) for when, rules in out.items()}
