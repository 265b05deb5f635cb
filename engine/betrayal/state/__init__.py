"""Betrayal before the haunt: setup, turns, movement, discovery, cards, traits, dice, haunt roll, reveal.

The game is written as one straight-line program (:meth:`BetrayalState._game`, a generator). At
each decision the program yields a :class:`Req` naming the actor (a seat or ``chance``) and what
it may choose; :meth:`BetrayalState._apply` sends the chosen action back in and collects the events
the program emits until it stops at the next decision. Every event names the rule clause (by id in
``spec/betrayal/rules.yaml``) that produced it.

A decision with a single legal option is taken without asking (it is not a choice); a chance
process with a single outcome likewise.

``clone()`` rebuilds the state by replaying its action log on a fresh game, so the running
program is never copied; ``snapshot()`` is the complete data state plus the pending decision.

:class:`BetrayalState` is built as a chain of classes, one module each, every one adding one part
of the rules:

* :mod:`.base` - the fields, the plain types (:class:`Req`, ``Gen``, :class:`Explorer`,
  :class:`Turn`, :class:`Setup`), rule variants, and what every rule asks (names, values, asking,
  rolling, the top card of a stack);
* :mod:`.traits` - traits on their tracks, death at the skull, task rolls;
* :mod:`.cards` - card draws; items traded, dropped, picked up;
* :mod:`.discovery` - room tiles drawn, fitted, placed, rearranged;
* :mod:`.movement` - exits, movement, barrier sides, distances;
* :mod:`.haunt_roll` - the haunt roll, the reveal, the haunt and the traitor;
* :mod:`.turns` - the game's program: setup, then the turns;
* :mod:`.game` - :class:`BetrayalState` as the core's game interface, and :func:`invariants`.

The effects of rooms and cards are :mod:`hauntcheck.engine.betrayal.effects`; the haunt phase
(:mod:`hauntcheck.engine.betrayal.haunt`) subclasses :class:`BetrayalState`.
"""

from __future__ import annotations

from hauntcheck.engine.betrayal.effects import Ctx
from hauntcheck.engine.betrayal.model import FLOORS, MENTAL, PHYSICAL
from hauntcheck.engine.betrayal.state.base import TURN_PROMPT, Explorer, Gen, Req, Setup, Turn, parse_variants, variant_names
from hauntcheck.engine.betrayal.state.game import BetrayalState, invariants

__all__ = [
    "FLOORS", "MENTAL", "PHYSICAL", "TURN_PROMPT", "BetrayalState", "Ctx", "Explorer", "Gen", "Req", "Setup", "Turn",
    "invariants", "parse_variants", "variant_names",
]
