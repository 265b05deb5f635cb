"""What the tests need to know of the compiled build (``HAUNTCHECK_COMPILE=1 pip install .``, setup.py)."""

from __future__ import annotations

import pytest

from hauntcheck.engine.compiled import ENGINE_COMPILED


def replaces_a_compiled_method(what: str) -> pytest.MarkDecorator:
    """Skip, in the compiled build only, a test that replaces ``what`` (a method of a compiled
    class) with monkeypatch: compiled code calls the compiled method directly, so the replacement
    is never called there, and the test cannot run against that build by its nature."""
    return pytest.mark.skipif(ENGINE_COMPILED, reason=f"replaces {what}, which the compiled build's code calls directly")


def reads_a_compiled_source(what: str) -> pytest.MarkDecorator:
    """Skip, in the compiled build only, a test that reads the source of ``what`` with ``inspect``:
    a compiled function has none to read."""
    return pytest.mark.skipif(ENGINE_COMPILED, reason=f"reads the source of {what}, which the compiled build has none of")
