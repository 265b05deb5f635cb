"""Haunt 34 (Guillotines) and the hidden-traitor procedure: the secret deal, playing as a hero in
public, revealing, the collars and the Key rules."""

from __future__ import annotations

from typing import Any

import pytest
from betrayal_support import drive, started

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState
from hauntcheck.engine.betrayal.hooks import h34_guillotines as h34
from hauntcheck.engine.core import Action


def hidden_game(players: int = 4) -> HauntState:
    st = started(players, 34)
    assert st.hs is not None and st.hs.number == 34
    return st


def events(st: HauntState) -> list[str]:
    """The events of the step under way (methods called directly add to them)."""
    return [str(e) for e in st._events]


def heroes_and_traitor(st: HauntState) -> tuple[list[str], str]:
    assert st.hidden is not None
    return [s for s in st.seat_ids if s != st.hidden], st.hidden


def test_the_deal_makes_exactly_one_secret_traitor_and_turns_start_left_of_the_revealer() -> None:
    st = hidden_game(4)
    assert st.haunt is not None and st.haunt["traitor"] is None  # the reveal names nobody
    assert sorted(st.dealt["hidden-traitor-token"].values()) == [1, 2, 3, 4]
    traitor = st.hidden
    assert traitor is not None and st.dealt["hidden-traitor-token"][traitor] == 1
    assert [s for s in st.seat_ids if st.side[s] == TRAITOR] == [traitor]
    assert st.traitor() == traitor and not st.unmasked
    assert all(st.seen_side(s) == HERO for s in st.seat_ids)  # in public everyone is a hero
    assert sorted(st.dealt["collar-timer"].values()) == [1, 2, 3, 4]
    assert st.current == st.left_of(str(st.haunt["revealer"]))
    # the deal is a chance action in the history (a replay needs no RNG)
    assert any(a.kind == "shuffle" and a["pile"] == "hidden-traitor-token" for a in st.history)


def test_an_unrevealed_traitor_is_no_opponent_in_public_and_anyone_may_attack_anyone() -> None:
    st = hidden_game(4)
    heroes, traitor = heroes_and_traitor(st)
    h = heroes[0]
    assert traitor not in st.opponents_of(h) and st.opponents_of(traitor) == []
    st.ex[heroes[1]].room = st.ex[h].room
    targets = {a["target"] for a in st._attack_actions(h)}
    assert heroes[1] in targets  # hidden-traitor.anyone-attacks
    st.reveal_traitor("self")
    assert st.opponents_of(h) == [traitor]
    assert set(st.opponents_of(traitor)) == {s for s in heroes if st.in_play(s)}


def test_only_the_hidden_traitor_may_reveal_and_then_the_table_knows() -> None:
    st = hidden_game(5)
    heroes, traitor = heroes_and_traitor(st)
    assert Action.of("reveal-traitor") in st._turn_actions(traitor)
    assert all(Action.of("reveal-traitor") not in st._turn_actions(h) for h in heroes)
    st.reveal_traitor("self")
    assert st.unmasked and st.seen_side(traitor) == TRAITOR
    assert Action.of("reveal-traitor") not in st._turn_actions(traitor)
    assert any(e.startswith("hidden-traitor.self-reveal") for e in events(st))


def test_death_turns_the_token_face_up() -> None:
    st = hidden_game(5)
    heroes, traitor = heroes_and_traitor(st)
    drive(st._outcome({"kill": True}, heroes[0], None))
    assert not st.unmasked and any("not the traitor" in e for e in events(st))
    drive(st._outcome({"kill": True}, traitor, None))
    assert st.unmasked and any(e.startswith("hidden-traitor.reveal-on-death") and "is the traitor" in e
                               for e in events(st))


def test_collars_kill_below_the_track_but_the_fake_collar_forces_the_reveal() -> None:
    st = hidden_game(4)
    heroes, traitor = heroes_and_traitor(st)
    for h in heroes[1:]:
        del st.dealt["collar-timer"][h]  # unlocked: only one hero's collar and the fake one tick
    st.track = 7  # every collar is due; all-2 dice total 6, below 7
    drive(h34.collar_checks(st, None, None))
    assert st.ex[heroes[0]].dead and not any(st.ex[h].dead for h in heroes[1:])
    assert not st.ex[traitor].dead and st.unmasked
    assert set(st.dealt["collar-timer"]) == {traitor}  # the detonated collar is removed
    assert h34.collars_removed(st, None)  # a revealed traitor's collar counts as removed


def test_the_collar_checks_stop_once_a_side_has_won() -> None:
    st = hidden_game(4)
    heroes, _ = heroes_and_traitor(st)
    st.track = 7
    drive(h34.collar_checks(st, None, None))
    assert st.result is not None and st.result.result == "traitor"
    assert sum(st.ex[h].dead for h in heroes) == 2  # two of three heroes dead: the rolls stop there


