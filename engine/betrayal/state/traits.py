"""Traits on their tracks (``trait.*``), death at the skull (``death.*``), task rolls.

A trait moves by steps along its track, stopping at the track's maximum (points over the top are
kept for the card that gave them, ``item.over-the-top``) and, before the haunt, at its lowest
value; after the reveal a trait at the skull kills, and the dead explorer's items stay as a pile
in their room (companions for the next explorer to take custody of).
"""

from __future__ import annotations

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.effects import Ctx
from hauntcheck.engine.betrayal.state.base import Gen, StateBase


class Traits(StateBase):
    """Traits on their tracks, death at the skull, task rolls."""

    def trait_change(self, seat: str, trait: str, steps: int, card: str | None = None, rule: str = "trait.adjust-by-steps") -> int:
        """Move a trait clip ``steps`` (negative: down). Returns the steps really moved.

        Gains past the top are lost, except that a card's bonus notes the excess (over the top)
        so that losing the card later takes only what it really added. Before the haunt a trait
        stays on its lowest value."""
        e = self.ex[seat]
        before = e.idx[trait]
        top = len(self.t.explorers[e.id].traits[trait].values) - 1
        key = f"{trait}/{card}" if card else ""
        if steps > 0:
            new = before + steps
            if new > top:
                excess = new - top
                new = top
                if card:
                    e.over[key] = e.over.get(key, 0) + excess
                    self.emit("item.over-the-top", f"{self.card_name(card)} puts {trait} {excess} over the top (noted)",
                        card=card, trait=trait, amount=excess)
                else:
                    self.emit("trait.maximum", f"{trait} is at its maximum; {excess} of the gain is lost",
                              seat=seat, trait=trait, amount=excess)
            e.idx[trait] = new
        elif steps < 0:
            need = -steps
            if card and e.over.get(key, 0):
                used = min(need, e.over[key])
                e.over[key] -= used
                if not e.over[key]:
                    del e.over[key]
                need -= used
                self.emit("item.over-the-top", f"{used} of the loss comes off the noted over-the-top {trait}", card=card, trait=trait,
                          amount=used)
            low = 0 if self.haunt is None else -1
            new = before - need
            if new < low:
                new = low
                if self.haunt is None:
                    self.emit("trait.clamp-before-haunt", f"{trait} stays on its lowest value", seat=seat, trait=trait)
            if new < 0 <= before and not e.dead:
                self.emit("trait.skull-below-lowest", f"{self.name(seat)}'s {trait} clip passes its lowest value "
                          f"({self.t.explorers[e.id].traits[trait].values[0]}) onto the skull below it", seat=seat, trait=trait)
                self.emit("trait.skull-kills-after-haunt", "the haunt has begun, so the skull is reached and is deadly")
            e.idx[trait] = new
        moved = e.idx[trait] - before
        if (moved or steps) and not self.quiet:  # the text is work: skipped when nobody reads the events
            self.emit(rule, f"{self.name(seat)}: {trait} {self.values_text(seat, trait, before)}", seat=seat, trait=trait,
                      amount=moved, value=self.value(seat, trait) if e.idx[trait] >= 0 else None)
        if e.idx[trait] < 0 and not e.dead:
            self._die(seat, trait)
        return moved

    def _die(self, seat: str, trait: str) -> None:
        """After the haunt a trait on the skull kills: items drop as a pile, companions stay in the
        room for the next explorer to take custody of, and what is neither (the Bite) stays with
        the dead explorer (``omen.not-items``)."""
        e = self.ex[seat]
        e.dead = True
        self.emit("death.skull", f"{self.name(seat)}'s {trait} reaches the skull: {self.name(seat)} dies", seat=seat, trait=trait)
        if e.cards:
            items, companions = self.leave_possessions(seat)
            if companions:
                self.emit("death.companion-stays", f"{', '.join(self.card_name(c) for c in companions)} stay in "
                          f"{self.room_name(e.room)}", cards=list(companions), room=e.room)
            if items:
                self.emit("death.items-drop", f"{self.name(seat)}'s items drop as an item pile in {self.room_name(e.room)}",
                    seat=seat, room=e.room)
        for card in e.kept:
            self.discards["event"].append(card)
        e.kept = []
        e.status = {}
        # points noted over the top belong to cards held; the dropped ones take theirs with them
        e.over = {k: v for k, v in e.over.items() if k.partition("/")[2] in e.cards}
        if seat == self.current:
            self.turn.end_now = True
            self.turn.stopped = True

    def leave_possessions(self, seat: str) -> tuple[list[str], list[str]]:
        """An explorer who dies or leaves play leaves its items as a pile in its room, and its
        companions there for the next explorer to take custody of (they lie with the pile, but
        only custody takes them); a card that is neither (the Bite) is no item to drop: it goes
        to its discard pile (``omen.not-items``). Returns the items and the companions left."""
        e = self.ex[seat]
        items = [c for c in e.cards if self.t.cards[c].item]
        companions = [c for c in e.cards if self.t.cards[c].companion]
        left = [c for c in e.cards if c in items or c in companions]
        if left:
            self.piles.setdefault(e.room, []).extend(left)
        for card in [c for c in e.cards if c not in left]:
            # judgement: the rulebook drops only items and leaves only companions behind
            self.discards[self.t.cards[card].type].append(card)
            self.emit("omen.not-items", f"{self.card_name(card)} is no item to drop: it is discarded", card=card)
        e.cards = []
        return items, companions

    def values_text(self, seat: str, trait: str, before: int) -> str:
        e = self.ex[seat]
        vals = self.t.explorers[e.id].traits[trait].values
        return f"{vals[before] if before >= 0 else 'skull'} -> {vals[e.idx[trait]] if e.idx[trait] >= 0 else 'skull'}"

    def task_roll(self, seat: str, trait: str, task: str, extra: int = 0) -> Gen[int | None]:
        """A haunt task roll (an exorcism, a search): one per turn whatever trait it uses.

        Returns the total, or None when a task roll was already made this turn. Haunts (part 2)
        call this; before the haunt there are no tasks."""
        if "task-roll" in self.turn.keys:
            self.emit("roll.task-once-per-turn", f"{self.name(seat)} has already made a task roll this turn", seat=seat)
            return None
        self.turn.keys.add("task-roll")
        # ``extra``: dice a haunt's task adds (company in the room), still at most 8 in all
        total = yield from effects.own_roll(self.as_betrayal_state(), seat, min(8, self.value(seat, trait) + extra), "trait",
                                            f"a {trait} task roll", Ctx(seat, "task"))
        self.emit("roll.task-once-per-turn", f"{self.name(seat)} makes a {trait} roll for {task}: {total}",
            seat=seat, trait=trait, task=task, total=total)
        return total
