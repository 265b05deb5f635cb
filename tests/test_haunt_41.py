"""Haunt 41, Invisible Traitor: the traitor's room hidden from the heroes (the ``conceal`` piece),
attacks on a room rather than a figure, sneak attacks, the Speed-roll steal, the Ring's lost Sanity
attack, what the heroes learn (Fighting Blind, Skull, Spirit Board, new rooms) - and the proof that
a hero's policy never reads the traitor's true room."""

from __future__ import annotations

from betrayal_support import drive, haunt_seed, pick, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import HERO, HauntState, concealment, new_game
from hauntcheck.engine.betrayal.policy import policy
from hauntcheck.engine.core import Action, ActionList, Rng
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import PolicyController, seeded_table

HAUNT = 41


def game(players: int = 4) -> tuple[HauntState, str, str]:
    """Just after the setup: the traitor (concealed) and the first living hero, in different rooms."""
    st = start_haunt(players, HAUNT)
    traitor = st.traitor()
    assert traitor is not None
    hero = st.living_heroes()[0]
    return st, traitor, hero


def on_turn(st: HauntState, seat: str) -> None:
    st.current = seat
    st.turn.seat = seat
    st.turn.keys.clear()
    st.turn.moved = 0


def other_room(st: HauntState, *avoid: str) -> str:
    return next(r for r in sorted(st.house.spots) if r not in avoid and r in st._graph())


def test_setup_takes_the_traitor_off_the_board_with_every_room_a_candidate() -> None:
    st, traitor, _ = game()
    assert traitor in st.concealed
    assert st.ex[traitor].room in st.house.spots
    assert concealment.candidates(st, traitor) == sorted(st.house.spots)
    assert concealment.hidden_from(st, st.living_heroes()[0]) == [traitor]
    assert concealment.hidden_from(st, traitor) == []  # it sees itself; the engine (None) sees all
    assert not concealment.concealed_from(st, traitor, None)


def test_a_hero_attacks_a_room_never_the_figure_and_the_offer_tells_nothing() -> None:
    st, traitor, hero = game()
    on_turn(st, hero)
    elsewhere = other_room(st, st.ex[hero].room)
    st.ex[traitor].room = elsewhere
    apart_attacks, apart_turn = st._attack_actions(hero), st._turn_actions(hero)
    st.ex[traitor].room = st.ex[hero].room
    together_attacks, together_turn = st._attack_actions(hero), st._turn_actions(hero)
    assert apart_attacks == together_attacks and apart_turn == together_turn
    assert not any(traitor in {str(v) for _, v in a.args} for a in together_turn)
    assert Action.of("attack-unseen", room=st.ex[hero].room, trait="might") in together_attacks


def test_nobody_slows_or_is_slowed_by_the_unseen_traitor() -> None:
    st, traitor, hero = game()
    st.ex[traitor].room = st.ex[hero].room
    assert st._slowing(hero) == 0
    assert st._slowing(traitor) == 0


def test_an_attack_on_an_empty_room_is_spent_and_clears_that_room() -> None:
    st, traitor, hero = game()
    on_turn(st, hero)
    here = st.ex[hero].room
    st.ex[traitor].room = other_room(st, here)
    drive(st._attack_unseen(hero, Action.of("attack-unseen", room=here, trait="might")))
    assert "attack" in st.turn.keys and st._attack_actions(hero) == []
    assert here not in concealment.candidates(st, traitor)


def test_an_attack_on_the_right_room_is_an_ordinary_fight_and_shows_the_traitor() -> None:
    st, traitor, hero = game()
    on_turn(st, hero)
    here = st.ex[hero].room
    st.ex[traitor].room = here
    before = st.ex[traitor].idx["might"] + st.ex[traitor].idx["speed"]
    _, reqs = rolled(st._attack_unseen(hero, Action.of("attack-unseen", room=here, trait="might")), [2, 0])
    assert sum(1 for r in reqs if r.actor == "chance") == 2  # both fighters roll
    assert concealment.candidates(st, traitor) == [here]
    assert st.ex[traitor].idx["might"] + st.ex[traitor].idx["speed"] < before


