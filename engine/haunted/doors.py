"""Moving, Doors and traps (rules ``move.*``, ``door.*``, ``trap.*``): moving between Rooms,
opening a Door (from the deck or a Secret Door), declaring Color or Suit, connecting the new
card, entering a Room, and a trapped player's card.
"""

from __future__ import annotations

from hauntcheck.engine.core import Action, Event
from hauntcheck.engine.haunted.exits import WayOutRules


class DoorRules(WayOutRules):
    """Moves, Doors and traps."""

    # ---------------------------------------------------------------- moving and doors

    def _move(self, to: str, events: list[Event]) -> None:
        i = self.active
        p = self.players[i]
        events.append(self._ev("move.adjacent", f"{self._seat(i)} moves from {p.pos} to {to}", seat=self._seat(i), origin=p.pos, to=to))
        p.pos = to
        if not self.table[to]:
            events.append(self._ev("table.face-down-entry", f"{to} is face down: {self._seat(i)} opens it in place",
                to=to, seat=self._seat(i)))
            self.pending = to
            self.door_from = "in-place"
            self.step = "declare"
            return
        events.append(self._ev("move.revealed-no-effect", f"{to} is already revealed: no effect", to=to))
        self._enter(to, False, events)

    def _open(self, events: list[Event]) -> None:
        i = self.active
        events.append(self._ev("door.open", f"{self._seat(i)} opens a new Door", seat=self._seat(i)))
        self.door_from = "deck"
        order = [(i + k) % self.n for k in range(self.n)]
        self.polls = [j for j in order if self.players[j].secret]
        self.step = "secret" if self.polls else "declare"

    def _play_secret(self, card: str, bonus: str | None, events: list[Event]) -> None:
        j = self.polls[0]
        self.polls = []
        self.players[j].secret.remove(card)
        self.pending = card
        self.door_from = "secret"
        self.secret_by = j
        self.secret_bonus = bonus
        target = "themself" if j == self.active else self._seat(self.active)
        events.append(self._ev("secret.play", f"{self._seat(j)} plays a Secret Door on {target}", target=self._seat(j)))
        self.step = "declare"

    def _declare(self, aspect: str, events: list[Event]) -> None:
        i = self.active
        seat = self._seat(i)
        self.aspect = aspect
        events.append(self._ev("door.declare", f"{seat} declares {aspect.capitalize()}", seat=seat, aspect=aspect))
        if self.door_from == "secret":
            events.append(self._ev("secret.still-declare", f"the Secret Door {self.pending} is turned over for {seat}",
                card=self.pending, seat=seat))
        elif self.door_from == "deck":
            self.step = "reveal"
            return
        self._resolve_door(events)

    def _resolve_door(self, events: list[Event]) -> None:
        i = self.active
        seat = self._seat(i)
        aspect = self.aspect
        card_id = self.pending
        assert card_id is not None
        card = self.st.cards[card_id]
        if self.door_from == "in-place":
            self.table[card_id] = True
            events.append(self._ev("table.face-down-entry", f"{card_id} is turned face up", card=card_id))
        if card.role == "way-out":
            events.append(self._ev("door.no-chart-for-exits-and-traps", f"{card_id} is an Ace: no chart effect", card=card_id))
        elif card.role == "trap":
            events.append(self._ev("door.no-chart-for-exits-and-traps", f"{card_id} is a Joker: no chart effect", card=card_id))
        elif aspect == "color":
            colour = card.colour or ""
            match = sorted(
                (c for c in self.table if c != card_id and self.table[c] and self.st.cards[c].rank == card.rank),
                key=self._key,
            )
            if match:
                stat = "body" if colour == "black" else "will"
                events.append(self._ev("door.color-match", f"{card.rank} is already on the table ({match[0]}): +1 {stat.upper()} instead",
                    card=card_id, trait=stat))
                self._change(i, stat, 1, "matching value", events)
            else:
                entry = self.st.charts.colour[colour][card.rank]
                events.append(self._ev("door.color", f"{card_id} on the {colour.capitalize()} chart: the {entry.room}",
                    card=card_id, colour=colour, room=entry.room))
                self._apply_entry(i, entry, f"{colour} chart", events)
        else:
            entry = self.st.charts.suit[card.suit or ""][card.rank]
            events.append(self._ev("door.suit", f"{card_id} on the {card.suit} chart: the {entry.room}",
                card=card_id, suit=card.suit, room=entry.room))
            self._apply_entry(i, entry, f"{card.suit} chart", events)
        if self.door_from == "secret" and self.secret_by == i and self.secret_bonus is not None:
            events.append(self._ev("secret.self-bonus", f"{seat} played the Secret Door on themself: +1 {self.secret_bonus.upper()}",
                seat=seat, trait=self.secret_bonus))
            self._change(i, self.secret_bonus, 1, "Secret Door on themself", events)
        self.secret_by = None
        self.secret_bonus = None
        if card.role == "way-out":
            events.append(self._ev("door.ace-way-out", f"{card_id} is a Way Out", card=card_id))
            self._note_exit_revealed(card_id, events)
        if self.door_from == "in-place":
            self._enter(card_id, True, events)
            return
        pos = self.players[i].pos
        assert pos is not None
        self.table[card_id] = True
        self.adj[card_id] = {pos}
        self.adj[pos].add(card_id)
        events.append(self._ev("door.place", f"{card_id} is placed against {pos}", card=card_id, at=pos))
        if self._connect_targets(card_id, pos):
            self.step = "connect"
            return
        self._enter(card_id, True, events)

    def _connect(self, target: str | None, events: list[Event]) -> None:
        card = self.pending
        assert card is not None
        if target is not None:
            if len(self.adj[target]) >= self.st.setup.edges:
                events.append(self._ev("table.adjacency", f"{target} has no free edge: the cards are moved to make the connection",
                    target=target))
            self.adj[card].add(target)
            self.adj[target].add(card)
            events.append(self._ev("door.connect", f"{card} is connected to {target}", card=card, target=target))
        self._enter(card, True, events)

    def _enter(self, card: str, revealed_now: bool, events: list[Event]) -> None:
        i = self.active
        seat = self._seat(i)
        p = self.players[i]
        p.pos = card
        self.pending = None
        if revealed_now:
            events.append(self._ev("door.enter", f"{seat} enters {card}", seat=seat, card=card))
        role = self.st.cards[card].role
        if role == "trap":
            if revealed_now:
                events.append(self._ev("door.joker-trap", f"{card} is a Trap", card=card))
                p.trapped = True
                self.milestones.add("trap")
                events.append(self._ev("trap.trapped", f"{seat} is trapped in {card}", seat=seat, card=card))
            else:
                self._rescue(i, card, events)
        elif role == "way-out":
            if not revealed_now:
                events.append(self._ev("exit.revisit", f"{seat} moves onto the revealed Way Out {card}", seat=seat, card=card))
            if self.st.multilevel and card not in self.levels:
                self._new_level(card, events)
            self._exit(i, card, events)
            return
        else:
            self._rescue(i, card, events)
        self._end_turn(events)

    # ---------------------------------------------------------------- traps

    def _trap_play(self, action: Action, events: list[Event]) -> None:
        i = self.active
        card = self.pending
        assert card is not None
        p = self.players[i]
        assert p.pos is not None
        if action.kind == "play-face-up":
            target = str(action["connect"])
            self.table[card] = True
            self.adj[card] = {p.pos, target}
            self.adj[p.pos].add(card)
            self.adj[target].add(card)
            events.append(self._ev("trap.play-face-up", f"{self._seat(i)} plays {card} face up against {p.pos}, connected to {target}",
                seat=self._seat(i), card=card, at=p.pos, target=target))
            if self.st.cards[card].role == "way-out":
                self._note_exit_revealed(card, events)
        elif action.kind == "play-face-down":
            beside = str(action["beside"])
            self.table[card] = False
            self.adj[card] = {beside}
            self.adj[beside].add(card)
            events.append(self._ev("trap.play-face-down", f"{self._seat(i)} plays a card face down against {beside}",
                seat=self._seat(i), beside=beside))
        else:
            self.discard.append(card)
            events.append(self._ev("trap.play-face-down", f"no card has a free edge: {self._seat(i)} discards the drawn card",
                seat=self._seat(i)))
        self.pending = None
        self._end_turn(events)
