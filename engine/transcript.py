"""Transcripts: the complete decision log of a game, written as readable, diff-friendly YAML.

A transcript has a header (format, game, spec version and content hash, players, roster, seed,
options, controller) and one entry per decision: who decided, the action, how many legal actions
were offered, and the events that followed. Replaying applies the recorded actions to a fresh game
(never the seed) and checks every recorded consequence.

Format version 1 writes each event as prose, ``rule-id: what happened``, and replay compares the
prose. Version 2 writes each event's structured part, ``{rule: id, args: {...}}``, with the prose
kept as a YAML comment for people, and replay compares the structured part: what another engine
of the same game must agree on (``hauntcheck conform``). Both versions are read and replayed;
``hauntcheck upgrade`` turns version 1 files into version 2.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hauntcheck.engine.core import Action, Choices, Event, GameState, IllegalAction, Outcome
from hauntcheck.engine.inputs import outline_value, plain_copy, read_text, transcript_outline
from hauntcheck.engine.spec import SPEC_LANGUAGE, SpecError, SpecErrors, Where, parse_yaml, read_yaml

FORMAT = "hauntcheck-transcript"
#: The newest format version this hauntcheck reads and writes.
FORMAT_VERSION = 2
#: The version written unless another is asked for (``play --out``; ``--transcript-version 2``
#: writes the structured form).
DEFAULT_VERSION = 1
#: The version of the golden transcripts (``hauntcheck golden``): structured events, so that replay
#: and ``hauntcheck conform`` hold an engine to the arguments of every event, not only its rule.
GOLDEN_VERSION = 2


@dataclass
class TranscriptHeader:
    game: str
    players: int
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    controller: str = "scripted"
    spec_hash: str = ""
    spec_version: int = SPEC_LANGUAGE
    roster: dict[str, str] = field(default_factory=dict)
    stop: str | None = None
    title: str = ""


@dataclass
class Step:
    n: int
    actor: str
    action: Action
    offered: int
    #: The events as prose, ``rule-id: what happened`` (a version 2 file read back: the prose of
    #: its comments, when present).
    events: list[str]
    #: The events' structured parts (``{"rule": ..., "args": {...}}``); None for a step read from
    #: a version 1 file, whose structured parts are the rule ids of its prose.
    structured: list[dict[str, Any]] | None = None
    #: A step of a version 2 file read with ``lazy_events`` (see :func:`read`): the text of each
    #: event's line after ``  - `` (its value and comment), not yet read; ``events`` and
    #: ``structured`` are filled by :meth:`read_events` when something needs them.
    lines: list[str] | None = field(default=None, repr=False, compare=False)
    source: _LazyEvents | None = field(default=None, repr=False, compare=False)

    def read_events(self) -> None:
        """Read a lazily read step's events (``events`` and ``structured``), as :func:`read`
        reads them without ``lazy_events``; a no-op for any other step. Raises the file's
        SpecErrors, located, when it does not read."""
        if self.lines is not None and self.source is not None:
            read_step = self.source.transcript().steps[self.n - 1]
            self.events, self.structured, self.lines = read_step.events, read_step.structured, None

    def event_data(self) -> list[dict[str, Any]]:
        """The structured part of each event."""
        self.read_events()
        if self.structured is not None:
            return self.structured
        return [{"rule": event.partition(": ")[0]} for event in self.events]

    def rules(self) -> list[str]:
        """The rule ids that produced this step's events, in first-seen order."""
        seen: dict[str, None] = {}
        for event in self.event_data():
            seen.setdefault(str(event["rule"]), None)
        return list(seen)


@dataclass
class Transcript:
    header: TranscriptHeader
    steps: list[Step]
    end: dict[str, Any]
    source: str = "<memory>"
    step_lines: Mapping[int, int] = field(default_factory=dict)
    positions: Mapping[tuple[str | int, ...], tuple[int, int]] = field(default_factory=dict, repr=False)

    def where(self, path: tuple[str | int, ...]) -> Where:
        """The position of a header field (or its nearest ancestor) in the transcript's file."""
        while path not in self.positions and path:
            path = path[:-1]
        line, col = self.positions.get(path, (1, 1))
        return Where(self.source, line, col)
    #: The format version the transcript was read from (or is to be compared as).
    version: int = DEFAULT_VERSION

    def rules_applied(self) -> set[str]:
        return {rule for step in self.steps for rule in step.rules()}


