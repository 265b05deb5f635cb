"""Haunt 44, Death Doth Find Us All: the first ten years at the setup, the aging table applied
per decade entered, the aging at the traitor's end of turn (and turn slot), the Medallion's decade
less and its decade more when a hero dies, the traitor's feeding off death (on-hero-death rules)
and never carrying the Medallion, the ritual, and the policy's play."""

from __future__ import annotations

from betrayal_support import played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState
from hauntcheck.engine.betrayal.hooks.h44_death_doth_find_us_all import AGING_TOKEN, age_decades, age_of
from hauntcheck.engine.betrayal.policy import goal_rooms
from hauntcheck.engine.core import Action


def game(players: int = 4) -> tuple[HauntState, str, str]:
    """Just after the setup: a hero and the traitor, the hero on its turn."""
    st = start_haunt(players, 44)
    hero = st.living_heroes()[0]
    traitor = st.traitor()
    assert traitor is not None
    st.current = hero
    st.turn.keys.clear()
    return st, hero, traitor


def test_setup_ages_every_hero_ten_years_and_not_the_traitor() -> None:
    st, _, traitor = game(5)
    for hero in st.living_heroes():
        assert st.held[hero].count(AGING_TOKEN) == 1
        assert age_of(st, hero) == st.t.explorers[st.ex[hero].id].age + 10
    assert AGING_TOKEN not in st.held.get(traitor, [])
    assert st.pool["sanity-roll"] == 5 and st.pool["knowledge-roll"] == 5


def test_each_decade_entered_applies_its_row_of_the_table() -> None:
    st, hero, _ = game()
    e = st.ex[hero]
    top = {t: len(st.t.explorers[e.id].traits[t].values) - 1 for t in e.idx}
    e.idx.update({t: 4 for t in e.idx})
    st.held[hero] = []
    base = st.t.explorers[e.id].age
    years = {2: (1, 1, 0, 0), 3: (0, 0, 1, 1), 4: (0, -1, 1, 0), 7: (-1, -1, -1, -1)}
    checked = 0
    for decade, change in years.items():
        if base // 10 >= decade:
            continue  # the hero's card already puts it past this decade
        st.held[hero] = [AGING_TOKEN] * (decade - 1 - base // 10)  # one decade short of it
        before = dict(e.idx)
        rolled(age_decades(st, hero, 1))
        assert age_of(st, hero) // 10 == decade
        expect = {t: min(top[t], before[t] + c) for t, c in zip(("might", "speed", "sanity", "knowledge"), change, strict=True)}
        assert e.idx == expect, decade
        checked += 1
    assert checked >= 2


def test_fifties_cost_a_physical_and_a_mental_point_of_the_heros_choice() -> None:
    st, hero, _ = game()
    e = st.ex[hero]
    e.idx.update({t: 4 for t in e.idx})
    base = st.t.explorers[e.id].age
    st.held[hero] = [AGING_TOKEN] * (4 - base // 10)  # in the 40s: the next decade is the 50s
    assert age_of(st, hero) // 10 == 4

    def answer(req: object) -> Action:
        choices = list(req.choices)  # type: ignore[attr-defined]
        return next((a for a in choices if a.get("speed") or a.get("knowledge")), choices[0])

    rolled(age_decades(st, hero, 1), answer=answer)
    assert (e.idx["might"], e.idx["speed"], e.idx["sanity"], e.idx["knowledge"]) == (4, 3, 4, 3)


def test_the_traitors_end_of_turn_ages_each_hero_by_a_die_less_one_with_the_medallion() -> None:
    st, hero, traitor = game()
    other = st.living_heroes()[1]
    for h in st.living_heroes():
        st.ex[h].cards = [c for c in st.ex[h].cards if c != "medallion"]
    st.ex[hero].cards.append("medallion")
    for h in st.living_heroes():
        st.ex[h].idx.update({t: 5 for t in st.ex[h].idx})  # strong enough to outlive two decades
    tokens = {h: st.held[h].count(AGING_TOKEN) for h in st.living_heroes()}
    rolled(st._turn_rules(traitor, "end-of-turn"), [2] * len(tokens))
    assert st.held[hero].count(AGING_TOKEN) == tokens[hero] + 1  # 2 less the Medallion's 1
    assert st.held[other].count(AGING_TOKEN) == tokens[other] + 2


def test_aging_goes_on_at_the_dead_traitors_turn_slot() -> None:
    st, hero, traitor = game()
    st.ex[traitor].dead = True
    before = st.held[hero].count(AGING_TOKEN)
    rolled(st._slot_rules(traitor), [1] * 4)
    assert st.held[hero].count(AGING_TOKEN) == before + 1


def test_a_heros_death_feeds_the_traitor_and_ages_the_medallion_holder() -> None:
    st, _, traitor = game()
    holder = st.living_heroes()[1]
    for h in st.living_heroes():
        st.ex[h].cards = [c for c in st.ex[h].cards if c != "medallion"]
    st.ex[holder].cards.append("medallion")
    victim = st.living_heroes()[2]
    t_before = sum(st.ex[traitor].idx.values())
    h_before = st.held[holder].count(AGING_TOKEN)
    st.ex[victim].idx["might"] = 0
    st.trait_change(victim, "might", -1)
    assert st.ex[victim].dead and st.deaths_pending == [victim]
    rolled(st._death_rules(), [[1, 1, 0]])
    assert st.held[holder].count(AGING_TOKEN) == h_before + 1
    assert sum(st.ex[traitor].idx.values()) > t_before  # 2 points gained (fewer only at the tops)
    assert st.deaths_pending == []


def test_the_traitor_never_carries_the_medallion() -> None:
    st, _, traitor = game()
    assert f"{traitor}/medallion" in st.no_pickup
    assert "medallion" not in st.ex[traitor].cards
    st.current = traitor
    st.piles.setdefault(st.ex[traitor].room, []).append("medallion")
    assert not any(a.kind == "pickup" and a.get("card") == "medallion" for a in st._turn_actions(traitor))


def test_the_ritual_earns_the_trait_used_in_its_room_and_each_room_serves_once() -> None:
    st, hero, _ = game(3)
    ritual = Action.of("task", id="ritual-roll", trait="sanity")
    st.ex[hero].room = "kitchen"
    assert ritual in st._task_actions(hero)
    rolled(st._task(hero, ritual), [2])
    assert st.earned == {"sanity-roll": 1} and st.htokens["sanity-roll"] == ["kitchen"]
    st.turn.keys.clear()
    assert ritual not in st._task_actions(hero)
    if "kitchen" in st.house.spots:
        assert "kitchen" not in goal_rooms(st, HERO)  # a spent room is no goal
    st.earned.update({"sanity-roll": 2, "knowledge-roll": 1})
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_traitor_wins_when_every_hero_is_dead() -> None:
    st, _, _ = game()
    for h in st.living_heroes():
        st.ex[h].dead = True
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR


def test_a_policy_game_plays_to_a_result_with_the_invariants_holding() -> None:
    st = played_out(3, 44)
    assert st.result is not None and st.result.result in (HERO, TRAITOR)
