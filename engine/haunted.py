"""Haunted: a storytelling card game on a standard 54-card deck (source 002_33a629ca675f12ec.txt).

Rooms are cards laid out from the players' starting Rooms and around the Ace of Diamonds; each
player's WILL, BODY and FEAR decide what happens at a Way Out (an Ace). The rules are clauses in
``spec/haunted/rules.yaml``; the deck and setup numbers are ``spec/haunted/deck.yaml``; the two
charts the document refers to but never prints are ``spec/haunted/charts.yaml`` (provisional,
replaceable with ``--charts FILE``).

The table is kept as an adjacency graph (rule ``table.adjacency``): the document lets players move
cards however necessary to connect rooms, so positions are not tracked. Every card dealt or turned
over is a chance ``draw`` from the cards whose order nobody knows: while set-aside cards remain on
top of the deck (setup.reshuffle) the draw is among the non-Ace, non-Joker cards only, which is the
same as dealing them off a shuffled deck.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from hauntcheck.engine.core import (
    CHANCE,
    Action,
    ActionList,
    Choices,
    Draw,
    Event,
    GameState,
    Outcome,
    RuleBook,
)
from hauntcheck.engine.games import GameDef, GoldenCase, Option, rulebook
from hauntcheck.engine.spec import GameSpec, SpecError, SpecErrors, SpecFile, Where, load_file

STATS: tuple[str, ...] = ("will", "body", "fear")
QUESTIONS: tuple[str, ...] = ("remember", "bring", "fear")
RANKS_WITH_CHARTS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
VARIANTS: tuple[str, ...] = ("standard", "solo", "long", "multilevel")

#: Exit results, by the exit rules of "A Way Out" (see exit_result).
EXIT_RESULTS: tuple[str, ...] = ("fear-blocked", "body-mad", "body-remember", "will-locked", "will-escape")


# --------------------------------------------------------------------------------------------
# Static data: cards, charts, options


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    rank: str
    value: int
    suit: str | None
    colour: str | None
    role: str  # "room", "way-out" or "trap"
    order: int


@dataclass(frozen=True, slots=True)
class Entry:
    """A chart entry: the room's name and its stat changes (stat, delta) in will/body/fear order."""

    room: str
    effect: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Charts:
    """The Room Description chart (by colour and value) and Card Effects chart (by suit and value)."""

    source: str
    colour: Mapping[str, Mapping[str, Entry]]
    suit: Mapping[str, Mapping[str, Entry]]
    where: str

    @property
    def provisional(self) -> bool:
        return self.source == "provisional"


@dataclass(frozen=True)
class Setup:
    strong: int
    weak: int
    fear: int | str
    cross: int
    secret_doors: int
    set_aside: int
    edges: int
    rescue_fear: int
    solo_fear: int
    solo_secret_doors: int
    solo_jokers: bool
    turns_per_player: int


@dataclass(frozen=True)
class Static:
    """Everything a game reads but never changes: rules, deck, charts and the chosen options."""

    rules: RuleBook
    cards: Mapping[str, Card]
    canonical: tuple[str, ...]
    suit_rank: Mapping[str, int]
    centre: str
    setup: Setup
    charts: Charts
    variant: str
    next_level: bool

    @property
    def solo(self) -> bool:
        return self.variant == "solo"

    @property
    def long(self) -> bool:
        return self.variant == "long"

    @property
    def multilevel(self) -> bool:
        return self.variant == "multilevel"


def _entry(data: Mapping[str, Any]) -> Entry:
    effect = data.get("effect", {})
    return Entry(str(data["room"]), tuple((s, int(effect[s])) for s in STATS if effect.get(s)))


def chart_errors(file: SpecFile) -> list[SpecError]:
    """Every suit of the Card Effects chart must cover all twelve values (by ``any`` or one by one)."""
    errors = []
    for suit, entries in file.data["card_effects"].items():
        if "any" not in entries:
            missing = [r for r in RANKS_WITH_CHARTS if r not in entries]
            if missing:
                errors.append(
                    file.error(
                        ("card_effects", suit),
                        f"{suit} has no 'any' entry and no entry for {', '.join(missing)}; give 'any' or every value 2..10, J, Q, K",
                    )
                )
    return errors


def charts_from(file: SpecFile) -> Charts:
    """Charts from a validated ``haunted-charts`` file (raises SpecErrors on gaps)."""
    if file.kind != "haunted-charts":
        raise SpecErrors([file.error(("kind",), f"expected a chart file (kind: haunted-charts), got kind {file.kind!r}")])
    errors = chart_errors(file)
    if errors:
        raise SpecErrors(errors)
    data = file.data
    colour = {c: {r: _entry(data["room_description"][c][r]) for r in RANKS_WITH_CHARTS} for c in ("red", "black")}
    suit: dict[str, dict[str, Entry]] = {}
    for name, entries in data["card_effects"].items():
        suit[name] = {r: _entry(entries.get(r, entries.get("any"))) for r in RANKS_WITH_CHARTS}
    return Charts(str(data["source"]), colour, suit, file.display)


def load_charts(path: Path | str) -> Charts:
    """Read user-supplied charts (``--charts FILE``), validated by the haunted-charts schema.

    Every problem is raised as SpecErrors with file:line:col."""
    file = load_file(Path(path), str(path))
    return charts_from(file)


@cache
def _cached_charts(path: str) -> Charts:
    return load_charts(path)


