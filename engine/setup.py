"""Starting a game from its setup (players and options), checked the same way wherever the setup
comes from: ``play``'s command line, a transcript's header (``replay``, ``report``, ``verify``'s
golden replays) or a scenario.

A transcript's header is checked field by field: each field either matters to replay and is
checked, or is refused as unknown (see :func:`header_errors`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.core import GameState
from hauntcheck.engine.games import GameDef, UnknownGame, get_game
from hauntcheck.engine.spec import SPEC_LANGUAGE, GameSpec, SpecError, SpecErrors
from hauntcheck.engine.transcript import Transcript

#: The controllers `play` and `golden` record; `scripted` is what a hand-made log says.
CONTROLLERS = ("random", "first-legal", "policy", "scripted")


class SetupError(ValueError):
    """A setup the game refuses; ``field`` is the header field at fault (players or options)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def check_players(definition: GameDef, players: int) -> None:
    if not definition.min_players <= players <= definition.max_players:
        raise SetupError("players", f"{definition.id} is for {definition.min_players}-{definition.max_players} players, not {players}")


def check_option_names(definition: GameDef, options: Mapping[str, Any]) -> None:
    known = {o.name for o in definition.options}
    for name, value in options.items():
        if name not in known:
            listing = ", ".join(sorted(known)) or "none"
            raise SetupError("options", f"{definition.id} has no option {name!r}; its options: {listing}")
        if value is not None and not isinstance(value, str | int | bool):
            raise SetupError("options", f"option {name} must be a word, a number or true/false, got {type(value).__name__} {value!r}")


def start(definition: GameDef, spec: GameSpec, players: int, options: Mapping[str, Any]) -> GameState:
    """The game's initial state, after the same checks `play` makes; raises SetupError."""
    check_players(definition, players)
    check_option_names(definition, options)
    try:
        return definition.new_game(spec, players, options)
    except (ValueError, LookupError, TypeError) as exc:  # a game refuses an option value naming the option
        raise SetupError("options", reason(exc)) from None


# --------------------------------------------------------------------------------------------
# Transcript headers


def game_of(log: Transcript) -> GameDef:
    """The game a transcript names, or an error at its ``game`` line."""
    try:
        return get_game(log.header.game)
    except UnknownGame as exc:
        raise SpecErrors([SpecError(log.where(("game",)), str(exc))]) from None


def header_errors(log: Transcript, definition: GameDef) -> list[SpecError]:
    """Fields of the header that replay cannot accept, each at its line: the spec version, the
    controller, the stop milestone and the seed (which replay never uses, but which must be what
    `play` writes)."""
    h = log.header
    errors = []
    if h.spec_version != SPEC_LANGUAGE:
        errors.append(SpecError(log.where(("spec", "version")), f"spec version {h.spec_version}; this hauntcheck reads {SPEC_LANGUAGE}"))
    if h.controller not in CONTROLLERS:
        listing = ", ".join(CONTROLLERS)
        errors.append(SpecError(log.where(("controller",)), f"unknown controller {h.controller!r}; expected one of: {listing}"))
    if h.stop is not None and h.stop not in definition.milestones:
        listing = ", ".join(definition.milestones) or "none"
        errors.append(SpecError(log.where(("stop",)), f"{definition.id} has no milestone {h.stop!r}; its milestones: {listing}"))
    return errors


def start_from_header(log: Transcript, definition: GameDef, spec: GameSpec) -> GameState:
    """The initial state a transcript's header describes, or every header error at its line."""
    errors = header_errors(log, definition)
    try:
        state = start(definition, spec, log.header.players, log.header.options)
    except SetupError as exc:
        hint = "; a game of a designer's haunt replays with the same --haunt-file" if "option haunt=" in exc.message else ""
        errors.append(SpecError(log.where((exc.field,)), exc.message + hint))
    except SpecErrors as exc:  # an option naming a file that is missing or wrong
        errors.append(SpecError(log.where(("options",)), "an option names a file that cannot be used"))
        errors.extend(exc.errors)
    if errors:
        raise SpecErrors(errors)
    return state


def reason(exc: Exception) -> str:
    """An exception's message (a KeyError's str() is its key quoted)."""
    return str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
