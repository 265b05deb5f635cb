"""One result model for every command that checks something, and the formats CI tools read.

``verify``, ``lint``, ``dispute``, ``replay`` and ``golden`` each build a :class:`Run`: a list
of :class:`Check` (one per family, file or case), each with its :class:`Problem` list. Every
problem carries a check id and a structured :class:`Location`. :func:`render` writes a run as

- ``json``: versioned (``format``/``version``), described by ``spec/schema/results.schema.json``;
- ``junit``: JUnit XML, one ``testcase`` per check;
- ``github``: GitHub Actions workflow commands (``::error file=...,line=...::message``);
- ``sarif``: SARIF 2.1.0, one result per problem, one reporting rule per check id.

The ``text`` format stays with each command (it prints tables and explanations as it goes).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote
from xml.etree import ElementTree

from hauntcheck.engine.spec import SPEC_ROOT

RESULTS_FORMAT = "hauntcheck-results"
#: Bumped when a field changes meaning or goes away; new optional fields keep the version.
RESULTS_VERSION = 1
FORMATS = ("text", "json", "junit", "github", "sarif")
#: The folder the bundled data is installed in (the checkout, or site-packages/hauntcheck).
PACKAGE_ROOT = SPEC_ROOT.parent
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


@dataclass(frozen=True)
class Location:
    """A place in a file: 1-based line and column, 0 when unknown."""

    file: str
    line: int = 0
    column: int = 0

    def to_data(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "column": self.column}


@dataclass
class Problem:
    """One failure: which check found it, where, and what is wrong."""

    check: str
    message: str
    location: Location
    rule: str | None = None
    counterexample: str | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"check": self.check, "message": self.message, "location": self.location.to_data()}
        data["rule"] = self.rule
        data["counterexample"] = self.counterexample
        return data


@dataclass
class Check:
    """One check of a run: a family over a game, or one file or case."""

    id: str
    name: str
    group: str
    checked: int = 0
    problems: list[Problem] = field(default_factory=list)
    seconds: float = 0.0
    skipped: str | None = None
    notes: list[str] = field(default_factory=list)
    #: Extra fields of the JSON result (verify: the game and the family).
    labels: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class Run:
    """The result of one command."""

    command: str
    checks: list[Check]
    seconds: float = 0.0
    #: Command-specific data kept in the JSON (verify: spec counts and marks).
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def checked(self) -> int:
        return sum(c.checked for c in self.checks)

    @property
    def problems(self) -> list[Problem]:
        return [p for c in self.checks for p in c.problems]

    @property
    def ok(self) -> bool:
        """No problem, and something was checked: a run that checks nothing is not a pass."""
        return self.checked > 0 and not self.problems


# --------------------------------------------------------------------------------------------
# Locations


def display_path(path: str | Path) -> str:
    """A path as reports show it: a file of hauntcheck's own relative to the package
    (``spec/betrayal/rooms.yaml``, never a site-packages path, even when the package is installed
    under the working folder, as in a tox environment), else relative to the working folder when
    under it, else as is."""
    p = Path(path)
    if not p.is_absolute():
        return p.as_posix()
    resolved = p.resolve()
    for base in (PACKAGE_ROOT.resolve(), Path.cwd().resolve()):
        try:
            return resolved.relative_to(base).as_posix()
        except ValueError:
            continue
    return resolved.as_posix()


_LEADING_PLACE = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+)(?::(?P<column>\d+))?: (?:error: )?(?P<rest>.*)$", re.S)


def split_location(message: str, fallback: Location) -> tuple[Location, str]:
    """A message that starts ``file:line[:col]: [error: ]`` (the form of every SpecError and
    replay divergence) as a structured location and the rest of the message."""
    match = _LEADING_PLACE.match(message)
    if match is None:
        return fallback, message
    location = Location(display_path(match["file"]), int(match["line"]), int(match["column"] or 0))
    return location, match["rest"]


def slug(name: str) -> str:
    """A check id from a human name: ``golden replay`` -> ``golden-replay``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


# --------------------------------------------------------------------------------------------
# Formats