def test_the_traitors_unarmed_attack_is_a_sneak_attack_without_defence() -> None:
    st, traitor, hero = game(4)
    on_turn(st, traitor)
    st.ex[traitor].room = st.ex[hero].room
    st.ex[traitor].cards = [c for c in st.ex[traitor].cards if c not in st.weapons]
    st.ex[hero].cards = []
    st.ex[hero].idx["might"] = st.ex[hero].idx["speed"] = 6  # the hero survives 3 damage
    _, reqs = rolled(st._attack(traitor, Action.of("attack", target=hero, trait="might")), [[2, 1]])
    assert not st.ex[hero].dead
    rolls = [r for r in reqs if r.actor == "chance"]
    assert len(rolls) == 1 and len(next(iter(rolls[0].choices))["faces"]) == 2  # ceil(3 heroes / 2) dice
    splits = [r for r in reqs if r.actor == hero and isinstance(r.choices, ActionList) and r.choices[0].kind == "damage"]
    assert splits and all(sum(int(str(v)) for _, v in a.args) == 3 for a in splits[0].choices)  # 3 physical, undefended
    assert "struck-unseen" in st.hstatus.get(hero, [])
    assert concealment.candidates(st, traitor) == [st.ex[hero].room]


def test_an_attack_with_a_weapon_is_a_normal_fight() -> None:
    st, traitor, hero = game(4)
    on_turn(st, traitor)
    st.ex[traitor].room = st.ex[hero].room
    st.ex[traitor].cards.append("axe")
    _, reqs = rolled(st._attack(traitor, Action.of("attack", target=hero, trait="might", weapon="axe")), [0, 0])
    assert sum(1 for r in reqs if r.actor == "chance") == 2  # the hero defends


def test_the_ring_no_longer_gives_the_traitor_a_sanity_attack() -> None:
    st, traitor, hero = game()
    st.ex[traitor].cards.append("ring") if "ring" not in st.ex[traitor].cards else None
    assert st._attack_traits(traitor) == ["might"]
    st.ex[hero].cards.append("ring")  # the power is lost to the traitor's side only
    assert "sanity" in st._attack_traits(hero)


def steal(st: HauntState, traitor: str, hero: str, faces: int) -> None:
    on_turn(st, traitor)
    st.ex[traitor].room = st.ex[hero].room
    st.ex[hero].cards.append("axe")
    rolled(st._task(traitor, Action.of("task", id="steal-item", target=hero)), [faces], pick("steal", card="axe"))


def test_a_steal_of_4_or_more_takes_the_item_and_the_victim_knows() -> None:
    st, traitor, hero = game()
    steal(st, traitor, hero, 1)  # every die shows 1: Speed 4 rolls 4
    assert "axe" in st.ex[traitor].cards and "axe" not in st.ex[hero].cards
    assert concealment.candidates(st, traitor) == [st.ex[hero].room]
    assert st.turn.stopped


def test_a_failed_steal_says_nothing_unless_the_dice_show_0() -> None:
    st, traitor, hero = game()
    st.ex[traitor].idx["speed"] = max(st.ex[traitor].idx["speed"], 1)
    steal(st, traitor, hero, 0)
    assert concealment.candidates(st, traitor) == [st.ex[hero].room]
    st, traitor, hero = game()
    everywhere = concealment.candidates(st, traitor)
    rolled(st._task(traitor, Action.of("task", id="steal-item", target=hero)), [[1, 0, 0, 0, 0, 0, 0, 0]])
    assert concealment.candidates(st, traitor) == everywhere and "axe" not in st.ex[traitor].cards


def test_what_the_heroes_learn_narrows_the_candidates() -> None:
    st, traitor, _ = game()
    room = st.ex[traitor].room
    floor, symbol = st.house.floor_of(room), st.t.rooms[room].symbol
    concealment.learn(st, traitor, "floor", "the Skull")
    assert {st.house.floor_of(r) for r in concealment.candidates(st, traitor)} == {floor}
    concealment.learn(st, traitor, "symbol", "the Spirit Board")
    assert {st.t.rooms[r].symbol for r in concealment.candidates(st, traitor)} == {symbol}
    assert room in concealment.candidates(st, traitor)
    concealment.learn(st, traitor, "room", "a new room")
    assert concealment.candidates(st, traitor) == [room]


