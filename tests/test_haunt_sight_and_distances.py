"""Two answers the monster turn asks again and again, kept on the state; each must be what working
it out anew gives, at every step of a seeded random game of each of the 50 haunts:

- the rooms seen from a room (``haunt/base.py`` ``line_of_sight``, kept by room and house version
  for the house they were found in: a monster that chases what it sees asks at every step of its
  move) must be ``work_out_line_of_sight``'s, for every room of the house;
- the spaces to the nearest of some rooms (``_dist_to``, kept with the house graph by the goals as
  asked: a monster heading for the heroes asks at every step) must be ``work_out_dist_to``'s for
  the living heroes' rooms, each explorer's room and each monster's room, asked here at every step
  so that an answer kept from an earlier step is the one compared.

(The graph itself is compared with a fresh one in ``tests/test_haunt_caches.py``.)
"""

from __future__ import annotations

import pytest

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import seeded_table

SPEC = game_spec("betrayal")
HAUNTS = sorted(hauntmod.haunt_tables(SPEC)[0])
PLAYERS = (3, 4, 5, 6)


def goal_sets(st: HauntState) -> list[list[str]]:
    """The goals the monster turn and the haunt rules ask distances to, and a few more."""
    heroes = [st.ex[s].room for s in st.living_heroes()]
    singles = [[st.ex[s].room] for s in st.seat_ids if st.in_play(s)]
    return [heroes, *singles, *([m.room] for m in st.active_monsters())]


def sight_and_distances_alike(st: HauntState) -> tuple[int, int]:
    """Compares the kept answers with fresh ones; the rooms and the goal sets compared."""
    number = st.hs.number if st.hs else "?"
    rooms = sorted(st.house.spots)
    for room in rooms:
        assert st.line_of_sight(room) == st.work_out_line_of_sight(room), \
            f"haunt {number}, step {len(st.history)}: rooms seen from {room}"
    goals = goal_sets(st)
    for asked in goals:
        assert st._dist_to(asked) == st.work_out_dist_to(asked), \
            f"haunt {number}, step {len(st.history)}: distances to {asked}"
    return len(rooms), len(goals)


@pytest.mark.parametrize("number", HAUNTS)
def test_kept_sight_and_distances_answer_as_worked_out_anew(number: int) -> None:
    st = hauntmod.new_game(SPEC, PLAYERS[number % len(PLAYERS)], {"haunt": number, "force_haunt": True})
    table = seeded_table(0)
    st.quiet = True
    rooms = goals = versions = 0
    last_version = -1
    for _ in range(5000):
        actor = st.to_move()
        if actor is None:
            break
        if st.hs is not None and st.result is None:
            r, g = sight_and_distances_alike(st)
            rooms, goals = rooms + r, goals + g
            versions += st.house.version != last_version
            last_version = st.house.version
        st.apply(table.for_actor(actor).choose(st, actor, st.legal_actions()))
    assert st.hs is not None, f"haunt {number}: the game never reached its haunt phase"
    assert rooms and goals, f"haunt {number}: nothing was compared"
    assert versions, f"haunt {number}: no house was compared"


@pytest.mark.parametrize("number", (1, 5, 10))
def test_a_kept_answer_is_not_changed_by_the_next_tile(number: int) -> None:
    """Within one game, the house changes under the kept answers: random games of haunts 1, 5 and 10
    (the Mummy and the Zombies head for the heroes, the Zombies chase what they see) place tiles in
    their haunt phase, and the kept answers are compared before and after each."""
    placed_in_haunt = 0
    for seed in (0, 1):
        st = hauntmod.new_game(SPEC, 4, {"haunt": number, "force_haunt": True})
        table = seeded_table(seed)
        st.quiet = True
        for _ in range(5000):
            actor = st.to_move()
            if actor is None:
                break
            before = st.house.version
            if st.hs is not None and st.result is None:
                sight_and_distances_alike(st)
            st.apply(table.for_actor(actor).choose(st, actor, st.legal_actions()))
            placed_in_haunt += st.hs is not None and st.result is None and st.house.version != before
    assert placed_in_haunt, f"haunt {number}'s games placed no tile in their haunt phase: the check must see one"
