"""The solver checks (hauntcheck.checks.solver): the bundled haunts pass, broken haunts fail with
messages naming the line, and the z3 traitor proofs both prove and refute."""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hauntcheck.checks import solver
from hauntcheck.checks.solver import (
    PLAYER_COUNTS,
    SolverReport,
    TieBreak,
    World,
    check_game,
    check_haunt,
    lint_haunt,
    prove_traitor_rule,
    world_of,
)
from hauntcheck.engine.games import game_spec, get_game
from hauntcheck.engine.spec import GameSpec, SpecFile, load_file

ROOT = Path(__file__).resolve().parents[1]
BAD = ROOT / "tests" / "fixtures" / "bad-haunts"


@pytest.fixture(scope="module")
def spec() -> GameSpec:
    return game_spec("betrayal")


@pytest.fixture(scope="module")
def world(spec: GameSpec) -> World:
    return world_of(spec)


def fixture(name: str) -> SpecFile:
    return load_file(BAD / name, f"tests/fixtures/bad-haunts/{name}")


def edited(file: SpecFile, change: Any) -> SpecFile:
    """A copy of a loaded file with its data changed (positions kept, so lines still resolve)."""
    data = copy.deepcopy(file.data)
    change(data)
    return SpecFile(file.path, file.display, file.kind, data, file.positions, file.text)


def haunt(spec: GameSpec, number: int) -> SpecFile:
    return next(f for f in spec.by_kind("haunt") if f.data["number"] == number)


# --------------------------------------------------------------------------------------------
# The bundled spec


def test_every_bundled_haunt_passes(spec: GameSpec, monkeypatch: pytest.MonkeyPatch) -> None:
    report = check_game(spec)
    assert [str(f) for f in report.errors] == []
    # Every traitor-table rule and haunt rule was proved at every player count.
    assert report.checked["traitor"] >= 50 * len(PLAYER_COUNTS)
    assert report.checked["chart"] >= 169
    assert report.checked["rolls"] > 0 and report.checked["box"] == 4 * len(spec.by_kind("haunt"))
    # The verify family reports this report (handed over rather than computed a second time: the
    # solver takes seconds over the whole game; test_cli.py's verify leaves this family to here).
    from hauntcheck.checks.solver import run
    from hauntcheck.checks.verify import load_context

    def this_report(given: GameSpec) -> SolverReport:
        assert given is spec
        return report

    monkeypatch.setattr(run, "check_game", this_report)
    result = solver.family_solver(load_context("betrayal"))
    assert result.ok and result.checked == sum(report.checked.values()) > 400


def test_each_bundled_haunt_lints_clean(spec: GameSpec) -> None:
    for file in spec.by_kind("haunt"):
        assert lint_haunt(file, spec) == [], file.display


def test_guillotines_item_token_shortfall_is_a_noted_known_problem(spec: GameSpec) -> None:
    report = check_haunt(haunt(spec, 34), world_of(spec))
    notes = [str(f) for f in report.notes if f.check == "box" and "item tokens" in f.message]
    assert notes[-1] == (
        "spec/betrayal/haunts/34-guillotines.yaml:57:9: at 3, 4, 5, 6 players the haunt needs up to 18 pentagonal item tokens; "
        "components.yaml counts 14 (acknowledged at spec/betrayal/haunts/34-guillotines.yaml:16:13)"
    )


def test_verify_family_registers_once_and_skips_a_game_without_haunts() -> None:
    from hauntcheck.checks.verify import FAMILIES, load_context

    solver.register()
    solver.register()
    assert [name for name, _ in FAMILIES].count("solver") == 1
    # Over Betrayal: test_every_bundled_haunt_passes. A game without haunts:
    skipped = solver.family_solver(load_context("haunted"))
    assert skipped.applies is False and skipped.ok


# --------------------------------------------------------------------------------------------
# Broken haunts (tests/fixtures/bad-haunts)


def test_impossible_roll_names_its_line(spec: GameSpec) -> None:
    errors = [str(e) for e in lint_haunt(fixture("impossible-roll.yaml"), spec)]
    assert errors == [
        "tests/fixtures/bad-haunts/impossible-roll.yaml:119:40: error: [rolls] roll needs 17+ but no explorer can roll "
        "more than 16 (knowledge (highest value 8, Peter Akimoto): 8 dice of 0-2)\n"
        "    counterexample: best possible roll: 8 dice all showing 2 = 16 < 17"
    ]


