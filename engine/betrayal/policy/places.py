"""Rooms the policy heads for beyond its tasks: a guard post beside what the side must keep, the
rooms where a monster's ritual works, where the tokens a win counts lie, and where an escorted
figure is taken - split from :mod:`turn`, which weighs them against the rest."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.betrayal.haunt import HauntState, Monster
from hauntcheck.engine.betrayal.hauntspec import HauntSpec, SideDef
from hauntcheck.engine.betrayal.policy.memo import SpecMemo
from hauntcheck.engine.betrayal.policy.paths import dist_to
from hauntcheck.engine.core import Action


def _win_token_rooms(st: HauntState, seat: str, side: str) -> list[str]:
    """Rooms of the side's tasks that earn the tokens one of its wins counts (``tokens_collected``)."""
    own = st.hs.sides().get(side) if st.hs is not None else None
    if own is None:
        return []
    out: list[str] = []
    for where in _WIN_TOKEN_PLACES.one(own, lambda: _win_token_places(own)):
        out += [r for r in st._rooms_for(where) if r in st.house.spots]
    return out


_WIN_TOKEN_PLACES: SpecMemo[tuple[Any, ...]] = SpecMemo()


def _win_token_places(own: SideDef) -> tuple[Any, ...]:
    """The places (``where``) of the side's tasks that earn a token one of its wins counts, in
    order (from the spec alone, so kept by the side)."""
    counted: set[str] = set()

    def visit(p: Any) -> None:
        if isinstance(p, Mapping):
            spec = p.get("tokens_collected")
            if isinstance(spec, Mapping):
                counted.update(str(t) for t in ([spec["token"]] if "token" in spec else spec.get("tokens", [])))
            for key, value in p.items():
                if key != "not":
                    visit(value)
        elif isinstance(p, list):
            for x in p:
                visit(x)

    for win in own.wins:
        visit(win.when)
    out: list[Any] = []
    for task in own.tasks:
        earns = {str(e["earn"].get("token")) for e in task.get("success", []) + task.get("do", []) if "earn" in e}
        if earns & counted and "where" in task:
            out.append(task["where"])
    return tuple(out)


def _company_rooms(st: HauntState) -> list[str]:
    """Rooms of monsters whose turn starts by asking whether a hero is with them (a ``branch``
    on ``not: {in: {room_of: heroes}}``: Death's chessboard, left empty, loses the game)."""
    if st.hs is None:
        return []
    kinds = st.hs.derived("policy-company-kinds", _company_kinds)
    return sorted({m.room for m in st.active_monsters() if m.kind in kinds}) if kinds else []


def _company_kinds(hs: HauntSpec) -> frozenset[str]:
    """The haunt's monster kinds whose turn starts by asking whether a hero is with them."""
    return frozenset(mdef.id for mdef in hs.monsters.values() for rule in mdef.must if rule.get("when") == "start-of-turn"
                     and any(d.get("branch", {}).get("when") == {"not": {"in": {"room_of": "heroes"}}}
                             for d in rule.get("do", [])))


def _guard_post(st: HauntState, seat: str, by_kind: dict[str, list[Action]]) -> Action | None:
    """A hero keeps such a monster company: the one hero with it stays (doing its tasks there,
    then ending the turn); with nobody there, the hero nearest it (first seat on ties) goes."""
    for room in _company_rooms(st):
        there = [s for s in st.living_heroes() if st.ex[s].room == room]
        here = st.ex[seat].room
        if there == [seat]:
            for a in by_kind.get("task", []) + by_kind.get("pickup-token", []):
                return a
            return by_kind["end"][0] if "end" in by_kind else None
        if there:
            continue
        dist = dist_to(st, [room])
        guard = min(st.living_heroes(), key=lambda s: (dist.get(st.ex[s].room, 10_000), st.seat_ids.index(s)))
        if guard != seat or here not in dist:
            continue
        steps = [a for a in by_kind.get("move", []) if dist.get(str(a["to"]), 10_000) < dist[here]]
        if steps:
            return min(steps, key=lambda a: (dist.get(str(a["to"]), 10_000), str(a["to"])))
    return None


def _ritual_rooms(st: HauntState, seat: str) -> list[str]:
    """Rooms of the explorer's open task rolls that may be repeated (``limit: unlimited``), such
    as a summoning made of many rolls."""
    out: list[str] = []
    tasks = st.tasks_for(seat)
    for task in _RITUALS.one(tasks, lambda: tuple(t for t in tasks if "roll" in t and t.get("limit") == "unlimited"
                                                  and "where" in t)):
        if "requires" in task and not st.pred(task["requires"], seat):
            continue
        with contextlib.suppress(NotImplementedError):
            out += [r for r in st._rooms_for(task["where"]) if r in st.house.spots]
    return out


_RITUALS: SpecMemo[tuple[Mapping[str, Any], ...]] = SpecMemo()


def _escort_places(st: HauntState) -> dict[str, list[str]]:
    """Monster kinds the heroes may take along (``escort``) that one of their actions is aimed at,
    with the rooms where that action is taken (the Victims and the Entrance Hall they leave by)."""
    if st.hs is None:
        return {}
    out: dict[str, list[str]] = {}
    for kind, where in _ESCORTS.pair(st.hs, st.haunts, None, lambda: _escorted_actions(st)):
        with contextlib.suppress(NotImplementedError):
            out.setdefault(kind, []).extend(r for r in st._rooms_for(where) if r in st.house.spots)
    return out


_ESCORTS: SpecMemo[list[tuple[str, Any]]] = SpecMemo()


def _escorted_actions(st: HauntState) -> list[tuple[str, Any]]:
    """The heroes' tasks and actions aimed at a monster they may escort, as (its kind, the
    action's place), in order: read from the haunt's spec and its file only, so kept by them."""
    assert st.hs is not None
    out: list[tuple[str, Any]] = []
    for act in [*st.hs.heroes_side.tasks, *st.hs.heroes_side.actions]:
        kind = act.get("target", {}).get("monster")
        mdef = st.hs.monsters.get(str(kind)) if kind is not None else None
        if mdef is not None and st._monster_raw(mdef).get("escort") and "where" in act:
            out.append((str(kind), act["where"]))
    return out


def _step_toward(st: HauntState, here: str, goal: list[str], by_kind: dict[str, list[Action]]) -> Action | None:
    """One move by the shortest way to the goal rooms; across the room's barrier when no step
    brings the goal nearer (the far side is the way on)."""
    dist = dist_to(st, goal)
    steps = [a for a in by_kind.get("move", []) if dist.get(str(a["to"]), 10_000) < dist.get(here, 10_000)]
    if steps:
        return min(steps, key=lambda a: (dist.get(str(a["to"]), 10_000), str(a["to"])))
    return by_kind["cross"][0] if "cross" in by_kind and here not in goal else None


def _escorted(st: HauntState, seat: str, kinds: set[str]) -> Monster | None:
    """The escortable monster this hero looks after: the living heroes share those in play in
    seat and token order, round again when heroes outnumber them."""
    flock = [m for m in st.active_monsters() if m.kind in kinds]
    heroes = st.living_heroes()
    if not flock or seat not in heroes:
        return None
    return flock[heroes.index(seat) % len(flock)]
