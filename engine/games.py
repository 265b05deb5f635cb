"""The games hauntcheck knows, and what each one provides to the CLI and the checks.

Each game lives in its own module (``hauntcheck.engine.<module>``) that defines ``GAME``, a
:class:`GameDef`. The registry imports a game's module only when the game is used.

An outside package adds a game without editing hauntcheck through the ``hauntcheck.games``
entry-point group: the name is the game id, the value a module defining ``GAME`` (or
``module:ATTRIBUTE`` naming the GameDef). Its GameDef gives ``spec_root`` (a folder holding
``<game>/`` spec files, ``schema/`` and ``sources.yaml``) and ``scenario_root`` when its spec and
transcripts are not bundled with hauntcheck::

    [project.entry-points."hauntcheck.games"]
    my-game = "my_package.game"
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import importlib.util
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from hauntcheck.engine.core import Action, Event, GameState, Rule, RuleBook
from hauntcheck.engine.spec import SPEC_ROOT, GameSpec, SpecError, load_game

#: Game id -> module under hauntcheck.engine that defines GAME.
GAME_MODULES: dict[str, str] = {
    "betrayal": "hauntcheck.engine.betrayal",
    "halls-of-horror": "hauntcheck.engine.halls",
    "haunted": "hauntcheck.engine.haunted",
}
#: The entry-point group through which outside packages register games.
ENTRY_POINT_GROUP = "hauntcheck.games"


@dataclass(frozen=True)
class Option:
    """A setup option a game accepts (``hauntcheck play GAME --option name=value``)."""

    name: str
    help: str
    default: Any = None


@dataclass(frozen=True)
class GoldenCase:
    """One golden transcript: a game played by seeded controllers, kept under
    ``scenarios/<game>/<folder>/<name>.yaml``."""

    name: str
    players: int
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    controller: str = "random"
    stop: str | None = None
    folder: str = "golden"


class Auditor(Protocol):
    def observe(self, state: GameState, actor: str, action: Action, events: Sequence[Event]) -> list[str]: ...


@dataclass(frozen=True)
class GameDef:
    """What a game module provides.

    ``new_game(spec, players, options)`` returns the initial state (no randomness: shuffles and
    dice are chance actions). Options may hold ``variants``: named rule variants switched on.
    ``cross_check(spec)`` returns errors that span files (a haunt naming
    a room that does not exist). ``policy(state, rng)`` is an optional goal-directed controller.
    """

    id: str
    title: str
    min_players: int
    max_players: int
    new_game: Callable[[GameSpec, int, Mapping[str, Any]], GameState]
    cross_check: Callable[[GameSpec], list[SpecError]] = lambda spec: []
    options: tuple[Option, ...] = ()
    golden: tuple[GoldenCase, ...] = ()
    policy: Callable[..., Any] | None = None
    milestones: tuple[str, ...] = ()
    notices: Callable[[GameSpec], list[str]] = lambda spec: []
    #: Build a state directly from a scenario's ``position`` mapping (raises
    #: scenario.PositionError naming the paths at fault): (spec, players, options, position).
    position: Callable[[GameSpec, int, Mapping[str, Any], Mapping[str, Any]], GameState] | None = None
    #: The inverse: a state as a ``position`` mapping, for `hauntcheck report`.
    describe_position: Callable[[GameState], dict[str, Any]] | None = None
    #: When ``describe_position`` describes a state in the middle of a process at an earlier
    #: decision: the (actor, action) pairs recorded from there to the state itself.
    lead_up: Callable[[GameState], list[tuple[str, Action]]] | None = None
    #: The game's own invariants: a list of violations (empty when the state is sound), checked
    #: after every step by the state machines and random-walk tests.
    invariants: Callable[[GameState], list[str]] | None = None
    #: A fresh observer of a game's applied actions (``observe(state, actor, action, events)``
    #: returns the rules an action broke), checking limits across steps that no single state shows
    #: (Betrayal: one attack and one action per item a turn). The state machines feed it every step.
    audit: Callable[[], Auditor] | None = None
    #: For options that ask for a kind of game (Betrayal's ``haunt``): the first seed from a start
    #: whose game, played by the ``policy`` controller, is such a game, and the seeds passed over
    #: (each a failure of the policy to report); None when the options ask for nothing. Raises
    #: LookupError when no seed in its search range qualifies. The seed found is recorded in
    #: the transcript, so a replay never searches. (players, start seed, options).
    seed_search: Callable[[int, int, Mapping[str, Any]], tuple[int, list[int]] | None] | None = None
    #: Lines that sum a game up at the end of `hauntcheck play` (Betrayal: the haunt and traitor).
    summary: Callable[[GameState], list[str]] | None = None
    #: A picture of a state as SVG text, for `hauntcheck dispute --svg`.
    draw_svg: Callable[[GameState], str] | None = None
    #: For a game from another package: the folder holding its ``<id>/`` spec folder (with
    #: ``schema/`` and ``sources.yaml``), and the one holding its ``<id>/`` transcripts and
    #: scenarios. None: hauntcheck's bundled folders.
    spec_root: Path | None = None
    scenario_root: Path | None = None


class UnknownGame(LookupError):
    pass


def game_modules() -> dict[str, str]:
    """Game id -> where its GameDef is (``module`` defining GAME, or ``module:attribute``): the
    bundled games, then those registered by installed packages (a bundled id is never replaced)."""
    return dict(_registered())


@functools.cache
def _registered() -> tuple[tuple[str, str], ...]:
    # Cached: the installed distributions do not change while a process runs.
    found = dict(GAME_MODULES)
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(entry.name, entry.value)
    return tuple(found.items())


def available_games() -> list[str]:
    """Games whose module is present in this installation."""
    out = []
    for game, target in game_modules().items():
        if importlib.util.find_spec(target.partition(":")[0]) is not None:
            out.append(game)
    return out


def get_game(game: str) -> GameDef:
    target = game_modules().get(game)
    if target is None:
        known = ", ".join(available_games())
        raise UnknownGame(f"unknown game {game!r}; known games: {known}")
    module_name, _, attribute = target.partition(":")
    module = importlib.import_module(module_name)
    definition = getattr(module, attribute or "GAME")
    if not isinstance(definition, GameDef) or definition.id != game:
        raise UnknownGame(f"{target} (registered as game {game!r}) does not define a GameDef with id {game!r}")
    return definition


_SPEC_CACHE: dict[tuple[str, Path], GameSpec] = {}


def game_spec(game: str, root: Path | None = None) -> GameSpec:
    """The loaded spec of a game (cached per process; specs are read-only once loaded), from
    ``root`` or else the game's own spec folder (hauntcheck's bundled specs by default)."""
    if root is None:
        root = (get_game(game).spec_root if game in game_modules() else None) or SPEC_ROOT
    key = (game, root.resolve())  # a relative root names another folder after a chdir
    if key not in _SPEC_CACHE:
        _SPEC_CACHE[key] = load_game(game, root)
    return _SPEC_CACHE[key]


def rulebook(spec: GameSpec) -> RuleBook:
    """The game's rule clauses by id, from its rules.yaml."""
    rules = spec.one("rules").data["rules"]
    return RuleBook(spec.game, {r["id"]: Rule(r["id"], r["says"]) for r in rules})


