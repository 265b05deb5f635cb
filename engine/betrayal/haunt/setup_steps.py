"""The haunt's "Right Now" setup: each step of a haunt file's ``setup`` (monsters and tokens placed,
rooms fetched from the stack, cards dealt, statuses given, the hidden traitor's secret deal),
and the placements that wait for a room to be discovered.

This module is over 800 lines: one dispatch over every setup verb; the next split takes the token placements
(listed rooms, one per room, on discovery, first found) to a module of their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt import concealment, registry
from hauntcheck.engine.betrayal.haunt.monsters import Monsters
from hauntcheck.engine.betrayal.haunt.pieces import HERO, TRAITOR
from hauntcheck.engine.betrayal.house import step
from hauntcheck.engine.betrayal.model import TRAITS
from hauntcheck.engine.betrayal.state import Gen, Req
from hauntcheck.engine.core import CHANCE, Action, Shuffle


class SetupSteps(Monsters):
    """The "Right Now" setup steps of a haunt file."""

    def _conceal(self, seats: list[str]) -> Gen[None]:
        """``conceal``: each explorer secretly writes down a room of the house as where it is (its own
        choice; writing is no movement, so the room's text does not happen) and takes its figure off
        the board (``concealment``). A room no turn may end in (the Coal Chute, whose slide happens
        on entering) is no place to be written down."""
        for seat in seats:
            if not self.in_play(seat):
                continue
            rooms = sorted(r for r in self.house.spots if r not in self.no_end_rooms)
            a = yield from self.ask(seat, [Action.of("hide-in", room=r) for r in rooms], "write down the room you are in")
            concealment.conceal(self, seat, str(a["room"]))
            self.emit("haunt.concealed-explorer", f"{self.name(seat)} writes down a room (secretly, "
                      f"{self.room_name(str(a['room']))}) and takes the figure off the board", seat=seat, room=str(a["room"]))

    def _hidden_deal_step(self) -> Mapping[str, Any] | None:
        """The haunt's setup step that deals the hidden-traitor tokens (``deal`` with
        ``traitor_number``), if the file names one."""
        assert self.hs is not None
        for side in self.hs.sides().values():
            for step_ in side.setup:
                deal = step_.get("deal")
                if isinstance(deal, Mapping) and "traitor_number" in deal:
                    return deal
        return None

    def _deal_hidden(self) -> Gen[None]:
        """``hidden-traitor.deal-tokens``: numbered tokens 1..players are shuffled by chance and
        dealt face down, one to each player from the revealer's left; the holder of the traitor's
        number (1 unless the haunt says otherwise) is the traitor (``hidden-traitor.token-one``).
        The sides are the truth the engine keeps; the table sees everyone as a hero until the
        traitor is revealed (:meth:`seen_side`)."""
        assert self.haunt is not None and self.hs is not None
        deal = self._hidden_deal_step() or {}
        token = str(deal.get("token", "hidden-traitor-token"))
        count = self.hs.amount(deal["count"], self.n) if "count" in deal else self.n
        number = int(deal.get("traitor_number", 1))
        per_player = int(deal.get("per_player", 1))
        if per_player > 1:
            yield from self._deal_hands(token, count, per_player)
            self.hidden = next(s for s, hand in self.hands[token].items() if number in hand)
        else:
            yield from self._deal_tokens(token, count)
            self.hidden = next(s for s, k in self.dealt[token].items() if k == number)
        self.hidden_token = token
        self.hidden_number = number
        for s in self.seat_ids:
            self.side[s] = TRAITOR if s == self.hidden else HERO
        self.emit("hidden-traitor.token-one", f"whoever holds token {number} is the traitor; nobody else knows who", value=number)
        self.emit("hidden-traitor.all-read-survival", "every player reads the haunt, the traitor's goals included")

    def _deal_hands(self, token: str, count: int, per_player: int) -> Gen[None]:
        """``hidden-traitor.deal-tokens`` with ``per_player``: numbered tokens 1..count are shuffled
        by chance and dealt face down round the table from the revealer's left, ``per_player`` to
        each (any left over stay out of the game)."""
        assert self.haunt is not None
        numbers = [str(k) for k in range(1, count + 1)]
        a = yield Req(CHANCE, Shuffle(token, numbers), f"deal the {token} tokens")
        order = [int(str(x)) for x in a["order"]]  # type: ignore[union-attr]
        seats = [self.left_of(str(self.haunt["revealer"]), k) for k in range(1, self.n + 1)]
        hands: dict[str, list[int]] = {s: [] for s in seats}
        for k, number in enumerate(order[:per_player * len(seats)]):
            hands[seats[k % len(seats)]].append(number)
        self.hands[token] = hands
        self.emit("hidden-traitor.deal-tokens", f"the {token} tokens are dealt face down, {per_player} to each player",
                  token=token, count=per_player)

    def _deal_tokens(self, token: str, count: int, face_down: bool = True) -> Gen[None]:
        """Deal numbered tokens 1..count by chance (a shuffle), one per player from the revealer's
        left (``haunt.setup-right-now``)."""
        assert self.haunt is not None
        numbers = [str(k) for k in range(1, count + 1)]
        a = yield Req(CHANCE, Shuffle(token, numbers), f"deal the {token} tokens")
        order = [str(x) for x in a["order"]]  # type: ignore[union-attr]
        seats = [self.left_of(str(self.haunt["revealer"]), k) for k in range(1, self.n + 1)]
        self.dealt[token] = {s: int(k) for s, k in zip(seats, order, strict=False)}
        rule = "hidden-traitor.deal-tokens" if face_down else "haunt.setup-right-now"
        if face_down:
            self.emit(rule, f"the {token} tokens are dealt face down, one to each player", token=token)
        else:
            self.emit(rule, f"the {token} tokens are dealt face up: "
                      + ", ".join(f"{self.name(s)} {self.dealt[token][s]}" for s in seats if s in self.dealt[token]),
                      token=token, seats=[s for s in seats if s in self.dealt[token]],
                      values=[self.dealt[token][s] for s in seats if s in self.dealt[token]])

    def _haunt_setup(self) -> Gen[None]:
        hs = self.hs
        assert hs is not None and self.haunt is not None
        sides = [("traitor", hs.traitor_side), ("heroes", hs.heroes_side)]
        for side_name, side in sides:
            if side is None:
                continue
            for step_ in side.setup:
                yield from self._setup_step(side_name, step_)

    def _setup_step(self, side: str, step_: Mapping[str, Any], only: str | None = None) -> Gen[None]:
        """One "Right Now" step; ``only`` limits the steps about the traitor to one seat (a hero
        turning traitor later follows the traitor's setup)."""
        assert self.hs is not None and self.haunt is not None
        verb = next(k for k in step_ if k not in ("says", "cite", "unverified", "judgement", "who"))
        spec = step_[verb]
        rule = "haunt.setup-right-now"

        def who(name: Any) -> list[str]:
            return [only] if only is not None and name == "traitor" else self._who(name)

        if isinstance(spec, Mapping) and "if_players" in spec and self.n not in spec["if_players"]:
            return
        if isinstance(spec, Mapping) and "only_if" in spec and not self.pred(spec["only_if"]):
            return  # a step about something nobody was given (a doll no hero is linked to)
        if verb == "remove_explorer":
            for seat in who(spec["who"]):
                self.removed.add(seat)
                self.emit(rule, f"{self.name(seat)} leaves play (the haunt removes the traitor's explorer)", seat=seat)
                e = self.ex[seat]
                if e.cards and not spec.get("keeps_possessions"):
                    # judgement: an explorer taken out of play leaves its items behind as a pile
                    # and its companions in the room, as a dead one does
                    items, companions = self.leave_possessions(seat)
                    if companions and spec.get("companions") == "discarded":
                        for card in companions:  # devoured: out of the room, onto the discards
                            self.piles[e.room].remove(card)
                            self.discards[self.t.cards[card].type].append(card)
                        if not self.piles[e.room]:
                            del self.piles[e.room]
                        self.emit(rule, f"{', '.join(self.card_name(c) for c in companions)} "
                                  f"{'is' if len(companions) == 1 else 'are'} devoured and discarded", cards=list(companions))
                        companions = []
                    if items:
                        self.emit(rule, f"{self.name(seat)}'s {', '.join(self.card_name(c) for c in items)} stay in "
                                  f"{self.room_name(e.room)} as an item pile", seat=seat, cards=list(items), room=e.room)
                    if companions:
                        self.emit("death.companion-stays", f"{', '.join(self.card_name(c) for c in companions)} stay in "
                                  f"{self.room_name(e.room)} for the next explorer to take custody of", cards=list(companions), room=e.room)
                token = spec.get("replace_with")
                for mdef in self.hs.monsters.values():
                    if mdef.token == token:
                        self._add_monster(mdef, self.ex[seat].room)
        elif verb == "drop_items":
            for seat in who(spec["who"]):
                e = self.ex[seat]
                named = spec.get("cards")
                # only items drop: companions and the Bite are no items (omen.not-items)
                drop = [c for c in e.cards if (named is None and self.t.cards[c].item)
                        or (named is not None and c in ([named] if isinstance(named, str) else named))]
                if spec.get("may_not_pick_up"):
                    self.no_pickup.update(f"{seat}/{c}" for c in drop)
                if spec.get("never_carry") and named is not None:
                    # the named cards, held now or not, are never picked up, taken or stolen
                    self.no_pickup.update(f"{seat}/{c}" for c in ([named] if isinstance(named, str) else named))
                if drop:
                    self.piles.setdefault(e.room, []).extend(drop)
                    self.emit(rule, f"{self.name(seat)} drops {', '.join(self.card_name(c) for c in drop)} as an item "
                              f"pile in {self.room_name(e.room)}" + (" and may never pick it up again"
                                                                     if spec.get("may_not_pick_up") else ""),
                              seat=seat, cards=drop, room=e.room)
                    e.cards = [c for c in e.cards if c not in drop]
                    for card in drop:  # a dropped card's bonuses go with it (item.over-the-top)
                        yield from effects.lose_card(self, seat, card)
                tokens = [t for t in self.held.get(seat, []) if named is None and self._carried(t)]
                for token in tokens:  # item tokens are items too, unless the haunt says otherwise
                    self.held[seat].remove(token)
                    self.htokens.setdefault(token, []).append(e.room)
                    self.emit("item.tokens-like-cards", f"{self.name(seat)} drops the {token} token in {self.room_name(e.room)}",
                        seat=seat, token=token, room=e.room)
        elif verb == "place":
            if "monster" in spec and "rooms" in spec["in"] and spec["in"].get("on_discovery"):
                yield from self._place_in_listed_rooms(spec)
            elif "monster" in spec and "room_with_monster" in spec["in"] and \
                    self.hs.monsters[str(spec["monster"])].paired_with == spec["in"]["room_with_monster"]:
                mdef = self.hs.monsters[str(spec["monster"])]
                for other in [m for m in self.mon if m.kind == mdef.paired_with]:
                    self._add_monster(mdef, other.room)
                self.emit(rule, f"each {mdef.name} starts with its matching {self.hs.monsters[str(mdef.paired_with)].name}"
                          + (" (the others come with theirs)" if self.waiting else ""), kind=mdef.id, other=mdef.paired_with)
            elif "monster" in spec and spec.get("each_room"):
                mdef = self.hs.monsters[str(spec["monster"])]
                rooms = [r for r in self._rooms_for(spec["in"]) if r in self.house.spots]
                for room in rooms:  # one more in each room of the location, in its order
                    self._add_monster(mdef, room)
            elif "monster" in spec:
                mdef = self.hs.monsters[str(spec["monster"])]
                count = self._amount(spec.get("count", 1))  # formulas of the heroes known at the setup too
                used: set[str] = set()
                for i in range(count):
                    room = yield from self._location(spec["in"], used, f"place {mdef.name} {i + 1} of {count}")
                    used.add(room)
                    if room not in self.house.spots:
                        # only a haunt played away from its chart rooms (force_haunt) meets a named
                        # room that is not in the house and cannot be placed: nothing enters there
                        self.emit(rule, f"{self.room_name(room)} is not in the house: {mdef.name} {i + 1} does not enter",
                                  room=room, kind=mdef.id)
                        continue
                    self._add_monster(mdef, room, index=i)
            else:
                yield from self._place_tokens(spec)
        elif verb == "discard_card":
            for seat in who(spec.get("from", "traitor")):
                card = str(spec["card"])
                if card in self.ex[seat].cards:
                    # out of the house to its discard pile: nobody takes custody of it later
                    self.ex[seat].cards.remove(card)
                    self.discards[self.t.cards[card].type].append(card)
                    self.emit(rule, f"{self.name(seat)} discards the {self.card_name(card)}", seat=seat, card=card)
                    yield from effects.lose_card(self, seat, card)
        elif verb == "assign":
            yield from self._assign(spec, who)
        elif verb == "become":
            for seat in ([only] if only else [str(self.haunt["revealer"])] if spec["who"] == "revealer" else who(spec["who"])):
                yield from self._outcome({"become": spec["status"]}, seat, None)
        elif verb == "set_aside_card":
            for seat in who(spec.get("from", "traitor")):
                card = str(spec["card"])
                room = self.ex[seat].room
                if card in self.ex[seat].cards and spec.get("to") == "set-aside":
                    self.ex[seat].cards.remove(card)
                    self.token_cards.append(card)  # out of play, its token set aside with it
                    self.emit("haunt.setup-right-now", f"{self.name(seat)} loses the {self.card_name(card)}: it is set aside",
                        seat=seat, card=card)
                    yield from effects.lose_card(self, seat, card)
                    continue
                if card in self.ex[seat].cards:
                    self.ex[seat].cards.remove(card)
                    self.piles.setdefault(room, []).append(card)
                    yield from effects.lose_card(self, seat, card)
                token = spec.get("replace_with_token")
                placed_later = any(isinstance(x.get("place"), Mapping) and x["place"].get("token") == token
                                   for x in (self.hs.traitor_side.setup if self.hs.traitor_side else ()))
                if placed_later and card in self.piles.get(room, []):
                    self.piles[room].remove(card)
                    if not self.piles[room]:
                        del self.piles[room]
                    self.token_cards.append(card)
                    self.emit(rule, f"the {self.card_name(card)} is set aside; its {token} token stands for it", card=card, token=token)
                elif card in self.piles.get(room, []):
                    # judgement: the token standing for the card is kept as the card itself in
                    # the room's item pile, where others may collect it.
                    self.emit(rule, f"the {self.card_name(card)} stays in {self.room_name(room)} for others to collect",
                        card=card, room=room)
        elif verb == "do":
            for seat in who(step_.get("who", "traitor")):
                yield from effects.run(self, spec, effects.Ctx(seat, "token:haunt"))
        elif verb == "spend_trait_points":
            for seat in who(spec["who"]):
                points = self._amount(spec["points"])
                xdef = self.t.explorers[self.ex[seat].id]
                if spec.get("restore_start"):
                    for t in TRAITS:
                        if self.ex[seat].idx[t] < xdef.traits[t].start:
                            self.trait_change(seat, t, xdef.traits[t].start - self.ex[seat].idx[t])
                for k in range(points):
                    room_left = [t for t in TRAITS if self.ex[seat].idx[t] < len(xdef.traits[t].values) - 1]
                    if spec.get("to") == "least-above-start" and room_left:
                        least = min(self.ex[seat].idx[t] - xdef.traits[t].start for t in room_left)
                        room_left = [t for t in room_left if self.ex[seat].idx[t] - xdef.traits[t].start == least]
                    if not room_left:
                        break
                    a = yield from self.ask(seat, [Action.of("raise", trait=t) for t in room_left],
                                            f"spend trait point {k + 1} of {points}")
                    self.trait_change(seat, str(a["trait"]), 1)
        elif verb == "trait_values":
            for seat in who(spec["who"]):
                values = {str(t): self._amount(v) for t, v in spec["values"].items()}
                self.trait_values[seat] = {"values": values, "per_hero_killed": dict(spec.get("per_hero_killed", {})),
                                           "minimum": int(spec.get("minimum", 0))}
                shown = ", ".join(f"{t} {v}" for t, v in values.items())
                self.emit(rule, f"{self.name(seat)}'s {shown} are held on the Turn/Damage track from now on", seat=seat,
                          **values)
        elif verb == "fetch_card" and spec.get("when") == "now" and spec.get("first_found"):
            for seat in who(spec.get("by", "traitor")):
                yield from self._fetch_first(seat, spec)
        elif verb == "fetch_card" and spec.get("when") == "now":
            for seat in who(spec.get("by", "traitor")):
                for card in spec["card"] if isinstance(spec["card"], list) else [spec["card"]]:
                    yield from self._fetch_now(seat, str(card), spec)
        elif verb == "fetch_card" and spec.get("when") == "next-omen-room-discovered":
            cards = spec["card"] if isinstance(spec["card"], list) else [spec["card"]]
            in_play = [c for c in cards if any(self.holds(x, c) for x in self.seat_ids)
                       or any(c in pile for pile in self.piles.values())]
            if spec.get("only_if_absent") and in_play:
                self.emit(rule, f"the {self.card_name(in_play[0])} is in play: no card is fetched", card=in_play[0])
            else:
                self.next_omen.append((side, tuple(cards)))
                self.emit(rule, f"the {side}' next omen-room discovery takes "
                          f"{' or '.join(self.card_name(c) for c in cards)} from the omen stack", side=side, cards=list(cards))
        elif verb == "fetch_card" and spec.get("when") in ("instead-of-item-draw", "instead-of-draw"):
            self.fetches.append((side, str(spec["card"]), str(spec.get("stack", "item"))))
            if "floor" in spec:
                self.fetch_floor[str(spec["card"])] = str(spec["floor"])
            self.emit(rule, f"while the {self.card_name(str(spec['card']))} is in the {spec.get('stack', 'item')} stack, "
                      f"the {side} may take it instead of drawing"
                      + (f" (on the {spec['floor']} floor)" if "floor" in spec else ""),
                      card=str(spec["card"]), kind=str(spec.get("stack", "item")), side=side, floor=spec.get("floor"))
        elif verb == "fetch_room":
            yield from self._fetch_room(spec)
        elif verb == "fetch_rooms":
            yield from self._fetch_rooms(spec)
        elif verb == "draw_choice":
            self.emit(rule, f"from now on the {side} draw {spec['draw']} {spec['stack']} cards, keep one and put the "
                      "others back, whenever they draw one", side=side, count=spec["draw"], kind=spec["stack"])
        elif verb == "traitor_in_play":
            self.emit(rule, "the traitor's explorer stays in play")
        elif verb == "conceal":
            yield from self._conceal(who(spec.get("who", "traitor")))
        elif verb == "extra_turn":
            seats = self._who(spec.get("who", "traitor"))
            self.extra_turns.extend(seats)
            for seat in seats:
                self.emit(rule, f"{self.name(seat)} takes an extra turn at once", seat=seat)
        elif verb == "start_track":
            self.track = self._amount(spec.get("at", 0))
            self.emit(rule, f"the Turn/Damage track starts at {self.track}", track=self.track)
        elif verb == "set_aside" and "monster" in spec:
            mdef = self.hs.monsters[str(spec["monster"])]
            self.emit(rule, f"{self.hs.amount(spec.get('count', 1), self.n)} {mdef.name} token(s) are set aside",
                      kind=mdef.id, count=self.hs.amount(spec.get('count', 1), self.n))
        elif verb == "set_aside":
            token = str(spec["token"])
            self.pool[token] = self.pool.get(token, 0) + self._amount(spec.get("count", 1))
            self.emit(rule, f"{self.pool[token]} {token} token(s) are set aside", token=token, count=self.pool[token])
        elif verb == "deal":
            if "traitor_number" in spec and (str(spec["token"]) in self.dealt or str(spec["token"]) in self.hands):
                return  # the hidden-traitor deal is done before the rest of the setup (_deal_hidden)
            yield from self._deal_tokens(str(spec["token"]), self.hs.amount(spec["count"], self.n), bool(spec.get("face_down")))
        elif verb == "scatter":
            yield from self._scatter(spec)
        elif verb == "first_player":
            self.emit(rule, f"first player: {str(spec).replace('-', ' ')}", value=str(spec))
        elif verb == "custom" and spec in registry.hook.setup:
            yield from registry.hook.setup[spec](self.as_haunt_state())
        else:
            raise NotImplementedError(f"haunt setup verb {verb!r}")

    def _place_tokens(self, spec: Mapping[str, Any]) -> Gen[None]:
        """``place`` of haunt tokens (a setup step, or an outcome: The Heir's later Assassins)."""
        rule = "haunt.setup-right-now"
        token = str(spec["token"])
        count = self._amount(spec.get("count", 1))
        where = spec["in"]
        if where.get("one_of") and "rooms" in where:
            yield from self._place_in_one_of(token, where)
            return
        if where.get("on_discovery") and where.get("extras") == "set-aside" and "rooms" in where:
            self._place_one_per_listed_room(token, count, where)
            return
        if where.get("on_discovery"):
            self._place_on_discovery(token, count, where)
            return
        if where.get("one_per_room") and ("any_room" in where or "symbols" in where):
            yield from self._place_tokens_apart(token, count, where)
            return
        if "any_room" in where or "symbols" in where:
            rooms = [(yield from self._location(where, set(), f"place the {token} token"))]
        else:
            rooms = self._rooms_for(where)
        for i in range(count if rooms else 0):
            spot = rooms[i % len(rooms)]
            self.htokens.setdefault(token, []).append(spot)
            self.emit(rule, f"a {token} token is placed in {self.room_name(spot)}", token=token, room=spot)

    def _place_tokens_apart(self, token: str, count: int, where: Mapping[str, Any]) -> Gen[None]:
        """Tokens one to a room (``one_per_room`` with ``any_room``): each goes in a room that
        fits and holds none of the kind yet, picked by ``chosen_by``; when no such room is left
        the rest are not placed. ``secret`` keeps the rooms from the table (the transcript
        records them)."""
        used = set(self.htokens.get(token, []))
        placed = 0
        for i in range(count):
            fits = self._fitting_rooms(where, used)
            if not fits:
                break
            room = fits[0]
            if len(fits) > 1 and "chosen_by" in where:
                assert self.haunt is not None
                chooser = self._who(where["chosen_by"]) or [str(self.haunt["revealer"])]
                a = yield from self.ask(chooser[0], [Action.of("place-in", room=r) for r in fits],
                                        f"place {token} {i + 1} of {count}")
                room = str(a["room"])
            used.add(room)
            self.htokens.setdefault(token, []).append(room)
            placed += 1
            said = f"secretly, {self.room_name(room)}" if where.get("secret") else self.room_name(room)
            self.emit("haunt.setup-right-now", f"a {token} token is placed ({said})", token=token, room=room)
        if placed < count:
            self.emit("haunt.setup-right-now", f"no room is left for {count - placed} {token} token(s)", token=token,
                      count=count - placed)

    def _fitting_rooms(self, where: Mapping[str, Any], used: set[str]) -> list[str]:
        """The rooms in the house a ``one_per_room`` placement may still use: of the floor or
        symbols asked, unoccupied if asked, never a ``not_rooms`` room, none already holding one."""
        rooms = sorted(self.house.spots) if "any_room" in where else \
            [r for r in sorted(self.house.spots) if self.t.rooms[r].symbol in where["symbols"]]
        if "floor" in where:
            rooms = [r for r in rooms if self.house.floor_of(r) == where["floor"]]
        if where.get("unoccupied"):
            taken = {self.ex[s].room for s in self.seat_ids if self.in_play(s)}
            rooms = [r for r in rooms if r not in taken]
        banned = set(where.get("not_rooms", ())) | set(self.collapsed)
        return [r for r in rooms if r not in banned and r not in used]

    def _place_on_discovery(self, token: str, count: int, where: Mapping[str, Any]) -> None:
        """Tokens for named rooms: in the room now if it is in the house, else when it is
        discovered (``on_discovery``); a ``secret`` placement does not say which rooms wait."""
        rooms = self._rooms_for(where)
        waiting = 0
        for i in range(count if rooms else 0):
            spot = rooms[i % len(rooms)]
            if spot in self.house.spots:
                self.htokens.setdefault(token, []).append(spot)
                self.emit("haunt.setup-right-now", f"a {token} token is placed in {self.room_name(spot)}", token=token, room=spot)
            else:
                self.waiting_tokens.append((token, spot))
                waiting += 1
        if waiting:
            where_ = "rooms not found yet" if where.get("secret") else \
                ", ".join(self.room_name(r) for t, r in self.waiting_tokens if t == token)
            self.emit("haunt.setup-right-now", f"{waiting} {token} token(s) wait for {where_}", count=waiting, token=token)

    def _assign(self, spec: Mapping[str, Any], who: Any) -> Gen[None]:
        """``assign``: each explorer of ``to`` (from the revealer's left) gets a different status of
        ``statuses``, picked by ``chosen_by``; with ``secret`` the table is told only that each was
        given one (the transcript, which records everything, names it)."""
        assert self.haunt is not None
        chooser = (who(spec["chosen_by"]) or [str(self.haunt["revealer"])])[0]
        left = [str(x) for x in spec["statuses"]]
        seats = [self.left_of(str(self.haunt["revealer"]), k) for k in range(1, self.n + 1)]
        if spec.get("pick") == "explorer":
            # the chooser picks who gets each status (The Heir: one other hero is the heir)
            for status in left:
                pool = [s for s in seats if s in who(spec["to"]) and not (spec.get("except_chooser") and s == chooser)
                        and status not in self.hstatus.get(s, [])]
                if not pool:
                    break
                a = yield from self.ask(chooser, [Action.of("assign", who=s, status=status) for s in pool],
                                        f"pick the explorer who is the {status}")
                self._assigned(chooser, str(a["who"]), status, bool(spec.get("secret")))
            return
        for seat in [s for s in seats if s in who(spec["to"])]:
            if not left:
                break
            a = yield from self.ask(chooser, [Action.of("assign", who=seat, status=x) for x in left],
                                    f"pick a status for {self.name(seat)}")
            status = str(a["status"])
            left.remove(status)
            self._assigned(chooser, seat, status, bool(spec.get("secret")))

    def _assigned(self, chooser: str, seat: str, status: str, secret: bool) -> None:
        """One status of an ``assign`` given: the transcript names it; ``secret`` says it is kept from the table."""
        self.hstatus.setdefault(seat, []).append(status)
        self.emit("haunt.setup-right-now", f"{self.name(chooser)} secretly gives {self.name(seat)} {status}"
                  if secret else f"{self.name(seat)} is given {status}", seat=seat, status=status, by=chooser if secret else None)

    def _place_in_one_of(self, token: str, where: Mapping[str, Any]) -> Gen[None]:
        """A token in one of the listed rooms (``one_of``), picked by ``chosen_by``: a room in the
        house must be picked over one not found yet; a token for a room not found yet waits for
        it (``on_discovery``), ``secret`` keeping which room from the table."""
        assert self.haunt is not None
        listed = [str(r) for r in where["rooms"]]
        if where.get("first_found") and not any(r in self.house.spots for r in listed):
            # none found yet: it waits for every listed room, the first discovered takes it
            self.waiting_tokens.extend((token, r) for r in listed)
            self.emit("haunt.setup-right-now", f"a {token} token waits for whichever of "
                      f"{', '.join(self.room_name(r) for r in listed)} is discovered first", token=token, rooms=listed)
            return
        options = [r for r in listed if r in self.house.spots] or listed
        chooser = (self._who(where.get("chosen_by", "traitor")) or [str(self.haunt["revealer"])])[0]
        room = options[0]
        if len(options) > 1:
            a = yield from self.ask(chooser, [Action.of("place-in", room=r) for r in options], f"place the {token} token")
            room = str(a["room"])
        # the transcript records the room; ``secret`` marks it as kept from the table
        said = f"secretly, {self.room_name(room)}" if where.get("secret") else self.room_name(room)
        if room in self.house.spots:
            self.htokens.setdefault(token, []).append(room)
            self.emit("haunt.setup-right-now", f"a {token} token is placed ({said})", token=token)
        else:
            self.waiting_tokens.append((token, room))
            self.emit("haunt.setup-right-now", f"a {token} token waits for its room to be discovered ({said})", token=token)

    def _place_one_per_listed_room(self, token: str, count: int, where: Mapping[str, Any]) -> None:
        """Tokens one to a room among listed rooms (``rooms`` with ``on_discovery`` and ``extras:
        set-aside``): each listed room in the house gets one - the farthest from the nearest
        explorer first when they outnumber the tokens -; the rest are set aside, and a listed room
        discovered later takes one of them while any are left (A Friend for the Ages' Paint)."""
        listed = [str(r) for r in where["rooms"]]
        dist = self._dist_to([self.ex[s].room for s in self.seat_ids if self.in_play(s)])
        here = sorted((r for r in listed if r in self.house.spots), key=lambda r: (-dist.get(r, 10_000), r))
        for room in here[:count]:
            self.htokens.setdefault(token, []).append(room)
            self.emit("haunt.setup-right-now", f"a {token} token is placed in {self.room_name(room)}", token=token, room=room)
        left = count - min(count, len(here))
        self.pool[token] = self.pool.get(token, 0) + left
        self.waiting_pool.extend((token, r) for r in listed if r not in self.house.spots)
        if left:
            self.emit("haunt.setup-right-now", f"{left} {token} token(s) are set aside for "
                      + ", ".join(self.room_name(r) for t, r in self.waiting_pool if t == token)
                      + " when discovered", count=left, token=token, rooms=[r for t, r in self.waiting_pool if t == token])

    def _place_in_listed_rooms(self, spec: Mapping[str, Any]) -> Gen[None]:
        """Monsters put one to a room among listed rooms (``rooms`` with ``on_discovery``): every
        listed room in play gets one (the chooser picks when the rooms outnumber the monsters);
        the rest wait and go into listed rooms as they are discovered (``note_new_room``)."""
        assert self.hs is not None
        mdef = self.hs.monsters[str(spec["monster"])]
        where = spec["in"]
        listed = tuple(str(r) for r in where["rooms"])
        count = self.hs.amount(spec.get("count", 1), self.n)
        free = [r for r in listed if r in self.house.spots]
        if len(free) > count:
            chooser = self._who(where.get("chosen_by", "traitor")) or [str(self.haunt["revealer"]) if self.haunt else ""]
            chosen: list[str] = []
            for i in range(count):
                left = [r for r in free if r not in chosen]
                a = yield from self.ask(chooser[0], [Action.of("place-in", room=r) for r in left],
                                        f"place {mdef.name} {i + 1} of {count}")
                chosen.append(str(a["room"]))
            free = chosen
        for room in free:
            self._add_monster(mdef, room)
        self.waiting.extend((mdef.id, listed) for _ in range(count - len(free)))
        if count > len(free):
            self.emit("haunt.setup-right-now", f"{count - len(free)} {mdef.name} token(s) wait for their rooms to be "
                      "discovered", kind=mdef.id, count=count - len(free))

    def _scatter(self, spec: Mapping[str, Any]) -> Gen[None]:
        """``scatter``: the distinct tokens are shuffled face down by chance and one goes in each
        room of the location (with more rooms than tokens, the floors take turns, so the tokens
        are spread as evenly as possible between them); the rest are set aside for rooms found
        later (``later: on-discovery``)."""
        tokens = [str(t) for t in spec["tokens"]]
        a = yield Req(CHANCE, Shuffle("scatter", tokens), "shuffle the tokens face down")
        order = [str(x) for x in a["order"]]  # type: ignore[union-attr]
        rooms = [r for r in self._rooms_for(spec["in"]) if r in self.house.spots]
        if len(rooms) > len(order) and spec.get("spread") == "even-by-floor":
            by_floor = [[r for r in rooms if self.house.floor_of(r) == f] for f in ("upper", "ground", "basement")]
            rooms = [r for i in range(max(map(len, by_floor))) for floor in by_floor if i < len(floor) for r in [floor[i]]]
        for room, token in zip(rooms, order, strict=False):
            self.htokens.setdefault(token, []).append(room)
        for token in order[len(rooms):]:
            self.pool[token] = self.pool.get(token, 0) + 1
        self.emit("haunt.setup-right-now", f"{min(len(rooms), len(order))} token(s) are put face down, one in each of "
                  f"{', '.join(self.room_name(r) for r in rooms[:len(order)])}; {max(0, len(order) - len(rooms))} set aside",
            rooms=list(rooms[:len(order)]))

    def _scatter_on_discovery(self, room: str) -> None:
        """A room found later that fits a ``scatter`` with ``later: on-discovery`` gets the next
        of the set-aside tokens, in the order the setup's shuffle left them (still face down)."""
        assert self.hs is not None
        for side in self.hs.sides().values():
            for step_ in side.setup:
                spec = step_.get("scatter")
                if not isinstance(spec, Mapping) or spec.get("later") != "on-discovery":
                    continue
                if room not in self._rooms_for(spec["in"]):
                    continue
                listed = {str(t) for t in spec["tokens"]}
                aside = [t for t, k in self.pool.items() if t in listed and k > 0]
                if not aside:
                    continue
                token = aside[0]
                self.pool[token] -= 1
                self.htokens.setdefault(token, []).append(room)
                self.emit("haunt.setup-right-now", f"{self.room_name(room)} is discovered: a token is put face down there", room=room)

    def _first_found_rivals(self, token: str, room: str) -> list[tuple[str, str]]:
        """The other waiting places of a token placed ``first_found`` among rooms including ``room``."""
        if self.hs is None:
            return []
        for side in self.hs.sides().values():
            for entry in side.setup:
                place = entry.get("place", {})
                where = place.get("in", {}) if isinstance(place, Mapping) else {}
                if place.get("token") == token and where.get("first_found") and room in where.get("rooms", ()):
                    return [x for x in self.waiting_tokens if x[0] == token and x[1] in where["rooms"]]
        return []

    def note_new_room(self, room: str) -> None:
        """A room found in the haunt phase receives the tokens and monsters waiting for it
        (``on_discovery``)."""
        super().note_new_room(room)
        if self.hs is not None:
            self._scatter_on_discovery(room)
        for token_entry in [x for x in self.waiting_tokens if x[1] == room]:
            self.waiting_tokens.remove(token_entry)
            self.htokens.setdefault(token_entry[0], []).append(room)
            self.emit("haunt.setup-right-now", f"{self.room_name(room)} is discovered: a {token_entry[0]} token is placed there",
                      room=room, token=token_entry[0])
            for rival in self._first_found_rivals(token_entry[0], room):
                self.waiting_tokens.remove(rival)  # ``first_found``: the other rooms wait no more
        for token_entry in [x for x in self.waiting_pool if x[1] == room]:
            self.waiting_pool.remove(token_entry)
            if self.pool.get(token_entry[0], 0) > 0:
                self.pool[token_entry[0]] -= 1
                self.htokens.setdefault(token_entry[0], []).append(room)
                self.emit("haunt.setup-right-now", f"{self.room_name(room)} is discovered: a set-aside "
                          f"{token_entry[0]} token is placed there", room=room)
        if self.hs is None or not self.waiting:
            return
        for entry in self.waiting:
            kind, rooms = entry
            if room in rooms and not any(m.room == room and m.kind == kind for m in self.mon):
                self.waiting.remove(entry)
                mdef = self.hs.monsters[kind]
                self._add_monster(mdef, room)
                for partner in self.hs.monsters.values():
                    if partner.paired_with == kind:
                        self._add_monster(partner, room)
                return

    def _fetch_now(self, seat: str, card: str, spec: Mapping[str, Any]) -> Gen[None]:
        """``fetch_card`` at once: nothing if the explorer holds the card; with ``from_anyone``,
        taken from whoever holds it or from the pile it lies in; else searched for in its stack."""
        if self.holds(seat, card):
            self.emit("haunt.setup-right-now", f"{self.name(seat)} already has the {self.card_name(card)}", seat=seat, card=card)
            return
        if spec.get("from_anyone"):
            holder = next((s for s in self.seat_ids if s != seat and card in self.ex[s].cards), None)
            if holder is not None:
                self.ex[holder].cards.remove(card)
                yield from effects.lose_card(self, holder, card)
                self.ex[seat].cards.append(card)
                self.emit("haunt.setup-right-now", f"{self.name(seat)} takes the {self.card_name(card)} from {self.name(holder)}",
                    seat=seat, card=card, owner=holder)
                yield from effects.gain_card(self, seat, card)
                return
            room = next((r for r, pile in sorted(self.piles.items()) if card in pile), None)
            if room is not None:
                self.piles[room].remove(card)
                if not self.piles[room]:
                    del self.piles[room]
                self.ex[seat].cards.append(card)
                self.emit("haunt.setup-right-now", f"{self.name(seat)} takes the {self.card_name(card)} lying in "
                          f"{self.room_name(room)}", seat=seat, card=card, room=room)
                yield from effects.gain_card(self, seat, card)
                return
        yield from self._outcome({"fetch_card": {"card": card, "stack": spec.get("stack", "item")}}, seat, None)

    def _fetch_first(self, seat: str, spec: Mapping[str, Any]) -> Gen[None]:
        """``fetch_card`` with ``first_found``: the stack is gone through from the top and the
        first of the listed cards met is taken, then the stack is shuffled (Comes the Hero: the
        first weapon). The stack is a set drawn by chance, so the card met first is a known top
        card if one is listed, else a chance pick among the listed cards still in it."""
        kind = str(spec.get("stack", "item"))
        cards = [str(c) for c in spec["card"]]
        known = [c for c in self.deck_tops[kind] if c in cards and c in self.decks[kind]]
        hidden = sorted(c for c in set(self.decks[kind]) if c in cards and c not in self.deck_tops[kind])
        if not known and not hidden:
            self.emit("haunt.setup-right-now", f"none of {', '.join(cards)} is in the {kind} stack: nothing is found",
                      cards=cards, stack=kind)
            return
        card = known[0] if known else (yield from self.draw_from(hidden, "card", f"the first of them in the {kind} stack"))
        self.decks[kind].remove(card)
        self.deck_tops[kind] = []  # the stack is shuffled: no card's place in it is known any more
        self.ex[seat].cards.append(card)
        self.emit("haunt.setup-right-now", f"{self.name(seat)} goes through the {kind} stack and takes the "
                  f"{self.card_name(card)}, the first of them met; the stack is shuffled", seat=seat, card=card, stack=kind)
        yield from effects.gain_card(self, seat, card)

    def _fetch_rooms(self, spec: Mapping[str, Any]) -> Gen[None]:
        """``fetch_rooms``: the listed rooms missing from the house are searched from the stack
        until ``until`` of them are in the house - with ``chosen_by``, the chooser takes one still in
        the stack at a time, and ``shuffle`` shuffles the stack after; else in list order, each placed
        by ``place``."""
        if "chosen_by" in spec:
            yield from self._fetch_rooms_chosen(spec)
            return
        rooms = [str(r) for r in spec["rooms"]]
        need = self._amount(spec["until"])
        for room in rooms:
            have = sum(1 for r in rooms if r in self.house.spots)
            if have >= need:
                break
            if room not in self.house.spots:
                yield from self._fetch_room({"room": room, "place": spec.get("place", {})})
        have = sum(1 for r in rooms if r in self.house.spots)
        self.emit("discover.placed-room-no-draw", f"{have} of the rooms {', '.join(self.room_name(r) for r in rooms)} "
                  f"are in the house ({need} needed)", count=have, rooms=list(rooms), need=need)

    def _fetch_rooms_chosen(self, spec: Mapping[str, Any]) -> Gen[None]:
        """``fetch_rooms`` with ``chosen_by``: one room at a time, the chooser's pick."""
        assert self.haunt is not None
        rooms = [str(r) for r in spec["rooms"]]
        need = self._amount(spec["until"])
        chooser = self._who(spec.get("chosen_by", "revealer")) or [str(self.haunt["revealer"])]
        tried: set[str] = set()
        while sum(1 for r in rooms if r in self.house.spots) < need:
            left = [r for r in rooms if r not in tried and r not in self.house.spots and (r in self.stack or r in self.aside)]
            if not left:
                self.emit("discover.placed-room-no-draw", "no more of those rooms can be taken from the stack")
                break
            a = yield from self.ask(chooser[0], [Action.of("room", room=r) for r in left], "take which room from the stack")
            room = str(a["room"])
            tried.add(room)
            yield from self._fetch_room({"room": room})
        if spec.get("shuffle"):
            self.room_top = None
            self.emit("discover.placed-room-no-draw", "the room stack is shuffled")

    def _fetch_room(self, spec: Mapping[str, Any]) -> Gen[None]:
        """Search the room stack for a tile and place it at an open doorway (``fetch_room``)."""
        assert self.haunt is not None
        room = str(spec["room"])
        rule = "discover.placed-room-no-draw"
        if room in self.house.spots:
            self.emit(rule, f"{self.room_name(room)} is already in the house", room=room)
            return
        present = [r for r in spec.get("unless_in_house", []) if r in self.house.spots]
        if present:
            self.emit(rule, f"{self.room_name(present[0])} is already in the house: {self.room_name(room)} is not fetched",
                other=present[0], room=room)
            return
        if room not in self.stack and room not in self.aside:
            self.emit(rule, f"{self.room_name(room)} is not in the room stack", room=room)
            return
        place = spec.get("place", {})
        rdef = self.t.rooms[room]
        floors = [f for f in ([place["floor"]] if "floor" in place else list(rdef.floors)) if f in rdef.floors]
        options = [(f, p) for f in floors for p in self.house.open_spots(room, f, keep_open=self.others_remain(f, room))]
        if not options:
            self.emit(rule, f"{self.room_name(room)} has no open doorway to go to", room=room)
            return
        far = place.get("as_far_as_possible_from") or place.get("min_tiles_from", {}).get("from")
        if far:
            dist = self._dist_to([self.ex[s].room for s in self._who(far.get("who"))])

            def reach(option: tuple[str, Any]) -> int:
                floor, p = option
                near = [self.house.room_at(floor, step(p.cell, side)) for side in range(4)]
                return max(dist.get(r, 999) for r in near if r is not None)

            need = place.get("min_tiles_from", {}).get("tiles")
            enough = [o for o in options if need is not None and reach(o) + 1 >= int(need)]
            if enough:
                options = enough
            else:
                best = max(reach(o) for o in options)
                options = [o for o in options if reach(o) == best]
        chooser = self._who(place.get("chosen_by", "revealer")) or [str(self.haunt["revealer"])]
        acts = effects.placement_actions(options)
        a = yield from self.ask(chooser[0], acts, f"place {room}")
        floor, p = options[acts.index(a)]
        self.put_tile(room, floor, p.cell, p.rotation)
        self.emit(rule, f"{self.room_name(room)} is taken from the stack and placed on the {floor} floor", room=room, floor=floor)
        self.note_new_room(room)

    def _room_from_stack(self, where: Mapping[str, Any], what: str) -> Gen[str | None]:
        """``if_none: from-room-stack``: no room in the house fits, so tiles are turned up until one
        fits the ``floor`` (and ``symbols``) and can be placed there; the others go back and the
        stack is shuffled. The stack is kept as a set drawn by chance, so the first fitting tile
        turned up is a chance draw among the fitting tiles."""
        assert self.haunt is not None
        floor = str(where.get("floor", "ground"))
        symbols = where.get("symbols")
        fits = [t for t in sorted(set(self.stack)) if floor in self.t.rooms[t].floors
                and (symbols is None or self.t.rooms[t].symbol in symbols)
                and self.house.open_spots(t, floor, keep_open=self.others_remain(floor, t))]
        if not fits:
            self.emit("haunt.setup-right-now", f"no tile in the room stack fits the {floor} floor for {what}", floor=floor)
            return None
        tile = yield from self.draw_from(fits, "tile", f"turn up room tiles until one fits the {floor} floor")
        options = [(floor, p) for p in self.house.open_spots(tile, floor, keep_open=self.others_remain(floor, tile))]
        chooser = self._who(where.get("chosen_by", "traitor")) or [str(self.haunt["revealer"])]
        acts = effects.placement_actions(options)
        a = yield from self.ask(chooser[0], acts, f"place {tile}")
        _, p = options[acts.index(a)]
        self.put_tile(tile, floor, p.cell, p.rotation)
        self.emit("discover.placed-room-no-draw", f"{self.room_name(tile)} is turned up from the room stack and placed "
                  f"on the {floor} floor; the stack is shuffled", room=tile, floor=floor)
        self.note_new_room(tile)
        return tile


    def _location(self, where: Mapping[str, Any], used: set[str], what: str) -> Gen[str]:
        """A room for a setup placement (the location vocabulary of haunt-format.md)."""
        assert self.haunt is not None
        rooms: list[str]
        if "room" in where:
            rooms = [str(where["room"])]
        elif "room_of" in where:
            who = self._who(where["room_of"])
            rooms = [self.ex[who[0]].room] if who else [str(self.haunt["room"])]
            if len(who) > 1 and "chosen_by" in where:
                rooms = sorted({self.ex[s].room for s in who})  # the chooser picks whose room
        elif "haunt_room" in where:
            rooms = [str(self.haunt["room"])]
        elif "room_of_holder" in where:
            holder = [s for s in self.seat_ids if self.holds(s, str(where["room_of_holder"]))]
            rooms = [self.ex[holder[0]].room] if holder else [str(self.haunt["room"])]
        elif "symbol" in where:
            # judgement: with no room of the symbol in the house, any room will do
            rooms = [r for r in sorted(self.house.spots) if self.t.rooms[r].symbol == where["symbol"]] \
                or sorted(self.house.spots)
        elif "symbols" in where:
            rooms = [r for r in sorted(self.house.spots) if self.t.rooms[r].symbol in where["symbols"]]
        elif "next_to_room" in where:
            rooms = self._rooms_for(where) or [str(self.haunt["room"])]
        elif "room_with_monster" in where or "room_with_token" in where:
            rooms = [r for r in self._rooms_for(where) if r in self.house.spots] or [str(self.haunt["room"])]
        elif "rooms" in where and "otherwise" in where and not any(r in self.house.spots for r in where["rooms"]):
            # none of the named rooms is in the house: the placement's own second choice
            return (yield from self._location(where["otherwise"], used, what))
        elif "rooms" in where:
            # one of the named rooms in the house (a fetch_room step before makes sure one is)
            rooms = [str(r) for r in where["rooms"] if r in self.house.spots] or [str(self.haunt["room"])]
        else:
            rooms = sorted(self.house.spots)
        if where.get("same_floor_as") == "haunt-room":
            floor = self.house.floor_of(str(self.haunt["room"]))
            rooms = [r for r in rooms if self.house.floor_of(r) == floor]
        if "floor" in where:
            rooms = [r for r in rooms if self.house.floor_of(r) == where["floor"]]
        if where.get("unoccupied"):
            taken = {self.ex[s].room for s in self.seat_ids if self.in_play(s)}
            rooms = [r for r in rooms if r not in taken]
        if "not_rooms" in where:
            rooms = [r for r in rooms if r not in where["not_rooms"]]
        if not rooms and where.get("if_none") == "from-room-stack":
            found = yield from self._room_from_stack(where, what)
            if found is not None:
                return found
            rooms = [str(self.haunt["room"])]  # judgement: nothing fits anywhere: the haunt's own room
        if not rooms:
            rooms = [str(self.haunt["room"])]  # judgement: no room fits the constraints: the haunt's own room
        if "min_tiles_from" in where:
            far = where["min_tiles_from"]
            source = far.get("from", {})
            starts = [m.room for m in self.active_monsters() if m.kind == source.get("monster")] if "monster" in source \
                else [self.ex[s].room for s in self.seat_ids if self.in_play(s)] if source.get("who") == "explorers" \
                else [self.ex[s].room for s in self._who(source.get("who"))]
            dist = self._dist_to(starts)
            enough = [r for r in rooms if dist.get(r, 999) >= int(far["tiles"])]
            if not enough and where.get("fallback") == "as-far-as-possible" and rooms:
                # judgement: tiles are counted as spaces of movement
                best = max(dist.get(r, 999) for r in rooms)
                enough = [r for r in rooms if dist.get(r, 999) == best]
            rooms = enough or rooms
        if where.get("one_per_room"):
            free = [r for r in rooms if r not in used]
            if not free and where.get("cycle") and rooms:
                used.clear()  # every listed room has one: the order starts again
                free = list(rooms)
            if not free and "overflow" in where:
                bad = where["overflow"].get("without_symbol")
                free = [r for r in sorted(self.house.spots) if self.t.rooms[r].symbol != bad and r not in used]
            rooms = free or rooms
        if len(rooms) == 1 or "chosen_by" not in where:
            return rooms[0]
        chooser = self._who(where["chosen_by"]) or [str(self.haunt["revealer"])]
        a = yield from self.ask(chooser[0], [Action.of("place-in", room=r) for r in rooms], what)
        return str(a["room"])


#: The "Right Now" step verbs :meth:`SetupSteps._setup_step` carries out (``playable.py`` reads it).
SETUP_VERBS = frozenset({
    "remove_explorer", "drop_items", "place", "assign", "discard_card", "become", "set_aside_card", "do",
    "spend_trait_points", "fetch_card", "fetch_room", "traitor_in_play", "extra_turn", "start_track", "set_aside", "deal",
    "first_player", "custom", "scatter", "trait_values"}) | frozenset({"fetch_rooms", "draw_choice", "conceal"})
