"""Haunt 17, A Breath of Wind: the Poltergeist whose Might is the Turn/Damage track, the track
following the items it gains and loses (picked up, stolen, drawn in cluttered rooms), its attack on
every hero in its room, immunity to ordinary attacks, the heroes' Speed snatch and Sanity attack
(Ring, Skull or Bell), re-forming in an omen room, finding and burning Candles, and the wins."""

from __future__ import annotations

from betrayal_support import drive, pick, played_out, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState, Monster
from hauntcheck.engine.betrayal.haunt.registry import hook
from hauntcheck.engine.betrayal.policy import policy
from hauntcheck.engine.core import Action, ActionList, Rng

POLTERGEIST = "poltergeist"


def poltergeist(st: HauntState) -> Monster:
    return next(m for m in st.mon if m.kind == POLTERGEIST)


def game(players: int = 4) -> tuple[HauntState, str, Monster]:
    """Just after the setup: one hero moved into the Poltergeist's room, on its turn."""
    st = start_haunt(players, 17)
    m = poltergeist(st)
    hero = st.living_heroes()[0]
    st.ex[hero].room = m.room
    st.current = hero
    st.turn.keys.clear()
    return st, hero, m


def an_item(st: HauntState, hero: str | None = None) -> str:
    """An item card from the stack (taken out of it), for the Poltergeist or a hero to hold."""
    card = next(c for c in sorted(st.decks["item"]) if hero is None or c not in st.ex[hero].cards)
    st.decks["item"].remove(card)
    return card


def test_setup_puts_the_poltergeist_in_the_haunt_room_with_the_track_at_four() -> None:
    st = start_haunt(4, 17)
    m = poltergeist(st)
    assert st.haunt is not None
    assert st.track >= 0 and st.mstat(m, "might") == min(st.track, 8)
    fresh = start_haunt(3, 17)
    assert fresh.pool["candle-token"] + sum(v.count("candle-token") for v in fresh.held.values()) \
        + len(fresh.htokens.get("candle-token", [])) == 6
    assert st.traitor() is not None and not st.ex[str(st.traitor())].dead


def test_its_might_is_the_track_up_to_eight() -> None:
    st, _, m = game()
    for track, might in ((0, 0), (3, 3), (8, 8), (11, 8)):
        st.track = track
        assert st.mstat(m, "might") == might and st.mstat(m, "sanity") == might


def test_every_item_gained_or_lost_moves_the_track() -> None:
    st, hero, m = game()
    st.track = 4
    card = an_item(st)
    st.piles[m.room] = [card]
    drive(st._monster_pickup(m), pick("monster-pickup", card=card))
    assert m.cards == [card] and st.track == 5
    drive(st._resolve_fight(hero, m.uid, "speed", 6, 2, chosen="speed-snatch"))
    assert m.cards == [] and card in st.ex[hero].cards and st.track == 4


def test_ending_the_monster_turn_in_a_cluttered_room_draws_an_item() -> None:
    st, _, m = game()
    st.track = 4
    rule = next(r for r in st.mdef(m).must if r["id"] == "hoard-in-clutter")
    clutter = [r for r in rule["where"]["rooms"] if r in st.house.spots]
    assert clutter, "this game has a cluttered room"
    m.room = clutter[0]
    items = len(st.decks["item"])
    drive(st._after_monsters_move(st.mdef(m)))
    assert len(m.cards) == 1 and len(st.decks["item"]) == items - 1 and st.track == 5
    m.room = next(r for r in sorted(st.house.spots) if r not in rule["where"]["rooms"])
    drive(st._after_monsters_move(st.mdef(m)))
    assert len(m.cards) == 1 and st.track == 5


def test_ordinary_attacks_cannot_touch_it_only_the_haunts_speed_and_sanity_rules() -> None:
    st, hero, m = game()
    acts = [a for a in st._attack_actions(hero) if a.get("target") == m.uid]
    assert Action.of("attack", target=m.uid, trait="speed", rule="speed-snatch") in acts
    assert all(a.get("rule") for a in acts)  # no Might attack, no weapon (the Revolver)
    assert not any(a.get("rule") == "sanity-banish" for a in acts)
    st.ex[hero].cards.append("skull")
    assert Action.of("attack", target=m.uid, trait="sanity", rule="sanity-banish") in st._attack_actions(hero)


def test_a_won_sanity_attack_lowers_the_track_by_the_margin_and_a_lost_one_costs_a_die() -> None:
    st, hero, m = game()
    st.ex[hero].cards.append("bell")
    st.track = 6
    drive(st._resolve_fight(hero, m.uid, "sanity", 7, 3, chosen="sanity-banish"))
    assert st.track == 2 and not m.stunned and not m.gone
    drive(st._resolve_fight(hero, m.uid, "sanity", 8, 1, chosen="sanity-banish"))
    assert st.track == 0  # never below 0
    mental = st.ex[hero].idx["sanity"] + st.ex[hero].idx["knowledge"]
    rolled(st._resolve_fight(hero, m.uid, "sanity", 1, 5, chosen="sanity-banish"), [2])
    assert st.ex[hero].idx["sanity"] + st.ex[hero].idx["knowledge"] == mental - 2  # 1 die showing 2, not 4


def test_a_lost_speed_snatch_costs_one_die_of_physical_damage() -> None:
    st, hero, m = game()
    physical = st.ex[hero].idx["might"] + st.ex[hero].idx["speed"]
    rolled(st._resolve_fight(hero, m.uid, "speed", 0, 6, chosen="speed-snatch"), [1])
    assert st.ex[hero].idx["might"] + st.ex[hero].idx["speed"] == physical - 1
    assert not m.stunned


