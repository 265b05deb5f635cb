"""Haunt 30, Tomb of Dracula: the traitor a Vampire with Dracula and the Bride, Dracula asleep until
turn 2, Domination of the other sex (Speed damage, a Vampire at the Speed skull), the Spear's stake,
sunrise and the Vampires burning, and the wins."""

from __future__ import annotations

from betrayal_support import played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState
from hauntcheck.engine.betrayal.haunt.pieces import Monster


def game(players: int = 4) -> tuple[HauntState, str]:
    """Just after the setup, and the traitor."""
    st = start_haunt(players, 30)
    traitor = st.traitor()
    assert traitor is not None
    return st, traitor


def monster(st: HauntState, kind: str) -> Monster:
    return next(m for m in st.mon if m.kind == kind)


def sex(st: HauntState, seat: str) -> str:
    return st.t.explorers[st.ex[seat].id].sex


def test_every_explorer_has_a_sex_from_the_bios() -> None:
    st, _ = game(6)
    assert {x.sex for x in st.t.explorers.values()} == {"female", "male"}
    assert st.t.explorers["zoe-ingstrom"].sex == "female" and st.t.explorers["ox-bellows"].sex == "male"


def test_setup_makes_the_traitor_a_vampire_with_dracula_and_the_bride() -> None:
    st, traitor = game(4)
    assert "vampire" in st.hstatus[traitor]
    assert monster(st, "bride").room == st.ex[traitor].room  # no monster turn has come yet
    room = monster(st, "dracula").room
    if {"crypt", "graveyard"} & set(st.house.spots):
        assert room in ("crypt", "graveyard")
    else:  # the fallback: 4+ spaces from every explorer, or as far as the house allows
        dist = st._dist_to([st.ex[s].room for s in st.seat_ids if st.in_play(s)])
        assert dist.get(room, 999) >= 4 or dist.get(room, 999) == max(dist.get(r, 999) for r in st.house.spots)
    assert "girl" not in st.ex[traitor].cards and "girl" in st.discards["omen"]
    assert not any("girl" in pile for pile in st.piles.values())  # nobody takes custody of her
    assert not monster(st, "dracula").gone


def test_domination_deals_speed_damage_and_turns_a_hero_at_the_skull() -> None:
    st, traitor = game(4)
    hero = next(h for h in st.living_heroes() if sex(st, h) != sex(st, traitor))
    assert st.fight_rules(traitor, hero, chosen="domination")
    same = [h for h in st.living_heroes() if sex(st, h) == sex(st, traitor)]
    for h in same:
        assert not st.fight_rules(traitor, h, chosen="domination")  # only the other sex
    st.ex[hero].idx["speed"] = 3
    sanity = dict(st.ex[hero].idx)
    rolled(st._resolve_fight(traitor, hero, "sanity", 5, 3, chosen="domination"))
    assert st.ex[hero].idx["speed"] == 1 and st.ex[hero].idx["sanity"] == sanity["sanity"]
    start = st.t.explorers[st.ex[hero].id].traits["speed"].start
    rolled(st._resolve_fight(traitor, hero, "sanity", 5, 3, chosen="domination"))
    assert not st.ex[hero].dead and st.side[hero] == TRAITOR and "vampire" in st.hstatus[hero]
    assert st.ex[hero].idx["speed"] == start + 1


def test_a_hero_who_wins_against_domination_deals_no_damage() -> None:
    st, traitor = game(4)
    hero = next(h for h in st.living_heroes() if sex(st, h) != sex(st, traitor))
    before = dict(st.ex[traitor].idx)
    rolled(st._resolve_fight(traitor, hero, "sanity", 1, 4, chosen="domination"))
    assert st.ex[traitor].idx == before


def test_the_spear_stakes_dracula_other_wins_only_stun() -> None:
    st, _ = game(4)
    hero = st.living_heroes()[0]
    dracula = monster(st, "dracula")
    rolled(st._resolve_fight(hero, dracula.uid, "might", 6, 2))
    assert dracula.stunned and not dracula.gone
    dracula.stunned = False
    st.turn.keys.add("attack-weapon:spear")
    rolled(st._resolve_fight(hero, dracula.uid, "might", 6, 2))
    assert dracula.gone == "killed"


def test_sunrise_then_the_vampires_weaken_and_burn() -> None:
    st, traitor = game(3)
    st.track = 5
    rolled(st._advance_timers("start-of-traitor-turn"), [0])  # 3 dice showing 0 < 6: the sun is up
    assert "sunrise" in st.hflags
    dracula, bride = monster(st, "dracula"), monster(st, "bride")
    dracula.stats = {"speed": 1, "might": 2, "sanity": 2}
    before = dict(st.ex[traitor].idx)
    st.current = traitor
    rolled(st._turn_rules(traitor, "start-of-turn"))
    assert dracula.gone == "killed" and bride.stats["might"] == 3 and not bride.gone
    assert all(st.ex[traitor].idx[t] == before[t] - 1 for t in before)
    bride.stats = {"speed": 1, "might": 1, "sanity": 1}
    rolled(st._turn_rules(traitor, "start-of-turn"))
    assert bride.gone == "killed"
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_a_policy_game_plays_to_a_result_with_the_invariants_holding() -> None:
    st = played_out(4, 30)
    assert st.result is not None and st.result.result in (HERO, TRAITOR)


def test_a_placement_with_none_of_its_rooms_in_the_house_goes_otherwise() -> None:
    st, _ = game(3)
    absent = [r for r in sorted(st.t.rooms) if r not in st.house.spots][:2]
    where = {"rooms": absent, "otherwise": {"any_room": True, "min_tiles_from": {"tiles": 4, "from": {"who": "explorers"}},
                                            "fallback": "as-far-as-possible"}}
    room, _ = rolled(st._location(where, set(), "place Dracula"))
    dist = st._dist_to([st.ex[s].room for s in st.seat_ids if st.in_play(s)])
    assert room in st.house.spots and room not in absent
    assert dist.get(room, 999) >= 4 or dist.get(room, 999) == max(dist.get(r, 999) for r in st.house.spots)
    assert dist.get(room, 999) > 0  # never an occupied room while an empty one is farther
