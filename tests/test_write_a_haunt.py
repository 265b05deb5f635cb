"""``hauntcheck new-haunt`` and the tutorial ``docs/write-a-haunt.md``: the skeleton and the
tutorial's haunt lint clean and play to a result, so neither can go stale."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hauntcheck.engine.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "the-hungry-cellar.yaml"
TUTORIAL = ROOT / "docs" / "write-a-haunt.md"


def played(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    assert main(["play", "betrayal", "--players", "4", "--seed", "1", "--haunt-file", str(path), "--quiet", *extra]) == 0
    out = capsys.readouterr().out
    match = re.search(r"^game over: (\w+)", out, re.MULTILINE)
    assert match and match.group(1) in ("heroes", "traitor"), out
    return match.group(1)


def test_new_haunt_writes_a_commented_skeleton_that_lints_clean_and_plays(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["new-haunt", "The Hungry Cellar"]) == 0
    path = tmp_path / "the-hungry-cellar.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# The Hungry Cellar: a haunt for Betrayal") and "title: The Hungry Cellar" in text
    assert sum(1 for line in text.splitlines() if line.lstrip().startswith("#")) >= 10
    capsys.readouterr()
    assert main(["lint", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "1 file(s) OK"
    played(path, capsys)
    # it never overwrites a file, and refuses a name that is no haunt name
    assert main(["new-haunt", "The Hungry Cellar"]) == 2
    assert "exists already" in capsys.readouterr().err
    assert main(["new-haunt", "???"]) == 2


def test_the_tutorials_haunt_lints_clean_plays_and_is_pictured(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", str(EXAMPLE)]) == 0
    capsys.readouterr()
    played(EXAMPLE, capsys, "--svg", str(tmp_path / "end.svg"))
    assert (tmp_path / "end.svg").read_text(encoding="utf-8").startswith("<svg")
    played(EXAMPLE, capsys, "--from-reveal")


def test_the_tutorial_shows_the_example_file_as_it_is() -> None:
    """Every YAML block of the tutorial marked as the example's final form is the file itself."""
    text = TUTORIAL.read_text(encoding="utf-8")
    assert "docs/examples/the-hungry-cellar.yaml" in text
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.DOTALL)
    example = EXAMPLE.read_text(encoding="utf-8")
    assert blocks, "the tutorial shows the haunt file"
    for block in blocks:
        body = "\n".join(line for line in block.splitlines() if line.strip() != "...")
        for line in body.splitlines():
            assert line in example.splitlines(), f"tutorial line not in the example file: {line!r}"
