"""Hypothesis strategies that mutate valid inputs of every kind (spec and haunt files, dispute
scenarios, transcripts of the three games), and the oracle the fuzz tests hold them to.

Text mutations work on the bytes a user could hand over (structure, types, ids, sizes, encodings,
aliases); transcript mutations work on the parsed log (steps removed, duplicated, reordered or
changed; header values changed) and know whether their change can be a no-op.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import resource
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from hauntcheck.engine.cli import main
from hauntcheck.engine.inputs import FAST_LOADER, plain_copy

ROOT = Path(__file__).resolve().parent.parent

#: Valid inputs, by the command that reads them.
SPEC_FILES = ("spec/betrayal/items.yaml", "spec/betrayal/haunts/03-frog-leg-stew.yaml", "spec/haunted/rules.yaml",
              "spec/halls-of-horror/rules.yaml", "spec/betrayal/traitors.yaml")
SCENARIO_FILES = ("scenarios/betrayal/disputes/a-blocked-door-cannot-be-used.yaml",
                  "scenarios/halls-of-horror/examples/dan-searches-the-room-filled-with-tombs.yaml")
#: One transcript per game, each of the engine's transcript format (version 2, non-default header
#: fields). Halls of Horror's is its four-player combined-decks policy game (98 steps): a tamper's
#: check is generic (parse, replay to the first divergence, located report), and each mutant costs
#: a parse and a replay of the whole file, so the longer advanced seed-8 game (503 steps) made the
#: same checks cost five times as much. Betrayal's is the five-player reveal game with a date option
#: (203 steps) for the same reason: the four-player one (341 steps) took 60 % more.
TRANSCRIPT_FILES = ("scenarios/haunted/golden/four-players-seed-91.yaml", "scenarios/betrayal/golden/reveal-5p-seed-11.yaml",
                    "scenarios/halls-of-horror/golden/four-players-combined-decks-policy-seed-12.yaml")
COMMAND_OF = {**dict.fromkeys(SPEC_FILES, "lint"), **dict.fromkeys(SCENARIO_FILES, "dispute"),
              **dict.fromkeys(TRANSCRIPT_FILES, "replay")}

#: The bounds every run is held to (docs/hardening.md states them).
SECONDS_PER_RUN = 20.0
MAX_RSS_BYTES = 2_000_000_000


def original(name: str) -> bytes:
    return (ROOT / name).read_bytes()


# --------------------------------------------------------------------------------------------
# Text mutations


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _at(draw: st.DrawFn, data: bytes) -> int:
    return draw(st.integers(0, max(len(data) - 1, 0)))


JUNK = st.sampled_from([b"\0", b"\0\0\0\0", b"\xff", b"\xc3(", b"\x1b[31m", b"\x07", b"\x7f", b"\xef\xbb\xbf",
                        b"\x89PNG\r\n\x1a\n", b"\t", b"\r", b"\xe2\x80\xa8"])
SCALARS = st.sampled_from([b"9" * 5000, b"-1", b"0", b"1.5", b"1e309", b".nan", b"{a: 1}", b"[1, [2]]", b"null", b"true",
                           b"~", b"''", b"\"\\x01\"", b"!!python/object:os.system", b"!custom x", b"&a x", b"*undefined",
                           b"\"no-such-id\"", b"no-such-room", b"99", b"-", b"?", b"|", b">-", b"'unterminated", b"\"\\u0000\""])


def alias_bomb(levels: int, width: int) -> bytes:
    lines = [b"a0: &a0 [x]"]
    for i in range(1, levels):
        refs = b", ".join([f"*a{i - 1}".encode()] * width)
        lines.append(f"a{i}: &a{i} [".encode() + refs + b"]")
    return b"\n".join(lines) + b"\n"


def deep(levels: int, flow: bool) -> bytes:
    if flow or levels > 1100:  # block nesting costs indentation quadratic in depth: keep it small
        return b"deep: " + b"[" * levels + b"]" * levels + b"\n"
    return b"".join(b"  " * i + b"k:\n" for i in range(levels)) + b"  " * levels + b"v: 1\n"


@st.composite
def mutated_text(draw: st.DrawFn, data: bytes) -> tuple[str, bytes]:
    """One mutation of a file's bytes, named."""
    kind = draw(st.sampled_from(["junk", "scalar", "delete-line", "duplicate-line", "swap-lines", "indent", "truncate",
                                 "alias-bomb", "deep", "binary", "rename-id", "duplicate-key", "huge"]))
    lines = _lines(data)
    if kind == "junk":
        at = _at(draw, data)
        return kind, data[:at] + draw(JUNK) + data[at:]
    if kind == "scalar":
        # Replace a value after a "key: " with another kind of value.
        spots = [m.end() for m in re.finditer(rb"\w: ", data)]
        if not spots:
            return kind, data
        at = draw(st.sampled_from(spots))
        end = data.find(b"\n", at)
        cut = draw(st.integers(at, end if end > at else at))
        return kind, data[:at] + draw(SCALARS) + data[cut:]
    if kind == "delete-line":
        i = draw(st.integers(0, len(lines) - 1))
        return kind, b"\n".join(lines[:i] + lines[i + 1:])
    if kind == "duplicate-line":
        i = draw(st.integers(0, len(lines) - 1))
        return kind, b"\n".join(lines[: i + 1] + lines[i:])
    if kind == "swap-lines":
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
        return kind, b"\n".join(lines)
    if kind == "indent":
        i = draw(st.integers(0, len(lines) - 1))
        lines[i] = draw(st.sampled_from([b" ", b"  ", b"\t", b"    "])) + lines[i]
        return kind, b"\n".join(lines)
    if kind == "truncate":
        return kind, data[: _at(draw, data)]
    if kind == "alias-bomb":
        return kind, data + b"\n" + alias_bomb(draw(st.integers(3, 12)), draw(st.integers(2, 10)))
    if kind == "deep":
        return kind, data + b"\n" + deep(draw(st.sampled_from([70, 500, 999, 1001, 20_000])), draw(st.booleans()))
    if kind == "binary":
        return kind, draw(st.binary(min_size=1, max_size=300))
    if kind == "rename-id":
        words = sorted(set(re.findall(rb"\b[a-z][a-z0-9]+(?:-[a-z0-9]+)+\b", data)))
        if not words:
            return kind, data
        word = draw(st.sampled_from(words))
        return kind, data.replace(word, word + b"x", 1 if draw(st.booleans()) else -1)
    if kind == "duplicate-key":
        keyed = [i for i, line in enumerate(lines) if re.match(rb"^\s*\w[\w-]*: ", line)]
        if not keyed:
            return kind, data
        i = draw(st.sampled_from(keyed))
        return kind, b"\n".join([*lines[: i + 1], lines[i], *lines[i + 1:]])
    # huge: a long file of many copies of one entry, beyond the size limit or near it
    return kind, data + b"\n# padding\n" + b"#" * draw(st.sampled_from([10, 1_000_000]))


