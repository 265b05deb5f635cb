"""Haunt 20, Ghost Bride: the Bride's choice of groom, his death turning him into her ghost groom,
and her attacks draining his Might."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal.haunt.registry import hook

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState
    from hauntcheck.engine.betrayal.state import Gen

GROOM = "chosen-groom"


def _is_man(st: HauntState, seat: str) -> bool:
    return st.t.explorers[st.ex[seat].id].sex == "male"


@hook.setup("choose-groom")
def choose_groom(st: HauntState) -> Gen[None]:
    """Haunt 20, setup step ``choose-groom``: the hero carrying the Ring is the groom unless that
    explorer is a woman; then the oldest man among the heroes (the first seat on a tie). With no
    man among the heroes the book's stand-in figure from the box is not modelled: the oldest hero
    is the groom (judgement)."""
    heroes = st.living_heroes()
    holder = next((s for s in heroes if st.holds(s, "ring")), None)
    men = [s for s in heroes if _is_man(st, s)]
    if holder is not None and _is_man(st, holder):
        groom = holder
    else:
        pool = men or heroes
        groom = max(pool, key=lambda s: (st.t.explorers[st.ex[s].id].age, -st.seat_ids.index(s)))
    st.hstatus.setdefault(groom, []).append(GROOM)
    st.emit("haunt.setup-right-now", f"the Ghost Bride chooses {st.name(groom)} as her groom", seat=groom)
    return
    yield  # a generator, as setup hooks are


@hook.outcome("groom-becomes-ghost")
def groom_becomes_ghost(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 20, rule ``groom-dies``: when the chosen groom has died (his items, the Ring with
    them, already dropped where he fell) he rises there as the groom's ghost, a monster the
    traitor controls, and the flag ``groom-dead`` is set."""
    assert st.hs is not None
    groom = next((s for s in st.heroes() if GROOM in st.hstatus.get(s, []) and st.ex[s].dead), None)
    if groom is None:
        return
    st.hflags.add("groom-dead")
    st._add_monster(st.hs.monsters["groom-ghost"], st.ex[groom].room, rule="haunt.rules-override")
    st.emit("haunt.rules-override", f"{st.name(groom)} rises as the Ghost Bride's groom, under the traitor's control", seat=groom)
    return
    yield  # a generator, as outcome hooks are


#: Might lost by the groom for the mental damage the Bride's win would deal (bands from the top).
MIGHT_LOSS = ((5, 3), (3, 2), (1, 1))


@hook.outcome("groom-loses-might")
def groom_loses_might(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 20, attack rule ``bride-against-groom``: the Bride's win over her groom costs him
    Might instead of mental damage - 1 for 1-2 points, 2 for 3-4, 3 for 5 or more."""
    if target is None or target not in st.ex:
        return
    loss = next(n for least, n in MIGHT_LOSS if st.fight_margin >= least)
    st.emit("haunt.rules-override", f"{st.name(target)} loses {loss} Might for {st.fight_margin} mental damage",
        target=target, amount=loss, damage=st.fight_margin)
    yield from st._outcome({"lose": {"might": loss}}, target, None)