def test_a_collar_holds_when_the_roll_reaches_the_track_and_waits_for_its_number() -> None:
    st = hidden_game(4)
    st.track = 3
    drive(h34.collar_checks(st, None, None))  # all-2 dice total 6: nobody dies
    assert not any(st.ex[s].dead for s in st.seat_ids)
    rolled = [e for e in events(st) if "3 dice roll" in e]
    due = [s for s, k in st.dealt["collar-timer"].items() if k <= 3]
    assert len(rolled) == len(due) == 3


def test_unlocking_spends_two_keys_on_a_collared_roommate_and_the_heroes_win_when_all_are_off() -> None:
    st = hidden_game(4)
    heroes, _ = heroes_and_traitor(st)
    h, other = heroes[0], heroes[1]
    st.ex[other].room = st.ex[h].room
    st.held[h] = ["key"]
    assert not [a for a in st._task_actions(h) if a["id"] == "unlock-collar"]  # one Key is not enough
    st.held[h] = ["key", "key", "key"]
    unlock = {a["target"] for a in st._task_actions(h) if a["id"] == "unlock-collar"}
    assert {h, other} <= unlock
    st.turn.keys.clear()
    drive(st._task(h, Action.of("task", id="unlock-collar", target=other)))
    assert st.held[h] == ["key"] and other not in st.dealt["collar-timer"]
    assert other not in {a["target"] for a in st._task_actions(h) if a["id"] == "unlock-collar"}
    assert not h34.collars_removed(st, None)
    for s in heroes:
        st.dealt["collar-timer"].pop(s, None)
    assert not h34.collars_removed(st, None)  # the hidden traitor still wears one
    st.reveal_traitor("self")
    assert h34.collars_removed(st, None)
    assert st._check_wins() and st.result is not None and st.result.result == "heroes"
    assert set(st.result.winners) == set(heroes)


def test_the_traitor_wins_when_more_than_half_the_heroes_die() -> None:
    st = hidden_game(5)
    heroes, traitor = heroes_and_traitor(st)
    drive(st._outcome({"kill": True}, heroes[0], None))
    drive(st._outcome({"kill": True}, heroes[1], None))
    assert not st._check_wins()  # two of four heroes dead is half, not more
    drive(st._outcome({"kill": True}, heroes[2], None))
    assert st._check_wins() and st.result is not None and st.result.result == "traitor"
    assert st.result.winners == (traitor,)


def test_key_rules_per_room() -> None:
    st = hidden_game(4)
    h = heroes_and_traitor(st)[0][0]
    allow = h34.key_rules_allow
    st.ex[h].room = "crypt"
    st.turn.start_room = "foyer"
    assert not allow(st, h)  # the Crypt's damage comes at the end of a turn spent there
    st.turn.start_room = "crypt"
    assert allow(st, h)
    st.turn.keys.add("key-try:crypt")
    assert not allow(st, h)  # one try a turn
    st.ex[h].room = "operating-laboratory"
    assert not allow(st, h)  # only its own task roll gets that Key
    st.ex[h].room = "gallery"
    assert allow(st, h) == ("ballroom" in st.house.spots)
    st.ex[h].room = "chasm"
    st.turn.keys.clear()
    st.turn.stopped = False
    assert not allow(st, h)
    st.turn.keys.add("room:chasm#0")
    assert allow(st, h)  # crossed this turn
    st.ex[h].room = "vault"
    st.tokens.setdefault("vault", []).append("vault-empty")
    assert not allow(st, h)
    st.rule_moment = "end-of-turn"
    assert allow(st, h)  # the first to end a turn in the opened Vault


def test_a_leave_roll_room_gives_its_key_only_on_success() -> None:
    st = hidden_game(4)
    h = heroes_and_traitor(st)[0][0]
    st.ex[h].room = "attic"
    st.htokens.setdefault("key", []).append("attic")
    st.held[h] = []
    st.current = h
    before = st.ex[h].idx["might"]
    drive(h34.key_rules_take(st, h, None))  # all-2 dice: Speed 3+ passes
    assert st.held[h] == ["key"] and "attic" not in st.htokens["key"] and st.turn.stopped
    assert st.ex[h].idx["might"] == before

    st.htokens["key"].append("attic")
    st.turn.keys.discard("key-try:attic")
    program = h34.key_rules_take(st, h, None)
    req = next(program)
    assert req.actor == "chance"
    with pytest.raises(StopIteration):  # a failed roll asks nothing more
        program.send(Action.of("roll", faces=[0] * len(next(iter(req.choices))["faces"])))  # type: ignore[arg-type]
    assert st.held[h] == ["key"] and "attic" in st.htokens["key"]
    assert st.ex[h].idx["might"] == before - 1  # the Attic's loss for a failed roll


