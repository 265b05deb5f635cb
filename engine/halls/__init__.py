"""Halls of Horror: Participants search a grid of Room cards for two Keys and an Exit while a
Killer, driven by the Master of the Ceremony deck, hunts them.

The engine follows the rule clauses of ``spec/halls-of-horror/rules.yaml`` (every event names
one) and reads every number and card from the spec. A turn is: secret action choice (each
Participant's choice is its own decision; legal choices depend only on the position at the start
of the turn, never on earlier secret choices), resolution in turn order (combats resolve as a
whole), and the MC phase (locks for Keys and deaths, then the MC card). Shuffles and dice are
chance actions; decks are shuffled once and drawn from the top.

Which rooms may be locked is decided by :mod:`hauntcheck.checks.halls_locks` (the path rule).

The package, laid out as Betrayal's is: ``model`` (spec data, options, the pieces), ``base`` (the
state's fields, interface and driver), the rules in layers ``search``, ``locks``, ``combat``,
``turn`` (setup and the turn) and ``killer`` (the MC phase and the Killer), which ``state``
completes as :class:`HallsState` (with its invariants); ``policy`` (the goal-directed
controller), ``position`` (dispute-scenario positions) and ``picture`` (SVG). This module
defines :data:`GAME`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.games import GameDef, GoldenCase, Option, rule_id_errors
from hauntcheck.engine.halls.model import (
    DIRS,
    GAME_ID,
    ITEM_ORDER,
    NEGATIVE,
    HallsData,
    Killer,
    Need,
    Participant,
    Room,
    RoomDef,
    Slot,
    Weapon,
    ints,
    load_data,
    num,
    option_problems,
    strs,
)
from hauntcheck.engine.halls.picture import SEAT_COLOURS, draw_svg
from hauntcheck.engine.halls.policy import policy
from hauntcheck.engine.halls.position import (
    KILLER_KEYS,
    PARTICIPANT_KEYS,
    POSITION_KEYS,
    ROOM_KEYS,
    build_position,
    describe_position,
    lead_up,
)
from hauntcheck.engine.halls.state import HallsState, invariants
from hauntcheck.engine.positions import PathKey
from hauntcheck.engine.spec import GameSpec, SpecError


def new_game(spec: GameSpec, players: int, options: Mapping[str, Any]) -> HallsState:
    checked, problems = option_problems(spec, players, options)
    if problems:
        raise ValueError(problems[0])
    return HallsState(spec, players, checked)


def cross_check(spec: GameSpec) -> list[SpecError]:
    """Errors spanning files: rule ids, layouts that do not fill their grid, unknown MC cards."""
    errors = rule_id_errors(spec)
    comp = spec.one("hoh-components")
    rooms = spec.one("hoh-rooms").data
    decks = spec.one("hoh-decks").data
    rules = {r["id"] for r in spec.one("rules").data["rules"]}
    mc_ids = {c["id"] for c in decks["mc"]}
    numbers = {r["number"] for r in rooms["rooms"]}
    for n, lay in enumerate(comp.data["layouts"]):
        free = lay["rows"] * lay["cols"] - len(lay["starts"])
        if lay["numbered_rooms"] + lay["exits"] != free:
            errors.append(comp.error(("layouts", n, "numbered_rooms"),
                                     f"{lay['numbered_rooms']} rooms + {lay['exits']} exits do not fill the {free} free squares"))
        if len(numbers - set(lay.get("remove_rooms", []))) < lay["numbered_rooms"]:
            errors.append(comp.error(("layouts", n, "numbered_rooms"), "not enough numbered rooms for this layout"))
        if lay["rule"] not in rules:
            errors.append(comp.error(("layouts", n, "rule"), f"rule {lay['rule']!r} is not in rules.yaml"))
        for m, card in enumerate(lay.get("remove_mc", [])):
            if card not in mc_ids:
                errors.append(comp.error(("layouts", n, "remove_mc", m), f"no MC card {card!r}"))
    for n, lay in enumerate(comp.data["layouts"]):
        for key in ("starts", "killer_cells"):
            for m, (r, c) in enumerate(lay[key]):
                if not (0 <= r < lay["rows"] and 0 <= c < lay["cols"]):
                    errors.append(comp.error(("layouts", n, key, m), f"cell [{r}, {c}] is outside the {lay['rows']}x{lay['cols']} grid"))
    room_file = spec.one("hoh-rooms")
    for section in ("rooms", "exits"):
        for n, room in enumerate(rooms[section]):
            errors.extend(_room_errors(room_file, (section, n), room))
    for n, start in enumerate(rooms["starting_rooms"]):
        for m, side in enumerate(start["sides"]):
            errors.extend(_room_errors(room_file, ("starting_rooms", n, "sides", m), side))
    if len(rooms["starting_rooms"]) < max(len(lay["starts"]) for lay in comp.data["layouts"]):
        errors.append(room_file.error(("starting_rooms",), "fewer starting rooms than a layout needs"))
    parts = spec.one("hoh-participants")
    for n, p in enumerate(parts.data["participants"]):
        for m, pw in enumerate(p["advanced"]["powers"]):
            if pw["rule"] not in rules:
                where = ("participants", n, "advanced", "powers", m, "rule")
                errors.append(parts.error(where, f"rule {pw['rule']!r} is not in rules.yaml"))
    return errors


def _room_errors(file: Any, path: tuple[str | int, ...], room: Mapping[str, Any]) -> list[SpecError]:
    """A room's rewards must suit its mode, and ``also`` must name another reward of the room."""
    out = []
    rewards = room.get("rewards", [])
    mode = room["mode"]
    if mode in ("search", "puzzle") and not room.get("search"):
        out.append(file.error((*path, "mode"), f"a {mode} room needs a 'search' value (cards to draw)"))
    if mode in ("automatic", "puzzle") and not rewards:
        out.append(file.error((*path, "rewards"), f"a {mode} room needs at least one reward"))
    if mode == "exit" and not room.get("needs_keys"):
        out.append(file.error((*path, "mode"), "an Exit needs 'needs_keys'"))
    for k, slot in enumerate(rewards):
        also = slot.get("also")
        if also is not None and not (0 <= also < len(rewards) and also != k):
            out.append(file.error((*path, "rewards", k, "also"), f"'also' must name another reward of this room (0-{len(rewards) - 1})"))
        if slot["reward"] in ("melee", "firearm", "utility") and "item" not in slot:
            out.append(file.error((*path, "rewards", k), f"a {slot['reward']} reward must name its item"))
        if slot["reward"] == "ammo" and "ammo" not in slot:
            out.append(file.error((*path, "rewards", k), "an ammo reward must say bullet or shell"))
    return out