def rule_id_errors(spec: GameSpec) -> list[SpecError]:
    """Rule ids must be unique, and every ``see`` must name an existing id."""
    file = spec.one("rules")
    first: dict[str, int] = {}
    errors = []
    # Over a file the schema refused (lint still checks it), entries of the wrong shape are skipped.
    listed = file.data.get("rules")
    entries = list(enumerate(listed)) if isinstance(listed, list) else []
    rules = [(i, r) for i, r in entries if isinstance(r, dict) and isinstance(r.get("id"), str)]
    for index, rule in rules:
        if rule["id"] in first:
            errors.append(
                SpecError(
                    file.where(("rules", index, "id")),
                    f"duplicate rule id {rule['id']!r}",
                    ((file.where(("rules", first[rule["id"]], "id")), "first defined here"),),
                )
            )
        else:
            first[rule["id"]] = index
    for index, rule in rules:
        see = rule.get("see", [])
        for j, other in enumerate(see if isinstance(see, list) else []):
            if isinstance(other, str) and other not in first:
                errors.append(file.error(("rules", index, "see", j), f"'see' names rule {other!r}, which is not defined"))
    errors.extend(_ability_rule_errors(spec, set(first)))
    return errors


def _ability_rule_errors(spec: GameSpec, known: set[str]) -> list[SpecError]:
    """An ability's ``rule`` (the clause it carries out) must be a rule id of rules.yaml."""
    errors: list[SpecError] = []

    def walk(file: Any, node: Any, path: tuple[str | int, ...]) -> None:
        if isinstance(node, dict):
            rule = node.get("rule")
            if "trigger" in node and "do" in node and isinstance(rule, str) and rule not in known:
                errors.append(file.error((*path, "rule"), f"the ability names rule {rule!r}, which rules.yaml does not define"))
            for key, value in node.items():
                walk(file, value, (*path, key))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(file, value, (*path, i))

    for _, file in sorted(spec.files.items()):
        walk(file, file.data, ())
    return errors
