"""Haunt 25, Voodoo: a different doll secretly linked to each hero and hidden in one of its two
rooms (a discovered room over one not found yet), the traitor's clock and the dolls' effects on
their heroes, the heroes' search for their own dolls, and the wins."""

from __future__ import annotations

from betrayal_support import played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState
from hauntcheck.engine.core import Action

DOLLS = {"wax": ("furnace-room", "kitchen"), "china": ("balcony", "tower"), "stone": ("underground-lake", "graveyard"),
         "glass": ("pentagram-chamber", "chapel"), "rag": ("gardens", "conservatory")}


def game(players: int = 4) -> tuple[HauntState, str, str]:
    """Just after the setup: a hero on its turn and the traitor."""
    st = start_haunt(players, 25)
    hero = st.living_heroes()[0]
    traitor = st.traitor()
    assert traitor is not None
    st.current = hero
    st.turn.keys.clear()
    return st, hero, traitor


def links(st: HauntState, seat: str) -> list[str]:
    return [s for s in st.hstatus.get(seat, []) if s.endswith("-linked")]


def relink(st: HauntState, seat: str, doll: str) -> None:
    """Give ``seat`` the doll ``doll`` alone (a test's own arrangement)."""
    st.hstatus[seat] = [s for s in st.hstatus.get(seat, []) if not s.endswith("-linked")] + [f"{doll}-linked"]


def test_each_hero_gets_a_different_doll_placed_in_one_of_its_two_rooms() -> None:
    for players in (3, 6):
        st, _, traitor = game(players)
        linked = [links(st, h) for h in st.heroes()]
        assert all(len(x) == 1 for x in linked)
        kinds = [x[0].removesuffix("-linked") for x in linked]
        assert len(set(kinds)) == len(kinds) == players - 1
        assert links(st, traitor) == []
        for doll, rooms in DOLLS.items():
            token = f"{doll}-doll"
            spots = st.htokens.get(token, []) + [r for t, r in st.waiting_tokens if t == token]
            if doll in kinds:
                assert len(spots) == 1 and spots[0] in rooms
                if spots[0] not in st.house.spots:  # a room not found yet only if neither is in the house
                    assert not any(r in st.house.spots for r in rooms)
            else:
                assert spots == []  # no doll for a doll nobody is linked to


def test_a_discovered_room_must_be_chosen_over_one_not_found_yet() -> None:
    st, _, _ = game(3)
    found = sorted(st.house.spots)[0]
    missing = next(r for r in ("tower", "chapel", "gardens", "balcony") if r not in st.house.spots)
    _, reqs = rolled(st._place_in_one_of("wax-doll", {"rooms": [missing, found], "one_of": True, "chosen_by": "traitor"}))
    assert reqs == [] and found in st.htokens["wax-doll"]  # no choice was offered
    _, reqs = rolled(st._place_in_one_of("rag-doll", {"rooms": [missing], "one_of": True, "on_discovery": True}))
    assert ("rag-doll", missing) in st.waiting_tokens
    st.note_new_room(missing)
    assert missing in st.htokens["rag-doll"]


def test_the_clock_burns_the_wax_hero_and_the_china_doll_can_kill() -> None:
    st, _, traitor = game(4)
    wax, china, glass = st.living_heroes()[:3]
    relink(st, wax, "wax")
    relink(st, china, "china")
    relink(st, glass, "glass")
    before_wax = dict(st.ex[wax].idx)
    before_glass = dict(st.ex[glass].idx)
    st.track = 2
    rolled(st._advance_timers("end-of-traitor-turn"), [0])  # the China Doll's 4 dice show 0 < 3
    assert st.track == 3
    assert st.ex[china].dead
    assert sum(before_wax[t] - st.ex[wax].idx[t] for t in ("might", "speed")) == 1
    assert sum(before_glass[t] - st.ex[glass].idx[t] for t in ("sanity", "knowledge")) == 1
    assert not st.ex[traitor].dead


