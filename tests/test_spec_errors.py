"""Every deliberately invalid spec in tests/fixtures/bad-specs fails `hauntcheck lint` with exit
status 2, no traceback, and exactly the messages pinned here (file:line:col first)."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from hauntcheck.engine.cli import main
from hauntcheck.engine.spec import SPEC_LANGUAGE, SpecErrors, load_file, parse_yaml

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "bad-specs"

PINNED: dict[str, list[str]] = {
    'bad-rule-id.yaml': [
        "tests/fixtures/bad-specs/bad-rule-id.yaml:5:9: error: 'Setup Deal' is not of the expected form: A rule clause id: a dotted group and a name, e.g. move.opponent-slows.",
    ],
    'duplicate-key.yaml': [
        "tests/fixtures/bad-specs/duplicate-key.yaml:7:5: error: duplicate key 'says'",
        '  tests/fixtures/bad-specs/duplicate-key.yaml:6:11: note: first given here',
    ],
    'duplicate-rule-id.yaml': [
        "tests/fixtures/bad-specs/duplicate-rule-id.yaml:5:3: error: the engine cites rule 'door.ace-way-out' (engine/haunted/doors.py:LINE) and 70 more, which this rules file does not define",
        "tests/fixtures/bad-specs/duplicate-rule-id.yaml:8:9: error: duplicate rule id 'setup.deal'",
        '  tests/fixtures/bad-specs/duplicate-rule-id.yaml:5:9: note: first defined here',
        "tests/fixtures/bad-specs/duplicate-rule-id.yaml:11:11: error: 'see' names rule 'setup.shuffle', which is not defined",
    ],
    'empty.yaml': [
        'tests/fixtures/bad-specs/empty.yaml:1:1: error: the file is empty',
    ],
    'many-errors.yaml': [
        "tests/fixtures/bad-specs/many-errors.yaml:5:5: error: missing required key 'says'",
        "tests/fixtures/bad-specs/many-errors.yaml:9:11: error: missing required key 'section'",
        "tests/fixtures/bad-specs/many-errors.yaml:13:13: error: unknown key 'colour'; expected one of: cite, id, judgement, no_mechanics, says, see, unverified, variant",
    ],
    'missing-version.yaml': [
        "tests/fixtures/bad-specs/missing-version.yaml:1:1: error: missing 'spec_version' (the spec language version, e.g. spec_version: 1)",
    ],
    'newer-version.yaml': [
        'tests/fixtures/bad-specs/newer-version.yaml:1:15: error: this file needs spec language 7, but this hauntcheck reads up to 1; upgrade hauntcheck',
    ],
    'not-a-mapping.yaml': [
        'tests/fixtures/bad-specs/not-a-mapping.yaml:1:1: error: a spec file must be a mapping with spec_version and kind',
    ],
    'syntax-error.yaml': [
        'tests/fixtures/bad-specs/syntax-error.yaml:7:1: error: YAML syntax: found unexpected end of stream (while scanning a quoted scalar at 5:11)',
    ],
    'unknown-key.yaml': [
        "tests/fixtures/bad-specs/unknown-key.yaml:5:5: error: missing required key 'says'",
        "tests/fixtures/bad-specs/unknown-key.yaml:6:11: error: unknown key 'sayz' (did you mean 'says'?); expected one of: cite, id, judgement, no_mechanics, says, see, unverified, variant",
    ],
    'unknown-kind.yaml': [
        "tests/fixtures/bad-specs/unknown-kind.yaml:2:7: error: unknown kind 'ghosts'; expected one of: ",
    ],
    'unlisted-source.yaml': [
        "tests/fixtures/bad-specs/unlisted-source.yaml:5:3: error: the engine cites rule 'door.ace-way-out' (engine/haunted/doors.py:LINE) and 70 more, which this rules file does not define",
        "tests/fixtures/bad-specs/unlisted-source.yaml:7:20: error: citation names 'my-house-rules.txt', which is not a source listed in sources.yaml",
        '  spec/sources.yaml:8:3: note: sources are listed here',
    ],
    'unsafe-tag.yaml': [
        "tests/fixtures/bad-specs/unsafe-tag.yaml:3:7: error: the tag 'tag:yaml.org,2002:python/object/apply:os.system' is not allowed: specs hold plain data only",
    ],
    'wrong-type.yaml': [
        "tests/fixtures/bad-specs/wrong-type.yaml:6:11: error: expected string, got list ['Deal', 'the', 'cards']",
    ],
}


def test_every_fixture_is_pinned() -> None:
    assert sorted(p.name for p in FIXTURES.glob("*.yaml")) == sorted(PINNED)


@pytest.mark.parametrize("name", sorted(PINNED))
def test_bad_spec_fails_lint_with_pinned_message(name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    assert main(["lint", f"tests/fixtures/bad-specs/{name}"]) == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    lines = captured.err.splitlines()
    assert lines[-1].endswith("error(s) in 1 file(s)")
    expected = PINNED[name]
    assert len(lines[:-1]) == len(expected), lines
    for got, want in zip(lines[:-1], expected, strict=True):
        if name == "unknown-kind.yaml":
            assert got.startswith(want) and "rules" in got
        else:
            # The engine's own source line moves with every edit of the engine; the file stays pinned.
            assert re.sub(r"(\.py)(:\d+)+\)", r"\1:LINE)", got) == want


def test_valid_bundled_specs_lint_clean(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    assert main(["lint", "spec/sources.yaml"]) == 0
    assert "1 file(s) OK" in capsys.readouterr().out


def test_spec_language_is_checked_before_the_schema(tmp_path: Path) -> None:
    future = tmp_path / "future.yaml"
    future.write_text(f"spec_version: {SPEC_LANGUAGE + 1}\nkind: rules\nsomething_new: true\n")
    with pytest.raises(SpecErrors) as info:
        load_file(future)
    assert len(info.value.errors) == 1
    assert f"needs spec language {SPEC_LANGUAGE + 1}" in str(info.value)


def test_positions_point_at_values() -> None:
    data, positions = parse_yaml("a:\n  b: [1, 2]\n  c: x\n", "t.yaml")
    assert data == {"a": {"b": [1, 2], "c": "x"}}
    assert positions[("a", "b", 1)] == (2, 10)
    assert positions[("a", "c")] == (3, 6)


def test_lint_of_a_missing_file_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", "no/such/file.yaml"]) == 2
    assert "no/such/file.yaml: error: no such file" in capsys.readouterr().err


def test_cross_reference_errors_name_both_places(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    original = (REPO / "spec" / "betrayal" / "haunts" / "10-family-gathering.yaml").read_text()
    assert "master-bedroom, chapel, conservatory" in original
    broken = tmp_path / "10-family-gathering.yaml"
    broken.write_text(original.replace("master-bedroom, chapel, conservatory", "master-bedroom, chappel, conservatory"))
    assert main(["lint", str(broken)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith(f"{broken}:48:")
    assert lines[0].endswith("error: unknown room 'chappel' (did you mean 'chapel'?) (defined in spec/betrayal/rooms.yaml)")
    assert lines[1].startswith("  spec/betrayal/rooms.yaml:") and lines[1].endswith("note: rooms are defined here")


def test_bad_option_values_are_user_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "betrayal", "--players", "4", "--date", "13-45"]) == 2
    err = capsys.readouterr().err
    assert "option date must be a real day of the year, got '13-45'" in err and "Traceback" not in err


def _errors(validator: Any, data: Any) -> list[tuple[Any, ...]]:
    return sorted((tuple(map(str, e.absolute_path)), e.message, tuple(map(str, e.schema_path)), e.validator)  # type: ignore[arg-type]
                  for e in validator.iter_errors(data))


def _mappings(node: Any) -> list[dict[str, Any]]:
    if isinstance(node, dict):
        return [node, *(m for v in node.values() for m in _mappings(v))]
    if isinstance(node, list):
        return [m for v in node for m in _mappings(v)]
    return []


def test_the_quicker_one_of_gives_jsonschemas_own_errors() -> None:
    """Spec validation judges a oneOf/anyOf of key-requiring branches directly (a haunt step's
    verb); every mapping of a haunt file with a key removed, or a second verb added, gets exactly
    the errors plain jsonschema gives."""
    from jsonschema import Draft202012Validator

    from hauntcheck.engine.games import game_spec
    from hauntcheck.engine.spec import _registry, validator_for

    quick = validator_for("haunt")
    assert quick is not None and type(quick) is not Draft202012Validator
    plain = Draft202012Validator(quick.schema, registry=_registry(REPO / "spec" / "schema"))
    checked = 0
    for file in sorted(game_spec("betrayal").by_kind("haunt"), key=lambda f: f.display)[:1]:
        data = copy.deepcopy(file.data)
        assert _errors(quick, data) == _errors(plain, data) == []
        # the mappings deepest in the file first: its steps, outcomes and predicates
        for mapping in _mappings(data)[::-1][:20]:
            for key in list(mapping)[:2]:
                saved = dict(mapping)
                del mapping[key]
                assert _errors(quick, data) == _errors(plain, data), (file.display, key)
                mapping["kill"] = {"who": "heroes"}  # a second verb (or a key where none belongs)
                assert _errors(quick, data) == _errors(plain, data), (file.display, key, "kill")
                mapping.clear()
                mapping.update(saved)
                checked += 1
    assert checked > 25