def ending(outcome: Outcome | None, stopped: str | None) -> dict[str, Any]:
    """The ``end`` entry of a transcript: the outcome, or why the log stops early."""
    if outcome is not None:
        return {"terminal": True, **outcome.to_data()}
    return {"terminal": False, "stopped": stopped or "unfinished"}


# --------------------------------------------------------------------------------------------
# Writing


#: ``json.dumps(value, ensure_ascii=False, separators=(", ", ": "))`` without building an encoder
#: per call (replay writes every event of a golden this way to compare it with the file's line).
_FLOW_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))


def _flow(value: Any) -> str:
    """A value as one line of YAML flow syntax (JSON is valid YAML flow)."""
    return _FLOW_ENCODER.encode(value)


def _mapping_writer() -> Callable[[dict[str, Any]], str]:
    """``_FLOW_ENCODER.encode`` of a mapping, with the C writer that ``encode`` builds at each
    call built once (a third of writing a golden's 130,000 event arguments): the same writer,
    made with the encoder's own settings. Without circular checks: an event's arguments are
    tuples of plain values, which cannot hold themselves. ``encode`` itself where Python has no
    C writer."""
    make = json.encoder.c_make_encoder  # type: ignore[attr-defined]
    if make is None:
        return _FLOW_ENCODER.encode
    e = _FLOW_ENCODER
    strings = json.encoder.encode_basestring_ascii if e.ensure_ascii else json.encoder.encode_basestring
    write = make(None, e.default, strings, e.indent, e.key_separator, e.item_separator, e.sort_keys,
                 e.skipkeys, e.allow_nan)
    return lambda mapping: "".join(write(mapping, 0))


_write_mapping = _mapping_writer()


def _flow_mapping(data: Mapping[str, Any]) -> str:
    # Bare keys read better than JSON's quoted ones; keys are plain words here.
    return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in data.items()) + "}"


def dumps(transcript: Transcript, version: int = DEFAULT_VERSION) -> str:
    """The transcript as YAML in format ``version`` (1: prose events; 2: structured events with
    the prose as comments)."""
    if version not in (1, 2):
        raise ValueError(f"transcript format version {version}; versions: 1, 2")
    h = transcript.header
    lines = [
        f"# hauntcheck transcript of {h.title or h.game}. Produced by the engine; do not edit by hand.",
        f"format: {FORMAT}",
        f"version: {version}",
        f"game: {h.game}",
        f"spec: {{version: {h.spec_version}, hash: {_flow(h.spec_hash)}}}",
        f"players: {h.players}",
        f"seed: {_flow(h.seed)}",
        f"options: {_flow_mapping(h.options)}",
        f"controller: {_flow(h.controller)}",
    ]
    if h.stop:
        lines.append(f"stop: {_flow(h.stop)}")
    lines.append(f"roster: {_flow_mapping(h.roster)}")
    lines.append("steps:")
    for step in transcript.steps:
        lines.append(f"- n: {step.n}")
        lines.append(f"  actor: {step.actor}")
        lines.append(f"  action: {_flow_mapping(step.action.to_data())}")
        lines.append(f"  offered: {step.offered}")
        if step.events or step.structured:
            lines.append("  events:")
            if version == 1:
                lines.extend(f"  - {_flow(event)}" for event in step.events)
            else:
                prose = [event.partition(": ")[2] for event in step.events]
                for index, data in enumerate(step.event_data()):
                    comment = prose[index] if index < len(prose) else ""
                    lines.append(f"  - {_flow_mapping(data)}" + (f"  # {comment}" if comment else ""))
    lines.append(f"end: {_flow_mapping(transcript.end)}")
    return "\n".join(lines) + "\n"


def write(transcript: Transcript, path: Path, version: int = DEFAULT_VERSION) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(transcript, version), encoding="utf-8")


# --------------------------------------------------------------------------------------------
# Reading


