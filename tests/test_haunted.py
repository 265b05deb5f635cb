"""Haunted (spec/haunted, engine/haunted/): invariants over random play, replay, the exit rules
over every ordering of the three stats, setup, doors, traps, Secret Doors, endings and charts."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest

from hauntcheck.engine import haunted
from hauntcheck.engine.core import CHANCE, Action, IllegalAction
from hauntcheck.engine.games import game_spec, get_game
from hauntcheck.engine.haunted import ENGINE_RULES, GAME, HauntedState, exit_result, load_charts, new_game, notices
from hauntcheck.engine.play import play, seeded_table
from hauntcheck.engine.spec import SpecErrors
from hauntcheck.engine.transcript import TranscriptHeader, dumps, loads, replay

SPEC = game_spec("haunted")
ALL_CARDS = sorted([f"{r}{s}" for s in "DCHS" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")] + ["JK1", "JK2"])
STEP_BOUND = 20_000


def zones(snap: dict[str, Any]) -> list[str]:
    """Every card named by the snapshot's zones (each must appear exactly once)."""
    cards = list(snap["table"]) + snap["deck"] + snap["held_out"] + snap["discard"] + snap["out_of_game"]
    for p in snap["players"]:
        cards += p["secret_doors"]
    if snap["pending"] is not None and snap["pending"] not in snap["table"]:
        cards.append(snap["pending"])
    return cards


class Watch:
    """Checks the invariants after every step of a game."""

    def __init__(self) -> None:
        self.locked: dict[str, int] = {}
        self.steps = 0

    def __call__(self, state: Any, step: Any) -> None:
        self.steps += 1
        snap = state.snapshot()
        assert sorted(zones(snap)) == ALL_CARDS, f"step {step.n}: cards not conserved"
        for p in snap["players"]:
            for stat in ("will", "body", "fear"):
                assert p[stat] >= 0, f"step {step.n}: {p['seat']} {stat} below 0"
            if p["seat"] in self.locked:
                assert p["will_locked"] and p["will"] == self.locked[p["seat"]], f"step {step.n}: locked WILL changed"
            elif p["will_locked"]:
                self.locked[p["seat"]] = p["will"]
        actor = state.to_move()
        seats = state.seats()
        if actor is not None and snap["step"] not in ("stronger", "deal"):
            active = [s for s in seats if s == snap["active"]]
            assert len(active) == 1
            assert not snap["players"][seats.index(snap["active"])]["escaped"], "an escaped player is active"
            if actor != CHANCE and snap["step"] != "secret":
                assert actor == snap["active"], "only the active player decides outside Secret Door offers"


def random_game(players: int, seed: int, options: dict[str, Any] | None = None) -> tuple[HauntedState, Any, Watch]:
    state = new_game(SPEC, players, options or {})
    watch = Watch()
    result = play(state, seeded_table(seed), TranscriptHeader("haunted", players, seed, dict(options or {})),
                  max_steps=STEP_BOUND, on_step=watch)
    return state, result, watch


# ------------------------------------------------------------------------------------------ random play


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_random_games_keep_the_invariants_and_always_end(players: int) -> None:
    ends = set()
    for seed in range(25):
        state, result, watch = random_game(players, seed)
        assert result.stopped is None and state.outcome() is not None, f"seed {seed} did not end"
        assert watch.steps < STEP_BOUND
        ends.add(state.outcome().result)  # type: ignore[union-attr]
    assert ends  # every game produced a result word


@pytest.mark.parametrize("options,players", [({"variant": "multilevel"}, 3), ({"variant": "long"}, 4),
                                             ({"next_level": True}, 1), ({"variant": "multilevel"}, 6)])
def test_variants_keep_the_invariants(options: dict[str, Any], players: int) -> None:
    for seed in range(20):
        state, result, _ = random_game(players, seed, options)
        assert state.outcome() is not None and result.transcript.end["terminal"]


