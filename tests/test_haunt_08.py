"""Haunt 8, Wail of the Banshee: the Banshee's path (modes by roll, wall hugging, dead ends, hops,
jumps, controlled moves), its wail on the explorers in the rooms it entered, and the exorcism."""

from __future__ import annotations

from collections.abc import Callable

from betrayal_support import rolled
from betrayal_support import started as start_haunt

from hauntcheck.engine.betrayal import haunt as hauntmod
from hauntcheck.engine.betrayal.haunt import HERO, HauntState, Monster
from hauntcheck.engine.betrayal.hooks import h08_wail_of_the_banshee as h08
from hauntcheck.engine.betrayal.state import Req
from hauntcheck.engine.core import CHANCE, Action, ActionList
from hauntcheck.engine.games import game_spec


def started(players: int = 4) -> HauntState:
    return start_haunt(players, 8)


def to(*rooms: str) -> Callable[[Req], Action]:
    """Answer monster moves with the first listed room on offer."""
    def answer(req: Req) -> Action:
        assert isinstance(req.choices, ActionList)
        for room in rooms:
            for a in req.choices:
                if a.get("to") == room:
                    return a
        return req.choices[0]
    return answer


def banshee(st: HauntState) -> Monster:
    return next(m for m in st.mon if m.kind == "banshee")


def test_the_banshee_walks_the_strip_by_its_cells_and_hops_only_where_the_tome_says() -> None:
    st = started()
    m = banshee(st)
    walks = h08.banshee_walks(st, m, "entrance-hall")
    assert walks.get(0) == "foyer"  # the strip's next cell north
    assert h08.banshee_walks(st, m, "grand-staircase") == {2: "foyer"}  # no doors: back along the strip
    assert h08.banshee_hops(st, m, "grand-staircase") == ["upper-landing"]
    assert h08.banshee_hops(st, m, "entrance-hall") == []
    if "mystic-elevator" in st.house.spots:
        assert all("mystic-elevator" not in h08.banshee_walks(st, m, r).values() for r in st.house.spots)


def test_straight_on_then_back_out_of_a_dead_end() -> None:
    st = started()
    m = banshee(st)
    m.room = "entrance-hall"
    # mode roll 1 + 1 = 2: straight; 3 spaces
    rolled(h08.banshee_path(st, m, 3), [1], to("foyer", "grand-staircase"))
    state = st.hook_state["banshee-path"]
    assert state["mode"] == "straight"
    assert state["entered"] == ["foyer", "grand-staircase", "foyer"]
    assert m.room == "foyer"


def test_hugging_the_left_or_right_wall_prefers_that_turn() -> None:
    st = started()
    m = banshee(st)
    # find a room entered from a known side with ways left, straight on and right
    for room in sorted(st.house.spots):
        walks = h08.banshee_walks(st, m, room)
        for side, nxt in sorted(walks.items()):
            ahead = h08.banshee_walks(st, m, nxt)
            left, right = (side + 3) % 4, (side + 1) % 4
            if left in ahead and right in ahead and side in ahead and not h08.banshee_hops(st, m, nxt):
                for faces, want in (([1, 0], ahead[left]), ([2, 1], ahead[right])):
                    m.room = room
                    rolled(h08.banshee_path(st, m, 2), [faces], to(nxt))
                    state = st.hook_state["banshee-path"]
                    assert state["mode"] in ("hug-left", "hug-right")
                    assert state["entered"] == [nxt, want], (room, nxt, state)
                return
    raise AssertionError("no crossroads room in this house")


def test_a_jump_enters_only_its_room_up_to_eight_spaces_away() -> None:
    st = started()
    m = banshee(st)
    start = m.room
    _, seen = rolled(h08.banshee_path(st, m, 5), [0])
    asks = [r for r in seen if r.actor != CHANCE]
    assert asks and all(a.kind == "monster-teleport" for a in asks[0].choices)  # type: ignore[attr-defined]
    dist = st._dist_to([start])
    assert st.hook_state["banshee-path"]["entered"] == [m.room] and 0 < dist[m.room] <= 8


