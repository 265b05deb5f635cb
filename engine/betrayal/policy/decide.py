""":func:`policy`: one decision, answered by the kind of choice it is.

A state that is not a haunt-phase state gets a seeded random pick. Otherwise the choice is routed
by its kind: a damage split keeps the lowest trait as high as possible, a monster's move, attack,
facing or placement goes to :mod:`.monsters`, an explorer's turn to :mod:`.turn`, and the rest
(accepting, refusing harmful room text and events, stealing what the goals need, steering the
Mystic Elevator toward them) is answered here; anything else is a seeded random pick, so a game
is a function of the seed.
"""

from __future__ import annotations

from hauntcheck.engine.betrayal.haunt import HERO, HauntState
from hauntcheck.engine.betrayal.haunt.concealment import concealed_view
from hauntcheck.engine.betrayal.haunt.views import kept_from, seat_view
from hauntcheck.engine.betrayal.hauntspec import HauntSpec
from hauntcheck.engine.betrayal.policy.goals import wanted_cards
from hauntcheck.engine.betrayal.policy.monsters import (
    _monster_ability,
    _monster_attack,
    _monster_move,
    _monster_targets,
    _place_monster,
    _unload_rooms,
    monster_goal,
)
from hauntcheck.engine.betrayal.policy.paths import dist_to, layout
from hauntcheck.engine.betrayal.policy.turn import _carrier, _holding, _targets, _turn
from hauntcheck.engine.core import Action, Choices, GameState, Rng


def policy(state: GameState, legal: Choices, rng: Rng) -> Action:
    """One decision of the seat to move, made from that seat's view (:func:`seat_view`): what the
    haunt keeps from its side - hidden tokens, secret statuses - is out of the state meanwhile."""
    actions = list(legal)
    if len(actions) == 1:
        return actions[0]
    if not isinstance(state, HauntState):
        return actions[rng.below(len(actions))]
    seat = state.to_move()
    if seat is None or seat not in state.ex:
        return _decide(state, actions, rng)
    if state.hs is not None:
        # The seat's view below may be a copy of the game: the policy's distance tables are brought
        # up to date on the game itself first, so that every view shares them.
        layout(state)
        if state.concealed:
            # where a concealed explorer may be is worked out on the view from the game's own graph
            # of rooms: built on the game, not rebuilt by each view for itself
            state._graph()
    # The seat's own view: who the hidden traitors are and their hands (seen_by), where an explorer
    # concealed from it truly is (concealed_view), and the haunt's hidden tokens and statuses
    # (seat_view) are out of what the policy reads.
    view = concealed_view(state.seen_by(seat), seat)
    if not _view_hides(view, seat):
        return _decide(view, actions, rng)  # seat_view would take nothing out: no block to enter and leave
    with seat_view(view, seat):
        return _decide(view, actions, rng)


def _view_hides(view: HauntState, seat: str) -> bool:
    """Whether :func:`seat_view` would take anything out of ``view`` for ``seat``: an unrevealed
    hidden traitor other than the seat itself (a view made by :meth:`HauntState.seen_by` has masked
    it already), or tokens and statuses kept from the seat's side (:func:`kept_from`) - which only
    a haunt whose file hides something (``hidden_from``) has."""
    if view.hidden is not None and view.hidden != seat and not view.unmasked:
        return True
    return view.hs is not None and view.hs.derived("policy-hides", _hides) and bool(kept_from(view, seat))


def _hides(hs: HauntSpec) -> bool:
    """Whether the haunt file keeps any token kind or status from a side (``hidden_from``)."""
    return any(t.hidden_from is not None for t in hs.tokens.values()) \
        or any(s.get("hidden_from") is not None for s in hs.statuses.values())


def _decide(st: HauntState, actions: list[Action], rng: Rng) -> Action:
    kinds = {a.kind for a in actions}
    if "damage" in kinds:
        return _best_split(st, actions)
    if "discard-to-reduce" in kinds:
        return _discard_or_take(st, actions)
    if "spring" in kinds:  # an ambush is sprung on whoever walks in: the traitor cannot tell the heir apart
        return next(a for a in actions if a.kind == "spring")
    if "accept" in kinds:
        return next(a for a in actions if a.kind == "accept")
    if "ignore-room" in kinds:  # traitor.room-text: the harmful text is never worth suffering
        return next(a for a in actions if a.kind == "ignore-room")
    if "refuse-event" in kinds:  # traitor.refuse-events: most events cost the traitor more than they give
        return next(a for a in actions if a.kind == "refuse-event")
    if "monster-pickup" in kinds:
        m = st.monster(str(actions[0]["monster"]))
        need_all, need_any, _ = monster_goal(st, m)
        if st.mdef(m).carries.get("on_track"):
            return next(a for a in actions if a.kind == "monster-pickup")  # every item makes it stronger
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
    if "monster-re-form" in kinds:
        return _re_form(st, actions)
    if kinds & {"monster-move", "monster-stop", "monster-teleport", "monster-walk", "monster-explore", "monster-exit"}:
        return _monster_move(st, actions, rng)
    if "monster-side" in kinds:  # stand with the heroes the monster can then attack
        m = st.monster(str(actions[0]["monster"]))
        here = [st.ex[s].part for s in st.living_heroes() if st.ex[s].room == m.room]
        return max(actions, key=lambda a: here.count(actions.index(a)))
    if "monster-ability" in kinds and any(a.kind == "monster-ability" and a.get("id") is not None for a in actions):
        return _monster_ability(st, actions)
    if "wail-target" in kinds:  # the hero with the weakest Sanity, never one's own side
        seat = st.to_move() or ""
        return min(actions, key=lambda a: (st.side.get(str(a["who"])) == st.side.get(seat),
                                           st.value(str(a["who"]), "sanity"), str(a["who"])))
    if "monster-face" in kinds:  # face the way that leads toward the heroes
        m = st.monster(str(actions[0]["monster"]))
        dist = dist_to(st, _monster_targets(st, m))
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
    if "collapse-anyway" in kinds:  # the Holy Symbol given up to hold the collapse off, or not
        return _sacrifice(st, actions)
    if "keep-card" in kinds:  # of the cards drawn, keep one the goals need, else a weapon
        want = wanted_cards(st, st.side.get(st.to_move() or "", HERO))
        return min(actions, key=lambda a: (str(a["card"]) not in want, str(a["card"]) not in st.weapons, str(a["card"])))
    if "jump" in kinds:  # away from the pit: the room with the fewest fallen rooms around it
        return min(actions, key=lambda a: (len(st._collapse_neighbours(str(a["room"])) & set(st.collapsed)), str(a["room"])))
    if "rescue" in kinds:
        return next(a for a in actions if a.kind == "rescue")
    if "fetch" in kinds:
        return next(a for a in actions if a.kind == "fetch")
    if "contest-trait" in kinds:  # escape a hold with the trait where the explorer outrolls its holder most
        seat = st.to_move() or ""
        m = st.monster(str(actions[0]["monster"]))
        return max(actions, key=lambda a: (st.value(seat, str(a["trait"])) - st._dice(None, m, str(a["trait"])),
                                           -actions.index(a)))
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


