"""PNG pictures (engine/picture.py, `hauntcheck dispute --png`): a Betrayal dispute and a Halls of
Horror position come out as PNG files the size of their SVG, with the SVG's fills at the SVG's
places; text, dashes and bold are drawn; anything outside our SVG subset is refused by name; and
without Pillow the CLI says what to install and exits 2. Pillow is in the test extra, so these
tests run wherever the suite does."""

from __future__ import annotations

import io
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFont

from hauntcheck.engine import picture
from hauntcheck.engine.cli import main
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.halls import build_position
from hauntcheck.engine.halls import draw_svg as halls_svg
from hauntcheck.engine.picture import INSTALL_HINT, PictureError, render, svg_to_png

ROOT = Path(__file__).resolve().parent.parent
DISPUTES = ROOT / "scenarios" / "betrayal" / "disputes"
NS = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WHITE = (255, 255, 255)


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
    monsters = [(e, dx, dy) for e, dx, dy in placed(svg) if e.tag == f"{NS}polygon"]
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
    image = render(svg)
    x, y = float(rect.get("x", 0)) + dx, float(rect.get("y", 0)) + dy
    assert pixel(image, x, y + 8) == rgb("#b00")  # the outline
    assert pixel(image, x + 3, y + 3) != rgb("#b00")  # the inside shows the room


# --------------------------------------------------------------------------------------------
# the subset, piece by piece


def small(body: str, width: int = 120, height: int = 40) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">{body}</svg>'


def ink(image: Image.Image) -> tuple[int, int, int, int]:
    """The box of every pixel that is not white."""
    box = ImageChops.difference(image, Image.new("RGB", image.size, WHITE)).getbbox()
    assert box is not None, "nothing was drawn"
    return box


def test_translations_add_up_and_titles_draw_nothing() -> None:
    nested = render(small('<g transform="translate(10,5)"><g transform="translate(20)">'
                          '<rect x="1" y="2" width="10" height="10" fill="#123456"><title>a tooltip</title></rect></g></g>'))
    assert ink(nested) == (31, 7, 41, 17)
    assert pixel(nested, 31, 7) == pixel(nested, 40, 16) == rgb("#123456")
    bare = render(small('<rect x="31" y="7" width="10" height="10" fill="#123456"/>'))
    assert ImageChops.difference(nested, bare).getbbox() is None


def test_text_is_drawn_at_its_anchor_and_on_its_baseline() -> None:
    boxes = {}
    for anchor in ("start", "middle", "end"):
        image = render(small(f'<text x="60" y="25" font-size="12" text-anchor="{anchor}" fill="#000">Hall 10 HP</text>'))
        boxes[anchor] = ink(image)
    assert boxes["start"][0] >= 59 and boxes["start"][2] > 90
    assert boxes["end"][2] <= 61 and boxes["end"][0] < 30
    left, _, right, _ = boxes["middle"]
    assert left < 60 < right and abs((left + right) / 2 - 60) <= 2
    for _, top, _, bottom in boxes.values():
        assert 10 <= top < 18 and 24 <= bottom <= 26  # capitals stand on the baseline at y=25


def test_text_has_its_fill_and_bold_is_heavier() -> None:
    normal = render(small('<text x="5" y="25" font-size="14" fill="#b00">Entrance Hall</text>'))
    bold = render(small('<text x="5" y="25" font-size="14" font-weight="bold" fill="#b00">Entrance Hall</text>'))
    assert rgb("#b00") in {pixel(normal, x, y) for x in range(120) for y in range(40)}

    def inked(image: Image.Image) -> int:
        return sum(1 for x in range(120) for y in range(40) if pixel(image, x, y) != WHITE)

    assert inked(bold) > inked(normal) * 1.15


def test_the_fallback_fonts_still_write_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(picture, "SYSTEM_FONTS", {"normal": "no-such-font.ttf", "bold": "no-such-font-bold.ttf"})
    builtin = ink(render(small('<text x="60" y="25" font-size="12" text-anchor="end" font-weight="bold">P1</text>')))
    assert builtin[2] <= 62 and builtin[3] <= 26
    # A Pillow without FreeType has only its bitmap font, which cannot be anchored.
    monkeypatch.setattr(ImageFont, "load_default", lambda size=None: ImageFont.load_default_imagefont())
    bitmap = ink(render(small('<text x="60" y="25" font-size="12" text-anchor="middle">Foyer</text>')))
    assert bitmap[0] < 60 < bitmap[2] and bitmap[3] <= 26


