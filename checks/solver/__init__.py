"""Solver checks over the Betrayal haunt specs: what a haunt's setup and rules can ever do.

For every haunt file and every player count 3 to 6:

* **traitor** - the traitor rule (``traitors.yaml`` and the haunt file's own ``traitor``) picks
  exactly one explorer for every legal party: every choice of explorers with at most one side of
  each character card, every seating, every revealer and every value the compared trait can hold
  on the explorers' 8-value tracks, with the table's tie-break. The claim is proved with z3 (the
  negation is unsatisfiable) or a party that breaks it is printed. Hidden-traitor and no-traitor
  haunts must say so in both places.
* **box** - the monsters and tokens the haunt's setup and play can put out never exceed the counts
  in ``components.yaml`` (large and small monster tokens, item, square and trait-roll tokens).
* **rolls** - every roll with a target can succeed for some explorer that can be in the party
  (at most 8 dice; a die shows 0, 0, 1, 1, 2 or 2), fixed-dice rolls and bands can reach their
  numbers, and rolls that can never fail are noted.
* **goals** - a win or action that needs N tokens earned (or held) has N of them to be had and
  something that earns them; N monsters defeated needs N monsters.
* **tables** - player-count tables cover 3 to 6 with no gap or overlap; Turn/Damage stat rows have
  no gap or overlap either.
* **placement** - rooms and floors a placement names exist, enough rooms with the needed symbol or
  on the needed list exist, and ``min_tiles_from`` constraints fit on some house or declare a
  fallback.
* **chart** - the haunt chart is total over its 13 x 13 cells, every number has a traitor-table
  entry, and every haunt file agrees with the cells and table entry that point to it.

Every finding names the file, line and column of the spec value it is about. ``register()`` adds
the ``solver`` family to the verify report; ``lint_haunt`` runs the same checks on one file.

One module per check (:mod:`.traitor`, :mod:`.box`, :mod:`.rolls`, :mod:`.goals`, :mod:`.tables`,
:mod:`.placement`, :mod:`.chart`), what they all read in :mod:`.world`, and :mod:`.run` (the checks
together; importing the package registers the ``solver`` family).
"""

from __future__ import annotations

from hauntcheck.checks.solver.box import box_findings, token_needs
from hauntcheck.checks.solver.chart import chart_findings, draft_findings, identity_findings
from hauntcheck.checks.solver.goals import goal_findings
from hauntcheck.checks.solver.placement import placement_findings
from hauntcheck.checks.solver.rolls import best_dice, roll_findings
from hauntcheck.checks.solver.run import check_game, check_haunt, family_solver, lint_haunt, register
from hauntcheck.checks.solver.tables import table_findings
from hauntcheck.checks.solver.traitor import TraitorVerdict, describe_rule, pick_traitor, prove_traitor_rule, traitor_findings
from hauntcheck.checks.solver.world import (
    FLOORS,
    KIND_RULES,
    MAX_DICE,
    PICKING,
    PLAYER_COUNTS,
    TRAITS,
    ExplorerInfo,
    Finding,
    PathKey,
    SolverReport,
    TieBreak,
    World,
    amount,
    walk,
    world_of,
)

__all__ = [
    "FLOORS",
    "KIND_RULES",
    "MAX_DICE",
    "PICKING",
    "PLAYER_COUNTS",
    "TRAITS",
    "ExplorerInfo",
    "Finding",
    "PathKey",
    "SolverReport",
    "TieBreak",
    "TraitorVerdict",
    "World",
    "amount",
    "best_dice",
    "box_findings",
    "chart_findings",
    "check_game",
    "check_haunt",
    "describe_rule",
    "draft_findings",
    "family_solver",
    "goal_findings",
    "identity_findings",
    "lint_haunt",
    "pick_traitor",
    "placement_findings",
    "prove_traitor_rule",
    "register",
    "roll_findings",
    "table_findings",
    "token_needs",
    "traitor_findings",
    "walk",
    "world_of",
]
