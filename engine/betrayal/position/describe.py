""":func:`describe_position`: a state described back as a position (``hauntcheck report``).

For a state at a turn decision, ``build_position(describe_position(state))`` has the same
``snapshot()``. A state in the middle of a process (a die roll, a tile being placed) is described
at the last turn decision before it, and :func:`lead_up` gives the recorded actions from there to
the state.
"""

from __future__ import annotations

from typing import Any

from hauntcheck.engine.betrayal.haunt import HauntState
from hauntcheck.engine.betrayal.model import SIDES, TRAITS
from hauntcheck.engine.betrayal.position.keys import (
    HAUNT_FIELDS,
    SEAT_KEYS,
    TURN_FLAGS,
    TURN_INTS,
    _trait_index,
    derived_set_bonus,
    derived_token_cards,
    keep_spec,
    token_source,
)
from hauntcheck.engine.betrayal.state import TURN_PROMPT, BetrayalState
from hauntcheck.engine.core import Action, GameState


def at_turn_prompt(state: BetrayalState) -> bool:
    req = state._req
    return req is not None and req.what == TURN_PROMPT and req.actor == state.current


def describe_position(state: GameState) -> dict[str, Any]:
    """The position of a Betrayal state (for ``hauntcheck report``).

    A state in the middle of a process (a die roll, a tile being placed) is described at the last
    turn decision before it; ``note`` then says how many recorded actions lead on from there."""
    if not isinstance(state, BetrayalState):
        raise TypeError(f"not a Betrayal state: {type(state).__name__}")
    if at_turn_prompt(state) or state._req is None:
        return _describe(state)
    fresh = state.restart()
    last: int | None = 0 if at_turn_prompt(fresh) else None
    for i, action in enumerate(state.history):
        fresh.apply(action)
        if at_turn_prompt(fresh):
            last = i + 1
    if last is None:
        return {"note": "the game had not reached its first turn; this empty position is the start of the first turn"}
    back = state.restart()
    for action in state.history[:last]:
        back.apply(action)
    out = _describe(back)
    ahead = [str(a) for a in state.history[last:]]
    out["note"] = (f"described at the last turn decision before the moment; {len(ahead)} recorded action(s) "
                   f"lead on from here: {'; '.join(ahead)}")
    return out


def lead_up(state: GameState) -> list[tuple[str, Action]]:
    """(actor, action) of the recorded actions between the position ``describe_position`` gives and
    the state itself: empty at a turn decision. ``hauntcheck report`` can turn them into steps (player
    actions as ``do`` with ``by``, chance ones into ``chance``) so the skeleton reaches the moment."""
    if not isinstance(state, BetrayalState) or at_turn_prompt(state) or state._req is None:
        return []
    fresh = state.restart()
    out: list[tuple[str, Action]] = []
    for action in state.history:
        if at_turn_prompt(fresh):
            out = []
        actor = fresh.to_move()
        fresh.apply(action)
        out.append((str(actor), action))
    return out


