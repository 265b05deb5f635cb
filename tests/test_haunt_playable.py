"""Playability is derived from a haunt's file: vocabulary the interpreter carries out, hooks that
are registered, monsters with stats. Each missing piece is named where the file uses it."""

from __future__ import annotations

import ast
import inspect
import json
import textwrap
from pathlib import Path

import pytest
from compiled_support import reads_a_compiled_source

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import outcomes, playable, registry, setup_steps
from hauntcheck.engine.cli import main
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.spec import SCHEMA_DIR, GameSpec, load_file

ROOT = Path(__file__).resolve().parent.parent
AIRBORNE = ROOT / "spec" / "betrayal" / "haunts" / "31-airborne.yaml"


def flood_room_haunt(folder: Path) -> Path:
    """Haunt 31 whose setup calls a hook nobody has written ('flood-room' for 'remove-basement')."""
    path = folder / "31-airborne.yaml"
    path.write_text(AIRBORNE.read_text(encoding="utf-8").replace("remove-basement", "flood-room"), encoding="utf-8")
    return path


def position_of(path: Path, needle: str) -> tuple[int, int]:
    """1-based line and column of the value after ``needle`` in the file (as an editor shows it)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number, line.index(needle) + len(needle) + 1
    raise AssertionError(f"{needle!r} is not in {path}")


#: Bundled haunt files whose rules are encoded but that the engine cannot play yet, with the hooks
#: still to be written. Pinned both ways: a haunt leaves this table the moment it plays.
NOT_PLAYABLE_YET: dict[int, set[str]] = {}


def test_every_bundled_haunt_plays() -> None:
    for file in game_spec("betrayal").by_kind("haunt"):
        if file.data["number"] in NOT_PLAYABLE_YET:
            continue
        assert playable.gaps(file.data) == [], file.display


def test_the_haunts_not_playable_yet_lack_only_their_pinned_hooks() -> None:
    if not NOT_PLAYABLE_YET:
        pytest.skip("every bundled haunt plays")
    files = {f.data["number"]: f for f in game_spec("betrayal").by_kind("haunt")}
    for number, hooks in NOT_PLAYABLE_YET.items():
        messages = {gap.message for gap in playable.gaps(files[number].data)}
        assert messages == {f"hook '{h}' is not registered" for h in hooks}, files[number].display


def test_a_haunt_naming_an_unregistered_hook_is_refused_with_the_hook_at_its_line(tmp_path: Path) -> None:
    path = flood_room_haunt(tmp_path)
    spec_file = load_file(path, str(path))
    line, column = position_of(path, "custom: ")
    assert [gap.at(spec_file.where) for gap in playable.gaps(spec_file.data)] == [
        f"{path}:{line}:{column}: hook 'flood-room' is not registered"]
    # coverage and the conformance page read support(), which says the same
    bundled = game_spec("betrayal")
    files = {name: f for name, f in bundled.files.items() if not name.endswith("31-airborne.yaml")}
    files[str(path)] = spec_file
    report = hauntmod.support(GameSpec("betrayal", bundled.root, files, bundled.sources))
    assert not report[31]["playable"]
    assert report[31]["blockers"] == [f"{path}:{line}:{column}: hook 'flood-room' is not registered"]


def test_lint_names_what_keeps_a_valid_haunt_from_being_played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = flood_room_haunt(tmp_path)
    line, column = position_of(path, "custom: ")
    assert main(["lint", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:{line}:{column}: hook 'flood-room' is not registered" in err
    assert "valid, but the engine cannot play it yet: 1 missing piece(s)" in err


def test_vocabulary_the_interpreter_lacks_is_named_at_its_key() -> None:
    # a key the schema knows but the interpreter does not carry out: an attack rule's halve_damage
    draft = json.loads(json.dumps(load_file(AIRBORNE, "31.yaml").data))
    draft["heroes_side"].setdefault("attack_rules", []).append(
        {"id": "soft-blows", "attacker": "anyone", "defender": "anyone", "halve_damage": "round-up", "says": "x"})
    gaps = playable.gaps(draft)
    assert [str(g) for g in gaps] == [
        f"heroes_side.attack_rules.{len(draft['heroes_side']['attack_rules']) - 1}.halve_damage: "
        "attack_rule key 'halve_damage' is not carried out by the interpreter yet"]


def test_a_monster_without_printed_stats_blocks_its_haunt() -> None:
    draft = json.loads(json.dumps(load_file(ROOT / "spec/betrayal/haunts/01-the-mummy-walks.yaml", "01.yaml").data))
    draft["monsters"][0]["stats_from"] = "none-printed"
    assert [str(g) for g in playable.gaps(draft)] == [
        f"monsters.0.stats_from: monster '{draft['monsters'][0]['id']}' has no printed stats"]


def test_a_hook_of_the_wrong_kind_is_named() -> None:
    draft = json.loads(json.dumps(load_file(AIRBORNE, "31.yaml").data))
    draft["heroes_side"]["setup"][1]["custom"] = "banshee-path"
    gaps = [str(g) for g in playable.gaps(draft)]
    assert gaps == ["heroes_side.setup.1.custom: hook 'banshee-path' is registered as a move and predicate hook, "
                    "not as a setup hook as it is used here"]


def _compared_verbs(function: object) -> set[str]:
    """String constants a function compares its ``verb`` with (``verb == "x"``, ``verb in (...)``)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))  # type: ignore[arg-type]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "verb":
            for right in node.comparators:
                for const in ast.walk(right):
                    if isinstance(const, ast.Constant) and isinstance(const.value, str):
                        out.add(const.value)
    return out


@reads_a_compiled_source("SetupSteps._setup_step and Outcomes._outcome")
def test_the_declared_vocabulary_is_what_the_interpreter_dispatches_on() -> None:
    assert _compared_verbs(setup_steps.SetupSteps._setup_step) == set(setup_steps.SETUP_VERBS)
    handled = _compared_verbs(outcomes.Outcomes._outcome) | set(outcomes.PART1_EFFECTS)
    # three haunt verbs are carried out where they appear (the fight, the monster turn)
    assert handled | {"no_damage", "damage_scaled", "monster_attack"} == set(outcomes.OUTCOME_VERBS) | {"lose", "max_move"} | set(outcomes.PART1_EFFECTS)


def test_every_schema_key_is_either_carried_out_or_known_not_to_be() -> None:
    """Growing the vocabulary (a key in the schema) forces a decision here: carry it out, or say it is not."""
    defs = json.loads((SCHEMA_DIR / "haunt.schema.json").read_text(encoding="utf-8"))["$defs"]
    not_yet = {("attack_rule", "halve_damage"), ("attack_rule", "defends_with"), ("location", "on_card_of")}
    for place, allowed in playable.CARRIED_OUT.items():
        if place == "effect":
            continue
        keys = set(defs[place]["properties"]) - playable.NOTE_KEYS
        assert allowed - keys <= {"who"}, (place, allowed - keys)
        assert {(place, k) for k in keys - allowed} == {x for x in not_yet if x[0] == place}, place


def test_hooks_are_found_by_the_registry_from_their_modules() -> None:
    assert registry.kinds_of("banshee-path") == ["move", "predicate"]
    assert registry.hook.move["banshee-path"].__module__ == "hauntcheck.engine.betrayal.hooks.h08_wail_of_the_banshee"
    for kind in registry.hook.kinds():
        for ident, fn in kind.items():
            assert fn.__module__.startswith("hauntcheck.engine.betrayal.hooks.h"), (kind.kind, ident)
            assert fn.__doc__ and fn.__doc__.startswith("Haunt "), (kind.kind, ident)
