"""Our SVG pictures as PNG (``hauntcheck dispute --png``), rendered by resvg.

The games draw SVG (``GameDef.draw_svg``); a PNG is that SVG rendered by resvg, a maintained SVG
renderer, through its Python binding ``resvg-py`` (the ``png`` extra: ``pip install
'hauntcheck[png]'``). The PNG has the SVG's size in pixels, on white (SVG's transparent
background shows white in every viewer we care about). Text uses the system's sans-serif font.

The binding is optional: this module imports it only when drawing, and
:func:`require_renderer` says what to install when it is missing.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

INSTALL_HINT = "pip install 'hauntcheck[png]'"


class PictureError(ValueError):
    """An SVG that cannot be rendered, or no renderer to render it with; the message says which."""


def require_renderer() -> None:
    """Fail with the install command unless resvg-py can be imported."""
    try:
        import resvg_py  # noqa: F401
    except ImportError:
        raise PictureError(f"drawing PNG pictures needs resvg-py, which is not installed: {INSTALL_HINT}") from None


def svg_to_png(svg: str) -> bytes:
    """The PNG file of an SVG picture, the same size in pixels as the SVG in user units."""
    require_renderer()
    import resvg_py

    try:
        root = ET.fromstring(svg)
    except ET.ParseError as exc:
        raise PictureError(f"not well-formed SVG: {exc}") from None
    if root.tag not in ("svg", "{http://www.w3.org/2000/svg}svg"):
        raise PictureError(f"the root element is <{root.tag}>, not <svg>")
    try:
        data = resvg_py.svg_to_bytes(svg_string=svg, background="white")
    except ValueError as exc:
        raise PictureError(f"resvg cannot render the picture: {exc}") from None
    return bytes(data)
