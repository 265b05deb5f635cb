"""The scenario language, version 2: operators, soft mode, refusal rule ids, purpose-named chance,
a move's whole cost and exact probabilities - each passes when right and fails at its line when wrong."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from compiled_support import replaces_a_compiled_method

from hauntcheck.engine.betrayal import GAME
from hauntcheck.engine.betrayal.draw import draw_svg
from hauntcheck.engine.betrayal.position import build_position, describe_position
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.scenario import ScenarioResult, ScenarioRun, load_scenario
from hauntcheck.engine.spec import SpecErrors

SPEC = game_spec("betrayal")
DEFINITION = dataclasses.replace(GAME, position=build_position, describe_position=describe_position, draw_svg=draw_svg)

HAUNTED_FOYER = """\
position:
  explorers: {P1: zoe-ingstrom, P2: ox-bellows, P3: vivian-lopez}
  haunt: {number: 1, revealer: P1, traitor: P1, room: entrance-hall}
  where: {P2: foyer, P1: foyer, P3: entrance-hall}
  cards: {P2: [axe, armor]}
  monsters: [{kind: mummy, room: foyer, stunned: true}]
"""

ONE_OMEN = """\
position:
  explorers: {P1: zoe-ingstrom, P2: ox-bellows, P3: vivian-lopez}
  rooms:
    dining-room: {floor: ground, at: [-1, 0], rotation: 0}
  where: {P1: dining-room}
  cards: {P1: [ring]}
  turn: {seat: P1, moved: 1, stopped: true, omens: [[ring, dining-room]]}
"""


LAST: list[Path] = []


def run(tmp_path: Path, body: str, rules: str = "[move.opponent-slows]", version: int = 2) -> ScenarioResult:
    path = tmp_path / "case.yaml"
    LAST[:] = [path]
    path.write_text(f"spec_version: {version}\nkind: scenario\ngame: betrayal\ntitle: a case\n"
                    f"source: {{rules: {rules}}}\nrules: {rules}\nplayers: 3\n" + body)
    return ScenarioRun(load_scenario(path, "case.yaml"), DEFINITION, SPEC).run()


def located(result: ScenarioResult, marker: str, text: str, nth: int = 1) -> bool:
    """A failure containing ``text`` at the line of the case where ``marker`` occurs (the nth time)."""
    lines = [i for i, line in enumerate(LAST[0].read_text().splitlines(), 1) if marker in line]
    return any(f.startswith(f"case.yaml:{lines[nth - 1]}:") and text in f for f in result.failures)


def test_every_operator_passes_when_it_holds(tmp_path: Path) -> None:
    result = run(tmp_path, HAUNTED_FOYER + """\
steps:
  - do: {kind: move, to: entrance-hall, cost: 2}
    by: P2
    expect:
      turn.moved: {equals: 2, at_least: 2, at_most: 2, changed_by: 2, one_of: [2, 3]}
      explorers.P2.cards: {contains: axe, not_contains: spear}
""")
    assert result.ok, result.failures
    assert any(line.text == "the step costs 2 (base 1 + 1 surcharge)" for line in result.lines)


@pytest.mark.parametrize(("operator", "text"), [
    ("{equals: 3}", "expected turn.moved = 3, got 2"),
    ("{at_least: 3}", "expected turn.moved at least 3, got 2"),
    ("{at_most: 1}", "expected turn.moved at most 1, got 2"),
    ("{changed_by: -2}", "expected turn.moved to change by -2 since the start, it changed by +2 (0 -> 2)"),
    ("{one_of: [0, 1]}", "expected turn.moved to be one of [0, 1], got 2"),
    ("{contains: 2}", "turn.moved is 2, which cannot contain anything"),
    ("{at_lest: 2}", "unknown operator 'at_lest'"),
])
def test_a_wrong_operator_fails_at_its_line(tmp_path: Path, operator: str, text: str) -> None:
    result = run(tmp_path, HAUNTED_FOYER + f"""\
steps:
  - do: {{kind: move, to: entrance-hall, cost: 2}}
    by: P2
  - expect: {{turn.moved: {operator}}}
""")
    assert located(result, "- expect: {turn.moved", text), result.failures


def test_contains_and_not_contains_fail_at_their_line(tmp_path: Path) -> None:
    result = run(tmp_path, HAUNTED_FOYER + """\
