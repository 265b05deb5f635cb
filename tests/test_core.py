"""The game-agnostic core, pinned with a tiny dice race defined here (no real game needed):
two players take turns; on a turn the player rolls two dice (faces 0,0,1,1,2,2) or passes; the
first to reach 5 points wins."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from hauntcheck.engine.core import (
    CHANCE,
    Action,
    ActionList,
    Choices,
    DiceRoll,
    Draw,
    Event,
    GameState,
    IllegalAction,
    Outcome,
    Rng,
    Rule,
    RuleBook,
    Shuffle,
    UnknownRule,
)
from hauntcheck.engine.play import FirstLegal, Scripted, ScriptExhausted, Table, play, seeded_table
from hauntcheck.engine.transcript import TranscriptHeader, dumps, loads, replay

RULES = RuleBook(
    "race",
    {r: Rule(r, r) for r in ("turn.choose", "roll.score", "turn.pass", "win.reach-five")},
)


class Race(GameState):
    game = "race"

    def __init__(self) -> None:
        self.scores = [0, 0]
        self.turn = 0
        self.rolling = False

    def to_move(self) -> str | None:
        if self.outcome() is not None:
            return None
        return CHANCE if self.rolling else f"P{self.turn + 1}"

    def legal_actions(self) -> Choices:
        if self.rolling:
            return DiceRoll(2)
        return ActionList([Action.of("roll"), Action.of("pass")])

    def _apply(self, action: Action) -> list[Event]:
        if action.kind == "roll" and not self.rolling:
            self.rolling = True
            return [RULES.event("turn.choose", f"P{self.turn + 1} rolls")]
        if action.kind == "pass":
            self.turn = 1 - self.turn
            return [RULES.event("turn.pass", "passes")]
        faces = action["faces"]
        assert isinstance(faces, tuple)
        gained = sum(int(f) for f in faces if isinstance(f, int))
        self.scores[self.turn] += gained
        self.rolling = False
        events = [RULES.event("roll.score", f"P{self.turn + 1} scores {gained} ({self.scores[self.turn]})")]
        if self.scores[self.turn] >= 5:
            events.append(RULES.event("win.reach-five", f"P{self.turn + 1} wins"))
        self.turn = 1 - self.turn
        return events

    def outcome(self) -> Outcome | None:
        for seat, score in enumerate(self.scores):
            if score >= 5:
                return Outcome("win", (f"P{seat + 1}",))
        return None

    def snapshot(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "turn": self.turn, "rolling": self.rolling}

    def clone(self) -> Race:
        other = Race()
        other.scores, other.turn, other.rolling = list(self.scores), self.turn, self.rolling
        return other


def header(seed: int = 1) -> TranscriptHeader:
    return TranscriptHeader(game="race", players=2, seed=seed, controller="random")


def test_rng_is_pinned_across_machines() -> None:
    # SplitMix64 reference values for seed 0 (from the algorithm's published test vector).
    rng = Rng(0)
    assert [rng.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_rng_below_is_uniform_enough_and_in_range() -> None:
    rng = Rng(42)
    counts = Counter(rng.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(850 < n < 1150 for n in counts.values())


def test_action_round_trips_through_data() -> None:
    action = Action.of("shuffle", pile="rooms", order=["a", "b"])
    data = action.to_data()
    assert data == {"kind": "shuffle", "pile": "rooms", "order": ["a", "b"]}
    assert Action.from_data(data) == action
    assert str(action) == "shuffle pile=rooms order=['a', 'b']"
    with pytest.raises(ValueError, match="kind"):
        Action.from_data({"pile": "x"})


def test_chance_choices_count_sample_and_membership() -> None:
    dice = DiceRoll(3)
    assert len(dice) == 27
    assert len(list(dice)) == 27
    assert Action.of("roll", faces=[0, 2, 1]) in dice
    assert Action.of("roll", faces=[0, 3, 1]) not in dice
    assert Action.of("roll", faces=[0, 2]) not in dice
    draw = Draw(["a", "b", "b"])
    assert len(draw) == 2
    assert Action.of("draw", card="b") in draw and Action.of("draw", card="c") not in draw
    shuffle = Shuffle("deck", ["x", "y", "y"])
    assert len(shuffle) == 3
    rng = Rng(3)
    assert shuffle.sample(rng) in shuffle
    assert Action.of("shuffle", pile="deck", order=["y", "x"]) not in shuffle


def test_rulebook_refuses_unknown_ids() -> None:
    assert RULES.event("turn.pass", "x") == Event("turn.pass", "x")
    with pytest.raises(UnknownRule, match=r"turn\.nope"):
        RULES.event("turn.nope", "x")


def test_illegal_action_leaves_state_unchanged() -> None:
    state = Race()
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="not among the 2 legal actions"):
        state.apply(Action.of("jump"))
    assert state.snapshot() == before


def test_same_seed_same_transcript_and_replay_is_clean() -> None:
    first = play(Race(), seeded_table(9), header(9)).transcript
    second = play(Race(), seeded_table(9), header(9)).transcript
    assert dumps(first) == dumps(second)
    assert first.end["terminal"] is True
    reread = loads(dumps(first), "race.yaml")
    result = replay(reread, Race())
    assert result.ok, result.divergence
    assert result.steps_checked == len(first.steps)
    assert result.state is not None and result.state.snapshot()["scores"] == play(Race(), seeded_table(9), header(9)).state.snapshot()["scores"]


def test_altered_die_is_reported_at_its_step() -> None:
    log = play(Race(), seeded_table(5), header(5)).transcript
    text = dumps(log)
    target = next(s for s in log.steps if s.actor == CHANCE)
    faces = list(target.action["faces"])  # type: ignore[arg-type]
    faces[0] = 2 if faces[0] != 2 else 0
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line == f"- n: {target.n}")
    assert lines[index + 2] == f"  action: {{kind: \"roll\", faces: {list(target.action['faces'])}}}"  # type: ignore[arg-type]
    lines[index + 2] = f"  action: {{kind: \"roll\", faces: {faces}}}"
    result = replay(loads("\n".join(lines) + "\n", "altered.yaml"), Race())
    assert not result.ok
    assert result.divergence is not None
    assert result.divergence.step == target.n
    rendered = result.divergence.render("altered.yaml")
    assert f"step {target.n}" in rendered and "altered.yaml:" in rendered


def test_strict_replay_refuses_unanswered_prompts_and_leftovers() -> None:
    log = play(Race(), seeded_table(2), header(2)).transcript
    short = loads(dumps(log), "x.yaml")
    short.steps = short.steps[:3]
    short.end = {"terminal": False, "stopped": "unfinished"}
    result = replay(short, Race())
    assert not result.ok and result.divergence is not None
    assert "prompt the log does not answer" in result.divergence.what
    assert replay(short, Race(), strict=False).ok
    long = loads(dumps(log), "x.yaml")
    extra = long.steps[-1]
    long.steps.append(type(extra)(extra.n + 1, "P1", Action.of("pass"), 2, []))
    result = replay(long, Race())
    assert result.divergence is not None and "left unused" in result.divergence.what


def test_scripted_controller_reports_exhaustion() -> None:
    table = Table(chance=Scripted([Action.of("roll", faces=[2, 2])]), players=FirstLegal())
    with pytest.raises(ScriptExhausted, match="chance must decide"):
        play(Race(), table, header())


def test_transcript_errors_name_line_and_column() -> None:
    from hauntcheck.engine.spec import SpecErrors

    bad = "format: hauntcheck-transcript\nversion: 1\ngame: race\nplayers: two\nsteps:\n- n: 1\n  actor: P1\n  offered: 2\n  action: {}\nend: {}\n"
    with pytest.raises(SpecErrors) as info:
        loads(bad, "bad.yaml")
    text = str(info.value)
    assert "bad.yaml:4:10: error: players: expected an integer, got 'two'" in text
    assert "bad.yaml:9:11: error: action: an action needs a 'kind' string" in text


# --------------------------------------------------------------------------------------------
# Scenarios, run against the dice race


RACE_RULES = """\
spec_version: 1
kind: rules
game: race
rules:
""" + "".join(
    f"  - {{id: {r}, says: {r} in our own words, cite: {{source: race.txt, section: Rules}}}}\n"
    for r in ("turn.choose", "roll.score", "turn.pass", "win.reach-five")
)


def race_position(spec: object, players: int, options: object, position: dict[str, Any]) -> Race:
    from hauntcheck.engine.scenario import PositionError

    state = Race()
    scores = position.get("scores", [0, 0])
    if not (isinstance(scores, list) and len(scores) == 2 and all(isinstance(s, int) and 0 <= s < 5 for s in scores)):
        raise PositionError([(("scores",), f"scores must be two numbers from 0 to 4, got {scores!r}")])
    state.scores = list(scores)
    state.turn = int(position.get("turn", 0))
    return state


@pytest.fixture
def race(tmp_path: Any) -> tuple[Any, Any]:
    from hauntcheck.engine.games import GameDef
    from hauntcheck.engine.spec import SCHEMA_DIR, load_game

    root = tmp_path / "spec"
    (root / "race").mkdir(parents=True)
    (root / "schema").symlink_to(SCHEMA_DIR)
    (root / "race" / "rules.yaml").write_text(RACE_RULES)
    definition = GameDef(id="race", title="Race", min_players=2, max_players=2,
                         new_game=lambda spec, players, options: Race(), position=race_position)
    return definition, load_game("race", root)


def run_scenario(tmp_path: Any, race: tuple[Any, Any], body: str) -> Any:
    from hauntcheck.engine.scenario import ScenarioRun, load_scenario

    path = tmp_path / "case.yaml"
    path.write_text("spec_version: 1\nkind: scenario\ngame: race\ntitle: a case\nsource: {rules: [roll.score]}\n" + body)
    return ScenarioRun(load_scenario(path, "case.yaml"), *race).run()


def test_scenario_passes_and_explains_with_rule_ids(tmp_path: Any, race: tuple[Any, Any]) -> None:
    from hauntcheck.engine.scenario import explain

    result = run_scenario(tmp_path, race, """\
