"""Haunt 39, The Heir: the secret heir and the hidden Assassins (seat views that keep each from
the side that may not know it, and a proof that the policy decides from its seat's view only),
the Assassins' ambush, the reinforcements of Turns 3 and 6, and the sides' wins."""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import partial

from betrayal_support import drive, pick, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import TRAITOR, HauntState
from hauntcheck.engine.betrayal.haunt.views import kept_from, seat_view
from hauntcheck.engine.betrayal.policy import policy
from hauntcheck.engine.betrayal.policy.decide import _decide
from hauntcheck.engine.core import Action, Choices, GameState, Rng
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import Controller, seeded_table

#: The golden games (engine/betrayal/__init__.py): a traitor win at 4 players, a heroes win at 5.
TRAITOR_GAME = (4, 105)
HEROES_GAME = (5, 80)


def started(players: int = 4) -> HauntState:
    return start_haunt(players, 39)


def heir_of(st: HauntState) -> str:
    return next(s for s in st.seat_ids if "heir" in st.hstatus.get(s, []))


def test_setup_picks_another_hero_as_heir_and_hides_one_assassin_a_room() -> None:
    for players in (3, 4, 5, 6):
        st = started(players)
        assert st.haunt is not None
        heirs = [s for s in st.seat_ids if "heir" in st.hstatus.get(s, [])]
        assert len(heirs) == 1 and heirs[0] in st.heroes() and heirs[0] != st.haunt["revealer"]
        assert "statuary-corridor" in st.house.spots
        rooms = st.htokens["assassin"]
        # the traitor's first turn may have sprung some already: never more than the players, one a room
        assert len(rooms) == len(set(rooms)) <= players and "statuary-corridor" not in rooms
        assert all(r in st.house.spots for r in rooms)


def test_first_assassins_avoid_occupied_rooms_and_the_statuary_corridor() -> None:
    st = started(4)
    st.htokens["assassin"] = []
    occupied = {st.ex[s].room for s in st.seat_ids if st.in_play(s)}
    spec = {"token": "assassin", "count": 4,
            "in": {"any_room": True, "unoccupied": True, "not_rooms": ["statuary-corridor"], "one_per_room": True,
                   "chosen_by": "traitor", "secret": True}}
    _, asked = drive(st._place_tokens(spec))
    rooms = st.htokens["assassin"]
    assert len(rooms) == len(set(rooms)) == 4 and not set(rooms) & (occupied | {"statuary-corridor"})
    offered = [{str(a["room"]) for a in req.choices} for req in asked if req.actor == st.traitor()]
    assert offered and all(not o & (occupied | {"statuary-corridor"}) for o in offered)


def test_seat_views_keep_the_assassins_from_heroes_and_the_heir_from_the_traitor() -> None:
    st = started(4)
    traitor = st.traitor()
    assert traitor is not None
    heir = heir_of(st)
    hero = next(s for s in st.living_heroes() if s != heir)
    st.htokens["assassin"] = ["foyer"]
    before = (st.snapshot(), list(st.htokens))
    assert kept_from(st, hero).tokens == {"assassin"} and not kept_from(st, hero).statuses
    assert kept_from(st, traitor).statuses == {"heir"} and not kept_from(st, traitor).tokens
    with seat_view(st, hero):
        assert "assassin" not in st.htokens and "heir" in st.hstatus[heir]  # the heroes know their heir
    with seat_view(st, traitor):
        assert st.htokens["assassin"] == ["foyer"] and "heir" not in st.hstatus.get(heir, [])
    assert (st.snapshot(), list(st.htokens)) == before  # everything is put back, in its order


def test_a_dead_heroes_status_is_told_to_the_traitor() -> None:
    st = started(4)
    traitor = st.traitor()
    assert traitor is not None
    heir = heir_of(st)
    st.hstatus.setdefault(heir, []).append("heir")  # a second copy stands for any hidden status
    st.ex[heir].dead = True
    with seat_view(st, traitor):
        assert "heir" in st.hstatus[heir]  # the traitor may ask of each dead hero


def _hide_elsewhere(st: HauntState) -> Callable[[], None]:
    """Move every Assassin to another room (what heroes may not know); returns the undo."""
    old = list(st.htokens.get("assassin", []))
    free = [r for r in sorted(st.house.spots) if r not in old]
    st.htokens["assassin"] = free[:len(old)] if len(free) >= len(old) else list(reversed(old))

    def undo() -> None:
        st.htokens["assassin"] = old
    return undo


def _another_heir(st: HauntState) -> Callable[[], None]:
    """Make another living hero the heir (what the traitor may not know); returns the undo."""
    saved = {s: list(v) for s, v in st.hstatus.items()}
    heir = next((s for s in st.living_heroes() if "heir" in st.hstatus.get(s, [])), None)
    others = [s for s in st.living_heroes() if s != heir]
    if heir is not None and others:
        st.hstatus[heir] = [x for x in st.hstatus[heir] if x != "heir"]
        st.hstatus.setdefault(others[0], []).append("heir")

    def undo() -> None:
        st.hstatus.clear()
        st.hstatus.update(saved)
    return undo


