"""A goal-directed baseline policy for Betrayal: the controller of golden games.

Before the haunt the policy explores (new rooms bring the omens that start the haunt). After the
reveal it reads its side's goals from the haunt's spec, not from code per haunt:

* rooms its goals name - the rooms where a monster's ``must`` rule traps it (heroes wait there
  to lure the monsters in), the rooms of its side's task rolls;
* opponents its goals ask to defeat (``monsters_defeated`` with ``killed``, ``heroes_dead``) and
  the items its attack rules require (``holding``);

and then moves by shortest path toward them, picks up what the goals need, attacks when its dice
are at least the defender's (never where an attack rule makes the fight cost it), and otherwise
explores. Monsters it controls head for the nearest opponent and keep away from the rooms that
would trap them. Every other decision (placing tiles, splitting damage ...) is either the choice
that keeps the explorer healthiest or a seeded random pick, so a game is a function of the seed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from typing import Any

from hauntcheck.engine.betrayal.haunt import HERO, TOKEN_ROOM_HOOKS, TRAITOR, HauntState, Monster
from hauntcheck.engine.core import Action, Choices, GameState, Rng


def policy(state: GameState, legal: Choices, rng: Rng) -> Action:
    actions = list(legal)
    if len(actions) == 1:
        return actions[0]
    kinds = {a.kind for a in actions}
    if not isinstance(state, HauntState):
        return actions[rng.below(len(actions))]
    st = state
    if "damage" in kinds:
        return _best_split(st, actions)
    if "accept" in kinds:
        return next(a for a in actions if a.kind == "accept")
    if "ignore-room" in kinds:  # traitor.room-text: the harmful text is never worth suffering
        return next(a for a in actions if a.kind == "ignore-room")
    if "refuse-event" in kinds:  # traitor.refuse-events: most events cost the traitor more than they give
        return next(a for a in actions if a.kind == "refuse-event")
    if "monster-pickup" in kinds:
        m = st.monster(str(actions[0]["monster"]))
        need_all, need_any, _ = monster_goal(st, m)
        fallback = actions[1] if _unload_rooms(st, m) else actions[0]  # a monster that unloads takes anything
        return next((a for a in actions if a.kind == "monster-pickup" and str(a["card"]) in need_all | need_any),
                    fallback)
    if "monster-pickup-token" in kinds:  # a token a monster may carry is worth carrying
        return next(a for a in actions if a.kind == "monster-pickup-token")
    if "hand-over" in kinds:  # give a carrying monster what its goal needs (the Girl, the Ring), keep the rest
        wanted: set[str] = set()
        for m in st.mon:
            need_all, need_any, _ = monster_goal(st, m)
            wanted |= need_all | need_any
        return next((a for a in actions if a.kind == "hand-over" and str(a["card"]) in wanted),
                    next(a for a in actions if a.kind == "keep-the-rest"))
    if kinds & {"monster-move", "monster-stop", "monster-teleport", "monster-walk"}:
        return _monster_move(st, actions, rng)
    if "monster-side" in kinds:  # stand with the heroes the monster can then attack
        m = st.monster(str(actions[0]["monster"]))
        here = [st.ex[s].part for s in st.living_heroes() if st.ex[s].room == m.room]
        return max(actions, key=lambda a: here.count(actions.index(a)))
    if any(a.kind == "monster-ability" and a.get("id") is not None for a in actions):
        return _monster_ability(st, actions)
    if "wail-target" in kinds:  # the hero with the weakest Sanity, never one's own side
        seat = st.to_move() or ""
        return min(actions, key=lambda a: (st.side.get(str(a["who"])) == st.side.get(seat),
                                           st.value(str(a["who"]), "sanity"), str(a["who"])))
    if "monster-face" in kinds:  # face the way that leads toward the heroes
        m = st.monster(str(actions[0]["monster"]))
        dist = st._dist_to(_monster_targets(st, m))
        return min(actions, key=lambda a: (dist.get(str(a["to"]), 10_000), str(a["to"])))
    if kinds & {"monster-attack", "monster-pass", "monster-ability"}:
        return _monster_attack(st, actions)
    if "place-in" in kinds:
        return _place_monster(st, actions)
    if "place" in kinds and st.hs is not None and st.ex.get(st.current) is not None \
            and st.ex[st.current].room == "mystic-elevator" and all(a.get("floor") for a in actions if a.kind == "place"):
        ride = _ride(st, actions)
        if ride is not None:
            return ride
    if "collapse" in kinds:
        return _collapse(st, actions)
    if "rescue" in kinds:
        return next(a for a in actions if a.kind == "rescue")
    if "fetch" in kinds:
        return next(a for a in actions if a.kind == "fetch")
    if "steal-token" in kinds and "damage-them" in kinds:
        return _take_or_hurt(st, actions)
    if "steal" in kinds:
        seat = st.to_move() or ""
        want = wanted_cards(st, st.side.get(seat, HERO))
        for m in st.active_monsters():
            need_all, need_any, _ = monster_goal(st, m)
            want |= need_all | need_any
        return next((a for a in actions if a.kind == "steal" and str(a["card"]) in want), actions[0])
    if "end" in kinds or "move" in kinds or "explore" in kinds:
        return _turn(st, actions, rng)
    return actions[rng.below(len(actions))]


# --------------------------------------------------------------------------------------------
# Goals read from the haunt spec


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
        for task in own.tasks:
            for r in task.get("where", {}).get("rooms", []):
                if r in st.house.spots:
                    rooms.append(r)
    return sorted(set(rooms))


def wanted_cards(st: HauntState, side: str) -> set[str]:
    """Cards the side's attack rules or tasks require (``holding``); of weapons any one of which
    will do (``attack_weapon``), all while the side holds none of them, else those it holds."""
    out: set[str] = set()
    if st.hs is None or (own := st.hs.sides().get(side)) is None:
        return out
    for rule in [*own.attack_rules, *own.tasks, *own.actions]:
        _collect_holding(rule.get("requires", {}), out)
        held = rule.get("holding")
        if isinstance(held, str):
            out.add(held)
        elif isinstance(held, list):
            out.update(str(h) for h in held)
    for group in _alternatives(own.attack_rules):
        mine = {c for c in group if any(st.holds(s, c) for s in st.seat_ids if st.in_play(s) and st.side.get(s) == side)}
        out |= mine or group
    return out


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


# --------------------------------------------------------------------------------------------
# An explorer's turn


def _turn(st: HauntState, actions: list[Action], rng: Rng) -> Action:
    seat = st.current
    by_kind: dict[str, list[Action]] = {}
    for a in actions:
        by_kind.setdefault(a.kind, []).append(a)
    if st.hs is None:
        # Exploration: open new rooms (omens start the haunt), take items lying about.
        if "pickup" in by_kind:
            return by_kind["pickup"][0]
        if "explore" in by_kind and rng.below(4) > 0:
            return by_kind["explore"][rng.below(len(by_kind["explore"]))]
        moves = by_kind.get("move", []) + by_kind.get("explore", [])
        if moves and rng.below(3) > 0:
            return moves[rng.below(len(moves))]
        return by_kind.get("end", actions)[0]
    side = st.side.get(seat, HERO)
    if side == HERO and "carry" in by_kind:
        return by_kind["carry"][0]  # a carried ally is safe from what hunts it
    reveal = by_kind.pop("reveal-traitor", [])
    actions = [a for a in actions if a.kind != "reveal-traitor"]
    if reveal and st.ex[seat].status:
        return reveal[0]  # hidden-traitor.self-reveal: traitor powers end lasting event hindrances
    if "attack" in by_kind:
        by_kind["attack"] = [a for a in by_kind["attack"] if _foe(st, seat, str(a["target"]))]
    if side == TRAITOR and st.hidden == seat and st.unmasked:
        strike = _best_attack(st, seat, by_kind.get("attack", []))
        if strike is not None:
            return strike  # a revealed traitor fights first; a hidden one gathers Keys first
    token_move = _token_plan(st, seat, side, by_kind)
    if token_move is not None:
        return token_move
    want = wanted_cards(st, side)
    if st.rivals(seat):
        for a in by_kind.get("free", []):
            if a.get("who") == seat:
                return a  # a rival has no ally to free it: it tries itself
    for a in by_kind.get("pickup", []):
        if str(a["card"]) in want or not want:
            return a
    for a in by_kind.get("haunt-action", []):
        if str(a["card"]) in want and not want & set(st.ex[seat].cards):
            return a
    allies = st.allies_of(seat)
    personal = _personal(st, want)
    lacking = {w for w in want if not any(st.holds(s, w) for s in allies)} | {w for w in personal if not st.holds(seat, w)}
    for a in by_kind.get("pickup-token", []):
        if str(a["token"]) in lacking:
            return a
    for a in sorted(by_kind.get("task", []), key=lambda a: _trait_pref(st, seat, a)):
        if a.get("target") is not None and not _worth_aiming(st, seat, str(a["id"]), str(a["target"])):
            continue
        yields = _task_yields(st, side, str(a["id"]))
        if (not yields or yields & lacking) and _useful(st, side, str(a["id"])):
            return a
    attack = _best_attack(st, seat, by_kind.get("attack", []))
    if attack is not None:
        return attack
    # One carrier gathers what the goals need: the ally holding most of it (first seat on ties).
    carrier = max(allies, key=lambda s: (sum(st.holds(s, w) for w in want), -st.seat_ids.index(s))) if allies else seat
    if want and seat != carrier:
        for a in by_kind.get("trade", []) + by_kind.get("give-token", []):
            if a.get("to") == carrier and str(a.get("card") or a.get("token")) in want - personal:
                return a
    goals = _targets(st, seat, side, want, carrier, lacking)
    if goals and st.ex[seat].room not in st._dist_to(goals):
        goals = _frontier(st)  # the goals cannot be reached yet: open up the house
        if st.ex[seat].room not in st._dist_to(goals) and "mystic-elevator" in st.house.spots:
            goals = ["mystic-elevator"]  # stranded: the Mystic Elevator is the only way on
        if st.ex[seat].room not in st._dist_to(goals) and not by_kind.get("move") and by_kind.get("use"):
            return by_kind["use"][0]  # shut in: the room's own way out (a wall switch, a slide) is the only hope
    if goals:
        dist = st._dist_to(goals)
        here = dist.get(st.ex[seat].room, 10_000)
        steps = [a for a in by_kind.get("move", []) if dist.get(str(a["to"]), 10_000) < here]
        if steps:
            return min(steps, key=lambda a: (dist.get(str(a["to"]), 10_000), str(a["to"])))
        frontier = here == 0 and st.ex[seat].room in _frontier(st) and goals == _frontier(st)
        if frontier and "explore" in by_kind:
            return by_kind["explore"][rng.below(len(by_kind["explore"]))]
        if (frontier or here > 0) and "cross" in by_kind:
            return by_kind["cross"][0]  # the way on is across a barrier
        if here == 0 and "end" in by_kind:
            return by_kind["end"][0]
    if "explore" in by_kind:
        return by_kind["explore"][rng.below(len(by_kind["explore"]))]
    if "end" in by_kind:
        return by_kind["end"][0]
    return actions[rng.below(len(actions))]


def _personal(st: HauntState, want: set[str]) -> set[str]:
    """Wanted tokens with a ``carry_limit``: each explorer gets its own (a Torch in every hand)
    rather than one carrier gathering them."""
    return {w for w in want if st.hs is not None and w in st.hs.tokens and st.hs.tokens[w].carry_limit is not None}


def _take_or_hurt(st: HauntState, actions: list[Action]) -> Action:
    """A monster that may take a token instead of dealing damage deals the damage when it would
    kill the hero, and otherwise takes a token the heroes' goals need."""
    hurt = next(a for a in actions if a.kind == "damage-them")
    victim = st.ex[str(hurt["target"])]
    points = int(str(hurt["points"]))
    if points > victim.idx["might"] + victim.idx["speed"]:
        return hurt
    need = wanted_cards(st, HERO)
    return next((a for a in actions if a.kind == "steal-token" and str(a["token"]) in need), hurt)


