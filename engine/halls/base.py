"""The fields of a Halls of Horror state, the :class:`GameState` interface, board geometry and the
driver that runs automatic steps until someone must decide.

The game's rules are layers on :class:`HallsBase`, each a class in its own module that builds on
the one before: ``search`` <- ``locks`` <- ``combat`` <- ``turn`` <- ``killer``, ending in
:class:`hauntcheck.engine.halls.state.HallsState`. A layer calls rules of the layers below it
(the one call upward, from a turn to the MC phase, is declared in ``turn``). The driver finds a
step's rules by name: stage ``x-y`` runs ``_st_x_y`` and a decision of kind ``x-y`` is applied by
``_on_x_y``, wherever in the layers they are defined.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Self

from hauntcheck.checks.halls_locks import Cell
from hauntcheck.engine.compiled import copied
from hauntcheck.engine.core import CHANCE, Action, ActionList, Choices, Event, EventArg, GameState, Outcome
from hauntcheck.engine.halls.model import GAME_ID, Killer, Need, Participant, Room, RoomDef, grid_steps, load_data
from hauntcheck.engine.spec import GameSpec


@functools.cache
def _rule_of(cls: type, prefix: str, name: str) -> Callable[..., None]:
    """The method that runs stage ``x-y`` (``_st_x_y``) or applies a decision of kind ``x-y``
    (``_on_x_y``), found once per class rather than by name at every step."""
    method: Callable[..., None] = getattr(cls, prefix + name.replace("-", "_"))
    return method


@functools.cache
def _turn_order(first: int, players: int) -> tuple[int, ...]:
    return tuple((first + k) % players for k in range(players))


class HallsBase(GameState):
    """The state's fields and the helpers every rule uses; it plays nothing by itself."""

    game = GAME_ID

    def __init__(self, spec: GameSpec, players: int, options: Mapping[str, Any]) -> None:
        self.d = load_data(spec)
        self.R = self.d.rules
        self.players = players
        self.solo = players == 1
        self.variant = str(options.get("variant", "A"))
        self.decks = str(options.get("decks", "separate"))
        self.side = str(options.get("side", "beginner"))
        self.lay = self.d.layouts[players]
        self.rows, self.cols = int(self.lay["rows"]), int(self.lay["cols"])
        self.rooms = [Room() for _ in range(self.rows * self.cols)]
        self.steps = grid_steps(self.rows, self.cols)  # shared, read-only
        self.pp: list[Participant] = []
        self.killer = Killer(hp=self.d.killer_hp)
        self.reward_deck: list[str] = []
        self.reward_discard: list[str] = []
        self.mc_deck: list[str] = []
        self.mc_discard: list[str] = []
        self.gift_pile: list[str] = []
        self.first = 0
        self.round = 1
        self.dead_order: list[int] = []
        self.mc_holders: list[int] = []  # seats that have held the MC role
        self.mc_index = -1  # seat index of the current MC (-1: none yet)
        self.keys_made = 0
        self.keys_spent = 0
        self.result: Outcome | None = None
        self.stage = "setup-mixed" if self.variant == "mixed" else "setup-rooms"
        self.pool: list[str] = []  # chosen numbered rooms before dealing
        self.ctx: dict[str, Any] = {}
        self.turn: dict[str, Any] = {}
        self.mc: dict[str, Any] = {}
        self.milestones: set[str] = set()
        self._need: Need | None = None
        self._legal: Choices | None = None
        self._events: list[Event] = []
        self._last_actor = ""
        # Every (actor, action) so far as a shared linked list (clones share it, appending is O(1)),
        # and how many of them had been taken when the current round's action selection began: how
        # `hauntcheck report` describes a moment in the middle of a round.
        self.trail: tuple[str, Action, Any] | None = None
        self.trail_len = 0
        self.anchor_len = -1  # not yet known (setup)
        self._round_began = False

    # ---- GameState interface

    def to_move(self) -> str | None:
        if self.result is not None or self._need is None:
            return None
        return self._need.actor

    def legal_actions(self) -> Choices:
        if self._legal is None:
            need = self._need
            if need is None or self.result is not None:
                self._legal = ActionList([])
            elif need.chance is not None:
                self._legal = need.chance
            else:
                self._legal = ActionList(need.options)
        return self._legal

    def outcome(self) -> Outcome | None:
        return self.result

    def seat_of(self, k: int) -> str:
        return f"P{k + 1}"

    def seats(self) -> list[str]:
        return [f"P{i + 1}" for i in range(self.players)]

    def roster(self) -> dict[str, str]:
        return {p.seat: p.name for p in self.pp}

    def reached(self, milestone: str) -> bool:
        return milestone in self.milestones

    def clone(self) -> Self:
        other = copied(self)  # (compiled, copy.copy would share the dict: engine.compiled)
        for name in ("rooms", "pp", "killer", "reward_deck", "reward_discard", "mc_deck", "mc_discard", "gift_pile",
                     "dead_order", "mc_holders", "pool", "ctx", "turn", "mc", "milestones", "_need"):
            setattr(other, name, copy.deepcopy(getattr(self, name)))
        other._legal = None
        other._events = []
        return other

    def snapshot(self) -> dict[str, Any]:
        """The whole state. Rooms are keyed by card id (``rooms.r12a.temp``) and Participants by
        seat (``participants.P1.hp``); rooms are given as ``[row, col]`` cells."""
        seat = self.seat_of
        return {
            "players": self.players, "variant": self.variant, "decks": self.decks, "side": self.side,
            "stage": self.stage, "round": self.round, "first": seat(self.first),
            "mc": None if self.mc_index < 0 else seat(self.mc_index), "dead": [seat(k) for k in self.dead_order],
            "mc_holders": [seat(k) for k in self.mc_holders],
            "grid": [[self.rooms[self.idx(r, c)].card for c in range(self.cols)] for r in range(self.rows)],
            "rooms": {room.card: {"at": list(self.cell(i)), **room.data()} for i, room in enumerate(self.rooms) if room.card},
            "participants": {p.seat: {**p.data(), "room": None if p.pos < 0 else list(self.cell(p.pos))} for p in self.pp},
            "killer": {**self.killer.data(), "room": list(self.cell(self.killer.pos))},
            "reward_deck": list(self.reward_deck), "reward_discard": list(self.reward_discard),
            "mc_deck": list(self.mc_deck), "mc_discard": list(self.mc_discard), "gifts": list(self.gift_pile),
            "keys_made": self.keys_made, "keys_spent": self.keys_spent,
            "turn": copy.deepcopy(self.turn), "mc_phase": copy.deepcopy(self.mc), "ctx": copy.deepcopy(self.ctx),
            "need": None if self._need is None else {"actor": self._need.actor, "kind": self._need.kind},
            "result": None if self.result is None else self.result.to_data(),
        }

    def _apply(self, action: Action) -> list[Event]:
        self._events = []
        need = self._need
        assert need is not None
        self._last_actor = need.actor
        self._need = None
        self._legal = None
        self.trail = (need.actor, action, self.trail)
        self.trail_len += 1
        _rule_of(type(self), "_on_", need.kind)(self, action)
        self._advance()
        if self._round_began:
            self._round_began = False
            self.anchor_len = self.trail_len
        return self._events

    def actions_taken(self) -> list[tuple[str, Action]]:
        """(actor, action) of every action applied to this state (or to the position it was built from)."""
        out = []
        node = self.trail
        while node is not None:
            out.append((node[0], node[1]))
            node = node[2]
        return out[::-1]

    # ---- helpers

    def _ev(self, rule: str, text: str, **args: EventArg) -> None:
        if not self.quiet:
            self._events.append(self.R.event(rule, text, **args))

    def cell(self, i: int) -> Cell:
        return divmod(i, self.cols)

    def idx(self, r: int, c: int) -> int:
        return r * self.cols + c

    def where(self, i: int) -> str:
        r, c = self.cell(i)
        room = self.rooms[i]
        name = self.d.rooms[room.card].name if room.up and room.card else "face-down room"
        return f"{name} [{r},{c}]"

    def step(self, i: int, direction: str) -> int | None:
        return self.steps[i][direction]

    def open_step(self, i: int, direction: str, killer: bool = False) -> int | None:
        """Rule move.one-space: the neighbouring room if it can be entered (not locked for good,
        not closed around someone working on its puzzle)."""
        j = self.step(i, direction)
        if j is None or self.rooms[j].locked or self.rooms[j].temp:
            return None
        return j

    def living(self) -> list[Participant]:
        return [p for p in self.pp if p.alive and not p.escaped]

    def order(self) -> tuple[int, ...]:
        """Seat indexes in turn order: the First Player, then clockwise."""
        return _turn_order(self.first, self.players)

    def living_order(self) -> list[int]:
        return [i for i in self.order() if self.pp[i].alive and not self.pp[i].escaped]

    def people_in(self, i: int) -> list[Participant]:
        return [p for p in self.pp if p.alive and not p.escaped and p.pos == i]

    def rdef(self, i: int) -> RoomDef:
        return self.d.rooms[self.rooms[i].card]

    def need(self, actor: str, kind: str, options: Iterable[Action]) -> None:
        self._need = Need(actor, kind, list(options))

    def need_chance(self, kind: str, choices: Choices) -> None:
        self._need = Need(CHANCE, kind, chance=choices)

    def power(self, p: Participant, name: str) -> bool:
        return name in p.powers

    # ---- the driver: run automatic steps until someone must decide

    def _advance(self) -> None:
        guard = 0
        while self._need is None and self.result is None:
            guard += 1
            if guard > 10_000:
                raise RuntimeError("halls engine made no decision in 10000 steps")
            _rule_of(type(self), "_st_", self.stage)(self)

    def _enter(self, p: Participant, to: int, rule: str, text: str, **args: EventArg) -> None:
        p.pos = to
        room = self.rooms[to]
        if not room.up:
            room.up = True
            self.turn["revealed"].append([p.seat, to])
            self._ev("move.reveal", f"{text} and reveals {self.where(to)}", seat=p.seat, **args, to=list(self.cell(to)),
                    room=room.card)
            if self.rdef(to).mode == "exit":
                self.milestones.add("exit-revealed")
        else:
            self._ev(rule, f"{text} to {self.where(to)}", seat=p.seat, **args, to=list(self.cell(to)))
