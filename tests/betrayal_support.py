"""Helpers shared by the Betrayal haunt tests: a policy game started on a haunt's first turn, and
a driver for the engine's sub-programs (generators of requests) with scripted dice."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Generator, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.betrayal.policy import policy, search_seed
from hauntcheck.engine.betrayal.state import Req
from hauntcheck.engine.core import CHANCE, Action, ActionList
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.play import PolicyController, seeded_table

Answer = Callable[[Req], Action]


@cache
def pick(kind: str, **args: Any) -> Callable[[Req], Action]:
    """Answer with the first option of ``kind`` whose arguments match (else the first option)."""
    def answer(req: Req) -> Action:
        assert isinstance(req.choices, ActionList)
        for a in req.choices:
            if a.kind == kind and all(a.get(k) == v for k, v in args.items()):
                return a
        return req.choices[0]
    return answer


#: A folder of this test run shared by its pytest-xdist workers (tests/conftest.py sets it): a seed
#: one worker found is read there by the others instead of searched again (a search plays up to
#: hundreds of games). It belongs to one run, so a seed is never reused after the engine changed.
shared_folder: Path | None = None

#: Seeds found by earlier searches, by "NUMBER-PLAYERSp" (written by `python tests/betrayal_support.py`).
#: A recorded seed is only a starting guess: it is used when its policy game still reveals the haunt
#: (played to the reveal once per run), else the seed is searched for as if it were not recorded.
RECORDED_SEEDS = Path(__file__).with_name("haunt_seeds.json")


@cache
def _recorded_seeds() -> dict[str, int]:
    if not RECORDED_SEEDS.exists():
        return {}
    seeds: dict[str, int] = json.loads(RECORDED_SEEDS.read_text(encoding="utf-8"))
    return seeds


def _find_seed(players: int, number: int) -> int:
    """A seed whose policy game reveals haunt ``number``: the recorded one if its game still does,
    else the first from 0 that does."""
    recorded = _recorded_seeds().get(f"{number}-{players}p")
    if recorded is not None:
        with contextlib.suppress(LookupError):  # the engine changed since it was recorded
            return search_seed(players, number, recorded, tries=1)
    return search_seed(players, number, 0)


@cache
def haunt_seed(players: int, number: int) -> int:
    """A seed whose policy game reveals haunt ``number`` at this player count (see _find_seed;
    found once per test run)."""
    if shared_folder is None:
        return _find_seed(players, number)
    found = shared_folder / f"haunt-{number}-{players}p.seed"
    if found.exists():
        return int(found.read_text())
    seed = _find_seed(players, number)
    # Written whole then renamed, so another worker reads either nothing or the whole number.
    part = found.with_suffix(f".{os.getpid()}.part")
    part.write_text(str(seed))
    part.replace(found)
    return seed


def started(players: int, number: int) -> HauntState:
    """A policy-played game just after the haunt's setup, on the first haunt turn."""
    seed = haunt_seed(players, number)
    return _to_first_haunt_turn(hauntmod.new_game(game_spec("betrayal"), players, {"haunt": number}), seed)


def forced(players: int, number: int, seed: int) -> HauntState:
    """A policy game whose first reveal is forced to be haunt ``number`` (option
    ``force_haunt``), just after the haunt's setup: for haunts whose chart cells a seeded
    exploration seldom reaches."""
    return _to_first_haunt_turn(hauntmod.new_game(game_spec("betrayal"), players, {"haunt": number, "force_haunt": True}), seed)


def _to_first_haunt_turn(st: HauntState, seed: int) -> HauntState:
    """The policy plays seed ``seed`` until the haunt's first round begins."""
    table = seeded_table(seed, PolicyController(policy, seed))
    while st.hround < 1:
        actor = st.to_move()
        assert actor is not None, st.outcome()
        st.apply(table.for_actor(actor).choose(st, actor, st.legal_actions()))
    return st


