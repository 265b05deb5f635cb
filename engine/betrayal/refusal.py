"""Why a Betrayal action is refused: the rule clause that keeps it off the legal list.

``BetrayalState.refusal`` asks here when ``apply`` refuses an action, so that the refusal can
name its rule (a dispute scenario's ``expect_illegal: {action, rule}``). The legal actions stay
the engine's single source of truth: this only explains, in order, the first rule that an
illegal action breaks; an action it cannot explain is refused with no rule named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal.model import SIDES
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.state import BetrayalState

Refusal = tuple[str, str]
NONE: Refusal = ("", "")


def refusal(st: BetrayalState, action: Action) -> Refusal:
    if action.kind == "roll" and isinstance(action.get("faces"), tuple):
        faces = action.get("faces")
        assert isinstance(faces, tuple)
        if any(f not in st.t.die_faces for f in faces):
            return "roll.dice-faces", f"a die shows {' or '.join(str(f) for f in sorted(set(st.t.die_faces)))} dots, never {faces}"
        return NONE
    if action.kind == "monster-move" and str(action.get("to")) not in st.house.spots:
        return "monster.no-exploring", f"{action.get('to')} is not in the house, and monsters discover no rooms"
    seat = st.to_move()
    if seat is None or seat not in st.ex or st.turn is None or st.turn.seat != seat:
        return NONE
    kind = action.kind
    if kind in ("move", "explore"):
        return _movement(st, seat, action)
    if kind in ("drop", "pickup", "trade"):
        return _item(st, seat, action)
    if kind == "attack":
        return _attack(st, seat, action)
    if kind in ("use", "cross"):
        return _ability(st, seat, action)
    if kind == "end" and st.ex[seat].room in st.no_end_rooms:
        return "room.coal-chute.no-ending-turn", f"no turn may end on the {st.room_name(st.ex[seat].room)}"
    return NONE


#: The rule that limits how often an ability may be used, by its ``limit`` and kind of source.
_LIMIT_RULES = {("once-per-turn", "card"): "item.once-per-turn-use", ("once-per-explorer-turn", "card"): "item.once-per-turn-use",
                ("once-per-turn", "room"): "roll.same-roll-once-per-turn"}


def _ability(st: BetrayalState, seat: str, action: Action) -> Refusal:
    """A room's, card's or token's ability (``use``) or a barrier crossing (``cross``) that was
    offered before and is used up: the rule of its limit, where the spec names one."""
    turn = st.turn
    assert turn is not None
    key = str(action.get("ability"))
    source, _, index = key.rpartition("#")
    kind, _, name = source.partition(":")
    abilities = (st.t.rooms[name].abilities if kind == "room" and name in st.t.rooms
                 else st.t.cards[name].abilities if kind == "card" and name in st.t.cards else ())
    if not index.isdigit() or int(index) >= len(abilities):
        return NONE
    limit = abilities[int(index)].get("limit")
    used = (key in turn.keys if limit in ("once-per-turn", "once-per-explorer-turn")
            else key in st.ex[seat].used if limit == "once-per-explorer-per-game"
            else key in st.game_used if limit in ("once-per-game", "single-use") else False)
    if not used:
        return NONE
    if action.kind == "cross":
        return "room.barrier.once-per-turn", "the crossing roll was already tried this turn"
    rule = _LIMIT_RULES.get((str(limit), kind))
    if rule is None and kind == "card":
        rule = "card.card-beats-book"  # the card's own limit (single use, once per game) overrides the book's
    if rule == "roll.same-roll-once-per-turn" and not any("roll" in step for step in abilities[int(index)].get("do", ())):
        rule = None  # a room's once-per-turn ability that is no roll is limited by its own text
    if rule is None and kind == "room" and "game" in str(limit):
        rule = f"room.{name}.once-per-game"
    if rule is None or rule not in st.setup.rules:
        return "", f"{key} is used up ({limit})"
    return rule, f"{key} is used up ({limit})"


def _movement(st: BetrayalState, seat: str, action: Action) -> Refusal:
    e = st.ex[seat]
    if action.kind == "explore":
        door = str(action.get("door"))
        if e.room == "entrance-hall" and door == "south":
            return "discover.front-door-locked", "the front door of the Entrance Hall is locked"
        floor = st.house.floor_of(e.room)
        side = SIDES.index(door) if door in SIDES else -1
        beyond, meets = st.house.door_neighbour(e.room, side) if side in st.house.doors(e.room) else (None, False)
        if beyond is not None and not meets:
            return "discover.false-door-impassable", f"the {door} door of {st.room_name(e.room)} meets a wall: a false door"
        if side not in st.house.doors(e.room) and st.t.rooms[e.room].windows is True:
            return "move.no-windows", f"{st.room_name(e.room)} has no door {door}, and its windows are no way out"
        allowed = st._part_sides(e)
        if side in st.house.doors(e.room) and allowed is not None and side not in allowed:
            return "room.barrier.members", f"the {door} doorway of {st.room_name(e.room)} is on the other side of the barrier"
        if side not in st.house.doors(e.room) or st.house.door_neighbour(e.room, side)[0] is not None:
            return "move.through-matching-doors", f"{st.room_name(e.room)} has no open doorway {door} to discover through"
        if floor is not None and st.remaining_for(floor) == 0:
            return "discover.floor-exhausted", f"no room tile is left for the {floor} floor"
    else:
        to = str(action.get("to"))
        if to not in st.house.spots:
            return "move.through-matching-doors", f"{st.room_name(to) if to in st.t.rooms else to} is not in the house"
        here = {room: cost for room, cost, _ in st.exits(seat)}
        if to not in here:
            if any(room == to for room, _, _ in st._exits(e, every_side=True)):
                return "room.barrier.members", f"{st.room_name(to)} lies beyond the barrier, on the other side of the room"
            here_floor, there_floor = st.house.floor_of(e.room), st.house.floor_of(to)
            if here_floor != there_floor:
                return ("discover.staircases-connect-floors", f"{st.room_name(to)} is on the {there_floor} floor and no "
                        f"staircase or passage leads there from {st.room_name(e.room)}")
            if _false_door_between(st, e.room, to):
                return "discover.false-door-impassable", f"the door between {st.room_name(e.room)} and {st.room_name(to)} meets a wall"
            return "move.through-matching-doors", f"no open passage leads from {st.room_name(e.room)} to {st.room_name(to)}"
        if action.get("cost") != here[to]:
            return "move.one-space-per-room", f"entering {st.room_name(to)} costs {here[to]} (the action's cost is the base cost)"
    if st.turn.stopped:
        # what ended it (a drawn card, a failed barrier roll, a status) where the engine recorded it;
        # a position that states only that movement is over names no rule rather than a guessed one
        return st.turn.stop_rule, "movement has ended for this turn"
    if st.movement_left(seat) <= 0:
        return "move.speed-spaces", f"no movement left ({st.turn.moved} spaces used of Speed {st.speed(seat)})"
    if _haunt_blocks(st, seat, "discover-rooms") and action.kind == "explore":
        return "haunt.rules-override", f"the haunt keeps {st.name(seat)} from discovering rooms"
    slowing = _slowing(st, seat)
    if slowing and st.turn.moved and action.kind == "move" and int(str(action.get("cost"))) + slowing > st.movement_left(seat):
        return "move.opponent-slows", f"leaving costs {slowing} extra space(s) for the opponents here"
    return NONE


def _haunt_blocks(st: BetrayalState, seat: str, what: str) -> bool:
    """A status of the haunt's forbids the explorer ``what`` (a Frog discovers no rooms)."""
    from hauntcheck.engine.betrayal.haunt.turns import Turns

    return isinstance(st, Turns) and st.hs is not None and st._blocks(seat, what)