def loads(text: str, source: str) -> Transcript:
    """Parse a transcript; every structural problem is reported with file:line:col."""
    data, positions = parse_yaml(text, source)
    return from_data(data, positions, source, text)


def from_data(data: Any, positions: Mapping[tuple[str | int, ...], tuple[int, int]], source: str, text: str = "",
              lazy: _LazyEvents | None = None) -> Transcript:
    """A transcript from its parsed YAML; every structural problem is reported with file:line:col.
    ``text`` is the file's text, where a version 2 file keeps each event's prose as a comment.
    ``data`` is only read: the transcript keeps none of its lists or mappings (it may be the read
    cache's own, see :func:`read`). With ``lazy``, ``data`` is :func:`inputs.transcript_outline`'s
    (each event its line's text) and each step keeps its lines for ``lazy`` to read on demand."""
    errors: list[SpecError] = []

    def where(path: tuple[str | int, ...]) -> Where:
        while path not in positions and path:
            path = path[:-1]
        line, col = positions.get(path, (0, 0))
        return Where(source, line, col)

    def need(path: tuple[str | int, ...], value: Any, kind: type | tuple[type, ...], what: str) -> bool:
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
            errors.append(SpecError(where(path), f"{what}: expected {_kind_name(kind)}, got {value!r}"))
            return False
        return True

    if not isinstance(data, dict):
        raise SpecErrors([SpecError(Where(source, 1, 1), "a transcript is a mapping with a header and steps")])
    if data.get("format") != FORMAT:
        raise SpecErrors([SpecError(where(("format",)), f"not a hauntcheck transcript (format should be {FORMAT!r})")])
    version = data.get("version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise SpecErrors(
            [SpecError(where(("version",)), f"transcript format version {version!r}; this hauntcheck reads up to {FORMAT_VERSION}")]
        )
    known = {"format", "version", "game", "spec", "players", "seed", "options", "controller", "stop", "roster", "steps", "end"}
    for key in data:
        if key not in known:
            errors.append(SpecError(where((key,)), f"unknown key {key!r}; expected one of: {', '.join(sorted(known))}"))
    need(("game",), data.get("game"), str, "game")
    need(("players",), data.get("players"), int, "players")
    spec = data.get("spec") or {}
    if need(("spec",), spec, dict, "spec"):
        for key in sorted(set(spec) - {"version", "hash"}):
            errors.append(SpecError(where(("spec", key)), f"unknown key {key!r} in spec; expected: hash, version"))
        need(("spec", "version"), spec.get("version", SPEC_LANGUAGE), int, "spec version")
        need(("spec", "hash"), spec.get("hash", ""), str, "spec hash")
    else:
        spec = {}
    if data.get("seed") is not None:
        need(("seed",), data.get("seed"), int, "seed")
    need(("controller",), data.get("controller", "scripted"), str, "controller")
    if data.get("stop") is not None:
        need(("stop",), data.get("stop"), str, "stop")
    options = data.get("options") or {}
    options = {str(k): plain_copy(v) for k, v in options.items()} if need(("options",), options, dict, "options") else {}
    roster = data.get("roster") or {}
    if need(("roster",), roster, dict, "roster"):
        for seat, who in roster.items():
            need(("roster", seat), who, str, f"roster seat {seat}")
    else:
        roster = {}
    end = data.get("end") or {}
    if need(("end",), end, dict, "end"):
        extra_end = sorted(set(end) - {"terminal", "stopped", "result", "winners", "detail"})
        for key in extra_end:
            errors.append(SpecError(where(("end", key)), f"unknown key {key!r} in end"))
    else:
        end = {}
    raw_steps = data.get("steps")
    comments: _Comments | None = None
    steps: list[Step] = []
    if isinstance(raw_steps, list) or need(("steps",), raw_steps, list, "steps"):
        assert isinstance(raw_steps, list)
        for i, raw in enumerate(raw_steps):
            path: tuple[str | int, ...] = ("steps", i)
            ok = _plain_step(raw)
            if not ok:
                if not need(path, raw, dict, f"step {i + 1}"):
                    continue
                for key in sorted(set(raw) - _STEP_KEYS):
                    errors.append(SpecError(where((*path, key)), f"unknown key {key!r} in a step"))
                ok = need((*path, "n"), raw.get("n"), int, "n")
                ok &= need((*path, "actor"), raw.get("actor"), str, "actor")
                ok &= need((*path, "offered"), raw.get("offered"), int, "offered")
                ok &= need((*path, "events"), raw.get("events", []), list, "events")
            structured: list[dict[str, Any]] | None = None
            events = raw.get("events", [])
            lines: list[str] | None = None
            if ok and lazy is not None:
                lines, events = events, []
            elif ok and version >= 2:
                if comments is None:
                    comments = _Comments(text, raw_steps, positions)
                structured, events = _structured_events(events, comments, (*path, "events"), where, errors)
            try:
                action = Action.from_data(raw.get("action")) if lazy is None else lazy.action(raw.get("action"))
            except (ValueError, TypeError) as exc:
                errors.append(SpecError(where((*path, "action")), f"action: {exc}"))
                continue
            if not ok:
                continue
            if raw["n"] != len(steps) + 1:
                errors.append(SpecError(where((*path, "n")), f"steps must be numbered in order: expected {len(steps) + 1}, got {raw['n']}"))
            steps.append(Step(raw["n"], raw["actor"], action, raw["offered"], [str(e) for e in events], structured, lines, lazy))
    if errors:
        raise SpecErrors(errors)
    header = TranscriptHeader(
        game=data["game"],
        players=data["players"],
        seed=data.get("seed"),
        options=dict(options),
        controller=str(data.get("controller", "scripted")),
        spec_hash=str(spec.get("hash", "")),
        spec_version=int(spec.get("version", SPEC_LANGUAGE)),
        roster={str(k): str(v) for k, v in roster.items()},
        stop=data.get("stop"),
    )
    return Transcript(header, steps, plain_copy(end), source, StepLines(positions, len(steps)), positions, version)


