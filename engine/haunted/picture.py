"""A Haunted table as an SVG picture, drawn from ``snapshot()`` alone.

Haunted keeps its table as an adjacency graph, not as places (rule ``table.adjacency``: players
may move cards however they need to connect rooms), so the picture lays the room cards out by
their distance from the Ace of Diamonds and the players' rooms (breadth first, a band of
columns per step, four cards high), with a line for
each connection. A face-up card shows its rank and suit (red for hearts and diamonds), a face-down
card is grey. Players are circles labelled with their seat on the card they stand on; a panel
lists each player's WILL, BODY, FEAR and score, and a legend says what the marks mean. Each card
is a ``<g data-place="card">`` group (its face a ``tile`` rect), as in the Betrayal picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

from hauntcheck.engine.core import GameState

CARD_W, CARD_H = 54, 74
COL, ROW = 96, 92
MARGIN = 24
TALL = 4  # cards per column
SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
SUITS = {"D": "\u2666", "H": "\u2665", "C": "\u2663", "S": "\u2660"}


def _text(x: float, y: float, text: str, size: int = 11, anchor: str = "middle", weight: str = "normal",
          fill: str = "#111") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-family="sans-serif" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}">{escape(text)}</text>')


def _label(card: str) -> tuple[str, str]:
    """(what the card shows, its colour): ``10H`` is 10 of hearts; ``JK1`` a Joker."""
    if card.startswith("JK"):
        return "Joker", "#6a3d9a"
    rank, suit = card[:-1], card[-1]
    return f"{rank}{SUITS.get(suit, suit)}", "#c00" if suit in "DH" else "#111"


def _layout(table: Mapping[str, Any], roots: list[str]) -> dict[str, tuple[int, int]]:
    """Column (distance from the first root) and row of every card on the table."""
    depth: dict[str, int] = {}
    queue = [r for r in roots if r in table]
    for r in queue:
        depth.setdefault(r, 0)
    for card in sorted(table):
        if card not in depth:
            depth[card] = 0
            queue.append(card)
        while queue:
            here = queue.pop(0)
            for other in table[here].get("adjacent", []):
                if other in table and other not in depth:
                    depth[other] = depth[here] + 1
                    queue.append(other)
    # one band of columns per distance, at most TALL cards high, so a long chain stays compact
    out: dict[str, tuple[int, int]] = {}
    col = 0
    for d in sorted(set(depth.values())):
        cards = sorted((c for c in depth if depth[c] == d), key=_order)
        for i, card in enumerate(cards):
            out[card] = (col + i // TALL, i % TALL)
        col += (len(cards) + TALL - 1) // TALL
    return out


def _order(card: str) -> tuple[str, int]:
    rank = card[:-1]
    value = {"A": 1, "J": 11, "Q": 12, "K": 13}.get(rank, int(rank) if rank.isdigit() else 14)
    return card[-1], value


def draw_svg(state: GameState) -> str:
    """The Haunted table of a state as SVG text."""
    snap = state.snapshot()
    table: Mapping[str, Any] = snap.get("table") or {}
    players: list[Mapping[str, Any]] = list(snap.get("players") or [])
    roots = [str(p.get("room")) for p in players if p.get("room")]
    places = _layout(table, ["AD", *roots])
    head = f"step: {snap.get('step', '')}; active {snap.get('active') or '-'}; the house {snap.get('house') or '-'}; " \
           f"{len(snap.get('deck') or [])} cards in the deck"
    cols = max([c for c, _ in places.values()], default=0) + 1
    rows = max([r for _, r in places.values()], default=0) + 1
    board_w, board_h = cols * COL, rows * ROW
    top = 44
    out: list[str] = []
    centre = {card: (MARGIN + c * COL + CARD_W / 2, top + r * ROW + CARD_H / 2) for card, (c, r) in places.items()}
    for card, info in sorted(table.items()):
        for other in info.get("adjacent", []):
            if other in centre and card < other:
                (x1, y1), (x2, y2) = centre[card], centre[other]
                out.append(f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="#999" stroke-width="2"/>')
    for card, (c, r) in sorted(places.items()):
        x, y = MARGIN + c * COL, top + r * ROW
        face_up = bool(table[card].get("face_up"))
        shown, colour = _label(card) if face_up else ("?", "#555")
        fill = "#fffdf8" if face_up else "#c9c9c9"
        out.append(f'<g data-place="{escape(card)}">'
                   f'<rect class="tile" x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="{fill}" '
                   f'stroke="#333" stroke-width="1.5"><title>{escape(card)}</title></rect>'
                   + _text(x + CARD_W / 2, y + 20, shown, 14, weight="bold", fill=colour))
        here = [p for p in players if p.get("room") == card]
        for i, p in enumerate(here):
            seat = str(p.get("seat"))
            index = next((k for k, q in enumerate(players) if q.get("seat") == seat), 0)
            cx, cy = x + 14 + (i % 3) * 13, y + 46 + (i // 3) * 14
            ring = "#000" if not p.get("trapped") else "#c00"
            out.append(f'<circle cx="{cx}" cy="{cy}" r="6" fill="{SEAT_COLOURS[index % len(SEAT_COLOURS)]}" '
                       f'stroke="{ring}" stroke-width="{2 if p.get("trapped") else 1}"><title>{escape(seat)}</title></circle>')
            out.append(_text(cx, cy + 3, seat[-1:], 7, weight="bold", fill="#fff"))
        out.append("</g>")
    panel_y = top + board_h + 10
    out.append(_text(MARGIN, panel_y + 12, "players", 12, "start", "bold"))
    for i, p in enumerate(players):
        y = panel_y + 30 + i * 16
        colour = SEAT_COLOURS[i % len(SEAT_COLOURS)]
        state_words = ", trapped" if p.get("trapped") else ", escaped" if p.get("escaped") else ""
        out.append(f'<circle cx="{MARGIN + 6}" cy="{y - 4}" r="6" fill="{colour}" stroke="#000"/>')
        out.append(_text(MARGIN + 18, y, f"{p.get('seat')}: WILL {p.get('will')}, BODY {p.get('body')}, FEAR {p.get('fear')}, "
                         f"score {p.get('score')}, in {p.get('room') or '-'}{state_words}", 10, "start"))
    legend_y = panel_y + 30 + len(players) * 16 + 10
    out.append(_text(MARGIN, legend_y + 12, "legend", 12, "start", "bold"))
    ly = legend_y + 30
    out.append(f'<rect x="{MARGIN}" y="{ly - 10}" width="10" height="13" rx="2" fill="#fffdf8" stroke="#333"/>'
               + _text(MARGIN + 16, ly, "room card, face up", 10, "start"))
    out.append(f'<rect x="{MARGIN + 140}" y="{ly - 10}" width="10" height="13" rx="2" fill="#c9c9c9" stroke="#333"/>'
               + _text(MARGIN + 156, ly, "face down", 10, "start"))
    out.append(f'<line x1="{MARGIN + 240}" y1="{ly - 4}" x2="{MARGIN + 270}" y2="{ly - 4}" stroke="#999" stroke-width="2"/>'
               + _text(MARGIN + 276, ly, "connected", 10, "start"))
    out.append(f'<circle cx="{MARGIN + 356}" cy="{ly - 4}" r="6" fill="#888" stroke="#c00" stroke-width="2"/>'
               + _text(MARGIN + 368, ly, "trapped player", 10, "start"))
    height = ly + 16
    width = max(MARGIN * 2 + board_w, int(len(head) * 13 * 0.62) + MARGIN * 2, 560)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
            f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>'
            f"{_text(MARGIN, 24, head, 13, 'start')}{''.join(out)}</svg>\n")


__all__ = ["draw_svg"]
