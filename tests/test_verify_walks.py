"""The walks verify's families use instead of the standard ones give the same nodes in the same
order: ``checks/verify.py`` ``_nodes`` as ``ast.walk`` (the first place a rule id is cited
depends on it), ``checks/solver/world.py`` ``walk`` as a plain recursive depth-first walk."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import Any

from hauntcheck.checks import verify
from hauntcheck.checks.solver.world import walk
from hauntcheck.engine.games import available_games, game_spec
from hauntcheck.engine.spec import PathKey


def test_nodes_come_in_the_order_of_ast_walk() -> None:
    files = [file for game in available_games() for file in verify.engine_source_files(game)]
    assert len(files) > 50
    for file in files:
        tree = ast.parse(file.read_text(encoding="utf-8"))
        walked = list(ast.walk(tree))
        gathered = verify._nodes(tree)
        assert len(gathered) == len(walked) and all(a is b for a, b in zip(gathered, walked, strict=True)), file


def _recursive(node: Any, path: PathKey = ()) -> Iterator[tuple[PathKey, Mapping[str, Any]]]:
    if isinstance(node, Mapping):
        yield path, node
        for key, value in node.items():
            yield from _recursive(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _recursive(value, (*path, index))


def test_the_spec_walk_is_depth_first_in_file_order() -> None:
    files = [file for game in available_games() for file in game_spec(game).files.values()]
    mappings = 0
    for file in files:
        expected = list(_recursive(file.data))
        found = list(walk(file.data))
        assert [path for path, _ in found] == [path for path, _ in expected], file.display
        assert all(a is b for (_, a), (_, b) in zip(found, expected, strict=True)), file.display
        mappings += len(found)
    assert mappings > 5_000
