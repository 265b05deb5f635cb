"""Checks on spec/betrayal/rules.yaml, the rule clauses of Betrayal 2nd edition.

The file must validate against the rules schema, its ids must be unique and every
cross-reference and citation must resolve, and the clauses the engine relies on must exist.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from hauntcheck.engine.betrayal import tables
from hauntcheck.engine.betrayal.state import variant_names
from hauntcheck.engine.games import game_spec

SPEC = Path(__file__).parents[1] / "spec"
RULES_FILE = SPEC / "betrayal" / "rules.yaml"
MODELINE = "# yaml-language-server: $schema=../schema/rules.schema.json"

# Clauses other parts of hauntcheck name directly; renaming any of them is a breaking change.
PINNED_IDS = [
    "setup.first-player-next-birthday",
    "turn.order-before-haunt",
    "turn.actions-any-order",
    "turn.order-after-haunt",
    "trait.maximum",
    "trait.clamp-before-haunt",
    "trait.skull-kills-after-haunt",
    "damage.physical-split",
    "damage.mental-split",
    "move.speed-spaces",
    "move.card-ends-movement",
    "move.opponent-slows",
    "move.minimum-one",
    "discover.floor-match",
    "discover.set-aside-mismatch",
    "discover.reshuffle-discards",
    "discover.front-door-locked",
    "discover.no-sealed-floor",
    "discover.rearrange-fallback",
    "room.barrier.once-per-turn",
    "room.barrier.landing-side",
    "room.entrance-hall.strip-three-rooms",
    "room.stairs-from-basement.foyer-link",
    "room.coal-chute.slide",
    "room.collapsed-room.first-fall-places-tile",
    "room.junk-room.always-escapes",
    "room.mystic-elevator.once-per-villain-round",
    "room.mystic-elevator.cannot-seal",
    "room.vault.arrive-outside",
    "room.underground-lake.upper-collapse",
    "item.one-action-per-item",
    "item.over-the-top",
    "roll.dice-faces",
    "roll.same-roll-once-per-turn",
    "roll.task-once-per-turn",
    "roll.max-eight-dice",
    "attack.damage-difference",
    "attack.tie-no-damage",
    "attack.target-needs-trait",
    "attack.steal",
    "attack.no-steal-at-range",
    "haunt.roll",
    "haunt.chart-lookup",
    "haunt.selection-skip",
    "traitor.tie-break",
    "traitor.refuse-events",
    "hidden-traitor.token-one",
    "monster.group-roll",
    "monster.stun-instead-of-damage",
    "monster.basement-rescue",
    "death.items-drop",
    "win.heroes-need-survivor",
    "glossary.adjacent",
    "glossary.line-of-sight",
]

ID_GROUPS = {
    "setup", "turn", "trait", "damage", "move", "discover", "room", "card", "item", "omen",
    "event", "roll", "attack", "haunt", "traitor", "hidden-traitor", "monster", "death", "win",
    "glossary",
}


def _load_yaml(path: Path) -> Any:
    with path.open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    data = _load_yaml(RULES_FILE)
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def rules(doc: dict[str, Any]) -> list[dict[str, Any]]:
    entries = doc["rules"]
    assert isinstance(entries, list)
    return entries


def _citations(rule: dict[str, Any]) -> list[dict[str, Any]]:
    cite = rule["cite"]
    return cite if isinstance(cite, list) else [cite]


def test_starts_with_modeline() -> None:
    first = RULES_FILE.read_text(encoding="utf-8").splitlines()[0]
    assert first == MODELINE


def test_valid_against_schema(doc: dict[str, Any]) -> None:
    schema_dir = SPEC / "schema"
    registry: Registry[Any] = Registry().with_resources(
        (p.name, Resource.from_contents(json.loads(p.read_text(encoding="utf-8"))))
        for p in sorted(schema_dir.glob("*.schema.json"))
    )
    schema = json.loads((schema_dir / "rules.schema.json").read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema, registry=registry)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


def test_header(doc: dict[str, Any]) -> None:
    assert doc["kind"] == "rules"
    assert doc["game"] == "betrayal"
    assert doc["spec_version"] == 1


def test_ids_unique(rules: list[dict[str, Any]]) -> None:
    ids = [r["id"] for r in rules]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    assert not duplicates


def test_ids_use_known_groups(rules: list[dict[str, Any]]) -> None:
    unknown = sorted(r["id"] for r in rules if r["id"].split(".")[0] not in ID_GROUPS)
    assert not unknown


def test_see_targets_exist(rules: list[dict[str, Any]]) -> None:
    ids = {r["id"] for r in rules}
    dangling = sorted(
        (r["id"], target) for r in rules for target in r.get("see", []) if target not in ids
    )
    assert not dangling


def test_see_not_self(rules: list[dict[str, Any]]) -> None:
    assert not [r["id"] for r in rules if r["id"] in r.get("see", [])]


def test_cite_sources_listed(rules: list[dict[str, Any]]) -> None:
    sources = _load_yaml(SPEC / "sources.yaml")
    known = {entry["file"] for entry in sources["sources"]}
    unknown = sorted(
        {c["source"] for r in rules for c in _citations(r) if c["source"] not in known}
    )
    assert not unknown


def test_cite_sources_are_betrayal(rules: list[dict[str, Any]]) -> None:
    sources = _load_yaml(SPEC / "sources.yaml")
    game_of = {entry["file"]: entry.get("game") for entry in sources["sources"]}
    foreign = sorted(
        {c["source"] for r in rules for c in _citations(r) if game_of.get(c["source"]) != "betrayal"}
    )
    assert not foreign


def test_line_ranges_ordered(rules: list[dict[str, Any]]) -> None:
    bad = [
        (r["id"], c["lines"])
        for r in rules
        for c in _citations(r)
        if "lines" in c and c["lines"][0] > c["lines"][1]
    ]
    assert not bad


def test_says_is_one_line(rules: list[dict[str, Any]]) -> None:
    multi = [r["id"] for r in rules if "\n" in r["says"].strip()]
    assert not multi


@pytest.mark.parametrize("rule_id", PINNED_IDS)
def test_pinned_topic_present(rules: list[dict[str, Any]], rule_id: str) -> None:
    assert rule_id in {r["id"] for r in rules}


def test_haunt_selection_is_variant(rules: list[dict[str, Any]]) -> None:
    selection = [r for r in rules if r["id"].startswith("haunt.selection-")]
    assert selection
    assert all(r.get("variant") == "selecting-the-haunt" for r in selection)
    # the other variant clauses belong to rule variants the spec's abilities switch (issue 4)
    switched = set(variant_names(tables(game_spec("betrayal"))))
    others = [r["id"] for r in rules if "variant" in r and not r["id"].startswith("haunt.selection-")
              and r["variant"] not in switched]
    assert not others


def test_every_group_has_clauses(rules: list[dict[str, Any]]) -> None:
    present = {r["id"].split(".")[0] for r in rules}
    assert present == ID_GROUPS
