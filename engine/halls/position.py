"""Halls of Horror positions: a state built directly from a mapping (dispute scenarios), its
inverse, and the actions that led to it. Every key and default is listed in
docs/halls-of-horror.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hauntcheck.checks.halls_locks import cut_off
from hauntcheck.engine.core import Action, GameState
from hauntcheck.engine.halls.model import ITEM_ORDER, Killer, Room, option_problems
from hauntcheck.engine.halls.state import HallsState
from hauntcheck.engine.positions import PathKey, Problems, guess
from hauntcheck.engine.spec import GameSpec

# --------------------------------------------------------------------------------------------
# Positions: a state built directly from a mapping (dispute scenarios), its inverse, the game's
# invariants and a picture. Every key and default is listed in docs/halls-of-horror.md.

POSITION_KEYS = ("round", "first", "rooms", "participants", "killer", "decks", "discards", "used_gifts",
                 "dead", "mc", "mc_holders", "keys_spent", "note")
ROOM_KEYS = ("at", "up", "locked", "temp", "exhausted", "covered", "gift")
PARTICIPANT_KEYS = ("room", "hp", "resolve", "items", "bullets", "shells", "keys", "panic", "alive", "searched")
KILLER_KEYS = ("room", "hp", "rage", "stunned", "key_given", "carried", "two_keys")


class _Builder(Problems):
    """Collects every problem of a position (path inside ``position``, message) before failing."""

    def __init__(self, state: HallsState) -> None:
        super().__init__()
        self.state = state

    def cell(self, value: Any, path: PathKey, cards: Mapping[str, int] | None = None) -> int | None:
        """A room given as ``[row, col]`` (or, with ``cards``, by the id of the card lying there)."""
        s = self.state
        if isinstance(value, str) and cards is not None:
            if value not in cards:
                self.bad(path, f"no room {value!r} is on the board{guess(value, cards)}")
                return None
            return cards[value]
        if (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
                and 0 <= value[0] < s.rows and 0 <= value[1] < s.cols):
            return s.idx(value[0], value[1])
        also = " or the id of a room on the board" if cards is not None else ""
        self.bad(path, f"a room is [row, col] inside the {s.rows}x{s.cols} grid (rows 0-{s.rows - 1}, cols 0-{s.cols - 1}){also}, "
                       f"got {value!r}")
        return None

    def seat(self, value: Any, path: PathKey) -> int | None:
        seats = self.state.seats()
        if value not in seats:
            self.bad(path, f"{value!r} is not a seat of this {len(seats)}-player game ({', '.join(seats)})")
            return None
        return seats.index(str(value))

    def pile(self, value: Any, path: PathKey, known: Sequence[str], what: str) -> list[str]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.bad(path, f"{what} is a list of card ids, got {value!r}")
            return []
        out = []
        for n, card in enumerate(value):
            if card not in known:
                self.bad((*path, n), f"unknown {what} {card!r}{guess(card, known)}")
            else:
                out.append(str(card))
        return out

    def deal(self, full: Sequence[str], parts: Sequence[tuple[PathKey, list[str]]], what: str) -> list[str]:
        """What is left of ``full`` (a deck with repeats, in spec order) once the listed cards are
        taken out; a card listed more often than the deck holds it is a problem at its place."""
        left: dict[str, int] = {}
        for card in full:
            left[card] = left.get(card, 0) + 1
        for path, cards in parts:
            for n, card in enumerate(cards):
                if left.get(card, 0) <= 0:
                    self.bad((*path, n), f"more {card!r} than the {what} holds ({full.count(card)})")
                else:
                    left[card] -= 1
        out = []
        for card in full:
            if left.get(card, 0) > 0:
                out.append(card)
                left[card] -= 1
        return out


def build_position(spec: GameSpec, players: int, options: Mapping[str, Any], position: Mapping[str, Any]) -> HallsState:
    """A Halls of Horror state at the start of a round's action selection, built from a scenario's
    ``position`` (documented in docs/halls-of-horror.md); raises PositionError naming every bad path."""
    from hauntcheck.engine.scenario import PositionError

    checked, bad_options = option_problems(spec, players, options)
    if bad_options:
        raise PositionError([((), f"option {m}") for m in bad_options])
    if not isinstance(position, Mapping):
        raise PositionError([((), f"a position is a mapping, got {position!r}")])
    state = HallsState(spec, players, checked)
    d = state.d
    b = _Builder(state)
    b.mapping(position, (), POSITION_KEYS, "the position")
    starts = [state.idx(r, c) for r, c in state.lay["starts"]]
    start_card = {side: k for k, pair in enumerate(d.starts) for side in pair}

    # -- rooms
    grid: list[Room | None] = [None] * (state.rows * state.cols)
    placed: dict[str, int] = {}
    rooms = position.get("rooms") or {}
    if not isinstance(rooms, Mapping):
        b.bad(("rooms",), f"rooms maps room card ids to {{at: [row, col], ...}}, got {rooms!r}")
        rooms = {}
    for card, raw in rooms.items():
        path: PathKey = ("rooms", card)
        if card not in d.rooms:
            b.bad(path, f"unknown room {card!r}{guess(card, d.rooms)}")
            continue
        entry = b.mapping(raw, path, ROOM_KEYS, f"room {card}")
        if "at" not in entry:
            b.bad(path, f"room {card} needs at: [row, col]")
            continue
        i = b.cell(entry["at"], (*path, "at"))
        if i is None:
            continue
        if grid[i] is not None:
            b.bad((*path, "at"), f"{list(state.cell(i))} already holds {grid[i].card}")  # type: ignore[union-attr]
            continue
        if card in start_card:
            twin = next(side for side in d.starts[start_card[card]] if side != card)
            if i not in starts:
                b.bad((*path, "at"), f"{card} is a starting room; starting rooms lie on the corners "
                                     f"{[list(state.cell(j)) for j in starts]}")
            if twin in placed:
                b.bad(path, f"{card} and {twin} are the two faces of one starting room card")
        elif i in starts:
            b.bad((*path, "at"), f"{list(state.cell(i))} is a starting room's corner; only a starting room card goes there")
        rd = d.rooms[card]
        locked = b.flag(entry, "locked", path, False)
        up = b.flag(entry, "up", path, not locked)
        if locked and up:
            b.bad((*path, "up"), "a locked room lies face down")
        if card in start_card and not up and not locked:
            b.bad((*path, "up"), "starting rooms lie face up")
        room = Room(card=card, up=up and not locked, locked=locked, start=i in starts)
        room.exhausted = b.flag(entry, "exhausted", path, False)
        room.temp = b.flag(entry, "temp", path, False)
        if room.temp and (rd.mode != "puzzle" or not room.up):
            b.bad((*path, "temp"), f"only a face-up puzzle room closes around a Participant; {rd.name} is not one")
        covered = entry.get("covered", [])
        if not (isinstance(covered, list) and all(isinstance(k, int) and 0 <= k < len(rd.rewards) for k in covered)
                and len(set(covered)) == len(covered)):
            b.bad((*path, "covered"), f"covered lists reward places of {rd.name} (0-{len(rd.rewards) - 1}, left to right), "
                                      f"got {covered!r}")
        else:
            room.covered = sorted(covered)
        gift = entry.get("gift", "")
        if gift and gift not in d.gifts:
            b.bad((*path, "gift"), f"unknown MC Gift {gift!r}{guess(gift, d.gifts)}")
        else:
            room.gift = str(gift or "")
        grid[i] = room
        placed[card] = i
    fill_variant = "B" if state.variant == "B" else "A"
    removed = set(state.lay.get("remove_rooms", []))
    numbered = [d.numbered[n][fill_variant] for n in sorted(d.numbered)
                if n not in removed and not any(v in placed for v in d.numbered[n].values())]
    exits = [e for e in d.exits if e not in placed]
    free = [i for i in range(len(grid)) if grid[i] is None and i not in starts]
    fill = numbered[: max(0, len(free) - len(exits))] + exits
    for i, card in zip(free, fill, strict=False):
        grid[i] = Room(card=card)
    spare = [pair for pair in d.starts if not any(side in placed for side in pair)]
    for i in starts:
        if grid[i] is None and spare:
            grid[i] = Room(card=spare.pop(0)[0], up=True, start=True)
    cards = {room.card: i for i, room in enumerate(grid) if room is not None}
    board = [room if room is not None else Room() for room in grid]

    def standable(i: int | None, path: PathKey, who: str, face_down_ok: bool = False) -> int | None:
        if i is None:
            return None
        room = board[i]
        if room.locked:
            b.bad(path, f"{who} cannot be in the locked room {list(state.cell(i))}")
        elif not room.up and not face_down_ok:
            b.bad(path, f"{who} cannot be in the face-down room {list(state.cell(i))} (entering a room turns it face up)")
        return i

    # -- participants
    parts = b.mapping(position.get("participants"), ("participants",), state.seats(), "participants")
    state._make_participants()
    for k, p in enumerate(state.pp):
        path = ("participants", p.seat)
        entry = b.mapping(parts.get(p.seat), path, PARTICIPANT_KEYS, p.seat)
        p.alive = b.flag(entry, "alive", path, True)
        where = b.cell(entry["room"], (*path, "room"), cards) if "room" in entry else starts[k]
        p.pos = standable(where, (*path, "room"), f"{p.seat} ({p.name})") or 0
        if p.alive:
            p.hp = b.number(entry, "hp", path, d.hp, 1, d.hp_max)
        else:
            p.hp = b.number(entry, "hp", path, 0, 0, 0)
        p.resolve = b.number(entry, "resolve", path, p.resolve, 0)
        items = entry.get("items", [])
        if not (isinstance(items, list) and all(it in ITEM_ORDER for it in items) and len(set(items)) == len(items)):
            b.bad((*path, "items"), f"items is a list of different items among {', '.join(ITEM_ORDER)} "
                                    f"(one of each at most), got {items!r}")
        else:
            p.items = sorted(items, key=ITEM_ORDER.index)
        p.bullets = b.number(entry, "bullets", path, 0, 0)
        p.shells = b.number(entry, "shells", path, 0, 0)
        p.keys = b.number(entry, "keys", path, 0, 0)
        p.panic = b.flag(entry, "panic", path, False)
        p.searched = b.flag(entry, "searched", path, False)
        if p.searched and p.alive:
            b.bad((*path, "searched"), "only a dead Participant's body is searched")
    dead = [k for k, p in enumerate(state.pp) if not p.alive]
    living = [k for k, p in enumerate(state.pp) if p.alive]
    if not living:
        b.bad(("participants",), "at least one Participant must be alive")
    if "dead" in position:
        order = [b.seat(s, ("dead", n)) for n, s in enumerate(position["dead"] or [])] if isinstance(position["dead"], list) else []
        if sorted(k for k in order if k is not None) != dead:
            names = ", ".join(state.seat_of(k) for k in dead) or "nobody"
            b.bad(("dead",), f"dead lists every dead Participant once, in the order they died ({names} in some order)")
        else:
            dead = [k for k in order if k is not None]
    state.dead_order = list(dead)
    state.mc_holders = list(dead)
    if "mc_holders" in position:
        raw = position["mc_holders"]
        holders = [b.seat(s, ("mc_holders", n)) for n, s in enumerate(raw)] if isinstance(raw, list) else [None]
        if None in holders or not set(holders) <= set(dead) or len(set(holders)) != len(holders):
            b.bad(("mc_holders",), "mc_holders lists dead Participants' seats (each has held the MC role)")
        else:
            state.mc_holders = [k for k in holders if k is not None]
    state.mc_index = dead[-1] if dead else -1
    if "mc" in position:
        mc_seat = b.seat(position["mc"], ("mc",))
        if mc_seat is not None and mc_seat not in dead:
            b.bad(("mc",), "the MC is a player whose Participant is dead")
        elif mc_seat is not None:
            state.mc_index = mc_seat
    if state.mc_index >= 0 and state.mc_index not in state.mc_holders:
        b.bad(("mc_holders",), f"the MC {state.seat_of(state.mc_index)} must be among mc_holders")
    first = b.seat(position["first"], ("first",)) if "first" in position else (living[0] if living else 0)
    if first is not None and first not in living and living:
        b.bad(("first",), "the First Player's Participant must be alive")
    state.first = first or 0
    state.round = b.number(position, "round", (), 1, 1, d.round_limit)
    state.keys_spent = b.number(position, "keys_spent", (), 0, 0)

    # -- the Killer
    path = ("killer",)
    entry = b.mapping(position.get("killer"), path, KILLER_KEYS, "the Killer")
    k_cell = b.cell(entry["room"], (*path, "room"), cards) if "room" in entry else state.idx(*state.lay["killer_cells"][0])
    killer = Killer(pos=standable(k_cell, (*path, "room"), "the Killer", face_down_ok=True) or 0)
    killer.hp = b.number(entry, "hp", path, d.killer_hp, 0, d.killer_hp_max)
    killer.rage = b.number(entry, "rage", path, 0, 0, len(d.rage) - 1)
    killer.stunned = b.flag(entry, "stunned", path, killer.hp == 0)
    if killer.hp == 0 and not killer.stunned:
        b.bad((*path, "stunned"), "a Killer at 0 HP is dead, and so Stunned")
    killer.key_given = b.flag(entry, "key_given", path, False)
    killer.carried = b.number(entry, "carried", path, 0, 0, 2)
    killer.two_keys = b.flag(entry, "two_keys", path, False)
    state.killer = killer

    for i, room in enumerate(board):
        if room.temp and not any(p.alive and p.pos == i for p in state.pp):
            b.bad(("rooms", room.card, "temp"), f"{room.card} is closed around a Participant, but no living Participant is in it")

    # -- decks and discards
    decks = b.mapping(position.get("decks"), ("decks",), ("rewards", "mc", "gifts"), "decks")
    discards = b.mapping(position.get("discards"), ("discards",), ("rewards", "mc"), "discards")
    mc_full = list(d.solo_deck) if state.solo else [c for c in d.mc_deck if c not in set(state.lay.get("remove_mc", []))]
    mc_known = sorted(set(mc_full))
    top = b.pile(decks.get("rewards"), ("decks", "rewards"), list(d.reward_symbols), "Reward card")
    gone = b.pile(discards.get("rewards"), ("discards", "rewards"), list(d.reward_symbols), "Reward card")
    state.reward_deck = top + b.deal(d.reward_deck, [(("decks", "rewards"), top), (("discards", "rewards"), gone)], "Reward deck")
    state.reward_discard = gone
    top = b.pile(decks.get("mc"), ("decks", "mc"), mc_known, "MC card")
    gone = b.pile(discards.get("mc"), ("discards", "mc"), mc_known, "MC card")
    state.mc_deck = top + b.deal(mc_full, [(("decks", "mc"), top), (("discards", "mc"), gone)], "MC deck")
    state.mc_discard = gone
    top = b.pile(decks.get("gifts"), ("decks", "gifts"), list(d.gifts), "MC Gift")
    used = b.pile(position.get("used_gifts"), ("used_gifts",), list(d.gifts), "MC Gift")
    in_rooms = [room.gift for room in board if room.gift]
    state.gift_pile = top + b.deal(d.gift_pool, [(("decks", "gifts"), top), (("used_gifts",), used),
                                                 (("rooms",), in_rooms)], "MC Gift pool")

    state.rooms = board
    held = sum(p.keys for p in state.pp)
    state.keys_made = held + state.keys_spent
    if not b.problems and players > 1:
        for walker, target in cut_off(state.lock_grid())[:1]:
            b.bad(("rooms",), f"the locked rooms cut {list(walker)} off from {list(target)}, "
                              "which every Participant and the Killer must be able to reach")
    if b.problems:
        raise PositionError(b.problems)
    state.milestones = set()
    if held or state.keys_spent:
        state.milestones.add("key")
    if dead:
        state.milestones.add("death")
    if killer.key_given:
        state.milestones.add("killer-dies")
    if any(r.up and d.rooms[r.card].mode == "exit" for r in board):
        state.milestones.add("exit-revealed")
    state.pool, state.ctx, state.turn, state.mc = [], {}, {}, {}
    state._need, state._legal, state.result = None, None, None
    state._begin_turn()
    state._advance()
    state._round_began = False
    state.anchor_len = 0
    state.remake = lambda: build_position(spec, players, options, position)
    state._events = []
    return state


def _multiset_minus(full: Sequence[str], *taken: Sequence[str]) -> list[str]:
    left = list(full)
    for part in taken:
        for card in part:
            if card in left:
                left.remove(card)
    return left


def describe_position(state: GameState) -> dict[str, Any]:
    """A state as a ``position`` mapping; building it gives back the same state when the state is
    at the start of a round's action selection. A state later in a round is described at that
    start (``lead_up`` gives the recorded actions from there), or, when the round's start is not
    known, as it stands (building it then starts the round's selection afresh)."""
    assert isinstance(state, HallsState)
    if state.anchor_len < 0 or state.trail_len == state.anchor_len:
        return _describe(state)
    start = state.remake()
    for _actor, action in state.actions_taken()[: state.anchor_len]:
        start.apply(action)
    out = _describe(start)
    out["note"] = (f"described at the start of round {start.round}'s action selection; "
                   f"{state.trail_len - state.anchor_len} recorded action(s) lead on from there")
    return out


def lead_up(state: GameState) -> list[tuple[str, Action]]:
    """(actor, action) recorded from the position ``describe_position`` gives to the state itself."""
    assert isinstance(state, HallsState)
    return state.actions_taken()[state.anchor_len:] if state.anchor_len >= 0 else []


def _describe(s: HallsState) -> dict[str, Any]:
    if s.stage.startswith("setup"):
        return {"note": "described during setup, before the board is dealt: this is the default position"}
    out: dict[str, Any] = {}
    if s.round != 1:
        out["round"] = s.round
    first = s.first
    if not s.pp[first].alive:
        # Mid-round, after the First Player's death: the card goes on to the next living Participant.
        first = next((k for k in [(s.first + n) % s.players for n in range(1, s.players + 1)] if s.pp[k].alive), first)
    out["first"] = s.seat_of(first)
    rooms: dict[str, Any] = {}
    for i, room in enumerate(s.rooms):
        entry: dict[str, Any] = {"at": list(s.cell(i))}
        if room.locked:
            entry["locked"] = True
        elif not room.up:
            entry["up"] = False
        for key in ("temp", "exhausted"):
            if getattr(room, key):
                entry[key] = True
        if room.covered:
            entry["covered"] = sorted(room.covered)
        if room.gift:
            entry["gift"] = room.gift
        rooms[room.card] = entry
    out["rooms"] = rooms
    parts: dict[str, Any] = {}
    for p in s.pp:
        entry = {"room": list(s.cell(p.pos)), "hp": p.hp, "resolve": p.resolve}
        if p.items:
            entry["items"] = list(p.items)
        for key in ("bullets", "shells", "keys"):
            if getattr(p, key):
                entry[key] = getattr(p, key)
        if p.panic:
            entry["panic"] = True
        if not p.alive:
            entry["alive"] = False
        if p.searched:
            entry["searched"] = True
        parts[p.seat] = entry
    out["participants"] = parts
    k = s.killer
    killer: dict[str, Any] = {"room": list(s.cell(k.pos)), "hp": k.hp, "rage": k.rage, "stunned": k.stunned}
    for key in ("key_given", "carried", "two_keys"):
        if getattr(k, key):
            killer[key] = getattr(k, key)
    out["killer"] = killer
    out["decks"] = {"rewards": list(s.reward_deck), "mc": list(s.mc_deck), "gifts": list(s.gift_pile)}
    discards = {name: list(pile) for name, pile in (("rewards", s.reward_discard), ("mc", s.mc_discard)) if pile}
    if discards:
        out["discards"] = discards
    used = _multiset_minus(s.d.gift_pool, s.gift_pile, [r.gift for r in s.rooms if r.gift])
    if used:
        out["used_gifts"] = used
    if s.dead_order:
        out["dead"] = [s.seat_of(k) for k in s.dead_order]
        out["mc"] = s.seat_of(s.mc_index)
        out["mc_holders"] = [s.seat_of(k) for k in s.mc_holders]
    if s.keys_spent:
        out["keys_spent"] = s.keys_spent
    if s.stage != "select" or s.turn.get("chosen"):
        out["note"] = (f"described as it stands in round {s.round} (stage {s.stage}); building it starts the "
                       "round's action selection afresh")
    return out

