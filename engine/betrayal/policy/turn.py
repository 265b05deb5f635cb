"""An explorer's turn as the policy plays it: where to go, what to pick up, whom to attack, what to try.

Before the reveal the explorer explores (new rooms bring the omens that start the haunt) and
takes items lying about. After it, the explorer takes the tokens its side's tasks want
(:func:`_token_plan`), picks up the cards the goals need, makes the task rolls whose yield its side
still lacks, attacks when its dice are at least the defender's and never where an attack rule
makes the fight cost it (:func:`_best_attack`), hands what the goals need to one carrier (the ally
holding most of it), and moves by shortest path toward its targets (:func:`_targets`: the rooms
its goals name, cards its side still lacks, opponents its goals ask to defeat); when they cannot
be reached yet it opens up the house.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.betrayal.haunt import HERO, TOKEN_ROOM_HOOKS, TRAITOR, HauntState
from hauntcheck.engine.betrayal.hauntspec import HauntSpec, MonsterDef
from hauntcheck.engine.betrayal.policy.attacks import (
    _best_attack,
    _body_tokens,
    _hopeless,
    _probe,
    _too_risky,
    _unhurt_by,
    _worth_hunting,
)
from hauntcheck.engine.betrayal.policy.fields import (
    _deadly_entry,
    _entry_dangers,
    _harmful_rooms,
    harmful_on_entry,
    out_of_the_way,
)
from hauntcheck.engine.betrayal.policy.goals import goal_rooms, item_places, wanted_cards, win_bearer
from hauntcheck.engine.betrayal.policy.memo import SpecMemo
from hauntcheck.engine.betrayal.policy.paths import dist_avoiding, dist_to, frontier
from hauntcheck.engine.betrayal.policy.places import (
    _escort_places,
    _escorted,
    _guard_post,
    _ritual_rooms,
    _step_toward,
    _win_token_rooms,
)
from hauntcheck.engine.betrayal.policy.readings import (
    _asks_held_tokens,
    _bonus_task_ids,
    _each_trait_places,
    _first_by_id,
    _gives,
    _held_bonuses,
    _held_tokens_asked,
    _outcomes,
    _place_shape,
    _PlaceShape,
    _room_tokens_by_task,
    _spent_counted,
    _tasks_by_side_and_id,
    _yields,
    tasks_that,
)
from hauntcheck.engine.core import Action, Rng


def _turn(st: HauntState, actions: list[Action], rng: Rng) -> Action:
    return out_of_the_way(st, actions, _turn_choice(st, actions, rng))


def _turn_choice(st: HauntState, actions: list[Action], rng: Rng) -> Action:
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
    if side == HERO:
        post = _guard_post(st, seat, by_kind)
        if post is not None:
            return post
        led = _escort_plan(st, seat, by_kind)
        if led is not None:
            return led
    if side == HERO and "carry" in by_kind:
        return by_kind["carry"][0]  # a carried ally is safe from what hunts it
    reveal = by_kind.pop("reveal-traitor", [])
    if reveal:
        actions = [a for a in actions if a.kind != "reveal-traitor"]
    if reveal and st.ex[seat].status:
        return reveal[0]  # hidden-traitor.self-reveal: traitor powers end lasting event hindrances
    if "attack" in by_kind:
        by_kind["attack"] = [a for a in by_kind["attack"] if _foe(st, seat, str(a["target"]))]
    probe = _probe(st, seat, by_kind.get("attack-unseen", []))
    if probe is not None:
        return probe
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
    lacking = want.difference(*(_holding(st, s) for s in allies)) | (personal - _holding(st, seat))
    lacking |= _counted_spend(st, side) & want
    for a in by_kind.get("pickup-token", []):
        if str(a["token"]) in lacking:
            return a
    for a in sorted(by_kind.get("task", []), key=lambda a: _trait_pref(st, seat, a)):
        if a.get("target") is not None and not _worth_aiming(st, seat, str(a["id"]), str(a["target"])):
            continue
        yields = _task_yields(st, side, str(a["id"]))
        better = _bonus_rooms(st, seat, str(a["id"]))
        if better and st.ex[seat].room not in better and dist_to(st, better).get(st.ex[seat].room) is not None:
            continue  # a bonus the explorer holds counts in another room it can reach: roll there
        if (not yields or yields & lacking) and _useful(st, side, str(a["id"])) \
                and not any(_hopeless(st, seat, t) or _too_risky(st, seat, t) for t in st.tasks_for(seat)
                            if t["id"] == a["id"]):
            return a
    attack = _best_attack(st, seat, by_kind.get("attack", []))
    if attack is not None:
        return attack
    # One carrier gathers what the goals need: the ally holding most of it (first seat on ties).
    carrier = _carrier(st, seat, allies, want)
    bearer = win_bearer(st, side)
    if bearer is not None and bearer.seat in allies:
        carrier = bearer.seat  # the explorer a win names carries it all (the heir, as far as this seat knows)
    if want and seat != carrier:
        for a in by_kind.get("trade", []) + by_kind.get("give-token", []):
            if a.get("to") == carrier and str(a.get("card") or a.get("token")) in want - personal:
                return a
    goals = _targets(st, seat, side, want, carrier, lacking)
    # the spaces to the goals, asked again below for the same goals unless some room is avoided
    reach = dist_to(st, goals) if goals else None
    if reach is not None and st.ex[seat].room not in reach:
        goals = frontier(st)  # the goals cannot be reached yet: open up the house
        reach = dist_to(st, goals)
        if st.ex[seat].room not in reach and "mystic-elevator" in st.house.spots:
            goals = ["mystic-elevator"]  # stranded: the Mystic Elevator is the only way on
            reach = dist_to(st, goals)
        if st.ex[seat].room not in reach and not by_kind.get("move") and by_kind.get("use"):
            return by_kind["use"][0]  # shut in: the room's own way out (a wall switch, a slide) is the only hope
    avoid: set[str] = set()
    if st.tasks_at(seat, "on-entry") and "move" in by_kind:
        dangers = _entry_dangers(st, seat)  # the same for every room tried: found once
        avoid = {str(a["to"]) for a in by_kind["move"] if _deadly_entry(st, seat, str(a["to"]), dangers)}
        by_kind["move"] = [a for a in by_kind["move"] if str(a["to"]) not in avoid]
    if goals:
        dist = reach if reach is not None and not avoid else dist_avoiding(st, goals, _harmful_rooms(st, seat))
        here = dist.get(st.ex[seat].room, 10_000)
        steps = [a for a in by_kind.get("move", []) if dist.get(str(a["to"]), 10_000) < here]
        if steps:
            return min(steps, key=lambda a: (dist.get(str(a["to"]), 10_000), str(a["to"])))
        exploring = here == 0 and st.ex[seat].room in frontier(st) and (goals == frontier(st) or (
            side != HERO and bool(_carried_task_unfound(st, seat))))  # exploring for its task's room
        if exploring and "explore" in by_kind:
            return by_kind["explore"][rng.below(len(by_kind["explore"]))]
        if (exploring or here > 0 or _foe_across(st, seat)) and "cross" in by_kind:
            return by_kind["cross"][0]  # the way on (or the foe sought here) is across a barrier
        if here == 0 and "end" in by_kind:
            return by_kind["end"][0]
    if "explore" in by_kind:
        return by_kind["explore"][rng.below(len(by_kind["explore"]))]
    if "end" in by_kind:
        return by_kind["end"][0]
    return actions[rng.below(len(actions))]


def _carrier(st: HauntState, seat: str, allies: list[str], want: set[str]) -> str:
    """The ally who gathers what the goals need: the one holding most of it, the first seat on
    ties (``allies`` are in seat order); the seat itself without allies."""
    if not allies:
        return seat
    if not want or len(allies) == 1:
        return allies[0]  # nobody holds anything wanted (a tie of all), or nobody to choose from
    return max(allies, key=lambda s: (len(want & _holding(st, s)), -st.seat_ids.index(s)))


def _holding(st: HauntState, seat: str) -> set[str]:
    """Everything the explorer holds as :meth:`HauntState.holds` counts it (its cards and the haunt
    tokens it carries like items), as one set: what a side lacks or an ally carries is then a
    set difference or intersection instead of a :meth:`holds` call per thing and explorer."""
    return {*st.ex[seat].cards, *st.held.get(seat, ())}


def _foe_across(st: HauntState, seat: str) -> bool:
    """An opponent shares the explorer's room only across its barrier (none on its own side)."""
    room = st.ex[seat].room
    foes = [o for o in st.opponents_of(seat) if st.ex[o].room == room]
    return bool(foes) and not any(st.together(seat, o) for o in foes)


