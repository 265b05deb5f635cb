"""The Betrayal haunt phase: turn order, attacks, death, monsters, winning, the policy, goldens."""

from __future__ import annotations

from pathlib import Path

import pytest
from betrayal_support import drive, haunt_seed, played_out, policy_game, started

from hauntcheck.checks.verify import golden_file
from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HERO, HauntState, Monster
from hauntcheck.engine.betrayal.policy import policy, search_seed
from hauntcheck.engine.core import Action, Outcome
from hauntcheck.engine.games import game_spec, get_game
from hauntcheck.engine.play import PolicyController, seeded_table

ROOT = Path(__file__).resolve().parents[1]




def together(st: HauntState) -> tuple[str, str, Monster]:
    """Two heroes and a zombie put in one room (the first hero's)."""
    h1, h2 = st.living_heroes()[:2]
    room = st.ex[h1].room
    st.ex[h2].room = room
    z = next(m for m in st.mon if m.kind == "zombie")
    z.room = room
    z.stunned = False
    return h1, h2, z


def test_turn_order_after_the_reveal_starts_left_of_the_traitor() -> None:
    st = started(4, 10)
    traitor = st.traitor()
    assert traitor is not None
    assert st.current == st.left_of(traitor)
    assert st.side[traitor] == "traitor" and traitor in st.removed  # the Madman replaced the traitor
    assert sum(1 for m in st.mon if m.kind == "zombie") == 4  # one Zombie per player
    assert [m.kind for m in st.mon].count("madman") == 1


def test_tie_harms_nobody_and_a_beaten_monster_is_stunned() -> None:
    st = started(4, 10)
    h1, _, z = together(st)
    before = dict(st.ex[h1].idx)
    drive(st._resolve_fight(h1, z.uid, "might", 4, 4))
    assert st.ex[h1].idx == before and not z.stunned
    drive(st._resolve_fight(h1, z.uid, "might", 6, 2))
    assert z.stunned and not z.gone


def test_losing_deals_the_difference_as_physical_damage() -> None:
    st = started(4, 10)
    h1, _, z = together(st)
    total = st.ex[h1].idx["might"] + st.ex[h1].idx["speed"]
    _, reqs = drive(st._resolve_fight(z.uid, h1, "might", 5, 2))
    split = [r for r in reqs if r.actor == h1]
    assert split and all(sum(int(v) for _, v in a.args) == 3 for a in split[0].choices)  # type: ignore[misc]
    assert st.ex[h1].idx["might"] + st.ex[h1].idx["speed"] == total - 3


def test_a_stunned_monster_defends_but_deals_no_damage() -> None:
    st = started(4, 10)
    h1, _, z = together(st)
    z.stunned = True
    before = dict(st.ex[h1].idx)
    drive(st._resolve_fight(h1, z.uid, "might", 1, 5))
    assert st.ex[h1].idx == before


def test_stealing_instead_of_damage_needs_two_points_and_no_distance() -> None:
    st = started(4, 10)
    h1, h2, _ = together(st)
    st.side[h2] = "traitor"  # make them opponents for the test
    card = next(c for c, d in sorted(st.t.cards.items()) if d.type == "item" and d.can_steal and d.keep)
    st.ex[h2].cards.append(card)
    _, reqs = drive(st._resolve_fight(h1, h2, "might", 5, 4))
    assert not any(a.kind == "steal" for r in reqs for a in r.choices)  # only 1 point
    _, reqs = drive(st._resolve_fight(h1, h2, "might", 6, 2), answer=lambda r: next(
        (a for a in r.choices if a.kind == "steal" and a.get("card") == card), r.choices[0]))
    assert card in st.ex[h1].cards and card not in st.ex[h2].cards
    st.ex[h1].cards.remove(card)
    st.ex[h2].cards.append(card)
    _, reqs = drive(st._resolve_fight(h1, h2, "might", 6, 2, ranged=True))
    assert not any(a.kind == "steal" for r in reqs for a in r.choices)


def test_a_distance_attacker_who_loses_takes_nothing() -> None:
    st = started(4, 10)
    h1, h2, _ = together(st)
    st.side[h2] = "traitor"
    before = dict(st.ex[h1].idx)
    drive(st._resolve_fight(h1, h2, "speed", 1, 6, ranged=True))
    assert st.ex[h1].idx == before