def _foe(st: HauntState, seat: str, target: str) -> bool:
    """Whom an explorer would attack: monsters (for heroes), and explorers of the other side -
    for a hero only those the table knows to be foes (an unrevealed hidden traitor looks like a
    hero); the hidden traitor knows the heroes."""
    if target not in st.ex:
        return True
    return st.side.get(target) != st.side.get(seat) and (st.side.get(seat) == TRAITOR or target in st.opponents_of(seat))


def token_needs(st: HauntState, side: str) -> dict[str, int]:
    """Tokens the side's actions must hold to be taken (``holds_tokens``), with the count."""
    out: dict[str, int] = {}
    if st.hs is None:
        return out

    def visit(p: Any) -> None:
        if isinstance(p, Mapping):
            for key, value in p.items():
                if key == "holds_tokens":
                    with contextlib.suppress(TypeError, ValueError):
                        out[str(value["token"])] = max(out.get(str(value["token"]), 0), st._amount(value["count"]))
                elif key != "not":
                    visit(value)
        elif isinstance(p, list):
            for x in p:
                visit(x)

    for task in st.tasks_for(next((s for s in st.seat_ids if st.side.get(s) == side), st.seat_ids[0])):
        visit(task.get("requires", {}))
    return out


def _token_plan(st: HauntState, seat: str, side: str, by_kind: dict[str, list[Action]]) -> Action | None:
    """Haunts whose actions spend gathered tokens on explorers (two Keys unlock a collar): take
    the tokens where they lie, spend them on the explorer in most danger (oneself first), hand
    them to a roommate who needs them, and head for tokens or for an explorer to free. The hidden
    traitor gathers tokens too but never spends or gives them."""
    needs = token_needs(st, side if side == HERO else HERO)
    if not needs:
        return None
    e = st.ex[seat]
    token, count = sorted(needs.items())[0]
    mine = st.held.get(seat, []).count(token)
    spend = [a for a in by_kind.get("task", []) if a.get("target") is not None]
    marks = _marked(st, spend)
    hero = side == HERO
    if hero and spend:
        return min(spend, key=lambda a: (a["target"] != seat, marks.get(str(a["target"]), 99), str(a["target"])))
    takes = [a for a in by_kind.get("task", []) if a.get("target") is None and _task_room_token(st, str(a["id"])) == token]
    if takes:
        return takes[0]
    if hero:
        for a in by_kind.get("give-token", []):
            to = str(a["to"])
            theirs = st.held.get(to, []).count(token)
            if str(a["token"]) == token and to in marks and (seat not in marks or marks[to] < marks[seat]) \
                    and theirs < count:
                return a
    here = e.room
    if here in st.htokens.get(token, []) and "cross" in by_kind and not by_kind.get("task"):
        return by_kind["cross"][0]  # the token lies past the barrier
    goals: list[str] = []
    if hero and mine >= count and marks:
        goals = [st.ex[s].room for s in sorted(marks, key=lambda s: marks[s])]
    if hero and not goals and mine:
        # meet an ally in more danger whose tokens and ours together are enough (they wait)
        goals = [st.ex[s].room for s in marks if s != seat and st.seen_side(s) == HERO
                 and marks[s] < marks.get(seat, 99) and st.held.get(s, []).count(token) + mine >= count]
    if not goals:
        goals = [r for r in sorted(set(st.htokens.get(token, []))) if _worth_trying(st, r)]
    dist = st._dist_to(goals)
    if here not in dist:
        dist = st._dist_to(_frontier(st))
        if here in dist and dist[here] == 0 and "explore" in by_kind:
            return by_kind["explore"][0]
    at = dist.get(here, 10_000)
    steps = [a for a in by_kind.get("move", []) if dist.get(str(a["to"]), 10_000) < at]
    if steps:
        return min(steps, key=lambda a: (dist.get(str(a["to"]), 10_000), str(a["to"])))
    if at == 0 and goals and here in goals and "end" in by_kind:
        return by_kind["end"][0]  # wait here (a room whose token comes after a turn's end)
    return None