def test_the_stone_doll_costs_a_point_of_every_trait_only_below_the_turn_number() -> None:
    st, _, _ = game(3)
    hero = st.living_heroes()[0]
    other = st.living_heroes()[1]
    relink(st, hero, "stone")
    relink(st, other, "rag")
    st.ex[hero].idx = {t: max(2, v) for t, v in st.ex[hero].idx.items()}
    before = dict(st.ex[hero].idx)
    st.track = 0
    rolled(st._advance_timers("end-of-traitor-turn"), [1])  # track 1: any Might roll of 1+ is safe
    assert st.ex[hero].idx == before
    before = dict(st.ex[hero].idx)
    st.track = 5
    rolled(st._advance_timers("end-of-traitor-turn"), [0])  # track 6: a roll of 0 fails
    assert all(st.ex[hero].idx[t] == before[t] - 1 for t in before)


def test_a_hero_finds_and_destroys_only_its_own_doll_searching_one_room_a_turn() -> None:
    st, hero, _ = game(4)
    relink(st, hero, "wax")
    st.htokens["wax-doll"] = ["kitchen"]
    st.waiting_tokens = [x for x in st.waiting_tokens if x[0] != "wax-doll"]
    st.ex[hero].room = "furnace-room"
    search = Action.of("task", id="search-wax")
    assert search in st._task_actions(hero)
    rolled(st._task(hero, search), [2])
    assert "wax-linked" in st.hstatus[hero] and st.htokens["wax-doll"] == ["kitchen"]  # not here
    assert search not in st._task_actions(hero)  # one search a turn
    st.turn.keys.clear()
    assert search not in st._task_actions(hero)  # a room searched in vain is not searched again
    st.ex[hero].room = "kitchen"
    other = st.living_heroes()[1]
    st.ex[other].room = "kitchen"
    relink(st, other, "china")
    assert Action.of("task", id="search-wax") not in st._task_actions(other)  # not its doll
    rolled(st._task(hero, search), [2])
    assert "wax-linked" not in st.hstatus[hero] and st.htokens["wax-doll"] == []


def test_the_wins_dolls_destroyed_with_half_alive_or_more_than_half_dead() -> None:
    st, _, _ = game(5)  # four heroes: the heroes need 2 alive, the traitor 3 dead
    heroes = st.heroes()
    for h in heroes:
        st.hstatus[h] = [s for s in st.hstatus.get(h, []) if not s.endswith("-linked")]
    st.ex[heroes[0]].dead = True
    st.ex[heroes[1]].dead = True
    assert st._check_wins() and st.result is not None and st.result.result == HERO
    st2, _, _ = game(5)
    heroes = st2.heroes()
    for h in heroes[:2]:
        st2.ex[h].dead = True
    assert not st2._check_wins()  # two of four dead is not more than half
    st2.ex[heroes[2]].dead = True
    assert st2._check_wins() and st2.result is not None and st2.result.result == TRAITOR


def test_a_policy_game_plays_to_a_result_with_the_invariants_holding() -> None:
    st = played_out(4, 25)
    assert st.result is not None and st.result.result in (HERO, TRAITOR)


def test_the_heroes_policy_does_not_read_where_the_dolls_are_hidden() -> None:
    """Hidden information: moving every doll to its other room (or to a room not found yet) does
    not change any hero decision of the policy in the heroes' first turns - until a search, the
    heroes know only the two rooms each hint names."""
    from hauntcheck.engine.betrayal.policy.decide import policy
    from hauntcheck.engine.core import CHANCE, Rng

    st, _, traitor = game(5)
    moved, _, _ = game(5)  # the same seeded game, then the dolls hidden elsewhere
    for doll, rooms in DOLLS.items():
        token = f"{doll}-doll"
        spots = moved.htokens.get(token, []) + [r for t, r in moved.waiting_tokens if t == token]
        if not spots:
            continue
        other = rooms[1] if spots[0] == rooms[0] else rooms[0]
        moved.htokens[token] = [other] if other in moved.house.spots else []
        moved.waiting_tokens = [x for x in moved.waiting_tokens if x[0] != token]
        if other not in moved.house.spots:
            moved.waiting_tokens.append((token, other))
    compared = 0
    for _ in range(60):
        actor = st.to_move()
        assert actor == moved.to_move()
        if actor is None or actor == traitor:
            break
        if actor == CHANCE:
            a = next(iter(st.legal_actions()))
            st.apply(a)
            moved.apply(a)
            continue
        a = policy(st, st.legal_actions(), Rng(7))
        b = policy(moved, moved.legal_actions(), Rng(7))
        assert a == b
        if a.kind == "task":
            break  # a search tells the searcher the truth
        compared += 1
        st.apply(a)
        moved.apply(b)
    assert compared > 5, compared
