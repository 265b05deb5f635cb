"""Loading spec files: safe YAML with source positions, JSON Schema validation, versioning.

Every spec file is a YAML mapping that declares ``spec_version`` and ``kind``; the kind picks the
JSON Schema ``spec/schema/<kind>.schema.json`` that validates it. YAML is only ever read with the
safe loader. Errors carry the file, line and column of the offending node, and every error of a
file is reported at once.
"""

from __future__ import annotations

import hashlib
import json
import numbers
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, cast
from urllib.parse import urljoin

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

#: The newest spec language this hauntcheck reads.
SPEC_LANGUAGE = 1
#: Kinds whose language has moved on past SPEC_LANGUAGE: the newest version each reads
#: (scenario 2: expectation operators, purpose-named chance, a move's cost as its total).
KIND_LANGUAGE: dict[str, int] = {"scenario": 2}

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
    positions: Mapping[PathKey, tuple[int, int]] = field(repr=False)
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
# YAML with positions (the input layer, hauntcheck.engine.inputs, does the reading)


def read_yaml(path: Path, display: str | None = None, *, shared: bool = False) -> tuple[Any, Mapping[PathKey, tuple[int, int]], str]:
    """Read one YAML document safely, keeping positions. Raises SpecErrors on any bad input.
    ``shared``: see :func:`hauntcheck.engine.inputs.read_yaml`."""
    from hauntcheck.engine import inputs

    return inputs.read_yaml(path, display, shared=shared)


def parse_yaml(text: str, display: str) -> tuple[Any, Mapping[PathKey, tuple[int, int]]]:
    from hauntcheck.engine import inputs

    return inputs.parse_yaml(text, display)


# --------------------------------------------------------------------------------------------
# Schemas


@cache
def _registry(schema_dir: Path) -> Registry:  # type: ignore[type-arg]
    resources = []
    for file in sorted(schema_dir.glob("*.schema.json")):
        contents = json.loads(file.read_text(encoding="utf-8"))
        resources.append((file.name, Resource.from_contents(contents, default_specification=DRAFT202012)))
    return Registry().with_resources(resources)


_ONE_OF = Draft202012Validator.VALIDATORS["oneOf"]
_ANY_OF = Draft202012Validator.VALIDATORS["anyOf"]


def _keys_valid(branches: Any, instance: Any) -> list[bool] | None:
    """Whether a mapping is valid under each branch, when every branch only requires keys
    (``{required: [...]}``: one branch per verb of a haunt step, up to 57 of them); None when
    not so simple. jsonschema would build a validator per branch and an error per missing key."""
    if not isinstance(instance, dict) or not isinstance(branches, list):
        return None
    if not all(isinstance(b, dict) and b.keys() == {"required"} and isinstance(b["required"], list) for b in branches):
        return None
    return [all(key in instance for key in b["required"]) for b in branches]


def _one_of(validator: Any, branches: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """``oneOf``, judged directly when its branches only require keys and exactly one holds;
    anything else (and every error) is jsonschema's own rule."""
    valid = _keys_valid(branches, instance)
    if valid is None or sum(valid) != 1:
        yield from _ONE_OF(validator, branches, instance, schema)


def _any_of(validator: Any, branches: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """``anyOf``, as :func:`_one_of`: judged directly when its branches only require keys and one holds."""
    valid = _keys_valid(branches, instance)
    if valid is None or not any(valid):
        yield from _ANY_OF(validator, branches, instance, schema)


#: Draft 2020-12 with a quicker ``oneOf`` and ``anyOf``: the same errors for every instance.
SpecValidator = validators.extend(Draft202012Validator, {"oneOf": _one_of, "anyOf": _any_of})  # type: ignore[no-untyped-call]


@cache
def validator_for(kind: str, schema_dir: Path = SCHEMA_DIR) -> Draft202012Validator | None:
    """The validator of a kind of spec file, built once per process."""
    file = schema_dir / f"{kind}.schema.json"
    if not file.is_file():
        return None
    schema = json.loads(file.read_text(encoding="utf-8"))
    return cast(Draft202012Validator, SpecValidator(schema, registry=_registry(schema_dir)))


# A quick judgement of the files that are valid (nearly all of them): the schema compiled once
# into plain Python tests. jsonschema builds a validator object per keyword and value it visits
# (most of loading a spec); a file the quick test does not pass is judged by jsonschema, whose
# errors are the ones reported, so the quick test decides only how fast a valid file is accepted.

#: A compiled schema: whether a value is valid under it.
QuickCheck = Callable[[Any], bool]

#: Keywords that never make a value invalid.
_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples"})
#: The value types of parsed YAML and JSON that :func:`_json_equal` compares.
_PLAIN_TYPES = frozenset({str, int, float, bool, type(None), list, dict})


class _NotCompiled(Exception):
    """A schema keyword the quick check does not know: jsonschema judges every file of the kind."""


class _Unsure(Exception):
    """A value the quick check cannot judge exactly as jsonschema does: jsonschema judges the file."""


def _json_equal(one: Any, two: Any) -> bool:
    """JSON's equality, as jsonschema's ``enum``, ``const`` and ``uniqueItems`` judge it (``true``
    is not ``1``); _Unsure for numbers of two types (``1`` is ``1.0``) or a value not of parsed data."""
    kind = type(one)
    if kind is not type(two):
        if kind not in _PLAIN_TYPES or type(two) not in _PLAIN_TYPES or (kind in (int, float) and type(two) in (int, float)):
            raise _Unsure
        return False
    if kind is list:
        return len(one) == len(two) and all(_json_equal(a, b) for a, b in zip(one, two, strict=True))
    if kind is dict:
        return one.keys() == two.keys() and all(_json_equal(value, two[key]) for key, value in one.items())
    if kind not in _PLAIN_TYPES:
        raise _Unsure
    return bool(one == two)


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Number) and not isinstance(value, bool)


#: JSON Schema's types as draft 2020-12 tests them (an integer may be written 1.0).
_TYPE_TESTS: dict[str, QuickCheck] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": _is_number,
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
}


