"""A position's parts put into a new game the engine set up (:class:`_PartsBuilder`).

Explorers are chosen (seats without one take the first free character), stack tiles are placed
(``rooms``, ``aside``, ``stack``, exhausted and closed floors), explorers stand in their rooms (a
side of a barrier room), traits are set on their tracks, cards are held, kept and known on top of
the stacks, tokens and passages lie in the house, and the engine's bookkeeping is stated or derived.
Every card and tile is taken from where setup left it, so nothing is in two places; every problem
is reported with its path in the position. A stated ``haunt`` is put in place by :mod:`.haunt_phase`
(declared at the end of :class:`_PartsBuilder`, since the bookkeeping hands it over).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.betrayal.model import FLOORS, SIDES, TRAITS
from hauntcheck.engine.betrayal.position.keys import (
    CARD_KINDS,
    Path,
    Problems,
    _known_ability,
    _near,
    _shown,
    _trait_index,
    derived_set_bonus,
    derived_token_cards,
    keep_spec,
    known_tokens,
    status_spec,
    token_source,
)
from hauntcheck.engine.betrayal.state import BetrayalState
from hauntcheck.engine.core import act


class _PartsBuilder:
    """A position's parts put into a new game: explorers, rooms, where everyone is, traits, cards, tokens, bookkeeping."""

    def __init__(self, state: BetrayalState, position: Mapping[str, Any], problems: Problems, checked: bool = False) -> None:
        self.st = state
        self.t = state.t
        self.pos = position
        self.problems = problems
        self.taken: dict[str, Path] = {}
        self.live = False  # the position is in the haunt phase of a playable haunt
        #: Built before with its invariants kept: a rebuild does not judge them again.
        self.checked = checked

    def bad(self, path: Path, message: str) -> None:
        self.problems.append((path, message))

    def section(self, key: str, what: str) -> Mapping[Any, Any]:
        """The position's mapping under ``key`` ({} when absent); anything else is reported as
        ``key maps <what>`` rather than ignored."""
        raw = self.pos.get(key)
        if raw is None:
            return {}
        if not isinstance(raw, Mapping):
            self.bad((key,), f"{key} maps {what}")
            return {}
        return raw

    def seat_map(self, key: str) -> dict[str, Any]:
        """The position's mapping under ``key`` from seats to values (unknown seats reported)."""
        out = {}
        for seat, value in self.section(key, f"seats ({', '.join(self.st.seat_ids)}) to values").items():
            if seat not in self.st.seat_ids:
                self.bad((key, seat), f"no seat {seat!r} in a {self.st.n}-player game ({', '.join(self.st.seat_ids)})")
            else:
                out[str(seat)] = value
        return out

    def room_list(self, path: Path, value: Any, placed: bool = True) -> list[str]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.bad(path, "expected a list of room ids")
            return []
        out = []
        for i, room in enumerate(value):
            if room not in self.t.rooms:
                self.bad((*path, i), f"unknown room {room!r}")
            elif placed and room not in self.st.house:
                self.bad((*path, i), f"{room} is not in the house")
            else:
                out.append(str(room))
        return out

    def take(self, card: Any, path: Path, kinds: tuple[str, ...] = CARD_KINDS) -> str | None:
        """Take a card out of its stack for a place in the position (each card is in one place)."""
        if not isinstance(card, str) or card not in self.t.cards:
            hint = _near(str(card), self.t.cards)
            self.bad(path, f"unknown card {card!r}" + (f" (did you mean {hint}?)" if hint else ""))
            return None
        kind = self.t.cards[card].type
        if kind not in kinds:
            self.bad(path, f"{card} is an {kind} card; expected {' or '.join(kinds)}")
            return None
        if card in self.taken:
            where = ".".join(str(p) for p in self.taken[card])
            self.bad(path, f"{card} is already placed at position.{where}")
            return None
        self.taken[card] = path
        self.st.decks[kind].remove(card)
        return card

    def choose_explorers(self) -> bool:
        st, t = self.st, self.t
        before = len(self.problems)
        given = self.seat_map("explorers")
        cards_in_play: dict[str, str] = {}
        for seat, xid in given.items():
            if xid not in t.explorers:
                hint = _near(str(xid), t.explorers)
                self.bad(("explorers", seat), f"unknown explorer {xid!r}" + (f" (did you mean {hint}?)" if hint else ""))
            elif t.explorers[xid].card in cards_in_play:
                other = cards_in_play[t.explorers[xid].card]
                self.bad(("explorers", seat), f"{xid} is on the same character card as {other}")
            else:
                cards_in_play[t.explorers[xid].card] = str(xid)
        if len(self.problems) > before:
            return False
        st.setup_only()
        for seat in st.seat_ids:
            xid = given.get(seat)
            if xid is None:
                xid = next(x.id for x in t.explorers_by_id() if x.card not in cards_in_play
                           and x.id not in given.values())
                cards_in_play[t.explorers[xid].card] = xid
            st.apply(act("choose", "explorer", str(xid)))
        return True

    def place_rooms(self) -> None:
        st, t = self.st, self.t
        for room, where in self.section("rooms", "room ids to {floor, at: [x, y], rotation}").items():
            path: Path = ("rooms", room)
            if room not in t.rooms:
                hint = _near(str(room), t.rooms)
                self.bad(path, f"unknown room {room!r}" + (f" (did you mean {hint}?)" if hint else ""))
                continue
            if t.rooms[room].placement != "stack":
                self.bad(path, f"{room} is a starting tile; it is always where setup puts it")
                continue
            if isinstance(where, list) and len(where) == 3:
                floor, at, rotation = where
            elif isinstance(where, Mapping):
                floor, at, rotation = where.get("floor"), where.get("at"), where.get("rotation", 0)
                extra = sorted(set(where) - {"floor", "at", "rotation"})
                if extra:
                    self.bad((*path, extra[0]), f"unknown key {extra[0]!r}; a room has floor, at and rotation")
            else:
                self.bad(path, "a room is {floor, at: [x, y], rotation} or [floor, [x, y], rotation]")
                continue
            if floor not in FLOORS:
                self.bad((*path, "floor"), f"floor must be one of {', '.join(FLOORS)}, not {floor!r}")
                continue
            if floor not in t.rooms[room].floors:
                self.bad((*path, "floor"), f"{t.rooms[room].name} can only go on {', '.join(t.rooms[room].floors)}, not {floor}")
                continue
            if not (isinstance(at, list) and len(at) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in at)):
                self.bad((*path, "at"), f"at is a cell [x, y] of whole numbers (north is +y), not {at!r}")
                continue
            if rotation not in (0, 1, 2, 3) or isinstance(rotation, bool):
                self.bad((*path, "rotation"), f"rotation is 0-3 quarter turns clockwise, not {rotation!r}")
                continue
            cell = (int(at[0]), int(at[1]))
            there = st.house.room_at(floor, cell)
            if there is not None:
                self.bad((*path, "at"), f"{floor} {list(cell)} is already taken by {there}")
                continue
            st.stack.remove(room)
            st.house.place(room, floor, cell, int(rotation))
        for i, room in enumerate(self.room_list(("removed_tiles",), self.pos.get("removed_tiles"), placed=False)):
            if room in st.stack:
                st.stack.remove(room)
            elif room in st.house and t.rooms[room].placement == "starting":
                st.house.remove(room)
            else:
                self.bad(("removed_tiles", i), f"{room} is neither in the room stack nor a starting tile (placed, or "
                         "listed twice)")
                continue
            st.removed_tiles.append(room)
        closed = self.pos.get("closed_floors") or []
        if not isinstance(closed, list) or any(f not in FLOORS for f in closed):
            self.bad(("closed_floors",), f"closed_floors is a list of floors: {', '.join(FLOORS)}")
        else:
            st.close_floors(str(f) for f in closed)
        for i, room in enumerate(self.room_list(("aside",), self.pos.get("aside"), placed=False)):
            if room not in st.stack:
                self.bad(("aside", i), f"{room} is not in the room stack (placed already, or listed twice)")
            else:
                st.stack.remove(room)
                st.aside.append(room)
        exhausted = self.pos.get("exhausted_floors") or []
        if not isinstance(exhausted, list) or any(f not in FLOORS for f in exhausted):
            self.bad(("exhausted_floors",), f"exhausted_floors is a list of floors: {', '.join(FLOORS)}")
        elif exhausted:
            # shorthand: every tile left that fits one of these floors is out of the game
            for room in [r for r in st.stack + st.aside if any(f in t.rooms[r].floors for f in exhausted)]:
                (st.stack if room in st.stack else st.aside).remove(room)
                st.removed_tiles.append(room)
        if self.pos.get("stack") == "exhausted":
            # shorthand: the stack has run out; every tile not placed is in the set-aside pile
            st.aside.extend(st.stack)
            st.stack = []
        elif "stack" in self.pos:
            want = self.room_list(("stack",), self.pos.get("stack"), placed=False)
            if sorted(want) != sorted(st.stack):
                self.bad(("stack",), "the room stack is every tile neither placed nor set aside: "
                         f"{', '.join(sorted(st.stack))}")
            else:
                st.stack = list(want)
        top = self.pos.get("room_top")
        if top is not None:
            if top not in st.stack:
                self.bad(("room_top",), f"room_top must be a tile in the room stack, not {top!r}")
            else:
                st.room_top = str(top)
        st._tile_version += 1

    def place_explorers(self) -> None:
        st, t = self.st, self.t
        for seat, where in self.seat_map("where").items():
            path: Path = ("where", seat)
            room, side = (where[0], where[1]) if isinstance(where, list) and len(where) == 2 else (where, None)
            if not isinstance(room, str) or not (side is None or isinstance(side, str)):
                self.bad(path, f"where is a room, or [room, side], not {_shown(where)}")
                continue
            if room not in t.rooms:
                hint = _near(str(room), t.rooms)
                self.bad(path, f"unknown room {room!r}" + (f" (did you mean {hint}?)" if hint else ""))
                continue
            if room not in st.house:
                self.bad(path, f"{room} is not in the house (place it under rooms)")
                continue
            barrier = t.rooms[room].barrier
            rot = st.house.spots[room].rotation
            sides = [SIDES[(b + rot) % 4] for b in barrier] if len(barrier) >= 2 else []
            part = 0
            if side is not None:
                if side not in sides:
                    self.bad(path, f"{t.rooms[room].name} has no {side!r} side here (sides: {', '.join(sides) or 'none'})")
                    continue
                part = sides.index(side)
            st.ex[seat].room = str(room)
            st.ex[seat].part = part
        low = -1 if self.pos.get("haunt") else 0
        for seat, values in self.seat_map("traits").items():
            if not isinstance(values, Mapping):
                self.bad(("traits", seat), "traits maps trait names to values")
                continue
            track = t.explorers[st.ex[seat].id].traits
            for trait, value in values.items():
                path = ("traits", seat, trait)
                if trait not in TRAITS:
                    self.bad(path, f"unknown trait {trait!r}; traits are {', '.join(TRAITS)}")
                    continue
                vals = track[trait].values
                index = _trait_index(vals, track[trait].start, value)
                if index is None or not low <= index < len(vals):
                    shown = f"{list(vals)} (or {{index: 0-{len(vals) - 1}}}" + (", or skull)" if low < 0 else ")")
                    self.bad(path, f"{value!r} is not on {t.explorers[st.ex[seat].id].name}'s {trait} track {shown}")
                    continue
                st.ex[seat].idx[trait] = index
        for seat, used in self.seat_map("used").items():
            if not isinstance(used, list) or not all(isinstance(u, str) and "#" in u and ":" in u for u in used):
                self.bad(("used", seat), "used lists ability keys like room:chapel#0")
                continue
            unknown = [(i, u) for i, u in enumerate(used) if not _known_ability(t, u)]
            for i, key in unknown:
                self.bad(("used", seat, i), f"{key!r} is not an ability of the game (room:<room>#<n> or card:<card>#<n>, "
                         "n counting the room's or card's abilities from 0)")
            if unknown:
                continue
            st.ex[seat].used = set(used)
        dead = self.pos.get("dead") or []
        if dead and not self.pos.get("haunt"):
            self.bad(("dead",), "nobody can die before the haunt has begun")
        elif isinstance(dead, list):
            for i, seat in enumerate(dead):
                if seat not in st.ex:
                    self.bad(("dead", i), f"no seat {seat!r}")
                else:
                    st.ex[seat].dead = True

    def place_cards(self) -> None:
        st, t = self.st, self.t
        for seat, cards in self.seat_map("cards").items():
            if not isinstance(cards, list):
                self.bad(("cards", seat), "cards lists the omens and items held")
                continue
            for i, card in enumerate(cards):
                if self.take(card, ("cards", seat, i), ("omen", "item")):
                    st.ex[seat].cards.append(card)
        for seat, kept in self.seat_map("kept").items():
            if not isinstance(kept, list):
                self.bad(("kept", seat), "kept lists event cards kept in front of the explorer")
                continue
            for i, card in enumerate(kept):
                if not self.take(card, ("kept", seat, i), ("event",)):
                    continue
                st.ex[seat].kept.append(card)
                spec = keep_spec(t, card)
                if spec is not None:
                    st.kept_until[card] = tuple(spec.get("until", ()))
                    if spec.get("abilities"):
                        st.kept_abilities[card] = tuple(spec["abilities"])
        for seat, status in self.seat_map("status").items():
            if not isinstance(status, Mapping):
                self.bad(("status", seat), "status maps a status name to its failed escape tries")
                continue
            for name, fails in status.items():
                path: Path = ("status", seat, name)
                kept_card = next((c for c in st.ex[seat].kept if (status_spec(t, str(name), c) or ("",))[0] == c), None)
                found = status_spec(t, str(name), kept_card)
                if found is None:
                    self.bad(path, f"no card gives the status {name!r}")
                    continue
                if not isinstance(fails, int) or fails < 0:
                    self.bad(path, "a status counts its failed escape tries (0 or more)")
                    continue
                st.status_rules[str(name)] = dict(found[1])
                st.ex[seat].status[str(name)] = fails
                if kept_card is not None:
                    st.status_cards[(seat, str(name))] = kept_card
        for seat, over in self.seat_map("over").items():
            if not isinstance(over, Mapping):
                self.bad(("over", seat), "over maps 'trait/card' to the points noted over the top")
                continue
            for key, points in over.items():
                trait, _, card = str(key).partition("/")
                if trait not in TRAITS or card not in st.ex[seat].cards:
                    self.bad(("over", seat, key), f"{key!r} must be trait/card for a card {seat} holds")
                elif not isinstance(points, int) or points <= 0:
                    self.bad(("over", seat, key), "points over the top are a positive number")
                else:
                    st.ex[seat].over[str(key)] = points
        for room, cards in self.section("piles", "rooms to the cards in their item pile").items():
            if room not in st.house:
                self.bad(("piles", room), f"{room!r} is not in the house")
                continue
            for i, card in enumerate(cards or []):
                if self.take(card, ("piles", room, i), ("omen", "item")):
                    st.piles.setdefault(str(room), []).append(card)
        for kind, cards in self.section("discards", f"card kinds ({', '.join(CARD_KINDS)}) to discarded cards").items():
            if kind not in CARD_KINDS:
                self.bad(("discards", kind), f"discards are by kind: {', '.join(CARD_KINDS)}")
                continue
            for i, card in enumerate(cards or []):
                if self.take(card, ("discards", kind, i), (kind,)):
                    st.discards[kind].append(card)
        token_cards = self.pos.get("token_cards")
        if token_cards is not None:
            for i, card in enumerate(token_cards):
                if self.take(card, ("token_cards", i)):
                    st.token_cards.append(card)
        if "decks" in self.pos:
            decks = self.section("decks", f"card kinds ({', '.join(CARD_KINDS)}) to their stacks, top first")
            for kind in CARD_KINDS:
                want = list(decks.get(kind) or [])
                if sorted(want) != sorted(st.decks[kind]):
                    self.bad(("decks", kind), f"the {kind} stack holds every {kind} card placed nowhere else")
                else:
                    st.decks[kind] = want

    def place_deck_tops(self) -> None:
        st = self.st
        for kind, cards in self.section("deck_tops", "omen|item|event to the cards known on top, top first").items():
            if kind not in CARD_KINDS or not isinstance(cards, list):
                self.bad(("deck_tops", kind), "deck_tops maps omen|item|event to the cards known on top, top first")
                continue
            for i, card in enumerate(cards):
                if card not in st.decks[kind]:
                    self.bad(("deck_tops", kind, i), f"{card!r} is not in the {kind} stack")
            st.deck_tops[kind] = [str(c) for c in cards]

    def place_tokens(self) -> None:
        st, t = self.st, self.t
        for room, names in self.section("tokens", "rooms to token names").items():
            if room not in st.house:
                self.bad(("tokens", room), f"{room!r} is not in the house")
                continue
            if not isinstance(names, list):
                self.bad(("tokens", room), "tokens maps a room to a list of token names")
                continue
            for i, name in enumerate(names):
                if name not in known_tokens(t):
                    hint = _near(str(name), known_tokens(t))
                    self.bad(("tokens", room, i), f"unknown token {name!r}" + (f" (did you mean {hint}?)" if hint else "")
                             + f"; tokens: {', '.join(sorted(known_tokens(t)))} (a haunt's tokens go under haunt.tokens)")
                    continue
                st.tokens.setdefault(str(room), []).append(str(name))
                _, abilities = token_source(t, str(name))
                if abilities:
                    st.token_abilities[str(name)] = abilities
        for i, link in enumerate(self.pos.get("links") or []):
            if not (isinstance(link, list) and len(link) == 4 and all(r in st.house for r in link[:2])
                    and isinstance(link[2], int)):
                self.bad(("links", i), "a link is [room, room, cost, token] between rooms in the house")
                continue
            st.links.append((str(link[0]), str(link[1]), int(link[2]), str(link[3])))
        for i, p in enumerate(self.pos.get("passages") or []):
            if not (isinstance(p, list) and len(p) == 3 and all(r in st.house for r in p[:2])):
                self.bad(("passages", i), "a passage is [room, room, token] between rooms in the house")
                continue
            st.passages.append((str(p[0]), str(p[1]), str(p[2])))
        if self.pos.get("token_cards") is None:
            for card in derived_token_cards(t, st.tokens):
                if card not in self.taken:
                    self.taken[card] = ("tokens",)
                    st.decks["event"].remove(card)
                    st.token_cards.append(card)

    def bookkeeping(self) -> None:
        st, t = self.st, self.t
        for key in ("game_used", "item_raised", "open_boxes", "masks_worn", "set_bonus"):
            value = self.pos.get(key)
            if value is None:
                continue
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                self.bad((key,), f"{key} is a list of names, as in snapshot()")
                continue
            getattr(st, key).clear()
            getattr(st, key).update(value)
        if self.pos.get("set_bonus") is None:
            st.set_bonus.update(derived_set_bonus(st))
        for seat, total in self.section("stored_rolls", "seats to a roll total").items():
            if seat not in st.ex or not isinstance(total, int):
                self.bad(("stored_rolls", seat), "stored_rolls maps seats to a roll total")
            else:
                st.stored_rolls[str(seat)] = total
        for key, table, spec_of in (("kept_with_abilities", st.kept_abilities, lambda c: (keep_spec(t, c) or {}).get("abilities")),
                                    ("tokens_with_abilities", st.token_abilities, lambda n: token_source(t, n)[1])):
            value = self.pos.get(key)
            if value is None:
                continue
            for i, name in enumerate(value if isinstance(value, list) else []):
                if key == "kept_with_abilities" and name not in t.cards:
                    self.bad((key, i), f"unknown card {name!r}")
                    continue
                abilities = spec_of(name)
                if abilities:
                    table[str(name)] = tuple(abilities)
        out = len(t.deck("omen")) - len(st.decks["omen"])
        omens = self.pos.get("omens_drawn", out)
        if omens != out:
            self.bad(("omens_drawn",), f"omens_drawn must be the number of omens out of the stack ({out})")
        st.omens_drawn = out
        haunt = self.pos.get("haunt")
        if haunt is not None:
            self.haunt(haunt)
        first = self.pos.get("first")
        if first is not None:
            if first not in st.seat_ids:
                self.bad(("first",), f"first must be one of {', '.join(st.seat_ids)}")
            else:
                st.first_seat = str(first)

    # Rules defined higher in the chain that rules lower down call (see the module docstring).

    def haunt(self, haunt: Any) -> None:
        """Defined by :class:`~hauntcheck.engine.betrayal.position.haunt_phase._HauntBuilder`."""
        raise NotImplementedError