def test_dashes_leave_gaps_and_strokes_sit_on_the_edge() -> None:
    image = render(small('<line x1="0" y1="10" x2="90" y2="10" stroke="#7a4" stroke-width="2" stroke-dasharray="5,4"/>'
                         '<rect x="20" y="20" width="30" height="10" fill="none" stroke="#00f" stroke-width="2"/>'))
    green, blue = rgb("#7a4"), rgb("#00f")
    assert [pixel(image, x, 9) == green for x in (2, 7, 11, 16, 20, 25)] == [True, False, True, False, True, False]
    assert pixel(image, 20, 25) == pixel(image, 19, 25) == blue  # half outside, half inside the edge
    assert pixel(image, 18, 25) == pixel(image, 21, 25) == WHITE
    assert pixel(image, 19, 19) == pixel(image, 50, 30) == blue  # square corners, as SVG's default miter joins
    assert pixel(image, 35, 25) == WHITE  # fill="none"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('<ellipse cx="5" cy="5" rx="3" ry="2"/>', "element 1 <ellipse"),
        ('<g><path d="M0 0L5 5"/></g>', "<path> is not drawn"),
        ('<rect x="1" y="1" width="5" height="5" opacity="0.5"/>', "attribute 'opacity' is not drawn"),
        ('<g transform="scale(2)"><rect x="1" y="1" width="5" height="5"/></g>', "transform 'scale(2)' is not drawn"),
        ('<rect x="1" y="1" width="5" height="5" fill="rebeccapurple"/>', "colour fill='rebeccapurple' is not drawn"),
        ('<rect x="1em" y="1" width="5" height="5"/>', "x='1em' is not a number"),
        ('<text x="1" y="9"><tspan>a</tspan></text>', "<text> holds <tspan>"),
        ('<circle cx="5" cy="5" r="3" stroke="#000" stroke-dasharray="2"/>', "a dashed circle is not drawn"),
        ('<text x="1" y="9" text-anchor="inherit">a</text>', "text-anchor='inherit' is not drawn"),
    ],
)
def test_anything_outside_the_subset_is_refused_by_name(body: str, message: str) -> None:
    with pytest.raises(PictureError) as info:
        render(small(body))
    assert message in str(info.value)


def test_a_scaling_viewbox_and_broken_xml_are_refused() -> None:
    with pytest.raises(PictureError, match="scales the picture"):
        render('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 20 20"/>')
    render('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10"/>')
    with pytest.raises(PictureError, match=r"not well-formed SVG: .*line 1"):
        render('<svg width="10" height="10"><rect></svg>')
    with pytest.raises(PictureError, match="not <svg>"):
        render("<html/>")


# --------------------------------------------------------------------------------------------
# without Pillow


def test_without_pillow_the_cli_names_the_extra_and_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    for name in [m for m in sys.modules if m == "PIL" or m.startswith("PIL.")]:
        monkeypatch.setitem(sys.modules, name, None)  # an import of it now fails
    with pytest.raises(PictureError, match="pip install 'hauntcheck\\[png\\]'"):
        picture.require_pillow()
    out = tmp_path / "case.png"
    code = main(["dispute", str(DISPUTES / "collapsed-room-first-discoverer-falls.yaml"), "--png", str(out)])
    captured = capsys.readouterr()
    assert code == 2
    assert f"hauntcheck: error: --png: drawing PNG pictures needs Pillow, which is not installed: {INSTALL_HINT}" in captured.err
    assert "Traceback" not in captured.err
    assert "verdict" not in captured.out  # it stops before running anything
    assert not out.exists()
    # --svg alone needs no Pillow.
    assert main(["dispute", str(DISPUTES / "collapsed-room-first-discoverer-falls.yaml"), "--svg", str(tmp_path / "case.svg")]) == 0