def _slowing(st: BetrayalState, seat: str) -> int:
    from hauntcheck.engine.betrayal.haunt.turns import Turns

    return st._slowing(seat) if isinstance(st, Turns) and st.hs is not None else 0


def _false_door_between(st: BetrayalState, room: str, other: str) -> bool:
    """The two rooms are neighbours and a door of one meets a wall of the other."""
    for a, b in ((room, other), (other, room)):
        for side in st.house.doors(a):
            there, meets = st.house.door_neighbour(a, side)
            if there == b and not meets:
                return True
    return False


def _item(st: BetrayalState, seat: str, action: Action) -> Refusal:
    e = st.ex[seat]
    card = str(action.get("card"))
    turn = st.turn
    assert turn is not None
    if action.kind == "pickup":
        if card not in st.piles.get(e.room, ()):
            return "item.pile-open-to-all", f"no {card} lies in {st.room_name(e.room)}"
        if card in turn.items_acted:
            return "item.one-action-per-item", f"{st.card_name(card)} was already the subject of an action this turn"
        if turn.picked:
            return "item.pickup-once-per-turn", "items were already picked up this turn, and not just now"
        if _haunt_blocks(st, seat, "carry-items"):
            return "haunt.rules-override", f"the haunt keeps {st.name(seat)} from carrying items"
        return NONE
    if card not in e.cards:
        return "item.who-can-use", f"{st.name(seat)} does not hold {card}"
    cdef = st.t.cards[card]
    if card in turn.items_acted:
        return "item.one-action-per-item", f"{st.card_name(card)} was already the subject of an action this turn"
    if action.kind == "drop":
        if not cdef.can_drop:
            return "item.untradable-still-droppable", f"{st.card_name(card)} cannot be dropped"
        if turn.dropped:
            return "item.drop-once-per-turn", "items were already dropped this turn, and not just now"
        return NONE
    if not cdef.can_trade:
        return "item.untradable-still-droppable", f"{st.card_name(card)} cannot be traded"
    if turn.traded:
        return "item.trade-once-per-turn", "a trade was already made this turn"
    to = str(action.get("to"))
    other = st.ex.get(to)
    if other is not None and other.dead:
        return "death.skull", f"{st.name(to)} is dead"
    if other is not None and other.room == e.room and other.part != e.part:
        return "room.barrier.no-interaction-across", f"{st.name(to)} is on the other side of the barrier"
    if other is not None and other.room != e.room:
        return "item.trade-once-per-turn", f"{st.name(to)} is not in {st.room_name(e.room)}: trades are between explorers in one room"
    return NONE


