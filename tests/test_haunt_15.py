"""Haunt 15, Here There Be Dragons: the Dragon in the Entrance Hall, the Shield and Antique Armor
in the first-found of their rooms, damage on the Turn/Damage track up to the player count with 2
less each defeat (Toughness), immunity to Speed attacks but not the Ring, the Spear's +4, the fire
breath on the Dragon's room and the rooms joined to it (the Shield's room spared, items discarded
for 2 less), the Antique Armor put on in a full turn (5 less attack damage, not fire), the burdens
of both, the policy's use of the fire and the sides' wins."""

from __future__ import annotations

from betrayal_support import drive, pick, policy_game, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState, Monster
from hauntcheck.engine.betrayal.haunt.playable import gaps
from hauntcheck.engine.betrayal.policy import policy
from hauntcheck.engine.betrayal.policy.goals import protections, wanted_cards
from hauntcheck.engine.betrayal.policy.turn import _turn
from hauntcheck.engine.core import Action, ActionList, Rng

FIRE = pick("monster-ability", id="fire-breath")


def dragon(st: HauntState) -> Monster:
    return next(m for m in st.mon if m.kind == "dragon")


def game(players: int = 4) -> tuple[HauntState, str, str, Monster]:
    """Just after the setup: two heroes with empty hands and high physical traits, the first in
    the Dragon's room on its turn, and the traitor away on another floor."""
    st = start_haunt(players, 15)
    m = dragon(st)
    hero, other = st.living_heroes()[:2]
    traitor = st.traitor()
    assert traitor is not None
    for seat in (hero, other, traitor):
        st.ex[seat].cards = []
        st.held[seat] = []
        st.hstatus[seat] = []
        st.ex[seat].idx["might"] = st.ex[seat].idx["speed"] = 6
    away = next(r for r in sorted(st.house.spots) if st.house.floor_of(r) != st.house.floor_of(m.room))
    for seat in st.seat_ids:
        st.ex[seat].room = away
    st.ex[hero].room = m.room
    st.current = hero
    st.turn.keys.clear()
    return st, hero, other, m


def physical(st: HauntState, seat: str) -> int:
    return st.ex[seat].idx["might"] + st.ex[seat].idx["speed"]


def test_setup_puts_the_dragon_in_the_entrance_hall_and_the_pieces_in_the_first_found_rooms() -> None:
    st = start_haunt(4, 15)
    m = dragon(st)
    assert m.room == "entrance-hall" and m.stats == {"speed": 3, "might": 8, "sanity": 6}
    assert st.track == 0 and st.traitor() is not None
    for token, rooms in (("shield", ("chasm", "crypt")), ("antique-armor", ("catacombs", "underground-lake"))):
        placed = st.htokens.get(token, [])
        waiting = sorted(r for t, r in st.waiting_tokens if t == token)
        if placed:
            assert len(placed) == 1 and placed[0] in rooms and not waiting
        else:
            assert waiting == sorted(rooms)  # neither found yet: whichever comes first
    st.htokens.pop("shield", None)
    st.waiting_tokens = [x for x in st.waiting_tokens if x[0] != "shield"]
    for room in ("chasm", "crypt"):
        st.house.spots.pop(room, None)
    drive(st._place_in_one_of("shield", {"rooms": ["chasm", "crypt"], "one_of": True, "first_found": True}))
    assert sorted(r for t, r in st.waiting_tokens if t == "shield") == ["chasm", "crypt"]
    st.note_new_room("crypt")
    assert st.htokens["shield"] == ["crypt"] and not [x for x in st.waiting_tokens if x[0] == "shield"]
    st.note_new_room("chasm")
    assert st.htokens["shield"] == ["crypt"]  # the other room gets nothing later


