"""Our SVG pictures as PNG, drawn with Pillow (``hauntcheck dispute --png``).

Game-independent: it knows nothing of any game, only the small part of SVG that the games'
``draw_svg`` functions emit, and it draws exactly that part:

- ``svg`` (``width``/``height`` in user units; a ``viewBox``, if any, must be ``0 0 width height``),
- ``g`` with an optional ``transform="translate(x[,y])"``,
- ``rect``, ``line``, ``circle`` and ``polygon`` with ``fill``, ``stroke``, ``stroke-width`` and
  ``stroke-dasharray`` (not on a circle),
- ``text`` with ``x``, ``y`` (the baseline), ``font-size``, ``text-anchor`` (start, middle, end),
  ``font-weight`` (normal, bold) and ``fill``; ``font-family`` is accepted and ignored: text is
  set in DejaVu Sans when the system has it, else in Pillow's built-in font (``SYSTEM_FONTS``),
- ``title`` (a tooltip, nothing to draw: skipped with its contents).

Colours are ``#rgb``, ``#rrggbb``, ``none`` and the few names in ``NAMED_COLOURS``. Defaults follow
SVG: fill black, no stroke, stroke width 1, and the picture starts white (SVG's transparent
background is shown white in every viewer we care about). Anything else - another element, an
attribute we do not draw, another transform - is refused with a :class:`PictureError` that names
it, so a picture is never silently wrong when the drawing code grows.

Shapes are drawn at twice the size and halved (each output pixel the mean of four), which smooths
their edges; inside a filled shape the pixels keep the exact fill colour, and a level or upright
stroke covers exactly the pixels SVG says it does. Text is set at the picture's own size, where
the font's hinting keeps small digits apart, and blown up into the same canvas, so it keeps its
place in the painting order.

Pillow is optional (``pip install 'hauntcheck[png]'``); this module imports it only when drawing,
and :func:`require_pillow` says what to install when it is missing.
"""

from __future__ import annotations

import io
import itertools
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont

SVG_NS = "http://www.w3.org/2000/svg"
#: Drawn at this many times the size, then reduced: the smoothing.
SUPERSAMPLE = 2
INSTALL_HINT = "pip install 'hauntcheck[png]'"
NAMED_COLOURS: dict[str, tuple[int, int, int]] = {"white": (255, 255, 255), "black": (0, 0, 0)}

RGB = tuple[int, int, int]
Point = tuple[float, float]

_SHAPE = {"fill", "stroke", "stroke-width", "stroke-dasharray"}
ATTRIBUTES: dict[str, set[str]] = {
    "svg": {"width", "height", "viewBox"},
    "g": {"transform"},
    "rect": {"x", "y", "width", "height"} | _SHAPE,
    "line": {"x1", "y1", "x2", "y2"} | _SHAPE,
    "circle": {"cx", "cy", "r"} | _SHAPE,
    "polygon": {"points"} | _SHAPE,
    "text": {"x", "y", "font-family", "font-size", "text-anchor", "font-weight", "fill"},
    "title": set(),
}
_TRANSLATE = re.compile(r"\s*translate\(\s*([-+0-9.eE]+)(?:\s*[,\s]\s*([-+0-9.eE]+))?\s*\)\s*")
_HEX = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}
#: Text is set in DejaVu Sans when the system has it (what SVG viewers on Linux show for
#: sans-serif, and clear at 7 pixels), else in the font built into Pillow.
SYSTEM_FONTS = {"normal": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}


class PictureError(ValueError):
    """An SVG this module does not draw, or no Pillow to draw with; the message says which."""


def require_pillow() -> None:
    """Fail with the install command unless Pillow can be imported."""
    try:
        import PIL.Image  # noqa: F401
    except ImportError:
        raise PictureError(f"drawing PNG pictures needs Pillow, which is not installed: {INSTALL_HINT}") from None


def svg_to_png(svg: str) -> bytes:
    """The PNG file of an SVG picture in our subset, the same size in pixels as the SVG in units."""
    buffer = io.BytesIO()
    render(svg).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def render(svg: str) -> Image.Image:
    """An SVG picture in our subset as an RGB image."""
    require_pillow()
    from PIL import Image, ImageDraw

    try:
        root = ET.fromstring(svg)
    except ET.ParseError as exc:
        raise PictureError(f"not well-formed SVG: {exc}") from None
    if _tag(root) != "svg":
        raise PictureError(f"the root element is <{_tag(root)}>, not <svg>")
    _check_attributes(root, 0)
    width, height = _length(root, "width"), _length(root, "height")
    if width <= 0 or height <= 0:
        raise PictureError(f"<svg> is {width} by {height}: nothing to draw")
    view_box = root.get("viewBox")
    if view_box is not None and _numbers(view_box) != [0, 0, width, height]:
        raise PictureError(f"<svg viewBox={view_box!r}> scales the picture; only 'viewBox=\"0 0 width height\"' is drawn")
    size = (math.ceil(width) * SUPERSAMPLE, math.ceil(height) * SUPERSAMPLE)
    image = Image.new("RGB", size, (255, 255, 255))
    painter = _Painter(image, ImageDraw.Draw(image))
    for index, element, offset in _walk(root):
        painter.paint(index, element, offset)
    return image.reduce(SUPERSAMPLE)


