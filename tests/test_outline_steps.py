"""A transcript's outline (``engine/inputs.py``) matches its steps step by step
(``_outlined_steps``) instead of line by line: it must give exactly what the line reader gives,
for every shipped transcript and for texts that leave the layout ``dumps`` writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from hauntcheck.engine import inputs
from hauntcheck.engine.transcript import is_transcript

REPO = Path(__file__).resolve().parent.parent
TRANSCRIPTS = [p for p in sorted((REPO / "scenarios").rglob("*.yaml")) if is_transcript(p)]


def _both(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    """The raw outline data with the step matcher, and with the line reader alone."""
    limits = inputs.Limits()
    matched = inputs._transcript_lines(text, limits, raw=True)
    with monkeypatch.context() as patch:
        patch.setattr(inputs, "_outlined_steps", lambda text, value: None)
        by_lines = inputs._transcript_lines(text, limits, raw=True)
    return matched, by_lines


def test_every_shipped_transcript_outlines_as_the_line_reader_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(TRANSCRIPTS) > 200
    for path in TRANSCRIPTS:
        matched, by_lines = _both(path.read_text(encoding="utf-8"), monkeypatch)
        assert matched is not None and matched == by_lines, path


def _a_golden() -> str:
    return next(p for p in TRANSCRIPTS if "  events:\n" in p.read_text(encoding="utf-8")).read_text(encoding="utf-8")


@pytest.mark.parametrize("change", [
    ("  offered: ", "  # a comment line\n  offered: "),       # a comment line inside a step
    ("  offered: ", "  extra: 1\n  offered: "),                # a key dumps does not write
    ("\n- n: 2\n", "\n\n- n: 2\n"),                            # an empty line between steps
    ("  events:\n  - ", "  events:\n  -  "),                   # an event line spaced otherwise
    ("\n  actor: ", "\n  actor:  "),                           # a value spaced otherwise
    ("\n- n: 2\n", "\n- n: 2 # two\n"),                        # a comment after a value
    ("\nend: ", "\n# the end\nend: "),                         # a comment line after the steps
    ("\n- n: 1\n", "\n- n: 1\n  n: 1\n"),                      # a duplicate key
    ("\n  offered: ", "\n  offered: 1.5\n  junk: "),           # a float
    ("\n- n: 2\n", "\n- n: 02\n"),                            # a step number written otherwise
    ("\n- n: 2\n", "\n- n: +2\n"),
    ("\n- n: 2\n", "\n- n: 2.0\n"),
    ("\n- n: 2\n", "\n- n: 3\n"),                             # a step numbered out of its place
    ("\n- n: 1\n", "\n- n: -1\n"),
])
def test_a_text_out_of_the_layout_outlines_as_the_line_reader_reads_it(change: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    text = _a_golden()
    old, new = change
    assert old in text
    changed = text.replace(old, new, 1)
    matched, by_lines = _both(changed, monkeypatch)
    assert matched == by_lines


def test_a_step_with_no_events_under_events_is_not_outlined(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _a_golden()
    head, sep, rest = text.partition("  events:\n")
    events_end = rest.index("\n- n: ")  # the rest of that step's events, then the next step
    emptied = head + sep + rest[events_end + 1:]
    assert _both(emptied, monkeypatch) == (None, None)
