"""Betrayal after the reveal: the haunt phase, driven by the haunt's spec file.

The haunt's file (``spec/betrayal/haunts/NN-slug.yaml``) is data in the haunt vocabulary
(``docs/haunt-format.md``); this package interprets it. Its modules, in the order the haunt
phase's state class is built from them (each adds one part of the rules):

* :mod:`.pieces` - the sides, a monster token, a weapon card; reading haunt files and weapons;
* :mod:`.base` - the haunt phase's fields and the questions every rule asks (who is in play,
  on which side, which monster is where, distances for monsters);
* :mod:`.amounts` - numbers, rooms and explorers as the vocabulary names them;
* :mod:`.predicates` - the vocabulary's tests (``when``, ``requires``, ``if``);
* :mod:`.wins` - the haunt's goals, judged after every step;
* :mod:`.outcomes` - the vocabulary's ``do`` lists, death at the skull, turning traitor;
* :mod:`.combat` - attacks, fight rules, damage, defeated monsters;
* :mod:`.monsters` - the monster turn: rolls, movement, abilities, attacks;
* :mod:`.setup_steps` - the "Right Now" setup;
* :mod:`.tasks` - the actions a haunt gives its explorers;
* :mod:`.collapse` - a house falling room by room (a side's ``collapse``);
* :mod:`.turns` - an explorer's haunt-phase turn, turn rules, timers;
* :mod:`.state` - :class:`HauntState`, the whole game, and :func:`new_game`;
* :mod:`.playable` - whether the engine plays a haunt, decided from its file;
* :mod:`.registry` - the named hooks (``engine/betrayal/hooks/hNN_slug.py``), found by the registry.

Haunts whose vocabulary the interpreter does not cover yet end at the reveal as ``undecided``
with the reason in the outcome: the engine never guesses a haunt's rules.
"""

from __future__ import annotations

from hauntcheck.engine.betrayal.haunt import registry
from hauntcheck.engine.betrayal.haunt.pieces import (
    DEFAULT_ROUNDS,
    HERO,
    TRAITOR,
    Monster,
    Weapon,
    load_haunts,
    load_weapons,
)
from hauntcheck.engine.betrayal.haunt.playable import Gap, gaps, plays
from hauntcheck.engine.betrayal.haunt.state import HauntState, haunt_tables, invariants, new_game, support

#: Every named hook this engine carries out, by id, with its docstring (the others block their haunt).
HOOKS: dict[str, str] = registry.docs()
#: Hook companions for planning (policy): whether a haunt token lying in a room can be had now.
TOKEN_ROOM_HOOKS = registry.hook.token_room

__all__ = [
    "DEFAULT_ROUNDS",
    "HERO",
    "HOOKS",
    "TOKEN_ROOM_HOOKS",
    "TRAITOR",
    "Gap",
    "HauntState",
    "Monster",
    "Weapon",
    "gaps",
    "haunt_tables",
    "invariants",
    "load_haunts",
    "load_weapons",
    "new_game",
    "plays",
    "support",
]