def test_toughness_takes_two_off_each_defeat_and_the_player_count_kills_it() -> None:
    for players in (4, 5):
        st, hero, _, m = game(players)
        drive(st._resolve_fight(hero, m.uid, "might", 7, 2))  # by 5: 3 damage, no stun
        assert st.track == 3 and not m.stunned and not m.gone and m.stats["might"] == 8
        drive(st._resolve_fight(hero, m.uid, "might", 6, 4))  # by 2: Toughness leaves nothing
        assert st.track == 3 and not m.gone
        drive(st._resolve_fight(hero, m.uid, "might", 9, 2))
        assert str(m.gone) == "killed" and st.track >= players
        assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_speed_attacks_are_barred_but_the_rings_sanity_attack_hurts_it() -> None:
    st, hero, _, m = game()
    st.ex[hero].cards = ["revolver", "ring"]
    acts = st._attack_actions(hero)
    assert not any(a.get("target") == m.uid and a.get("trait") == "speed" for a in acts)
    assert Action.of("attack", target=m.uid, trait="sanity") in acts
    drive(st._resolve_fight(hero, m.uid, "sanity", 8, 3))
    assert st.track == 3


def test_the_spear_adds_four_attacking_and_defending_with_might_only() -> None:
    st, hero, _, m = game()
    st.ex[hero].cards = ["spear"]
    drive(st._resolve_fight(hero, m.uid, "might", 4, 5))  # 4 + 4 beats 5 by 3: 1 damage
    assert st.track == 1
    before = physical(st, hero)
    drive(st._resolve_fight(m.uid, hero, "might", 10, 5))  # 10 against 5 + 4: the Dragon wins by 1
    assert physical(st, hero) == before - 1
    st.ex[hero].cards = []
    drive(st._resolve_fight(m.uid, hero, "might", 10, 5))
    assert physical(st, hero) == before - 6
    st.ex[hero].cards = ["spear", "ring"]
    drive(st._resolve_fight(hero, m.uid, "sanity", 4, 1))  # by 3, no +4 but with Might: 1 damage
    assert st.track == 2


def test_fire_burns_its_room_with_four_dice_and_the_rooms_joined_to_it_with_two() -> None:
    st, hero, other, m = game()
    traitor = str(st.traitor())
    near = sorted(st.adjoining_rooms(m.room))[0]
    st.ex[other].room = near
    st.ex[traitor].room = near  # the traitor is no safer than anyone
    before = {s: physical(st, s) for s in (hero, other, traitor)}
    # every Speed roll fails (0); the Dragon's room then shows 1 on each of 4 dice, the next room 1 on each of 2
    _, reqs = rolled(st._monster_abilities(m), [0, 1, 0, 1, 0, 1], FIRE)
    assert physical(st, hero) == before[hero] - 4
    assert physical(st, other) == before[other] - 2 and physical(st, traitor) == before[traitor] - 2
    dice = [len(next(iter(r.choices))["faces"]) for r in reqs if r.actor == "chance"]  # type: ignore[arg-type]
    assert dice[1] == 4 and dice[3] == 2 and dice[5] == 2


def test_a_speed_of_four_escapes_the_fire_and_the_shields_room_is_spared() -> None:
    st, hero, other, m = game()
    before = physical(st, hero)
    rolled(st._monster_abilities(m), [[2, 2, 0, 0, 0, 0, 0]], FIRE)  # Speed 4+: no damage
    assert physical(st, hero) == before
    st.ex[other].room = m.room
    st.held[other] = ["shield"]
    _, reqs = rolled(st._monster_abilities(m), [0, 2], FIRE)
    assert physical(st, hero) == before and physical(st, other) == before
    assert not [r for r in reqs if r.actor == "chance"]  # nobody rolls in the Shield's room


def test_items_discarded_take_two_each_off_the_fire() -> None:
    st, hero, _, m = game()
    st.ex[hero].cards = ["bottle", "candle", "spear"]
    before = physical(st, hero)
    answer = pick("discard-to-reduce")
    rolled(st._monster_abilities(m), [0, 2], lambda r: FIRE(r) if any(
        a.kind == "monster-ability" for a in r.choices) else answer(r))  # type: ignore[union-attr]
    # 4 dice of 2 make 8; the hero discards both items, one at a time (the Spear is an omen): 8 - 4
    assert st.ex[hero].cards == ["spear"] and physical(st, hero) == before - 4
    assert {"bottle", "candle"} <= set(st.discards["item"])


