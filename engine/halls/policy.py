"""A goal-directed controller for Halls of Horror (``--controller policy``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hauntcheck.engine.core import Action, Choices, GameState, Rng
from hauntcheck.engine.halls.model import DIRS, NEGATIVE, ints
from hauntcheck.engine.halls.state import HallsState

# --------------------------------------------------------------------------------------------
# A goal-directed controller (``--controller policy``): searches for Keys, heads for an Exit with
# two, fights only when armed, and as the MC sends the Killer after the nearest Participant.


def _first(legal: Sequence[Action], kind: str, **args: Any) -> Action | None:
    for action in legal:
        if action.kind == kind and all(action.get(k) == v for k, v in args.items()):
            return action
    return None


def _toward(state: HallsState, frm: int, targets: set[int], dirs: Sequence[str]) -> list[str]:
    """The directions among ``dirs`` that shorten the way from ``frm`` to the nearest target."""
    best: list[str] = []
    best_d = 10**6
    for d in dirs:
        j = state.step(frm, d)
        if j is None:
            continue
        dist = state.distances(j)
        near = min((dist[t] for t in targets if t in dist), default=10**6)
        if near < best_d:
            best, best_d = [d], near
        elif near == best_d:
            best.append(d)
    return best


def _valuable(state: HallsState, i: int) -> bool:
    rd = state.rdef(i)
    return any(rd.rewards[k].reward in ("key", "melee", "firearm", "utility") for k in state.available_slots(i))


def policy(state: GameState, legal: Choices, rng: Rng) -> Action:
    assert isinstance(state, HallsState)
    actions = list(legal)
    need = state._need
    kind = need.kind if need is not None else ""
    seat = need.actor if need is not None else ""
    pick = actions[rng.below(len(actions))]
    if kind == "choose":
        p = state.participant(seat)
        names = [str(a["action"]) for a in actions]
        if "attack" in names:
            armed = len(state.weapon_options(p)) > 1
            killer_here = state.killer.active() and state.killer.pos == p.pos
            fight = armed or (not killer_here and p.hp >= 6)
            return Action.of("choose", action="attack" if fight else "escape")
        opts = state.search_options(p) if "search" in names else []
        wanted = {"exit", "body", "puzzle", "gift"} & set(opts)
        if wanted or ("first-aid" in opts and p.hp <= 6) or ("room" in opts and _valuable(state, p.pos)):
            return Action.of("choose", action="search")
        dirs = [n for n in names if n in DIRS]
        if not dirs:
            return pick
        exits = {i for i, r in enumerate(state.rooms) if r.up and not r.locked and state.d.rooms[r.card].mode == "exit"}
        if p.keys >= 2 and exits:
            targets = exits
        else:
            targets = {i for i, r in enumerate(state.rooms) if not r.locked and not r.temp and i != p.pos
                       and (not r.up or _valuable(state, i) or r.gift)}
        if state.killer.active():
            dirs = [d for d in dirs if state.step(p.pos, d) != state.killer.pos] or dirs
        good = _toward(state, p.pos, targets, dirs) if targets else dirs
        return Action.of("choose", action=good[rng.below(len(good))])
    if kind == "search":
        for what in ("exit", "body", "puzzle", "gift", "room", "first-aid", "panic"):
            found = _first(actions, "search", what=what)
            if found is not None:
                return found
    if kind == "search-resolve":
        ctx = state.ctx
        p = state.participant(seat)
        if ctx["what"] in ("puzzle", "exit"):
            spend = not state._pairs(ctx["drawn"])
        else:
            k = state.best_reward(p.pos, ctx["drawn"])
            spend = k is None or state.rdef(p.pos).rewards[k].reward in NEGATIVE
        return Action.of("resolve", spend=spend)
    if kind == "search-discard":
        p = state.participant(seat)
        drawn = list(state.ctx["drawn"])
        for action in actions:
            card = str(action["card"])
            rest = list(drawn)
            if card != "none":
                rest.remove(card)
            k = state.best_reward(p.pos, rest)
            if k is not None and state.rdef(p.pos).rewards[k].reward not in NEGATIVE:
                return action
        return actions[0]
    if kind == "weapon":
        return max(actions, key=lambda a: 0 if a["name"] == "basic" else state.d.weapons[str(a["name"])].damage)
    if kind == "combat-resolve":
        others = [state.successes(t) for t in [*state.ctx["members"], *(["killer"] if state.ctx["killer"] else [])] if t != seat]
        rerolls = [a for a in actions if a.kind == "reroll"]
        if rerolls and state.successes(seat) <= max(others, default=0):
            return max(rerolls, key=lambda a: len(ints(a["dice"])))
        return actions[0]
    if kind in ("symbol", "killer-move"):
        prey = {p.pos for p in state.living() if p.seat != state.controller()} or {p.pos for p in state.living()}
        moves = [str(a.get("use") or a.get("dir")) for a in actions if str(a.get("use") or a.get("dir")) in DIRS]
        if moves:
            best = _toward(state, state.killer.pos, prey, moves)
            if best:
                d = best[rng.below(len(best))]
                return _first(actions, "symbol", use=d) or _first(actions, "killer-move", dir=d) or pick
        return _first(actions, "symbol", use="enrage") or _first(actions, "symbol", use="heal") or actions[0]
    return pick

