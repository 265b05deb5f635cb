"""The command line end to end, over every game this installation has: a transcript written by
`play` replays clean; the same transcript with one chance outcome altered fails replay naming
that step; `verify` passes and speaks JSON; user mistakes exit 2 without a traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.cli import main
from hauntcheck.engine.core import CHANCE, Action, DiceRoll, Draw, Shuffle
from hauntcheck.engine.games import available_games, game_spec, get_game

GAMES = available_games()
DISPUTES = Path(__file__).resolve().parent.parent / "scenarios" / "betrayal" / "disputes"
FALL = str(DISPUTES / "collapsed-room-first-discoverer-falls.yaml")


def played(tmp_path: Path, game: str, seed: int, capsys: pytest.CaptureFixture[str]) -> Path:
    definition = get_game(game)
    out = tmp_path / f"{game}.yaml"
    stop = ["--stop", definition.milestones[0]] if definition.milestones else []
    code = main(["play", game, "--players", str(definition.min_players + 1 if definition.max_players > definition.min_players else definition.min_players),
                 "--seed", str(seed), "--out", str(out), "--quiet", *stop])
    capsys.readouterr()
    assert code == 0
    return out


@pytest.mark.parametrize("game", GAMES)
def test_played_transcript_replays_clean(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = played(tmp_path, game, 7, capsys)
    assert main(["replay", str(path)]) == 0
    assert re.search(r": OK, \d+ steps replayed", capsys.readouterr().out)


def altered(action: Action, legal: object) -> Action:
    """Another outcome of the same random process."""
    if isinstance(legal, DiceRoll):
        faces = list(action["faces"])  # type: ignore[arg-type]
        faces[0] = 2 if faces[0] != 2 else 0
        return Action.of("roll", faces=faces)
    if isinstance(legal, Shuffle):
        order = list(action["order"])  # type: ignore[arg-type]
        first = next(i for i in range(1, len(order)) if order[i] != order[0])
        order[0], order[first] = order[first], order[0]
        return Action.of("shuffle", pile=action["pile"], order=order)
    if isinstance(legal, Draw):
        other = next(a for a in legal if a != action)
        return other
    raise AssertionError(f"unexpected chance process {legal!r}")


@pytest.mark.parametrize("game", GAMES)
def test_one_altered_chance_outcome_fails_replay_at_that_step(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = played(tmp_path, game, 11, capsys)
    log = transcripts.read(path)
    definition = get_game(game)
    state = definition.new_game(game_spec(game), log.header.players, log.header.options)
    # Find the first chance step whose process has another outcome, and change that outcome.
    for step in log.steps:
        legal = state.legal_actions()
        if step.actor == CHANCE and len(legal) > 1:
            step.action = altered(step.action, legal)
            target = step.n
            break
        state.apply(step.action)
    else:
        pytest.skip("no chance step with more than one outcome")
    bad = tmp_path / "altered.yaml"
    bad.write_text(transcripts.dumps(log))
    assert main(["replay", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"step {target}:" in out
    assert "expected (log)" in out and "actual (engine)" in out


#: Families of `verify` that tests of their own run over every bundled game, left to those tests
#: (each takes seconds): every shipped scenario (`test_shipped_scenario_passes` in
#: test_betrayal_scenarios.py, test_halls_scenarios.py and test_haunted_scenarios.py, with more checks
#: than the family's), the solver (test_solver.py) and the house graph (test_graph.py). CI runs the
#: whole `hauntcheck verify` as well (.ci/run).
VERIFIED_ELSEWHERE = {"scenarios", "solver", "house graph"}


@pytest.mark.long
def test_verify_passes_and_speaks_json(capsys: pytest.CaptureFixture[str]) -> None:
    from hauntcheck.checks.verify import family_names

    assert set(family_names()) >= VERIFIED_ELSEWHERE
    run = sorted(set(family_names()) - VERIFIED_ELSEWHERE)
    code = main(["verify", "--json", *(f"--family={family}" for family in run)])
    report = json.loads(capsys.readouterr().out)
    failures = [f["message"] for r in report["results"] for f in r["failures"]]
    assert code == 0, "\n".join(failures)
    assert report["ok"] is True
    assert {r["game"] for r in report["results"]} == set(GAMES)
    families = {r["family"] for r in report["results"]}
    assert {"spec", "rules", "cross-references", "golden replay"} <= families == set(run)


# Every golden case of every game (what `hauntcheck golden` with no names checks), one test per
# case so that pytest-xdist spreads the re-recording over its workers.
GOLDEN_CASES = [f"{game}/{case.name}" for game in GAMES for case in get_game(game).golden]


@pytest.mark.parametrize("case", GOLDEN_CASES)
def test_golden_transcripts_are_up_to_date(case: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["golden", case])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.count(": up to date") == 1, out  # the name selects this one case


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "chess", "--players", "2"], "unknown game 'chess'"),
        (["play", "haunted", "--players", "9"], "haunted is for 1-6 players, not 9"),
        (["play", "haunted", "--players", "3", "--colour", "red"], "haunted has no option --colour"),
        (["replay", "no-such-file.yaml"], "no-such-file.yaml: error: no such file"),
        (["dispute", FALL, "--svg", "no-such-folder/fall.svg"], "cannot write no-such-folder/fall.svg: No such file or directory"),
        (["dispute", FALL, "--png", "no-such-folder/fall.png"], "cannot write no-such-folder/fall.png: No such file or directory"),
    ],
)
def test_user_mistakes_exit_2_without_traceback(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    if "haunted" in argv and "haunted" not in GAMES:
        pytest.skip("haunted is not installed")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_dispute_pictures_of_several_scenarios_are_numbered_beside_the_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    second = str(DISPUTES / "front-door-is-locked.yaml")
    assert main(["dispute", FALL, second, "--svg", str(tmp_path / "fall.svg"), "--png", str(tmp_path / "fall.png")]) == 0
    assert "2 passed, 0 failed" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fall-1.png", "fall-1.svg", "fall-2.png", "fall-2.svg"]
    assert (tmp_path / "fall-1.png").read_bytes().startswith(b"\x89PNG")
    assert (tmp_path / "fall-1.svg").read_text() != (tmp_path / "fall-2.svg").read_text()


def test_broken_transcript_names_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: hauntcheck-transcript\nversion: 1\ngame: haunted\nplayers: 3\nsteps:\n- n: 1\n  actor: P1\n  action: {kind: x}\n  offered: lots\nend: {}\n")
    assert main(["replay", str(bad)]) == 2
    assert f"{bad}:9:12: error: offered: expected an integer, got 'lots'" in capsys.readouterr().err


def test_help_shows_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "examples:" in out and "hauntcheck verify" in out


def test_play_with_a_haunt_searches_for_a_seed_that_reveals_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "h10.yaml"
    assert main(["play", "betrayal", "--players", "5", "--seed", "0", "--haunt", "10", "--quiet", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert re.search(r"^seed \d+: the first policy game from seed 0", printed, re.MULTILINE)
    log = transcripts.read(out)
    assert log.end["terminal"] is True and log.end["result"] in ("heroes", "traitor")
    assert any("haunt 10" in event for step in log.steps for event in step.events)
    assert main(["replay", str(out)]) == 0


def test_play_refuses_a_haunt_it_cannot_play_yet(capsys: pytest.CaptureFixture[str]) -> None:
    haunts = Path(__file__).resolve().parents[1] / "spec" / "betrayal" / "haunts"
    unwritten = next((n for n in range(1, 51) if not any(haunts.glob(f"{n:02d}-*.yaml"))), None)
    if unwritten is None:
        pytest.skip("every haunt has a file")
    assert main(["play", "betrayal", "--players", "4", "--haunt", str(unwritten)]) == 2
    err = capsys.readouterr().err
    assert f"cannot play haunt {unwritten} to its end yet" in err and "Traceback" not in err


def test_betrayal_play_log_ends_with_the_haunt_and_the_traitor(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "betrayal", "--players", "4", "--seed", "7", "--stop", "reveal"]) == 0
    out = capsys.readouterr().out
    assert "haunt.traitor-from-table: haunt 39 (The Heir): the traitor is P4 (Brandon Jaspers)" in out
    assert "haunt 39: The Heir (revealed by P2 (Ox Bellows) with spear in balcony); traitor P4 (Brandon Jaspers)" in out
