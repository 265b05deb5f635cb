"""The Halls of Horror rulebook's worked examples, each built as a position and played through the
engine. The rulebook's Dan, Kat and Tim are played here by the seats P1-P4 (Ben, Mia, Ian, Zoe on
their beginner sides, which have no powers). Rule ids are cited per test."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest
from halls_support import set_up_in_spec_order

from hauntcheck.engine.core import Action
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.halls import HallsState, Room

SPEC = game_spec("halls-of-horror")




def at(state: HallsState, r: int, c: int) -> int:
    return state.idx(r, c)


def put_room(state: HallsState, cell: tuple[int, int], card: str, **fields: object) -> None:
    room = Room(card=card, up=True)
    for key, value in fields.items():
        setattr(room, key, value)
    state.rooms[at(state, *cell)] = room


def arrange(state: HallsState, people: dict[str, tuple[int, int]], killer: tuple[int, int] = (4, 3),
            stunned: bool = True) -> None:
    """Put the named seats on cells; every other Participant leaves the house (out of play)."""
    for p in state.pp:
        if p.seat in people:
            p.pos = at(state, *people[p.seat])
        else:
            p.escaped = True
    state.killer.pos = at(state, *killer)
    state.killer.stunned = stunned
    state.mc_deck = ["quiet-night"] * 10
    state.reward_discard = []


def restart(state: HallsState) -> None:
    """Start a fresh turn from the arranged position (combat is decided from it)."""
    state.turn, state.mc, state.ctx = {}, {}, {}
    state._need = None
    state._legal = None
    state._begin_turn()
    state._advance()


def events_of(state: HallsState, actions: Iterable[Action]) -> list[str]:
    out: list[str] = []
    for action in actions:
        out.extend(str(e) for e in state.apply(action))
    return out


def auto(state: HallsState, stop: Sequence[str] = ("choose",)) -> list[str]:
    """Answer every player decision with the plain choice (no Resolve, stop spending symbols,
    accept results) until the game asks for a decision of a kind in ``stop``."""
    out: list[str] = []
    while state.to_move() is not None and state._need is not None and state._need.kind not in stop:
        assert state.to_move() != "chance", f"unscripted chance decision: {state.legal_actions().describe()}"
        kind = state._need.kind
        action = Action.of("resolve", spend=False) if kind == "search-resolve" else next(iter(state.legal_actions()))
        out.extend(str(e) for e in state.apply(action))
    return out


def choose(action: str) -> Action:
    return Action.of("choose", action=action)


def roll(*faces: int) -> Action:
    return Action.of("roll", faces=list(faces))


# --------------------------------------------------------------------------------------------
# Searching (search.draw, search.discard-unrepresented, search.most-copies, search.resolve-*)


def test_dan_searches_the_room_filled_with_tombs() -> None:
    """5.2.2.1 example: five cards Panic, Key, Firearm, Damage, Utility in room 3A; the three not
    on the room are discarded and the tie between Damage and Utility goes to the left-most reward,
    the First Aid Kit (rules search.discard-unrepresented, search.most-copies)."""
    state = set_up_in_spec_order()
    put_room(state, (1, 1), "r03a")
    arrange(state, {"P1": (1, 1)})
    dan = state.pp[0]
    dan.resolve = 0
    state.reward_deck = ["panic", "key", "firearm", "damage", "utility", "melee", "melee"]
    restart(state)
    events = events_of(state, [choose("search")])
    assert "search.discard-unrepresented: not on the room, discarded: panic, key, firearm" in events
    assert dan.items == ["first-aid-kit"]
    assert dan.hp == 10
    assert state.reward_deck == ["melee", "melee"]


def test_dan_spends_resolve_and_discards_a_damage_card() -> None:
    """5.2.2.1 example: Damage, Damage, Ammunition, Melee, Panic would give Damage; one Resolve draws
    Ammunition and Panic; discarding one Damage leaves two Ammunition as the most copies
    (rules search.resolve-draw, search.resolve-discard, search.most-copies)."""
    state = set_up_in_spec_order()
    put_room(state, (1, 1), "r03a")
    arrange(state, {"P1": (1, 1)})
    dan = state.pp[0]
    dan.resolve = 1
    state.reward_deck = ["damage", "damage", "ammo", "melee", "panic", "ammo", "panic", "key"]
    restart(state)
    i = at(state, 1, 1)
    rewards = state.rdef(i).rewards
    # Without Resolve the five cards give Damage.
    first = state.best_reward(i, ["damage", "damage", "ammo", "melee", "panic"])
    assert first is not None and rewards[first].reward == "damage"
    # With the two extra cards, Damage still wins (2 Damage, 2 Ammunition: Damage is further left).
    second = state.best_reward(i, ["damage", "damage", "ammo", "melee", "panic", "ammo", "panic"])
    assert second is not None and rewards[second].reward == "damage"
    events = events_of(state, [choose("search"), Action.of("resolve", spend=True)])
    assert any(e.startswith("search.resolve-draw: Ben spends a Resolve and draws ammo, panic") for e in events)
    assert dan.resolve == 0
    events = events_of(state, [Action.of("discard", card="damage")])
    assert "search.resolve-discard: Ben removes a damage card" in events
    assert dan.bullets == 1 and dan.hp == 10
    assert state.reward_deck == ["key"]


# --------------------------------------------------------------------------------------------
# Puzzles (move.puzzle-lock, puzzle.draw-pair, puzzle.progress, puzzle.solve)


def test_kats_puzzle_room() -> None:
    """5.2.2.2 example: Kat is locked in a puzzle room; four cards, one of each, fail and a progress
    token covers the Shell; next turn five cards hold a pair: she takes the Bullet and the room
    opens (rules move.puzzle-lock, puzzle.progress, puzzle.solve)."""
    state = set_up_in_spec_order()
    arrange(state, {"P1": (1, 0)})
    state.rooms[at(state, 2, 0)] = Room(card="r12a")  # face down below Kat
    kat = state.pp[0]
    kat.resolve = 0
    state.reward_deck = ["melee", "firearm", "utility", "key", "damage", "damage", "melee", "firearm", "utility"]
    restart(state)
    events = events_of(state, [choose("down")])
    assert any(e.startswith("move.reveal: Ben moves down and reveals Sealed Vault") for e in events)
    assert any(e.startswith("move.puzzle-lock: Ben is locked inside Sealed Vault") for e in events)
    auto(state)
    room = state.rooms[at(state, 2, 0)]
    assert room.temp
    assert [a.to_data() for a in state.legal_actions()] == [{"kind": "choose", "action": "search"}]
    events = events_of(state, [choose("search")])
    assert "puzzle.draw-pair: Ben draws melee, firearm, utility, key" in events
    assert any(e.startswith("puzzle.progress:") and "next attempt draws 5" in e for e in events)
    assert room.temp and room.covered == [0]
    auto(state)
    events = events_of(state, [choose("search")])
    assert "puzzle.draw-pair: Ben draws damage, damage, melee, firearm, utility" in events
    assert kat.bullets == 1 and kat.shells == 0
    assert not room.temp


# --------------------------------------------------------------------------------------------
# Combat


def combat_room(state: HallsState, seats: dict[str, tuple[int, int]], killer: tuple[int, int] = (4, 3),
                stunned: bool = True) -> None:
    for cell in {*seats.values(), killer}:
        put_room(state, cell, "r02a")
    arrange(state, seats, killer=killer, stunned=stunned)
    restart(state)


def test_kat_and_dan_resolve_duel() -> None:
    """5.2.3.1 example: Kat 2 successes, Dan 1. Dan (behind) re-rolls three dice with his first
    Resolve (3); Kat re-rolls her two failed dice with her only Resolve (3, a tie); Dan re-rolls a
    single die with his second Resolve (4). Kat must accept; Dan wins 4 to 3 (rule
    combat.resolve-reroll)."""
    state = set_up_in_spec_order()
    combat_room(state, {"P1": (1, 1), "P2": (1, 1)})
    kat, dan = state.pp[0], state.pp[1]
    kat.resolve, dan.resolve = 1, 2
    events_of(state, [choose("attack"), choose("attack"), roll(5, 6, 1, 2), roll(6, 1, 2, 3)])
    assert state.to_move() == "P2"  # the one behind decides first
    # First token: any number of failed dice; later tokens: one die.
    assert Action.of("reroll", dice=[1, 2, 3]) in state.legal_actions()
    events_of(state, [Action.of("reroll", dice=[1, 2, 3]), roll(5, 6, 1)])
    assert state.successes("P2") == 3
    assert state.to_move() == "P1"
    events_of(state, [Action.of("reroll", dice=[2, 3]), roll(5, 1)])
    assert state.successes("P1") == 3
    assert state.to_move() == "P2"
    assert Action.of("reroll", dice=[1, 3]) not in state.legal_actions()
    events = events_of(state, [Action.of("reroll", dice=[3]), roll(6)])
    assert "combat.resolve-reroll: Mia re-rolls [6]: now [6, 5, 6, 6], 4 successes" in events
    assert "combat.roll: successes: Ben 3, Mia 4" in events
    assert "combat.attack-vs-attack: Ben takes 2 damage from Mia: 8 HP left, +2 Resolve" in events
    assert kat.hp == 8 and dan.hp == 10
    assert kat.resolve == 2 and dan.resolve == 0


def test_kats_fireaxe_against_three() -> None:
    """5.2.3.3 example: a Fireaxe (damage 4) winning against three others deals 4 - 1 - 1 = 2 to
    each (rules combat.multi-top, combat.multi-damage)."""
    state = set_up_in_spec_order()
    combat_room(state, {"P1": (1, 1), "P2": (1, 1), "P3": (1, 1), "P4": (1, 1)})
    for p in state.pp:
        p.resolve = 0
    state.pp[0].items = ["fireaxe"]
    events = events_of(state, [choose("attack"), choose("attack"), choose("escape"), choose("attack"),
                               Action.of("weapon", name="fireaxe"),
                               roll(5, 6, 6, 1), roll(5, 1, 1, 1), roll(4, 4, 1, 1), roll(1, 1, 1, 1)])
    assert "combat.multi-top: successes: Ben 3, Mia 1, Ian 2, Zoe 0" in events
    assert [p.hp for p in state.pp] == [10, 8, 8, 8]
    # Lower cards are ignored: Ian's Escape does not happen.
    assert state.pp[2].pos == at(state, 1, 1)


def test_kat_dan_and_tim_tied_attacks() -> None:
    """5.2.3.3 example: Kat (Pistol) and Dan (basic) tie at 3, Tim Escapes with 2. Kat spends a
    Bullet and deals 4 - 1 (tie) - 1 (second target) = 2 to Dan and Tim; Dan deals 2 - 1 = 1
    (minimum 1) to Kat and Tim; Tim's Escape is ignored (rules combat.multi-damage, combat.ammo-once)."""
    state = set_up_in_spec_order()
    combat_room(state, {"P1": (1, 1), "P2": (1, 1), "P3": (1, 1)})
    kat, dan, tim = state.pp[0], state.pp[1], state.pp[2]
    for p in (kat, dan, tim):
        p.resolve = 0
    kat.items = ["pistol"]
    kat.bullets = 2
    events_of(state, [choose("attack"), choose("attack"), choose("escape"), Action.of("weapon", name="pistol")])
    assert kat.bullets == 1
    events_of(state, [roll(4, 5, 6, 1), roll(5, 6, 5, 1), roll(4, 5, 1, 1)])
    assert (kat.hp, dan.hp, tim.hp) == (9, 8, 7)
    assert tim.pos == at(state, 1, 1)