_STEP_KEYS = frozenset({"n", "actor", "action", "offered", "events"})


def _plain_step(raw: Any) -> bool:
    """Whether a step is as ``dumps`` writes it, so none of from_data's located checks can fail:
    only the step keys, and n, actor, offered and events of their kinds (the action is checked
    apart)."""
    return (type(raw) is dict and raw.keys() <= _STEP_KEYS and type(raw.get("n")) is int and type(raw.get("actor")) is str
            and type(raw.get("offered")) is int and type(raw.get("events", [])) is list)


class StepLines(Mapping[int, int]):
    """The line of each step (by its number), and of the ``end`` entry as step ``len + 1``,
    looked up in the document's positions only when a replay must point at one."""

    def __init__(self, positions: Mapping[tuple[str | int, ...], tuple[int, int]], count: int) -> None:
        self.positions = positions
        self.count = count

    def __getitem__(self, n: int) -> int:
        if 1 <= n <= self.count:
            return self.positions[("steps", n - 1)][0]
        if n == self.count + 1:
            for path in (("end",), ("steps",)):
                if path in self.positions:
                    return self.positions[path][0]
        raise KeyError(n)

    def __iter__(self) -> Iterator[int]:
        return iter(range(1, self.count + 2))

    def __len__(self) -> int:
        return self.count + 1


class _Comments:
    """The prose comments of a version 2 file's events, in order. The events are read from the
    lines as ``hauntcheck`` writes them (one ``  - {rule: ...}  # prose`` line each), which costs a
    scan of the text; only a file laid out otherwise (edited by hand) needs the positions of its
    values, which parse the document a second time."""

    def __init__(self, text: str, raw_steps: list[Any], positions: Mapping[tuple[str | int, ...], tuple[int, int]]) -> None:
        self.lines = text.splitlines()
        self.positions = positions
        events = sum(len(s["events"]) for s in raw_steps if isinstance(s, dict) and isinstance(s.get("events"), list))
        scanned = [(_EVENT_LINE.match(line), line) for line in self.lines if line.startswith("  - {rule: ")]
        self.in_order: list[tuple[str, str]] | None = [
            (_json_string(m[1]) if m else "", line.partition("  # ")[2]) for m, line in scanned
        ] if len(scanned) == events else None
        self.next = 0

    def prose(self, path: tuple[str | int, ...], index: int, rule: str) -> str:
        """The comment of the event at ``path[index]``, whose rule is ``rule``."""
        if self.in_order is not None:
            line_rule, comment = self.in_order[self.next]
            self.next += 1
            if line_rule == rule:
                return comment
            self.in_order = None  # not the layout written by hauntcheck: find each event by its position
        line = self.positions.get((*path, index), (0, 0))[0]
        return self.lines[line - 1].partition("  # ")[2] if 0 < line <= len(self.lines) else ""


