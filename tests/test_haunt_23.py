"""Haunt 23, Tentacled Horror: Tentacles (Arm and Sucker) that grab, drag and eat heroes and grow
with the track; the Crystal Ball's gaze that places the Head; the Head's three Might Roll tokens."""

from __future__ import annotations

from betrayal_support import drive, played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState, Monster, grabs
from hauntcheck.engine.core import Action
from hauntcheck.engine.games import game_spec

TENTACLE_ROOMS = ("furnace-room", "conservatory", "organ-room", "underground-lake", "gardens", "chasm")


def started(players: int) -> HauntState:
    return start_haunt(players, 23)


def tentacle(st: HauntState, number: int = 1) -> tuple[Monster, Monster]:
    return st.monster(f"arm-{number}"), st.monster(f"sucker-{number}")


def grabbed(st: HauntState) -> tuple[str, Monster, Monster]:
    """The current hero, grabbed by Sucker 1 in the Sucker's room."""
    arm, sucker = tentacle(st)
    h = st.current
    assert st.side[h] == HERO
    st.ex[h].room = sucker.room
    drive(st._resolve_fight(sucker.uid, h, "might", 6, 2))
    return h, arm, sucker


def test_the_traitor_is_dead_and_one_tentacle_per_player_waits_in_tentacle_rooms() -> None:
    for players in (3, 6):
        st = started(players)
        traitor = st.traitor()
        assert traitor is not None and not st.in_play(traitor)
        arms = [m for m in st.mon if m.kind == "arm"]
        suckers = [m for m in st.mon if m.kind == "sucker"]
        assert len(arms) == len(suckers) == players
        assert all(m.room in TENTACLE_ROOMS for m in arms) and len({m.room for m in arms}) == players
        assert [s.room for s in suckers] == [a.room for a in arms]
        assert sum(1 for r in TENTACLE_ROOMS if r in st.house.spots) >= players  # fetched from the stack
        assert not any(m.kind == "head" for m in st.mon) and st.pool["might-roll"] == 3


def test_the_suckers_grow_with_the_track_and_the_arms_never_fight_nor_slow() -> None:
    st = started(4)
    arm, sucker = tentacle(st)
    seen = {}
    for track in (1, 2, 3, 5, 7, 8, 12):
        st.track = track
        seen[track] = (st.mstat(sucker, "speed"), st.mstat(sucker, "might"), st.mstat(sucker, "sanity"))
    assert seen == {1: (2, 4, 7), 2: (2, 4, 7), 3: (3, 5, 7), 5: (3, 7, 7), 7: (3, 7, 7), 8: (4, 8, 8), 12: (4, 8, 8)}
    h = st.current
    st.ex[h].room = arm.room
    sucker.room = "foyer" if arm.room != "foyer" else "entrance-hall"
    assert not st._may_attack(h, arm.uid) and st._slowing(h) == 0


def test_a_sucker_that_wins_grabs_the_hero_who_drops_everything_and_takes_no_damage() -> None:
    st = started(4)
    h = st.current
    st.ex[h].cards.append("bottle")
    before = dict(st.ex[h].idx)
    items = [c for c in st.ex[h].cards if st.t.cards[c].item]
    h2, _arm, sucker = grabbed(st)
    assert h2 == h and st.hstatus[h] == ["grabbed"] and st.grips[sucker.uid] == (h, "grabbed")
    assert st.ex[h].idx == before and all(c in st.piles[sucker.room] for c in items)
    assert st._move_actions(h) == []
    other = st.monster("sucker-2")
    other.room = sucker.room
    assert any(r.get("forbidden") for r in st.fight_rules(other.uid, h))  # other Suckers leave a held hero alone
    assert st._may_attack(h, sucker.uid) and not st._may_attack(h, other.uid)


def test_a_beaten_sucker_retreats_to_its_arm_and_a_freed_hero_pays_two_spaces_a_room() -> None:
    st = started(4)
    h, arm, sucker = grabbed(st)
    before = dict(st.ex[h].idx)
    st.turn.end_now = False
    drive(st._resolve_fight(h, sucker.uid, "might", 2, 6))  # a loss: no damage, the turn is over
    assert st.ex[h].idx == before and st.hstatus[h] == ["grabbed"] and st.turn.end_now
    st.turn.end_now = False
    drive(st._resolve_fight(h, sucker.uid, "might", 6, 2))
    assert sucker.stunned and sucker.room == arm.room and st.hstatus[h] == [] and not st.grips
    assert st._room_cost_extra(h) == 1
    # a Sucker that attacks and loses also goes home, stunned
    other_arm, other = tentacle(st, 2)
    other.room = st.ex[h].room
    drive(st._resolve_fight(other.uid, h, "might", 1, 5))
    assert other.stunned and other.room == other_arm.room and st.ex[h].idx == before


