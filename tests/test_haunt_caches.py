"""What the haunt phase keeps between decisions must be what a fresh computation gives: the house
graph (kept while no tile is placed or taken away, no link added and no room fallen; tile draws do
not throw it away), the monsters' ways out of each room (doorways kept by room, house version and
links; with the vertical and roll-gated passages also by those passages and the fall landings),
what each side is kept from and the tasks by timing (worked out once per haunt
spec), checked at every step of seeded random haunt games."""

from __future__ import annotations

import pytest

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.betrayal.haunt.pieces import HERO, TRAITOR
from hauntcheck.engine.betrayal.haunt.views import Kept, kept_from
from hauntcheck.engine.betrayal.state import Explorer
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import seeded_table

SPEC = game_spec("betrayal")
#: Haunts with many explorations in the haunt phase (1, 5, 10), a hidden traitor (34), hidden
#: tokens and statuses (39), a token field (27), rooms that fall (9's collapse), links (31) and
#: tasks that happen on entering a room or at a turn's end (1, 7, 9, 19, 27, 45).
HAUNTS = (1, 5, 7, 9, 10, 19, 27, 31, 34, 39, 45)
SEEDS = (0, 1, 2)
_SIDE = {"heroes": HERO, "traitor": TRAITOR}
#: The timings the engine looks tasks up by (``tasks_at``), and haunts here that have such tasks.
TIMINGS = ("on-entry", "end-of-turn")
TIMED = (1, 7, 9, 19, 27, 45)
#: Haunts here whose seeded games have a monster's vertical passage (a chute, fall or jump) in the house.
FALLS = (1, 5, 7, 9, 19, 45)


def fresh_kept(st: HauntState, seat: str) -> Kept:
    """What ``seat`` is kept from, read from the haunt file with nothing kept."""
    if st.hs is None or seat not in st.side:
        return Kept()
    side = st.side[seat]
    tokens = frozenset(t.id for t in st.hs.tokens.values() if t.hidden_from is not None and _SIDE[t.hidden_from] == side)
    statuses = {sid: sdef for sid, sdef in st.hs.statuses.items()
                if sdef.get("hidden_from") is not None and _SIDE[str(sdef["hidden_from"])] == side}
    return Kept(tokens, frozenset(statuses), frozenset(s for s, d in statuses.items() if d.get("told_on_death")))


def fresh_graph(st: HauntState) -> dict[str, set[str]]:
    """The house graph built anew, whatever is kept (the kept one is put back afterwards)."""
    kept = st._graph_key, st._graph_cache, st._back_cache
    st._graph_key = None
    try:
        return st._graph()
    finally:
        st._graph_key, st._graph_cache, st._back_cache = kept


def fresh_exits(st: HauntState, room: str) -> list[tuple[str, int, str]]:
    """A room's ways out from every side of a barrier, worked out anew."""
    return st._exits(Explorer("probe", "", room=room), every_side=True)


@pytest.mark.parametrize("number", HAUNTS)
def test_kept_graph_and_views_match_fresh_ones_at_every_step(number: int) -> None:
    checked = kept = timed = falls = 0
    for k, seed in enumerate(SEEDS):
        st = hauntmod.new_game(SPEC, 3 + (number + k) % 4, {"haunt": number, "force_haunt": True})
        table = seeded_table(seed)
        st.quiet = True
        for _ in range(3000):
            if st.hs is not None and not st.setting_up:
                assert st._graph() == fresh_graph(st), f"haunt {number}, seed {seed}, step {len(st.history)}"
                for room in sorted(st.house.spots):
                    assert st.exits_at(room, 0, every_side=True) == fresh_exits(st, room), f"haunt {number}, seed {seed}, {room}"
                    assert st._room_exits(room) == st._work_out_room_exits(room), f"haunt {number}, seed {seed}, {room}"
                    falls += any(how.startswith(("chute", "fall", "jump")) for _, _, how in st._room_exits(room))
                for seat in st.seat_ids:
                    assert kept_from(st, seat) == fresh_kept(st, seat), f"haunt {number}, seed {seed}, {seat}"
                    for timing in TIMINGS:
                        assert st.tasks_at(seat, timing) == tuple(t for t in st.tasks_for(seat) if t.get("timing") == timing)
                        timed += bool(st.tasks_at(seat, timing))
                    kept += bool(kept_from(st, seat))
                checked += 1
            actor = st.to_move()
            if actor is None:
                break
            st.apply(table.for_actor(actor).choose(st, actor, st.legal_actions()))
    assert checked, f"no game of haunt {number} reached its haunt phase"
    assert timed or number not in TIMED, f"haunt {number} has timed tasks: the check must see them"
    assert falls or number not in FALLS, f"haunt {number}'s games place a chute, fall or jump: the check must see it"
    if number == 39:
        assert kept, "haunt 39 keeps the Assassins and the heir from a side: the check must see it"
