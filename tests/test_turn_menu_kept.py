"""The turn menu Betrayal keeps between decisions must be the menu worked out afresh.

What is kept or skipped (``state/movement.py``, ``state/turns.py``, ``house.py``):

- each room's move menu and exits, kept by the room, the side stood on, the house's changes near
  the room (``House.changed_near``: a tile placed or taken off at the room's cell or a cell next to
  it, or at a room its fixed links join or require) and the links made;
- which doorways may be explored, decided at each ask, every doorway at once while the floor keeps
  more than four free doorways (or one tile is left for it), else each by ``_can_discover``;
- the menu's other parts (room and card abilities, item actions) asked only when what they list
  from is not empty, and a card's movement cap only when a card is held or kept.

At every turn decision of a seeded random game of each of the 50 haunts, from the setup to the end
(the exploration, the reveal and the haunt phase), the kept menu must equal one composed the way it
was before any of this was kept: every part asked, the moves worked out with nothing kept and each
doorway asked, the movement left with the cap always asked; and every room's kept exits must equal
a fresh walk of its doors.
"""

from __future__ import annotations

import pytest

from hauntcheck.engine.betrayal import effects, new_game
from hauntcheck.engine.betrayal.house import House, link_watchers
from hauntcheck.engine.betrayal.model import SIDES
from hauntcheck.engine.betrayal.state import BetrayalState
from hauntcheck.engine.betrayal.state.base import TURN_PROMPT
from hauntcheck.engine.betrayal.state.movement import Movement, move_action
from hauntcheck.engine.betrayal.state.turns import END, Turns
from hauntcheck.engine.core import Action, act
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import seeded_table

SPEC = game_spec("betrayal")
HAUNTS = range(1, 51)
#: The seed of each haunt's game (haunt 14's game of seed 7014 found a tile taken from the stack
#: while still known to be on top of it: tests/test_tile_counts.py).
SEEDS = {haunt: 7000 + haunt for haunt in HAUNTS}


def movement_left_asking_everything(st: BetrayalState, seat: str) -> int:
    """The base game's movement left as it was worked out before: the held cards' cap always asked."""
    if st.turn.stopped:
        return 0
    left = st.speed(seat) + st.turn.extra - st.turn.moved
    cap = effects.max_move(st, seat)
    if cap is not None:
        left = min(left, cap - st.turn.moved)
    return max(0, left)


def moves_with_nothing_kept(st: BetrayalState, seat: str) -> list[Action]:
    """The base game's move menu from a fresh walk of the room's doors, each doorway asked."""
    left = st.movement_left(seat)
    if left <= 0:
        return []
    e = st.ex[seat]
    exits, empty = st._ways_out(e.room, e.part)
    floor = st.house.floor_of(e.room)
    moves = [(cost, move_action(room, cost)) for room, cost, _ in exits]
    moves += [(1, act("explore", "door", SIDES[side])) for side in empty if st._can_discover(floor, e.room, side)]
    return [a for cost, a in moves if cost <= left]


def menu_asking_every_part(st: BetrayalState, seat: str) -> list[Action]:
    """The base game's turn menu with every part asked and no move menu or exits kept (the kept
    ones are put back afterwards)."""
    kept = st._moves_cache, st._exits_cache
    st._moves_cache, st._exits_cache = {}, {}
    try:
        e = st.ex[seat]
        blocked = effects.blocked(st, seat)
        out = [] if blocked else st._move_actions(seat) + effects.room_actions(st, seat) + effects.card_actions(st, seat)
        out += effects.status_actions(st, seat)
        if not blocked:
            out += st._item_actions(seat, e)
        if e.room not in st.no_end_rooms:
            out.append(END)
        return out
    finally:
        st._moves_cache, st._exits_cache = kept


def kept_exits_that_differ(st: BetrayalState) -> list[str]:
    """The rooms (and sides) whose kept exits differ from a fresh walk of their doors."""
    wrong = []
    for room in sorted(st.house.spots):
        for part in range(max(1, len(st.t.rooms[room].barrier))):
            if st.exits_at(room, part) != st._exits_from(room, part):
                wrong.append(f"{room} side {part}")
        if st.exits_at(room, 0, every_side=True) != st._exits_from(room, 0, every_side=True):
            wrong.append(f"{room} every side")
    return wrong


@pytest.mark.parametrize("haunt", HAUNTS)
def test_kept_turn_menu_is_the_fresh_one_at_every_turn_decision(haunt: int) -> None:
    players = 3 + haunt % 4
    st = new_game(SPEC, players, {"haunt": haunt, "force_haunt": True})
    st.quiet = True
    table = seeded_table(SEEDS[haunt])
    menus = {"before": 0, "after": 0}
    for _ in range(1500):
        req = st._req
        if req is not None and req.what == TURN_PROMPT and not st.ex[req.actor].dead:
            seat = req.actor
            where = f"haunt {haunt}, step {len(st.history)}, {seat} in {st.ex[seat].room}"
            assert Movement.movement_left(st, seat) == movement_left_asking_everything(st, seat), where
            assert Movement._move_actions(st, seat) == moves_with_nothing_kept(st, seat), where
            assert Turns._turn_actions(st, seat) == menu_asking_every_part(st, seat), where
            assert kept_exits_that_differ(st) == [], where
            menus["before" if st.haunt is None else "after"] += 1
        actor = st.to_move()
        if actor is None:
            break
        st.apply(table.for_actor(actor).choose(st, actor, st.legal_actions()))
    assert menus["before"] > 20, f"haunt {haunt}: too few turn menus before the reveal ({menus})"
    assert st.haunt is not None, f"haunt {haunt}: the game never reached the reveal"
    assert menus["after"] > 0, f"haunt {haunt}: no turn menu checked in the haunt phase ({menus})"


