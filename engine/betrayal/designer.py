"""``hauntcheck play betrayal --haunt-file FILE`` and ``--from-reveal``: a designer's haunt played
from anywhere, and a haunt played from its reveal (see :mod:`.reveal`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.betrayal.haunt.playable import gaps
from hauntcheck.engine.betrayal.reveal import game_at_reveal, haunt_number, load_haunt_file, spec_with_haunt
from hauntcheck.engine.games import GameDef, game_spec
from hauntcheck.engine.play import PolicyController, play, seeded_table
from hauntcheck.engine.spec import GameSpec, SpecError, SpecErrors, SpecFile
from hauntcheck.engine.transcript import Step, TranscriptHeader

Linter = Callable[[SpecFile, Path], list[SpecError]]


def haunt_file_options(definition: GameDef, args: argparse.Namespace, options: Mapping[str, Any],
                       lint: Linter) -> tuple[GameSpec, dict[str, Any]]:
    """The spec to play (the bundled one, with ``--haunt-file`` added) and the game options: the
    haunt to play, forced onto the reveal. A file that does not lint clean, or that the engine
    cannot play, is refused with each problem at file:line:column."""
    from hauntcheck.engine.commands.common import UsageError

    if definition.id != "betrayal":
        raise UsageError("--haunt-file and --from-reveal are Betrayal options")
    spec = game_spec("betrayal")
    out = dict(options)
    if args.haunt_file:
        path = Path(args.haunt_file)
        if not path.is_file():
            raise UsageError(f"--haunt-file {args.haunt_file}: no such file")
        spec_file = load_haunt_file(path)  # SpecErrors: each schema problem at its place
        problems = lint(spec_file, path)
        if problems:
            raise SpecErrors(problems)
        missing = [gap.at(spec_file.where) for gap in gaps(spec_file.data)]
        if missing:
            raise UsageError("the engine cannot play this haunt yet:\n  " + "\n  ".join(missing))
        spec = spec_with_haunt(spec, spec_file)
        out["haunt"] = haunt_number(spec_file)
    elif out.get("haunt") in (None, ""):
        raise UsageError("--from-reveal plays the haunt of --haunt N or --haunt-file FILE: name one")
    out["force_haunt"] = True
    return spec, out


def record_from_reveal(definition: GameDef, args: argparse.Namespace, spec: GameSpec, options: Mapping[str, Any],
                       controller: str, show: Callable[[Any, Step], None],
                       say: Callable[[str], None]) -> transcripts.Transcript:
    """The game of ``--from-reveal``: the seeded exploration runs to its reveal unprinted, then the
    haunt is played and printed from there. The transcript holds every step (it replays from
    setup, given the same haunt file)."""
    from hauntcheck.engine.commands.common import UsageError

    players, seed = args.players, args.seed
    if not definition.min_players <= players <= definition.max_players:
        raise UsageError(f"{definition.id} is for {definition.min_players}-{definition.max_players} players, not {players}")
    chooser = PolicyController(definition.policy, seed) if controller == "policy" and definition.policy else None
    haunt = int(options["haunt"])
    rest = {k: v for k, v in options.items() if k not in ("haunt", "force_haunt")}
    try:
        state, explored = game_at_reveal(spec, haunt, players, seed, rest, chooser)
    except (LookupError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    assert state.haunt is not None
    say(f"seed {seed}: the exploration reaches its reveal after {len(explored)} steps (revealer {state.haunt['revealer']}, "
        f"{state.haunt['omen']} in {state.haunt['room']}); haunt {haunt} is played from there")
    header = TranscriptHeader(game=definition.id, players=players, options=dict(options), spec_hash=spec.content_hash(),
                              title=definition.title, seed=seed, controller=controller)

    def renumbered(st: Any, step: Step) -> None:
        step.n += len(explored)
        show(st, step)

    result = play(state, seeded_table(seed, chooser), header, max_steps=args.max_steps, on_step=renumbered)
    log = result.transcript
    log.steps[:0] = explored
    log.header.roster = state.roster()
    return log
