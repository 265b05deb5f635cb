"""A position in the haunt phase (``haunt``, ``monsters``).

With a haunt the engine plays, the state is a real haunt phase: the engine runs the haunt's own
setup (a decision in it takes the first option offered; tokens dealt go out as the position's
``deal``), then puts back what the position states (``where``, ``traits``, ...) and the haunt-phase
fields, and replaces the monsters the setup placed when ``monsters`` lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hauntcheck.engine.betrayal.haunt import HERO, TRAITOR, HauntState, Monster, plays
from hauntcheck.engine.betrayal.model import SIDES, TRAITS
from hauntcheck.engine.betrayal.position.keys import HAUNT_EXTRA, HAUNT_FIELDS, HAUNT_KEYS, MONSTER_KEYS, Path, _near
from hauntcheck.engine.betrayal.position.parts import _PartsBuilder
from hauntcheck.engine.betrayal.state import Gen, Turn


class _HauntBuilder(_PartsBuilder):
    """A position in the haunt phase: the haunt begun, its own setup run, then what the position states."""

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
            elif form in ("set", "list", "pairs", "tuples"):
                if not isinstance(value, list) or (form == "pairs" and not all(
                        isinstance(v, list) and len(v) == 2 and isinstance(v[1], list) for v in value)) or (
                        form == "tuples" and not all(isinstance(v, list) and len(v) == 2 for v in value)):
                    of = {"pairs": " of [name, [rooms]] pairs", "tuples": " of [token, room] pairs"}.get(form, "")
                    self.bad(path, f"{key} is a list{of}"
                             + ", as in snapshot()")
                    continue
                if form == "pairs":
                    setattr(st, attr, [(str(a), tuple(str(r) for r in b)) for a, b in value])
                else:
                    # the engine's (token, room) entries are tuples (compiled, it checks)
                    setattr(st, attr, set(value) if form == "set" else [tuple(v) for v in value] if form == "tuples" else list(value))
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
                elif key == "trait_values":
                    st.trait_values = {str(k): {"values": {str(t): int(n) for t, n in v["values"].items()},
                                                "per_hero_killed": {str(t): int(n) for t, n in v["per_hero_killed"].items()},
                                                "minimum": int(v["minimum"])} for k, v in value.items()}
                elif key == "hero_kills":
                    st.hero_kills = {str(k): int(n) for k, n in value.items()}
                elif key == "collapse_by":
                    st.collapse_by = str(value)
                elif key == "concealed":
                    st.concealed = {str(k): {"rooms": sorted(str(r) for r in v["rooms"]), "seen": str(v.get("seen", "")),
                                             "exit": str(v.get("exit", ""))} for k, v in value.items()}
                elif key == "converts":
                    converts = [str(v) for v in value]
                    if any(s not in st.seat_ids for s in converts):
                        raise ValueError(converts)
                    st.converts = converts
                    if st.hidden is not None or st.hands:  # a hidden-traitor haunt's converts are hidden ones
                        st.hidden_converts = set(converts)
                elif key == "hands":
                    st.hands = {str(t): {str(s): [int(n) for n in hand] for s, hand in held.items()} for t, held in value.items()}
                    if st.converts:
                        st.hidden_converts = set(st.converts)
                else:
                    st.pending_losses = [str(v) for v in value]
            except (TypeError, ValueError, KeyError, AttributeError):
                self.bad(path, f"{key} is as describe_position gives it: " + {
                    "fetches": "[[side, card, stack], ...]", "next_omen": "[[side, [cards]], ...]",
                    "rolled": "a trait", "pending_losses": "a list", "hidden_traitor": "{seat, revealed}",
                    "hidden_token": "a token id", "trait_values": "{seat: {values, per_hero_killed, minimum}}",
                    "hero_kills": "{seat: count}", "collapse_by": "a hook id",
                    "concealed": "{seat: {rooms, seen, exit}}", "converts": "[seat, ...]",
                    "hands": "{token: {seat: [numbers]}}"}[key])
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
                stats = st.printed_stats(mdef)
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
            walk = mdef.movement.get("straight_ahead")
            facing = item.get("facing", walk["facing"] if walk else None)
            if facing is not None and facing not in SIDES:
                self.bad((*path, "facing"), f"facing is one of {', '.join(SIDES)}")
                continue
            out.append(Monster(str(uid), str(kind), str(room), dict(sorted(stats.items())), stunned=bool(item.get("stunned", False)),
                               gone=str(item.get("gone", "")), damage=damage, counterpart=counterpart,
                               cards=[str(c) for c in cards], part=part,
                               facing=SIDES.index(str(facing)) if facing is not None else None))
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
        yield from st.after_turn_loop(seat)
    yield from st._end_haunt_turn(seat)
