"""A turn judges the goals only where a judgement could differ from the one just made
(``haunt/turns.py`` ``haunt_turn`` and ``quiet_turns``, ``haunt/state.py`` ``play_rounds``): as a
turn starts in a haunt where nothing happens before the turn's own judgement, and between turns in
a haunt where nothing happens after a turn's last one. Seeded random games of all 50 haunts must end
with the same outcome at the same step, through the same actions, as when every turn judges at
every one of those places, each action telling the same events, and the quiet haunts must judge
less often."""

from __future__ import annotations

from typing import Any

import pytest
from compiled_support import replaces_a_compiled_method

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt.state import haunt_tables
from hauntcheck.engine.betrayal.haunt.turns import QuietTurns, Turns, quiet_turns
from hauntcheck.engine.betrayal.haunt.wins import Wins
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import seeded_table

SPEC = game_spec("betrayal")
HAUNTS = sorted(haunt_tables(SPEC)[0])
SEEDS = (0, 1)
PLAYERS = (3, 4, 5, 6)
#: Haunts whose turns are quiet at both ends (their judgements must become fewer).
QUIET = (1, 10, 13, 31)


def played(number: int, seed: int, players: int, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], Any, int, int]:
    """The actions of a seeded random game of haunt ``number`` with the events of each (a win
    found later than it should be would let the turn's start go on and tell of it), its outcome,
    its last step and how many times the goals were judged."""
    judged = 0
    check_wins = Wins._check_wins

    def counted(self: Wins) -> bool:
        nonlocal judged
        judged += 1
        return check_wins(self)

    st = hauntmod.new_game(SPEC, players, {"haunt": number, "force_haunt": True})
    table = seeded_table(seed)
    actions = []
    with monkeypatch.context() as m:
        m.setattr(Wins, "_check_wins", counted)
        for _ in range(5000):
            actor = st.to_move()
            if actor is None:
                break
            a = table.for_actor(actor).choose(st, actor, st.legal_actions())
            actions.append((a, [event.to_data() for event in st.apply(a)]))
    return actions, st.outcome(), len(st.history), judged


def both_ways(number: int, monkeypatch: pytest.MonkeyPatch) -> list[tuple[tuple[Any, ...], tuple[Any, ...]]]:
    """Each seeded game played as the engine plays it, and with every turn judging everywhere."""
    games = [(seed, PLAYERS[(number + k) % len(PLAYERS)]) for k, seed in enumerate(SEEDS)]
    skipped = [played(number, seed, players, monkeypatch) for seed, players in games]
    with monkeypatch.context() as m:
        m.setattr(Turns, "quiet_turns", lambda self: QuietTurns(start=False, end=False))
        everywhere = [played(number, seed, players, monkeypatch) for seed, players in games]
    return list(zip(skipped, everywhere, strict=True))


@replaces_a_compiled_method("Turns.quiet_turns")
@pytest.mark.long
@pytest.mark.parametrize("number", HAUNTS)
def test_turns_judge_where_it_could_matter(number: int, monkeypatch: pytest.MonkeyPatch) -> None:
    for seed, (got, want) in zip(SEEDS, both_ways(number, monkeypatch), strict=True):
        assert got[1] is not None, f"haunt {number}, seed {seed}: the game did not end"
        assert got[1:3] == want[1:3], f"haunt {number}, seed {seed}: outcome and last step"
        assert got[0] == want[0], f"haunt {number}, seed {seed}: the actions or their events differ"
        assert got[3] <= want[3], f"haunt {number}, seed {seed}: judged more often than everywhere"


@replaces_a_compiled_method("Turns.quiet_turns")
@pytest.mark.parametrize("number", QUIET)
def test_quiet_haunts_judge_less(number: int, monkeypatch: pytest.MonkeyPatch) -> None:
    hs = haunt_tables(SPEC)[0][number][0]
    assert quiet_turns(hs) == QuietTurns(start=True, end=True)
    games = both_ways(number, monkeypatch)
    assert sum(got[3] for got, _ in games) < sum(want[3] for _, want in games)