def on_hero_turn(players: int, number: int) -> tuple[HauntState, str, str]:
    """Just after haunt ``number``'s setup: the first living hero on its turn, and the traitor."""
    st = started(players, number)
    hero = st.living_heroes()[0]
    traitor = st.traitor()
    assert traitor is not None
    st.current = hero
    st.turn.keys.clear()
    return st, hero, traitor


def rolled(gen: Generator[Req, Action, Any], faces: Sequence[int | list[int]] = (), answer: Answer | None = None,
           face: int = 2) -> tuple[Any, list[Req]]:
    """Run an engine sub-program: the k-th dice roll shows ``faces[k]`` (one number on every die,
    or the list of faces), later rolls ``face`` on every die; players answer with
    ``answer(req)`` or their first option. Returns the program's value and its requests."""
    seen: list[Req] = []
    k = 0
    try:
        req = next(gen)
        while True:
            seen.append(req)
            if req.actor == CHANCE:
                action = next(iter(req.choices))
                if action.kind == "roll":
                    shown = faces[k] if k < len(faces) else face
                    k += 1
                    count = len(action["faces"])  # type: ignore[arg-type]
                    action = Action.of("roll", faces=list(shown) if isinstance(shown, list) else [shown] * count)
            else:
                assert isinstance(req.choices, ActionList)
                action = answer(req) if answer else req.choices[0]
            req = gen.send(action)
    except StopIteration as stop:
        return stop.value, seen


def drive(gen: Generator[Req, Action, Any], answer: Answer | None = None, face: int = 2) -> tuple[Any, list[Req]]:
    """Run a sub-program with every die showing ``face`` (2) and players answering ``answer`` or
    taking their first option."""
    return rolled(gen, (), answer, face)


def policy_game(players: int, seed: int, haunt: int, check_invariants: bool = False) -> HauntState:
    """The policy game of ``seed`` with option ``haunt``, played to its end; with
    ``check_invariants`` the haunt invariants are asserted after every step of the haunt phase."""
    st = hauntmod.new_game(game_spec("betrayal"), players, {"haunt": haunt})
    table = seeded_table(seed, PolicyController(policy, seed))
    while (actor := st.to_move()) is not None:
        st.apply(table.for_actor(actor).choose(st, actor, st.legal_actions()))
        if check_invariants and st.hs is not None:
            assert hauntmod.invariants(st) == [], (haunt, players, seed, len(st.history))
    return st


def played_out(players: int, number: int) -> HauntState:
    """The policy game of ``started`` played to its end, with the haunt invariants asserted after
    every step of the haunt phase."""
    return policy_game(players, haunt_seed(players, number), number, check_invariants=True)


def record_seeds(pairs: Sequence[str]) -> dict[str, int]:
    """Search again (from 0) every recorded seed and each "NUMBER-PLAYERSp" in ``pairs``, and write
    the table: after an engine change, so that the runs stop searching."""
    keys = sorted({*_recorded_seeds(), *pairs}, key=lambda k: (int(k.split("-")[1].removesuffix("p")), int(k.split("-")[0])))
    table = {key: search_seed(int(key.split("-")[1].removesuffix("p")), int(key.split("-")[0]), 0) for key in keys}
    RECORDED_SEEDS.write_text(json.dumps(table, indent=0) + "\n", encoding="utf-8")
    return table


if __name__ == "__main__":
    print(record_seeds(sys.argv[1:]))


def haunt_walk(number: int, seed: int, players: int, check: Callable[[HauntState], object]) -> int:
    """A seeded random game of haunt ``number`` (forced at the reveal), played quiet, with ``check``
    run before every decision of the haunt phase while nobody has won; the number of checks."""
    st = hauntmod.new_game(game_spec("betrayal"), players, {"haunt": number, "force_haunt": True})
    table = seeded_table(seed)
    st.quiet = True
    checked = 0
    for _ in range(5000):
        actor = st.to_move()
        if actor is None:
            break
        if st.hs is not None and st.result is None:
            check(st)
            checked += 1
        st.apply(table.for_actor(actor).choose(st, actor, st.legal_actions()))
    return checked
