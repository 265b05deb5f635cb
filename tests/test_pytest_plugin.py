"""The pytest plugin: off by default; with --hauntcheck every check family, golden transcript and
dispute scenario is its own item, selected with -k, and a broken transcript fails its item."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hauntcheck.engine.games import available_games

REPO = Path(__file__).resolve().parents[1]


def pytest_in(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args], cwd=folder,
                          capture_output=True, text=True, check=False, timeout=600)


def test_off_unless_asked(tmp_path: Path) -> None:
    done = pytest_in(tmp_path, "--collect-only")
    assert "hauntcheck" not in done.stdout and done.returncode == 5  # no tests collected


@pytest.mark.skipif("betrayal" not in available_games(), reason="betrayal is not installed")
def test_k_frog_selects_haunt_3s_golden_games_and_disputes(tmp_path: Path) -> None:
    done = pytest_in(tmp_path, "--hauntcheck", "-k", "frog", "--collect-only")
    items = [line for line in done.stdout.splitlines() if line.startswith("::hauntcheck::")]
    goldens = sorted(p.stem for p in (REPO / "scenarios/betrayal/haunts/03-frog-leg-stew").glob("*.yaml"))
    disputes = sorted(p.stem for p in (REPO / "scenarios/betrayal/disputes").glob("frog-leg-stew-*.yaml"))
    assert goldens and disputes
    assert sorted(i.rsplit("/", 1)[-1].rstrip("]") for i in items if i.startswith("::hauntcheck::golden[")) == goldens
    assert sorted(i.rsplit("/", 1)[-1].rstrip("]") for i in items if i.startswith("::hauntcheck::dispute[")) == disputes
    assert all("frog-leg-stew" in i for i in items)
    done = pytest_in(tmp_path, "--hauntcheck", "--collect-only", "--hauntcheck-game", "betrayal")
    for kind in ("verify[betrayal/golden-replay]", "dispute[betrayal/disputes/front-door-is-locked]",
                 "golden[betrayal/golden/reveal-4p-seed-7]"):
        assert f"::hauntcheck::{kind}" in done.stdout


@pytest.mark.skipif("haunted" not in available_games(), reason="haunted is not installed")
def test_items_pass_and_a_broken_transcript_fails_its_item(tmp_path: Path) -> None:
    scenarios = tmp_path / "scenarios"
    shutil.copytree(REPO / "scenarios/haunted/golden", scenarios / "haunted/golden")
    broken = scenarios / "haunted/golden/four-players-seed-91.yaml"
    # the structured part of a version 2 event is what replay compares (the prose is a comment)
    old = '{rule: "setup.fear", args: {"seat": "P1", "fear": 4}}'
    assert old in broken.read_text()
    broken.write_text(broken.read_text().replace(old, old.replace('"fear": 4', '"fear": 5'), 1))
    done = pytest_in(tmp_path, "--hauntcheck", "--hauntcheck-game", "haunted", "--hauntcheck-scenarios", str(scenarios),
                     "-k", "golden and not verify", "--junitxml", str(tmp_path / "out.xml"))
    assert done.returncode == 1, done.stdout
    shipped = len(list((REPO / "scenarios/haunted/golden").glob("*.yaml")))
    assert f"1 failed, {shipped - 1} passed" in done.stdout
    assert "step 1: different consequences" in done.stdout and "four-players-seed-91.yaml" in done.stdout
    assert 'name="golden[haunted/golden/four-players-seed-91]"' in (tmp_path / "out.xml").read_text()
