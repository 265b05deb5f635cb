"""`hauntcheck balance`: the statistics, determinism whatever the workers, shards merged, the
JSON against its schema, replays from a record's seed, user mistakes, and the page in a browser.
Studies here are tiny (a few games); speed lives in benchmarks/bench_balance.py."""

from __future__ import annotations

import json
import os
import re
import statistics
from pathlib import Path
from typing import Any

import pytest
from browser_support import browser, chromium_available

from hauntcheck.engine.balance import page, report
from hauntcheck.engine.balance.stats import quantile, summarize, verdict, wilson
from hauntcheck.engine.balance.study import Backend, Study, run_study
from hauntcheck.engine.balance.subjects import SUBJECTS, Case
from hauntcheck.engine.cli import main

HALLS = ["balance", "halls-of-horror", "--haunt", "A", "--players", "1-2", "--games", "3", "--quiet"]
#: Haunt 1 is among the haunts explorations reveal most often, so its reveals are cheap to find.
BETRAYAL = ["balance", "betrayal", "--haunt", "1", "--players", "3", "--games", "2", "--quiet"]


def run(args: list[str], tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    out = tmp_path / name
    assert main([*args, "--out", str(out)]) == 0
    capsys.readouterr()
    document: dict[str, Any] = json.loads((out / "balance.json").read_text())
    return document


# --------------------------------------------------------------------------------------------
# statistics


def test_wilson_interval_matches_the_textbook_values() -> None:
    # Wilson (1927) score interval, z = 1.96: 5/10 -> [0.2366, 0.7634]; 0/10 -> [0, 0.2775].
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    low, high = wilson(0, 10)
    assert (round(low, 4), round(high, 4)) == (0.0, 0.2775)
    low, high = wilson(10, 10)
    assert (round(low, 4), round(high, 4)) == (0.7225, 1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_quantiles_interpolate_like_the_standard_library() -> None:
    values = sorted([3, 9, 4, 17, 4, 8, 12, 30, 1, 6, 6, 5])
    deciles = statistics.quantiles(values, n=10, method="inclusive")
    assert quantile(values, 0.1) == pytest.approx(deciles[0])
    assert quantile(values, 0.9) == pytest.approx(deciles[8])
    assert quantile(values, 0.5) == pytest.approx(statistics.median(values))


def _records(players: int, traitor: int, heroes: int) -> list[dict[str, Any]]:
    endings = ["traitor"] * traitor + ["heroes"] * heroes
    return [{"ending": e, "condition": f"{e}-goal", "rounds": 3, "steps": 50, "players": players} for e in endings]


def test_verdict_names_the_favoured_side_at_the_run_of_player_counts_pooled() -> None:
    endings = SUBJECTS["betrayal"].endings
    cells = {"3": summarize(_records(3, 10, 10), endings), "4": summarize(_records(4, 11, 9), endings),
             "5": summarize(_records(5, 18, 2), endings), "6": summarize(_records(6, 17, 3), endings)}
    line = verdict(cells, ("heroes", "traitor"))
    # 35 of 40 pooled at 5-6 players: 88 % with Wilson [74, 95].
    assert line == "traitor favoured at 5-6 players: 88 % [74, 95]"
    even = {"3": summarize(_records(3, 10, 10), endings)}
    assert verdict(even, ("heroes", "traitor")).startswith("no side wins more than half")
    # 3 of 4 at each count is sure nowhere, but 12 of 16 pooled is: Wilson low 0.505, shown as 50.
    leaning = {str(p): summarize(_records(p, 3, 1), endings) for p in (3, 4, 5, 6)}
    assert verdict(leaning, ("heroes", "traitor")) == "traitor favoured over all player counts pooled: 75 % [50, 90]"
    assert cells["5"]["top_condition"] == {"condition": "traitor-goal", "count": 18}


# --------------------------------------------------------------------------------------------
# studies


def test_jobs_one_and_two_give_identical_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = run([*HALLS, "--jobs", "1"], tmp_path, "one", capsys)
    two = run([*HALLS, "--jobs", "2"], tmp_path, "two", capsys)
    assert (tmp_path / "one" / "balance.json").read_bytes() == (tmp_path / "two" / "balance.json").read_bytes()
    assert len(one["records"]) == 6 and one["complete"]
    assert one == two
    assert report.validation_errors(one) == []


def test_betrayal_study_starts_at_the_reveal_and_is_the_same_on_two_jobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = run([*BETRAYAL, "--jobs", "1"], tmp_path, "one", capsys)
    two = run([*BETRAYAL, "--jobs", "2"], tmp_path, "two", capsys)
    assert one == two
    assert report.validation_errors(one) == []
    assert one["study"]["start"] == "reveal"
    haunt = one["haunts"][0]
    assert haunt["haunt"] == "1" and haunt["title"] == "The Mummy Walks"
    # The summary table names the hooks the haunt still needs as code, as the spec declares them.
    from hauntcheck.engine.balance.command import summary_markdown
    from hauntcheck.engine.betrayal.haunt import support
    from hauntcheck.engine.games import game_spec

    hooks = support(game_spec("betrayal"))[1]["hooks"]
    assert hooks and haunt["hooks"] == hooks
    assert summary_markdown(one).splitlines()[2].startswith("| 1 | The Mummy Walks | " + ", ".join(f"`{h}`" for h in hooks) + " | 2 | ")
    assert {r["ending"] for r in one["records"]} <= {"heroes", "traitor", "nobody", "undecided"}
    # Every game counted was a game of haunt 1 with a recorded seed, and the seeds differ.
    assert len({r["seed"] for r in one["records"]}) == 2
    # The record replays: `hauntcheck play --from-reveal` plays the exploration and then the
    # haunt; the haunt's part is the record's game.
    record = one["records"][0]
    command = one["replay"].format(players=record["players"], seed=record["seed"], haunt=record["haunt"]).split()
    assert "--from-reveal" in command
    from hauntcheck.engine import transcript as transcripts
    from hauntcheck.engine.betrayal.policy import policy
    from hauntcheck.engine.betrayal.reveal import game_at_reveal
    from hauntcheck.engine.games import game_spec
    from hauntcheck.engine.play import PolicyController

    assert main([*command[1:], "--quiet", "--out", str(tmp_path / "game.yaml")]) == 0
    capsys.readouterr()
    whole = transcripts.read(tmp_path / "game.yaml")
    _, explored = game_at_reveal(game_spec("betrayal"), 1, record["players"], record["seed"], None,
                                 PolicyController(policy, record["seed"]))
    assert whole.end["result"] == record["result"]
    assert len(whole.steps) - len(explored) == record["steps"]


def test_shards_merge_into_the_whole_study(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole = run(HALLS, tmp_path, "whole", capsys)
    first = run([*HALLS, "--shard", "1/2"], tmp_path, "s1", capsys)
    second = run([*HALLS, "--shard", "2/2"], tmp_path, "s2", capsys)
    assert not first["complete"] and len(first["records"]) + len(second["records"]) == len(whole["records"])
    assert main(["balance", "merge", str(tmp_path / "s2" / "balance.json"), str(tmp_path / "s1" / "balance.json"),
                 "--out", str(tmp_path / "merged")]) == 0
    capsys.readouterr()
    assert (tmp_path / "merged" / "balance.json").read_bytes() == (tmp_path / "whole" / "balance.json").read_bytes()
    # The same shard twice is a game counted twice: refused, naming both files.
    assert main(["balance", "merge", str(tmp_path / "s1" / "balance.json"), str(tmp_path / "s1" / "balance.json")]) == 2
    assert "is also in" in capsys.readouterr().err


def test_an_engine_failure_in_a_game_names_the_game_and_its_replay(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from hauntcheck.engine.balance import study as study_module

    def failing_play(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("pentagram-chamber")  # as an engine bug once did, mid-game

    monkeypatch.setattr(study_module, "play", failing_play)
    assert main([*HALLS, "--jobs", "1"]) == 3
    err = capsys.readouterr().err
    assert "internal error in `balance`" in err
    assert "haunt A at 1 player, game 0: KeyError: 'pentagram-chamber'" in err
    assert "replay it: hauntcheck play halls-of-horror --players 1 --seed 0" in err


def test_studies_of_different_haunts_merge_into_the_study_of_both(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    both = run([*HALLS[:3], "A", "--haunt", "B", *HALLS[4:]], tmp_path, "both", capsys)
    run(HALLS, tmp_path, "a", capsys)
    run([*HALLS[:3], "B", *HALLS[4:]], tmp_path, "b", capsys)
    assert main(["balance", "merge", str(tmp_path / "a" / "balance.json"), str(tmp_path / "b" / "balance.json"),
                 "--out", str(tmp_path / "merged")]) == 0
    capsys.readouterr()
    assert json.loads((tmp_path / "merged" / "balance.json").read_text()) == both
    # Studies whose settings differ beyond the haunts are not one study.
    run([*HALLS[:3], "B", *HALLS[4:7], "2", *HALLS[8:]], tmp_path, "b2", capsys)
    assert main(["balance", "merge", str(tmp_path / "a" / "balance.json"), str(tmp_path / "b2" / "balance.json")]) == 2
    assert "differs in: games" in capsys.readouterr().err


def test_dask_backend_gives_the_numbers_of_jobs() -> None:
    pytest.importorskip("distributed")
    subject = SUBJECTS["halls-of-horror"]
    study = Study("halls-of-horror", (Case("A", "room deck A", {"variant": "A"}),), (1, 2), 3, "policy")
    local = run_study(study, Backend("local", jobs=2))
    cluster = run_study(study, Backend("dask", jobs=2))
    assert cluster == local
    assert report.build(study, cluster) == report.build(study, local)
    assert {r["ending"] for r in local} <= set(subject.endings)


def test_a_record_replays_with_hauntcheck_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = run(HALLS, tmp_path, "study", capsys)
    record = document["records"][-1]
    command = document["replay"].format(players=record["players"], seed=record["seed"], haunt=record["haunt"], options="--variant A").split()
    assert command[:2] == ["hauntcheck", "play"]
    assert main([*command[1:], "--quiet", "--out", str(tmp_path / "game.yaml")]) == 0
    capsys.readouterr()
    from hauntcheck.engine import transcript as transcripts

    replayed = transcripts.read(tmp_path / "game.yaml")
    assert replayed.end["result"] == record["result"]
    assert len(replayed.steps) == record["steps"]


def test_the_schema_refuses_a_document_that_breaks_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = run(HALLS, tmp_path, "study", capsys)
    broken = json.loads(json.dumps(document))
    broken["version"] = 2
    del broken["records"][0]["seed"]
    errors = report.validation_errors(broken)
    assert any(e.startswith("version:") for e in errors)
    assert any(e.startswith("records/0:") and "'seed' is a required property" in e for e in errors)


#: A haunt with no file yet, which the engine cannot play.
#: A haunt number the engine does not play: the first of 1-50 with no file (none, now that all 50
#: are written), else one past the chart.
UNWRITTEN = next((n for n in range(1, 51) if not any((Path(__file__).resolve().parents[1] / "spec" / "betrayal" / "haunts")
                                                      .glob(f"{n:02d}-*.yaml"))), 51)


@pytest.mark.parametrize(("args", "message"), [
    (["balance", "betrayal", "--players", "2-4"], "betrayal is for 3-6 players; --players asks for 2"),
    (["balance", "betrayal", "--haunt", str(UNWRITTEN)], f"--haunt {UNWRITTEN}: not a haunt the engine plays to its end"),
    (["balance", "betrayal", "--shard", "3/2"], "--shard is I/N with 1 <= I <= N"),
    (["balance", "haunted", "--controller", "policy"], "haunted has no policy controller yet"),
    (["balance", "chess"], "unknown game 'chess'"),
    (["balance", "merge"], "balance merge needs the balance.json files"),
])
def test_mistakes_exit_2_with_a_message(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    assert message in capsys.readouterr().err


def test_merge_names_the_bad_file_line_and_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "balance.json"
    bad.write_text('{\n  "format": "hauntcheck-balance",\n  "version": 1,,\n}\n')
    assert main(["balance", "merge", str(bad)]) == 2
    assert f"{bad}:3:16: not JSON" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# the page


def require_chromium() -> None:
    """Skip when there is no browser; under CI (CI=true) fail instead, so the browser test can
    never be skipped there unnoticed."""
    if chromium_available():
        return
    why = "headless Chromium is not installed (apt-get install chromium chromium-driver; pip install selenium)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but {why}")
    pytest.skip(why)


def test_the_page_shows_every_plot_in_a_browser(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    require_chromium()
    args = ["balance", "halls-of-horror", "--haunt", "A", "--haunt", "B", "--players", "1-3", "--games", "3", "--quiet"]
    document = run(args, tmp_path, "study", capsys)
    html_file = tmp_path / "study" / "balance.html"
    text = html_file.read_text()
    # Self-contained: nothing to fetch (no scripts, links, or remote sources; namespaces are names only).
    assert "<script" not in text and "<link" not in text
    assert not re.search(r'(src|href)="(https?:)?//', text)
    from selenium.webdriver.common.by import By

    with browser() as driver:
        driver.get(html_file.as_uri())
        figures = driver.find_elements(By.CSS_SELECTOR, "figure.plot")
        assert len(figures) == 2 * len(document["haunts"]) == 4
        for figure in figures:
            svg = figure.find_element(By.TAG_NAME, "svg")
            assert svg.is_displayed()
            assert svg.size["width"] > 200 and svg.size["height"] > 100, figure.get_attribute("data-plot")
        rows = driver.find_elements(By.CSS_SELECTOR, "#imbalance tbody tr")
        assert [r.find_elements(By.TAG_NAME, "td")[0].text for r in rows] == [h["haunt"] for h in document["haunts"]]
        driver.execute_script("arguments[0].scrollIntoView()", figures[0])
        shot = tmp_path / "shot.png"
        driver.save_screenshot(str(shot))
    from PIL import Image

    with Image.open(shot) as image:
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50, "the screenshot is (nearly) one colour"
    assert page.PALETTE[0].lower() in text.lower()


def test_a_haunt_file_stands_in_for_the_bundled_haunt_of_its_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hauntcheck.engine.balance.study import study_spec
    from hauntcheck.engine.betrayal.haunt import haunt_tables
    from hauntcheck.engine.games import game_spec

    bundled = next(f for f in game_spec("betrayal").by_kind("haunt") if f.data["number"] == 1)
    mine = tmp_path / "weak-mummy.yaml"
    text = bundled.path.read_text()
    assert "stats: {speed: 3, might: 8, sanity: 5}" in text
    mine.write_text(text.replace("stats: {speed: 3, might: 8, sanity: 5}", "stats: {speed: 3, might: 1, sanity: 5}"))
    spec = study_spec("betrayal", str(mine))
    assert [f.path for f in spec.by_kind("haunt") if f.data["number"] == 1] == [mine]
    record, _ = haunt_tables(spec)[0][1]
    assert [m.stats.get("might") for m in record.monsters.values() if m.stats] == [1]
    # A haunt file that fails `hauntcheck lint` is refused with lint's message, naming its line.
    wrong = tmp_path / "renamed.yaml"
    wrong.write_text(text.replace("title: The Mummy Walks", "title: My Mummy"))
    assert main(["balance", "betrayal", "--haunt-file", str(wrong), "--games", "1", "--quiet"]) == 2
    assert f"{wrong}:6:8: error: [chart] title 'My Mummy' differs" in capsys.readouterr().err


def test_a_game_from_setup_replays_with_hauntcheck_play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["balance", "betrayal", "--haunt", "1", "--players", "3", "--games", "1", "--from-setup", "--quiet"]
    document = run(args, tmp_path, "study", capsys)
    assert document["study"]["start"] == "setup"
    record = document["records"][0]
    command = document["replay"].format(players=record["players"], seed=record["seed"], haunt=record["haunt"], options="").split()
    assert main([*command[1:], "--quiet", "--out", str(tmp_path / "game.yaml")]) == 0
    capsys.readouterr()
    from hauntcheck.engine import transcript as transcripts

    replayed = transcripts.read(tmp_path / "game.yaml")
    assert (replayed.end["result"], len(replayed.steps)) == (record["result"], record["steps"])
    assert any("haunt 1" in event for step in replayed.steps for event in step.events)


def test_update_doc_rewrites_only_the_table_between_the_markers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hauntcheck.engine.balance.command import DOC_BEGIN, DOC_END

    doc = tmp_path / "balance.md"
    doc.write_text(f"# Before\n\n{DOC_BEGIN}\nold table\n{DOC_END}\n\nAfter.\n")
    assert main([*HALLS, "--update-doc", str(doc)]) == 0
    capsys.readouterr()
    text = doc.read_text()
    assert text.startswith(f"# Before\n\n{DOC_BEGIN}\n| haunt | title | games | escape (pooled) | killer (pooled) | undecided |")
    assert text.endswith(f"{DOC_END}\n\nAfter.\n") and "old table" not in text
    assert "\n| A | room deck A | 6 | " in text
    plain = tmp_path / "plain.md"
    plain.write_text("no markers\n")
    assert main([*HALLS, "--update-doc", str(plain)]) == 2
    assert "has no <!-- balance-summary:begin -->" in capsys.readouterr().err


def test_a_designers_draft_haunt_is_studied_and_its_games_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    draft = Path(__file__).resolve().parent.parent / "docs" / "examples" / "the-hungry-cellar.yaml"
    if not draft.exists():
        pytest.skip("the example draft haunt is not in this checkout")
    args = ["balance", "betrayal", "--haunt-file", str(draft), "--players", "3", "--games", "2", "--quiet"]
    document = run(args, tmp_path, "study", capsys)
    assert report.validation_errors(document) == []
    assert [h["title"] for h in document["haunts"]] == ["The Hungry Cellar"]
    record = document["records"][1]
    command = document["replay"].format(players=record["players"], seed=record["seed"], haunt=record["haunt"]).split()
    assert command[1:6] == ["play", "betrayal", "--haunt-file", str(draft), "--from-reveal"]
    assert main([*command[1:], "--quiet", "--out", str(tmp_path / "game.yaml")]) == 0
    capsys.readouterr()
    from hauntcheck.engine import transcript as transcripts

    assert transcripts.read(tmp_path / "game.yaml").end["result"] == record["result"]