def test_a_holding_sucker_drags_its_hero_home_and_eats_it_at_the_next_monster_turn() -> None:
    st = started(4)
    arm, sucker = tentacle(st)
    h = st.current
    start = next(r for r in sorted(st.house.spots) if grabs.monster_dist(st, arm.room).get(r) == 3)
    sucker.room = st.ex[h].room = start
    drive(st._resolve_fight(sucker.uid, h, "might", 6, 2))
    spent, _ = drive(grabs.drag(st, sucker))
    assert spent and grabs.monster_dist(st, arm.room)[sucker.room] == 1 and st.ex[h].room == sucker.room
    drive(grabs.drag(st, sucker))
    assert sucker.room == arm.room == st.ex[h].room and not st.ex[h].dead
    drive(grabs.devour(st, sucker))  # the start of the next monster turn
    assert st.ex[h].dead and arm.gone == sucker.gone == "removed" and not st.grips


def test_the_crystal_ball_gaze_places_the_head_fetching_its_room_and_shatters() -> None:
    st = started(4)
    h = st.current
    if "crystal-ball" not in st.ex[h].cards:
        holder = next(s for s in st.seat_ids if "crystal-ball" in st.ex[s].cards)
        st.ex[holder].cards.remove("crystal-ball")
        st.ex[h].cards.append("crystal-ball")
    st.ex[h].idx["knowledge"] = st.ex[h].idx["sanity"] = 5  # 2+ Knowledge dice; Sanity to spare
    assert st.value(h, "knowledge") >= 2
    st.turn.keys.clear()
    assert Action.of("task", id="find-head") in st._task_actions(h)
    sanity = st.ex[h].idx["sanity"]
    rolled(st._task(h, Action.of("task", id="find-head")), [0])  # a 0: the card's worst failure, 2 Sanity
    assert st.ex[h].idx["sanity"] == sanity - 2 and "head-found" not in st.hflags
    st.turn.keys.clear()
    # every die 2: the gaze succeeds; 4 dice of 2 make 8, the Furnace Room
    rolled(st._task(h, Action.of("task", id="find-head")), [2, 2])
    head = next(m for m in st.mon if m.kind == "head")
    assert head.room == "furnace-room" and "furnace-room" in st.house.spots
    assert "crystal-ball" not in st.ex[h].cards and "crystal-ball" in st.destroyed and "head-found" in st.hflags
    st.turn.keys.clear()
    assert not any(a.get("id") == "find-head" for a in st._task_actions(h))


def test_three_blows_on_the_head_place_the_might_roll_tokens_and_destroy_it() -> None:
    st = started(4)
    h = st.current
    drive(st._outcome({"place": {"monster": "head", "in": {"haunt_room": True}}}, h, None))
    head = next(m for m in st.mon if m.kind == "head")
    st.ex[h].room = head.room
    before = dict(st.ex[h].idx)
    drive(st._resolve_fight(h, head.uid, "might", 6, 2))  # the hero attacks and wins
    assert not head.stunned and not head.gone and st.htokens["might-roll"] == [head.room] and st.pool["might-roll"] == 2
    drive(st._resolve_fight(head.uid, h, "might", 1, 5))  # the Head attacks and loses
    assert st.ex[h].idx == before and len(st.htokens["might-roll"]) == 2 and not st._check_wins()
    drive(st._resolve_fight(head.uid, h, "might", 2, 1))  # the Head's win hurts as usual
    assert st.ex[h].idx != before
    drive(st._resolve_fight(h, head.uid, "might", 6, 2))
    assert head.gone == "killed" and st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_traitor_wins_when_every_hero_is_dead() -> None:
    st = started(3)
    for seat in st.living_heroes():
        st.ex[seat].dead = True
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR


def test_a_policy_game_keeps_the_invariants_and_the_haunt_plays_without_hooks() -> None:
    assert played_out(4, 23).outcome() is not None
    report = hauntmod.support(game_spec("betrayal"))
    assert report[23]["playable"] and report[23]["hooks"] == [] and not report[23]["blockers"]
