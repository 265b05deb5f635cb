"""A Betrayal position as a dependency-free SVG picture (``hauntcheck dispute --svg``).

One panel per floor (upper, ground, basement), each a grid of the placed room tiles seen from
above with north up: the room's name, its doors (gaps in the wall; the locked front door is drawn
as a red bar), a barrier as a dashed line between its two parts, the explorers as circles labelled
with their seat (in the part of a barrier room they are on), item piles and tokens as small
labelled squares. In the haunt phase the monsters in play are purple diamonds labelled with their
id (a stunned one is drawn pale, with a dashed outline) and the haunt's tokens are small lilac
squares among the room's tokens. A line of text above says whose turn it is, the omen count and
the haunt (with the round once the haunt's rounds are under way); the picture is as wide as that
line. A legend below says what each mark means and which explorer each seat plays. Labels are cut
to fit inside their tile. Each room is a ``<g data-place="room-id">`` group (its tile a ``tile``
rect), so a viewer can outline the rooms that changed.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.betrayal.house import DELTA
from hauntcheck.engine.betrayal.state import BetrayalState
from hauntcheck.engine.core import GameState

CELL = 110
GAP = 30
HEAD = 34
WALL = "#333"
FLOOR_ORDER = ("upper", "ground", "basement")
SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
FLOOR_FILL = {"upper": "#eef3fb", "ground": "#f6f1e7", "basement": "#ececec"}


def _text(x: float, y: float, text: str, size: int = 11, anchor: str = "middle", weight: str = "normal",
          fill: str = "#111") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-family="sans-serif" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}">{escape(text)}</text>')


def _wrap(name: str, width: int = 14) -> list[str]:
    lines: list[str] = []
    for word in name.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines[:3]


def draw_svg(state: GameState) -> str:
    """The house of a Betrayal state, per floor, as SVG text."""
    if not isinstance(state, BetrayalState):
        raise TypeError(f"not a Betrayal state: {type(state).__name__}")
    st = state
    panels: list[tuple[str, list[str], int, int]] = []
    for floor in FLOOR_ORDER:
        cells = {sp.cell: room for room, sp in st.house.spots.items() if sp.floor == floor}
        if not cells:
            continue
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        x0, y1 = min(xs), max(ys)
        cols, rows = max(xs) - x0 + 1, y1 - min(ys) + 1
        parts: list[str] = []
        for cell, room in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            px, py = (cell[0] - x0) * CELL, (y1 - cell[1]) * CELL + 20
            parts.append(f'<g data-place="{escape(room)}">')
            parts.extend(_room(st, room, px, py))
            parts.append("</g>")
        panels.append((floor, parts, cols * CELL, rows * CELL + 20))
    head = _heading(st)
    legend, legend_height = _legend(st)
    # the heading and the legend set the width too, so neither is cut off at the right edge
    width = max([GAP + w for _, _, w, _ in panels] + [_text_width(head, 13), LEGEND_WIDTH]) + GAP
    out: list[str] = []
    y = HEAD
    for floor, parts, w, h in panels:
        out.append(f'<g transform="translate({GAP},{y})">')
        out.append(_text(0, 12, f"{floor} floor", 13, "start", "bold"))
        out.append(f'<rect x="0" y="20" width="{w}" height="{h - 20}" fill="{FLOOR_FILL[floor]}" stroke="none"/>')
        out.extend(parts)
        out.append("</g>")
        y += h + GAP
    out.append(f'<g transform="translate({GAP},{y})">{legend}</g>')
    y += legend_height + GAP // 2
    body = "".join(out)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}" viewBox="0 0 {width} {y}">'
            f'<rect x="0" y="0" width="{width}" height="{y}" fill="white"/>'
            f"{_text(GAP, 22, head, 13, 'start')}{body}</svg>\n")


def _text_width(text: str, size: int) -> int:
    """A generous estimate of a sans-serif line's width (no font metrics in a dependency-free SVG)."""
    return int(len(text) * size * 0.62) + 8


def _fit(label: str, room: float, size: int) -> str:
    """A label cut (with an ellipsis) to ``room`` pixels, so it stays inside its tile."""
    most = max(3, int(room / (size * 0.62)))
    return label if len(label) <= most else label[: most - 1] + "\u2026"


LEGEND_WIDTH = 560


