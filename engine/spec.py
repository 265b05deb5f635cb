"""Loading spec files: safe YAML with source positions, JSON Schema validation, versioning.

Every spec file is a YAML mapping that declares ``spec_version`` and ``kind``; the kind picks the
JSON Schema ``spec/schema/<kind>.schema.json`` that validates it. YAML is only ever read with the
safe loader. Errors carry the file, line and column of the offending node, and every error of a
file is reported at once.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

#: The newest spec language this hauntcheck reads.
SPEC_LANGUAGE = 1

SPEC_ROOT = Path(__file__).resolve().parent.parent / "spec"
SCHEMA_DIR = SPEC_ROOT / "schema"

PathKey = tuple[str | int, ...]
MARK_KEYS = ("unverified", "judgement", "sample", "no_mechanics")


@dataclass(frozen=True, slots=True)
class Where:
    """A position in a file (1-based line and column, as editors show them)."""

    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.column}"
        return self.file


@dataclass(frozen=True, slots=True)
class SpecError:
    """One problem in a spec file, at a position, optionally related to a second position."""

    where: Where
    message: str
    related: tuple[tuple[Where, str], ...] = ()

    def __str__(self) -> str:
        text = f"{self.where}: error: {self.message}"
        for where, note in self.related:
            text += f"\n  {where}: note: {note}"
        return text


class SpecErrors(Exception):
    """All problems found in one or more spec files."""

    def __init__(self, errors: Iterable[SpecError]) -> None:
        self.errors = sorted(errors, key=lambda e: (e.where.file, e.where.line, e.where.column))
        super().__init__("\n".join(str(e) for e in self.errors))


@dataclass(frozen=True, slots=True)
class Mark:
    """An ``unverified``, ``judgement`` or ``sample`` note left in a spec."""

    where: Where
    kind: str
    path: str
    note: str


@dataclass
class SpecFile:
    """A loaded, validated spec file: its data, and where each value came from."""

    path: Path
    display: str
    kind: str
    data: dict[str, Any]
    positions: dict[PathKey, tuple[int, int]] = field(repr=False)
    text: str = field(repr=False, default="")

    def where(self, path: Iterable[str | int] = ()) -> Where:
        """The position of the value at ``path``, or of its nearest ancestor that has one."""
        key = tuple(path)
        while key not in self.positions and key:
            key = key[:-1]
        line, col = self.positions.get(key, (0, 0))
        return Where(self.display, line, col)

    def error(self, path: Iterable[str | int], message: str) -> SpecError:
        return SpecError(self.where(path), message)

    def marks(self) -> list[Mark]:
        return list(_find_marks(self, self.data, ()))


def _find_marks(spec: SpecFile, node: Any, path: PathKey) -> Iterator[Mark]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in MARK_KEYS and isinstance(value, str):
                yield Mark(spec.where((*path, key)), key, _dotted(path), value)
            else:
                yield from _find_marks(spec, value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _find_marks(spec, value, (*path, index))


def _dotted(path: PathKey) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top)"


# --------------------------------------------------------------------------------------------
# YAML with positions


class _Builder:
    """Turns a composed YAML node tree into plain data, recording each node's position and
    refusing duplicate keys (which a plain safe_load would silently drop)."""

    def __init__(self, loader: yaml.SafeLoader, display: str) -> None:
        self.loader = loader
        self.display = display
        self.positions: dict[PathKey, tuple[int, int]] = {}
        self.errors: list[SpecError] = []

    def build(self, node: yaml.Node, path: PathKey) -> Any:
        self.positions[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        expected = _PLAIN_TAGS.get(type(node))
        if expected is not None and node.tag != expected:
            # The safe loader would refuse this tag on a scalar; refuse it on collections too
            # rather than silently reading the tagged value as plain data.
            where = Where(self.display, node.start_mark.line + 1, node.start_mark.column + 1)
            self.errors.append(SpecError(where, f"the tag {node.tag!r} is not allowed: specs hold plain data only"))
            return None
        if isinstance(node, yaml.MappingNode):
            self.loader.flatten_mapping(node)
            out: dict[str, Any] = {}
            for key_node, value_node in node.value:
                key = self.loader.construct_object(key_node, deep=True)
                where = Where(self.display, key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                if not isinstance(key, str | int):
                    self.errors.append(SpecError(where, f"a key must be a plain word, not {key!r}"))
                    continue
                key = str(key)
                if key in out:
                    first = self.positions.get((*path, key), (0, 0))
                    self.errors.append(
                        SpecError(
                            where,
                            f"duplicate key {key!r}",
                            ((Where(self.display, *first), "first given here"),),
                        )
                    )
                    continue
                out[key] = self.build(value_node, (*path, key))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
        return self.loader.construct_object(node, deep=True)


_PLAIN_TAGS: dict[type, str] = {
    yaml.MappingNode: "tag:yaml.org,2002:map",
    yaml.SequenceNode: "tag:yaml.org,2002:seq",
}


def read_yaml(path: Path, display: str | None = None) -> tuple[Any, dict[PathKey, tuple[int, int]], str]:
    """Read one YAML document safely, keeping positions. Raises SpecErrors on syntax errors."""
    shown = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecErrors([SpecError(Where(shown), "no such file")]) from None
    except UnicodeDecodeError as exc:
        raise SpecErrors([SpecError(Where(shown), f"not UTF-8 text ({exc.reason})")]) from None
    except OSError as exc:
        raise SpecErrors([SpecError(Where(shown), f"cannot read: {exc.strerror}")]) from None
    return (*parse_yaml(text, shown), text)


def parse_yaml(text: str, display: str) -> tuple[Any, dict[PathKey, tuple[int, int]]]:
    loader = yaml.SafeLoader(text)
    loader.name = display
    try:
        node = loader.get_single_node()
        if node is None:
            raise SpecErrors([SpecError(Where(display, 1, 1), "the file is empty")])
        builder = _Builder(loader, display)
        data = builder.build(node, ())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        problem = exc.problem or "not valid YAML"
        if exc.context:
            started = exc.context_mark
            at = f" at {started.line + 1}:{started.column + 1}" if started and started is not mark else ""
            problem = f"{problem} ({exc.context}{at})"
        raise SpecErrors([SpecError(Where(display, line, col), f"YAML syntax: {problem}")]) from None
    except yaml.YAMLError as exc:
        raise SpecErrors([SpecError(Where(display), f"YAML: {exc}")]) from None
    finally:
        loader.dispose()
    if builder.errors:
        raise SpecErrors(builder.errors)
    return data, builder.positions


# --------------------------------------------------------------------------------------------
# Schemas


@cache
def _registry(schema_dir: Path) -> Registry:  # type: ignore[type-arg]
    resources = []
    for file in sorted(schema_dir.glob("*.schema.json")):
        contents = json.loads(file.read_text(encoding="utf-8"))
        resources.append((file.name, Resource.from_contents(contents, default_specification=DRAFT202012)))
    return Registry().with_resources(resources)


@cache
def validator_for(kind: str, schema_dir: Path = SCHEMA_DIR) -> Draft202012Validator | None:
    file = schema_dir / f"{kind}.schema.json"
    if not file.is_file():
        return None
    schema = json.loads(file.read_text(encoding="utf-8"))
    return Draft202012Validator(schema, registry=_registry(schema_dir))


def known_kinds(schema_dir: Path = SCHEMA_DIR) -> list[str]:
    return sorted(p.name.removesuffix(".schema.json") for p in schema_dir.glob("*.schema.json") if p.name != "common.schema.json")


def _explain(error: ValidationError) -> tuple[PathKey, str]:
    """A schema error as (path to point at, message saying what was wrong and what was expected)."""
    path: PathKey = tuple(error.absolute_path)
    validator = error.validator
    schema = error.schema if isinstance(error.schema, dict) else {}
    if validator == "additionalProperties" and isinstance(error.instance, dict):
        properties = schema.get("properties", {})
        allowed = sorted(properties)
        extra = sorted(k for k in error.instance if k not in properties)
        first = extra[0] if extra else ""
        listing = ", ".join(allowed) if allowed else "none"
        return (*path, first), f"unknown key {first!r}; expected one of: {listing}"
    if validator == "required" and isinstance(error.instance, dict):
        missing = [k for k in error.validator_value if k not in error.instance]  # type: ignore[union-attr]
        return path, f"missing required key {missing[0]!r}" if missing else error.message
    if validator == "const":
        return path, f"expected {error.validator_value!r}, got {error.instance!r}"
    if validator == "enum":
        allowed_values: Any = error.validator_value
        options = ", ".join(repr(v) for v in allowed_values)
        return path, f"{error.instance!r} is not allowed; expected one of: {options}"
    if validator == "pattern":
        form = schema.get("description") or f"text matching {error.validator_value!r}"
        return path, f"{error.instance!r} is not of the expected form: {form}"
    if validator == "minItems":
        items: Any = error.instance
        return path, f"expected at least {error.validator_value} item(s), got {len(items)}"
    if validator == "type":
        return path, f"expected {error.validator_value}, got {type(error.instance).__name__} {error.instance!r}"
    if validator in ("oneOf", "anyOf") and error.context:
        # Report the alternative that got furthest: the deepest sub-error.
        best = max(error.context, key=lambda e: (len(e.absolute_path), -len(e.message)))
        return _explain(best)
    return path, error.message


def schema_errors(spec: SpecFile, schema_dir: Path = SCHEMA_DIR) -> list[SpecError]:
    validator = validator_for(spec.kind, schema_dir)
    if validator is None:
        kinds = ", ".join(known_kinds(schema_dir))
        return [spec.error(("kind",), f"unknown kind {spec.kind!r}; expected one of: {kinds}")]
    errors = []
    seen: set[tuple[PathKey, str]] = set()
    for error in validator.iter_errors(spec.data):
        path, message = _explain(error)
        if (path, message) in seen:
            continue
        seen.add((path, message))
        errors.append(spec.error(path, message))
    return errors


# --------------------------------------------------------------------------------------------
# Files and game specs


def load_file(path: Path, display: str | None = None, schema_dir: Path = SCHEMA_DIR) -> SpecFile:
    """Load and validate one spec file. Raises SpecErrors listing every problem found."""
    shown = display or str(path)
    data, positions, text = read_yaml(path, shown)
    if not isinstance(data, dict):
        raise SpecErrors([SpecError(Where(shown, 1, 1), "a spec file must be a mapping with spec_version and kind")])
    header: list[SpecError] = []
    version = data.get("spec_version")
    kind = data.get("kind")
    spec = SpecFile(path, shown, str(kind), data, positions, text)
    if "spec_version" not in data:
        header.append(spec.error((), "missing 'spec_version' (the spec language version, e.g. spec_version: 1)"))
    elif not isinstance(version, int) or isinstance(version, bool) or version < 1:
        header.append(spec.error(("spec_version",), f"spec_version must be a positive integer, got {version!r}"))
    elif version > SPEC_LANGUAGE:
        raise SpecErrors(
            [
                spec.error(
                    ("spec_version",),
                    f"this file needs spec language {version}, but this hauntcheck reads up to "
                    f"{SPEC_LANGUAGE}; upgrade hauntcheck",
                )
            ]
        )
    if not isinstance(kind, str):
        header.append(spec.error((), f"missing 'kind' (one of: {', '.join(known_kinds(schema_dir))})"))
        raise SpecErrors(header)
    found = schema_errors(spec, schema_dir)
    if header:
        # The header check already said what is missing; do not say it twice.
        found = [e for e in found if "spec_version" not in e.message and "'kind'" not in e.message]
    errors = header + found
    if errors:
        raise SpecErrors(errors)
    return spec


@dataclass
class GameSpec:
    """Every spec file of one game, by path relative to the spec root (``betrayal/rooms.yaml``)."""

    game: str
    root: Path
    files: dict[str, SpecFile]
    sources: SpecFile | None = None

    def by_kind(self, kind: str) -> list[SpecFile]:
        return [f for f in self.files.values() if f.kind == kind]

    def one(self, kind: str) -> SpecFile:
        found = self.by_kind(kind)
        if len(found) != 1:
            raise KeyError(f"{self.game} has {len(found)} spec files of kind {kind!r}, expected 1")
        return found[0]

    def marks(self) -> list[Mark]:
        return [m for f in self.files.values() for m in f.marks()]

    def content_hash(self) -> str:
        """A hash of the spec's text (line endings normalised), recorded in transcripts."""
        digest = hashlib.sha256()
        for name in sorted(self.files):
            digest.update(name.encode())
            digest.update(b"\0")
            digest.update(self.files[name].text.replace("\r\n", "\n").encode())
            digest.update(b"\0")
        return "sha256:" + digest.hexdigest()[:16]


