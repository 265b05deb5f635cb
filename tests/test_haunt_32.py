"""Haunt 32, Lost: the house torn down to its starting tiles and occupied rooms (the Organ Room
brought in beside a starting tile), the corrosive air's 2 dice of trait points at each hero's
turn, the clues and the tampering that change the organ roll, and the policy's play."""

from __future__ import annotations

from betrayal_support import played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import HERO, HauntState
from hauntcheck.engine.betrayal.house import opposite, step
from hauntcheck.engine.betrayal.policy import wanted_cards
from hauntcheck.engine.betrayal.policy.turn import _hopeless
from hauntcheck.engine.betrayal.state import Req
from hauntcheck.engine.core import Action

ORGAN = Action.of("task", id="play-organ")


def game(players: int = 3) -> tuple[HauntState, str]:
    """Just after the setup: the first living hero on its turn, in the Organ Room."""
    st = start_haunt(players, 32)
    hero = st.living_heroes()[0]
    st.current = hero
    st.turn.keys.clear()
    st.ex[hero].room = "organ-room"
    return st, hero


def _beside_a_starting_tile(st: HauntState, room: str) -> bool:
    floor = st.house.floor_of(room)
    cell = st.house.spots[room].cell
    for side in st.house.doors(room):
        other = st.house.room_at(floor, step(cell, side))
        if other is not None and st.t.rooms[other].placement == "starting" and opposite(side) in st.house.doors(other):
            return True
    return False


def _starting_doorways_left(st: HauntState, floor: str) -> bool:
    return any(st.house.room_at(floor, step(st.house.spots[r].cell, side)) is None
               for r in st.house.rooms_on(floor) if st.t.rooms[r].placement == "starting" for side in st.house.doors(r))


def test_setup_keeps_only_starting_tiles_occupied_rooms_and_the_organ_room() -> None:
    for players in (3, 5):
        st = start_haunt(players, 32)
        occupied = {st.ex[s].room for s in st.seat_ids if st.in_play(s)}
        for room in st.house.spots:
            assert st.t.rooms[room].placement == "starting" or room in occupied or room == "organ-room", room
        assert "organ-room" in st.house.spots and _beside_a_starting_tile(st, "organ-room")
        for room in occupied - {"organ-room"}:
            if st.t.rooms[room].placement != "starting" and not _beside_a_starting_tile(st, room):
                assert not _starting_doorways_left(st, st.house.floor_of(room)), room  # only when none is left
        assert not st.aside and st.pool["knowledge-roll"] == 5
        assert sorted(list(st.house.spots) + st.stack + st.removed_tiles) == sorted(st.t.rooms)


def test_the_corrosive_air_costs_two_dice_of_trait_points_spread_as_the_hero_chooses() -> None:
    st, hero = game()
    e = st.ex[hero]
    before = dict(e.idx)

    def strongest(req: Req) -> Action:
        points = [a for a in req.choices if a.kind == "damage"]
        return max(points, key=lambda a: max(e.idx[k] for k, _ in a.args)) if points else req.choices[0]

    _, reqs = rolled(st._turn_rules(hero, "start-of-turn"), [[2, 1]], strongest)
    lost = {t: before[t] - e.idx[t] for t in before}
    assert sum(lost.values()) == 3
    choices = [r for r in reqs if r.actor == hero and all(a.kind == "damage" for a in r.choices)]
    assert len(choices) == 3 and all(len(list(r.choices)) == 4 for r in choices)  # one point at a time, any trait
    traitor = st.traitor()
    assert traitor is not None
    t_before = dict(st.ex[traitor].idx)
    rolled(st._turn_rules(traitor, "start-of-turn"), [[2, 2]])
    assert st.ex[traitor].idx == t_before  # the traitor breathes the air of home


def test_clues_the_book_and_tampering_change_the_organ_roll() -> None:
    st, hero = game()
    roll = next(t for t in st.tasks_for(hero) if t["id"] == "play-organ")["roll"]
    omens = sum(1 for r in st.house.spots if st.t.rooms[r].symbol == "omen")
    music = 2 if any("music" in h.lower().split() for h in st.t.explorers[st.ex[hero].id].hobbies) else 0
    assert st.roll_modifiers(hero, roll, tell=False) == omens + music
    st.hflags |= {"music-books-found", "stars-read"}
    st.ex[hero].cards.append("book")
    assert st.roll_modifiers(hero, roll, tell=False) == omens + music + 6
    st.htokens["knowledge-roll"] = ["chapel", "game-room"]
    assert st.roll_modifiers(hero, roll, tell=False) == omens + music
    st.ex[hero].room = "entrance-hall"
    assert st.roll_modifiers(hero, roll, tell=False) == omens + music - 2  # the Book counts only in the Organ Room


def test_the_organ_roll_wins_only_when_the_total_reaches_the_table() -> None:
    st, hero = game(3)
    st.hflags |= {"music-books-found", "trophies-seen", "stars-read"}
    st.ex[hero].cards.append("book")
    st.htokens["knowledge-roll"] = []
    bonus = st.roll_modifiers(hero, next(t for t in st.tasks_for(hero) if t["id"] == "play-organ")["roll"], tell=False)
    dice = st.value(hero, "knowledge")
    assert ORGAN in st._task_actions(hero)
    short = 15 - bonus - 1  # one short of the 15 needed at 3 players
    if 0 <= short <= 2 * dice:
        faces = [2] * (short // 2) + [1] * (short % 2)
        rolled(st._task(hero, ORGAN), [faces + [0] * (dice - len(faces))])
        assert "house-returned" not in st.hflags and not st._check_wins()
        st.turn.keys.clear()
    rolled(st._task(hero, ORGAN), [[2] * dice])
    assert "house-returned" in st.hflags
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_traitor_tampers_once_per_room_and_only_in_the_named_rooms() -> None:
    st, _ = game()
    traitor = st.traitor()
    assert traitor is not None
    st.current = traitor
    tamper = Action.of("task", id="tamper-with-transporter")
    st.ex[traitor].room = "entrance-hall"
    assert tamper not in st._task_actions(traitor)
    st.ex[traitor].room = "chapel"
    assert tamper in st._task_actions(traitor)
    rolled(st._task(traitor, tamper), [2])
    assert st.htokens["knowledge-roll"] == ["chapel"] and st.pool["knowledge-roll"] == 4
    st.turn.keys.clear()
    assert tamper not in st._task_actions(traitor)  # one token per room


def test_the_policy_goes_for_clues_while_the_organ_is_out_of_reach_and_wants_the_book() -> None:
    st, hero = game()
    task = next(t for t in st.tasks_for(hero) if t["id"] == "play-organ")
    st.ex[hero].idx["knowledge"] = 0
    assert _hopeless(st, hero, task)
    st.hflags |= {"music-books-found", "trophies-seen", "stars-read"}
    st.ex[hero].cards.append("book")
    st.ex[hero].idx["knowledge"] = len(st.t.explorers[st.ex[hero].id].traits["knowledge"].values) - 1
    assert not _hopeless(st, hero, task)
    assert {"book", "madman"} <= wanted_cards(st, HERO)


def test_a_policy_game_plays_to_a_result_with_the_invariants_holding() -> None:
    st = played_out(4, 32)
    assert st.result is not None and st.result.result in (HERO, "traitor")
