"""Haunt 6, The Floating Eye: mind control on everyone in a room, controlled heroes, freeing, the
Spaceship."""

from __future__ import annotations

from betrayal_support import drive, started

from hauntcheck.engine.betrayal.haunt import HauntState, Monster
from hauntcheck.engine.core import Action


def _alien_with_heroes(st: HauntState, k: int = 2) -> tuple[Monster, list[str]]:
    """The first Alien and ``k`` heroes put together in the Spaceship's room."""
    alien = next(m for m in st.mon if m.kind == "alien")
    alien.stunned = False
    ship = st.htokens["spaceship"][0]
    alien.room = ship
    heroes = st.living_heroes()[:k]
    for s in heroes:
        st.ex[s].room = ship
    return alien, heroes


def test_setup_removes_the_traitor_and_puts_aliens_and_ship_in_the_haunt_room() -> None:
    st = started(4, 6)
    traitor = st.traitor()
    assert traitor is not None and traitor in st.removed and not st.in_play(traitor)
    aliens = [m for m in st.mon if m.kind == "alien"]
    assert len(aliens) == 1 and aliens[0].stats == {"speed": 3, "might": 4, "sanity": 5}
    assert st.haunt is not None and st.htokens["spaceship"] == [str(st.haunt["room"])]
    assert st.pool["might-roll"] == 4


def test_mind_control_attacks_each_hero_here_with_sanity_and_a_loser_is_controlled() -> None:
    st = started(4, 6)
    alien, (h1, h2) = _alien_with_heroes(st)
    while st.value(h1, "sanity") >= 5:
        st.trait_change(h1, "sanity", -1)
    while st.value(h2, "sanity") < 5:
        st.trait_change(h2, "sanity", 1)
    before = {s: dict(st.ex[s].idx) for s in (h1, h2)}
    (ability, targets), = st._ability_attacks(alien)
    assert ability["id"] == "mind-control" and targets == [h1, h2]
    _, reqs = drive(st._attack_each(alien, ability, targets))
    rolls = [r for r in reqs if r.actor == "chance"]
    assert len(rolls) == 4  # one roll-off per hero, each side rolling
    assert rolls[0].choices.count == st.mstat(alien, "sanity")  # type: ignore[attr-defined]
    # all-2 faces: the Alien's 5 Sanity dice beat h1 (less Sanity), h2 ties or wins; nobody is hurt
    assert st.hstatus.get(h1) == ["controlled"] and "controlled" not in st.hstatus.get(h2, [])
    assert all(st.ex[s].idx == before[s] for s in (h1, h2))


def test_controlled_and_freed_heroes_are_no_targets_of_mind_control() -> None:
    st = started(4, 6)
    alien, (h1, h2) = _alien_with_heroes(st)
    st.hstatus[h1] = ["controlled"]
    st.hstatus[h2] = ["freed"]
    assert st._ability_attacks(alien) == []
    drive(st._outcome({"become": "controlled"}, h2, None))
    assert st.hstatus[h2] == ["freed"]  # freed heroes are immune to control


def test_a_normal_alien_attack_is_might_and_not_mind_control() -> None:
    st = started(4, 6)
    alien, (h1, _) = _alien_with_heroes(st)
    assert st.fight_rules(alien.uid, h1) == []
    assert [r["id"] for r in st.fight_rules(alien.uid, h1, "mind-control")] == ["mind-control"]
    total = st.ex[h1].idx["might"] + st.ex[h1].idx["speed"]
    drive(st._resolve_fight(alien.uid, h1, "might", 6, 4))
    assert "controlled" not in st.hstatus.get(h1, [])
    assert st.ex[h1].idx["might"] + st.ex[h1].idx["speed"] == total - 2


def test_a_hero_may_attack_only_a_controlled_friend_and_a_win_frees_for_half_damage() -> None:
    st = started(4, 6)
    _, (h1, h2) = _alien_with_heroes(st)
    st.turn.keys.discard("attack")
    assert not any(a.get("target") == h2 for a in st._attack_actions(h1))
    st.hstatus[h2] = ["controlled"]
    assert Action.of("attack", target=h2, trait="might") in st._attack_actions(h1)
    total = st.ex[h2].idx["might"] + st.ex[h2].idx["speed"]
    drive(st._resolve_fight(h1, h2, "might", 7, 2))  # wins by 5: half, rounded down, is 2
    assert st.hstatus[h2] == ["freed"]
    assert st.ex[h2].idx["might"] + st.ex[h2].idx["speed"] == total - 2


def test_a_controlled_hero_only_walks_toward_the_spaceship_then_boards_it() -> None:
    st = started(4, 6)
    ship = st.htokens["spaceship"][0]
    h = st.current
    assert st.side[h] == "heroes"
    st.hstatus[h] = ["controlled"]
    st.refresh()
    acts = list(st.legal_actions())
    dist = st._dist_to([ship])
    here = dist.get(st.ex[h].room, 10_000)
    assert acts and all(a.kind in ("move", "end", "free") for a in acts)
    if here > 0 and any(a.kind == "move" for a in acts):
        assert all(dist.get(str(a["to"]), 10_000) < here for a in acts if a.kind == "move")
        assert not any(a.kind == "end" for a in acts)
    st.ex[h].room = ship
    drive(st._turn_rules(h, "start-of-turn"))
    assert "aboard" in st.hstatus[h] and h in st.removed and not st.in_play(h)


def test_a_controlled_hero_is_spared_room_rolls_and_damage_only() -> None:
    st = started(4, 6)
    h = st.living_heroes()[0]
    rolls = {"trigger": "enter", "do": [{"roll": {"trait": "speed", "target": 5}}]}
    hurts = {"trigger": "end-of-turn", "do": [{"damage": {"type": "physical", "dice": 1}}]}
    helps = {"trigger": "end-of-turn", "do": [{"gain": {"sanity": 1}}]}
    assert not st.waives_room_text(h, rolls)
    st.hstatus[h] = ["controlled"]
    assert st.waives_room_text(h, rolls) and st.waives_room_text(h, hurts) and not st.waives_room_text(h, helps)


def test_the_heroes_win_when_the_ship_has_a_token_per_player_and_the_traitor_when_all_are_aboard() -> None:
    st = started(3, 6)
    assert not st._check_wins()
    for h in st.living_heroes():
        drive(st._outcome({"become": "aboard"}, h, None))
    assert st._check_wins() and st.result is not None and st.result.result == "traitor"
    st = started(3, 6)
    st.earned["might-roll"] = 3
    assert st._check_wins() and st.result is not None and st.result.result == "heroes"
