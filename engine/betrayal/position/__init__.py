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
                be in the house. ``turn`` may name any seat of the round that is in play.
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

The package's modules: :mod:`.keys` (the keys above, and what building and describing both read
from the spec), :mod:`.parts` (the parts put into a new game), :mod:`.haunt_phase` (a position in
the haunt phase), :mod:`.build` (:func:`build_position`, the turn restarted), :mod:`.describe`
(:func:`describe_position`, :func:`lead_up`).
"""

from __future__ import annotations

from hauntcheck.engine.betrayal.position.build import build_position
from hauntcheck.engine.betrayal.position.describe import at_turn_prompt, describe_position, lead_up
from hauntcheck.engine.betrayal.position.keys import KEYS

__all__ = ["KEYS", "at_turn_prompt", "build_position", "describe_position", "lead_up"]