def test_keys_wait_for_their_rooms_to_be_discovered() -> None:
    st = hidden_game(4)
    waiting = sorted(r for t, r in st.waiting_tokens if t == "key")
    placed = sorted(set(st.htokens.get("key", [])))
    key_rooms = ["attic", "catacombs", "chasm", "collapsed-room", "crypt", "furnace-room", "gallery", "junk-room",
                 "operating-laboratory", "pentagram-chamber", "tower", "vault"]
    assert all(r not in st.house.spots for r in waiting)
    assert sorted(set(waiting) | {r for r in key_rooms if r in st.house.spots}) == key_rooms
    assert all(r in key_rooms for r in placed)
    room = waiting[0]
    st.note_new_room(room)
    assert room in st.htokens["key"] and ("key", room) not in st.waiting_tokens


def test_the_operating_laboratory_rolls_every_trait_and_always_hurts() -> None:
    st = hidden_game(4)
    h = heroes_and_traitor(st)[0][0]
    st.ex[h].room = "operating-laboratory"
    st.htokens.setdefault("key", []).append("operating-laboratory")
    st.held[h] = []
    st.turn.keys.clear()
    assert Action.of("task", id="operating-laboratory-key") in st._task_actions(h)
    def even_split(req: Any) -> Action:
        options = list(req.choices)
        return min(options, key=lambda a: max([v for _, v in a.args if isinstance(v, int)] or [0]))

    _, reqs = drive(st._task(h, Action.of("task", id="operating-laboratory-key")), answer=even_split)
    rolls = [r for r in reqs if r.actor == "chance"]
    assert len(rolls) == 4 + 1  # one roll per trait, then 2 dice of damage
    assert st.held[h] == ["key"]


def test_haunt_34_is_playable_with_both_hooks() -> None:
    report = hauntmod.support(st_spec())
    assert report[34]["playable"] and report[34]["hooks"] == ["collars", "key-rules"] and not report[34]["blockers"]


def st_spec():  # type: ignore[no-untyped-def]
    from hauntcheck.engine.games import game_spec

    return game_spec("betrayal")


def test_the_policy_spends_keys_on_the_most_endangered_but_the_hidden_traitor_hoards() -> None:
    from hauntcheck.engine.betrayal.policy.turn import _token_plan

    st = hidden_game(4)
    heroes, traitor = heroes_and_traitor(st)
    h = heroes[0]
    for s in st.seat_ids:
        st.ex[s].room = st.ex[h].room
    st.held[h] = ["key", "key"]
    st.held[traitor] = ["key", "key"]
    st.turn.keys.clear()
    hero_acts = st._task_actions(h) + st._side_actions(h)
    by_kind: dict[str, list[Action]] = {}
    for a in hero_acts:
        by_kind.setdefault(a.kind, []).append(a)
    choice = _token_plan(st, h, HERO, by_kind)
    assert choice is not None and choice["id"] == "unlock-collar" and choice["target"] == h  # own collar first
    del st.dealt["collar-timer"][h]
    by_kind = {}
    for a in st._task_actions(h):
        by_kind.setdefault(a.kind, []).append(a)
    worst = min((s for s in st.dealt["collar-timer"] if s != h), key=lambda s: st.dealt["collar-timer"][s])
    choice = _token_plan(st, h, HERO, by_kind)
    assert choice is not None and choice["target"] == worst
    by_kind = {}
    for a in st._task_actions(traitor) + st._side_actions(traitor):
        by_kind.setdefault(a.kind, []).append(a)
    assert any(a["id"] == "unlock-collar" for a in by_kind.get("task", []))  # it could, in public
    choice = _token_plan(st, traitor, TRAITOR, by_kind)
    assert choice is None or choice.kind not in ("task", "give-token")


def test_keys_are_traded_like_items_even_with_the_unrevealed_traitor() -> None:
    st = hidden_game(4)
    heroes, traitor = heroes_and_traitor(st)
    h = heroes[0]
    st.ex[traitor].room = st.ex[h].room
    st.held[h] = ["key"]
    st.turn.traded = False
    assert Action.of("give-token", token="key", to=traitor) in st._side_actions(h)  # it looks like a hero
    st.reveal_traitor("self")
    assert Action.of("give-token", token="key", to=traitor) not in st._side_actions(h)


def test_a_dead_explorers_keys_drop_where_it_died() -> None:
    st = hidden_game(4)
    h = heroes_and_traitor(st)[0][0]
    st.held[h] = ["key", "key"]
    room = st.ex[h].room
    before = st.htokens.get("key", []).count(room)
    drive(st._outcome({"kill": True}, h, None))
    assert st.held.get(h, []) == [] and st.htokens["key"].count(room) == before + 2
