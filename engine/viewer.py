"""A transcript, golden game or scenario as one self-contained HTML page (``hauntcheck view``).

The page needs no server and no network: the steps, the house pictures (inline SVG, each distinct
picture stored once, gzipped and unpacked by the browser) and the rule clauses are embedded as JSON
and shown by a small script. It
lists every step with its actor, its action, how many legal actions there were and its events;
each event's rule id links to the clause's text and citation. The picture shows the state after
the chosen step (scrub with the slider or the arrow keys), with the places that changed since the
previous step outlined. The step list can be filtered by seat and by rule.

Places are the picture's ``data-place`` groups (Betrayal: one per room tile; Haunted: one per
card); a place changed when its drawing, coordinates aside, differs from the previous step's, so
highlighting needs nothing game-specific.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hauntcheck.engine.core import Action, Event, GameState, IllegalAction
from hauntcheck.engine.games import GameDef, game_spec, get_game
from hauntcheck.engine.spec import GameSpec, SpecError, SpecErrors, Where, load_file
from hauntcheck.engine.transcript import is_transcript
from hauntcheck.engine.transcript import read as read_transcript

_PLACE = re.compile(r'<g data-place="([^"]+)"')
_COORDINATES = re.compile(r'\b(?:x|y|x1|y1|x2|y2|cx|cy|points)="[^"]*"')


@dataclass
class Frame:
    """The state after one step (frame 0: the starting position)."""

    n: int
    actor: str
    action: str
    offered: int
    events: list[tuple[str, str]]
    picture: int  # index into View.pictures, -1 when the game draws no pictures
    changed: list[str] = field(default_factory=list)


@dataclass
class View:
    title: str
    game: str
    source: str
    seats: list[str]
    frames: list[Frame] = field(default_factory=list)
    pictures: list[str] = field(default_factory=list)
    rules: dict[str, dict[str, str]] = field(default_factory=dict)
    ending: str = ""
    _index: dict[str, int] = field(default_factory=dict)
    _places: dict[str, str] = field(default_factory=dict)

    def add(self, state: GameState, definition: GameDef, n: int, actor: str, action: str, offered: int,
            events: list[Event]) -> None:
        picture = -1
        changed: list[str] = []
        draw = drawer(definition)
        if draw is not None:
            svg = draw(state)
            picture = self._index.setdefault(svg, len(self.pictures))
            if picture == len(self.pictures):
                self.pictures.append(svg)
            places = dict(_places(svg))
            if self.frames:
                changed = sorted(p for p, drawn in places.items() if self._places.get(p) != drawn)
            self._places = places
        self.frames.append(Frame(n, actor, action, offered, [(e.rule, e.text) for e in events], picture, changed))


def drawer(definition: GameDef) -> Callable[[GameState], str] | None:
    """The game's picture (its ``draw_svg``), or None for a game that draws none."""
    return definition.draw_svg


def _places(svg: str) -> Iterator[tuple[str, str]]:
    """(place, its drawing) for every ``<g data-place=...>`` group of a picture (groups do not nest)."""
    for match in _PLACE.finditer(svg):
        end = svg.find("</g>", match.end())
        # where the place sits on the picture is not a change of the place (a tile laid to the
        # west shifts every room of its floor): compare the drawing without its coordinates
        yield match.group(1), _COORDINATES.sub("", svg[match.end():end])


def rule_table(spec: GameSpec) -> dict[str, dict[str, str]]:
    """Every rule clause of the game's spec (rules.yaml and haunt files): id -> says, cite."""
    out: dict[str, dict[str, str]] = {}

    def visit(node: Any, source: str) -> None:
        if isinstance(node, Mapping):
            if isinstance(node.get("id"), str) and isinstance(node.get("says"), str):
                out.setdefault(node["id"], {"says": node["says"], "cite": _citation(node.get("cite")), "file": source})
            for value in node.values():
                visit(value, source)
        elif isinstance(node, list):
            for value in node:
                visit(value, source)

    for name, file in sorted(spec.files.items()):
        visit(file.data, name)
    return out


