"""Haunt 37, Checkmate: Death placed with a hero, five Holy Seals in their rooms (now or when
found), the chess game on the monster turn (the highest Knowledge in Death's room, blank dice
rerolled once, the Book's die, the margin table), Seals broken by Sanity 4+ taking dice off Death,
the traitor kept from Death's room and from its heroes, and the forfeit of an empty board."""

from __future__ import annotations

from betrayal_support import played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState, Monster
from hauntcheck.engine.betrayal.state import Req
from hauntcheck.engine.core import CHANCE, Action
from hauntcheck.engine.games import game_spec

SEAL_ROOMS = {"vault", "crypt", "research-laboratory", "operating-laboratory", "game-room"}


def started(players: int = 4) -> HauntState:
    return start_haunt(players, 37)


def death(st: HauntState) -> Monster:
    return next(m for m in st.active_monsters() if m.kind == "death")


def traitor_of(st: HauntState) -> str:
    traitor = st.traitor()
    assert traitor is not None
    return traitor


def dice(seen: list[Req]) -> list[int]:
    return [len(next(iter(r.choices))["faces"]) for r in seen  # type: ignore[arg-type]
            if r.actor == CHANCE and next(iter(r.choices)).kind == "roll"]


def at_the_board(st: HauntState, *heroes: str) -> None:
    """Only ``heroes`` are in Death's room; the others (and the traitor) are elsewhere."""
    room = death(st).room
    away = next(r for r in sorted(st.house.spots) if r != room)
    for seat in st.seat_ids:
        st.ex[seat].room = room if seat in heroes else away


def test_death_starts_with_a_hero_and_the_seals_wait_in_their_rooms() -> None:
    st = started(4)
    assert any(st.ex[s].room == death(st).room for s in st.heroes())
    placed = [r for r in st.htokens.get("holy-seal", [])]
    waiting = [r for t, r in st.waiting_tokens if t == "holy-seal"]
    assert sorted(placed + waiting) == sorted(SEAL_ROOMS)
    assert all(r in st.house.spots for r in placed) and all(r not in st.house.spots for r in waiting)
    assert death(st).stats == {"knowledge": 8}


def test_death_plays_the_highest_knowledge_hero_rerolls_blanks_once_and_a_hero_win_is_checkmate() -> None:
    st = started(4)
    a, b = st.living_heroes()[:2]
    at_the_board(st, a, b)
    strong = max((a, b), key=lambda s: (st.value(s, "knowledge"), -st.seat_ids.index(s)))
    _, seen = rolled(st._monster_does(death(st)), [[0] * 8, [0] * 8, 2])
    assert dice(seen) == [8, 8, st.value(strong, "knowledge")], "eight dice, the eight blanks again, then the hero"
    assert "checkmate" in st.hflags
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_book_adds_a_die_to_the_heros_chess_roll() -> None:
    st = started(4)
    hero = st.living_heroes()[0]
    at_the_board(st, hero)
    st.ex[hero].cards.append("book")
    _, seen = rolled(st._monster_does(death(st)), [2, 2])
    assert dice(seen)[-1] == min(8, st.value(hero, "knowledge") + 1)


def test_deaths_lead_takes_a_pawn_a_piece_or_gives_check_to_every_hero() -> None:
    for faces, lost in (([1, 1, 0, 0, 0, 0, 0, 0], {"sanity": 1}), ([2, 1, 0, 0, 0, 0, 0, 0], {"might": 1}),
                        ([2, 2, 1, 0, 0, 0, 0, 0], {"sanity": 1, "might": 1})):
        st = started(4)
        hero = st.living_heroes()[0]
        at_the_board(st, hero)
        before = {s: dict(st.ex[s].idx) for s in st.living_heroes()}
        # Death's lead over a hero rolling all blanks: 2, 3 or 5 (its blanks reroll to blanks)
        rolled(st._monster_does(death(st)), [faces, 0, 0])
        for s in st.living_heroes():
            for trait in ("might", "sanity"):
                assert before[s][trait] - st.ex[s].idx[trait] == lost.get(trait, 0), (faces, s, trait)


def test_a_tie_changes_nothing() -> None:
    st = started(4)
    hero = st.living_heroes()[0]
    at_the_board(st, hero)
    before = {s: dict(st.ex[s].idx) for s in st.seat_ids}
    rolled(st._monster_does(death(st)), [[1] + [0] * 7, 0, [1] + [0] * (st.value(hero, "knowledge") - 1)])
    assert {s: dict(st.ex[s].idx) for s in st.seat_ids} == before and "checkmate" not in st.hflags


def test_a_broken_seal_takes_two_dice_off_death_at_four_players_and_one_at_five() -> None:
    for players, left in ((4, 6), (5, 7)):
        st = started(players)
        hero = st.living_heroes()[0]
        st.held.setdefault(hero, []).append("holy-seal")
        st.current = hero
        st.turn.keys.clear()
        task = Action.of("task", id="break-seal")
        assert task in st._task_actions(hero)
        rolled(st._task(hero, task), [2])
        assert death(st).stats["knowledge"] == left and "holy-seal" not in st.held[hero]
        assert task not in st._task_actions(hero), "one Seal a turn"


def test_the_traitor_may_not_pick_up_seals_nor_enter_deaths_room_nor_attack_a_hero_there() -> None:
    st = started(4)
    traitor = traitor_of(st)
    hero = st.living_heroes()[0]
    room = death(st).room
    st.htokens.setdefault("holy-seal", []).append(st.ex[traitor].room)
    assert not any(a.kind == "pickup-token" for a in st._token_pickups(traitor))
    st.ex[hero].room = st.ex[traitor].room
    assert any(a.kind == "pickup-token" for a in st._token_pickups(hero))
    assert room in st._barred_rooms(traitor) and room not in st._barred_rooms(hero)
    assert st._may_attack(traitor, hero)
    st.ex[hero].room = st.ex[traitor].room = room
    assert not st._may_attack(traitor, hero)


def test_an_empty_board_at_the_start_of_the_monster_turn_forfeits_the_game() -> None:
    st = started(4)
    at_the_board(st)
    rolled(st._monster_turn())
    assert "forfeit" in st.hflags
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR


def test_a_hero_at_the_board_keeps_the_game_going() -> None:
    st = started(4)
    at_the_board(st, st.living_heroes()[0])
    rolled(st._monster_turn(), [2, 0])  # Death wins the game by a lot, but nobody forfeits
    assert "forfeit" not in st.hflags


def test_a_policy_game_keeps_the_invariants_and_the_haunt_plays_without_hooks() -> None:
    assert played_out(4, 37).outcome() is not None
    report = hauntmod.support(game_spec("betrayal"))
    assert report[37]["playable"] and report[37]["hooks"] == [] and not report[37]["blockers"]