#: An event line as ``dumps`` writes it; the rule id is a JSON string.
_EVENT_LINE = re.compile(r'  - \{rule: "((?:[^"\\]|\\.)*)"')
_EVENT_KEYS = frozenset({"rule", "args"})


def _json_string(inside: str) -> str:
    """The text between a JSON string's quotes, read (only an escape needs the JSON reader)."""
    return json.loads(f'"{inside}"') if "\\" in inside else inside


def _structured_events(raw: list[Any], comments: _Comments, path: tuple[str | int, ...], where: Any,
                       errors: list[SpecError]) -> tuple[list[dict[str, Any]], list[str]]:
    """A version 2 step's events: the structured parts, checked, and the prose of their comments."""
    structured: list[dict[str, Any]] = []
    prose: list[str] = []
    for index, event in enumerate(raw):
        rule = event.get("rule") if isinstance(event, dict) else None
        args = event.get("args", {}) if isinstance(event, dict) else None
        if not isinstance(rule, str) or not isinstance(args, dict) or not event.keys() <= _EVENT_KEYS:
            errors.append(SpecError(where((*path, index)), f"a version 2 event is {{rule: id, args: {{...}}}}, got {event!r}"))
            continue
        structured.append({"rule": rule, "args": plain_copy(args)} if args else {"rule": rule})
        prose.append(f"{rule}: {comments.prose(path, index, rule)}")
    return structured, prose


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {int: "an integer", str: "a string", list: "a list", dict: "a mapping"}
    if isinstance(kind, tuple):
        return " or ".join(names.get(k, k.__name__) for k in kind)
    return names.get(kind, kind.__name__)


def is_transcript(path: Path) -> bool:
    """Whether a YAML file is a transcript (its header names the transcript format), as opposed
    to a scenario kept in the same folder."""
    try:
        with path.open("rb") as handle:
            head = handle.read(400).decode("utf-8", errors="replace")
    except OSError:
        return False  # the scenario loader reports why the file cannot be read
    return f"\nformat: {FORMAT}\n" in head or head.startswith(f"format: {FORMAT}\n")


def read(path: Path, display: str | None = None, *, lazy_events: bool = False) -> Transcript:
    """Read a transcript file; SpecErrors (file:line:col) for anything wrong with it.

    ``lazy_events``, for a replay: a version 2 file in the layout ``dumps`` writes keeps each
    event line as text, and :func:`replay` reads the events only of a step whose lines differ
    from the engine's events written the same way (most of reading a golden is its 130,000
    event arguments). Reading one step's events reads the whole file as without ``lazy_events``
    (same data, same errors); a caller that needs every error of the file before replaying reads
    it without ``lazy_events``."""
    shown = display or str(path)
    if lazy_events:
        text = read_text(path, shown)
        outline = transcript_outline(text, shown)
        if outline is not None and outline[0].get("version") == 2:
            try:
                return from_data(outline[0], outline[1], shown, text, _LazyEvents(text, shown))
            except (_NotInLayout, SpecErrors):
                pass  # read in full: the YAML reading reads such an action, or names every mistake of the file
    data, positions, text = read_yaml(path, shown, shared=True)  # from_data keeps nothing of the data
    return from_data(data, positions, shown, text)


class _NotInLayout(Exception):
    """An action of a transcript read with ``lazy_events`` is not as ``dumps`` writes it."""


#: Actions by the text of their value in a transcript: the 68,000 actions of the Betrayal
#: goldens are 4,700 texts. An action is immutable, and the same text always reads as the same
#: action, so sharing one never changes a result.
_ACTIONS: dict[str, Action] = {}
#: Texts kept at most (cleared when full, so that a long process stays bounded).
ACTION_CACHE_SIZE = 50_000