def test_kat_and_dan_against_the_killer() -> None:
    """5.2.3.3 example: Kat Escapes, Dan Attacks with his Pistol; the Killer rolls 2, both roll 3.
    Kat takes the flat 1 and her Escape is cancelled; Dan deals 4 - 1 = 3 to the Killer (rules
    combat.multi-escape, combat.multi-damage, killer.always-attacks)."""
    state = set_up_in_spec_order()
    combat_room(state, {"P1": (1, 1), "P2": (1, 1)}, killer=(1, 1), stunned=False)
    kat, dan = state.pp[0], state.pp[1]
    kat.resolve = dan.resolve = 0
    dan.items, dan.bullets = ["pistol"], 1
    assert state.killer.rage == 0
    events_of(state, [choose("escape"), choose("attack"), Action.of("weapon", name="pistol"),
                      roll(4, 5, 6, 1), roll(4, 5, 6, 1), roll(5, 6, 1)])
    assert dan.bullets == 0
    assert kat.hp == 9 and kat.pos == at(state, 1, 1)
    assert state.killer.hp == 7
    assert dan.hp == 10


def test_kat_and_dan_against_a_stronger_killer() -> None:
    """5.2.3.3 second example: the Killer rolls 4, Kat 1 and Dan 3: he deals his damage - 1 to both;
    Kat's Escape is ignored and Dan's Bullet is spent anyway (rules combat.multi-top, combat.weapon)."""
    state = set_up_in_spec_order()
    combat_room(state, {"P1": (1, 1), "P2": (1, 1)}, killer=(1, 1), stunned=False)
    kat, dan = state.pp[0], state.pp[1]
    kat.resolve = dan.resolve = 0
    dan.items, dan.bullets = ["pistol"], 1
    state.killer.rage = 2  # 4 dice, 3 damage by the spec's Rage track
    dice, damage, _ = state.d.rage[2]
    assert dice >= 4
    events_of(state, [choose("escape"), choose("attack"), Action.of("weapon", name="pistol"),
                      roll(4, 1, 1, 1), roll(4, 5, 6, 1), roll(5, 6, 5, 6)])
    assert dan.bullets == 0
    assert kat.hp == 10 - (damage - 1) and dan.hp == 10 - (damage - 1)
    assert kat.pos == dan.pos == at(state, 1, 1)
    assert state.killer.hp == 10


