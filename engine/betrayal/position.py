"""Betrayal positions built directly, and described back (``GameDef.position`` / ``describe_position``).

A dispute scenario's ``position`` says only what matters to the dispute; every part it leaves out
takes the default listed here. The position is built through the engine itself: a new game is set
up by the engine (explorer choices, starting tiles, the stacks, the first player by the birthday
rule), then the listed parts are put in place and the engine's turn sequence is restarted at the
chosen turn. ``describe_position`` is the inverse (``hauntcheck report``): for a state at a turn
decision, ``build_position(describe_position(state))`` has the same ``snapshot()``.

Keys (all optional; see ``docs/disputes.md`` for a worked example):

``explorers``   seat -> explorer id. Default: seats without one take, in seat order, the first
                explorer (by id) whose character card is still free.
``rooms``       stack tiles in the house: room -> ``{floor, at: [x, y], rotation}`` or the snapshot
                form ``[floor, [x, y], rotation]``. North is +y; rotation is quarter turns
                clockwise. The starting tiles are always where setup puts them. Default: none.
``aside``       room tiles set aside (did not fit a floor). Default: none. Every other unplaced
                tile is in the room ``stack`` (drawn by chance in any order).
``room_top``    a tile looked at and known to be on top of the stack. Default: none.
``stack``       the room stack's tiles (all of them), or ``exhausted``: the stack has run out and
                every tile not placed is set aside (shorthand). Default: every tile not placed or aside.
``exhausted_floors`` shorthand for floors no tile is left for (``discover.floor-exhausted``):
                every tile left that fits one of them is out of the game (a tile that also fits
                another floor too: place it under ``rooms`` first if it matters). Default: none.
``closed_floors`` floors a haunt took out of play (``haunt.floor-removed``). Default: none.
``removed_tiles`` tiles out of the game with such a floor (starting tiles too). Default: none.
``where``       seat -> room, or ``[room, side]`` for a barrier room (side: the world side, e.g.
                ``west``, of the part the explorer is on). Default: the Entrance Hall.
``traits``      seat -> {trait: value}: a value on the track (the track position nearest the
                starting one that shows it) or ``{index: i}`` (0 = the lowest printed value;
                ``skull`` only once the haunt has begun). Default: the starting values.
``over``        seat -> {"trait/card": points} noted over the top by a held card. Default: none.
``cards``       seat -> omens and items held, in order. Default: none.
``kept``        seat -> event cards kept in front of the explorer (lasting effects). Default: none.
``status``      seat -> {status name: failed escape tries} (buried, stuck ...). Default: none.
``used``        seat -> once-per-game benefits already taken (ability keys such as
                ``room:chapel#0``: the room's or card's ability by its index; others are refused).
                Default: none.
``dead``        seats that have died (only after the haunt). Default: none.
``piles``       room -> item pile cards. ``tokens``: room -> token names (those the rooms' and
                cards' texts place; a haunt's own tokens go under ``haunt.tokens``). Default: none.
``links``       ``[room, room, cost, token]`` passages made by cards; ``passages``: ``[room, room,
                token]`` (a Revolving Wall). Default: none.
``discards``    {omen|item|event: [cards]}. Default: empty. The omen, item and event stacks hold
                every card not placed anywhere else.
``deck_tops``   {omen|item|event: [cards]} known on top of a stack, top first. Default: none.
``token_cards`` event cards staying in the house as tokens. Default: the event cards whose tokens
                lie in the house.
``game_used``, ``item_raised``, ``open_boxes``, ``masks_worn``, ``set_bonus``,
``stored_rolls``, ``kept_with_abilities``, ``tokens_with_abilities``: the engine's small
                bookkeeping, as in ``snapshot()``. Defaults: none, except ``set_bonus`` (every
                set bonus whose cards are held together is in force) and the two ``with_abilities``
                lists (derived from the kept cards and the tokens in the house).
``omens_drawn`` default: the omens out of the omen stack (any other value is refused).
``haunt``       ``{number, traitor, revealer, omen, room}``: the haunt has begun. Default: not yet.
                With a haunt, turns restart with the player left of the traitor (or revealer).
                For a haunt the engine plays (``haunt.plays``) the state is a real haunt phase: the
                engine runs the haunt's own setup (a decision in it takes the first option
                offered; tokens dealt in it go out as ``deal`` - seat -> token number - or
                ``hidden_traitor`` states), then puts back what the position states (``where``, ``traits``, ...)
                and the haunt-phase fields given here as ``snapshot()["haunt_phase"]`` names them
                (``round``, ``sides``, ``statuses``, ``flags``, ``track``, ``tokens`` - haunt token
                -> rooms -, ``pool``, ``held``, ``earned``, ``done``, ``exited``, ``timers`` ...;
                and ``fetches``, ``next_omen``, ``rolled``, ``pending_losses``, which steer later
                draws and rolls). ``set_up: true`` skips the setup (the state is stated in full, as
                ``describe_position`` writes it). ``room`` defaults to the revealer's room and must
                be in the house. ``turn`` may name any seat of the round that is in play;
                ``round: 0`` makes the turn an extra one before the first round (setup ``extra_turn``).
                Cards listed under ``destroyed`` are taken out of their stacks.
``monsters``    (haunt phase only: without a ``haunt`` it is refused) a list replacing the monsters the setup placed: ``{kind or id, room,
                side, stunned, stats, damage, gone, counterpart, cards}`` (``side`` as in ``where``,
                for a barrier room); ``stats`` default to the
                haunt's printed ones (by the track, or copied from the counterpart).
``first``       the first player. Default: the birthday rule.
``turn_number`` default 1.
``turn``        whose turn it is: a seat, or a mapping ``{seat, begun, moved, extra, stopped, ...}`` (which
                must name the seat)
                (the fields of ``snapshot()["turn"]``). Default: the first player's turn, just
                starting (start-of-turn effects apply: a roll they call for, such as an open Music
                Box's, is the first decision, chance's). ``begun: true`` (implied by any other field)
                resumes a turn already under way. ``moved`` at the top level is ``turn.moved``.
``note``        free text, ignored (``describe_position`` says there where it rewound to).

Problems are all reported together as :class:`~hauntcheck.engine.scenario.PositionError`,
each with its path inside ``position``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState, Monster, plays
from hauntcheck.engine.betrayal.haunt import invariants as haunt_invariants
from hauntcheck.engine.betrayal.model import FLOORS, SIDES, TRAITS, Tables
from hauntcheck.engine.betrayal.state import TURN_PROMPT, BetrayalState, Gen, Turn
from hauntcheck.engine.core import CHANCE, Action, DiceRoll, GameState, Shuffle
from hauntcheck.engine.spec import GameSpec

Path = tuple[str | int, ...]
Problems = list[tuple[Path, str]]

SEAT_KEYS = ("where", "traits", "over", "cards", "kept", "status", "used")
KEYS = (
    "explorers", "rooms", "aside", "room_top", "stack", "closed_floors", "removed_tiles", "exhausted_floors", *SEAT_KEYS,
    "dead", "piles",
    "tokens", "links", "passages",
    "discards", "decks", "deck_tops", "token_cards", "game_used", "item_raised", "open_boxes", "masks_worn", "set_bonus",
    "stored_rolls", "kept_with_abilities", "tokens_with_abilities", "omens_drawn", "haunt", "monsters", "first",
    "turn_number", "turn", "moved", "note",
)
TURN_FLAGS = ("stopped", "end_now", "dropped", "picked", "traded", "left_room", "no_attack", "short_exit")
TURN_INTS = ("moved", "extra")
TURN_KEYS = ("seat", "begun", *TURN_INTS, *TURN_FLAGS, "omens", "keys", "items_acted", "last", "start_room")
CARD_KINDS = ("omen", "item", "event")
#: The haunt-phase fields of ``snapshot()["haunt_phase"]`` a position may state, and the
#: HauntState attribute each one sets (``set`` when the engine keeps it as a set).
HAUNT_FIELDS: dict[str, tuple[str, str]] = {
    "round": ("hround", "int"), "sides": ("side", "map"), "removed": ("removed", "set"),
    "statuses": ("hstatus", "maplist"), "flags": ("hflags", "set"), "track": ("track", "int"),
    "used_places": ("used_places", "set"), "tokens": ("htokens", "maplist"), "pool": ("pool", "map"),
    "held": ("held", "maplist"), "earned": ("earned", "map"), "done": ("done", "set"), "exited": ("exited", "set"),
    "destroyed": ("destroyed", "list"), "counters": ("counters", "map"), "control": ("control", "map"), "collapsed": ("collapsed", "list"),
    "collapsing": ("collapsing", "bool"), "timers": ("timer_state", "map"), "turn_mods": ("turn_mods", "mapset"),
    "carried": ("carried", "map"), "waiting_tokens": ("waiting_tokens", "list"), "hook_state": ("hook_state", "map"),
    "grips": ("grips", "maptuple"), "waiting": ("waiting", "pairs"), "no_pickup": ("no_pickup", "set"),
    "dealt": ("dealt", "map"),
}
#: Haunt-phase bookkeeping outside ``snapshot()`` that still steers what comes next: cards a
#: side takes instead of its next draw (``[side, card, stack]``), cards it takes at its next
#: omen room (``[side, [cards]]``), the trait of the last task roll, losses waiting to be settled.
#: A hidden traitor (``hidden_traitor``: ``{seat, revealed}`` as in snapshot(), with the id of the
#: token dealt to pick it in ``hidden_token``).
HAUNT_EXTRA = ("fetches", "next_omen", "rolled", "pending_losses", "hidden_traitor", "hidden_token")
HAUNT_KEYS = ("number", "traitor", "revealer", "omen", "room", "kind", "set_up", "deal", *HAUNT_FIELDS, *HAUNT_EXTRA)
MONSTER_KEYS = ("id", "kind", "room", "side", "part", "stunned", "stats", "gone", "damage", "counterpart", "cards")


def build_position(spec: GameSpec, players: int, options: Mapping[str, Any], position: Mapping[str, Any]) -> BetrayalState:
    """Build ``position`` as a real engine state; raise PositionError naming every bad path."""
    from hauntcheck.engine.betrayal import new_game
    from hauntcheck.engine.scenario import PositionError

    if not isinstance(position, Mapping):
        raise PositionError([((), "a position is a mapping of the keys listed in docs/disputes.md")])
    try:
        state = new_game(spec, players, options)
    except ValueError as exc:
        raise PositionError([((), str(exc))]) from None
    problems: Problems = []
    try:
        _Builder(state, position, problems).build()
    except (TypeError, ValueError, KeyError) as exc:
        # a value of the wrong type somewhere no check names yet: still the user's mistake
        problems.append(((), f"a value of the wrong type in the position ({type(exc).__name__}: {str(exc)[:120]})"))
    if problems:
        raise PositionError(problems)
    state.history = []
    state.rebuild = lambda: build_position(spec, players, options, position)
    return state


# --------------------------------------------------------------------------------------------
# Walking the effect trees of the spec (what a kept card, a token or a status brings with it)


def _walk(node: Any) -> list[Mapping[str, Any]]:
    out: list[Mapping[str, Any]] = []
    if isinstance(node, Mapping):
        out.append(node)
        for v in node.values():
            out.extend(_walk(v))
    elif isinstance(node, list | tuple):
        for v in node:
            out.extend(_walk(v))
    return out


_TOKENS: dict[int, frozenset[str]] = {}


def known_tokens(t: Tables) -> frozenset[str]:
    """The token names the rooms and cards can put in the house (``place_token`` and ``link``)."""
    found = _TOKENS.get(id(t))
    if found is None:
        names: set[str] = set()
        trees = [c.abilities for c in t.cards.values()] + [r.abilities for r in t.rooms.values()]
        for tree in trees:
            for node in _walk(list(tree)):
                for verb in ("place_token", "link"):
                    inner = node.get(verb)
                    if isinstance(inner, Mapping) and isinstance(inner.get("token"), str):
                        names.add(inner["token"])
        found = _TOKENS[id(t)] = frozenset(names)
    return found


def _known_ability(t: Tables, key: str) -> bool:
    """``room:<room>#<n>`` or ``card:<card>#<n>`` naming an ability the room or card has."""
    source, _, index = key.rpartition("#")
    kind, _, name = source.partition(":")
    if not index.isdigit() or len(index) > 3:
        return False
    abilities = (t.rooms[name].abilities if kind == "room" and name in t.rooms
                 else t.cards[name].abilities if kind == "card" and name in t.cards else ())
    return int(index) < len(abilities)