def _personal(st: HauntState, want: set[str]) -> set[str]:
    """Wanted tokens with a ``carry_limit``: each explorer gets its own (a Torch in every hand)
    rather than one carrier gathering them."""
    if st.hs is None:
        return set()
    return want & st.hs.derived("policy-limited-tokens", _limited_tokens)


def _limited_tokens(hs: HauntSpec) -> frozenset[str]:
    """The haunt's token kinds with a ``carry_limit`` (from the spec alone)."""
    return frozenset(t for t, tdef in hs.tokens.items() if tdef.carry_limit is not None)


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
    if st.hs is None or not st.hs.derived("policy-asks-held-tokens", _asks_held_tokens):
        return out  # nearly every haunt asks for no held tokens at all, on no side's page
    tasks = st.tasks_for(next((s for s in st.seat_ids if st.side.get(s) == side), st.seat_ids[0]))
    # the tasks' requirements are gathered once per list of tasks
    values = _TASKS_HOLD_TOKENS.one(tasks, lambda: [v for task in tasks for v in _held_tokens_asked(task)])
    # with every count a plain number (two Keys) the answer is the spec's own: kept by the list
    fixed = _FIXED_NEEDS.one(values, lambda: _needs_of(st, values) if all(
        isinstance(v, Mapping) and "token" in v and type(v.get("count")) is int for v in values) else None)
    return dict(fixed) if fixed is not None else _needs_of(st, values)


