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

The package, laid out as Betrayal's is: ``charts`` (the two charts), ``model`` (cards, setup
numbers, chart entries, a player), ``base`` (the state's fields, interface, legal actions, stat
changes), the rules in layers ``turns`` (turns and the end), ``setup``, ``exits`` (the Ways
Out) and ``doors`` (moving, Doors, traps), which ``state`` completes as
:class:`HauntedState`. This module reads the options and defines :data:`GAME`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.games import GameDef, GoldenCase, Option, rulebook
from hauntcheck.engine.haunted.charts import cached_charts, chart_errors, charts_from, load_charts
from hauntcheck.engine.haunted.exits import exit_result
from hauntcheck.engine.haunted.model import (
    EXIT_RESULTS,
    QUESTIONS,
    RANKS_WITH_CHARTS,
    STATS,
    VARIANTS,
    Card,
    Charts,
    Entry,
    Player,
    Setup,
    Static,
    read_deck,
)
from hauntcheck.engine.haunted.picture import draw_svg
from hauntcheck.engine.haunted.position import build_position
from hauntcheck.engine.haunted.state import HauntedState
from hauntcheck.engine.spec import GameSpec, SpecError, Where


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

    def build(spec: GameSpec) -> Static:
        charts = cached_charts(str(charts_path)) if charts_path else spec.derived(
            "haunted.charts", lambda spec: charts_from(spec.one("haunted-charts")))
        cards, canonical, suit_rank, centre, setup = spec.derived("haunted.deck", read_deck)
        return Static(spec.derived("rulebook", rulebook), cards, canonical, suit_rank, centre, setup, charts, variant, next_level)

    # Built once per spec and options: the deck, charts and rule book are read-only.
    return spec.derived(f"haunted.static/{variant}/{next_level}/{charts_path or ''}", build)


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
    draw_svg=draw_svg,
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
        # Endings the cases above never reach (issue 22: every clause exercised): nobody escapes
        # and the best score wins, or ties, or no score is positive; the turn limit; everyone out.
        GoldenCase("points-two-players-seed-6", players=2, seed=6),
        GoldenCase("tie-six-players-seed-6", players=6, seed=6),
        GoldenCase("nobody-wins-two-players-seed-134", players=2, seed=134),
        GoldenCase("turn-limit-two-players-seed-20", players=2, seed=20),
        GoldenCase("long-all-escape-two-players-seed-0", players=2, seed=0, options={"variant": "long"}),
    ),
    milestones=("exit", "trap", "escape"),
    notices=notices,
    position=build_position,
)

# Every public name of the single module this package replaced, so that every import keeps working.
__all__ = [
    "ENGINE_RULES",
    "EXIT_RESULTS",
    "GAME",
    "QUESTIONS",
    "RANKS_WITH_CHARTS",
    "STATS",
    "VARIANTS",
    "Card",
    "Charts",
    "Entry",
    "HauntedState",
    "Player",
    "Setup",
    "Static",
    "build_position",
    "chart_errors",
    "charts_from",
    "cross_check",
    "exit_result",
    "load_charts",
    "new_game",
    "notices",
]