def _another_hidden_traitor(st: HauntState, actor: str) -> Callable[[], None]:
    """Make another hero than ``actor`` the unrevealed hidden traitor (what no other seat may
    know); returns the undo."""
    hidden = st.hidden
    assert hidden is not None
    others = [s for s in st.living_heroes() if s != actor]
    if not others:
        return lambda: None
    other = others[0]
    st.side[hidden], st.side[other] = st.side[other], st.side[hidden]
    st.hidden = other

    def undo() -> None:
        st.side[hidden], st.side[other] = st.side[other], st.side[hidden]
        st.hidden = hidden
    return undo


Decide = Callable[[GameState, Choices, Rng], Action]


def _blind_decisions(players: int, seed: int, decide: Decide, max_steps: int = 5000, haunt: int = 39) -> tuple[int, int]:
    """Play the golden game with ``decide``; at every decision of a seat in the haunt, change
    what that seat may not know (the Assassins' rooms for a hero, who the heir is for the
    traitor, who the unrevealed hidden traitor is for any other seat) and ask again with the
    same random numbers. Returns (decisions checked, decisions
    that changed), over at most ``max_steps`` steps of the haunt (a peeking policy may never end a game)."""
    st = hauntmod.new_game(game_spec("betrayal"), players, {"haunt": haunt})
    table = seeded_table(seed, _Controller(decide, seed))
    checked = changed = steps = 0
    while (actor := st.to_move()) is not None and steps < max_steps:
        legal = st.legal_actions()
        steps += st.hs is not None
        if st.hs is not None and actor in st.side and len(list(legal)) > 1:
            rng = table.for_actor(actor)
            assert isinstance(rng, _Controller)
            hidden = kept_from(st, actor)
            scramble: Callable[[HauntState], Callable[[], None]] | None = \
                _hide_elsewhere if hidden.tokens else _another_heir if hidden.statuses else None
            if st.hidden not in (None, actor) and not st.unmasked:
                scramble = partial(_another_hidden_traitor, actor=actor)
            if scramble is not None:
                plain = decide(st, legal, copy.copy(rng.rng))
                undo = scramble(st)
                other = decide(st, legal, copy.copy(rng.rng))
                undo()
                checked += 1
                changed += plain != other
        st.apply(table.for_actor(actor).choose(st, actor, legal))
    return checked, changed


class _Controller(Controller):
    """A policy controller whose random numbers the test can copy."""

    name = "policy"

    def __init__(self, decide: Decide, seed: int) -> None:
        self.decide = decide
        self.rng = Rng(seed)

    def choose(self, state: GameState, actor: str, legal: Choices) -> Action:
        return self.decide(state, legal, self.rng)


def test_the_policy_decides_from_its_seats_view_only() -> None:
    """Every decision of both sides in two whole golden games is the same whatever the hidden
    information the seat may not know: the policy never reads it."""
    for players, seed in (TRAITOR_GAME, HEROES_GAME):
        checked, changed = _blind_decisions(players, seed, policy)
        assert checked >= 9 and changed == 0, (players, seed, checked, changed)


def test_no_seat_reads_who_the_hidden_traitor_is() -> None:
    """Guillotines' golden traitor game: no decision of a seat other than the unrevealed hidden
    traitor changes when another hero is made the hidden traitor."""
    checked, changed = _blind_decisions(4, 107, policy, haunt=34)
    assert checked >= 9 and changed == 0, (checked, changed)


def _peeks(state: GameState, legal: Choices, rng: Rng) -> Action:
    """A policy that cheats in the haunt: its pick depends on the rooms the Assassins hide in."""
    assert isinstance(state, HauntState)
    if state.hs is None:
        return policy(state, legal, rng)  # the golden game's exploration, to reach the same haunt
    actions = list(legal)
    return actions[sum(ord(c) for r in state.htokens.get("assassin", []) for c in r) % len(actions)]


def test_the_blindness_check_catches_a_policy_that_peeks_and_the_view_stops_it() -> None:
    def peeking(state: GameState, legal: Choices, rng: Rng) -> Action:
        return _peeks(state, legal, rng)

    def peeking_from_view(state: GameState, legal: Choices, rng: Rng) -> Action:
        assert isinstance(state, HauntState)
        seat = state.to_move()
        assert seat is not None
        with seat_view(state, seat):
            return _peeks(state, legal, rng)

    _, changed = _blind_decisions(*TRAITOR_GAME, peeking, max_steps=400)
    assert changed > 0
    checked, changed = _blind_decisions(*TRAITOR_GAME, peeking_from_view, max_steps=400)
    assert checked > 0 and changed == 0