# --------------------------------------------------------------------------------------------
# Transcript mutations (on the parsed log: the change is known, and whether it can be a no-op)


@dataclass
class Tamper:
    kind: str
    text: str
    #: False when the change may leave the log meaning the same (the oracle then accepts exit 0).
    must_fail: bool


def _header_values() -> dict[str, st.SearchStrategy[Any]]:
    return {
        "players": st.sampled_from([0, 1, 2, 7, 9, -1, 10**30]),
        "options": st.sampled_from([{"colour": "red"}, {"haunt": 99}, {"haunt": "x"}, {"date": "13-45"}, {"date": {"a": 1}},
                                    {"variants": "no-such-variant"}, {"variant": "no-such"}, {"charts": "no/such/file.yaml"},
                                    {"rounds": -1}, {"side": "upside-down"}, {"decks": [1]}]),
        "seed": st.sampled_from(["seven", 1.5, [1]]),
        "controller": st.sampled_from(["cheater", 7]),
        "stop": st.sampled_from(["nowhere", 3]),
        "game": st.sampled_from(["chess", "", 5]),
    }


@st.composite
def tampered_transcript(draw: st.DrawFn, name: str) -> Tamper:
    data = plain_copy(_parsed(name))
    steps = data["steps"]
    kind = draw(st.sampled_from(["remove-step", "duplicate-step", "swap-steps", "change-action", "reorder-args", "header",
                                 "roster", "hash", "end-key", "events", "offered", "truncate-steps", "many-steps"]))
    must_fail = True
    if kind == "remove-step":
        del steps[draw(st.integers(0, len(steps) - 1))]
        _renumber(steps)
    elif kind == "duplicate-step":
        i = draw(st.integers(0, len(steps) - 1))
        steps.insert(i, dict(steps[i]))
        _renumber(steps)
    elif kind == "many-steps":
        i = draw(st.integers(0, len(steps) - 1))
        steps[i + 1:i + 1] = [dict(steps[i]) for _ in range(draw(st.sampled_from([10, 1000])))]
        _renumber(steps)
    elif kind == "swap-steps":
        i = draw(st.integers(0, len(steps) - 1))
        j = draw(st.integers(0, len(steps) - 1))
        must_fail = steps[i] != steps[j] and {**steps[i], "n": 0} != {**steps[j], "n": 0}
        steps[i], steps[j] = steps[j], steps[i]
        _renumber(steps)
    elif kind == "change-action":
        with_args = [s for s in steps if len(s["action"]) > 1]
        step = draw(st.sampled_from(with_args))
        key = draw(st.sampled_from(sorted(k for k in step["action"] if k != "kind")))
        old = step["action"][key]
        new = draw(st.sampled_from(["north", "south", "east", "west", "upper", 0, 1, 3, [0], "nobody", "P2"]))
        step["action"][key] = new
        must_fail = new != old
    elif kind == "reorder-args":
        for step in steps:
            step["action"] = {"kind": step["action"]["kind"], **dict(reversed(list(step["action"].items())[1:]))}
        must_fail = False
    elif kind == "header":
        field = draw(st.sampled_from(sorted(_header_values())))
        data[field] = draw(_header_values()[field])
    elif kind == "roster":
        roster = data["roster"]
        seat = draw(st.sampled_from(sorted(roster)))
        change = draw(st.sampled_from(["rename", "remove", "add"]))
        if change == "rename":
            roster[seat] = roster[seat] + " II"
        elif change == "remove":
            del roster[seat]
        else:
            roster["P9"] = "Somebody"
        must_fail = bool(roster) or change != "remove"
    elif kind == "hash":
        data["spec"]["hash"] = "sha256:" + draw(st.text("0123456789abcdef", min_size=16, max_size=16))
        must_fail = data["spec"]["hash"] != _parsed(name)["spec"]["hash"]
    elif kind == "end-key":
        data["end"][draw(st.sampled_from(["extra", "note", "scores"]))] = draw(st.sampled_from([1, "x", None]))
    elif kind == "events":
        with_events = [s for s in steps if s.get("events")]
        step = draw(st.sampled_from(with_events))
        index = draw(st.integers(0, len(step["events"]) - 1))
        event = step["events"][index]
        if isinstance(event, str):  # version 1: the prose is compared
            step["events"][index] = event + " (edited)"
        elif event.get("args"):  # version 2: the structured part is (an argument changed)
            name = draw(st.sampled_from(sorted(event["args"])))
            event["args"][name] = [event["args"][name], "edited"]
        else:
            event["rule"] += "-edited"
    elif kind == "offered":
        step = draw(st.sampled_from(steps))
        step["offered"] += draw(st.sampled_from([-1, 1, 100]))
    else:  # truncate-steps: the log ends early
        del steps[draw(st.integers(0, len(steps) - 1)):]
    return Tamper(kind, _dump(data), must_fail)