def test_replay_of_random_games_reproduces_the_final_snapshot() -> None:
    for players, seed, options in [(1, 3, {}), (2, 8, {}), (3, 1, {"variant": "multilevel"}), (4, 2, {}),
                                   (5, 9, {"variant": "long"}), (6, 4, {}), (1, 5, {"next_level": True})]:
        state, result, _ = random_game(players, seed, options)
        log = loads(dumps(result.transcript), "<mem>")
        fresh = new_game(SPEC, players, options)
        outcome = replay(log, fresh, strict=True)
        assert outcome.ok, outcome.divergence and outcome.divergence.render("<mem>")
        assert fresh.snapshot() == state.snapshot()


def test_every_engine_rule_fires_somewhere_in_random_play() -> None:
    fired: set[str] = set()
    for players, options in [(1, {}), (1, {"next_level": True}), (2, {}), (4, {}), (6, {}),
                             (3, {"variant": "multilevel"}), (3, {"variant": "long"})]:
        for seed in range(30):
            _, result, _ = random_game(players, seed, options)
            fired |= result.transcript.rules_applied()
    spec_only = {"setup.components", "start.card-values", "move.no-late-connection", "end.all-exits"}
    rules = {r["id"] for r in SPEC.one("rules").data["rules"]}
    assert rules - fired <= spec_only


# ------------------------------------------------------------------------------------------ the exit rules

# (WILL, BODY, FEAR) for each of the 13 orderings of three stats (ties included), with the branch
# the rules give at a red and at a black Exit.
EXIT_TABLE = [
    ((5, 3, 1), "will-escape", "will-escape"),  # W > B > F
    ((5, 1, 3), "will-locked", "will-locked"),  # W > F > B
    ((3, 5, 1), "body-remember", "body-remember"),  # B > W > F
    ((1, 5, 3), "body-mad", "body-mad"),  # B > F > W
    ((3, 1, 5), "fear-blocked", "fear-blocked"),  # F > W > B
    ((1, 3, 5), "fear-blocked", "fear-blocked"),  # F > B > W
    ((4, 4, 2), "will-escape", "body-remember"),  # W = B > F: the Exit's colour decides
    ((2, 2, 4), "fear-blocked", "fear-blocked"),  # F > W = B
    ((4, 2, 4), "will-locked", "will-locked"),  # W = F > B: FEAR is not above WILL
    ((2, 4, 2), "body-mad", "body-mad"),  # B > W = F
    ((2, 4, 4), "body-mad", "body-mad"),  # B = F > W: FEAR is not above BODY
    ((4, 2, 2), "will-locked", "will-locked"),  # W > B = F
    ((3, 3, 3), "will-locked", "body-mad"),  # all tied: the Exit's colour decides
]


def _ordering(values: tuple[int, int, int]) -> tuple[tuple[int, ...], ...]:
    """The weak ordering of (W, B, F): groups of equal stats, highest first."""
    groups = sorted({v for v in values}, reverse=True)
    return tuple(tuple(i for i, v in enumerate(values) if v == g) for g in groups)


def test_the_exit_table_covers_every_ordering_of_the_three_stats() -> None:
    seen = {_ordering(row[0]) for row in EXIT_TABLE}
    every = set()
    for values in itertools.product(range(3), repeat=3):
        every.add(_ordering(values))  # type: ignore[arg-type]
    assert seen == every and len(every) == 13


@pytest.mark.parametrize("stats,red,black", EXIT_TABLE)
def test_exit_rules(stats: tuple[int, int, int], red: str, black: str) -> None:
    will, body, fear = stats
    assert exit_result(will, body, fear, "red") == red
    assert exit_result(will, body, fear, "black") == black
    # The same branch holds with every stat shifted up (only the ordering matters).
    assert exit_result(will + 3, body + 3, fear + 3, "red") == red


