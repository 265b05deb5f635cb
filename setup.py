"""Build script for the experimental compiled build; everything else about the package is in pyproject.toml.

``pip install .`` installs pure Python, as always (tox and CI too: they pass no
HAUNTCHECK_COMPILE). ``HAUNTCHECK_COMPILE=1 pip install .`` also compiles the modules that play
a Betrayal game (``COMPILED`` below) with mypyc, for measuring: the compiled build does NOT yet
play the same games (benchmarks/README.md, "Compiled modules (mypyc)", says what fails and why),
so it is not for use. Exploration to the reveal plays about twice as fast compiled; the build takes
about 7 CPU minutes and 3 GB of memory, and needs a C compiler and the Python headers. The compiled
modules keep their ``.py`` files beside them; ``hauntcheck.engine.compiled`` tells which modules
were loaded compiled, and ``benchmarks/run.py`` prints it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
COMPILE = os.environ.get("HAUNTCHECK_COMPILE", "") == "1"
#: What mypyc needs to type-check the compiled modules the way `mypy` does in development: mypy
#: itself (pinned: the compiled code is mypyc's, so a new mypyc is a change to measure), and the
#: stubs and typed packages the engine's imports reach.
BUILD_REQUIRES = ["mypy==2.4.1", "types-PyYAML", "types-jsonschema", "rich>=13.0"]
#: The play-hot modules, as folders and files under engine/ (a folder: every module in it).
COMPILED = ["core.py", "play.py", "betrayal/house.py", "betrayal/state", "betrayal/effects", "betrayal/haunt", "betrayal/policy"]
#: Where the package's source tree is copied for mypyc (under build/, which git ignores).
STAGE = ROOT / "build" / "mypyc-src"


def staged_sources() -> list[str]:
    """Copy the package's code into ``STAGE`` laid out as it installs (engine/ as
    hauntcheck/engine/, pyproject's package-dir), and return the paths of the modules to compile
    there: mypyc names a module by its path, and a compiled module must carry its installed name."""
    shutil.rmtree(STAGE, ignore_errors=True)
    package = STAGE / "hauntcheck"
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.c")
    shutil.copytree(ROOT / "src" / "hauntcheck", package, ignore=skip)
    for folder in ("engine", "checks"):
        shutil.copytree(ROOT / folder, package / folder, ignore=skip)
    paths: list[Path] = []
    for name in COMPILED:
        path = package / "engine" / name
        paths.extend(sorted(path.glob("*.py")) if path.is_dir() else [path])
    return [str(p.relative_to(ROOT)) for p in paths]


def compiled_extensions() -> list[object]:
    """mypyc's extensions for ``COMPILED``: one shared library for them all (calls between
    compiled modules stay native) and a small module for each."""
    from mypyc.build import mypycify

    return list(mypycify(staged_sources(), group_name="hauntcheck_engine", target_dir="build/mypyc"))


def mypyc_installed() -> bool:
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return False
    return True


if not COMPILE:
    setup()
elif mypyc_installed():
    setup(ext_modules=compiled_extensions())
else:
    # The build backend first runs this script to ask what the build needs beyond pyproject's
    # [build-system] (setup_requires is the answer, so pip brings mypy into the build environment
    # only for the compiled build); that pass stops inside setup(). Returning from it means a
    # build without mypy (no build isolation): refuse rather than quietly build pure Python.
    setup(setup_requires=BUILD_REQUIRES)
    raise SystemExit("HAUNTCHECK_COMPILE=1 needs mypy in the build environment: " + " ".join(BUILD_REQUIRES))