def spec_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.yaml") if p.is_file())


def load_game(game: str, root: Path = SPEC_ROOT) -> GameSpec:
    """Load every spec file under ``root/<game>/``, plus the shared ``sources.yaml``.

    Raises SpecErrors with every problem of every file (schema errors and citations that name
    no listed source)."""
    folder = root / game
    if not folder.is_dir():
        raise SpecErrors([SpecError(Where(str(folder)), f"no spec folder for game {game!r}")])
    errors: list[SpecError] = []
    files: dict[str, SpecFile] = {}
    for path in spec_files(folder):
        display = path.relative_to(root.parent).as_posix() if root.parent in path.parents else str(path)
        try:
            files[path.relative_to(root).as_posix()] = load_file(path, display, root / "schema")
        except SpecErrors as exc:
            errors.extend(exc.errors)
    sources = None
    sources_path = root / "sources.yaml"
    if sources_path.is_file():
        try:
            sources = load_file(sources_path, f"{root.name}/sources.yaml", root / "schema")
        except SpecErrors as exc:
            errors.extend(exc.errors)
    spec = GameSpec(game, root, files, sources)
    if sources is not None:
        errors.extend(citation_errors(spec))
    if errors:
        raise SpecErrors(errors)
    return spec


def citation_errors(spec: GameSpec) -> list[SpecError]:
    """Every ``cite``/``source`` in the game's files must name a document in sources.yaml."""
    assert spec.sources is not None
    listed = {entry["file"] for entry in spec.sources.data["sources"]}
    errors = []
    for file in spec.files.values():
        for path, source in _citations(file.data, ()):
            if source not in listed:
                errors.append(
                    SpecError(
                        file.where((*path, "source")),
                        f"citation names {source!r}, which is not a source listed in sources.yaml",
                        ((spec.sources.where(("sources",)), "sources are listed here"),),
                    )
                )
    return errors


def _citations(node: Any, path: PathKey) -> Iterator[tuple[PathKey, str]]:
    if isinstance(node, dict):
        if isinstance(node.get("source"), str) and "section" in node:
            yield path, node["source"]
        for key, value in node.items():
            yield from _citations(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _citations(value, (*path, index))
