"""Haunt 43 (The Star-Sickness): two face-down tokens each, the infection spreading by token swaps
between roommates (a growing set of hidden traitors), the disease's attack on everyone, dead
traitors rising as Aliens, the Serum's injection and the wins - and that the policy plays a seat
on what that seat may know."""

from __future__ import annotations

from typing import Any

from betrayal_support import drive, forced

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState
from hauntcheck.engine.betrayal.policy.decide import policy
from hauntcheck.engine.core import Action, Rng

TOKEN = "infection-token"
SEED = 3  # any forced game: the tests set up what they check


def game(players: int = 4) -> HauntState:
    st = forced(players, 43, SEED)
    assert st.hs is not None and st.hs.number == 43
    return st


def others(st: HauntState) -> list[str]:
    return [s for s in st.seat_ids if s != st.hidden]


def swap_spec() -> dict[str, Any]:
    return {"token": TOKEN, "unless_status": ["inoculated"]}


def test_two_tokens_each_and_the_holder_of_one_is_the_only_traitor_who_may_never_reveal() -> None:
    st = game(4)
    hands = st.hands[TOKEN]
    assert sorted(n for hand in hands.values() for n in hand) == list(range(1, 9))
    assert all(len(hand) == 2 for hand in hands.values())
    assert st.hidden is not None and 1 in hands[st.hidden]
    assert [s for s in st.seat_ids if st.side[s] == TRAITOR] == [st.hidden]
    assert all(st.seen_side(s) == HERO for s in st.seat_ids)
    assert Action.of("reveal-traitor") not in st._turn_actions(st.hidden)  # no_reveal


def test_receiving_token_one_in_a_swap_makes_a_hidden_traitor_for_good() -> None:
    st = game(4)
    first = st.hidden
    assert first is not None
    hero = st.left_of(first)
    st.ex[hero].room = st.ex[first].room
    for s in st.seat_ids:
        if s not in (first, hero):
            st.ex[s].room = "foyer" if st.ex[first].room != "foyer" else "entrance-hall"
    st.hands[TOKEN][first].sort()  # chance in drive() takes the first slot: the one holding 1
    drive(st._swap_tokens(first, swap_spec()))
    assert 1 in st.hands[TOKEN][hero] and 1 not in st.hands[TOKEN][first]
    assert st.side[hero] == TRAITOR and st.converts == [hero]
    assert st.side[first] == TRAITOR  # a traitor stays one after giving the number away
    assert st.masked(hero) and st.seen_side(hero) == HERO
    assert any("swap a face-down" in str(e) and "1" not in str(e).split("token")[-1] for e in st._events)
    before = {s: list(h) for s, h in st.hands[TOKEN].items()}
    drive(st._swap_tokens(first, swap_spec()))  # once a turn: nothing more this round
    assert st.hands[TOKEN] == before


def test_inoculated_explorers_take_no_part_in_swaps() -> None:
    st = game(3)
    a, b = others(st)[:2]
    st.ex[b].room = st.ex[a].room
    st.hstatus.setdefault(b, []).append("inoculated")
    before = {s: list(h) for s, h in st.hands[TOKEN].items()}
    drive(st._swap_tokens(a, swap_spec()))
    assert st.hands[TOKEN] == before and st.converts == []


def test_the_disease_attacks_everyone_but_the_inoculated_with_uncapped_dice() -> None:
    st = game(3)
    spared = others(st)[0]
    st.hstatus.setdefault(spared, []).append("inoculated")
    st.track = 10
    _, reqs = drive(st._house_attack({"dice": {"of": "turn-track"}, "trait": "might", "to": "explorers",
                                      "unless_status": ["inoculated"], "no_cap": True}), face=2)
    rolls = [r for r in reqs if "the attack" in r.what or "defending" in r.what]
    attack = [r for r in rolls if "the attack" in r.what]
    assert len(attack) == 2  # 10 dice: 8 and then 2 more (no upper limit)
    told = " ".join(str(e) for e in st._events)
    assert "an attack of 20" in told and st.name(spared) not in told.split("an attack of 20 on ")[1].split("\n")[0]
    assert st.hidden is not None and st.name(st.hidden) in told  # the infected are attacked too


def test_a_dead_traitor_rises_as_an_alien_unless_the_serum_killed_it() -> None:
    st = game(4)
    first = st.hidden
    assert first is not None
    drive(st._outcome({"kill": "target"}, first, None))
    aliens = [m for m in st.mon if m.kind == "alien" and not m.gone]
    assert len(aliens) == 1 and aliens[0].counterpart == first and aliens[0].room == st.ex[first].room
    st2 = game(4)
    traitor = st2.hidden
    assert traitor is not None
    st2.hstatus.setdefault(traitor, []).append("serum-killed")
    drive(st2._outcome({"kill": "target"}, traitor, None))
    assert not [m for m in st2.mon if m.kind == "alien"]


