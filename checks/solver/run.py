"""The solver checks run together: over one haunt file, over a whole game, for ``lint`` and for ``verify``.

:func:`check_haunt` runs every check of one haunt file; :func:`check_game` adds the chart and every
traitor-table rule; :func:`lint_haunt` gives one file's errors as located ``SpecError`` (the
component specs read once for many files); :func:`register` adds the ``solver`` family to the
verify report, and importing this module registers it.
"""

from __future__ import annotations

from collections.abc import Mapping

from hauntcheck.checks.solver.box import box_findings
from hauntcheck.checks.solver.chart import chart_findings, identity_findings
from hauntcheck.checks.solver.goals import goal_findings
from hauntcheck.checks.solver.placement import placement_findings
from hauntcheck.checks.solver.rolls import roll_findings
from hauntcheck.checks.solver.tables import table_findings
from hauntcheck.checks.solver.traitor import traitor_findings
from hauntcheck.checks.solver.world import SolverReport, World, world_of
from hauntcheck.checks.verify import FAMILIES, Failure, FamilyResult, GameContext
from hauntcheck.engine.spec import GameSpec, SpecError, SpecFile


def check_haunt(file: SpecFile, world: World) -> SolverReport:
    """Every solver check of one haunt file."""
    report = SolverReport()
    data = file.data
    if isinstance(data.get("traitor"), Mapping):
        traitor_findings(world, file, data["traitor"], ("traitor",), str(data.get("haunt_kind")), report)
    box_findings(world, file, report)
    roll_findings(world, file, report)
    goal_findings(file, report)
    table_findings(file, report)
    placement_findings(world, file, report)
    identity_findings(world, file, report)
    return report


def check_game(spec: GameSpec) -> SolverReport:
    """The solver checks over a whole game spec: the chart, every traitor-table rule, every haunt."""
    world = world_of(spec)
    report = SolverReport()
    chart_findings(world, report)
    if world.traitors_file is not None:
        for _number, (_title, rule, path) in sorted(world.traitors.items()):
            traitor_findings(world, world.traitors_file, rule, path, None, report)
    for file in sorted(spec.by_kind("haunt"), key=lambda f: f.display):
        report.extend(check_haunt(file, world))
    return report


_WORLDS: list[tuple[GameSpec, World]] = []


def _world_cached(spec: GameSpec) -> World:
    """world_of, kept for the last few specs (lint checks many files against one spec)."""
    for known, world in _WORLDS:
        if known is spec:
            return world
    world = world_of(spec)
    _WORLDS[:] = [*_WORLDS[-3:], (spec, world)]
    return world


def lint_haunt(spec_file: SpecFile, game_spec: GameSpec) -> list[SpecError]:
    """The solver checks of one haunt file against a game's component specs, as SpecErrors
    (notes are left out: lint reports what must be fixed)."""
    if spec_file.kind != "haunt":
        return []
    world = _world_cached(game_spec)
    report = check_haunt(spec_file, world)
    out = []
    for f in report.errors:
        message = f"[{f.check}] {f.message}" + (f"\n    counterexample: {f.counterexample}" if f.counterexample else "")
        out.append(SpecError(f.where, message))
    return out


def family_solver(ctx: GameContext) -> FamilyResult:
    """The verify family: the solver checks over a game's haunts (Betrayal only)."""
    result = FamilyResult("solver", ctx.game)
    if ctx.spec is None:
        result.skipped = "spec did not load"
        return result
    if not ctx.spec.by_kind("haunt") and not ctx.spec.by_kind("traitors"):
        result.applies = False
        return result
    report = check_game(ctx.spec)
    result.checked = sum(report.checked.values())
    result.failures = [Failure(f"[{f.check}] {f}", counterexample=f.counterexample) for f in report.errors]
    result.notes = [f"{k}: {v} claims checked" for k, v in sorted(report.checked.items())]
    result.notes += [f"[{f.check}] {f}" + (f" ({f.counterexample})" if f.counterexample else "") for f in report.notes]
    return result


def register() -> None:
    """Add the solver family to the verify report (once)."""
    if not any(name == "solver" for name, _ in FAMILIES):
        FAMILIES.append(("solver", family_solver))


register()
