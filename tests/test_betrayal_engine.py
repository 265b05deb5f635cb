"""The Betrayal engine, part 1: from setup to the haunt reveal (issue 4).

Random walks (seeded, every player count) check the engine's invariants after every step and
replay their logs; the reach check makes sure the walks really exercise discoveries on all three
floors, every special room, the haunt roll and a reveal for every player count. Counting oracles
compare the engine with values computed here independently (dice distributions, the haunt-roll
chance, legal placements), and the rulebook's worked examples are played out.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from compiled_support import replaces_a_compiled_method

from hauntcheck.engine.betrayal import GAME, effects, tables
from hauntcheck.engine.betrayal.effects import Ctx
from hauntcheck.engine.betrayal.house import rotate
from hauntcheck.engine.betrayal.state import BetrayalState, Req, invariants, variant_names
from hauntcheck.engine.core import Action, ActionList, DiceRoll, IllegalAction, Rng
from hauntcheck.engine.games import game_spec, rulebook
from hauntcheck.engine.play import Controller, play, seeded_table
from hauntcheck.engine.transcript import TranscriptHeader, dumps, loads, replay

SPEC = game_spec("betrayal")
SEEDS_PER_COUNT = 40
SOUTH, NORTH, EAST, WEST = 2, 0, 1, 3


def new(players: int, options: dict[str, Any] | None = None) -> BetrayalState:
    state = GAME.new_game(SPEC, players, options or {})
    assert isinstance(state, BetrayalState)
    return state


def start(explorers: list[str], options: dict[str, Any] | None = None) -> BetrayalState:
    """A game whose setup is done with the given explorers (seat order), at the first turn."""
    state = new(len(explorers), options)
    for xid in explorers:
        state.apply(Action.of("choose", explorer=xid))
    assert state.phase == "explore"
    return state


def place(state: BetrayalState, room: str, floor: str, cell: tuple[int, int], rotation: int) -> None:
    """Put a stack tile into the house by hand (for building positions)."""
    state.stack.remove(room)
    state.house.place(room, floor, cell, rotation)
    state._tile_version += 1


class Curious(Controller):
    """A seeded random player that, half the time, prefers room and card abilities and
    exploring (so the walks reach the rarer special rooms); otherwise uniform."""

    name = "curious"

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, state: Any, actor: str, legal: Any) -> Action:
        if isinstance(legal, ActionList) and self.rng.below(2):
            keen = [a for a in legal if a.kind in ("use", "cross", "explore", "free")]
            if keen:
                return keen[self.rng.below(len(keen))]
        return legal.sample(self.rng)


def walk(players: int, seed: int, curious: bool = False) -> tuple[BetrayalState, Any]:
    state = new(players)

    def check(s: Any, step: Any) -> None:
        problems = invariants(s)
        assert not problems, f"{players}p seed {seed} step {step.n}: {problems}"

    table = seeded_table(seed, Curious(seed) if curious else None)
    result = play(state, table, TranscriptHeader("betrayal", players, seed), stop="reveal",
                  max_steps=50_000, on_step=check)
    return state, result


# --------------------------------------------------------------------------------------------
# Random walks


@pytest.fixture(scope="module")
def walks() -> list[tuple[int, int, BetrayalState, Any]]:
    out = []
    for players in (3, 4, 5, 6):
        for seed in range(SEEDS_PER_COUNT):
            state, result = walk(players, 1000 * players + seed, curious=seed % 2 == 1)
            out.append((players, seed, state, result))
    return out


def test_walks_reach_the_reveal_with_invariants_holding(walks: list[tuple[int, int, BetrayalState, Any]]) -> None:
    for players, seed, state, result in walks:
        assert result.stopped == "reveal", (players, seed, result.stopped)
        # The game goes on into the haunt, unless the engine cannot play that haunt yet: then it
        # ends at the reveal, undecided (docs/haunt-phase.md).
        outcome = state.outcome()
        assert state.reached("reveal") and (outcome is None or outcome.result == "undecided")
        assert state.haunt is not None and state.haunt["number"] in range(1, 51)
        assert all(ex.idx[t] >= 0 for ex in state.ex.values() for t in ex.idx), "nobody dies before the haunt"


def test_replaying_a_walk_reproduces_the_state(walks: list[tuple[int, int, BetrayalState, Any]]) -> None:
    for i, (players, seed, state, result) in enumerate(walks[::2]):
        log = result.transcript
        if i % 10 == 0:  # a few through the YAML text as well
            log = loads(dumps(log), "walk")
        fresh = new(players)
        replayed = replay(log, fresh)
        assert replayed.ok, replayed.divergence.render("walk") if replayed.divergence else ""
        assert fresh.snapshot() == state.snapshot(), (players, seed)


def test_every_offered_action_is_accepted_and_rejections_change_nothing() -> None:
    state = new(4)
    rng = Rng(99)
    checked = 0
    while not state.reached("reveal") and checked < 400:
        legal = state.legal_actions()
        before = state.snapshot()
        with pytest.raises(IllegalAction):
            state.apply(Action.of("move", to="nowhere", cost=1))
        with pytest.raises(IllegalAction):
            state.apply(Action.of("roll", faces=[7]))
        assert state.snapshot() == before
        if isinstance(legal, ActionList) and checked % 7 == 0:
            for action in legal:
                probe = state.clone()
                probe.apply(action)  # raises if the engine refuses what it offered
                assert not invariants(probe)
        state.apply(legal.sample(rng))
        checked += 1
    assert checked > 50


def test_clone_is_faithful_and_independent() -> None:
    state = new(3)
    rng = Rng(5)
    for _ in range(120):
        state.apply(state.legal_actions().sample(rng))
    copy = state.clone()
    assert copy.snapshot() == state.snapshot()
    copy.apply(copy.legal_actions().sample(Rng(1)))
    assert copy.snapshot() != state.snapshot()


# --------------------------------------------------------------------------------------------
# Reach check: the walks must exercise what the issue lists


def _seen(walks: list[tuple[int, int, BetrayalState, Any]]) -> tuple[Counter[str], Counter[str]]:
    rules: Counter[str] = Counter()
    floors: Counter[str] = Counter()
    for _, _, _, result in walks:
        for step in result.transcript.steps:
            for event in step.events:
                rules[event.partition(": ")[0]] += 1
                for floor in ("ground", "upper", "basement"):
                    if event.startswith("discover.floor-match") and f"the {floor} floor" in event:
                        floors[floor] += 1
    return rules, floors


REACH = (
    # discovery
    "discover.trigger", "discover.floor-match", "discover.set-aside-mismatch", "discover.reshuffle-discards",
    "discover.false-feature", "discover.effect-discovery-draws", "discover.match-doors",
    # movement and fixed links
    "move.through-matching-doors", "room.entrance-hall.strip-three-rooms", "room.grand-staircase.upper-landing",
    "room.stairs-from-basement.foyer-link", "move.card-ends-movement",
    # special rooms
    "room.barrier.once-per-turn", "room.barrier.crossing-free", "room.barrier.fail-ends-move",
    "room.coal-chute.slide", "room.coal-chute.one-space",
    "room.collapsed-room.first-discoverer-rolls", "room.collapsed-room.first-fall-places-tile",
    "room.collapsed-room.below-token",
    "room.junk-room.stay-and-retry", "room.attic.stay-and-retry", "room.graveyard.stay-and-retry",
    "room.pentagram-chamber.stay-and-retry",
    "room.chapel.once-per-game", "room.gymnasium.once-per-game", "room.larder.once-per-game",
    "room.library.once-per-game", "room.crypt.monsters-ignore", "room.furnace-room.monsters-ignore",
    "room.gallery.ballroom-required", "room.mystic-elevator.moves-on-entry", "room.mystic-elevator.two-dice-floor",
    "room.vault.empty-token", "room.vault.arrive-outside", "room.barrier.landing-side",
    "room.mystic-elevator.same-floor-relocate", "room.mystic-elevator.zero-hurts-all", "room.mystic-elevator.tokens-ride",
    "room.collapsed-room.later-optional", "room.stairs-from-basement.needs-discovery",
    # cards, traits, dice
    "card.draw-on-discovery", "omen.kept-face-up", "item.kept-face-up", "event.resolve-and-discard",
    "item.drop-once-per-turn", "item.pickup-once-per-turn", "item.trade-once-per-turn",
    "damage.physical-split", "damage.mental-split", "trait.clamp-before-haunt", "roll.trait-roll", "roll.fixed-dice",
    "item.over-the-top", "item.use-defined", "discover.placed-room-no-draw",
    # the haunt
    "haunt.roll", "haunt.revealer", "haunt.chart-lookup", "haunt.traitor-from-table", "traitor.tie-break",
    "hidden-traitor.deal-tokens",
)


def test_reach_check(walks: list[tuple[int, int, BetrayalState, Any]]) -> None:
    rules, floors = _seen(walks)
    missing = [r for r in REACH if not rules[r]]
    assert not missing, f"the random walks never reached: {missing}"
    assert all(floors[f] for f in ("ground", "upper", "basement")), floors
    revealed = {players for players, _, state, _ in walks if state.reached("reveal")}
    assert revealed == {3, 4, 5, 6}
    for rule in REACH:
        assert rule in SPEC_RULES, f"{rule} is not a rule of rules.yaml"


SPEC_RULES = {r["id"] for r in SPEC.one("rules").data["rules"]}


def test_every_event_cites_a_rule_of_the_spec(walks: list[tuple[int, int, BetrayalState, Any]]) -> None:
    rules, _ = _seen(walks)
    assert set(rules) <= SPEC_RULES


# --------------------------------------------------------------------------------------------
# Counting oracles


def _exact_distribution(n: int, faces: tuple[int, ...]) -> dict[int, Fraction]:
    dist = {0: Fraction(1)}
    for _ in range(n):
        nxt: dict[int, Fraction] = {}
        for total, p in dist.items():
            for f in faces:
                nxt[total + f] = nxt.get(total + f, Fraction(0)) + p / len(faces)
        dist = nxt
    return dist


@pytest.mark.parametrize("n", range(9))
def test_dice_distribution_matches_the_engine_dice(n: int) -> None:
    faces = GAME_TABLES.die_faces
    assert sorted(faces) == [0, 0, 1, 1, 2, 2]
    roll = DiceRoll(n, faces)
    counts: Counter[int] = Counter()
    weight = Counter(faces)
    for action in roll:
        rolled = action["faces"]
        assert isinstance(rolled, tuple)
        w = 1
        for f in rolled:
            w *= weight[f]  # type: ignore[index]
        counts[sum(rolled)] += w  # type: ignore[arg-type]
    total = len(faces) ** n
    engine = {k: Fraction(v, total) for k, v in counts.items()}
    assert engine == _exact_distribution(n, faces)
    # the trinomial check: P(sum = 0) = 3^-n
    assert engine[0] == Fraction(1, 3**n)


GAME_TABLES = tables(SPEC)

# P(6 dice total < k) * 729 for k = 1..13 (coefficients of (1 + x + x^2)^6 summed)
HAUNT_STARTS = {1: 1, 2: 7, 3: 28, 4: 78, 5: 168, 6: 294, 7: 435, 8: 561, 9: 651, 10: 701, 11: 722, 12: 728, 13: 729}


def test_haunt_roll_chance_is_exact_for_1_to_13_omens() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    exact = _exact_distribution(6, GAME_TABLES.die_faces)
    for omens in range(1, 14):
        starts = 0
        for faces in itertools.product((0, 1, 2), repeat=6):
            state.haunt = None
            state.phase = "explore"
            state.omens_drawn = omens
            gen = state._haunt_roll("P1", "girl", "catacombs")
            req = next(gen)
            assert isinstance(req, Req) and isinstance(req.choices, DiceRoll) and req.choices.count == 6
            with pytest.raises(StopIteration):
                gen.send(Action.of("roll", faces=list(faces)))
            starts += state.haunt is not None
        assert starts == HAUNT_STARTS[omens]
        assert Fraction(starts, 729) == sum(p for total, p in exact.items() if total < omens)


def _placements_by_pattern(doors: frozenset[int], entry: int) -> int:
    return len({rotate(doors, r) for r in range(4) if entry in rotate(doors, r)})


def test_legal_placements_at_a_door() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    by_shape = {4: 1, 3: 3, 1: 1}
    for room in sorted(state.stack):
        rdef = state.t.rooms[room]
        if "upper" not in rdef.floors:
            continue
        got = len(state.house.placements_at(room, "upper", (0, 1), SOUTH, keep_open=True))
        assert got == _placements_by_pattern(rdef.doors, SOUTH)
        n = len(rdef.doors)
        expected = by_shape.get(n) if n != 2 else (1 if rdef.doors in ({0, 2}, {1, 3}) else 2)
        assert got == expected, room


def _enclose_basement_landing(state: BetrayalState) -> None:
    """Leave the Basement Landing's north doorway as the only free doorway of the basement."""
    place(state, "crypt", "basement", (1, 0), 3)  # door north turned to face west
    place(state, "storeroom", "basement", (0, -1), 0)  # door north faces the landing
    place(state, "pentagram-chamber", "basement", (-1, 0), 0)  # door east faces the landing
    assert state.house.free_doorways("basement") == [("basement-landing", NORTH)]


