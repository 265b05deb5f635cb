"""The one input layer: every YAML file a command reads (spec, haunt, scenario, transcript) comes
through here.

It reads the bytes within a size limit, names binary and non-UTF-8 input as such (with the line and
column the byte offset gives), refuses control characters, and parses the YAML safely within a
nesting-depth limit and a limit on the number of values (which bounds what aliases can expand to,
so a "billion laughs" document is refused in time proportional to the limit). Duplicate keys and
tags other than plain data are refused. Every refusal is a :class:`SpecErrors` naming the file,
line and column.

Speed: the text is scanned and composed by libyaml (``yaml.CSafeLoader``) when it is installed,
falling back to the pure-Python ``SafeLoader``. Source positions (line:col of every value) are only
worked out when something asks for one, usually to locate an error: :class:`Positions` composes
the text a second time on first use. A file is parsed once per process (a cache keyed by path,
modification time and size). A transcript in the layout hauntcheck writes is read line by line
instead (the same data, several times faster than composing its many small flow mappings; see
``_transcript_lines``); anything else in it falls back to the YAML reading.

Limits (environment variables, read at each call): ``HAUNTCHECK_MAX_BYTES`` (default 16 MB),
``HAUNTCHECK_MAX_DEPTH`` (nesting levels, default 64) and ``HAUNTCHECK_MAX_VALUES`` (values in one
document after aliases are expanded, default 250,000). See docs/hardening.md.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from hauntcheck.engine.spec import PathKey, SpecError, SpecErrors, Where

#: The loader that scans and composes: libyaml's when available (about ten times faster).
FAST_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # type: ignore[assignment]

_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_STR_TAG = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]{0,99})")
# C0 controls other than tab, line feed and carriage return, DEL, and the C1 controls: YAML
# does not allow them raw, and in a value they garble terminals and reports.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f]")
#: A translation of bytes marking with 0 each byte that is a character _CONTROL refuses in UTF-8
#: (the C0 controls and DEL), every other byte with 1.
_CONTROL_BYTE_MARKS = bytes(0 if i < 0x80 and _CONTROL.match(chr(i)) else 1 for i in range(256))


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on one input file; each is configurable through its environment variable."""

    max_bytes: int = 16_000_000
    max_depth: int = 64
    max_values: int = 250_000

    @classmethod
    def from_environment(cls) -> Limits:
        defaults = cls()
        return cls(
            _env_int("HAUNTCHECK_MAX_BYTES", defaults.max_bytes),
            _env_int("HAUNTCHECK_MAX_DEPTH", defaults.max_depth),
            _env_int("HAUNTCHECK_MAX_VALUES", defaults.max_values),
        )


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SpecErrors([SpecError(Where(f"${name}"), f"{name} must be a positive whole number, got {raw!r}")]) from None
    if value < 1:
        raise SpecErrors([SpecError(Where(f"${name}"), f"{name} must be a positive whole number, got {raw!r}")])
    return value


# --------------------------------------------------------------------------------------------
# Text


def where_in_bytes(data: bytes, offset: int, display: str) -> Where:
    """The 1-based line and column (in characters) of a byte offset."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    line = data.count(b"\n", 0, offset) + 1
    column = len(data[line_start:offset].decode("utf-8", errors="replace")) + 1
    return Where(display, line, column)


def where_in_text(text: str, offset: int, display: str) -> Where:
    line_start = text.rfind("\n", 0, offset) + 1
    return Where(display, text.count("\n", 0, offset) + 1, offset - line_start + 1)


def decode(data: bytes, display: str) -> str:
    """Bytes as YAML text: UTF-8 (a leading BOM is allowed), no NUL, no control characters."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise SpecErrors([SpecError(Where(display, 1, 1), "UTF-16 text; save the file as UTF-8")])
    nul = data.find(b"\0")
    if nul >= 0:
        raise SpecErrors([SpecError(where_in_bytes(data, nul, display), "binary data, not YAML text (a NUL byte)")])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SpecErrors(
            [SpecError(where_in_bytes(data, exc.start, display), f"not UTF-8 text: byte 0x{data[exc.start]:02x} ({exc.reason})")]
        ) from None
    text = text.removeprefix("\ufeff")
    if not _surely_no_control(data):
        check_text(text, display)
    return text