def _renumber(steps: list[dict[str, Any]]) -> None:
    for i, step in enumerate(steps):
        step["n"] = i + 1


@cache
def _parsed(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.load(original(name), Loader=FAST_LOADER)
    return data


def _dump(data: dict[str, Any]) -> str:
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, width=200)


# --------------------------------------------------------------------------------------------
# The oracle


@dataclass
class Run:
    status: int
    out: str
    err: str
    seconds: float  # CPU seconds of the run


def run_cli(argv: list[str]) -> Run:
    """The CLI in-process. Any exception escaping main is a traceback a user would see: it
    propagates and fails the test."""
    out, err = io.StringIO(), io.StringIO()
    # CPU time, not wall time: a hang spins, and on a loaded machine (or a niced long run) the
    # wall clock measures the other processes, not this one
    started, wall = time.process_time(), time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    run = Run(status, out.getvalue(), err.getvalue(), time.process_time() - started)
    log = os.environ.get("HAUNTCHECK_FUZZ_LOG")
    if log:  # a long run's tally: one line per mutant (command, exit status, CPU and wall seconds, peak memory)
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(f"{argv[0]}\t{status}\t{run.seconds:.4f}\t{rss_bytes()}\t{time.perf_counter() - wall:.4f}\n")
    return run


LOCATED = r":\d+:\d+: error: "


def check_bad_input(run: Run, path: Path) -> None:
    """Exit 0, 1 (a check or replay failed) or 2 with every error located; in time and memory."""
    assert run.status in (0, 1, 2), run  # 3 is an internal error: a bug the fuzzer found
    if run.status == 2:
        assert str(path) in run.err or "hauntcheck: error:" in run.err, run.err
        assert "Traceback" not in run.err
    assert run.seconds < SECONDS_PER_RUN, f"took {run.seconds:.1f} s of CPU"
    assert rss_bytes() < MAX_RSS_BYTES


def rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def write(tmp: Path, name: str, data: bytes | str) -> Path:
    target = tmp / Path(name).name
    if isinstance(data, str):
        target.write_text(data, encoding="utf-8")
    else:
        target.write_bytes(data)
    return target