def test_the_poltergeist_attacks_every_hero_in_its_room_and_is_not_hurt_when_it_loses() -> None:
    st, hero, m = game()
    other = st.living_heroes()[1]
    st.ex[other].room = m.room
    (ability, targets), = st._ability_attacks(m)
    assert ability["id"] == "whirl" and set(targets) >= {hero, other}
    st.track = 0  # Might 0: every hero wins
    drive(st._attack_each(m, ability, targets))
    assert not m.stunned and not m.gone and st.track == 0


def test_beating_a_hero_by_two_it_may_steal_an_item_and_grow() -> None:
    st, hero, m = game()
    card = next(c for c in sorted(st.decks["item"]) if st.t.cards[c].can_steal)
    st.decks["item"].remove(card)
    st.ex[hero].cards.append(card)
    st.track = 4
    drive(st._resolve_fight(m.uid, hero, "might", 6, 2), pick("steal", card=card))
    assert card in m.cards and card not in st.ex[hero].cards and st.track == 5


def test_re_forming_drops_the_items_and_resets_the_track() -> None:
    st, _, m = game()
    omen_rooms = [r for r in sorted(st.house.spots) if st.t.rooms[r].symbol == "omen"]
    card = an_item(st)
    m.cards = [card]
    st.track = 7
    src = m.room
    to = omen_rooms[-1]
    spent, _ = drive(hook.turn["poltergeist-re-form"](st, m), pick("monster-re-form", to=to))
    assert spent is False and m.room == to and m.cards == [] and card in st.piles[src]
    assert st.track == (4 if to == "junk-room" else 3)


def test_the_traitor_re_forms_only_when_it_loses_nothing_and_gets_nearer() -> None:
    st, _, m = game()
    far = [r for r in sorted(st.house.spots) if st.t.rooms[r].symbol == "omen"]
    acts = ActionList([Action.of("monster-stay", monster=m.uid)]
                      + [Action.of("monster-re-form", monster=m.uid, to=r, track=3) for r in far])
    st.track = 6
    assert policy(st, acts, Rng(1)).kind == "monster-stay"  # it would lose Might


def test_candles_are_found_in_four_rooms_and_burnt_on_the_haunt_floor() -> None:
    st, hero, _ = game()
    find = Action.of("task", id="find-candle")
    st.ex[hero].room = next(r for r in ("kitchen", "dining-room", "chapel", "gallery") if r in st.house.spots) \
        if any(r in st.house.spots for r in ("kitchen", "dining-room", "chapel", "gallery")) else st.ex[hero].room
    if st.ex[hero].room in ("kitchen", "dining-room", "chapel", "gallery"):
        assert find in st._task_actions(hero)
        rolled(st._task(hero, find), [1])  # Speed 3+ with every die showing 1
        assert st.held.get(hero, []).count("candle-token") == 1
    else:
        st.held[hero] = ["candle-token"]
        st.pool["candle-token"] -= 1
    assert st.haunt is not None
    floor = st.house.floor_of(str(st.haunt["room"]))
    burn = Action.of("task", id="burn-candle")
    away = next((r for r in sorted(st.house.spots) if st.house.floor_of(r) != floor), None)
    if away is not None:
        st.ex[hero].room = away
        st.turn.keys.clear()
        assert burn not in st._task_actions(hero)
    st.ex[hero].room = str(st.haunt["room"])
    st.turn.keys.clear()
    assert burn in st._task_actions(hero)
    pool = st.pool["candle-token"]
    rolled(st._task(hero, burn), [2])  # Knowledge 5+ (at least 3 dice showing 2)
    assert st.held[hero] == [] and st.earned["burnt-candle"] == 1 and st.pool["candle-token"] == pool + 1
    assert st.htokens["burnt-candle"] == [st.ex[hero].room] and not st.htokens.get("candle-token")
    assert not any(a.kind == "pickup-token" for a in st.legal_actions())  # a burnt Candle stays put
    st.held[hero] = ["candle-token"]
    st.turn.keys.clear()
    assert burn not in st._task_actions(hero)  # no more burning in that room


def test_a_failed_burning_loses_the_candle() -> None:
    st, hero, _ = game()
    assert st.haunt is not None
    st.ex[hero].room = str(st.haunt["room"])
    st.held[hero] = ["candle-token"]
    st.pool["candle-token"] -= 1
    pool = st.pool["candle-token"]
    rolled(st._task(hero, Action.of("task", id="burn-candle")), [0])
    assert st.held[hero] == [] and st.pool["candle-token"] == pool + 1 and not st.earned.get("burnt-candle")


def test_the_heroes_win_with_a_candle_burnt_for_each_hero_and_the_traitor_when_they_are_dead() -> None:
    st, _, _ = game(5)
    st.earned["burnt-candle"] = len(st.heroes()) - 1
    assert not st._check_wins()
    st.earned["burnt-candle"] += 1
    assert st._check_wins() and st.result is not None and st.result.result == HERO
    st2, _, _ = game(3)
    for h in st2.living_heroes():
        st2.ex[h].dead = True
    assert st2._check_wins() and st2.result is not None and st2.result.result == TRAITOR


def test_a_policy_game_plays_to_a_result_with_the_invariants_holding() -> None:
    st = played_out(4, 17)
    assert st.result is not None and st.result.result in (HERO, TRAITOR)