def _surely_no_control(data: bytes) -> bool:
    """Whether the UTF-8 text ``data`` certainly holds no character :func:`check_text` refuses,
    told from its bytes (a translation and two byte searches: a fifth of the pattern's time over a
    golden's text). In UTF-8 such a character is either one byte below 0x80 (a C0 control, DEL)
    or one of U+0080 to U+009F, written C2 80 to C2 9F: a text with a C2 byte is left to the
    pattern, which also finds where the character is."""
    return b"\xc2" not in data and b"\x00" not in data.translate(_CONTROL_BYTE_MARKS)


def check_text(text: str, display: str) -> None:
    """Refuse raw control characters, at their line and column."""
    found = _CONTROL.search(text)
    if found is not None:
        char = found.group()
        raise SpecErrors(
            [SpecError(where_in_text(text, found.start(), display), f"control character U+{ord(char):04X} is not allowed in YAML text")]
        )


def read_text(path: Path, display: str | None = None, limits: Limits | None = None) -> str:
    """Read one input file as text, within the size limit."""
    shown = display or str(path)
    bounds = limits or Limits.from_environment()
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise SpecErrors([SpecError(Where(shown), "is a folder, not a file")])
        if size > bounds.max_bytes:
            raise SpecErrors(
                [SpecError(Where(shown), f"the file has {size:,} bytes, more than the limit of {bounds.max_bytes:,} "
                                         "(set HAUNTCHECK_MAX_BYTES to raise it)")]
            )
        with path.open("rb") as handle:
            data = handle.read(bounds.max_bytes + 1)
    except FileNotFoundError:
        raise SpecErrors([SpecError(Where(shown), "no such file")]) from None
    except OSError as exc:
        raise SpecErrors([SpecError(Where(shown), f"cannot read: {exc.strerror or exc}")]) from None
    if len(data) > bounds.max_bytes:  # it grew, or is a device or pipe whose size stat cannot tell
        message = f"more than the limit of {bounds.max_bytes:,} bytes (set HAUNTCHECK_MAX_BYTES to raise it)"
        raise SpecErrors([SpecError(Where(shown), message)])
    return decode(data, shown)


# --------------------------------------------------------------------------------------------
# YAML


class _TooBig(Exception):
    def __init__(self, node: yaml.Node, message: str) -> None:
        super().__init__(message)
        self.node = node
        self.message = message


