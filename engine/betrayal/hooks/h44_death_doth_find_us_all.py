"""Haunt 44, Death Doth Find Us All: the heroes age decade by decade, each new decade changing
their traits by the aging table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal.haunt.registry import hook
from hauntcheck.engine.betrayal.state import Gen
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState

AGING_TOKEN = "aging-token"
MEDALLION = "medallion"

#: What entering a decade does (Traitor's Tome, Death Doth Find Us All, the aging table): fixed
#: steps per trait, then points to lose from a trait of the player's choice in a group. The 70s row
#: serves every later decade.
DECADES: dict[int, tuple[dict[str, int], tuple[tuple[str, ...], ...]]] = {
    2: ({"might": 1, "speed": 1}, ()),
    3: ({"sanity": 1, "knowledge": 1}, ()),
    4: ({"speed": -1, "sanity": 1}, ()),
    5: ({}, (("might", "speed"), ("sanity", "knowledge"))),
    6: ({"might": -1, "speed": -1}, (("sanity", "knowledge"),)),
    7: ({"might": -1, "speed": -1, "sanity": -1, "knowledge": -1}, ()),
}


def age_of(st: HauntState, seat: str) -> int:
    """The hero's age: the card's age plus ten years for each aging token on the card."""
    return st.t.explorers[st.ex[seat].id].age + 10 * st.held.get(seat, []).count(AGING_TOKEN)


def age_decades(st: HauntState, seat: str, decades: int) -> Gen[None]:
    """Put ``decades`` aging tokens on the hero's card one at a time; each new decade entered
    changes the traits by the aging table (cumulative), the hero choosing the trait where the
    table lets them. Stops if the hero dies."""
    for _ in range(decades):
        if not st.in_play(seat):
            return
        st.held.setdefault(seat, []).append(AGING_TOKEN)
        age = age_of(st, seat)
        fixed, choices = DECADES.get(min(age // 10, 7), ({}, ()))
        st.emit("haunt.rules-override", f"{st.name(seat)} ages 10 years to {age}"
                + ("" if fixed or choices else ": no change in this decade"), seat=seat, age=age)
        for trait, steps in fixed.items():
            if st.in_play(seat):
                st.trait_change(seat, trait, steps)
        for group in choices:
            if not st.in_play(seat):
                return
            a = yield from st.ask(seat, [Action.of("damage", **{t: 1}) for t in group], f"lose 1 from {' or '.join(group)}")
            st.trait_change(seat, next(t for t in group if a.get(t) is not None), -1)


@hook.setup("first-decade")
def first_decade(st: HauntState) -> Gen[None]:
    """Haunt 44, the "Right Now" step ``first-decade``: every hero (the Medallion's holder too)
    ages 10 years at once, one aging token on the card."""
    for seat in st.living_heroes():
        yield from age_decades(st, seat, 1)


@hook.outcome("age-heroes")
def age_heroes(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 44, the traitor's end-of-turn rule ``aging``: each living hero rolls 1 die and ages
    that many decades, 1 fewer (never below 0) while carrying the Medallion."""
    for hero in st.living_heroes():
        faces = yield from st.roll(1, f"{st.name(hero)}'s aging die")
        decades = sum(faces)
        if decades and st.holds(hero, MEDALLION):
            decades -= 1
            st.emit("haunt.rules-override", f"{st.name(hero)} carries the Medallion: 1 decade fewer", seat=hero)
        st.emit("haunt.rules-override", f"{st.name(hero)} ages {decades} decade(s)", seat=hero, amount=decades)
        yield from age_decades(st, hero, decades)


@hook.outcome("age-one-decade")
def age_one_decade(st: HauntState, seat: str | None, target: str | None) -> Gen[None]:
    """Haunt 44, the rule ``medallion-ages``: the explorer in question (the Medallion's holder
    when a hero dies) ages one decade."""
    if seat is not None:
        yield from age_decades(st, seat, 1)
