"""The collector tuning `hauntcheck verify` runs under (engine/commands/verify.py) holds only for
the run: the threshold and the frozen objects are restored afterwards, also when the run fails."""

from __future__ import annotations

import gc

import pytest

from hauntcheck.engine.commands.verify import VERIFY_GC_FULL_EVERY, VERIFY_GC_THRESHOLD, long_lived_collector


def test_collector_is_tuned_for_the_run_and_restored() -> None:
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    with long_lived_collector():
        assert gc.get_threshold() == (VERIFY_GC_THRESHOLD, before[1], VERIFY_GC_FULL_EVERY)
        assert gc.get_freeze_count() > frozen  # what was loaded before the run is out of the collector's walks
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == frozen


def test_collector_is_restored_when_the_run_fails() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), long_lived_collector():
        raise RuntimeError("a crash inside verify")
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