def _needs_of(st: HauntState, values: list[Any]) -> dict[str, int]:
    """The most of each token the ``holds_tokens`` requirements ``values`` ask for (those whose
    count is not an amount are passed over)."""
    out: dict[str, int] = {}
    for value in values:
        with contextlib.suppress(TypeError, ValueError):
            out[str(value["token"])] = max(out.get(str(value["token"]), 0), st._amount(value["count"]))
    return out


_TASKS_HOLD_TOKENS: SpecMemo[list[Any]] = SpecMemo()
_FIXED_NEEDS: SpecMemo[dict[str, int] | None] = SpecMemo()


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
        goals = _worth_trying(st, sorted(set(st.htokens.get(token, []))))
    dist = dist_to(st, goals)
    if here not in dist:
        dist = dist_to(st, frontier(st))
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
    return st.hs.derived("policy-task-room-token", _room_tokens_by_task).get(task_id)


def _worth_trying(st: HauntState, rooms: list[str]) -> list[str]:
    """The rooms worth walking to for a token, in order: not one whose way to it is a long shot
    (a task rolled with every trait), nor one whose rule cannot give it now (the haunt's hooks say)."""
    if st.hs is None or not rooms:
        return []
    # the long shots' rooms are asked once for all the rooms, not once per room
    long_shots = {r for where in st.hs.derived("policy-each-trait-places", _each_trait_places) for r in st._rooms_for(where)}
    hooks = [TOKEN_ROOM_HOOKS[h] for h in st.hooks_used if h in TOKEN_ROOM_HOOKS]
    return [r for r in rooms if r not in long_shots and all(hook(st, r) for hook in hooks)]