class _LazyEvents:
    """The text of a transcript read with ``lazy_events``, read in full (once) when a step's
    events are needed."""

    @staticmethod
    def action(text: Any) -> Action:
        """The action whose value is ``text`` in the outline; _NotInLayout when only the YAML
        reading of the whole file reads it (or tells what is wrong with it)."""
        found = _ACTIONS.get(text) if isinstance(text, str) else None
        if found is None:
            value = outline_value(text) if isinstance(text, str) else None
            if not isinstance(value, dict):
                raise _NotInLayout
            try:
                found = Action.from_data(value)
            except (ValueError, TypeError):
                raise _NotInLayout from None
            if len(_ACTIONS) >= ACTION_CACHE_SIZE:
                _ACTIONS.clear()
            _ACTIONS[text] = found
        return found

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self._read: Transcript | None = None

    def transcript(self) -> Transcript:
        if self._read is None:
            self._read = loads(self.text, self.source)
        return self._read


# --------------------------------------------------------------------------------------------
# Replaying


@dataclass
class Divergence:
    """The first place where a replay disagrees with the log."""

    step: int
    line: int
    what: str
    expected: list[str]
    actual: list[str]

    def render(self, source: str) -> str:
        at = f"step {self.step}" if self.step else "header"
        out = [f"{source}:{self.line}: {at}: {self.what}"]
        width = max([len("expected (log)")] + [len(x) for x in self.expected])
        out.append(f"  {'expected (log)':<{width}} | actual (engine)")
        for i in range(max(len(self.expected), len(self.actual))):
            left = self.expected[i] if i < len(self.expected) else ""
            right = self.actual[i] if i < len(self.actual) else ""
            marker = " " if left == right else "!"
            out.append(f"{marker} {left:<{width}} | {right}")
        return "\n".join(out)


@dataclass
class ReplayResult:
    transcript: Transcript
    steps_checked: int
    divergence: Divergence | None
    notes: list[str]
    state: GameState | None

    @property
    def ok(self) -> bool:
        return self.divergence is None


def _written_as(lines: Sequence[str], applied: Sequence[Event]) -> bool:
    """Whether event lines (after ``  - ``) are the events as :func:`dumps` writes them (the
    comment aside): then they hold the same data, without reading them. A line written
    otherwise may still hold the same data, which reading it tells."""
    if len(lines) != len(applied):
        return False
    for line, event in zip(lines, applied, strict=True):
        value = _event_flow(event)
        if not line.startswith(value) or (len(line) > len(value) and not line.startswith("  # ", len(value))):
            return False
    return True


def _event_flow(event: Event) -> str:
    """``_flow_mapping(event.to_data())`` (what :func:`dumps` writes of an event), written
    straight from the event: JSON writes a tuple as a list, so its frozen arguments need not be
    thawed into a new mapping first (replay writes each of a golden's 130,000 events)."""
    rule = _FLOW_ENCODER.encode(event.rule)
    if not event.args:
        return "{rule: " + rule + "}"
    return "{rule: " + rule + ", args: " + _write_mapping(dict(event.args)) + "}"


def event_line(data: Mapping[str, Any]) -> str:
    """A structured event as one line: ``rule-id {args}``."""
    args = data.get("args")
    return f"{data['rule']} {_flow_mapping(args)}" if args else str(data["rule"])