def test_killer_wins_ties_and_lone_escaper_still_escapes() -> None:
    """Rule killer.always-attacks: a tie goes to the Killer, who deals full damage; a lone
    Participant who Escapes still escapes. Rule killer.stun-alone: left alone, he is Stunned."""
    state = set_up_in_spec_order()
    combat_room(state, {"P1": (1, 1)}, killer=(1, 1), stunned=False)
    p = state.pp[0]
    p.resolve = 0
    state.killer.rage = 1
    events = events_of(state, [choose("escape"), roll(4, 1, 1, 1), roll(5, 1, 1, 1)])
    assert p.hp == 10 - state.d.rage[1][1]
    events += events_of(state, [Action.of("escape", dir="up")])
    assert p.pos == at(state, 0, 1)
    assert state.killer.stunned and state.killer.rage == 0
    assert any(e.startswith("killer.stun-alone:") for e in events)


def test_killer_key_once_per_game() -> None:
    """Rule killer.death: bringing the Killer to 0 HP stuns him, resets Rage and gives a Key the
    first time only."""
    state = set_up_in_spec_order()
    combat_room(state, {"P1": (1, 1)}, killer=(1, 1), stunned=False)
    p = state.pp[0]
    p.resolve = 0
    state.killer.hp = 2
    state.killer.rage = 3
    events_of(state, [choose("attack"), roll(5, 1, 1, 1), roll(1, 1, 1, 1, 1)])
    assert state.killer.hp == 0 and state.killer.stunned and state.killer.rage == 0
    assert p.keys == 1 and state.killer.key_given
    auto(state)
    state.killer.hp, state.killer.stunned = 2, False
    state.killer.pos = p.pos
    restart(state)
    events = events_of(state, [choose("attack"), roll(5, 1, 1, 1), roll(1, 1, 1)])
    assert "killer.death: the Killer falls to 0 HP: stunned, Rage reset to 0" in events
    assert not any(e.startswith("keys.find") for e in events)
    assert p.keys == 1


