"""Seed searches for golden games: the first seed whose policy-played game reveals a haunt (and ends
with a result), and the golden cases that cover a haunt's results and player counts.

``--haunt N`` and ``hauntcheck golden --update`` record the seed found, so a replay never
searches.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hauntcheck.engine.betrayal.policy.decide import policy


def search_seed(players: int, haunt: int, start: int = 0, options: Mapping[str, Any] | None = None,
                tries: int = 5000, result: str | None = None) -> int:
    """The first seed from ``start`` whose policy-played game reveals ``haunt`` (and, with
    ``result``, ends with that result). The generator's job for ``--haunt N``: the seed found is
    recorded, so a replay never searches."""
    from hauntcheck.engine.betrayal.haunt import new_game
    from hauntcheck.engine.games import game_spec
    from hauntcheck.engine.play import PolicyController, play, seeded_table
    from hauntcheck.engine.transcript import TranscriptHeader

    spec = game_spec("betrayal")
    opts = {**(options or {}), "haunt": haunt}
    for seed in range(start, start + tries):
        state = new_game(spec, players, opts)
        table = seeded_table(seed, PolicyController(policy, seed))
        header = TranscriptHeader("betrayal", players)
        play(state, table, header, stop=None if result else "reveal", max_steps=200_000)
        if state.haunt is None or state.haunt["number"] != haunt:
            continue
        outcome = state.outcome()
        if result is None or (outcome is not None and outcome.result == result):
            return seed
    raise LookupError(f"no seed in {start}..{start + tries - 1} reveals haunt {haunt} with {players} players"
                      + (f" and ends '{result}'" if result else ""))


def search_decided(players: int, haunt: int, start: int = 0, options: Mapping[str, Any] | None = None,
                   tries: int = 5000) -> tuple[int, list[int]]:
    """The first seed from ``start`` whose policy game reveals ``haunt`` and ends with a winner
    (or the haunt's no-winner ending), and the seeds passed over because their game revealed the
    haunt but hit the round limit - each of those is a failure of the policy to report."""
    skipped: list[int] = []
    seed = start
    while True:
        seed = search_seed(players, haunt, seed, options, tries - (seed - start))
        if _ends_decided(players, haunt, seed, options):
            return seed, skipped
        skipped.append(seed)
        seed += 1


def _ends_decided(players: int, haunt: int, seed: int, options: Mapping[str, Any] | None) -> bool:
    from hauntcheck.engine.betrayal.haunt import new_game
    from hauntcheck.engine.games import game_spec
    from hauntcheck.engine.play import PolicyController, play, seeded_table
    from hauntcheck.engine.transcript import TranscriptHeader

    state = new_game(game_spec("betrayal"), players, {**(options or {}), "haunt": haunt})
    play(state, seeded_table(seed, PolicyController(policy, seed)), TranscriptHeader("betrayal", players), max_steps=200_000)
    outcome = state.outcome()
    return outcome is not None and outcome.result != "undecided"


def plan_golden(haunt: int, results: Iterable[str], tries: int = 2000) -> list[Any]:
    """Golden cases for a haunt: each result in ``results`` at least once and every player
    count 3 to 6 once, with the first seed (policy play) that gives each pair. Raises
    LookupError naming what could not be found."""
    from hauntcheck.engine.betrayal.haunt import new_game
    from hauntcheck.engine.games import GoldenCase, game_spec
    from hauntcheck.engine.play import PolicyController, play, seeded_table
    from hauntcheck.engine.transcript import TranscriptHeader

    spec = game_spec("betrayal")
    wanted = list(results)
    found: dict[tuple[int, str], int] = {}
    for players in (3, 4, 5, 6):
        for seed in range(tries):
            state = new_game(spec, players, {"haunt": haunt})
            play(state, seeded_table(seed, PolicyController(policy, seed)), TranscriptHeader("betrayal", players),
                 max_steps=200_000)
            outcome = state.outcome()
            if outcome is not None and outcome.result in wanted and (players, outcome.result) not in found:
                found[(players, outcome.result)] = seed
                if all((players, r) in found for r in wanted):
                    break
    # Give each result its own player counts first, then fill the other counts with any result.
    chosen: dict[int, str] = {}
    for result in sorted(wanted, key=lambda r: sum(1 for k in found if k[1] == r)):
        free = [p for p in (3, 4, 5, 6) if p not in chosen and (p, result) in found]
        if not free:
            raise LookupError(f"haunt {haunt}: no policy game ending '{result}' in {tries} seeds at any free player count")
        chosen[free[0]] = result
    for players in (3, 4, 5, 6):
        if players not in chosen:
            any_result = next((r for r in wanted if (players, r) in found), None)
            if any_result is None:
                raise LookupError(f"haunt {haunt}: no decided policy game with {players} players in {tries} seeds")
            chosen[players] = any_result
    return [
        GoldenCase(f"haunt-{haunt}-{chosen[p]}-{p}p-seed-{found[(p, chosen[p])]}", players=p, seed=found[(p, chosen[p])],
                   options={"haunt": haunt}, controller="policy")
        for p in sorted(chosen)
    ]