def test_damage_capacity_counts_on_the_track_and_kills() -> None:
    st = started(4, 10)
    madman = next(m for m in st.mon if m.kind == "madman")
    st._defeat_monster(madman, 3, "physical")
    assert st.track == 3 and not madman.gone and not madman.stunned
    st._defeat_monster(madman, 2, "physical")
    assert madman.gone == "killed"


def test_death_at_the_skull_drops_items() -> None:
    st = started(4, 10)
    h1 = st.living_heroes()[0]
    card = next(c for c, d in sorted(st.t.cards.items()) if d.type == "item" and d.keep and not d.companion)
    st.ex[h1].cards.append(card)
    room = st.ex[h1].room
    st.trait_change(h1, "sanity", -20)
    assert st.ex[h1].dead and card in st.piles[room]


def test_opponents_slow_movement_but_stunned_monsters_do_not() -> None:
    st = started(4, 10)
    h1, _, z = together(st)
    for m in st.mon:
        if m is not z:
            m.room = "nowhere"
    assert st._slowing(h1) == 1
    z.stunned = True
    assert st._slowing(h1) == 0


def test_line_of_sight_follows_joined_doors() -> None:
    st = started(4, 10)
    for room in st.house.spots:
        for other in st.line_of_sight(room):
            assert st.house.floor_of(other) == st.house.floor_of(room)


def test_heroes_win_when_every_zombie_is_trapped_and_need_a_survivor() -> None:
    st = started(4, 10)
    assert not st._check_wins()
    for m in st.mon:
        if m.kind == "zombie":
            m.gone = "trapped"
    saved = {s: st.ex[s].dead for s in st.heroes()}
    for s in st.heroes():
        st.ex[s].dead = True
    st.result = None
    # No hero alive: the heroes cannot win, and the traitor's goal (every hero dead) holds.
    assert st._check_wins() and st.result is not None and st.result.result == "traitor"
    for s, dead in saved.items():
        st.ex[s].dead = dead
    st.result = None
    assert st._check_wins() and st.result is not None and st.result.result == HERO
    assert set(st.result.winners) == set(st.heroes())


def test_twins_copy_their_heroes_and_fleshwalkers_ends_without_winner() -> None:
    st = started(3, 12)
    twins = [m for m in st.mon if m.kind == "evil-twin"]
    assert sorted(m.counterpart for m in twins) == st.seat_ids
    for s in st.heroes():
        st.ex[s].dead = True
    assert st._check_wins() and st.result == Outcome("nobody", (), st.result.detail)


def test_the_policy_plays_haunt_10_to_a_decision() -> None:
    seed = search_seed(3, 10, 0, result="heroes")
    st = hauntmod.new_game(game_spec("betrayal"), 3, {"haunt": 10})
    table = seeded_table(seed, PolicyController(policy, seed))
    steps = 0
    while st.to_move() is not None and steps < 20_000:
        actor = st.to_move()
        assert actor is not None
        st.apply(table.for_actor(actor).choose(st, actor, st.legal_actions()))
        steps += 1
    outcome = st.outcome()
    assert outcome is not None and outcome.result == "heroes"


def test_round_limit_ends_undecided() -> None:
    st = started(4, 10)
    st.rounds = 1
    table = seeded_table(1, PolicyController(policy, 1))
    while st.to_move() is not None:
        actor = st.to_move()
        assert actor is not None
        st.apply(table.for_actor(actor).choose(st, actor, st.legal_actions()))
    outcome = st.outcome()
    assert outcome is not None and outcome.result in ("undecided", "heroes", "traitor")
    if outcome.result == "undecided":
        assert "round limit" in outcome.detail


def test_an_unplayable_haunt_ends_undecided_at_the_reveal_naming_what_is_missing() -> None:
    # Haunt 10 as a designer might draft it: one setup step calls a hook nobody has written.
    seed = haunt_seed(4, 10)
    st = hauntmod.new_game(game_spec("betrayal"), 4, {"haunt": 10})
    record, raw = st.haunts[10]
    heroes = dict(raw["heroes_side"])
    heroes["setup"] = [*heroes.get("setup", []), {"custom": "flood-room", "says": "The haunt room floods."}]
    st.haunts = {**st.haunts, 10: (record, {**raw, "heroes_side": heroes})}
    table = seeded_table(seed, PolicyController(policy, seed))
    while (actor := st.to_move()) is not None:
        st.apply(table.for_actor(actor).choose(st, actor, st.legal_actions()))
    outcome = st.outcome()
    assert outcome is not None and outcome.result == "undecided", outcome
    assert outcome.detail.endswith("is not playable by the engine yet: heroes_side.setup."
                                   f"{len(heroes['setup']) - 1}.custom: hook 'flood-room' is not registered")


