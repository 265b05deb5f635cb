"""`hauntcheck report TRANSCRIPT --at STEP` turns a moment of a game into a dispute scenario that
runs: the position it writes, the lead-up it scripts (for a moment in the middle of a roll or a
tile placement) and the recorded action of that step reproduce the recorded events exactly."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from hauntcheck.checks.verify import golden_file
from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.cli import main
from hauntcheck.engine.core import CHANCE
from hauntcheck.engine.games import game_spec, get_game
from hauntcheck.engine.report import schema_modeline
from hauntcheck.engine.scenario import ScenarioRun, load_scenario


def case_path(game: str, name: str) -> Path:
    definition = get_game(game)
    return golden_file(game, next(c for c in definition.golden if c.name == name))


def moments(game: str, name: str) -> list[tuple[str, str, int]]:
    """A chance step inside a process and a player's step, early and late in the game."""
    log = transcripts.read(case_path(game, name))
    out: list[tuple[str, str, int]] = []
    for start in (len(log.steps) // 3, len(log.steps) - 40):
        after = log.steps[start:]
        chance = next(s for s in after if s.actor == CHANCE and after.index(s) > 0 and after[after.index(s) - 1].actor != CHANCE)
        player = next(s for s in after if s.actor != CHANCE and s.events)
        out += [(game, name, chance.n), (game, name, player.n)]
    return out


CASES = [
    *moments("betrayal", "reveal-4p-seed-7"),
    *moments("betrayal", "haunt-10-traitor-4p-seed-32"),
    *moments("halls-of-horror", "four-players-policy-seed-3"),
]


@pytest.mark.parametrize(("game", "name", "at"), CASES)
def test_report_skeleton_replays_the_recorded_moment(game: str, name: str, at: int, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = case_path(game, name)
    log = transcripts.read(path)
    step = log.steps[at - 1]
    out = tmp_path / "moment.yaml"
    assert main(["report", str(path), "--at", str(at), "--out", str(out)]) == 0
    capsys.readouterr()
    data = yaml.safe_load(out.read_text(encoding="utf-8"))
    moment = step.action.to_data()
    following = []
    for later in log.steps[at:]:
        if later.actor != CHANCE:
            break
        following.append(later)
    if step.actor == CHANCE:
        assert data["chance"][len(data["chance"]) - len(following) - 1] == moment
    else:
        assert data["steps"][-2] == {"do": moment, "by": step.actor}
    scripted = data.get("chance", [])
    assert scripted[len(scripted) - len(following):] == [s.action.to_data() for s in following]
    run = ScenarioRun(load_scenario(out, str(out)), get_game(game), game_spec(game))
    result = run.run()
    assert result.failures == []
    # The scenario reproduces what the game recorded at that step.
    events = [line.text for line in result.lines if line.kind == "event"]
    recorded = [e.partition(": ")[2] for s in (step, *following) for e in s.events]
    assert events[len(events) - len(recorded):] == recorded


def test_report_refuses_a_step_outside_the_transcript(capsys: pytest.CaptureFixture[str]) -> None:
    path = case_path("betrayal", "reveal-4p-seed-7")
    steps = len(transcripts.read(path).steps)
    assert main(["report", str(path), "--at", str(steps + 1)]) == 2
    assert f"--at must be a step from 1 to {steps}" in capsys.readouterr().err


def test_a_moment_that_applied_no_rule_gets_a_placeholder_the_check_names(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = case_path("betrayal", "haunt-10-traitor-4p-seed-32")
    log = transcripts.read(path)
    quiet = next(s for s in log.steps if s.actor != CHANCE and not s.events and log.steps[s.n].actor != CHANCE)
    out = tmp_path / "quiet.yaml"
    assert main(["report", str(path), "--at", str(quiet.n), "--out", str(out)]) == 0
    capsys.readouterr()
    assert yaml.safe_load(out.read_text(encoding="utf-8"))["rules"] == ["todo.name-the-deciding-rule"]
    assert main(["dispute", str(out)]) == 1
    captured = capsys.readouterr()
    assert "'todo.name-the-deciding-rule' is not a rule of betrayal" in captured.out + captured.err


def test_report_writes_a_clean_skeleton_with_a_modeline_that_resolves(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = case_path("betrayal", "haunt-10-traitor-4p-seed-32")
    at = len(transcripts.read(path).steps) - 40
    outside = tmp_path / "my-disputes" / "moment.yaml"  # a user's folder, outside any checkout
    outside.parent.mkdir()
    assert main(["report", str(path), "--at", str(at), "--out", str(outside)]) == 0
    capsys.readouterr()
    text = outside.read_text(encoding="utf-8")
    assert "&id" not in text and "*id" not in text  # no anchors or aliases
    first = text.splitlines()[0]
    assert first == "# yaml-language-server: $schema=.hauntcheck-schema/scenario.schema.json"
    schema = outside.parent / ".hauntcheck-schema" / "scenario.schema.json"
    assert '"$ref": "common.schema.json' in schema.read_text() and (schema.parent / "common.schema.json").is_file()
    # coordinates and other plain lists are written in flow style: no line is a bare "- 0" item
    assert not [line for line in text.splitlines() if line.strip().startswith("- ") and line.strip()[2:].lstrip("-").isdigit()]
    assert "at: [" in text or ", [" in text
    # inside the checkout the modeline is the relative path to its schema
    inside = Path(__file__).resolve().parent / "fixtures"
    assert schema_modeline(inside) == "# yaml-language-server: $schema=../../spec/schema/scenario.schema.json\n"
