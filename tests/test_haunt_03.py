"""Haunt 3, Frog-Leg Stew: the Witch's spells, Frogs (dropped items, carried like items, eaten by
the Cat), the Roots found now or on discovery, Form of Mortal and the sides' wins."""

from __future__ import annotations

from betrayal_support import drive, pick, rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState, Monster
from hauntcheck.engine.betrayal.state import Req
from hauntcheck.engine.core import Action, ActionList


def started(players: int, number: int = 3) -> HauntState:
    return start_haunt(players, number)


def witch(st: HauntState) -> Monster:
    return next(m for m in st.mon if m.kind == "witch")


def game() -> tuple[HauntState, str, str, Monster]:
    """Four players just after the setup: the traitor, one hero and the Witch (heroes moved to her)."""
    st = started(4, 3)
    traitor = st.traitor()
    assert traitor is not None
    w = witch(st)
    hero = st.living_heroes()[0]
    st.ex[hero].room = w.room
    return st, traitor, hero, w


def frog(st: HauntState, seat: str) -> None:
    drive(st._outcome({"become": "frog"}, seat, None))


def test_setup_puts_the_witch_in_the_entrance_hall_and_roots_now_or_when_found() -> None:
    st = started(4, 3)
    w = witch(st)
    assert w.room == "entrance-hall" and w.stats == {"speed": 4, "might": 4, "sanity": 4}
    placed = sorted(set(st.htokens.get("root", [])))
    waiting = sorted(r for t, r in st.waiting_tokens if t == "root")
    assert sorted(placed + waiting) == ["conservatory", "kitchen", "larder"]
    assert all(r in st.house.spots for r in placed) and not any(r in st.house.spots for r in waiting)
    assert waiting, "this game must still have a Root waiting for its room"
    st.note_new_room(waiting[0])
    assert waiting[0] in st.htokens["root"] and ("root", waiting[0]) not in st.waiting_tokens


def test_skin_of_frog_makes_a_frog_that_drops_items_tokens_and_companions() -> None:
    st, _, hero, w = game()
    st.ex[hero].cards = ["madman", "dog", "armor"]
    st.held[hero] = ["root"]
    st.ex[hero].idx["might"] = 4
    st.ex[hero].idx["knowledge"] = 4
    answer = pick("monster-ability", id="skin-of-frog", target=hero)
    rolled(st._monster_abilities(w), [0, 0], answer)  # a tie is not higher: nothing happens
    assert "frog" not in st.hstatus.get(hero, [])
    rolled(st._monster_abilities(w), [2, 0], answer)
    assert "frog" in st.hstatus[hero]
    assert st.ex[hero].cards == [] and st.held.get(hero, []) == []
    assert {"madman", "dog"} <= set(st.discards["omen"]) and st.piles[w.room] == ["armor"]
    assert w.room in st.htokens["root"]
    assert st.ex[hero].idx["might"] == 0 and st.ex[hero].idx["knowledge"] == 0


def test_a_frog_cannot_attack_explore_draw_or_pick_up() -> None:
    st, _, hero, w = game()
    other = st.living_heroes()[1]
    st.ex[other].room = w.room
    st.piles[w.room] = ["armor"]
    frog(st, hero)
    assert st._attack_actions(hero) == []
    value, _ = drive(st.draw_card(hero, "item"))
    assert value is None
    st.current = hero
    kinds = {a.kind for a in st._turn_actions(hero)}
    assert "explore" not in kinds and "pickup" not in kinds and "attack" not in kinds
    assert not any(a.kind == "trade" and a.get("to") == hero for a in st._turn_actions(other))


def test_a_carried_frog_moves_with_its_carrier_and_the_cat_ignores_it() -> None:
    st, _, hero, w = game()
    other = st.living_heroes()[1]
    st.ex[other].room = w.room
    frog(st, hero)
    drive(st._standing_rules())  # the first Frog brings the Cat to the haunt room
    cat = next(m for m in st.mon if m.kind == "cat")
    assert st.haunt is not None and cat.room == st.haunt["room"]
    cat.room = w.room
    assert [r["id"] for r in st.fight_rules(cat.uid, hero)] == ["cat-eats-frog"]
    assert any(r.get("forbidden") for r in st.fight_rules(cat.uid, other))  # it hunts only Frogs
    carry = Action.of("carry", who=hero)
    assert carry in st._carry_actions(other) and st._carry_actions(hero) == []
    st._carry(other, carry)
    assert any(r.get("forbidden") for r in st.fight_rules(cat.uid, hero))
    away = next(r for r in sorted(st.house.spots) if r != w.room)
    st.ex[other].room = away
    st._sync_carried()
    assert st.ex[hero].room == away
    assert st._forced_steps(cat, [(away, 1)]) is None  # no uncarried Frog to hunt
    st._carry(other, Action.of("put-down", who=hero))
    assert hero not in st.carried