def test_placements_that_would_seal_a_floor_are_illegal() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    _enclose_basement_landing(state)
    assert state.house.placements_at("vault", "basement", (0, 1), SOUTH, keep_open=True) == []
    assert len(state.house.placements_at("vault", "basement", (0, 1), SOUTH, keep_open=False)) == 1
    assert len(state.house.placements_at("wine-cellar", "basement", (0, 1), SOUTH, keep_open=True)) == 1
    assert len(state.house.placements_at("operating-laboratory", "basement", (0, 1), SOUTH, keep_open=True)) == 2
    assert state._can_discover("basement", "basement-landing", NORTH)


def test_mystic_elevator_does_not_move_where_it_would_seal_a_floor() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    _enclose_basement_landing(state)
    place(state, "mystic-elevator", "ground", (1, 1), 3)  # door west meets the Foyer's east door
    state.ex["P1"].room = "mystic-elevator"
    gen = effects._move_tile(state, {"tile": "this-room", "floor": "basement", "if_no_spot": "stay"},
                             Ctx("P1", "room:mystic-elevator"), {})
    with pytest.raises(StopIteration):
        next(gen)
    assert state.house.spots["mystic-elevator"].floor == "ground"
    assert any(e.rule == "room.mystic-elevator.no-door-stays" for e in state._events)
    gen = effects._move_tile(state, {"tile": "this-room", "floor": "upper", "if_no_spot": "stay"},
                             Ctx("P1", "room:mystic-elevator"), {})
    req = next(gen)
    assert isinstance(req.choices, ActionList) and len(req.choices) == 4  # one per Upper Landing door


