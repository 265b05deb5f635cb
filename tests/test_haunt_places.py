"""Rooms and ways asked about at every step, answered without working them out anew; each must
give what the full computation gives, at every step of a seeded random game of each of the 50
haunts:

- whether a room is one a location names is asked without listing the location's rooms where it
  is named outright or decided by a haunt token's or a monster's room (``haunt/amounts.py``
  ``in_place``: a task's place, a monster's lure, a goal's room): it must answer as
  ``room in _rooms_for(where)`` does for every location of every haunt file (and the rooms of each
  of its token and monster kinds) and every room of the house (and one not placed);
- a room's vertical passages are kept with the monsters' ways out of it (``haunt/base.py``
  ``kept_vertical_passages``, ``_room_ways``): both must be what ``vertical_passages`` and
  ``_work_out_room_exits`` find for every room of the house;
- what a monster kind's steps depend on is read from its haunt file once (``monster_ways``,
  ``_monster_raw``): it must be what the file says, for every monster.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.betrayal.haunt.tasks import TASK_PAGES, _menu_tasks, task_gate
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import seeded_table

SPEC = game_spec("betrayal")
HAUNTS = sorted(hauntmod.haunt_tables(SPEC)[0])
PLAYERS = (3, 4, 5, 6)
#: Keys by which ``_rooms_for`` knows a location.
PLACE_KEYS = {"room", "rooms", "room_with_token", "room_with_monster", "room_with_status", "symbol", "symbols",
              "next_to_room", "room_of", "haunt_room", "room_of_holder", "any_room", "with_neighbours", "adjoining"}


def mappings(data: Any) -> Iterator[Mapping[str, Any]]:
    """Every mapping in a haunt file, nested ones included."""
    if isinstance(data, Mapping):
        yield data
        for value in data.values():
            yield from mappings(value)
    elif isinstance(data, list):
        for value in data:
            yield from mappings(value)


def candidate_places(st: HauntState, raw: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The haunt file's mappings with a location's keys, and the token and monster rooms of every
    token and monster kind of the haunt (the files name no list of tokens): found once a game."""
    assert st.hs is not None
    tokens = sorted(st.hs.tokens)
    made: list[Mapping[str, Any]] = [{"room_with_token": t} for t in tokens]
    made += [{"room_with_token": tokens[k:k + 2]} for k in range(len(tokens) - 1)]
    made += [{"room_with_monster": kind} for kind in st.hs.monsters]
    return [where for where in [*mappings(raw), *made] if PLACE_KEYS & set(where)]


def locations(st: HauntState, candidates: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The candidates that ``_rooms_for`` reads as a location now."""
    out = []
    for where in candidates:
        try:
            st._rooms_for(where)
        except Exception:  # not a location (a ``place`` step's room with its token ...)
            continue
        out.append(where)
    return out


def places_alike(st: HauntState, candidates: list[Mapping[str, Any]]) -> int:
    """Compares ``in_place`` with the listed rooms for every location and room; the comparisons made."""
    rooms = [*sorted(st.house.spots), "no-such-room"]
    compared = 0
    for where in locations(st, candidates):
        listed = set(st._rooms_for(where))
        for room in rooms:
            assert st.in_place(room, where) == (room in listed), \
                f"haunt {st.hs.number if st.hs else '?'}, step {len(st.history)}: {room} in {dict(where)}"
            compared += 1
    return compared


def ways_alike(st: HauntState, raw: Mapping[str, Any]) -> int:
    """Compares the kept passages and ways out of every room, and every monster's ways, with
    fresh ones; the comparisons made."""
    compared = 0
    for room in sorted(st.house.spots):
        assert st.kept_vertical_passages(room) == st.vertical_passages(room), \
            f"haunt {st.hs.number if st.hs else '?'}, step {len(st.history)}: passages of {room}"
        assert st._room_exits(room) == st._work_out_room_exits(room), \
            f"haunt {st.hs.number if st.hs else '?'}, step {len(st.history)}: ways out of {room}"
        compared += 1
    for m in st.mon:
        entry = next((x for x in raw.get("monsters", ()) if x.get("id") == m.kind), {})
        movement = st.mdef(m).movement
        assert st._monster_raw(st.mdef(m)) is entry or (entry == {} and st._monster_raw(st.mdef(m)) == {})
        assert st.monster_ways(m) == (frozenset(entry.get("may_not_use", ())), frozenset(entry.get("may_not_use_tokens", ())),
                                      bool(movement.get("through_walls")), bool(movement.get("through_collapsed")),
                                      int(movement.get("room_cost", 1)) - 1,
                                      any(r.get("when") == "on-enter-or-start" for r in st.mdef(m).must),
                                      bool(st.mdef(m).carries.get("tokens") or st.mdef(m).carries.get("items"))), \
            f"haunt {st.hs.number if st.hs else '?'}: {m.kind}"
        compared += 1
    return compared


#: ``in_place`` keeps nothing between steps (it answers from the state as it is), so its comparison,
#: every location against every room, is made at every third step; what is kept is compared at every step.
PLACES_EVERY = 3


@pytest.mark.parametrize("number", HAUNTS)
def test_kept_rooms_and_ways_answer_as_worked_out_anew(number: int) -> None:
    raw = hauntmod.haunt_tables(SPEC)[0][number][1]
    st = hauntmod.new_game(SPEC, PLAYERS[number % len(PLAYERS)], {"haunt": number, "force_haunt": True})
    table = seeded_table(0)
    st.quiet = True
    compared = passages = 0
    candidates: list[Mapping[str, Any]] | None = None
    for _ in range(5000):
        actor = st.to_move()
        if actor is None:
            break
        if st.hs is not None and st.result is None:
            if candidates is None:
                candidates = candidate_places(st, raw)
            if len(st.history) % PLACES_EVERY == 0:
                compared += places_alike(st, candidates)
            passages += any(st.kept_vertical_passages(r) for r in st.house.spots)
            compared += ways_alike(st, raw)
        st.apply(table.for_actor(actor).choose(st, actor, st.legal_actions()))
    assert st.hs is not None, f"haunt {number}: the game never reached its haunt phase"
    assert compared, f"haunt {number}: nothing was compared"
    if number in PASSAGE_GAMES:
        assert passages, f"haunt {number}: no room with a vertical passage was compared"


#: Haunts whose game here places a room with a chute, fall or jump (so kept passages are compared
#: where there are some; most of the other games do too).
PASSAGE_GAMES = (1, 5, 7, 11)


def test_token_and_monster_rooms_are_compared() -> None:
    """The two kinds of location ``in_place`` answers itself are among the haunt files' locations."""
    raw = [hauntmod.haunt_tables(SPEC)[0][n][1] for n in HAUNTS]
    assert any("room_with_token" in w for r in raw for w in mappings(r))
    assert any("room_with_monster" in w for r in raw for w in mappings(r))


def test_menu_tasks_carry_their_own_gates() -> None:
    """The turn menu's tasks come with their gates (``_menu_tasks``): each the gate worked out from
    that task, as ``_task_gate`` gives it."""
    for number in HAUNTS:
        hs = hauntmod.haunt_tables(SPEC)[0][number][0]
        st = hauntmod.new_game(SPEC, 3, {})
        st.hs = hs
        for page in TASK_PAGES:
            menu = _menu_tasks(hs)[page]
            assert [t for t, _ in menu] == [t for t in hs.tasks_by(*page) if any(t is m for m, _ in menu)]
            for task, gate in menu:
                assert gate == task_gate(task) == st._task_gate(task), f"haunt {number}, task {task['id']}"
