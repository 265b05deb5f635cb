"""The pytest plugin (entry point ``pytest11``), off unless ``pytest --hauntcheck`` asks for it.

It collects hauntcheck's checks as test items, so ``-k``, ``--junitxml``, pytest-xdist and CI
annotation plugins work on them:

- ``verify[<game>/<family>]``: one item per family of checks over each game;
- ``golden[<game>/<path>]``: one item per golden transcript, replayed strictly;
- ``dispute[<game>/<path>]``: one item per dispute scenario.

Paths are relative to the game's scenario folder, so ``pytest --hauntcheck -k frog`` runs haunt
3's golden games and disputes (``haunts/03-frog-leg-stew/...``). ``--hauntcheck-game G`` limits
the items to some games; ``--hauntcheck-scenarios DIR`` and ``--hauntcheck-spec DIR`` point them
at a project's own folders.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hauntcheck", "hauntcheck rules checks")
    group.addoption("--hauntcheck", action="store_true", default=False,
                    help="collect hauntcheck's check families, golden transcripts and dispute scenarios as test items")
    group.addoption("--hauntcheck-game", action="append", default=[], metavar="GAME", help="only this game (repeatable)")
    group.addoption("--hauntcheck-spec", metavar="DIR", default=None, help="a spec folder with one subfolder per game")
    group.addoption("--hauntcheck-scenarios", metavar="DIR", default=None, help="a folder of transcripts and scenarios per game")


class CheckFailed(Exception):
    """A hauntcheck item's problems, shown as the item's failure without a traceback."""


class HauntcheckItem(pytest.Item):
    def __init__(self, *, run: Callable[[], list[str]], where: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._run = run
        self._where = where

    def runtest(self) -> None:
        problems = self._run()
        if problems:
            raise CheckFailed("\n".join(problems))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, CheckFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path | str, int | None, str]:
        return self._where, None, self.name


class HauntcheckCollector(pytest.Collector):
    """The items of every game (the parent of all hauntcheck items)."""

    def collect(self) -> Iterator[pytest.Item]:
        from hauntcheck.checks import verify
        from hauntcheck.engine.games import available_games
        from hauntcheck.engine.spec import SPEC_ROOT

        config = self.config
        games = config.getoption("hauntcheck_game") or available_games()
        spec_root = Path(config.getoption("hauntcheck_spec") or SPEC_ROOT).resolve()
        scenario_root = Path(config.getoption("hauntcheck_scenarios") or verify.SCENARIO_ROOT).resolve()
        for game in games:
            yield from self._game_items(game, spec_root, scenario_root)

    def _item(self, name: str, run: Callable[[], list[str]], where: str) -> HauntcheckItem:
        return HauntcheckItem.from_parent(self, name=name, run=run, where=where)

    def _game_items(self, game: str, spec_root: Path, scenario_root: Path) -> Iterator[pytest.Item]:
        from hauntcheck.checks import verify
        from hauntcheck.checks.output import display_path, slug
        from hauntcheck.engine.scenario import scenario_files

        def context() -> verify.GameContext:
            return verify.load_context(game, spec_root, scenario_root)

        for name, family in verify.families():
            def run_family(family: verify.Family = family) -> list[str]:
                result = family(context())
                return [f.message for f in result.failures]

            yield self._item(f"verify[{game}/{slug(name)}]", run_family, f"spec/{game}")
        folder = scenario_root / game
        for path in verify.transcript_files(folder):
            def replay(path: Path = path) -> list[str]:
                ctx = context()
                if ctx.spec is None or ctx.definition is None:
                    return ctx.spec_errors
                from hauntcheck.engine import transcript as transcripts

                result = verify.replay_transcript(transcripts.read(path), ctx.definition, ctx.spec)
                return [] if result.divergence is None else [result.divergence.render(display_path(path))]

            yield self._item(f"golden[{game}/{path.relative_to(folder).with_suffix('').as_posix()}]", replay, display_path(path))
        for path in scenario_files(folder) if folder.is_dir() else []:
            def dispute(path: Path = path) -> list[str]:
                from hauntcheck.engine.scenario import ScenarioRun, load_scenario

                ctx = context()
                return list(ScenarioRun(load_scenario(path, display_path(path)), ctx.definition, ctx.spec).run().failures)

            yield self._item(f"dispute[{game}/{path.relative_to(folder).with_suffix('').as_posix()}]", dispute, display_path(path))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    # tryfirst: the items must be in place before `-k` and `-m` deselect.
    if not config.getoption("hauntcheck"):
        return
    collector = HauntcheckCollector.from_parent(session, name="hauntcheck")
    collected = list(collector.collect())
    # Reported as collected, so that the terminal's counts ("collected N items") include them.
    reported: list[pytest.Item | pytest.Collector] = [*collected]
    config.hook.pytest_collectreport(report=pytest.CollectReport(collector.nodeid, "passed", None, reported))
    items.extend(collected)
