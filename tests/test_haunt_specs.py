"""The pilot haunt specs: files, schema, cross-file references, player-count tables, agreement with
the haunt chart and the traitor table, win conditions, hooks, and the checks failing when they should."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from hauntcheck.engine.betrayal.hauntspec import (
    PLAYER_COUNTS,
    custom_hooks_used,
    evaluate_formula,
    haunt_cross_check,
    hook_coverage,
    load_haunt,
)
from hauntcheck.engine.spec import read_yaml

ROOT = Path(__file__).parents[1]
SPEC = ROOT / "spec"
SCHEMAS = SPEC / "schema"
BETRAYAL = SPEC / "betrayal"
HAUNTS = BETRAYAL / "haunts"
MODELINE = "# yaml-language-server: $schema=../../schema/haunt.schema.json"

PILOTS = {
    1: "01-the-mummy-walks",
    2: "02-the-seance",
    3: "03-frog-leg-stew",
    4: "04-the-web-of-destiny",
    5: "05-i-was-a-teenage-lycanthrope",
    6: "06-the-floating-eye",
    7: "07-carnivorous-ivy",
    8: "08-wail-of-the-banshee",
    9: "09-the-dance-of-death",
    10: "10-family-gathering",
    11: "11-let-them-in",
    12: "12-fleshwalkers",
    14: "14-the-stars-are-right",
    13: "13-perchance-to-dream",
    16: "16-the-phantoms-embrace",
    17: "17-a-breath-of-wind",
    19: "19-a-friend-for-the-ages",
    21: "21-house-of-the-living-dead",
    22: "22-the-abyss-gazes-back",
    23: "23-tentacled-horror",
    26: "26-pay-the-piper",
    27: "27-amok-flesh",
    29: "29-frankensteins-legacy",
    31: "31-airborne",
    32: "32-lost",
    33: "33-an-invocation-of-darkness",
    34: "34-guillotines",
    35: "35-small-change",
    36: "36-better-with-friends",
    37: "37-checkmate",
    38: "38-hellbeasts",
    39: "39-the-heir",
    40: "40-buried-alive",
    41: "41-invisible-traitor",
    42: "42-comes-the-hero",
    44: "44-death-doth-find-us-all",
    45: "45-tick-tick-tick",
    46: "46-the-feast",
    47: "47-worm-ouroboros",
    48: "48-stacked-like-cordwood",
    25: "25-voodoo",
    28: "28-ring-of-king-solomon",
    30: "30-tomb-of-dracula",
    50: "50-treasure-hunt",
    18: "18-united-we-stand",
    20: "20-ghost-bride",
    24: "24-fly-away-home",
    15: "15-here-there-be-dragons",
    43: "43-the-star-sickness",
    49: "49-you-wear-it-well",
}

# The named hooks each pilot needs. Pinned so that a new hook (or a hook grown into vocabulary)
# is a deliberate, reviewed change.
HOOKS = {
    1: ("transfer-custody-to-monster",),
    2: ("house-collapse",),
    3: (),
    4: (),
    5: (),
    6: (),
    7: ("jam-mystic-elevator",),
    8: ("banshee-path",),
    9: ("skull-sanity-turns-traitor",),
    10: (),
    11: (),
    12: (),
    14: ("paint-in-order", "sacrifice"),
    13: (),
    16: (),
    17: ("poltergeist-re-form",),
    19: (),
    21: (),
    22: (),
    23: (),
    26: (),
    27: (),
    29: (),
    31: ("remove-basement",),
    32: ("lost-house-reshuffle",),
    33: (),
    34: ("collars", "key-rules"),
    35: (),
    36: (),
    37: (),
    38: (),
    39: (),
    40: ("buried-damage", "grow-basement", "spirit-board-table"),
    41: (),
    42: (),
    44: ("age-heroes", "age-one-decade", "first-decade"),
    45: (),
    46: (),
    47: (),
    48: (),
    25: (),
    28: (),
    30: ("dawn", "domination"),
    50: (),
    18: ("furnace-explodes",),
    20: ("choose-groom", "groom-becomes-ghost", "groom-loses-might"),
    24: ("bat-latches", "bats-arrive", "bats-bite", "drive-off-bats", "first-bats", "kill-latched-bat"),
    15: (),
    43: (),
    49: ("attack-body", "leave-bodies", "possession-ritual"),
}


def _data(path: Path) -> Any:
    data, _positions, _text = read_yaml(path)
    return data


def _validator() -> Draft202012Validator:
    resources = [
        (f.name, Resource.from_contents(json.loads(f.read_text(encoding="utf-8")), default_specification=DRAFT202012))
        for f in sorted(SCHEMAS.glob("*.schema.json"))
    ]
    schema = json.loads((SCHEMAS / "haunt.schema.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema, registry=Registry().with_resources(resources))


VALIDATOR = _validator()


def _haunt(number: int) -> Any:
    return _data(HAUNTS / f"{PILOTS[number]}.yaml")


def _all_haunts() -> dict[str, Any]:
    return {f"{stem}.yaml": _haunt(n) for n, stem in PILOTS.items()}


def _others() -> dict[str, Any]:
    def opt(name: str) -> Any:
        path = BETRAYAL / name
        return _data(path) if path.is_file() else None

    return {
        "rooms": opt("rooms.yaml"),
        "omens": opt("omens.yaml"),
        "items": opt("items.yaml"),
        "events": opt("events.yaml"),
        "explorers": opt("explorers.yaml"),
        "components": opt("components.yaml"),
    }


def _errors(data: Any) -> list[str]:
    return [f"{'.'.join(str(p) for p in e.absolute_path)}: {e.message}" for e in VALIDATOR.iter_errors(data)]


def test_the_13_pilot_files_exist_and_nothing_else() -> None:
    assert sorted(p.stem for p in HAUNTS.glob("*.yaml")) == sorted(PILOTS.values())


@pytest.mark.parametrize("number", sorted(PILOTS))
def test_pilot_file_header_and_schema(number: int) -> None:
    path = HAUNTS / f"{PILOTS[number]}.yaml"
    assert path.read_text(encoding="utf-8").splitlines()[0] == MODELINE
    data = _data(path)
    assert data["spec_version"] == 1
    assert data["kind"] == "haunt"
    assert _errors(data) == []


@pytest.mark.parametrize("number", sorted(PILOTS))
def test_number_slug_and_title_agree_with_the_file_name_chart_and_traitor_table(number: int) -> None:
    data = _haunt(number)
    stem = PILOTS[number]
    assert data["number"] == number == int(stem[:2])
    assert data["slug"] == stem[3:]
    chart = _data(BETRAYAL / "haunt-chart.yaml")
    assert chart["haunts"]["first"] <= number <= chart["haunts"]["last"]
    assert any(number in row["haunts"] for row in chart["rows"]), "the haunt chart never selects this haunt"
    traitors = {entry["haunt"]: entry for entry in _data(BETRAYAL / "traitors.yaml")["haunts"]}
    assert data["title"] == traitors[number]["title"]
    assert data["traitor"] == traitors[number]["traitor"]


@pytest.mark.parametrize("number", sorted(PILOTS))
def test_both_books_are_cited_and_every_citation_lies_inside_them(number: int) -> None:
    data = _haunt(number)
    tome, survival = data["cite"]["traitors_tome"], data["cite"]["secrets_of_survival"]
    assert tome["section"] == f"Traitor's Tome - {data['title']}"
    assert survival["section"] == f"Secrets of Survival - {data['title']}"
    ranges = [tome["lines"], survival["lines"]]

    def citations(node: Any) -> list[dict[str, Any]]:
        if isinstance(node, dict):
            found = [node] if "source" in node and "section" in node else []
            return found + [c for v in node.values() for c in citations(v)]
        if isinstance(node, list):
            return [c for v in node for c in citations(v)]
        return []

    for cite in citations(data):
        assert cite["source"] == "000_336c2a25d56b68e6.txt"
        assert any(lo <= cite["lines"][0] <= cite["lines"][1] <= hi for lo, hi in ranges), cite


def test_cross_check_passes_for_every_pilot() -> None:
    problems = haunt_cross_check(_all_haunts(), **_others())
    assert [str(p) for p in problems] == []


@pytest.mark.parametrize("number", sorted(PILOTS))
def test_player_count_tables_cover_3_to_6_and_follow_their_formula(number: int) -> None:
    haunt = load_haunt(_haunt(number))
    for table in haunt.tables.values():
        assert sorted(table.values) == list(PLAYER_COUNTS), table.id
        if table.formula is not None and table.formula["of"] == "players":
            assert {p: evaluate_formula(table.formula, p) for p in PLAYER_COUNTS} == dict(table.values), table.id


@pytest.mark.parametrize("number", sorted(PILOTS))
def test_every_side_has_a_win_condition(number: int) -> None:
    haunt = load_haunt(_haunt(number))
    if haunt.haunt_kind in ("traitor", "hidden-traitor"):
        assert haunt.traitor_side is not None
    else:
        assert haunt.traitor_side is None
    for side in haunt.sides().values():
        assert len(side.wins) >= 1


@pytest.mark.parametrize("number", sorted(PILOTS))
def test_hooks_are_declared_used_and_pinned(number: int) -> None:
    data = _haunt(number)
    used = {hook for _path, hook in custom_hooks_used(data)}
    assert used == set(HOOKS[number])
    assert hook_coverage({"f": data})["f"] == HOOKS[number]


def test_haunt_kinds_of_the_pilots() -> None:
    kinds = {n: _haunt(n)["haunt_kind"] for n in PILOTS}
    assert kinds[12] == "no-traitor"
    assert kinds[31] == kinds[50] == "competitive"
    assert kinds[34] == kinds[43] == "hidden-traitor"
    assert {kinds[n] for n in PILOTS if n not in (12, 31, 34, 43, 50)} == {"traitor"}


def test_amounts_and_track_stats_resolve() -> None:
    seance = load_haunt(_haunt(2))
    assert [seance.amount({"table": "hero-seance-successes"}, p) for p in PLAYER_COUNTS] == [1, 2, 2, 3]
    ivy = load_haunt(_haunt(7))
    assert [ivy.amount({"of": "players", "times": 2, "max": 10}, p) for p in PLAYER_COUNTS] == [6, 8, 10, 10]
    spider = load_haunt(_haunt(4)).monsters["spider"]
    assert spider.stats_at(1) == {"speed": 0, "might": 2, "sanity": 5}
    assert spider.stats_at(9) == {"speed": 6, "might": 8, "sanity": 5}


# ---------------------------------------------------------------------------------- negative cases


def test_unknown_room_is_reported_with_its_path() -> None:
    data = copy.deepcopy(_haunt(1))
    data["heroes_side"]["tasks"][0]["where_any"][2]["in"]["room"] = "libary"
    problems = haunt_cross_check({"01.yaml": data}, **_others())
    assert [(p.file, p.path) for p in problems] == [("01.yaml", ("heroes_side", "tasks", 0, "where_any", 2, "in", "room"))]
    assert "libary" in problems[0].message and "rooms.yaml" in problems[0].message


def test_unknown_card_token_flag_and_undeclared_hook_are_reported() -> None:
    data = copy.deepcopy(_haunt(2))
    data["heroes_side"]["tasks"][2]["holding"] = "coffin"
    data["heroes_side"]["wins"][0]["when"]["all"][0]["flag"] = "bones-burried"
    data["traitor_side"]["rules"][1]["do"][0]["custom"] = "house-colapse"
    messages = [p.message for p in haunt_cross_check({"02.yaml": data}, **_others())]
    assert any("'coffin'" in m for m in messages)
    assert any("'bones-burried'" in m for m in messages)
    assert any("'house-colapse'" in m for m in messages)
    assert any("'house-collapse' is declared but never used" in m for m in messages)


def test_wrong_token_colour_and_formula_mismatch_are_reported() -> None:
    data = copy.deepcopy(_haunt(10))
    data["tokens"][1]["colour"] = "teal"
    data["tables"][0]["values"]["5"] = 4
    messages = [p.message for p in haunt_cross_check({"10.yaml": data}, **_others())]
    assert any("'teal'" in m for m in messages)
    assert any("formula gives 5" in m for m in messages)


def test_unknown_key_is_rejected_by_the_schema() -> None:
    data = copy.deepcopy(_haunt(8))
    data["monsters"][0]["flies"] = True
    errors = _errors(data)
    assert errors and any("flies" in e for e in errors)


def test_player_table_with_a_gap_is_rejected() -> None:
    data = copy.deepcopy(_haunt(6))
    del data["tables"][0]["values"]["5"]
    assert any("'5' is a required property" in e for e in _errors(data))


def test_traitor_haunt_without_traitor_side_is_rejected() -> None:
    data = copy.deepcopy(_haunt(3))
    del data["traitor_side"]
    assert _errors(data)


def test_predicates_compose_and_reject_two_leaves_in_one_object() -> None:
    data = copy.deepcopy(_haunt(4))
    data["heroes_side"]["wins"][0]["when"] = {"flag": "web-destroyed", "heroes_dead": "all"}
    assert _errors(data)
    data["heroes_side"]["wins"][0]["when"] = {"any": [{"flag": "web-destroyed"}, {"not": {"heroes_dead": "all"}}]}
    assert _errors(data) == []
