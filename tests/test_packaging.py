"""Packaging and project tripwires: every code folder is installed, the spec data ships inside
the package, every schema is a valid JSON Schema, every spec file carries its editor modeline,
CI runs exactly the README's set-up commands, and no module grows past ~800 lines unsaid."""

from __future__ import annotations

import ast
import json
import re
import runpy
import shutil
import sys
import tomllib
import types
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from hauntcheck.engine.compiled import compiled_modules
from hauntcheck.engine.spec import SCHEMA_DIR, SPEC_ROOT, spec_files

REPO = Path(__file__).resolve().parents[1]


def test_every_code_folder_is_a_listed_package() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    mapping = config["package-dir"]
    for package, folder in mapping.items():
        for init in (REPO / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(REPO / folder)
            name = ".".join([package, *rel.parts]) if rel.parts else package
            assert name in listed, f"{init.parent} holds code but {name} is not in pyproject's packages"



#: Issue 13: a module a newcomer can take in whole. A longer one says why in its docstring, with
#: these words (e.g. "over 800 lines: one cohesive table").
MAX_MODULE_LINES = 800
LONG_MODULE_REASON = "over 800 lines"


def test_no_module_is_over_800_lines_without_a_stated_reason() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    too_long = []
    for folder in config["package-dir"].values():
        for module in sorted((REPO / folder).rglob("*.py")):
            text = module.read_text(encoding="utf-8")
            lines = text.count("\n")
            if lines > MAX_MODULE_LINES and LONG_MODULE_REASON not in (ast.get_docstring(ast.parse(text)) or ""):
                too_long.append(f"{module.relative_to(REPO)}: {lines} lines")
    assert not too_long, f"split these or say why in the docstring ({LONG_MODULE_REASON!r}): {too_long}"

def test_spec_data_ships_with_the_installed_package() -> None:
    # SPEC_ROOT is the installed copy under tox, and the checkout in a development install.
    assert (SPEC_ROOT / "sources.yaml").is_file()
    shipped = {p.relative_to(SPEC_ROOT).as_posix() for p in spec_files(SPEC_ROOT)}
    in_repo = {p.relative_to(REPO / "spec").as_posix() for p in spec_files(REPO / "spec")}
    assert shipped == in_repo
    assert {p.name for p in SCHEMA_DIR.glob("*.json")} == {p.name for p in (REPO / "spec" / "schema").glob("*.json")}


@pytest.mark.parametrize("schema", sorted((REPO / "spec" / "schema").glob("*.schema.json")), ids=lambda p: p.name)
def test_schemas_are_valid_json_schema(schema: Path) -> None:
    Draft202012Validator.check_schema(json.loads(schema.read_text()))


@pytest.mark.parametrize("path", spec_files(REPO / "spec"), ids=lambda p: p.relative_to(REPO / "spec").as_posix())
def test_spec_files_carry_the_schema_modeline(path: Path) -> None:
    text = path.read_text()
    match = re.match(r"# yaml-language-server: \$schema=(\S+)\n", text)
    assert match, f"{path} must start with a '# yaml-language-server: $schema=...' line"
    target = (path.parent / match.group(1)).resolve()
    kind = re.search(r"^kind: (\S+)$", text, re.MULTILINE)
    assert kind, f"{path} declares no kind"
    assert target == (REPO / "spec" / "schema" / f"{kind.group(1)}.schema.json").resolve()


def test_ci_runs_the_readme_commands() -> None:
    readme = (REPO / "README.md").read_text()
    commands = re.findall(r"^(python3 -m venv .*)$", readme, re.MULTILINE)
    assert len(commands) >= 2, "the README gives the set-up commands as lines starting 'python3 -m venv'"
    ci = (REPO / ".ci" / "run").read_text()
    for command in commands[:2]:
        assert command in ci.splitlines(), f".ci/run does not run the README command: {command}"


def test_license_file_matches_the_metadata() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert project["license"] == {"text": "MIT"}
    assert (REPO / "LICENSE").read_text().startswith("MIT License\n")


def run_setup_script(monkeypatch: pytest.MonkeyPatch) -> tuple[list[dict[str, object]], dict[str, object]]:
    """Run the root setup.py as pip's build backend would, with ``setuptools.setup`` recording its
    arguments instead of building: the calls, and the script's globals. (Stand-in modules: the
    test environment need not have setuptools.)"""
    calls: list[dict[str, object]] = []
    setuptools = types.ModuleType("setuptools")
    setuptools.setup = lambda **kwargs: calls.append(kwargs)  # type: ignore[attr-defined]
    setuptools.Extension = lambda name, sources: (name, sources)  # type: ignore[attr-defined]
    command = types.ModuleType("setuptools.command.build_ext")
    command.build_ext = type("build_ext", (), {"finalize_options": lambda self: None})  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "setuptools", setuptools)
    monkeypatch.setitem(sys.modules, "setuptools.command", types.ModuleType("setuptools.command"))
    monkeypatch.setitem(sys.modules, "setuptools.command.build_ext", command)
    return calls, runpy.run_path(str(REPO / "setup.py"), run_name="__main__")


@pytest.mark.parametrize("setting", [None, "", "0"])
def test_the_default_install_compiles_nothing(monkeypatch: pytest.MonkeyPatch, setting: str | None) -> None:
    # `pip install .` (and tox, which passes no HAUNTCHECK_COMPILE) stays pure Python with no build needs
    if setting is None:
        monkeypatch.delenv("HAUNTCHECK_COMPILE", raising=False)
    else:
        monkeypatch.setenv("HAUNTCHECK_COMPILE", setting)
    calls, _ = run_setup_script(monkeypatch)
    assert calls == [{}]


