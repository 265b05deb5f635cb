"""Haunt 20, Ghost Bride: the Bride's stats by player count, the choice of groom (the Ring's man,
else the oldest man), her wins draining his Might by bands, his death raising the groom's ghost,
the wedding clock standing still until the couple meets in the Chapel, the heavy Corpse, the
monsters' goals (the Chapel only once the groom is dead), the wins, and a policy game."""

from __future__ import annotations

from betrayal_support import drive, on_hero_turn, played_out

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState
from hauntcheck.engine.betrayal.hooks.h20_ghost_bride import GROOM, choose_groom, groom_loses_might
from hauntcheck.engine.betrayal.policy.monsters import monster_goal


def game(players: int = 4) -> tuple[HauntState, str, str]:
    return on_hero_turn(players, 20)


def test_the_brides_stats_follow_the_player_count() -> None:
    for players, speed, sanity in ((3, 4, 6), (6, 5, 7)):
        st, _, _ = game(players)
        m = next(m for m in st.mon if m.kind == "ghost-bride")
        assert (st.mstat(m, "speed"), st.mstat(m, "sanity")) == (speed, sanity)


def _regroom(st: HauntState) -> str:
    for s in st.heroes():
        if GROOM in st.hstatus.get(s, []):
            st.hstatus[s].remove(GROOM)
    drive(choose_groom(st))
    return next(s for s in st.heroes() if GROOM in st.hstatus.get(s, []))


def test_the_groom_is_the_rings_man_else_the_oldest_man_else_the_oldest_hero() -> None:
    st, _, _ = game(6)
    heroes = st.living_heroes()
    for s in heroes:
        if "ring" in st.ex[s].cards:
            st.ex[s].cards.remove("ring")
    assert heroes
    men = [s for s in heroes if st.t.explorers[st.ex[s].id].sex == "male"]
    women = [s for s in heroes if st.t.explorers[st.ex[s].id].sex == "female"]
    ages = {s: st.t.explorers[st.ex[s].id].age for s in heroes}
    if men:
        oldest = max(men, key=lambda s: (ages[s], -st.seat_ids.index(s)))
        assert _regroom(st) == oldest
        youngest = min(men, key=lambda s: ages[s])
        st.ex[youngest].cards.append("ring")
        assert _regroom(st) == youngest  # the Ring's holder, being a man
        st.ex[youngest].cards.remove("ring")
    if women:
        st.ex[women[0]].cards.append("ring")
        assert _regroom(st) != women[0] or not men  # a woman holding the Ring is not chosen


def test_her_win_over_the_groom_costs_might_by_bands() -> None:
    st, hero, _ = game(4)
    might = st.t.explorers[st.ex[hero].id].traits["might"]
    for margin, loss in ((1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (9, 3)):
        st.ex[hero].idx["might"] = len(might.values) - 1
        st.fight_margin = margin
        drive(groom_loses_might(st, None, hero))
        assert st.ex[hero].idx["might"] == len(might.values) - 1 - loss, margin


def test_the_dead_groom_rises_as_the_traitors_ghost_and_the_bride_then_heads_for_the_chapel() -> None:
    st, _, _ = game(4)
    groom = next(s for s in st.heroes() if GROOM in st.hstatus.get(s, []))
    m = next(x for x in st.mon if x.kind == "ghost-bride")
    assert monster_goal(st, m)[2] == []  # before the groom dies she hunts
    st.ex[groom].dead = True
    drive(st._standing_rules())
    assert "groom-dead" in st.hflags
    ghost = next(x for x in st.mon if x.kind == "groom-ghost")
    assert ghost.room == st.ex[groom].room
    assert monster_goal(st, m)[2] == ["chapel"] and monster_goal(st, ghost)[2] == ["chapel"]


def test_the_wedding_clock_stands_still_until_the_couple_meets_and_wins_on_turn_three() -> None:
    st, _, _ = game(4)
    drive(st._advance_timers("end-of-traitor-turn"))
    assert st.track == 0  # no wedding yet
    st.hflags.update({"wedding-started", "groom-dead"})
    for _ in range(3):
        drive(st._advance_timers("end-of-traitor-turn"))
    assert st.track == 3 and st.hs is not None
    for m in st.mon:
        if m.kind == "ghost-bride":
            m.room = "chapel"
    st._add_monster(st.hs.monsters["groom-ghost"], "chapel")
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR


def test_the_corpse_makes_every_room_cost_two_spaces() -> None:
    st, hero, _ = game(4)
    assert st.carrying_cost(hero) == 1
    st.held.setdefault(hero, []).append("corpse")
    assert st.carrying_cost(hero) == 2  # the token's move_cost: each room entered costs two spaces


def test_presenting_the_ring_and_corpse_in_the_chapel_wins_for_the_heroes() -> None:
    st, hero, _ = game(4)
    assert "chapel" in st.house.spots  # the traitor's setup brings it in
    st.ex[hero].room = "chapel"
    for s in st.seat_ids:
        if "ring" in st.ex[s].cards:
            st.ex[s].cards.remove("ring")
    st.ex[hero].cards.append("ring")
    st.held.setdefault(hero, []).append("corpse")
    action = next(t for t in st.tasks_for(hero) if t["id"] == "present-ring-and-corpse")
    assert st.pred(action["requires"], hero)
    st.hflags.add("bride-at-rest")
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_a_policy_game_plays_to_a_result_with_the_invariants_holding() -> None:
    st = played_out(4, 20)
    assert st.result is not None and st.result.result in (HERO, TRAITOR)
