"""Build script for the optional compiled build; everything else about the package is in pyproject.toml.

``pip install .`` installs pure Python, as always (tox and CI too: they pass no
HAUNTCHECK_COMPILE). ``HAUNTCHECK_COMPILE=1 pip install .`` also compiles the modules that play
a Betrayal game (``COMPILED`` below) with mypyc. Opt-in: compiled, every golden transcript is
re-recorded identically and the fast loop plays the recorded loop's games (tests/test_play.py);
benchmarks/README.md, "Compiled modules (mypyc)", has the numbers and what the test suite found.
Betrayal plays about twice as fast compiled. The build needs a C compiler and the Python headers;
when it has none, or mypyc or the compiler fails, it installs the pure-Python package instead and
says so on stderr (``pip install -v`` shows it). ``HAUNTCHECK_MYPYC_OPT`` picks gcc's optimisation
level (``MYPYC_OPT_LEVEL`` by default; measured in benchmarks/README.md). The compiled modules keep
their ``.py`` files beside them; ``hauntcheck.engine.compiled`` tells which modules were loaded
compiled, and ``benchmarks/run.py`` prints it.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
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
#: gcc's optimisation level for mypyc's C, unless HAUNTCHECK_MYPYC_OPT names another: -O1 plays as
#: fast as mypyc's own default -O3 and builds in about three quarters of its CPU time; -O0 builds
#: little faster and plays slower than pure Python (benchmarks/README.md, branch perf-mypyc3).
MYPYC_OPT_LEVEL = "1"
#: Where the package's source tree is copied for mypyc (under build/, which git ignores).
STAGE = ROOT / "build" / "mypyc-src"


def compile_requested() -> bool:
    return os.environ.get("HAUNTCHECK_COMPILE", "") == "1"


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


def compiled_extensions() -> list[Extension]:
    """mypyc's extensions for ``COMPILED``: its shared libraries (calls between compiled modules
    stay native) and a small module for each compiled module."""
    from mypyc.build import mypycify

    groups = staged_sources()
    paths = [path for group in groups.values() for path in group]
    separate: list[tuple[list[str], str | None]] = [(group, library) for library, group in groups.items()]
    opt_level = os.environ.get("HAUNTCHECK_MYPYC_OPT", MYPYC_OPT_LEVEL)
    return list(mypycify(paths, separate=separate, target_dir="build/mypyc", opt_level=opt_level, debug_level="0"))


def c_compiler_problem() -> str | None:
    """Why this machine cannot build a C extension for this Python (no C compiler, or no Python
    headers), found by compiling a file that includes ``Python.h`` the way ``build_ext`` would;
    None when it can."""
    from distutils.ccompiler import new_compiler
    from distutils.errors import CCompilerError, DistutilsError
    from distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as folder:
        probe = Path(folder) / "probe.c"
        probe.write_text("#include <Python.h>\nint probe(void) { return 0; }\n")
        try:
            compiler.compile([str(probe)], output_dir=folder, include_dirs=[sysconfig.get_paths()["include"]])
        except (CCompilerError, DistutilsError) as error:
            return f"no working C compiler with the Python headers ({error})"
    return None


def warn_pure(reason: str) -> None:
    print(f"WARNING: HAUNTCHECK_COMPILE=1, but {reason}: installing the pure-Python hauntcheck instead "
          "(the same games, about half as fast).", file=sys.stderr)


def extensions_or_none(problem: Callable[[], str | None], extensions: Callable[[], list[Extension]]) -> list[Extension] | None:
    """The compiled build's extensions, or None (after a warning) when they cannot be made here:
    ``problem()`` says why this machine cannot compile C, or mypyc fails (it exits on a type
    error)."""
    reason = problem()
    if reason is not None:
        warn_pure(reason)
        return None
    try:
        return extensions()
    except (Exception, SystemExit) as error:
        warn_pure(f"mypyc failed ({type(error).__name__}: {error})")
        return None


class BuildCompiledOrPure(build_ext):
    """``build_ext`` for the compiled build: mypyc runs only when the wheel is built (not for the
    metadata pip asks for first), and any failure of mypyc or the C compiler leaves the
    pure-Python package, with a warning, instead of a failed install."""

    #: The commands of pip's metadata pass, which finalizes build_ext (egg_info lists its sources)
    #: but never runs it: mypyc is not needed there.
    METADATA_ONLY = frozenset({"dist_info", "egg_info"})

    def finalize_options(self) -> None:
        if set(self.distribution.commands) <= self.METADATA_ONLY:
            self.distribution.ext_modules = []
        else:
            self.distribution.ext_modules = extensions_or_none(c_compiler_problem, compiled_extensions) or []
        super().finalize_options()

    def run(self) -> None:
        from distutils.errors import CCompilerError, DistutilsError

        try:
            super().run()
        except (CCompilerError, DistutilsError) as error:
            warn_pure(f"the C compiler failed ({error})")
            # a library that did build would leave shims importing the one that did not
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            self.extensions: list[Extension] = []
        if not self.extensions:  # then the wheel holds pure Python, and says so in its name
            self.distribution.get_command_obj("bdist_wheel").root_is_pure = True


def mypyc_installed() -> bool:
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return False
    return True


def main() -> None:
    if not compile_requested():
        setup()
    elif mypyc_installed():
        # The extensions are made in BuildCompiledOrPure; this one stands for them until then, so
        # that the wheel is built with build_ext. build_ext builds the extensions two at a time:
        # the two libraries compile side by side; force, since a C file mypyc left unchanged
        # keeps an old date, and another optimisation level must still recompile it.
        placeholder: Any = Extension("hauntcheck_mypyc", sources=[])
        setup(ext_modules=[placeholder], cmdclass={"build_ext": BuildCompiledOrPure},
              options={"build_ext": {"parallel": 2, "force": True}})
    else:
        # The build backend first runs this script to ask what the build needs beyond pyproject's
        # [build-system] (setup_requires is the answer, so pip brings mypy into the build environment
        # only for the compiled build); that pass stops inside setup(). Returning from it means a
        # build without mypy (no build isolation): refuse rather than quietly build pure Python.
        setup(setup_requires=BUILD_REQUIRES)
        raise SystemExit("HAUNTCHECK_COMPILE=1 needs mypy in the build environment: " + " ".join(BUILD_REQUIRES))


if __name__ == "__main__":
    main()
