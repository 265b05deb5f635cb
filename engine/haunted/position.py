"""Haunted positions: a state built directly from a dispute scenario's ``position`` mapping, at the
start of the active player's turn. Every key and default is listed in docs/haunted.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.core import Action, Event
from hauntcheck.engine.haunted.model import QUESTIONS
from hauntcheck.engine.haunted.state import HauntedState
from hauntcheck.engine.positions import PathKey, Problems, guess
from hauntcheck.engine.spec import GameSpec

POSITION_KEYS = ("players", "table", "deck", "discard", "active", "note")
PLAYER_KEYS = ("stronger", "room", "will", "body", "fear", "will_locked", "questions", "secret_doors", "trapped", "escaped")
CARD_KEYS = ("face_up", "adjacent")


def build_position(spec: GameSpec, players: int, options: Mapping[str, Any], position: Mapping[str, Any]) -> HauntedState:
    """A Haunted state at the start of the active player's turn, built from a scenario's
    ``position``; raises PositionError naming every bad path.

    The game is set up as in play up to the players' choice of their stronger stat; then the table,
    the players, the deck and the discards are those the position gives, with no deal still to come
    and no starting-room effect still to apply. The Aces face up on the table or discarded are the
    Exits revealed. The active player's turn then begins as in play (a trapped player draws, a player
    who can neither move nor open a Door passes, before the scenario's first step)."""
    from hauntcheck.engine.haunted import new_game
    from hauntcheck.engine.scenario import PositionError

    try:
        state = new_game(spec, players, options)
    except ValueError as exc:
        raise PositionError([((), str(exc))]) from None
    b = Problems()
    if not isinstance(position, Mapping):
        raise PositionError([((), f"a position is a mapping, got {position!r}")])
    b.mapping(position, (), POSITION_KEYS, "the position")
    st = state.st
    cards = st.cards
    seats = state.seats()
    raw_players = b.mapping(position.get("players"), ("players",), seats, "players (by seat)")
    entries = {seat: b.mapping(raw_players.get(seat), ("players", seat), PLAYER_KEYS, f"player {seat}") for seat in seats}

    # -- the stronger stat, chosen as in play (it sets the starting stats)
    for seat in seats:
        stat = entries[seat].get("stronger", "body")
        if stat not in ("body", "will"):
            b.bad(("players", seat, "stronger"), f"stronger is body or will, got {stat!r}")
            stat = "body"
        state.apply(Action.of("stronger", stat=stat))

    # -- the table: the centre card, and every card listed (face up unless said otherwise)
    table: dict[str, bool] = {st.centre: True}
    adjacent: dict[str, set[str]] = {st.centre: set()}
    raw_table = position.get("table") or {}
    if not isinstance(raw_table, Mapping):
        b.bad(("table",), f"table maps card ids to {{face_up, adjacent}}, got {raw_table!r}")
        raw_table = {}
    for card in raw_table:
        if card not in cards:
            b.bad(("table", card), f"unknown card {card!r}{guess(card, cards)}")
            continue
        entry = b.mapping(raw_table[card], ("table", card), CARD_KEYS, f"card {card}")
        table[card] = b.flag(entry, "face_up", ("table", card), True)
        adjacent.setdefault(card, set())
    for card in raw_table:
        if card not in table:
            continue
        entry = raw_table[card] if isinstance(raw_table[card], Mapping) else {}
        for n, other in enumerate(b.ids(entry.get("adjacent"), ("table", card, "adjacent"), cards, "card")):
            if other not in table:
                b.bad(("table", card, "adjacent", n), f"{other} is not on the table (list it under table)")
            elif other == card:
                b.bad(("table", card, "adjacent", n), f"{card} cannot be adjacent to itself")
            else:
                adjacent[card].add(other)
                adjacent[other].add(card)
    for card, near in adjacent.items():
        if len(near) > st.setup.edges:
            b.bad(("table", card), f"{card} has {len(near)} adjacent cards; a card has {st.setup.edges} edges")

    # -- the players
    placed: dict[str, tuple[PathKey, str]] = {c: (("table", c), "the table") for c in table}
    for seat, p in zip(seats, state.players, strict=True):
        entry, path = entries[seat], ("players", seat)
        room = entry.get("room", st.centre)
        if room not in table:
            b.bad((*path, "room"), f"{seat} must stand on a card on the table, got {room!r}{guess(room, table)}")
            room = st.centre
        p.pos = str(room)
        p.will = b.number(entry, "will", path, p.will, 0)
        p.body = b.number(entry, "body", path, p.body, 0)
        p.fear = b.number(entry, "fear", path, p.fear, 0)
        p.locked = b.flag(entry, "will_locked", path, False)
        p.questions = b.ids(entry.get("questions"), (*path, "questions"), QUESTIONS, "question")
        p.trapped = b.flag(entry, "trapped", path, False)
        p.escaped = b.flag(entry, "escaped", path, False)
        p.first_turn = False
        if p.trapped and cards[p.pos].role != "trap":
            b.bad((*path, "trapped"), f"{seat} can be trapped only on a Joker, not on {p.pos}")
        if not table.get(p.pos, True):
            b.bad((*path, "room"), f"{seat} cannot stand on the face-down card {p.pos} (entering turns it face up)")
        p.secret = []
        for n, card in enumerate(b.ids(entry.get("secret_doors"), (*path, "secret_doors"), cards, "card")):
            if card in placed:
                b.bad((*path, "secret_doors", n), f"{card} is already in {placed[card][1]}")
            else:
                placed[card] = ((*path, "secret_doors", n), f"{seat}'s Secret Doors")
                p.secret.append(card)
    discard = b.ids(position.get("discard"), ("discard",), cards, "card")
    for n, card in enumerate(discard):
        if card in placed:
            b.bad(("discard", n), f"{card} is already in {placed[card][1]}")
        placed[card] = (("discard", n), "the discards")
    out = list(state.out)  # the solo game's Jokers
    if "deck" in position:
        deck = b.ids(position["deck"], ("deck",), cards, "card")
        for n, card in enumerate(deck):
            if card in placed or card in out:
                b.bad(("deck", n), f"{card} is already in {placed[card][1] if card in placed else 'the cards left out'}")
        out += [c for c in st.canonical if c not in placed and c not in deck and c not in out]
    else:
        deck = [c for c in st.canonical if c not in placed and c not in out]
    active = position.get("active", "P1")
    if active not in seats:
        b.bad(("active",), f"active is a seat of this {players}-player game ({', '.join(seats)}), got {active!r}")
        active = "P1"
    elif state.players[seats.index(active)].escaped:
        b.bad(("active",), f"{active} has escaped and takes no more turns")
    b.raise_any()

    state.table, state.adj = table, adjacent
    state.deck = sorted(set(deck), key=state._key)
    state.discard, state.out = discard, sorted(out, key=state._key)
    state.held_out, state.deal, state.aside_left = [], [], 0
    state.exits_revealed = sorted((c for c in [*table, *discard] if cards[c].role == "way-out" and table.get(c, True)), key=state._key)
    state.active = seats.index(str(active))
    state.step = "choose"
    state._legal = None
    events: list[Event] = []
    state._begin_turn(events)
    return state