def test_the_undecorated_decision_is_the_viewed_one() -> None:
    """``policy`` is ``_decide`` inside the deciding seat's view (the seat's view, not a copy)."""
    st = started(4)
    seat = st.to_move()
    assert seat is not None
    legal = list(st.legal_actions())
    with seat_view(st, seat):
        viewed = _decide(st, legal, Rng(7)) if len(legal) > 1 else legal[0]
    assert policy(st, st.legal_actions(), Rng(7)) == viewed


def _on_hero_turn(players: int = 4) -> tuple[HauntState, str, str]:
    st = started(players)
    traitor = st.traitor()
    assert traitor is not None
    hero = heir_of(st)
    st.current = hero
    st.turn.keys.clear()
    return st, hero, traitor


def test_an_assassin_springs_on_a_hero_who_walks_in_then_is_gone() -> None:
    st, hero, traitor = _on_hero_turn()
    st.ex[hero].room = "entrance-hall"
    st.htokens["assassin"] = ["foyer"]
    might, speed = st.ex[hero].idx["might"], st.ex[hero].idx["speed"]
    _, asked = rolled(st._move(hero, "foyer", 1), [[1, 0]], pick("spring"))
    assert any(r.actor == traitor and {a.kind for a in r.choices} == {"spring", "let-pass"} for r in asked)
    assert not any(r.actor == hero and any(a.kind == "roll" for a in r.choices) for r in asked)  # no defence
    assert st.htokens["assassin"] == []
    assert (might - st.ex[hero].idx["might"]) + (speed - st.ex[hero].idx["speed"]) == 1


def test_an_assassin_let_pass_stays_and_the_traitor_never_sets_one_off() -> None:
    st, hero, traitor = _on_hero_turn()
    st.ex[hero].room = "entrance-hall"
    st.htokens["assassin"] = ["foyer"]
    drive(st._move(hero, "foyer", 1), pick("let-pass"))
    assert st.htokens["assassin"] == ["foyer"]
    st.ex[traitor].room = "entrance-hall"
    _, asked = drive(st._move(traitor, "foyer", 1))
    assert not any(a.kind == "spring" for r in asked for a in r.choices)


def test_reinforcements_come_at_the_end_of_turns_3_and_6() -> None:
    st = started(4)
    st.htokens["assassin"] = []
    st.track = 0
    counts = []
    for _ in range(7):
        drive(st._advance_timers("end-of-traitor-turn"))
        counts.append(len(st.htokens["assassin"]))
    assert st.track == 7 and counts == [0, 0, 4, 4, 4, 8, 8]
    assert len(set(st.htokens["assassin"])) == 8  # never two in one room
    occupied = {st.ex[s].room for s in st.seat_ids if st.in_play(s)}
    assert not occupied & set(st.htokens["assassin"])


def test_the_heir_wins_on_the_throne_with_spear_and_ring_and_dies_for_the_traitor() -> None:
    st = started(4)
    heir = heir_of(st)
    other = next(s for s in st.living_heroes() if s != heir)
    st.result = None
    st.ex[other].room = "statuary-corridor"
    st.ex[other].cards = ["spear", "ring"]
    assert not st._check_wins()  # not the heir
    st.ex[other].cards = []
    st.ex[heir].room = "statuary-corridor"
    st.ex[heir].cards = ["spear"]
    assert not st._check_wins()  # the Ring is missing
    st.ex[heir].cards = ["spear", "ring"]
    assert st._check_wins() and st.result is not None and st.result.result == "heroes"
    st.result = None
    st.ex[heir].cards = []
    st.ex[heir].dead = True
    assert st._check_wins() and st.result is not None and st.result.result == "traitor"


# The win pieces haunt 43 reads, tried on this haunt in play: converts in order and some_explorer.
def test_converts_are_recorded_in_order_and_the_latest_is_named() -> None:
    st = start_haunt(4, 39)
    first, second = st.living_heroes()[:2]
    drive(st._outcome({"turn_traitor": True}, first, None))
    drive(st._outcome({"turn_traitor": True}, second, None))
    assert st.converts == [first, second] and st.side[first] == st.side[second] == TRAITOR
    assert st.snapshot()["haunt_phase"]["converts"] == [first, second]
    latest = {"latest_convert": True}
    assert st.pred(latest, second) and not st.pred(latest, first) and not st.pred(latest, None)


def test_every_explorer_in_play_is_some_explorer_negated_twice() -> None:
    st = start_haunt(4, 39)
    every = {"not": {"some_explorer": {"not": {"has_status": "inoculated"}}}}
    assert not st.pred(every)
    for s in st.seat_ids:
        st.hstatus.setdefault(s, []).append("inoculated")
    assert st.pred(every)
    dead = st.seat_ids[0]
    st.hstatus[dead].remove("inoculated")
    st.ex[dead].dead = True  # the dead are not asked
    assert st.pred(every)
