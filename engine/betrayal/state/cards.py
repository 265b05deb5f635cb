"""Card draws (``card.*``), and the items an explorer trades, drops and picks up (``item.*``).

A drawn card is read at once: an omen counts toward the haunt roll, an event is carried out and
discarded unless it stays, an item or omen is kept. Items are traded (the other player accepts or
refuses), dropped and picked up at most once per turn each; companions cannot be dropped.
"""

from __future__ import annotations

import functools

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.state.base import Explorer, Gen
from hauntcheck.engine.betrayal.state.traits import Traits
from hauntcheck.engine.core import Action, act


class Cards(Traits):
    """Card draws, and the items an explorer trades, drops and picks up."""

    def _item_actions(self, seat: str, e: Explorer) -> list[Action]:
        out: list[Action] = []
        t = self.turn
        last = t.last
        if not e.cards and not self.piles.get(e.room):
            return out
        if not t.dropped or last == "drop":
            for c in e.cards:
                cd = self.t.cards[c]
                if cd.can_drop and c not in t.items_acted:
                    out.append(act("drop", "card", c))
        if not t.picked or last == "pickup":
            for c in self.piles.get(e.room, ()):
                if c not in t.items_acted and self.t.cards[c].item:  # a companion left here is taken by custody
                    out.append(act("pickup", "card", c))
        if not t.traded:
            tradeable = [c for c in e.cards if self.t.cards[c].can_trade and c not in t.items_acted]
            # who is here to trade with is looked for only with something to trade
            others = [s for s, o in sorted(self.ex.items())
                      if s != seat and o.room == e.room and o.part == e.part and not o.dead] if tradeable else []
            for c in tradeable:
                for o in others:
                    if f"refused:{c}:{o}" not in t.keys:
                        out.append(trade_action(c, o))
        return out

    def _item_action(self, seat: str, a: Action) -> Gen[None]:
        e = self.ex[seat]
        card = str(a["card"])
        self.turn.items_acted.add(card)
        if a.kind == "drop":
            self.turn.dropped = True
            e.cards.remove(card)
            self.piles.setdefault(e.room, []).append(card)
            if not self.quiet:  # the text is work: skipped when nobody reads the events
                self.emit("item.drop-once-per-turn", f"{self.name(seat)} drops {self.card_name(card)} in "
                          f"{self.room_name(e.room)} (item pile)", seat=seat, card=card, room=e.room)
            yield from effects.lose_card(self.as_betrayal_state(), seat, card)
        elif a.kind == "pickup":
            self.turn.picked = True
            self.piles[e.room].remove(card)
            e.cards.append(card)
            if not self.quiet:  # the text is work: skipped when nobody reads the events
                self.emit("item.pickup-once-per-turn", f"{self.name(seat)} picks up {self.card_name(card)} from the pile in "
                          f"{self.room_name(e.room)}", seat=seat, card=card, room=e.room)
            if not self.piles[e.room]:
                del self.piles[e.room]
            yield from effects.gain_card(self.as_betrayal_state(), seat, card)
        else:
            to = str(a["to"])
            answer = yield from self.ask(to, [Action.of("accept", card=card), Action.of("refuse", card=card)],
                                         f"accept {card} from {seat}")
            if answer.kind == "refuse":
                self.emit("item.trade-once-per-turn", f"{self.name(to)} refuses {self.card_name(card)} from {self.name(seat)}",
                    to=to, card=card, seat=seat)
                self.turn.items_acted.discard(card)
                self.turn.keys.add(f"refused:{card}:{to}")
                return
            self.turn.traded = True
            e.cards.remove(card)
            self.ex[to].cards.append(card)
            self.emit("item.trade-once-per-turn", f"{self.name(seat)} trades {self.card_name(card)} to {self.name(to)}",
                seat=seat, card=card, to=to)
            yield from effects.lose_card(self.as_betrayal_state(), seat, card)
            yield from effects.gain_card(self.as_betrayal_state(), to, card)

    def draw_card(self, seat: str, kind: str, ctx_room: str | None = None) -> Gen[str | None]:
        """Draw the top card of a stack into the explorer's hands and resolve it."""
        if self.ex[seat].dead:
            return None
        if seat == self.current and not self.turn.stopped:
            self.turn.stopped = True
            self.turn.stop_rule = "move.card-ends-movement"
            if not self.quiet:  # the text is work: skipped when nobody reads the events
                self.emit("move.card-ends-movement", f"drawing a card ends {self.name(seat)}'s movement this turn", seat=seat)
                self.emit("card.actions-after-draw", f"only the movement ends: {self.name(seat)} may still use items and take "
                          "other actions this turn", seat=seat)
        if not self.decks[kind]:
            if not self.discards[kind]:
                self.emit(self.rule_or("card.empty-stack-reshuffle", "glossary.stack"),
                          f"the {kind} stack and its discards are empty: no card is drawn", kind=kind)
                return None
            self.decks[kind] = sorted(self.discards[kind])
            self.discards[kind] = []
            self.emit(self.rule_or("card.empty-stack-reshuffle", "haunt.no-rule-agree"),
                      f"the {kind} stack ran out: its discards are shuffled into a new stack", kind=kind)
        card = yield from self.top_card(kind)
        e = self.ex[seat]
        room = ctx_room or e.room
        if kind == "omen":
            self.omens_drawn += 1
            if seat == self.current:
                self.turn.omens.append((card, room))
            e.cards.append(card)
            self.emit("omen.kept-face-up", f"{self.name(seat)} draws the omen {self.card_name(card)} in "
                      f"{self.room_name(room)} (omen {self.omens_drawn} of the game)",
                seat=seat, card=card, room=room, omens=self.omens_drawn)
            yield from effects.card_drawn(self.as_betrayal_state(), seat, card)
            if card in e.cards:
                yield from effects.gain_card(self.as_betrayal_state(), seat, card)
        elif kind == "item":
            e.cards.append(card)
            self.emit("item.kept-face-up", f"{self.name(seat)} draws the item {self.card_name(card)}", seat=seat, card=card)
            if seat == self.current and any(ab.get("trigger") == "on-use" for ab in self.t.cards[card].abilities):
                self.emit("item.use-on-draw-and-each-turn", f"{self.name(seat)} may use the {self.card_name(card)} "
                          "once now, as this turn's use, and once in each later turn", seat=seat, card=card)
            yield from effects.card_drawn(self.as_betrayal_state(), seat, card)
            if card in e.cards:
                yield from effects.gain_card(self.as_betrayal_state(), seat, card)
        else:
            if not self.quiet:  # the text is work: skipped when nobody reads the events
                self.emit("card.read-aloud", f"{self.name(seat)} draws the event {self.card_name(card)}", seat=seat, card=card)
            self.resolving.append(card)
            kept = yield from effects.card_drawn(self.as_betrayal_state(), seat, card)
            if card in self.resolving:
                self.resolving.remove(card)
            if card in self.discards["event"] or card in e.kept or card in self.token_cards:
                pass
            elif kept == "player":
                e.kept.append(card)
            elif kept == "house":
                self.token_cards.append(card)
            else:
                self.discards["event"].append(card)
                self.emit("event.resolve-and-discard", f"{self.card_name(card)} is resolved and discarded", card=card)
        return card


@functools.cache
def trade_action(card: str, to: str) -> Action:
    """``trade card=<card> to=<seat>``, built once: a hand that can be traded is offered again at
    every decision of the turn."""
    return Action("trade", (("card", card), ("to", to)))