def _targets(st: HauntState, seat: str, side: str, want: set[str], carrier: str, lacking: set[str]) -> list[str]:
    """Rooms to head for: what the goals need, nearest first by the caller's distances."""
    mine = want & _holding(st, seat)
    if want and seat != carrier and mine - _personal(st, want):
        return [st.ex[carrier].room]  # bring it to the carrier
    bearer = win_bearer(st, side)
    if bearer is not None and bearer.seat == seat and bearer.cards <= mine and bearer.rooms:
        return list(bearer.rooms)  # the named explorer with every card: to the room that wins
    places = item_places(st, side) if mine else {}  # only the cards held are brought anywhere
    bring = [r for w in sorted(mine) for r in places.get(w, []) if r in st.house.spots]
    if bring:
        return bring
    if lacking:
        rooms = [r for r, cards in st.piles.items() if not lacking.isdisjoint(cards)]
        rooms += [r for t in sorted(lacking) if st._carried(t) for r in st.htokens.get(t, [])]
        rooms += [st.ex[s].room for s in st.opponents_of(seat) if lacking & _holding(st, s)]
        if lacking & _body_tokens(st, side):
            rooms += [st.ex[s].room for s in st.opponents_of(seat)]  # a body is made by a kill: hunt
        finds = _task_rooms(st, seat, side, lacking)
        rooms += _shared_out(st, seat, finds)
        first = _task_rooms(st, seat, side, None) if not finds and _waits_on_work(st, seat, lacking) else []
        if first and not rooms:
            return _shared_out(st, seat, first)  # what yields it waits on a step the side can take now
        spent = any(t.get("reuse") == "once-per-place" and _yields(t) & lacking for t in st.tasks_for(seat))
        if not finds and spent and any(st.pool.get(t, 0) > 0 for t in lacking):
            rooms += frontier(st)  # every place searched, more still hidden: new rooms must be found
        if rooms:
            return rooms
        # Nothing yields it but the card stacks: the carrier explores for it, the others work
        # where the goals are.
        if seat == carrier:
            return frontier(st) or _task_rooms(st, seat, side, None)
        if not mine:
            return _task_rooms(st, seat, side, None) or frontier(st)
    if seat == carrier and want - mine - lacking:
        return [st.ex[s].room for s in st.seat_ids if s != seat and st.in_play(s) and st.side.get(s) == side
                and (want - mine) & _holding(st, s)]
    if side == HERO:
        ride = _ride_rooms(st, seat)
        if ride is not None:
            return ride
        better = sorted({r for task_id in _bonus_task_ids(st.tasks_for(seat)) for r in _bonus_rooms(st, seat, task_id)})
        if better:
            return better  # carry the bonus to where it counts
        ready = _task_rooms(st, seat, side, None, holding_only=True)
        if ready:
            return ready  # take a haunt token the explorer holds to where a task uses it (a Candle to burn)
        lures = goal_rooms(st, HERO)
        if lures:
            return lures
        shown = [m.room for m in st.active_monsters() if st.mdef(m).appears]
        if shown:
            return shown  # a monster that hides between its appearances is fought while it is here
        hiding = [str(mdef.appears["on_discovery"]["floor"]) for mdef in st.hs.derived("policy-appearing", _appearing)
                  if mdef.appears and st._out_of_house(mdef)] if st.hs is not None else []
        where = [r for r in frontier(st) if st.house.floor_of(r) in hiding] if hiding else []
        if where:
            return where  # it shows up in the next room found on its floor: explore there
        prey = [m.room for m in st.active_monsters() if _worth_hunting(st, seat, m)]
        if not want - mine and not st.rivals(seat):
            # rivals holding it all head for their goal; a foe no attack of ours can hurt is no prey
            prey += [st.ex[s].room for s in st.opponents_of(seat) if not _unhurt_by(st, seat, s)]
        goals = prey + _task_rooms(st, seat, side, None)
        if not goals and _task_rooms_unfound(st, seat, side):
            return frontier(st)  # a task's room is still in the stack: explore for it
        own = st.hs.sides().get(side) if st.hs is not None else None
        if not goals and own is not None and any(t.get("reuse") == "once-per-place" for t in own.tasks):
            return frontier(st)  # every known place is used up: open the house for more rooms and cards
        return goals
    ready = _task_rooms(st, seat, side, None, holding_only=True)
    if ready:
        return ready  # take the carried token (a body) to where its task is done
    floors = _carried_task_unfound(st, seat)
    if floors:
        # its rooms are still in the stack: open up the floors they may lie on
        return [r for r in frontier(st) if st.house.floor_of(r) in floors] or frontier(st)
    rituals = _win_token_rooms(st, seat, side)
    if rituals:
        return rituals  # the side's own goal is a count of tokens its tasks earn: go and earn them
    ritual = _ritual_rooms(st, seat)
    if ritual:
        return ritual  # a task roll to repeat until it is done is the side's work: hunting waits
    return _task_rooms(st, seat, side, None) + [st.ex[s].room for s in st.opponents_of(seat)] \
        + [m.room for m in st.active_monsters() if st.allied(m)]  # the heroes' monsters are prey too (Victims)


