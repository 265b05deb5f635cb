"""Haunt 42, Comes the Hero: the immortal traitor (traits fixed, never attacked, never slowed,
hurt by nothing), the weapon found at setup, the Statue woken by one of four items into one of
four forms, moved by a hero's roll and wearing one trait of the traitor down at the start of his
turn (one lowering skipped after he beats it), the body that only a weapon kill leaves, the gate
roll with the body, and the policy's any-one item, its Statue moves and its hunt for a body."""

from __future__ import annotations

from betrayal_support import drive, pick, played_out, rolled, started

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState, Monster, playable
from hauntcheck.engine.betrayal.policy import wanted_cards
from hauntcheck.engine.betrayal.policy.monsters import _monster_targets
from hauntcheck.engine.betrayal.policy.turn import _best_attack, _targets
from hauntcheck.engine.core import Action
from hauntcheck.engine.games import game_spec

WEAPONS = {"revolver", "axe", "blood-dagger", "sacrificial-dagger", "spear"}
HAND = {"holy-symbol", "axe", "crystal-ball", "book"}
STATUE = "animated-statue"


def game(players: int = 4) -> tuple[HauntState, str, str]:
    """Just after the setup: the traitor and a hero, who holds none of the Statue's four items."""
    st = started(players, 42)
    traitor = st.traitor()
    assert traitor is not None
    hero = st.living_heroes()[0]
    for s in st.living_heroes():
        st.ex[s].cards = [c for c in st.ex[s].cards if c not in HAND]
    st.current = hero
    st.turn.keys.clear()
    return st, traitor, hero


def statue(st: HauntState) -> Monster:
    return next(m for m in st.mon if m.kind == STATUE and not m.gone)


def woken(st: HauntState, hero: str, card: str = "holy-symbol") -> Monster:
    """The hero wakes the Statue with ``card`` in the Statue's room."""
    st.ex[hero].room = st.htokens["statue"][0]
    st.ex[hero].cards.append(card)
    give = {"holy-symbol": "give-holy-symbol", "axe": "give-axe", "crystal-ball": "give-crystal-ball", "book": "give-book"}
    act = Action.of("task", id=give[card])
    assert act in st._task_actions(hero)
    drive(st._task(hero, act))
    return statue(st)


def test_the_haunt_plays_without_a_hook() -> None:
    data = next(f for f in game_spec("betrayal").by_kind("haunt") if f.data["number"] == 42).data
    assert playable.gaps(data) == [] and "hooks" not in data


def test_setup_the_traitor_is_immortal_armed_and_restored_and_the_statue_token_stands_in_the_haunt_room() -> None:
    for players in (3, 6):
        st = started(players, 42)
        traitor = st.traitor()
        assert traitor is not None and st.haunt is not None
        assert st.hstatus[traitor] == ["immortal"]
        assert WEAPONS & set(st.ex[traitor].cards)
        xdef = st.t.explorers[st.ex[traitor].id]
        assert all(st.ex[traitor].idx[t] >= xdef.traits[t].start for t in xdef.traits)
        assert st.htokens["statue"] == [st.haunt["room"]]
        assert not any(m.kind == STATUE for m in st.mon)


def test_first_found_takes_one_weapon_from_the_item_stack_and_only_without_one() -> None:
    st, traitor, _ = game()
    step = next(s for s in st.hs.traitor_side.setup if "fetch_card" in s)  # type: ignore[union-attr]
    st.ex[traitor].cards = [c for c in st.ex[traitor].cards if c not in WEAPONS]
    listed = set(step["fetch_card"]["card"])
    before = [c for c in st.decks["item"] if c in listed]
    drive(st._setup_step("traitor", step))
    got = [c for c in st.ex[traitor].cards if c in WEAPONS]
    assert len(got) == (1 if before else 0) and set(got) <= listed
    assert [c for c in st.decks["item"] if c in listed] == [c for c in before if c not in got]
    drive(st._setup_step("traitor", step))  # holding one now: no second search
    assert [c for c in st.ex[traitor].cards if c in WEAPONS] == got


