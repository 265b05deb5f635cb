"""Build script for the experimental compiled build; everything else about the package is in pyproject.toml.

``pip install .`` installs pure Python, as always (tox and CI too: they pass no
HAUNTCHECK_COMPILE). ``HAUNTCHECK_COMPILE=1 pip install .`` also compiles the modules that play
a Betrayal game (``COMPILED`` below) with mypyc. Experimental and opt-in: compiled, every golden
transcript is re-recorded identically and the fast loop plays the recorded loop's games
(tests/test_play.py), but the rest of the test suite does not run against it (tests that patch
engine methods cannot); benchmarks/README.md, "Compiled modules (mypyc)", has the numbers. Betrayal
plays about twice as fast compiled; the build takes about 6 CPU minutes (two libraries compiled
side by side) and 3 GB of memory, and needs a C compiler and the Python headers. The compiled
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
#: The play-hot modules, as folders and files under engine/ (a folder: every module in it), in two
#: shared libraries of about the same size, which gcc compiles side by side (one core each); calls
#: between the two go through a table of functions, calls within one stay direct.
COMPILED = {
    "hauntcheck_engine": ["core.py", "play.py", "betrayal/house.py", "betrayal/state", "betrayal/effects", "betrayal/policy"],
    "hauntcheck_haunt": ["betrayal/haunt"],
}
#: Where the package's source tree is copied for mypyc (under build/, which git ignores).
STAGE = ROOT / "build" / "mypyc-src"


def staged_sources() -> dict[str, list[str]]:
    """Copy the package's code into ``STAGE`` laid out as it installs (engine/ as
    hauntcheck/engine/, pyproject's package-dir), and return the paths of the modules to compile
    there, by library: mypyc names a module by its path, and a compiled module must carry its
    installed name."""
    shutil.rmtree(STAGE, ignore_errors=True)
    package = STAGE / "hauntcheck"
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.c")
    shutil.copytree(ROOT / "src" / "hauntcheck", package, ignore=skip)
    for folder in ("engine", "checks"):
        shutil.copytree(ROOT / folder, package / folder, ignore=skip)
    groups: dict[str, list[str]] = {}
    for library, names in COMPILED.items():
        paths: list[Path] = []
        for name in names:
            path = package / "engine" / name
            paths.extend(sorted(path.glob("*.py")) if path.is_dir() else [path])
        groups[library] = [str(p.relative_to(ROOT)) for p in paths]
    return groups


def compiled_extensions() -> list[object]:
    """mypyc's extensions for ``COMPILED``: its shared libraries (calls between compiled modules
    stay native) and a small module for each compiled module."""
    from mypyc.build import mypycify

    groups = staged_sources()
    paths = [path for group in groups.values() for path in group]
    separate = [(group, library) for library, group in groups.items()]
    return list(mypycify(paths, separate=separate, target_dir="build/mypyc"))


def mypyc_installed() -> bool:
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return False
    return True


if not COMPILE:
    setup()
elif mypyc_installed():
    # build_ext builds the extensions two at a time: the two libraries compile side by side
    setup(ext_modules=compiled_extensions(), options={"build_ext": {"parallel": 2}})
else:
    # The build backend first runs this script to ask what the build needs beyond pyproject's
    # [build-system] (setup_requires is the answer, so pip brings mypy into the build environment
    # only for the compiled build); that pass stops inside setup(). Returning from it means a
    # build without mypy (no build isolation): refuse rather than quietly build pure Python.
    setup(setup_requires=BUILD_REQUIRES)
    raise SystemExit("HAUNTCHECK_COMPILE=1 needs mypy in the build environment: " + " ".join(BUILD_REQUIRES))
