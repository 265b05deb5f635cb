"""Monsters that seize explorers: a monster's ``grabs`` and the outcomes ``grab`` and ``retreat``.

A monster with ``grabs`` that wins a fight whose rule says ``grab`` holds the explorer (haunt 7's
Creeper Tips, haunt 23's Suckers): the explorer gains the ``grabs.status`` and drops every item,
omen (not companions) and carried token in the room. While it holds someone the monster does not
move or attack normally: with ``drag`` it moves that many spaces toward its paired part, taking
the explorer along; with ``devour_at`` an explorer it holds in its paired part's room when the
monster's turn starts dies, and the monster and its parts are removed (not killed, so they do not
count as defeated). A held explorer fights only its holder (``Combat._may_attack``); a holder that
is stunned, killed or removed lets go (``Outcomes._release_gone``). ``retreat: paired-part`` sends
a beaten monster back to its paired part's room.

A cat-and-mouse hold (haunt 35's Cats) reuses the piece: ``keeps_items`` (the held explorer drops
nothing), ``devour_at: turn-start`` (an explorer still held when the holder's turn starts dies once
it has had a turn of its own to escape - the holder stays in play, and until then it stays with
its catch instead of moving and attacking) and ``escape: contest`` (at the start of the held explorer's turn it
names a trait and both roll it; a higher total frees it and its turn goes on, otherwise its turn
is over: :func:`escape`).

The functions take the whole game, like hooks, so the interpreter's modules call them where the
rule applies (``Outcomes._outcome``, ``Monsters._monster_turn``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt.pieces import Monster
from hauntcheck.engine.betrayal.model import TRAITS
from hauntcheck.engine.betrayal.state import Gen
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState

RULE = "haunt.rules-override"
#: ``hook_state`` key: the explorers held by a ``devour_at: turn-start`` monster who have had their
#: turn to escape (and failed), so the holder's next turn swallows them.
HELD_A_TURN = "grabs-held-a-turn"


def spec_of(st: HauntState, m: Monster) -> Mapping[str, Any]:
    """The monster's ``grabs`` entry (empty for a monster that grabs nobody)."""
    return st.mdef(m).grabs or {}


def holding(st: HauntState, m: Monster) -> str | None:
    """The explorer the monster holds, if any."""
    held = st.grips.get(m.uid)
    return held[0] if held is not None else None


def grab(st: HauntState, seat: str, m: Monster) -> Gen[None]:
    """The outcome ``grab``: monster ``m`` holds explorer ``seat``, who gains the grab status and
    drops every item and omen but companions and the Bite, and every token carried like an
    item, in the room. An explorer already held, or a monster already holding, changes nothing."""
    spec = spec_of(st, m)
    if not spec or st.ex[seat].dead or holding(st, m) is not None or any(held == seat for held, _ in st.grips.values()):
        return
    status = str(spec["status"])
    if status not in st.hstatus.get(seat, []):
        yield from st._outcome({"become": status}, seat, None)
    if status not in st.hstatus.get(seat, []):
        return  # immune to the status: nothing holds it
    st.grips[m.uid] = (seat, status)
    st.hook_state.get(HELD_A_TURN, {}).pop(seat, None)  # a new hold: its escape turn is still to come
    if spec.get("keeps_items"):
        st.emit(RULE, f"{st.mname(m)} holds {st.name(seat)}", monster=m.uid, target=seat)
        return
    e = st.ex[seat]
    drop = [c for c in e.cards if st.t.cards[c].item]  # the Bite and companions are no items
    e.cards = [c for c in e.cards if c not in drop]
    if drop:
        st.piles.setdefault(e.room, []).extend(drop)
    tokens = list(st.held.get(seat, []))
    for token in tokens:
        st.htokens.setdefault(token, []).append(e.room)
    st.held[seat] = []
    st.emit(RULE, f"{st.mname(m)} holds {st.name(seat)}, who drops "
            + (", ".join([st.card_name(c) for c in drop] + [f"the {k} token" for k in tokens]) or "nothing")
            + f" in {st.room_name(e.room)}", monster=m.uid, seat=seat, cards=drop, tokens=tokens, room=e.room)
    for card in drop:
        yield from effects.lose_card(st, seat, card)


def devour(st: HauntState, m: Monster) -> Gen[None]:
    """``grabs.devour_at: paired-part``, at the start of the monster's turn: an explorer it holds
    in the room of its paired part dies, and the monster and its parts are removed."""
    victim = holding(st, m)
    if spec_of(st, m).get("devour_at") == "turn-start" and victim is not None:
        if victim not in st.hook_state.get(HELD_A_TURN, {}):
            return  # caught on its own turn: it gets its turn to escape first
        st.hook_state[HELD_A_TURN].pop(victim, None)
        st.emit(RULE, f"{st.name(victim)} is still held when {st.mname(m)}'s turn starts", seat=victim, monster=m.uid)
        yield from st._outcome({"kill": True}, victim, m)
        st._release_gone()
        return
    parts = st.partners(m)
    if spec_of(st, m).get("devour_at") != "paired-part" or victim is None or not parts \
            or st.ex[victim].room != parts[0].room:
        return
    st.emit(RULE, f"{st.name(victim)} is held in the room of {st.mname(parts[0])} when {st.mname(m)}'s turn starts",
        target=victim, holder=parts[0].uid, monster=m.uid)
    yield from st._outcome({"kill": True}, victim, None)
    for part in [m, *parts]:
        part.gone = "removed"
        st.emit(RULE, f"{st.mname(part)} is removed", monster=part.uid)
    st._release_gone()