def _attack(st: BetrayalState, seat: str, action: Action) -> Refusal:
    if st.haunt is None:
        return "attack.not-before-haunt", "there are no attacks before the haunt begins"
    if "attack" in st.turn.keys:
        return "turn.attack-once-after-haunt", "the one attack of this turn was already made"
    weapon = action.get("weapon")
    if isinstance(weapon, tuple) and len(weapon) > 1:
        return "item.one-weapon-per-attack", "an attack uses one weapon at most"
    target = str(action.get("target"))
    if target in st.t.cards and st.t.cards[target].companion:
        return "omen.companions-no-traits", f"the {st.card_name(target)} is a companion, with no trait to attack"
    other = st.ex.get(target)
    e = st.ex[seat]
    if other is not None and other.dead:
        return "death.skull", f"{st.name(target)} is dead"
    if other is not None and other.room == e.room and other.part != e.part:
        return "room.barrier.no-interaction-across", f"{st.name(target)} is on the other side of the barrier"
    if other is not None and other.room != e.room:
        return "attack.same-room", f"{st.name(target)} is not in {st.room_name(e.room)}"
    from hauntcheck.engine.betrayal.haunt.combat import Combat

    trait = str(action.get("trait"))
    if (other is None and isinstance(st, Combat) and any(m.uid == target for m in st.mon)
            and not st._target_has(target, trait)):
        return "attack.target-needs-trait", f"{target} has no {trait} to be attacked with"
    if isinstance(st, Combat) and st.hs is not None and any(r.get("forbidden") for r in st.fight_rules(seat, target)):
        return "haunt.rules-override", f"haunt {st.hs.number} forbids this attack: " + "; ".join(
            str(r.get("says", r.get("id", ""))) for r in st.fight_rules(seat, target) if r.get("forbidden"))
    return NONE