class _Builder:
    """Turns a composed YAML node tree into plain data, refusing duplicate keys (which a plain
    safe_load would silently drop), tags other than plain data, and documents past the limits.
    With ``positions`` it also records each value's line and column by path."""

    def __init__(self, loader: yaml.SafeLoader, display: str, limits: Limits, positions: dict[PathKey, tuple[int, int]] | None) -> None:
        self.loader = loader
        self.display = display
        self.limits = limits
        self.positions = positions
        self.errors: list[SpecError] = []
        self.values = 0
        self.constructed: dict[int, Any] = {}

    def at(self, node: yaml.Node) -> Where:
        return Where(self.display, node.start_mark.line + 1, node.start_mark.column + 1)

    def build(self, node: yaml.Node, path: PathKey, depth: int = 1) -> Any:
        self.values += 1
        if self.values > self.limits.max_values:
            raise _TooBig(node, f"the document holds more than {self.limits.max_values:,} values (aliases counted as "
                                "often as they are used); set HAUNTCHECK_MAX_VALUES to raise the limit")
        if depth > self.limits.max_depth:
            raise _TooBig(node, f"nested more than {self.limits.max_depth} levels deep (set HAUNTCHECK_MAX_DEPTH to raise the limit)")
        if self.positions is not None:
            self.positions[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            if node.tag != _MAP_TAG:
                return self._bad_tag(node)
            self.loader.flatten_mapping(node)
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    shown = "a list" if isinstance(key_node, yaml.SequenceNode) else "a mapping"
                    self.errors.append(SpecError(self.at(key_node), f"a key must be a plain word, not {shown}"))
                    continue
                key = self.scalar(key_node)
                if not isinstance(key, str | int):
                    self.errors.append(SpecError(self.at(key_node), f"a key must be a plain word, not {key!r}"))
                    continue
                key = str(key)
                if key in out:
                    first = self.positions.get((*path, key), (0, 0)) if self.positions is not None else None
                    related = ((Where(self.display, *first), "first given here"),) if first else ()
                    self.errors.append(SpecError(self.at(key_node), f"duplicate key {key!r}", related))
                    continue
                out[key] = self.build(value_node, (*path, key), depth + 1)
            return out
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ_TAG:
                return self._bad_tag(node)
            return [self.build(item, (*path, i), depth + 1) for i, item in enumerate(node.value)]
        return self.scalar(node)

    def scalar(self, node: yaml.Node) -> Any:
        # A scalar's value never changes, so an aliased one is shared rather than rebuilt.
        found = self.constructed.get(id(node), self)
        if found is not self:
            return found
        tag = node.tag
        try:
            # The two commonest scalars are read directly (what the constructor would give, without
            # its dispatch): a string, and a decimal integer (a leading 0 is YAML 1.1's octal).
            if tag == _STR_TAG:
                value = node.value
            elif tag == _INT_TAG and _DECIMAL.fullmatch(node.value):
                value = int(node.value)
            else:
                value = self.loader.construct_object(node, deep=True)
        except ValueError as exc:  # an integer of more digits than Python converts (4,300)
            self.errors.append(SpecError(self.at(node), f"{str(node.value)[:20]}... is not a usable value: {str(exc).split(':')[0]}"))
            value = None
        if isinstance(value, str) and _CONTROL.search(value):
            char = _CONTROL.search(value).group()  # type: ignore[union-attr]
            self.errors.append(SpecError(self.at(node), f"control character U+{ord(char):04X} in a value (written as an escape)"))
        self.constructed[id(node)] = value
        return value

    def _bad_tag(self, node: yaml.Node) -> None:
        # The safe loader would refuse this tag on a scalar; refuse it on collections too rather
        # than silently reading the tagged value as plain data.
        self.errors.append(SpecError(self.at(node), f"the tag {node.tag!r} is not allowed: specs hold plain data only"))
        return None


def _compose(text: str, display: str, loader_class: type[yaml.SafeLoader]) -> tuple[yaml.SafeLoader, yaml.Node]:
    loader = loader_class(text)
    loader.name = display  # type: ignore[attr-defined]
    try:
        node = loader.get_single_node()
    except BaseException:
        loader.dispose()
        raise
    if node is None:
        loader.dispose()
        raise SpecErrors([SpecError(Where(display, 1, 1), "the file is empty")])
    return loader, node


def _syntax_error(exc: yaml.MarkedYAMLError, display: str) -> SpecErrors:
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
    problem = exc.problem or "not valid YAML"
    if problem == "exceeded maximum nesting depth":
        problem = "nested more than 1000 levels deep"
    if exc.context:
        started = exc.context_mark
        at = f" at {started.line + 1}:{started.column + 1}" if started and started is not mark else ""
        context = exc.context.strip()
        problem = f"{problem} ({context}{at})"
    return SpecErrors([SpecError(Where(display, line, col), f"YAML syntax: {problem}")])


def _parse(text: str, display: str, limits: Limits, positions: dict[PathKey, tuple[int, int]] | None,
           loader_class: type[yaml.SafeLoader] = FAST_LOADER) -> Any:
    try:
        loader, node = _compose(text, display, loader_class)
        try:
            builder = _Builder(loader, display, limits, positions)
            data = builder.build(node, ())
        finally:
            loader.dispose()
    except _TooBig as exc:
        raise SpecErrors([SpecError(Where(display, exc.node.start_mark.line + 1, exc.node.start_mark.column + 1), exc.message)]) from None
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, display) from None
    except yaml.YAMLError as exc:
        raise SpecErrors([SpecError(Where(display), f"YAML: {exc}")]) from None
    except RecursionError:
        # Only the pure-Python composer recurses per nesting level; libyaml stops at 1000.
        message = f"nested too deeply to read (more than {limits.max_depth} levels allowed)"
        raise SpecErrors([SpecError(Where(display, 1, 1), message)]) from None
    if builder.errors:
        if positions is None:
            # Locate a duplicate key's first occurrence too: build again with positions.
            _parse(text, display, limits, {}, loader_class)
        raise SpecErrors(builder.errors)
    return data


