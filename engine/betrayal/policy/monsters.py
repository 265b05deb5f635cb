"""The monsters the policy controls: where they go, whom they attack, where they are placed.

A monster heads for what the traitor's wins ask of it (:func:`monster_goal`: cards it must hold,
rooms it must then reach), else for the nearest opponent, and keeps away from the rooms whose
``must`` rule would trap it. It attacks the weakest target in reach (an ability that attacks
everyone in the room first) and uses its other abilities when they serve the goals. The traitor
places monsters as near the heroes as the choices allow.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from typing import Any

from hauntcheck.engine.betrayal.haunt import HERO, HauntState, Monster
from hauntcheck.engine.betrayal.hauntspec import MonsterDef, SideDef
from hauntcheck.engine.betrayal.policy.goals import wanted_cards
from hauntcheck.engine.betrayal.policy.memo import SpecMemo
from hauntcheck.engine.betrayal.policy.paths import dist_to, frontier
from hauntcheck.engine.betrayal.policy.readings import _gives
from hauntcheck.engine.core import Action, Rng


def _monster_ability(st: HauntState, actions: list[Action]) -> Action:
    """The traitor's monster uses the ability that hurts the heroes most: a status on a hero
    who lacks it (the one carrying most of what the heroes' goals need first), then damage to
    a hero, then a move to the room with most heroes free of statuses; never on the traitor."""
    uses = [a for a in actions if a.kind == "monster-ability"]
    m = st.monster(str(uses[0]["monster"]))
    want = wanted_cards(st, HERO)

    def ability(a: Action) -> Mapping[str, Any]:
        return next(x for x in st.mdef(m).abilities if x["id"] == a["id"])

    def rank(a: Action) -> tuple[int, int, str]:
        target = a.get("target")
        ab = ability(a)
        if target is None:
            if any("on_each" in d for d in ab.get("do", [])):
                heroes, own = _reach(st, m, ab)
                return (1, -heroes, str(a["id"])) if heroes > own else (9, 0, str(a["id"]))
            if "where" in ab:
                return (2, 0, str(a["id"]))  # offered only where it works (the ritual by a body): use it
            return (3, 0, str(a["id"])) if any("place" in d for d in ab.get("do", [])) else (9, 0, str(a["id"]))
        t = str(target)
        if st.side.get(t) != HERO:
            return (9, 0, t)
        gives = _gives(ab.get("success", []) + ab.get("do", []))
        carrying = -sum(st.holds(t, w) for w in want)
        if gives:
            return (0, carrying, t) if not gives & set(st.hstatus.get(t, [])) else (9, 0, t)
        return (1 if not st.hstatus.get(t) else 2, carrying, t)

    best = min(uses, key=rank)
    if rank(best)[0] == 3:
        free = [st.ex[s].room for s in st.living_heroes() if not st.hstatus.get(s)]
        if not free or m.room in free:
            return next(a for a in actions if a.kind == "monster-pass")
    if rank(best)[0] == 9:
        return next(a for a in actions if a.kind == "monster-pass")
    return best


def _reach(st: HauntState, m: Monster, ability: Mapping[str, Any]) -> tuple[int, int]:
    """How many heroes, and how many of the traitor's side, an ability's ``on_each`` outcomes
    would reach now (those its ``unless`` spares left out): the Dragon breathes fire when it
    catches more heroes than its own side."""
    heroes = own = 0
    for d in ability.get("do", []):
        spec = d.get("on_each")
        if not spec:
            continue
        rooms = set(st._rooms_for(spec["in"]))
        for s in st.seat_ids:
            if not st.in_play(s) or st.ex[s].room not in rooms or ("unless" in spec and st.pred(spec["unless"], s, m)):
                continue
            if st.side.get(s) == HERO:
                heroes += 1
            else:
                own += 1
    return heroes, own


def monster_goal(st: HauntState, m: Monster) -> tuple[set[str], set[str], list[str]]:
    """What the traitor's wins ask of this monster: cards it must hold (all, any) and the rooms
    it must then reach (``holds`` with ``monster_in_room`` in one win)."""
    need_all: set[str] = set()
    need_any: set[str] = set()
    rooms: list[str] = []
    side = st.hs.traitor_side if st.hs is not None else None
    if side is None:
        return need_all, need_any, rooms
    for flags, holds, where in _MONSTER_WINS.get((side,), m.kind, lambda: _monster_wins(side, m.kind)):
        if any(f not in st.hflags for f in flags):
            continue  # not yet this win's time (Ghost Bride: the groom must die before the Chapel)
        for h in holds:
            need_all |= set(h.get("all", []))
            need_any |= set(h.get("any", []))
        for spot in where:
            with contextlib.suppress(NotImplementedError):
                rooms += st._rooms_for(spot["room"])
    return need_all, need_any, rooms


#: A traitor's win as it asks something of a monster kind: the flags it still waits for, what the
#: monster must hold (``holds``) and where it must be (``monster_in_room``).
_MonsterWin = tuple[tuple[str, ...], tuple[Mapping[str, Any], ...], tuple[Mapping[str, Any], ...]]
_MONSTER_WINS: SpecMemo[tuple[_MonsterWin, ...]] = SpecMemo()


def _monster_wins(side: SideDef, kind: str) -> tuple[_MonsterWin, ...]:
    """The side's wins that ask something of monsters of ``kind``, in order (from the spec alone,
    so kept by the side and kind): of each, the flags of its ``all`` leaves that the side's
    standing rules do not set by themselves (another flag a win needs is a step still ahead),
    its ``holds`` by the monster and its ``monster_in_room`` for it."""
    ruled = {str(eff["set_flag"]) for r in side.rules for eff in r.get("do", []) if "set_flag" in eff}
    out: list[_MonsterWin] = []
    for w in side.wins:
        leaves = w.when.get("all", [w.when])
        holds = tuple(x["holds"] for x in leaves if "holds" in x and x["holds"].get("who", {}).get("monster") == kind)
        where = tuple(x["monster_in_room"] for x in leaves if "monster_in_room" in x and x["monster_in_room"]["monster"] == kind)
        if holds or where:
            out.append((tuple(x["flag"] for x in leaves if "flag" in x and x["flag"] not in ruled), holds, where))
    return tuple(out)


def _monster_targets(st: HauntState, m: Monster) -> list[str]:
    if st.mdef(m).controlled_by == HERO:
        # the heroes' ally (moved by their rolls) goes where the heroes' foes are
        return [st.ex[s].room for s in st.seat_ids if st.in_play(s) and st.side.get(s) != HERO]
    exits = st.exit_rooms(m)
    if exits:
        return exits  # a monster that wins by leaving the house heads for a way out
    need_all, need_any, rooms = monster_goal(st, m)
    if need_all or need_any or rooms:
        have = set(m.cards)
        missing = need_all - have
        if not need_any & have:
            missing |= need_any
        if not missing and rooms:
            return rooms
        if missing:
            allies = [st.ex[s].room for s in st.seat_ids if st.in_play(s) and st.side.get(s) != HERO
                      and missing & set(st.ex[s].cards)]
            piles = [r for r, cards in st.piles.items() if missing & set(cards)]
            holders = [st.ex[s].room for s in st.living_heroes() if missing & set(st.ex[s].cards)]
            if allies or piles or holders:
                return allies + piles + holders
    # a loaded monster takes its load where its own rule unloads it (a Cultist's sacrifices);
    # an empty one that may carry tokens fetches one lying in the house (a corpse)
    drops = _unload_rooms(st, m)
    if drops and (m.cards or st.held.get(m.uid)):
        return drops
    loose = sorted({r for t in st.mdef(m).carries.get("tokens", ()) for r in st.htokens.get(str(t), [])})
    if drops and loose:
        return loose
    spots = _ability_rooms(st, m)
    if spots:
        return spots  # a monster with an ability it could use in certain rooms now heads there (the ritual)
    gives = _abilities_give(st.mdef(m))
    # a monster whose abilities give a status seeks the heroes who lack it (the Witch and Frogs)
    free = [s for s in st.living_heroes() if not gives & set(st.hstatus.get(s, []))]
    prey = [st.ex[s].room for s in (free or st.living_heroes())]
    if m.counterpart and st.in_play(m.counterpart):
        prey = [st.ex[m.counterpart].room]
    return prey


def _abilities_give(mdef: MonsterDef) -> frozenset[str]:
    """The statuses the monster kind's abilities give (from its spec alone, so kept by it)."""
    return _ABILITIES_GIVE.one(mdef, lambda: frozenset(_gives([d for ab in mdef.abilities
                                                                for d in ab.get("success", []) + ab.get("do", [])])))


