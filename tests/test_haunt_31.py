"""Haunt 31 (Airborne): the basement removed and kept closed (``haunt.floor-removed``), heroes as
one another's rivals (``move.haunt-rivals``), stealing and dropping Parachutes, jumping out."""

from __future__ import annotations

from betrayal_support import drive, played_out
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.core import Action
from hauntcheck.engine.games import game_spec

AIRBORNE = 31


def started(players: int = 4) -> HauntState:
    return start_haunt(players, AIRBORNE)


def events(st: HauntState) -> list[str]:
    return [f"{e.rule}: {e.text}" for e in st._events]


def put_room(st: HauntState, room: str, floor: str) -> None:
    """Take a tile out of the stack and place it at an open door of ``floor``."""
    for pile in (st.stack, st.aside):
        if room in pile:
            pile.remove(room)
    spot = st.house.open_spots(room, floor, keep_open=False)[0]
    st.house.place(room, floor, spot.cell, spot.rotation)
    st._tile_version += 1


def test_the_basement_leaves_play_at_setup_and_the_elevator_comes_up() -> None:
    st = started(4)
    assert st.closed_floors == {"basement"}
    assert not st.house.rooms_on("basement")
    assert "basement-landing" in st.removed_tiles
    assert st.house.floor_of("mystic-elevator") in ("ground", "upper")
    assert all(st.house.floor_of(e.room) != "basement" for e in st.ex.values())
    assert st.remaining_for("basement") == 0
    assert hauntmod.invariants(st) == []
    assert "coal-chute" not in st.no_end_rooms  # nothing slides down any more: a turn may end there


def test_a_drawn_basement_only_tile_is_discarded_and_another_drawn() -> None:
    st = started(4)
    crypt = "crypt"  # basement only
    assert st.t.rooms[crypt].floors == ("basement",)
    other = next(r for r in st.stack + st.aside if "ground" in st.t.rooms[r].floors)
    st.aside = [r for r in st.aside if r not in (crypt, other)]
    st.stack = sorted({crypt, other})
    st.room_top = crypt
    st._events = []
    tile, _ = drive(st.next_room_tile())
    assert tile == other
    assert crypt in st.removed_tiles and crypt not in st.stack + st.aside
    assert any(e.startswith("haunt.floor-removed: Crypt") for e in events(st))


def test_the_coal_chute_no_longer_slides_anyone_down() -> None:
    st = started(4)
    seat = st.living_heroes()[0]
    put_room(st, "coal-chute", "ground")
    st.ex[seat].room = "coal-chute"
    enter = next(a for a in st.t.rooms["coal-chute"].abilities if a.get("trigger") == "enter")
    st._events = []
    drive(effects.run(st, enter["do"], effects.Ctx(seat, "room:coal-chute")))
    assert st.ex[seat].room == "coal-chute"
    assert any(e.startswith("haunt.floor-removed:") for e in events(st))


def test_a_collapsed_room_fall_hurts_but_drops_nobody_and_the_deliberate_drop_is_gone() -> None:
    st = started(4)
    seat = st.living_heroes()[0]
    put_room(st, "collapsed-room", "ground")
    st.ex[seat].room = "collapsed-room"
    fall = next(a for a in st.t.rooms["collapsed-room"].abilities if a.get("id") == "collapse-deliberate-fall")
    assert effects.leads_to_closed_floor(st, fall["do"])
    assert not any(a.kind == "use" for a in effects.room_actions(st, seat))  # the drop is not offered
    before = sum(st.ex[seat].idx.values())
    drive(effects.run(st, fall["do"], effects.Ctx(seat, "room:collapsed-room")), face=1)
    assert st.ex[seat].room == "collapsed-room"
    assert "below-collapsed-room" not in st.tokens.get("collapsed-room", [])  # no landing to mark
    assert sum(st.ex[seat].idx.values()) == before - 1  # the 1 die of damage still happens


def test_the_mystic_elevator_sent_to_the_basement_stays_put() -> None:
    st = started(4)
    seat = st.living_heroes()[0]
    st.ex[seat].room = "mystic-elevator"
    spot = st.house.spots["mystic-elevator"]
    drive(effects.run(st, [{"move_tile": {"tile": "this-room", "floor": "basement", "if_no_spot": "stay"}}],
                      effects.Ctx(seat, "room:mystic-elevator")))
    assert st.house.spots["mystic-elevator"] == spot


def test_a_card_that_draws_a_basement_room_moves_nobody() -> None:
    st = started(4)
    seat = st.living_heroes()[0]
    room = st.ex[seat].room
    drive(effects.run(st, [{"move": {"drawn_room": {"floor": "basement", "where": "adjacent-to-floor", "enter": True,
                                                    "fallback": "entrance-hall"}}}], effects.Ctx(seat, "card:the-lost-one")))
    assert st.ex[seat].room == room


def rivals_together(st: HauntState) -> tuple[str, str]:
    a, b = st.living_heroes()[:2]
    st.ex[b].room = st.ex[a].room
    st.held = {}
    return a, b


def test_heroes_are_rivals_they_slow_and_may_attack_one_another() -> None:
    st = started(4)
    a, b = rivals_together(st)
    assert b in st.opponents_of(a) and st.allies_of(a) == [a]
    assert st._slowing(a) >= 1
    st.current, st.turn.seat = a, a
    attacks = [x for x in st._attack_actions(a) if x["target"] == b]
    assert attacks and not any(x.get("rule") for x in attacks)  # nothing to steal: ordinary attacks only
    st.held[b] = ["parachute"]
    steals = [x for x in st._attack_actions(a) if x["target"] == b and x.get("rule") == "steal-parachute"]
    assert {x["trait"] for x in steals} == {"might", "knowledge"}
    st.held[a] = ["parachute"]
    assert not any(x.get("rule") for x in st._attack_actions(a))  # one Parachute at a time


