"""What the policy reads from a haunt's tasks and rules, from the spec alone.

Each reading here depends only on spec data (a task, a side, a haunt file), never on the state
of a game, so each is worked out once per spec object and kept (:class:`SpecMemo`, or
:meth:`HauntSpec.derived`): which tokens a task must hold, where a task is done and what it brings
the side, which statuses an outcome gives, the bonuses of a roll for holding something in a place.
:mod:`.turn` asks them at every decision.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from hauntcheck.engine.betrayal.hauntspec import HauntSpec, SideDef
from hauntcheck.engine.betrayal.policy.memo import SpecMemo, values_of

_HOLDS_TOKENS: SpecMemo[list[Any]] = SpecMemo()


def _held_tokens_asked(task: Mapping[str, Any]) -> list[Any]:
    """The task's ``holds_tokens`` requirements (from the spec alone, so found once per task)."""
    return _HOLDS_TOKENS.one(task, lambda: values_of(task.get("requires", {}), "holds_tokens"))


def _asks_held_tokens(hs: HauntSpec) -> bool:
    """Whether any task or action of the haunt (on any side's page) asks for held tokens: the
    tasks any explorer may take are drawn from these (:meth:`HauntSpec.tasks_by`)."""
    return any(_held_tokens_asked(task) for side in hs.sides().values() for task in [*side.tasks, *side.actions])


def _room_tokens_by_task(hs: HauntSpec) -> dict[str, str | None]:
    """Each task id's ``room_with_token`` (None without one), from the first task of that id in
    the book's order (sides, then each side's tasks before its actions)."""
    out: dict[str, str | None] = {}
    for side in hs.sides().values():
        for task in [*side.tasks, *side.actions]:
            where = task.get("where", {})
            out.setdefault(task["id"], str(where["room_with_token"]) if "room_with_token" in where else None)
    return out


def _each_trait_places(hs: HauntSpec) -> tuple[Mapping[str, Any], ...]:
    """The places (``where``) of the sides' tasks rolled with every trait (``roll.each_trait``)."""
    return tuple(task.get("where", {}) for side in hs.sides().values() for task in side.tasks
                 if task.get("roll", {}).get("each_trait"))


@dataclass(frozen=True)
class _PlaceShape:
    """What :func:`_task_rooms` reads from a task's spec alone (worked out once per task)."""

    takes_item: bool  # a ``take_item`` outcome: the card is taken where it lies, no room to seek
    yields: frozenset[str]  # :func:`_yields`
    held: tuple[Any, ...]  # what it must be done ``holding`` (a name or a list of them)
    takes_tokens: tuple[str, ...]  # the ``take_token`` of its success and ``do`` outcomes, in order
    places: tuple[Any, ...]  # its ``where``, or the ``in`` of each ``where_any``
    once_per_place: bool  # ``reuse: once-per-place``
    used_prefix: str  # how its used places begin in ``used_places``


_PLACE_SHAPES: SpecMemo[_PlaceShape] = SpecMemo()


def _place_shape(task: Mapping[str, Any]) -> _PlaceShape:
    """The task's :class:`_PlaceShape`, kept by the task object."""
    return _PLACE_SHAPES.one(task, lambda: _shape_of(task))


def _shape_of(task: Mapping[str, Any]) -> _PlaceShape:
    held = task.get("holding")
    return _PlaceShape(
        takes_item=any("take_item" in d for d in task.get("do", [])),
        yields=_yields(task),
        held=tuple([held] if isinstance(held, str) else held or ()),
        takes_tokens=tuple(str(e["take_token"]) for e in task.get("success", []) + task.get("do", []) if "take_token" in e),
        places=tuple([task["where"]] if "where" in task else [w["in"] for w in task.get("where_any", []) if "in" in w]),
        once_per_place=task.get("reuse") == "once-per-place",
        used_prefix=f"{task['id']}/")


def tasks_that(tasks: tuple[Mapping[str, Any], ...], hs: HauntSpec, name: str,
               keep: Callable[[Mapping[str, Any]], bool]) -> tuple[Mapping[str, Any], ...]:
    """The tasks of ``tasks`` (a haunt's own list, :meth:`HauntSpec.tasks_by`) that ``keep``
    accepts, in order. ``keep`` reads the task and the haunt spec ``hs`` only, never a game, so
    the answer is kept by the list, the haunt and ``name`` (which names ``keep``): the policy's
    loops over an explorer's tasks at every decision walk only those that may matter."""
    return _TASKS_THAT.pair(tasks, hs, name, lambda: tuple(task for task in tasks if keep(task)))


_TASKS_THAT: SpecMemo[tuple[Mapping[str, Any], ...]] = SpecMemo()


_SPENT_COUNTED: SpecMemo[list[tuple[str, Any]]] = SpecMemo()


def _spent_counted(own: SideDef) -> list[tuple[str, Any]]:
    """The tokens the side's rules use up (``destroy_item``) beside a count of them used up
    (``item_destroyed`` with a ``count``), with the count, rule by rule; kept by the side."""
    return _SPENT_COUNTED.one(own, lambda: _spent_counted_of(own))