def test_the_policy_keeps_its_weapons_unless_the_fire_would_kill() -> None:
    st, hero, _, _ = game()
    st.current = hero
    st.ex[hero].cards = ["spear", "bottle"]
    offers = [Action.of("take-damage", points=3), Action.of("discard-to-reduce", card="spear"),
              Action.of("discard-to-reduce", card="bottle")]
    st.to_move = lambda: hero  # type: ignore[method-assign]
    assert policy(st, ActionList(offers), Rng(1)) == offers[2]
    assert policy(st, ActionList(offers[:2]), Rng(1)).kind == "take-damage"
    st.ex[hero].idx["might"] = st.ex[hero].idx["speed"] = 1
    assert policy(st, ActionList(offers[:2]), Rng(1)) == offers[1]


def test_the_traitor_breathes_fire_only_where_it_reaches_a_hero() -> None:
    st, hero, _, m = game()
    uses = ActionList([Action.of("monster-ability", monster=m.uid, id="fire-breath"),
                       Action.of("monster-pass", monster=m.uid)])
    assert policy(st, uses, Rng(1)).kind == "monster-ability"
    st.held[hero] = ["shield"]
    assert policy(st, uses, Rng(1)).kind == "monster-pass"
    st.held[hero] = []
    st.ex[hero].room = st.ex[str(st.traitor())].room
    assert policy(st, uses, Rng(1)).kind == "monster-pass"


def test_the_antique_armor_takes_a_full_turn_and_stops_five_attack_damage_not_fire() -> None:
    st, hero, _, m = game()
    st.htokens["antique-armor"] = [m.room]
    put_on = Action.of("task", id="put-on-antique-armor")
    assert put_on in st._task_actions(hero)
    st.ex[hero].cards = ["armor"]
    assert put_on not in st._task_actions(hero)  # not with the Armor card
    st.ex[hero].cards = []
    st.turn.moved = 1
    assert put_on not in st._task_actions(hero)  # a full turn: not after moving
    st.turn.moved = 0
    drive(st._task(hero, put_on))
    assert st.turn.end_now and "wearing-antique-armor" in st.hstatus[hero] and not st.htokens["antique-armor"]
    st.turn.end_now = False  # the Dragon's turn comes
    before = physical(st, hero)
    drive(st._resolve_fight(m.uid, hero, "might", 9, 2))  # 7 damage, 5 stopped
    assert physical(st, hero) == before - 2
    rolled(st._monster_abilities(m), [0, 1], FIRE)  # the fire: 4 dice of 1, all of it taken
    assert physical(st, hero) == before - 6


def test_the_shield_and_the_armor_each_cost_a_space_but_one_always_remains() -> None:
    st, hero, _, _ = game()
    speed = st.speed(hero)
    assert st.movement_left(hero) == speed
    st.held[hero] = ["shield"]
    assert st.movement_left(hero) == speed - 1
    st.hstatus[hero] = ["wearing-antique-armor"]
    assert st.movement_left(hero) == max(1, speed - 2)
    st.ex[hero].idx["speed"] = 0
    assert st.movement_left(hero) == 1


def test_the_heroes_want_the_shield_and_the_armor_and_never_take_the_armor_off() -> None:
    st, hero, _, m = game()
    assert protections(st, HERO) == {"shield", "antique-armor"} and protections(st, TRAITOR) == set()
    assert {"shield", "antique-armor", "spear"} <= wanted_cards(st, HERO)
    st.htokens["antique-armor"] = [m.room]
    acts = ActionList([*st._turn_actions(hero)])
    assert _turn(st, list(acts), Rng(1)) == Action.of("task", id="put-on-antique-armor")
    drive(st._task(hero, Action.of("task", id="put-on-antique-armor")))
    st.turn.end_now = False
    st.turn.keys.clear()
    assert Action.of("task", id="take-off-antique-armor") in st._task_actions(hero)
    assert _turn(st, list(st._turn_actions(hero)), Rng(1)) != Action.of("task", id="take-off-antique-armor")


def test_the_traitor_wins_when_every_hero_is_dead() -> None:
    st, _, _, _ = game(3)
    for seat in st.living_heroes():
        st.ex[seat].dead = True
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR


def test_policy_games_of_both_results_keep_the_invariants_and_the_haunt_plays_without_hooks() -> None:
    for players, seed, result in ((3, 12, HERO), (4, 24, TRAITOR)):  # two of the golden games
        st = policy_game(players, seed, 15, check_invariants=True)
        outcome = st.outcome()
        assert outcome is not None and outcome.result == result
    assert st.hs is not None and not gaps(st.haunts[15][1]) and not st.hooks_used
