"""Reaching a haunt without a seed search: a designer's haunt file, and games started at the reveal.

* :func:`spec_with_haunt` - the bundled Betrayal spec with one more haunt file (a designer's draft
  from anywhere, or a changed copy of one of the book's haunts, which then stands in for it);
* :func:`game_at_reveal` - a game whose seeded exploration runs to its first reveal, where the
  asked haunt is played: the chart's haunt if it is that one (the omen, room and revealer fit),
  else the asked haunt is forced onto the reveal. No game is thrown away, so a study of a haunt's
  balance can play as many seeds as it likes. Golden games and ``play --haunt N`` keep the seed
  search, which finds a game whose reveal is the haunt's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hauntcheck.engine.betrayal.haunt import HauntState, new_game
from hauntcheck.engine.betrayal.hauntspec import DRAFT_NUMBER
from hauntcheck.engine.play import Controller, play, seeded_table
from hauntcheck.engine.spec import GameSpec, SpecFile, load_file
from hauntcheck.engine.transcript import Step, TranscriptHeader

#: Exploration steps allowed before a reveal; a seeded exploration that takes more is reported.
EXPLORATION_STEPS = 20_000


def load_haunt_file(path: Path) -> SpecFile:
    """A haunt file from anywhere, loaded safely and checked against the haunt schema
    (:class:`~hauntcheck.engine.spec.SpecErrors` names each problem at file:line:column)."""
    spec_file = load_file(path, str(path))
    if spec_file.kind != "haunt":
        raise ValueError(f"{path}: a haunt file has kind: haunt, not {spec_file.kind!r}")
    return spec_file


def haunt_number(spec_file: SpecFile) -> int:
    """The number a haunt file plays under (a draft without one plays as 0)."""
    number = spec_file.data.get("number", DRAFT_NUMBER)
    return int(number)


def spec_with_haunt(bundled: GameSpec, spec_file: SpecFile) -> GameSpec:
    """``bundled`` with the haunt file added; a bundled haunt of the same number leaves."""
    number = haunt_number(spec_file)
    files = {name: f for name, f in bundled.files.items() if not (f.kind == "haunt" and f.data.get("number") == number)}
    files[spec_file.display] = spec_file
    return GameSpec(bundled.game, bundled.root, files, bundled.sources)


def game_at_reveal(spec: GameSpec, haunt: int, players: int, seed: int, options: Mapping[str, Any] | None = None,
                   controller: Controller | None = None) -> tuple[HauntState, list[Step]]:
    """A game of ``players`` whose exploration, played by the decisions of ``seed`` (random, or
    ``controller``'s), runs to its first reveal; haunt ``haunt`` is the one played there (forced
    onto the reveal when the chart gives another). Returns the state at the reveal - the haunt has
    begun, and its first decision (of its setup, or of its first turn) is the next step - and the
    exploration's steps. LookupError when the
    exploration ends (or runs past :data:`EXPLORATION_STEPS`) without a reveal."""
    state = new_game(spec, players, {**(options or {}), "haunt": haunt, "force_haunt": True})
    header = TranscriptHeader(game="betrayal", players=players, seed=seed)
    result = play(state, seeded_table(seed, controller), header, stop="reveal", max_steps=EXPLORATION_STEPS)
    if result.stopped != "reveal":
        raise LookupError(f"seed {seed}: the exploration of {players} players ended without a reveal "
                          f"({result.stopped or 'the game ended'})")
    return state, result.transcript.steps
