"""Haunt 24, Fly Away Home: Bats pour in through the outdoor and window rooms, latch onto heroes and
drink; the pipe organ drives the loose ones off."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal.haunt.pieces import Monster
from hauntcheck.engine.betrayal.haunt.registry import hook

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState
    from hauntcheck.engine.betrayal.state import Gen

BAT = "bat"
BITTEN = "bat-bitten"
#: The most Bats the box holds: loose and latched together never exceed it.
BATS_IN_BOX = 24
#: Rooms the Bats may enter by: open to the outside, or with a window on the outside.
ENTRY_ROOMS = ("tower", "chasm", "conservatory", "entrance-hall", "gardens", "graveyard", "patio", "balcony",
               "grand-staircase", "master-bedroom", "bedroom", "chapel", "dining-room")


def latched(st: HauntState) -> dict[str, int]:
    """Bats latched onto each hero (their tokens on the hero's card), by seat."""
    return st.hook_state.setdefault("bats", {}).setdefault("latched", {})  # type: ignore[no-any-return]


def _loose(st: HauntState) -> list[Monster]:
    return [m for m in st.active_monsters() if m.kind == BAT]


#: The first Bats: three in the first room of each pair found in the house (none if neither is).
FIRST_ROOSTS = (("tower", "attic"), ("chasm", "catacombs"))


@hook.setup("first-bats")
def first_bats(st: HauntState) -> Gen[None]:
    """Haunt 24, setup step ``first-bats``: three Bats in the Tower (else the Attic) and three in
    the Chasm (else the Catacombs); a pair with neither room in the house gets none, so the haunt
    may begin with fewer Bats. The first of each pair is taken (judgement: the traitor's choice)."""
    assert st.hs is not None
    for pair in FIRST_ROOSTS:
        room = next((r for r in pair if r in st.house.spots), None)
        if room is None:
            st.emit("haunt.setup-right-now", f"neither {' nor '.join(st.room_name(r) for r in pair)} is in the house: "
                    "three Bats fewer", rooms=list(pair))
            continue
        for _ in range(3):
            st._add_monster(st.hs.monsters[BAT], room)
    return
    yield  # a generator, as setup hooks are


@hook.outcome("bats-arrive")
def bats_arrive(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 24, rule ``bats-arrive``: roll a die per player; that many Bats from the box enter, one
    in each entry room in the house (in the order of :data:`ENTRY_ROOMS`), going round again while
    more are left; never more than 24 in play; none once the organ drove them off."""
    assert st.hs is not None
    if "bats-driven-off" in st.hflags:
        return
    faces = yield from st.roll(st.n, "bats entering the house")
    free = BATS_IN_BOX - len(_loose(st)) - sum(latched(st).values())
    count = min(sum(faces), max(0, free))
    rooms = [r for r in ENTRY_ROOMS if r in st.house.spots]
    st.emit("haunt.rules-override", f"{sum(faces)} Bats would enter; {count} do", dice=list(faces), total=sum(faces), count=count)
    for k in range(count if rooms else 0):
        st._add_monster(st.hs.monsters[BAT], rooms[k % len(rooms)], rule="haunt.rules-override")


@hook.monster("bat-latches")
def bat_latches(st: HauntState, seat: str | None, monster: Monster | None) -> Gen[None]:
    """Haunt 24, attack rule ``bats-latch``: after the Bats move, each Bat in a room with heroes
    rolls one die; on a 2 it latches onto a hero there (the one with fewest Bats on, then the
    first seat): it leaves the board for the hero's card, and the hero is bat-bitten."""
    if monster is None:
        return
    room = monster.room
    for bat in [m for m in _loose(st) if m.room == room and not m.stunned]:
        heroes = [s for s in st.living_heroes() if st.ex[s].room == room]
        if not heroes:
            return
        face = (yield from st.roll(1, "a Bat tries to latch on"))[0]
        if face != 2:
            continue
        on = latched(st)
        victim = min(heroes, key=lambda s: (on.get(s, 0), st.seat_ids.index(s)))
        bat.gone = "latched"  # off the board, onto the hero's card (its id stays taken)
        on[victim] = on.get(victim, 0) + 1
        if BITTEN not in st.hstatus.setdefault(victim, []):
            st.hstatus[victim].append(BITTEN)
        st.emit("haunt.rules-override", f"a Bat latches onto {st.name(victim)} ({on[victim]} on the card)", target=victim, count=on[victim])


@hook.outcome("bats-bite")
def bats_bite(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 24, turn rule ``bats-drink``: at the start of its turn the hero takes 1 physical
    damage per Bat on its card, 1 less with the Armor; and moves 1 space fewer per Bat this turn
    (one space is always left, ``move.minimum-one``)."""
    if seat is None:
        return
    n = latched(st).get(seat, 0)
    if not n:
        return
    points = n - (1 if st.holds(seat, "armor") else 0)
    st.turn_mods.setdefault(seat, set()).add(f"slowed:{n}")
    st.emit("haunt.rules-override", f"{n} Bat(s) drink from {st.name(seat)}: {points} damage, {n} space(s) less",
            count=n, seat=seat, amount=points)
    if points > 0:
        yield from st._outcome({"damage": {"type": "physical", "points": points, "unreducible": True}}, seat, None)


@hook.outcome("drive-off-bats")
def drive_off_bats(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 24, task ``play-bats-out``: every Bat not latched onto a hero leaves the house."""
    gone = _loose(st)
    for m in gone:
        m.gone = "driven-off"
    st.emit("haunt.rules-override", f"the organ drives {len(gone)} loose Bat(s) out of the house", count=len(gone))
    return
    yield  # a generator, as outcome hooks are


@hook.outcome("kill-latched-bat")
def kill_latched_bat(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 24, action ``fight-latched-bat``: the beaten Bat on the target's card dies; a hero
    with none left is no longer bat-bitten. Named in the action's ``on_target``, the hero
    carrying the Bat is the explorer in question (``seat``); called directly, ``target``."""
    target = target if target is not None else seat
    if target is None:
        return
    on = latched(st)
    if on.get(target, 0) <= 0:
        return
    on[target] -= 1
    st.emit("haunt.rules-override", f"a Bat on {st.name(target)} is killed ({on[target]} left)", target=target, count=on[target])
    if on[target] == 0 and BITTEN in st.hstatus.get(target, []):
        st.hstatus[target].remove(BITTEN)
    return
    yield  # a generator, as outcome hooks are
