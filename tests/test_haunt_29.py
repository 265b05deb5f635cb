"""Haunt 29, Frankenstein's Legacy: the Monster in a laboratory, its +2 on attack rolls only, its
immunity to Speed attacks except thrown Torches (from its room or the next one), Torch hits on the
Turn/Damage track up to the player count, the Torch it may take instead of damage, the push from
the Tower or Chasm, lighting Torches, and the sides' wins."""

from __future__ import annotations

from betrayal_support import drive, pick, played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState, Monster
from hauntcheck.engine.betrayal.policy import policy
from hauntcheck.engine.core import Action, ActionList, Choices, Rng

MONSTER = "frankensteins-monster"


def monster(st: HauntState) -> Monster:
    return next(m for m in st.mon if m.kind == MONSTER)


def game(players: int = 4) -> tuple[HauntState, str, Monster]:
    """Just after the setup: one hero moved into the Monster's room, holding a Torch, on its turn."""
    st = start_haunt(players, 29)
    m = monster(st)
    hero = st.living_heroes()[0]
    st.ex[hero].room = m.room
    st.held[hero] = ["torch"]
    st.pool["torch"] -= 1
    st.current = hero
    st.turn.keys.clear()
    return st, hero, m


def neighbours(st: HauntState, room: str) -> tuple[str, str]:
    """A room joined to ``room`` by a doorway, and one on its floor that is not."""
    near = sorted(st.door_adjacent(room))
    assert near, f"{room} has a joined room in this game"
    far = next(r for r in sorted(st.house.spots) if r != room and r not in near
               and st.house.floor_of(r) == st.house.floor_of(room))
    return near[0], far


def test_setup_puts_the_monster_in_a_laboratory_and_sets_aside_five_torches() -> None:
    st = start_haunt(4, 29)
    m = monster(st)
    assert m.room in ("research-laboratory", "operating-laboratory")
    assert m.stats == {"speed": 3, "might": 8}
    assert st.pool["torch"] + sum(v.count("torch") for v in st.held.values()) + len(st.htokens.get("torch", [])) == 5
    assert st.traitor() is not None and not st.ex[str(st.traitor())].dead


def test_no_laboratory_is_fetched_when_the_other_one_is_in_the_house() -> None:
    st = start_haunt(4, 29)
    there = monster(st).room
    other = "operating-laboratory" if there == "research-laboratory" else "research-laboratory"
    assert other not in st.house.spots, "this game has one laboratory only"
    step = {"room": other, "only_if_absent": True, "unless_in_house": [there], "place": {"any_room": True, "floor": "upper"}}
    before = set(st.house.spots)
    drive(st._fetch_room(step))
    assert set(st.house.spots) == before
    del step["unless_in_house"]
    drive(st._fetch_room(step))
    assert other in st.house.spots


def test_the_monster_adds_two_when_attacking_but_not_when_defending() -> None:
    st, hero, m = game()
    physical = st.ex[hero].idx["might"] + st.ex[hero].idx["speed"]
    drive(st._resolve_fight(m.uid, hero, "might", 5, 6))  # 5 + 2 beats 6 by 1
    assert st.ex[hero].idx["might"] + st.ex[hero].idx["speed"] == physical - 1
    assert not m.stunned
    drive(st._resolve_fight(hero, m.uid, "might", 6, 5))  # no bonus in defence: the hero wins
    assert m.stunned and st.track == 0  # an ordinary defeat stuns; only Torches count on the track


def test_speed_attacks_fail_on_the_monster_but_a_torch_is_thrown_with_speed() -> None:
    st, hero, m = game()
    acts = st._attack_actions(hero)
    throw = Action.of("attack", target=m.uid, trait="speed", rule="torch-throw")
    assert throw in acts
    assert Action.of("attack", target=m.uid, trait="speed") not in acts
    st.held[hero] = []
    assert throw not in st._attack_actions(hero)


def test_a_torch_reaches_the_next_room_through_a_doorway_only() -> None:
    st, hero, m = game()
    near, far = neighbours(st, m.room)
    throw = Action.of("attack", target=m.uid, trait="speed", rule="torch-throw")
    st.ex[hero].room = near
    acts = st._attack_actions(hero)
    assert throw in acts and not any(a.get("trait") == "might" and a.get("target") == m.uid for a in acts)
    st.ex[hero].room = far
    if far not in st.door_adjacent(m.room):
        assert throw not in st._attack_actions(hero)