def _appearing(hs: HauntSpec) -> tuple[MonsterDef, ...]:
    """The haunt's monsters that hide between their appearances (``appears``), in its order."""
    return tuple(mdef for mdef in hs.monsters.values() if mdef.appears)


def _ride_rooms(st: HauntState, seat: str) -> list[str] | None:
    """Rides (a task whose outcome is ``ride_with: S`` - haunt 35's Toy Airplane): a hero who may
    take one heads for the explorer with ``S``; the explorer with ``S`` waits where it is while an
    ally may still get in, and then heads for the rooms of its other open tasks (the way out).
    Before any ride is open, the rooms of the tasks open now, or new rooms while those tasks'
    rooms are all still to be found. None when the side has no rides."""
    tasks = st.tasks_for(seat)
    rides = _RIDES.one(tasks, lambda: [t for t in tasks if any("ride_with" in e for e in t.get("success", []) + t.get("do", []))])
    if not rides:
        return None
    statuses = {str(e["ride_with"]) for t in rides for e in t.get("success", []) + t.get("do", []) if "ride_with" in e}
    if statuses & set(st.hstatus.get(seat, [])):
        waiting = [s for s in st.living_heroes() if s != seat and s not in st.carried
                   and any("requires" not in t or st.pred(t["requires"], s) for t in rides)]
        if waiting:
            return [st.ex[seat].room]
        out = [r for t in st.tasks_for(seat) if t not in rides and "where" in t
               and ("requires" not in t or st.pred(t["requires"], seat)) for r in st._rooms_for(t["where"])
               if r in st.house.spots]
        return out or None
    boarding = next(([r for r in st._rooms_for(t["where"]) if r in st.house.spots] for t in rides
                     if "where" in t and ("requires" not in t or st.pred(t["requires"], seat))), None)
    if boarding:
        return boarding
    # Till a ride is open, the side works at the tasks whose requirement holds now (finding and
    # starting the vehicle), not at every task's rooms: the way out waits for the ride.
    open_now = [r for t in st.tasks_for(seat) if t not in rides and "where" in t and not _yields(t)
                and ("requires" not in t or st.pred(t["requires"], seat)) for r in st._rooms_for(t["where"])
                if r in st.house.spots]
    if open_now:
        return open_now
    return frontier(st) if _task_rooms_unfound(st, seat, HERO) else None


_RIDES: SpecMemo[list[Mapping[str, Any]]] = SpecMemo()


def _task_rooms(st: HauntState, seat: str, side: str, things: set[str] | None, holding_only: bool = False) -> list[str]:
    """Rooms where the side's tasks can be done (only those yielding ``things`` if given; with
    ``holding_only`` only those of tasks that use a haunt token the explorer carries)."""
    if st.hs is None:
        return []
    out: list[str] = []
    for task, shape in _sought_tasks(st, st.tasks_for(seat), things is None, holding_only):
        if things is not None and not things & shape.yields:
            continue
        if "requires" in task and not st.pred(task["requires"], seat):
            continue
        if _hopeless(st, seat, task):
            continue
        if not all(st.holds(seat, h) for h in shape.held):
            continue
        if not all(_left_to_take(st, token) for token in shape.takes_tokens):
            continue  # nothing is left to find
        spent = {u.split("/", 1)[1] for u in st.used_places if u.startswith(shape.used_prefix)} \
            if shape.once_per_place else set()
        for where in shape.places:
            try:
                out += [r for r in st._rooms_for(where) if r in st.house.spots and r not in spent]
            except NotImplementedError:
                continue
    if out and st.tasks_at(seat, "on-entry"):
        harmful = _harmful_rooms(st, seat)
        out = [r for r in out if r not in harmful]  # a task beside a deadly field is done from outside it
    return out


