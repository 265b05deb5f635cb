"""``hauntcheck lint``: spec files checked as a designer expects.

Every error of every file comes at once (the cross-references and game checks run even when the
schema found errors, over what is there). The files given together are one change: those of a
game are merged into the bundled spec (each replacing the bundled file of its name, a rules file
replacing the game's rules) before the cross-file and solver checks. A scenario is checked as
``dispute`` builds it; a transcript is recognised, its header checked as ``replay`` checks it,
and the user pointed to ``replay`` for its steps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from hauntcheck.engine.setup import reason
from hauntcheck.engine.spec import (
    SPEC_ROOT,
    GameSpec,
    SpecError,
    SpecErrors,
    SpecFile,
    Where,
    citation_errors,
    did_you_mean,
    load_file,
    read_spec_file,
    read_yaml,
)


@dataclass
class LintResult:
    errors: list[SpecError]
    notes: list[str]
    # A valid Betrayal haunt the engine cannot play yet: each missing piece at file:line.
    unplayable: list[str]


def lint(names: Sequence[str]) -> LintResult:
    from hauntcheck.engine.transcript import FORMAT

    errors: list[SpecError] = []
    notes: list[str] = []
    unplayable: list[str] = []
    by_game: dict[str, list[tuple[SpecFile, Path, bool]]] = {}
    for name in names:
        path = Path(name)
        try:
            data = read_yaml(path, name)[0]
            if isinstance(data, dict) and data.get("format") == FORMAT:
                errors.extend(_lint_transcript(path, name, notes))
                continue
            spec_file, found = read_spec_file(path, name)
        except SpecErrors as exc:
            errors.extend(exc.errors)
            continue
        errors.extend(found)
        game, game_errors = _game_of(spec_file, path)
        errors.extend(game_errors)
        if game is None:
            continue
        if spec_file.kind == "scenario":
            if not found:
                errors.extend(_lint_scenario(spec_file))
            continue
        by_game.setdefault(game, []).append((spec_file, path, not found))
        if spec_file.kind == "haunt" and game == "betrayal" and not found:
            from hauntcheck.engine.betrayal.haunt.playable import gaps

            unplayable += [gap.at(spec_file.where) for gap in gaps(spec_file.data)]
    for game, files in by_game.items():
        # A game has one rules file: several given together are each checked with the others.
        rules = [f for f in files if f[0].kind == "rules"]
        others = [f for f in files if f[0].kind != "rules"]
        for group in ([[r, *others] for r in rules] if len(rules) > 1 else [files]):
            errors.extend(_lint_game(game, group))
    return LintResult(_unique(errors), notes, unplayable)


def lint_in_context(spec_file: SpecFile, path: Path) -> list[SpecError]:
    """The checks of one schema-valid file as a change to the bundled spec of its game (what
    ``play --haunt-file`` requires before it plays a designer's haunt)."""
    game, errors = _game_of(spec_file, path)
    if game is None:
        return errors
    return _unique(errors + _lint_game(game, [(spec_file, path, True)]))


def _lint_transcript(path: Path, name: str, notes: list[str]) -> list[SpecError]:
    from hauntcheck.engine import setup
    from hauntcheck.engine import transcript as transcripts
    from hauntcheck.engine.games import game_spec

    try:
        log = transcripts.read(path, name)
        definition = setup.game_of(log)
        setup.start_from_header(log, definition, game_spec(definition.id))
    except SpecErrors as exc:
        return list(exc.errors)
    notes.append(f"{name}: a transcript; its header is valid. Check its steps with `hauntcheck replay {name}`")
    return []


def _game_of(spec_file: SpecFile, path: Path) -> tuple[str | None, list[SpecError]]:
    """The game a file belongs to: its ``game`` key (an unknown one is an error), else the folder
    it sits in (``spec/<game>/...``); None for files of no game (sources.yaml)."""
    from hauntcheck.engine.games import available_games, game_modules

    games = game_modules()  # the bundled games and those registered through entry points
    named = spec_file.data.get("game")
    if named is not None:
        if isinstance(named, str) and named in games:
            if named not in available_games():
                return None, [spec_file.error(("game",), f"game {named!r} is not installed here")]
            return named, []
        known = sorted(games)
        hint = did_you_mean(named, known)
        return None, [spec_file.error(("game",), f"unknown game {named!r}{hint}; known games: {', '.join(known)} "
                                                 "(so none of its cross-references could be checked)")]
    for parent in path.resolve().parents:
        if parent.name in games:
            return parent.name, []
    return None, []


def _lint_scenario(spec_file: SpecFile) -> list[SpecError]:
    """A scenario's setup and position, built as ``dispute`` builds them (dangling references to
    rooms, cards, seats and stats are refused there)."""
    from hauntcheck.engine.scenario import ScenarioRun

    try:
        ScenarioRun(spec_file).build()
    except SpecErrors as exc:
        return list(exc.errors)
    except (ValueError, LookupError, TypeError) as exc:  # a game refusing the scenario's options
        return [spec_file.error(("options",), reason(exc))]
    return []


def _lint_game(game: str, files: list[tuple[SpecFile, Path, bool]]) -> list[SpecError]:
    """The checks of the files of one game, as one change to the bundled spec."""
    from hauntcheck.engine.games import game_spec, get_game, rule_id_errors

    sources = load_file(SPEC_ROOT / "sources.yaml", "spec/sources.yaml")
    linted = {f.display for f, _, _ in files}
    alone = GameSpec(game, SPEC_ROOT, {f.display: f for f, _, _ in files}, sources)
    errors = citation_errors(alone)
    if any(f.kind == "rules" for f, _, _ in files):
        errors.extend(rule_id_errors(alone))
    merged = game_spec(game)
    for spec_file, path, _valid in files:
        merged = _with_file(merged, spec_file, path)
    definition = get_game(game)
    all_valid = all(valid for _, _, valid in files)
    try:
        cross = definition.cross_check(merged)
    except Exception:
        if all_valid:
            raise
        cross = []
    errors.extend(e for e in cross if e.where.file in linted)
    # Over a rules file the schema refused, its ids may be malformed rather than missing.
    errors.extend(_cited_rules_kept(game, [f for f, _, valid in files if f.kind == "rules" and valid]))
    if game == "betrayal" and all_valid:
        from hauntcheck.checks.solver import lint_haunt

        for spec_file, _, _ in files:
            if spec_file.kind == "haunt":
                errors.extend(lint_haunt(spec_file, merged))
    return errors


def _cited_rules_kept(game: str, rules_files: list[SpecFile]) -> list[SpecError]:
    """A rules file must keep every rule id the engine cites (as ``verify``'s rules family
    checks for the bundled one)."""
    from hauntcheck.checks.verify import engine_rule_references

    errors = []
    cited = engine_rule_references(game)
    for rules_file in rules_files:
        have = {str(rule.get("id")) for rule in rules_file.data.get("rules", []) if isinstance(rule, Mapping)}
        missing = [rule for rule in sorted(cited) if rule not in have]
        if missing:
            first = missing[0]
            more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
            errors.append(rules_file.error(("rules",), f"the engine cites rule {first!r} ({cited[first]}){more}, which this rules "
                                                       f"file does not define{did_you_mean(first, sorted(have))}"))
    return errors


def _with_file(bundled: GameSpec, spec_file: SpecFile, path: Path) -> GameSpec:
    """The bundled spec with ``spec_file`` added (or replacing the bundled file of that name)."""
    files = dict(bundled.files)
    key = f"{bundled.game}/{path.name}"
    for name, existing in bundled.files.items():
        if existing.path.resolve() == path.resolve():
            key = name
    if spec_file.kind == "rules":  # a game has one rules file: a linted one stands in for it
        key = next((n for n, f in bundled.files.items() if f.kind == "rules"), key)
    files[key] = spec_file
    return GameSpec(bundled.game, bundled.root, files, bundled.sources)


def _unique(errors: list[SpecError]) -> list[SpecError]:
    seen: set[tuple[Where, str]] = set()
    out = []
    for error in errors:
        if (error.where, error.message) not in seen:
            seen.add((error.where, error.message))
            out.append(error)
    return out