def _all(checks: list[QuickCheck]) -> QuickCheck:
    if len(checks) == 1:
        return checks[0]

    def every(value: Any) -> bool:
        # a loop, not all() over a generator: this runs for every value of every spec file
        for check in checks:  # noqa: SIM110
            if not check(value):
                return False
        return True
    return every


class _QuickCompiler:
    """Compiles a draft 2020-12 schema (and the schemas its ``$ref`` names, through the registry)
    into a :data:`QuickCheck`; each keyword's test is the rule of jsonschema's own keyword."""

    def __init__(self, registry: Registry) -> None:  # type: ignore[type-arg]
        self.registry = registry
        self.by_uri: dict[str, QuickCheck] = {}

    def compile(self, schema: Any, base: str) -> QuickCheck:
        if schema is True:
            return lambda value: True
        if schema is False:
            return lambda value: False
        if not isinstance(schema, dict):
            raise _NotCompiled
        checks = [self.keyword(key, value, schema, base) for key, value in schema.items() if key not in _ANNOTATIONS]
        return _all([check for check in checks if check is not None]) if checks else (lambda value: True)

    def ref(self, ref: str, base: str) -> QuickCheck:
        uri = urljoin(base, ref)
        found = self.by_uri.get(uri)
        if found is None:
            # A schema may refer to itself (an effect holds effects): the name stands for it while it compiles.
            compiled: list[QuickCheck] = []
            self.by_uri[uri] = lambda value: compiled[0](value)
            contents = self.registry.resolver(base).lookup(ref).contents
            compiled.append(self.compile(contents, uri.partition("#")[0]))
            found = self.by_uri[uri] = compiled[0]
        return found

    def keyword(self, key: str, value: Any, schema: dict[str, Any], base: str) -> QuickCheck | None:
        """The test of one keyword (None: nothing to test here; ``then`` and ``else`` are ``if``'s)."""
        if key == "$ref":
            return self.ref(value, base)
        if key == "type":
            names = [value] if isinstance(value, str) else value
            if not all(name in _TYPE_TESTS for name in names):
                raise _NotCompiled(f"type {value!r}")
            tests = [_TYPE_TESTS[name] for name in names]
            return tests[0] if len(tests) == 1 else lambda v: any(test(v) for test in tests)
        if key == "properties":
            by_name = {name: self.compile(sub, base) for name, sub in value.items()}

            def properties(v: Any) -> bool:
                if isinstance(v, dict):
                    for name, item in v.items():
                        test = by_name.get(name)
                        if test is not None and not test(item):
                            return False
                return True
            return properties
        if key == "additionalProperties":
            return self.additional(value, schema, base)
        if key == "patternProperties":
            by_pattern = [(re.compile(pattern), self.compile(sub, base)) for pattern, sub in value.items()]
            return lambda v: not isinstance(v, dict) or all(test(item) for pattern, test in by_pattern
                                                            for name, item in v.items() if pattern.search(name))
        if key == "required":
            needed = frozenset(value)  # a haunt step's verb is one of 57 branches, each requiring its key
            return lambda v: not isinstance(v, dict) or needed <= v.keys()
        if key == "dependentRequired":
            return lambda v: not isinstance(v, dict) or all(need in v for name, needs in value.items() if name in v for need in needs)
        if key == "propertyNames":
            names = self.compile(value, base)
            return lambda v: not isinstance(v, dict) or all(names(name) for name in v)
        if key in ("minProperties", "maxProperties"):
            least, most = (value, None) if key == "minProperties" else (0, value)
            return lambda v: not isinstance(v, dict) or (len(v) >= least and (most is None or len(v) <= most))
        if key == "items":
            return self.items(value, len(schema.get("prefixItems", ())), base)
        if key == "prefixItems":
            firsts = [self.compile(sub, base) for sub in value]
            return lambda v: not isinstance(v, list) or all(test(item) for test, item in zip(firsts, v, strict=False))
        if key in ("minItems", "maxItems"):
            least, most = (value, None) if key == "minItems" else (0, value)
            return lambda v: not isinstance(v, list) or (len(v) >= least and (most is None or len(v) <= most))
        if key == "uniqueItems":
            return (lambda v: not isinstance(v, list) or _unique(v)) if value else None
        if key == "minLength":
            return lambda v: not isinstance(v, str) or len(v) >= value
        if key == "pattern":
            pattern = re.compile(value)
            return lambda v: not isinstance(v, str) or pattern.search(v) is not None
        if key in ("minimum", "maximum"):
            return (lambda v: not _is_number(v) or v >= value) if key == "minimum" else (lambda v: not _is_number(v) or v <= value)
        if key == "enum":
            return lambda v: any(_json_equal(v, allowed) for allowed in value)
        if key == "const":
            return lambda v: _json_equal(v, value)
        if key in ("allOf", "anyOf", "oneOf"):
            branches = [self.compile(sub, base) for sub in value]
            if key == "allOf":
                return _all(branches)
            if key == "anyOf":
                return lambda v: any(test(v) for test in branches)
            return lambda v: sum(1 for test in branches if test(v)) == 1
        if key == "not":
            refused = self.compile(value, base)
            return lambda v: not refused(v)
        if key == "if":
            condition = self.compile(value, base)
            then = self.compile(schema.get("then", True), base)
            otherwise = self.compile(schema.get("else", True), base)
            return lambda v: then(v) if condition(v) else otherwise(v)
        if key in ("then", "else"):
            return None
        raise _NotCompiled(key)

    def additional(self, value: Any, schema: dict[str, Any], base: str) -> QuickCheck:
        """``additionalProperties``: the keys neither ``properties`` names nor a ``patternProperties`` pattern matches."""
        named = set(schema.get("properties", {}))
        patterns = "|".join(schema.get("patternProperties", {}))
        matches = re.compile(patterns).search if patterns else None
        rest = self.compile(value, base)

        def additional(v: Any) -> bool:
            if isinstance(v, dict):
                for name, item in v.items():
                    if name not in named and not (matches is not None and matches(name)) and not rest(item):
                        return False
            return True
        return additional

    def items(self, value: Any, skipped: int, base: str) -> QuickCheck:
        """``items``: every item after the ``prefixItems``."""
        test = self.compile(value, base)
        return lambda v: not isinstance(v, list) or all(test(item) for item in v[skipped:])