def _citation(cite: Any) -> str:
    items = cite if isinstance(cite, list) else [cite] if cite else []
    shown = []
    for item in items:
        if not isinstance(item, Mapping):
            continue
        text = str(item.get("source", ""))
        if item.get("section"):
            text += f", {item['section']}"
        lines = item.get("lines")
        if isinstance(lines, list) and len(lines) == 2:
            text += f", lines {lines[0]}-{lines[1]}" if lines[0] != lines[1] else f", line {lines[0]}"
        shown.append(text)
    return "; ".join(shown)


class ViewError(Exception):
    """A file that cannot be shown; the message names the file (and step) and what is wrong."""


def build_view(path: Path, display: str | None = None) -> View:
    """Replay a transcript (a golden game) or run a scenario, keeping every step's state."""
    shown = display or str(path)
    if is_transcript(path):
        return _transcript_view(path, shown)
    try:
        file = load_file(path, shown)
    except SpecErrors:
        raise
    if file.kind != "scenario":
        raise SpecErrors([file.error(("kind",), f"hauntcheck view shows transcripts and scenarios, not kind {file.kind!r}")])
    return _scenario_view(file)


def _transcript_view(path: Path, shown: str) -> View:
    log = read_transcript(path)
    definition = get_game(log.header.game)
    spec = game_spec(definition.id)
    state = definition.new_game(spec, log.header.players, log.header.options)
    title = log.header.title or f"{definition.id} game, {log.header.players} players" + (
        f", seed {log.header.seed}" if log.header.seed is not None else "")
    view = View(title, definition.id, shown, state.seats(), rules=rule_table(spec))
    view.add(state, definition, 0, "", "the starting position", 0, [])
    for step in log.steps:
        offered = state.legal_actions().size() if state.to_move() is not None else 0
        try:
            events = state.apply(step.action)
        except IllegalAction as exc:
            line = log.step_lines.get(step.n, 1)
            raise SpecErrors([SpecError(Where(shown, line, 1), f"step {step.n}: {exc}")]) from None
        view.add(state, definition, step.n, step.actor, str(step.action), offered, events)
    outcome = state.outcome()
    view.ending = (f"{outcome.result}" + (f": {', '.join(outcome.winners)} won" if outcome.winners else "")
                   if outcome is not None else f"stopped ({log.end.get('stopped', 'unfinished')})")
    return view


def _scenario_view(file: Any) -> View:
    from hauntcheck.engine.scenario import ScenarioRun

    run = ScenarioRun(file)
    definition = run.definition
    view = View(str(file.data.get("title", file.display)), definition.id, file.display, [], rules=rule_table(run.spec))
    counter = [0]

    def record(state: GameState, actor: str, action: Action, offered: int, events: list[Event]) -> None:
        if not view.frames:
            before = run.result.before
            assert before is not None
            view.seats = before.seats()
            view.add(before, definition, 0, "", "the starting position", 0, [])
        counter[0] += 1
        view.add(state, definition, counter[0], actor, str(action), offered, events)

    run.observer = record
    result = run.run()
    if result.before is None:
        raise ViewError("\n".join(result.failures) or f"{file.display}: the position cannot be built")
    if not view.frames:
        view.seats = result.before.seats()
        view.add(result.before, definition, 0, "", "the starting position", 0, [])
    view.ending = "PASS" if result.ok else "FAIL: " + "; ".join(result.failures)
    return view


# --------------------------------------------------------------------------------------------
# The page


def _json_for_script(data: Any) -> str:
    """JSON that can sit inside a <script> element (no closing tag can appear in it)."""
    return json.dumps(data, separators=(",", ":")).replace("</", "<\\/")


def render_html(view: View) -> str:
    data = {
        "title": view.title,
        "game": view.game,
        "source": view.source,
        "seats": view.seats,
        "ending": view.ending,
        # the pictures of a long game repeat most of their text: gzip them (a 4,650-step game's
        # 80 MB of SVG becomes a few MB) and let the browser unpack them (DecompressionStream)
        "pictures_gzip": base64.b64encode(gzip.compress(json.dumps(view.pictures).encode(), mtime=0)).decode(),
        "rules": view.rules,
        "frames": [
            {"n": f.n, "actor": f.actor, "action": f.action, "offered": f.offered, "events": f.events,
             "picture": f.picture, "changed": f.changed}
            for f in view.frames
        ],
    }
    title = html.escape(view.title)
    return (PAGE.replace("__TITLE__", title)
            .replace("__SOURCE__", html.escape(view.source))
            .replace("__DATA__", _json_for_script(data)))


