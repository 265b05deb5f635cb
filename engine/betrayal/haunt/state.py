"""The whole game: :class:`HauntState` is exploration (part 1), the reveal and the haunt to its end.

It extends the part-1 state at one seam, the turn sequence (``_turns``): once the haunt is
revealed it reads the haunt's file, runs its "Right Now" setup and then the rounds in the haunt's
order (``turn.order-after-haunt``): the player to the traitor's left first (the revealer's left
when there is no traitor), the heroes, the traitor, then the monster turn; goals are judged after
every step. The rules themselves live in the classes it is built from (see ``base.py``).

A game carries a round limit (option ``rounds``, default :data:`DEFAULT_ROUNDS`); a game that
reaches it ends ``undecided`` - a failure to report, never a result.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.betrayal.haunt import fields, playable
from hauntcheck.engine.betrayal.haunt.pieces import HERO, TRAITOR, Weapon, load_haunts, load_weapons
from hauntcheck.engine.betrayal.haunt.turns import Turns
from hauntcheck.engine.betrayal.hauntspec import HauntSpec, custom_hooks_used, load_haunt
from hauntcheck.engine.betrayal.model import SIDES
from hauntcheck.engine.betrayal.state import Gen, Setup
from hauntcheck.engine.core import Action, Event, GameState, Outcome, RuleBook
from hauntcheck.engine.games import rulebook
from hauntcheck.engine.spec import GameSpec


class HauntState(Turns):
    """The whole game: exploration, the reveal and the haunt phase to its end."""

    def _apply(self, action: Action) -> list[Event]:
        super()._apply(action)
        if self.carried:
            self._sync_carried()
        # _check_wins() says whether the game is won: asking `self.result` again here would read, compiled, as
        # mypy sees it after the test above, still None (mypy keeps an attribute's narrowing across calls)
        if self._req is not None and self.hs is not None and self.result is None and self._check_wins():
            self._gen.close()
            self._req = None
        return self._events

    def outcome(self) -> Outcome | None:
        if self.result is not None:
            return self.result
        return super().outcome()

    def restart(self) -> HauntState:
        other = self.rebuild() if self.rebuild is not None else HauntState(self.setup, self.haunts, self.weapons)
        assert isinstance(other, HauntState)
        return other

    def seen_by(self, seat: str) -> HauntState:
        """The game as ``seat`` may know it, for the policy playing that seat
        (``hidden-traitor.token-one``): with a hidden traitor still masked, every other explorer's
        side is the side the table sees, the hidden traitor's seat is known only to itself, and of
        the face-down hands only its own is known. The view shares everything else with the game
        (it is read, never played on); without hidden information it is the game itself."""
        if self.hidden is None or (self.unmasked and not self.hidden_converts and not self.hands):
            return self
        view = copy.copy(self)
        view.side = {s: (theirs if s == seat else self.seen_side(s) or theirs) for s, theirs in self.side.items()}
        view.hidden = seat if seat == self.hidden or self.unmasked else None
        view.converts = [seat] if seat in self.converts else []
        view.hidden_converts = {seat} & self.hidden_converts
        view.hands = {token: {s: (list(hand) if s == seat else []) for s, hand in held.items()}
                      for token, held in self.hands.items()}
        return view

    def clone(self) -> HauntState:
        other = self.restart()
        for action in self.history:
            other.apply(action)
        return other

    def snapshot(self) -> dict[str, Any]:
        data = super().snapshot()
        data["haunt_phase"] = {
            "round": self.hround,
            "sides": dict(sorted(self.side.items())),
            "removed": sorted(self.removed),
            "statuses": {s: list(v) for s, v in sorted(self.hstatus.items()) if v},
            "flags": sorted(self.hflags),
            "track": self.track,
            "used_places": sorted(self.used_places),
            "tokens": {k: sorted(v) for k, v in sorted(self.htokens.items()) if v},
            "pool": dict(sorted(self.pool.items())),
            "held": {k: list(v) for k, v in sorted(self.held.items()) if v},
            "earned": dict(sorted(self.earned.items())),
            "done": sorted(self.done),
            "exited": sorted(self.exited),
            "destroyed": list(self.destroyed),
            "control": dict(sorted(self.control.items())),
            "collapsed": list(self.collapsed),
            "collapsing": self.collapsing,
            "collapse_state": dict(sorted(self.collapse_state.items())),
            "timers": {k: dict(sorted(v.items())) for k, v in sorted(self.timer_state.items())},
            "turn_mods": {k: sorted(v) for k, v in sorted(self.turn_mods.items()) if v},
            "carried": dict(sorted(self.carried.items())),
            "hook_state": {k: dict(sorted(v.items())) for k, v in sorted(self.hook_state.items())},
            "waiting_tokens": [list(x) for x in self.waiting_tokens],
            "waiting_pool": [list(x) for x in self.waiting_pool],
            "grips": {k: list(v) for k, v in sorted(self.grips.items())},
            "waiting": [[k, list(r)] for k, r in self.waiting],
            "no_pickup": sorted(self.no_pickup),
            "dealt": {k: dict(sorted(v.items())) for k, v in sorted(self.dealt.items())},
            "hidden_traitor": {"seat": self.hidden, "revealed": self.unmasked} if self.hidden else None,
            "monsters": [
                {"id": m.uid, "room": m.room, "stunned": m.stunned, "gone": m.gone, "damage": m.damage,
                 "counterpart": m.counterpart, "stats": dict(sorted(m.stats.items())), "cards": list(m.cards),
                 "part": m.part, **({"facing": SIDES[m.facing]} if m.facing is not None else {})}
                for m in self.mon
            ],
            "result": self.result.to_data() if self.result else None,
        }
        if self.concealed:
            data["haunt_phase"]["concealed"] = {k: dict(sorted(v.items())) for k, v in sorted(self.concealed.items())}
        if self.trait_values:
            data["haunt_phase"]["trait_values"] = {k: dict(sorted(v.items())) for k, v in sorted(self.trait_values.items())}
        if self.collapse_by:
            data["haunt_phase"]["collapse_by"] = self.collapse_by
        if self.hero_kills:
            data["haunt_phase"]["hero_kills"] = dict(sorted(self.hero_kills.items()))
        if self.hands:  # a deal of several face-down tokens each, and who became a traitor by a swap
            data["haunt_phase"]["hands"] = {k: {s: list(h) for s, h in sorted(v.items())} for k, v in sorted(self.hands.items())}
        if self.converts:
            data["haunt_phase"]["converts"] = list(self.converts)
        return data

    def restart_turns(self, seat: str) -> None:
        """A position built directly (the ``position`` package) with its haunt already under way plays on by
        part 1's rules: positions do not describe the haunt phase (monsters, tokens, sides) yet. A
        position from before the reveal plays the haunt like any game."""
        self.positioned = self.haunt is not None and self.hs is None
        super().restart_turns(seat)

    def _turns(self, seat: str) -> Gen[None]:
        if self.positioned:
            yield from super()._turns(seat)
            return
        while self.haunt is None:
            yield from self._play_turn(seat)
            seat = self.left_of(seat)
        yield from self._haunt_phase()

    def _haunt_phase(self) -> Gen[None]:
        assert self.haunt is not None
        number = int(self.haunt["number"])
        if self.want is not None and number != self.want:
            self.result = Outcome("other-haunt", (), f"haunt {number} was revealed, not haunt {self.want}")
            return
        missing = playable.gaps(self.haunts[number][1]) if number in self.haunts else []
        if number not in self.haunts or missing:
            why = f": {missing[0]}" + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else "") if missing else ""
            self.result = Outcome("undecided", (), f"haunt {number} ({self.haunt['title']}) is not playable by the "
                                  f"engine yet{why}")
            return
        self.enter_haunt(number)
        yield from self.set_up_haunt(self.traitor())
        order, traitor = self.round_order()
        if self._check_wins():
            return
        while self.extra_turns:
            # setup ``extra_turn``: a turn of its own before the first round (its order is unchanged)
            seat = self.extra_turns.pop(0)
            if self.in_play(seat):
                yield from self._play_turn(seat)
                if self._check_wins():
                    return
        yield from self.play_rounds(order, traitor)

    def _forced_haunt_room(self, number: int) -> Gen[None]:
        """A haunt played at a reveal the chart did not give (option ``force_haunt``) may find
        none of its chart rooms in the house, where the chart would always have put its revealer:
        the first of them the room stack holds is placed first, as a haunt's ``fetch_rooms`` places
        a room, so that the haunt's setup has the room it is written around (haunt 14's Pentagram
        Chamber, where the Cultists start)."""
        if not self.force:
            return
        rooms = sorted({room for (room, _), n in self.t.chart.items() if n == number})
        if not rooms or any(r in self.house.spots for r in rooms):
            return
        self.emit("haunt.chart-lookup", f"haunt {number} is played away from its chart rooms ("
                  + ", ".join(self.room_name(r) for r in rooms) + "): one is taken from the room stack first",
                  haunt=number, rooms=rooms)
        yield from self._fetch_rooms({"rooms": rooms, "until": 1})

    def enter_haunt(self, number: int) -> None:
        """The haunt phase of haunt ``number`` begins: its spec and the named hooks it uses."""
        self.hs, raw = self.haunts[number]
        self.hooks_used = sorted({h for _, h in custom_hooks_used(raw)})

    def set_up_haunt(self, traitor: str | None) -> Gen[None]:
        """Sides (the traitor against the heroes), the traitor freed from lasting events, the secret
        deal of a hidden-traitor haunt, then the haunt's "Right Now" setup; goals are judged once
        the setup is complete."""
        for s in self.seat_ids:
            self.side[s] = TRAITOR if s == traitor else HERO
        if traitor is not None:
            self._free_traitor(traitor)
        self.setting_up = True
        if self.haunt is not None:
            yield from self._forced_haunt_room(int(self.haunt["number"]))
        if self.haunt is not None and self.haunt.get("kind") == "hidden":
            yield from self._deal_hidden()
        yield from self._haunt_setup()
        self.setting_up = False

    def round_order(self) -> tuple[list[str], str | None]:
        """``turn.order-after-haunt`` (``hidden-traitor.turn-order``): each round runs from the
        player left of the traitor round to the traitor, or from the revealer's left when there is
        no traitor or it is hidden (revealed or not). Returns the seats in order and the traitor
        whose turn closes the round (None for none or a hidden one)."""
        assert self.haunt is not None
        traitor = None if self.haunt.get("kind") == "hidden" else (self.haunt.get("traitor") or None)
        anchor = traitor or str(self.haunt["revealer"])
        order = [self.left_of(anchor, k) for k in range(1, self.n + 1)]
        self.emit("turn.order-after-haunt", "each round: " + ", ".join(order) + ", then the monster turn", seats=order)
        return order, traitor

    def play_rounds(self, order: list[str], traitor: str | None, start: str | None = None,
                    resume: Gen[None] | None = None) -> Gen[None]:
        """The haunt's rounds: each seat in play takes its turn (a traitor out of play keeps its
        slot), timers tick at the end of the traitor's and the revealer's turns, then the monster
        turn; goals are judged after every turn. A round past the limit ends the game undecided.
        ``start``: the first round is already under way and goes on from that seat, whose turn is
        ``resume`` (a turn begun before) if given."""
        assert self.haunt is not None
        anchor, revealer = order[-1], str(self.haunt["revealer"])
        first = start is not None
        # whether the goals were just judged (holding for nobody) with nothing changed since: a turn
        # that begins or ends with nothing happening need not judge them again (``haunt_turn``);
        # a new round changes only the round count, which no goal reads
        judged = False
        timers = self.turn_parts().timers  # a haunt without timers has no clock to advance (_advance_timers)
        while True:
            if not first:
                self.hround += 1
                if self.hround > self.rounds:
                    self.result = Outcome("undecided", (), f"no side met its goals within the round limit ({self.rounds} rounds)")
                    self.emit("win.first-side", f"round {self.rounds} is over and no side has met its goals: the game is "
                              "stopped undecided", round=self.rounds)
                    return
            for seat in order[order.index(start):] if first and start is not None else order:
                if seat == anchor and not (first and seat == start and resume is not None):
                    # a clock the traitor advances as its turn (or its turn slot) begins
                    if timers:
                        yield from self._advance_timers("start-of-traitor-turn")
                    if self._check_wins():
                        return
                    judged = True
                ended_judged = False
                if self.in_play(seat):
                    if first and seat == start and resume is not None:
                        yield from resume
                    else:
                        ended_judged = yield from self.haunt_turn(seat, judged)
                elif seat == traitor:
                    self.emit("turn.traitor-turn-survives-removal", f"the traitor's turn ({seat}) comes; the traitor's "
                              "explorer is not in play", seat=seat)
                    yield from self._slot_rules(seat)
                    yield from self._standing_rules()  # the slot ends like a turn: standing rules are judged
                if seat == anchor and timers:
                    yield from self._advance_timers("end-of-traitor-turn")
                if seat == revealer and timers:
                    # judgement: like the traitor's slot, the revealer's turn slot keeps its clock
                    # ticking after the revealer's explorer is gone
                    yield from self._advance_timers("end-of-revealer-turn")
                # a turn that ended judged, in a haunt with no timers (quiet_turns().end), is judged
                if not ended_judged and self._check_wins():
                    return
                judged = True
            first = False
            if self.active_monsters() or fields.side_monster_rules(self):
                judged = False
                yield from self._monster_turn()
                if self._check_wins():
                    return
                judged = True


def support(spec: GameSpec) -> dict[int, dict[str, Any]]:
    """Per haunt file: whether the engine plays it, the hooks it uses, and what stands in the
    way of playing it, each at ``file:line:column`` (:mod:`.playable`; for ``coverage``, the
    conformance page and ``--haunt N``)."""
    out: dict[int, dict[str, Any]] = {}
    for file in sorted(spec.by_kind("haunt"), key=lambda f: (f.data.get("number") or 0, f.display)):
        record = load_haunt(file.data)
        hooks = sorted({h for _, h in custom_hooks_used(file.data)})
        blockers = [gap.at(file.where) for gap in playable.gaps(file.data)]
        out[record.number] = {"title": record.title, "playable": not blockers, "hooks": hooks, "blockers": blockers,
                              "file": file.display}
    return out


def invariants(state: GameState) -> list[str]:
    """Part 1's invariants (cards a haunt destroyed count as out of the game) plus the haunt
    phase's own: monsters in placed rooms, sides for every seat, the track not negative."""
    from hauntcheck.engine.betrayal.state import invariants as part1

    if not isinstance(state, HauntState):
        return part1(state)
    saved = list(state.token_cards)
    state.token_cards.extend(c for c in state.destroyed if c in state.t.cards)  # destroyed tokens are no cards
    for m in state.mon:
        state.token_cards.extend(m.cards)
    try:
        problems = part1(state)
    finally:
        state.token_cards[:] = saved
    if state.hs is not None:
        for m in state.mon:
            if m.room not in state.house.spots:
                problems.append(f"{m.uid} is in {m.room!r}, which is not in the house")
        if set(state.side) != set(state.seat_ids):
            problems.append("not every seat has a side")
        if state.track < 0:
            problems.append(f"the Turn/Damage track is at {state.track}")
    return problems