def _unique(items: list[Any]) -> bool:
    for index, item in enumerate(items):
        for other in items[index + 1:]:
            if _json_equal(item, other):
                return False
    return True


@cache
def _quick_compiler(schema_dir: Path) -> _QuickCompiler:
    """One compiler per schema folder: the definitions every kind refers to (common, effects) are compiled once."""
    return _QuickCompiler(_registry(schema_dir))


@cache
def quick_check_for(kind: str, schema_dir: Path = SCHEMA_DIR) -> QuickCheck | None:
    """The kind's schema compiled into a quick test of validity, once per process (None when the
    schema uses a keyword the compiler does not know: jsonschema alone judges such a kind)."""
    file = schema_dir / f"{kind}.schema.json"
    try:
        return _quick_compiler(schema_dir).compile(json.loads(file.read_text(encoding="utf-8")), file.name)
    except (_NotCompiled, Unresolvable):
        return None
    except Exception:  # a schema the compiler cannot read (a bad pattern, a keyword of the wrong shape): jsonschema says what is wrong
        return None


def surely_valid(kind: str, data: Any, schema_dir: Path = SCHEMA_DIR) -> bool:
    """Whether ``data`` is certainly valid under the kind's schema, by its quick test (False when
    not, or not certainly: then jsonschema judges it and names every error)."""
    check = quick_check_for(kind, schema_dir)
    try:
        return check is not None and check(data)
    except (_Unsure, RecursionError, TypeError):  # TypeError: a number Python cannot order (only jsonschema names it)
        return False