# --------------------------------------------------------------------------------------------
# Keys, bodies and locks (keys.find, body.search, lock.candidates, lock.path)


def test_dans_key_and_the_body() -> None:
    """6.5 example: Dan's Key from a puzzle locks one room; searching Dan's body gives his Key plus
    the guaranteed one, and Kat locks two rooms (rules keys.find, body.search, lock.apply)."""
    state = set_up_in_spec_order()
    put_room(state, (1, 1), "r10a")
    for cell in [(0, 1), (0, 2), (1, 2), (2, 2), (2, 1)]:
        put_room(state, cell, "r02a", exhausted=True)
    arrange(state, {"P1": (1, 1)})
    dan = state.pp[0]
    dan.resolve = 0
    state.reward_deck = ["key", "key", "melee", "firearm"]
    restart(state)
    events = events_of(state, [choose("search")])
    assert dan.keys == 1
    assert state.to_move() == "P1" and state._need is not None and state._need.kind == "lock"
    options = [(a["row"], a["col"]) for a in state.legal_actions()]
    assert (0, 0) in options  # the empty starting room is first class too
    events = events_of(state, [next(iter(state.legal_actions()))])
    assert sum(e.startswith("lock.apply:") for e in events) == 1
    auto(state)
    # Dan dies in (1, 1) with his Key; Kat (P2) stands there alone and searches the body.
    kat = state.pp[1]
    kat.escaped = False
    kat.pos = at(state, 1, 1)
    dan.pos = at(state, 1, 1)
    dan.alive, dan.hp = False, 0
    state.dead_order, state.mc_index, state.mc_holders = [0], 0, [0]
    kat.resolve = 0
    restart(state)
    assert state.search_options(kat) == ["body"]
    events = events_of(state, [choose("search")])
    assert kat.keys == 2 and dan.keys == 0 and dan.searched
    assert state.keys_made == 2
    events += auto(state, stop=("choose", "mc-card"))
    assert sum(e.startswith("lock.apply: Mia's player locks") for e in events) == 2