def test_the_compiled_build_asks_for_its_pinned_mypy_and_never_falls_back_silently(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HAUNTCHECK_COMPILE", "1")
    monkeypatch.setitem(sys.modules, "mypyc.build", None)  # mypy not installed: the import fails
    with pytest.raises(SystemExit, match=r"HAUNTCHECK_COMPILE=1 needs mypy in the build environment: mypy==\d"):
        run_setup_script(monkeypatch)


def test_the_compiled_build_runs_mypyc_only_in_its_build_ext(monkeypatch: pytest.MonkeyPatch) -> None:
    # mypyc runs when build_ext does (so not for the metadata pip asks for first), and build_ext
    # is the one that falls back to pure Python
    monkeypatch.setenv("HAUNTCHECK_COMPILE", "1")
    monkeypatch.setitem(sys.modules, "mypyc", types.ModuleType("mypyc"))  # (the compiled build's own venv has no mypy)
    monkeypatch.setitem(sys.modules, "mypyc.build", types.ModuleType("mypyc.build"))
    calls, script = run_setup_script(monkeypatch)
    assert len(calls) == 1
    assert calls[0]["cmdclass"] == {"build_ext": script["BuildCompiledOrPure"]}
    assert calls[0]["ext_modules"], "no extension: the wheel would be built without build_ext"


def test_pips_metadata_pass_runs_no_mypyc(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # pip first asks for the metadata (dist_info), which finalizes build_ext without running it
    monkeypatch.setenv("HAUNTCHECK_COMPILE", "1")
    monkeypatch.setitem(sys.modules, "mypyc", types.ModuleType("mypyc"))
    monkeypatch.setitem(sys.modules, "mypyc.build", types.ModuleType("mypyc.build"))  # no mypycify: calling it would fail
    command = run_setup_script(monkeypatch)[1]["BuildCompiledOrPure"]()  # type: ignore[operator]
    command.distribution = types.SimpleNamespace(commands=["dist_info"], ext_modules=["the placeholder"])
    command.finalize_options()
    assert command.distribution.ext_modules == [] and capsys.readouterr().err == ""


def fallback_decision(monkeypatch: pytest.MonkeyPatch) -> object:
    """setup.py's ``extensions_or_none``: the compiled build's extensions, or None for pure Python."""
    monkeypatch.delenv("HAUNTCHECK_COMPILE", raising=False)
    return run_setup_script(monkeypatch)[1]["extensions_or_none"]


def test_no_c_compiler_installs_pure_python_with_a_warning(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    def mypyc() -> list[object]:
        raise AssertionError("mypyc ran with no C compiler")

    decide = fallback_decision(monkeypatch)
    assert decide(lambda: "no working C compiler with the Python headers (cc: not found)", mypyc) is None  # type: ignore[operator]
    warning = capsys.readouterr().err
    assert "HAUNTCHECK_COMPILE=1" in warning and "cc: not found" in warning and "pure-Python" in warning


@pytest.mark.parametrize("failure", [SystemExit(1), RuntimeError("mypyc crashed")])
def test_a_failed_mypyc_step_installs_pure_python_with_a_warning(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                                                 failure: BaseException) -> None:
    def mypyc() -> list[object]:
        raise failure  # mypyc exits after printing a type error; or fails on its own

    assert fallback_decision(monkeypatch)(lambda: None, mypyc) is None  # type: ignore[operator]
    warning = capsys.readouterr().err
    assert "mypyc failed" in warning and "pure-Python" in warning


def test_a_working_compiler_and_mypyc_give_the_extensions(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    extensions = [object(), object()]
    assert fallback_decision(monkeypatch)(lambda: None, lambda: extensions) is extensions  # type: ignore[operator]
    assert capsys.readouterr().err == ""


def test_the_c_compiler_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    # the real probe, as build_ext would compile: a missing compiler is named, this machine's works
    pytest.importorskip("setuptools")
    probe = runpy.run_path(str(REPO / "setup.py"))["c_compiler_problem"]
    monkeypatch.setenv("CC", "/nonexistent/cc")
    problem = probe()
    assert problem is not None and "/nonexistent/cc" in problem
    monkeypatch.delenv("CC")
    if shutil.which("cc") is None:
        pytest.skip("no C compiler on this machine")
    assert probe() is None


def test_the_compiled_modules_exist(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HAUNTCHECK_COMPILE", raising=False)
    _, script = run_setup_script(monkeypatch)
    compiled = script["COMPILED"]  # the modules by shared library
    assert isinstance(compiled, dict) and compiled and all(compiled.values())
    names = [name for group in compiled.values() for name in group]
    assert len(names) == len(set(names)), "a module in two of setup.py's libraries"
    missing = [name for name in names if not (REPO / "engine" / name).exists()]
    assert not missing, f"setup.py's COMPILED names modules engine/ does not have: {missing}"


def test_compiled_modules_are_the_ones_loaded_from_extensions(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled, pure = types.ModuleType("hauntcheck.engine.fake_compiled"), types.ModuleType("hauntcheck.engine.fake_pure")
    compiled.__file__ = f"/site/hauntcheck/engine/fake_compiled{EXTENSION_SUFFIXES[0]}"
    pure.__file__ = "/site/hauntcheck/engine/fake_pure.py"
    for module in (compiled, pure):
        monkeypatch.setitem(sys.modules, module.__name__, module)
    found = compiled_modules()
    assert compiled.__name__ in found
    assert pure.__name__ not in found