def known_kinds(schema_dir: Path = SCHEMA_DIR) -> list[str]:
    not_kinds = ("common.schema.json", "results.schema.json")  # shared definitions; the results of --format json
    return sorted(p.name.removesuffix(".schema.json") for p in schema_dir.glob("*.schema.json") if p.name not in not_kinds)


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
        return (*path, first), f"unknown key {first!r}{did_you_mean(first, allowed)}; expected one of: {listing}"
    if validator == "required" and isinstance(error.instance, dict):
        missing = [k for k in error.validator_value if k not in error.instance]  # type: ignore[union-attr]
        return path, f"missing required key {missing[0]!r}" if missing else error.message
    shown = short(error.instance)
    if validator == "const":
        return path, f"{shown} is not allowed here; expected {error.validator_value!r}"
    if validator == "enum":
        allowed_values: Any = error.validator_value
        options = ", ".join(repr(v) for v in allowed_values)
        hint = did_you_mean(error.instance, [str(v) for v in allowed_values]) if isinstance(error.instance, str) else ""
        return path, f"{shown} is not allowed{hint}; expected one of: {options}"
    if validator == "pattern":
        form = schema.get("description") or f"text matching {error.validator_value!r}"
        return path, f"{shown} is not of the expected form: {form}"
    if validator == "minItems":
        items: Any = error.instance
        return path, f"expected at least {error.validator_value} item(s), got {len(items)}"
    if validator == "type":
        return path, f"expected {error.validator_value}, got {type(error.instance).__name__} {shown}"
    if validator in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        bound = {"minimum": "less than the minimum of", "maximum": "more than the maximum of",
                 "exclusiveMinimum": "not more than", "exclusiveMaximum": "not less than"}[str(validator)]
        return path, f"{shown} is {bound} {error.validator_value}"
    if validator in ("oneOf", "anyOf") and error.context and all(not e.relative_path for e in error.context):
        # Every alternative refused the value itself (not something inside it): name them all.
        branches: Any = error.validator_value
        forms = [_form(b) for b in branches] if isinstance(branches, list) else []
        if forms and all(forms):
            return path, f"{shown} is not allowed here; expected {' or '.join(forms)}"
    if validator in ("oneOf", "anyOf") and error.context:
        # Blame the alternative jsonschema ranks as most relevant (the branch the value was meant for).
        # Drop the branches written for another shape of value (a list where a mapping was given).
        same_shape = [e for e in error.context if not (e.validator == "type" and not e.relative_path)]
        return _explain(best_match(same_shape or error.context))
    if validator in ("oneOf", "anyOf"):
        return path, f"{shown} matches more than one of the allowed forms" if validator == "oneOf" else f"{shown} matches no allowed form"
    return path, error.message if len(error.message) <= 200 else error.message[:200] + " ..."


def _form(schema: Any) -> str:
    """A short description of a simple schema alternative ("an integer from 0 to 8", "'none'");
    empty for one too involved to describe in a few words."""
    if not isinstance(schema, dict):
        return ""
    if "const" in schema:
        return repr(schema["const"])
    if "enum" in schema and isinstance(schema["enum"], list):
        return "one of " + ", ".join(repr(v) for v in schema["enum"])
    kind = schema.get("type")
    if kind in ("integer", "number") and set(schema) <= {"type", "minimum", "maximum", "description"}:
        low, high = schema.get("minimum"), schema.get("maximum")
        name = "an integer" if kind == "integer" else "a number"
        if low is not None and high is not None:
            return f"{name} from {low} to {high}"
        return name + (f" of at least {low}" if low is not None else f" of at most {high}" if high is not None else "")
    ref = schema.get("$ref")
    if isinstance(ref, str) and set(schema) <= {"$ref", "description"}:
        name = ref.rsplit("/", 1)[-1].replace("_", " ")  # a named definition: "a formula", "an amount"
        return ("an " if name[:1] in "aeiou" else "a ") + name + (" ({of: players, ...})" if name == "formula" else "")
    if kind == "object" and schema.get("required") and set(schema) <= {"type", "description", "properties", "required",
                                                                        "additionalProperties"}:
        return "{" + ", ".join(f"{key}: ..." for key in schema["required"]) + "}"  # a small mapping: {table: ...}
    names = {"string": "a string", "boolean": "true or false", "array": "a list", "object": "a mapping", "null": "null"}
    if isinstance(kind, str) and set(schema) <= {"type", "description"}:
        return names.get(kind, kind)
    return ""


