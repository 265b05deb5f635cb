"""Haunt 19, A Friend for the Ages: the traitor's traits restored and raised least-above-start
first, the ward that stops all damage but the Gallery's and an Amulet wearer's, stealing from the
traitor, Paint placed one to a listed room (farthest first, the rest when rooms are found), the
traitor destroying Paint instead of attacking, repainting in the Gallery, and the wins."""

from __future__ import annotations

from betrayal_support import drive, pick, played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState
from hauntcheck.engine.betrayal.model import TRAITS
from hauntcheck.engine.core import Action

PAINT_ROOMS = ("attic", "abandoned-room", "collapsed-room", "patio", "statuary-corridor", "storeroom", "wine-cellar")


def game(players: int = 4) -> tuple[HauntState, str, str]:
    """Just after the setup: a hero moved into the traitor's room, on the hero's turn."""
    st = start_haunt(players, 19)
    traitor = st.traitor()
    assert traitor is not None
    hero = st.living_heroes()[0]
    st.ex[hero].room = st.ex[traitor].room
    st.current = hero
    st.turn.keys.clear()
    return st, hero, traitor


def paint_count(st: HauntState) -> int:
    return st.pool.get("paint", 0) + sum(v.count("paint") for v in st.held.values()) \
        + len(st.htokens.get("paint", [])) + st.destroyed.count("paint") + st.earned.get("knowledge-roll", 0)


def test_the_traitor_is_restored_then_raised_least_above_start_once_per_hero() -> None:
    st, _, traitor = game()
    st.ex[traitor].idx.update({"might": 0, "speed": 5, "sanity": 3, "knowledge": 3})
    xdef = st.t.explorers[st.ex[traitor].id]
    start = {t: xdef.traits[t].start for t in TRAITS}
    step = {"spend_trait_points": {"who": "traitor", "points": 3, "restore_start": True, "to": "least-above-start"}}
    drive(st._setup_step(TRAITOR, step))
    above = {t: st.ex[traitor].idx[t] - start[t] for t in TRAITS}
    assert all(v >= 0 for v in above.values())  # nothing left below its start
    assert max(above.values()) - min(above.values()) <= max(0, 5 - start["speed"])  # points go to the lowest first
    assert sum(above.values()) == max(0, 5 - start["speed"]) + max(0, 3 - start["sanity"]) \
        + max(0, 3 - start["knowledge"]) + 3


def test_the_ward_stops_attack_damage_but_not_a_steal() -> None:
    st, hero, traitor = game()
    before = dict(st.ex[traitor].idx)
    drive(st._resolve_fight(hero, traitor, "might", 6, 2), pick("damage-them"))
    assert st.ex[traitor].idx == before
    st.held[hero] = []
    st.held[traitor] = ["paint"]
    drive(st._resolve_fight(hero, traitor, "might", 6, 2), pick("steal", card="paint"))
    assert st.held[hero] == ["paint"] and st.held[traitor] == []


def test_a_hero_wearing_the_amulet_of_the_ages_hurts_the_traitor() -> None:
    st, hero, traitor = game()
    st.ex[hero].cards.append("amulet-of-the-ages")
    physical = st.ex[traitor].idx["might"] + st.ex[traitor].idx["speed"]
    drive(st._resolve_fight(hero, traitor, "might", 5, 2), pick("damage-them"))
    assert st.ex[traitor].idx["might"] + st.ex[traitor].idx["speed"] == physical - 3


def test_the_gallery_hurts_the_traitor_through_the_ward() -> None:
    st, _, traitor = game()
    st.ex[traitor].room = "gallery"
    st.current = traitor
    mental = st.ex[traitor].idx["sanity"] + st.ex[traitor].idx["knowledge"]
    look = next(t for t in st.tasks_for(traitor) if t["id"] == "look-upon-the-portrait")
    assert st._task_open(traitor, look)
    rolled(st._task(traitor, Action.of("task", id="look-upon-the-portrait")), [0, 2])  # Sanity fails; 1 die: 2
    assert st.ex[traitor].idx["sanity"] + st.ex[traitor].idx["knowledge"] == mental - 2


def test_paint_goes_one_to_a_listed_room_and_waits_for_the_others() -> None:
    st = start_haunt(5, 19)
    assert paint_count(st) == 4 + 2  # heroes + 2
    placed = st.htokens.get("paint", [])
    assert len(placed) == len(set(placed)) and set(placed) <= set(PAINT_ROOMS)
    missing = [r for r in PAINT_ROOMS if r not in st.house.spots]
    if missing and st.pool.get("paint", 0):
        room = missing[0]
        st.note_new_room(room)
        assert room in st.htokens["paint"]


def test_the_farthest_listed_rooms_get_the_paint_when_they_outnumber_it() -> None:
    st = start_haunt(3, 19)
    here = [r for r in PAINT_ROOMS if r in st.house.spots]
    st.htokens["paint"], st.pool["paint"], st.waiting_pool = [], 0, []
    st._place_one_per_listed_room("paint", 1, {"rooms": list(PAINT_ROOMS), "one_per_room": True, "on_discovery": True,
                                                     "extras": "set-aside"})
    if here:
        dist = st._dist_to([st.ex[s].room for s in st.seat_ids if st.in_play(s)])
        assert st.htokens["paint"] and dist.get(st.htokens["paint"][0], 10_000) == max(dist.get(r, 10_000) for r in here)
        assert st.pool["paint"] == 0
    else:
        assert st.pool["paint"] == 1


def test_the_traitor_destroys_paint_instead_of_attacking_and_three_win() -> None:
    st, hero, traitor = game()
    st.current = traitor
    st.turn.keys.clear()
    st.held[traitor] = ["paint"]
    st.held[hero] = ["paint"]
    destroy = Action.of("task", id="destroy-paint")
    assert destroy in st._task_actions(traitor)
    drive(st._task(traitor, destroy))
    assert st.held[traitor] == [] and st.held[hero] == ["paint"] and st.destroyed.count("paint") == 1
    assert "attack" in st.turn.keys  # it was the traitor's attack of the turn
    st.destroyed += ["paint", "paint"]
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR


def test_repainting_in_the_gallery_and_the_heroes_win() -> None:
    st, hero, _ = game(3)
    st.ex[hero].room = "gallery"
    st.held[hero] = ["paint"]
    repaint = Action.of("task", id="repaint")
    assert repaint in st._task_actions(hero)
    rolled(st._task(hero, repaint), [2])
    assert st.held[hero] == [] and st.htokens["knowledge-roll"] == ["gallery"]
    st.htokens["knowledge-roll"].append("gallery")
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_heroes_win_when_the_traitor_dies() -> None:
    st, _, traitor = game()
    st.ex[traitor].dead = True
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_a_policy_game_plays_to_a_result_with_the_invariants_holding() -> None:
    st = played_out(3, 19)
    assert st.result is not None and st.result.result in (HERO, TRAITOR)
