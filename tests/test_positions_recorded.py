"""A small YAML document records its positions while it is read (engine/inputs.py `parse_yaml`),
instead of parsing it again when a position is first asked for: the same positions, the same data
and the same errors, located the same way."""

from __future__ import annotations

from pathlib import Path

import pytest

from hauntcheck.engine import inputs
from hauntcheck.engine.spec import SpecErrors

ROOT = Path(__file__).resolve().parent.parent
YAML_FILES = [p for p in sorted((ROOT / "spec").rglob("*.yaml")) + sorted((ROOT / "scenarios").rglob("*.yaml"))
              if inputs._TRANSCRIPT_MARK not in p.read_text(encoding="utf-8")]


def test_every_shipped_file_records_the_positions_it_would_work_out() -> None:
    assert len(YAML_FILES) > 250
    limits = inputs.Limits()
    for path in YAML_FILES:
        text = path.read_text(encoding="utf-8")
        data, positions = inputs.parse_yaml(text, str(path), limits)
        assert positions._table is not None, path  # recorded while reading
        worked_out = inputs.Positions(text, str(path), limits)
        assert dict(positions) == dict(worked_out) and len(positions) == len(worked_out) > 0, path
        assert data == inputs._parse(text, str(path), limits, None)


BAD = [
    "a: 1\nb: 2\na: 3\n",                       # a duplicate key (located, with where it was first given)
    "a: !!python/object:os.system 1\n",         # a tag that is not plain data
    "a: !!set {x, y}\n",                        # a tag on a collection
    'a: "\\x07 bell"\n',                        # a control character written as an escape
    "a: [1, 2\n",                               # a syntax error
    "a:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 80)) + "  " * 80 + "v\n",  # too deep
    "\n".join(f"k{i}: [{i}, {i}]" for i in range(400)) + "\n",     # too many values (limit below)
    "- {a: 1, a: 2}\n- [x, {b: 1, b: 1}]\n",    # duplicates inside lists
    "",                                         # empty
]


@pytest.mark.parametrize("text", BAD)
def test_a_bad_document_is_refused_alike_either_way(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    limits = inputs.Limits(max_values=1000)

    def refusal() -> list[str]:
        with pytest.raises(SpecErrors) as caught:
            inputs.parse_yaml(text, "bad.yaml", limits)
        return [f"{e.where} {e.message} {e.related}" for e in caught.value.errors]

    recorded = refusal()
    monkeypatch.setattr(inputs, "EAGER_POSITIONS_CHARS", -1)
    assert refusal() == recorded


def test_a_large_document_works_its_positions_out_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inputs, "EAGER_POSITIONS_CHARS", 10)
    data, positions = inputs.parse_yaml("a: 1\nb: [2, 3]\n", "big.yaml", inputs.Limits())
    assert positions._table is None
    assert data == {"a": 1, "b": [2, 3]} and positions[("b", 1)] == (2, 8)