def _collapse(st: HauntState, actions: list[Action]) -> Action:
    """The traitor brings the house down on heroes; a hero on empty rooms far from the heroes."""
    seat = st.to_move() or ""
    heroes = [st.ex[s].room for s in st.living_heroes()]
    traitor = st.traitor()
    # the traitor's own explorer, when in the house, is what the heroes most want under the rubble
    foe = st.ex[traitor].room if traitor is not None and st.in_play(traitor) else None
    if st.side.get(seat) != HERO:
        return max(actions, key=lambda a: (heroes.count(str(a["room"])), a["room"] != foe, str(a["room"])))
    dist = dist_to(st, heroes)
    return min(actions, key=lambda a: (heroes.count(str(a["room"])), a["room"] != foe, -dist.get(str(a["room"]), 99),
                                       str(a["room"])))


def _ride(st: HauntState, actions: list[Action]) -> Action | None:
    """A stranded rider (its goals out of reach from where the Mystic Elevator stands) sends the
    elevator to the spot nearest its goals: on their floor, fewest squares away; None otherwise."""
    seat = st.current
    side = st.side.get(seat, HERO)
    want = wanted_cards(st, side)
    allies = st.allies_of(seat)
    lacking = want.difference(*(_holding(st, s) for s in allies))
    carrier = _carrier(st, seat, allies, want)
    goals = [g for g in _targets(st, seat, side, want, carrier, lacking) if g in st.house.spots]
    if not goals or "mystic-elevator" in dist_to(st, goals):
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


def _discard_or_take(st: HauntState, actions: list[Action]) -> Action:
    """An item is given up to lessen damage (``discard_items``) when the damage would kill - the
    least useful first - or when it is neither a weapon nor a card the side's goals need."""
    take = next(a for a in actions if a.kind == "take-damage")
    seat = st.to_move() or ""
    e = st.ex[seat]
    want = wanted_cards(st, st.side.get(seat, HERO))
    offers = sorted((a for a in actions if a.kind == "discard-to-reduce"),
                    key=lambda a: (str(a["card"]) in want, str(a["card"]) in st.weapons, str(a["card"])))
    lethal = int(str(take["points"])) > e.idx["might"] + e.idx["speed"]
    junk = [a for a in offers if str(a["card"]) not in want and str(a["card"]) not in st.weapons]
    if lethal and offers:
        return offers[0]
    return junk[0] if junk else take


def _re_form(st: HauntState, actions: list[Action]) -> Action:
    """A monster that may re-form elsewhere with its track reset (``track``) does so when that
    leaves it no weaker and brings it nearer its prey, to the room nearest the prey."""
    stay = next(a for a in actions if a.kind != "monster-re-form")
    m = st.monster(str(stay["monster"]))
    dist = dist_to(st, _monster_targets(st, m))
    here = dist.get(m.room, 10_000)
    better = [a for a in actions if a.kind == "monster-re-form" and int(str(a["track"])) >= st.track
              and dist.get(str(a["to"]), 10_000) < here]
    return min(better, key=lambda a: (dist.get(str(a["to"]), 10_000), -int(str(a["track"])), str(a["to"])),
               default=stay)


def _sacrifice(st: HauntState, actions: list[Action]) -> Action:
    """Give up a card to hold the collapse back once it no longer serves a task (its place is
    used up) or once the house falls by the handful (dice a turn); keep it before."""
    card = str(actions[0]["card"])
    served = any(p.endswith(f"/{card}") for p in st.used_places)
    rule = st.collapse_rule()
    rate = st._collapse_rate(rule) if rule is not None else None
    give = served or (rate is not None and "dice" in rate)
    return next(a for a in actions if a.kind == ("sacrifice" if give else "collapse-anyway"))