def _marked(st: HauntState, spend: list[Action]) -> dict[str, int]:
    """Explorers in play still carrying a dealt token that spending frees them of, by its number."""
    out: dict[str, int] = {}
    for token, dealt in st.dealt.items():
        if token == st.hidden_token:
            continue
        for s, k in dealt.items():
            if st.in_play(s) and not (s == st.hidden and st.unmasked):
                out[s] = k
    return out


def _task_room_token(st: HauntState, task_id: str) -> str | None:
    """The token a task is done for when it is done where that token lies (``room_with_token``)."""
    if st.hs is None:
        return None
    for side in st.hs.sides().values():
        for task in [*side.tasks, *side.actions]:
            if task["id"] == task_id:
                where = task.get("where", {})
                return str(where["room_with_token"]) if "room_with_token" in where else None
    return None


def _worth_trying(st: HauntState, room: str) -> bool:
    """A room worth walking to for a token: not one whose way to it is a long shot (a task
    rolled with every trait), nor one whose rule cannot give it now (the haunt's hooks say)."""
    if st.hs is None:
        return False
    for side in st.hs.sides().values():
        for task in side.tasks:
            if task.get("roll", {}).get("each_trait") and room in st._rooms_for(task.get("where", {})):
                return False
    return all(TOKEN_ROOM_HOOKS[h](st, room) for h in st.hooks_used if h in TOKEN_ROOM_HOOKS)


