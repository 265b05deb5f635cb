"""Test-suite settings: Hypothesis profiles sized for CI (`ci`, the default) and for deeper
nightly runs (`nightly`), chosen with the HYPOTHESIS_PROFILE environment variable."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "nightly",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=10, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked `long` run first. pytest-xdist hands out tests in collection order, so a long
    test collected last would keep one worker busy while the other sits idle at the end."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)  # a stable sort: the rest keep their order