# --------------------------------------------------------------------------------------------
# reading the SVG


def _tag(element: ET.Element) -> str:
    tag = element.tag
    if tag.startswith("{"):
        namespace, _, local = tag[1:].partition("}")
        if namespace != SVG_NS:
            raise PictureError(f"element <{local}> is in the namespace {namespace!r}, not SVG's")
        return local
    return tag


def _where(index: int, element: ET.Element) -> str:
    shown = " ".join(f'{key}="{value}"' for key, value in list(element.attrib.items())[:4])
    return f"element {index} <{_tag(element)}{' ' + shown if shown else ''}>"


def _check_attributes(element: ET.Element, index: int) -> None:
    allowed = ATTRIBUTES[_tag(element)]
    for key in element.attrib:
        if key not in allowed:
            raise PictureError(f"{_where(index, element)}: attribute {key!r} is not drawn "
                               f"(on <{_tag(element)}>: {', '.join(sorted(allowed)) or 'none'})")


def _walk(root: ET.Element) -> Iterator[tuple[int, ET.Element, Point]]:
    """Every element to paint in document order, with its index (for messages) and the sum of the
    translations of the groups around it."""
    counter = 0

    def visit(parent: ET.Element, offset: Point) -> Iterator[tuple[int, ET.Element, Point]]:
        nonlocal counter
        for element in parent:
            counter += 1
            index, tag = counter, _tag(element)
            if tag not in ATTRIBUTES or tag == "svg":
                raise PictureError(f"{_where(index, element)}: <{tag}> is not drawn "
                                   f"(the PNG renderer draws {', '.join(t for t in ATTRIBUTES if t != 'svg')})")
            if tag == "title":
                continue
            _check_attributes(element, index)
            if tag == "g":
                dx, dy = _translation(index, element)
                yield from visit(element, (offset[0] + dx, offset[1] + dy))
                continue
            kids = [k for k in element if _tag(k) != "title"]
            if kids:
                raise PictureError(f"{_where(index, element)}: <{tag}> holds <{_tag(kids[0])}>, which is not drawn")
            yield index, element, offset

    yield from visit(root, (0.0, 0.0))


def _translation(index: int, element: ET.Element) -> Point:
    transform = element.get("transform")
    if transform is None:
        return 0.0, 0.0
    match = _TRANSLATE.fullmatch(transform)
    if match is None:
        raise PictureError(f"{_where(index, element)}: transform {transform!r} is not drawn (only translate(x[,y]))")
    try:
        return float(match.group(1)), float(match.group(2) or 0)
    except ValueError:
        raise PictureError(f"{_where(index, element)}: transform {transform!r} is not a number pair") from None


def _length(element: ET.Element, key: str, default: float | None = None, index: int = 0) -> float:
    value = element.get(key)
    if value is None:
        if default is None:
            raise PictureError(f"{_where(index, element)}: attribute {key!r} is missing")
        return default
    try:
        return float(value)
    except ValueError:
        raise PictureError(f"{_where(index, element)}: {key}={value!r} is not a number (units are not drawn)") from None


def _numbers(text: str) -> list[float] | None:
    try:
        return [float(v) for v in text.replace(",", " ").split()]
    except ValueError:
        return None


def _colour(element: ET.Element, key: str, default: str, index: int) -> RGB | None:
    value = element.get(key, default).strip()
    if value == "none":
        return None
    if value in NAMED_COLOURS:
        return NAMED_COLOURS[value]
    match = _HEX.fullmatch(value)
    if match is None:
        raise PictureError(f"{_where(index, element)}: colour {key}={value!r} is not drawn "
                           f"(#rgb, #rrggbb, none, {', '.join(NAMED_COLOURS)})")
    digits = match.group(1)
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)


def _dashes(element: ET.Element, index: int) -> list[float]:
    value = element.get("stroke-dasharray")
    if value is None or value.strip() == "none":
        return []
    try:
        pattern = [float(v) for v in value.replace(",", " ").split()]
    except ValueError:
        raise PictureError(f"{_where(index, element)}: stroke-dasharray={value!r} is not a list of numbers") from None
    if any(v < 0 for v in pattern) or sum(pattern) <= 0:
        raise PictureError(f"{_where(index, element)}: stroke-dasharray={value!r} has no dash to draw")
    return pattern * 2 if len(pattern) % 2 else pattern  # SVG repeats an odd list to make it even