def _targets(st: HauntState, seat: str, side: str, want: set[str], carrier: str, lacking: set[str]) -> list[str]:
    """Rooms to head for: what the goals need, nearest first by the caller's distances."""
    mine = {w for w in want if st.holds(seat, w)}
    if want and seat != carrier and mine - _personal(st, want):
        return [st.ex[carrier].room]  # bring it to the carrier
    places = item_places(st, side)
    bring = [r for w in sorted(mine) for r in places.get(w, []) if r in st.house.spots]
    if bring:
        return bring
    if lacking:
        rooms = [r for r, cards in st.piles.items() if lacking & set(cards)]
        rooms += [r for t in sorted(lacking) if st._carried(t) for r in st.htokens.get(t, [])]
        rooms += [st.ex[s].room for s in st.opponents_of(seat) if any(st.holds(s, w) for w in lacking)]
        finds = _task_rooms(st, seat, side, lacking)
        rooms += finds
        spent = any(t.get("reuse") == "once-per-place" and _yields(t) & lacking for t in st.tasks_for(seat))
        if not finds and spent and any(st.pool.get(t, 0) > 0 for t in lacking):
            rooms += _frontier(st)  # every place searched, more still hidden: new rooms must be found
        if rooms:
            return rooms
        # Nothing yields it but the card stacks: the carrier explores for it, the others work
        # where the goals are.
        if seat == carrier:
            return _frontier(st) or _task_rooms(st, seat, side, None)
        if not mine:
            return _task_rooms(st, seat, side, None) or _frontier(st)
    if seat == carrier and want - mine - lacking:
        return [st.ex[s].room for s in st.seat_ids if s != seat and st.in_play(s) and st.side.get(s) == side
                and any(st.holds(s, w) for w in want - mine)]
    if side == HERO:
        lures = goal_rooms(st, HERO)
        if lures:
            return lures
        prey = [m.room for m in st.active_monsters() if _worth_hunting(st, seat, m)]
        if not want - mine and not st.rivals(seat):
            prey += [st.ex[s].room for s in st.opponents_of(seat)]  # rivals holding it all head for their goal
        goals = prey + _task_rooms(st, seat, side, None)
        own = st.hs.sides().get(side) if st.hs is not None else None
        if not goals and own is not None and any(t.get("reuse") == "once-per-place" for t in own.tasks):
            return _frontier(st)  # every known place is used up: open the house for more rooms and cards
        return goals
    ritual = _ritual_rooms(st, seat)
    if ritual:
        return ritual  # a task roll to repeat until it is done is the side's work: hunting waits
    return _task_rooms(st, seat, side, None) + [st.ex[s].room for s in st.opponents_of(seat)]