def test_the_traitors_turn_end_spreads_the_candidates_by_its_speed() -> None:
    st, traitor, _ = game()
    room = st.ex[traitor].room
    concealment.learn(st, traitor, "room", "seen")
    concealment.spread(st, traitor)
    dist = st._dist_to([room])
    assert concealment.candidates(st, traitor) == sorted(r for r in st.house.spots if dist.get(r, 99) <= st.speed(traitor))


def test_following_the_traitor_by_its_exit() -> None:
    st, traitor, hero = game()
    start = st.ex[hero].room
    st.ex[traitor].room = start
    concealment.learn(st, traitor, "room", "struck")
    way = sorted(st._graph()[start])[0]
    concealment.moved(st, traitor, start, way)
    st.ex[traitor].room = way
    concealment.spread(st, traitor)  # the traitor's turn ends before the hero rolls to follow it
    assert start in concealment.candidates(st, traitor)
    st._events.clear()
    concealment.learn(st, traitor, "exit", "Fighting Blind 3-4")
    rooms = concealment.candidates(st, traitor)
    assert way in rooms and start not in rooms
    assert any(f"it left {st.room_name(start)} for {st.room_name(way)}" in str(e) for e in st._events)


def test_fighting_blind_at_the_end_of_the_traitors_turn() -> None:
    st, traitor, hero = game()
    st.hstatus.setdefault(hero, []).append("struck-unseen")
    room = st.ex[traitor].room
    rolled(st._turn_rules(traitor, "end-of-turn"), [2])  # every die 2: Knowledge 5+ finds the room
    assert concealment.candidates(st, traitor) == [room]
    assert "struck-unseen" not in st.hstatus.get(hero, [])


def test_a_hero_policy_never_reads_the_traitors_hidden_room() -> None:
    """At every hero decision of a whole policy game, the hero's action is the same wherever the
    traitor truly is (every room of the house tried), and no action offered names the traitor."""
    players = 4
    seed = haunt_seed(players, HAUNT)
    st = new_game(game_spec("betrayal"), players, {"haunt": HAUNT})
    table = seeded_table(seed, PolicyController(policy, seed))
    checked = 0
    while (actor := st.to_move()) is not None:
        legal = st.legal_actions()
        traitor = st.traitor()
        if st.hs is not None and traitor in st.concealed and st.in_play(traitor) and st.side.get(actor) == HERO \
                and isinstance(legal, ActionList) and len(legal) > 1:
            assert not any(traitor in {str(v) for _, v in a.args} for a in legal)
            true_room = st.ex[traitor].room
            chosen = {policy(st, legal, Rng(7))}
            for room in sorted(st.house.spots):
                st.ex[traitor].room = room
                chosen.add(policy(st, legal, Rng(7)))
            st.ex[traitor].room = true_room
            assert len(chosen) == 1, (actor, len(st.history), chosen)
            checked += 1
        st.apply(table.for_actor(actor).choose(st, actor, legal))
    assert checked >= 10, checked
    assert st.outcome() is not None


def test_the_revolver_fires_into_a_room_in_sight_and_hits_the_traitor_there() -> None:
    st, traitor, hero = game()
    here = next(r for r in sorted(st.house.spots) if st.line_of_sight(r))
    there = sorted(st.line_of_sight(here))[0]
    st.ex[hero].room = here
    st.ex[hero].cards.append("revolver")
    on_turn(st, hero)
    st.ex[traitor].room = there
    offered = st._attack_actions(hero)
    shot = Action.of("attack-unseen", room=there, trait="speed", weapon="revolver")
    assert shot in offered
    st.ex[traitor].room = here  # the offer is the same wherever the traitor is
    assert st._attack_actions(hero) == offered
    st.ex[traitor].room = there
    _, reqs = rolled(st._attack_unseen(hero, shot), [2, 0])
    assert concealment.candidates(st, traitor) == [there]
    assert sum(1 for r in reqs if r.actor == "chance") == 2  # an ordinary distance attack: the traitor defends


def test_the_traitor_writes_down_any_room_but_one_no_turn_may_end_in() -> None:
    st, traitor, _ = game(5)
    assert "coal-chute" in st.house.spots  # this game has one
    st.ex[traitor].room = "entrance-hall"
    _, reqs = drive(st._conceal([traitor]))
    offered = {str(a["room"]) for a in reqs[0].choices}
    assert offered == set(st.house.spots) - st.no_end_rooms
    assert st.ex[traitor].room == min(offered)  # the first room offered (drive answers with it), no movement
