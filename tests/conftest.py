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


@pytest.fixture(scope="session", autouse=True)
def _seed_searches_shared_by_the_workers(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Haunt seed searches (tests/betrayal_support.py) are shared through this run's temporary
    folder: under pytest-xdist each worker's folder sits in one folder of the run."""
    import betrayal_support

    run = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent
    betrayal_support.shared_folder = run
