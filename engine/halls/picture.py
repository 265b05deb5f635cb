"""The Halls of Horror board as an SVG picture (``hauntcheck picture``).
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from hauntcheck.engine.core import GameState
from hauntcheck.engine.halls.state import HallsState

SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd")


def _svg_text(x: float, y: float, text: str, size: int, fill: str = "#111", anchor: str = "middle") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-family="sans-serif" font-size="{size}" text-anchor="{anchor}" '
            f'fill="{fill}">{escape(text)}</text>')


def draw_svg(state: GameState) -> str:
    """The board seen from above, row 0 at the top: face-up rooms with their names (exhausted ones
    shaded, covered rewards counted), face-down rooms grey, locked rooms dark, a room closed
    around a puzzle solver outlined in orange; Participants are circles with their seat and HP (a
    body is a grey circle), the Killer a red square (hollow when Stunned), an MC Gift a small "G"."""
    assert isinstance(state, HallsState)
    s = state
    w, h, head = 120, 80, 30
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{s.cols * w + 10}" height="{s.rows * h + head + 10}">']
    k = s.killer
    parts.append(_svg_text(5, 18, f"round {s.round}, First Player {s.seat_of(s.first)}; Killer {k.hp} HP, Rage {k.rage}"
                           + (", Stunned" if k.stunned else ""), 13, anchor="start"))
    for i, room in enumerate(s.rooms):
        r, c = s.cell(i)
        x, y = 5 + c * w, head + r * h
        if room.locked:
            fill, label = "#444", "locked"
        elif not room.up:
            fill, label = "#bbb", "face down"
        else:
            fill = "#e4dccb" if room.exhausted else "#fbf8f0"
            label = s.d.rooms[room.card].name.replace(" (sample)", "")
        stroke = ' stroke="#ff7f0e" stroke-width="4"' if room.temp else ' stroke="#333"'
        parts.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}"{stroke}/>')
        colour = "#fff" if room.locked else "#111"
        parts.append(_svg_text(x + w / 2, y + 14, label[:22], 10, colour))
        notes = [f"[{r},{c}]"] + (["exhausted"] if room.exhausted else []) + ([f"{len(room.covered)} covered"] if room.covered else [])
        parts.append(_svg_text(x + w / 2, y + h - 6, ", ".join(notes), 9, colour))
        if room.gift:
            parts.append(f'<rect x="{x + w - 18}" y="{y + 20}" width="13" height="13" fill="#ffd700" stroke="#333"/>')
            parts.append(_svg_text(x + w - 11.5, y + 31, "G", 10))
    for n, p in enumerate(s.pp):
        if p.pos < 0 or p.escaped:
            continue
        r, c = s.cell(p.pos)
        x, y = 5 + c * w + 18 + 24 * n, head + r * h + 42
        colour = SEAT_COLOURS[n % len(SEAT_COLOURS)] if p.alive else "#999"
        parts.append(f'<circle cx="{x}" cy="{y}" r="10" fill="{colour}" stroke="#111"/>')
        parts.append(_svg_text(x, y + 3.5, p.seat, 9, "#fff"))
        parts.append(_svg_text(x, y + 20, f"{p.hp} HP", 7))
    r, c = s.cell(k.pos)
    x, y = 5 + c * w + w - 24, head + r * h + 48
    parts.append(f'<rect x="{x}" y="{y}" width="16" height="16" fill="{"none" if k.stunned else "#b00"}" stroke="#b00" stroke-width="2"/>')
    parts.append(_svg_text(x + 8, y + 12, "K", 10, "#b00" if k.stunned else "#fff"))
    parts.append("</svg>\n")
    return "".join(parts)

