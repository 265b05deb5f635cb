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
from dataclasses import dataclass
from typing import Any

from hauntcheck.engine.betrayal.haunt import HERO, HauntState
from hauntcheck.engine.betrayal.hauntspec import HauntSpec, SideDef
from hauntcheck.engine.betrayal.policy.memo import SpecMemo, values_of


def goal_rooms(st: HauntState, side: str) -> list[str]:
    """Rooms in the house that the side's goals name (lures for heroes, task rooms)."""
    if st.hs is None:
        return []
    named = st.hs.derived("policy-goal-rooms", _named_rooms).get(side)
    if named is None:
        return []
    spots, used = st.house.spots, st.used_places
    rooms = [r for r, place in named.traps if r in spots and place not in used]
    own = st.hs.sides().get(side)
    if own is not None and named.meeting:
        rooms += _meeting_room(st, own.wins)
    # a room that served a once-per-place task is spent
    rooms += [r for r, place in named.task_rooms if r in spots and (place is None or place not in used)]
    return sorted(set(rooms))


@dataclass(frozen=True)
class NamedRooms:
    """The rooms a side's goals name in the haunt's spec (:func:`goal_rooms` keeps those in the
    house and not used up), each with the ``used_places`` entry that spends it (None: never)."""

    traps: tuple[tuple[str, str], ...]  # heroes: the rooms where a monster's ``must`` rule traps it
    meeting: bool  # a win names a room for the heroes to gather in (``heroes_together_in``)
    task_rooms: tuple[tuple[str, str | None], ...]  # the rooms of its tasks (``where.rooms``)


def _named_rooms(hs: HauntSpec) -> dict[str, NamedRooms]:
    """:class:`NamedRooms` of each side of the haunt (the heroes' even without a page of theirs)."""
    out: dict[str, NamedRooms] = {}
    for side in {HERO, *hs.sides()}:
        traps: list[tuple[str, str]] = []
        if side == HERO:
            for mdef in hs.monsters.values():
                for rule in mdef.must:
                    if rule.get("when") == "on-enter-or-start" and any("trap_monster" in f for f in rule.get("failure", [])):
                        traps += [(r, f"{rule['id']}/{r}") for r in rule.get("where", {}).get("rooms", [])]
        own = hs.sides().get(side)
        meeting = own is not None and any(values_of(w.when, "heroes_together_in") for w in own.wins)
        task_rooms = [(r, f"{task['id']}/{r}" if task.get("reuse") == "once-per-place" else None)
                      for task in (own.tasks if own is not None else ()) for r in task.get("where", {}).get("rooms", [])]
        out[side] = NamedRooms(tuple(traps), meeting, tuple(task_rooms))
    return out


def wanted_cards(st: HauntState, side: str) -> set[str]:
    """Cards the side's attack rules or tasks require (``holding``); of weapons any one of which
    will do (``attack_weapon``), all while the side holds none of them, else those it holds. A
    card destroyed is out of the game and wanted no more."""
    out: set[str] = set()
    if st.hs is None or (own := st.hs.sides().get(side)) is None:
        return out
    needs = _WANTS.pair(own, st.hs, side, lambda: _wants(st, own, side))
    out.update(needs.required)
    # the side's explorers in play, asked once for every group below
    seats = [s for s in st.seat_ids if st.in_play(s) and st.side.get(s) == side] if needs.either or needs.alternatives else []
    for rules, cards in needs.either:
        if not any("requires" not in r or st.pred(r["requires"], s) for r in rules for s in seats):
            continue  # the step is done (or cannot be taken): its cards are wanted no more
        mine = {c for c in cards if any(st.holds(s, c) for s in seats)}
        out |= mine or cards
    out.update(needs.for_wins)
    for group in needs.alternatives:
        mine = {c for c in group if any(st.holds(s, c) for s in seats)}
        out |= mine or group
    out |= needs.protections
    return out - set(st.destroyed)  # a card destroyed for good (the shattered Crystal Ball) is nobody's goal


