"""Running a balance study: one game per task, tasks in chunks on worker processes (or a Dask
cluster), records sorted by task so the numbers never depend on how the work was spread.

Each task is (case, player count, index). Its game is a pure function of the study's settings
and the task: the seed is the index (for Betrayal started at the reveal, the index is the seed
of the start - see :func:`at_reveal`), so a surprising game is replayed from its record.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from hauntcheck.engine.balance.subjects import SUBJECTS, Case, Subject
from hauntcheck.engine.core import GameState, Rng
from hauntcheck.engine.games import game_spec, get_game
from hauntcheck.engine.play import Controller, PolicyController, SeededRandom, Table, play, seeded_table
from hauntcheck.engine.spec import GameSpec
from hauntcheck.engine.transcript import TranscriptHeader

CONTROLLERS = ("policy", "random", "mixed")
#: Steps after which a game is stopped and counted undecided (no game of the bundled specs comes near).
MAX_STEPS = 200_000


def case_data(case: Case) -> dict[str, Any]:
    """A case as ``balance.json`` writes it (``hooks`` only where the haunt has some)."""
    data: dict[str, Any] = {"label": case.label, "title": case.title, "options": dict(case.options)}
    if case.hooks:
        data["hooks"] = list(case.hooks)
    return data


@dataclass(frozen=True)
class Study:
    """The settings of a study; everything a worker needs to play any of its games."""

    game: str
    cases: tuple[Case, ...]
    players: tuple[int, ...]
    games: int
    controller: str = "policy"
    #: Betrayal: play from setup by the natural route instead of starting at the reveal.
    from_setup: bool = False
    #: A designer's haunt file standing in for the bundled haunt of its number.
    haunt_file: str | None = None
    #: ``(index, count)``, 1-based: play only every count-th task from the index-th.
    shard: tuple[int, int] = (1, 1)

    @property
    def subject(self) -> Subject:
        return SUBJECTS[self.game]

    @property
    def start(self) -> str:
        return "setup" if self.from_setup or self.game != "betrayal" else "reveal"

    def tasks(self) -> list[tuple[int, int, int]]:
        """(case position, players, index) of every game of this shard, in the study's order."""
        every = [(c, p, k) for c in range(len(self.cases)) for p in self.players for k in range(self.games)]
        index, count = self.shard
        return every[index - 1 :: count]

    def to_data(self) -> dict[str, Any]:
        data = asdict(self)
        data["cases"] = [case_data(c) for c in self.cases]
        data["players"] = list(self.players)
        data["shard"] = list(self.shard)
        return data

    @staticmethod
    def from_data(data: Mapping[str, Any]) -> Study:
        return Study(
            game=str(data["game"]),
            cases=tuple(Case(str(c["label"]), str(c["title"]), dict(c["options"]), tuple(c.get("hooks", ()))) for c in data["cases"]),
            players=tuple(int(p) for p in data["players"]),
            games=int(data["games"]),
            controller=str(data["controller"]),
            from_setup=bool(data["from_setup"]),
            haunt_file=data.get("haunt_file"),
            shard=(int(data["shard"][0]), int(data["shard"][1])),
        )


# --------------------------------------------------------------------------------------------
# Starting a Betrayal game at its reveal


#: Seeds tried per game by ``--from-setup``: game ``k`` is the first from seed ``k*STRIDE`` that reveals the haunt.
SEARCH_STRIDE = 1000


def at_reveal(study: Study, spec: GameSpec, haunt: int, players: int, index: int) -> GameState:
    """Game ``index``'s state at the reveal of ``haunt`` (``reveal.game_at_reveal``): the
    exploration of seed ``index``, played by the study's controller (the policy for ``mixed``),
    runs to its first reveal, where the haunt is played (forced onto it when the chart gives
    another) - the game ``hauntcheck play betrayal --haunt N --from-reveal --seed S`` plays."""
    from hauntcheck.engine.betrayal.reveal import game_at_reveal

    policy = get_game("betrayal").policy
    chooser = PolicyController(policy, index) if study.controller != "random" and policy is not None else None
    state, _ = game_at_reveal(spec, haunt, players, index, None, chooser)
    return state


# --------------------------------------------------------------------------------------------
# One game


