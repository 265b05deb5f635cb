"""Haunt 28, Ring of King Solomon: the portal far from everyone with the Demon Lord and a Demon per
hero (at most 4), the Ring's +2 on Sanity attacks on the Lord, the two defeats that destroy it (a
failed Lord attack on the Ring's carrier counts), the Demons stealing the Ring and nothing else,
taking it back by 2 or more in physical combat, a Demon conquered by the Ring, and the wins."""

from __future__ import annotations

from betrayal_support import played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import HERO, HauntState
from hauntcheck.engine.betrayal.haunt.pieces import Monster


def game(players: int = 4) -> tuple[HauntState, str, str]:
    """Just after the setup: a hero holding the Ring, on its turn, and the traitor."""
    st = start_haunt(players, 28)
    traitor = st.traitor()
    assert traitor is not None
    holder = next((h for h in st.living_heroes() if "ring" in st.ex[h].cards), st.living_heroes()[0])
    if "ring" not in st.ex[holder].cards:
        for s in st.seat_ids:
            if "ring" in st.ex[s].cards:
                st.ex[s].cards.remove("ring")
        st.ex[holder].cards.append("ring")
    st.current = holder
    st.turn.keys.clear()
    return st, holder, traitor


def lord(st: HauntState) -> Monster:
    return next(m for m in st.mon if m.kind == "demon-lord")


def demons(st: HauntState) -> list[Monster]:
    return [m for m in st.mon if m.kind == "demon"]


def test_the_portal_holds_the_lord_and_a_demon_per_hero_at_most_four() -> None:
    for players, count in ((3, 2), (6, 4)):
        st, _, _ = game(players)
        room = lord(st).room
        assert len(demons(st)) == count and all(m.room == room for m in demons(st))
        dist = st._dist_to([st.ex[s].room for s in st.seat_ids if st.in_play(s)])
        event_rooms = [r for r in st.house.spots if st.t.rooms[r].symbol == "event"]
        far = [r for r in event_rooms if dist.get(r, 999) >= 4]
        assert room in (far or event_rooms)
        if not far:
            assert dist.get(room, 999) == max(dist.get(r, 999) for r in event_rooms)


def test_two_defeats_by_the_ring_carrier_destroy_the_lord_the_first_stuns() -> None:
    st, hero, _ = game()
    m = lord(st)
    m.room = st.ex[hero].room
    st.track = 0
    rolled(st._resolve_fight(hero, m.uid, "sanity", 5, 6))  # 5 + 2 for the Ring beats 6
    assert m.stunned and not m.gone and st.track == 1
    m.stunned = False
    rolled(st._resolve_fight(m.uid, hero, "might", 3, 4))  # the Lord attacks the carrier and loses
    assert m.gone == "killed"
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_ring_bonus_is_for_sanity_attacks_only_and_without_the_ring_a_win_only_stuns() -> None:
    st, hero, _ = game()
    m = lord(st)
    st.track = 0
    rolled(st._resolve_fight(hero, m.uid, "might", 5, 6))  # no +2 on a Might attack: the Lord wins
    assert not m.stunned and st.track == 0
    st.ex[hero].cards.remove("ring")
    rolled(st._resolve_fight(hero, m.uid, "sanity", 7, 6))
    assert m.stunned and st.track == 0 and not m.gone


def test_a_demon_steals_only_the_ring_and_a_physical_win_by_two_takes_it_back() -> None:
    st, hero, _ = game()
    demon = demons(st)[0]
    demon.room = st.ex[hero].room
    st.ex[hero].cards.append("axe")
    _, reqs = rolled(st._resolve_fight(demon.uid, hero, "might", 6, 2), answer=lambda req: next(
        (a for a in req.choices if a.kind == "steal"), next(iter(req.choices))))
    offered = [a for r in reqs for a in r.choices if a.kind == "steal"]
    assert [str(a["card"]) for a in offered] == ["ring"]
    assert "ring" in demon.cards and "ring" not in st.ex[hero].cards and "axe" in st.ex[hero].cards
    rolled(st._resolve_fight(hero, demon.uid, "might", 4, 3))  # by 1: the Demon keeps the Ring
    assert "ring" in demon.cards
    demon.stunned = False
    rolled(st._resolve_fight(hero, demon.uid, "might", 5, 3))
    assert "ring" in st.ex[hero].cards and demon.stunned


def test_a_ring_sanity_win_on_a_demon_takes_it_out_of_the_fight() -> None:
    st, hero, _ = game()
    demon = demons(st)[0]
    rolled(st._resolve_fight(hero, demon.uid, "sanity", 5, 2))
    assert demon.gone == "trapped"
    other = demons(st)[1]
    st.ex[hero].cards.remove("ring")
    rolled(st._resolve_fight(hero, other.uid, "sanity", 5, 2))
    assert other.stunned and not other.gone


def test_a_policy_game_plays_to_a_result_with_the_invariants_holding() -> None:
    st = played_out(4, 28)
    assert st.result is not None and st.result.result in (HERO, "traitor")