class Positions(Mapping[PathKey, tuple[int, int]]):
    """The line and column of every value of a document by path: recorded while it was read (a
    small YAML document, see :func:`parse_yaml`), or worked out on first use (a transcript read
    line by line, a large document: most are read without ever needing one)."""

    def __init__(self, text: str, display: str, limits: Limits, table: dict[PathKey, tuple[int, int]] | None = None) -> None:
        self._text = text
        self._display = display
        self._limits = limits
        #: (``table``: the positions recorded while the document was read, when they were.)
        self._table = table

    def _positions(self) -> dict[PathKey, tuple[int, int]]:
        if self._table is None:
            table: dict[PathKey, tuple[int, int]] = {}
            _parse(self._text, self._display, self._limits, table)
            self._table = table
        return self._table

    def __getitem__(self, key: PathKey) -> tuple[int, int]:
        return self._positions()[key]

    def __iter__(self) -> Iterator[PathKey]:
        return iter(self._positions())

    def __len__(self) -> int:
        return len(self._positions())

    def __contains__(self, key: object) -> bool:
        return key in self._positions()


def parse_yaml(text: str, display: str, limits: Limits | None = None) -> tuple[Any, Positions]:
    """Parse one YAML document of plain data, with its positions (recorded while a document of up
    to :data:`EAGER_POSITIONS_CHARS` is read, else worked out when first asked for). Raises
    SpecErrors (file:line:col) for anything that is not a valid, bounded document."""
    bounds = limits or Limits.from_environment()
    check_text(text, display)
    data = _transcript_lines(text, bounds) if _TRANSCRIPT_MARK in text else None
    if data is not None:
        return data, Positions(text, display, bounds)
    # A small document records its positions while it is read: a spec file's are nearly always
    # asked for (its marks are listed with their places), and recording them costs a fraction of
    # parsing the document again to find them.
    table: dict[PathKey, tuple[int, int]] | None = {} if len(text) <= EAGER_POSITIONS_CHARS else None
    data = _parse(text, display, bounds, table)
    return data, Positions(text, display, bounds, table)


#: The longest document (in characters) whose positions :func:`parse_yaml` records while reading
#: it (the largest spec file is about 90,000); a longer one leaves them to be worked out when first
#: asked for, most often never (a transcript read as YAML, an oversized input being refused).
EAGER_POSITIONS_CHARS = 256_000


# --------------------------------------------------------------------------------------------
# Transcripts as hauntcheck writes them
#
# A transcript written by hauntcheck is YAML in a fixed layout: ``key: value`` header lines, then
# ``- n: ...`` steps whose keys are indented two spaces and whose events are ``  - value`` lines,
# every value a plain word, a decimal integer, JSON, or a flow mapping of bare keys and JSON
# values (a version 2 event's prose a comment after it). A golden corpus holds hundreds of
# thousands of such values, and composing them as YAML nodes costs most of the reading;
# :func:`_transcript_lines` reads this layout directly. It gives exactly the data the YAML
# reading gives, or None for anything it does not recognise (another layout, an escape, a float,
# a duplicate key, a document past the limits), which is then read as YAML with every check and
# located error that brings.

_TRANSCRIPT_MARK = "\nformat: hauntcheck-transcript\n"
_BARE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_BARE_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
#: Plain words YAML 1.1 reads as something other than a string.
_YAML_WORDS = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null"})
#: What PyYAML's reader refuses (it checks every character of the stream).
_NOT_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")
_TRAILING = re.compile(r"(?:\s+#.*)?")
#: JSON's other escapes (\" \\ \/ \b \f \n \r \t \uXXXX) read the same in a YAML double-quoted string.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
#: The JSON escapes that can write a control character (an escaped backslash before a ``b`` is
#: caught too: erring towards the full check is harmless).
_CONTROL_ESCAPE = re.compile(r"\\[bfu]")


class _NotThisLayout(Exception):
    pass


def _refuse(*_: Any) -> Any:
    raise _NotThisLayout


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _NotThisLayout  # a duplicate key: YAML reading names it
    return out


_JSON = json.JSONDecoder(object_pairs_hook=_pairs, parse_float=_refuse, parse_constant=_refuse)
#: The JSON value at an index and where it ends (``raw_decode`` without its Python frame); a
#: StopIteration when there is none.
_JSON_AT: Callable[[str, int], tuple[Any, int]] = _JSON.scan_once  # type: ignore[attr-defined]