def test_the_cat_heads_for_a_frog_and_eats_it_when_it_wins() -> None:
    st, _, hero, w = game()
    frog(st, hero)
    drive(st._standing_rules())
    cat = next(m for m in st.mon if m.kind == "cat")
    cat.room = w.room
    rolled(st._monster_attack(cat), [2, 0])
    assert st.ex[hero].dead


def test_the_witch_is_invulnerable_until_form_of_mortal_then_a_win_kills_her() -> None:
    st, _, hero, w = game()
    assert not any(a.get("target") == w.uid for a in st._attack_actions(hero))
    tasks = {str(a["id"]) for a in st._task_actions(hero)}
    assert "form-of-mortal" not in tasks
    st.ex[hero].cards.append("book")
    st.held[hero] = ["root"]
    st.current = hero
    form = Action.of("task", id="form-of-mortal")
    assert form in st._task_actions(hero)
    rolled(st._task(hero, form), [2])
    assert "witch-mortal" in st.hflags and st.held[hero] == ["root"]
    assert any(a.get("target") == w.uid for a in st._attack_actions(hero))
    drive(st._resolve_fight(hero, w.uid, "might", 6, 2))
    assert w.gone == "killed"
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_the_book_turns_a_frog_back_with_starting_traits() -> None:
    st, _, hero, w = game()
    other = st.living_heroes()[1]
    st.ex[other].room = w.room
    st.ex[other].cards.append("book")
    frog(st, hero)
    drive(st._outcome({"set_trait": {"traits": ["might", "knowledge"], "to": "lowest"}}, hero, None))
    st.current = other
    restore = Action.of("task", id="restore-frog", target=hero)
    assert restore in st._task_actions(other)
    rolled(st._task(other, restore), [2])
    assert "frog" not in st.hstatus[hero]
    start = st.t.explorers[st.ex[hero].id].traits
    assert all(st.ex[hero].idx[t] == start[t].start for t in ("might", "speed", "sanity", "knowledge"))


def test_breath_of_dragon_reaches_line_of_sight_and_armor_does_not_reduce_it() -> None:
    st, _, hero, w = game()
    st.ex[hero].cards.append("armor")
    st.ex[hero].idx["might"] = 6
    st.ex[hero].idx["speed"] = 6
    before = st.ex[hero].idx["might"] + st.ex[hero].idx["speed"]
    rolled(st._monster_abilities(w), [2], pick("monster-ability", id="breath-of-dragon", target=hero))
    assert st.ex[hero].idx["might"] + st.ex[hero].idx["speed"] == before - 4  # 2 dice of 2, not reduced
    seen = sorted(st.line_of_sight(w.room))
    assert seen, "the Entrance Hall sees along its doors"
    far = st.living_heroes()[1]
    st.ex[far].room = seen[0]
    assert far in st.targets({"kind": "explorer-without-status", "status": "frog", "range": "same-room-or-line-of-sight"}, w.room, None)
    frog(st, far)
    assert far not in st.targets({"kind": "explorer-without-status", "status": "frog", "range": "same-room-or-line-of-sight"}, w.room, None)
    assert far not in st.targets({"kind": "hero", "range": "same-room"}, w.room, None)


def test_wings_of_raven_moves_the_witch_herself() -> None:
    st, _, _, w = game()
    goal = next(r for r in sorted(st.house.spots) if r != w.room)

    def answer(req: Req) -> Action:
        assert isinstance(req.choices, ActionList)
        if any(a.kind == "monster-ability" for a in req.choices):
            return pick("monster-ability", id="wings-of-raven")(req)
        return pick("place-in", room=goal)(req)

    rolled(st._monster_abilities(w), [], answer)
    assert [m.room for m in st.mon if m.kind == "witch"] == [goal]


def test_a_traitor_with_the_book_casts_skin_of_frog_on_their_turn() -> None:
    st, traitor, hero, w = game()
    st.ex[traitor].room = w.room
    spell = Action.of("task", id="traitor-skin-of-frog", target=hero)
    assert spell not in st._task_actions(traitor)
    st.ex[traitor].cards.append("book")
    assert spell in st._task_actions(traitor)
    st.current = traitor
    st.turn.keys.clear()
    rolled(st._task(traitor, spell), [2, 0])
    assert "frog" in st.hstatus[hero]
    assert any(r.get("forbidden") for r in st.fight_rules(traitor, hero))  # nobody but the Cat attacks a Frog


def test_the_traitor_wins_when_every_hero_is_dead_or_a_frog() -> None:
    st, traitor, _, _ = game()
    heroes = st.living_heroes()
    for h in heroes[:-1]:
        frog(st, h)
    assert not st._check_wins()
    st.ex[heroes[-1]].dead = True
    assert st._check_wins() and st.result is not None and st.result.result == TRAITOR
    assert st.result.winners == (traitor,)


def test_a_dead_heros_root_lies_in_the_room_for_digging_again() -> None:
    st, _, hero, w = game()
    st.held[hero] = ["root"]
    before = st.htokens.get("root", []).count(w.room)
    st.trait_change(hero, "might", -20)
    assert st.ex[hero].dead and not st.held.get(hero)
    assert st.htokens["root"].count(w.room) == before + 1