def _ritual_rooms(st: HauntState, seat: str) -> list[str]:
    """Rooms of the explorer's open task rolls that may be repeated (``limit: unlimited``), such
    as a summoning made of many rolls."""
    out: list[str] = []
    for task in st.tasks_for(seat):
        if "roll" not in task or task.get("limit") != "unlimited" or "where" not in task:
            continue
        if "requires" in task and not st.pred(task["requires"], seat):
            continue
        with contextlib.suppress(NotImplementedError):
            out += [r for r in st._rooms_for(task["where"]) if r in st.house.spots]
    return out


def _task_rooms(st: HauntState, seat: str, side: str, things: set[str] | None) -> list[str]:
    """Rooms where the side's tasks can be done (only those yielding ``things`` if given)."""
    if st.hs is None:
        return []
    out: list[str] = []
    for task in st.tasks_for(seat):
        if any("take_item" in d for d in task.get("do", [])):
            continue
        if things is not None and not things & _yields(task):
            continue
        if things is None and _yields(task):
            continue  # tasks that yield things are sought only while the side lacks them
        if "requires" in task and not st.pred(task["requires"], seat):
            continue
        held = task.get("holding")
        if held and not all(st.holds(seat, h) for h in ([held] if isinstance(held, str) else held)):
            continue
        if any(not _left_to_take(st, str(e["take_token"])) for e in task.get("success", []) + task.get("do", [])
               if "take_token" in e):
            continue  # nothing is left to find
        places = [task["where"]] if "where" in task else [w["in"] for w in task.get("where_any", []) if "in" in w]
        spent = {u.split("/", 1)[1] for u in st.used_places if u.startswith(f"{task['id']}/")} \
            if task.get("reuse") == "once-per-place" else set()
        for where in places:
            try:
                out += [r for r in st._rooms_for(where) if r in st.house.spots and r not in spent]
            except NotImplementedError:
                continue
    return out


def _left_to_take(st: HauntState, token: str) -> bool:
    """Whether a ``take_token`` can still yield the token (set aside, or lying in a room)."""
    return st.pool.get(token, 0) > 0 or bool(st.htokens.get(token))


def _frontier(st: HauntState) -> list[str]:
    """Rooms with a doorway that leads to no room yet (where exploring can go on)."""
    out = []
    for room in sorted(st.house.spots):
        floor = st.house.floor_of(room)
        if st.remaining_for(floor) and any(st.house.door_neighbour(room, d)[0] is None for d in st.house.doors(room)):
            out.append(room)
    return out


def _trait_pref(st: HauntState, seat: str, a: Action) -> tuple[int, int]:
    """Among a task's trait choices: the trait whose token the side has fewest of, then the
    explorer's best trait."""
    trait = a.get("trait")
    if not isinstance(trait, str):
        return (0, 0)
    have = sum(n for t, n in st.earned.items() if st.hs is not None and t in st.hs.tokens
               and st.hs.tokens[t].trait == trait)
    return (have, -st.value(seat, trait))


def _collapse(st: HauntState, actions: list[Action]) -> Action:
    """The traitor brings the house down on heroes; a hero on empty rooms far from the heroes."""
    seat = st.to_move() or ""
    heroes = [st.ex[s].room for s in st.living_heroes()]
    if st.side.get(seat) != HERO:
        return max(actions, key=lambda a: (heroes.count(str(a["room"])), str(a["room"])))
    dist = st._dist_to(heroes)
    return min(actions, key=lambda a: (heroes.count(str(a["room"])), -dist.get(str(a["room"]), 99), str(a["room"])))