def _ian_board() -> HallsState:
    """6.6 example: Ian in the bottom-left corner; the exhausted room above him is his only way out
    (the room to his right is already locked)."""
    state = set_up_in_spec_order()
    for r in range(5):
        for c in range(4):
            if (r, c) not in {(0, 0), (0, 3), (4, 0), (4, 3)}:
                put_room(state, (r, c), "r02a", exhausted=True)
    put_room(state, (0, 2), "exit-1")
    put_room(state, (2, 3), "exit-2")
    put_room(state, (4, 1), "r02a", locked=True, up=False)
    put_room(state, (1, 1), "r02a", exhausted=True, gift="gift-knife")
    arrange(state, {"P3": (4, 0), "P1": (0, 0), "P2": (0, 3)}, killer=(2, 1))
    return state


def test_the_room_above_ian_cannot_be_locked() -> None:
    """6.6 example: the exhausted room above Ian would cut him off from the Exits, and the exhausted
    room holding an MC Gift is not empty: neither may be locked (rules lock.path, lock.empty)."""
    state = _ian_board()
    options = state.lock_options()
    assert (3, 0) not in options
    assert (1, 1) not in options
    assert (2, 2) in options
    state.rooms[at(state, 4, 1)].locked = False
    assert (3, 0) in state.lock_options()


def test_locking_prefers_exhausted_and_starting_rooms() -> None:
    """Rule lock.candidates: while an exhausted or starting room may be locked, no other room may."""
    state = set_up_in_spec_order()
    arrange(state, {"P1": (0, 0)})
    for room in state.rooms:
        room.up = True
    options = state.lock_options()
    assert options
    assert all(state.rooms[at(state, r, c)].start or state.rooms[at(state, r, c)].exhausted for r, c in options)


# --------------------------------------------------------------------------------------------
# Movement and the secret choice


def test_crossing_in_the_doorway() -> None:
    """Rule move.doorway: two Participants swapping rooms meet in the doorway; the one later in turn
    order stays, and they fight next turn."""
    state = set_up_in_spec_order()
    put_room(state, (1, 1), "r02a")
    put_room(state, (1, 2), "r02a")
    arrange(state, {"P1": (1, 1), "P2": (1, 2)})
    restart(state)
    events = events_of(state, [choose("right"), choose("left")])
    assert any(e.startswith("move.doorway: Mia and Ben meet in the doorway") for e in events)
    assert state.pp[0].pos == state.pp[1].pos == at(state, 1, 2)
    auto(state)
    assert state.turn["combat"] == {"P1": True, "P2": True}


def test_secret_choices_do_not_depend_on_earlier_choices() -> None:
    """Rule turn.secret-choice: a later seat is offered the same actions whatever earlier seats chose."""
    state = set_up_in_spec_order()
    first = state.legal_actions()
    offered = set()
    for action in first:
        other = state.clone()
        other.apply(action)
        offered.add(tuple(a.to_data()["action"] for a in other.legal_actions()))
    assert len(offered) == 1