# --------------------------------------------------------------------------------------------
# The rulebook's worked examples


def _turn_moves(state: BetrayalState) -> list[Action]:
    return [a for a in state.legal_actions() if a.kind in ("move", "explore")]


def test_example_of_moving_with_speed_3() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    seat = state.current
    ex = state.ex[seat]
    ex.idx["speed"] = [v for v in state.t.explorers[ex.id].traits["speed"].values].index(3)
    place(state, "kitchen", "ground", (1, 1), 3)  # doors west (to the Foyer) and north
    place(state, "dining-room", "ground", (1, 2), 1)  # doors south (to the Kitchen) and east
    state.refresh()
    assert state.speed(seat) == 3
    moves = _turn_moves(state)
    assert Action.of("move", to="foyer", cost=1) in moves
    assert {str(a["door"]) for a in moves if a.kind == "explore"} == {"east", "west"}
    for room in ("foyer", "kitchen"):
        state.apply(Action.of("move", to=room, cost=1))
    assert state.turn.moved == 2 and state.movement_left(seat) == 1
    state.apply(Action.of("move", to="dining-room", cost=1))
    assert ex.room == "dining-room"
    # with three spaces used nothing but ending the turn was left, so the turn has passed on
    assert state.current != seat


def test_fifth_omen_needs_four_or_less() -> None:
    for total, starts in ((4, True), (5, False)):
        state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
        state.omens_drawn = 5
        gen = state._haunt_roll("P1", "girl", "catacombs")
        next(gen)
        faces = [2] * (total // 2) + [1] * (total % 2)
        faces += [0] * (6 - len(faces))
        with pytest.raises(StopIteration):
            gen.send(Action.of("roll", faces=faces))
        assert (state.haunt is not None) is starts


def test_girl_in_the_catacombs_gives_haunt_1() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez", "peter-akimoto"])
    state._reveal("P2", "girl", "catacombs")
    assert state.haunt is not None
    assert (state.haunt["number"], state.haunt["title"], state.haunt["traitor"]) == (1, "The Mummy Walks", "P2")
    assert state.reached("reveal")


# --------------------------------------------------------------------------------------------
# Setup, traitors, options


def test_setup_never_offers_both_sides_of_a_card() -> None:
    state = new(6)
    seen: set[str] = set()
    for _ in range(6):
        options = [str(a["explorer"]) for a in state.legal_actions()]
        cards = {state.t.explorers[x].card for x in options}
        assert not cards & seen
        choice = options[-1]
        seen.add(state.t.explorers[choice].card)
        state.apply(Action.of("choose", explorer=choice))
    assert all(ex.room == "entrance-hall" for ex in state.ex.values())
    assert {"entrance-hall", "foyer", "grand-staircase", "upper-landing", "basement-landing"} <= set(state.house.spots)


@pytest.mark.parametrize(("date", "first"), [("01-01", "P3"), ("02-15", "P1"), ("12-11", "P3"), ("10-18", "P1")])
def test_first_player_has_the_next_birthday(date: str, first: str) -> None:
    # Ox Bellows 10-18, Missy Dubourde 02-14, Vivian Lopez 01-11; a birthday on the date counts as next
    state = start(["ox-bellows", "missy-dubourde", "vivian-lopez"], {"date": date})
    assert state.first_seat == first == state.current


def _rule(kind: str, **kw: Any) -> Any:
    from hauntcheck.engine.betrayal.model import TraitorRule

    return TraitorRule(kind, **kw)


def _set_value(state: BetrayalState, seat: str, trait: str, value: int) -> None:
    ex = state.ex[seat]
    ex.idx[trait] = state.t.explorers[ex.id].traits[trait].values.index(value)


def test_traitor_tie_breaks() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez", "peter-akimoto"])
    for seat, value in (("P1", 6), ("P2", 4), ("P3", 6), ("P4", 6)):
        _set_value(state, seat, "might", value)
    highest = _rule("highest", trait="might")
    assert state._traitor("P3", highest)[0] == "P3"  # the revealer wins a tie it is in
    assert state._traitor("P2", highest)[0] == "P3"  # else the nearest to the revealer's left
    assert state._traitor("P1", _rule("highest", trait="might", exclude_revealer=True))[0] == "P3"
    assert state._traitor("P4", _rule("highest", trait="might", exclude_revealer=True))[0] == "P1"
    assert state._traitor("P1", _rule("lowest", trait="might"))[0] == "P2"
    assert state._traitor("P4", _rule("left-of-revealer"))[0] == "P1"
    assert state._traitor("P1", _rule("haunt-revealer"))[0] == "P1"
    assert state._traitor("P1", _rule("explorer", explorer="vivian-lopez"))[0] == "P3"
    fallback = _rule("explorer", explorer="jenny-leclerc", fallback=_rule("left-of-revealer"))
    assert state._traitor("P2", fallback)[0] == "P3"
    assert state._traitor("P1", _rule("hidden"))[0] is None
    assert state._traitor("P1", _rule("none"))[0] is None
    ages = {s: state.t.explorers[state.ex[s].id].age for s in state.seat_ids}
    oldest = state._traitor("P3", _rule("oldest", exclude_revealer=True))[0]
    assert oldest == max((s for s in state.seat_ids if s != "P3"), key=lambda s: ages[s])
    youngest = state._traitor("P3", _rule("youngest", exclude_revealer=True))[0]
    assert youngest == min((s for s in state.seat_ids if s != "P3"), key=lambda s: ages[s])


def test_hidden_and_no_traitor_haunts_are_identified() -> None:
    hidden = [n for n, h in GAME_TABLES.haunts.items() if h.traitor.kind == "hidden"]
    none = [n for n, h in GAME_TABLES.haunts.items() if h.traitor.kind == "none"]
    assert hidden and none
    cells = {v: k for k, v in GAME_TABLES.chart.items()}
    for number, kind in ((hidden[0], "hidden"), (none[0], "none")):
        if number not in cells:
            continue
        room, omen = cells[number]
        state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
        state._reveal("P1", omen, room)
        assert state.haunt is not None and state.haunt["kind"] == kind and state.haunt["traitor"] is None


def test_selecting_the_haunt_skips_played_haunts() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"], {"select_haunt": "1"})
    place(state, "kitchen", "ground", (1, 1), 3)
    state._reveal("P1", "girl", "catacombs")
    assert state.haunt is not None and state.haunt["number"] == 16  # Girl x Kitchen
    assert any(e.rule == "haunt.selection-skip" for e in state._events)


def test_over_the_top_bonus_is_remembered() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    seat = "P1"
    ex = state.ex[seat]
    top = len(state.t.explorers[ex.id].traits["knowledge"].values) - 1
    ex.idx["knowledge"] = top - 1
    state.decks["omen"].remove("book")
    state.omens_drawn += 1
    ex.cards.append("book")
    list(effects.gain_card(state, seat, "book"))
    assert ex.idx["knowledge"] == top and ex.over == {"knowledge/book": 1}
    ex.cards.remove("book")
    state.discards["omen"].append("book")
    list(effects.lose_card(state, seat, "book"))
    assert ex.idx["knowledge"] == top - 1 and ex.over == {}


def test_traits_clamp_at_the_lowest_value_before_the_haunt() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    state.trait_change("P1", "sanity", -20)
    assert state.ex["P1"].idx["sanity"] == 0
    state.trait_change("P1", "sanity", 20)
    assert state.ex["P1"].idx["sanity"] == 7


def test_barrier_roll_is_once_per_turn() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    seat = state.current
    place(state, "tower", "upper", (1, 0), 0)  # doors east/west; west meets the Upper Landing
    state.ex[seat].room = "tower"
    state.ex[seat].part = 1  # the west side (barrier splits east, west)
    state.refresh()
    cross = [a for a in state.legal_actions() if a.kind == "cross"]
    assert len(cross) == 1
    state.apply(cross[0])
    while state.to_move() == "chance":
        state.apply(Action.of("roll", faces=[0] * state.legal_actions().count))  # type: ignore[attr-defined]
    assert not [a for a in state.legal_actions() if a.kind == "cross"]
    assert any("fails to cross" in e.text for e in state._events) or state.turn.stopped


def test_play_to_the_reveal_prints_haunt_title_and_traitor() -> None:
    state, result = walk(4, 7)
    last = result.transcript.steps[-1].events
    assert any(e.startswith(("haunt.traitor-from-table", "hidden-traitor.deal-tokens")) for e in last)
    # the reveal names the haunt (a playable haunt's setup events follow it in the same step)
    assert state.haunt is not None and any(state.haunt["title"] in e for e in last
                                           if e.startswith(("haunt.traitor-from-table", "hidden-traitor.deal-tokens")))


@replaces_a_compiled_method("BetrayalState.all_would_seal")
def test_rearranging_a_floor_when_every_remaining_tile_would_seal_it(monkeypatch: pytest.MonkeyPatch) -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    seat = state.current
    place(state, "wine-cellar", "basement", (0, -1), 0)  # joined to the landing by its north door only
    state.ex[seat].room = "basement-landing"
    calls = iter([True])
    monkeypatch.setattr(BetrayalState, "all_would_seal", lambda self, floor, cell, entry: next(calls, False))
    options = state.rearrangements("basement", (0, 1))
    assert options and all(room == "wine-cellar" for room, _ in options)
    state.refresh()
    state.apply(Action.of("explore", door="north"))
    assert state.to_move() == seat and state.legal_actions()[0].kind == "rearrange"
    state.apply(state.legal_actions()[0])
    assert any(e.rule == "discover.rearrange-fallback" for e in state._events)
    assert state.house.spots["wine-cellar"].cell != (0, -1)
    while state.to_move() == "chance" or state.legal_actions()[0].kind == "place":
        state.apply(state.legal_actions().sample(Rng(3)))
    assert state.house.room_at("basement", (0, 1)) is not None
    assert not invariants(state)


def test_task_roll_is_once_per_turn_whatever_the_trait() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    seat = state.current
    gen = state.task_roll(seat, "knowledge", "the exorcism")
    req = next(gen)
    assert isinstance(req.choices, DiceRoll) and req.choices.count == state.value(seat, "knowledge")
    with pytest.raises(StopIteration) as done:
        gen.send(Action.of("roll", faces=[2] * req.choices.count))
    assert done.value.value == 2 * state.value(seat, "knowledge")
    again = state.task_roll(seat, "sanity", "the exorcism")
    with pytest.raises(StopIteration) as refused:
        next(again)
    assert refused.value.value is None


def test_the_game_goes_on_after_the_reveal_in_the_haunt_turn_order() -> None:
    """Part 1 on its own (``BetrayalState``, without the haunt phase of part 2): after the
    reveal the explorers keep exploring in the haunt's turn order, with no more haunt rolls."""
    from hauntcheck.engine.betrayal.state import Setup

    state = BetrayalState(Setup(GAME_TABLES, rulebook(SPEC), 4, (1, 1), (), {}))
    play(state, seeded_table(7), TranscriptHeader("betrayal", 4, 7), stop="reveal")
    assert state.haunt is not None
    traitor = state.haunt["traitor"] or state.haunt["revealer"]
    rng = Rng(11)
    first_seat = None
    for _ in range(600):
        if state.to_move() is None:
            break
        if first_seat is None and state.to_move() != "chance":
            first_seat = state.current
        state.apply(state.legal_actions().sample(rng))
        assert not invariants(state)
    assert first_seat == state.left_of(traitor)
    assert state.omens_drawn == 13 - len(state.decks["omen"])
    assert not any(e.rule == "haunt.roll" for e in state._events)


def test_bell_book_and_candle_set_bonus_comes_and_goes() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    ex = state.ex["P1"]
    before = dict(ex.idx)
    for card, deck in (("bell", "item"), ("book", "omen"), ("candle", "item")):
        state.decks[deck].remove(card)
        ex.cards.append(card)
        list(effects.gain_card(state, "P1", card))
    state.omens_drawn += 1
    assert "P1/candle" in state.set_bonus
    assert ex.idx["might"] == min(before["might"] + 2, 7)
    ex.cards.remove("bell")
    state.piles["entrance-hall"] = ["bell"]
    list(effects.lose_card(state, "P1", "bell"))
    assert "P1/candle" not in state.set_bonus
    assert ex.idx["might"] == before["might"]
    assert not invariants(state)


def test_zoe_might_up_two_and_sanity_down_two() -> None:
    state = start(["zoe-ingstrom", "ox-bellows", "vivian-lopez"])
    seat = next(s for s, e in state.ex.items() if e.id == "zoe-ingstrom")
    assert (state.value(seat, "might"), state.value(seat, "sanity")) == (3, 5)
    state.trait_change(seat, "might", 2)
    assert state.value(seat, "might") == 4  # two steps along a track that repeats a value
    state.trait_change(seat, "sanity", -2)
    assert state.value(seat, "sanity") == 3
    state.trait_change(seat, "sanity", -5)  # before the haunt she stays on her lowest value
    assert state.ex[seat].idx["sanity"] == 0 and not state.ex[seat].dead


def test_a_trait_roll_uses_the_current_value_and_the_vault_once_per_turn() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    seat = state.current
    place(state, "vault", "upper", (1, 0), 3)  # its door (north) turned west, to the Upper Landing
    state.ex[seat].room = "vault"
    _set_value(state, seat, "knowledge", 4)
    state.refresh()
    use = [a for a in state.legal_actions() if a.kind == "use" and "vault" in str(a["ability"])]
    assert len(use) == 1
    state.apply(use[0])
    roll = state.legal_actions()
    assert isinstance(roll, DiceRoll) and roll.count == 4  # Knowledge 4: four dice
    state.apply(Action.of("roll", faces=[1, 1, 1, 0]))
    assert not [a for a in state.legal_actions() if a.kind == "use" and "vault" in str(a.get("ability"))]


def test_every_rule_id_the_engine_names_is_in_rules_yaml() -> None:
    import re
    from pathlib import Path

    folder = Path(effects.__file__).parent.parent  # engine/betrayal: part 1's modules and packages, not the haunt phase's
    named: set[str] = set()
    for source in folder.rglob("*.py"):
        if source.relative_to(folder).parts[0] in ("haunt", "hooks"):
            continue
        text = source.read_text(encoding="utf-8")
        named |= set(re.findall(r'"((?:setup|turn|trait|damage|move|discover|room|card|event|item|omen|roll|attack|haunt|'
                                r'traitor|hidden-traitor|monster|death|win|glossary)\.[a-z0-9.-]+)"', text))
    assert len(named) > 60
    assert named <= SPEC_RULES, sorted(named - SPEC_RULES)


def test_cross_check_of_the_bundled_spec_is_clean() -> None:
    assert GAME.cross_check(SPEC) == []


def test_underground_lake_found_upstairs_collapses_when_the_spec_says_so() -> None:
    """The bundled spec keeps the lake basement-only (a judgement), so this runs on a variant of
    the tables where the lake may be placed upstairs with the summary sheet's collapse rule."""
    import dataclasses

    from hauntcheck.engine.betrayal.state import Setup

    base = GAME_TABLES
    lake = dataclasses.replace(
        base.rooms["underground-lake"], floors=("upper", "basement"),
        abilities=({"trigger": "on-discover", "condition": {"on_floor": "upper"},
                    "do": [{"move_tile": {"tile": "this-room", "floor": "basement", "if_no_spot": "stay"}}]},),
    )
    tables_ = dataclasses.replace(base, rooms={**base.rooms, "underground-lake": lake})
    state = BetrayalState(Setup(tables_, rulebook(SPEC), 3, (1, 1), (), {}))
    for xid in ("ox-bellows", "zoe-ingstrom", "vivian-lopez"):
        state.apply(Action.of("choose", explorer=xid))
    seat = state.current
    state.ex[seat].room = "upper-landing"
    state.room_top = "underground-lake"  # the next tile turned up is the lake
    state.refresh()
    state.apply(Action.of("explore", door="north"))
    while state.to_move() == seat and state.legal_actions()[0].kind == "place":
        state.apply(state.legal_actions()[0])
    assert state.house.floor_of("underground-lake") == "basement"
    assert state.ex[seat].room == "underground-lake"
    assert state.house.room_at("upper", (0, 1)) is None  # its upper spot is empty again
    assert not invariants(state)



def test_an_empty_card_stack_is_refilled_from_its_discards() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    seat = state.current
    state.discards["item"] = list(state.decks["item"])
    state.decks["item"] = []
    gen = state.draw_card(seat, "item")
    req = next(gen)
    assert req.actor == "chance" and len(req.choices) == len(GAME_TABLES.deck("item"))
    assert state.discards["item"] == [] and any("discards are shuffled" in e.text for e in state._events)


def test_roll_items_are_offered_around_a_roll() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    seat = state.current
    for card in ("angel-feather", "rabbits-foot"):
        state.decks["item"].remove(card)
        state.ex[seat].cards.append(card)
    state.omens_drawn = 1
    gen = state._haunt_roll(seat, "girl", "catacombs")
    req = next(gen)
    assert req.actor == seat and [a.kind for a in req.choices] == ["roll", "adjust"]
    req = gen.send(req.choices[1])  # Angel Feather: name the result instead of rolling
    assert [a["value"] for a in req.choices] == list(range(9))
    with pytest.raises(StopIteration):
        gen.send(Action.of("result", value=0))
    assert state.haunt is not None and "angel-feather" in state.discards["item"]
    # the Rabbit's Foot rerolls one die once during its holder's turn
    state.haunt = None
    state.phase = "explore"
    gen = state._haunt_roll(seat, "girl", "catacombs")
    req = next(gen)
    assert isinstance(req.choices, DiceRoll)
    req = gen.send(Action.of("roll", faces=[2, 2, 2, 2, 2, 2]))
    assert [a.kind for a in req.choices] == ["keep", "adjust"]
    req = gen.send(req.choices[1])
    assert len(req.choices) == 6  # which die
    req = gen.send(req.choices[0])
    assert isinstance(req.choices, DiceRoll) and req.choices.count == 1
    with pytest.raises(StopIteration):
        gen.send(Action.of("roll", faces=[0]))
    assert state.haunt is None  # 10 is not under 1


def test_item_actions_once_per_turn_and_one_action_per_item() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    seat = state.current
    other = state.left_of(seat)
    for card in ("axe", "bell", "candle"):
        state.decks["item"].remove(card)
        state.ex[seat].cards.append(card)
    state.refresh()
    kinds = {(a.kind, a.get("card")) for a in state.legal_actions()}
    assert ("drop", "axe") in kinds and ("trade", "axe") in kinds
    state.apply(Action.of("drop", card="axe"))
    state.apply(Action.of("drop", card="bell"))  # dropping several at once is one drop
    offered = list(state.legal_actions())
    assert Action.of("pickup", card="axe") not in offered  # one action per item per turn
    state.apply(Action.of("move", to="foyer", cost=1))
    assert not [a for a in state.legal_actions() if a.kind == "drop"]  # the drop is over
    state.apply(Action.of("move", to="entrance-hall", cost=1))
    trade = Action.of("trade", card="candle", to=other)
    assert trade in state.legal_actions()
    state.apply(trade)
    assert state.to_move() == other
    state.apply(Action.of("refuse", card="candle"))
    assert trade not in state.legal_actions() and "candle" in state.ex[seat].cards


# --------------------------------------------------------------------------------------------
# Peeks, traitor powers, rule variants


def _finish(gen: Any, action: Action | None = None) -> Any:
    """Send the last action into an effect generator and return what it returns."""
    with pytest.raises(StopIteration) as stop:
        gen.send(action) if action is not None else next(gen)
    return stop.value.value


def _make_traitor(state: BetrayalState, seat: str) -> None:
    state.haunt = {"number": 1, "title": "test", "omen": "girl", "room": "catacombs", "revealer": seat, "traitor": seat}


def test_a_peek_reorders_the_top_cards_and_the_next_draws_follow_the_order() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    seat = state.current
    gen = effects._peek(state, {"stack": "any", "count": 3, "reorder": True, "secret": True},
                        Ctx(seat, "card:it-is-meant-to-be"), {})
    req = next(gen)
    assert req.actor == seat and [a["stack"] for a in req.choices] == ["omen", "item", "event"]
    req = gen.send(Action.of("stack", stack="item"))
    a, b, c = sorted(state.decks["item"])[:3]
    for card in (a, b, c):  # chance fixes the three top cards, one draw each
        assert req.actor == "chance" and card in list(req.choices.items)
        req = gen.send(Action.of("draw", card=card))
    assert req.actor == seat and sorted(x["card"] for x in req.choices) == [a, b, c]
    req = gen.send(Action.of("next-on-top", card=c))
    assert sorted(x["card"] for x in req.choices) == [a, b]
    _finish(gen, Action.of("next-on-top", card=a))
    assert state.deck_tops["item"] == [c, a, b]
    assert not invariants(state)  # the cards looked at are still in the stack
    assert any(e.rule == "card.peek-reorder" for e in state._events)
    for expected in (c, a, b):  # no chance draw: the known top comes first, in the chosen order
        assert _finish(state.top_card("item")) == expected
    assert state.deck_tops["item"] == []
    req = next(state.top_card("item"))
    assert req.actor == "chance"  # past the known cards the stack is unknown again


def test_crystal_ball_search_puts_the_chosen_card_on_top() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    seat = state.current
    gen = effects._peek(state, {"stack": "item-or-event", "count": "all", "chosen_to_top": True},
                        Ctx(seat, "card:crystal-ball"), {})
    req = next(gen)
    assert [x["stack"] for x in req.choices] == ["item", "event"]
    req = gen.send(Action.of("stack", stack="event"))
    wanted = sorted(state.decks["event"])[-1]
    assert req.actor == seat and len(req.choices) == len(set(state.decks["event"]))
    _finish(gen, Action.of("search", card=wanted))
    assert _finish(state.top_card("event")) == wanted


def test_the_traitor_may_refuse_an_event_card() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    seat = state.current
    _make_traitor(state, seat)
    card = sorted(state.decks["event"])[0]
    gen = state.draw_card(seat, "event")
    req = next(gen)
    assert req.actor == "chance"
    req = gen.send(Action.of("draw", card=card))
    assert req.actor == seat and [a.kind for a in req.choices] == ["accept-event", "refuse-event"]
    assert _finish(gen, Action.of("refuse-event", card=card)) == card
    assert card in state.discards["event"] and not state.resolving
    assert any(e.rule == "traitor.refuse-events" for e in state._events)
    # a hero is never asked
    other = next(s for s in state.seat_ids if s != seat)
    gen = state.draw_card(other, "event")
    next(gen)
    req = gen.send(Action.of("draw", card=sorted(state.decks["event"])[0]))
    assert req is None or req.actor == "chance" or "refuse-event" not in [a.kind for a in req.choices]


def test_the_traitor_may_ignore_harmful_room_text() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    seat = state.current
    state.ex[seat].room = "furnace-room"
    gen = effects.run_triggered(state, seat, "end-of-turn", "furnace-room")
    req = next(gen)  # before the haunt: the damage is taken (split between might and speed)
    assert "ignore-room" not in [a.kind for a in req.choices]
    _make_traitor(state, seat)
    before = dict(state.ex[seat].idx)
    gen = effects.run_triggered(state, seat, "end-of-turn", "furnace-room")
    req = next(gen)
    assert req.actor == seat and [a.kind for a in req.choices] == ["suffer-room", "ignore-room"]
    _finish(gen, Action.of("ignore-room", ability="room:furnace-room#0"))
    assert state.ex[seat].idx == before
    assert any(e.rule == "traitor.room-text" for e in state._events)


def test_the_traitor_chooses_the_mystic_elevators_destination() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    place(state, "mystic-elevator", "ground", (1, 1), 3)  # door west meets the Foyer's east door
    hero, traitor = "P2", "P1"
    _make_traitor(state, traitor)
    for s in (hero, traitor):
        state.ex[s].room = "mystic-elevator"
    req = next(effects.run_triggered(state, hero, "enter", "mystic-elevator"))
    assert req.actor == "chance" and isinstance(req.choices, DiceRoll)  # a hero rolls
    gen = effects.run_triggered(state, traitor, "enter", "mystic-elevator")
    req = next(gen)  # the traitor does not roll: it picks a door of any floor, or stays
    assert req.actor == traitor and "stay" in [a.kind for a in req.choices]
    floors = {a["floor"] for a in req.choices if a.kind == "place"}
    assert {"upper", "basement"} <= floors
    upper = next(a for a in req.choices if a.kind == "place" and a["floor"] == "upper")
    _finish(gen, upper)
    assert state.house.spots["mystic-elevator"].floor == "upper"
    assert any(e.rule == "traitor.elevator-choice" for e in state._events)


@pytest.mark.parametrize("variant", [False, True])
def test_the_collapsed_room_variant_makes_every_entrant_roll(variant: bool) -> None:
    options = {"variants": "collapsed-room-roll-every-entry"} if variant else {}
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"], options)
    seat = state.current
    place(state, "collapsed-room", "ground", (1, 1), 0)
    state.ex[seat].room = "collapsed-room"
    gen = effects.run_triggered(state, seat, "enter", "collapsed-room")  # a later visitor, not the discoverer
    if variant:
        req = next(gen)
        assert req.actor == "chance" and isinstance(req.choices, DiceRoll)  # the Speed roll
    else:
        _finish(gen)  # no roll
    uses = [a for a in effects.room_actions(state, seat) if a.kind == "use"]
    assert (uses == []) == variant  # the deliberate drop exists only in the rulebook reading


def test_unknown_variants_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown betrayal rule variant"):
        new(3, {"variants": "no-such-variant"})
    names = variant_names(GAME_TABLES)
    assert "collapsed-room-roll-every-entry" in names
    for variant in names:  # every variant the spec switches has its own rules.yaml clause
        assert any(r.get("variant") == variant for r in _rules_yaml()), variant


def _rules_yaml() -> list[dict[str, Any]]:
    file = next(f for f in SPEC.files.values() if f.kind == "rules")
    return list(file.data["rules"])


def test_the_traitor_may_refuse_the_bite() -> None:
    state = start(["ox-bellows", "zoe-ingstrom", "vivian-lopez"])
    seat = state.current
    _make_traitor(state, seat)
    gen = effects.card_drawn(state, seat, "bite")
    req = next(gen)
    assert req.actor == seat and [a.kind for a in req.choices] == ["accept-event", "refuse-event"]
    _finish(gen, Action.of("refuse-event", card="bite"))
    assert any(e.rule == "traitor.refuse-events" for e in state._events)
    assert not any(e.rule.startswith("combat") for e in state._events)