HauntTables = tuple[dict[int, tuple[HauntSpec, Mapping[str, Any]]], dict[str, Weapon]]


def _rules(spec: GameSpec) -> RuleBook:
    return spec.derived("rulebook", rulebook)


def haunt_tables(spec: GameSpec) -> HauntTables:
    """The haunt files and weapon cards of a loaded spec (read once per spec object)."""
    return spec.derived("betrayal.haunts", load_haunts), spec.derived("betrayal.weapons", load_weapons)


def new_game(spec: GameSpec, players: int, options: Mapping[str, Any]) -> HauntState:
    """A whole game of Betrayal: exploration, the reveal and the haunt (options as part 1, plus
    ``haunt``: the haunt this game is expected to reveal, and ``rounds``: the round limit)."""
    from hauntcheck.engine import betrayal

    if not 3 <= players <= 6:
        raise ValueError(f"Betrayal is for 3 to 6 players, not {players}")
    haunts, weapons = haunt_tables(spec)
    tables = betrayal.tables(spec)
    setup = Setup(
        tables=tables, rules=_rules(spec), players=players,
        date=betrayal.parse_date(options.get("date")), played=betrayal.parse_played(options.get("select_haunt")),
        options=dict(options),
    )
    return HauntState(setup, haunts, weapons)