def _useful(st: HauntState, side: str, task_id: str) -> bool:
    """Whether a task can still change something (its flags unset, its statuses present)."""
    own = st.hs.sides().get(side) if st.hs is not None else None
    task = next((t for t in [*own.tasks, *own.actions] if t["id"] == task_id), None) if own else None
    if task is None:
        return False
    outs = task.get("success", []) + task.get("do", [])
    if any("take_token" in eff and not _left_to_take(st, str(eff["take_token"])) for eff in outs):
        return False  # what the task would find is all gone
    for eff in outs:
        if "set_flag" in eff and str(eff["set_flag"]) in st.hflags:
            continue
        if "lose_status" in eff and not any(eff["lose_status"] in v for v in st.hstatus.values()):
            continue
        if "earn" in eff and st.pool.get(str(eff["earn"]["token"]), 1) <= 0:
            continue
        if "take_token" in eff and st.pool.get(str(eff["take_token"]), 1) <= 0 \
                and not st.htokens.get(str(eff["take_token"])):
            continue
        return True
    return False


def _task_yields(st: HauntState, side: str, task_id: str) -> set[str]:
    own = st.hs.sides().get(side) if st.hs is not None else None
    task = next((t for t in [*own.tasks, *own.actions] if t["id"] == task_id), None) if own else None
    return _yields(task) if task is not None else set()


def _yields(task: Mapping[str, Any]) -> set[str]:
    out: set[str] = set()
    for eff in task.get("success", []) + task.get("do", []):
        if "take_token" in eff:
            out.add(str(eff["take_token"]))
        if "fetch_card" in eff:
            card = eff["fetch_card"]["card"]
            out.update([card] if isinstance(card, str) else card)
    return out


def _gives(effs: Iterable[Mapping[str, Any]]) -> set[str]:
    """Statuses an outcome list makes its target gain."""
    out: set[str] = set()
    for eff in effs:
        for sub in eff.get("on_target", []):
            if "become" in sub:
                out.add(str(sub["become"]))
    return out


def _worth_aiming(st: HauntState, seat: str, task_id: str, target: str) -> bool:
    """An aimed task or ability is worth it against an opponent (not one already so) or, when it
    helps, an ally."""
    task = next((t for t in st.tasks_for(seat) if t["id"] == task_id), None)
    if task is None:
        return False
    gives = _gives(task.get("success", []) + task.get("do", []))
    if gives & set(st.hstatus.get(target, [])):
        return False
    return st.side.get(target) != st.side.get(seat) or task.get("target", {}).get("kind") == "hero-with-status"


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


def _worth_hunting(st: HauntState, seat: str, m: Monster) -> bool:
    if m.counterpart:
        own = m.counterpart == seat
        orphan = st.ex[m.counterpart].dead
        return (own or orphan) and "crystal-ball" in st.ex[seat].cards
    return st.hs is not None and any(
        "monsters_defeated" in w.when and w.when["monsters_defeated"].get("how") == "killed"
        and w.when["monsters_defeated"].get("monster") in (None, m.kind)
        for w in st.hs.heroes_side.wins)


def _best_attack(st: HauntState, seat: str, attacks: list[Action]) -> Action | None:
    best: tuple[int, Action] | None = None
    for a in attacks:
        target = str(a["target"])
        trait = str(a["trait"])
        weapon = st.weapons.get(str(a["weapon"])) if a.get("weapon") else None
        mine = st._dice(seat, None, trait, weapon.bonus if weapon else 0)
        if target in st.ex:
            theirs = st._dice(target, None, weapon.defend if weapon else trait)
        else:
            m = st.monster(target)
            if m.counterpart and not _worth_hunting(st, seat, m) and m.counterpart == seat:
                continue  # fighting one's own double without the means to kill it only costs
            theirs = st._dice(None, m, weapon.defend if weapon else trait)
        edge = mine - theirs
        used = str(a["weapon"]) if a.get("weapon") else None
        if target in st.ex and st.hs is not None and not st.fight_rules(seat, target, weapon=used) and any(
                st.hs.statuses.get(x, {}).get("no_skull") for x in st.hstatus.get(target, [])):
            continue  # it cannot die of damage: a fight only risks a loss
        chosen = str(a["rule"]) if a.get("rule") else None
        rules = st.fight_rules(seat, target, chosen=chosen, weapon=used)
        if any("on_attacker_wins" in r for r in rules):
            edge += 2  # a win does more than damage (kills, frees, steals): worth a risk
        elif target in st.ex and st.rivals(seat) and any(r.get("optional") for r in st.fight_rules(seat, target, chosen="*")):
            continue  # a rival holding what we lack is worth a steal, not a brawl
        if edge >= 0 and (best is None or edge > best[0]):
            best = (edge, a)
    return best[1] if best else None


# --------------------------------------------------------------------------------------------
# Monsters and other decisions