def short(value: Any, width: int = 60) -> str:
    """A value as shown in an error: its repr, cut to one short line."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 4] + " ..."


def did_you_mean(word: Any, choices: Iterable[str]) -> str:
    """ ``; did you mean 'x'?`` for the closest known word, or nothing."""
    import difflib

    if not isinstance(word, str):
        return ""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def schema_errors(spec: SpecFile, schema_dir: Path = SCHEMA_DIR) -> list[SpecError]:
    validator = validator_for(spec.kind, schema_dir)
    if validator is None:
        kinds = ", ".join(known_kinds(schema_dir))
        return [spec.error(("kind",), f"unknown kind {spec.kind!r}; expected one of: {kinds}")]
    if surely_valid(spec.kind, spec.data, schema_dir):
        return []
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
    spec, errors = read_spec_file(path, display, schema_dir)
    if errors:
        raise SpecErrors(errors)
    return spec


def read_spec_file(path: Path, display: str | None = None, schema_dir: Path = SCHEMA_DIR) -> tuple[SpecFile, list[SpecError]]:
    """A spec file and its schema errors, so that later checks can still run over what is
    there (lint reports every error of a file at once). Raises SpecErrors when the file is not a
    readable spec file at all."""
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
    elif version > KIND_LANGUAGE.get(str(kind), SPEC_LANGUAGE):
        raise SpecErrors(
            [
                spec.error(
                    ("spec_version",),
                    f"this file needs spec language {version}, but this hauntcheck reads up to "
                    f"{KIND_LANGUAGE.get(str(kind), SPEC_LANGUAGE)}; upgrade hauntcheck",
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
    return spec, header + found


_T = TypeVar("_T")


@dataclass
class GameSpec:
    """Every spec file of one game, by path relative to the spec root (``betrayal/rooms.yaml``)."""

    game: str
    root: Path
    files: dict[str, SpecFile]
    sources: SpecFile | None = None
    _derived: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def derived(self, name: str, build: Callable[[GameSpec], _T]) -> _T:
        """What ``build`` makes of this spec (an engine's tables, a deck, a rule book), built once
        per spec object and kept on it: specs are read-only once loaded, and a spec built anew (a
        test's edited copy) builds its own. ``name`` says what is kept (``"betrayal.tables"``)."""
        try:
            return cast(_T, self._derived[name])
        except KeyError:
            value = self._derived[name] = build(self)
            return value

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
    """Every ``cite``/``source`` in the game's files must name a document in sources.yaml, or
    one the file lists under its own ``sources`` (a designer's draft haunt)."""
    assert spec.sources is not None
    listed = {entry["file"] for entry in spec.sources.data["sources"]}
    errors = []
    for file in spec.files.values():
        own = file.data.get("sources") if isinstance(file.data, dict) and file.kind == "haunt" else None
        mine = {str(e.get("id")) for e in own if isinstance(e, dict)} if isinstance(own, list) else set()
        for path, source in _citations(file.data, ()):
            lines = _dig(file.data, (*path, "lines"))
            if (isinstance(lines, list) and len(lines) == 2 and all(isinstance(n, int) for n in lines)
                    and lines[0] > lines[1]):
                message = f"citation line range {lines[0]}-{lines[1]} is reversed; write [{lines[1]}, {lines[0]}]"
                errors.append(file.error((*path, "lines"), message))
            if source not in listed and source not in mine:
                errors.append(
                    SpecError(
                        file.where((*path, "source")),
                        f"citation names {source!r}, which is not a source listed in sources.yaml",
                        ((spec.sources.where(("sources",)), "sources are listed here"),),
                    )
                )
    return errors


def _dig(node: Any, path: PathKey) -> Any:
    for part in path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return None
    return node


def _citations(node: Any, path: PathKey) -> Iterator[tuple[PathKey, str]]:
    if isinstance(node, dict):
        if isinstance(node.get("source"), str) and "section" in node:
            yield path, node["source"]
        for key, value in node.items():
            yield from _citations(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _citations(value, (*path, index))