@dataclass(frozen=True)
class Wants:
    """What a side's spec says it wants, before the game's state is looked at: the cards its rules
    require (in the order :func:`wanted_cards` meets them), its groups of which one card will do
    (``exclusive_group`` actions, with their cards; ``attack_weapon`` lists), the cards its wins
    want it to hold, and the tokens that shield it (:func:`protections`)."""

    required: tuple[str, ...]
    either: tuple[tuple[tuple[Mapping[str, Any], ...], frozenset[str]], ...]
    for_wins: tuple[str, ...]
    alternatives: tuple[frozenset[str], ...]
    protections: frozenset[str]


_WANTS: SpecMemo[Wants] = SpecMemo()


def _wants(st: HauntState, own: SideDef, side: str) -> Wants:
    """:class:`Wants` of the side ``own`` of the haunt ``st.hs`` (read from the spec only)."""
    either = _either_cards(own)
    required: dict[str, None] = {}  # an ordered set: the order cards are first met
    for rule in [*own.attack_rules, *own.tasks, *own.actions]:
        found: set[str] = set()
        _collect_holding(rule.get("requires", {}), found)
        _collect_holding(_modifier_conditions(rule), found)
        required.update(dict.fromkeys(sorted(found)))
        held = rule.get("holding")
        if rule.get("exclusive_group") in either:
            continue  # one card of the group will do (see wanted_cards)
        if isinstance(held, str):
            required[held] = None
        elif isinstance(held, list):
            required.update(dict.fromkeys(str(h) for h in held))
    for_wins: set[str] = set()
    for win in own.wins:
        _collect_held_for_win(win.when, side, for_wins)
    return Wants(tuple(required), tuple((tuple(rules), frozenset(str(r["holding"]) for r in rules)) for rules in either.values()),
                 tuple(sorted(for_wins)), tuple(frozenset(g) for g in _alternatives(own.attack_rules)),
                 frozenset(protections(st, side)))


def protections(st: HauntState, side: str) -> set[str]:
    """Haunt tokens that shield the side: those whose holding spares an explorer from the other
    side's monsters (``holds_tokens`` in the ``unless`` of their ``on_each`` outcomes - the
    Shield against the fire), and those the side's tasks take to give a status that takes less
    damage (``less_damage`` - the Antique Armor put on)."""
    if st.hs is None:
        return set()
    out: set[str] = set()
    own = st.hs.sides().get(side)
    for mdef in st.hs.monsters.values():
        if (mdef.controlled_by == "heroes") == (side == HERO):
            continue
        for rule in [*mdef.abilities, *mdef.must]:
            for eff in [*rule.get("do", []), *rule.get("success", [])]:
                spare = eff.get("on_each", {}).get("unless") if isinstance(eff.get("on_each"), Mapping) else None
                if spare is not None:
                    _collect_tokens(spare, out)
    for task in own.tasks if own is not None else ():
        outs = [*task.get("do", []), *task.get("success", [])]
        if any(st.hs.statuses.get(str(e.get("become")), {}).get("less_damage") for e in outs):
            out |= {str(e["take_token"]) for e in outs if isinstance(e.get("take_token"), str)}
    return out


def _collect_tokens(p: Any, out: set[str]) -> None:
    """The tokens a predicate asks an explorer to hold (``holds_tokens``)."""
    if isinstance(p, Mapping):
        for key, value in p.items():
            if key == "holds_tokens" and isinstance(value, Mapping) and "token" in value:
                out.add(str(value["token"]))
            elif key != "not":
                _collect_tokens(value, out)
    elif isinstance(p, list):
        for x in p:
            _collect_tokens(x, out)