def _deck(spec: GameSpec) -> tuple[dict[str, Card], tuple[str, ...], dict[str, int], str, Setup]:
    data = spec.one("haunted-deck").data
    cards: dict[str, Card] = {}
    order = 0
    suit_rank = {s["id"]: int(s["rank"]) for s in data["suits"]}
    for suit in data["suits"]:
        for rank in data["ranks"]:
            cid = f"{rank['rank']}{suit['letter']}"
            role = "way-out" if rank.get("role") == "way-out" else "room"
            cards[cid] = Card(cid, rank["rank"], int(rank["value"]), suit["id"], suit["colour"], role, order)
            order += 1
    for joker in data["jokers"]["ids"]:
        cards[joker] = Card(joker, "joker", 0, None, None, "trap", order)
        order += 1
    s = data["setup"]
    setup = Setup(
        strong=int(s["strong_stat"]),
        weak=int(s["weak_stat"]),
        fear=s["fear"],
        cross=int(s["cross_cards"]),
        secret_doors=int(s["secret_doors"]),
        set_aside=int(s["set_aside_per_player"]),
        edges=int(s["edges"]),
        rescue_fear=int(data["rescue_fear"]),
        solo_fear=int(data["solo"]["fear"]),
        solo_secret_doors=int(data["solo"]["secret_doors"]),
        solo_jokers=bool(data["solo"]["jokers"]),
        turns_per_player=int(data["limits"]["turns_per_player"]),
    )
    canonical = tuple(sorted(cards, key=lambda c: cards[c].order))
    return cards, canonical, suit_rank, str(data["centre"]), setup


def _flag(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "yes", "on", "false", "no", "off"):
        return value.lower() in ("true", "yes", "on")
    raise ValueError(f"option {name} must be true or false, got {value!r}")


def _static(spec: GameSpec, players: int, options: Mapping[str, Any]) -> Static:
    unknown = sorted(set(options) - {o.name for o in GAME.options})
    if unknown:
        raise ValueError(f"haunted has no option {unknown[0]!r}; options: {', '.join(o.name for o in GAME.options)}")
    variant = str(options.get("variant", "standard"))
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
    if players == 1:
        if variant not in ("standard", "solo"):
            raise ValueError(f"the {variant} variant needs at least 2 players; one player plays the solo variant")
        variant = "solo"
    elif variant == "solo":
        raise ValueError(f"the solo variant is for 1 player, not {players}")
    next_level = _flag(options.get("next_level", False), "next_level")
    if next_level and variant != "solo":
        raise ValueError("next_level belongs to the solo variant (1 player)")
    charts_path = options.get("charts")
    charts = _cached_charts(str(charts_path)) if charts_path else charts_from(spec.one("haunted-charts"))
    cards, canonical, suit_rank, centre, setup = _deck(spec)
    return Static(rulebook(spec), cards, canonical, suit_rank, centre, setup, charts, variant, next_level)


# --------------------------------------------------------------------------------------------
# The exit rules


def exit_result(will: int, body: int, fear: int, exit_colour: str) -> str:
    """Which branch of "A Way Out" applies (rules exit.*).

    FEAR is highest only when above both others (exit.fear-ties); a BODY/WILL tie for the top,
    or a three-way tie, goes to WILL at a red Exit and to BODY at a black one (exit.tie-colour).
    """
    if fear > body and fear > will:
        return "fear-blocked"
    if body > will or (body == will and exit_colour == "black"):
        return "body-mad" if fear >= will else "body-remember"
    return "will-locked" if fear >= body else "will-escape"


# --------------------------------------------------------------------------------------------
# State


class Player:
    __slots__ = (
        "body",
        "escaped",
        "fear",
        "first_turn",
        "locked",
        "notes",
        "pos",
        "questions",
        "secret",
        "strong",
        "trapped",
        "turns",
        "will",
    )

    def __init__(self) -> None:
        self.will = 0
        self.body = 0
        self.fear = 0
        self.locked = False
        self.questions: list[str] = []
        self.pos: str | None = None
        self.trapped = False
        self.escaped = False
        self.first_turn = True
        self.turns = 0
        self.strong: str | None = None
        self.secret: list[str] = []
        self.notes: list[int] = []

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.will, p.body, p.fear, p.locked = self.will, self.body, self.fear, self.locked
        p.questions = list(self.questions)
        p.pos, p.trapped, p.escaped, p.first_turn, p.turns = self.pos, self.trapped, self.escaped, self.first_turn, self.turns
        p.strong = self.strong
        p.secret = list(self.secret)
        p.notes = list(self.notes)
        return p

    def score(self) -> int:
        return self.will + self.body - self.fear + len(self.questions)

    def get(self, stat: str) -> int:
        value: int = getattr(self, stat)
        return value