def test_the_traitors_traits_are_fixed_against_damage_cards_and_items() -> None:
    st, traitor, _ = game()
    before = dict(st.ex[traitor].idx)
    st.trait_change(traitor, "might", 2, card="amulet-of-the-ages")
    st.trait_change(traitor, "speed", -3)
    drive(st._outcome({"damage": {"type": "physical", "points": 3, "unreducible": True}}, traitor, None))
    drive(st._outcome({"damage": {"type": "mental", "points": 2}}, traitor, None))
    assert st.ex[traitor].idx == before and not st.ex[traitor].dead
    drive(st._outcome({"lose": {"knowledge": 1}}, traitor, None))  # the haunt's own lowering gets through
    assert st.ex[traitor].idx["knowledge"] == before["knowledge"] - 1


def test_nobody_attacks_the_traitor_and_heroes_do_not_slow_him() -> None:
    st, traitor, hero = game()
    st.ex[hero].room = st.ex[traitor].room
    assert not any(a["target"] == traitor for a in st._attack_actions(hero))
    assert st._slowing(traitor) == 0 and st._slowing(hero) >= 1


def test_an_item_in_the_statues_hand_wakes_it_in_that_form_and_closes_the_others() -> None:
    st, _, hero = game()
    m = woken(st, hero, "axe")
    assert "axe" in st.destroyed and "axe" not in st.ex[hero].cards
    assert m.room == st.ex[hero].room and not st.htokens["statue"]
    assert {"form-warrior", "statue-animated"} <= st.hflags and "form-judge" not in st.hflags
    st.ex[hero].cards.append("book")
    st.turn.keys.clear()
    assert Action.of("task", id="give-book") not in st._task_actions(hero)


def test_the_statue_acts_only_for_the_heroes_and_only_the_traitor_may_fight_it() -> None:
    st, traitor, hero = game()
    m = woken(st, hero)
    st.ex[traitor].room = m.room
    assert not any(a["target"] == m.uid for a in st._attack_actions(hero))
    st.turn.keys.clear()
    assert any(a["target"] == m.uid for a in st._attack_actions(traitor))
    room = m.room
    _, reqs = drive(st._monster_turn())
    assert m.room == room and not any(r.actor == hero for r in reqs)  # it never moves or attacks by itself


def test_a_heros_roll_moves_the_statue_up_to_the_result() -> None:
    st, _, hero = game()
    m = woken(st, hero)
    st.turn.keys.clear()
    move = Action.of("task", id="move-the-statue", trait="knowledge")
    assert move in st._task_actions(hero)
    start = m.room
    steps: list[str] = []

    def walk(req: object) -> Action:
        acts = list(req.choices)  # type: ignore[attr-defined]
        moves = [a for a in acts if a.kind == "monster-move" and a["to"] not in steps and a["to"] != start]
        if moves:
            steps.append(str(moves[0]["to"]))
            return moves[0]
        return next(a for a in acts if a.kind == "monster-stop")

    rolled(st._task(hero, move), [[1, 0, 0, 0, 0, 0, 0, 0]], answer=walk)  # a result of 1
    assert st.task_total == 1 and len(steps) <= 1 and m.room == (steps[-1] if steps else start)
    st.turn.keys.clear()
    assert move not in st._task_actions(hero)  # once a turn (the turn's task roll)


def test_the_statue_beside_the_traitor_lowers_its_forms_trait_at_the_start_of_his_turn() -> None:
    st, traitor, hero = game()
    m = woken(st, hero, "holy-symbol")  # the Judge lowers Speed
    speed, might = st.ex[traitor].idx["speed"], st.ex[traitor].idx["might"]
    st.ex[traitor].room = next(r for r in st.house.spots if r != m.room)
    drive(st._turn_rules(traitor, "start-of-turn"))
    assert st.ex[traitor].idx["speed"] == speed  # not in the Statue's room
    st.ex[traitor].room = m.room
    drive(st._turn_rules(traitor, "start-of-turn"))
    assert st.ex[traitor].idx["speed"] == speed - 1 and st.ex[traitor].idx["might"] == might


