"""What a monster's steps depend on that does not change in a game: from its haunt file, read once
per haunt spec, the rooms and passages closed to its kind, walls and fallen rooms it goes through,
what each room costs it, whether it has rules that fire on entering a room, whether it carries
anything; from the tables, read once per tables, the chutes, falls and jumps it may take."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from hauntcheck.engine.betrayal.hauntspec import HauntSpec, MonsterDef
from hauntcheck.engine.betrayal.model import Connection, Tables


class MonsterWays(NamedTuple):
    """What a monster kind's steps and stops (``Monsters._monster_steps``, its checks and pick-ups)
    depend on that its haunt file fixes."""

    #: Rooms it may not use (``may_not_use``), and the tokens whose passages are closed to it.
    forbidden: frozenset[str]
    no_tokens: frozenset[str]
    through_walls: bool
    through_collapsed: bool
    #: Spaces each room costs it beyond the first (``movement.room_cost``).
    extra_per_room: int
    #: It has ``must`` rules that fire on entering or starting in a room (``_monster_checks``).
    lures: bool
    #: It may carry haunt tokens or items (``_monster_pickup``).
    carries: bool

    @classmethod
    def of(cls, mdef: MonsterDef, raw: Mapping[str, Any]) -> MonsterWays:
        """The kind's ways from its definition and its entry in the haunt file (``raw``)."""
        return cls(
            frozenset(raw.get("may_not_use", ())), frozenset(raw.get("may_not_use_tokens", ())),
            bool(mdef.movement.get("through_walls")), bool(mdef.movement.get("through_collapsed")),
            int(mdef.movement.get("room_cost", 1)) - 1,
            any(rule.get("when") == "on-enter-or-start" for rule in mdef.must),
            bool(mdef.carries.get("tokens")) or bool(mdef.carries.get("items")))


def raw_monsters(raw: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """A haunt file's monster entries by id (the first of an id, as a walk of the list finds it)."""
    out: dict[str, Mapping[str, Any]] = {}
    for mon in raw.get("monsters", ()):
        out.setdefault(mon.get("id"), mon)
    return out


def no_ways(hs: HauntSpec) -> dict[str, MonsterWays]:
    """The start of a haunt spec's :class:`MonsterWays` by kind, filled as the kinds are asked about."""
    return {}


def drop_rooms(t: Tables) -> list[tuple[str, list[Connection]]]:
    """The rooms of the tables with chutes, falls and jumps, in the tables' order, each with those
    connections (a monster's move asks at every step)."""
    return [(rid, [c for c in rdef.connections if c.kind in ("chute", "fall", "jump")])
            for rid, rdef in t.rooms.items() if any(c.kind in ("chute", "fall", "jump") for c in rdef.connections)]


def landing_marks(t: Tables) -> list[tuple[str, str]]:
    """The falls of :func:`drop_rooms` that land where a token marks, not in a room: (room, token)."""
    return [(rid, c.to) for rid, drops in t.derived("drop-rooms", drop_rooms) for c in drops if c.to not in t.rooms]