class HauntedState(GameState):
    """A game of Haunted. Steps: ``stronger`` (each player), chance ``deal`` draws, then turns.

    Within a turn the step is one of ``choose`` (move or open a Door), ``secret`` (a player is
    offered to play a Secret Door), ``declare`` (Color or Suit), ``connect`` (optional connection
    of the new card), ``trap-play`` (a trapped player places their drawn card) or ``exit-choice``
    (solo: escape or go on to the next level).
    """

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

    def clone(self) -> HauntedState:
        c = HauntedState.__new__(HauntedState)
        c.__dict__.update(self.__dict__)
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
        return self.st.cards[card].order

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
                    "secret_doors": sorted(p.secret, key=self._key),
                    "noted_scores": list(p.notes),
                    "score": p.score(),
                }
                for i, p in enumerate(self.players)
            ],
            "table": {
                c: {"face_up": self.table[c], "adjacent": sorted(self.adj[c], key=self._key)} for c in sorted(self.table, key=self._key)
            },
            "deck": list(self.deck),
            "held_out": sorted(self.held_out, key=self._key),
            "set_aside_draws_left": self.aside_left,
            "deal": [[what, f"P{i + 1}"] for what, i in self.deal],
            "aspect": self.aspect,
            "discard": list(self.discard),
            "out_of_game": sorted(self.out, key=self._key),
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

    def _ev(self, rule: str, text: str) -> Event:
        return self.st.rules.event(rule, text)

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
            for c in sorted(self.table, key=self._key)
            if c != card and c != current and self.table[c] and self.st.cards[c].colour == colour and c not in self.adj[card]
        ]

    def _compute_legal(self) -> Choices:
        step = self.step
        if self._outcome is not None:
            return ActionList([])
        if step == "stronger":
            return ActionList([Action.of("stronger", stat="body"), Action.of("stronger", stat="will")])
        if step in ("deal", "reveal", "trap-draw"):
            return self._draw_choices()
        p = self.players[self.active]
        if step == "choose":
            assert p.pos is not None
            acts = [Action.of("move", to=c) for c in sorted(self.adj[p.pos], key=self._key)]
            if self._can_open(p.pos):
                acts.append(Action.of("open"))
            return ActionList(acts)
        if step == "secret":
            seat = self.polls[0]
            acts = [Action.of("pass")]
            for card in sorted(self.players[seat].secret, key=self._key):
                if seat == self.active:
                    acts.extend(Action.of("secret-door", card=card, bonus=s) for s in STATS)
                else:
                    acts.append(Action.of("secret-door", card=card))
            return ActionList(acts)
        if step == "declare":
            return ActionList([Action.of("declare", aspect="color"), Action.of("declare", aspect="suit")])
        if step == "connect":
            assert self.pending is not None and p.pos is not None
            targets = self._connect_targets(self.pending, p.pos)
            return ActionList([Action.of("no-connection")] + [Action.of("connect", to=t) for t in targets])
        if step == "trap-play":
            return ActionList(self._trap_options())
        if step == "exit-choice":
            return ActionList([Action.of("escape"), Action.of("next-level")])
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
            for c in sorted(self.table, key=self._key):
                if c != p.pos and self.table[c] and self.st.cards[c].suit == suit:
                    acts.append(Action.of("play-face-up", connect=c))
        for c in sorted(self.table, key=self._key):
            if len(self.adj[c]) < edges:
                acts.append(Action.of("play-face-down", beside=c))
        if not acts:
            acts.append(Action.of("discard-door"))
        return acts

    # ---------------------------------------------------------------- stat changes

    def _change(self, i: int, stat: str, delta: int, why: str, events: list[Event]) -> None:
        """Apply one stat change under stats.locked and stats.floor-zero."""
        p = self.players[i]
        seat = self._seat(i)
        if delta == 0:
            return
        if stat == "will" and p.locked:
            events.append(self._ev("stats.locked", f"{seat}'s WILL is locked at {p.will}; {why} {delta:+d} is ignored"))
            return
        old = p.get(stat)
        if old + delta < 0:
            events.append(self._ev("stats.floor-zero", f"{seat}'s {stat.upper()} {old} cannot go below 0; {why} {delta:+d} is ignored"))
            return
        setattr(p, stat, old + delta)
        events.append(self._ev("door.effect-target", f"{seat} {stat.upper()} {old} -> {old + delta} ({why})"))

    def _set(self, i: int, stat: str, value: int, rule: str, why: str, events: list[Event]) -> None:
        p = self.players[i]
        seat = self._seat(i)
        if stat == "will" and p.locked:
            events.append(self._ev("stats.locked", f"{seat}'s WILL is locked at {p.will}; {why} is ignored"))
            return
        old = p.get(stat)
        setattr(p, stat, value)
        events.append(self._ev(rule, f"{seat} {stat.upper()} {old} -> {value} ({why})"))

    def _apply_entry(self, i: int, entry: Entry, chart: str, events: list[Event]) -> None:
        if not entry.effect:
            events.append(self._ev("door.effect-target", f"{self._seat(i)}: {entry.room} ({chart}) has no effect"))
        for stat, delta in entry.effect:
            self._change(i, stat, delta, f"{entry.room}, {chart}", events)

    def _answer(self, i: int, question: str, events: list[Event]) -> None:
        p = self.players[i]
        if question in p.questions:
            events.append(self._ev("question.answered", f"{self._seat(i)} answers the {question} question again (no further point)"))
        else:
            p.questions.append(question)
            events.append(self._ev("question.answered", f"{self._seat(i)} answers the {question} question"))

    # ---------------------------------------------------------------- applying

    def _apply(self, action: Action) -> list[Event]:
        self._legal = None
        events: list[Event] = []
        kind = action.kind
        step = self.step
        if step == "stronger":
            self._stronger(str(action["stat"]), events)
        elif step == "deal":
            self._dealt(self._drawn(action), events)
        elif step == "reveal":
            self.pending = self._drawn(action)
            house = self._seat(self.active) if self.st.solo else f"{self._seat(self._house())} (house)"
            events.append(self._ev("door.reveal", f"{house} turns over {self.pending}"))
            self._check_deck_empty(events)
            self._resolve_door(events)
        elif step == "trap-draw":
            self.pending = self._drawn(action)
            p = self.players[self.active]
            events.append(self._ev("trap.draw", f"{self._seat(self.active)} is trapped in {p.pos} and draws {self.pending}"))
            self._check_deck_empty(events)
            self.step = "trap-play"
        elif kind == "move":
            self._move(str(action["to"]), events)
        elif kind == "open":
            self._open(events)
        elif kind == "pass":
            self.polls.pop(0)
            if not self.polls:
                self.step = "declare"
        elif kind == "secret-door":
            bonus = action.get("bonus")
            self._play_secret(str(action["card"]), None if bonus is None else str(bonus), events)
        elif kind == "declare":
            self._declare(str(action["aspect"]), events)
        elif kind in ("connect", "no-connection"):
            self._connect(None if kind == "no-connection" else str(action["to"]), events)
        elif kind in ("play-face-up", "play-face-down", "discard-door"):
            self._trap_play(action, events)
        elif kind in ("escape", "next-level"):
            self._exit_choice(kind == "escape", events)
        else:  # pragma: no cover - legality is checked before _apply
            raise AssertionError(kind)
        return events

    # ---------------------------------------------------------------- setup

    def _stronger(self, stat: str, events: list[Event]) -> None:
        i = self._next_stronger()
        p = self.players[i]
        su = self.st.setup
        p.strong = stat
        p.body = su.strong if stat == "body" else su.weak
        p.will = su.strong if stat == "will" else su.weak
        events.append(self._ev("setup.stats", f"{self._seat(i)} is stronger in {stat.upper()}: WILL {p.will}, BODY {p.body}"))
        if self.st.solo:
            p.fear = su.solo_fear
            events.append(self._ev("solo.setup", f"{self._seat(i)} FEAR starts at {p.fear}"))
        else:
            p.fear = self.n if su.fear == "players" else int(su.fear)
            events.append(self._ev("setup.fear", f"{self._seat(i)} FEAR starts at {p.fear} (number of players)"))
        if all(q.strong is not None for q in self.players):
            events.append(self._ev("setup.questions-open", "every question starts unanswered"))
            centre = self.st.centre
            self.table[centre] = True
            self.adj[centre] = set()
            held = [c for c in self.st.canonical if c != centre and self.st.cards[c].role != "room"]
            jokers = [c for c in held if self.st.cards[c].role == "trap"]
            if self.st.solo and not su.solo_jokers:
                self.out = jokers
                held = [c for c in held if c not in jokers]
                events.append(self._ev("solo.setup", "the Jokers are left out of the solo game"))
            self.held_out = held
            self.deck = [c for c in self.st.canonical if self.st.cards[c].role == "room"]
            events.append(self._ev("setup.center", f"{centre} is placed face up in the centre; {len(self.deck)} cards are shuffled"))
            doors = su.solo_secret_doors if self.st.solo else su.secret_doors
            self.deal = [("cross", 0)] * su.cross
            self.deal += [("secret", i) for i in range(self.n) for _ in range(doors)]
            self.deal += [("start", i) for i in range(self.n)]
            if self.st.solo:
                events.append(self._ev("solo.setup", "no Secret Doors are dealt in the solo game"))
            self.step = "deal"

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

    def _dealt(self, card: str, events: list[Event]) -> None:
        what, i = self.deal.pop(0)
        centre = self.st.centre
        if what == "cross":
            self.table[card] = False
            self.adj[card] = {centre}
            self.adj[centre].add(card)
            events.append(self._ev("setup.cross", f"{card} is dealt face down against {centre}"))
        elif what == "secret":
            self.players[i].secret.append(card)
            events.append(self._ev("setup.secret-doors", f"{self._seat(i)} is dealt a Secret Door"))
        else:
            self.table[card] = True
            self.adj[card] = set()
            self.players[i].pos = card
            events.append(self._ev("setup.starting-room", f"{self._seat(i)} starts in {card}"))
        if self.deal:
            return
        self.aside_left = self.st.setup.set_aside * self.n
        events.append(self._ev("setup.set-aside", f"{self.aside_left} cards are set aside"))
        self.deck = sorted(self.deck + self.held_out, key=self._key)
        self.held_out = []
        events.append(
            self._ev(
                "setup.reshuffle", f"the Aces and Jokers are shuffled in and the set-aside cards go on top; the deck holds {len(self.deck)}"
            )
        )
        su = self.st.suit_rank

        def key(i: int) -> tuple[int, int]:
            card = self.st.cards[self.players[i].pos or ""]
            return (card.value, su[card.suit or ""])

        first = min(range(self.n), key=key)
        events.append(
            self._ev("start.first-player", f"{self._seat(first)} has the lowest starting Room ({self.players[first].pos}) and goes first")
        )
        self.active = first
        self._begin_turn(events)

    # ---------------------------------------------------------------- turns

    def _begin_turn(self, events: list[Event]) -> None:
        i = self.active
        p = self.players[i]
        house = self._house()
        if self.st.solo:
            events.append(self._ev("solo.own-doors", f"{self._seat(i)} is active and turns over their own Doors"))
        else:
            events.append(self._ev("turn.active-player", f"{self._seat(i)} is active"))
            trapped = " (trapped, but still the house player)" if self.players[house].trapped else ""
            events.append(
                self._ev("trap.still-house" if trapped else "turn.house-player", f"{self._seat(house)} is the house player{trapped}")
            )
        assert p.pos is not None
        if p.first_turn:
            p.first_turn = False
            card = self.st.cards[p.pos]
            if card.suit is not None and card.role == "room":
                entry = self.st.charts.suit[card.suit][card.rank]
                events.append(self._ev("turn.starting-room-effect", f"{self._seat(i)}'s starting Room {p.pos} is the {entry.room}"))
                self._apply_entry(i, entry, f"{card.suit} chart", events)
        if p.trapped:
            if not self.deck:
                events.append(self._ev("trap.empty-deck", f"{self._seat(i)} is trapped and has no Door to draw"))
                self._end_turn(events)
                return
            self.step = "trap-draw"
            return
        if not self.adj[p.pos] and not self._can_open(p.pos):
            events.append(self._ev("turn.stuck", f"{self._seat(i)} can neither move nor open a Door and passes"))
            self._end_turn(events)
            return
        if not self.adj[p.pos]:
            events.append(self._ev("turn.must-leave", f"{self._seat(i)} has no adjacent card and must open a Door"))
        self.step = "choose"

    def _players_in(self) -> int:
        return sum(1 for p in self.players if not p.escaped)

    def _check_deck_empty(self, events: list[Event]) -> None:
        if not self.deck and self.countdown is None and self.end_reason is None:
            self.end_reason = "end.deck-empty"
            events.append(self._ev("end.deck-empty", "the last card of the deck has been played; every player takes one more turn"))

    def _note_exit_revealed(self, card: str, events: list[Event]) -> None:
        if card not in self.exits_revealed:
            self.exits_revealed.append(card)
            if len(self.exits_revealed) == 4 and self.end_reason is None:
                self.end_reason = "end.all-exits"
                events.append(self._ev("end.all-exits", "all four Exits are revealed; every player takes one more turn"))

    def _end_turn(self, events: list[Event]) -> None:
        p = self.players[self.active]
        p.turns += 1
        self.total_turns += 1
        self.step = "choose"
        self.pending = None
        self.door_from = ""
        self.aspect = ""
        if self._outcome is not None:
            return
        if self.countdown is not None:
            self.countdown -= 1
            if self.countdown <= 0:
                self._finish(self.end_reason or "end.deck-empty", "every player has taken their last turn", events)
                return
        elif self.end_reason is not None:
            self.countdown = self._players_in()
        if self.total_turns >= self.st.setup.turns_per_player * self.n:
            self._finish("end.turn-limit", f"{self.total_turns} turns have been played", events)
            return
        nxt = self.active
        for _ in range(self.n):
            nxt = (nxt + 1) % self.n
            if not self.players[nxt].escaped:
                break
        else:  # pragma: no cover - the game ends once everyone has escaped
            raise AssertionError("no player left to take a turn")
        if self.n > 1:
            events.append(self._ev("turn.next", f"{self._seat(nxt)} becomes the active player"))
        self.active = nxt
        self._begin_turn(events)

    # ---------------------------------------------------------------- moving and doors

    def _move(self, to: str, events: list[Event]) -> None:
        i = self.active
        p = self.players[i]
        events.append(self._ev("move.adjacent", f"{self._seat(i)} moves from {p.pos} to {to}"))
        p.pos = to
        if not self.table[to]:
            events.append(self._ev("table.face-down-entry", f"{to} is face down: {self._seat(i)} opens it in place"))
            self.pending = to
            self.door_from = "in-place"
            self.step = "declare"
            return
        events.append(self._ev("move.revealed-no-effect", f"{to} is already revealed: no effect"))
        self._enter(to, False, events)

    def _open(self, events: list[Event]) -> None:
        i = self.active
        events.append(self._ev("door.open", f"{self._seat(i)} opens a new Door"))
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
        events.append(self._ev("secret.play", f"{self._seat(j)} plays a Secret Door on {target}"))
        self.step = "declare"

    def _declare(self, aspect: str, events: list[Event]) -> None:
        i = self.active
        seat = self._seat(i)
        self.aspect = aspect
        events.append(self._ev("door.declare", f"{seat} declares {aspect.capitalize()}"))
        if self.door_from == "secret":
            events.append(self._ev("secret.still-declare", f"the Secret Door {self.pending} is turned over for {seat}"))
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
            events.append(self._ev("table.face-down-entry", f"{card_id} is turned face up"))
        if card.role == "way-out":
            events.append(self._ev("door.no-chart-for-exits-and-traps", f"{card_id} is an Ace: no chart effect"))
        elif card.role == "trap":
            events.append(self._ev("door.no-chart-for-exits-and-traps", f"{card_id} is a Joker: no chart effect"))
        elif aspect == "color":
            colour = card.colour or ""
            match = sorted(
                (c for c in self.table if c != card_id and self.table[c] and self.st.cards[c].rank == card.rank),
                key=self._key,
            )
            if match:
                stat = "body" if colour == "black" else "will"
                events.append(self._ev("door.color-match", f"{card.rank} is already on the table ({match[0]}): +1 {stat.upper()} instead"))
                self._change(i, stat, 1, "matching value", events)
            else:
                entry = self.st.charts.colour[colour][card.rank]
                events.append(self._ev("door.color", f"{card_id} on the {colour.capitalize()} chart: the {entry.room}"))
                self._apply_entry(i, entry, f"{colour} chart", events)
        else:
            entry = self.st.charts.suit[card.suit or ""][card.rank]
            events.append(self._ev("door.suit", f"{card_id} on the {card.suit} chart: the {entry.room}"))
            self._apply_entry(i, entry, f"{card.suit} chart", events)
        if self.door_from == "secret" and self.secret_by == i and self.secret_bonus is not None:
            events.append(self._ev("secret.self-bonus", f"{seat} played the Secret Door on themself: +1 {self.secret_bonus.upper()}"))
            self._change(i, self.secret_bonus, 1, "Secret Door on themself", events)
        self.secret_by = None
        self.secret_bonus = None
        if card.role == "way-out":
            events.append(self._ev("door.ace-way-out", f"{card_id} is a Way Out"))
            self._note_exit_revealed(card_id, events)
        if self.door_from == "in-place":
            self._enter(card_id, True, events)
            return
        pos = self.players[i].pos
        assert pos is not None
        self.table[card_id] = True
        self.adj[card_id] = {pos}
        self.adj[pos].add(card_id)
        events.append(self._ev("door.place", f"{card_id} is placed against {pos}"))
        if self._connect_targets(card_id, pos):
            self.step = "connect"
            return
        self._enter(card_id, True, events)

    def _connect(self, target: str | None, events: list[Event]) -> None:
        card = self.pending
        assert card is not None
        if target is not None:
            if len(self.adj[target]) >= self.st.setup.edges:
                events.append(self._ev("table.adjacency", f"{target} has no free edge: the cards are moved to make the connection"))
            self.adj[card].add(target)
            self.adj[target].add(card)
            events.append(self._ev("door.connect", f"{card} is connected to {target}"))
        self._enter(card, True, events)

    def _enter(self, card: str, revealed_now: bool, events: list[Event]) -> None:
        i = self.active
        seat = self._seat(i)
        p = self.players[i]
        p.pos = card
        self.pending = None
        if revealed_now:
            events.append(self._ev("door.enter", f"{seat} enters {card}"))
        role = self.st.cards[card].role
        if role == "trap":
            if revealed_now:
                events.append(self._ev("door.joker-trap", f"{card} is a Trap"))
                p.trapped = True
                self.milestones.add("trap")
                events.append(self._ev("trap.trapped", f"{seat} is trapped in {card}"))
            else:
                self._rescue(i, card, events)
        elif role == "way-out":
            if not revealed_now:
                events.append(self._ev("exit.revisit", f"{seat} moves onto the revealed Way Out {card}"))
            if self.st.multilevel and card not in self.levels:
                self._new_level(card, events)
            self._exit(i, card, events)
            return
        else:
            self._rescue(i, card, events)
        self._end_turn(events)

    def _rescue(self, i: int, card: str, events: list[Event]) -> None:
        freed = [j for j, q in enumerate(self.players) if j != i and q.trapped and q.pos == card]
        for j in freed:
            self.players[j].trapped = False
            events.append(self._ev("trap.rescue", f"{self._seat(i)} frees {self._seat(j)} from the Trap"))
            self._set(j, "fear", self.st.setup.rescue_fear, "trap.rescue", "rescued", events)
        if freed:
            self._set(i, "fear", self.st.setup.rescue_fear, "trap.rescue", "rescuer", events)

    def _discard_face_up_except(self, kept: Collection[str | None]) -> list[str]:
        """Discard every face-up card on the table but ``kept`` (a new level starts from them);
        returns the cards discarded."""
        gone = [c for c in sorted(self.table, key=self._key) if self.table[c] and c not in kept]
        for c in gone:
            for other in self.adj.pop(c):
                if other in self.adj:
                    self.adj[other].discard(c)
            del self.table[c]
            self.discard.append(c)
        return gone

    def _new_level(self, card: str, events: list[Event]) -> None:
        self.levels.append(card)
        scores = []
        for j, q in enumerate(self.players):
            q.notes.append(q.score())
            scores.append(f"{self._seat(j)} {q.score()}")
        events.append(self._ev("multi.note-scores", f"level {len(self.levels)} at {card}: scores noted: " + ", ".join(scores)))
        gone = self._discard_face_up_except({q.pos for q in self.players if not q.escaped})
        events.append(self._ev("multi.discard", f"{len(gone)} unoccupied face-up cards are discarded; play continues from {card}"))

    def _exit(self, i: int, card: str, events: list[Event]) -> None:
        p = self.players[i]
        seat = self._seat(i)
        colour = self.st.cards[card].colour or "red"
        result = exit_result(p.will, p.body, p.fear, colour)
        self.milestones.add("exit")
        events.append(self._ev("exit.check", f"{seat} at {card} ({colour} Exit): WILL {p.will}, BODY {p.body}, FEAR {p.fear} -> {result}"))
        if p.body == p.will and not (p.fear > p.body):
            events.append(
                self._ev(
                    "exit.tie-colour", f"BODY and WILL tie: the {colour} Exit makes {'WILL' if colour == 'red' else 'BODY'} count as higher"
                )
            )
        if p.fear == max(p.will, p.body) and p.will != p.body:
            events.append(self._ev("exit.fear-ties", "FEAR ties the top stat, so the other stat counts as highest"))
        if result == "fear-blocked":
            events.append(self._ev("exit.fear-highest", f"{seat}'s FEAR is highest: {seat} cannot take the Exit"))
            self._answer(i, "fear", events)
            self._end_turn(events)
            return
        if result == "will-locked":
            events.append(self._ev("exit.will-highest", f"{seat}'s WILL is highest"))
            self._answer(i, "remember", events)
            if p.locked:
                events.append(self._ev("exit.will-locked", f"{seat} cannot escape; WILL stays locked at {p.will}"))
            else:
                p.locked = True
                events.append(self._ev("exit.will-locked", f"{seat} cannot escape; WILL is locked at {p.will}"))
            self._end_turn(events)
            return
        if result == "will-escape":
            events.append(self._ev("exit.will-highest", f"{seat}'s WILL is highest"))
            self._answer(i, "remember", events)
        else:
            events.append(self._ev("exit.body-highest", f"{seat}'s BODY is highest"))
        if self.st.multilevel and len(self.exits_revealed) < 4:
            events.append(
                self._ev("multi.no-early-escape", f"only {len(self.exits_revealed)} Exits are revealed: {seat} cannot escape yet")
            )
            self._end_turn(events)
            return
        if self.st.solo and self.st.next_level:
            self.pending = card
            self.step = "exit-choice"
            return
        self._escape(i, card, result, events)

    def _exit_choice(self, escape: bool, events: list[Event]) -> None:
        i = self.active
        card = self.pending
        assert card is not None
        if escape:
            p = self.players[i]
            colour = self.st.cards[card].colour or "red"
            self._escape(i, card, exit_result(p.will, p.body, p.fear, colour), events)
            return
        gone = self._discard_face_up_except({card})
        self.levels.append(card)
        events.append(
            self._ev("solo.next-level", f"{self._seat(i)} goes on to level {len(self.levels) + 1}: {len(gone)} face-up cards are discarded")
        )
        self._end_turn(events)

    def _escape(self, i: int, card: str, result: str, events: list[Event]) -> None:
        p = self.players[i]
        seat = self._seat(i)
        if result == "will-escape":
            events.append(self._ev("exit.will-escape", f"{seat}'s BODY is above FEAR: {seat} escapes"))
            self._answer(i, "bring", events)
        else:
            events.append(self._ev("exit.body-highest", f"{seat} escapes"))
            self._answer(i, "bring", events)
            if result == "body-mad":
                events.append(self._ev("exit.body-mad", f"{seat}'s FEAR is not below WILL: {seat} loses their sanity"))
                self._set(i, "will", 0, "exit.body-mad", "lost sanity", events)
            else:
                events.append(self._ev("exit.body-remember", f"{seat}'s WILL is above FEAR: {seat} remembers"))
                self._answer(i, "remember", events)
        p.escaped = True
        p.trapped = False
        self.milestones.add("escape")
        self.pending = None
        if self.st.long:
            events.append(self._ev("exit.escaped", f"{seat} has escaped; they open no more Doors"))
            if self._players_in() == 0:
                self._finish("long.play-on", "everyone has escaped", events)
                return
            self._end_turn(events)
            return
        events.append(self._ev("end.escape", f"{seat} has escaped: the game ends"))
        p.turns += 1
        self.total_turns += 1
        self._finish("end.escape", f"{seat} escaped", events)

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
            events.append(self._ev("trap.play-face-up", f"{self._seat(i)} plays {card} face up against {p.pos}, connected to {target}"))
            if self.st.cards[card].role == "way-out":
                self._note_exit_revealed(card, events)
        elif action.kind == "play-face-down":
            beside = str(action["beside"])
            self.table[card] = False
            self.adj[card] = {beside}
            self.adj[beside].add(card)
            events.append(self._ev("trap.play-face-down", f"{self._seat(i)} plays a card face down against {beside}"))
        else:
            self.discard.append(card)
            events.append(self._ev("trap.play-face-down", f"no card has a free edge: {self._seat(i)} discards the drawn card"))
        self.pending = None
        self._end_turn(events)

    # ---------------------------------------------------------------- the end

    def _finish(self, rule: str, why: str, events: list[Event]) -> None:
        self.step = "over"
        self.pending = None
        if rule != "end.escape":
            events.append(self._ev(rule, f"the game ends: {why}"))
        scores = {i: p.score() for i, p in enumerate(self.players)}
        for i, p in enumerate(self.players):
            events.append(
                self._ev("score.total", f"{self._seat(i)} scores {p.will} + {p.body} - {p.fear} + {len(p.questions)} = {scores[i]}")
            )
            if p.trapped:
                events.append(self._ev("trap.fate", f"{self._seat(i)} is still trapped and meets the worst fate"))
        eligible = [i for i, p in enumerate(self.players) if not p.trapped]
        escaped = [i for i, p in enumerate(self.players) if p.escaped]
        if self.st.solo:
            if escaped:
                events.append(self._ev("solo.win", "P1 escaped and wins"))
                self._outcome = Outcome("escape", ("P1",), f"score {scores[0]}")
            else:
                events.append(self._ev("solo.win", "P1 failed to escape and is trapped in the house forever"))
                self._outcome = Outcome("lost", (), f"score {scores[0]}")
            return
        if self.st.multilevel:
            totals = {i: sum(self.players[i].notes) + scores[i] for i in eligible}
            self._best(totals, "multi.winner", "cumulative", events)
            return
        if self.st.long:
            self._best({i: scores[i] for i in escaped if i in eligible}, "long.winner", "escape", events)
            return
        if escaped:
            i = escaped[0]
            events.append(self._ev("win.escaped", f"{self._seat(i)} escaped and wins"))
            self._outcome = Outcome("escape", (self._seat(i),), f"score {scores[i]}")
            return
        self._best({i: scores[i] for i in eligible}, "win.points", "points", events)

    def _best(self, totals: Mapping[int, int], rule: str, result: str, events: list[Event]) -> None:
        positive = {i: s for i, s in totals.items() if s > 0}
        if not positive:
            events.append(self._ev("win.nobody", "no player has a positive total: nobody wins"))
            self._outcome = Outcome("nobody", (), "")
            return
        top = max(positive.values())
        winners = tuple(self._seat(i) for i in sorted(positive) if positive[i] == top)
        if len(winners) > 1:
            events.append(self._ev("win.ties", f"{', '.join(winners)} tie with {top} and share the win"))
        events.append(self._ev(rule, f"{', '.join(winners)} wins with {top}"))
        self._outcome = Outcome(result, winners, f"best total {top}")