soft: true
steps:
  - expect:
      explorers.P2.cards: {contains: spear}
  - expect:
      explorers.P2.cards: {not_contains: axe}
""")
    assert located(result, "{contains: spear}", "expected explorers.P2.cards to contain 'spear'"), result.failures
    assert located(result, "{not_contains: axe}", "expected explorers.P2.cards not to contain 'axe'"), result.failures


def test_soft_mode_reports_every_failed_expectation(tmp_path: Path) -> None:
    body = HAUNTED_FOYER + """\
steps:
  - expect: {turn.moved: 5}
  - expect: {explorers.P2.room: attic}
  - do: {kind: move, to: entrance-hall, cost: 2}
    by: P2
"""
    hard = run(tmp_path, body)
    assert len(hard.failures) == 1 and located(hard, "turn.moved: 5", "expected turn.moved = 5")
    soft = run(tmp_path, "soft: true\n" + body)
    assert located(soft, "turn.moved: 5", "expected turn.moved = 5") and located(soft, "room: attic", "expected explorers.P2.room = 'attic'")
    assert len(soft.failures) == 2, soft.failures  # the move still ran, and move.opponent-slows was applied


def test_an_expect_beside_a_do_is_checked(tmp_path: Path) -> None:
    result = run(tmp_path, HAUNTED_FOYER + """\
steps:
  - do: {kind: move, to: entrance-hall, cost: 2}
    by: P2
    expect: {explorers.P2.room: foyer}
""")
    assert located(result, "expect: {explorers.P2.room: foyer}", "expected explorers.P2.room = 'foyer', got 'entrance-hall'"), result.failures


def test_a_version_2_cost_is_the_whole_step(tmp_path: Path) -> None:
    step = """\
steps:
  - do: {kind: move, to: entrance-hall, cost: 1}
    by: P2
"""
    wrong = run(tmp_path, HAUNTED_FOYER + step)
    assert located(wrong, "cost: 1}", "the step costs 2 (base 1 + 1 surcharge), not 1"), wrong.failures
    assert run(tmp_path, HAUNTED_FOYER + step, version=1).ok  # version 1: the base cost, as before


def test_a_refusal_names_its_rule(tmp_path: Path) -> None:
    trade = """\
steps:
  - do: {kind: trade, card: armor, to: P3}
    by: P2
  - do: {kind: accept, card: armor}
    by: P3
  - do: {kind: move, to: entrance-hall, cost: 2}
    by: P2
  - expect_illegal: {action: {kind: trade, card: axe, to: P3}, rule: RULE}
"""
    right = run(tmp_path, HAUNTED_FOYER.replace("P3: entrance-hall", "P3: foyer") + trade.replace("RULE", "item.trade-once-per-turn")
                .replace("  - do: {kind: move, to: entrance-hall, cost: 2}\n    by: P2\n", ""), rules="[item.trade-once-per-turn]")
    assert right.ok, right.failures
    wrong = run(tmp_path, HAUNTED_FOYER.replace("P3: entrance-hall", "P3: foyer") + trade.replace("RULE", "item.drop-once-per-turn")
                .replace("  - do: {kind: move, to: entrance-hall, cost: 2}\n    by: P2\n", ""), rules="[item.trade-once-per-turn]")
    assert located(wrong, "rule: item.drop", "was refused by item.trade-once-per-turn, not by item.drop-once-per-turn"), wrong.failures


def test_a_rule_that_decides_by_refusing_counts_as_applied(tmp_path: Path) -> None:
    body = ONE_OMEN + """\
steps:
  - expect_illegal: {action: {kind: attack, target: P2, trait: might}, rule: attack.not-before-haunt}
"""
    assert run(tmp_path, body, rules="[attack.not-before-haunt]").ok
    unnamed = body.replace(", rule: attack.not-before-haunt}", "}").replace("{action: ", "")
    unnamed = unnamed.replace("trait: might}}", "trait: might}")
    result = run(tmp_path, unnamed, rules="[attack.not-before-haunt]")
    assert any("attack.not-before-haunt decides it, but that rule was never applied" in f for f in result.failures)


def test_chance_named_by_purpose_in_any_order(tmp_path: Path) -> None:
    body = ONE_OMEN + """\
chance:
  - {for: speed roll, faces: [2, 2, 2, 2]}
  - {for: haunt roll, faces: [2, 0, 0, 0, 0, 0]}
