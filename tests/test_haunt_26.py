"""Haunt 26, Pay the Piper: the wererat traitor's traits restored and raised, twice the player
count of Rats in unoccupied omen and event rooms, Rats killed when beaten and attacking together
(Might added up, at most 8 dice, a failed swarm unhurt), the Pentagram Chamber closed to heroes
and Rats and safe for the traitor, the ritual that earns tokens and brings back killed Rats next
to the Chamber, and the wins of both sides."""

from __future__ import annotations

from betrayal_support import played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState, Monster
from hauntcheck.engine.betrayal.model import TRAITS
from hauntcheck.engine.core import CHANCE, Action
from hauntcheck.engine.games import game_spec


def started(players: int = 4) -> HauntState:
    return start_haunt(players, 26)


def rats(st: HauntState) -> list[Monster]:
    return [m for m in st.active_monsters() if m.kind == "rat"]


def traitor_of(st: HauntState) -> str:
    traitor = st.traitor()
    assert traitor is not None
    return traitor


def dice_rolled(seen: list[object]) -> list[int]:
    return [len(next(iter(r.choices))["faces"]) for r in seen  # type: ignore[attr-defined]
            if r.actor == CHANCE and next(iter(r.choices)).kind == "roll"]  # type: ignore[attr-defined]


def test_twice_the_player_count_of_rats_go_to_omen_and_event_rooms_never_the_chamber() -> None:
    for players in (3, 5):
        st = started(players)
        assert len(rats(st)) == 2 * players
        rooms = {m.room for m in rats(st)}
        assert "pentagram-chamber" not in rooms
        assert all(st.t.rooms[r].symbol in ("omen", "event") for r in rooms)
        assert st.pool == {"sanity-roll": 5}
        assert all("shut-out" in st.hstatus.get(s, []) for s in st.living_heroes())
        assert "shut-out" not in st.hstatus.get(traitor_of(st), [])


def test_the_traitor_starts_the_haunt_above_its_starting_traits() -> None:
    st = started(4)
    traitor = traitor_of(st)
    xdef = st.t.explorers[st.ex[traitor].id]
    for trait in TRAITS:
        start = xdef.traits[trait].start
        top = len(xdef.traits[trait].values) - 1
        assert st.ex[traitor].idx[trait] >= min(top, start + 1), trait


def test_no_hero_may_move_into_the_pentagram_chamber_but_the_traitor_may() -> None:
    st = started(4)
    assert "pentagram-chamber" in st.house.spots
    hero = st.living_heroes()[0]
    door = sorted(st.door_adjacent("pentagram-chamber"))[0]
    for seat in (hero, traitor_of(st)):
        st.ex[seat].room = door
        st.current = seat
        st.turn.moved = 0
    assert not any(a.get("to") == "pentagram-chamber" for a in st._move_actions(hero))
    assert st._barred_rooms(traitor_of(st)) == set()


def test_the_rats_of_a_room_attack_together_with_at_most_eight_dice() -> None:
    st = started(4)
    hero = st.living_heroes()[0]
    room = st.ex[hero].room
    for seat in st.seat_ids:
        if seat != hero:
            st.ex[seat].room = next(r for r in sorted(st.house.spots) if r != room)
    five = rats(st)[:5]
    for m in rats(st):
        m.room = room if m in five else next(r for r in sorted(st.house.spots) if r != room)
    _, seen = rolled(st._monster_attack(five[0]), [0, 2])  # the swarm rolls 0, the hero wins
    assert dice_rolled(seen)[0] == 8, "five Rats at Might 2 would be 10 dice: the swarm is held to 8"
    assert all(not m.gone for m in five), "a failed swarm takes no damage"
    _, again = rolled(st._monster_attack(five[1]))
    assert again == [], "a Rat that joined the swarm makes no attack of its own"


def test_a_beaten_rat_is_killed_not_stunned() -> None:
    st = started(4)
    hero = st.living_heroes()[0]
    rat = rats(st)[0]
    st.ex[hero].room = rat.room
    st.current = hero
    st.turn.keys.clear()
    rolled(st._attack(hero, Action.of("attack", target=rat.uid, trait="might")), [2, 0])
    assert rat.gone == "killed" and not rat.stunned


def test_the_ritual_earns_a_token_and_brings_back_a_killed_rat_next_to_the_chamber() -> None:
    st = started(4)
    traitor = traitor_of(st)
    st.ex[traitor].room = "pentagram-chamber"
    st.current = traitor
    st.turn.keys.clear()
    task = Action.of("task", id="ritual")
    assert task in st._task_actions(traitor)
    before = len(rats(st))
    rolled(st._task(traitor, task), [2])
    assert st.earned.get("sanity-roll") == 1
    assert len(rats(st)) == before, "every Rat token is in the house: none is free to come back"
    rats(st)[0].gone = "killed"
    st.turn.keys.clear()
    rolled(st._task(traitor, task), [2])
    assert st.earned.get("sanity-roll") == 2
    new = rats(st)[-1]
    assert len(rats(st)) == before and new.room in st.house.neighbours("pentagram-chamber")


def test_heroes_cannot_attack_the_traitor_in_the_chamber() -> None:
    st = started(4)
    traitor = traitor_of(st)
    hero = st.living_heroes()[0]
    st.ex[traitor].room = st.ex[hero].room
    assert st._may_attack(hero, traitor)
    st.ex[traitor].room = st.ex[hero].room = "pentagram-chamber"
    assert not st._may_attack(hero, traitor)


def test_killing_every_rat_wins_for_the_heroes() -> None:
    st = started(3)
    for m in rats(st):
        m.gone = "killed"
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_traitor_dead_before_the_chamber_wins_for_the_heroes_but_not_after() -> None:
    st = started(3)
    traitor = traitor_of(st)
    st.hflags.add("traitor-in-chamber")
    st.ex[traitor].dead = True
    assert not st._check_wins()
    st.hflags.discard("traitor-in-chamber")
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_traitor_reaches_the_chamber_by_ending_a_turn_there() -> None:
    st = started(3)
    traitor = traitor_of(st)
    st.ex[traitor].room = "pentagram-chamber"
    rolled(st._turn_rules(traitor, "end-of-turn"))
    assert "traitor-in-chamber" in st.hflags


def test_the_ritual_count_wins_for_the_traitor() -> None:
    for players, need in ((4, 5), (5, 4)):
        st = started(players)
        st.earned["sanity-roll"] = need - 1
        assert not st._check_wins()
        st.earned["sanity-roll"] = need
        assert st._check_wins() and st.result is not None and st.result.result == TRAITOR


def test_a_policy_game_keeps_the_invariants_and_the_haunt_plays_without_hooks() -> None:
    assert played_out(4, 26).outcome() is not None
    report = hauntmod.support(game_spec("betrayal"))
    assert report[26]["playable"] and report[26]["hooks"] == [] and not report[26]["blockers"]