# --------------------------------------------------------------------------------------------
# Solo (solo.caps, solo.killer-table, solo.not-enough-keys)


def solo_with_card(card: str, hp: int) -> HallsState:
    state = set_up_in_spec_order(1)
    put_room(state, (0, 1), "r02a")
    state.pp[0].resolve = 0
    state.killer.pos = at(state, 2, 2)
    state.killer.stunned = False
    state.killer.hp = hp
    state.mc_deck = [card, "solo-restless"]
    restart(state)
    return state


def test_solo_inhuman_frenzy_hp_floor() -> None:
    """8.4 example: at 2 HP Inhuman Frenzy can only take 1 HP (to 1), and the rest of the card still
    applies (rule solo.caps)."""
    state = solo_with_card("solo-inhuman-frenzy", 2)
    before = state.killer.pos
    events = events_of(state, [choose("right")])
    events += auto(state)
    assert "solo.caps: the Killer loses 1 HP (never below 1): 1 HP" in events
    assert state.killer.hp == 1
    assert state.killer.pos != before


def test_solo_killers_wrath_at_one_hp() -> None:
    """8.4 example: at 1 HP The Killer's Wrath takes no HP, but its other effect still happens."""
    state = solo_with_card("solo-the-killers-wrath", 1)
    events = events_of(state, [choose("right")])
    assert state.killer.hp == 1
    assert state.killer.rage == 2
    assert "solo.caps: the Killer loses 0 HP (never below 1): 1 HP" in events


@pytest.mark.parametrize("rage, expected", [(0, 1), (1, 1), (2, 2), (3, 2), (4, 3)])
def test_solo_killer_success_table(rage: int, expected: int) -> None:
    """Rule solo.killer-table: the solo Killer's successes by Rage."""
    state = set_up_in_spec_order(1)
    put_room(state, (1, 1), "r02a")
    state.pp[0].pos = at(state, 1, 1)
    state.pp[0].resolve = 0
    state.killer.pos, state.killer.stunned, state.killer.rage = at(state, 1, 1), False, rage
    restart(state)
    events = events_of(state, [choose("attack"), roll(1, 1, 1, 1)])
    assert f"solo.killer-table: the Killer (Rage {rage}) counts {expected} successes" in events


def test_solo_not_enough_keys() -> None:
    """Rule solo.not-enough-keys: with every room explored and no Key left, the Killer carries two
    Keys and must fall twice to give them."""
    state = set_up_in_spec_order(1)
    for i, room in enumerate(state.rooms):
        state.rooms[i] = Room(card="r02a", up=True, exhausted=True, start=room.start)
    put_room(state, (0, 1), "r02a")
    state.pp[0].resolve = 0
    state.killer.pos, state.killer.stunned = at(state, 3, 3), True
    state.mc_deck = ["solo-restless"] * 4
    restart(state)
    events = events_of(state, [choose("right")])
    assert state.killer.two_keys and state.killer.carried == 2
    assert any(e.startswith("solo.not-enough-keys:") for e in events)


# --------------------------------------------------------------------------------------------
# Other rules: the MC phase, the Killer's symbols, items and powers


def test_mc_after_a_death_draws_dead_plus_one() -> None:
    """Rules mc.after-death, mc.role: with one dead Participant the MC (that player) draws two
    cards, plays one and puts the other under the deck; the First Player no longer draws."""
    state = set_up_in_spec_order()
    put_room(state, (1, 1), "r02a")
    arrange(state, {"P1": (1, 1), "P2": (0, 3)})
    mia = state.pp[1]
    mia.alive, mia.hp, mia.escaped = False, 0, False
    state.dead_order, state.mc_index, state.mc_holders = [1], 1, [1]
    state.mc_deck = ["bloodlust", "quiet-night", "stirring", "stirring"]
    state.pp[0].resolve = 0
    restart(state)
    events_of(state, [choose("down")])
    assert state.to_move() == "P2" and state._need is not None and state._need.kind == "mc-card"
    assert sorted(str(a["card"]) for a in state.legal_actions()) == ["bloodlust", "quiet-night"]
    events = events_of(state, [Action.of("mc-card", card="quiet-night")])
    assert any(e.startswith("mc.after-death: the MC draws 2 cards, plays Quiet Night") for e in events)
    assert state.mc_deck == ["stirring", "stirring", "bloodlust"]