rules: [roll.score, win.reach-five]
position: {scores: [3, 0]}
chance: [{kind: roll, faces: [2, 0]}]
steps:
  - expect_legal: [{kind: roll}, {kind: pass}]
  - expect_illegal: {kind: jump}
  - do: {kind: roll}
    by: P1
  - expect: {scores: [5, 0], winner: [P1], result: win}
""")
    assert result.ok, result.failures
    lines: list[str] = []
    explain(result, RuleBook("race", {"roll.score": Rule("roll.score", "dice add to your score")}), lines.append)
    assert "      roll.score: P1 scores 2 (5)" in lines
    assert "          (dice add to your score)" in lines
    assert lines[-1] == "  verdict: PASS"


def test_scenario_is_strict_about_unused_chance_and_unapplied_rules(tmp_path: Any, race: tuple[Any, Any]) -> None:
    result = run_scenario(tmp_path, race, """\
rules: [turn.pass]
chance: [{kind: roll, faces: [1, 1]}, {kind: roll, faces: [2, 2]}]
steps:
  - do: {kind: roll}
""")
    assert not result.ok
    assert any("case.yaml:7:39: error:" in f and "scripted chance left unused: roll faces=[2, 2]" in f for f in result.failures), result.failures
    assert any("turn.pass decides it, but that rule was never applied" in f for f in result.failures)


def test_scenario_fails_on_a_prompt_it_does_not_answer(tmp_path: Any, race: tuple[Any, Any]) -> None:
    result = run_scenario(tmp_path, race, """\
