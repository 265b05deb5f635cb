"""Halls of Horror engine: whole games under seeded random play keep the invariants (Key
conservation, HP and Rage within bounds, Resolve never negative, nobody cut off from an Exit or a
body), transcripts replay exactly, and the spec is complete and consistent."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from hauntcheck.engine.core import Rng
from hauntcheck.engine.games import game_spec, get_game
from hauntcheck.engine.halls import GAME, HallsState
from hauntcheck.engine.play import play, seeded_table
from hauntcheck.engine.spec import load_game
from hauntcheck.engine.transcript import TranscriptHeader, dumps, loads, replay

SPEC = game_spec("halls-of-horror")


def new(players: int, **options: str) -> HallsState:
    state = GAME.new_game(SPEC, players, options)
    assert isinstance(state, HallsState)
    return state


def checked_game(players: int, seed: int, **options: str) -> tuple[HallsState, int]:
    state = new(players, **options)
    errors: list[str] = []

    def check(s: object, step: object) -> None:
        assert isinstance(s, HallsState)
        found = s.invariant_errors()
        if found and not errors:
            errors.append(f"step {getattr(step, 'n', '?')}: {found}")

    result = play(state, seeded_table(seed), TranscriptHeader(game="halls-of-horror", players=players), on_step=check)
    assert not errors, errors[0]
    return state, len(result.transcript.steps)


@pytest.mark.parametrize("players, seed, options", [
    (4, 1, {}), (4, 2, {"variant": "B", "side": "advanced"}), (3, 3, {"variant": "mixed"}),
    (3, 4, {"side": "advanced"}), (2, 5, {}), (2, 6, {"variant": "mixed", "side": "advanced"}),
    (1, 7, {}), (1, 8, {"side": "advanced"}),
])
def test_random_games_keep_the_invariants(players: int, seed: int, options: dict[str, str]) -> None:
    state, steps = checked_game(players, seed, **options)
    outcome = state.outcome()
    assert outcome is not None and outcome.result in ("escape", "killer", "death", "undecided")
    assert steps > 20


def test_transcripts_replay_exactly() -> None:
    state = new(3)
    header = TranscriptHeader(game="halls-of-horror", players=3, seed=11)
    result = play(state, seeded_table(11), header)
    text = dumps(result.transcript)
    again = replay(loads(text, "<test>"), new(3))
    assert again.ok, again.divergence
    other = play(new(3), seeded_table(11), TranscriptHeader(game="halls-of-horror", players=3, seed=11))
    assert dumps(other.transcript) == text
    assert other.state.snapshot() == result.state.snapshot()


def test_clone_is_independent() -> None:
    state = new(2)
    table = seeded_table(3)
    play(state, table, TranscriptHeader(game="halls-of-horror", players=2), max_steps=60)
    twin = state.clone()
    assert twin.snapshot() == state.snapshot()
    action = next(iter(twin.legal_actions()))
    twin.apply(action)
    assert twin.snapshot() != state.snapshot()


def test_round_limit_ends_undecided() -> None:
    state = new(2)
    play(state, seeded_table(1), TranscriptHeader(game="halls-of-horror", players=2), max_steps=40)
    assert state.outcome() is None
    state.round = state.d.round_limit + 1
    state.turn, state.mc, state.ctx = {}, {}, {}
    state._need = None
    state._legal = None
    state._begin_turn()
    outcome = state.outcome()
    assert outcome is not None and outcome.result == "undecided"
    assert state.to_move() is None


def test_spec_counts_and_cross_check() -> None:
    assert GAME.cross_check(SPEC) == []
    decks = SPEC.one("hoh-decks").data
    rooms = SPEC.one("hoh-rooms").data
    comp = SPEC.one("hoh-components").data["counts"]
    assert sum(c["copies"] for c in decks["rewards"]) == comp["reward_cards"] == 21
    assert sum(c["copies"] for c in decks["mc"]) == comp["mc_cards"] == 43
    assert sum(c["copies"] for c in decks["gifts"]) == comp["gift_tokens"] == 12
    assert len(rooms["rooms"]) + len(rooms["exits"]) + len(rooms["starting_rooms"]) == comp["room_cards"]
    numbers = {(r["number"], r["variant"]) for r in rooms["rooms"]}
    assert numbers == {(n, v) for n in range(1, 25) for v in "AB"}
    described = {1, 3, 4, 8, 10, 15, 19, 20}
    for r in rooms["rooms"]:
        if r["number"] in described and not (r["number"] == 3 and r["variant"] == "B"):
            assert "cite" in r, r["id"]
        else:
            assert "sample" in r or "cite" in r, r["id"]


def test_every_undescribed_card_is_marked_sample() -> None:
    decks = SPEC.one("hoh-decks").data
    for deck in ("mc", "mc_solo", "gifts", "rewards"):
        for card in decks[deck]:
            assert "sample" in card or ("cite" in card and "judgement" in card) or "cite" in card, card["id"]
    named = {"a-gift-from-the-mc", "charge", "self-mutilation", "even-the-odds", "secret-passages"}
    assert named <= {c["id"] for c in decks["mc"]}
    marks = [m for m in SPEC.marks() if m.kind == "sample"]
    assert len(marks) > 30


def test_registered_game_and_golden_cases() -> None:
    definition = get_game("halls-of-horror")
    assert definition is GAME
    assert {c.players for c in GAME.golden} == {1, 2, 3, 4}


def test_two_player_mc_deck_drops_the_named_cards() -> None:
    state = new(2)
    while state.stage.startswith("setup-") and state.stage != "setup-mc":
        state.apply(state.legal_actions().sample(Rng(1)))
    legal = state.legal_actions()
    items = getattr(legal, "items", ())
    assert len(items) == 43 - 6
    assert "charge" not in items and "a-gift-from-the-mc" not in items


class EngineMachine(RuleBasedStateMachine):
    """Hypothesis picks every decision (players' and chance's); after each one Keys are conserved,
    HP and Rage stay in bounds, Resolve and ammunition never go negative, and no living
    Participant or the Killer is cut off from an Exit, a body or a face-down room."""

    @initialize(players=st.integers(1, 4), advanced=st.booleans(), variant=st.sampled_from(["A", "B", "mixed"]))
    def start(self, players: int, advanced: bool, variant: str) -> None:
        self.state = new(players, variant=variant, side="advanced" if advanced else "beginner")

    @rule(pick=st.integers(0, 2**32), steps=st.integers(1, 40))
    def decide(self, pick: int, steps: int) -> None:
        rng = Rng(pick)
        for _ in range(steps):
            if self.state.to_move() is None:
                return
            legal = self.state.legal_actions()
            self.state.apply(legal.sample(rng))
            assert self.state.invariant_errors() == []

    @invariant()
    def keys_and_bounds(self) -> None:
        if hasattr(self, "state"):
            assert self.state.invariant_errors() == []


TestEngineMachine = EngineMachine.TestCase
TestEngineMachine.settings = settings(max_examples=25, stateful_step_count=15, deadline=None)


def test_cross_check_points_at_bad_room_data(tmp_path: Path) -> None:
    """A user's room data with an 'also' that names no other reward is reported at file:line."""
    root = tmp_path / "spec"
    shutil.copytree(SPEC.root, root)
    rooms = root / "halls-of-horror" / "rooms.yaml"
    text = rooms.read_text(encoding="utf-8")
    assert "also: 1}" in text
    rooms.write_text(text.replace("also: 1}", "also: 7}", 1), encoding="utf-8")
    errors = GAME.cross_check(load_game("halls-of-horror", root))
    assert len(errors) == 1
    message = str(errors[0])
    assert "rooms.yaml:" in message and "'also' must name another reward" in message
    line = int(message.split("rooms.yaml:")[1].split(":")[0])
    assert "also: 7" in rooms.read_text(encoding="utf-8").splitlines()[line - 1]