def _flow_value(line: str, i: int) -> tuple[Any, int]:
    """The value at ``line[i:]`` (a flow mapping of bare keys, or JSON) and where it ends."""
    try:
        if not line.startswith("{", i) or line.startswith('{"', i):
            return _JSON_AT(line, i)
        out: dict[str, Any] = {}
        i += 1
        if line.startswith("}", i):
            return out, i + 1
        while True:
            key = _BARE_KEY.match(line, i)
            if key is None:
                raise _NotThisLayout
            word, i = key[0], key.end() + 2
            if word in out or not line.startswith(": ", i - 2) or word.lower() in _YAML_WORDS:
                raise _NotThisLayout
            # a mapping's values are JSON as ``dumps`` writes them; a nested bare-key mapping recurses
            if line.startswith("{", i) and not line.startswith('{"', i):
                out[word], i = _flow_value(line, i)
            else:
                out[word], i = _JSON_AT(line, i)
            if line.startswith(", ", i):
                i += 2
            elif line.startswith("}", i):
                return out, i + 1
            else:
                raise _NotThisLayout
    except StopIteration:
        raise _NotThisLayout from None


#: The keys of a step as ``dumps`` writes them (any other bare key is checked by its pattern).
_LAYOUT_KEYS = frozenset({"n", "actor", "action", "offered", "events"})


def _bare_key(key: str, known: set[str]) -> bool:
    """Whether ``key`` is a bare key (noted in ``known`` when it is)."""
    if _BARE_KEY.fullmatch(key) is None:
        return False
    known.add(key)
    return True


def _line_value(text: str) -> Any:
    """A whole value after ``key: `` or ``- ``, with nothing but a comment after it."""
    if text[:1] in ('{', '[', '"') or text[:1].isdigit() or text[:1] == "-" or text in ("true", "false", "null"):
        if text[:1].isdigit() or text[:1] == "-":
            number = _DECIMAL.match(text)
            if number is None or not _TRAILING.fullmatch(text, number.end()):
                raise _NotThisLayout
            return int(number[0])
        value, end = _flow_value(text, 0)
    else:
        word = _BARE_WORD.match(text)
        if word is None or word[0].lower() in _YAML_WORDS:
            raise _NotThisLayout
        value, end = word[0], word.end()
    if not _TRAILING.fullmatch(text, end):
        raise _NotThisLayout
    return value


def _printable(text: str, checked: bool) -> bool:
    """Whether PyYAML's reader accepts every character of ``text`` (:data:`_NOT_PRINTABLE` finds
    none). ``checked``: the text was decoded from UTF-8, which never gives a surrogate, and
    :func:`check_text`'s controls are not in it; of what the reader refuses only U+FFFE and
    U+FFFF can then be left, which ``in`` finds at once where the pattern scans every character."""
    if checked:
        return "\ufffe" not in text and "\uffff" not in text
    return _NOT_PRINTABLE.search(text) is None


def _size(value: Any, depth: int) -> tuple[int, int]:
    """How many values (as the YAML reading counts them) and how deep."""
    if isinstance(value, dict):
        parts = [_size(v, depth + 1) for v in value.values()]
    elif isinstance(value, list):
        parts = [_size(v, depth + 1) for v in value]
    else:
        if isinstance(value, str) and _CONTROL.search(value):
            raise _NotThisLayout
        return 1, depth
    return 1 + sum(n for n, _ in parts), max([depth, *(d for _, d in parts)])