def test_thirteen_large_monsters_overflow_the_box(spec: GameSpec) -> None:
    errors = [str(e) for e in lint_haunt(fixture("thirteen-large-monsters.yaml"), spec)]
    assert errors == [
        "tests/fixtures/bad-haunts/thirteen-large-monsters.yaml:29:12: error: [box] at 3, 4, 5, 6 players the haunt needs 13 "
        "large circular monster tokens; components.yaml counts 12\n"
        "    counterexample: 6 players: mummy-token x13 (line 29)"
    ]


def _with_traitors(spec: GameSpec, traitors: SpecFile) -> GameSpec:
    files = dict(spec.files)
    files["betrayal/traitors.yaml"] = traitors
    return GameSpec(spec.game, spec.root, files, spec.sources)


def test_traitor_rule_that_ties_names_its_line_and_a_real_tie(spec: GameSpec) -> None:
    broken = _with_traitors(spec, fixture("ties/traitors.yaml"))
    errors = lint_haunt(fixture("ties/highest-might.yaml"), broken)
    assert len(errors) == 1
    first = str(errors[0]).splitlines()[0]
    assert first.startswith(
        "tests/fixtures/bad-haunts/ties/highest-might.yaml:11:10: error: [traitor] at 3, 4, 5, 6 players the traitor rule "
        "'highest might (not the revealer)' can leave "
    )
    assert first.endswith("with no tie-break settling it") and " explorers tied (P" in first
    # The counterexample is a real tie: recompute it without z3.
    world = world_of(broken)
    verdict = prove_traitor_rule(world, {"rule": "highest", "trait": "might", "except_revealer": True}, 4)
    assert verdict.problem is not None
    party = verdict.party
    cards = [next(e.card for e in world.explorers if e.id == x) for x, _ in party]
    assert len(set(cards)) == len(cards) == 4
    for x, value in party:
        assert value in next(e.tracks["might"] for e in world.explorers if e.id == x)
    others = [v for _, v in party[1:]]
    best = max(v for v in others if v is not None)
    tied = [s for s, (_, v) in enumerate(party) if s > 0 and v == best]
    assert len(tied) >= 2 and list(verdict.picks) == tied


# --------------------------------------------------------------------------------------------
# The traitor proofs


def test_bundled_tie_break_settles_every_trait_rule(world: World) -> None:
    for kind in ("highest", "lowest"):
        for trait in ("might", "speed", "sanity", "knowledge"):
            for except_revealer in (False, True):
                rule = {"rule": kind, "trait": trait, "except_revealer": except_revealer}
                for n in PLAYER_COUNTS:
                    assert prove_traitor_rule(world, rule, n).problem is None


def test_ages_never_tie_so_age_rules_need_no_tie_break(world: World) -> None:
    bare = replace(world, tie_break=TieBreak(frozenset(), ()))
    for kind in ("oldest", "youngest"):
        for n in PLAYER_COUNTS:
            assert prove_traitor_rule(bare, {"rule": kind, "except_revealer": True}, n).problem is None
    # ...whereas a trait rule without the tie-break does tie.
    verdict = prove_traitor_rule(bare, {"rule": "lowest", "trait": "sanity", "except_revealer": False}, 3)
    assert verdict.problem is not None and "tied" in verdict.problem


def test_named_explorer_without_fallback_can_pick_no_one(world: World) -> None:
    verdict = prove_traitor_rule(world, {"rule": "explorer", "explorer": "ox-bellows"}, 3)
    assert verdict.problem == "the traitor rule 'ox-bellows if playing, else no one' can pick no explorer"
    assert "ox-bellows" not in [x for x, _ in verdict.party]
    fallback = {"rule": "explorer", "explorer": "ox-bellows", "else": {"rule": "left-of-revealer"}}
    assert prove_traitor_rule(world, fallback, 3).problem is None