def _dash_path(points: Sequence[Point], pattern: Sequence[float]) -> list[list[Point]]:
    """The pieces of a path that a dash pattern draws (even slots dashes, odd slots gaps), the
    pattern running on across corners as SVG's does."""
    pieces: list[list[Point]] = []
    slot, left = 0, pattern[0]
    current: list[Point] = [points[0]]

    def finish() -> None:
        if len(set(current)) > 1:
            pieces.append(current)

    for (ax, ay), (bx, by) in itertools.pairwise(points):
        length = math.hypot(bx - ax, by - ay)
        done = 0.0
        while length - done > left:
            done += left
            cut = (ax + (bx - ax) * done / length, ay + (by - ay) * done / length)
            if slot % 2 == 0:
                current.append(cut)
                finish()
            slot = (slot + 1) % len(pattern)
            left = pattern[slot]
            current = [cut]
        left -= length - done
        if slot % 2 == 0:
            current.append((bx, by))
    if slot % 2 == 0:
        finish()
    return pieces


# --------------------------------------------------------------------------------------------
# painting


@dataclass
class _Painter:
    image: Image.Image
    draw: ImageDraw.ImageDraw
    fonts: dict[tuple[int, bool], tuple[ImageFont.FreeTypeFont | ImageFont.ImageFont, bool]] = field(default_factory=dict)

    def font(self, size: int, bold: bool) -> tuple[ImageFont.FreeTypeFont | ImageFont.ImageFont, bool]:
        """The font for a size and weight, and whether its boldness must be faked."""
        from PIL import ImageFont

        if (size, bold) not in self.fonts:
            found: tuple[ImageFont.FreeTypeFont | ImageFont.ImageFont, bool] | None = None
            choices = [(SYSTEM_FONTS["bold"], False), (SYSTEM_FONTS["normal"], True)] if bold else [(SYSTEM_FONTS["normal"], False)]
            for name, fake in choices:
                try:
                    found = ImageFont.truetype(name, size), fake
                    break
                except OSError:
                    continue
            self.fonts[size, bold] = found or (ImageFont.load_default(size=size), bold)
        return self.fonts[size, bold]

    def paint(self, index: int, element: ET.Element, offset: Point) -> None:
        tag = _tag(element)
        dx, dy = offset
        s = SUPERSAMPLE

        def num(key: str, default: float | None = None) -> float:
            return _length(element, key, default, index)

        if tag == "text":
            self.text(index, element, num("x", 0) + dx, num("y", 0) + dy)
            return
        fill = _colour(element, "fill", "black", index)
        stroke = _colour(element, "stroke", "none", index)
        width = num("stroke-width", 1) * s
        dashes = [d * s for d in _dashes(element, index)]
        if tag == "rect":
            x, y, w, h = (num("x", 0) + dx) * s, (num("y", 0) + dy) * s, num("width") * s, num("height") * s
            if w <= 0 or h <= 0:
                return
            if fill is not None:
                self.draw.rectangle((round(x), round(y), round(x + w) - 1, round(y + h) - 1), fill=fill)
            self.outline([(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)], stroke, width, dashes)
        elif tag == "line":
            ends = [((num("x1", 0) + dx) * s, (num("y1", 0) + dy) * s), ((num("x2", 0) + dx) * s, (num("y2", 0) + dy) * s)]
            self.outline(ends, stroke, width, dashes)
        elif tag == "circle":
            cx, cy, r = (num("cx", 0) + dx) * s, (num("cy", 0) + dy) * s, num("r") * s
            if dashes:
                raise PictureError(f"{_where(index, element)}: a dashed circle is not drawn")
            if r <= 0:
                return
            if fill is not None:
                self.draw.ellipse((round(cx - r), round(cy - r), round(cx + r) - 1, round(cy + r) - 1), fill=fill)
            if stroke is not None and width > 0:
                # SVG centres the stroke on the edge; Pillow draws an outline inside its box.
                out = r + width / 2
                self.draw.ellipse((round(cx - out), round(cy - out), round(cx + out) - 1, round(cy + out) - 1),
                                  outline=stroke, width=max(1, round(width)))
        elif tag == "polygon":
            points = self.points(index, element, offset)
            if fill is not None and len(points) >= 3:
                # Pillow's pixel (i, j) has its centre at (i, j); SVG's at (i + 0.5, j + 0.5).
                self.draw.polygon([(x - 0.5, y - 0.5) for x, y in points], fill=fill)
            self.outline([*points, points[0]], stroke, width, dashes)

    def points(self, index: int, element: ET.Element, offset: Point) -> list[Point]:
        raw = element.get("points", "")
        try:
            values = [float(v) for v in raw.replace(",", " ").split()]
        except ValueError:
            raise PictureError(f"{_where(index, element)}: points={raw!r} are not numbers") from None
        if len(values) < 4 or len(values) % 2:
            raise PictureError(f"{_where(index, element)}: points={raw!r} are not at least two x,y pairs")
        s = SUPERSAMPLE
        return [((values[i] + offset[0]) * s, (values[i + 1] + offset[1]) * s) for i in range(0, len(values), 2)]

    def outline(self, path: list[Point], stroke: RGB | None, width: float, dashes: list[float]) -> None:
        """A stroke centred on the path, as SVG draws it: butt ends, square corners."""
        if stroke is None or width <= 0:
            return
        closed = len(path) > 2 and path[0] == path[-1]
        for piece in _dash_path(path, dashes) if dashes else [path]:
            last = len(piece) - 2
            for i, (a, b) in enumerate(itertools.pairwise(piece)):
                # Pillow's own wide lines round half pixels one way or the other by direction;
                # a band per segment does not. A segment that meets the next at a corner runs on
                # by half the width, which fills a right-angled corner exactly (SVG's miter join).
                corner = i < last or (closed and not dashes)
                self.band(a, b, width, width / 2 if corner else 0.0, stroke)

    def band(self, a: Point, b: Point, width: float, run_on: float, colour: RGB) -> None:
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        if length == 0:
            return
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        nx, ny = -uy * width / 2, ux * width / 2
        ax, ay = a
        bx, by = b[0] + ux * run_on, b[1] + uy * run_on
        corners = [(ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny)]
        if ux == 0 or uy == 0:
            # Level or upright (every wall): exactly the pixels the band covers, as for a rect.
            xs, ys = [x for x, _ in corners], [y for _, y in corners]
            self.draw.rectangle((round(min(xs)), round(min(ys)), round(max(xs)) - 1, round(max(ys)) - 1), fill=colour)
        else:
            # Pillow's pixel (i, j) has its centre at (i, j); SVG's at (i + 0.5, j + 0.5).
            self.draw.polygon([(x - 0.5, y - 0.5) for x, y in corners], fill=colour)

    def text(self, index: int, element: ET.Element, x: float, y: float) -> None:
        """Text is drawn at the picture's own size, where the font's hinting keeps small digits
        apart, as a mask that is blown up onto the big canvas: halving brings it back unchanged,
        and it stays in document order with the shapes."""
        from PIL import Image, ImageDraw, ImageFont

        content = (element.text or "").strip()
        if not content:
            return
        fill = _colour(element, "fill", "black", index)
        if fill is None:
            return
        anchor = element.get("text-anchor", "start")
        if anchor not in _ANCHORS:
            raise PictureError(f"{_where(index, element)}: text-anchor={anchor!r} is not drawn (start, middle, end)")
        weight = element.get("font-weight", "normal")
        if weight not in ("normal", "bold"):
            raise PictureError(f"{_where(index, element)}: font-weight={weight!r} is not drawn (normal, bold)")
        size = max(1, round(_length(element, "font-size", 16, index)))
        font, fake_bold = self.font(size, weight == "bold")
        freetype = isinstance(font, ImageFont.FreeTypeFont)
        dx = dy = 0  # where the text is drawn from, against its anchor
        if freetype:
            box = font.getbbox(content, anchor=_ANCHORS[anchor])
        else:
            # A Pillow built without FreeType has only a small bitmap font, which cannot be anchored:
            # its ink is placed by hand, its bottom on the baseline.
            box = font.getbbox(content)
            dx = -{"start": 0, "middle": math.floor((box[0] + box[2]) / 2), "end": math.ceil(box[2])}[anchor]
            dy = -math.ceil(box[3])
        left, top = math.floor(box[0]) + dx, math.floor(box[1]) + dy
        right, bottom = math.ceil(box[2]) + dx, math.ceil(box[3]) + dy
        width, height = right - left + (1 if fake_bold else 0), bottom - top
        if width <= 0 or height <= 0:
            return
        mask = Image.new("L", (width, height), 0)
        pen = ImageDraw.Draw(mask)
        placed = _ANCHORS[anchor] if freetype else None
        pen.text((dx - left, dy - top), content, fill=255, font=font, anchor=placed)
        if fake_bold:
            # No bold face to hand: the same text again one pixel to the right thickens every stroke.
            pen.text((dx + 1 - left, dy - top), content, fill=255, font=font, anchor=placed)
        s = SUPERSAMPLE
        ox, oy = (round(x) + left) * s, (round(y) + top) * s
        self.image.paste(fill, (ox, oy, ox + width * s, oy + height * s), mask.resize((width * s, height * s), Image.Resampling.NEAREST))


__all__ = ["INSTALL_HINT", "NAMED_COLOURS", "PictureError", "render", "require_pillow", "svg_to_png"]