def _shown(value: Any) -> str:
    """A value for an error message, kept short (a huge number or mapping is not echoed whole)."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**30 else "a number of more than 30 digits"
    return text if len(text) <= 60 else text[:57] + "..."


def keep_spec(t: Tables, card: str) -> Mapping[str, Any] | None:
    """The ``keep`` effect of an event card (its lasting abilities and when they end)."""
    for node in _walk(list(t.cards[card].abilities)):
        keep = node.get("keep")
        if isinstance(keep, Mapping):
            return keep
    return None


def status_spec(t: Tables, name: str, card: str | None = None) -> tuple[str, Mapping[str, Any]] | None:
    """(card, status rules) of the status ``name``, preferring the given card."""
    cards = ([card] if card else []) + sorted(t.cards)
    for cid in cards:
        for node in _walk(list(t.cards[cid].abilities)):
            st = node.get("status")
            if isinstance(st, Mapping) and st.get("name") == name:
                return cid, st
    return None


def token_source(t: Tables, token: str) -> tuple[str | None, tuple[Any, ...]]:
    """(event card that leaves the token, or None; the token's abilities)."""
    found: str | None = None
    abilities: tuple[Any, ...] = ()
    sources: list[tuple[str | None, Any]] = [(c, t.cards[c].abilities) for c in sorted(t.cards)]
    sources += [(None, r.abilities) for r in sorted(t.rooms.values(), key=lambda r: r.id)]
    for cid, tree in sources:
        for node in _walk(list(tree)):
            for verb in ("place_token", "link"):
                inner = node.get(verb)
                if isinstance(inner, Mapping) and inner.get("token") == token:
                    if found is None and cid is not None and t.cards[cid].type == "event":
                        found = cid
                    if not abilities and inner.get("abilities"):
                        abilities = tuple(inner["abilities"])
        if token == "wall-switch" and cid is not None and any("draw_room" in n and isinstance(n["draw_room"], Mapping)
                                                               and n["draw_room"].get("where") == "beyond-this-wall"
                                                               for n in _walk(list(tree))):
            found = found or cid
    return found, abilities


def derived_set_bonus(st: BetrayalState) -> list[str]:
    """The set bonuses in force when their cards are held together (the Bell, Book and Candle)."""
    out = []
    for seat, e in sorted(st.ex.items()):
        for card in sorted(set(e.cards)):
            for ability in st.t.cards[card].abilities:
                if ability.get("trigger") != "ongoing":
                    continue
                if not any(str(x.get("custom", "")) in effects.ONGOING_HOOKS for x in ability.get("do", [])):
                    continue
                if effects.condition(st, ability.get("condition", {}), effects.Ctx(seat, f"card:{card}")):
                    out.append(f"{seat}/{card}")
    return sorted(set(out))


def derived_token_cards(t: Tables, tokens: Mapping[str, list[str]]) -> list[str]:
    out: list[str] = []
    for room in sorted(tokens):
        for token in tokens[room]:
            card, _ = token_source(t, token)
            if card is not None and card not in out:
                out.append(card)
    return out


# --------------------------------------------------------------------------------------------
# Building


class _Builder:
    def __init__(self, state: BetrayalState, position: Mapping[str, Any], problems: Problems) -> None:
        self.st = state
        self.t = state.t
        self.pos = position
        self.problems = problems
        self.taken: dict[str, Path] = {}
        self.live = False  # the position is in the haunt phase of a playable haunt

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

    # -----------------------------------------------------------------------------------

    def build(self) -> None:
        for key in self.pos:
            if key not in KEYS:
                hint = _near(str(key), KEYS)
                self.bad((key,), f"unknown key {key!r}" + (f" (did you mean {hint}?)" if hint else "")
                         + f"; a position has: {', '.join(KEYS)}")
        if "monsters" in self.pos and not self.pos.get("haunt"):
            self.bad(("monsters",), "monsters are in play only in a haunt phase: add a haunt (a playable one) to the position")
        if not self.choose_explorers():
            return
        self.place_rooms()
        self.place_explorers()
        self.place_cards()
        self.place_tokens()
        self.place_deck_tops()
        self.bookkeeping()
        if self.problems:
            return
        self.start_turn()
        if not self.problems:
            for problem in haunt_invariants(self.st):
                self.bad((), f"the position breaks an invariant: {problem}")

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
        for seat in st.seat_ids:
            xid = given.get(seat)
            if xid is None:
                xid = next(x.id for x in sorted(t.explorers.values(), key=lambda x: x.id) if x.card not in cards_in_play
                           and x.id not in given.values())
                cards_in_play[t.explorers[xid].card] = xid
            st.apply(Action.of("choose", explorer=str(xid)))
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
        else:
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
        out = sum(1 for c in t.cards.values() if c.type == "omen") - len(st.decks["omen"])
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

    def haunt(self, haunt: Any) -> None:
        st, t = self.st, self.t
        if not isinstance(haunt, Mapping):
            self.bad(("haunt",), "haunt is {number, traitor, revealer, omen, room}")
            return
        number = haunt.get("number")
        if not isinstance(number, int) or number not in t.haunts:
            self.bad(("haunt", "number"), f"no haunt {number!r} in the traitor table")
            return
        revealer = haunt.get("revealer", st.seat_ids[0])
        traitor = haunt.get("traitor")
        for key, seat in (("revealer", revealer), ("traitor", traitor)):
            if seat is not None and seat not in st.seat_ids:
                self.bad(("haunt", key), f"{key} must be a seat ({', '.join(st.seat_ids)}) or null")
        omen, room = haunt.get("omen"), haunt.get("room")
        if omen is not None and (omen not in t.cards or t.cards[omen].type != "omen"):
            self.bad(("haunt", "omen"), f"{omen!r} is not an omen card")
        if room is not None and room not in t.rooms:
            self.bad(("haunt", "room"), f"unknown room {room!r}")
        entry = t.haunts[number]
        kind = entry.traitor.kind
        if kind not in ("hidden", "none") and "traitor" not in haunt:
            # the traitor table names one for this haunt; a position that leaves it out would
            # silently play a haunt with no traitor (write traitor: null for that on purpose)
            self.bad(("haunt",), f"haunt {number} has a traitor: name the seat (traitor: P2), or write "
                     "traitor: null for a haunt whose traitor rule found nobody")
        st.haunt = {
            "number": entry.number, "title": entry.title, "omen": omen, "room": room,
            "revealer": revealer, "traitor": traitor,
            "kind": haunt.get("kind", "hidden" if kind == "hidden" else ("none" if kind == "none" else "traitor")),
        }
        st.phase = "revealed"
        for key in haunt:
            if key not in HAUNT_KEYS:
                hint = _near(str(key), HAUNT_KEYS)
                self.bad(("haunt", key), f"unknown haunt field {key!r}" + (f" (did you mean {hint}?)" if hint else "")
                         + f"; a haunt has: {', '.join(HAUNT_KEYS)}")
        live = isinstance(st, HauntState) and number in st.haunts and plays(st.haunts[number][1])
        extra = [k for k in haunt if k in HAUNT_FIELDS or k == "set_up"]
        if not live:
            if extra or "monsters" in self.pos:
                what = extra[0] if extra else "monsters"
                self.bad(("haunt", what) if extra else ("monsters",),
                         f"haunt {number} is not playable by the engine, so its haunt phase cannot be described")
            return
        if room is not None and room not in st.house and room not in st.removed_tiles:
            self.bad(("haunt", "room"), f"the haunt room {room} is not in the house (place it under rooms)")
            return
        if room is None:
            # judgement: the omen that revealed the haunt was drawn where the revealer stands
            st.haunt["room"] = st.ex[str(revealer)].room if revealer in st.ex else "entrance-hall"
        self.live = True

    # -----------------------------------------------------------------------------------
    # The haunt phase (a playable haunt): the engine's own setup, then what the position states

    def haunt_program(self, seat: str, begun: Turn | None, ready: dict[str, Any]) -> Gen[None]:
        """The turn sequence of a position in the haunt phase: the haunt's setup (unless the
        position says ``set_up: true``), the position's overrides, then the rounds from ``seat``."""
        st = self.st
        assert isinstance(st, HauntState) and st.haunt is not None
        st.enter_haunt(int(st.haunt["number"]))
        if not self.pos["haunt"].get("set_up", False):
            yield from st.set_up_haunt(st.haunt.get("traitor"))
        self.haunt_overrides()
        order, traitor = st.round_order()
        # a stated round 0: the turn is an extra one before the first round (setup ``extra_turn``)
        extra = self.pos["haunt"].get("round") == 0 and st.in_play(seat)
        st.hround = st.hround if extra else max(st.hround, 1)
        ready["done"] = True
        if self.problems or st._check_wins():
            return
        if extra:
            # setup ``extra_turn``: the stated turn is taken before the rounds, which then begin
            yield from (_resumed_turn(st, begun) if begun is not None else st._play_turn(seat))
            if st._check_wins():
                return
            yield from st.play_rounds(order, traitor)
            return
        yield from st.play_rounds(order, traitor, start=seat, resume=_resumed_turn(st, begun) if begun is not None else None)

    def haunt_overrides(self) -> None:
        st = self.st
        assert isinstance(st, HauntState) and st.hs is not None
        self.place_explorers()
        haunt = self.pos["haunt"]
        for key, (attr, form) in HAUNT_FIELDS.items():
            if key not in haunt:
                continue
            value = haunt[key]
            path: Path = ("haunt", key)
            if form in ("int", "bool"):
                want = int if form == "int" else bool
                if not isinstance(value, want) or (form == "int" and isinstance(value, bool)) or (form == "int" and value < 0):
                    self.bad(path, f"{key} is {'a whole number' if form == 'int' else 'true or false'}, as in snapshot()")
                    continue
                setattr(st, attr, value)
            elif form in ("set", "list", "pairs"):
                if not isinstance(value, list) or (form == "pairs" and not all(
                        isinstance(v, list) and len(v) == 2 and isinstance(v[1], list) for v in value)):
                    self.bad(path, f"{key} is a list" + (" of [name, [rooms]] pairs" if form == "pairs" else "")
                             + ", as in snapshot()")
                    continue
                if form == "pairs":
                    setattr(st, attr, [(str(a), tuple(str(r) for r in b)) for a, b in value])
                else:
                    setattr(st, attr, set(value) if form == "set" else list(value))
            else:
                if not isinstance(value, Mapping) or (form != "map" and not all(isinstance(v, list) for v in value.values())):
                    self.bad(path, f"{key} is a mapping" + (" of lists" if form != "map" else "") + ", as in snapshot()")
                    continue
                if form == "map":
                    setattr(st, attr, {str(k): (dict(v) if isinstance(v, Mapping) else v) for k, v in value.items()})
                elif form == "maplist":
                    setattr(st, attr, {str(k): list(v) for k, v in value.items()})
                elif form == "maptuple":
                    setattr(st, attr, {str(k): tuple(v) for k, v in value.items()})
                else:
                    setattr(st, attr, {str(k): set(v) for k, v in value.items()})
        for key in HAUNT_EXTRA:
            if key not in haunt:
                continue
            value = haunt[key]
            path = ("haunt", key)
            try:
                if key == "fetches":
                    st.fetches = [(str(a), str(b), str(c)) for a, b, c in value]
                elif key == "next_omen":
                    st.next_omen = [(str(a), tuple(str(c) for c in cards)) for a, cards in value]
                elif key == "rolled":
                    st.rolled = str(value)
                elif key == "hidden_traitor":
                    seat = str(value["seat"])
                    if seat not in st.seat_ids:
                        raise ValueError(seat)
                    st.hidden, st.unmasked = seat, bool(value["revealed"])
                elif key == "hidden_token":
                    st.hidden_token = str(value)
                else:
                    st.pending_losses = [str(v) for v in value]
            except (TypeError, ValueError):
                self.bad(path, f"{key} is as describe_position gives it: " + {
                    "fetches": "[[side, card, stack], ...]", "next_omen": "[[side, [cards]], ...]",
                    "rolled": "a trait", "pending_losses": "a list", "hidden_traitor": "{seat, revealed}",
                    "hidden_token": "a token id"}[key])
        gone = [c for c in st.destroyed if c in st.t.cards and c in st.decks[st.t.cards[c].type]]
        for card in gone:
            self.take(card, ("haunt", "destroyed"))  # a card the haunt destroyed is out of its stack
        if any(st.t.cards[c].type == "omen" for c in gone):
            st.omens_drawn = sum(1 for c in st.t.cards.values() if c.type == "omen") - len(st.decks["omen"])
        sides = set(st.side.values())
        if not sides <= {HERO, TRAITOR} or set(st.side) - set(st.seat_ids):
            self.bad(("haunt", "sides"), f"sides map seats to {HERO} or {TRAITOR}")
        if "monsters" in self.pos:
            self.place_monsters(self.pos["monsters"])
            st.omens_drawn = sum(1 for c in st.t.cards.values() if c.type == "omen") - len(st.decks["omen"])
        st.held_cache.clear()

    def place_monsters(self, raw: Any) -> None:
        st = self.st
        assert isinstance(st, HauntState) and st.hs is not None
        kinds = st.hs.monsters
        if not isinstance(raw, list):
            self.bad(("monsters",), "monsters is a list of {kind or id, room, stunned, stats, ...}")
            return
        out: list[Monster] = []
        for i, item in enumerate(raw):
            path: Path = ("monsters", i)
            if not isinstance(item, Mapping):
                self.bad(path, "a monster is {kind or id, room, stunned, stats, ...}")
                continue
            for key in item:
                if key not in MONSTER_KEYS:
                    self.bad((*path, key), f"unknown monster field {key!r}; a monster has: {', '.join(MONSTER_KEYS)}")
            uid = item.get("id")
            kind = item.get("kind") or (str(uid).rsplit("-", 1)[0] if uid else None)
            if kind not in kinds:
                self.bad((*path, "kind" if "kind" in item else "id"),
                         f"haunt {st.haunt['number'] if st.haunt else '?'} has no monster {kind!r} "
                         f"(monsters: {', '.join(sorted(kinds)) or 'none'})")
                continue
            mdef = kinds[str(kind)]
            if uid is None:
                uid = f"{kind}-{sum(1 for m in out if m.kind == kind) + 1}"
            if any(m.uid == uid for m in out):
                self.bad((*path, "id"), f"two monsters are {uid}")
                continue
            room = item.get("room")
            if room not in st.house:
                self.bad((*path, "room"), f"{room!r} is not a room in the house")
                continue
            counterpart = str(item.get("counterpart", ""))
            if counterpart and counterpart not in st.ex:
                self.bad((*path, "counterpart"), f"no seat {counterpart!r}")
                continue
            stats: dict[str, int] = {}
            if mdef.stats_from == "counterpart-at-haunt-start" and counterpart:
                stats = {t: st.value(counterpart, t) for t in TRAITS}
            else:
                source = st._track_row(mdef) if mdef.stats_by_track else mdef.stats
                stats = {t: v for t, v in source.items() if isinstance(v, int) and not isinstance(v, bool)}
            given = item.get("stats") or {}
            if not isinstance(given, Mapping):
                self.bad((*path, "stats"), "stats maps traits to values")
                continue
            for trait, value in given.items():
                if trait not in TRAITS or not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    self.bad((*path, "stats", trait), f"a monster's stats map traits ({', '.join(TRAITS)}) to values")
                else:
                    stats[str(trait)] = value
            cards = item.get("cards") or []
            for j, card in enumerate(cards):
                self.take(card, (*path, "cards", j), ("omen", "item"))
            damage = item.get("damage", 0)
            if not isinstance(damage, int) or damage < 0:
                self.bad((*path, "damage"), "damage is a whole number")
                continue
            part = self.monster_part(item, path, str(room))
            if part is None:
                continue
            out.append(Monster(str(uid), str(kind), str(room), dict(sorted(stats.items())), stunned=bool(item.get("stunned", False)),
                               gone=str(item.get("gone", "")), damage=damage, counterpart=counterpart,
                               cards=[str(c) for c in cards], part=part))
        st.mon = out

    def monster_part(self, item: Mapping[str, Any], path: Path, room: str) -> int | None:
        """The side of a barrier room a monster stands on: ``side`` (a world side, as in ``where``)
        or ``part`` (its index, as ``report`` writes it); 0 elsewhere."""
        barrier = self.t.rooms[room].barrier
        rot = self.st.house.spots[room].rotation
        sides = [SIDES[(b + rot) % 4] for b in barrier] if len(barrier) >= 2 else []
        if "side" in item:
            if item["side"] not in sides:
                self.bad((*path, "side"),
                         f"{self.t.rooms[room].name} has no {item['side']!r} side here (sides: {', '.join(sides) or 'none'})")
                return None
            return sides.index(item["side"])
        part = item.get("part", 0)
        if not isinstance(part, int) or isinstance(part, bool) or not 0 <= part < max(1, len(sides)):
            self.bad((*path, "part"), f"part is the index of a side of {self.t.rooms[room].name} (0 to {max(1, len(sides)) - 1})")
            return None
        return part

    def start_turn(self) -> None:
        st = self.st
        raw = self.pos.get("turn")
        turn: Mapping[str, Any] = {"seat": raw} if isinstance(raw, str) or raw is None else raw
        if not isinstance(turn, Mapping):
            self.bad(("turn",), "turn is a seat, or a mapping {seat, begun, moved, ...}")
            return
        for key in turn:
            if key not in TURN_KEYS:
                self.bad(("turn", key), f"unknown turn field {key!r}; fields: {', '.join(TURN_KEYS)}")
        if isinstance(raw, Mapping) and "seat" not in raw:
            self.bad(("turn",), "a turn mapping names its seat: {seat: P1, ...}")
            return
        if "moved" in self.pos:
            turn = {**turn, "moved": self.pos["moved"]}
        seat = turn.get("seat")
        if self.live:
            self.start_haunt_turn(seat, turn)
            return
        if st.haunt is not None:
            start = st.left_of(st.haunt["traitor"] or st.haunt["revealer"])
            if seat not in (None, start):
                self.bad(("turn",), f"once the haunt has begun a position starts its round with {start}, "
                         "left of the traitor (or revealer)")
                return
            seat = start
        seat = seat or st.first_seat
        if seat not in st.seat_ids:
            self.bad(("turn", "seat") if isinstance(raw, Mapping) else ("turn",), f"turn must be one of {', '.join(st.seat_ids)}")
            return
        begun = bool(turn.get("begun", any(k not in ("seat", "begun") for k in turn)))
        number = self.pos.get("turn_number", 1)
        if not isinstance(number, int) or number < 1:
            self.bad(("turn_number",), "turn_number is 1 or more")
            return
        if self.problems:
            return
        st.turn_number = number - 1
        e = st.ex[seat]
        hidden = (e.cards, e.kept, e.status)
        if begun:
            # A turn under way has had its start-of-turn effects already: hide what they read.
            e.cards, e.kept, e.status = [], [], {}
        first = st.first_seat
        rooms = {s: (x.room, x.part) for s, x in st.ex.items()}
        st.restart_turns(seat)
        st.first_seat = first
        e.cards, e.kept, e.status = hidden
        st.held_cache.clear()
        if begun:
            fresh = self.turn_under_way(seat, turn, e.room)
            if fresh is None:
                return
            st.turn = fresh
            st.refresh()
        moved = [s for s, x in sorted(st.ex.items()) if rooms[s] != (x.room, x.part)]
        if moved:
            self.bad(("where", moved[0]), f"{moved[0]} cannot start the turn in {rooms[moved[0]][0]}: the engine moves "
                     f"them on at once to {st.ex[moved[0]].room} (a single legal option is taken without asking)")
        elif not _turn_starts(st, seat):
            self.bad(("turn",), f"{seat}'s turn cannot start here: the engine asks "
                     f"{st.to_move()} to {st._req.what if st._req else 'nothing'}")

    def turn_under_way(self, seat: str, turn: Mapping[str, Any], start_room: str) -> Turn | None:
        """The turn record of a position whose turn has already begun (None, with the problem
        noted, when a count is not a number of spaces)."""
        fresh = Turn(seat, start_room=start_room)
        for key in TURN_INTS:
            value = turn.get(key, 0)
            if not isinstance(value, int) or value < 0:
                self.bad(("turn", key), f"{key} is a number of spaces")
                return None
            setattr(fresh, key, value)
        for key in TURN_FLAGS:
            setattr(fresh, key, bool(turn.get(key, False)))
        for key in ("keys", "items_acted"):
            getattr(fresh, key).update(str(x) for x in turn.get(key) or [])
        fresh.omens = [(str(c), str(r)) for c, r in (turn.get("omens") or [])]
        fresh.last = str(turn.get("last", ""))
        fresh.start_room = str(turn.get("start_room", start_room))
        return fresh

    def start_haunt_turn(self, seat: Any, turn: Mapping[str, Any]) -> None:
        st = self.st
        assert isinstance(st, HauntState) and st.haunt is not None
        hidden = st.haunt.get("kind") == "hidden"  # hidden-traitor.turn-order: from the revealer's left
        anchor = str(st.haunt["revealer"]) if hidden else st.traitor() or str(st.haunt["revealer"])
        seat = seat or st.left_of(anchor)
        if seat not in st.seat_ids:
            self.bad(("turn",), f"turn must be one of {', '.join(st.seat_ids)}")
            return
        begun = bool(turn.get("begun", any(k not in ("seat", "begun") for k in turn)))
        number = self.pos.get("turn_number", 1)
        if not isinstance(number, int) or number < 1:
            self.bad(("turn_number",), "turn_number is 1 or more")
            return
        st.turn_number = number - 1
        fresh: Turn | None = None
        if begun:
            fresh = self.turn_under_way(str(seat), turn, "")
            if fresh is None:
                return
        first = st.first_seat
        ready: dict[str, Any] = {"done": False}
        st._gen.close()
        st._gen = self.haunt_program(str(seat), fresh, ready)
        st._events = []
        st._req = next(st._gen, None)  # None: the program ended at once (a problem, or the game is won)
        # The haunt's own setup may ask for decisions (a placement, trait points): a position
        # takes the first offered, then states what it wants over the result.
        while not ready["done"] and st._req is not None:
            choices = st._req.choices
            if isinstance(choices, Shuffle):
                order = self.deal_order(st, choices)
                if order is None:
                    return
                st.apply(Action.of("shuffle", pile=choices.pile, order=order))
            else:
                st.apply(next(iter(choices)))
        st.first_seat = first
        st.held_cache.clear()
        if self.problems:
            return
        if st.outcome() is not None:
            self.bad(("haunt",), f"the position is already over: {st.outcome()}")
        elif not _turn_starts(st, str(seat)):
            self.bad(("turn",), f"{seat}'s turn cannot start here: the engine asks "
                     f"{st.to_move()} to {st._req.what if st._req else 'nothing'}")


    def deal_order(self, st: HauntState, shuffle: Shuffle) -> list[str] | None:
        """The order of tokens a haunt's setup deals (one per player from the revealer's left),
        as the position states it: ``haunt.deal`` (seat -> token number, for every deal; or token
        -> {seat -> number}, deal by deal), or for a hidden traitor
        ``haunt.hidden_traitor.seat`` holding the traitor's number; the other seats get the other
        numbers in dealing order. Without either, the tokens go out in order (1 to the player left
        of the revealer)."""
        haunt = self.pos["haunt"]
        assert st.haunt is not None
        seats = [st.left_of(str(st.haunt["revealer"]), k) for k in range(1, st.n + 1)]
        numbers = sorted(shuffle.items, key=int)
        raw = haunt.get("deal")
        if isinstance(raw, Mapping) and raw and not any(k in seats for k in raw):
            raw = raw.get(shuffle.pile)  # per token: {token: {seat: number}}
        wanted: dict[str, str] = {}
        if raw is not None:
            if not (isinstance(raw, Mapping) and all(s in seats and str(v) in numbers and not isinstance(v, bool)
                                                    for s, v in raw.items())
                    and len({str(v) for v in raw.values()}) == len(raw)):
                self.bad(("haunt", "deal"), f"deal maps seats ({', '.join(seats)}) to different token numbers "
                         f"({', '.join(numbers)})")
                return None
            wanted = {str(s): str(v) for s, v in raw.items()}
        hidden = haunt.get("hidden_traitor")
        hidden_pile = str((st._hidden_deal_step() or {}).get("token", "hidden-traitor-token"))
        if isinstance(hidden, Mapping) and hidden.get("seat") in seats and shuffle.pile == hidden_pile:
            number = str((st._hidden_deal_step() or {}).get("traitor_number", 1))
            holder = next((s for s, v in wanted.items() if v == number), None)
            if holder is not None and holder != hidden["seat"]:
                self.bad(("haunt", "deal"), f"the deal gives token {number} (the traitor's) to {holder}, "
                         f"but hidden_traitor names {hidden['seat']}")
                return None
            wanted.setdefault(str(hidden["seat"]), number)
        spare = [n for n in numbers if n not in wanted.values()]
        order = [wanted[s] if s in wanted else spare.pop(0) for s in seats[:len(numbers)]]
        return order


def _turn_starts(st: BetrayalState, seat: str) -> bool:
    """The position's turn is ready: the seat is asked for its turn, or chance must first roll
    what the start of the turn calls for (an open Music Box's Sanity roll): a position may start
    with that roll, and the scenario scripts it like any other."""
    req = st._req
    if req is None:
        return False
    if req.actor == CHANCE:
        return isinstance(req.choices, DiceRoll) and st.current == seat
    return st.to_move() == seat and req.what == TURN_PROMPT


def _resumed_turn(st: HauntState, turn: Turn) -> Gen[None]:
    """The rest of a haunt-phase turn already under way: its start-of-turn effects and rules have
    run; the turn loop and the end of the turn are the engine's (part 1's loop, then the haunt's)."""
    assert st.hs is not None
    seat = turn.seat
    e = st.ex[seat]
    st.turn_number += 1
    st.current = seat
    turn.start_room = turn.start_room or e.room
    st.turn = turn
    if st.in_play(seat) and not st._check_wins():
        yield from st.turn_loop(seat)
    yield from st._end_haunt_turn(seat)


def _trait_index(values: tuple[int, ...], start: int, value: Any) -> int | None:
    if value == "skull":
        return -1
    if isinstance(value, Mapping):
        index = value.get("index")
        if not isinstance(index, int) or isinstance(index, bool):
            return None
        if "value" in value and (not 0 <= index < len(values) or values[index] != value["value"]):
            return None
        return index
    if isinstance(value, int) and not isinstance(value, bool) and value in values:
        return min((i for i, v in enumerate(values) if v == value), key=lambda i: (abs(i - start), i))
    return None


def _near(word: str, known: Any) -> str:
    import difflib

    close = difflib.get_close_matches(word, sorted(str(k) for k in known), n=1)
    return close[0] if close else ""


# --------------------------------------------------------------------------------------------
# Describing a state as a position


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
                                     "hidden_traitor": phase["hidden_traitor"], "hidden_token": st.hidden_token}
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


__all__ = ["KEYS", "at_turn_prompt", "build_position", "describe_position", "lead_up"]
