"""The README's sample sessions are real: every ```` ``` ```` block that starts with ``$ hauntcheck``
is run, command by command, in a folder laid out like the checkout, and must print what the README
shows. Timings (numbers with a decimal point) are not compared. A line ``  ...`` (or ``  ... (what
is left out)``) in a sample stands for any number of lines.

After a change of output, regenerate the samples instead of editing them:
``HAUNTCHECK_UPDATE_README=1 pytest tests/test_readme.py`` rewrites the blocks (keeping each
elision where it is), then review the diff."""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.cli import main
from hauntcheck.engine.core import CHANCE, Action
from hauntcheck.engine.games import available_games

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
UPDATE = os.environ.get("HAUNTCHECK_UPDATE_README") == "1"
_ELISION = re.compile(r"^\s*\.\.\.( \(.*\))?$")
_TIMING = re.compile(r"\d+\.\d+")


@dataclass
class Sample:
    command: str
    shown: list[str]


def samples(text: str) -> list[tuple[int, int, list[Sample]]]:
    """The sample blocks of a README: (first line, end line, the commands and their output)."""
    lines = text.splitlines()
    out = []
    i = 0
    while i < len(lines):
        if lines[i] == "```" and i + 1 < len(lines) and lines[i + 1].startswith("$ hauntcheck "):
            end = lines.index("```", i + 1)
            block: list[Sample] = []
            for line in lines[i + 1:end]:
                if line.startswith("$ "):
                    block.append(Sample(line[2:], []))
                else:
                    block[-1].shown.append(line)
            out.append((i + 1, end, block))
            i = end
        i += 1
    return out


def matches(shown: list[str], actual: list[str]) -> bool:
    mask = [_TIMING.sub("#", line.rstrip()) for line in actual]
    want = [_TIMING.sub("#", line.rstrip()) for line in shown]
    cut = next((n for n, line in enumerate(want) if _ELISION.match(line)), None)
    if cut is None:
        return want == mask
    head, tail = want[:cut], want[cut + 1:]
    return len(mask) >= len(head) + len(tail) and mask[:len(head)] == head and (not tail or mask[-len(tail):] == tail)


def regenerated(shown: list[str], actual: list[str]) -> list[str]:
    cut = next((n for n, line in enumerate(shown) if _ELISION.match(line)), None)
    if cut is None:
        return actual
    tail = len(shown) - cut - 1
    return actual[:cut] + [shown[cut]] + (actual[-tail:] if tail else [])


def prepare(command: str) -> None:
    """Inputs a sample uses that an earlier sample does not write: ``altered.yaml`` is
    ``game.yaml`` with the first roll of two dice changed to two blanks."""
    if "altered.yaml" in command:
        log = transcripts.read(Path("game.yaml"))
        for step in log.steps:
            faces = step.action.get("faces")
            if step.actor == CHANCE and step.action.kind == "roll" and isinstance(faces, tuple) and len(faces) == 2 and any(faces):
                step.action = Action.of("roll", faces=[0, 0])
                break
        Path("altered.yaml").write_text(transcripts.dumps(log))


@pytest.mark.skipif(set(available_games()) != {"betrayal", "halls-of-horror", "haunted"}, reason="the samples use every bundled game")
def test_readme_samples_are_what_the_commands_print(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    for folder in ("spec", "scenarios", "tests"):
        (tmp_path / folder).symlink_to(REPO / folder)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    text = README.read_text()
    lines = text.splitlines()
    stale = []
    replacements = []
    for start, end, block in samples(text):
        new_block = []
        for sample in block:
            prepare(sample.command)
            main(shlex.split(sample.command)[1:])
            printed = capsys.readouterr()
            actual = (printed.out + printed.err).rstrip("\n").splitlines()
            if not matches(sample.shown, actual):
                stale.append(f"$ {sample.command}\n--- README\n" + "\n".join(sample.shown) + "\n--- now\n" + "\n".join(actual))
            new_block.append(f"$ {sample.command}")
            new_block.extend(regenerated(sample.shown, actual))
        replacements.append((start, end, new_block))
    for start, end, new_block in reversed(replacements):
        lines[start:end] = new_block
    assert samples(text), "the README has no sample sessions"
    if UPDATE:
        README.write_text("\n".join(lines) + "\n")
    elif stale:
        pytest.fail("README samples are stale (regenerate: HAUNTCHECK_UPDATE_README=1 pytest tests/test_readme.py):\n\n"
                    + "\n\n".join(stale))