def _either_cards(own: SideDef) -> dict[str, list[Mapping[str, Any]]]:
    """Actions of one ``exclusive_group`` that each need a different card held (``holding``):
    any one of the cards will do for the group's step (Comes the Hero: the Holy Symbol, Axe,
    Crystal Ball or Book put in the Statue's hand)."""
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for rule in [*own.tasks, *own.actions]:
        if "exclusive_group" in rule and isinstance(rule.get("holding"), str):
            groups.setdefault(str(rule["exclusive_group"]), []).append(rule)
    return {g: rules for g, rules in groups.items() if len({r["holding"] for r in rules}) > 1}


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
    for value in _ITEM_IN_ROOM.one(own, lambda: _item_in_room(own)):
        with contextlib.suppress(NotImplementedError):
            out.setdefault(str(value["item"]), []).extend(st._rooms_for(value["room"]))
    return out


_ITEM_IN_ROOM: SpecMemo[list[Any]] = SpecMemo()


def _item_in_room(own: SideDef) -> list[Any]:
    """The side's ``item_in_room`` requirements, of its rules and of its rolls' bonuses."""
    return [value for rule in [*own.attack_rules, *own.tasks, *own.actions]
            for tree in (rule.get("requires", {}), _modifier_conditions(rule)) for value in values_of(tree, "item_in_room")]


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


@dataclass(frozen=True)
class Bearer:
    """A win that one explorer of the side brings cards to a room (``some_hero`` with
    ``has_status``, ``holding`` and ``in``): that explorer - as far as the deciding seat knows -,
    the cards and the rooms in the house."""

    seat: str | None
    cards: frozenset[str]
    rooms: tuple[str, ...]


def win_bearer(st: HauntState, side: str) -> Bearer | None:
    """The side's win that a named explorer carry cards to a room (The Heir's throne), if any;
    the explorer is the one the seat's view shows with the status (None if it knows of none)."""
    own = st.hs.sides().get(side) if st.hs is not None and side == HERO else None
    if own is None:
        return None
    borne = _BORNE.one(own, lambda: _borne(own))
    if borne is None:
        return None
    status, cards, where = borne
    rooms = tuple(r for r in st._rooms_for(where) if r in st.house.spots)
    seat = next((s for s in st.living_heroes() if status in st.hstatus.get(s, [])), None)
    return Bearer(seat, cards, rooms)


_BORNE: SpecMemo[tuple[str, frozenset[str], Any] | None] = SpecMemo()


def _borne(own: SideDef) -> tuple[str, frozenset[str], Any] | None:
    """The side's first win that an explorer with a status hold cards in a place (``some_hero``
    with ``has_status``, ``holding`` and ``in``): the status, the cards and the place."""
    for win in own.wins:
        who = win.when.get("some_hero") if isinstance(win.when, Mapping) else None
        parts = who.get("all", ()) if isinstance(who, Mapping) else ()
        status = next((str(x["has_status"]) for x in parts if "has_status" in x), None)
        held = next((x["holding"] for x in parts if "holding" in x), None)
        where = next((x["in"] for x in parts if "in" in x), None)
        if status is not None and held is not None and where is not None:
            return status, frozenset([held] if isinstance(held, str) else (str(c) for c in held)), where
    return None


def _collect_held_for_win(p: Any, side: str, out: set[str]) -> None:
    """The cards and tokens a win of the side wants the side itself to hold (``holds`` by it, or
    ``holding`` by one of its heroes: ``some_hero``)."""
    if isinstance(p, Mapping):
        spec = p.get("holds")
        if isinstance(spec, Mapping) and spec.get("who") == side:
            out.update(str(c) for c in [*spec.get("all", ()), *spec.get("any", ())[:1]])
        if side == HERO and "some_hero" in p:
            _collect_holding(p["some_hero"], out)
        for key, value in p.items():
            if key != "not":
                _collect_held_for_win(value, side, out)
    elif isinstance(p, list):
        for x in p:
            _collect_held_for_win(x, side, out)