_ABILITIES_GIVE: SpecMemo[frozenset[str]] = SpecMemo()


def _ability_rooms(st: HauntState, m: Monster) -> list[str]:
    """The rooms where the monster could use one of its monster-turn abilities limited to a
    location (``where``), its requirement tried as if the monster stood there."""
    out: set[str] = set()
    mdef = st.mdef(m)
    placed = _PLACED_ABILITIES.one(mdef, lambda: tuple(ab for ab in mdef.abilities
                                                       if ab.get("timing") == "monster-turn" and "where" in ab))
    if not placed:
        return []  # nothing to try: the monster is left where it stands
    home = m.room
    try:
        for ab in placed:
            for room in st._rooms_for(ab["where"]):
                m.room = room
                if "requires" not in ab or st.pred(ab["requires"], None, m):
                    out.add(room)
    finally:
        m.room = home
    return sorted(out)


def _monster_move(st: HauntState, actions: list[Action], rng: Rng) -> Action:
    leave = next((a for a in actions if a.kind == "monster-exit"), None)
    if leave is not None:
        return leave
    trailing = _trail_move(st, actions)
    if trailing is not None:
        return trailing
    moves = [a for a in actions if a.kind in ("monster-move", "monster-teleport")]
    if not moves:
        return next((a for a in actions if a.kind == "monster-walk"), actions[0])
    m = st.monster(str(moves[0]["monster"]))
    prey = _monster_targets(st, m)
    if not prey:
        return actions[rng.below(len(actions))]
    traps = set(_trap_rooms(st, m))
    dist = dist_to(st, prey)
    here = dist.get(m.room, 10_000)
    safe = [a for a in moves if str(a["to"]) not in traps] or moves
    best = min(safe, key=lambda a: (dist.get(str(a["to"]), 10_000), str(a["to"])))
    if best.kind == "monster-teleport":
        walk = next((a for a in actions if a.kind == "monster-walk"), None)
        return best if dist.get(str(best["to"]), 10_000) < here - 2 or walk is None else walk
    if dist.get(str(best["to"]), 10_000) < here or not any(a.kind == "monster-stop" for a in actions):
        return best
    return next(a for a in actions if a.kind == "monster-stop")