def dealt(players: int, options: dict[str, Any] | None = None, starts: list[str] | None = None,
          stronger: str = "body") -> HauntedState:
    """A game after setup: cross 2C 3C 4C 5C, Secret Doors from the clubs/hearts, starting Rooms
    given (default 9S, 10S, ...)."""
    state = new_game(SPEC, players, options or {})
    for _ in range(players):
        state.apply(Action.of("stronger", stat=stronger))
    solo = players == 1
    cards = ["2C", "3C", "4C", "5C"]
    spare = ["6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "2H", "3H", "4H", "5H"]
    if not solo:
        cards += spare[: 2 * players]
    cards += starts or ["9S", "10S", "JS", "QS", "KS", "8S"][:players]
    for card in cards:
        state.apply(Action.of("draw", card=card))
    return state


def put(state: HauntedState, seat: int, card: str, *, will: int, body: int, fear: int) -> None:
    """Stand a player next to ``card`` (a fresh face-up room touching it) with given stats."""
    p = state.players[seat]
    room = p.pos
    assert room is not None
    state.adj[room].add(card)
    state.adj[card].add(room)
    p.will, p.body, p.fear = will, body, fear
    p.first_turn = False
    state.active = seat
    state._legal = None


def walk_to(state: HauntedState, card: str) -> list[str]:
    return [str(e) for e in state.apply(Action.of("move", to=card))]


def reach_exit(state: HauntedState, ace: str, will: int, body: int, fear: int) -> list[str]:
    """The active player reaches ``ace``: walking onto the Ace of Diamonds, or turning over another
    Ace as a Door (declaring Suit)."""
    seat = state.active
    if ace == "AD":
        put(state, seat, "AD", will=will, body=body, fear=fear)
        return walk_to(state, "AD")
    p = state.players[seat]
    p.will, p.body, p.fear = will, body, fear
    events = first_door(state, ace, "suit")
    if state.step == "connect":
        events += [str(e) for e in state.apply(Action.of("no-connection"))]
    return events


@pytest.mark.parametrize("ace", ["AD", "AC"])
@pytest.mark.parametrize("stats,red,black", EXIT_TABLE)
def test_exit_rules_in_the_engine(stats: tuple[int, int, int], red: str, black: str, ace: str) -> None:
    state = dealt(2)
    seat = state.active
    will, body, fear = stats
    expected = red if ace == "AD" else black
    events = reach_exit(state, ace, will, body, fear)
    p = state.players[seat]
    assert any(f"-> {expected}" in e for e in events), events
    escaped = expected in ("will-escape", "body-remember", "body-mad")
    assert p.escaped == escaped
    assert (state.outcome() is not None) == escaped
    expected_questions = {
        "fear-blocked": {"fear"}, "will-locked": {"remember"}, "will-escape": {"remember", "bring"},
        "body-remember": {"bring", "remember"}, "body-mad": {"bring"},
    }[expected]
    assert set(p.questions) == expected_questions
    assert p.locked == (expected == "will-locked")
    assert p.will == (0 if expected == "body-mad" else will)
    if escaped:
        assert state.outcome().winners == (f"P{seat + 1}",)  # type: ignore[union-attr]


def test_locked_will_ignores_every_later_change() -> None:
    state = dealt(2)
    seat = state.active
    put(state, seat, "AD", will=5, body=1, fear=3)
    walk_to(state, "AD")
    p = state.players[seat]
    assert p.locked and p.will == 5
    events: list[Any] = []
    state._change(seat, "will", 2, "test", events)
    state._set(seat, "will", 0, "exit.body-mad", "test", events)
    assert p.will == 5 and [e.rule for e in events] == ["stats.locked", "stats.locked"]


def test_stats_never_go_below_zero() -> None:
    state = dealt(2)
    seat = state.active
    state.players[seat].fear = 1
    events: list[Any] = []
    state._change(seat, "fear", -2, "test", events)
    assert state.players[seat].fear == 1 and events[0].rule == "stats.floor-zero"


# ------------------------------------------------------------------------------------------ setup


def test_setup_stats_fear_and_deck_sizes() -> None:
    for players in range(1, 7):
        state = dealt(players, stronger="will")
        snap = state.snapshot()
        for p in snap["players"]:
            assert (p["will"], p["body"]) == (5, 3)
            # The first player's starting Room (a spade) has already added 1 FEAR on the provisional chart.
            first = 1 if p["seat"] == snap["active"] else 0
            assert p["fear"] == (2 if players == 1 else players) + first
            assert len(p["secret_doors"]) == (0 if players == 1 else 2)
            assert p["questions"] == []
        assert snap["table"]["AD"]["face_up"] and len(snap["table"]["AD"]["adjacent"]) == 4
        # The centre Ace is the Way Out everyone sees from the start: the first of the four Exits (end.all-exits).
        assert snap["exits_revealed"] == ["AD"]
        assert snap["set_aside_draws_left"] == 2 * players
        secret = 0 if players == 1 else 2 * players
        jokers = 0 if players == 1 else 2
        # 48 rooms less the cross, Secret Doors and starting Rooms, plus three Aces and the Jokers.
        assert len(snap["deck"]) == 48 - 4 - secret - players + 3 + jokers
        assert ("JK1" in snap["out_of_game"]) == (players == 1)


def test_stronger_choice_gives_five_and_three() -> None:
    state = new_game(SPEC, 2, {})
    state.apply(Action.of("stronger", stat="body"))
    state.apply(Action.of("stronger", stat="will"))
    a, b = state.players
    assert (a.body, a.will, b.body, b.will) == (5, 3, 3, 5)


def test_set_aside_cards_come_off_the_deck_first() -> None:
    state = dealt(3)
    # The first 6 draws after setup cannot be an Ace or a Joker.
    assert state.aside_left == 6
    state.apply(Action.of("open"))
    while state.step == "secret":
        state.apply(Action.of("pass"))
    state.apply(Action.of("declare", aspect="suit"))
    legal = state.legal_actions()
    assert Action.of("draw", card="AC") not in legal and Action.of("draw", card="JK1") not in legal
    assert Action.of("draw", card="6D") in legal


def test_first_player_lowest_value_with_suit_order() -> None:
    # Equal values: diamonds beat clubs beat hearts beat spades.
    state = dealt(4, starts=["7S", "7H", "7D", "9D"])
    assert state.active == 2
    state = dealt(3, starts=["8S", "QD", "8H"])
    assert state.active == 2  # 8H beats 8S
    state = dealt(2, starts=["JD", "10S"])
    assert state.active == 1  # court cards count 11+


def test_starting_room_effect_applies_on_the_first_turn() -> None:
    state = new_game(SPEC, 2, {})
    state.apply(Action.of("stronger", stat="body"))
    state.apply(Action.of("stronger", stat="body"))
    events: list[str] = []
    for card in ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "2D", "3S"]:
        events = [str(e) for e in state.apply(Action.of("draw", card=card))]
    # P1 (2D) goes first: diamonds give +1 WILL on the provisional chart.
    assert any(e.startswith("turn.starting-room-effect: P1") for e in events)
    assert state.players[0].will == 4


