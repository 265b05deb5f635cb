"""The policy's care about token fields that harm whoever stands in them (haunt 27's Blob): which
rooms an on-entry rule makes deadly or takes an explorer out of its side's work in, which rooms a
field that spreads at the monster turn will reach, and a hero's step out of its way.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from typing import Any

from hauntcheck.engine.betrayal.haunt import HERO, HauntState
from hauntcheck.engine.betrayal.haunt.fields import side_monster_rules
from hauntcheck.engine.betrayal.policy.memo import SpecMemo
from hauntcheck.engine.betrayal.policy.paths import dist_avoiding, dist_to
from hauntcheck.engine.betrayal.policy.readings import tasks_that
from hauntcheck.engine.core import Action


def out_of_the_way(st: HauntState, actions: list[Action], choice: Action) -> Action:
    """A hero's ending or move, kept out of the rooms a spreading field reaches at the monster
    turn (:func:`_doomed_rooms`) once nothing is left to do there this turn."""
    seat = st.current
    if st.hs is None or not _field_rules(st)[0]:
        return choice  # no field harms anyone in this haunt (no room is doomed)
    if choice.kind not in ("end", "move", "explore") or st.side.get(seat, HERO) != HERO \
            or any(a.kind == "task" for a in actions):
        return choice  # work is still to be done here this turn
    doomed = _doomed_rooms(st)
    here = st.ex[seat].room
    # a room found by exploring lies next to this one: from a doomed room it is doomed too
    to = str(choice["to"]) if choice.kind == "move" else here
    if to not in doomed:
        return choice
    # A spreading field reaches that room at the monster turn: with nothing left to do there this
    # turn, stay out of its way - step as far from it as one step goes, or stay where it is safe.
    away = dist_avoiding(st, doomed, set())
    if here not in doomed and choice.kind == "move" and "end" in {a.kind for a in actions}:
        # in only to work beside the field and back out within this turn's movement
        ring = dist_avoiding(st, _beside_field(st), set())
        steps = ring.get(here, 99)
        throw = any(st.holds(seat, str(t.get("holding"))) for t in st.tasks_for(seat)
                    if t.get("cost") and isinstance(t.get("holding"), str))
        if not (("task-roll" not in st.turn.keys or throw) and st.movement_left(seat) >= 2 * steps + int(throw)):
            return next(a for a in actions if a.kind == "end")
    moves = [a for a in actions if a.kind == "move" and not _deadly_entry(st, seat, str(a["to"]))]
    if here in doomed:
        # caught in its reach: head for the nearest room it cannot reach, by ways clear of it now
        harmful = _harmful_rooms(st, seat)
        safe = dist_avoiding(st, [r for r in st.house.spots if r not in doomed], harmful)
        out = min(moves, key=lambda a: (safe.get(str(a["to"]), 99), str(a["to"])), default=None)
        if out is not None and safe.get(str(out["to"]), 99) < safe.get(here, 99):
            return out
    best = max(moves, key=lambda a: (away.get(str(a["to"]), 99), str(a["to"])), default=None)
    if best is not None and away.get(str(best["to"]), 99) > away.get(here, 99 if here not in doomed else 0):
        return best
    return choice


def _kills(effs: Iterable[Mapping[str, Any]]) -> bool:
    """Whether outcomes kill (``kill``, ``room_kill``, also on the action's target)."""
    return any("kill" in e or "room_kill" in e or _kills(e.get("on_target", ())) for e in effs)


def _harms_self(st: HauntState, effs: Iterable[Mapping[str, Any]]) -> bool:
    """Whether outcomes kill the explorer or take it out of its side's work: turning it to the
    other side, or a status that blocks what it does (a Blob-person), at any depth of a branch."""
    if _kills(effs):
        return True
    for eff in effs:
        if "turn_traitor" in eff:
            return True
        status = eff.get("become")
        if isinstance(status, str) and st.hs is not None and st.hs.statuses.get(status, {}).get("blocks"):
            return True
        branch = eff.get("branch")
        if isinstance(branch, Mapping) and _harms_self(st, [*branch.get("then", []), *branch.get("else", [])]):
            return True
    return False


def _doomed_rooms(st: HauntState) -> set[str]:
    """Rooms a token field reaches at the next monster turn (a side's ``monster-turn`` rule that
    places or spreads the token) where that token harms whoever stands in it (an on-entry rule
    on its rooms): the field's rooms, the rooms one way from them, and the rooms it is placed in."""
    if st.hs is None:
        return set()
    harmful, spreads, placed = _field_rules(st)
    if not harmful:
        return set()
    out: set[str] = set()
    for token in sorted(harmful & set(spreads)):
        field = {r for r in st.htokens.get(token, ()) if r in st.house.spots}
        out |= field
        for _ in range(spreads[token]):  # a second spread on a lucky roll reaches one room further
            field = {other for room in field for other, _cost, _how in st._room_exits(room)}
            out |= field
    for where in placed:
        status = where.get("room_with_status")
        if isinstance(status, str):
            # placed where explorers with the status stand: anywhere they can walk to first
            for s in st.seat_ids:
                if st.in_play(s) and status in st.hstatus.get(s, []):
                    reach = dist_to(st, [st.ex[s].room])
                    out |= {r for r, d in reach.items() if d <= st.speed(s)}
            continue
        with contextlib.suppress(NotImplementedError):
            out |= {r for r in st._rooms_for(where) if r in st.house.spots}
    return out


def _harmful_rooms(st: HauntState, seat: str) -> set[str]:
    """Every room of the house whose entry :func:`_deadly_entry` would be for the explorer."""
    dangers = _entry_dangers(st, seat)
    if not dangers:
        return set()  # no rule harms whoever enters: no room needs trying
    return {r for r in st.house.spots if r != st.ex[seat].room and _deadly_entry(st, seat, r, dangers)}


def _field_rules(st: HauntState) -> tuple[frozenset[str], dict[str, int], list[Mapping[str, Any]]]:
    """From the haunt's spec: the harmful tokens (:func:`_harmful_tokens`), how many times a
    monster turn may spread each token, and where it places harmful ones (the ``in`` of each
    ``place``); worked out once per haunt spec."""
    assert st.hs is not None
    return st.hs.derived("policy-field-rules", lambda _: _read_field_rules(st))


def _read_field_rules(st: HauntState) -> tuple[frozenset[str], dict[str, int], list[Mapping[str, Any]]]:
    harmful = frozenset(_harmful_tokens(st))
    spreads: dict[str, int] = {}  # token -> how many times a monster turn may spread it
    placed: list[Mapping[str, Any]] = []

    def visit(node: Any) -> None:
        if isinstance(node, Mapping):
            if isinstance(node.get("spread"), Mapping):
                token = str(node["spread"]["token"])
                spreads[token] = spreads.get(token, 0) + 1
            if isinstance(node.get("place"), Mapping) and node["place"].get("token") in harmful:
                placed.append(node["place"]["in"])
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for x in node:
                visit(x)

    visit([r.get("do", []) for r in side_monster_rules(st)])
    return harmful, spreads, placed


def _beside_field(st: HauntState) -> list[str]:
    """Rooms next to a harmful token field but not in it (where its tasks are done)."""
    fields = {r for token in _harmful_tokens(st) for r in st.htokens.get(token, ()) if r in st.house.spots}
    return sorted({other for room in fields for other, _cost, _how in st._room_exits(room)} - fields)


def _harmful_tokens(st: HauntState) -> set[str]:
    """Tokens whose rooms harm whoever enters them (an on-entry rule on ``room_with_token``)."""
    if st.hs is None:
        return set()
    return {str(task["where"]["room_with_token"]) for side in st.hs.sides().values()
            for task in [*side.tasks, *side.actions]
            if isinstance(task.get("where", {}).get("room_with_token"), str) and harmful_on_entry(st, task)}


_ENTRY_HARM: SpecMemo[bool] = SpecMemo()


def harmful_on_entry(st: HauntState, task: Mapping[str, Any]) -> bool:
    """Whether the task is an on-entry rule whose outcomes kill whoever enters or take it out of
    its side's work (:func:`_harms_self`): read from the task and the haunt's statuses only, so
    worked out once per task."""
    return task.get("timing") == "on-entry" and _ENTRY_HARM.pair(
        task, st.hs, None, lambda: _harms_self(st, [*task.get("do", []), *task.get("success", [])]))


def _entry_dangers(st: HauntState, seat: str) -> tuple[Mapping[str, Any], ...]:
    """The explorer's on-entry rules that would harm it (:func:`harmful_on_entry`, which reads the
    spec alone: kept by the explorer's task list and the haunt)."""
    if st.hs is None:
        return ()
    return tasks_that(st.tasks_for(seat), st.hs, "harmful-on-entry", lambda task: harmful_on_entry(st, task))


def _deadly_entry(st: HauntState, seat: str, room: str, dangers: tuple[Mapping[str, Any], ...] | None = None) -> bool:
    """Whether entering ``room`` would set off an on-entry rule that kills the explorer (a
    bomb's proximity trigger) or takes it out of its side's work (:func:`_harms_self`): checked
    with the explorer placed there for the test only. ``dangers``: the explorer's
    :func:`_entry_dangers`, when the caller tries many rooms."""
    dangers = _entry_dangers(st, seat) if dangers is None else dangers
    if not dangers:
        return False
    e = st.ex[seat]
    here = e.room
    try:
        e.room = room
        return any(("where" not in task or st._where_ok(seat, task["where"]))
                   and ("requires" not in task or st.pred(task["requires"], seat)) for task in dangers)
    finally:
        e.room = here