def _transcript_lines(text: str, limits: Limits, raw: bool = False, checked: bool = False) -> Any | None:
    """The data of a transcript in the layout ``dumps`` writes, or None (see above). With
    ``raw`` each event is left as its line's text after ``  - `` (its value and comment), and each
    step's action as the text after ``action: ``, unread: see :func:`transcript_outline`.
    ``checked``: the text is as :func:`read_text` gives it (see :func:`_printable`)."""
    if not _printable(text, checked) or _SURROGATE_ESCAPE.search(text):
        return None  # JSON joins an escaped surrogate pair into one character, YAML does not
    root: dict[str, Any] = {}
    steps: list[dict[str, Any]] | None = None
    step: dict[str, Any] | None = None
    events: list[Any] | None = None
    # A transcript repeats its seats, counts and words thousands of times: each such value is
    # read once (only a value that cannot be changed is shared: never a list or a mapping).
    scalars: dict[str, Any] = {}
    keys = set(_LAYOUT_KEYS)

    def value(text: str) -> Any:
        found = scalars.get(text, scalars)
        if found is scalars:
            found = _line_value(text)
            if not isinstance(found, dict | list):
                scalars[text] = found
        return found

    outlined = _outlined_steps(text, value) if raw else None
    try:
        for line in text.split("\n") if outlined is None else outlined[0]:
            if line.startswith("  - "):
                if events is None:
                    return None
                events.append(line[4:] if raw else value(line[4:]))
            elif line.startswith("  "):
                key, sep, rest = line[2:].partition(":")
                if step is None or not sep or key in step or (key not in keys and not _bare_key(key, keys)):
                    return None
                events = None
                if rest == "" and key == "events":
                    events = step[key] = []
                elif rest.startswith(" "):
                    step[key] = rest[1:] if raw and key == "action" else value(rest[1:])
                else:
                    return None
            elif line.startswith("- "):
                key, sep, rest = line[2:].partition(": ")
                if steps is None or not sep or (key not in keys and not _bare_key(key, keys)):
                    return None
                step, events = {key: value(rest)}, None
                steps.append(step)
            elif not line or line.startswith("#"):
                continue
            else:
                key, sep, rest = line.partition(":")
                if not sep or not _BARE_KEY.fullmatch(key) or key in root:
                    return None
                step = events = None
                if rest == "" and key == "steps":
                    steps = root[key] = []
                elif rest.startswith(" "):
                    root[key] = _line_value(rest[1:])
                    steps = None
                else:
                    return None
        if outlined is not None:
            if root.get("steps") != []:
                return None
            root["steps"] = outlined[1]
        listed = root.get("steps")
        if listed == [] or (isinstance(listed, list) and any(s.get("events") == [] for s in listed)):
            return None  # a key with nothing under it is null in YAML, not an empty list
        if not _surely_within(text, limits):
            if raw:
                return None  # the walk needs every value read
            values, depth = _size(root, 1)
            if values > limits.max_values or depth > limits.max_depth:
                return None
    except (_NotThisLayout, ValueError, RecursionError):
        return None
    return root


#: A step as ``dumps`` writes it: its four lines, then its events' lines if it has any.
_STEP = re.compile(r"- n: ([^\n]*)\n  actor: ([^\n]*)\n  action: ([^\n]*)\n  offered: ([^\n]*)\n(?:  events:\n((?:  - [^\n]*\n)+))?")
#: Where the steps of a transcript in that layout begin, and the line after them.
_STEPS_START = "\nsteps:\n"
_AFTER_STEPS = re.compile(r"\n(?![- ])")
_STEP_LINE = re.compile(r"^[- ]", re.MULTILINE)


def _outlined_steps(text: str, value: Callable[[str], Any]) -> tuple[list[str], list[dict[str, Any]]] | None:
    """For an outline, the steps of a transcript as :func:`_transcript_lines` reads them with
    ``raw`` (each action and event line left as text), matched step by step instead of line by
    line (a golden has half a million lines, most of them a step's): the text's other lines and
    the steps; None when a step is not exactly as ``dumps`` writes it (another key, a comment
    or empty line, a step without events under ``events:``), and the line reader reads the whole text."""
    start = text.find(_STEPS_START)
    if start < 0:
        return None
    start += len(_STEPS_START)
    after = _AFTER_STEPS.search(text, start - 1)
    end = len(text) if after is None else after.start() + 1
    steps: list[dict[str, Any]] = []
    at = start
    try:
        while at < end:
            found = _STEP.match(text, at, end)
            if found is None:
                return None
            n, actor, action, offered, events = found.groups()
            # A step's number is the decimal of its place as dumps writes it, which reads as that
            # number (each number is a new text: no read is shared).
            number = len(steps) + 1
            step = {"n": number if n == str(number) else value(n), "actor": value(actor), "action": action, "offered": value(offered)}
            if events is not None:
                # "  - " starts each of the lines, none of which holds a line feed
                step["events"] = events[4:-1].split("\n  - ")
            steps.append(step)
            at = found.end()
    except (_NotThisLayout, ValueError, RecursionError):
        return None
    if _STEP_LINE.search(text, end):
        return None  # a step after a line that ends the steps (an empty line, a comment): the line reader reads them
    return (text[:start] + text[end:]).split("\n"), steps


def transcript_outline(text: str, display: str, limits: Limits | None = None) -> tuple[Any, Positions] | None:
    """A transcript's data with each event left as the text of its line (after ``  - ``: the
    value and any comment) and each action as the text of its value, for a replay that compares
    event lines as text and reads only a line that differs; None unless the text is in the
    layout ``dumps`` writes and certainly within the limits (then read it with
    :func:`parse_yaml`). Nothing of an event line is checked here: the caller reads the whole
    file with :func:`parse_yaml` before it trusts a line it has not matched. An action's text
    reads with :func:`outline_value`. ``text`` is as :func:`read_text` gives it, its characters
    checked (a second scan of a golden's text costs as much as reading its header and steps)."""
    bounds = limits or Limits.from_environment()
    data = _transcript_lines(text, bounds, raw=True, checked=True) if _TRANSCRIPT_MARK in text else None
    return None if data is None else (data, Positions(text, display, bounds))