def monster_goal(st: HauntState, m: Monster) -> tuple[set[str], set[str], list[str]]:
    """What the traitor's wins ask of this monster: cards it must hold (all, any) and the rooms
    it must then reach (``holds`` with ``monster_in_room`` in one win)."""
    need_all: set[str] = set()
    need_any: set[str] = set()
    rooms: list[str] = []
    side = st.hs.traitor_side if st.hs is not None else None
    for w in side.wins if side is not None else ():
        leaves = w.when.get("all", [w.when])
        holds = [x["holds"] for x in leaves if "holds" in x and x["holds"].get("who", {}).get("monster") == m.kind]
        where = [x["monster_in_room"] for x in leaves if "monster_in_room" in x and x["monster_in_room"]["monster"] == m.kind]
        for h in holds:
            need_all |= set(h.get("all", []))
            need_any |= set(h.get("any", []))
        for spot in where:
            with contextlib.suppress(NotImplementedError):
                rooms += st._rooms_for(spot["room"])
    return need_all, need_any, rooms


def _monster_targets(st: HauntState, m: Monster) -> list[str]:
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
    gives = _gives([d for ab in st.mdef(m).abilities for d in ab.get("success", []) + ab.get("do", [])])
    # a monster whose abilities give a status seeks the heroes who lack it (the Witch and Frogs)
    free = [s for s in st.living_heroes() if not gives & set(st.hstatus.get(s, []))]
    prey = [st.ex[s].room for s in (free or st.living_heroes())]
    if m.counterpart and st.in_play(m.counterpart):
        prey = [st.ex[m.counterpart].room]
    return prey


def _unload_rooms(st: HauntState, m: Monster) -> list[str]:
    """Rooms in the house where the monster's own rule (``on-enter-or-start`` with a ``where``
    and no roll) does something with what it carries: a monster there is worth loading."""
    return [r for rule in st.mdef(m).must if rule.get("when") == "on-enter-or-start" and "where" in rule
            and "roll" not in rule and (m.cards or st.held.get(m.uid) or st.mdef(m).carries)
            for r in st._rooms_for(rule["where"]) if r in st.house.spots]


def _monster_move(st: HauntState, actions: list[Action], rng: Rng) -> Action:
    moves = [a for a in actions if a.kind in ("monster-move", "monster-teleport")]
    if not moves:
        return next((a for a in actions if a.kind == "monster-walk"), actions[0])
    m = st.monster(str(moves[0]["monster"]))
    prey = _monster_targets(st, m)
    if not prey:
        return actions[rng.below(len(actions))]
    traps = set(_trap_rooms(st, m))
    dist = st._dist_to(prey)
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


def _ride(st: HauntState, actions: list[Action]) -> Action | None:
    """A stranded rider (its goals out of reach from where the Mystic Elevator stands) sends the
    elevator to the spot nearest its goals: on their floor, fewest squares away; None otherwise."""
    seat = st.current
    side = st.side.get(seat, HERO)
    want = wanted_cards(st, side)
    allies = st.allies_of(seat)
    lacking = {w for w in want if not any(st.holds(s, w) for s in allies)}
    carrier = max(allies, key=lambda s: (sum(st.holds(s, w) for w in want), -st.seat_ids.index(s))) if allies else seat
    goals = [g for g in _targets(st, seat, side, want, carrier, lacking) if g in st.house.spots]
    if not goals or "mystic-elevator" in st._dist_to(goals):
        return None

    def score(a: Action) -> tuple[int, int]:
        if a.kind != "place":
            return (2, 0)
        cell = a["cell"]
        assert isinstance(cell, (list, tuple))
        x, y = (int(str(v)) for v in cell)
        near = [abs(x - st.house.spots[g].cell[0]) + abs(y - st.house.spots[g].cell[1])
                for g in goals if st.house.floor_of(g) == a["floor"]]
        return (0, min(near)) if near else (1, 0)

    return min(actions, key=score)


def _place_monster(st: HauntState, actions: list[Action]) -> Action:
    """The traitor places monsters as near the heroes as the choices allow."""
    prey = [st.ex[s].room for s in st.living_heroes()]
    if not prey:
        return actions[0]
    dist = st._dist_to(prey)
    return min(actions, key=lambda a: (dist.get(str(a["room"]), 10_000), str(a["room"])))


def _best_split(st: HauntState, actions: list[Action]) -> Action:
    """Spread damage to keep the lowest trait as high as possible."""
    seat = st.to_move() or ""
    e = st.ex.get(seat)
    if e is None:
        return actions[0]

    def score(a: Action) -> tuple[int, int]:
        left = [e.idx[k] - int(v) for k, v in a.args if isinstance(v, int) and k in e.idx]  # type: ignore[arg-type]
        return (min(left) if left else 0, sum(left))

    return max(actions, key=score)


__all__ = ["TRAITOR", "goal_rooms", "policy", "wanted_cards"]


