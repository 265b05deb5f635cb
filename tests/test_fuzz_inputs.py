"""Fuzzing every input kind through the CLI (in-process): bad input exits 2 with a location, a
tampered transcript whose change is not a no-op exits 1 naming the step (or the header), nothing
ever raises a traceback, and every run stays within the time and memory bounds of
docs/hardening.md. The `ci` Hypothesis profile keeps this file to about a minute; the `nightly`
profile (HYPOTHESIS_PROFILE=nightly) runs fifty times as many mutants."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz_support import (
    COMMAND_OF,
    SCENARIO_FILES,
    SPEC_FILES,
    TRANSCRIPT_FILES,
    Tamper,
    check_bad_input,
    mutated_text,
    original,
    run_cli,
    tampered_transcript,
    write,
)

FILES = (*SPEC_FILES, *SCENARIO_FILES, *TRANSCRIPT_FILES)
#: Mutants per input file: a third of the profile's examples (13 under `ci`, 666 under `nightly`),
#: or HAUNTCHECK_FUZZ_EXAMPLES for a run of a chosen size.
EXAMPLES = int(os.environ.get("HAUNTCHECK_FUZZ_EXAMPLES") or max(5, settings.default.max_examples // 3))
fuzz = settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
                deadline=None)


@pytest.mark.parametrize("name", FILES)
@fuzz
@given(data=st.data())
def test_mutated_input_is_located_never_a_traceback(name: str, data: st.DataObject, tmp_path: Path) -> None:
    kind, text = data.draw(mutated_text(original(name)), label="mutation")
    path = write(tmp_path, name, text)
    run = run_cli([COMMAND_OF[name], str(path)])
    check_bad_input(run, path)
    if kind in ("binary", "alias-bomb", "deep") and run.status == 2:
        assert re.search(re.escape(str(path)) + r":\d+:\d+: error: ", run.err), run.err


def _check_tamper(tamper: Tamper, path: Path) -> None:
    run = run_cli(["replay", str(path)])
    check_bad_input(run, path)
    if tamper.must_fail:
        assert run.status in (1, 2), f"{tamper.kind}: tampered transcript accepted"
    if run.status == 1:
        assert re.search(r":\d+: (step \d+|header): ", run.out), run.out
        assert ":0: " not in run.out


@pytest.mark.parametrize("name", TRANSCRIPT_FILES)
@fuzz
@given(data=st.data())
def test_tampered_transcript_is_caught(name: str, data: st.DataObject, tmp_path: Path) -> None:
    tamper = data.draw(tampered_transcript(name), label="tamper")
    _check_tamper(tamper, write(tmp_path, name, tamper.text))