# ------------------------------------------------------------------------------------------ doors


def first_door(state: HauntedState, card: str, aspect: str) -> list[str]:
    events = [str(e) for e in state.apply(Action.of("open"))]
    while state.step == "secret":
        events += [str(e) for e in state.apply(Action.of("pass"))]
    events += [str(e) for e in state.apply(Action.of("declare", aspect=aspect))]
    state.aside_left = 0
    state._legal = None
    events += [str(e) for e in state.apply(Action.of("draw", card=card))]
    return events


def test_color_with_a_matching_value_gives_plus_one_instead() -> None:
    state = dealt(2, starts=["9S", "10S"])
    seat = state.active  # 9S
    body = state.players[seat].body
    will = state.players[seat].will
    events = first_door(state, "9D", "color")  # a 9 is already on the table: red -> +1 WILL
    assert any(e.startswith("door.color-match") for e in events)
    assert (state.players[seat].will, state.players[seat].body) == (will + 1, body)


def test_color_without_a_match_applies_the_chart() -> None:
    state = dealt(2, starts=["9S", "10S"])
    seat = state.active
    will = state.players[seat].will
    events = first_door(state, "3H", "color")  # red 3: portrait gallery, +1 WILL
    assert any(e.startswith("door.color: 3H") for e in events)
    assert state.players[seat].will == will + 1