def escape(st: HauntState, seat: str) -> Gen[bool]:
    """``grabs.escape: contest``, at the start of a held explorer's turn: it names a trait, it and
    its holder roll that trait, and a higher total than the holder's frees it (its turn goes on);
    otherwise it is still held and its turn is over. True when the turn goes on."""
    uid = next((u for u, (held, _) in sorted(st.grips.items()) if held == seat), None)
    if uid is None:
        return True
    m = st.monster(uid)
    if spec_of(st, m).get("escape") != "contest":
        return True
    traits = [t for t in TRAITS if st.mstat(m, t) > 0 or t in m.stats]
    a = yield from st.ask(seat, [Action.of("contest-trait", trait=t, monster=uid) for t in traits],
                          f"escape {st.mname(m)}: choose a trait for the contest")
    trait = str(a["trait"])
    mine = yield from effects.own_roll(st, seat, st.value(seat, trait), "trait", f"a {trait} roll to escape",
                                       effects.Ctx(seat, "haunt"))
    theirs = sum((yield from st.roll(st._dice(None, m, trait), f"{st.mname(m)}'s {trait} roll")))
    if mine > theirs:
        del st.grips[uid]
        status = spec_of(st, m)["status"]
        if status in st.hstatus.get(seat, []):
            st.hstatus[seat].remove(status)
        st.emit(RULE, f"{st.name(seat)} rolls {mine} against {theirs} for {st.mname(m)} ({trait}) and escapes",
                seat=seat, total=mine, against=theirs, monster=m.uid, trait=trait, passed=True)
        return True
    st.emit(RULE, f"{st.name(seat)} rolls {mine} against {theirs} for {st.mname(m)} ({trait}): still held, the turn "
            "is over", seat=seat, total=mine, against=theirs, monster=m.uid, trait=trait, passed=False)
    st.hook_state.setdefault(HELD_A_TURN, {})[seat] = True
    return False


def drag(st: HauntState, m: Monster) -> Gen[bool]:
    """``grabs.drag``: a monster that starts its move holding an explorer moves ``spaces`` toward
    its paired part by a shortest way (the first room by name among equally short steps), taking
    the explorer along, instead of its normal move and attack. True when it did."""
    if spec_of(st, m).get("devour_at") == "turn-start" and holding(st, m) is not None:
        st.emit(RULE, f"{st.mname(m)} stays with {st.name(str(holding(st, m)))}", monster=m.uid, target=str(holding(st, m)))
        return True
    spec = spec_of(st, m).get("drag")
    seat = holding(st, m)
    parts = st.partners(m)
    if not spec or seat is None or not parts:
        return False
    dist = monster_dist(st, parts[0].room)
    for _ in range(int(spec["spaces"])):
        here = dist.get(m.room, 10_000)
        steps = sorted(r for r, _c, _how in st._room_exits(m.room) if dist.get(r, 10_000) < here)
        if not steps:
            break
        src = m.room
        m.room = steps[0]
        st._set_room(seat, m.room)
        st.emit("monster.rules-overridable", f"{st.mname(m)} drags {st.name(seat)} {st.room_name(src)} -> "
                f"{st.room_name(m.room)}, toward {st.mname(parts[0])}",
            monster=m.uid, seat=seat, origin=src, room=m.room, holder=parts[0].uid)
    return True
    yield  # a generator: the drag asks nobody


def monster_dist(st: HauntState, goal: str) -> dict[str, int]:
    """Spaces from every room to ``goal`` as a monster walks (``_room_exits``: every doorway on
    every side of a barrier, and the vertical passages both ways - a Sucker that slid down the
    Coal Chute can climb back up it to its Arm)."""
    back: dict[str, set[str]] = {r: set() for r in st.house.spots}
    for room in st.house.spots:
        for other, _c, _how in st._room_exits(room):
            back.setdefault(other, set()).add(room)
    dist = {goal: 0}
    frontier = [goal]
    while frontier:
        nxt: list[str] = []
        for room in frontier:
            for other in sorted(back.get(room, ())):
                if other not in dist:
                    dist[other] = dist[room] + 1
                    nxt.append(other)
        frontier = nxt
    return dist


def retreat(st: HauntState, m: Monster) -> None:
    """The outcome ``retreat: paired-part``: the monster goes to its paired part's room."""
    parts = st.partners(m)
    if m.gone or not parts or m.room == parts[0].room:
        return
    src, m.room = m.room, parts[0].room
    st.emit(RULE, f"{st.mname(m)} retreats {st.room_name(src)} -> {st.room_name(m.room)}, to {st.mname(parts[0])}",
        monster=m.uid, origin=src, room=m.room, holder=parts[0].uid)
