"""Haunted data: the cards of the deck and the setup numbers (:func:`read_deck`), the two charts' entries,
:class:`Static` (everything a game reads and never changes) and a :class:`Player`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass

from hauntcheck.engine.core import RuleBook
from hauntcheck.engine.spec import GameSpec

STATS: tuple[str, ...] = ("will", "body", "fear")
QUESTIONS: tuple[str, ...] = ("remember", "bring", "fear")
RANKS_WITH_CHARTS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
VARIANTS: tuple[str, ...] = ("standard", "solo", "long", "multilevel")

#: Exit results, by the exit rules of "A Way Out" (see exit_result).
EXIT_RESULTS: tuple[str, ...] = ("fear-blocked", "body-mad", "body-remember", "will-locked", "will-escape")


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

    @functools.cached_property
    def order(self) -> Mapping[str, int]:
        """Each card's place in the box order (the sort key of every listing of cards)."""
        return {card.id: card.order for card in self.cards.values()}

    @property
    def solo(self) -> bool:
        return self.variant == "solo"

    @property
    def long(self) -> bool:
        return self.variant == "long"

    @property
    def multilevel(self) -> bool:
        return self.variant == "multilevel"


def read_deck(spec: GameSpec) -> tuple[dict[str, Card], tuple[str, ...], dict[str, int], str, Setup]:
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