def _legend(st: BetrayalState) -> tuple[str, int]:
    """What the marks mean, and which explorer each seat plays."""
    out = [_text(0, 12, "legend", 12, "start", "bold")]
    y = 30
    marks = [
        f'<circle cx="8" cy="{y - 4}" r="7" fill="{SEAT_COLOURS[0]}" stroke="#000"/>' + _text(20, y, "explorer (seat)", 10, "start"),
        f'<circle cx="138" cy="{y - 4}" r="7" fill="#fff" stroke="#000"/>' + _text(150, y, "dead explorer", 10, "start"),
        f'<polygon points="258,{y - 11} 265,{y - 4} 258,{y + 3} 251,{y - 4}" fill="#6a3d9a" stroke="#3f1d63"/>'
        + _text(270, y, "monster", 10, "start"),
        f'<polygon points="338,{y - 11} 345,{y - 4} 338,{y + 3} 331,{y - 4}" fill="#e6dcf2" stroke="#3f1d63" '
        'stroke-dasharray="2,2"/>' + _text(350, y, "stunned monster", 10, "start"),
    ]
    y2 = y + 20
    marks += [
        f'<rect x="2" y="{y2 - 9}" width="10" height="10" fill="#e9c46a" stroke="#555"/>' + _text(16, y2, "item pile", 10, "start"),
        f'<rect x="92" y="{y2 - 9}" width="10" height="10" fill="#a8dadc" stroke="#555"/>' + _text(106, y2, "token", 10, "start"),
        f'<rect x="162" y="{y2 - 9}" width="10" height="10" fill="#d8c8f0" stroke="#555"/>' + _text(176, y2, "haunt token", 10, "start"),
        f'<line x1="262" y1="{y2 - 4}" x2="292" y2="{y2 - 4}" stroke="#7a4" stroke-width="2" stroke-dasharray="5,4"/>'
        + _text(298, y2, "barrier", 10, "start"),
        f'<rect x="352" y="{y2 - 7}" width="24" height="6" fill="#c00"/>' + _text(382, y2, "locked front door", 10, "start"),
        f'<circle cx="484" cy="{y2 - 4}" r="3" fill="#999"/>' + _text(492, y2, "blocked door", 10, "start"),
    ]
    out.extend(marks)
    y3 = y2 + 20
    for i, seat in enumerate(st.seat_ids):
        e = st.ex.get(seat)
        if e is None or not e.id:
            continue
        x = (i % 3) * 186
        row = y3 + (i // 3) * 18
        colour = SEAT_COLOURS[i % len(SEAT_COLOURS)]
        out.append(f'<circle cx="{x + 8}" cy="{row - 4}" r="7" fill="{colour}" stroke="#000"/>')
        out.append(_text(x + 20, row, _fit(f"{seat}: {st.t.explorers[e.id].name}", 160, 10), 10, "start"))
    rows = (len(st.seat_ids) + 2) // 3
    return "".join(out), y3 + rows * 18


def _heading(st: BetrayalState) -> str:
    bits = []
    if st.current:
        bits.append(f"turn {st.turn_number}: {st.name(st.current)}")
    bits.append(f"omens drawn {st.omens_drawn}")
    if st.haunt:
        who = st.haunt.get("traitor") or "no traitor"
        bits.append(f"haunt {st.haunt['number']} ({st.haunt['title']}), traitor {who}")
        if isinstance(st, HauntState) and st.hround:
            bits.append(f"round {st.hround}")
    else:
        bits.append("before the haunt")
    return "; ".join(bits)


def _room(st: BetrayalState, room: str, px: int, py: int) -> list[str]:
    rdef = st.t.rooms[room]
    spot = st.house.spots[room]
    doors = st.house.doors(room)
    out = [f'<rect class="tile" x="{px + 3}" y="{py + 3}" width="{CELL - 6}" height="{CELL - 6}" fill="#fffdf8" stroke="none">'
           f"<title>{escape(rdef.name)} ({room})</title></rect>"]
    # Walls with a gap where a door is; world side 0 = north (top of the picture).
    corners = ((px + 3, py + 3), (px + CELL - 3, py + 3), (px + CELL - 3, py + CELL - 3), (px + 3, py + CELL - 3))
    for side in range(4):
        (ax, ay), (bx, by) = corners[side], corners[(side + 1) % 4]
        if side in doors:
            mx, my = (ax + bx) / 2, (ay + by) / 2
            dx, dy = (bx - ax) / CELL * 16, (by - ay) / CELL * 16
            out.append(f'<line x1="{ax}" y1="{ay}" x2="{mx - dx:.0f}" y2="{my - dy:.0f}" stroke="{WALL}" stroke-width="3"/>')
            out.append(f'<line x1="{mx + dx:.0f}" y1="{my + dy:.0f}" x2="{bx}" y2="{by}" stroke="{WALL}" stroke-width="3"/>')
            other, meets = st.house.door_neighbour(room, side)
            if other is not None and not meets:
                out.append(f'<circle cx="{mx:.0f}" cy="{my:.0f}" r="3" fill="#999"><title>blocked door</title></circle>')
        else:
            out.append(f'<line x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" stroke="{WALL}" stroke-width="3"/>')
        if rdef.front_door is not None and (rdef.front_door + spot.rotation) % 4 == side:
            mx, my = (ax + bx) / 2, (ay + by) / 2
            horiz = side in (0, 2)
            w, h = (30, 6) if horiz else (6, 30)
            out.append(f'<rect x="{mx - w / 2:.0f}" y="{my - h / 2:.0f}" width="{w}" height="{h}" fill="#c00">'
                       "<title>front door (locked)</title></rect>")
    if len(rdef.barrier) >= 2:
        horizontal = (rdef.barrier[0] + spot.rotation) % 2 == 0  # parts north/south: the line runs east-west
        if horizontal:
            out.append(f'<line x1="{px + 6}" y1="{py + CELL / 2:.0f}" x2="{px + CELL - 6}" y2="{py + CELL / 2:.0f}" '
                       'stroke="#7a4" stroke-width="2" stroke-dasharray="5,4"><title>barrier</title></line>')
        else:
            out.append(f'<line x1="{px + CELL / 2:.0f}" y1="{py + 6}" x2="{px + CELL / 2:.0f}" y2="{py + CELL - 6}" '
                       'stroke="#7a4" stroke-width="2" stroke-dasharray="5,4"><title>barrier</title></line>')
    lines = _wrap(rdef.name)
    for i, line in enumerate(lines):
        out.append(_text(px + CELL / 2, py + 24 + i * 12, line, 10, weight="bold"))
    # Things in the room: tokens and piles along the bottom, figures in the middle.
    extras = [(f"pile ({len(st.piles[room])})", "#e9c46a") ] if st.piles.get(room) else []
    extras += [(tok, "#a8dadc") for tok in st.tokens.get(room, [])]
    if isinstance(st, HauntState):
        extras += [(tok, "#d8c8f0") for tok, rooms in sorted(st.htokens.items()) for r in rooms if r == room]
    for i, (label, fill) in enumerate(extras[:4]):
        ex, ey = px + 8, py + CELL - 20 - i * 13
        out.append(f'<rect x="{ex}" y="{ey}" width="10" height="10" fill="{fill}" stroke="#555"/>')
        out.append(_text(ex + 13, ey + 9, _fit(label, CELL - 24, 8), 8, "start"))
    figures = [(seat, e) for seat, e in sorted(st.ex.items()) if e.room == room]
    for i, (seat, e) in enumerate(figures):
        cx: float = px + 24 + (i % 4) * 21
        cy: float = py + CELL / 2 + 8 + (i // 4) * 20
        if len(rdef.barrier) >= 2:
            side = (rdef.barrier[e.part] + spot.rotation) % 4
            dx, dy = DELTA[side]
            cx = px + CELL / 2 + dx * 28 + (i % 2) * 8 - 4
            cy = py + CELL / 2 - dy * 28 + 6
        colour = SEAT_COLOURS[st.seat_ids.index(seat) % len(SEAT_COLOURS)]
        name = st.t.explorers[e.id].name
        fill = "#fff" if e.dead else colour
        out.append(f'<circle cx="{cx:.0f}" cy="{cy:.0f}" r="9" fill="{fill}" stroke="#000">'
                   f"<title>{escape(seat)}: {escape(name)}</title></circle>")
        out.append(_text(cx, cy + 4, seat, 9, weight="bold", fill="#000" if e.dead else "#fff"))
    hs = st if isinstance(st, HauntState) else None
    monsters = [m for m in hs.mon if not m.gone and m.room == room] if hs is not None else []
    for i, m in enumerate(monsters[:4]):
        assert hs is not None
        mx, my = px + CELL - 16, py + 44 + i * 16
        fill, dash = ("#e6dcf2", ' stroke-dasharray="2,2"') if m.stunned else ("#6a3d9a", "")
        state = " (stunned)" if m.stunned else ""
        out.append(f'<polygon points="{mx},{my - 7} {mx + 7},{my} {mx},{my + 7} {mx - 7},{my}" fill="{fill}" '
                   f'stroke="#3f1d63"{dash}><title>{escape(hs.mname(m))} ({escape(m.uid)}){state}</title></polygon>')
        out.append(_text(mx - 10, my + 4, _fit(m.uid, CELL / 2 - 14, 8), 8, "end", fill="#3f1d63"))
    return out


__all__ = ["draw_svg"]