# --------------------------------------------------------------------------------------------
# Game definition


def new_game(spec: GameSpec, players: int, options: Mapping[str, Any]) -> HauntedState:
    """A fresh game before anyone has chosen BODY or WILL (no randomness: chance draws every card)."""
    if not 1 <= players <= 6:
        raise ValueError(f"haunted is for 1-6 players, not {players}")
    return HauntedState(_static(spec, players, options), players)


#: Rule ids the engine cites (tests/test_haunted.py checks each is defined in rules.yaml).
ENGINE_RULES: tuple[str, ...] = (
    "setup.stats",
    "setup.fear",
    "setup.questions-open",
    "setup.center",
    "setup.cross",
    "setup.secret-doors",
    "setup.starting-room",
    "setup.set-aside",
    "setup.reshuffle",
    "start.first-player",
    "turn.active-player",
    "turn.house-player",
    "trap.still-house",
    "turn.must-leave",
    "table.adjacency",
    "turn.starting-room-effect",
    "turn.stuck",
    "turn.next",
    "door.open",
    "door.declare",
    "door.reveal",
    "door.color",
    "door.color-match",
    "door.suit",
    "door.effect-target",
    "door.no-chart-for-exits-and-traps",
    "door.place",
    "door.connect",
    "door.enter",
    "door.ace-way-out",
    "door.joker-trap",
    "table.face-down-entry",
    "move.adjacent",
    "move.revealed-no-effect",
    "exit.check",
    "exit.revisit",
    "exit.fear-highest",
    "exit.fear-ties",
    "exit.body-highest",
    "exit.body-mad",
    "exit.body-remember",
    "exit.will-highest",
    "exit.will-locked",
    "exit.will-escape",
    "exit.tie-colour",
    "exit.escaped",
    "trap.trapped",
    "trap.draw",
    "trap.play-face-up",
    "trap.play-face-down",
    "trap.empty-deck",
    "trap.rescue",
    "trap.fate",
    "secret.play",
    "secret.still-declare",
    "secret.self-bonus",
    "stats.floor-zero",
    "stats.locked",
    "end.escape",
    "end.all-exits",
    "end.deck-empty",
    "end.turn-limit",
    "score.total",
    "question.answered",
    "win.escaped",
    "win.points",
    "win.nobody",
    "win.ties",
    "long.play-on",
    "long.winner",
    "solo.setup",
    "solo.own-doors",
    "solo.win",
    "solo.next-level",
    "multi.note-scores",
    "multi.discard",
    "multi.no-early-escape",
    "multi.winner",
)