def test_killer_symbol_priorities() -> None:
    """Rule killer.symbols: at 0 HP one symbol must heal; a Stunned Killer must then be Activated
    with two; only the rest are free."""
    state = set_up_in_spec_order()
    put_room(state, (1, 1), "r02a")
    arrange(state, {"P1": (1, 1)}, killer=(4, 3), stunned=True)
    state.killer.hp = 0
    state.mc_deck = ["heavy-footsteps"] * 3  # three symbols
    state.pp[0].resolve = 0
    restart(state)
    events = events_of(state, [choose("down")])
    assert "killer.heal: a symbol must heal the dead Killer: 1 HP" in events
    assert "killer.activate: two symbols must Activate the Stunned Killer" in events
    assert state.killer.hp == 1 and not state.killer.stunned
    assert state.to_move() is not None and state._need is not None
    assert state._need.kind == "choose"  # all three symbols were forced


def test_first_player_passes_to_the_next_living_participant() -> None:
    """Rule mc.first-player-passes: the card skips dead Participants."""
    state = set_up_in_spec_order()
    for cell in [(1, 1), (1, 2)]:
        put_room(state, cell, "r02a")
    arrange(state, {"P1": (1, 1), "P3": (1, 2)})
    state.pp[1].escaped = False
    state.pp[1].alive, state.pp[1].hp = False, 0
    state.dead_order, state.mc_index, state.mc_holders = [1], 1, [1]
    state.pp[0].resolve = state.pp[2].resolve = 0
    restart(state)
    events = events_of(state, [choose("down"), choose("down")])
    events += auto(state)
    assert "mc.first-player-passes: the First Player card passes to Ian" in events
    assert state.first == 2


def test_kevlar_vest_absorbs_the_first_source() -> None:
    """Rule combat.kevlar: the Vest takes the whole first hit and is discarded."""
    state = set_up_in_spec_order()
    combat_room(state, {"P1": (1, 1), "P2": (1, 1)})
    a, b = state.pp[0], state.pp[1]
    a.resolve = b.resolve = 0
    b.items = ["kevlar-vest"]
    events = events_of(state, [choose("attack"), choose("attack"), roll(5, 6, 1, 1), roll(1, 1, 1, 1)])
    assert "combat.kevlar: Mia's Kevlar Vest absorbs Ben's 2 damage and is discarded" in events
    assert b.hp == 10 and b.items == []


def test_firearm_ammo_and_every_shot_counts() -> None:
    """Rules item.firearm-ammo and power.every-shot-counts: a new Pistol brings two Bullets (Mia:
    three); a second Pistol brings none and gives a Resolve instead."""
    state = set_up_in_spec_order(side="advanced")
    mia = state.pp[1]
    assert "every-shot-counts" in mia.powers
    slot = next(s for r in state.d.rooms.values() for s in r.rewards if s.item == "pistol")
    state.gain(mia, slot, "test")
    assert mia.bullets == 3 and mia.items == ["pistol"]
    before = mia.resolve
    state.gain(mia, slot, "test")
    assert mia.bullets == 3 and mia.resolve == before + 1


def test_advanced_powers_at_setup_and_in_combat() -> None:
    """Rules power.lucky, power.tough, power.grapple-master: Ian starts with 3 Resolve; Ben's Tough
    takes 1 off each damage source; Zoe's unarmed Attack also succeeds on 4s."""
    state = set_up_in_spec_order(side="advanced")
    ben, ian, zoe = state.pp[0], state.pp[2], state.pp[3]
    assert ian.resolve == 3 and ben.resolve == 1
    combat_room(state, {"P1": (1, 1), "P4": (1, 1)})
    ben.resolve = zoe.resolve = 0
    events = events_of(state, [choose("attack"), choose("attack"), roll(1, 1, 1, 1), roll(4, 4, 1, 1)])
    assert "power.grapple-master: Zoe rolls [4, 4, 1, 1]: 2 successes" in events
    assert "power.tough: Ben is Tough: 2 damage becomes 1" in events
    assert ben.hp == 9