def _sought_tasks(st: HauntState, tasks: tuple[Mapping[str, Any], ...], plain: bool,
                  holding_only: bool) -> tuple[tuple[Mapping[str, Any], _PlaceShape], ...]:
    """Of ``tasks`` (in order, with their place shapes), those whose rooms :func:`_task_rooms` may
    seek by what the spec alone says, kept by the task list and the haunt: not taken where a card
    lies (``take_item``); yielding nothing when ``plain`` (tasks that yield things are sought only
    while the side lacks them), else yielding something; not an on-entry rule that takes the
    explorer out of its side's work (a room whose entry would is no goal); with ``holding_only``,
    done holding a haunt token carried like an item."""
    assert st.hs is not None
    return _SOUGHT.pair(tasks, st.hs, (plain, holding_only), lambda: tuple(
        (task, shape) for task in tasks if not (shape := _place_shape(task)).takes_item
        and bool(shape.yields) != plain and not harmful_on_entry(st, task)
        and (not holding_only or any(st._carried(h) for h in shape.held))))


_SOUGHT: SpecMemo[tuple[tuple[Mapping[str, Any], _PlaceShape], ...]] = SpecMemo()


def _shared_out(st: HauntState, seat: str, rooms: list[str]) -> list[str]:
    """Of the rooms where the side's work is waiting, those this explorer is the nearest ally to
    (ties to the earlier seat): allies split the work instead of all walking to the same room;
    all of them when it is nearest to none."""
    if len(rooms) < 2:
        return rooms
    allies = [s for s in st.seat_ids if s != seat and st.in_play(s) and st.side.get(s) == st.side.get(seat)]
    if not allies:
        return rooms
    far = 10_000
    reach = {s: dist_to(st, [st.ex[s].room]) for s in [seat, *allies]}  # spaces from each explorer
    key = {s: st.seat_ids.index(s) for s in reach}
    kept = [r for r in rooms if all((reach[seat].get(r, far), key[seat]) <= (reach[a].get(r, far), key[a]) for a in allies)]
    return kept or rooms


def _counted_spend(st: HauntState, side: str) -> set[str]:
    """Tokens the side's actions use up where a count of them used up matters (``destroy_item``
    beside an ``item_destroyed`` count: one ingredient per player thrown into the Blob) while
    more are still set aside: one held is not enough, the side gathers them all."""
    own = st.hs.sides().get(side) if st.hs is not None else None
    if own is None:
        return set()
    out: set[str] = set()
    for token, count in _spent_counted(own):
        held = sum(st.held.get(s, []).count(token) for s in st.seat_ids if st.in_play(s) and st.side.get(s) == side)
        if st.pool.get(token, 0) > 0 and st.destroyed.count(token) + held < st._amount(count):
            out.add(token)
    return out


def _waits_on_work(st: HauntState, seat: str, things: set[str]) -> bool:
    """Whether a task that yields one of ``things`` is closed now only by its requirements (a
    flag another task of the side sets: the Blob's weakness found before its ingredients are)."""
    if st.hs is None:
        return False
    gated = tasks_that(st.tasks_for(seat), st.hs, "gated-yields", lambda t: "requires" in t and bool(_yields(t)))
    return any(things & _yields(task) and not st.pred(task["requires"], seat) for task in gated)


def _task_rooms_unfound(st: HauntState, seat: str, side: str) -> bool:
    """Whether a task the explorer could take on now is tied to a room not yet in the house (or
    to rooms none of which is)."""
    if st.hs is None:
        return False
    for task in tasks_that(st.tasks_for(seat), st.hs, "tied-to-rooms", _tied_to_rooms):
        if "requires" in task and not st.pred(task["requires"], seat):
            continue
        room = task.get("where", {}).get("room")
        if isinstance(room, str) and room not in st.house.spots and room in st.t.rooms:
            return True
        rooms = task.get("where", {}).get("rooms")
        if isinstance(rooms, list) and rooms and not any(r in st.house.spots for r in rooms):
            return True  # none of its rooms is found yet (haunt 35's search for the Toy Airplane)
    return False