def cross_check(spec: GameSpec) -> list[SpecError]:
    """Checks spanning files: the deck's suits and ranks, and chart coverage.

    (Rule ids are checked by the shared rule checks; ENGINE_RULES is checked by the tests.)"""
    errors: list[SpecError] = []
    deck = spec.one("haunted-deck")
    data = deck.data
    for key, field in (("suits", "id"), ("suits", "letter"), ("suits", "rank"), ("ranks", "rank"), ("ranks", "value")):
        seen: dict[Any, int] = {}
        for index, entry in enumerate(data[key]):
            if entry[field] in seen:
                errors.append(
                    SpecError(
                        deck.where((key, index, field)),
                        f"duplicate {field} {entry[field]!r} in {key}",
                        ((deck.where((key, seen[entry[field]], field)), "first given here"),),
                    )
                )
            seen.setdefault(entry[field], index)
    way_outs = [r["rank"] for r in data["ranks"] if r.get("role") == "way-out"]
    if way_outs != ["A"]:
        errors.append(deck.error(("ranks",), f"exactly the Aces must be Ways Out (role: way-out), got {way_outs}"))
    letters = {s["letter"] for s in data["suits"]}
    if data["centre"][1:] not in letters:
        errors.append(deck.error(("centre",), f"centre card {data['centre']!r} names no suit of the deck"))
    for file in spec.by_kind("haunted-charts"):
        errors.extend(chart_errors(file))
    if len(spec.by_kind("haunted-charts")) != 1:
        errors.append(SpecError(Where(f"spec/{spec.game}"), "haunted needs exactly one charts file (kind haunted-charts)"))
    return errors