def test_new_card_is_placed_and_may_connect_to_a_same_colour_card() -> None:
    state = dealt(2, starts=["9S", "10S"])
    seat = state.active
    first_door(state, "QC", "suit")
    assert state.step == "connect"
    legal = list(state.legal_actions())
    assert Action.of("connect", to="10S") in legal and Action.of("connect", to="AD") not in legal
    state.apply(Action.of("connect", to="10S"))
    assert state.adj["QC"] == {"9S", "10S"}
    assert state.players[seat].pos == "QC"


def test_moving_onto_a_revealed_room_applies_no_effect() -> None:
    state = dealt(2, starts=["9S", "10S"])
    seat = state.active
    first_door(state, "QC", "suit")
    state.apply(Action.of("no-connection"))
    # Next player opens; then back to the first player, who walks back to 9S.
    other = state.active
    assert other != seat
    first_door(state, "7D", "suit")
    if state.step == "connect":
        state.apply(Action.of("no-connection"))
    before = (state.players[seat].will, state.players[seat].body, state.players[seat].fear)
    events = walk_to(state, "9S")
    assert any(e.startswith("move.revealed-no-effect") for e in events)
    assert (state.players[seat].will, state.players[seat].body, state.players[seat].fear) == before


def test_secret_door_on_another_player_and_on_yourself() -> None:
    state = dealt(2, starts=["9S", "10S"])
    seat, other = 0, 1  # 9S is lower than 10S; P1 holds 6C 7C, P2 holds 8C 9C
    assert state.active == seat
    body = state.players[seat].body
    state.apply(Action.of("open"))
    assert state.to_move() == "P1"  # the active player is offered first, with a stat bonus
    assert sorted(str(a) for a in state.legal_actions())[:2] == ["pass", "secret-door card=6C bonus=body"]
    state.apply(Action.of("pass"))
    assert state.to_move() == "P2"
    assert Action.of("secret-door", card="8C") in state.legal_actions()
    state.apply(Action.of("secret-door", card="8C"))
    events = [str(e) for e in state.apply(Action.of("declare", aspect="suit"))]
    assert any(e.startswith("secret.still-declare") for e in events)
    assert state.players[other].secret == ["9C"] and state.table["8C"]
    assert state.players[seat].body == body + 1  # clubs on the provisional chart: +1 BODY to the active player

    state = dealt(2, starts=["9S", "10S"])
    will, fear = state.players[seat].will, state.players[seat].fear
    state.apply(Action.of("open"))
    state.apply(Action.of("secret-door", card="6C", bonus="will"))
    events = [str(e) for e in state.apply(Action.of("declare", aspect="color"))]
    assert any(e.startswith("secret.self-bonus") for e in events)
    # Black 6 (no 6 on the table): FEAR -1 on the provisional chart, and +1 WILL for playing it on oneself.
    assert (state.players[seat].will, state.players[seat].fear) == (will + 1, fear - 1)


def test_solo_has_no_secret_doors_and_no_jokers() -> None:
    state = dealt(1)
    assert state.players[0].secret == [] and sorted(state.out) == ["JK1", "JK2"]
    state.apply(Action.of("open"))
    assert state.step == "declare"