def table_for(study: Study, seed: int, players: int) -> Table:
    """Chance seeded with ``seed``; players by the study's controller. ``mixed``: each seat is
    the policy or random player, drawn per game from the seed."""
    policy = get_game(study.game).policy
    if study.controller == "random" or policy is None:
        return seeded_table(seed)
    table = seeded_table(seed, PolicyController(policy, seed))
    if study.controller == "mixed":
        draw = Rng(seed).fork(2)
        seats: dict[str, Controller] = {}
        for i in range(players):
            if draw.below(2):
                seats[f"P{i + 1}"] = SeededRandom(seed * 7 + i + 1)
        table = Table(chance=table.chance, players=table.players, seats=seats)
    return table


class GameFailed(Exception):
    """The engine (or a haunt's hook) failed while a study played one of its games: the message
    names the game and how to replay it, where the bare error would name neither."""


def play_game(study: Study, spec: GameSpec, task: tuple[int, int, int]) -> dict[str, Any]:
    """Play one task's game to its end and return its record."""
    position, players, index = task
    try:
        return _play_game(study, spec, task)
    except LookupError as exc:
        if not isinstance(exc, KeyError):
            raise  # no game reveals the haunt: the study's own message
        failure: Exception = exc
    except Exception as exc:  # the engine's failure, not the study's
        failure = exc
    from hauntcheck.engine.balance.report import replay_command

    case = study.cases[position]
    # from setup, a Betrayal game's seed is found by a search; otherwise it is the game's index
    replay = "" if study.game == "betrayal" and study.start != "reveal" else \
        " (replay it: " + replay_command(study).format(players=players, seed=index, haunt=case.label, options="").strip() + ")"
    game = f"haunt {case.label} at {players} player{'s' if players != 1 else ''}, game {index}"
    raise GameFailed(f"{game}: {type(failure).__name__}: {failure}{replay}") from failure


def _play_game(study: Study, spec: GameSpec, task: tuple[int, int, int]) -> dict[str, Any]:
    position, players, index = task
    case = study.cases[position]
    definition = get_game(study.game)
    header = TranscriptHeader(study.game, players)
    seed = index
    table = None
    before = 0  # steps played before the study's start point that count (from setup: the exploration)
    if study.start == "reveal":
        state = at_reveal(study, spec, int(case.options["haunt"]), players, index)
    elif study.game == "betrayal":
        state, seed, table, before = _natural_reveal(study, spec, int(case.options["haunt"]), players, index)
    else:
        state = definition.new_game(spec, players, dict(case.options))
    result = play(state, table or table_for(study, seed, players), header, max_steps=MAX_STEPS)
    outcome = state.outcome()
    subject = study.subject
    ending = subject.ending(outcome)
    return {
        "haunt": case.label, "players": players, "index": index, "seed": seed,
        "ending": ending, "result": outcome.result if outcome else "stopped",
        "condition": subject.condition_of(outcome) if outcome else "step-limit",
        "rounds": subject.rounds_of(state), "steps": before + len(result.transcript.steps),
    }


def _natural_reveal(study: Study, spec: GameSpec, haunt: int, players: int, index: int) -> tuple[GameState, int, Table, int]:
    """``--from-setup``: the first game from seed ``index * SEARCH_STRIDE`` whose exploration,
    played by the study's controller, reveals the haunt; returned at the reveal with its seed,
    its table (so the game goes on exactly as ``hauntcheck play`` plays that seed) and the
    steps played so far."""
    from hauntcheck.engine.betrayal.haunt import new_game

    for seed in range(index * SEARCH_STRIDE, (index + 1) * SEARCH_STRIDE):
        state = new_game(spec, players, {"haunt": haunt})
        table = table_for(study, seed, players)
        explored = play(state, table, TranscriptHeader("betrayal", players), stop="reveal", max_steps=MAX_STEPS)
        if state.haunt is not None and state.haunt["number"] == haunt:
            return state, seed, table, len(explored.transcript.steps)
    raise LookupError(f"no game from seed {index * SEARCH_STRIDE} reveals haunt {haunt} with {players} players")


# --------------------------------------------------------------------------------------------
# Workers


_WORKER_SPECS: dict[tuple[str, str | None], GameSpec] = {}


def study_spec(game: str, haunt_file: str | None) -> GameSpec:
    """The spec a study plays: the bundled one, with a designer's haunt file in place of the
    bundled haunt of its number. Loaded once per process."""
    key = (game, haunt_file)
    if key not in _WORKER_SPECS:
        spec = game_spec(game)
        if haunt_file is not None:
            spec = with_haunt_file(spec, Path(haunt_file))
        _WORKER_SPECS[key] = spec
    return _WORKER_SPECS[key]


