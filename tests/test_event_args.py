"""Events carry their facts as structured arguments: every event whose prose interpolates a value
passes arguments (checked over the engine's source, so code added later cannot skip them), the
arguments are plain data, and their names come from the vocabulary documented in
docs/conformance-protocol.md ("Event arguments")."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import hauntcheck.engine
from hauntcheck.engine.commands.play import record
from hauntcheck.engine.games import available_games, get_game

ENGINE = Path(hauntcheck.engine.__file__).resolve().parent
REPO = Path(__file__).resolve().parents[1]
PROTOCOL_DOC = (REPO / "docs" / "conformance-protocol.md").read_text()

#: The calls that make an event: the games' emit helpers and RuleBook.event.
EMITTERS = {"emit", "_ev", "event"}


def documented_vocabulary() -> set[str]:
    section = PROTOCOL_DOC.split("## Event arguments", 1)[1].split("\n## ", 1)[0]
    names = set()
    for line in section.splitlines():
        row = re.match(r"^\| ((?:`[\w]+`(?:, )?)+) \|", line)
        if row:
            names.update(re.findall(r"`(\w+)`", row[1]))
    return names


VOCABULARY = documented_vocabulary()
TRAITS = {"might", "speed", "sanity", "knowledge"}  # Betrayal's traits name the points of a split or a stat line


def emit_calls(tree: ast.AST) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and len(node.args) >= 2:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            if name in EMITTERS:
                yield node


def interpolates(text: ast.expr) -> bool:
    """Whether the prose states a value the engine worked out (an f-string with a replacement
    field, or prose built from one)."""
    return any(isinstance(node, ast.FormattedValue) for node in ast.walk(text))


def sources() -> list[Path]:
    return sorted(p for p in ENGINE.rglob("*.py") if "__pycache__" not in p.parts)


@functools.cache
def emit_sites() -> list[tuple[Path, list[ast.Call]]]:
    """The event calls of every engine source file, by file: parsed once per process for the two
    tests below (parsing the whole engine takes seconds)."""
    return [(path, list(emit_calls(ast.parse(path.read_text(encoding="utf-8"))))) for path in sources()]


def test_every_event_whose_prose_states_a_value_passes_arguments() -> None:
    missing = []
    checked = 0
    for path, calls in emit_sites():
        for call in calls:
            if interpolates(call.args[1]):
                checked += 1
                if not call.keywords:
                    missing.append(f"{path.relative_to(ENGINE.parent)}:{call.lineno}")
    assert checked > 600  # the three games' sites, not a few
    assert not missing, ("events whose prose interpolates values but which pass no arguments (give emit the facts the prose "
                         f"states as keyword arguments, named from docs/conformance-protocol.md): {missing}")


def test_the_static_check_sees_a_site_without_arguments() -> None:
    bare = ast.parse('self.emit("haunt.roll", f"{self.name(seat)} rolls {total}")\n'
                     'st.emit("x.y", "no value stated")\n'
                     'self._ev("a.b", f"{p.name} moves", seat=p.seat)\n')
    flagged = [call.lineno for call in emit_calls(bare) if interpolates(call.args[1]) and not call.keywords]
    assert flagged == [1]


def test_argument_names_in_the_source_are_documented() -> None:
    assert {"seat", "room", "card", "trait", "amount", "dice", "total", "target"} <= VOCABULARY
    undocumented = {}
    for path, calls in emit_sites():
        for call in calls:
            for keyword in call.keywords:
                if keyword.arg is not None and keyword.arg not in VOCABULARY:
                    undocumented.setdefault(keyword.arg, f"{path.relative_to(ENGINE.parent)}:{call.lineno}")
    assert not undocumented, f"argument names missing from docs/conformance-protocol.md (Event arguments): {undocumented}"


def plain(value: Any) -> bool:
    if isinstance(value, list):
        return all(plain(v) for v in value)
    return value is None or isinstance(value, str | int | bool)


@pytest.mark.parametrize("game", available_games())
def test_played_events_carry_plain_data_under_documented_names(game: str) -> None:
    definition = get_game(game)
    cases = definition.golden if game != "betrayal" else definition.golden[::12]
    events = with_args = 0
    names: set[str] = set()
    for case in cases:
        log = record(definition, case.players, case.seed, case.options, case.controller, case.stop)
        for step in log.steps:
            for data in step.event_data():
                events += 1
                args = data.get("args", {})
                with_args += bool(args)
                for name, value in args.items():
                    assert plain(value), f"{case.name} step {step.n} {data['rule']}: {name}={value!r} is not plain data"
                    names.add(name)
    assert events > 500 and with_args > events // 2, (events, with_args)
    assert names - VOCABULARY <= TRAITS, f"undocumented argument names: {sorted(names - VOCABULARY - TRAITS)}"
