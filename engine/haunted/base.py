"""The fields of a Haunted state, the :class:`GameState` interface, the legal actions, stat changes
and the chance draws of cards.

The game's rules are layers on :class:`HauntedBase`, each a class in its own module that builds
on the one before: ``turns`` <- ``setup`` <- ``exits`` <- ``doors``, ending in
:class:`hauntcheck.engine.haunted.state.HauntedState`, whose ``_apply`` sends each action to its
rule. A layer calls only rules of the layers below it.
"""

from __future__ import annotations

from typing import Any, Self

from hauntcheck.engine.compiled import copied
from hauntcheck.engine.core import CHANCE, Action, ActionList, Choices, Draw, Event, EventArg, GameState, Outcome, act
from hauntcheck.engine.haunted.model import STATS, Entry, Player, Static

#: What ``_ev`` gives in a quiet game; ``HauntedState._apply`` then returns no events at all.
_QUIET = Event("", "")


class HauntedBase(GameState):
    """The state's fields and the helpers every rule uses; it plays nothing by itself."""

    game = "haunted"
    def __init__(self, st: Static, players: int) -> None:
        self.st = st
        self.n = players
        self.players = [Player() for _ in range(players)]
        self.step = "stronger"
        self.active = 0
        self.table: dict[str, bool] = {}  # card -> face up
        self.adj: dict[str, set[str]] = {}
        # Undrawn cards in canonical order (their order is chance's); before setup, the whole box.
        self.deck: list[str] = list(st.canonical)
        self.held_out: list[str] = []  # Aces and Jokers waiting to be shuffled in
        self.aside_left = 0  # draws still coming from the set-aside cards on top
        self.deal: list[tuple[str, int]] = []  # setup draws still to make: (what, seat)
        self.aspect = ""
        self.discard: list[str] = []
        self.out: list[str] = []
        self.pending: str | None = None
        self.door_from: str = ""  # "deck", "secret" or "in-place"
        self.secret_by: int | None = None
        self.secret_bonus: str | None = None
        self.polls: list[int] = []
        self.countdown: int | None = None
        self.end_reason: str | None = None
        self.finished_by = ""  # the clause that ended the game (what refuses any further action)
        self.exits_revealed: list[str] = []
        self.levels: list[str] = []
        self.total_turns = 0
        self.milestones: set[str] = set()
        self._outcome: Outcome | None = None
        self._legal: Choices | None = None

    # ---------------------------------------------------------------- interface

    def seats(self) -> list[str]:
        return [f"P{i + 1}" for i in range(self.n)]

    def roster(self) -> dict[str, str]:
        return {f"P{i + 1}": f"stronger {p.strong}" for i, p in enumerate(self.players) if p.strong}

    def reached(self, milestone: str) -> bool:
        return milestone in self.milestones

    def to_move(self) -> str | None:
        if self._outcome is not None:
            return None
        if self.step == "stronger":
            return f"P{self._next_stronger() + 1}"
        if self.step in ("deal", "reveal", "trap-draw"):
            return CHANCE
        if self.step == "secret":
            return f"P{self.polls[0] + 1}"
        return f"P{self.active + 1}"

    def outcome(self) -> Outcome | None:
        return self._outcome

    def legal_actions(self) -> Choices:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def clone(self) -> Self:
        c = copied(self)  # not a bare __new__: compiled, GameState is native and that object has no dict
        c.players = [p.copy() for p in self.players]
        c.table = dict(self.table)
        c.adj = {k: set(v) for k, v in self.adj.items()}
        c.deck, c.held_out, c.deal = list(self.deck), list(self.held_out), list(self.deal)
        c.discard, c.out, c.polls = list(self.discard), list(self.out), list(self.polls)
        c.exits_revealed, c.levels = list(self.exits_revealed), list(self.levels)
        c.milestones = set(self.milestones)
        c._legal = None
        return c

    def _key(self, card: str) -> int:
        return self.st.order[card]

    def snapshot(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "active": f"P{self.active + 1}",
            "house": f"P{self._house() + 1}",
            "players": [
                {
                    "seat": f"P{i + 1}",
                    "will": p.will,
                    "body": p.body,
                    "fear": p.fear,
                    "will_locked": p.locked,
                    "questions": sorted(p.questions),
                    "room": p.pos,
                    "trapped": p.trapped,
                    "escaped": p.escaped,
                    "turns": p.turns,
                    "stronger": p.strong,
                    "secret_doors": sorted(p.secret, key=self.st.order.__getitem__),
                    "noted_scores": list(p.notes),
                    "score": p.score(),
                }
                for i, p in enumerate(self.players)
            ],
            "table": {
                c: {"face_up": self.table[c], "adjacent": sorted(self.adj[c], key=self._key)} for c in sorted(self.table, key=self._key)
            },
            "deck": list(self.deck),
            "held_out": sorted(self.held_out, key=self.st.order.__getitem__),
            "set_aside_draws_left": self.aside_left,
            "deal": [[what, f"P{i + 1}"] for what, i in self.deal],
            "aspect": self.aspect,
            "discard": list(self.discard),
            "out_of_game": sorted(self.out, key=self.st.order.__getitem__),
            "pending": self.pending,
            "door_from": self.door_from,
            "secret": {"by": None if self.secret_by is None else f"P{self.secret_by + 1}", "bonus": self.secret_bonus},
            "polls": [f"P{i + 1}" for i in self.polls],
            "countdown": self.countdown,
            "end_reason": self.end_reason,
            "exits_revealed": list(self.exits_revealed),
            "levels": list(self.levels),
            "total_turns": self.total_turns,
            "variant": self.st.variant,
            "charts": self.st.charts.source,
            "outcome": None if self._outcome is None else self._outcome.to_data(),
        }

    # ---------------------------------------------------------------- helpers

    def _ev(self, rule: str, text: str, **args: EventArg) -> Event:
        if self.quiet:  # nobody reads the events of a quiet game (run_fast): skip checking and building them
            return _QUIET
        return self.st.rules.event(rule, text, **args)

    def _seat(self, i: int) -> str:
        return f"P{i + 1}"

    def _house(self) -> int:
        return (self.active + 1) % self.n

    def _next_stronger(self) -> int:
        for i, p in enumerate(self.players):
            if p.strong is None:
                return i
        return 0

    def _all_cards(self) -> list[str]:
        """Every card in every zone (the invariant tests check each appears exactly once)."""
        cards = list(self.table) + self.deck + self.held_out + self.discard + self.out
        for p in self.players:
            cards.extend(p.secret)
        if self.pending is not None and self.pending not in self.table:
            cards.append(self.pending)
        return cards

    def _can_open(self, pos: str) -> bool:
        return bool(self.deck) and len(self.adj[pos]) < self.st.setup.edges

    def _connect_targets(self, card: str, current: str) -> list[str]:
        colour = self.st.cards[card].colour
        if colour is None:
            return []
        return [
            c
            for c in sorted(self.table, key=self.st.order.__getitem__)
            if c != card and c != current and self.table[c] and self.st.cards[c].colour == colour and c not in self.adj[card]
        ]

    def _compute_legal(self) -> Choices:
        step = self.step
        if self._outcome is not None:
            return ActionList([])
        if step == "stronger":
            return ActionList([act("stronger", "stat", "body"), act("stronger", "stat", "will")])
        if step in ("deal", "reveal", "trap-draw"):
            return self._draw_choices()
        p = self.players[self.active]
        if step == "choose":
            assert p.pos is not None
            acts = [act("move", "to", c) for c in sorted(self.adj[p.pos], key=self.st.order.__getitem__)]
            if self._can_open(p.pos):
                acts.append(act("open"))
            return ActionList(acts)
        if step == "secret":
            seat = self.polls[0]
            acts = [act("pass")]
            for card in sorted(self.players[seat].secret, key=self.st.order.__getitem__):
                if seat == self.active:
                    acts.extend(Action("secret-door", (("card", card), ("bonus", s))) for s in STATS)
                else:
                    acts.append(act("secret-door", "card", card))
            return ActionList(acts)
        if step == "declare":
            return ActionList([act("declare", "aspect", "color"), act("declare", "aspect", "suit")])
        if step == "connect":
            assert self.pending is not None and p.pos is not None
            targets = self._connect_targets(self.pending, p.pos)
            return ActionList([act("no-connection")] + [act("connect", "to", t) for t in targets])
        if step == "trap-play":
            return ActionList(self._trap_options())
        if step == "exit-choice":
            return ActionList([act("escape"), act("next-level")])
        raise AssertionError(f"unknown step {step}")

    def _trap_options(self) -> list[Action]:
        card = self.pending
        assert card is not None
        p = self.players[self.active]
        assert p.pos is not None
        acts: list[Action] = []
        suit = self.st.cards[card].suit
        edges = self.st.setup.edges
        if suit is not None and len(self.adj[p.pos]) < edges:
            for c in sorted(self.table, key=self.st.order.__getitem__):
                if c != p.pos and self.table[c] and self.st.cards[c].suit == suit:
                    acts.append(act("play-face-up", "connect", c))
        for c in sorted(self.table, key=self.st.order.__getitem__):
            if len(self.adj[c]) < edges:
                acts.append(act("play-face-down", "beside", c))
        if not acts:
            acts.append(act("discard-door"))
        return acts

    # ---------------------------------------------------------------- stat changes

    def _change(self, i: int, stat: str, delta: int, why: str, events: list[Event]) -> None:
        """Apply one stat change under stats.locked and stats.floor-zero."""
        p = self.players[i]
        seat = self._seat(i)
        if delta == 0:
            return
        if stat == "will" and p.locked:
            events.append(self._ev("stats.locked", f"{seat}'s WILL is locked at {p.will}; {why} {delta:+d} is ignored",
                seat=seat, will=p.will, amount=delta))
            return
        old = p.get(stat)
        if old + delta < 0:
            events.append(self._ev("stats.floor-zero", f"{seat}'s {stat.upper()} {old} cannot go below 0; {why} {delta:+d} is ignored",
                seat=seat, trait=stat, old=old, amount=delta))
            return
        setattr(p, stat, old + delta)
        events.append(self._ev("door.effect-target", f"{seat} {stat.upper()} {old} -> {old + delta} ({why})",
            seat=seat, trait=stat, old=old, amount=delta, value=old + delta))

    def _set(self, i: int, stat: str, value: int, rule: str, why: str, events: list[Event]) -> None:
        p = self.players[i]
        seat = self._seat(i)
        if stat == "will" and p.locked:
            events.append(self._ev("stats.locked", f"{seat}'s WILL is locked at {p.will}; {why} is ignored",
                seat=seat, will=p.will))
            return
        old = p.get(stat)
        setattr(p, stat, value)
        events.append(self._ev(rule, f"{seat} {stat.upper()} {old} -> {value} ({why})",
            seat=seat, trait=stat, old=old, value=value))

    def _apply_entry(self, i: int, entry: Entry, chart: str, events: list[Event]) -> None:
        if not entry.effect:
            events.append(self._ev("door.effect-target", f"{self._seat(i)}: {entry.room} ({chart}) has no effect",
                seat=self._seat(i), room=entry.room, chart=chart))
        for stat, delta in entry.effect:
            self._change(i, stat, delta, f"{entry.room}, {chart}", events)

    def _answer(self, i: int, question: str, events: list[Event]) -> None:
        p = self.players[i]
        if question in p.questions:
            events.append(self._ev("question.answered", f"{self._seat(i)} answers the {question} question again (no further point)",
                seat=self._seat(i), question=question))
        else:
            p.questions.append(question)
            events.append(self._ev("question.answered", f"{self._seat(i)} answers the {question} question",
                seat=self._seat(i), question=question))

    def _draw_choices(self) -> Draw:
        if self.aside_left > 0:
            return Draw([c for c in self.deck if self.st.cards[c].role == "room"])
        return Draw(self.deck)

    def _drawn(self, action: Action) -> str:
        card = str(action["card"])
        self.deck.remove(card)
        if self.aside_left > 0:
            self.aside_left -= 1
        return card
