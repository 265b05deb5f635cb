"""Rule coverage: which rule clauses the scenarios, golden transcripts, random playouts and (when
their records are given) the Hypothesis state machines' runs apply.

A rule that nothing exercises is a rule whose encoding nobody has checked; the report lists them.
The state machines (``hauntcheck.testing``, run by ``tests/test_machines.py``) write, per game and player count, how many of
their runs applied each rule (``rules-<game>-<n>p.json`` beside their failure transcripts);
``measure(..., machine_runs=DIR)`` adds those counts as the ``machines`` source.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hauntcheck.checks.verify import SCENARIO_ROOT, golden_files
from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.games import game_spec, get_game, rulebook
from hauntcheck.engine.play import play, seeded_table
from hauntcheck.engine.scenario import ScenarioRun, load_scenario, scenario_files
from hauntcheck.engine.spec import SpecErrors
from hauntcheck.engine.transcript import TranscriptHeader

SOURCES = ("scenarios", "golden", "playouts")
MACHINES = "machines"


@dataclass
class Coverage:
    game: str
    rules: list[str]
    sources: tuple[str, ...] = SOURCES
    counts: dict[str, Counter[str]] = field(default_factory=lambda: {s: Counter() for s in (*SOURCES, MACHINES)})
    variants: dict[str, str] = field(default_factory=dict)
    hooks: dict[str, list[str]] = field(default_factory=dict)
    #: Betrayal: per haunt file, what keeps the engine from playing it (empty: it plays), at file:line:column.
    haunts: dict[str, list[str]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    #: Rules whose clause says why it has no mechanics of its own (``no_mechanics``), by id.
    reasons: dict[str, str] = field(default_factory=dict)

    def unexercised(self) -> list[str]:
        return [r for r in self.rules if not any(self.counts[s][r] for s in self.sources)]

    def never(self) -> list[str]:
        """The gaps: rules nothing exercises and that give no reason for it."""
        return [r for r in self.unexercised() if r not in self.reasons]

    def explained(self) -> list[str]:
        """Rules nothing exercises because their clause says they have no mechanics."""
        return [r for r in self.unexercised() if r in self.reasons]

    def to_data(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rules": {r: {s: self.counts[s][r] for s in self.sources} for r in self.rules},
            "never_exercised": self.never(),
            "no_mechanics": {r: self.reasons[r] for r in self.explained()},
            "hooks": self.hooks,
            "haunts": self.haunts,
            "problems": self.problems,
        }


def measure(game: str, playouts: int = 20, max_steps: int = 5_000, machine_runs: Path | None = None) -> Coverage:
    """Count, per rule id, how many scenarios, golden transcripts and seeded random playouts of
    ``game`` applied it (each source counts a rule once per file or game), and with
    ``machine_runs`` (a folder of the state machines' ``rules-*.json`` records) how many machine
    runs did."""
    definition = get_game(game)
    spec = game_spec(game)
    book = rulebook(spec)
    coverage = Coverage(game, list(book.rules))
    for rule in spec.one("rules").data["rules"]:
        if "variant" in rule:
            coverage.variants[rule["id"]] = rule["variant"]
        if "no_mechanics" in rule:
            coverage.reasons[rule["id"]] = rule["no_mechanics"]
    folder = SCENARIO_ROOT / game
    for path in scenario_files(folder) if folder.is_dir() else []:
        try:
            result = ScenarioRun(load_scenario(path, str(path)), definition, spec).run()
        except SpecErrors as exc:
            coverage.problems.append(str(exc))
            continue
        coverage.counts["scenarios"].update(set(result.rules_applied))
    for path in golden_files(definition):
        try:
            log = transcripts.read(path)
        except SpecErrors as exc:
            coverage.problems.append(str(exc))
            continue
        coverage.counts["golden"].update(log.rules_applied())
    for seed in range(playouts):
        players = definition.min_players + seed % (definition.max_players - definition.min_players + 1)
        state = definition.new_game(spec, players, {})
        header = TranscriptHeader(game=game, players=players, seed=seed)
        stop = definition.milestones[0] if definition.milestones else None
        log = play(state, seeded_table(seed), header, stop=stop, max_steps=max_steps).transcript
        coverage.counts["playouts"].update(log.rules_applied())
    coverage.hooks = hooks_by_file(game)
    if game == "betrayal":
        from hauntcheck.engine.betrayal.haunt import support

        coverage.haunts = {r["file"]: r["blockers"] for _, r in sorted(support(spec).items())}
    if machine_runs is not None:
        coverage.sources = (*SOURCES, MACHINES)
        read_machine_runs(coverage, machine_runs)
    return coverage


def read_machine_runs(coverage: Coverage, folder: Path) -> None:
    """Add the state machines' records for the game (every player count) to its coverage."""
    records = sorted(folder.glob(f"rules-{coverage.game}-*p.json")) if folder.is_dir() else []
    if not records:
        coverage.problems.append(f"no state-machine records for {coverage.game} in {folder} (the machines write "
                                 f"rules-{coverage.game}-<n>p.json there: HAUNTCHECK_FAILURES=... pytest tests/test_machines.py)")
    for path in records:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            counts = data["rules"]
            if data.get("game") != coverage.game or not isinstance(counts, dict):
                raise ValueError("not a record of this game")
        except (ValueError, KeyError, TypeError) as exc:
            coverage.problems.append(f"{path}: not a state-machine rule record ({exc})")
            continue
        for rule, runs in counts.items():
            if rule not in coverage.rules:
                coverage.problems.append(f"{path}: unknown rule {rule!r}")
            elif isinstance(runs, int) and not isinstance(runs, bool):
                coverage.counts[MACHINES][rule] += runs


def hooks_by_file(game: str) -> dict[str, list[str]]:
    """The named hooks (``custom:`` entries) each spec file of the game uses."""
    spec = game_spec(game)
    out: dict[str, list[str]] = {}

    def walk(node: Any, found: list[str]) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("custom"), str):
                found.append(node["custom"])
            for value in node.values():
                walk(value, found)
        elif isinstance(node, list):
            for value in node:
                walk(value, found)

    for name, file in sorted(spec.files.items()):
        found: list[str] = []
        if isinstance(file.data, dict) and file.data.get("kind") == "haunt":
            # a haunt file's hooks, without the shared-effects conditions it borrows (vault-opened)
            from hauntcheck.engine.betrayal.hauntspec import custom_hooks_used

            found = [hook for _, hook in custom_hooks_used(file.data)]
        else:
            walk(file.data, found)
        if found:
            out[name] = sorted(set(found))
    return out
