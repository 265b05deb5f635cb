"""PNG pictures (engine/picture.py on resvg, `hauntcheck dispute --png`): a Betrayal dispute and a
Halls of Horror position come out as PNG files the size of their SVG, with the SVG's fills at the
SVG's places; the Betrayal picture's heading fits, its labels stay in their tiles and it has a
legend; and without resvg-py the CLI says what to install and exits 2. resvg-py (and Pillow, to
read the PNGs back) are in the test extra, so these tests run wherever the suite does."""

from __future__ import annotations

import io
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from hauntcheck.engine import picture
from hauntcheck.engine.cli import main
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.halls import build_position
from hauntcheck.engine.halls import draw_svg as halls_svg
from hauntcheck.engine.picture import INSTALL_HINT, PictureError, svg_to_png

ROOT = Path(__file__).resolve().parent.parent
DISPUTES = ROOT / "scenarios" / "betrayal" / "disputes"
NS = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


def placed(svg: str) -> Iterator[tuple[ET.Element, float, float]]:
    """Every element with the sum of the translations around it (the test's own reading)."""

    def visit(parent: ET.Element, dx: float, dy: float) -> Iterator[tuple[ET.Element, float, float]]:
        for element in parent:
            yield element, dx, dy
            transform = element.get("transform", "translate(0,0)")
            x, y = transform.removeprefix("translate(").removesuffix(")").split(",")
            yield from visit(element, dx + float(x), dy + float(y))

    yield from visit(ET.fromstring(svg), 0.0, 0.0)


def title(element: ET.Element) -> str:
    found = element.find(f"{NS}title")
    return found.text or "" if found is not None else ""


