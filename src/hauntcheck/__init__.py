"""hauntcheck: a rules-verification and scenario test harness for haunted-house board games.

The code lives in subpackages: ``hauntcheck.engine`` (the core and one module per game),
``hauntcheck.checks`` (the verify report and its families), ``hauntcheck.testing`` (the
Hypothesis state machine any game can reuse) and ``hauntcheck.pytest_plugin``.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__: str = version("hauntcheck")
except PackageNotFoundError:  # imported from a checkout that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