def _tied_to_rooms(task: Mapping[str, Any]) -> bool:
    """Whether the task is done in a room it names (``where.room``) or in one of a list of them
    (``where.rooms``): only such a task can wait for a room still in the stack."""
    where = task.get("where", {})
    return isinstance(where.get("room"), str) or (isinstance(where.get("rooms"), list) and bool(where["rooms"]))


def _carried_task_unfound(st: HauntState, seat: str) -> set[str]:
    """The floors to explore when the explorer carries a haunt token a task needs held
    (``holding``) whose rooms (``where.rooms``) are all still in the room stack: the floors those
    rooms may be placed on (none otherwise)."""
    out: set[str] = set()
    if st.hs is None:
        return out
    for task in tasks_that(st.tasks_for(seat), st.hs, "carried-to-rooms", lambda t: isinstance(t.get("holding"), str)
                           and st._carried(t["holding"]) and bool(t.get("where", {}).get("rooms"))):
        rooms = task["where"]["rooms"]
        if st.holds(seat, task["holding"]) and not any(r in st.house.spots for r in rooms):
            out |= {f for r in rooms if r in st.t.rooms for f in st.t.rooms[r].floors}
    return out


def _left_to_take(st: HauntState, token: str) -> bool:
    """Whether a ``take_token`` can still yield the token (set aside, or lying in a room)."""
    return st.pool.get(token, 0) > 0 or bool(st.htokens.get(token))


def _trait_pref(st: HauntState, seat: str, a: Action) -> tuple[int, int]:
    """Among a task's trait choices: the trait whose token the side has fewest of, then the
    explorer's best trait."""
    trait = a.get("trait")
    if not isinstance(trait, str):
        return (0, 0)
    have = sum(n for t, n in st.earned.items() if st.hs is not None and t in st.hs.tokens
               and st.hs.tokens[t].trait == trait)
    return (have, -st.value(seat, trait))


def _useful(st: HauntState, side: str, task_id: str) -> bool:
    """Whether a task can still change something (its flags unset, its statuses present)."""
    task = _side_task(st, side, task_id)
    if task is None:
        return False
    outs = _outcomes(task)
    if any(isinstance(eff.get("take_token"), str) and not _left_to_take(st, str(eff["take_token"])) for eff in outs):
        return False  # what the task would find is all gone
    if st.hs is not None and any(st.hs.statuses.get(str(eff.get("lose_status")), {}).get("less_damage") for eff in outs):
        return False  # giving up one's own protection (taking the Antique Armor off) serves no goal
    for eff in outs:
        if "set_flag" in eff and str(eff["set_flag"]) in st.hflags:
            continue
        if "lose_status" in eff and not any(eff["lose_status"] in v for v in st.hstatus.values()):
            continue
        if "earn" in eff and st.pool.get(str(eff["earn"]["token"]), 1) <= 0:
            continue
        if isinstance(eff.get("take_token"), str) and st.pool.get(str(eff["take_token"]), 1) <= 0 \
                and not st.htokens.get(str(eff["take_token"])):
            continue
        return True
    return False


def _task_yields(st: HauntState, side: str, task_id: str) -> frozenset[str]:
    task = _side_task(st, side, task_id)
    return _yields(task) if task is not None else frozenset()


def _side_task(st: HauntState, side: str, task_id: str) -> Mapping[str, Any] | None:
    """The side's first task or action (tasks first) with the id, or None."""
    if st.hs is None:
        return None
    return st.hs.derived("policy-side-tasks", _tasks_by_side_and_id).get((side, task_id))


def _worth_aiming(st: HauntState, seat: str, task_id: str, target: str) -> bool:
    """An aimed task or ability is worth it against an opponent (not one already so) or, when it
    helps, an ally."""
    task = next((t for t in st.tasks_for(seat) if t["id"] == task_id), None)
    if task is None:
        return False
    gives = _gives(task.get("success", []) + task.get("do", []))
    if gives & set(st.hstatus.get(target, [])):
        return False
    if any("steal" in eff for eff in task.get("success", [])) and target in st.ex \
            and not any(st.t.cards[c].can_steal and st.t.cards[c].type == "item" for c in st.ex[target].cards):
        return False  # nothing to take
    if gives & _win_statuses(st, st.side.get(seat, HERO)):
        return True  # the side wins once everyone has it (every living explorer inoculated)
    # a seat judges the target by what it may know: a masked traitor looks like a hero
    return st.seen_side(target) != st.side.get(seat) or task.get("target", {}).get("kind") == "hero-with-status"