def test_changed_near_marks_the_rooms_next_to_a_tile_and_the_rooms_its_links_join() -> None:
    st = new_game(SPEC, 3, {})
    house = House(st.t.rooms)
    house.place("entrance-hall", "ground", (0, 0), 0)
    house.place("foyer", "ground", (0, 1), 0)
    hall, foyer = house.changed_near("entrance-hall"), house.changed_near("foyer")
    assert hall == foyer == house.version  # the foyer came next to the hall
    house.place("dining-room", "ground", (5, 5), 0)  # far from both, joined to neither
    assert (house.changed_near("entrance-hall"), house.changed_near("foyer")) == (hall, foyer)
    assert house.changed_near("dining-room") == house.version
    house.place("library", "ground", (1, 1), 0)  # next to the foyer's cell only
    assert house.changed_near("foyer") == house.version and house.changed_near("entrance-hall") == hall
    # the foyer's secret stairs lead to the stairs from the basement once that room is in the house
    assert "foyer" in link_watchers(st.t.rooms)["stairs-from-basement"]
    house.place("stairs-from-basement", "basement", (0, 0), 0)
    assert house.changed_near("foyer") == house.version
    house.remove("library")
    assert house.changed_near("foyer") == house.version
    copy = house.copy()
    assert all(copy.changed_near(r) == house.changed_near(r) for r in house.spots)


def explorer_at_turn_decision(seed: int = 3) -> tuple[BetrayalState, str]:
    """A seeded random 4-player game played to a turn decision some way into the exploration, with
    spaces left to move."""
    st = new_game(SPEC, 4, {})
    st.quiet = True
    table = seeded_table(seed)
    while True:
        req = st._req
        assert req is not None
        if req.what == TURN_PROMPT and len(st.history) > 40 and st.movement_left(req.actor) > 0:
            return st, req.actor
        st.apply(table.for_actor(req.actor).choose(st, req.actor, st.legal_actions()))


def test_a_link_replaced_by_another_changes_the_kept_menu() -> None:
    # the links made are part of the key by their contents: a haunt removes links with the rooms it
    # takes out, and a new link may come later, so their count can stay the same
    st, seat = explorer_at_turn_decision()
    here = st.ex[seat].room
    far = [r for r in sorted(st.house.spots) if r != here and r not in {to for to, _, _ in st.exits(seat)}]
    st.links = [(far[0], far[1], 1, "secret-passage")]
    before = st._move_actions(seat)
    st.links = [(here, far[2], 1, "secret-passage")]
    after = st._move_actions(seat)
    assert move_action(far[2], 1) in after and move_action(far[2], 1) not in before
    assert after == moves_with_nothing_kept(st, seat)


@pytest.mark.parametrize("tiles_left", [1, 2, 6])
def test_a_doorway_whose_every_tile_would_seal_the_floor_is_explored_only_with_the_last_tile(tiles_left: int) -> None:
    # Four one-door rooms around an empty cell, every door facing it: the floor's only four free
    # doorways, which any tile put there closes, and no dead-end room can be moved to keep one
    # open. The kept menu's shortcut (every doorway while the floor keeps more than four, or one
    # tile is left for it) must not apply but to the floor's last tile, which may seal it.
    st, seat = explorer_at_turn_decision()
    rooms = {"chapel": (0, 1), "conservatory": (1, 0), "graveyard": (0, -1), "mystic-elevator": (-1, 0)}
    st.house = House(st.t.rooms)
    for room, cell in rooms.items():
        facing = SIDES.index({(0, 1): "south", (1, 0): "west", (0, -1): "north", (-1, 0): "east"}[cell])
        (door,) = st.t.rooms[room].doors
        st.house.place(room, "ground", cell, (facing - door) % 4)
    ground_tiles = sorted(r.id for r in st.t.rooms.values() if r.placement == "stack" and r.floors == ("ground",))
    st.stack = ground_tiles[:tiles_left]
    st.aside, st.unshuffled_rooms = [], []
    st._tile_version += 1
    st._moves_cache, st._exits_cache = {}, {}  # a house put in by hand starts its versions again
    st.links = []
    e = st.ex[seat]
    e.room, e.part = "chapel", 0
    st.turn.moved, st.turn.stopped = 0, False
    assert st.house.free_count("ground") == 4 and not st.house.open_besides("ground", (0, 0))
    assert st.remaining_for("ground") == tiles_left and st.movement_left(seat) > 0
    menu = st._move_actions(seat)
    assert menu == moves_with_nothing_kept(st, seat)
    assert [a for a in menu if a.kind == "explore"] == ([act("explore", "door", "south")] if tiles_left == 1 else [])


def test_a_kept_event_usable_in_the_turn_is_offered_without_a_card_held() -> None:
    # the menu asks for the held cards' abilities when a card is held or an event kept: an explorer
    # with no card but a kept event whose ability may be used at any time in the turn is offered it
    st, seat = explorer_at_turn_decision()
    e = st.ex[seat]
    for card in e.cards:
        st.discards[st.t.cards[card].type].append(card)
    e.cards = []
    card = st.decks["event"].pop()
    e.kept.append(card)
    st.kept_abilities[card] = ({"trigger": "on-use", "do": [{"gain": {"knowledge": 1}}]},)
    menu = Turns._turn_actions(st, seat)
    assert act("use", "ability", f"kept:{card}#0") in menu
    assert menu == menu_asking_every_part(st, seat)