def test_haunt_kind_must_fit_the_traitor_rule(spec: GameSpec, world: World) -> None:
    file = edited(haunt(spec, 34), lambda d: d.update(haunt_kind="traitor"))
    report = check_haunt(file, world)
    assert [str(f) for f in report.errors if f.check == "traitor"] == [
        "spec/betrayal/haunts/34-guillotines.yaml:9:10: haunt_kind 'traitor' does not fit the traitor rule 'hidden' "
        "(expected one of: explorer, haunt-revealer, highest, left-of-revealer, lowest, oldest, youngest)"
    ]


def test_haunt_rule_must_match_the_traitor_table(spec: GameSpec, world: World) -> None:
    file = edited(haunt(spec, 1), lambda d: d.update(traitor={"rule": "left-of-revealer"}))
    errors = [str(f) for f in check_haunt(file, world).errors]
    assert errors == [
        "spec/betrayal/haunts/01-the-mummy-walks.yaml:9:10: traitor rule 'left-of-revealer' differs from traitors.yaml's "
        "'haunt-revealer' (spec/betrayal/traitors.yaml:23:14)"
    ]


# --------------------------------------------------------------------------------------------
# Tables, placement, chart


def test_player_table_gap_is_reported(spec: GameSpec, world: World) -> None:
    def drop_six(d: dict[str, Any]) -> None:
        del d["tables"][0]["values"]["6"]

    file = edited(haunt(spec, 34), drop_six)
    report = SolverReport()
    solver.table_findings(file, report)
    assert [str(f) for f in report.errors] == [
        "spec/betrayal/haunts/34-guillotines.yaml:23:13: table 'hidden-tokens' has no value for 6 players"
    ]


def test_far_placement_without_fallback_fails(spec: GameSpec, world: World) -> None:
    def too_far(d: dict[str, Any]) -> None:
        place = d["traitor_side"]["setup"][3]["place"]["in"]
        place["min_tiles_from"]["tiles"] = 40
        del place["fallback"]

    report = SolverReport()
    solver.placement_findings(world, edited(haunt(spec, 1), too_far), report)
    assert [str(f) for f in report.errors] == [
        "spec/betrayal/haunts/01-the-mummy-walks.yaml:58:27: 40 tiles apart cannot happen on ground/upper/basement and no "
        "fallback is declared"
    ]


def test_chart_holes_and_unknown_numbers_are_reported(spec: GameSpec) -> None:
    chart = next(iter(spec.by_kind("haunt-chart")))

    def damage(d: dict[str, Any]) -> None:
        d["rows"][0]["haunts"][2] = 51
        d["rows"][1]["haunts"].pop()

    files = dict(spec.files)
    files["betrayal/haunt-chart.yaml"] = edited(chart, damage)
    report = SolverReport()
    solver.chart_findings(world_of(GameSpec(spec.game, spec.root, files, spec.sources)), report)
    messages = [str(f) for f in report.errors]
    assert "spec/betrayal/haunt-chart.yaml:17:44: cell abandoned-room x crystal-ball holds 51, not a haunt 1-50" in messages
    assert any("row 'balcony' has 12 cells for 13 omen columns" in m for m in messages)
    assert any(m.endswith("the chart fills 168 of its 169 cells") for m in messages)


# --------------------------------------------------------------------------------------------
# The engine's traitor selection agrees with the solver's encoding


@given(data=st.data())
@settings(max_examples=60, deadline=None, derandomize=True)
def test_engine_picks_the_traitor_the_solver_encoding_picks(data: st.DataObject) -> None:
    from hauntcheck.engine.betrayal.state import BetrayalState, Explorer

    spec = game_spec("betrayal")
    world = world_of(spec)
    players = data.draw(st.integers(3, 6), label="players")
    cards = data.draw(st.permutations(sorted({e.card for e in world.explorers})), label="cards")[:players]
    party: list[tuple[str, dict[str, int]]] = []
    for card in cards:
        sides = [e for e in world.explorers if e.card == card]
        who = sides[data.draw(st.integers(0, 1), label=f"side of {card}")]
        values = {t: data.draw(st.sampled_from(who.tracks[t]), label=f"{who.id} {t}") for t in who.tracks}
        party.append((who.id, values))
    number = data.draw(st.sampled_from(sorted(world.traitors)), label="haunt")
    rule = world.traitors[number][1]
    expected = solver.pick_traitor(world, rule, party)
    state = get_game("betrayal").new_game(spec, players, {})
    assert isinstance(state, BetrayalState)
    revealer_seat = data.draw(st.integers(0, players - 1), label="revealer seat")
    seats = state.seats()
    state.ex = {}
    for k, (explorer, values) in enumerate(party):
        seat = seats[(revealer_seat + k) % players]  # party order runs leftwards from the revealer
        track = state.t.explorers[explorer].traits
        state.ex[seat] = Explorer(seat, explorer, idx={t: list(track[t].values).index(v) for t, v in values.items()})
    picked, _how = state._traitor(seats[revealer_seat], state.t.haunts[number].traitor)
    got = [] if picked is None else [(seats.index(picked) - revealer_seat) % players]
    assert got == expected, (number, party)