# ------------------------------------------------------------------------------------------ traps


def test_trap_and_rescue_reset_both_fears_to_two() -> None:
    state = dealt(2, starts=["9S", "10S"])
    trapped = state.active
    events = first_door(state, "JK1", "suit")
    if state.step == "connect":
        events += [str(e) for e in state.apply(Action.of("no-connection"))]
    assert any(e.startswith("trap.trapped") for e in events)
    assert state.players[trapped].trapped
    rescuer = state.active
    assert rescuer != trapped
    put(state, rescuer, "JK1", will=3, body=3, fear=5)
    state.players[trapped].fear = 6
    events = walk_to(state, "JK1")
    assert any(e.startswith("trap.rescue") for e in events)
    assert not state.players[trapped].trapped
    assert state.players[trapped].fear == 2 and state.players[rescuer].fear == 2


def test_trapped_player_draws_and_plays_the_card() -> None:
    state = dealt(2, starts=["9S", "10S"])
    trapped = state.active
    first_door(state, "JK1", "suit")
    if state.step == "connect":
        state.apply(Action.of("no-connection"))
    # The other player's turn: walk back to their own start (it has no neighbour: open a Door).
    first_door(state, "5D", "suit")
    if state.step == "connect":
        state.apply(Action.of("no-connection"))
    assert state.active == trapped and state.to_move() == CHANCE and state.step == "trap-draw"
    state.apply(Action.of("draw", card="7S"))
    legal = list(state.legal_actions())
    assert Action.of("play-face-up", connect="9S") in legal  # a spade to match
    assert any(a.kind == "play-face-down" for a in legal)
    state.apply(Action.of("play-face-up", connect="9S"))
    assert state.table["7S"] and state.adj["7S"] == {"JK1", "9S"}
    assert state.players[trapped].pos == "JK1" and state.players[trapped].trapped


# ------------------------------------------------------------------------------------------ endings


def test_all_four_exits_revealed_gives_everyone_one_more_turn() -> None:
    state = dealt(3, starts=["9S", "10S", "JS"])
    for ace in ("AC", "AH"):
        state.deck.remove(ace)
        state.table[ace] = True
        state.adj[ace] = set()
    state.exits_revealed = ["AD", "AC", "AH"]
    events = reach_exit(state, "AS", will=1, body=1, fear=9)  # FEAR highest: no escape
    assert any(e.startswith("end.all-exits") for e in events)
    assert state.total_turns == 1
    steps = 0
    while state.outcome() is None:
        legal = list(state.legal_actions())
        moves = [a for a in legal if a.kind == "move"]
        state.apply(moves[0] if moves else legal[0])
        steps += 1
        assert steps < 100
    assert state.total_turns == 4  # the trigger's turn and one more for each of the 3 players
    assert any(p.escaped for p in state.players) is False


def test_multilevel_notes_scores_discards_and_blocks_early_escape() -> None:
    state = dealt(2, {"variant": "multilevel"}, starts=["9S", "10S"])
    seat = state.active
    put(state, seat, "AD", will=1, body=6, fear=1)
    events = walk_to(state, "AD")
    assert any(e.startswith("multi.note-scores") for e in events)
    assert any(e.startswith("multi.no-early-escape") for e in events)
    assert not state.players[seat].escaped and state.outcome() is None
    assert all(len(p.notes) == 1 for p in state.players)
    face_up = [c for c, up in state.table.items() if up]
    occupied = {p.pos for p in state.players}
    assert set(face_up) <= occupied


def test_solo_next_level_is_a_player_choice() -> None:
    state = dealt(1, {"next_level": True})
    put(state, 0, "AD", will=1, body=6, fear=1)
    walk_to(state, "AD")
    assert state.step == "exit-choice"
    assert list(state.legal_actions()) == [Action.of("escape"), Action.of("next-level")]
    state.apply(Action.of("next-level"))
    assert state.outcome() is None and [c for c, up in state.table.items() if up] == ["AD"]