def test_beaten_by_the_traitor_the_statue_is_not_stunned_and_skips_one_lowering() -> None:
    st, traitor, hero = game()
    m = woken(st, hero, "crystal-ball")  # the Seer lowers Sanity
    st.ex[traitor].room = m.room
    drive(st._resolve_fight(traitor, m.uid, "might", 9, 3))
    assert not m.stunned and not m.gone and "statue-beaten" in st.hflags
    sanity = st.ex[traitor].idx["sanity"]
    drive(st._turn_rules(traitor, "start-of-turn"))
    assert st.ex[traitor].idx["sanity"] == sanity and "statue-beaten" not in st.hflags
    drive(st._turn_rules(traitor, "start-of-turn"))
    assert st.ex[traitor].idx["sanity"] == sanity - 1
    drive(st._resolve_fight(traitor, m.uid, "might", 2, 8))  # the Statue wins: the traitor takes nothing
    assert st.ex[traitor].idx["sanity"] == sanity - 1 and not st.ex[traitor].dead


def test_worn_to_the_skull_the_traitor_dies_and_the_heroes_win() -> None:
    st, traitor, hero = game()
    m = woken(st, hero, "book")
    st.ex[traitor].room = m.room
    st.ex[traitor].idx["knowledge"] = 0
    drive(st._turn_rules(traitor, "start-of-turn"))
    assert st.ex[traitor].dead
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def kill(st: HauntState, traitor: str, hero: str, weapon: str | None) -> None:
    st.ex[hero].room = st.ex[traitor].room
    for t in ("might", "speed"):
        st.ex[hero].idx[t] = 0
    st._weapon = weapon
    drive(st._resolve_fight(traitor, hero, "might", 8, 0), answer=pick("damage-them"))
    st._weapon = None
    assert st.ex[hero].dead


def test_only_a_hero_the_traitor_kills_with_a_weapon_leaves_a_body() -> None:
    st, traitor, _ = game(5)
    first, second, third = st.living_heroes()[:3]
    kill(st, traitor, first, None)
    assert not st.htokens.get("body")
    kill(st, traitor, second, "axe")
    assert st.htokens["body"] == [st.ex[second].room]
    st.ex[third].idx["sanity"] = 0
    st.trait_change(third, "sanity", -1)  # a death by no attack at all
    assert st.ex[third].dead and st.htokens["body"] == [st.ex[second].room]


def test_the_gate_needs_the_body_in_one_of_three_rooms_and_one_try_a_turn() -> None:
    st, traitor, _ = game()
    st.current = traitor
    st.turn.keys.clear()
    st.ex[traitor].room = "catacombs"
    gate = Action.of("task", id="open-the-gate", trait="sanity")
    assert gate not in st._task_actions(traitor)
    st.held.setdefault(traitor, []).append("body")
    assert gate in st._task_actions(traitor)
    rolled(st._task(traitor, gate), [0])
    assert "gate-opened" not in st.hflags
    assert gate not in st._task_actions(traitor)  # one try a turn
    st.turn.keys.clear()
    rolled(st._task(traitor, gate), [2])
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR


def test_the_heroes_want_any_one_of_the_four_items_until_the_statue_wakes() -> None:
    st, _, hero = game()
    assert wanted_cards(st, HERO) >= HAND - set(st.destroyed)
    st.ex[hero].cards.append("book")
    assert wanted_cards(st, HERO) & HAND == {"book"}
    st.ex[hero].cards.remove("book")
    woken(st, hero)
    assert not wanted_cards(st, HERO) & HAND


def test_the_policy_moves_the_statue_toward_the_traitor_and_hunts_for_a_body() -> None:
    st, traitor, hero = game()
    m = woken(st, hero)
    assert _monster_targets(st, m) == [st.ex[traitor].room]
    st.current = traitor
    want = wanted_cards(st, TRAITOR)
    assert want == {"body"}
    goals = _targets(st, traitor, TRAITOR, want, traitor, want)
    assert set(goals) >= {st.ex[s].room for s in st.living_heroes()}
    st.ex[hero].room = st.ex[traitor].room
    st.turn.keys.clear()
    attack = _best_attack(st, traitor, [a for a in st._attack_actions(traitor) if a["target"] == hero])
    assert attack is not None and attack.get("weapon") in WEAPONS  # only a weapon kill leaves a body


def test_a_policy_game_plays_to_a_result_with_the_invariants_holding() -> None:
    st = played_out(4, 42)
    assert st.result is not None and st.result.result in (HERO, TRAITOR)