def test_a_steal_won_by_one_takes_the_parachute_without_damage() -> None:
    st = started(4)
    a, b = rivals_together(st)
    st.held[b] = ["parachute"]
    before = dict(st.ex[b].idx)
    drive(st._resolve_fight(a, b, "knowledge", 5, 4, chosen="steal-parachute"))
    assert st.held[a] == ["parachute"] and st.held[b] == []
    assert st.ex[b].idx == before


def test_an_ordinary_attack_between_rivals_deals_damage_and_steals_nothing_by_rule() -> None:
    st = started(4)
    a, b = rivals_together(st)
    st.held[b] = ["parachute"]
    before = sum(st.ex[b].idx.values())
    drive(st._resolve_fight(a, b, "might", 3, 2))
    assert st.held[b] == ["parachute"]
    assert sum(st.ex[b].idx.values()) == before - 1


def test_a_dead_hero_drops_the_parachute_for_anyone_to_pick_up() -> None:
    st = started(4)
    a, b = rivals_together(st)
    st.held[b] = ["parachute"]
    drive(st._outcome({"kill": True}, b, None))
    assert st.ex[b].dead and st.held.get(b, []) == []
    assert st.htokens["parachute"] == [st.ex[a].room]
    st.current, st.turn.seat = a, a
    assert Action.of("pickup-token", token="parachute") in st._side_actions(a)
    drive(st._turn_action(a, Action.of("pickup-token", token="parachute")))
    assert st.held[a] == ["parachute"] and not st.htokens["parachute"]


def test_a_full_hero_cannot_pick_up_a_second_parachute() -> None:
    st = started(4)
    a, _ = rivals_together(st)
    st.held[a] = ["parachute"]
    st.htokens["parachute"] = [st.ex[a].room]
    st.turn.picked = False
    assert not any(x.kind == "pickup-token" for x in st._side_actions(a))


def test_jumpers_win_once_every_parachute_has_left_and_a_house_of_dead_wins_nobody() -> None:
    st = started(3)  # one Parachute
    a, b, c = st.heroes()
    st.exited.add(a)
    assert st._check_wins() and st.result is not None
    assert st.result.result == "heroes" and st.result.winners == (a,)

    st = started(4)  # two Parachutes: one jumper, the others dead - the jumper still survived
    a, b, c, d = st.heroes()
    st.exited.add(a)
    for s in (b, c, d):
        st.ex[s].dead = True
    assert st._check_wins() and st.result is not None
    assert st.result.result == "heroes" and st.result.winners == (a,)

    st = started(4)
    for s in st.heroes():
        st.ex[s].dead = True
    assert st._check_wins() and st.result is not None
    assert st.result.result == "nobody" and st.result.winners == ()


def test_support_lists_only_the_remove_basement_hook() -> None:
    report = hauntmod.support(game_spec("betrayal"))[AIRBORNE]
    assert report["playable"] and report["hooks"] == ["remove-basement"] and not report["blockers"]


def test_a_steal_ends_the_attackers_turn_even_when_it_takes_the_parachute() -> None:
    st = started(4)
    a, b = rivals_together(st)
    st.held[b] = ["parachute"]
    st.ex[b].idx["knowledge"] = 0  # the lowest value: the attacker rolls more dice
    st.ex[a].idx["knowledge"] = len(st.t.explorers[st.ex[a].id].traits["knowledge"].values) - 1
    st.current, st.turn.seat, st.turn.end_now = a, a, False
    drive(st._attack(a, Action.of("attack", target=b, trait="knowledge", rule="steal-parachute")))
    assert st.held[a] == ["parachute"]
    assert st.turn.end_now


def test_invariants_hold_through_a_policy_game_to_the_jumpers_win() -> None:
    st = played_out(5, AIRBORNE)
    outcome = st.outcome()
    assert outcome is not None and outcome.result == "heroes"
    assert set(outcome.winners) == st.exited and len(st.exited) == 2  # one jumper per Parachute


def test_a_search_when_every_parachute_is_taken_finds_nothing_and_uses_nothing_up() -> None:
    st = started(4)
    seat = st.living_heroes()[0]
    omen = next(r for r in sorted(st.house.spots) if st.t.rooms[r].symbol == "omen")
    st.ex[seat].room = omen
    st.held = {}
    st.pool["parachute"] = 0
    st.current, st.turn.seat, st.turn.stopped = seat, seat, False
    st.turn.keys.clear()
    drive(st._task(seat, Action.of("task", id="search-parachute", trait="speed")), face=2)
    assert st.held.get(seat, []) == []
    assert f"search-parachute/{omen}" not in st.used_places and not st.turn.stopped
    st.pool["parachute"] = 1
    st.turn.keys.clear()
    drive(st._task(seat, Action.of("task", id="search-parachute", trait="speed")), face=2)
    assert st.held[seat] == ["parachute"] and st.turn.stopped
    assert f"search-parachute/{omen}" in st.used_places


def test_a_parachute_cannot_be_handed_to_a_hero_who_already_carries_one() -> None:
    st = started(4)
    a, b = rivals_together(st)
    st.current, st.turn.seat, st.turn.traded = a, a, False
    st.held[a] = ["parachute"]
    assert Action.of("give-token", token="parachute", to=b) in st._side_actions(a)
    st.held[b] = ["parachute"]
    assert Action.of("give-token", token="parachute", to=b) not in st._side_actions(a)