steps:
  - do: {kind: end}
    by: P1
  - do: {kind: end}
    by: P2
"""
    result = run(tmp_path, body, rules="[haunt.roll]")
    assert located(result, "for: speed roll", "scripted chance left unused: {for: speed roll, faces=[2, 2, 2, 2]}"), result.failures
    missing = run(tmp_path, body.replace("for: haunt roll", "for: knowledge roll"), rules="[haunt.roll]")
    assert located(missing, "- do: {kind: end}", "chance must decide (roll 6 dice for the haunt roll; the haunt roll) but the scenario "
                   "scripts no outcome for it; the outcomes left are named for: speed roll, knowledge roll"), missing.failures


@pytest.mark.parametrize(("claim", "text"), [
    ("{of: {haunt.omen: ring}, equals: 1/729}", ""),
    ("{of: {haunt.omen: ring}, equals: 1/6}", "the probability is 1/729 (0.0014) over 729 outcomes, not 1/6"),
    ("{of: {haunt.omen: ring}, equals: 1/729, bound: 100}", "more than 100 chance outcomes to enumerate"),
    ("{of: {haunt.omen: ring}, equals: one in six}", "a probability is a fraction such as 1/6"),
])
def test_exact_probability(tmp_path: Path, claim: str, text: str) -> None:
    result = run(tmp_path, ONE_OMEN + f"""\
chance: [{{for: haunt roll, faces: [2, 0, 0, 0, 0, 0]}}]
steps:
  - do: {{kind: end}}
    by: P1
    then_chance: false
  - expect_probability: {claim}
  - do: {{kind: end}}
    by: P2
""", rules="[haunt.roll]")
    if not text:
        assert result.ok, result.failures
    else:
        assert located(result, "expect_probability", text), result.failures


def test_schema_refuses_unknown_keys_and_loose_modifiers(tmp_path: Path) -> None:
    for step, text in [("  - {expect: {turn.moved: 0}, by: P1}", "'do' is a dependency of 'by'"),
                       ("  - {expect_probability: {of: {haunt: null}, equals: 1, bond: 3}}", "bond"),
                       ("  - {note: x, expect_legall: {kind: end}}", "expect_legall")]:
        path = tmp_path / "bad.yaml"
        path.write_text("spec_version: 2\nkind: scenario\ngame: betrayal\ntitle: t\nsource: {rules: [haunt.roll]}\n"
                        f"rules: [haunt.roll]\nsteps:\n{step}\n")
        with pytest.raises(SpecErrors) as info:
            load_scenario(path, "bad.yaml")
        shown = [str(e) for e in info.value.errors]
        assert any(e.startswith("bad.yaml:8:") and text in e for e in shown), shown


def test_version_3_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.yaml"
    path.write_text("spec_version: 3\nkind: scenario\ngame: betrayal\ntitle: t\nsource: {rules: [haunt.roll]}\n"
                    "rules: [haunt.roll]\nsteps: [{note: x}]\n")
    with pytest.raises(SpecErrors) as info:
        load_scenario(path, "new.yaml")
    assert "reads up to 2" in str(info.value.errors[0])


@pytest.mark.parametrize(("position", "text"), [
    ("  monsters: [{kind: mummy, room: foyer}]", "monsters are in play only in a haunt phase"),
    ("  tokens: {entrance-hall: [no-such-token]}", "unknown token 'no-such-token'"),
    ("  used: {P1: ['room:nowhere#0']}", "'room:nowhere#0' is not an ability of the game"),
    ("  used: {P1: ['room:larder#7']}", "'room:larder#7' is not an ability of the game"),
    ("  turn: {moved: 1}", "a turn mapping names its seat"),
    ("  where: {P1: {a: b}}", "where is a room, or [room, side], not {'a': 'b'}"),
    ("  turn_number: 123456789012345678901234567890", "a number this large (over 18 digits)"),
    ("  haunt: {number: 1, revealer: P1}", "haunt 1 has a traitor: name the seat (traitor: P2)"),
    ("  haunt: {number: 34, revealer: P1, deal: {P3: 1}, hidden_traitor: {seat: P2, revealed: false}}",
     "the deal gives token 1 (the traitor's) to P3, but hidden_traitor names P2"),
    ("  haunt: {number: 34, revealer: P1, deal: {P3: 9}}", "deal maps seats (P2, P3, P1) to different token numbers"),
])
def test_a_position_key_is_carried_out_or_refused_at_its_line(tmp_path: Path, position: str, text: str) -> None:
    body = f"position:\n  explorers: {{P1: zoe-ingstrom, P2: ox-bellows, P3: vivian-lopez}}\n{position}\nsteps:\n  - note: x\n"
    try:
        result = run(tmp_path, body)
        failures = result.failures
    except SpecErrors as exc:
        failures = [str(e) for e in exc.errors]
    assert any(f.startswith("case.yaml:10:") and text in f for f in failures), failures


def test_soft_as_a_run_mode(tmp_path: Path) -> None:
    run(tmp_path, HAUNTED_FOYER + "steps:\n  - expect: {turn.moved: 5}\n  - expect: {explorers.P2.room: attic}\n")
    file = load_scenario(LAST[0], "case.yaml")
    assert len(ScenarioRun(file, DEFINITION, SPEC).run().failures) == 1  # stops at the first
    soft = ScenarioRun(file, DEFINITION, SPEC, soft=True).run()
    assert located(soft, "turn.moved: 5", "expected turn.moved = 5") and located(soft, "room: attic", "= 'attic'")
    assert len(soft.failures) == 3  # both, and move.opponent-slows never applied


def test_used_up_abilities_are_refused_by_their_limit_rule(tmp_path: Path) -> None:
    card = run(tmp_path, """\
