"""Haunt 48, Stacked Like Cordwood: Crimson Jack by the front door, beaten he leaves the house and
comes back stronger at the traitor's next turn (even with the traitor dead), the aura of fear, the
search for the cursed weapon (its own stack, the Vault only once open), the studies in its room,
the kill with the cursed weapon once the studies are done, and the policy's any-one weapon."""

from __future__ import annotations

from betrayal_support import drive, played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState, Monster
from hauntcheck.engine.betrayal.policy import wanted_cards
from hauntcheck.engine.core import Action

JACK = "crimson-jack"
WEAPONS = {"axe", "blood-dagger", "sacrificial-dagger", "spear"}


def jack(st: HauntState) -> Monster:
    return next(m for m in st.mon if m.kind == JACK)


def game(players: int = 4) -> tuple[HauntState, str, Monster]:
    """Just after the setup: one hero on its turn, without any of the four weapons."""
    st = start_haunt(players, 48)
    hero = st.living_heroes()[0]
    for s in st.seat_ids:
        st.ex[s].cards = [c for c in st.ex[s].cards if c not in WEAPONS]
    st.current = hero
    st.turn.keys.clear()
    return st, hero, jack(st)


def test_setup_puts_jack_in_the_entrance_hall_and_sets_aside_study_tokens() -> None:
    for players in (3, 6):
        st = start_haunt(players, 48)
        m = jack(st)
        assert m.stats == {"speed": 3, "might": 3, "sanity": 3}
        assert m.room == "entrance-hall"
        assert st.pool["might-roll"] + st.pool["knowledge-roll"] + sum(st.earned.values()) == 2 * players


def test_beaten_jack_leaves_the_house_and_returns_stronger_at_the_traitors_turn() -> None:
    st, hero, m = game()
    st.ex[hero].room = m.room
    drive(st._resolve_fight(hero, m.uid, "might", 6, 1))
    assert m.gone == "away" and not m.stunned and m not in st.active_monsters()
    traitor = st.traitor()
    assert traitor is not None
    drive(st._turn_rules(traitor, "start-of-turn"))
    assert not m.gone and m.room == "entrance-hall" and m.stats == {"speed": 4, "might": 4, "sanity": 4}
    drive(st._resolve_fight(hero, m.uid, "might", 9, 1))
    drive(st._turn_rules(traitor, "start-of-turn"))
    assert m.stats == {"speed": 5, "might": 5, "sanity": 5}


def test_jack_returns_at_the_traitors_turn_slot_when_the_traitor_is_dead() -> None:
    st, hero, m = game()
    traitor = st.traitor()
    assert traitor is not None
    st.ex[traitor].dead = True
    drive(st._resolve_fight(hero, m.uid, "might", 6, 1))
    assert m.gone == "away"
    drive(st._slot_rules(traitor))
    assert not m.gone and m.room == "entrance-hall" and m.stats["might"] == 4


def test_the_aura_of_fear_costs_a_mental_and_a_physical_point_on_a_failed_roll() -> None:
    st, hero, m = game()
    st.ex[hero].room = m.room
    e = st.ex[hero]
    mental, physical = e.idx["sanity"] + e.idx["knowledge"], e.idx["might"] + e.idx["speed"]
    rolled(st._turn_rules(hero, "start-of-turn"), [0])
    assert e.idx["sanity"] + e.idx["knowledge"] == mental - 1 and e.idx["might"] + e.idx["speed"] == physical - 1
    rolled(st._turn_rules(hero, "start-of-turn"), [2])  # 3+ passes
    assert e.idx["sanity"] + e.idx["knowledge"] == mental - 1
    st.ex[hero].room = next(r for r in st.house.spots if r != m.room)
    _, reqs = rolled(st._turn_rules(hero, "start-of-turn"), [0])
    assert reqs == [] and e.idx["sanity"] + e.idx["knowledge"] == mental - 1  # away from Jack: no roll


def test_the_search_finds_a_weapon_from_its_own_stack_and_only_while_none_is_held() -> None:
    st, hero, _ = game()
    find = Action.of("task", id="find-cursed-weapon")
    st.ex[hero].room = "library"
    assert find in st._task_actions(hero)
    for kind in ("item", "omen"):
        st.decks[kind] = [c for c in st.decks[kind] if c not in WEAPONS - {"spear"}]
        st.discards[kind] = [c for c in st.discards[kind] if c not in WEAPONS - {"spear"}]
    for pile in st.piles.values():
        pile[:] = [c for c in pile if c not in WEAPONS]
    if "spear" not in st.decks["omen"]:
        st.decks["omen"].append("spear")
    rolled(st._task(hero, find), [2])
    assert "spear" in st.ex[hero].cards  # the Spear comes from the omen stack
    st.turn.keys.clear()
    assert find not in st._task_actions(hero)  # a hero holds the cursed weapon now


def test_the_vault_serves_the_search_only_once_opened() -> None:
    st, hero, _ = game()
    find = Action.of("task", id="find-cursed-weapon")
    st.ex[hero].room = "vault"
    assert find not in st._task_actions(hero)
    st.tokens.setdefault("vault", []).append("vault-empty")
    assert find in st._task_actions(hero)


def test_studies_happen_in_the_weapon_holders_room_and_earn_the_trait_used() -> None:
    st, hero, _ = game()
    holder = st.living_heroes()[1]
    study = Action.of("task", id="study-cursed-weapon", trait="knowledge")
    assert study not in st._task_actions(hero)
    st.ex[holder].cards.append("axe")
    st.ex[hero].room = st.ex[holder].room
    assert study in st._task_actions(hero)
    rolled(st._task(hero, study), [2])
    assert st.earned.get("knowledge-roll") == 1 and not st.earned.get("might-roll")


def test_only_the_cursed_weapon_after_the_studies_kills_jack() -> None:
    st, hero, m = game(3)
    st.ex[hero].cards.append("axe")
    st.ex[hero].room = m.room
    st.turn.keys.add("attack-weapon:axe")
    drive(st._resolve_fight(hero, m.uid, "might", 6, 1))
    assert m.gone == "away"  # the studies are not done: he only leaves
    m.gone = ""
    st.earned.update({"might-roll": 2, "knowledge-roll": 1})
    st.turn.keys.discard("attack-weapon:axe")
    drive(st._resolve_fight(hero, m.uid, "might", 6, 1))
    assert m.gone == "away"  # bare hands: he only leaves
    m.gone = ""
    st.turn.keys.add("attack-weapon:axe")
    drive(st._resolve_fight(hero, m.uid, "might", 6, 1))
    assert m.gone == "killed"
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_heroes_want_any_one_weapon_until_they_hold_one() -> None:
    st, hero, _ = game()
    assert wanted_cards(st, HERO) >= WEAPONS
    st.ex[hero].cards.append("spear")
    assert not (WEAPONS - {"spear"}) & wanted_cards(st, HERO) and "spear" in wanted_cards(st, HERO)


def test_the_traitor_wins_when_every_hero_is_dead() -> None:
    st, _, _ = game()
    for h in st.living_heroes():
        st.ex[h].dead = True
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR


def test_a_policy_game_plays_to_a_result_with_the_invariants_holding() -> None:
    st = played_out(4, 48)
    assert st.result is not None and st.result.result in (HERO, TRAITOR)
