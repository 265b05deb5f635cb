"""Haunt 21, House of the Living Dead: the Zombie Lord in the traitor's place, Zombies in order and
a second wave, Might weapons that kill, the Medallion that alone hurts the Lord, the Holy Symbol's
ward, the dead rising as Zombies run by their players, and the heroes' three-card item draws."""

from __future__ import annotations

from betrayal_support import drive, played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState, Monster
from hauntcheck.engine.core import Action
from hauntcheck.engine.games import game_spec

ZOMBIE_ROOMS = ("crypt", "graveyard", "entrance-hall", "underground-lake", "gardens", "chapel", "conservatory",
                "pentagram-chamber")


def started(players: int) -> HauntState:
    return start_haunt(players, 21)


def lord(st: HauntState) -> Monster:
    return next(m for m in st.mon if m.kind == "zombie-lord")


def zombies(st: HauntState) -> list[Monster]:
    return [m for m in st.mon if m.kind == "zombie" and not m.gone]


def test_the_lord_replaces_the_traitor_and_zombies_fill_the_rooms_in_order_then_double_up() -> None:
    for players in (3, 5):
        st = started(players)
        traitor = st.traitor()
        assert traitor is not None and not st.in_play(traitor)
        assert lord(st).room == st.ex[traitor].room and st.track == 0
        listed = [r for r in ZOMBIE_ROOMS if r in st.house.spots]
        first = [m.room for m in st.mon if m.kind == "zombie"][:players]
        assert first == [listed[i % len(listed)] for i in range(players)]  # in order, round again
        occupied = set(first)
        assert len([m for m in st.mon if m.kind == "zombie"]) == players + len(occupied)


def test_a_might_weapon_kills_a_zombie_and_a_bare_win_only_stuns_it() -> None:
    st = started(4)
    h = st.current
    z1, z2 = zombies(st)[:2]
    z1.room = z2.room = st.ex[h].room
    st.turn.keys.add("attack-weapon:axe")  # this turn's attack is made with the Axe
    drive(st._resolve_fight(h, z1.uid, "might", 8, 2))
    st.turn.keys.discard("attack-weapon:axe")
    assert z1.gone == "killed"
    drive(st._resolve_fight(h, z2.uid, "might", 8, 2))
    assert z2.stunned and not z2.gone


def test_only_the_medallion_holder_can_hurt_the_lord_and_damage_kills_at_seven() -> None:
    st = started(4)
    h = st.current
    zl = lord(st)
    zl.room = st.ex[h].room
    for s in st.seat_ids:
        if "medallion" in st.ex[s].cards:
            st.ex[s].cards.remove("medallion")
    assert not st._may_attack(h, zl.uid)
    before = dict(zl.stats)
    drive(st._resolve_fight(zl.uid, h, "might", 1, 6))  # a hero without the Medallion beats it: nothing
    assert st.track == 0 and not zl.stunned
    st.ex[h].cards.append("medallion")
    assert st._may_attack(h, zl.uid)
    drive(st._resolve_fight(h, zl.uid, "might", 6, 1))
    assert st.track == 5 and not zl.stunned and zl.stats == before and not zl.gone
    drive(st._resolve_fight(h, zl.uid, "might", 3, 1))
    assert zl.gone == "killed" and st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_holy_symbol_takes_two_dice_from_a_zombie_but_not_from_the_lord() -> None:
    st = started(4)
    h = st.current
    z = zombies(st)[0]
    st.ex[h].cards.append("holy-symbol")
    assert st._dice_bonus(st.fight_rules(z.uid, h)) == (-2, 0)
    assert st._dice_bonus(st.fight_rules(lord(st).uid, h)) == (0, 0)


def test_a_dead_hero_rises_as_a_zombie_run_by_its_player_and_shares_the_traitor_win() -> None:
    st = started(3)
    h, other = st.living_heroes()
    z = zombies(st)[0]
    room = st.ex[h].room
    before = len(st.mon)
    drive(st._outcome({"kill": True}, h, None))
    risen = st.mon[-1]
    assert len(st.mon) == before + 1 and risen.kind == "zombie" and risen.room == room and risen.counterpart == h
    assert st.side[h] == TRAITOR and st.monster_controller(risen) == h and st.monster_controller(z) == st.traitor()
    st.ex[other].room = risen.room
    st.ex[other].idx["might"] = 0
    drive(st._resolve_fight(risen.uid, other, "might", 8, 0))  # the risen Zombie kills the last hero
    assert st.ex[other].dead and h in st.hero_killers
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR
    assert set(st.result.winners) == {str(st.traitor()), h}


def test_killing_every_zombie_risen_ones_too_wins_for_the_heroes() -> None:
    st = started(3)
    h = st.living_heroes()[0]
    drive(st._outcome({"kill": True}, h, None))
    for z in zombies(st)[:-1]:
        z.gone = "killed"
    assert not st._check_wins()  # the risen Zombie still walks
    zombies(st)[0].gone = "killed"
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_a_hero_drawing_an_item_looks_at_three_and_keeps_one() -> None:
    st = started(4)
    h = st.current
    assert st.side[h] == HERO
    before = list(st.ex[h].cards)
    card, seen = rolled(st.draw_card(h, "item"))
    offered = next(r for r in seen if r.actor == h)
    assert {a.kind for a in offered.choices} == {"keep-card"} and len(list(offered.choices)) == 3
    kept = next(iter(offered.choices))["card"]
    assert card == kept and st.ex[h].cards[: len(before)] == before and kept in st.ex[h].cards
    assert Action.of("keep-card", card=str(kept)) in list(offered.choices)


def test_a_policy_game_keeps_the_invariants_and_the_haunt_plays_without_hooks() -> None:
    assert played_out(4, 21).outcome() is not None
    report = hauntmod.support(game_spec("betrayal"))
    assert report[21]["playable"] and report[21]["hooks"] == [] and not report[21]["blockers"]