def notices(spec: GameSpec) -> list[str]:
    marks = spec.marks()
    samples = sum(1 for m in marks if m.kind == "sample")
    judgements = sum(1 for m in marks if m.kind == "judgement")
    return [f"halls-of-horror: {samples} sample card entries and {judgements} judgement values are in use "
            "(the rulebook prints no card faces); owners of the game can replace them with the real card data"]


GAME = GameDef(
    id=GAME_ID,
    title="Halls of Horror",
    min_players=1,
    max_players=4,
    new_game=new_game,
    cross_check=cross_check,
    options=(
        Option("variant", "room deck: A | B | mixed (8.1, one card of each number)", "A"),
        Option("decks", "separate | combined (8.1: both room decks shuffled into one 48-card deck)", "separate"),
        Option("side", "Participant sheets: beginner | advanced (powers)", "beginner"),
    ),
    golden=(
        GoldenCase("four-players-policy-seed-3", players=4, seed=3, controller="policy"),
        GoldenCase("four-players-advanced-mixed-seed-8", players=4, seed=8, options={"variant": "mixed", "side": "advanced"}),
        GoldenCase("four-players-combined-decks-policy-seed-12", players=4, seed=12, options={"decks": "combined"}, controller="policy"),
        GoldenCase("three-players-policy-seed-4", players=3, seed=4, controller="policy"),
        GoldenCase("two-players-seed-3", players=2, seed=3),
        GoldenCase("solo-policy-seed-5", players=1, seed=5, controller="policy"),
        GoldenCase("solo-seed-3", players=1, seed=3),
    ),
    policy=policy,
    milestones=("key", "death", "exit-revealed", "killer-dies"),
    notices=notices,
    position=build_position,
    describe_position=describe_position,
    lead_up=lead_up,
    invariants=invariants,
    draw_svg=draw_svg,
)

# Every public name of the single module this package replaced, so that every import keeps working.
__all__ = [
    "DIRS",
    "GAME",
    "GAME_ID",
    "ITEM_ORDER",
    "KILLER_KEYS",
    "NEGATIVE",
    "PARTICIPANT_KEYS",
    "POSITION_KEYS",
    "ROOM_KEYS",
    "SEAT_COLOURS",
    "HallsData",
    "HallsState",
    "Killer",
    "Need",
    "Participant",
    "PathKey",
    "Room",
    "RoomDef",
    "Slot",
    "Weapon",
    "build_position",
    "cross_check",
    "describe_position",
    "draw_svg",
    "ints",
    "invariants",
    "lead_up",
    "load_data",
    "new_game",
    "notices",
    "num",
    "option_problems",
    "policy",
    "strs",
]