def test_a_controlled_move_wails_at_one_chosen_explorer_only() -> None:
    st = started()
    m = banshee(st)
    heroes = st.living_heroes()
    room = m.room
    nxt = sorted(set(h08.banshee_walks(st, m, room).values()))[0]
    for h in heroes[:2]:
        st.ex[h].room = nxt

    def answer(req: Req) -> Action:
        assert isinstance(req.choices, ActionList)
        wail = [a for a in req.choices if a.kind == "wail-target" and a.get("who") == heroes[1]]
        return wail[0] if wail else to(nxt, room)(req)

    rolled(h08.banshee_path(st, m, 1), [2], answer)  # 2 + 2 = 4: controlled
    assert st.hook_state["banshee-path"]["only"] == heroes[1]
    assert not h08.banshee_reaches(st, heroes[0], m) and h08.banshee_reaches(st, heroes[1], m)


def test_the_wail_hits_each_explorer_in_an_entered_room_by_the_bands_and_spares_the_traitor_with_the_board() -> None:
    st = started()
    m = banshee(st)
    traitor = st.traitor()
    assert traitor is not None
    hero, other = st.living_heroes()[:2]
    room = sorted(st.house.spots)[0]
    for s in (hero, traitor):
        st.ex[s].room = room
        st.ex[s].idx["sanity"] = 6
    st.ex[other].room = next(r for r in sorted(st.house.spots) if r != room)
    st.ex[traitor].cards = ["spirit-board"]  # no card that would reduce or convert the damage
    st.ex[hero].cards = []
    st.hook_state["banshee-path"] = {"mode": "straight", "entered": [room], "only": None}
    before = {s: st.ex[s].idx["sanity"] + st.ex[s].idx["knowledge"] for s in st.seat_ids}
    rolled(st._monster_rolls(m), [0, 1])  # the wail roll shows 0: four dice of mental damage, 1 each
    after = {s: st.ex[s].idx["sanity"] + st.ex[s].idx["knowledge"] for s in st.seat_ids}
    assert before[hero] - after[hero] == 4
    assert after[traitor] == before[traitor] and after[other] == before[other]
    st.ex[traitor].cards.remove("spirit-board")
    st.ex[hero].cards.append("spirit-board")  # a hero with the board gains no immunity
    rolled(st._monster_rolls(m), [2, 1, 2, 1])  # 6+: one die each
    assert st.ex[hero].idx["sanity"] + st.ex[hero].idx["knowledge"] == after[hero] - 1
    assert st.ex[traitor].idx["sanity"] + st.ex[traitor].idx["knowledge"] == after[traitor] - 1


def test_the_banshee_neither_attacks_nor_is_attacked_nor_slows_anyone() -> None:
    st = started()
    m = banshee(st)
    hero = st.living_heroes()[0]
    st.ex[hero].room = m.room
    _, seen = rolled(st._monster_attack(m), [])
    assert seen == [] and not m.stunned
    assert not any(a.get("target") == m.uid for a in st._attack_actions(hero))
    assert st._slowing(hero) == sum(1 for s in st.opponents_of(hero) if st.ex[s].room == m.room)


def test_each_room_or_card_serves_the_exorcism_once_and_enough_tokens_banish_the_banshee() -> None:
    st = started(3)
    hero, other = st.living_heroes()[:2]
    st.ex[hero].cards.append("book")
    st.ex[hero].room = "entrance-hall"
    st.current = hero
    st.turn.keys.clear()
    acts = [a for a in st._task_actions(hero) if a.kind == "task"]
    assert Action.of("task", id="exorcise-knowledge", place="book") in acts
    rolled(st._task(hero, Action.of("task", id="exorcise-knowledge", place="book")), [2])
    assert st.earned.get("knowledge-roll") == 1
    st.ex[hero].cards.remove("book")
    st.ex[other].cards.append("book")
    st.current = other
    st.turn.keys.clear()
    assert not any(a.get("place") == "book" for a in st._task_actions(other))  # the Book is used up
    st.earned["sanity-roll"] = 2
    assert st._check_wins() and st.result is not None and st.result.result == HERO


def test_support_reports_haunt_8_playable_with_its_hook() -> None:
    report = hauntmod.support(game_spec("betrayal"))
    assert report[8]["playable"] and report[8]["hooks"] == ["banshee-path"] and not report[8]["blockers"]
    assert "banshee-path" in hauntmod.HOOKS
