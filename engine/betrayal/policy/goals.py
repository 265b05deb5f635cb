"""What a side's goals ask for, read from the haunt's spec (never from code per haunt).

The rooms the goals name (:func:`goal_rooms`): for heroes, the rooms where a monster's ``must``
rule traps it (they wait there to lure it in); for either side, the rooms of its task rolls. The
cards its attack rules or tasks require (:func:`wanted_cards`, ``holding``): of weapons any one of
which will do, all while the side holds none, else those it holds. Where those cards lie in the
house (:func:`item_places`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from typing import Any

from hauntcheck.engine.betrayal.haunt import HERO, HauntState


def goal_rooms(st: HauntState, side: str) -> list[str]:
    """Rooms in the house that the side's goals name (lures for heroes, task rooms)."""
    if st.hs is None:
        return []
    rooms: list[str] = []
    if side == HERO:
        for mdef in st.hs.monsters.values():
            for rule in mdef.must:
                if rule.get("when") == "on-enter-or-start" and any("trap_monster" in f for f in rule.get("failure", [])):
                    for r in rule.get("where", {}).get("rooms", []):
                        if r in st.house.spots and f"{rule['id']}/{r}" not in st.used_places:
                            rooms.append(r)
    own = st.hs.sides().get(side)
    if own is not None:
        rooms += _meeting_room(st, own.wins)
        for task in own.tasks:
            for r in task.get("where", {}).get("rooms", []):
                if r in st.house.spots and not (task.get("reuse") == "once-per-place"
                                                and f"{task['id']}/{r}" in st.used_places):
                    rooms.append(r)  # a room that served a once-per-place task is spent
    return sorted(set(rooms))


def wanted_cards(st: HauntState, side: str) -> set[str]:
    """Cards the side's attack rules or tasks require (``holding``); of weapons any one of which
    will do (``attack_weapon``), all while the side holds none of them, else those it holds. A
    card destroyed is out of the game and wanted no more."""
    out: set[str] = set()
    if st.hs is None or (own := st.hs.sides().get(side)) is None:
        return out
    for rule in [*own.attack_rules, *own.tasks, *own.actions]:
        _collect_holding(rule.get("requires", {}), out)
        _collect_holding(_modifier_conditions(rule), out)
        held = rule.get("holding")
        if isinstance(held, str):
            out.add(held)
        elif isinstance(held, list):
            out.update(str(h) for h in held)
    for win in own.wins:
        _collect_held_for_win(win.when, side, out)
    for group in _alternatives(own.attack_rules):
        mine = {c for c in group if any(st.holds(s, c) for s in st.seat_ids if st.in_play(s) and st.side.get(s) == side)}
        out |= mine or group
    return out - set(st.destroyed)  # a card destroyed for good (the shattered Crystal Ball) is nobody's goal


def _alternatives(rules: Iterable[Mapping[str, Any]]) -> list[set[str]]:
    """Groups of cards of which one is enough (``attack_weapon`` lists in the rules' requirements)."""
    out: list[set[str]] = []

    def visit(p: Any) -> None:
        if isinstance(p, Mapping):
            for key, value in p.items():
                if key == "attack_weapon":
                    out.append({value} if isinstance(value, str) else {str(v) for v in value})
                elif key != "not":
                    visit(value)
        elif isinstance(p, list):
            for x in p:
                visit(x)

    for rule in rules:
        visit(rule.get("requires", {}))
    return out


def item_places(st: HauntState, side: str) -> dict[str, list[str]]:
    """Rooms the side's goals want a card brought to (``item_in_room`` requirements)."""
    out: dict[str, list[str]] = {}
    own = st.hs.sides().get(side) if st.hs is not None else None
    if own is None:
        return out

    def visit(p: Any) -> None:
        if isinstance(p, Mapping):
            for key, value in p.items():
                if key == "item_in_room":
                    with contextlib.suppress(NotImplementedError):
                        out.setdefault(str(value["item"]), []).extend(st._rooms_for(value["room"]))
                elif key != "not":
                    visit(value)
        elif isinstance(p, list):
            for x in p:
                visit(x)

    for rule in [*own.attack_rules, *own.tasks, *own.actions]:
        visit(rule.get("requires", {}))
        visit(_modifier_conditions(rule))
    return out


def _collect_holding(p: Any, out: set[str]) -> None:
    if isinstance(p, Mapping):
        for key, value in p.items():
            if key == "holding":
                out.update([value] if isinstance(value, str) else value)
            elif key == "item_in_room":
                out.add(str(value["item"]))
            elif key == "not":
                continue
            else:
                _collect_holding(value, out)
    elif isinstance(p, list):
        for x in p:
            _collect_holding(x, out)


def _modifier_conditions(rule: Mapping[str, Any]) -> list[Any]:
    """The conditions of a task roll's bonuses (``roll.modifiers``): the cards they name are
    worth gathering and bringing where the roll is made (the Book in the Organ Room)."""
    roll = rule.get("roll")
    if not isinstance(roll, Mapping):
        return []
    return [m["when"] for m in roll.get("modifiers", ()) if "add" in m and "when" in m]


def _meeting_room(st: HauntState, wins: Iterable[Any]) -> list[str]:
    """The one room a win wants every living hero gathered in (``heroes_together_in``): the first
    of its rooms in the house, so that nobody waits in another."""
    def visit(p: Any) -> list[str]:
        if isinstance(p, Mapping):
            if "heroes_together_in" in p:
                with contextlib.suppress(NotImplementedError):
                    return [r for r in st._rooms_for(p["heroes_together_in"]) if r in st.house.spots][:1]
            return [r for k, v in p.items() if k != "not" for r in visit(v)]
        if isinstance(p, list):
            return [r for x in p for r in visit(x)]
        return []

    return [r for w in wins for r in visit(w.when)][:1]


def _collect_held_for_win(p: Any, side: str, out: set[str]) -> None:
    """The cards and tokens a win of the side wants the side itself to hold (``holds`` by it)."""
    if isinstance(p, Mapping):
        spec = p.get("holds")
        if isinstance(spec, Mapping) and spec.get("who") == side:
            out.update(str(c) for c in [*spec.get("all", ()), *spec.get("any", ())[:1]])
        for key, value in p.items():
            if key != "not":
                _collect_held_for_win(value, side, out)
    elif isinstance(p, list):
        for x in p:
            _collect_held_for_win(x, side, out)