def outline_value(text: str) -> Any | None:
    """A value left as text by :func:`transcript_outline`, read as the line reader reads it (the
    whole document's checks were made on the outline's text); None when it is not in the layout
    ``dumps`` writes, and only the YAML reading of the whole file can tell what it holds."""
    try:
        return _line_value(text)
    except (_NotThisLayout, ValueError, RecursionError):
        return None


#: The nesting levels above a line's value: the document, ``steps``, a step, its ``events``.
_LAYOUT_DEPTH = 4


def _surely_within(text: str, limits: Limits) -> bool:
    """Whether the data read from ``text`` certainly stays within the limits and holds no
    control character, told from the text alone (walking the data with :func:`_size` costs a
    third of the reading).

    The text has no raw control character (``parse_yaml`` checked), so one can only come from a
    JSON escape: ``\\b``, ``\\f`` or ``\\u`` (tab, line feed and carriage return are allowed).
    Every value is a line's own value (two on a ``- n:`` line: the step and its number), a ``{``
    or ``[`` collection, the first item of one, or an item after a comma; so lines, commas and
    brackets bound the count. A line's value nests at
    most as deep as it has opening brackets, under the layout's four levels."""
    if _CONTROL_ESCAPE.search(text):
        return False
    openers = text.count("{") + text.count("[")
    if 2 * (text.count("\n") + 1) + text.count(",") + 2 * openers > limits.max_values:
        return False
    if _LAYOUT_DEPTH + 1 + openers <= limits.max_depth:
        return True
    return _LAYOUT_DEPTH + 1 + _most_openers_on_a_line(text) <= limits.max_depth


#: Every byte but ``{``, ``[`` and the line feed (deleted by :func:`_most_openers_on_a_line`).
_NOT_OPENER_OR_LINE_END = bytes(sorted(set(range(256)) - set(b"{[\n")))


def _most_openers_on_a_line(text: str) -> int:
    """The most opening brackets (``{`` and ``[``) on one line of ``text``: each line's count
    taken in the UTF-8 bytes with everything else deleted (in UTF-8 these three bytes are only
    ever those characters), a quarter of the time of counting in each line's string."""
    kept = text.encode("utf-8", "surrogatepass").translate(None, _NOT_OPENER_OR_LINE_END)
    return max(map(len, kept.split(b"\n")))


#: How many parsed files the cache keeps (a verify run reads about 150).
CACHE_FILES = 512

_CACHE: dict[tuple[str, str, int, int, Limits], tuple[Any, Positions, str]] = {}


def read_yaml(path: Path, display: str | None = None, *, shared: bool = False) -> tuple[Any, Positions, str]:
    """Read and parse one YAML file (see :func:`parse_yaml`); each file is parsed once per
    process while its modification time and size stay the same. The data is a fresh copy for
    each caller, who may change it; with ``shared`` it is the cached data itself, for a caller
    that only reads it and keeps none of its lists or mappings (copying costs a fifth of reading
    a transcript)."""
    shown = display or str(path)
    bounds = Limits.from_environment()
    try:
        stat = path.stat()
        key: tuple[str, str, int, int, Limits] | None = (str(path.resolve()), shown, stat.st_mtime_ns, stat.st_size, bounds)
    except OSError:
        key = None
    cached = _CACHE.get(key) if key is not None else None
    if cached is None:
        text = read_text(path, shown, bounds)
        data, positions = parse_yaml(text, shown, bounds)
        cached = (data, positions, text)
        if key is not None:
            if len(_CACHE) >= CACHE_FILES:
                del _CACHE[next(iter(_CACHE))]  # the oldest: memory stays bounded in a long process
            _CACHE[key] = cached
    data, positions, text = cached
    return (data if shared else plain_copy(data)), positions, text


def plain_copy(data: Any) -> Any:
    """A copy of plain data (mappings, lists, scalars), several times faster than deepcopy."""
    if isinstance(data, dict):
        return {key: plain_copy(value) for key, value in data.items()}
    if isinstance(data, list):
        return [plain_copy(value) for value in data]
    return data
