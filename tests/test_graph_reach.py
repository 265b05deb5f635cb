"""``checks/graph.py`` ``reached``: what networkx's ``descendants`` and ``ancestors`` give, for
one source and for many at once, on the houses of seeded random Betrayal games."""

from __future__ import annotations

import networkx as nx

from hauntcheck.checks import graph
from hauntcheck.engine.games import game_spec, get_game
from hauntcheck.engine.play import run_fast, seeded_table


def test_reached_is_the_union_of_descendants_or_ancestors() -> None:
    spec, definition = game_spec("betrayal"), get_game("betrayal")
    compared = 0
    for seed in range(4):
        state = definition.new_game(spec, 3 + seed, {})
        run_fast(state, seeded_table(seed), stop="reveal")
        house = graph.house_graph(state)
        nodes = sorted(house.nodes)
        for index, node in enumerate(nodes):
            assert graph.reached(house.succ, [node]) == nx.descendants(house, node) | {node}
            assert graph.reached(house.pred, [node]) == nx.ancestors(house, node) | {node}
            several = nodes[index::7]
            assert graph.reached(house.pred, several) == set().union(*(nx.ancestors(house, n) | {n} for n in several))
            compared += 1
    assert compared > 40
