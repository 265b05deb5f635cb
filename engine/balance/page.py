"""``balance.html``: one self-contained page a designer reads at a glance - the haunts sorted by
imbalance, then per haunt its win rate by side against player count (95 % Wilson intervals as
error bars) and a histogram of game length. Plots are drawn by matplotlib (the ``plots`` extra)
as inline SVG with text as paths, so the page needs no network, fonts or scripts."""

from __future__ import annotations

import html
import io
from collections.abc import Mapping, Sequence
from typing import Any

from hauntcheck.engine.balance.stats import share_text

INSTALL_HINT = "pip install 'hauntcheck[plots]'"

#: One colour per ending, the same in every plot (the colour-blind-safe Okabe-Ito palette).
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#999999")


def plots_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _svg(figure: Any) -> str:
    """The figure as SVG text, byte-identical for the same data (fixed id salt, no date)."""
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "hauntcheck-balance", "svg.fonttype": "path"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def win_rate_plot(haunt: Mapping[str, Any], sides: Sequence[str]) -> str:
    """Win rate of each side (and undecided) against player count, with Wilson intervals."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    cells = haunt["cells"]
    counts = sorted(int(p) for p in cells)
    figure, axes = pyplot.subplots(figsize=(6.0, 3.0))
    for i, ending in enumerate([*sides, "undecided"]):
        rates = [cells[str(p)]["endings"][ending]["rate"] for p in counts]
        low = [r - cells[str(p)]["endings"][ending]["low"] for p, r in zip(counts, rates, strict=True)]
        high = [cells[str(p)]["endings"][ending]["high"] - r for p, r in zip(counts, rates, strict=True)]
        offset = (i - len(sides) / 2) * 0.06
        axes.errorbar([p + offset for p in counts], [100 * r for r in rates], yerr=[[100 * x for x in low], [100 * x for x in high]],
                      marker="o", capsize=3, label=ending, color=PALETTE[i % len(PALETTE)],
                      linestyle="--" if ending == "undecided" else "-")
    axes.axhline(50, color="#bbbbbb", linewidth=0.8, zorder=0)
    axes.set_xticks(counts)
    axes.set_ylim(-3, 103)
    axes.set_xlabel("players")
    axes.set_ylabel("games won (%)")
    axes.set_title(f"{haunt['haunt']}: win rate by side (95 % intervals)", fontsize=9)
    axes.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    figure.tight_layout()
    text = _svg(figure)
    pyplot.close(figure)
    return text


def length_histogram(haunt_label: str, records: Sequence[Mapping[str, Any]]) -> str:
    """Histogram of game length in rounds, one bar series per player count, stacked."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    counts = sorted({int(r["players"]) for r in records})
    series = [[int(r["rounds"]) for r in records if r["players"] == p] for p in counts]
    figure, axes = pyplot.subplots(figsize=(4.4, 3.0))
    top = max((max(s) for s in series if s), default=1)
    bins = list(range(0, top + 2, max(1, (top + 1) // 20 or 1)))
    axes.hist(series, bins=bins, stacked=True, label=[f"{p} player{'s' if p != 1 else ''}" for p in counts],
              color=[PALETTE[i % len(PALETTE)] for i in range(len(counts))])
    axes.set_xlabel("rounds")
    axes.set_ylabel("games")
    axes.set_title(f"{haunt_label}: game length", fontsize=9)
    axes.legend(fontsize=7, loc="upper right")
    figure.tight_layout()
    text = _svg(figure)
    pyplot.close(figure)
    return text


STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
section.haunt { margin: 1.5em 0; border-top: 1px solid #ddd; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
figure.plot { margin: 0; }
figure.plot svg { display: block; width: 100%; height: auto; max-width: 520px; }
.verdict { font-weight: 600; }
"""


def render(document: Mapping[str, Any]) -> str:
    """The page of a balance.json document."""
    study = document["study"]
    sides = list(document["sides"])
    endings = list(document["endings"])
    title = f"hauntcheck balance: {study['game']}"
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', f"<title>{html.escape(title)}</title>",
        f"<style>{STYLE}</style></head><body>", f"<h1>{html.escape(title)}</h1>",
        f"<p>{study['games']} games per haunt and player count ({', '.join(map(str, study['players']))} players), "
        f"controller <code>{html.escape(study['controller'])}</code>, games start at the {html.escape(study['start'])}"
        f"{'' if document['complete'] else ' (<strong>incomplete</strong>: one shard of the study)'}. "
        f"Intervals are 95 % Wilson. Replay a game: <code>{html.escape(document['replay'])}</code>.</p>",
        "<h2>Haunts by imbalance</h2>", '<table id="imbalance"><thead><tr><th>haunt</th><th>title</th><th>games</th>',
    ]
    parts += [f"<th>{html.escape(s)} (pooled)</th>" for s in sides]
    parts.append("<th>imbalance</th><th>verdict</th></tr></thead><tbody>")
    for haunt in document["haunts"]:
        games = haunt["games"]
        pooled = []
        for side in sides:
            won = sum(cell["endings"][side]["count"] for cell in haunt["cells"].values())
            pooled.append(f'<td class="num">{100 * won / games if games else 0:.0f} %</td>')
        parts.append(f"<tr><td>{html.escape(haunt['haunt'])}</td><td>{html.escape(haunt['title'])}</td>"
                     f'<td class="num">{games}</td>{"".join(pooled)}<td class="num">{haunt["imbalance"]:+.2f}</td>'
                     f"<td>{html.escape(haunt['verdict'])}</td></tr>")
    parts.append("</tbody></table>")
    for haunt in document["haunts"]:
        records = [r for r in document["records"] if r["haunt"] == haunt["haunt"]]
        parts.append(f'<section class="haunt" id="haunt-{html.escape(haunt["haunt"])}">')
        parts.append(f"<h2>{html.escape(haunt['haunt'])}: {html.escape(haunt['title'])}</h2>")
        parts.append(f'<p class="verdict">{html.escape(haunt["verdict"])}</p>')
        parts.append('<div class="plots">')
        parts.append(f'<figure class="plot" data-plot="win-rate">{win_rate_plot(haunt, sides)}</figure>')
        parts.append(f'<figure class="plot" data-plot="length">{length_histogram(haunt["haunt"], records)}</figure>')
        parts.append("</div>")
        parts.append(_cell_table(haunt, endings))
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _cell_table(haunt: Mapping[str, Any], endings: Sequence[str]) -> str:
    rows = ["<table><thead><tr><th>players</th><th>games</th>"]
    rows += [f"<th>{html.escape(e)}</th>" for e in endings]
    rows.append("<th>rounds q10/q50/q90</th><th>steps q50</th><th>most common win</th></tr></thead><tbody>")
    for players, cell in sorted(haunt["cells"].items(), key=lambda kv: int(kv[0])):
        shares = "".join(f'<td class="num">{share_text(cell["endings"][e])}</td>' for e in endings)
        r = cell["rounds"]
        top = cell["top_condition"]
        won = f"{html.escape(top['condition'])} ({top['count']})" if top else "-"
        rows.append(f'<tr><td>{players}</td><td class="num">{cell["games"]}</td>{shares}'
                    f'<td class="num">{r["q10"]:g} / {r["q50"]:g} / {r["q90"]:g}</td><td class="num">{cell["steps"]["q50"]:g}</td>'
                    f"<td>{won}</td></tr>")
    rows.append("</tbody></table>")
    return "".join(rows)