def test_illegal_actions_leave_the_state_unchanged() -> None:
    for players, seed in [(1, 1), (3, 2), (6, 3)]:
        state = new_game(SPEC, players, {})
        probes = [Action.of("move", to="ZZ"), Action.of("open"), Action.of("draw", card="AD"),
                  Action.of("declare", aspect="shape"), Action.of("stronger", stat="fear"), Action.of("escape")]
        table = seeded_table(seed)
        for _ in range(300):
            if state.to_move() is None:
                break
            for probe in probes:
                if probe in state.legal_actions():
                    continue
                before = state.snapshot()
                with pytest.raises(IllegalAction):
                    state.apply(probe)
                assert state.snapshot() == before
            actor = state.to_move()
            assert actor is not None
            state.apply(table.for_actor(actor).choose(state, actor, state.legal_actions()))


# ------------------------------------------------------------------------------------------ charts


def test_provisional_charts_are_announced() -> None:
    lines = notices(SPEC)
    assert len(lines) == 1 and "PROVISIONAL" in lines[0] and "--charts" in lines[0]
    assert get_game("haunted").notices(SPEC) == lines
    assert new_game(SPEC, 2, {}).snapshot()["charts"] == "provisional"


def _user_charts(tmp_path: Path, body: str) -> Path:
    text = (SPEC.one("haunted-charts").path.read_text(encoding="utf-8")
            .replace("source: provisional", "source: the printed game, page 4")
            .replace('"3": {room: portrait gallery, effect: {will: 1}}', body))
    path = tmp_path / "charts.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_user_charts_replace_the_provisional_ones(tmp_path: Path) -> None:
    path = _user_charts(tmp_path, '"3": {room: the real gallery, effect: {will: 3}}')
    charts = load_charts(path)
    assert not charts.provisional and charts.colour["red"]["3"].effect == (("will", 3),)
    state = dealt(2, {"charts": str(path)}, starts=["9S", "10S"])
    seat = state.active
    will = state.players[seat].will
    first_door(state, "3H", "color")
    assert state.players[seat].will == will + 3


def test_bad_user_charts_are_errors_with_positions(tmp_path: Path) -> None:
    path = _user_charts(tmp_path, '"3": {room: the real gallery, effect: {wil: 3}}')
    with pytest.raises(SpecErrors) as info:
        load_charts(path)
    message = str(info.value)
    assert f"{path}:" in message and "unknown key 'wil'" in message
    line = message.split(":")[1]
    assert line.isdigit() and int(line) > 1
    path.write_text(path.read_text(encoding="utf-8").replace('    "7": {room: library, effect: {will: 1}}\n', ""), encoding="utf-8")
    with pytest.raises(SpecErrors):
        load_charts(path)


def test_spec_cross_check_is_clean_and_every_engine_rule_is_defined() -> None:
    assert GAME.cross_check(SPEC) == []
    defined = {r["id"] for r in SPEC.one("rules").data["rules"]}
    assert set(ENGINE_RULES) <= defined
    source = "".join(module.read_text(encoding="utf-8") for module in sorted(Path(haunted.__file__).parent.glob("*.py")))
    cited = set(re.findall(r'_ev\(\s*"([a-z0-9.-]+)"', source)) | set(re.findall(r'"([a-z]+\.[a-z0-9-]+)" if', source))
    assert cited and cited <= set(ENGINE_RULES)


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError):
        new_game(SPEC, 3, {"variant": "solo"})
    with pytest.raises(ValueError):
        new_game(SPEC, 1, {"variant": "multilevel"})
    with pytest.raises(ValueError):
        new_game(SPEC, 2, {"next_level": True})
    with pytest.raises(ValueError):
        new_game(SPEC, 2, {"colour": "red"})