def notices(spec: GameSpec) -> list[str]:
    """What ``hauntcheck verify`` should say about this game's spec."""
    out = []
    for file in spec.by_kind("haunted-charts"):
        if file.data.get("source") == "provisional":
            out.append(
                f"{file.display}: the PROVISIONAL charts are in use (the source document does not print the "
                "Room Description and Card Effects charts); supply the real ones with --charts FILE"
            )
    return out


GAME = GameDef(
    id="haunted",
    title="Haunted",
    min_players=1,
    max_players=6,
    new_game=new_game,
    cross_check=cross_check,
    options=(
        Option("variant", "standard | long (play until everyone escapes) | multilevel | solo (1 player)", "standard"),
        Option("next_level", "solo: offer to go on to the next level at a Way Out instead of escaping", False),
        Option("charts", "a haunted-charts YAML file with the real Room Description and Card Effects charts", None),
    ),
    golden=(
        # Seeds chosen for coverage (most rule clauses fired in a game of moderate length).
        GoldenCase("solo-seed-140", players=1, seed=140),
        GoldenCase("solo-next-level-seed-89", players=1, seed=89, options={"next_level": True}),
        GoldenCase("two-players-seed-64", players=2, seed=64),
        GoldenCase("four-players-seed-91", players=4, seed=91),
        GoldenCase("six-players-seed-23", players=6, seed=23),
        GoldenCase("multilevel-three-players-seed-141", players=3, seed=141, options={"variant": "multilevel"}),
        GoldenCase("long-three-players-seed-99", players=3, seed=99, options={"variant": "long"}),
    ),
    milestones=("exit", "trap", "escape"),
    notices=notices,
)
