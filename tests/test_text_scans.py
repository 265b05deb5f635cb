"""The quick character checks of reading a file (engine/inputs.py) decide as the patterns do:
`_surely_no_control` never passes bytes whose text `check_text` refuses, a refused text is still
refused with the pattern's located error, and `_printable` of a text decoded and checked is the
`_NOT_PRINTABLE` pattern's verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from hauntcheck.engine import inputs
from hauntcheck.engine.spec import SpecErrors

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "scenarios").rglob("*.yaml")) + sorted((ROOT / "spec").rglob("*.yaml"))

#: Every character up to U+1000 (all the one- and two-byte ones of UTF-8, where the refused ones
#: are), then a spread of the rest (surrogates cannot be written in UTF-8).
CHARACTERS = [chr(c) for c in [*range(0x1000), *range(0x1000, 0x110000, 97)] if not 0xD800 <= c <= 0xDFFF]


@pytest.mark.parametrize("where", ["start", "middle"])
def test_the_quick_control_check_never_passes_a_refused_character(where: str) -> None:
    for char in CHARACTERS:
        text = char + "key: value\n" if where == "start" else "key: va" + char + "lue\n"
        refused = inputs._CONTROL.search(text) is not None
        if refused:
            assert not inputs._surely_no_control(text.encode("utf-8")), repr(char)


def test_a_control_character_is_still_refused_at_its_line_and_column() -> None:
    for char in CHARACTERS:
        if inputs._CONTROL.match(char) is None or char == "\0":  # a NUL is refused as binary data first
            continue
        data = ("title: fine\nname: ab" + char + "c\n").encode("utf-8")
        with pytest.raises(SpecErrors) as caught:
            inputs.decode(data, "f.yaml")
        (error,) = caught.value.errors
        assert (error.where.line, error.where.column) == (2, 9), repr(char)
        assert error.message == f"control character U+{ord(char):04X} is not allowed in YAML text"


def test_every_shipped_file_decodes_as_before() -> None:
    for path in SHIPPED:
        data = path.read_bytes()
        text = inputs.decode(data, str(path))
        assert inputs._CONTROL.search(text) is None
        assert inputs._surely_no_control(data) or b"\xc2" in data, path  # the quick check passes what it can


def test_printable_after_decoding_is_the_patterns_verdict() -> None:
    goldens = [text for p in SHIPPED if inputs._TRANSCRIPT_MARK in (text := p.read_text(encoding="utf-8"))][:20]
    base = "format: hauntcheck-transcript\nversion: 2\n"
    extra = ["\ufffe", "\uffff", "\ufffd", "\x85", "\U0001f47b"]
    texts = [*goldens, *(base + "# " + char + "\n" for char in CHARACTERS + extra)]
    compared = 0
    for text in texts:
        try:
            decoded = inputs.decode(text.encode("utf-8"), "t.yaml")
        except SpecErrors:
            continue  # refused before any layout is looked at
        compared += 1
        assert inputs._printable(decoded, checked=True) == (inputs._NOT_PRINTABLE.search(decoded) is None)
    assert compared > len(CHARACTERS) // 2 + len(goldens)
    assert not inputs._printable(base + "\ufffe", checked=True) and not inputs._printable(base + "\uffff", checked=True)


def test_the_most_openers_on_a_line_are_counted_as_line_by_line() -> None:
    def by_lines(text: str) -> int:
        return max(line.count("{") + line.count("[") for line in text.split("\n"))

    transcripts = [text for p in SHIPPED if inputs._TRANSCRIPT_MARK in (text := p.read_text(encoding="utf-8"))][:30]
    made = ["", "\n", "{[{", "a\n{{[\n[", "é{ü[\n\U0001f47b{{{{\n", "{\ud800[\n", "[" * 70 + "\n{"]
    for text in transcripts + made:
        assert inputs._most_openers_on_a_line(text) == by_lines(text), text[:40]
        assert text.count("\n") + 1 == len(text.split("\n"))  # the line count _surely_within takes
