"""Token fields: a haunt's tokens standing for one thing spread over many rooms (haunt 27's Blob).
The outcomes ``place`` (of a token), ``spread`` and ``clear_tokens``, and the sides' rules at the
monster turn that grow such a field (``turn_rules`` with ``when: monster-turn``). Each takes the haunt state
(:class:`~hauntcheck.engine.betrayal.haunt.outcomes.Outcomes`); a field is the rooms holding a
token of its kind, at most one counted in each room."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hauntcheck.engine.betrayal.state import Gen

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.outcomes import Outcomes

RULE = "haunt.rules-override"


def place_tokens(st: Outcomes, spec: Mapping[str, Any]) -> None:
    """``place`` of a token as an outcome with ``each_room``: one in each room of the location in
    the house that has none yet (without ``each_room`` the setup's placement serves, ``_place_tokens``)."""
    token = str(spec["token"])
    rooms = [r for r in st._rooms_for(spec["in"]) if r in st.house.spots]
    lying = st.htokens.setdefault(token, [])
    fresh = [r for r in dict.fromkeys(rooms) if r not in lying]
    for room in fresh:
        lying.append(room)
        st.emit(RULE, f"a {token} token is placed in {st.room_name(room)}", token=token, room=room)


def field_rooms(st: Outcomes, token: str, start: Mapping[str, Any] | None) -> list[str]:
    """The rooms of the field: every room holding the token or, with ``start`` (a location),
    those joined to one of its rooms through rooms holding the token (by a monster's ways)."""
    lying = set(st.htokens.get(token, ())) & set(st.house.spots)
    if start is None:
        return sorted(lying)
    reached = {r for r in st._rooms_for(start) if r in lying}
    frontier = sorted(reached)
    while frontier:
        nxt: list[str] = []
        for room in frontier:
            for other, _cost, _how in st._room_exits(room):
                if other in lying and other not in reached:
                    reached.add(other)
                    nxt.append(other)
        frontier = sorted(nxt)
    return sorted(reached)


def spread(st: Outcomes, spec: Mapping[str, Any]) -> None:
    """``spread``: the field grows one room outward - each room one way from a field room (a
    monster's ways: doorways, stairs, the chutes and falls both ways, secret passages) that holds
    no token of the kind gets one."""
    token = str(spec["token"])
    field = field_rooms(st, token, spec.get("from"))
    lying = st.htokens.setdefault(token, [])
    grown: list[str] = []
    for room in field:
        for other, _cost, _how in st._room_exits(room):
            if other not in lying and other not in grown and other in st.house.spots:
                grown.append(other)
    lying.extend(grown)
    if grown:
        st.emit(RULE, f"the {token} spreads into {', '.join(st.room_name(r) for r in grown)}", token=token, rooms=list(grown))
    else:
        st.emit(RULE, f"the {token} has nowhere left to spread", token=token)


def clear_tokens(st: Outcomes, token: str) -> None:
    """``clear_tokens``: every token of the kind lying in the house is taken away."""
    count = len(st.htokens.get(token, ()))
    st.htokens[token] = []
    st.emit(RULE, f"all {count} {token} token{'s' if count != 1 else ''} are taken from the house", token=token, count=count)


def side_monster_rules(st: Outcomes) -> list[Mapping[str, Any]]:
    """The sides' ``turn_rules`` with ``when: monster-turn``: what the traitor's side does as the
    monster turn begins, monsters or not (haunt 27's Blob grows); with any, the monster turn
    happens every round."""
    if st.hs is None:
        return []
    return [r for side in st.hs.sides().values() for r in side.turn_rules if r.get("when") == "monster-turn"]


def side_monster_turn(st: Outcomes) -> Gen[None]:
    """The rules of :func:`side_monster_rules`, in file order, each for the traitor's player
    (judgement: the traitor runs the monster turn, even after the explorer's death)."""
    traitor = st.traitor()
    for r in side_monster_rules(st):
        if "requires" in r and not st.pred(r["requires"], traitor):
            continue
        st.emit(RULE, f"the monster turn: {r.get('says', r['id'])}", clause=str(r["id"]))
        for eff in r.get("do", []):
            yield from st._outcome(eff, traitor, None)
            if st._check_wins():
                return