def test_a_torch_hit_counts_on_the_track_without_stunning_and_the_torch_is_gone() -> None:
    st, hero, m = game()
    pool = st.pool["torch"]
    before = dict(st.ex[hero].idx)
    drive(st._resolve_fight(hero, m.uid, "speed", 5, 2, chosen="torch-throw"))
    assert st.track == 1 and not m.stunned and not m.gone
    assert st.held[hero] == [] and st.pool["torch"] == pool + 1
    st.held[hero] = ["torch"]
    st.pool["torch"] -= 1
    drive(st._resolve_fight(hero, m.uid, "speed", 1, 4, chosen="torch-throw"))
    assert st.track == 1 and st.held[hero] == [] and st.ex[hero].idx == before  # lost: only the Torch


def test_hits_equal_to_the_player_count_kill_the_monster_and_the_heroes_win() -> None:
    for players in (3, 5):
        st, hero, m = game(players)
        st.track = players - 1
        drive(st._resolve_fight(hero, m.uid, "speed", 5, 2, chosen="torch-throw"))
        assert m.gone == "killed" and st.track == players
        assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_monster_may_take_a_torch_when_it_wins_by_two() -> None:
    st, hero, m = game()
    pool = st.pool["torch"]
    before = dict(st.ex[hero].idx)
    _, reqs = drive(st._resolve_fight(m.uid, hero, "might", 3, 3), pick("steal-token", token="torch"))
    assert any(a.kind == "steal-token" for r in reqs if isinstance(r.choices, ActionList) for a in r.choices)
    assert st.held[hero] == [] and st.pool["torch"] == pool + 1 and st.ex[hero].idx == before
    st.held[hero] = ["torch"]
    _, reqs = drive(st._resolve_fight(m.uid, hero, "might", 1, 3))  # 1 + 2 against 3: a tie
    assert not any(a.kind == "steal-token" for r in reqs if isinstance(r.choices, ActionList) for a in r.choices)


def test_the_traitor_policy_takes_the_torch_unless_the_damage_kills() -> None:
    st, hero, _ = game()
    e = st.ex[hero]
    acts = ActionList([Action.of("damage-them", target=hero, points=2), Action.of("steal-token", token="torch")])
    choices: Choices = acts
    rng = Rng(1)
    e.idx["might"], e.idx["speed"] = 3, 3
    assert policy(st, choices, rng).kind == "steal-token"
    e.idx["might"], e.idx["speed"] = 1, 0
    assert policy(st, choices, rng).kind == "damage-them"


def test_pushing_the_monster_from_the_tower_or_chasm_kills_it() -> None:
    st, hero, m = game()
    push = Action.of("task", id="push-monster")
    assert push not in st._task_actions(hero)
    st.ex[hero].room = m.room = "tower" if "tower" in st.house.spots else "chasm"
    assert push in st._task_actions(hero)
    rolled(st._task(hero, push), [2])  # Might dice all showing 2: 6+ at Might 3 or more
    if st.value(hero, "might") >= 3:
        assert m.gone == "killed"
        assert push not in st._task_actions(hero)


def test_a_hero_lights_a_torch_in_a_fire_room_only_without_one() -> None:
    st, hero, _ = game()
    light = Action.of("task", id="light-torch")
    st.ex[hero].room = "kitchen"
    assert light not in st._task_actions(hero)  # already holding one
    st.held[hero] = []
    assert light in st._task_actions(hero)
    drive(st._task(hero, light))
    assert st.held[hero] == ["torch"]


def test_the_monster_must_head_for_the_nearest_hero() -> None:
    st, hero, m = game()
    st.ex[hero].room = next(iter(sorted(st.door_adjacent(m.room))))
    options = [(r, 1) for r in sorted(st._graph()[m.room])]
    forced = st._forced_steps(m, options)
    assert forced is not None and st.ex[hero].room in [r for r, _ in forced]


def test_the_traitor_wins_when_every_hero_is_dead() -> None:
    st, _, _ = game()
    for h in st.living_heroes():
        st.ex[h].dead = True
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR


def test_a_policy_game_plays_to_a_result_with_the_invariants_holding() -> None:
    st = played_out(4, 29)
    assert st.result is not None and st.result.result in (HERO, TRAITOR)