rules: [turn.choose]
steps:
  - do: {kind: roll}
  - do: {kind: pass}
    by: P2
""")
    assert not result.ok
    assert any("chance must decide (roll 2 dice) but the scenario scripts no outcome" in f for f in result.failures)


def test_scenario_expected_refusal_keeps_state(tmp_path: Any, race: tuple[Any, Any]) -> None:
    result = run_scenario(tmp_path, race, """\
rules: [turn.pass]
steps:
  - do: {kind: roll, faces: [1]}
    error: not among the 2 legal actions
  - do: {kind: pass}
  - expect: {turn: 1}
  - expect_no_prompt: P1
  - expect_to_move: P2
""")
    assert result.ok, result.failures


def test_scenario_bad_position_names_the_path(tmp_path: Any, race: tuple[Any, Any]) -> None:
    result = run_scenario(tmp_path, race, """\
rules: [turn.pass]
position:
  scores: [9, 0]
steps:
  - do: {kind: pass}
""")
    assert result.failures == ["case.yaml:8:11: error: scores must be two numbers from 0 to 4, got [9, 0]"]


def test_large_shuffles_are_counted_exactly() -> None:
    shuffle = Shuffle("deck", [f"c{i}" for i in range(30)])
    import math
    import sys

    assert shuffle.size() == math.factorial(30)
    assert len(shuffle) == sys.maxsize
    assert shuffle.sample(Rng(1)) in shuffle