def needed_results(number: int) -> set[str]:
    data = hauntmod.load_haunts(game_spec("betrayal"))[number][0]
    return {"heroes", "traitor"} if data.traitor_side is not None else {"heroes", "nobody"}


PILOTS = sorted(hauntmod.load_haunts(game_spec("betrayal")))


@pytest.mark.parametrize("number", [
    n if hauntmod.support(game_spec("betrayal"))[n]["playable"]
    else pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=f"haunt {n} is not playable yet"))
    for n in PILOTS
])
def test_every_pilot_haunt_has_golden_games(number: int) -> None:
    game = get_game("betrayal")
    cases = [c for c in game.golden if c.options.get("haunt") == number]
    results = {c.name.split("-")[2] for c in cases}
    missing = needed_results(number) - results
    assert not missing, (f"haunt {number} lacks golden games ending {sorted(missing)}: add GoldenCases and run "
                         f"`hauntcheck golden --update betrayal`")
    assert {c.players for c in cases} == {3, 4, 5, 6}, f"haunt {number}: golden games should cover 3 to 6 players"
    for case in cases:
        path = golden_file("betrayal", case)
        assert path.parent.name.startswith(f"{number:02d}-") and (ROOT / "spec" / "betrayal" / "haunts" / f"{path.parent.name}.yaml").is_file()
        assert path.exists(), f"{path} is missing: run `hauntcheck golden --update betrayal/{case.name}`"
        text = path.read_text(encoding="utf-8")
        assert f'result: "{case.name.split("-")[2]}"' in text.splitlines()[-1]


def test_a_werewolf_cannot_reach_the_skull_but_silver_bullets_kill_it() -> None:
    st = started(4, 5)
    wolf = st.traitor()
    assert wolf is not None and "werewolf" in st.hstatus[wolf]
    st.trait_change(wolf, "might", -20)
    assert not st.ex[wolf].dead and st.ex[wolf].idx["might"] == 0  # no_skull
    hero = st.living_heroes()[0]
    st.ex[hero].room = st.ex[wolf].room
    assert not any(r["id"] == "silver-bullet" for r in st.fight_rules(hero, wolf))
    st.ex[hero].cards.append("revolver")
    st.held.setdefault(hero, []).append("silver-bullets")
    assert not any(r["id"] == "silver-bullet" for r in st.fight_rules(hero, wolf))  # holding both is not enough
    st._weapon = "revolver"  # the attack is made with the Revolver
    assert any(r["id"] == "silver-bullet" for r in st.fight_rules(hero, wolf))
    drive(st._resolve_fight(hero, wolf, "speed", 6, 2))
    assert st.ex[wolf].dead
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_werewolf_damage_is_halved_rounded_up() -> None:
    st = started(4, 5)
    wolf = st.traitor()
    assert wolf is not None
    hero = st.living_heroes()[0]
    total = sum(st.ex[wolf].idx[t] for t in ("might", "speed"))
    drive(st._resolve_fight(hero, wolf, "might", 5, 0))
    assert sum(st.ex[wolf].idx[t] for t in ("might", "speed")) >= total - 3  # 5 halved up is 3


def test_a_task_roll_is_allowed_once_per_turn() -> None:
    st = started(4, 5)
    hero = st.current
    task = next(t for t in st.hs.heroes_side.tasks if t["id"] == "make-silver-bullets")  # type: ignore[union-attr]
    st.ex[hero].room = "research-laboratory"
    assert st._task_open(hero, task) or "research-laboratory" not in st.house.spots
    st.turn.keys.add("task-roll")
    assert not st._task_open(hero, task)


def test_the_spider_grows_with_the_track_and_the_eggs_hatch_on_turn_nine() -> None:
    st = started(4, 4)
    spider = next(m for m in st.mon if m.kind == "spider")
    assert st.track == 1 and st.mstat(spider, "might") == 2
    st.track = 6
    assert st.mstat(spider, "might") == 7
    st.track = 12
    assert st.mstat(spider, "might") == 8  # the last row holds for 7 and above
    revealer = str(st.haunt["revealer"])  # type: ignore[index]
    assert st._blocks(revealer, "move") and st._move_actions(revealer) == []
    st.track = 9
    assert st._check_wins() and st.result is not None and st.result.result == "traitor"


