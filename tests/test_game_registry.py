"""Games register through the `hauntcheck.games` entry-point group: an outside package adds a game
with its own spec folder without editing hauntcheck, and the CLI plays and verifies it."""

from __future__ import annotations

import importlib.metadata
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hauntcheck.engine import games
from hauntcheck.engine.cli import main

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif("haunted" not in games.GAME_MODULES, reason="haunted is not bundled")

OUTSIDE_GAME = '''\\
"""An outside package's game: Haunted's engine under another id, with its own spec folder."""
from dataclasses import replace
from pathlib import Path

from hauntcheck.engine.haunted import GAME as HAUNTED

GAME = replace(HAUNTED, id="outside-haunted", title="Outside Haunted", golden=(),
               spec_root=Path(__file__).parent / "spec", scenario_root=Path(__file__).parent / "scenarios")
'''


@pytest.fixture
def outside_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    package = tmp_path / "outside"
    spec = package / "spec"
    shutil.copytree(REPO / "spec" / "haunted", spec / "outside-haunted")
    shutil.copytree(REPO / "spec" / "schema", spec / "schema")
    shutil.copy(REPO / "spec" / "sources.yaml", spec / "sources.yaml")
    (package / "scenarios" / "outside-haunted").mkdir(parents=True)
    (package / "outside_game.py").write_text(OUTSIDE_GAME)
    monkeypatch.syspath_prepend(str(package))
    entry = importlib.metadata.EntryPoint("outside-haunted", "outside_game", games.ENTRY_POINT_GROUP)
    real = importlib.metadata.entry_points

    def entry_points(**select: str) -> importlib.metadata.EntryPoints:
        found = list(real(**select))  # type: ignore[arg-type]
        if select.get("group") == games.ENTRY_POINT_GROUP:
            found.append(entry)
        return importlib.metadata.EntryPoints(found)

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    games._registered.cache_clear()
    yield package
    games._registered.cache_clear()
    sys.modules.pop("outside_game", None)


def test_an_entry_point_adds_a_game(outside_game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "outside-haunted" in games.available_games()
    definition = games.get_game("outside-haunted")
    assert definition.title == "Outside Haunted"
    assert games.game_spec("outside-haunted").root == outside_game / "spec"
    out = outside_game / "game.yaml"
    assert main(["play", "outside-haunted", "--players", "2", "--seed", "3", "--quiet", "--out", str(out)]) == 0
    assert main(["replay", str(out)]) == 0
    assert main(["verify", "outside-haunted", "--family", "spec", "--family", "rules", "--format", "json"]) == 0
    assert '"game": "outside-haunted"' in capsys.readouterr().out


def test_a_bundled_game_id_is_never_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = importlib.metadata.EntryPoint("haunted", "somewhere_else", games.ENTRY_POINT_GROUP)
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **select: importlib.metadata.EntryPoints([entry]))
    games._registered.cache_clear()
    try:
        assert games.game_modules()["haunted"] == games.GAME_MODULES["haunted"]
    finally:
        games._registered.cache_clear()