def test_no_party_at_all_is_not_a_vacuous_proof(world: World) -> None:
    few = replace(world, explorers=world.explorers[:4])  # two character cards only
    verdict = prove_traitor_rule(few, {"rule": "highest", "trait": "might", "except_revealer": False}, 3)
    assert verdict.problem is not None and verdict.problem.startswith("no legal party of 3 exists")
    assert prove_traitor_rule(few, {"rule": "highest", "trait": "might", "except_revealer": False}, 2).problem is None


def test_a_win_needing_more_tokens_than_exist_is_unwinnable(spec: GameSpec) -> None:
    def greedy(d: dict[str, Any]) -> None:
        d["heroes_side"]["attack_rules"][0]["requires"]["all"][0]["tokens_collected"]["count"] = 3

    report = SolverReport()
    solver.goal_findings(edited(haunt(spec, 1), greedy), report)
    assert [str(f) for f in report.errors] == [
        "spec/betrayal/haunts/01-the-mummy-walks.yaml:135:31: at 3 players tokens_collected needs 3 knowledge-roll token(s); "
        "only 2 can be out"
    ]

    def unearned(d: dict[str, Any]) -> None:
        for task in d["heroes_side"]["tasks"]:
            task["success"] = [s for s in task["success"] if "earn" not in s]

    report = SolverReport()
    solver.goal_findings(edited(haunt(spec, 1), unearned), report)
    assert [f.message for f in report.errors] == [
        "tokens_collected counts 'knowledge-roll' tokens, but nothing in the haunt earns or takes one"
    ]


@pytest.mark.long
def test_conformance_page_is_up_to_date_and_lists_every_haunt(spec: GameSpec) -> None:
    """The page is rendered once (it takes most of this test) and checked twice: docs/conformance.md
    is exactly the rendering, and the rendering lists every haunt with its status, hooks and notes.
    (These were two tests, each rendering the page.)"""
    from hauntcheck.checks.conformance import render

    text = render(spec)
    page = ROOT / "docs" / "conformance.md"
    assert page.read_text(encoding="utf-8") == text, "regenerate with `python -m hauntcheck.checks.conformance`"
    rows = [line for line in text.splitlines() if line.startswith("| ") and line.split("|")[1].strip().isdigit()]
    assert len(rows) == 50
    for file in spec.by_kind("haunt"):
        assert f"## {file.data['number']}. {file.data['title']}" in text
        assert f"`{file.display}`" in text
    encoded = {int(file.data["number"]) for file in spec.by_kind("haunt")}
    status = {int(row.split("|")[1]): row.split("|")[3].strip() for row in rows}
    assert all((status[n] == "not encoded yet") == (n not in encoded) for n in range(1, 51))
    assert status[11] != "not encoded yet"
    assert "| solver: traitor | passes (4 claims) |" in text
    # Each haunt's row names its hooks, and its section quotes its judgement and unverified notes.
    hooks = {int(row.split("|")[1]): row.split("|")[5].strip() for row in rows}
    for file in spec.by_kind("haunt"):
        ids = [str(h["id"]) for h in file.data.get("hooks", ())]
        assert hooks[int(file.data["number"])] == (", ".join(f"`{i}`" for i in ids) or "-")
        section = text.split(f"## {file.data['number']}. {file.data['title']}", 1)[1].split("\n## ", 1)[0]
        for mark in file.marks():
            if mark.kind in ("judgement", "unverified"):
                assert f"{mark.note} (line {mark.where.line})".replace("|", "\\|").replace("\n", " ") in section