def _spent_counted_of(own: SideDef) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for rule in [*own.tasks, *own.actions]:
        effs = [*rule.get("do", []), *rule.get("success", [])]
        spent = {str(e["destroy_item"]) for e in effs if isinstance(e.get("destroy_item"), str)}
        counted = {str(e["branch"]["when"]["item_destroyed"]["item"]): e["branch"]["when"]["item_destroyed"]["count"]
                   for e in effs if isinstance(e.get("branch"), Mapping) and isinstance(e["branch"].get("when"), Mapping)
                   and isinstance(e["branch"]["when"].get("item_destroyed"), Mapping)
                   and "count" in e["branch"]["when"]["item_destroyed"]}
        out += [(token, counted[token]) for token in sorted(spent & set(counted))]
    return out


def _outcomes(task: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Everything a task can bring about: its success and ``do`` outcomes and, for a roll read
    by bands (a search), each band's."""
    bands = task.get("roll", {}).get("bands", []) if isinstance(task.get("roll"), Mapping) else []
    return [*task.get("success", []), *task.get("do", []), *(eff for b in bands for eff in b.get("then", []))]


def _tasks_by_side_and_id(hs: HauntSpec) -> dict[tuple[str, str], Mapping[str, Any]]:
    """Each side's tasks and actions by (side, id): the first of an id, tasks before actions."""
    out: dict[tuple[str, str], Mapping[str, Any]] = {}
    for name, own in hs.sides().items():
        for task in [*own.tasks, *own.actions]:
            out.setdefault((name, task["id"]), task)
    return out


def _yields(task: Mapping[str, Any]) -> frozenset[str]:
    """What a task brings the side: the tokens it takes and the cards it fetches (from the spec
    alone, so worked out once per task)."""
    return _YIELDS.one(task, lambda: frozenset(_found(task)))


def _found(task: Mapping[str, Any]) -> set[str]:
    out: set[str] = set()
    for eff in task.get("success", []) + task.get("do", []):
        if isinstance(eff.get("take_token"), str):
            out.add(str(eff["take_token"]))
        if "fetch_card" in eff:
            card = eff["fetch_card"]["card"]
            out.update([card] if isinstance(card, str) else card)
    return out


_YIELDS: SpecMemo[frozenset[str]] = SpecMemo()


def _gives(effs: Iterable[Mapping[str, Any]]) -> set[str]:
    """Statuses an outcome list makes its target gain."""
    out: set[str] = set()
    for eff in effs:
        for sub in eff.get("on_target", []):
            if "become" in sub:
                out.add(str(sub["become"]))
            if "branch" in sub:  # either way of a branch (the Serum inoculates a hero, kills a traitor)
                out |= _gives([{"on_target": [*sub["branch"].get("then", []), *sub["branch"].get("else", [])]}])
    return out


_FIRST_BY_ID: SpecMemo[dict[Any, Mapping[str, Any]]] = SpecMemo()


def _first_by_id(tasks: tuple[Mapping[str, Any], ...]) -> dict[Any, Mapping[str, Any]]:
    """The first task of each id in a list of tasks (:meth:`tasks_for`), kept by the list."""
    def build() -> dict[Any, Mapping[str, Any]]:
        out: dict[Any, Mapping[str, Any]] = {}
        for task in tasks:
            out.setdefault(task["id"], task)
        return out

    return _FIRST_BY_ID.one(tasks, build)


_BONUS_TASK_IDS: SpecMemo[tuple[str, ...]] = SpecMemo()


def _bonus_task_ids(tasks: tuple[Mapping[str, Any], ...]) -> tuple[str, ...]:
    """The ids of the tasks whose first task of that id has a bonus :func:`_bonus_rooms` looks
    for (the others give no rooms), in order; kept by the list."""
    return _BONUS_TASK_IDS.one(tasks, lambda: tuple(
        str(t["id"]) for t in tasks if (first := _first_by_id(tasks).get(str(t["id"]))) is not None
        and _held_bonuses(first)))


_HELD_BONUSES: SpecMemo[tuple[tuple[tuple[Any, ...], tuple[Any, ...]], ...]] = SpecMemo()


def _held_bonuses(task: Mapping[str, Any]) -> tuple[tuple[tuple[Any, ...], tuple[Any, ...]], ...]:
    """The bonuses of the task's roll that count holding something in a place (``add`` with
    ``when: {all: [{holding: X}, {in: ...}]}``, not a risky ``fatal_below`` one), each as (what is
    held, the places), in order; from the spec alone, so kept by the task."""
    def build() -> tuple[tuple[tuple[Any, ...], tuple[Any, ...]], ...]:
        roll = task.get("roll")
        if not isinstance(roll, Mapping):
            return ()
        out = []
        for mod in roll.get("modifiers", ()):
            leaves = mod.get("when", {}).get("all", []) if "add" in mod else []
            held = tuple(x["holding"] for x in leaves if "holding" in x)
            where = tuple(x["in"] for x in leaves if "in" in x)
            if held and where and "fatal_below" not in mod:
                out.append((held, where))
        return tuple(out)

    return _HELD_BONUSES.one(task, build)
