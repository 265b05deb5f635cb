"""Transcripts in the layout hauntcheck writes are read line by line (inputs._transcript_lines),
which must give exactly what the YAML reading gives, and leave anything else to the YAML reading
with its checks and located errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from hauntcheck.engine import inputs
from hauntcheck.engine import transcript as transcripts
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


# --------------------------------------------------------------------------------------------
# Replaying a golden read with ``lazy_events``: its event lines are compared as text with the
# engine's events written as ``dumps`` writes them, and read only where they differ.

GOLDEN = REPO / "scenarios" / "betrayal" / "golden" / "reveal-3p-seed-3.yaml"
LINE_19 = '  - {rule: "setup.clips-at-start-values", args: {"seat": "P1", "explorer": "ox-bellows", "values": [5, 4, 3, 3]}}'


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    text = GOLDEN.read_text()
    assert text.count(old) == 1
    path = tmp_path / "betrayal" / GOLDEN.name
    path.parent.mkdir(parents=True)
    path.write_text(text.replace(old, new))
    return path


def _golden_family(tmp_path: Path) -> list[str]:
    from hauntcheck.checks.verify import family_golden, load_context

    result = family_golden(load_context("betrayal", scenario_root=tmp_path))
    assert result.checked == 1
    return [failure.message for failure in result.failures]


def _as_failures(errors: SpecErrors) -> list[str]:
    from hauntcheck.checks.verify import Failure

    return [Failure.of(error).message for error in errors.errors]


def _eager_replay(path: Path) -> str:
    from hauntcheck.checks.verify import display_path, load_context, replay_transcript

    ctx = load_context("betrayal")
    assert ctx.definition is not None and ctx.spec is not None
    replayed = replay_transcript(transcripts.read(path), ctx.definition, ctx.spec)
    assert replayed.divergence is not None
    return replayed.divergence.render(display_path(path))


def test_a_lazily_read_golden_gives_the_same_steps_once_read() -> None:
    lazy, eager = transcripts.read(GOLDEN, lazy_events=True), transcripts.read(GOLDEN)
    assert lazy.steps[0].lines is not None and lazy.steps[0].structured is None
    assert [s.event_data() for s in lazy.steps] == [s.event_data() for s in eager.steps]
    assert [s.events for s in lazy.steps] == [s.events for s in eager.steps]
    assert [(s.n, s.actor, s.action, s.offered) for s in lazy.steps] == [(s.n, s.actor, s.action, s.offered) for s in eager.steps]
    assert (lazy.header, lazy.end) == (eager.header, eager.end)


def test_a_changed_event_argument_is_caught_at_its_step_with_the_same_message(tmp_path: Path) -> None:
    path = _edited(tmp_path, LINE_19, LINE_19.replace("[5, 4, 3, 3]", "[5, 4, 3, 2]"))
    expected = _eager_replay(path)
    assert expected.startswith(f"{path}:13: step 1: different consequences of")  # the step's line
    assert "values: [5, 4, 3, 2]} | " in expected  # the log's side
    assert _golden_family(tmp_path) == [expected]


def test_an_event_line_spaced_otherwise_but_equal_passes(tmp_path: Path) -> None:
    _edited(tmp_path, LINE_19, LINE_19.replace('", "values": [5, 4', '",   "values" : [ 5,4'))
    assert _golden_family(tmp_path) == []


def test_a_broken_event_line_is_named_as_the_reading_names_it(tmp_path: Path) -> None:
    path = _edited(tmp_path, LINE_19, LINE_19.replace("[5, 4, 3, 3]", "[5, 4, 3, 3"))
    with pytest.raises(SpecErrors) as raised:
        transcripts.read(path)
    assert _golden_family(tmp_path) == _as_failures(raised.value)


@pytest.mark.parametrize("action", ['{kind: "choose", explorer: "ox-bellows"', '{kind: "choose", explorer: "ox-bellows", explorer: "x"}', '{explorer: "ox-bellows"}'])
def test_a_broken_action_is_named_as_the_reading_names_it(tmp_path: Path, action: str) -> None:
    path = _edited(tmp_path, '  action: {kind: "choose", explorer: "ox-bellows"}\n  offered: 12', f"  action: {action}\n  offered: 12")
    with pytest.raises(SpecErrors) as raised:
        transcripts.read(path)
    assert _golden_family(tmp_path) == _as_failures(raised.value)
