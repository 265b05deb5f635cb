"""`hauntcheck view`: a golden game or a scenario as one offline page, and that page driven in a
real (headless) browser: stepped through with the keyboard, filtered, and seen to show the house."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from browser_support import browser, require_chromium
from PIL import Image

from hauntcheck.engine.cli import main
from hauntcheck.engine.transcript import read
from hauntcheck.engine.viewer import build_view, render_html

ROOT = Path(__file__).resolve().parent.parent
HAUNT_GAME = ROOT / "scenarios" / "betrayal" / "haunts" / "01-the-mummy-walks" / "haunt-1-heroes-3p-seed-205.yaml"
SCENARIO = ROOT / "scenarios" / "betrayal" / "disputes" / "leaving-an-opponent-costs-the-whole-step.yaml"
GROUND_FILL = (0xF6, 0xF1, 0xE7)  # the ground floor's panel colour in the Betrayal picture


def page_data(page: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert found is not None
    data = json.loads(found.group(1))
    assert isinstance(data, dict)
    return data


def test_a_golden_game_page_holds_every_step(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    assert main(["view", str(HAUNT_GAME), "--html", str(out)]) == 0
    page = out.read_text()
    # nothing is fetched from anywhere: no address but the SVG namespace (plain, or escaped in JSON)
    assert "http" not in re.sub(r'xmlns=\\?"http://www\.w3\.org/2000/svg\\?"', "", page)
    assert " src=" not in page and "<link" not in page
    data = page_data(page)
    log = read(HAUNT_GAME)
    frames = data["frames"]
    assert isinstance(frames, list) and len(frames) == len(log.steps) + 1
    for frame, step in zip(frames[1:], log.steps, strict=True):
        assert (frame["n"], frame["actor"], frame["action"], frame["offered"]) == (step.n, step.actor, str(step.action),
                                                                                    step.offered)
        assert [f"{rule}: {text}" for rule, text in frame["events"]] == step.events
    rules = data["rules"]
    assert isinstance(rules, dict)
    assert rules["move.opponent-slows"]["cite"].startswith("000_336c2a25d56b68e6.txt")
    assert data["ending"] == "heroes: P1, P2 won"


def test_a_move_outlines_the_rooms_it_changed() -> None:
    view = build_view(SCENARIO)
    moved = next(f for f in view.frames if f.action.startswith("move"))
    assert moved.changed == ["entrance-hall", "foyer"]
    accepted = next(f for f in view.frames if f.action.startswith("accept"))
    assert accepted.changed == []  # a trade moves nothing on the picture
    assert 'data-place="foyer"' in view.pictures[moved.picture]
    assert "FAIL" not in render_html(view)


def test_a_file_that_is_neither_is_refused_at_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = ROOT / "spec" / "betrayal" / "rules.yaml"
    assert main(["view", str(rules), "--html", str(tmp_path / "x.html")]) == 2
    assert f"{rules}:3:7: error: hauntcheck view shows transcripts and scenarios, not kind 'rules'" in capsys.readouterr().err
    assert not (tmp_path / "x.html").exists()


def pixels(image: Image.Image) -> list[tuple[int, ...]]:
    data = image.convert("RGB").tobytes()
    return [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]


def coloured(image: Image.Image, colour: tuple[int, int, int]) -> int:
    return sum(1 for pixel in pixels(image) if pixel == colour)


@pytest.mark.long
def test_the_page_in_a_browser(tmp_path: Path) -> None:
    require_chromium()
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    out = tmp_path / "game.html"
    assert main(["view", str(HAUNT_GAME), "--html", str(out)]) == 0
    steps = len(read(HAUNT_GAME).steps)
    with browser() as driver:
        driver.get(out.as_uri())
        # the pictures are unpacked in the browser, after the page has loaded
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
        where = driver.find_element(By.ID, "where")
        assert where.text == "start"
        body = driver.find_element(By.TAG_NAME, "body")
        for _ in range(40):
            body.send_keys(Keys.ARROW_RIGHT)
        assert where.text == f"step 40 of {steps}"
        body.send_keys(Keys.ARROW_LEFT)
        assert where.text == f"step 39 of {steps}"
        assert driver.find_element(By.ID, "scrub").get_attribute("value") == "39"
        assert driver.find_element(By.CSS_SELECTOR, "#steps li.current").get_attribute("id") == "step-39"
        body.send_keys(Keys.END)
        assert where.text == f"step {steps} of {steps}"
        rooms = driver.find_elements(By.CSS_SELECTOR, "#picture svg g[data-place]")
        assert len(rooms) > 10
        picture = driver.find_element(By.CSS_SELECTOR, "#picture svg")
        shot = Image.open(io.BytesIO(picture.screenshot_as_png))
        assert shot.width > 300 and shot.height > 300
        assert coloured(shot, GROUND_FILL) > 2000  # the ground floor is drawn, not a blank box
        assert len(set(pixels(shot))) > 20  # many colours: tiles, walls, figures, text
        page = Image.open(io.BytesIO(driver.get_screenshot_as_png()))
        assert coloured(page, GROUND_FILL) > 2000

        # filter by seat: only P2's steps stay listed, and the arrow keys walk through them
        driver.find_element(By.CSS_SELECTOR, "#seat option[value='P2']").click()
        shown = [li for li in driver.find_elements(By.CSS_SELECTOR, "#steps > li") if li.is_displayed()]
        listed = [li.find_element(By.CLASS_NAME, "head").text for li in shown[1:]]
        assert listed and all(re.match(r"#\d+ P2: ", text) for text in listed)
        body.send_keys(Keys.HOME)
        body.send_keys(Keys.ARROW_RIGHT)
        first_p2 = re.match(r"#(\d+) ", listed[0])
        assert first_p2 is not None and where.text == f"step {first_p2.group(1)} of {steps}"

        # filter by rule, then follow a rule link to its clause and citation
        driver.find_element(By.CSS_SELECTOR, "#seat option[value='']").click()
        rule_box = driver.find_element(By.ID, "rule")
        rule_box.send_keys("move.opponent-slows")
        shown = [li for li in driver.find_elements(By.CSS_SELECTOR, "#steps > li") if li.is_displayed()]
        assert 1 < len(shown) < steps
        link = shown[1].find_element(By.CSS_SELECTOR, "a[href='#rule-move.opponent-slows']")
        link.click()
        clause = driver.find_element(By.ID, "rule-move.opponent-slows")
        described = clause.find_element(By.XPATH, "following-sibling::dd[1]").text
        assert "extra space" in described and "cite: 000_336c2a25d56b68e6.txt" in described


def test_haunted_has_a_picture_of_its_table() -> None:
    golden = ROOT / "scenarios" / "haunted" / "golden" / "two-players-seed-64.yaml"
    view = build_view(golden)
    log = read(golden)
    state_after = view.frames[-1]
    svg = view.pictures[state_after.picture]
    assert len(view.frames) == len(log.steps) + 1 and all(f.picture >= 0 for f in view.frames)
    cards = re.findall(r'<g data-place="([^"]+)">', svg)
    assert "AD" in cards and len(cards) == len(set(cards)) > 5  # every card on the table, once
    assert "legend" in svg and "WILL" in svg
    assert re.search(r'class="tile"[^>]*fill="#c9c9c9"', svg) and "\u2666" in svg  # a face-down card, a diamond
    # a turn that moves a player outlines the card left and the card reached
    moves = [f for f in view.frames if f.action.startswith("move")]
    assert moves and all(len(f.changed) >= 1 for f in moves)


def test_a_scenario_whose_position_cannot_be_built_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "case.yaml"
    bad.write_text("spec_version: 2\nkind: scenario\ngame: betrayal\ntitle: t\nsource: {rules: [haunt.roll]}\n"
                   "rules: [haunt.roll]\nplayers: 3\nposition:\n  where: {P1: atic}\nsteps: [{note: x}]\n")
    assert main(["view", str(bad), "--html", str(tmp_path / "x.html")]) == 2
    assert capsys.readouterr().err == f"{bad}:9:15: error: unknown room 'atic' (did you mean attic?)\n"
    assert not (tmp_path / "x.html").exists()