position:
  explorers: {P1: zoe-ingstrom, P2: ox-bellows, P3: vivian-lopez}
  cards: {P1: [music-box, axe]}
  turn: P1
steps:
  - do: {kind: use, ability: "card:music-box#0"}
    by: P1
  - expect_illegal:
      - {action: {kind: use, ability: "card:music-box#0"}, rule: item.once-per-turn-use}
      - {action: {kind: drop, card: music-box}, rule: item.one-action-per-item}
""", rules="[item.once-per-turn-use, item.one-action-per-item]")
    assert card.ok, card.failures
    barrier = run(tmp_path, """\
position:
  explorers: {P1: zoe-ingstrom, P2: ox-bellows, P3: vivian-lopez}
  rooms:
    chasm: {floor: basement, at: [1, 0], rotation: 0}
  where: {P1: basement-landing}
  cards: {P1: [axe]}
  turn: P1
chance:
  - {for: speed roll, faces: [1, 0, 0, 0]}
steps:
  - do: {kind: move, to: chasm, cost: 1}
    by: P1
  - do: {kind: cross, ability: "room:chasm#0"}
    by: P1
  - expect_illegal: {action: {kind: cross, ability: "room:chasm#0"}, rule: room.barrier.once-per-turn}
""", rules="[room.barrier.once-per-turn]")
    assert barrier.ok, barrier.failures


def test_a_purpose_spelt_as_an_internal_tag_is_refused_at_its_line(tmp_path: Path) -> None:
    body = ONE_OMEN + """\
chance:
  - {for: haunt-roll, faces: [2, 0, 0, 0, 0, 0]}
steps:
  - do: {kind: end}
    by: P1
"""
    result = run(tmp_path, body, rules="[haunt.roll]")
    assert located(result, "for: haunt-roll", "'for: haunt-roll' is spelt like an internal tag; name the purpose in the words "
                   "the engine asks with"), result.failures
    assert not any("P1:" in line.text for line in result.lines if line.kind == "action")  # nothing was run
    assert run(tmp_path, body.replace("haunt-roll", "haunt roll"), rules="[haunt.roll]").ok


def test_a_small_shuffle_is_enumerated_for_a_probability(tmp_path: Path) -> None:
    """The hidden traitor's four tokens: each of the 24 orders equally likely, 6 give token 1 to one seat."""
    body = """\
players: 4
position:
  explorers: {P1: zoe-ingstrom, P2: ox-bellows, P3: vivian-lopez, P4: brandon-jaspers}
  rooms:
    abandoned-room: {floor: ground, at: [-1, 0], rotation: 0}
  where: {P1: abandoned-room}
  cards: {P1: [skull]}
  turn: {seat: P1, moved: 1, stopped: true, omens: [[skull, abandoned-room]]}
chance:
  - {for: haunt roll, faces: [1, 0, 0, 0, 0, 0]}
steps:
  - do: {kind: end}
    by: P1
    then_chance: false
  - expect_probability: {of: {haunt_phase.hidden_traitor.seat: P4}, equals: CLAIM}
  - do: {kind: end}
    by: P2
""".replace("players: 4\n", "")
    path = tmp_path / "case.yaml"
    LAST[:] = [path]

    def claim(value: str) -> ScenarioResult:
        path.write_text("spec_version: 2\nkind: scenario\ngame: betrayal\ntitle: a case\nsource: {rules: [haunt.roll]}\n"
                        "rules: [haunt.roll]\nplayers: 4\n" + body.replace("CLAIM", value))
        return ScenarioRun(load_scenario(path, "case.yaml"), DEFINITION, SPEC).run()

    assert claim("1/2916").ok, claim("1/2916").failures
    assert located(claim("1/729"), "expect_probability", "the probability is 1/2916"), claim("1/729").failures


