"""The haunt seeds the Betrayal tests play (betrayal_support.haunt_seed): a recorded seed is used
while its policy game still reveals the haunt, even if it is no longer the first that does;
otherwise the first seed that does is searched for."""

from __future__ import annotations

import betrayal_support
import pytest

from hauntcheck.engine.betrayal.policy import search_seed


def test_a_recorded_seed_is_used_only_while_it_reveals_the_haunt(monkeypatch: pytest.MonkeyPatch) -> None:
    first = search_seed(3, 10, 0)
    assert first > 0, "haunt 10 is revealed by seed 0: pick a haunt whose first seed is later"
    second = search_seed(3, 10, first + 1)
    monkeypatch.setattr(betrayal_support, "_recorded_seeds", lambda: {"10-3p": second})
    assert betrayal_support._find_seed(3, 10) == second
    monkeypatch.setattr(betrayal_support, "_recorded_seeds", lambda: {"10-3p": first - 1})  # reveals another haunt
    assert betrayal_support._find_seed(3, 10) == first
    monkeypatch.setattr(betrayal_support, "_recorded_seeds", lambda: {})
    assert betrayal_support._find_seed(3, 10) == first


def test_the_recorded_seeds_are_read() -> None:
    recorded = betrayal_support._recorded_seeds()
    assert recorded and all(isinstance(seed, int) and seed >= 0 for seed in recorded.values())
