"""Project defaults from the ``[tool.hauntcheck]`` table of the user's ``pyproject.toml``.

The nearest ``pyproject.toml`` from the working folder upwards that has the table is read;
options given on the command line win over it. Folders in it are relative to that file::

    [tool.hauntcheck]
    games = ["betrayal"]
    families = ["spec", "scenarios"]
    spec = "rules/spec"
    scenarios = "rules/scenarios"
    format = "junit"
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: Key -> (what it must be, what it sets).
KEYS: dict[str, str] = {
    "games": "a list of game names (verify)",
    "families": "a list of check family names (verify)",
    "spec": "a spec folder (verify --spec)",
    "scenarios": "a scenarios folder (verify --scenarios)",
    "format": "an output format: text, json, junit, github or sarif",
}


class ConfigError(ValueError):
    """A ``[tool.hauntcheck]`` table that cannot be used (the message names the file and key)."""


@dataclass
class ProjectConfig:
    file: Path | None = None
    games: list[str] = field(default_factory=list)
    families: list[str] = field(default_factory=list)
    spec: Path | None = None
    scenarios: Path | None = None
    format: str | None = None


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above ``start`` that has a ``[tool.hauntcheck]`` table."""
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError):
                continue
            if isinstance(data.get("tool"), dict) and "hauntcheck" in data["tool"]:
                return candidate
    return None


def load(start: Path | None = None) -> ProjectConfig:
    """The project's defaults (empty when no pyproject.toml has the table)."""
    path = find_pyproject((start or Path.cwd()).resolve())
    if path is None:
        return ProjectConfig()
    table: Any = tomllib.loads(path.read_text(encoding="utf-8"))["tool"]["hauntcheck"]
    where = f"{path}: [tool.hauntcheck]"
    if not isinstance(table, dict):
        raise ConfigError(f"{where} must be a table")
    for key in table:
        if key not in KEYS:
            raise ConfigError(f"{where}: unknown key {key!r}; keys: {', '.join(sorted(KEYS))}")
    config = ProjectConfig(file=path)
    for key in ("games", "families"):
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: {key} must be {KEYS[key]}, got {value!r}")
        setattr(config, key, list(value))
    for key in ("spec", "scenarios"):
        value = table.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise ConfigError(f"{where}: {key} must be {KEYS[key]}, got {value!r}")
        folder = (path.parent / value).resolve()
        if not folder.is_dir():
            raise ConfigError(f"{where}: {key} = {value!r}: no such folder")
        setattr(config, key, folder)
    fmt = table.get("format")
    if fmt is not None:
        from hauntcheck.checks.output import FORMATS

        if fmt not in FORMATS:
            raise ConfigError(f"{where}: format must be {KEYS['format']}, got {fmt!r}")
        config.format = fmt
    return config
