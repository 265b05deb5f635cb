"""What every command shares: usage errors, the project's configuration, the output format, input
files and folders, the exit status of a run, game options, pictures.

A :class:`UsageError` is a mistake in how a command was called (exit status 2, one line, no
traceback). The output format is ``--format``, else ``--json``, else the project's
``[tool.hauntcheck]`` setting, else text; a non-text run prints its report and exits 0 only when
something was checked and all of it passed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from hauntcheck.checks.output import Check, Run, render
from hauntcheck.engine.config import ConfigError, ProjectConfig
from hauntcheck.engine.config import load as load_config
from hauntcheck.engine.games import GameDef


class UsageError(Exception):
    """A mistake in how the command was called (exit status 2)."""


def _console(stream: Any = None) -> Console:
    return Console(file=stream or sys.stdout, highlight=False, soft_wrap=True)


def project_config() -> ProjectConfig:
    try:
        return load_config()
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def output_format(args: argparse.Namespace, config: ProjectConfig | None = None) -> str:
    """The format asked for: --format, else --json, else the project's, else text."""
    if getattr(args, "format", None):
        return str(args.format)
    if getattr(args, "json", False):
        return "json"
    config = config or project_config()
    return config.format or "text"


def _folder(name: str | None, option: str) -> Path | None:
    if name is None:
        return None
    path = Path(name)
    if not path.is_dir():
        raise UsageError(f"{option} {name}: no such folder")
    return path.resolve()


def _inputs(names: Sequence[str], keep: Callable[[Path], bool], what: str) -> list[tuple[Path, str]]:
    from hauntcheck.checks.runs import NothingToCheck, expand

    try:
        return expand(names, keep, what)
    except NothingToCheck as exc:
        raise UsageError(str(exc)) from None


def _finish(command: str, checks: list[Check], fmt: str, started: float) -> int:
    """Print a non-text run and give the exit status (0 only when something was checked and passed)."""
    run = Run(command, checks, time.perf_counter() - started)
    if fmt != "text":
        print(render(run, fmt), end="")
    return 0 if run.ok else 1


def parse_game_options(definition: GameDef, extra: Sequence[str]) -> dict[str, Any]:
    """Turn leftover ``--name value`` / ``--name=value`` words into the game's options."""
    known = {o.name.replace("_", "-"): o for o in definition.options}
    options: dict[str, Any] = {}
    words = list(extra)
    while words:
        word = words.pop(0)
        if not word.startswith("--"):
            raise UsageError(f"unexpected argument {word!r}")
        name, eq, value = word[2:].partition("=")
        if name not in known:
            listing = ", ".join(f"--{n}" for n in sorted(known)) or "none"
            raise UsageError(f"{definition.id} has no option --{name}; its options: {listing}")
        if not eq:
            if not words or words[0].startswith("--"):
                raise UsageError(f"--{name} needs a value")
            value = words.pop(0)
        options[known[name].name] = _option_value(value)
    return options


def _option_value(text: str) -> Any:
    if text.lower() in ("true", "yes", "on"):
        return True
    if text.lower() in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def _check_writable(path: Path) -> None:
    """Refuse an output file that cannot be written before any work is done."""
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"--out {path}: no such folder {folder}; create it first")
    if path.is_dir():
        raise UsageError(f"--out {path}: is a folder, not a file")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise UsageError(f"--out {path}: not writable")


def _write_picture(target: Path, data: bytes) -> None:
    try:
        target.write_bytes(data)
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
