"""Haunt 34, Guillotines: the collars' timers and the Keys each room guards in its own way."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt.pieces import Monster
from hauntcheck.engine.betrayal.haunt.registry import hook
from hauntcheck.engine.betrayal.state import Gen

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState


COLLAR = "collar-timer"
KEY = "key"
#: Haunt 34: rooms whose Key is taken after a roll made as though leaving the room.
LEAVE_ROLL_KEY_ROOMS = ("attic", "junk-room", "pentagram-chamber")
#: Haunt 34: barrier rooms whose Key needs a successful crossing first.
CROSSING_KEY_ROOMS = ("catacombs", "chasm", "tower")


@hook.predicate("collars")
def collars_removed(st: HauntState, seat: str | None, m: Monster | None = None) -> bool:
    """Haunt 34, win ``collars-off``: every collar is removed - unlocked or detonated (its token discarded), worn by
    an explorer no longer in play (killed some other way), or worn by the traitor once revealed
    (or dead)."""
    on = st.dealt.get(COLLAR)
    if not on:
        return True
    # a plain loop over the collars left, no generator: the goals ask this after every step
    for s in st.seat_ids:  # noqa: SIM110
        if s in on and st.in_play(s) and not (s == st.hidden and st.unmasked):
            return False
    return True


@hook.outcome("collars")
def collar_checks(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 34, timer ``collar-clock`` and rule ``fake-collar``, after the track advances: each explorer
    in play still wearing a collar whose number is at most the track rolls 3 dice, from the
    revealer's left; a total below the track kills (the collar detonates and is removed). The hidden
    traitor's collar is fake: where it would kill, the traitor must reveal instead, and a revealed
    traitor's collar counts as removed and is not rolled for."""
    assert st.haunt is not None
    order = [st.left_of(str(st.haunt["revealer"]), k) for k in range(1, st.n + 1)]
    for who in order:
        number = st.dealt.get(COLLAR, {}).get(who)
        if number is None or number > st.track or not st.in_play(who) or (who == st.hidden and st.unmasked):
            continue
        if st._check_wins():
            return
        faces = yield from st.roll(3, f"{st.name(who)}'s collar ({number})")
        total = sum(faces)
        deadly = total < st.track
        st.emit("haunt.rules-override", f"{st.name(who)}'s collar {number} (track {st.track}): 3 dice roll {total} - "
                + ("below the track" if deadly else "the blade holds"), seat=who, value=number, track=st.track, dice=list(faces),
                total=total)
        if not deadly:
            continue
        if st.masked(who):
            st.emit("haunt.rules-override", f"{st.name(who)}'s collar is fake and would kill: the traitor must reveal", seat=who)
            st.reveal_traitor("haunt")
            continue
        del st.dealt[COLLAR][who]
        st.emit("haunt.rules-override", f"{st.name(who)}'s collar detonates", seat=who)
        yield from st._outcome({"kill": True}, who, None)


@hook.predicate("key-rules")
def key_rules_allow(st: HauntState, seat: str | None, m: Monster | None = None) -> bool:
    """Haunt 34, action ``take-key`` and rule ``vault-key`` (their requirement): whether the explorer may
    try for the Key in its room now under that room's own rule (one try per room a turn): Crypt and
    Furnace Room only after taking the room's end-of-turn damage (the turn began there); Gallery
    only with the Ballroom in the house; Catacombs, Chasm and Tower only after crossing successfully
    this turn; the Vault only at the end of a turn, once open; never in the Operating Laboratory
    (its own task roll); Attic, Junk Room, Pentagram Chamber and Collapsed Room always (the try is a
    roll)."""
    if seat is None:
        return False
    room = st.ex[seat].room
    if f"key-try:{room}" in st.turn.keys:
        return False
    if room in ("crypt", "furnace-room"):
        # judgement: "after taking the room's damage" - the damage comes at the end of a turn
        # spent there, so the Key can be taken on the next turn begun in the room
        return st.turn.start_room == room
    if room == "gallery":
        return "ballroom" in st.house.spots
    if room in CROSSING_KEY_ROOMS:
        crossed = any(k.startswith(f"room:{room}#") for k in st.turn.keys) and not st.turn.stopped
        return crossed
    if room == "vault":
        return st.rule_moment == "end-of-turn" and "vault-empty" in st.tokens.get(room, [])
    return room != "operating-laboratory"


@hook.outcome("key-rules")
def key_rules_take(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 34, action ``take-key``, taking a Key: Attic, Junk Room and Pentagram Chamber roll the room's leaving
    roll (a failure costs the room's loss and no Key); the Collapsed Room rolls Speed 5+ (a
    failure is the fall to the basement with its damage, and no Key); from the Gallery the taker
    jumps to the Ballroom (with the jump's damage). A found Key ends the finder's movement."""
    if seat is None:
        return
    room = st.ex[seat].room
    st.turn.keys.add(f"key-try:{room}")
    rdef = st.t.rooms[room]
    ctx = effects.Ctx(seat, f"room:{room}")
    if room == "collapsed-room" and "passed:collapsed-room" in st.turn.keys:
        st.emit("haunt.specific-action", f"{st.name(seat)} passed the Collapsed Room's roll on finding it: the Key "
                "is found", seat=seat)
    elif room in LEAVE_ROLL_KEY_ROOMS or room == "collapsed-room":
        if room == "collapsed-room":
            first = next(a for a in rdef.abilities if a.get("id") == "collapse-first-entry")
            roll = first["do"][0]["roll"]  # the discoverer's roll to avoid falling
            fall = next(a for a in rdef.abilities if a.get("id") == "collapse-deliberate-fall")
            failure = list(fall.get("do", []))
        else:
            leave = next(a for a in rdef.abilities if a.get("trigger") == "exit")
            roll = leave["do"][0]["roll"]
            loss = next(c for c in roll["fail"][0]["choose"] if c.get("label") == "take-loss")
            failure = [eff for eff in loss["do"] if "lose" in eff]
        trait = str(roll["trait"])
        total = yield from effects.own_roll(st, seat, st.value(seat, trait), "trait", f"a {trait} roll for the Key", ctx)
        ok = total >= int(str(roll["target"]))
        st.emit("haunt.specific-action", f"{st.name(seat)} tries for the Key in {st.room_name(room)}: {trait} {total} "
                f"against {roll['target']}+ ({'found' if ok else 'failed'})",
            seat=seat, room=room, trait=trait, total=total, need=roll['target'], passed=bool(ok))
        if not ok:
            yield from effects.run(st, failure, ctx)
            return
    yield from st._outcome({"take_token": KEY}, seat, None)
    if not st.turn.stopped and seat == st.current:
        yield from st._outcome({"stop_moving": True}, seat, None)
    if room == "gallery":
        jump = next(a for a in rdef.abilities if a.get("trigger") == "in-room")
        st.emit("haunt.specific-action", f"{st.name(seat)} jumps down to the Ballroom with the Key", seat=seat)
        yield from effects.run(st, jump.get("do", []), ctx)


@hook.token_room("key-rules")
def key_room_open(st: HauntState, room: str) -> bool:
    """Haunt 34, action ``take-key``, for planning: whether the Key in ``room`` can be had at all now (the Gallery's
    needs the Ballroom in the house, the Vault's an opened vault)."""
    if room == "gallery":
        return "ballroom" in st.house.spots
    if room == "vault":
        return "vault-empty" in st.tokens.get(room, [])
    return True
