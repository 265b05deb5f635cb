"""Setting up (rules ``setup.*``): each player's stronger stat and the cards dealt to start.
"""

from __future__ import annotations

from hauntcheck.engine.core import Event
from hauntcheck.engine.haunted.turns import TurnRules


class SetupRules(TurnRules):
    """Choosing BODY or WILL, and the deal."""

    # ---------------------------------------------------------------- setup

    def _stronger(self, stat: str, events: list[Event]) -> None:
        i = self._next_stronger()
        p = self.players[i]
        su = self.st.setup
        p.strong = stat
        p.body = su.strong if stat == "body" else su.weak
        p.will = su.strong if stat == "will" else su.weak
        events.append(self._ev("setup.stats", f"{self._seat(i)} is stronger in {stat.upper()}: WILL {p.will}, BODY {p.body}",
            seat=self._seat(i), trait=stat, will=p.will, body=p.body))
        if self.st.solo:
            p.fear = su.solo_fear
            events.append(self._ev("solo.setup", f"{self._seat(i)} FEAR starts at {p.fear}", seat=self._seat(i), fear=p.fear))
        else:
            p.fear = self.n if su.fear == "players" else int(su.fear)
            events.append(self._ev("setup.fear", f"{self._seat(i)} FEAR starts at {p.fear} (number of players)",
                seat=self._seat(i), fear=p.fear))
        if all(q.strong is not None for q in self.players):
            events.append(self._ev("setup.questions-open", "every question starts unanswered"))
            centre = self.st.centre
            self.table[centre] = True
            self.adj[centre] = set()
            # The centre Ace is a Way Out everyone can see from the start: the first of the four
            # Exits that end.all-exits and multi.no-early-escape count.
            self.exits_revealed.append(centre)
            held = [c for c in self.st.canonical if c != centre and self.st.cards[c].role != "room"]
            jokers = [c for c in held if self.st.cards[c].role == "trap"]
            if self.st.solo and not su.solo_jokers:
                self.out = jokers
                held = [c for c in held if c not in jokers]
                events.append(self._ev("solo.setup", "the Jokers are left out of the solo game"))
            self.held_out = held
            self.deck = [c for c in self.st.canonical if self.st.cards[c].role == "room"]
            events.append(self._ev("setup.center", f"{centre} is placed face up in the centre; {len(self.deck)} cards are shuffled",
                centre=centre, count=len(self.deck)))
            doors = su.solo_secret_doors if self.st.solo else su.secret_doors
            self.deal = [("cross", 0)] * su.cross
            self.deal += [("secret", i) for i in range(self.n) for _ in range(doors)]
            self.deal += [("start", i) for i in range(self.n)]
            if self.st.solo:
                events.append(self._ev("solo.setup", "no Secret Doors are dealt in the solo game"))
            self.step = "deal"

    def _dealt(self, card: str, events: list[Event]) -> None:
        what, i = self.deal.pop(0)
        centre = self.st.centre
        if what == "cross":
            self.table[card] = False
            self.adj[card] = {centre}
            self.adj[centre].add(card)
            events.append(self._ev("setup.cross", f"{card} is dealt face down against {centre}", card=card, centre=centre))
        elif what == "secret":
            self.players[i].secret.append(card)
            events.append(self._ev("setup.secret-doors", f"{self._seat(i)} is dealt a Secret Door", seat=self._seat(i)))
        else:
            self.table[card] = True
            self.adj[card] = set()
            self.players[i].pos = card
            events.append(self._ev("setup.starting-room", f"{self._seat(i)} starts in {card}", seat=self._seat(i), card=card))
        if self.deal:
            return
        self.aside_left = self.st.setup.set_aside * self.n
        events.append(self._ev("setup.set-aside", f"{self.aside_left} cards are set aside", count=self.aside_left))
        self.deck = sorted(self.deck + self.held_out, key=self._key)
        self.held_out = []
        events.append(
            self._ev(
                "setup.reshuffle",
                f"the Aces and Jokers are shuffled in and the set-aside cards go on top; the deck holds {len(self.deck)}",
                count=len(self.deck),
            )
        )
        su = self.st.suit_rank

        def key(i: int) -> tuple[int, int]:
            card = self.st.cards[self.players[i].pos or ""]
            return (card.value, su[card.suit or ""])

        first = min(range(self.n), key=key)
        events.append(
            self._ev("start.first-player", f"{self._seat(first)} has the lowest starting Room ({self.players[first].pos}) and goes first",
                seat=self._seat(first), at=self.players[first].pos)
        )
        self.active = first
        self._begin_turn(events)
