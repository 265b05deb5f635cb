"""Replay writes each event of a golden as its line (engine/transcript.py `_event_flow`) with a
JSON writer built once (`_write_mapping`): it writes exactly what `_flow_mapping(event.to_data())`
writes, what `dumps` puts in a transcript."""

from __future__ import annotations

import pytest

from hauntcheck.engine import transcript
from hauntcheck.engine.core import Event, _freeze
from hauntcheck.engine.transcript import _event_flow, _flow_mapping, _write_mapping

ARGUMENTS = [
    {"seat": "P1", "room": "entrance-hall"},
    {"n": 0, "hit": True, "missed": False, "none": None, "big": 10**30, "negative": -7},
    {"faces": [0, 1, 2, 2], "pairs": [["a", 1], ["b", [True, None]]], "empty": []},
    {"text": 'quote " backslash \\ slash / tab \t line\n', "controls": "\x01\x1f\x7f\x85"},
    {"unicode": "é ü — 👻 \u2028 \ufffd", "key with space": "x"},
]


def test_the_writer_writes_what_json_writes() -> None:
    for arguments in ARGUMENTS:
        frozen = {key: _freeze(value) for key, value in arguments.items()}
        assert _write_mapping(frozen) == transcript._FLOW_ENCODER.encode(frozen) == transcript._FLOW_ENCODER.encode(arguments)


def test_an_event_is_written_as_dumps_writes_it() -> None:
    events = [Event("rule.one", "text"), *(Event("rule.two", "text", tuple((k, _freeze(v)) for k, v in a.items())) for a in ARGUMENTS)]
    for event in events:
        assert _event_flow(event) == _flow_mapping(event.to_data())


def test_the_writer_is_reused_safely_after_a_failure() -> None:
    with pytest.raises(TypeError):
        _write_mapping({"bad": object()})
    assert _write_mapping({"seat": "P2"}) == '{"seat": "P2"}'