def _describe(st: BetrayalState) -> dict[str, Any]:
    t = st.t
    if st.phase == "setup":
        return {}
    out: dict[str, Any] = {"explorers": {s: e.id for s, e in sorted(st.ex.items())}}
    rooms = {r: {"floor": sp.floor, "at": list(sp.cell), "rotation": sp.rotation}
             for r, sp in sorted(st.house.spots.items()) if t.rooms[r].placement == "stack"}
    if rooms:
        out["rooms"] = rooms
    if st.aside:
        out["aside"] = list(st.aside)
    if st.stack != sorted(st.stack):
        out["stack"] = list(st.stack)
    if st.room_top is not None:
        out["room_top"] = st.room_top
    if st.closed_floors:
        out["closed_floors"] = sorted(st.closed_floors)
    if st.removed_tiles:
        out["removed_tiles"] = list(st.removed_tiles)
    per_seat: dict[str, dict[str, Any]] = {k: {} for k in SEAT_KEYS}
    for seat, e in sorted(st.ex.items()):
        xdef = t.explorers[e.id]
        if e.room != "entrance-hall" or e.part:
            rdef = t.rooms[e.room]
            if len(rdef.barrier) >= 2:
                rot = st.house.spots[e.room].rotation
                per_seat["where"][seat] = [e.room, SIDES[(rdef.barrier[e.part] + rot) % 4]]
            else:
                per_seat["where"][seat] = e.room
        traits: dict[str, Any] = {}
        for trait in TRAITS:
            track = xdef.traits[trait]
            i = e.idx[trait]
            if i == track.start:
                continue
            if i < 0:
                traits[trait] = "skull"
            elif _trait_index(track.values, track.start, track.values[i]) == i:
                traits[trait] = track.values[i]
            else:
                traits[trait] = {"index": i, "value": track.values[i]}
        if traits:
            per_seat["traits"][seat] = traits
        if e.over:
            per_seat["over"][seat] = dict(sorted(e.over.items()))
        if e.cards:
            per_seat["cards"][seat] = list(e.cards)
        if e.kept:
            per_seat["kept"][seat] = list(e.kept)
        if e.status:
            per_seat["status"][seat] = dict(sorted(e.status.items()))
        if e.used:
            per_seat["used"][seat] = sorted(e.used)
    for key in SEAT_KEYS:
        if per_seat[key]:
            out[key] = per_seat[key]
    dead = [s for s, e in sorted(st.ex.items()) if e.dead]
    if dead:
        out["dead"] = dead
    piles = {r: list(c) for r, c in sorted(st.piles.items()) if c}
    if piles:
        out["piles"] = piles
    tokens = {r: list(c) for r, c in sorted(st.tokens.items()) if c}
    if tokens:
        out["tokens"] = tokens
    if st.links:
        out["links"] = [list(x) for x in st.links]
    if st.passages:
        out["passages"] = [list(x) for x in st.passages]
    discards = {k: list(v) for k, v in st.discards.items() if v}
    if discards:
        out["discards"] = discards
    if any(v != sorted(v) for v in st.decks.values()):
        out["decks"] = {k: list(v) for k, v in st.decks.items()}
    tops = {k: list(v) for k, v in st.deck_tops.items() if v}
    if tops:
        out["deck_tops"] = tops
    if st.token_cards != derived_token_cards(t, st.tokens):
        out["token_cards"] = list(st.token_cards)
    for key in ("game_used", "item_raised", "open_boxes", "masks_worn"):
        value = sorted(getattr(st, key))
        if value:
            out[key] = value
    if sorted(st.set_bonus) != derived_set_bonus(st):
        out["set_bonus"] = sorted(st.set_bonus)
    if st.stored_rolls:
        out["stored_rolls"] = dict(sorted(st.stored_rolls.items()))
    kept_now = {c for e in st.ex.values() for c in e.kept if (keep_spec(t, c) or {}).get("abilities")}
    if set(st.kept_abilities) != kept_now:
        out["kept_with_abilities"] = sorted(st.kept_abilities)
    tokens_now = {n for names in st.tokens.values() for n in names if token_source(t, n)[1]}
    if set(st.token_abilities) != tokens_now:
        out["tokens_with_abilities"] = sorted(st.token_abilities)
    if st.haunt is not None:
        h = st.haunt
        out["haunt"] = {"number": h["number"], "traitor": h["traitor"], "revealer": h["revealer"],
                        "omen": h["omen"], "room": h["room"]}
        if isinstance(st, HauntState) and st.hs is not None:
            # The haunt phase under way: its setup has run; state every field as snapshot() has it.
            phase = st.snapshot()["haunt_phase"]
            out["haunt"]["set_up"] = True
            for key in HAUNT_FIELDS:
                out["haunt"][key] = phase[key]
            out["monsters"] = [dict(m) for m in phase["monsters"]]
            extra: dict[str, Any] = {"fetches": [list(f) for f in st.fetches],
                                     "next_omen": [[side, list(cards)] for side, cards in st.next_omen],
                                     "rolled": st.rolled, "pending_losses": list(st.pending_losses),
                                     "hidden_traitor": phase["hidden_traitor"], "hidden_token": st.hidden_token,
                                     "trait_values": phase.get("trait_values"), "hero_kills": phase.get("hero_kills"),
                                     "collapse_by": st.collapse_by, "concealed": phase.get("concealed"),
                                     "converts": phase.get("converts"), "hands": phase.get("hands")}
            out["haunt"].update({k: v for k, v in extra.items() if v})
    if st.first_seat != _birthday_first(st):
        out["first"] = st.first_seat
    if st.turn_number != 1:
        out["turn_number"] = st.turn_number
    tn = st.turn
    turn: dict[str, Any] = {"seat": tn.seat, "begun": True}
    for key in TURN_INTS:
        if getattr(tn, key):
            turn[key] = getattr(tn, key)
    for key in TURN_FLAGS:
        if getattr(tn, key):
            turn[key] = True
    if tn.omens:
        turn["omens"] = [list(o) for o in tn.omens]
    for key in ("keys", "items_acted"):
        if getattr(tn, key):
            turn[key] = sorted(getattr(tn, key))
    if tn.last:
        turn["last"] = tn.last
    if tn.start_room != st.ex[tn.seat].room:
        turn["start_room"] = tn.start_room
    out["turn"] = turn
    return out


def _birthday_first(st: BetrayalState) -> str:
    return st._first_by_birthday()