def test_a_move_after_a_card_draw_is_refused_by_the_card_rule(tmp_path: Path) -> None:
    body = """\
position:
  explorers: {P1: zoe-ingstrom, P2: ox-bellows, P3: vivian-lopez}
  cards: {P1: [axe]}
  turn: P1
chance:
  - {kind: draw, tile: bloody-room}
  - {kind: draw, card: armor}
steps:
  - do: {kind: explore, door: west}
    by: P1
  - expect_illegal: {action: {kind: move, to: entrance-hall, cost: 1}, rule: move.card-ends-movement}
"""
    result = run(tmp_path, body, rules="[move.card-ends-movement]")
    assert result.ok, result.failures


def test_refusals_of_a_trade_elsewhere_and_a_doorway_beyond_the_barrier_name_their_rules(tmp_path: Path) -> None:
    body = """\
position:
  explorers: {P1: zoe-ingstrom, P2: ox-bellows, P3: vivian-lopez}
  rooms:
    chasm: {floor: basement, at: [1, 0], rotation: 0}
  where: {P1: [chasm, west], P2: foyer}
  cards: {P1: [axe]}
  turn: P1
steps:
  - expect_illegal: {action: {kind: trade, card: axe, to: P2}, rule: item.trade-once-per-turn}
  - expect_illegal: {action: {kind: explore, door: east}, rule: room.barrier.members}
"""
    result = run(tmp_path, body, rules="[item.trade-once-per-turn, room.barrier.members]")
    assert result.ok, result.failures


@replaces_a_compiled_method("HauntState.clone")
def test_probabilities_of_one_roll_enumerate_its_outcomes_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two probabilities asked of the same roll read one enumeration (729 outcomes, each played on
    a clone); a roll after another action is enumerated afresh, and each answer is still exact."""
    from hauntcheck.engine.betrayal.haunt import HauntState

    clones: list[int] = []
    real_clone = HauntState.clone

    def counted(self: HauntState) -> HauntState:
        clones.append(1)
        return real_clone(self)

    monkeypatch.setattr(HauntState, "clone", counted)
    result = run(tmp_path, ONE_OMEN + """\
chance: [{for: haunt roll, faces: [2, 0, 0, 0, 0, 0]}]
steps:
  - do: {kind: end}
    by: P1
    then_chance: false
  - expect_probability: {of: {haunt.omen: ring}, equals: 1/729}
  - expect_probability: {of: {haunt: null}, equals: 728/729}
  - expect_probability: {of: {haunt: null}, equals: 1/729}
""", rules="[haunt.roll]")
    assert located(result, "equals: 1/729}", "the probability is 728/729 (0.9986) over 729 outcomes, not 1/729", nth=2), result.failures
    assert len(result.failures) == 1, result.failures
    enumerations = len(clones) - 1  # the run keeps a clone of the starting position
    assert enumerations == 729, f"{enumerations} clones for three probabilities of one 729-outcome roll"


def test_known_tokens_are_kept_for_the_tables_object_itself() -> None:
    """A Tables whose id once belonged to another object gets its own token names, not the stale ones."""
    from hauntcheck.engine.betrayal import tables
    from hauntcheck.engine.betrayal.position import keys

    t = tables(SPEC)
    right = keys.known_tokens(t)
    assert right, "the rooms and cards place tokens"
    keys._TOKENS[id(t)] = (dataclasses.replace(t), frozenset({"stale"}))  # another object at the same id
    assert keys.known_tokens(t) == right
