"""`hauntcheck coverage` counts the state machines' runs when given their records, and says what is
wrong with a record instead of dropping it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hauntcheck.checks.coverage import MACHINES, SOURCES, measure
from hauntcheck.engine.cli import main


def record(folder: Path, game: str, players: int, rules: dict[str, object]) -> None:
    (folder / f"rules-{game}-{players}p.json").write_text(json.dumps({"game": game, "players": players, "runs": 9, "rules": rules}))


def test_machine_records_add_a_source_summed_over_player_counts(tmp_path: Path) -> None:
    record(tmp_path, "haunted", 1, {"setup.stats": 3})
    record(tmp_path, "haunted", 6, {"setup.stats": 4})
    without = measure("haunted", playouts=0)
    with_runs = measure("haunted", playouts=0, machine_runs=tmp_path)
    assert without.sources == SOURCES and MACHINES not in without.to_data()["rules"]["setup.stats"]
    assert with_runs.sources == (*SOURCES, MACHINES)
    assert with_runs.to_data()["rules"]["setup.stats"][MACHINES] == 7
    assert with_runs.problems == []


def test_bad_or_missing_machine_records_are_reported(tmp_path: Path) -> None:
    assert any("no state-machine records for haunted" in p for p in measure("haunted", playouts=0, machine_runs=tmp_path).problems)
    record(tmp_path, "haunted", 2, {"no.such-rule": 1})
    (tmp_path / "rules-haunted-3p.json").write_text("{not json")
    problems = measure("haunted", playouts=0, machine_runs=tmp_path).problems
    assert any("unknown rule 'no.such-rule'" in p for p in problems)
    assert any("rules-haunted-3p.json: not a state-machine rule record" in p for p in problems)


def test_cli_coverage_prints_the_machine_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record(tmp_path, "haunted", 1, {"setup.stats": 2})
    assert main(["coverage", "haunted", "--playouts", "0", "--machine-runs", str(tmp_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data[0]["rules"]["setup.stats"]["machines"] == 2
    assert main(["coverage", "haunted", "--machine-runs", str(tmp_path / "missing")]) == 2
    assert "no such folder" in capsys.readouterr().err


def test_clauses_without_mechanics_are_listed_apart_from_the_gaps(capsys: pytest.CaptureFixture[str]) -> None:
    cov = measure("haunted", playouts=0)
    assert "setup.components" in cov.reasons  # its clause says why it has no mechanics
    assert "setup.components" in cov.explained() and "setup.components" not in cov.never()
    assert set(cov.never()).isdisjoint(cov.reasons)
    assert main(["coverage", "haunted", "--playouts", "0"]) == 0
    out = capsys.readouterr().out
    assert "never: setup.components" not in out
    assert "no mechanics: setup.components: The box contents" in out
    assert main(["coverage", "haunted", "--playouts", "0", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "setup.components" in data[0]["no_mechanics"] and "setup.components" not in data[0]["never_exercised"]