def _trap_rooms(st: HauntState, m: Monster) -> Iterable[str]:
    for rule in st.mdef(m).must:
        if any("trap_monster" in f for f in rule.get("failure", [])):
            for r in rule.get("where", {}).get("rooms", []):
                if f"{rule['id']}/{r}" not in st.used_places:
                    yield r


def _monster_attack(st: HauntState, actions: list[Action]) -> Action:
    special = [a for a in actions if a.kind == "monster-ability"]
    if special:
        return special[0]  # an attack on everyone here (mind control) beats one normal attack
    attacks = [a for a in actions if a.kind == "monster-attack"]
    if not attacks:
        return actions[0]
    return min(attacks, key=lambda a: (st.value(str(a["target"]), "might"), str(a["target"])))


def _place_monster(st: HauntState, actions: list[Action]) -> Action:
    """The traitor places monsters as near the heroes as the choices allow."""
    prey = [st.ex[s].room for s in st.living_heroes()]
    if not prey:
        return actions[0]
    dist = dist_to(st, prey)
    return min(actions, key=lambda a: (dist.get(str(a["room"]), 10_000), str(a["room"])))


def _trail_move(st: HauntState, actions: list[Action]) -> Action | None:
    """A monster that leaves a ``trail`` (the Ouroboros Heads) grows by moving: it never stands
    still while it can move, and goes where its trail is not yet - a room without it (nearest the
    heroes first), else a new room it discovers, else any room."""
    m = st.monster(str(actions[0]["monster"]))
    trail = st._monster_raw(st.mdef(m)).get("trail")
    if not trail:
        return None
    laid = {x.room for x in st.active_monsters() if x.kind == trail["monster"]}
    moves = [a for a in actions if a.kind == "monster-move"]
    fresh = [a for a in moves if str(a["to"]) not in laid]
    explore = [a for a in actions if a.kind == "monster-explore"]
    dist = dist_to(st, [st.ex[s].room for s in st.living_heroes()])
    if fresh:
        return min(fresh, key=lambda a: (dist.get(str(a["to"]), 10_000), str(a["to"])))
    if explore:
        return explore[0]
    # nothing new next door: head for the nearest room without the trail, or where rooms can be found
    goals = [r for r in st.house.spots if r not in laid] + frontier(st)
    dist = dist_to(st, goals)
    if moves:
        return min(moves, key=lambda a: (dist.get(str(a["to"]), 10_000), str(a["to"])))
    return None


def _unload_rooms(st: HauntState, m: Monster) -> list[str]:
    """Rooms in the house where the monster's own rule (``on-enter-or-start`` with a ``where``
    and no roll) does something with what it carries: a monster there is worth loading."""
    mdef = st.mdef(m)
    rules = _UNLOADING.one(mdef, lambda: tuple(rule for rule in mdef.must if rule.get("when") == "on-enter-or-start"
                                               and "where" in rule and "roll" not in rule))
    return [r for rule in rules if (m.cards or st.held.get(m.uid) or mdef.carries)
            for r in st._rooms_for(rule["where"]) if r in st.house.spots]


#: A monster kind's monster-turn abilities limited to a place, and its rules that unload what it
#: carries: read from its spec alone, so kept by the monster's definition.
_PLACED_ABILITIES: SpecMemo[tuple[Mapping[str, Any], ...]] = SpecMemo()
_UNLOADING: SpecMemo[tuple[Mapping[str, Any], ...]] = SpecMemo()
