"""Spec vocabulary: every trigger, keyword and hook a spec file names is carried out by the engine.

A spec says what happens in the shared vocabulary (``docs/effects.md``, ``docs/haunt-format.md``):
an ability's ``trigger``, ``timing``, ``who`` and ``limit``, the verb of each effect, the keys of a
condition, and the ``custom: <hook>`` escape hatch. The schemas accept every name of that
vocabulary, so a file may name one the engine never looks at, and the effect would be silently
ignored (the Blood Dagger's ``on-stolen`` was, until issue 22). This family finds every such name
and fails unless the game's engine source names it too: the engine dispatches on these names by
comparing with string literals (``ability.get("trigger") == "on-use"``) or by keys of its handler
tables (``VERBS``, ``EFFECT_HOOKS``, the haunt hook tables), so a name no literal of the engine
spells is a name nothing can act on.

An entry whose name is deliberately without mechanics says so with ``no_mechanics: <why>`` (on an
ability, an effect or a rule clause); everything below such an entry is skipped, and the reason
is printed with the other marks.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from hauntcheck.checks.verify import FAMILIES, Failure, FamilyResult, GameContext, engine_source
from hauntcheck.engine.spec import GameSpec, PathKey, SpecFile

#: Keys whose string value is a name the engine dispatches on.
DISPATCH_VALUES: dict[str, str] = {
    "trigger": "trigger",
    "timing": "timing",
    "who": "target set",
    "limit": "limit",
    "custom": "hook",
}
#: Keys whose mapping value holds condition keys (each key a predicate the engine evaluates).
CONDITION_KEYS = frozenset({"condition", "not"})
CONDITION_LISTS = frozenset({"all_of", "any_of"})
#: Keys that modify an effect (or document it) rather than name what it does.
MODIFIERS = frozenset({
    "who", "optional", "says", "cite", "unverified", "judgement", "sample", "variant", "unless_variant", "no_mechanics",
})
#: Keys whose values are prose or citations, never vocabulary.
PROSE = frozenset({"says", "cite", "unverified", "judgement", "sample", "no_mechanics", "name", "description", "why"})
#: The mark that exempts an entry (and everything below it) from this check.
NO_MECHANICS = "no_mechanics"


@dataclass(frozen=True)
class Named:
    """A vocabulary name used in a spec file: what kind of name, the name, and where."""

    what: str
    name: str
    file: SpecFile
    path: PathKey

    def where(self) -> str:
        return str(self.file.where(self.path))


def engine_names(game: str) -> frozenset[str]:
    """Every string literal in the game's engine source, docstrings left out (a docstring that
    mentions a trigger does not carry it out)."""
    return engine_source(game).strings


def vocabulary_used(spec: GameSpec) -> Iterator[Named]:
    """Every dispatch name the game's spec files use, outside entries marked ``no_mechanics``."""
    for _, file in sorted(spec.files.items()):
        yield from _walk(file, file.data, ())


def _walk(file: SpecFile, node: Any, path: PathKey) -> Iterator[Named]:
    if isinstance(node, dict):
        if NO_MECHANICS in node:
            return
        for key, value in node.items():
            if key in PROSE:
                continue
            here = (*path, key)
            if key in DISPATCH_VALUES and isinstance(value, str):
                yield Named(DISPATCH_VALUES[key], value, file, here)
            if key in CONDITION_KEYS and isinstance(value, dict):
                yield from _condition(file, value, here)
            if key in CONDITION_LISTS and isinstance(value, list):
                for index, item in enumerate(value):
                    if isinstance(item, dict):
                        yield from _condition(file, item, (*here, index))
            yield from _walk(file, value, here)
    elif isinstance(node, list):
        for index, item in enumerate(node):
            here = (*path, index)
            if isinstance(item, dict) and NO_MECHANICS not in item:
                verbs = [k for k in item if k not in MODIFIERS]
                # An entry of a list with a single key besides its modifiers is an effect (or a
                # haunt step): that key is its verb.
                if len(verbs) == 1:
                    yield Named("verb", verbs[0], file, (*here, verbs[0]))
            yield from _walk(file, item, here)


def _condition(file: SpecFile, cond: dict[str, Any], path: PathKey) -> Iterator[Named]:
    if NO_MECHANICS in cond:
        return
    for key in cond:
        if key not in PROSE and key != "custom":
            yield Named("condition", key, file, (*path, key))


def vocabulary_gaps(spec: GameSpec, known: frozenset[str]) -> list[Named]:
    """The names the spec uses that the engine never spells, in file order."""
    return [n for n in vocabulary_used(spec) if n.name not in known]


def family_vocabulary(ctx: GameContext) -> FamilyResult:
    """Every trigger, timing, target set, limit, verb, condition and hook named in a spec file is
    named by the engine too (or its entry is marked ``no_mechanics`` with a reason)."""
    result = FamilyResult("spec vocabulary", ctx.game)
    if ctx.spec is None or ctx.definition is None:
        result.skipped = "spec or engine did not load"
        return result
    known = engine_names(ctx.game)
    used = list(vocabulary_used(ctx.spec))
    result.checked = len(used)
    for named in used:
        if named.name not in known:
            result.failures.append(Failure(
                f"{named.where()}: {named.what} {named.name!r} is named in the spec but no {ctx.game} engine code "
                f"carries it out; implement it, or mark the entry `{NO_MECHANICS}: <why it has no mechanics>`"))
    result.notes.append(f"{len({n.name for n in used})} distinct trigger, verb, condition and hook names used "
                        f"{len(used)} times, each carried out by the engine")
    return result


def register() -> None:
    if not any(name == "spec vocabulary" for name, _ in FAMILIES):
        FAMILIES.append(("spec vocabulary", family_vocabulary))


register()
