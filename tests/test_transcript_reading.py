"""Transcripts in the layout hauntcheck writes are read line by line (inputs._transcript_lines),
which must give exactly what the YAML reading gives, and leave anything else to the YAML reading
with its checks and located errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from hauntcheck.engine import inputs
from hauntcheck.engine.spec import SpecErrors

REPO = Path(__file__).resolve().parents[1]
TRANSCRIPTS = sorted(p for p in (REPO / "scenarios").rglob("*.yaml") if "\nformat: hauntcheck-transcript\n" in p.read_text())
LIMITS = inputs.Limits()


def test_the_bundled_transcripts_are_found() -> None:
    assert len(TRANSCRIPTS) > 150


# One test per file (several seconds in all): pytest-xdist spreads them over its workers.
@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[str(p.relative_to(REPO / "scenarios")) for p in TRANSCRIPTS])
def test_every_bundled_transcript_reads_line_by_line_as_the_yaml_reading_does(path: Path) -> None:
    text = path.read_text()
    fast = inputs._transcript_lines(text, LIMITS)
    assert fast is not None, f"{path.name} is not read line by line"
    slow = inputs._parse(text, path.name, LIMITS, None)
    assert fast == slow and repr(fast) == repr(slow), path.name  # repr: the same types and key order too


HEAD = ('# hauntcheck transcript\nformat: hauntcheck-transcript\nversion: 2\ngame: haunted\n'
        'spec: {version: 1, hash: "sha256:0"}\nplayers: 2\nseed: 1\noptions: {}\ncontroller: "random"\n'
        'roster: {P1: "a", P2: "b"}\nsteps:\n- n: 1\n  actor: P1\n  action: {kind: "stronger", stat: "will"}\n  offered: 2\n')


@pytest.mark.parametrize(("events", "why"), [
    ('  events:\n  - {rule: "a.b", args: {"seat": "P1", "n": 1.5}}\n', "a float"),
    ('  events:\n  - {rule: "a.b", rule: "c.d"}\n', "a duplicate key"),
    ('  events:\n  - {rule: "a.b", args: {"seat": "P1", "seat": "P2"}}\n', "a duplicate JSON key"),
    ('  events:\n  - {rule: yes}\n', "a word YAML reads as a boolean"),
    ('  events:\n', "an empty key (null in YAML)"),
    ('  events:\n  - {rule: "a.b"} trailing\n', "text after a value"),
    ('  events:\n  - {rule: "\\ud83d\\ude00"}\n', "an escaped surrogate pair"),
    ('  events:\n    - {rule: "a.b"}\n', "another indentation"),
    ('  offered: 3\n', "a duplicate step key"),
])
def test_anything_else_is_left_to_the_yaml_reading(events: str, why: str) -> None:
    text = HEAD + events + "end: {terminal: false, stopped: \"x\"}\n"
    assert inputs._transcript_lines(text, LIMITS) is None, why


def test_the_layout_read_line_by_line_gives_plain_data() -> None:
    text = HEAD + '  events:\n  - {rule: "a.b", args: {"seat": "P1", "dice": [0, 2], "passed": true, "to": null}}  # prose: here\n' \
        + 'end: {terminal: true, result: "escape", winners: ["P1"]}\n'
    data = inputs._transcript_lines(text, LIMITS)
    assert data == inputs._parse(text, "t.yaml", LIMITS, None)
    assert data["steps"][0]["events"] == [{"rule": "a.b", "args": {"seat": "P1", "dice": [0, 2], "passed": True, "to": None}}]


def test_a_value_past_the_limits_is_refused_by_the_yaml_reading_at_its_line() -> None:
    text = HEAD + "  events:\n" + '  - {rule: "a.b"}\n' * 300 + "end: {terminal: false, stopped: \"x\"}\n"
    small = inputs.Limits(max_values=500)
    assert inputs._transcript_lines(text, small) is None
    with pytest.raises(SpecErrors, match="more than 500 values"):
        inputs.parse_yaml(text, "t.yaml", small)