def test_dance_of_death_sanity_at_the_skull_turns_a_hero_traitor() -> None:
    st = started(4, 9)
    hero = st.living_heroes()[0]
    st.trait_change(hero, "sanity", -20)
    assert not st.ex[hero].dead and st.side[hero] == "traitor"
    assert st.ex[hero].idx["sanity"] >= 0


def test_destroying_the_holy_symbol_wins_for_the_traitors_and_keeps_cards_counted() -> None:
    st = started(4, 9)
    holder = next((s for s in st.seat_ids if "holy-symbol" in st.ex[s].cards), None)
    if holder is None:
        holder = st.living_heroes()[0]
        for pile in (st.decks["omen"], st.discards["omen"]):
            if "holy-symbol" in pile:
                pile.remove("holy-symbol")
        st.ex[holder].cards.append("holy-symbol")
    st.side[holder] = "traitor"
    drive(st._outcome({"destroy_item": "holy-symbol"}, holder, None))
    assert "holy-symbol" in st.destroyed and hauntmod.invariants(st) == []
    assert st._check_wins() and st.result is not None and st.result.result == "traitor"


def test_a_lured_hero_may_only_move_toward_the_ballroom() -> None:
    st = started(4, 9)
    seat = st.current
    if "ballroom" not in st.house.spots:
        pytest.skip("the Ballroom could not be placed in this game")
    st.hstatus.setdefault(seat, []).append("lured")
    dist = st._dist_to(["ballroom"])
    here = dist[st.ex[seat].room]
    moves = [a for a in st._turn_actions(seat) if a.kind == "move"]
    assert all(dist[str(a["to"])] < here for a in moves)
    if moves:
        assert not any(a.kind == "end" for a in st._turn_actions(seat))


def test_haunt_invariants_hold_through_policy_games() -> None:
    for number, players in ((10, 4), (12, 3), (5, 4), (4, 4), (9, 4)):
        assert played_out(players, number).outcome() is not None


def test_support_names_hooks_and_blockers() -> None:
    report = hauntmod.support(game_spec("betrayal"))
    assert report[9]["playable"] and report[9]["hooks"] == ["skull-sanity-turns-traitor"]
    assert all(not r["blockers"] for r in report.values() if r["playable"])
    # every bundled haunt plays, and each is played by golden games (derived, not listed)
    assert {n for n, r in report.items() if r["playable"]} == {c.options.get("haunt") for c in get_game("betrayal").golden} - {None}


def test_the_mummy_takes_the_girl_by_the_custody_hook_and_wins_at_the_sarcophagus() -> None:
    st = started(4, 1)
    traitor = st.traitor()
    assert traitor is not None
    mummy = next(m for m in st.mon if m.kind == "mummy")
    sarcophagus = st.htokens["sarcophagus"][0]
    for card in ("girl", "ring"):
        for place in (st.token_cards, st.decks["omen"], st.discards["omen"], *st.piles.values(),
                      *(st.ex[s].cards for s in st.seat_ids)):
            if card in place:
                place.remove(card)
        st.ex[traitor].cards.append(card)
    st.ex[traitor].room = mummy.room
    drive(st._outcome({"custom": "transfer-custody-to-monster"}, traitor, None))
    assert {"girl", "ring"} <= set(mummy.cards) and not st.ex[traitor].cards
    assert hauntmod.invariants(st) == []
    mummy.room = next(r for r in sorted(st.house.spots) if r != sarcophagus)
    assert not st.pred({"monster_in_room": {"monster": "mummy", "room": {"room_with_token": "sarcophagus"}}})
    mummy.room = sarcophagus
    assert st._check_wins() and st.result is not None and st.result.result == "traitor"
    assert st.result.detail.startswith("reunited")


def test_the_mummy_hits_speed_first_and_never_to_the_skull_from_speed() -> None:
    st = started(4, 1)
    mummy = next(m for m in st.mon if m.kind == "mummy")
    hero = st.living_heroes()[0]
    st.ex[hero].room = mummy.room
    speed, might = st.ex[hero].idx["speed"], st.ex[hero].idx["might"]
    drive(st._resolve_fight(mummy.uid, hero, "might", speed + 1, 0), answer=lambda r: next(
        a for a in r.choices if a.kind == "damage-them"))
    assert st.ex[hero].idx["speed"] == 0 and st.ex[hero].idx["might"] == might - 1


