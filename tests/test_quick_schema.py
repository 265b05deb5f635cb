"""The quick schema test (``engine/spec.py`` ``surely_valid``) passes exactly the files jsonschema
finds no error in: every shipped spec and scenario file, and mutants of one file of each kind (a
key removed, a value of another type, an unknown key). A file it does not pass is judged by
jsonschema, so passing one with an error would drop that error: the test holds it to equality."""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hauntcheck.engine.games import available_games, game_spec
from hauntcheck.engine.inputs import read_yaml
from hauntcheck.engine.spec import known_kinds, quick_check_for, surely_valid, validator_for

REPO = Path(__file__).resolve().parent.parent
#: Values put in place of another: one of each type of parsed YAML, and ones near the schemas' limits.
REPLACEMENTS: tuple[Any, ...] = (None, True, 0, -1, 1.5, "", "not-a-known-word", [], ["x"], {}, {"x": 1})
#: Mutants judged per file (a mutant costs a whole jsonschema validation of its file).
MUTANTS_PER_FILE = 40


def _valid(kind: str, data: Any) -> bool:
    """jsonschema's verdict (through the spec's validator, whose quicker ``oneOf`` and ``anyOf``
    give jsonschema's own errors: tests/test_spec_errors.py, test_the_quicker_one_of_gives_jsonschemas_own_errors)."""
    validator = validator_for(kind)
    assert validator is not None, kind
    return next(iter(validator.iter_errors(data)), None) is None


@functools.cache
def _files() -> list[tuple[str, str, Any]]:
    return list(_shipped())


def _shipped() -> Iterator[tuple[str, str, Any]]:
    for game in available_games():
        for file in game_spec(game).files.values():
            yield file.display, file.kind, file.data
    for path in sorted((REPO / "scenarios").rglob("*.yaml")):
        data, _, _ = read_yaml(path)
        if isinstance(data, dict) and data.get("kind") in known_kinds():
            yield str(path.relative_to(REPO)), str(data["kind"]), data


def _mutants(data: Any) -> Iterator[Any]:
    """Copies of ``data`` with one change each, deepest mappings and lists first."""
    places: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value)
                places.append((node, key))
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value)
                places.append((node, index))

    walk(data)
    for index, (node, key) in enumerate(places):
        changes: list[Any] = [REPLACEMENTS[(index + shift) % len(REPLACEMENTS)] for shift in (0, 4, 7)]
        for change in changes:
            saved = node[key]
            node[key] = change
            yield copy.deepcopy(data)
            node[key] = saved
        if isinstance(node, dict):
            saved = node.pop(key)
            yield copy.deepcopy(data)
            node[key] = saved
            node["zz-unknown"] = 1
            yield copy.deepcopy(data)
            del node["zz-unknown"]


def test_every_kind_compiles() -> None:
    assert [kind for kind in known_kinds() if quick_check_for(kind) is None] == []


def test_every_shipped_file_is_judged_as_jsonschema_judges_it() -> None:
    judged = 0
    for shown, kind, data in _files():
        assert surely_valid(kind, data) == _valid(kind, data), shown
        judged += 1
    assert judged > 250


@pytest.mark.parametrize("kind", known_kinds())
def test_mutants_are_judged_as_jsonschema_judges_them(kind: str) -> None:
    files = [data for _, file_kind, data in _files() if file_kind == kind]
    if not files:
        pytest.skip(f"no shipped file of kind {kind}")
    smallest = copy.deepcopy(min(files, key=lambda d: len(repr(d))))
    outcomes = {True: 0, False: 0}
    for index, mutant in enumerate(_mutants(smallest)):
        if index >= MUTANTS_PER_FILE:
            break
        valid = _valid(kind, mutant)
        assert surely_valid(kind, mutant) == valid, (kind, index, mutant)
        outcomes[valid] += 1
    assert outcomes[False] > 0, f"no mutant of {kind} was invalid: the test would not catch a lax quick check"