def render(run: Run, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(to_json(run), indent=2, sort_keys=True) + "\n"
    if fmt == "junit":
        return to_junit(run)
    if fmt == "github":
        return to_github(run)
    if fmt == "sarif":
        return json.dumps(to_sarif(run), indent=2) + "\n"
    raise ValueError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")


def to_json(run: Run) -> dict[str, Any]:
    problems = run.problems
    return {
        "format": RESULTS_FORMAT,
        "version": RESULTS_VERSION,
        "tool": {"name": "hauntcheck", "version": _version()},
        "command": run.command,
        "ok": run.ok,
        "seconds": round(run.seconds, 3),
        "summary": {
            "checks": len(run.checks),
            "checked": run.checked,
            "failed": len(problems),
            "skipped": sum(1 for c in run.checks if c.skipped),
        },
        "results": [
            {
                "id": c.id,
                "name": c.name,
                "group": c.group,
                "ok": c.ok,
                "checked": c.checked,
                "failed": len(c.problems),
                "seconds": round(c.seconds, 3),
                "skipped": c.skipped,
                "failures": [p.to_data() for p in c.problems],
                "notes": list(c.notes),
                **c.labels,
            }
            for c in run.checks
        ],
        **run.extra,
    }


def to_junit(run: Run) -> str:
    suites = ElementTree.Element("testsuites", name=f"hauntcheck {run.command}")
    groups: dict[str, list[Check]] = {}
    for check in run.checks:
        groups.setdefault(check.group, []).append(check)
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    for group, checks in groups.items():
        failures = sum(1 for c in checks if c.problems)
        skipped = sum(1 for c in checks if c.skipped and not c.problems)
        suite = ElementTree.SubElement(
            suites, "testsuite", name=group, tests=str(len(checks)), failures=str(failures), errors="0",
            skipped=str(skipped), time=f"{sum(c.seconds for c in checks):.3f}",
        )
        for check in checks:
            case = ElementTree.SubElement(suite, "testcase", classname=group, name=check.name, time=f"{check.seconds:.3f}")
            if check.problems:
                first = check.problems[0]
                failure = ElementTree.SubElement(
                    case, "failure", type=first.check,
                    message=f"{len(check.problems)} problem(s); first: {_place(first.location)}: {first.message.splitlines()[0]}",
                )
                failure.text = "\n".join(f"{_place(p.location)}: [{p.check}] {p.message}" for p in check.problems)
            elif check.skipped:
                ElementTree.SubElement(case, "skipped", message=check.skipped)
            if check.notes:
                ElementTree.SubElement(case, "system-out").text = "\n".join(check.notes)
        totals["tests"] += len(checks)
        totals["failures"] += failures
        totals["skipped"] += skipped
    for key, value in totals.items():
        suites.set(key, str(value))
    suites.set("errors", "0")
    suites.set("time", f"{run.seconds:.3f}")
    ElementTree.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(suites, encoding="unicode") + "\n"


def _place(location: Location) -> str:
    if location.line:
        return f"{location.file}:{location.line}:{location.column}" if location.column else f"{location.file}:{location.line}"
    return location.file


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def to_github(run: Run) -> str:
    """GitHub Actions workflow commands: one ``::error`` per problem (shown on the file's line in
    a pull request), then a ``::notice`` with the summary."""
    lines = []
    for problem in run.problems:
        props = [f"file={_escape_property(problem.location.file)}"]
        if problem.location.line:
            props.append(f"line={problem.location.line}")
            if problem.location.column:
                props.append(f"col={problem.location.column}")
        props.append(f"title={_escape_property(f'hauntcheck {run.command}: {problem.check}')}")
        lines.append(f"::error {','.join(props)}::{_escape_data(problem.message)}")
    verdict = "passed" if run.ok else ("checked nothing" if not run.checked else f"{len(run.problems)} failure(s)")
    lines.append(f"::notice title=hauntcheck {run.command}::{len(run.checks)} checks, {run.checked} items checked: {verdict}")
    return "\n".join(lines) + "\n"


def to_sarif(run: Run) -> dict[str, Any]:
    rule_ids = sorted({p.check for p in run.problems} | {c.id.rsplit("/", 1)[-1] for c in run.checks if "/" in c.id})
    rule_index = {rule: i for i, rule in enumerate(rule_ids)}
    results = []
    for problem in run.problems:
        artifact: dict[str, Any] = {"uri": quote(problem.location.file)}
        if not Path(problem.location.file).is_absolute():
            artifact["uriBaseId"] = "SRCROOT"
        physical: dict[str, Any] = {"artifactLocation": artifact}
        if problem.location.line:
            region: dict[str, Any] = {"startLine": problem.location.line}
            if problem.location.column:
                region["startColumn"] = problem.location.column
            physical["region"] = region
        result: dict[str, Any] = {
            "ruleId": problem.check,
            "ruleIndex": rule_index[problem.check],
            "level": "error",
            "message": {"text": problem.message},
            "locations": [{"physicalLocation": physical}],
        }
        properties = {k: v for k, v in (("rule", problem.rule), ("counterexample", problem.counterexample)) if v}
        if properties:
            result["properties"] = properties
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "hauntcheck",
                        "version": _version(),
                        "rules": [{"id": rule, "name": rule, "shortDescription": {"text": f"hauntcheck check {rule}"}}
                                  for rule in rule_ids],
                    }
                },
                "originalUriBaseIds": {"SRCROOT": {"uri": Path(os.getcwd()).resolve().as_uri() + "/"}},
                "invocations": [{"executionSuccessful": True, "exitCode": 0 if run.ok else 1,
                                 "commandLine": f"hauntcheck {run.command}"}],
                "results": results,
            }
        ],
    }


def _version() -> str:
    from hauntcheck import __version__

    return __version__
