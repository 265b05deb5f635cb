"""A goal-directed baseline policy for Betrayal: the controller of golden games.

Before the haunt the policy explores (new rooms bring the omens that start the haunt). After the
reveal it reads its side's goals from the haunt's spec, not from code per haunt:

* rooms its goals name - the rooms where a monster's ``must`` rule traps it (heroes wait there
  to lure the monsters in), the rooms of its side's task rolls;
* opponents its goals ask to defeat (``monsters_defeated`` with ``killed``, ``heroes_dead``) and
  the items its attack rules require (``holding``);

and then moves by shortest path toward them, picks up what the goals need, attacks when its dice
are at least the defender's (never where an attack rule makes the fight cost it), and otherwise
explores. Monsters it controls head for the nearest opponent and keep away from the rooms that
would trap them. Every other decision (placing tiles, splitting damage ...) is either the choice
that keeps the explorer healthiest or a seeded random pick, so a game is a function of the seed.

The package's modules: :mod:`.goals` (what a side's goals ask for, from the spec), :mod:`.turn`
(an explorer's turn), :mod:`.fields` (rooms a harmful token field holds or will reach, and a
hero's step out of its way), :mod:`.monsters` (the monsters it controls), :mod:`.decide`
(:func:`policy`, one decision by its kind), :mod:`.seeds` (seed searches for golden games).
"""

from __future__ import annotations

from hauntcheck.engine.betrayal.haunt import TRAITOR
from hauntcheck.engine.betrayal.policy.decide import policy
from hauntcheck.engine.betrayal.policy.goals import goal_rooms, item_places, wanted_cards
from hauntcheck.engine.betrayal.policy.monsters import monster_goal
from hauntcheck.engine.betrayal.policy.seeds import plan_golden, search_decided, search_seed
from hauntcheck.engine.betrayal.policy.turn import token_needs

__all__ = [
    "TRAITOR", "goal_rooms", "item_places", "monster_goal", "plan_golden", "policy", "search_decided", "search_seed", "token_needs",
    "wanted_cards",
]