def _win_statuses(st: HauntState, side: str) -> set[str]:
    """Statuses the side's wins need every living explorer to have (``all_alive_with_status``)."""
    own = st.hs.sides().get(side) if st.hs is not None else None
    out: set[str] = set()

    def visit(p: Any) -> None:
        if isinstance(p, Mapping):
            for key, value in p.items():
                if key == "all_alive_with_status":
                    out.add(str(value))
                elif key != "not":
                    visit(value)
        elif isinstance(p, list):
            for x in p:
                visit(x)

    for w in own.wins if own is not None else ():
        visit(w.when)
    return out


def _bonus_rooms(st: HauntState, seat: str, task_id: str) -> list[str]:
    """Rooms where a bonus of the task's roll that needs something the explorer holds counts
    (``{all: [{holding: X}, {in: ...}]}``: Treasure Hunt's Clues) and the task can be done."""
    task = _first_by_id(st.tasks_for(seat)).get(task_id)
    if task is None:
        return []
    out: set[str] = set()
    for held, where in _held_bonuses(task):
        if not all(st.holds(seat, h) for h in held if isinstance(h, str)):
            continue
        with contextlib.suppress(NotImplementedError):
            rooms = {r for w in where for r in st._rooms_for(w) if r in st.house.spots and r not in st.collapsed}
            if "where" in task:
                rooms &= set(st._rooms_for(task["where"]))
            out |= rooms
    return sorted(out)


def _escort_plan(st: HauntState, seat: str, by_kind: dict[str, list[Action]]) -> Action | None:
    """Heroes bring the monsters they may escort to where their action is taken: each hero has
    its own one (by seat and token order), walks to it and ends its turn there (it does not
    wander off with a hero), then takes it along each turn by the shortest way, fights what it
    can beat on the way, opens what the action needs (a task there) and ends the turn beside it.
    Once one of them is killed the escape is lost and the plan stops."""
    places = _escort_places(st)
    kinds = {k for k, rooms in places.items() if rooms}
    if not kinds or any(m.kind in kinds and m.gone == "killed" for m in st.mon):
        return None
    for a in by_kind.get("task", []):
        target = a.get("target")
        if target is not None and target not in st.ex and st.monster(str(target)).kind in kinds:
            return a  # the action it was brought for (leading a Victim out)
    here = st.ex[seat].room
    mine = _escorted(st, seat, kinds)
    if mine is None:
        if any(m.kind in kinds and not m.gone for m in st.mon):
            return None
        # every one is out: the heroes follow them by the same way (leaving the house)
        goal = sorted({r for k in kinds for r in places[k]})
        if here in goal:
            return next(iter(by_kind.get("task", [])), None)
        return _step_toward(st, here, goal, by_kind)
    goal = [r for r in places[mine.kind]]
    escorting = any(k.startswith(f"escort:{mine.uid}:") for k in st.turn_mods.get(seat, ()))
    if mine.room == here and not escorting and here not in goal:
        for a in by_kind.get("escort", []):
            if a["monster"] == mine.uid:
                return a
    if escorting and here not in goal:
        step = _step_toward(st, here, goal, by_kind)
        if step is not None:
            return step
    if mine.room == here:
        strike = _best_attack(st, seat, [a for a in by_kind.get("attack", []) if _foe(st, seat, str(a["target"]))])
        if strike is not None:
            return strike
        for a in by_kind.get("task", []):
            if _useful(st, HERO, str(a["id"])) and not _yields(next(t for t in st.tasks_for(seat) if t["id"] == a["id"])):
                return a  # a task where the escort waits (opening the door)
        return by_kind["end"][0] if "end" in by_kind else None
    return _step_toward(st, here, [mine.room], by_kind)