def search_seed(players: int, haunt: int, start: int = 0, options: Mapping[str, Any] | None = None,
                tries: int = 5000, result: str | None = None) -> int:
    """The first seed from ``start`` whose policy-played game reveals ``haunt`` (and, with
    ``result``, ends with that result). The generator's job for ``--haunt N``: the seed found is
    recorded, so a replay never searches."""
    from hauntcheck.engine.betrayal.haunt import new_game
    from hauntcheck.engine.games import game_spec
    from hauntcheck.engine.play import PolicyController, play, seeded_table
    from hauntcheck.engine.transcript import TranscriptHeader

    spec = game_spec("betrayal")
    opts = {**(options or {}), "haunt": haunt}
    for seed in range(start, start + tries):
        state = new_game(spec, players, opts)
        table = seeded_table(seed, PolicyController(policy, seed))
        header = TranscriptHeader("betrayal", players)
        play(state, table, header, stop=None if result else "reveal", max_steps=200_000)
        if state.haunt is None or state.haunt["number"] != haunt:
            continue
        outcome = state.outcome()
        if result is None or (outcome is not None and outcome.result == result):
            return seed
    raise LookupError(f"no seed in {start}..{start + tries - 1} reveals haunt {haunt} with {players} players"
                      + (f" and ends '{result}'" if result else ""))


def search_decided(players: int, haunt: int, start: int = 0, options: Mapping[str, Any] | None = None,
                   tries: int = 5000) -> tuple[int, list[int]]:
    """The first seed from ``start`` whose policy game reveals ``haunt`` and ends with a winner
    (or the haunt's no-winner ending), and the seeds passed over because their game revealed the
    haunt but hit the round limit - each of those is a failure of the policy to report."""
    skipped: list[int] = []
    seed = start
    while True:
        seed = search_seed(players, haunt, seed, options, tries - (seed - start))
        if _ends_decided(players, haunt, seed, options):
            return seed, skipped
        skipped.append(seed)
        seed += 1


def _ends_decided(players: int, haunt: int, seed: int, options: Mapping[str, Any] | None) -> bool:
    from hauntcheck.engine.betrayal.haunt import new_game
    from hauntcheck.engine.games import game_spec
    from hauntcheck.engine.play import PolicyController, play, seeded_table
    from hauntcheck.engine.transcript import TranscriptHeader

    state = new_game(game_spec("betrayal"), players, {**(options or {}), "haunt": haunt})
    play(state, seeded_table(seed, PolicyController(policy, seed)), TranscriptHeader("betrayal", players), max_steps=200_000)
    outcome = state.outcome()
    return outcome is not None and outcome.result != "undecided"


def plan_golden(haunt: int, results: Iterable[str], tries: int = 2000) -> list[Any]:
    """Golden cases for a haunt: each result in ``results`` at least once and every player
    count 3 to 6 once, with the first seed (policy play) that gives each pair. Raises
    LookupError naming what could not be found."""
    from hauntcheck.engine.betrayal.haunt import new_game
    from hauntcheck.engine.games import GoldenCase, game_spec
    from hauntcheck.engine.play import PolicyController, play, seeded_table
    from hauntcheck.engine.transcript import TranscriptHeader

    spec = game_spec("betrayal")
    wanted = list(results)
    found: dict[tuple[int, str], int] = {}
    for players in (3, 4, 5, 6):
        for seed in range(tries):
            state = new_game(spec, players, {"haunt": haunt})
            play(state, seeded_table(seed, PolicyController(policy, seed)), TranscriptHeader("betrayal", players),
                 max_steps=200_000)
            outcome = state.outcome()
            if outcome is not None and outcome.result in wanted and (players, outcome.result) not in found:
                found[(players, outcome.result)] = seed
                if all((players, r) in found for r in wanted):
                    break
    # Give each result its own player counts first, then fill the other counts with any result.
    chosen: dict[int, str] = {}
    for result in sorted(wanted, key=lambda r: sum(1 for k in found if k[1] == r)):
        free = [p for p in (3, 4, 5, 6) if p not in chosen and (p, result) in found]
        if not free:
            raise LookupError(f"haunt {haunt}: no policy game ending '{result}' in {tries} seeds at any free player count")
        chosen[free[0]] = result
    for players in (3, 4, 5, 6):
        if players not in chosen:
            any_result = next((r for r in wanted if (players, r) in found), None)
            if any_result is None:
                raise LookupError(f"haunt {haunt}: no decided policy game with {players} players in {tries} seeds")
            chosen[players] = any_result
    return [
        GoldenCase(f"haunt-{haunt}-{chosen[p]}-{p}p-seed-{found[(p, chosen[p])]}", players=p, seed=found[(p, chosen[p])],
                   options={"haunt": haunt}, controller="policy")
        for p in sorted(chosen)
    ]