def test_earned_tokens_come_from_the_set_aside_pool() -> None:
    st = started(4, 1)
    hero = st.living_heroes()[0]
    assert st.pool["knowledge-roll"] == 2
    for _ in range(3):
        drive(st._outcome({"earn": {"token": "knowledge-roll", "put": "on-card"}}, hero, None))
    assert st.earned["knowledge-roll"] == 2 and st.pool["knowledge-roll"] == 0


def test_no_traitor_rounds_start_left_of_the_revealer() -> None:
    st = started(3, 12)
    revealer = str(st.haunt["revealer"])  # type: ignore[index]
    assert st.traitor() is None and st.current == st.left_of(revealer)
    assert all(st.side[s] == HERO for s in st.seat_ids)


def test_weapons_add_dice_and_a_ranged_weapon_reaches_line_of_sight() -> None:
    st = started(4, 5)
    wolf = st.traitor()
    assert wolf is not None
    hero = st.current if st.current != wolf else st.living_heroes()[0]
    st.turn.keys.discard("attack")
    st.ex[hero].cards.append("axe")
    st.ex[hero].room = st.ex[wolf].room
    attacks = st._attack_actions(hero)
    assert Action.of("attack", target=wolf, trait="might") in attacks
    assert Action.of("attack", target=wolf, trait="might", weapon="axe") in attacks
    assert st._dice(hero, None, "might", st.weapons["axe"].bonus) == min(8, st.value(hero, "might") + 1)
    # From a room in line of sight only the Revolver reaches.
    seen = sorted(st.line_of_sight(st.ex[wolf].room))
    if seen:
        st.ex[hero].room = seen[0]
        st.ex[hero].cards.append("revolver")
        far = st._attack_actions(hero)
        assert far and all(a.get("weapon") == "revolver" for a in far if a.get("target") == wolf)


def test_the_haunt_option_ends_a_game_that_reveals_another_haunt() -> None:
    outcome = policy_game(4, haunt_seed(4, 10), 12).outcome()  # that seed reveals haunt 10
    assert outcome is not None and outcome.result == "other-haunt" and "haunt 10" in outcome.detail


def test_bad_haunt_options_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="option haunt must be a whole number"):
        hauntmod.new_game(game_spec("betrayal"), 4, {"haunt": "ten"})
    with pytest.raises(ValueError, match="names no haunt"):
        hauntmod.new_game(game_spec("betrayal"), 4, {"haunt": 99})


def test_searching_for_a_decided_game_reports_the_undecided_ones_passed_over() -> None:
    from hauntcheck.engine.betrayal.policy import search_decided
    from hauntcheck.engine.betrayal.policy.seeds import _ends_decided

    seed, skipped = search_decided(5, 10, 0)
    assert _ends_decided(5, 10, seed, None)
    assert all(s < seed and not _ends_decided(5, 10, s, None) for s in skipped)


def test_the_next_explorer_to_enter_takes_custody_of_a_companion() -> None:
    st = started(4, 10)
    seat = st.current
    moves = [a for a in st.legal_actions() if a.kind == "move"]
    if not moves:
        pytest.skip("the first hero cannot move")
    to = str(moves[0]["to"])
    companion = next(c for c, d in sorted(st.t.cards.items()) if d.companion)
    for place in (st.decks["omen"], st.discards["omen"], *st.piles.values(), *(st.ex[s].cards for s in st.seat_ids)):
        if companion in place:
            place.remove(companion)
    st.piles.setdefault(to, []).append(companion)
    st.apply(moves[0])
    assert companion in st.ex[seat].cards and companion not in st.piles.get(to, [])


def test_the_seance_summons_the_ghost_for_the_traitor_and_the_house_collapses() -> None:
    st = started(4, 2)
    traitor = st.traitor()
    assert traitor is not None and not st.mon
    st.earned["traitor-knowledge-roll"] = st.earned["traitor-sanity-roll"] = 1
    drive(st._standing_rules())
    ghost = next(m for m in st.mon if m.kind == "ghost")
    assert ghost.room == st.ex[traitor].room and st.control["ghost"] == "traitor"
    assert st.collapsing and "ghost-with-traitor" in st.hflags
    # The first collapse waits for the end of the traitor's turn.
    hero = st.living_heroes()[0]
    _, reqs = drive(st._collapse_step(hero))
    assert not reqs and not st.collapsed
    drive(st._collapse_step(traitor))
    assert len(st.collapsed) == 1
    room = st.collapsed[0]
    assert st.house.floor_of(room) in ("upper", "ground", "basement")
    assert all(a.get("to") != room for a in st._move_actions(st.current))
