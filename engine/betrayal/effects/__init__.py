"""The effect vocabulary (``spec/schema/effects.schema.json``) interpreted once, for rooms, cards and tokens.

Rooms, cards and the tokens cards leave carry *abilities*: a trigger, conditions, a limit and a
list of effects. This package finds the abilities a moment calls for (entering or leaving a room,
ending a turn, drawing or gaining a card, an in-room or on-use action) and runs their effects as
generator code against :class:`~hauntcheck.engine.betrayal.state.BetrayalState`: decisions and
dice are yielded to the players and to chance like everything else.

What the vocabulary cannot say is written in the spec as ``{custom: <hook>, says: ...}``; those
names are looked up in :data:`EFFECT_HOOKS` and :data:`CONDITION_HOOKS`. A hook the engine does
not know is reported as an event (``card.read-aloud`` / ``room.text-applies-each-entry``) saying
that it is not simulated before the haunt, so a transcript never hides it.

The modules, each building on the ones before it:

* :mod:`.context` - :class:`Ctx` (who an effect resolves for, where it came from), rule citations, ``who`` targets
* :mod:`.abilities` - whose abilities apply where, variants and use limits
* :mod:`.interpreter` - :func:`run` (an effect list), :func:`condition`, and the tables verbs and hooks are looked up in
* :mod:`.triggers` - the moments that fire abilities: rooms entered, left, discovered; turns; cards drawn, gained, lost
* :mod:`.rolls` - dice counts, rolls with items that change them, bands and targets
* :mod:`.traits` - gain, lose, damage, heal, set traits; attacks by unseen forces
* :mod:`.movement` - explorers and room tiles moved by effects
* :mod:`.cards` - tokens placed and removed, cards kept, discarded, returned, peeked at; lasting hindrances
* :mod:`.hooks` - the named hooks of rooms and cards
* :mod:`.actions` - the actions abilities add to a turn, and doing one
* :mod:`.verbs` - the verb table, and the verbs that steer the list (choose, if, flags, custom)

The rest of the engine uses this package's names (``effects.run``, ``effects.gain_card``, ...), which
are re-exported here.
"""

from __future__ import annotations

# The verb table is filled when its module loads; nothing else is taken from it by name.
from hauntcheck.engine.betrayal.effects import verbs  # noqa: F401
from hauntcheck.engine.betrayal.effects.abilities import held_abilities, room_abilities, room_abilities_with
from hauntcheck.engine.betrayal.effects.actions import (
    MENU_TRIGGERS,
    blocked,
    card_actions,
    do_action,
    max_move,
    room_actions,
    status_actions,
)
from hauntcheck.engine.betrayal.effects.cards import _peek, _token_card
from hauntcheck.engine.betrayal.effects.context import GROUPS, ROOM_RULES, Ctx, Effects, source_rule, variant_on
from hauntcheck.engine.betrayal.effects.hooks import EFFECT_HOOKS, villain_elevator
from hauntcheck.engine.betrayal.effects.interpreter import (
    CONDITION_HOOKS,
    ONGOING_HOOKS,
    VERBS,
    closed_floor_of,
    condition,
    leads_to_closed_floor,
    run,
)
from hauntcheck.engine.betrayal.effects.movement import (
    _move_tile,
    arrival_part,
    destination,
    draw_room,
    fetch_room,
    move_to,
    placement_actions,
)
from hauntcheck.engine.betrayal.effects.rolls import ROLL_TIMINGS, dice_for, own_roll
from hauntcheck.engine.betrayal.effects.traits import take_damage
from hauntcheck.engine.betrayal.effects.triggers import (
    TRAITOR_MAY_REFUSE,
    _discard_status_card,
    card_drawn,
    card_stolen,
    discovered,
    end_of_turn,
    enter_room,
    gain_card,
    leave_room,
    lose_card,
    run_triggered,
    start_of_turn,
)

__all__ = [
    "CONDITION_HOOKS",
    "EFFECT_HOOKS",
    "GROUPS",
    "MENU_TRIGGERS",
    "ONGOING_HOOKS",
    "ROLL_TIMINGS",
    "ROOM_RULES",
    "TRAITOR_MAY_REFUSE",
    "VERBS",
    "Ctx",
    "Effects",
    "_discard_status_card",
    "_move_tile",
    "_peek",
    "_token_card",
    "arrival_part",
    "blocked",
    "card_actions",
    "card_drawn",
    "card_stolen",
    "closed_floor_of",
    "condition",
    "destination",
    "dice_for",
    "discovered",
    "do_action",
    "draw_room",
    "end_of_turn",
    "enter_room",
    "fetch_room",
    "gain_card",
    "held_abilities",
    "leads_to_closed_floor",
    "leave_room",
    "lose_card",
    "max_move",
    "move_to",
    "own_roll",
    "placement_actions",
    "room_abilities",
    "room_abilities_with",
    "room_actions",
    "run",
    "run_triggered",
    "source_rule",
    "start_of_turn",
    "status_actions",
    "take_damage",
    "variant_on",
    "villain_elevator",
]
