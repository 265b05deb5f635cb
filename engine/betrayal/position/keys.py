"""The keys of a Betrayal position, and what building and describing a position both read from the spec.

:data:`KEYS` lists the position's keys (the package docstring says what each means and its
default); the turn's, the haunt's and the monsters' keys likewise. The rest walks the effect trees
of the spec to find what a kept card, a token or a status brings with it: the tokens rooms and
cards place (:func:`known_tokens`), the card a token came from (:func:`token_source`), the set
bonuses in force and the event cards staying as tokens when a position does not say
(:func:`derived_set_bonus`, :func:`derived_token_cards`), and a trait's track index from a value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.model import Tables
from hauntcheck.engine.betrayal.state import BetrayalState

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
    "destroyed": ("destroyed", "list"), "control": ("control", "map"), "collapsed": ("collapsed", "list"),
    "collapsing": ("collapsing", "bool"), "timers": ("timer_state", "map"), "turn_mods": ("turn_mods", "mapset"),
    "collapse_state": ("collapse_state", "map"),
    "carried": ("carried", "map"), "waiting_tokens": ("waiting_tokens", "tuples"), "waiting_pool": ("waiting_pool", "tuples"),
    "hook_state": ("hook_state", "map"),
    "grips": ("grips", "maptuple"), "waiting": ("waiting", "pairs"), "no_pickup": ("no_pickup", "set"),
    "dealt": ("dealt", "map"),
}


#: Haunt-phase bookkeeping outside ``snapshot()`` that still steers what comes next: cards a
#: side takes instead of its next draw (``[side, card, stack]``), cards it takes at its next
#: omen room (``[side, [cards]]``), the trait of the last task roll, losses waiting to be settled.
#: A hidden traitor (``hidden_traitor``: ``{seat, revealed}`` as in snapshot(), with the id of the
#: token dealt to pick it in ``hidden_token``).
#: Stated only where a haunt uses them (as snapshot() gives them): traits held as numbers
#: (``trait_values``), heroes killed by seat (``hero_kills``), a collapse stepped by a hook (``collapse_by``),
#: what the opponents know of a concealed explorer's room (``concealed``: ``{seat: {rooms, seen, exit}}``),
#: the traitor side's converts in order (``converts``), the face-down hands of a deal of several tokens
#: each (``hands``: ``{token: {seat: [numbers]}}``).
HAUNT_EXTRA = ("fetches", "next_omen", "rolled", "pending_losses", "hidden_traitor", "hidden_token",
               "trait_values", "hero_kills", "collapse_by", "concealed", "converts", "hands")


HAUNT_KEYS = ("number", "traitor", "revealer", "omen", "room", "kind", "set_up", "deal", *HAUNT_FIELDS, *HAUNT_EXTRA)


MONSTER_KEYS = ("id", "kind", "room", "side", "part", "stunned", "stats", "gone", "damage", "counterpart", "cards",
                "facing")


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


#: The token names of each Tables, by its id with the Tables itself kept: an id is reused once
#: its object is gone, so a hit counts only when the kept object is the one asked about.
_TOKENS: dict[int, tuple[Tables, frozenset[str]]] = {}


def known_tokens(t: Tables) -> frozenset[str]:
    """The token names the rooms and cards can put in the house (``place_token`` and ``link``)."""
    found = _TOKENS.get(id(t))
    if found is not None and found[0] is t:
        return found[1]
    names: set[str] = set()
    trees = [c.abilities for c in t.cards.values()] + [r.abilities for r in t.rooms.values()]
    for tree in trees:
        for node in _walk(list(tree)):
            for verb in ("place_token", "link"):
                inner = node.get(verb)
                if isinstance(inner, Mapping) and isinstance(inner.get("token"), str):
                    names.add(inner["token"])
    _TOKENS[id(t)] = (t, frozenset(names))
    return _TOKENS[id(t)][1]


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
    """(event card that leaves the token, or None; the token's abilities), found once per tables
    and token (kept on the tables: every build of a position with tokens asks, and the answer is
    a walk over every card and room)."""
    known: dict[str, tuple[str | None, tuple[Any, ...]]] = t.derived("position.token_sources", lambda _: {})
    source = known.get(token)
    if source is None:
        source = known[token] = _token_source(t, token)
    return source


def _token_source(t: Tables, token: str) -> tuple[str | None, tuple[Any, ...]]:
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
