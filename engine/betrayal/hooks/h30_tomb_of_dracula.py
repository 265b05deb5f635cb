"""Haunt 30, Tomb of Dracula: Domination turns a hero into a Vampire at the Speed skull, and after
sunrise the Vampires weaken until they burn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal.haunt.registry import hook
from hauntcheck.engine.betrayal.model import TRAITS
from hauntcheck.engine.betrayal.state import Gen

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState

VAMPIRE = "vampire"
#: The monsters that are Vampires (the Tome: Dracula and the Bride).
VAMPIRE_MONSTERS = ("dracula", "bride")


@hook.outcome("domination")
def domination(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 30, attack rules ``domination`` (and the monsters' ``dracula-dominates``,
    ``bride-dominates``): the dominated hero takes the fight's margin as Speed damage instead of
    mental damage. A hero whose Speed would reach the skull so does not die: it becomes a Vampire
    on the traitor's side, its Speed back at its starting value, then 1 added to each trait."""
    victim = target if target is not None and target in st.ex else seat
    if victim is None or not st.in_play(victim):
        return
    points = st.fight_margin
    e = st.ex[victim]
    if e.idx["speed"] - points >= 0:
        st.emit("haunt.rules-override", f"{st.name(victim)} is dominated and takes {points} Speed damage", target=victim, amount=points)
        st.trait_change(victim, "speed", -points)
        return
    start = st.t.explorers[e.id].traits["speed"].start
    st.emit("haunt.rules-override", f"{st.name(victim)}'s Speed reaches the skull by Domination: "
            f"{st.name(victim)} becomes a Vampire, Speed back at its start, then 1 added to each trait", target=victim)
    e.idx["speed"] = start
    yield from st._outcome({"turn_traitor": {}}, victim, None)
    yield from st._outcome({"become": VAMPIRE}, victim, None)
    for trait in TRAITS:
        st.trait_change(victim, trait, 1)


@hook.outcome("dawn")
def dawn(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 30, turn rule ``dawn-weakens``: after sunrise, at the start of each traitor turn,
    every Vampire - Dracula, the Bride, the traitor, each turned hero - loses 1 from each trait;
    a Vampire explorer dies at the skull, and Dracula or the Bride with a trait at 0 bursts into
    flames and is destroyed."""
    for victim in [s for s in st.seat_ids if st.in_play(s) and VAMPIRE in st.hstatus.get(s, [])]:
        for trait in TRAITS:
            if st.in_play(victim):
                st.trait_change(victim, trait, -1)
    for m in [x for x in st.mon if x.kind in VAMPIRE_MONSTERS and not x.gone]:
        for trait in list(m.stats):
            m.stats[trait] -= 1
        st.emit("haunt.rules-override", f"{st.mname(m)} weakens in the sun: "
                + ", ".join(f"{k} {v}" for k, v in sorted(m.stats.items())), monster=m.uid, **m.stats)
        if any(v <= 0 for v in m.stats.values()):
            m.gone = "killed"
            st.emit("haunt.rules-override", f"{st.mname(m)} bursts into flames and is destroyed", monster=m.uid)
    st._release_gone()
    yield from ()
