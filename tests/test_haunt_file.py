"""A designer's own haunt, outside the package: linted and played from anywhere, numbered as the
designer likes, citing its own sources; and games started at the reveal (no seed search)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from hauntcheck.checks.solver import check_haunt, world_of
from hauntcheck.engine import betrayal
from hauntcheck.engine.betrayal.reveal import game_at_reveal, load_haunt_file, spec_with_haunt
from hauntcheck.engine.cli import main
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.spec import SPEC_ROOT

LYCANTHROPE = next((SPEC_ROOT / "betrayal" / "haunts").glob("05-*.yaml"))


def full_moon(folder: Path, number: str = "77") -> Path:
    """Haunt 5 copied out of the project, renumbered and renamed (as the issue's designer did)."""
    text = LYCANTHROPE.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^number: 5$", f"number: {number}" if number else "", text)
    text = re.sub(r"(?m)^title: .*$", "title: Full Moon Rising", text)
    text = re.sub(r"(?m)^slug: .*$", "slug: full-moon-rising", text)
    path = folder / "full-moon-rising.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def result_of(out: str) -> str:
    match = re.search(r"^game over: (\w+)", out, re.MULTILINE)
    assert match, out[-2000:]
    return match.group(1)


def test_a_renumbered_copy_of_haunt_5_lints_clean_and_plays_to_a_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = full_moon(tmp_path)
    assert main(["lint", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "1 file(s) OK"
    assert main(["play", "betrayal", "--players", "4", "--seed", "1", "--haunt-file", str(path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "haunt 77: Full Moon Rising" in out
    assert result_of(out) in ("heroes", "traitor")
    assert main(["play", "betrayal", "--players", "4", "--seed", "1", "--haunt-file", str(path), "--from-reveal",
                 "--out", str(tmp_path / "game.yaml")]) == 0
    out = capsys.readouterr().out
    assert "haunt 77 is played from there" in out
    assert result_of(out) in ("heroes", "traitor")
    # printed from the reveal on: the first step shown is the one after the exploration's last
    explored = int(re.search(r"reveal after (\d+) steps", out).group(1))  # type: ignore[union-attr]
    first_shown = int(re.search(r"^\s*(\d+) ", out.split("played from there", 1)[1].lstrip("\n"), re.MULTILINE).group(1))  # type: ignore[union-attr]
    assert first_shown == explored + 1
    # the transcript holds the whole game and replays with the same haunt file (and only with it)
    assert main(["replay", str(tmp_path / "game.yaml"), "--haunt-file", str(path)]) == 0
    assert "OK" in capsys.readouterr().out
    assert main(["replay", str(tmp_path / "game.yaml")]) == 2
    assert "replays with the same --haunt-file" in capsys.readouterr().err


def test_a_draft_without_a_number_cites_its_own_sources(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = full_moon(tmp_path, number="")
    text = path.read_text(encoding="utf-8")
    cite = text[text.index("cite:\n"):text.index("tables:\n")]
    path.write_text(text.replace(cite, "sources:\n  - {id: my-notes, title: Design notes}\ncite: {source: my-notes, section: Draft 1}\n"),
                    encoding="utf-8")
    assert main(["lint", str(path)]) == 0
    capsys.readouterr()
    assert main(["play", "betrayal", "--players", "3", "--seed", "2", "--haunt-file", str(path), "--quiet"]) == 0
    assert result_of(capsys.readouterr().out) in ("heroes", "traitor")
    # a citation of a source nobody lists is still an error
    path.write_text(path.read_text(encoding="utf-8").replace("{source: my-notes", "{source: other-notes"), encoding="utf-8")
    assert main(["lint", str(path)]) == 2
    assert "citation names 'other-notes'" in capsys.readouterr().err


def test_the_checks_on_the_books_haunts_stay_strict(tmp_path: Path) -> None:
    spec = game_spec("betrayal")
    world = world_of(spec)
    draft = load_haunt_file(full_moon(tmp_path))
    assert [f.message for f in check_haunt(draft, world).errors] == []
    # the same draft put among the book's haunts is refused
    bundled = dataclasses.replace(draft, path=SPEC_ROOT / "betrayal" / "haunts" / "77-full-moon-rising.yaml")
    assert [f.message for f in check_haunt(bundled, world).errors] == [
        "the haunts of spec/betrayal/haunts are the book's, numbered 1-50; a designer's draft lives outside the package"]
    # a book number keeps the traitor-table, chart and citation checks, and takes no sources of its own
    book = load_haunt_file(full_moon(tmp_path, number="5"))
    book = dataclasses.replace(book, data={**book.data, "sources": [{"id": "x", "title": "x"}], "cite": {"source": "x", "section": "y"}})
    messages = [f.message for f in check_haunt(book, world).errors]
    assert any("only a designer's draft" in m and "sources" in m for m in messages), messages
    assert any("cites where its Traitor's Tome" in m for m in messages), messages
    assert any("differs from traitors.yaml" in m for m in messages), messages


def test_a_drafts_chart_place_and_traitor_rule_are_its_own(tmp_path: Path) -> None:
    path = full_moon(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace("traitor: {rule: haunt-revealer}",
                                                             "traitor: {rule: left-of-revealer}\nchart: {room: chapel, omen: skull}"),
                    encoding="utf-8")
    spec = spec_with_haunt(game_spec("betrayal"), load_haunt_file(path))
    t = betrayal.tables(spec)
    assert t.chart[("chapel", "skull")] == 77
    assert t.haunts[77].traitor.kind == "left-of-revealer"
    assert t.haunts[77].title == "Full Moon Rising"


def test_game_at_reveal_starts_the_haunt_on_the_seeds_own_exploration() -> None:
    spec = game_spec("betrayal")
    for seed in (1, 2, 3):
        state, explored = game_at_reveal(spec, 8, 4, seed)
        assert state.haunt is not None and state.haunt["number"] == 8 and explored
        # the haunt has begun and nothing of it is decided yet: the next decision is its first
        assert state.hs is not None and state.hs.number == 8 and state.result is None
        assert state.to_move() is not None and state.hround <= 1


def test_a_haunt_file_the_engine_cannot_play_is_refused_naming_the_hook_at_its_line(tmp_path: Path,
                                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = full_moon(tmp_path)
    text = path.read_text(encoding="utf-8")
    step = "    - set_aside: {token: werewolf-marker"
    assert step in text
    text = text.replace(step, "    - {custom: flood-room, says: The cellar floods.}\n" + step, 1)
    path.write_text(text + "hooks:\n  - {id: flood-room, says: The cellar floods., why: Water is new to the vocabulary.}\n",
                    encoding="utf-8")
    lines = path.read_text(encoding="utf-8").splitlines()
    line = next(i for i, x in enumerate(lines, 1) if "flood-room" in x)
    column = lines[line - 1].index("flood-room") + 1
    assert main(["play", "betrayal", "--players", "4", "--seed", "1", "--haunt-file", str(path)]) == 2
    assert f"{path}:{line}:{column}: hook 'flood-room' is not registered" in capsys.readouterr().err