def write_html(path: Path, out: Path, display: str | None = None) -> View:
    view = build_view(path, display)
    out.write_text(render_html(view), encoding="utf-8")
    return view


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>__TITLE__ - hauntcheck view</title>
<style>
  body { font-family: sans-serif; margin: 0; color: #111; background: #fafafa; }
  header { padding: 8px 16px; background: #2b2d42; color: #fff; }
  header h1 { font-size: 18px; margin: 0 0 4px 0; }
  header .meta { font-size: 12px; opacity: 0.85; }
  #controls { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; padding: 8px 16px;
              border-bottom: 1px solid #ccc; background: #fff; position: sticky; top: 0; z-index: 2; }
  #scrub { flex: 1 1 320px; }
  #where { font-weight: bold; min-width: 180px; }
  main { display: flex; gap: 12px; padding: 12px 16px; align-items: flex-start; }
  #steps { flex: 0 0 44%; max-height: calc(100vh - 150px); overflow-y: auto; margin: 0; padding: 0; list-style: none;
           background: #fff; border: 1px solid #ddd; }
  #steps li { padding: 4px 8px; border-bottom: 1px solid #eee; cursor: pointer; font-size: 13px; }
  #steps li.current { background: #fff3c4; }
  #steps li .head { font-weight: bold; }
  #steps li .offered { color: #666; font-weight: normal; }
  #steps li ul { margin: 2px 0 0 0; padding-left: 18px; font-size: 12px; color: #333; }
  #steps li ul a { font-family: monospace; color: #1f5fa8; }
  #figure { flex: 1 1 auto; position: sticky; top: 52px; background: #fff; border: 1px solid #ddd; padding: 8px;
            overflow: auto; max-height: calc(100vh - 150px); }
  #figure svg { max-width: 100%; height: auto; }
  #figure g.changed rect.tile { stroke: #f08c00; stroke-width: 6px; }
  #changes { font-size: 12px; color: #a65f00; min-height: 1em; }
  #rules { padding: 8px 16px 40px 16px; }
  #rules dt { font-family: monospace; font-weight: bold; margin-top: 8px; }
  #rules dt:target, #rules dt:target + dd { background: #fff3c4; }
  #rules dd { margin-left: 16px; font-size: 13px; }
  #rules .cite { color: #666; font-size: 12px; }
  .hidden { display: none; }
</style>
</head>
<body>
<header><h1 id="title">__TITLE__</h1><div class="meta" id="meta">__SOURCE__</div></header>
<div id="controls">
  <button id="prev" title="previous step (left arrow)">&#9664;</button>
  <input id="scrub" type="range" min="0" max="0" value="0" aria-label="step">
  <button id="next" title="next step (right arrow)">&#9654;</button>
  <span id="where"></span>
  <label>seat <select id="seat"><option value="">all</option></select></label>
  <label>rule <input id="rule" list="rule-ids" placeholder="rule id or part of it" size="26"></label>
  <datalist id="rule-ids"></datalist>
  <span id="shown"></span>
</div>
<main>
  <ol id="steps"></ol>
  <div id="figure"><div id="changes"></div><div id="picture"></div></div>
</main>
<section id="rules"><h2>Rules applied</h2><dl id="rule-list"></dl></section>
<script type="application/json" id="data">__DATA__</script>
<script>
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  var frames = data.frames;
  var packed = Uint8Array.from(atob(data.pictures_gzip), function (c) { return c.charCodeAt(0); });
  new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"))).text().then(function (text) {
  data.pictures = JSON.parse(text);
  var list = document.getElementById("steps");
  var scrub = document.getElementById("scrub");
  var seatFilter = document.getElementById("seat");
  var ruleFilter = document.getElementById("rule");
  var current = 0;
  var items = [];
  document.getElementById("meta").textContent = data.game + " - " + data.source + " - " + data.ending;

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var k in attrs) { node.setAttribute(k, attrs[k]); }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  var used = {};
  frames.forEach(function (frame, i) {
    var li = el("li", {"data-index": String(i), "id": "step-" + frame.n});
    var head = el("div", {"class": "head"});
    head.textContent = frame.n === 0 ? "start: " + frame.action
      : "#" + frame.n + " " + frame.actor + ": " + frame.action + " ";
    if (frame.n !== 0) { head.appendChild(el("span", {"class": "offered"}, "(" + frame.offered + " legal)")); }
    li.appendChild(head);
    if (frame.events.length) {
      var ul = el("ul");
      frame.events.forEach(function (event) {
        used[event[0]] = true;
        var row = el("li");
        row.appendChild(el("a", {"href": "#rule-" + event[0], "title": (data.rules[event[0]] || {}).says || ""}, event[0]));
        row.appendChild(document.createTextNode(": " + event[1]));
        ul.appendChild(row);
      });
      li.appendChild(ul);
    }
    li.addEventListener("click", function () { show(i); });
    list.appendChild(li);
    items.push(li);
  });

  data.seats.forEach(function (seat) { seatFilter.appendChild(el("option", {"value": seat}, seat)); });
  var ruleIds = Object.keys(used).sort();
  var datalist = document.getElementById("rule-ids");
  var dl = document.getElementById("rule-list");
  ruleIds.forEach(function (id) {
    datalist.appendChild(el("option", {"value": id}));
    var rule = data.rules[id] || {says: "(not a rule of this game's spec)", cite: ""};
    dl.appendChild(el("dt", {"id": "rule-" + id}, id));
    var dd = el("dd", {}, rule.says);
    if (rule.cite) { dd.appendChild(el("div", {"class": "cite"}, "cite: " + rule.cite)); }
    dl.appendChild(dd);
  });

  function visible(i) {
    var frame = frames[i];
    var seat = seatFilter.value;
    var rule = ruleFilter.value.trim();
    if (i === 0) { return true; }
    if (seat && frame.actor !== seat) { return false; }
    if (rule && !frame.events.some(function (e) { return e[0].indexOf(rule) !== -1; })) { return false; }
    return true;
  }

  function applyFilters() {
    var count = 0;
    items.forEach(function (li, i) {
      var on = visible(i);
      li.classList.toggle("hidden", !on);
      if (on) { count += 1; }
    });
    document.getElementById("shown").textContent = count + " of " + frames.length + " steps shown";
  }

  function show(i) {
    current = Math.max(0, Math.min(frames.length - 1, i));
    var frame = frames[current];
    scrub.value = String(current);
    items.forEach(function (li) { li.classList.remove("current"); });
    items[current].classList.add("current");
    items[current].scrollIntoView({block: "nearest"});
    document.getElementById("where").textContent = frame.n === 0 ? "start" : "step " + frame.n + " of " + frames[frames.length - 1].n;
    var picture = document.getElementById("picture");
    picture.innerHTML = frame.picture >= 0 ? data.pictures[frame.picture] : "<p>(this game draws no pictures)</p>";
    frame.changed.forEach(function (place) {
      var group = picture.querySelector('g[data-place="' + place.replace(/"/g, "") + '"]');
      if (group) { group.classList.add("changed"); }
    });
    document.getElementById("changes").textContent = frame.changed.length ? "changed: " + frame.changed.join(", ") : "";
  }

  function step(delta) {
    var i = current + delta;
    while (i > 0 && i < frames.length - 1 && !visible(i)) { i += delta; }
    show(i);
  }

  scrub.max = String(frames.length - 1);
  scrub.addEventListener("input", function () { show(parseInt(scrub.value, 10)); });
  document.getElementById("prev").addEventListener("click", function () { step(-1); });
  document.getElementById("next").addEventListener("click", function () { step(1); });
  seatFilter.addEventListener("change", applyFilters);
  ruleFilter.addEventListener("input", applyFilters);
  document.addEventListener("keydown", function (event) {
    if (event.target === ruleFilter) { return; }
    if (event.key === "ArrowRight" || event.key === "ArrowDown") { step(1); event.preventDefault(); }
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") { step(-1); event.preventDefault(); }
    else if (event.key === "Home") { show(0); event.preventDefault(); }
    else if (event.key === "End") { show(frames.length - 1); event.preventDefault(); }
  });
  applyFilters();
  show(0);
  document.body.setAttribute("data-ready", "true");
  });
})();
</script>
</body>
</html>
"""
