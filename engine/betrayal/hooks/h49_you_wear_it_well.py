"""Haunt 49, You Wear It Well: the heroes' unconscious bodies, the traitor's attack on a body and the
Astral Spirit's ritual to wear a soulless one. Each hero's explorer is its Soul from the haunt on
(status ``soul``); its body stays where the hero stood, linked to that hero."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt.pieces import Monster
from hauntcheck.engine.betrayal.haunt.registry import hook
from hauntcheck.engine.betrayal.state import Gen
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState

#: ``HauntState.hook_state`` keys: each hero's body room, the ritual tokens by each body, and the
#: bodies whose Soul the traitor destroyed through them (the Spirit may not wear those).
BODIES, RITUAL, BARRED = "h49-bodies", "h49-ritual", "h49-unpossessable"
BODY, RITUAL_TOKEN, WON = "unconscious-body", "ritual-roll", "spirit-inhabits"
#: The traitor's attack on a body (Traitor's Tome, lines 2882-2884).
BODY_ATTACK_DICE = 2


def bodies(st: HauntState) -> dict[str, str]:
    """Each hero's body room, by seat."""
    return dict(st.hook_state.get(BODIES, {}))


def ritual_tokens(st: HauntState, seat: str) -> int:
    """The ritual tokens beside the body of ``seat``."""
    return int(st.hook_state.get(RITUAL, {}).get(seat, 0))


def starting_sanity(st: HauntState, seat: str) -> int:
    """The explorer's printed starting Sanity."""
    track = st.t.explorers[st.ex[seat].id].traits["sanity"]
    return track.values[track.start]


@hook.setup("leave-bodies")
def leave_bodies(st: HauntState) -> Gen[None]:
    """Haunt 49, heroes' setup ``leave-bodies``: each hero's figure is tipped over where it stands;
    that unconscious body stays in the room (an ``unconscious-body`` token) linked to the hero,
    whose Soul moves on."""
    rooms = st.hook_state.setdefault(BODIES, {})
    for seat in st.living_heroes():
        room = st.ex[seat].room
        rooms[seat] = room
        st.htokens.setdefault(BODY, []).append(room)
        st.emit("haunt.setup-right-now", f"{st.name(seat)}'s unconscious body lies in {st.room_name(room)}; "
                "the Soul goes on", seat=seat, room=room, token=BODY)
    return
    yield


def _living_bodies_here(st: HauntState, seat: str | None) -> list[str]:
    if seat is None or not st.in_play(seat):
        return []
    room = st.ex[seat].room
    return [h for h, r in sorted(bodies(st).items()) if r == room and not st.ex[h].dead]


def _soulless_bodies_here(st: HauntState, m: Monster) -> list[str]:
    barred = set(st.hook_state.get(BARRED, {}))
    return [h for h, r in sorted(bodies(st).items()) if r == m.room and st.ex[h].dead and h not in barred]


@hook.predicate("attack-body")
def body_here(st: HauntState, seat: str | None, m: Monster | None) -> bool:
    """Haunt 49, traitor's action ``attack-body``: a living hero's body lies in the traitor's room."""
    return bool(_living_bodies_here(st, seat))


@hook.outcome("attack-body")
def attack_body(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 49, traitor's action ``attack-body``: the traitor rolls 2 dice against a living hero's
    body in the room; the hero cannot defend and takes that much mental damage (its Soul, wherever
    it is). A Soul destroyed this way leaves a body the Spirit may never wear."""
    here = _living_bodies_here(st, seat)
    if seat is None or not here:
        return
    hero = here[0]
    if len(here) > 1:
        a = yield from st.ask(seat, [Action.of("attack-body", hero=h) for h in here], "attack which body")
        hero = str(a["hero"])
    faces = yield from st.roll(BODY_ATTACK_DICE, f"{st.name(seat)}'s attack on {st.name(hero)}'s body")
    points = sum(faces)
    st.emit("haunt.specific-action", f"{st.name(seat)} attacks {st.name(hero)}'s unconscious body: "
            f"{points} mental damage, no defence", seat=seat, target=hero, amount=points, kind="mental")
    st.damage_source = seat
    yield from effects.take_damage(st, hero, "mental", points)
    st.damage_source = None
    if st.ex[hero].dead:
        st.hook_state.setdefault(BARRED, {})[hero] = True
        st.emit("haunt.rules-override", f"{st.name(hero)}'s Soul is destroyed through the body: "
                "the Spirit cannot wear that body", seat=hero)


@hook.predicate("possession-ritual")
def soulless_body_here(st: HauntState, seat: str | None, m: Monster | None) -> bool:
    """Haunt 49, Spirit's ability ``possession-ritual``: a body whose Soul the Spirit may take over
    (destroyed, but not through the body) lies in the Spirit's room."""
    return m is not None and bool(_soulless_bodies_here(st, m))


@hook.monster("possession-ritual")
def possession_ritual(st: HauntState, seat: str | None, m: Monster | None) -> Gen[None]:
    """Haunt 49, Spirit's ability ``possession-ritual``: once a monster turn the Spirit rolls Sanity
    against a soulless body in its room; a result above that explorer's starting Sanity puts a
    ritual token beside the body. With as many tokens as players beside one body the Spirit wears
    it (flag ``spirit-inhabits``: the traitor wins)."""
    if m is None:
        return
    here = _soulless_bodies_here(st, m)
    if not here:
        return
    hero = max(here, key=lambda h: (ritual_tokens(st, h), -starting_sanity(st, h)))
    if len(here) > 1:
        a = yield from st.ask(st.monster_controller(m), [Action.of("possess", hero=h) for h in here],
                              "which body does the Spirit try to enter")
        hero = str(a["hero"])
    need = starting_sanity(st, hero)
    faces = yield from st.roll(st._dice(None, m, "sanity"), f"{st.mname(m)}'s ritual on {st.name(hero)}'s body")
    total = sum(faces)
    if total <= need:
        st.emit("haunt.rules-override", f"{st.mname(m)}'s ritual rolls {total}, not above {st.name(hero)}'s "
                f"starting Sanity {need}: nothing", monster=m.uid, target=hero, total=total, against=need)
        return
    tokens = st.hook_state.setdefault(RITUAL, {})
    tokens[hero] = int(tokens.get(hero, 0)) + 1
    if st.pool.get(RITUAL_TOKEN, 0) > 0:
        st.pool[RITUAL_TOKEN] -= 1
    st.htokens.setdefault(RITUAL_TOKEN, []).append(m.room)
    goal = st._amount({"of": "players"})
    st.emit("haunt.rules-override", f"{st.mname(m)}'s ritual rolls {total}, above {st.name(hero)}'s starting Sanity "
            f"{need}: {tokens[hero]} of {goal} ritual tokens beside the body",
            monster=m.uid, target=hero, total=total, against=need, token=RITUAL_TOKEN, count=tokens[hero])
    if tokens[hero] >= goal:
        st.hflags.add(WON)
        st.emit("haunt.rules-override", f"{st.mname(m)} wears {st.name(hero)}'s body", monster=m.uid, target=hero)