def pixel(image: Image.Image, x: float, y: float) -> tuple[int, int, int]:
    value = image.getpixel((int(x), int(y)))
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def open_png(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def svg_size(svg: str) -> tuple[int, int]:
    root = ET.fromstring(svg)
    return int(root.get("width", "0")), int(root.get("height", "0"))


def dispute_pictures(tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> tuple[str, Image.Image]:
    svg_path, png_path = tmp_path / "case.svg", tmp_path / "case.png"
    assert main(["dispute", str(DISPUTES / name), "--svg", str(svg_path), "--png", str(png_path)]) == 0
    out = capsys.readouterr().out
    assert f"picture: {svg_path}" in out and f"picture: {png_path}" in out
    return svg_path.read_text(), open_png(png_path.read_bytes())


# --------------------------------------------------------------------------------------------
# whole positions


def test_betrayal_dispute_png_has_the_svg_size_and_its_rooms_walls_and_explorers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg, image = dispute_pictures(tmp_path, "collapsed-room-first-discoverer-falls.yaml", capsys)
    assert image.size == svg_size(svg)
    elements = list(placed(svg))
    # The Foyer's floor, in both panels: a corner of the tile where nothing else is drawn.
    foyers = [(e, dx, dy) for e, dx, dy in elements if e.tag == f"{NS}rect" and title(e).endswith("(foyer)")]
    assert len(foyers) == 2
    for rect, dx, dy in foyers:
        x, y = float(rect.get("x", 0)) + dx, float(rect.get("y", 0)) + dy
        assert pixel(image, x + 12, y + 40) == rgb(rect.get("fill", "")) == rgb("#fffdf8")
    # A wall: the middle of a full side of a room (no door there) is the wall's colour.
    walls = [(e, dx, dy) for e, dx, dy in elements
             if e.tag == f"{NS}line" and e.get("stroke") == "#333" and e.get("x1") == e.get("x2")
             and abs(float(e.get("y2", 0)) - float(e.get("y1", 0))) > 100]
    assert walls
    for line, dx, dy in walls[:6]:
        x = float(line.get("x1", 0)) + dx
        y = (float(line.get("y1", 0)) + float(line.get("y2", 0))) / 2 + dy
        assert pixel(image, x, y) == rgb("#333")
        assert pixel(image, x + 6, y) != rgb("#333")  # and only about as wide as its stroke
    # Explorers: above the seat label, inside the circle, the seat's colour.
    circles = [(e, dx, dy) for e, dx, dy in elements if e.tag == f"{NS}circle" and title(e).startswith("P1:")]
    assert len(circles) == 2
    for circle, dx, dy in circles:
        cx, cy = float(circle.get("cx", 0)) + dx, float(circle.get("cy", 0)) + dy
        assert pixel(image, cx, cy - 6) == rgb(circle.get("fill", "")) == rgb("#d62728")
    # The locked front door, a red bar on the Entrance Hall's wall.
    door = next((e, dx, dy) for e, dx, dy in elements if title(e) == "front door (locked)")
    rect, dx, dy = door
    x, y = float(rect.get("x", 0)) + dx, float(rect.get("y", 0)) + dy
    assert pixel(image, x + float(rect.get("width", 0)) / 2, y + float(rect.get("height", 0)) / 2) == rgb("#c00")


def test_betrayal_haunt_position_draws_a_stunned_monster(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg, image = dispute_pictures(tmp_path, "moving-past-opponents-costs-extra.yaml", capsys)
    assert image.size == svg_size(svg)
    monsters = [(e, dx, dy) for e, dx, dy in placed(svg) if e.tag == f"{NS}polygon" and title(e)]  # not the legend's
    assert monsters and all("(stunned)" in title(e) for e, _, _ in monsters)
    for polygon, dx, dy in monsters:
        xs = [float(v) for v in polygon.get("points", "").replace(",", " ").split()[0::2]]
        ys = [float(v) for v in polygon.get("points", "").replace(",", " ").split()[1::2]]
        assert pixel(image, sum(xs) / len(xs) + dx, sum(ys) / len(ys) + dy) == rgb("#e6dcf2")


def test_halls_position_png_shows_its_rooms_and_the_killer() -> None:
    state = build_position(game_spec("halls-of-horror"), 3, {}, {
        "rooms": {"r12a": {"at": [1, 1], "temp": True}, "r02a": {"at": [2, 2], "locked": True},
                  "r05a": {"at": [1, 0], "gift": "gift-knife", "exhausted": True}},
        "participants": {"P1": {"room": [1, 1]}}})
    svg = halls_svg(state)
    image = open_png(svg_to_png(svg))
    assert image.size == svg_size(svg)
    rects = [(e, dx, dy) for e, dx, dy in placed(svg) if e.tag == f"{NS}rect"]
    fills = {e.get("fill") for e, _, _ in rects}
    assert {"#444", "#bbb", "#e4dccb", "#ffd700", "#b00"} <= fills  # locked, face down, exhausted, gift, Killer
    for rect, dx, dy in rects:
        x, y = float(rect.get("x", 0)) + dx, float(rect.get("y", 0)) + dy
        if float(rect.get("width", 0)) >= 100:  # a room: a point inside, clear of its name, notes and figures
            assert pixel(image, x + 4, y + 26) == rgb(rect.get("fill", ""))
        elif rect.get("fill") == "#b00":  # the Killer: the middle of the K's square is left of the K
            assert pixel(image, x + 3, y + 3) == rgb("#b00")
    temp = next((e, dx, dy) for e, dx, dy in rects if e.get("stroke") == "#ff7f0e")
    rect, dx, dy = temp
    assert pixel(image, float(rect.get("x", 0)) + dx + float(rect.get("width", 0)) / 2, float(rect.get("y", 0)) + dy) == rgb("#ff7f0e")


def test_a_stunned_killer_is_a_hollow_square() -> None:
    state = build_position(game_spec("halls-of-horror"), 3, {}, {"killer": {"stunned": True}})
    svg = halls_svg(state)
    killer = next((e, dx, dy) for e, dx, dy in placed(svg) if e.tag == f"{NS}rect" and e.get("stroke") == "#b00")
    rect, dx, dy = killer
    assert rect.get("fill") == "none"
    image = open_png(svg_to_png(svg))
    x, y = float(rect.get("x", 0)) + dx, float(rect.get("y", 0)) + dy
    assert pixel(image, x, y + 8) == rgb("#b00")  # the outline
    assert pixel(image, x + 3, y + 3) != rgb("#b00")  # the inside shows the room


# --------------------------------------------------------------------------------------------
# pictures drawn for the page and the legend


def test_the_heading_fits_and_labels_stay_inside_their_tiles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg, image = dispute_pictures(tmp_path, "moving-past-opponents-costs-extra.yaml", capsys)
    root = ET.fromstring(svg)
    width = float(root.get("width", "0"))
    heading = next(e for e in root.iter(f"{NS}text"))
    assert len(heading.text or "") * 13 * 0.62 + float(heading.get("x", "0")) < width  # the heading is not cut off
    assert any((e.text or "") == "legend" for e in root.iter(f"{NS}text"))
    for group, _, _ in placed(svg):
        if group.get("data-place") is None:
            continue
        tile = next(e for e in group if e.get("class") == "tile")
        left = float(tile.get("x", 0))
        right = left + float(tile.get("width", 0))
        for text in group.iter(f"{NS}text"):
            x, size = float(text.get("x", 0)), float(text.get("font-size", 0))
            span = len(text.text or "") * size * 0.62
            start = {"start": x, "middle": x - span / 2, "end": x - span}[text.get("text-anchor", "start")]
            assert left - 2 <= start and start + span <= right + 2, (group.get("data-place"), text.text)
    assert image.size == svg_size(svg)


def test_broken_svg_is_refused_by_name() -> None:
    with pytest.raises(PictureError, match=r"not well-formed SVG: .*line 1"):
        svg_to_png('<svg width="10" height="10"><rect></svg>')
    with pytest.raises(PictureError, match="not <svg>"):
        svg_to_png("<html/>")


# --------------------------------------------------------------------------------------------
# without the renderer


def test_without_resvg_the_cli_names_the_extra_and_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "resvg_py", None)  # an import of it now fails
    with pytest.raises(PictureError, match="pip install 'hauntcheck\\[png\\]'"):
        picture.require_renderer()
    out = tmp_path / "case.png"
    code = main(["dispute", str(DISPUTES / "collapsed-room-first-discoverer-falls.yaml"), "--png", str(out)])
    captured = capsys.readouterr()
    assert code == 2
    assert f"hauntcheck: error: --png: drawing PNG pictures needs resvg-py, which is not installed: {INSTALL_HINT}" in captured.err
    assert "Traceback" not in captured.err
    assert "verdict" not in captured.out  # it stops before running anything
    assert not out.exists()
    # --svg alone needs no renderer.
    assert main(["dispute", str(DISPUTES / "collapsed-room-first-discoverer-falls.yaml"), "--svg", str(tmp_path / "case.svg")]) == 0