def replay(transcript: Transcript, state: GameState, *, strict: bool = True, spec_hash: str = "",
           structured: bool | None = None) -> ReplayResult:
    """Re-apply the logged actions to ``state`` (a fresh game built from the header) and check
    each step's actor, offered count and events, then the ending. Events are compared as prose
    for a version 1 transcript, by their structured parts for version 2 (or when ``structured``
    asks: the rule ids of a version 1 file, which is what another engine can be held to)."""
    by_structure = transcript.version >= 2 if structured is None else structured
    notes: list[str] = []
    if spec_hash and spec_hash != transcript.header.spec_hash:
        changed = f"the spec changed since this transcript was recorded ({transcript.header.spec_hash or 'no hash'} -> {spec_hash})"
        if strict:
            line = transcript.where(("spec", "hash")).line
            return ReplayResult(transcript, 0, Divergence(0, line, changed + "; replay it with --lenient, or record it again",
                                                          [transcript.header.spec_hash], [spec_hash]), notes, state)
        notes.append(changed)

    def diverge(n: int, what: str, expected: Sequence[str], actual: Sequence[str]) -> ReplayResult:
        line = transcript.step_lines.get(n, 0)
        return ReplayResult(transcript, n - 1, Divergence(n, line, what, list(expected), list(actual)), notes, state)

    for step in transcript.steps:
        actor = state.to_move()
        if actor is None:
            if strict:
                return diverge(step.n, "the game is already over but the log goes on (recorded answer left unused)",
                               [f"{step.actor} {step.action}"], ["(game over)"])
            break
        legal = state.legal_actions()
        if actor != step.actor or legal.size() != step.offered:
            return diverge(step.n, "a different decision point",
                           [f"actor {step.actor}", f"offered {step.offered}"], [f"actor {actor}", f"offered {legal.size()}"])
        action = step.action if step.action in legal else legal_by_name(step.action, legal)
        if action is None:
            return diverge(step.n, "the recorded action is not one of the legal actions offered here",
                           [str(step.action)], [f"{legal.size()} offered: {legal.describe()}"])
        try:
            applied = state.apply(action)
        except IllegalAction as exc:
            return diverge(step.n, "the recorded action is illegal here", [str(step.action)], [exc.reason])
        if by_structure:
            if step.lines is not None and _written_as(step.lines, applied):
                continue
            expected = step.event_data()
            got = [e.to_data() if step.structured is not None else {"rule": e.rule} for e in applied]
            if got != expected:
                return diverge(step.n, f"different consequences of {step.action}", [event_line(d) for d in expected],
                               [event_line(d) for d in got])
            continue
        step.read_events()
        events = [str(e) for e in applied]
        if events != step.events:
            return diverge(step.n, f"different consequences of {step.action}", step.events, events)
    end = transcript.end
    n_end = len(transcript.steps) + 1
    recorded_roster = transcript.header.roster
    if strict and recorded_roster and recorded_roster != state.roster():
        return ReplayResult(transcript, len(transcript.steps),
                            Divergence(0, transcript.where(("roster",)).line, "a different roster than the header's",
                                       [f"{k}={v}" for k, v in recorded_roster.items()],
                                       [f"{k}={v}" for k, v in state.roster().items()]), notes, state)
    outcome = state.outcome()
    if outcome is not None:
        actual = {"terminal": True, **outcome.to_data()}
        if end != actual:
            return diverge(n_end, "a different ending", [_flow(end)], [_flow(actual)])
    else:
        stopped = end.get("stopped")
        extra = sorted(set(end) - {"terminal", "stopped"})
        if extra:
            return diverge(n_end, f"an unfinished game's ending has only 'terminal' and 'stopped', not {', '.join(extra)}",
                           [_flow(end)], [f"{state.to_move()} to move"])
        if end.get("terminal"):
            return diverge(n_end, "the log ends before the game does", [_flow(end)], [f"{state.to_move()} to move"])
        if strict and not (isinstance(stopped, str) and state.reached(stopped)):
            legal = state.legal_actions()
            return diverge(n_end, "a prompt the log does not answer",
                           [f"stopped: {stopped}"], [f"{state.to_move()} must decide ({legal.describe()})"])
    return ReplayResult(transcript, len(transcript.steps), None, notes, state)


#: Arguments an action may have for replay to try their orders (6! = 720 membership tests).
MAX_REORDERED_ARGS = 6


def legal_by_name(action: Action, legal: Choices) -> Action | None:
    """The legal action with the same kind and the same arguments by name, whatever their order
    (a YAML tool that sorts keys reorders them); None if there is none."""
    if len(action.args) > MAX_REORDERED_ARGS:
        return None
    for order in itertools.permutations(action.args):
        candidate = Action(action.kind, order)
        if candidate in legal:
            return candidate
    return None
