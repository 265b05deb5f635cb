"""Haunt 49, You Wear It Well: the heroes play on as Souls (through walls, no exploring or items,
physical damage taken as mental, only mental fights), their bodies stay where they stood, the
Spirit beaten is neither stunned nor hurt while each win earns the heroes a token, the traitor's
undefended attack on a body, and the Spirit's ritual against a soulless body's starting Sanity."""

from __future__ import annotations

from betrayal_support import drive, played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState, Monster
from hauntcheck.engine.betrayal.hooks.h49_you_wear_it_well import bodies, ritual_tokens, starting_sanity
from hauntcheck.engine.core import Action

SPIRIT = "astral-spirit"


def spirit(st: HauntState) -> Monster:
    return next(m for m in st.mon if m.kind == SPIRIT)


def game(players: int = 4) -> tuple[HauntState, str, Monster]:
    """Just after the setup, one hero on its turn."""
    st = start_haunt(players, 49)
    hero = st.living_heroes()[0]
    st.current = hero
    st.turn.keys.clear()
    return st, hero, spirit(st)


def test_setup_makes_souls_leaves_bodies_and_places_the_spirit_with_the_traitor() -> None:
    for players in (3, 6):
        st = start_haunt(players, 49)
        traitor = st.traitor()
        assert traitor is not None
        assert spirit(st).room == st.ex[traitor].room
        heroes = st.living_heroes()
        assert all("soul" in st.hstatus.get(h, []) for h in heroes) and "soul" not in st.hstatus.get(traitor, [])
        assert sorted(bodies(st)) == sorted(heroes)
        assert sorted(st.htokens["unconscious-body"]) == sorted(bodies(st).values())
        assert st.pool["ritual-roll"] == players
        assert st.pool["sanity-roll"] + st.pool["knowledge-roll"] == 2 * players


def test_a_soul_moves_through_walls_but_explores_nothing() -> None:
    st, hero, _ = game()
    graph = st._graph()
    room = next(r for r in sorted(graph) if set(st.house.neighbours(r)) - graph[r] and not st.t.rooms[r].barrier)
    st.ex[hero].room, st.ex[hero].part = room, 0
    st.turn.moved = 0
    walls = set(st.house.neighbours(room)) - {x for x, _, _ in st.exits(hero)}
    moves = {str(a["to"]) for a in st._turn_actions(hero) if a.kind == "move"}
    assert walls and walls <= moves
    assert not any(a.kind == "explore" for a in st._turn_actions(hero))
    traitor = st.traitor()
    assert traitor is not None
    st.ex[traitor].room, st.ex[traitor].part = room, 0
    st.current = traitor
    assert not walls & {str(a["to"]) for a in st._turn_actions(traitor) if a.kind == "move"}


def test_a_soul_takes_physical_damage_as_mental() -> None:
    st, hero, _ = game()
    e = st.ex[hero]
    physical, mental = e.idx["might"] + e.idx["speed"], e.idx["sanity"] + e.idx["knowledge"]
    drive(effects.take_damage(st, hero, "physical", 2))
    assert e.idx["might"] + e.idx["speed"] == physical
    assert e.idx["sanity"] + e.idx["knowledge"] == mental - 2


def test_souls_fight_only_with_the_mind_and_no_distance_weapon_reaches_the_spirit() -> None:
    st, hero, m = game()
    st.ex[hero].room = m.room
    attacks = [a for a in st._turn_actions(hero) if a.kind == "attack" and a["target"] == m.uid]
    assert attacks and {str(a["trait"]) for a in attacks} <= {"sanity", "knowledge"}
    st.ex[hero].cards.append("revolver")
    st.ex[hero].room = next(r for r in sorted(st.line_of_sight(m.room)) if r != m.room)
    assert not [a for a in st._turn_actions(hero) if a.kind == "attack" and a["target"] == m.uid]


def test_the_spirit_beaten_is_not_stunned_and_each_win_earns_the_trait_used() -> None:
    st, hero, m = game(3)
    st.ex[hero].room = m.room
    drive(st._resolve_fight(hero, m.uid, "sanity", 9, 1))
    assert not m.stunned and not m.gone and st.earned.get("sanity-roll") == 1
    drive(st._resolve_fight(hero, m.uid, "knowledge", 9, 1))
    assert st.earned.get("knowledge-roll") == 1 and not st._check_wins()
    e = st.ex[hero]
    mental = e.idx["sanity"] + e.idx["knowledge"]
    drive(st._resolve_fight(hero, m.uid, "sanity", 1, 9))  # a lost attack on the Spirit costs nothing
    assert e.idx["sanity"] + e.idx["knowledge"] == mental and st.earned.get("sanity-roll") == 1
    drive(st._resolve_fight(hero, m.uid, "sanity", 9, 1))
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_traitor_attacks_a_body_undefended_and_that_body_cannot_be_worn() -> None:
    st, hero, m = game()
    traitor = st.traitor()
    assert traitor is not None
    attack = Action.of("task", id="attack-body")
    st.current = traitor
    st.ex[traitor].room = next(r for r in st.house.spots if r not in bodies(st).values())
    assert attack not in st._turn_actions(traitor)
    st.ex[traitor].room = bodies(st)[hero]
    assert attack in st._turn_actions(traitor)
    e = st.ex[hero]
    e.idx["sanity"] = e.idx["knowledge"] = 0
    _, reqs = rolled(st._task(traitor, attack), [[1, 1]], answer=lambda req: next(
        (a for a in req.choices if a.get("hero") == hero), next(iter(req.choices))))
    assert sum(1 for r in reqs if any(a.kind == "roll" for a in r.choices)) == 1  # the 2 dice; no defence roll
    assert e.dead
    m.room = bodies(st)[hero]
    assert not any(a.kind == "monster-ability" for r in drive(st._monster_abilities(m))[1] for a in r.choices)


def test_the_ritual_must_beat_the_starting_sanity_and_wears_the_body_at_the_player_count() -> None:
    st, hero, m = game(3)
    st.ex[hero].dead = True
    m.room = bodies(st)[hero]
    need = starting_sanity(st, hero)
    low = [0] * 6
    low[0] = min(2, need)  # a total not above the starting Sanity: nothing
    rolled(st._monster_abilities(m), [low], answer=lambda req: next(a for a in req.choices if a.kind == "monster-ability"))
    assert ritual_tokens(st, hero) == 0
    for k in range(3):
        rolled(st._monster_abilities(m), [[2] * 6],
               answer=lambda req: next(a for a in req.choices if a.kind == "monster-ability"))
        assert ritual_tokens(st, hero) == k + 1
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR


def test_policy_games_keep_the_haunt_invariants_and_end() -> None:
    for players in (3, 5):
        st = played_out(players, 49)
        assert st.result is not None and st.result.result in (HERO, TRAITOR)


def test_the_traitors_policy_takes_the_spirit_to_a_soulless_body_and_starts_the_ritual() -> None:
    from hauntcheck.engine.betrayal.policy.monsters import _monster_ability, _monster_targets

    st, hero, m = game()
    assert set(_monster_targets(st, m)) == {st.ex[s].room for s in st.living_heroes()}  # no soulless body yet: it hunts
    st.ex[hero].dead = True
    assert _monster_targets(st, m) == [bodies(st)[hero]]
    m.room = bodies(st)[hero]
    offered = [Action.of("monster-ability", monster=m.uid, id="possession-ritual"), Action.of("monster-pass", monster=m.uid)]
    assert _monster_ability(st, offered).kind == "monster-ability"