def with_haunt_file(spec: GameSpec, path: Path) -> GameSpec:
    """The spec with a designer's haunt file (from anywhere) added, in place of the bundled haunt
    of its number: `hauntcheck play --haunt-file`'s checks and loading (lint clean, playable by
    the engine; problems raise naming file, line and column)."""
    import argparse

    from hauntcheck.engine.betrayal.designer import haunt_file_options
    from hauntcheck.engine.commands.common import UsageError
    from hauntcheck.engine.lint import lint_in_context

    try:
        merged, _ = haunt_file_options(get_game(spec.game), argparse.Namespace(haunt_file=str(path)), {}, lint_in_context)
    except ValueError as exc:  # not a haunt file
        raise UsageError(str(exc)) from None
    return merged


def play_chunk(study_data: Mapping[str, Any], tasks: Sequence[tuple[int, int, int]]) -> list[dict[str, Any]]:
    """A worker's job: the games of some tasks (the study passed as plain data, so it travels to
    any process or cluster node)."""
    study = Study.from_data(study_data)
    spec = study_spec(study.game, study.haunt_file)
    return [play_game(study, spec, tuple(t)) for t in tasks]  # type: ignore[arg-type]


def chunks(tasks: Sequence[tuple[int, int, int]], workers: int) -> list[list[tuple[int, int, int]]]:
    """Tasks in chunks small enough to keep every worker busy to the end (about 8 per worker)
    and to move the progress bar, never more than 16 games."""
    size = max(1, min(16, len(tasks) // max(1, workers * 8)))
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


Progress = Callable[[int], None]


@dataclass
class Backend:
    """Where the games run: ``local`` worker processes (``jobs``; 1 = in this process) or a Dask
    cluster at ``address`` (None: a local cluster started for the study)."""

    kind: str = "local"
    jobs: int = 1
    address: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def run_study(study: Study, backend: Backend, progress: Progress | None = None) -> list[dict[str, Any]]:
    """Every game of the study's shard, as records in task order."""
    tasks = study.tasks()
    if backend.kind == "dask":
        results = _run_dask(study, tasks, backend, progress)
    elif backend.jobs <= 1:
        results = []
        spec = study_spec(study.game, study.haunt_file)
        for task in tasks:
            results.append(play_game(study, spec, task))
            if progress:
                progress(1)
    else:
        results = _run_processes(study, tasks, backend.jobs, progress)
    return sort_records(study, results)


def sort_records(study: Study, records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Records in the study's task order (case, players, index), whoever played them."""
    position = {c.label: i for i, c in enumerate(study.cases)}
    return sorted((dict(r) for r in records), key=lambda r: (position[str(r["haunt"])], int(r["players"]), int(r["index"])))


def _run_processes(study: Study, tasks: Sequence[tuple[int, int, int]], jobs: int, progress: Progress | None) -> list[dict[str, Any]]:
    data = study.to_data()
    results: list[dict[str, Any]] = []
    study_spec(study.game, study.haunt_file)  # forked workers inherit it loaded
    with ProcessPoolExecutor(max_workers=jobs, initializer=study_spec, initargs=(study.game, study.haunt_file)) as pool:
        pending: set[Future[list[dict[str, Any]]]] = {pool.submit(play_chunk, data, chunk) for chunk in chunks(tasks, jobs)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                records = future.result()
                results.extend(records)
                if progress:
                    progress(len(records))
    return results


def _run_dask(study: Study, tasks: Sequence[tuple[int, int, int]], backend: Backend, progress: Progress | None) -> list[dict[str, Any]]:
    try:
        # Untyped library: its objects are used as Any.
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise RuntimeError("the Dask backend needs the 'cluster' extra: pip install 'hauntcheck[cluster]'") from None
    data = study.to_data()
    results: list[dict[str, Any]] = []
    cluster = None
    if backend.address is None:
        cluster = distributed.LocalCluster(n_workers=max(1, backend.jobs), threads_per_worker=1,
                                           processes=backend.extra.get("processes", True), dashboard_address=None)
    try:
        with distributed.Client(backend.address if cluster is None else cluster) as client:
            parts = chunks(tasks, backend.jobs)
            futures = client.map(play_chunk, [data] * len(parts), parts, pure=False)
            for future in distributed.as_completed(futures):
                records = future.result()
                results.extend(records)
                if progress:
                    progress(len(records))
    finally:
        if cluster is not None:
            cluster.close()
    return results


def cpu_count() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