def test_the_serum_inoculates_a_hero_and_kills_a_traitor() -> None:
    st = game(4)
    first = st.hidden
    assert first is not None and st.hs is not None
    inject = next(a for a in st.hs.heroes_side.actions if a["id"] == "inject")
    hero = others(st)[0]
    drive(st._outcome(inject["do"][0], hero, None, target=hero))
    assert "inoculated" in st.hstatus.get(hero, [])
    drive(st._outcome(inject["do"][0], hero, None, target=first))
    assert st.ex[first].dead and not [m for m in st.mon if m.kind == "alien"]


def test_heroes_win_with_the_serum_and_everyone_alive_inoculated_and_the_latest_convert_loses() -> None:
    st = game(3)
    assert st.hs is not None
    heroes_win = st.hs.heroes_side.wins[0].when
    for s in st.seat_ids:
        st.hstatus.setdefault(s, []).append("inoculated")
    assert not st.pred(heroes_win)  # no Serum made yet
    st.hflags.add("serum-made")
    assert st.pred(heroes_win)
    st.converts.append(others(st)[0])
    assert st.pred({"latest_convert": True}, others(st)[0]) and st.pred({"latest_convert": False}, st.hidden)


def test_a_seat_sees_only_its_own_tokens_and_its_own_side() -> None:
    st = game(4)
    traitor = st.hidden
    assert traitor is not None
    hero = others(st)[0]
    view = st.seen_by(hero)
    assert view.hidden is None and view.converts == []
    assert view.side[traitor] == HERO and view.side[hero] == HERO
    assert view.hands[TOKEN][hero] == st.hands[TOKEN][hero]
    assert all(view.hands[TOKEN][s] == [] for s in st.seat_ids if s != hero)
    own = st.seen_by(traitor)
    assert own.hidden == traitor and own.side[traitor] == TRAITOR
    assert st.hidden == traitor and st.side[traitor] == TRAITOR  # the game itself is untouched
    # every other field is the game's own object (HauntBase.__copy__, made field by field)
    assert view.ex is st.ex and view.house is st.house and view.history is st.history and view.hs is st.hs
    assert view.hround == st.hround and view.to_move() == st.to_move()


def _move_infection(st: HauntState, to: str) -> None:
    """Rewrite the hidden truth: ``to`` holds the first traitor's hand and is the traitor instead."""
    first = st.hidden
    assert first is not None
    hands = st.hands[TOKEN]
    hands[first], hands[to] = hands[to], hands[first]
    st.side[first], st.side[to] = st.side[to], st.side[first]
    st.hidden = to


def test_a_heros_policy_never_depends_on_who_holds_token_one() -> None:
    """At every decision of a hero in a policy game, the policy answers the same whoever of the
    others holds token 1: it plays on what the hero may know, not on the engine's truth."""
    st = game(4)
    checked = 0
    for _ in range(400):
        seat = st.to_move()
        if seat is None:
            break
        legal = st.legal_actions()
        if seat in st.ex and st.side.get(seat) == HERO and st.hidden is not None and not st.unmasked \
                and not st.converts and len(list(legal)) > 1:
            first = st.hidden
            answers = set()
            for holder in [s for s in st.seat_ids if s != seat]:
                _move_infection(st, holder)
                answers.add(policy(st, legal, Rng(7)))
                _move_infection(st, first)
            assert len(answers) == 1, (seat, answers)
            checked += 1
        st.apply(policy(st, legal, Rng(len(st.history))))
    assert checked >= 10


def test_lab_research_rolls_a_die_more_for_each_other_explorer_and_for_the_book() -> None:
    st = game(4)
    assert st.hs is not None
    research = next(t for t in st.hs.heroes_side.tasks if t["id"] == "lab-research")
    a, b, c = others(st)[:3]
    lab = "research-laboratory"
    assert lab in st.house.spots  # the setup brings the laboratory in
    for s in st.seat_ids:
        st.ex[s].room = "foyer"
    st.ex[a].room = lab
    alone = st._extra_dice(a, research)
    st.ex[b].room = st.ex[c].room = lab
    assert (alone, st._extra_dice(a, research)) == (0, 2)
    st.ex[c].cards.append("book")
    assert st._extra_dice(a, research) == 3


def test_a_traitor_does_not_learn_who_caught_the_infection_from_it() -> None:
    st = game(4)
    first = st.hidden
    assert first is not None
    convert = others(st)[0]
    st.side[convert] = TRAITOR
    st.converts.append(convert)
    st.hidden_converts.add(convert)
    view = st.seen_by(first)
    assert view.side[convert] == HERO and view.converts == []
    own = st.seen_by(convert)
    assert own.side[convert] == TRAITOR and own.converts == [convert] and own.side[first] == HERO
