"""The haunts' win goals are compiled once per haunt (``haunt/wins.py``): the compiled judges must
decide every goal as the predicates read straight from the haunt file do, at every step of seeded
random haunt games of all 50 haunts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.betrayal.haunt.predicates import PREDICATE_RANK, Predicates
from hauntcheck.engine.betrayal.haunt.state import haunt_tables
from hauntcheck.engine.betrayal.haunt.wins import goals_of
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import seeded_table

SPEC = game_spec("betrayal")
HAUNTS = sorted(haunt_tables(SPEC)[0])
SEEDS = (0, 1, 2)
PLAYERS = (3, 4, 5, 6)


def interpreted(st: Predicates, p: Mapping[str, Any]) -> bool:
    """A predicate judged with nothing compiled: its deciding key looked up in
    ``PREDICATE_RANK`` at every call, and ``all`` / ``any`` / ``not`` walked here."""
    key = min((k for k in p if k in PREDICATE_RANK), key=PREDICATE_RANK.__getitem__)
    if key == "all":
        return all(interpreted(st, x) for x in p["all"])
    if key == "any":
        return any(interpreted(st, x) for x in p["any"])
    if key == "not":
        return not interpreted(st, p["not"])
    test = getattr(Predicates, f"_pred_{key}")
    return bool(test(st, p, None, None, None))


def goals_agree(st: HauntState) -> list[str]:
    """Every goal whose compiled judge disagrees with the interpreted predicate, by id."""
    if st.hs is None or st.setting_up:
        return []
    return [goal.win.id for goal in goals_of(st.hs)
            if goal.judge(st, None, None, None) != interpreted(st, goal.win.when)]


def test_goals_are_compiled_once_per_haunt_spec() -> None:
    haunts = haunt_tables(SPEC)[0]
    hs = haunts[1][0]
    assert goals_of(hs) is goals_of(hs)
    assert [g.win.id for g in goals_of(hs)] == [w.id for side in hs.sides().values()
                                               for w in (*side.wins, *side.ends_without_winner)]


@pytest.mark.parametrize("number", HAUNTS)
def test_compiled_goals_judge_as_the_haunt_file_reads_at_every_step(number: int) -> None:
    judged = 0
    for k, seed in enumerate(SEEDS):
        players = PLAYERS[(number + k) % len(PLAYERS)]
        st = hauntmod.new_game(SPEC, players, {"haunt": number, "force_haunt": True})
        table = seeded_table(seed)
        st.quiet = True
        for _ in range(5000):
            wrong = goals_agree(st)
            assert not wrong, f"haunt {number}, seed {seed}, step {len(st.history)}: {wrong}"
            judged += st.hs is not None
            actor = st.to_move()
            if actor is None:
                break
            st.apply(table.for_actor(actor).choose(st, actor, st.legal_actions()))
    assert judged, f"no game of haunt {number} reached its haunt phase"
