"""Tripwires on the Betrayal component specs (spec/betrayal/*.yaml except rules.yaml).

Every file must validate against its schema, unknown keys must be refused, the counts printed in
the rulebook must hold, the rulebook's worked examples must come out of the data, the files must
agree with each other (hauntcheck.engine.betrayal.specdata.cross_check) and every citation must
name a listed source.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from hauntcheck.engine.betrayal.specdata import (
    BetrayalData,
    Track,
    cross_check,
    custom_hooks,
)

SPEC = Path(__file__).parents[1] / "spec"
SCHEMAS = SPEC / "schema"
FILES = {
    "rooms": "rooms.yaml",
    "explorers": "explorers.yaml",
    "omens": "omens.yaml",
    "items": "items.yaml",
    "events": "events.yaml",
    "haunt-chart": "haunt-chart.yaml",
    "traitors": "traitors.yaml",
    "components": "components.yaml",
}
TRAITS = ("might", "speed", "sanity", "knowledge")


def _load(kind: str) -> dict[str, Any]:
    data = yaml.safe_load((SPEC / "betrayal" / FILES[kind]).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def files() -> dict[str, dict[str, Any]]:
    return {kind: _load(kind) for kind in FILES}


@pytest.fixture(scope="module")
def data(files: dict[str, dict[str, Any]]) -> BetrayalData:
    return BetrayalData.from_files(files)


def _registry() -> Registry[Any]:
    registry: Registry[Any] = Registry()
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        registry = registry.with_resource(path.name, Resource.from_contents(json.loads(path.read_text(encoding="utf-8"))))
    return registry


def _validator(kind: str) -> Draft202012Validator:
    schema = json.loads((SCHEMAS / f"{kind}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=_registry())


def _errors(kind: str, doc: Any) -> list[str]:
    return [e.message for e in _validator(kind).iter_errors(doc)]


# --------------------------------------------------------------------------------------------
# Files and schemas


@pytest.mark.parametrize("kind", sorted(FILES))
def test_file_header_and_schema(kind: str) -> None:
    text = (SPEC / "betrayal" / FILES[kind]).read_text(encoding="utf-8")
    first = text.splitlines()[0]
    assert first == f"# yaml-language-server: $schema=../schema/{kind}.schema.json"
    doc = yaml.safe_load(text)
    assert doc["spec_version"] == 1
    assert doc["kind"] == kind
    assert _errors(kind, doc) == []


def test_effects_schema_is_valid() -> None:
    schema = json.loads((SCHEMAS / "effects.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    for name in ("effect", "ability", "trigger", "roll", "band", "condition", "card", "weapon"):
        assert name in schema["$defs"]


def test_unknown_keys_are_rejected(files: dict[str, dict[str, Any]]) -> None:
    top = copy.deepcopy(files["rooms"])
    top["colour"] = "red"
    assert _errors("rooms", top)

    room = copy.deepcopy(files["rooms"])
    room["rooms"][0]["secret"] = True
    assert _errors("rooms", room)

    effect = copy.deepcopy(files["omens"])
    book = next(c for c in effect["cards"] if c["id"] == "book")
    book["effects"][0]["do"][0]["teleport"] = "attic"
    assert _errors("omens", effect)

    track = copy.deepcopy(files["explorers"])
    track["explorers"][0]["traits"]["might"]["max"] = 8
    assert _errors("explorers", track)


def test_an_effect_has_exactly_one_verb(files: dict[str, dict[str, Any]]) -> None:
    doc = copy.deepcopy(files["omens"])
    book = next(c for c in doc["cards"] if c["id"] == "book")
    book["effects"][0]["do"][0]["lose"] = {"sanity": 1}  # gain and lose in one effect
    assert _errors("omens", doc)
    book["effects"][0]["do"][0] = {"custom": "no-says"}  # custom without its own-words line
    assert _errors("omens", doc)


def test_traitor_rule_shapes_are_enforced(files: dict[str, dict[str, Any]]) -> None:
    doc = copy.deepcopy(files["traitors"])
    doc["haunts"][0]["traitor"] = {"rule": "highest"}  # no trait
    assert _errors("traitors", doc)
    doc["haunts"][0]["traitor"] = {"rule": "explorer", "explorer": "ox-bellows"}  # no fallback
    assert _errors("traitors", doc)


def _citations(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["source"]] if isinstance(node.get("source"), str) and "section" in node else []
        return found + [s for v in node.values() for s in _citations(v)]
    if isinstance(node, list):
        return [s for v in node for s in _citations(v)]
    return []


def test_every_citation_names_a_listed_source(files: dict[str, dict[str, Any]]) -> None:
    sources = yaml.safe_load((SPEC / "sources.yaml").read_text(encoding="utf-8"))
    listed = {s["file"] for s in sources["sources"]}
    for kind, doc in files.items():
        cited = _citations(doc)
        assert cited, kind
        assert set(cited) <= listed, (kind, set(cited) - listed)


# --------------------------------------------------------------------------------------------
# Counts printed in the rulebook


def test_room_counts(data: BetrayalData) -> None:
    rooms = list(data.rooms.values())
    assert len(rooms) == 47
    assert sum(r.drawable for r in rooms) == 42
    strip = sorted((r.strip_position, r.id) for r in rooms if r.tile == "entrance-strip")
    assert strip == [(1, "entrance-hall"), (2, "foyer"), (3, "grand-staircase")]
    assert {r.id for r in rooms if not r.drawable and r.tile is None} == {"upper-landing", "basement-landing"}
    symbols = Counter(r.symbol for r in rooms if r.drawable)
    assert symbols == {"omen": 13, "event": 18, "item": 4, "none": 7}
    assert data.rooms["vault"].symbols_behind_barrier == ("item", "item")
    assert {r.id for r in rooms if r.barrier_splits} == {"catacombs", "chasm", "tower", "vault"}


def test_room_connections(data: BetrayalData) -> None:
    def links(room: str) -> set[tuple[str | None, str, str]]:
        return {(c.to or c.to_token, c.kind, c.direction) for c in data.rooms[room].connections}

    assert ("upper-landing", "stairs", "both") in links("grand-staircase")
    assert ("grand-staircase", "stairs", "both") in links("upper-landing")
    assert ("stairs-from-basement", "secret-stairs", "both") in links("foyer")
    assert ("foyer", "secret-stairs", "both") in links("stairs-from-basement")
    assert links("coal-chute") == {("basement-landing", "chute", "one-way")}
    assert links("gallery") == {("ballroom", "jump", "one-way")}
    assert links("collapsed-room") == {("below-collapsed-room", "fall", "one-way")}


def test_card_and_explorer_counts(data: BetrayalData) -> None:
    by_type = Counter(c.type for c in data.cards.values())
    assert by_type == {"omen": 13, "item": 22, "event": 45}
    assert len(data.explorers) == 12
    assert len(data.explorer_cards) == 6
    weapons = {c.id for c in data.cards.values() if c.is_weapon}
    assert weapons == {"axe", "blood-dagger", "revolver", "sacrificial-dagger", "spear"}
    companions = {c.id for c in data.cards.values() if c.is_companion}
    assert companions == {"dog", "girl", "madman"}
    assert not data.cards["bite"].may("tradable")
    assert not data.cards["dog"].may("stealable")
    assert data.cards["axe"].may("tradable")
    assert not data.cards["armor"].may("stealable")
    assert data.cards["blood-dagger"].may("stealable") and not data.cards["blood-dagger"].may("droppable")
    mirrors = [c for c in data.cards.values() if c.name == "Image in the Mirror"]
    assert len(mirrors) == 2


def test_haunt_chart(data: BetrayalData) -> None:
    chart = data.chart
    assert len(chart.rows) == 13 and len(chart.columns) == 13
    assert all(len(row) == 13 for row in chart.rows.values())
    assert sum(len(row) for row in chart.rows.values()) == 169
    assert chart.numbers() == set(range(1, 51))
    omen_rooms = {r.id for r in data.rooms.values() if r.omen_room}
    assert set(chart.rows) == omen_rooms
    assert set(chart.columns) == {c.id for c in data.cards.values() if c.type == "omen"}
    # every haunt appears three or four times on the 2nd-edition chart
    assert set(Counter(n for row in chart.rows.values() for n in row).values()) == {3, 4}
    assert chart.haunt("catacombs", "girl") == 1
    assert sorted(r for r, o in chart.cells(2)) == ["balcony", "furnace-room", "kitchen", "master-bedroom"]
    assert {o for _, o in chart.cells(2)} == {"spirit-board"}
    assert chart.haunt("charred-room", "skull") == 47
    assert chart.haunt("junk-room", "ring") == chart.haunt("junk-room", "skull") == chart.haunt("junk-room", "spear") == 17


def test_disputed_chart_cell_is_marked(files: dict[str, dict[str, Any]]) -> None:
    notes = {(c["room"], c["omen"]): c for c in files["haunt-chart"]["cells"]}
    cell = notes[("charred-room", "skull")]
    assert cell["haunt"] == 47 and cell["alternatives"] == [34] and cell["unverified"]


def test_traitor_table(data: BetrayalData, files: dict[str, dict[str, Any]]) -> None:
    assert sorted(data.traitors) == list(range(1, 51))
    rules = Counter(h.traitor.rule for h in data.traitors.values())
    # counted by hand from the printed traitor table
    assert rules == {
        "haunt-revealer": 13, "left-of-revealer": 8, "highest": 8, "lowest": 6, "explorer": 7,
        "none": 4, "hidden": 2, "oldest": 1, "youngest": 1,
    }
    seven = data.traitors[7].traitor
    assert (seven.rule, seven.explorer, seven.hobby) == ("explorer", "father-rhinehardt", "Gardening")
    assert seven.otherwise is not None
    assert (seven.otherwise.rule, seven.otherwise.trait, seven.otherwise.except_revealer) == ("highest", "sanity", False)
    three = data.traitors[3].traitor
    assert (three.rule, three.trait, three.except_revealer) == ("lowest", "knowledge", True)
    assert data.traitors[21].traitor.rule == "oldest" and data.traitors[44].traitor.rule == "youngest"
    assert data.traitors[9].traitor.later == "heroes-may-turn-traitor"
    assert {n for n, h in data.traitors.items() if h.traitor.rule == "hidden"} == {34, 43}
    assert data.traitors[1].title == "The Mummy Walks"
    assert data.tie_break.order == ("revealer-if-tied", "nearest-to-revealers-left")
    assert files["traitors"]["tie_break"]["cite"]["source"] == "000_336c2a25d56b68e6.txt"


def test_components(data: BetrayalData) -> None:
    comp = {c.id: c for top in data.components for c in top.walk()}
    assert comp["dice"].count == 8 and comp["dice"].faces == (0, 0, 1, 1, 2, 2)
    assert comp["room-tiles"].count == 44 and comp["starting-strip"].count == 1
    assert comp["tokens"].count == 149
    assert sum(p.count or 0 for p in comp["tokens"].parts) == 149
    assert (comp["omen-cards"].count, comp["item-cards"].count, comp["event-cards"].count) == (13, 22, 45)
    assert comp["explorer-figures"].count == 6 and comp["character-cards"].count == 6
    assert len(comp["small-monster-tokens"].colours) == 7


# --------------------------------------------------------------------------------------------
# Explorers: rulebook examples and start values


def test_zoe_ingstrom_rulebook_examples(data: BetrayalData) -> None:
    zoe = data.explorers["zoe-ingstrom"]
    might, sanity = zoe.traits["might"], zoe.traits["sanity"]
    assert might.start_value == 3
    up = might.moved(might.start, 2)
    assert up is not None and might.values[up] == 4
    assert sanity.start_value == 5
    down = sanity.moved(sanity.start, -2)
    assert down is not None and sanity.values[down] == 3
    # one step further down is the skull once the haunt has started, the lowest value before
    assert sanity.moved(sanity.start, -3, haunt_started=True) is None
    assert sanity.moved(sanity.start, -3) == 0


def test_track_caps_at_the_top() -> None:
    track = Track((1, 2, 3, 4, 5, 6, 7, 8), 3)
    assert track.moved(3, 10) == 7
    assert track.moved(3, -3, haunt_started=True) == 0


# The green starting values as printed (might, speed, sanity, knowledge): a second transcription
# of every track's start, independent of the start indices.
START_VALUES = {
    "ox-bellows": (5, 4, 3, 3),
    "darrin-flash-williams": (3, 6, 3, 3),
    "missy-dubourde": (3, 5, 3, 4),
    "zoe-ingstrom": (3, 4, 5, 3),
    "peter-akimoto": (3, 4, 4, 4),
    "brandon-jaspers": (4, 4, 4, 3),
    "madame-zostra": (4, 3, 4, 4),
    "vivian-lopez": (2, 4, 4, 5),
    "professor-longfellow": (3, 4, 3, 5),
    "father-rhinehardt": (2, 3, 6, 4),
    "heather-granville": (3, 4, 3, 5),
    "jenny-leclerc": (4, 4, 4, 3),
}


def test_start_values_and_tracks(data: BetrayalData) -> None:
    assert set(data.explorers) == set(START_VALUES)
    for eid, starts in START_VALUES.items():
        explorer = data.explorers[eid]
        assert tuple(explorer.traits[t].start_value for t in TRAITS) == starts, eid
        for t in TRAITS:
            values = explorer.traits[t].values
            assert len(values) == 8 and list(values) == sorted(values), (eid, t)
    ox = data.explorers["ox-bellows"]
    assert ox.traits["might"].values == (4, 5, 5, 6, 6, 7, 8, 8)
    assert ox.birthday == (10, 18) and ox.age == 23 and ox.height_inches == 76


def test_explorer_cards_pair_up(data: BetrayalData) -> None:
    for card in data.explorer_cards.values():
        a, b = card.sides
        assert data.explorers[a].other_side == b and data.explorers[b].other_side == a
        assert data.explorers[a].card == data.explorers[b].card == card.id
    assert data.explorer_cards["yellow-card"].sides == ("missy-dubourde", "zoe-ingstrom")


def test_yellow_card_colour_is_marked(files: dict[str, dict[str, Any]]) -> None:
    yellow = next(c for c in files["explorers"]["cards"] if c["id"] == "yellow-card")
    assert "orange" in yellow["unverified"]


# --------------------------------------------------------------------------------------------
# Effects


def test_room_effects(files: dict[str, dict[str, Any]]) -> None:
    rooms = {r["id"]: r for r in files["rooms"]["rooms"]}
    attic = rooms["attic"]["effects"][0]
    assert attic["trigger"] == "exit"
    assert attic["do"][0]["roll"]["trait"] == "speed" and attic["do"][0]["roll"]["target"] == 3
    chapel = rooms["chapel"]["effects"][0]
    assert (chapel["trigger"], chapel["limit"], chapel["do"]) == ("end-of-turn", "once-per-explorer-per-game", [{"gain": {"sanity": 1}}])
    elevator = rooms["mystic-elevator"]["effects"][0]["do"][0]["roll"]
    assert elevator["dice"] == 2 and [b["min"] for b in elevator["bands"]] == [4, 3, 2, 1, 0]
    assert "unverified" in rooms["collapsed-room"]["effects"][0]
    assert "unverified" in rooms["stairs-from-basement"]


def _bands_cover(bands: list[dict[str, Any]], top: int) -> bool:
    covered = sorted((b["min"], b.get("max", top)) for b in bands)
    expect = 0
    for low, high in covered:
        if low != expect:
            return False
        expect = high + 1
    return expect > top


def _rolls(node: Any) -> list[dict[str, Any]]:
    out = []
    if isinstance(node, dict):
        if isinstance(node.get("roll"), dict):
            out.append(node["roll"])
        for value in node.values():
            out.extend(_rolls(value))
    elif isinstance(node, list):
        for value in node:
            out.extend(_rolls(value))
    return out


@pytest.mark.parametrize("kind", ["rooms", "omens", "items", "events"])
def test_roll_bands_cover_every_result(files: dict[str, dict[str, Any]], kind: str) -> None:
    """Bands of a roll leave no gap and do not overlap: from 0 up to the most a roll can show."""
    rolls = [r for r in _rolls(files[kind]) if "bands" in r]
    assert rolls
    for roll in rolls:
        top = 2 * roll["dice"] + 2 * sum(max(0, x["dice"]) for x in roll.get("extra_dice", [])) if "dice" in roll else 16
        assert _bands_cover(roll["bands"], top), roll


def test_custom_hooks_are_few_and_known(files: dict[str, dict[str, Any]]) -> None:
    hooks = {name for _, name, says in custom_hooks(files) if says}
    assert len({name for _, name, _ in custom_hooks(files)}) == len(hooks)
    assert hooks == {
        "below-collapsed-token-placed", "junk-room-short-exit", "elevator-stayed-whole-turn",
        "mystic-elevator-steer", "vault-opened", "dog-fetch", "mask-worn", "bell-book-candle",
        "music-box-toggle", "music-box-open", "music-box-drop", "item-raised-trait",
        "mirror-pass-left", "jonah-swap-puzzle-box", "slide-redirect",
    }


# --------------------------------------------------------------------------------------------
# Cross-file consistency


def test_cross_check_passes_on_the_spec(files: dict[str, dict[str, Any]]) -> None:
    assert cross_check(files) == []


def test_cross_check_accepts_file_names(files: dict[str, dict[str, Any]]) -> None:
    by_name = {f"betrayal/{FILES[k]}": v for k, v in files.items()}
    assert cross_check(by_name) == []


def test_cross_check_finds_planted_errors(files: dict[str, dict[str, Any]]) -> None:
    broken = copy.deepcopy(files)
    broken["haunt-chart"]["rows"][0]["room"] = "foyer"
    broken["traitors"]["haunts"] = broken["traitors"]["haunts"][:-1]
    broken["explorers"]["explorers"][0]["other_side"] = "zoe-ingstrom"
    broken["components"]["components"][0]["count"] = 1
    next(c for c in broken["components"]["components"] if c["id"] == "omen-cards")["count"] = 12
    del broken["items"]
    problems = "\n".join(cross_check(broken))
    assert "row 'foyer' is not an omen room" in problems
    assert "omen room 'abandoned-room' has no row" in problems
    assert "haunt 50 has no traitor rule" in problems
    assert "ox-bellows and its other side 'zoe-ingstrom' do not pair up" in problems
    assert "omen-cards counts 12, omens.yaml has 13" in problems
    assert "items.yaml: missing" in problems


def test_cross_check_reports_malformed_data_without_raising() -> None:
    problems = cross_check({"rooms": {"kind": "rooms", "rooms": [{"id": "x"}]}})
    assert any("malformed" in p for p in problems)


def test_an_ability_rule_must_name_a_defined_clause() -> None:
    """``rule:`` on an ability (the clause it carries out) is checked against rules.yaml, at its line."""
    from hauntcheck.engine.games import game_spec, rule_id_errors

    spec = game_spec("betrayal")
    assert rule_id_errors(spec) == []
    rooms = spec.one("rooms").data["rooms"]
    elevator = next(r for r in rooms if r["id"] == "mystic-elevator")
    ability = next(a for a in elevator["effects"] if a.get("rule"))
    kept = ability["rule"]
    try:
        ability["rule"] = "room.mystic-elevator.no-such-clause"
        errors = [str(e) for e in rule_id_errors(spec)]
    finally:
        ability["rule"] = kept
    assert len(errors) == 1 and "rooms.yaml:" in errors[0]
    assert "the ability names rule 'room.mystic-elevator.no-such-clause', which rules.yaml does not define" in errors[0]
