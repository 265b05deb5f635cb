"""Halls of Horror: Participants search a grid of Room cards for two Keys and an Exit while a
Killer, driven by the Master of the Ceremony deck, hunts them.

The engine follows the rule clauses of ``spec/halls-of-horror/rules.yaml`` (every event names
one) and reads every number and card from the spec. A turn is: secret action choice (each
Participant's choice is its own decision; legal choices depend only on the position at the start
of the turn, never on earlier secret choices), resolution in turn order (combats resolve as a
whole), and the MC phase (locks for Keys and deaths, then the MC card). Shuffles and dice are
chance actions; decks are shuffled once and drawn from the top.

Which rooms may be locked is decided by :mod:`hauntcheck.checks.halls_locks` (the path rule).
"""

from __future__ import annotations

import copy
import difflib
import itertools
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape

from hauntcheck.checks.halls_locks import Cell, LockGrid, cut_off, legal_locks, lock_is_safe
from hauntcheck.engine.core import (
    CHANCE,
    Action,
    ActionList,
    Choices,
    DiceRoll,
    Event,
    GameState,
    Outcome,
    Rng,
    RuleBook,
    Shuffle,
)
from hauntcheck.engine.games import GameDef, GoldenCase, Option, rule_id_errors, rulebook
from hauntcheck.engine.spec import GameSpec, SpecError

GAME_ID = "halls-of-horror"
DIRS: dict[str, tuple[int, int]] = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
ITEM_ORDER = ("knife", "fireaxe", "pistol", "shotgun", "first-aid-kit", "kevlar-vest")
NEGATIVE = ("damage", "panic")


# --------------------------------------------------------------------------------------------
# Spec data


@dataclass(frozen=True)
class Slot:
    reward: str
    outline: str = "none"
    item: str = ""
    ammo: str = ""
    amount: int = 1
    also: int = -1
    extra_ammo: int = 0
    draw: int = 0

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Slot:
        return cls(data["reward"], data.get("outline", "none"), data.get("item", ""), data.get("ammo", ""),
                   int(data.get("amount", 1)), int(data.get("also", -1)), int(data.get("extra_ammo", 0)),
                   int(data.get("draw", 0)))

    def label(self) -> str:
        if self.item:
            return self.item
        if self.reward == "ammo":
            return f"{self.amount} {self.ammo}{'s' if self.amount > 1 else ''}"
        if self.reward == "damage":
            return f"{self.amount} damage"
        return self.reward


@dataclass(frozen=True)
class RoomDef:
    id: str
    name: str
    mode: str
    search: int
    rewards: tuple[Slot, ...]
    penalty: Slot | None
    locks_on_entry: bool
    on_fail: str
    requires: Mapping[str, Any]
    needs_keys: int
    number: int
    start: bool = False

    @classmethod
    def of(cls, data: Mapping[str, Any], start: bool = False) -> RoomDef:
        penalty = data.get("penalty")
        return cls(data["id"], data["name"], data["mode"], int(data.get("search") or 0),
                   tuple(Slot.of(s) for s in data.get("rewards", [])), Slot.of(penalty) if penalty else None,
                   bool(data.get("locks_on_entry", False)), data.get("on_fail", "progress"),
                   dict(data.get("requires", {})), int(data.get("needs_keys", 0)), int(data.get("number", 0)), start)


@dataclass(frozen=True)
class Weapon:
    id: str
    faces: tuple[int, ...]
    damage: int
    ammo: str


@dataclass
class HallsData:
    """Everything the engine reads from the spec, in engine-friendly form."""

    rules: RuleBook
    rooms: dict[str, RoomDef]
    numbered: dict[int, dict[str, str]]  # number -> variant -> room id
    starts: list[tuple[str, str]]  # (side A id, side B id) per starting room card
    exits: list[str]
    layouts: dict[int, dict[str, Any]]
    hp: int
    hp_max: int
    resolve: int
    dice: int
    die: tuple[int, ...]
    round_limit: int
    killer_hp: int
    killer_hp_max: int
    killer_faces: tuple[int, ...]
    rage: list[tuple[int, int, int]]  # (dice, damage, solo successes) per Rage step
    costs: dict[str, int]
    attack: Weapon
    escape_faces: tuple[int, ...]
    tie_flat: int
    weapons: dict[str, Weapon]
    items: dict[str, dict[str, Any]]
    reward_symbols: dict[str, tuple[str, ...]]
    reward_deck: list[str]
    mc: dict[str, dict[str, Any]]
    mc_deck: list[str]
    solo: dict[str, dict[str, Any]]
    solo_deck: list[str]
    gifts: dict[str, tuple[Slot, ...]]
    gift_pool: list[str]
    participants: list[dict[str, Any]]


def load_data(spec: GameSpec) -> HallsData:
    return _load_data(id(spec), spec)


_DATA: dict[int, tuple[GameSpec, HallsData]] = {}


def _load_data(key: int, spec: GameSpec) -> HallsData:
    cached = _DATA.get(key)
    if cached is not None and cached[0] is spec:
        return cached[1]
    comp = spec.one("hoh-components").data
    killer = spec.one("hoh-killer").data
    items = spec.one("hoh-items").data
    rooms_file = spec.one("hoh-rooms").data
    decks = spec.one("hoh-decks").data
    rooms: dict[str, RoomDef] = {}
    numbered: dict[int, dict[str, str]] = {}
    for r in rooms_file["rooms"]:
        rd = RoomDef.of(r)
        rooms[rd.id] = rd
        numbered.setdefault(rd.number, {})[r["variant"]] = rd.id
    starts = []
    for s in rooms_file["starting_rooms"]:
        a, b = (RoomDef.of(side, start=True) for side in s["sides"])
        rooms[a.id], rooms[b.id] = a, b
        starts.append((a.id, b.id))
    exits = []
    for e in rooms_file["exits"]:
        rd = RoomDef.of(e)
        rooms[rd.id] = rd
        exits.append(rd.id)
    combat = items["combat"]
    weapons = {
        i["id"]: Weapon(i["id"], tuple(i["faces"]), int(i["damage"]), i.get("ammo", ""))
        for i in items["items"] if i["category"] in ("melee", "firearm")
    }
    data = HallsData(
        rules=rulebook(spec),
        rooms=rooms,
        numbered=numbered,
        starts=starts,
        exits=exits,
        layouts={int(lay["players"]): lay for lay in comp["layouts"]},
        hp=int(comp["participant"]["hp"]),
        hp_max=int(comp["participant"]["hp_max"]),
        resolve=int(comp["participant"]["resolve"]),
        dice=int(comp["participant"]["dice"]),
        die=tuple(comp["die"]["faces"]),
        round_limit=int(comp["round_limit"]["rounds"]),
        killer_hp=int(killer["hp"]["start"]),
        killer_hp_max=int(killer["hp"]["max"]),
        killer_faces=tuple(killer["success_faces"]["faces"]),
        rage=[(int(r["dice"]), int(r["damage"]), int(r["solo_successes"])) for r in killer["rage"]],
        costs={k: int(v) for k, v in killer["symbol_costs"].items() if isinstance(v, int)},
        attack=Weapon("basic", tuple(combat["attack"]["faces"]), int(combat["attack"]["damage"]), ""),
        escape_faces=tuple(combat["escape"]["faces"]),
        tie_flat=int(combat["tie_flat_damage"]),
        weapons=weapons,
        items={i["id"]: i for i in items["items"]},
        reward_symbols={c["id"]: tuple(c["symbols"]) for c in decks["rewards"]},
        reward_deck=[c["id"] for c in decks["rewards"] for _ in range(int(c["copies"]))],
        mc={c["id"]: c for c in decks["mc"]},
        mc_deck=[c["id"] for c in decks["mc"] for _ in range(int(c["copies"]))],
        solo={c["id"]: c for c in decks["mc_solo"]},
        solo_deck=[c["id"] for c in decks["mc_solo"] for _ in range(int(c["copies"]))],
        gifts={g["id"]: tuple(Slot.of(s) for s in g["gives"]) for g in decks["gifts"]},
        gift_pool=[g["id"] for g in decks["gifts"] for _ in range(int(g["copies"]))],
        participants=list(spec.one("hoh-participants").data["participants"]),
    )
    _DATA[key] = (spec, data)
    return data


# --------------------------------------------------------------------------------------------
# State pieces


@dataclass
class Room:
    card: str = ""
    up: bool = False  # face up
    locked: bool = False  # locked for good (lock.apply)
    temp: bool = False  # closed around a Participant working on its puzzle
    exhausted: bool = False
    covered: list[int] = field(default_factory=list)
    gift: str = ""
    start: bool = False

    def data(self) -> dict[str, Any]:
        return {"up": self.up, "locked": self.locked, "temp": self.temp, "exhausted": self.exhausted,
                "covered": sorted(self.covered), "gift": self.gift, "start": self.start}


@dataclass
class Participant:
    seat: str
    pid: str
    name: str
    pos: int
    hp: int
    resolve: int
    powers: tuple[str, ...] = ()
    items: list[str] = field(default_factory=list)
    bullets: int = 0
    shells: int = 0
    keys: int = 0
    panic: bool = False
    alive: bool = True
    searched: bool = False  # body searched
    escaped: bool = False

    def has(self, item: str) -> bool:
        return item in self.items

    def data(self) -> dict[str, Any]:
        return {"name": self.name, "hp": self.hp, "resolve": self.resolve,
                "items": sorted(self.items), "bullets": self.bullets, "shells": self.shells, "keys": self.keys,
                "panic": self.panic, "alive": self.alive, "searched": self.searched, "escaped": self.escaped}


@dataclass
class Killer:
    pos: int = 0
    hp: int = 10
    rage: int = 0
    stunned: bool = False
    key_given: bool = False
    carried: int = 0  # solo: Keys carried under the "not enough keys" rule
    two_keys: bool = False

    def active(self) -> bool:
        return not self.stunned and self.hp > 0

    def data(self) -> dict[str, Any]:
        return {"hp": self.hp, "rage": self.rage, "stunned": self.stunned,
                "key_given": self.key_given, "carried": self.carried, "two_keys": self.two_keys}


@dataclass
class Need:
    """The decision the game waits for: who decides and what they may do."""

    actor: str
    kind: str
    options: list[Action] = field(default_factory=list)
    chance: Choices | None = None


def ints(value: Any) -> list[int]:
    """An action argument that holds a list of integers."""
    assert isinstance(value, tuple)
    return [int(v) for v in value]


def num(value: Any) -> int:
    """An action argument that holds an integer."""
    assert isinstance(value, int)
    return value


def strs(value: Any) -> list[str]:
    assert isinstance(value, tuple)
    return [str(v) for v in value]


def _subsets(items: Sequence[int]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for k in range(1, len(items) + 1):
        out.extend(itertools.combinations(items, k))
    return out


# --------------------------------------------------------------------------------------------
# The game state


class HallsState(GameState):
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
        self.remake: Callable[[], HallsState] = lambda: HallsState(spec, players, options)
        self._advance()

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

    def clone(self) -> HallsState:
        other = copy.copy(self)
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
        getattr(self, "_on_" + need.kind.replace("-", "_"))(action)
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

    def _ev(self, rule: str, text: str) -> None:
        self._events.append(self.R.event(rule, text))

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
        r, c = self.cell(i)
        dr, dc = DIRS[direction]
        r, c = r + dr, c + dc
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return self.idx(r, c)
        return None

    def open_step(self, i: int, direction: str, killer: bool = False) -> int | None:
        """Rule move.one-space: the neighbouring room if it can be entered (not locked for good,
        not closed around someone working on its puzzle)."""
        j = self.step(i, direction)
        if j is None or self.rooms[j].locked or self.rooms[j].temp:
            return None
        return j

    def living(self) -> list[Participant]:
        return [p for p in self.pp if p.alive and not p.escaped]

    def order(self) -> list[int]:
        """Seat indexes in turn order: the First Player, then clockwise."""
        n = self.players
        return [(self.first + k) % n for k in range(n)]

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
            getattr(self, "_st_" + self.stage.replace("-", "_"))()

    # ================================================================= setup

    def _st_setup_mixed(self) -> None:
        self.need_chance("mixed", DiceRoll(24, faces=(0, 1), purpose="A or B for each room number"))

    def _on_mixed(self, action: Action) -> None:
        faces = action["faces"]
        assert isinstance(faces, tuple)
        self.ctx["mixed"] = ["A" if f == 0 else "B" for f in faces]
        self._ev("variant.mixed-decks", "rooms chosen: " + "".join(self.ctx["mixed"]))
        self.stage = "setup-rooms"

    def _room_pool(self) -> list[str]:
        """The numbered rooms to shuffle: one variety, one card per number chosen by chance
        (variant.mixed-decks), or both varieties in one deck (variant.combined-decks)."""
        removed = set(self.lay.get("remove_rooms", []))
        mixed = self.ctx.get("mixed")
        out: list[str] = []
        for k, number in enumerate(sorted(self.d.numbered)):
            if number in removed:
                continue
            if self.decks == "combined":
                out.extend(self.d.numbered[number][v] for v in sorted(self.d.numbered[number]))
                continue
            variant = mixed[k] if mixed else self.variant
            out.append(self.d.numbered[number][variant])
        return out

    def _st_setup_rooms(self) -> None:
        self.need_chance("rooms", Shuffle("rooms", self._room_pool()))

    def _on_rooms(self, action: Action) -> None:
        order = strs(action["order"])
        self.pool = order[: int(self.lay["numbered_rooms"])]
        if self.decks == "combined":
            self._ev("variant.combined-decks", f"both room decks shuffled together ({len(order)} cards)")
        self._ev("setup.room-deck", f"{len(self.pool)} rooms drawn for the board: {', '.join(self.pool)}")
        self.stage = "setup-board"

    def _st_setup_board(self) -> None:
        self.need_chance("board", Shuffle("board", [*self.pool, *self.d.exits]))

    def _on_board(self, action: Action) -> None:
        order = strs(action["order"])
        starts = {self.idx(r, c) for r, c in self.lay["starts"]}
        free = [i for i in range(len(self.rooms)) if i not in starts]
        if len(order) != len(free):
            raise ValueError(f"layout for {self.players} players needs {len(free)} face-down rooms, got {len(order)}")
        for i, card in zip(free, order, strict=True):
            self.rooms[i].card = card
        rule = "setup.grid" if self.players == 4 else "variant.small-grid-rooms"
        self._ev(rule, f"{len(free)} rooms dealt face down on a {self.rows}x{self.cols} grid")
        self.stage = "setup-faces"

    def _st_setup_faces(self) -> None:
        self.need_chance("faces", DiceRoll(len(self.lay["starts"]), faces=(0, 1), purpose="starting room faces"))

    def _on_faces(self, action: Action) -> None:
        faces = action["faces"]
        assert isinstance(faces, tuple)
        names = []
        for k, ((r, c), f) in enumerate(zip(self.lay["starts"], faces, strict=True)):
            i = self.idx(r, c)
            self.rooms[i].card = self.d.starts[k][num(f)]
            self.rooms[i].up = True
            self.rooms[i].start = True
            names.append(self.where(i))
        self._ev("setup.grid", "starting rooms: " + ", ".join(names))
        self.stage = "setup-mc"

    def _st_setup_mc(self) -> None:
        if self.solo:
            deck = list(self.d.solo_deck)
        else:
            removed = set(self.lay.get("remove_mc", []))
            deck = [c for c in self.d.mc_deck if c not in removed]
        self.need_chance("mc-shuffle", Shuffle("mc", deck))

    def _on_mc_shuffle(self, action: Action) -> None:
        self.mc_deck = strs(action["order"])
        if self.stage == "setup-mc":
            rule = "solo.setup" if self.solo else ("variant.two-players" if self.players == 2 else "setup.decks")
            self._ev(rule, f"MC deck shuffled ({len(self.mc_deck)} cards)")
            self.stage = "setup-gifts"
        else:
            self.mc_discard = []
            self._ev("mc.reshuffle", f"MC discards shuffled into a new deck ({len(self.mc_deck)} cards)")

    def _st_setup_gifts(self) -> None:
        self.need_chance("gift-shuffle", Shuffle("gifts", self.d.gift_pool))

    def _on_gift_shuffle(self, action: Action) -> None:
        self.gift_pile = strs(action["order"])
        self._ev("setup.decks", f"MC Gift tokens shuffled face down ({len(self.gift_pile)})")
        self.stage = "setup-rewards"

    def _st_setup_rewards(self) -> None:
        self.need_chance("reward-shuffle", Shuffle("rewards", self.d.reward_deck))

    def _on_reward_shuffle(self, action: Action) -> None:
        self.reward_deck = strs(action["order"])
        if self.stage == "setup-rewards":
            self._ev("setup.decks", f"Reward deck shuffled ({len(self.reward_deck)} cards)")
            self._make_participants()
            self.stage = "setup-place"
        else:
            self.reward_discard = []
            self._ev("search.reshuffle", f"Reward discards shuffled into a new deck ({len(self.reward_deck)} cards)")

    def _make_participants(self) -> None:
        for k in range(self.players):
            spec = self.d.participants[k % len(self.d.participants)]
            side = spec["advanced"] if self.side == "advanced" else spec["beginner"]
            powers = tuple(pw["id"] for pw in side.get("powers", []))
            resolve = int(side.get("resolve", self.d.resolve))
            self.pp.append(Participant(f"P{k + 1}", spec["id"], spec["name"], -1, self.d.hp, resolve, powers))
            self._ev("setup.participants", f"P{k + 1} plays {spec['name']} ({self.side} side): {self.d.hp} HP, "
                    f"{resolve} Resolve" + (f", powers {', '.join(powers)}" if powers else ""))
            if "lucky" in powers:
                self._ev("power.lucky", f"{spec['name']} starts with {resolve} Resolve")

    def _st_setup_place(self) -> None:
        taken = {p.pos for p in self.pp}
        for p in self.pp:
            if p.pos < 0:
                opts = [Action.of("start", row=r, col=c) for r, c in self.lay["starts"] if self.idx(r, c) not in taken]
                self.need(p.seat, "start", opts)
                return
        self.stage = "setup-killer"

    def _on_start(self, action: Action) -> None:
        p = next(p for p in self.pp if p.pos < 0)
        p.pos = self.idx(num(action["row"]), num(action["col"]))
        self._ev("setup.participants", f"{p.name} starts in {self.where(p.pos)}")

    def _st_setup_killer(self) -> None:
        cells = [self.idx(r, c) for r, c in self.lay["killer_cells"]]
        by = self.lay["killer_placed_by"]
        if by == "fixed" or len(cells) == 1:
            self._place_killer(cells[0])
            return
        seat = self.pp[0].seat if by == "first" else self.pp[1].seat
        self.need(seat, "killer-place", [Action.of("killer", row=self.cell(i)[0], col=self.cell(i)[1]) for i in cells])

    def _on_killer_place(self, action: Action) -> None:
        self._place_killer(self.idx(num(action["row"]), num(action["col"])))

    def _place_killer(self, i: int) -> None:
        self.killer.pos = i
        rule = {"first": "setup.killer", "second": "variant.two-players"}.get(self.lay["killer_placed_by"], self.lay["rule"])
        self._ev("setup.first-player", f"{self.pp[0].name} holds the First Player card")
        self._ev(rule, f"the Killer ({self.killer.hp} HP, Rage 0) starts in {self.where(i)}")
        self._begin_turn()

    # ================================================================= selection

    def _begin_turn(self) -> None:
        if self.round > self.d.round_limit:
            self.result = Outcome("undecided", (), f"round limit {self.d.round_limit} reached")
            self._ev("turn.round-limit", f"round {self.round} would exceed the limit of {self.d.round_limit}: undecided")
            self.stage = "over"
            return
        self.ctx = {}  # nothing of a finished search, combat or setup step carries into a new turn
        combat = {}
        for p in self.living():
            others = [q for q in self.people_in(p.pos) if q is not p]
            k = self.killer.active() and self.killer.pos == p.pos
            combat[p.seat] = bool(others) or k
        self.turn = {"combat": combat, "chosen": {}, "done": [], "moves": [], "revealed": [], "exit_wins": [],
                     "cursor": 0, "fought": False, "start": {p.seat: p.pos for p in self.living()},
                     "mc_start": list(self.mc_holders)}
        self.stage = "select"
        self._round_began = True
        self._ev("turn.phases", f"round {self.round} begins; {self.pp[self.first].name} is First Player")
        killer = self.killer
        if killer.stunned and any(p.pos == killer.pos for p in self.living()):
            self._ev("killer.stunned-absent", f"the Stunned Killer in {self.where(killer.pos)} counts as absent")

    def select_options(self, p: Participant) -> list[Action]:
        """Rule turn.secret-choice: the action cards this Participant may choose, from the position
        at the start of the turn only (never from others' secret choices)."""
        if self.turn["combat"][p.seat]:
            return [Action.of("choose", action="attack"), Action.of("choose", action="escape")]
        room = self.rooms[p.pos]
        if room.temp:
            return [Action.of("choose", action="search")]
        out = [Action.of("choose", action=d) for d in DIRS if self.open_step(p.pos, d) is not None]
        if self.search_options(p):
            out.append(Action.of("choose", action="search"))
        return out or [Action.of("choose", action="pass")]

    def search_options(self, p: Participant) -> list[str]:
        """Rule search.options: what a Search action could do here."""
        out = []
        room = self.rooms[p.pos]
        rd = self.rdef(p.pos)
        if room.temp:
            return ["puzzle"]
        if not room.exhausted:
            searchable = rd.mode == "search" or (rd.mode == "automatic" and self.meets(p, rd))
            if searchable and self.room_available(p.pos):
                out.append("room")
            elif rd.mode == "puzzle" and self.puzzle_steps_left(p.pos) >= 0:
                out.append("puzzle")
            elif rd.mode == "exit" and p.keys >= rd.needs_keys:
                out.append("exit")
        if room.gift:
            out.append("gift")
        if any(not q.alive and not q.searched and q.pos == p.pos for q in self.pp):
            out.append("body")
        if p.has("first-aid-kit") and p.hp < self.d.hp_max:
            out.append("first-aid")
        if p.panic:
            out.append("panic")
        return out

    def meets(self, p: Participant, rd: RoomDef) -> bool:
        req = rd.requires
        if "item" in req and not p.has(req["item"]):
            return False
        if req.get("spend_ammo") == "bullet" and p.bullets < 1:
            return False
        if req.get("spend_ammo") == "shell" and p.shells < 1:
            return False
        if p.keys < int(req.get("spend_key", 0)):
            return False
        return p.hp > int(req.get("spend_hp", 0))

    def available_slots(self, i: int) -> list[int]:
        room = self.rooms[i]
        if room.exhausted:
            return []
        return [k for k in range(len(self.rdef(i).rewards)) if k not in room.covered]

    def room_available(self, i: int) -> bool:
        rd = self.rdef(i)
        return any(rd.rewards[k].reward not in NEGATIVE for k in self.available_slots(i))

    def puzzle_steps_left(self, i: int) -> int:
        return len(self.available_slots(i)) - 1

    def _st_select(self) -> None:
        chosen = self.turn["chosen"]
        for k in self.living_order():
            p = self.pp[k]
            if p.seat not in chosen:
                self.need(p.seat, "choose", self.select_options(p))
                return
        shown = ", ".join(f"{self.pp[k].name} {chosen[self.pp[k].seat]}" for k in self.living_order())
        self._ev("turn.secret-choice", f"actions revealed: {shown}")
        self.stage = "resolve"

    def _on_choose(self, action: Action) -> None:
        self.turn["chosen"][self._last_actor] = str(action["action"])

    # ================================================================= resolution

    def _st_resolve(self) -> None:
        order = self.order()
        while self.turn["cursor"] < len(order):
            k = order[self.turn["cursor"]]
            p = self.pp[k]
            if not p.alive or p.escaped or p.seat in self.turn["done"] or p.seat not in self.turn["chosen"]:
                self.turn["cursor"] += 1
                continue
            choice = self.turn["chosen"][p.seat]
            if choice in ("attack", "escape"):
                self._start_combat(p)
                return
            self.turn["done"].append(p.seat)
            self.turn["cursor"] += 1
            if choice in DIRS:
                self._move(p, choice)
            elif choice == "search":
                self._start_search(p)
                return
            else:
                self._ev("turn.impossible-action", f"{p.name} has no possible action and passes")
        self._end_resolution()

    def _move(self, p: Participant, direction: str) -> None:
        frm = p.pos
        to = self.step(frm, direction)
        assert to is not None
        for seat, a, b in self.turn["moves"]:
            if a == to and b == frm:
                other = next(q for q in self.pp if q.seat == seat)
                self._ev("move.doorway", f"{p.name} and {other.name} meet in the doorway; {p.name} stays in {self.where(frm)}")
                return
        self.turn["moves"].append([p.seat, frm, to])
        self._enter(p, to, "move.one-space", f"{p.name} moves {direction}")

    def _enter(self, p: Participant, to: int, rule: str, text: str) -> None:
        p.pos = to
        room = self.rooms[to]
        if not room.up:
            room.up = True
            self.turn["revealed"].append([p.seat, to])
            self._ev("move.reveal", f"{text} and reveals {self.where(to)}")
            if self.rdef(to).mode == "exit":
                self.milestones.add("exit-revealed")
        else:
            self._ev(rule, f"{text} to {self.where(to)}")

    # ---- searching

    def _start_search(self, p: Participant) -> None:
        opts = self.search_options(p)
        self.ctx = {"seat": p.seat}
        if not opts:
            self._ev("search.options", f"{p.name} finds nothing left to search")
            return
        if len(opts) == 1:
            self._search_with(p, opts[0])
        else:
            self.need(p.seat, "search", [Action.of("search", what=o) for o in opts])

    def _on_search(self, action: Action) -> None:
        p = self.participant(self.ctx["seat"])
        self._search_with(p, str(action["what"]))

    def participant(self, seat: str) -> Participant:
        return self.pp[int(seat[1:]) - 1]

    def _search_with(self, p: Participant, what: str) -> None:
        if len(self.people_in(p.pos)) > 1:
            self._ev("search.alone-at-start", f"{p.name} was alone when choosing, so the Search goes ahead")
        if what == "gift":
            self._pick_gift(p)
        elif what == "body":
            self._search_body(p)
        elif what == "first-aid":
            p.items.remove("first-aid-kit")
            healed = min(int(self.d.items["first-aid-kit"].get("heal", 3)), self.d.hp_max - p.hp)
            p.hp += healed
            self._ev("item.first-aid", f"{p.name} uses the First Aid Kit: +{healed} HP ({p.hp})")
        elif what == "panic":
            p.panic = False
            self._ev("panic.discard", f"{p.name} discards the Panic card")
        else:
            rd = self.rdef(p.pos)
            if rd.mode == "automatic":
                self._automatic(p, rd)
                return
            self.ctx = {"seat": p.seat, "what": what, "drawn": [], "spent": 0, "to_draw": self.draw_count(p, what)}
            if what in ("puzzle", "exit") and self.power(p, "problem-solver"):
                self._ev("power.problem-solver", f"{p.name} is a Problem Solver: one more card")
            self.stage = "search-draw"

    def draw_count(self, p: Participant, what: str) -> int:
        rd = self.rdef(p.pos)
        n = rd.search
        if what == "puzzle":
            slots = self.available_slots(p.pos)
            if slots and rd.rewards[slots[0]].draw:
                n = rd.rewards[slots[0]].draw
        if what in ("puzzle", "exit") and self.power(p, "problem-solver"):
            n += 1
        if p.panic:
            n = max(1, n - 1)
        return n

    def _st_search_draw(self) -> None:
        ctx = self.ctx
        p = self.participant(ctx["seat"])
        while ctx["to_draw"] > 0:
            if not self.reward_deck:
                if self.reward_discard:
                    self.need_chance("reward-shuffle", Shuffle("rewards", self.reward_discard))
                    return
                ctx["to_draw"] = 0
                break
            ctx["drawn"].append(self.reward_deck.pop(0))
            ctx["to_draw"] -= 1
        if not ctx.get("shown"):
            ctx["shown"] = True
            rule = {"room": "search.draw", "puzzle": "puzzle.draw-pair", "exit": "end.exit-search"}[ctx["what"]]
            self._ev(rule, f"{p.name} draws {', '.join(ctx['drawn'])}")
        if p.resolve > 0 and (self.reward_deck or self.reward_discard):
            self.stage = "search-resolve"
            self.need(p.seat, "search-resolve", [Action.of("resolve", spend=True), Action.of("resolve", spend=False)])
            return
        self._search_discard_or_finish()

    def _on_search_resolve(self, action: Action) -> None:
        ctx = self.ctx
        p = self.participant(ctx["seat"])
        if action["spend"]:
            p.resolve -= 1
            ctx["spent"] += 1
            ctx["to_draw"] = 2 if ctx["spent"] == 1 else 1
            rule = "puzzle.resolve-draw" if ctx["what"] != "room" else "search.resolve-draw"
            before = len(ctx["drawn"])
            self.stage = "search-draw"
            self._st_search_draw_quiet()
            self._ev(rule, f"{p.name} spends a Resolve and draws {', '.join(ctx['drawn'][before:]) or 'nothing'}")
        else:
            self._search_discard_or_finish()

    def _st_search_draw_quiet(self) -> None:
        # Draw what is owed; a needed reshuffle waits for chance and drawing resumes after it.
        ctx = self.ctx
        while ctx["to_draw"] > 0 and self.reward_deck:
            ctx["drawn"].append(self.reward_deck.pop(0))
            ctx["to_draw"] -= 1

    def _search_discard_or_finish(self) -> None:
        ctx = self.ctx
        p = self.participant(ctx["seat"])
        if ctx["what"] == "room" and ctx["spent"] > 0 and not ctx.get("discard_offered"):
            ctx["discard_offered"] = True
            cards = sorted(set(ctx["drawn"]))
            self.stage = "search-wait"
            self.need(p.seat, "search-discard", [Action.of("discard", card="none")] + [Action.of("discard", card=c) for c in cards])
            return
        self._finish_search()

    def _st_search_resolve(self) -> None:
        # Defensive: a Resolve decision always changes the stage; if not, draw (and offer) again.
        self.stage = "search-draw"

    def _st_search_wait(self) -> None:
        raise RuntimeError("search waiting without a decision")

    def _on_search_discard(self, action: Action) -> None:
        card = str(action["card"])
        if card != "none":
            self.ctx["drawn"].remove(card)
            self.reward_discard.append(card)
            p = self.participant(self.ctx["seat"])
            self._ev("search.resolve-discard", f"{p.name} removes a {card} card")
        self._finish_search()

    def _finish_search(self) -> None:
        ctx = self.ctx
        p = self.participant(ctx["seat"])
        drawn: list[str] = ctx["drawn"]
        self.reward_discard.extend(drawn)
        self.stage = "resolve"
        if ctx["what"] == "room":
            self._award_search(p, drawn)
        elif ctx["what"] == "puzzle":
            self._puzzle(p, drawn)
        else:
            self._exit(p, drawn)
        self.ctx = {}

    def best_reward(self, i: int, drawn: Sequence[str]) -> int | None:
        """Rules search.discard-unrepresented and search.most-copies: the slot index won, or None."""
        rd = self.rdef(i)
        slots = self.available_slots(i)
        first: dict[str, int] = {}
        for k in slots:
            first.setdefault(rd.rewards[k].reward, k)
        counts: dict[str, int] = {}
        for card in drawn:
            for sym in self.d.reward_symbols[card]:
                if sym in first:
                    counts[sym] = counts.get(sym, 0) + 1
        if not counts:
            return None
        top = max(counts.values())
        return min(first[s] for s, n in counts.items() if n == top)

    def _award_search(self, p: Participant, drawn: Sequence[str]) -> None:
        i = p.pos
        k = self.best_reward(i, drawn)
        wanted = {self.rdef(i).rewards[j].reward for j in self.available_slots(i)}
        unused = [c for c in drawn if not wanted & set(self.d.reward_symbols[c])]
        if unused:
            self._ev("search.discard-unrepresented", f"not on the room, discarded: {', '.join(unused)}")
        if k is None:
            p.resolve += 1
            self._ev("search.consolation", f"nothing drawn matches {self.where(i)}: {p.name} gains 1 Resolve")
            return
        rd = self.rdef(i)
        slot = rd.rewards[k]
        self._ev("search.most-copies", f"{p.name} finds {slot.label()} in {self.where(i)}")
        self._take_slot(p, i, k)
        if slot.also >= 0 and slot.also in self.available_slots(i) and p.alive:
            self._ev("search.reward", f"{rd.name}: the {slot.label()} also gives {rd.rewards[slot.also].label()}")
            self._take_slot(p, i, slot.also)

    def _take_slot(self, p: Participant, i: int, k: int) -> None:
        slot = self.rdef(i).rewards[k]
        self.gain(p, slot, "search")
        self.cover(i, k)

    def cover(self, i: int, k: int) -> None:
        """Rules search.exhaust-reward and search.exhaust-room."""
        room = self.rooms[i]
        rd = self.rdef(i)
        slot = rd.rewards[k]
        if slot.outline == "square" and k not in room.covered:
            room.covered.append(k)
            self._ev("search.exhaust-reward", f"{slot.label()} in {self.where(i)} is covered")
        if slot.outline == "octagon":
            self._exhaust(i, f"taking {slot.label()} exhausts {self.where(i)}")
        elif not room.exhausted and rd.mode == "search" and not self.room_available(i):
            self._exhaust(i, f"only Panic and Damage are left in {self.where(i)}: it is exhausted")

    def _exhaust(self, i: int, text: str) -> None:
        room = self.rooms[i]
        if not room.exhausted:
            room.exhausted = True
            room.covered = []
            self._ev("search.exhaust-room", text)

    def gain(self, p: Participant, slot: Slot, how: str) -> None:
        """Rule search.reward (and item.limits, item.firearm-ammo, search.consolation)."""
        r = slot.reward
        if r in ("melee", "firearm", "utility"):
            item = slot.item
            if p.has(item):
                p.resolve += 1
                self._ev("search.consolation", f"{p.name} already holds the {item}: 1 Resolve instead")
                return
            p.items.append(item)
            p.items.sort(key=ITEM_ORDER.index)
            self._ev("item.limits", f"{p.name} gains the {item}")
            info = self.d.items[item]
            if info.get("comes_with") or slot.extra_ammo:
                self._ammo(p, info.get("ammo", ""), int(info.get("comes_with", 0)) + slot.extra_ammo, "item.firearm-ammo")
        elif r == "ammo":
            self._ammo(p, slot.ammo, slot.amount, "search.reward")
        elif r == "key":
            self.give_key(p, how)
        elif r == "damage":
            self.hurt(p, slot.amount, "search.damage-resolve", f"{slot.amount} damage while searching", resolve=True)
        elif r == "panic":
            if p.panic:
                p.resolve += 1
                self._ev("search.consolation", f"{p.name} is already Panicked: 1 Resolve instead")
            else:
                p.panic = True
                self._ev("search.reward", f"{p.name} is Panicked")

    def _ammo(self, p: Participant, kind: str, n: int, rule: str) -> None:
        if n <= 0 or not kind:
            return
        if self.power(p, "every-shot-counts"):
            n += 1
            rule = "power.every-shot-counts"
        if kind == "bullet":
            p.bullets += n
        else:
            p.shells += n
        self._ev(rule, f"{p.name} gains {n} {kind}{'s' if n > 1 else ''}")

    def give_key(self, p: Participant, how: str, made: bool = True) -> None:
        """Rule keys.find: a Key, and (outside solo) one room to lock in the MC phase."""
        p.keys += 1
        if made:
            self.keys_made += 1
        self.milestones.add("key")
        self._ev("keys.find", f"{p.name} gains a Key ({how}); holds {p.keys}")
        if not self.solo:
            self.turn.setdefault("locks", []).append([p.seat, 1])

    def hurt(self, p: Participant, n: int, rule: str, why: str, resolve: bool = True) -> None:
        """Damage to a Participant: Tough, Resolve per point, death at 0 (rules search.damage-resolve,
        combat.damage, power.tough)."""
        if not p.alive or n <= 0:
            return
        if self.power(p, "tough"):
            reduced = max(1, n - 1)
            if reduced < n:
                self._ev("power.tough", f"{p.name} is Tough: {n} damage becomes {reduced}")
            n = reduced
        taken = min(n, p.hp)
        p.hp -= taken
        if resolve:
            p.resolve += n
        self._ev(rule, f"{p.name} takes {why}: {p.hp} HP left" + (f", +{n} Resolve" if resolve else ""))
        if p.hp == 0:
            if rule == "search.damage-resolve":
                self._ev("search.death", f"{p.name} is killed by the search")
            self._die(p)

    def _die(self, p: Participant) -> None:
        """Rule death.participant."""
        p.alive = False
        k = int(p.seat[1:]) - 1
        self.dead_order.append(k)
        self.mc_index = k
        if k not in self.mc_holders:
            self.mc_holders.append(k)
        self.milestones.add("death")
        if self.solo:
            self._ev("solo.no-locks", f"{p.name} dies in {self.where(p.pos)}: the game is lost")
            return
        self._ev("death.participant", f"{p.name} dies in {self.where(p.pos)}; P{k + 1} becomes the MC and will lock two rooms")
        self._ev("mc.role", f"P{k + 1} now holds the MC card")
        self.turn.setdefault("locks", []).append([p.seat, 2])

    def _automatic(self, p: Participant, rd: RoomDef) -> None:
        req = rd.requires
        if req.get("spend_ammo"):
            if req["spend_ammo"] == "bullet":
                p.bullets -= 1
            else:
                p.shells -= 1
            self._ev("search.requires-item", f"{p.name} uses the {req.get('item', 'weapon')} and spends a {req['spend_ammo']}")
        if req.get("spend_key"):
            p.keys -= int(req["spend_key"])
            self.keys_spent += int(req["spend_key"])
            self._ev("search.requires-item", f"{p.name} spends {req['spend_key']} Key in {rd.name}")
        if req.get("spend_hp"):
            self.hurt(p, int(req["spend_hp"]), "search.requires-item", f"{req['spend_hp']} HP as the price of {rd.name}",
                      resolve=False)
        if p.alive:
            k = self.available_slots(p.pos)[0]
            self._ev("search.reward", f"{rd.name} gives {rd.rewards[k].label()} without a draw")
            self._take_slot(p, p.pos, k)

    def _pairs(self, drawn: Sequence[str]) -> bool:
        seen: set[str] = set()
        for card in drawn:
            for sym in self.d.reward_symbols[card]:
                if sym in seen:
                    return True
            seen.update(self.d.reward_symbols[card])
        return False

    def _puzzle(self, p: Participant, drawn: Sequence[str]) -> None:
        """Rules puzzle.draw-pair, puzzle.solve, puzzle.progress, puzzle.penalty, puzzle.failure-exhausts."""
        i = p.pos
        rd = self.rdef(i)
        room = self.rooms[i]
        slots = self.available_slots(i)
        if self._pairs(drawn):
            k = slots[0]
            slot = rd.rewards[k]
            self._ev("puzzle.solve", f"{p.name} solves the puzzle of {self.where(i)} and receives {slot.label()}")
            if room.temp:
                room.temp = False
            self.gain(p, slot, "puzzle")
            self._exhaust(i, f"{self.where(i)} has been solved and is exhausted")
            return
        if rd.on_fail == "exhaust-and-penalty":
            self._ev("puzzle.failure-exhausts", f"{p.name} fails the puzzle of {self.where(i)}")
            self._exhaust(i, f"{self.where(i)} is exhausted by the failure")
            if rd.penalty:
                self.gain(p, rd.penalty, "puzzle")
            return
        if rd.on_fail == "penalty":
            self._ev("puzzle.failure-exhausts", f"{p.name} fails the puzzle of {self.where(i)} and takes the penalty")
            if rd.penalty:
                self.gain(p, rd.penalty, "puzzle")
            return
        room.covered.append(slots[0])
        left = self.available_slots(i)
        if left:
            nxt = rd.rewards[left[0]].draw or rd.search
            self._ev("puzzle.progress", f"{p.name} fails; a progress token covers {rd.rewards[slots[0]].label()}, next attempt draws {nxt}")
            return
        self._ev("puzzle.penalty", f"every reward of {self.where(i)} is covered: {p.name} takes the penalty and the room opens")
        room.temp = False
        self._exhaust(i, f"{self.where(i)} is used up")
        if rd.penalty:
            self.gain(p, rd.penalty, "puzzle")

    def _exit(self, p: Participant, drawn: Sequence[str]) -> None:
        if self._pairs(drawn):
            self.turn["exit_wins"].append(p.seat)
            self._ev("end.exit-search", f"{p.name} finds a pair at the Exit with {p.keys} Keys and will escape")
        else:
            self._ev("end.exit-search", f"{p.name} finds no pair at the Exit")

    def _pick_gift(self, p: Participant) -> None:
        room = self.rooms[p.pos]
        gift, room.gift = room.gift, ""
        self._ev("gift.pick-up", f"{p.name} picks up an MC Gift: {gift}")
        for slot in self.d.gifts[gift]:
            if p.alive:
                self.gain(p, slot, "gift")

    def _search_body(self, p: Participant) -> None:
        body = next(q for q in self.pp if not q.alive and not q.searched and q.pos == p.pos)
        body.searched = True
        self._ev("body.search", f"{p.name} searches the body of {body.name}")
        for item in list(body.items):
            if p.has(item):
                self._ev("body.search", f"{p.name} cannot carry a second {item}; it is discarded")
            else:
                p.items.append(item)
                self._ev("body.search", f"{p.name} takes the {item}")
        p.items.sort(key=ITEM_ORDER.index)
        body.items = []
        p.bullets += body.bullets
        p.shells += body.shells
        body.bullets = body.shells = 0
        carried, body.keys = body.keys, 0
        for _ in range(carried):
            self.give_key(p, f"from {body.name}'s body", made=False)
        self.give_key(p, "the body's guaranteed Key")

    # ---- combat

    def _start_combat(self, p: Participant) -> None:
        i = p.pos
        start = self.turn["start"]
        members = [self.pp[k].seat for k in self.order()
                   if self.pp[k].alive and start.get(self.pp[k].seat) == i and self.turn["combat"].get(self.pp[k].seat)
                   and self.pp[k].seat not in self.turn["done"]]
        killer = self.killer.active() and self.killer.pos == i
        cards = {s: self.turn["chosen"][s] for s in members}
        self.ctx = {"cell": i, "members": members, "killer": killer, "cards": cards, "weapons": {}, "dice": {},
                    "kdice": None, "spent": {}, "passed": [], "escapers": [], "step": "weapons", "reroll": None,
                    "acro": [], "panicked": []}
        self.turn["fought"] = True
        who = ", ".join(f"{self.participant(s).name} ({cards[s]})" for s in members) + (", the Killer" if killer else "")
        self._ev("combat.trigger", f"combat in {self.where(i)}: {who}")
        self.stage = "combat"

    def weapon_options(self, p: Participant) -> list[str]:
        out = ["basic"]
        for w in ("knife", "fireaxe", "pistol", "shotgun"):
            if p.has(w):
                ammo = self.d.weapons[w].ammo
                if (ammo == "bullet" and p.bullets < 1) or (ammo == "shell" and p.shells < 1):
                    continue
                out.append(w)
        return out

    def faces_for(self, p: Participant) -> tuple[int, ...]:
        ctx = self.ctx
        if ctx["cards"][p.seat] == "escape":
            if p.seat in ctx["acro"]:
                return (2, 3, 4, 5, 6)
            return self.d.escape_faces
        w = ctx["weapons"].get(p.seat, "basic")
        if w == "basic":
            if self.power(p, "grapple-master"):
                return tuple(sorted({4, *self.d.attack.faces}))
            return self.d.attack.faces
        return self.d.weapons[w].faces

    def successes(self, seat: str) -> int:
        if seat == "killer":
            kd = self.ctx["kdice"]
            if isinstance(kd, int):
                return kd
            return sum(1 for f in kd if f in self.d.killer_faces)
        faces = self.faces_for(self.participant(seat))
        return sum(1 for f in self.ctx["dice"][seat] if f in faces)

    def _st_combat(self) -> None:
        ctx = self.ctx
        step = ctx["step"]
        members: list[str] = ctx["members"]
        if step == "weapons":
            for s in members:
                if ctx["cards"][s] == "attack" and s not in ctx["weapons"]:
                    p = self.participant(s)
                    opts = self.weapon_options(p)
                    if len(opts) == 1:
                        ctx["weapons"][s] = "basic"
                        continue
                    self.need(s, "weapon", [Action.of("weapon", name=w) for w in opts])
                    return
            if not ctx["killer"] and all(ctx["cards"][s] == "escape" for s in members):
                self._ev("combat.escape-vs-escape", "everyone escapes; no dice are rolled")
                ctx["escapers"] = list(members)
                ctx["step"] = "escapes"
                return
            ctx["step"] = "roll"
            return
        if step == "roll":
            for s in members:
                if s not in ctx["dice"]:
                    self.need_chance("combat-roll", DiceRoll(self.d.dice, faces=self.d.die, purpose=f"{s} {ctx['cards'][s]}"))
                    return
            if ctx["killer"] and ctx["kdice"] is None:
                if self.solo:
                    ctx["kdice"] = self.d.rage[self.killer.rage][2]
                    self._ev("solo.killer-table", f"the Killer (Rage {self.killer.rage}) counts {ctx['kdice']} successes")
                else:
                    n = self.d.rage[self.killer.rage][0]
                    self.need_chance("combat-roll", DiceRoll(n, faces=self.d.die, purpose="the Killer"))
                    return
            ctx["step"] = "resolve"
            return
        if step == "resolve":
            if ctx["reroll"] is not None:
                raise RuntimeError("a re-roll is pending without a chance decision")
            decider = self.decider()
            if decider is None:
                ctx["step"] = "panic"
                return
            self.need(decider, "combat-resolve", self.resolve_options(self.participant(decider)))
            return
        if step == "panic":
            for s in members:
                p = self.participant(s)
                if p.panic and s not in ctx["panicked"]:
                    ctx["panicked"].append(s)
                    faces = self.faces_for(p)
                    hits = [n for n, f in enumerate(ctx["dice"][s]) if f in faces]
                    if hits:
                        ctx["reroll"] = {"who": s, "idx": [hits[0]], "why": "panic"}
                        self.need_chance("reroll", DiceRoll(1, faces=self.d.die, purpose=f"{s} Panic re-roll"))
                        return
            ctx["step"] = "outcome"
            return
        if step == "outcome":
            self._combat_outcome()
            ctx["step"] = "escapes"
            return
        if step == "escapes":
            while ctx["escapers"]:
                s = ctx["escapers"][0]
                p = self.participant(s)
                if not p.alive:
                    ctx["escapers"].pop(0)
                    continue
                opts = [d for d in DIRS if self.open_step(p.pos, d) is not None]
                if not opts:
                    ctx["escapers"].pop(0)
                    self._ev("combat.escape-move", f"{p.name} has nowhere to escape to and stays")
                    continue
                self.need(s, "escape", [Action.of("escape", dir=d) for d in opts])
                return
            self._end_combat()
            return
        raise RuntimeError(f"unknown combat step {step}")

    def _on_weapon(self, action: Action) -> None:
        ctx = self.ctx
        s = next(s for s in ctx["members"] if ctx["cards"][s] == "attack" and s not in ctx["weapons"])
        p = self.participant(s)
        w = str(action["name"])
        ctx["weapons"][s] = w
        text = f"{p.name} attacks with the {w}" if w != "basic" else f"{p.name} uses the basic Attack"
        ammo = self.d.weapons[w].ammo if w != "basic" else ""
        if ammo and len(ctx["members"]) + (1 if ctx["killer"] else 0) > 2:
            self._ev("combat.ammo-once", f"one {ammo} pays for every target")
        if ammo == "bullet":
            p.bullets -= 1
            text += " and spends a Bullet"
        elif ammo == "shell":
            p.shells -= 1
            text += " and spends a Shell"
        self._ev("combat.weapon", text)

    def _on_combat_roll(self, action: Action) -> None:
        ctx = self.ctx
        faces = ints(action["faces"])
        for s in ctx["members"]:
            if s not in ctx["dice"]:
                ctx["dice"][s] = faces
                p = self.participant(s)
                rule = "combat.roll"
                if ctx["cards"][s] == "attack" and ctx["weapons"].get(s) == "basic" and self.power(p, "grapple-master"):
                    rule = "power.grapple-master"
                self._ev(rule, f"{p.name} rolls {faces}: {self.successes(s)} successes")
                return
        ctx["kdice"] = faces
        self._ev("killer.roll", f"the Killer (Rage {self.killer.rage}) rolls {faces}: {self.successes('killer')} successes")

    def decider(self) -> str | None:
        """Rule combat.resolve-reroll: whoever is behind decides first (turn order on ties)."""
        ctx = self.ctx
        best: tuple[int, int, str] | None = None
        for n, s in enumerate(ctx["members"]):
            if s in ctx["passed"]:
                continue
            p = self.participant(s)
            if p.resolve <= 0 or not self.resolve_options(p, probe=True):
                continue
            key = (self.successes(s), n, s)
            if best is None or key < best:
                best = key
        return None if best is None else best[2]

    def resolve_options(self, p: Participant, probe: bool = False) -> list[Action]:
        ctx = self.ctx
        s = p.seat
        faces = self.faces_for(p)
        failed = [n for n, f in enumerate(ctx["dice"][s]) if f not in faces]
        out: list[Action] = []
        if failed:
            if ctx["spent"].get(s, 0) == 0 or self.power(p, "calm-under-pressure"):
                out.extend(Action.of("reroll", dice=list(sub)) for sub in _subsets(failed))
            else:
                out.extend(Action.of("reroll", dice=[n]) for n in failed)
        if self.power(p, "acrobatic") and ctx["cards"][s] == "escape" and s not in ctx["acro"]:
            out.append(Action.of("acrobatic"))
        if self.power(p, "quarterback"):
            for t in [*ctx["members"], *(["killer"] if ctx["killer"] else [])]:
                if t != s and self.successes(t) > 0 and not (t == "killer" and isinstance(ctx["kdice"], int)):
                    out.append(Action.of("quarterback", target=t))
        if probe:
            return out
        return [Action.of("accept"), *out]

    def _on_combat_resolve(self, action: Action) -> None:
        ctx = self.ctx
        s = self._last_actor
        p = self.participant(s)
        if action.kind == "accept":
            ctx["passed"].append(s)
            self._ev("combat.resolve-reroll", f"{p.name} accepts {self.successes(s)} successes")
            return
        p.resolve -= 1
        ctx["spent"][s] = ctx["spent"].get(s, 0) + 1
        if action.kind == "acrobatic":
            ctx["acro"].append(s)
            self._ev("power.acrobatic", f"{p.name} spends a Resolve: every die but 1 succeeds ({self.successes(s)} successes)")
            return
        if action.kind == "quarterback":
            t = str(action["target"])
            dice = ctx["kdice"] if t == "killer" else ctx["dice"][t]
            faces = self.d.killer_faces if t == "killer" else self.faces_for(self.participant(t))
            hit = next(n for n, f in enumerate(dice) if f in faces)
            ctx["reroll"] = {"who": t, "idx": [hit], "why": "quarterback"}
            self._ev("power.quarterback", f"{p.name} spends a Resolve to make {t} re-roll a success")
            self.need_chance("reroll", DiceRoll(1, faces=self.d.die, purpose=f"{t} forced re-roll"))
            return
        idx = ints(action["dice"])
        ctx["reroll"] = {"who": s, "idx": idx, "why": "resolve"}
        rule = "power.calm-under-pressure" if ctx["spent"][s] > 1 and len(idx) > 1 else "combat.resolve-reroll"
        self._ev(rule, f"{p.name} spends a Resolve to re-roll {len(idx)} dice")
        self.need_chance("reroll", DiceRoll(len(idx), faces=self.d.die, purpose=f"{s} re-roll"))

    def _on_reroll(self, action: Action) -> None:
        ctx = self.ctx
        rr = ctx["reroll"]
        ctx["reroll"] = None
        faces = ints(action["faces"])
        who = rr["who"]
        dice = list(ctx["kdice"]) if who == "killer" else list(ctx["dice"][who])
        for n, f in zip(rr["idx"], faces, strict=True):
            dice[n] = f
        if who == "killer":
            ctx["kdice"] = dice
        else:
            ctx["dice"][who] = dice
        name = "the Killer" if who == "killer" else self.participant(who).name
        rule = {"panic": "panic.combat", "quarterback": "power.quarterback"}.get(rr["why"], "combat.resolve-reroll")
        self._ev(rule, f"{name} re-rolls {faces}: now {dice}, {self.successes(who)} successes")

    def _combat_outcome(self) -> None:
        """Rules combat.attack-vs-attack, combat.attack-vs-escape, combat.multi-*, killer.always-attacks."""
        ctx = self.ctx
        members: list[str] = ctx["members"]
        ids = [*members, *(["killer"] if ctx["killer"] else [])]
        score = {s: self.successes(s) for s in ids}
        card = {s: ctx["cards"].get(s, "attack") for s in ids}
        # The Killer wins ties: half a success more than he rolled.
        eff = {s: score[s] * 2 + (1 if s == "killer" else 0) for s in ids}
        top = max(eff.values())
        tops = [s for s in ids if eff[s] == top]
        two = len(ids) == 2
        hits: list[tuple[str, str, int, str]] = []  # (source, target, damage, rule)
        escapes: list[str] = []
        shown = ", ".join(f"{'the Killer' if s == 'killer' else self.participant(s).name} {score[s]}" for s in ids)
        self._ev("combat.multi-top" if not two else "combat.roll", f"successes: {shown}")
        top_att = [s for s in tops if card[s] == "attack"]
        top_esc = [s for s in tops if card[s] == "escape"]
        for a in top_att:
            targets = [t for t in ids if t != a]
            base = self.killer_damage() if a == "killer" else self.weapon_damage(a)
            tie = len(top_att) > 1
            dmg = base - (len(targets) - 1) - (1 if tie else 0)
            dmg = max(1, dmg)
            for t in targets:
                if t in top_esc:
                    hits.append((a, t, self.d.tie_flat, "combat.attack-vs-escape"))
                else:
                    if a == "killer":
                        rule = "killer.always-attacks"
                    elif not two:
                        rule = "combat.multi-damage"
                    else:
                        rule = "combat.attack-vs-escape" if card[t] == "escape" else "combat.attack-vs-attack"
                    hits.append((a, t, dmg, rule))
        if not top_att:
            escapes = list(top_esc)
        if two:
            # Two combatants: a beaten Escape still escapes (only a tie with an Attack stops it).
            for s in members:
                if card[s] == "escape" and s not in top_esc and s not in escapes:
                    escapes.append(s)
            if "killer" in top_att:
                escapes = [s for s in members if card[s] == "escape"]
        # Sources in turn order, the Killer last (matters for the Kevlar Vest and the Key).
        order = {s: n for n, s in enumerate(ids)}
        hits.sort(key=lambda h: order[h[0]])
        if not hits and not escapes:
            self._ev("combat.multi-top", "no card takes effect")
        vest_used: set[str] = set()
        for src, tgt, dmg, rule in hits:
            src_name = "the Killer" if src == "killer" else self.participant(src).name
            if tgt == "killer":
                self._hurt_killer(src, dmg, rule)
                continue
            q = self.participant(tgt)
            if not q.alive:
                continue
            if q.has("kevlar-vest") and tgt not in vest_used:
                vest_used.add(tgt)
                q.items.remove("kevlar-vest")
                self._ev("combat.kevlar", f"{q.name}'s Kevlar Vest absorbs {src_name}'s {dmg} damage and is discarded")
                continue
            self.hurt(q, dmg, rule, f"{dmg} damage from {src_name}")
        ctx["escapers"] = [s for s in members if s in escapes and self.participant(s).alive]
        for s in ctx["escapers"]:
            rule = "combat.escape-move" if two else "combat.multi-escape"
            self._ev(rule, f"{self.participant(s).name} escapes")

    def weapon_damage(self, seat: str) -> int:
        w = self.ctx["weapons"].get(seat, "basic")
        return self.d.attack.damage if w == "basic" else self.d.weapons[w].damage

    def killer_damage(self) -> int:
        return self.d.rage[self.killer.rage][1]

    def _hurt_killer(self, src: str, dmg: int, rule: str) -> None:
        k = self.killer
        if k.hp <= 0:
            return
        k.hp = max(0, k.hp - dmg)
        p = self.participant(src)
        self._ev(rule, f"{p.name} deals {dmg} damage to the Killer: {k.hp} HP left")
        if k.hp == 0:
            k.stunned = True
            k.rage = 0
            self.milestones.add("killer-dies")
            self._ev("killer.death", "the Killer falls to 0 HP: stunned, Rage reset to 0")
            if k.carried > 0:
                k.carried -= 1
                k.key_given = True
                self.give_key(p, "carried by the Killer")
                self._ev("solo.not-enough-keys", f"the Killer still carries {k.carried} Key(s)")
            elif not k.key_given:
                k.key_given = True
                self.give_key(p, "for bringing the Killer down the first time")

    def _end_combat(self) -> None:
        ctx = self.ctx
        i = ctx["cell"]
        for s in ctx["members"]:
            if s not in self.turn["done"]:
                self.turn["done"].append(s)
        k = self.killer
        if ctx["killer"] and k.pos == i and not self.people_in(i) and not k.stunned:
            self._stun("killer.stun-alone", "the Killer is left alone after the combat")
        self.ctx = {}
        self.stage = "resolve"

    def _on_escape(self, action: Action) -> None:
        ctx = self.ctx
        s = ctx["escapers"].pop(0)
        p = self.participant(s)
        to = self.step(p.pos, str(action["dir"]))
        assert to is not None
        self._enter(p, to, "combat.escape-move", f"{p.name} escapes {action['dir']}")

    def _stun(self, rule: str, why: str) -> None:
        k = self.killer
        k.stunned = True
        k.rage = max(0, k.rage - 1)
        self._ev(rule, f"{why}: he is Stunned, Rage {k.rage}")

    # ---- end of resolution

    def _end_resolution(self) -> None:
        for seat, i in self.turn["revealed"]:
            rd = self.rdef(i)
            room = self.rooms[i]
            p = self.participant(seat)
            if rd.locks_on_entry and not room.exhausted and p.alive and p.pos == i and len(self.people_in(i)) == 1 \
                    and not (self.killer.active() and self.killer.pos == i):
                room.temp = True
                self._ev("move.puzzle-lock", f"{p.name} is locked inside {self.where(i)}")
        for i, room in enumerate(self.rooms):
            if room.temp and not self.people_in(i):
                room.temp = False
                self._ev("move.puzzle-locked-room-closed", f"{self.where(i)} opens: nobody is inside")
        wins = self.turn["exit_wins"]
        if wins:
            for s in wins:
                self.participant(s).escaped = True
            names = ", ".join(self.participant(s).name for s in wins)
            rule = "end.shared-escape" if len(wins) > 1 else "end.exit-search"
            self._ev(rule, f"{names} escape{'s' if len(wins) == 1 else ''} the Halls of Horror")
            self.result = Outcome("escape", tuple(wins), f"{names} escaped in round {self.round}")
            self.stage = "over"
            return
        if not self.living():
            if self.solo:
                self.result = Outcome("death", (), f"{self.pp[0].name} died in round {self.round}")
            else:
                winners = tuple(f"P{k + 1}" for k in sorted(self.turn["mc_start"]))
                self._ev("end.all-dead", "every Participant is dead: the players who held the MC role win")
                self.result = Outcome("killer", winners, f"all Participants dead in round {self.round}")
            self.stage = "over"
            return
        if self.solo:
            self._solo_keys_check()
        self.mc = {"step": "locks", "locks": list(self.turn.get("locks", []))}
        self.stage = "mc"

    # ================================================================= MC phase

    def controller(self) -> str:
        if self.dead_order:
            return f"P{self.mc_index + 1}"
        return self.pp[self.first].seat

    def _st_mc(self) -> None:
        mc = self.mc
        step = mc["step"]
        if step == "locks":
            while mc["locks"]:
                seat, n = mc["locks"][0]
                if n <= 0:
                    mc["locks"].pop(0)
                    continue
                opts = self.lock_options(explain=True)
                if not opts:
                    mc["locks"].pop(0)
                    self._ev("lock.none", f"{self.participant(seat).name}'s player finds no room that may be locked")
                    continue
                self.need(seat, "lock", [Action.of("lock", row=r, col=c) for r, c in opts])
                return
            mc["step"] = "draw"
            return
        if step == "draw":
            if self.solo:
                if self.turn["fought"]:
                    self._ev("solo.turn", "a turn spent in combat: no MC Solo card")
                    mc["step"] = "end"
                    return
                self._solo_draw()
                return
            want = len(self.dead_order) + 1 if self.dead_order else 1
            if not self._deck_ready(want):
                return
            cards = [self.mc_deck.pop(0) for _ in range(min(want, len(self.mc_deck)))]
            if not cards:
                mc["step"] = "end"
                return
            if len(cards) == 1:
                self._play_mc(cards[0])
                return
            mc["offered"] = cards
            self.need(self.controller(), "mc-card", [Action.of("mc-card", card=c) for c in sorted(set(cards))])
            return
        if step == "effects":
            self._run_effects()
            return
        if step == "symbols":
            self._symbols()
            return
        if step == "end":
            self._end_round()
            return
        raise RuntimeError(f"unknown MC step {step}")

    def _deck_ready(self, want: int) -> bool:
        if len(self.mc_deck) < want and self.mc_discard:
            self.need_chance("mc-shuffle", Shuffle("mc", [*self.mc_deck, *self.mc_discard]))
            return False
        return True

    def _on_mc_card(self, action: Action) -> None:
        mc = self.mc
        chosen = str(action["card"])
        offered: list[str] = mc.pop("offered")
        offered.remove(chosen)
        self.mc_deck.extend(offered)
        self._ev("mc.after-death", f"the MC draws {len(offered) + 1} cards, plays {self.d.mc[chosen]['name']} "
                f"and puts {len(offered)} under the deck")
        self._play_mc(chosen)

    def _play_mc(self, card: str) -> None:
        info = self.d.mc[card]
        mc = self.mc
        mc["card"] = card
        mc["effects"] = [dict(e) for e in info["effects"]]
        mc["symbols"] = int(info["symbols"])
        mc["step"] = "effects"
        rule = "mc.after-death" if self.dead_order else "mc.draw"
        self._ev(rule, f"{self.controller()} plays the MC card {info['name']} ({info['symbols']} Killer symbols)")

    def _run_effects(self) -> None:
        mc = self.mc
        while mc["effects"]:
            eff = mc["effects"][0]
            do = eff["do"]
            n = int(eff.get("amount", 1))
            k = self.killer
            if do == "gift":
                opts = self.gift_rooms()
                if not self.gift_pile or not opts or n <= 0:
                    mc["effects"].pop(0)
                    self._ev("mc.gift-place", "no MC Gift can be placed")
                    continue
                self.need(self.controller(), "gift", [Action.of("gift", row=r, col=c) for r, c in opts])
                return
            if do == "lock":
                mc["effects"].pop(0)
                mc["locks"] = [[self.controller(), n]]
                mc["step"] = "card-locks"
                self.stage = "mc-card-locks"
                return
            if do == "move-killer":
                dirs = self.killer_moves() if eff.get("left", n) > 0 else []
                if not dirs:
                    mc["effects"].pop(0)
                    continue
                self.need(self.controller(), "killer-move",
                          [Action.of("killer-move", dir="stop")] + [Action.of("killer-move", dir=d) for d in dirs])
                return
            if do == "teleport-killer":
                mc["effects"].pop(0)
                reach = self.distances(self.living()[0].pos) if self.living() else {}
                opts = [self.cell(i) for i, r in enumerate(self.rooms)
                        if r.up and not r.locked and not r.temp and not self.people_in(i) and i != k.pos and i in reach]
                if k.active() and opts and not self.people_in(k.pos):
                    self.need(self.controller(), "killer-to", [Action.of("killer-to", row=r, col=c) for r, c in opts])
                    return
                self._ev("mc.card", "the Killer cannot be moved")
                continue
            mc["effects"].pop(0)
            self._simple_effect(do, n)
        mc["step"] = "symbols"

    def _simple_effect(self, do: str, n: int) -> None:
        k = self.killer
        if do == "stun":
            if k.stunned:
                self._ev("mc.card", "the Killer is already Stunned")
            else:
                self._stun("mc.card", "the MC card stuns the Killer")
        elif do == "activate":
            if k.stunned and k.hp > 0:
                k.stunned = False
                self._ev("killer.activate", "the Killer is Activated")
        elif do == "heal":
            gained = min(n, self.d.killer_hp_max - k.hp)
            k.hp += gained
            self._ev("killer.heal", f"the Killer heals {gained}: {k.hp} HP")
        elif do == "enrage":
            if k.hp <= 0:
                self._ev("killer.enrage", "a dead Killer cannot gain Rage")
                return
            gained = min(n, len(self.d.rage) - 1 - k.rage)
            k.rage += gained
            self._ev("killer.enrage", f"the Killer's Rage rises by {gained} to {k.rage}")
        elif do == "hurt-killer":
            lost = max(0, min(n, k.hp - 1))
            k.hp -= lost
            self._ev("solo.caps" if self.solo else "mc.card", f"the Killer loses {lost} HP (never below 1): {k.hp} HP")
        elif do == "resolve-all":
            for p in self.living():
                p.resolve += n
            self._ev("mc.card", f"every living Participant gains {n} Resolve")
        else:
            self._ev("mc.card", f"{do}: nothing happens")

    def gift_rooms(self) -> list[Cell]:
        return [self.cell(i) for i, r in enumerate(self.rooms) if r.up and not r.locked and not r.gift]

    def _on_gift(self, action: Action) -> None:
        i = self.idx(num(action["row"]), num(action["col"]))
        self.rooms[i].gift = self.gift_pile.pop(0)
        self.mc["effects"][0]["amount"] = int(self.mc["effects"][0].get("amount", 1)) - 1
        if self.mc["effects"][0]["amount"] <= 0:
            self.mc["effects"].pop(0)
        self._ev("mc.gift-place", f"an MC Gift is placed face down in {self.where(i)}")

    def _st_mc_card_locks(self) -> None:
        mc = self.mc
        seat, n = mc["locks"][0] if mc["locks"] else ("", 0)
        if n > 0:
            opts = self.lock_options(explain=True)
            if opts:
                self.need(seat, "lock", [Action.of("lock", row=r, col=c) for r, c in opts])
                return
            self._ev("lock.none", "no room may be locked")
        mc["locks"] = []
        mc["step"] = "effects"
        self.stage = "mc"

    def _on_lock(self, action: Action) -> None:
        i = self.idx(num(action["row"]), num(action["col"]))
        room = self.rooms[i]
        room.locked = True
        room.up = False
        entry = self.mc["locks"][0]
        entry[1] -= 1
        if entry[1] <= 0:
            self.mc["locks"].pop(0)
        name = self.d.rooms[room.card].name
        self._ev("lock.apply", f"{self.participant(entry[0]).name}'s player locks {name} [{action['row']},{action['col']}]")

    def lock_grid(self) -> LockGrid:
        locked = frozenset(self.cell(i) for i, r in enumerate(self.rooms) if r.locked)
        face_down = frozenset(self.cell(i) for i, r in enumerate(self.rooms) if not r.up and not r.locked)
        exits = frozenset(self.cell(i) for i, r in enumerate(self.rooms) if r.up and self.d.rooms[r.card].mode == "exit")
        hidden = len(self.d.exits) - len(exits)
        walkers = tuple(sorted({self.cell(p.pos) for p in self.living()} | {self.cell(self.killer.pos)}))
        bodies = frozenset(self.cell(p.pos) for p in self.pp if not p.alive and not p.searched)
        return LockGrid(self.rows, self.cols, locked, face_down, exits, hidden, walkers, bodies)

    def empty(self, i: int) -> bool:
        """Rule lock.empty."""
        r = self.rooms[i]
        return (not self.people_in(i) and self.killer.pos != i and not r.gift
                and not any(not p.alive and not p.searched and p.pos == i for p in self.pp))

    def key_available(self, i: int) -> bool:
        rd = self.rdef(i)
        return any(rd.rewards[k].reward == "key" for k in self.available_slots(i))

    def lock_options(self, explain: bool = False) -> list[Cell]:
        """Rules lock.candidates and lock.path, via checks.halls_locks. With ``explain``, events
        say which first-choice rooms (exhausted or starting) are refused and why: not empty
        (lock.empty) or cutting someone off (lock.path)."""
        first: list[Cell] = []
        second: list[Cell] = []
        occupied: list[int] = []
        for i, r in enumerate(self.rooms):
            if not r.up or r.locked or r.temp or self.d.rooms[r.card].mode == "exit":
                continue
            if not self.empty(i):
                if r.exhausted or r.start:
                    occupied.append(i)
                continue
            if r.exhausted or r.start:
                first.append(self.cell(i))
            elif not self.key_available(i):
                second.append(self.cell(i))
        grid = self.lock_grid()
        options = legal_locks(grid, first, second)
        if explain:
            if occupied:
                self._ev("lock.empty", "not empty, so not lockable: " + ", ".join(self.where(i) for i in occupied))
            blocked = [c for c in first if c not in options and not lock_is_safe(grid, c)]
            if blocked:
                self._ev("lock.path", "locking would cut someone off from an Exit, a body or an unexplored room: "
                         + ", ".join(self.where(self.idx(*c)) for c in blocked))
            rule = "lock.candidates"
            self._ev(rule, "rooms that may be locked: " + (", ".join(self.where(self.idx(*c)) for c in options) or "none"))
        return options

    # ---- Killer symbols and moves

    def killer_moves(self) -> list[str]:
        """Rule killer.move: the directions an Active Killer, not in combat, may move."""
        k = self.killer
        if not k.active() or self.people_in(k.pos) or self.mc.get("met"):
            return []
        return [d for d in DIRS if self.open_step(k.pos, d, killer=True) is not None]

    def _move_killer(self, d: str, rule: str) -> None:
        k = self.killer
        to = self.step(k.pos, d)
        assert to is not None
        k.pos = to
        met = bool(self.people_in(to))
        self._ev(rule, f"the Killer moves {d} to {self.where(to)}" + (" and meets a Participant" if met else ""))
        if met:
            self.mc["met"] = True

    def _on_killer_move(self, action: Action) -> None:
        eff = self.mc["effects"][0]
        d = str(action["dir"])
        if d == "stop":
            self.mc["effects"].pop(0)
            return
        eff["left"] = int(eff.get("left", eff.get("amount", 1))) - 1
        self._move_killer(d, "killer.move")
        if eff["left"] <= 0:
            self.mc["effects"].pop(0)

    def _on_killer_to(self, action: Action) -> None:
        i = self.idx(num(action["row"]), num(action["col"]))
        self.killer.pos = i
        self._ev("mc.card", f"the Killer appears in {self.where(i)}")

    def symbol_options(self) -> list[Action]:
        k = self.killer
        out = [Action.of("symbol", use="stop")]
        if k.hp > 0 and k.rage < len(self.d.rage) - 1:
            out.append(Action.of("symbol", use="enrage"))
        if k.hp < self.d.killer_hp_max:
            out.append(Action.of("symbol", use="heal"))
        out.extend(Action.of("symbol", use=d) for d in self.killer_moves())
        return out

    def _symbols(self) -> None:
        """Rule killer.symbols: forced Heal at 0 HP, forced Activate when stunned, then free uses."""
        mc = self.mc
        k = self.killer
        while mc["symbols"] > 0:
            if k.hp == 0:
                mc["symbols"] -= 1
                k.hp = 1
                self._ev("killer.heal", "a symbol must heal the dead Killer: 1 HP")
                continue
            if k.stunned and mc["symbols"] >= self.d.costs["activate"]:
                mc["symbols"] -= self.d.costs["activate"]
                k.stunned = False
                self._ev("killer.activate", "two symbols must Activate the Stunned Killer")
                continue
            opts = self.symbol_options()
            if len(opts) == 1:
                break
            self.need(self.controller(), "symbol", opts)
            return
        mc["symbols"] = 0
        mc["step"] = "end"

    def _on_symbol(self, action: Action) -> None:
        use = str(action["use"])
        mc = self.mc
        if use == "stop":
            self._ev("killer.symbols", f"{mc['symbols']} symbols left unspent")
            mc["symbols"] = 0
            return
        mc["symbols"] -= 1
        if use == "enrage":
            self.killer.rage += 1
            self._ev("killer.enrage", f"the Killer's Rage rises to {self.killer.rage}")
        elif use == "heal":
            self.killer.hp += 1
            self._ev("killer.heal", f"the Killer heals to {self.killer.hp} HP")
        else:
            self._move_killer(use, "killer.move")

    # ---- solo MC

    def _solo_draw(self) -> None:
        mc = self.mc
        if not self.mc_deck:
            if not self.mc_discard:
                mc["step"] = "end"
                return
            self._deck_ready(1)
            return
        tries = mc.setdefault("tries", 0)
        card = self.mc_deck.pop(0)
        info = self.d.solo[card]
        status = "dead" if self.killer.hp <= 0 else ("stunned" if self.killer.stunned else "active")
        effects = [dict(e) for e in info[status]]
        if not any(self._solo_can(e) for e in effects) and tries < len(self.d.solo_deck):
            mc["tries"] = tries + 1
            self.mc_deck.append(card)
            self._ev("solo.redraw", f"{info['name']} cannot be carried out (Killer {status}): it goes under the deck")
            return
        self.mc_discard.append(card)
        mc["card"] = card
        mc["effects"] = effects
        mc["step"] = "solo-effects"
        mc["from"] = self.killer.pos
        self._ev("solo.card-status", f"MC Solo card {info['name']}: the Killer is {status}")
        self.stage = "solo-effects"

    def _solo_can(self, e: Mapping[str, Any]) -> bool:
        k = self.killer
        do = e["do"]
        if do in ("killer-steps", "killer-toward"):
            return k.active() and any(self.open_step(k.pos, d) is not None for d in DIRS)
        if do == "hurt-killer":
            return k.hp > 1
        if do == "enrage":
            return k.hp > 0 and k.rage < len(self.d.rage) - 1
        if do == "heal":
            return k.hp < self.d.killer_hp_max
        if do == "activate":
            return k.stunned and k.hp > 0
        if do == "gift":
            return bool(self.gift_pile) and not self.rooms[k.pos].gift and not self.rooms[k.pos].locked
        if do == "replace-room":
            return any(r.exhausted and not r.locked for r in self.rooms)
        return False

    def _st_solo_effects(self) -> None:
        mc = self.mc
        k = self.killer
        p = self.pp[0]
        while mc["effects"]:
            eff = mc["effects"][0]
            do = eff["do"]
            n = int(eff.get("amount", 1))
            if do == "killer-steps":
                mc["effects"].pop(0)
                for _ in range(n):
                    if not k.active() or p.pos == k.pos:
                        break
                    moved = False
                    for d in eff["dirs"]:
                        to = self.open_step(k.pos, d)
                        if to is not None and to != mc["from"]:
                            self._move_killer(d, "solo.killer-steps")
                            moved = True
                            break
                    if not moved:
                        break
                continue
            if do == "killer-toward":
                left = int(eff.get("left", n))
                opts = self.toward_options() if left > 0 else []
                if not opts:
                    mc["effects"].pop(0)
                    continue
                if len(opts) == 1:
                    self._toward(opts[0])
                    continue
                self.need(p.seat, "toward", [Action.of("killer-step", dir=d) for d in opts])
                return
            if do == "gift":
                mc["effects"].pop(0)
                if self._solo_can(eff):
                    self.rooms[k.pos].gift = self.gift_pile.pop(0)
                    self._ev("mc.gift-place", f"an MC Gift is left in {self.where(k.pos)}")
                continue
            if do == "replace-room":
                mc["effects"].pop(0)
                worn = [self.cell(i) for i, r in enumerate(self.rooms) if r.exhausted and not r.locked]
                if worn:
                    self.need(p.seat, "refresh", [Action.of("refresh", row=r, col=c) for r, c in worn])
                    return
                continue
            mc["effects"].pop(0)
            if do == "enrage" and k.rage >= len(self.d.rage) - 1:
                self._ev("solo.caps", "the Killer's Rage is at its maximum: ignored")
                continue
            if do == "heal" and k.hp >= self.d.killer_hp_max:
                self._ev("solo.caps", "the Killer is at 12 HP: ignored")
                continue
            self._simple_effect(do, n)
        mc["step"] = "end"
        self.stage = "mc"

    def toward_options(self) -> list[str]:
        """Rule solo.killer-toward: the steps that bring the Killer one room closer to the Participant."""
        k = self.killer
        p = self.pp[0]
        if not k.active() or k.pos == p.pos or not p.alive:
            return []
        if self.rooms[p.pos].temp and self.step_distance(k.pos, p.pos) == 1:
            return []
        dist = self.distances(p.pos)
        here = dist.get(k.pos)
        if here is None:
            return []
        out = []
        for d in DIRS:
            j = self.open_step(k.pos, d)
            if j is not None and dist.get(j) == here - 1:
                out.append(d)
        return out

    def step_distance(self, a: int, b: int) -> int:
        (r1, c1), (r2, c2) = self.cell(a), self.cell(b)
        return abs(r1 - r2) + abs(c1 - c2)

    def distances(self, src: int) -> dict[int, int]:
        dist = {src: 0}
        queue = deque([src])
        while queue:
            i = queue.popleft()
            for d in DIRS:
                j = self.step(i, d)
                if j is None or j in dist or self.rooms[j].locked or (self.rooms[j].temp and j != src):
                    continue
                dist[j] = dist[i] + 1
                queue.append(j)
        return dist

    def _toward(self, d: str) -> None:
        eff = self.mc["effects"][0]
        eff["left"] = int(eff.get("left", eff.get("amount", 1))) - 1
        self._move_killer(d, "solo.killer-toward")
        if eff["left"] <= 0 or self.killer.pos == self.pp[0].pos:
            self.mc["effects"].pop(0)

    def _on_toward(self, action: Action) -> None:
        self._toward(str(action["dir"]))

    def _on_refresh(self, action: Action) -> None:
        i = self.idx(num(action["row"]), num(action["col"]))
        self.rooms[i].exhausted = False
        self.rooms[i].covered = []
        self._ev("mc.card", f"Something Changed: {self.where(i)} can be searched again")

    def _solo_keys_check(self) -> None:
        """Rule solo.not-enough-keys."""
        k = self.killer
        if k.two_keys:
            return
        reach = self.distances(self.pp[0].pos)
        if any(not self.rooms[i].up for i in reach):
            return
        if any(self.rooms[i].up and not self.rooms[i].locked and self.key_available(i) for i in range(len(self.rooms))):
            return
        k.two_keys = True
        k.carried = 2
        self._ev("solo.not-enough-keys", "every room is explored and no Key is left: the Killer now carries two Keys")

    # ---- end of round

    def _end_round(self) -> None:
        card = self.mc.get("card")
        if card and not self.solo:
            self.mc_discard.append(card)
        self.mc = {}
        if not self.solo:
            n = self.players
            for step in range(1, n + 1):
                k = (self.first + step) % n
                if self.pp[k].alive:
                    if k != self.first:
                        self.first = k
                        self._ev("mc.first-player-passes", f"the First Player card passes to {self.pp[k].name}")
                    break
            if len(self.dead_order) > 1:
                dead = sorted(self.dead_order)
                pos = dead.index(self.mc_index)
                self.mc_index = dead[(pos + 1) % len(dead)]
                self._ev("mc.role", f"the MC card passes to P{self.mc_index + 1}")
        self.round += 1
        self.turn = {}
        self._begin_turn()

    # ---- invariants (used by tests)

    def invariant_errors(self) -> list[str]:
        out = []
        held = sum(p.keys for p in self.pp)
        if held + self.keys_spent != self.keys_made:
            out.append(f"keys: held {held} + spent {self.keys_spent} != made {self.keys_made}")
        for p in self.pp:
            if not 0 <= p.hp <= self.d.hp_max:
                out.append(f"{p.name} HP {p.hp} out of bounds")
            if p.resolve < 0:
                out.append(f"{p.name} Resolve {p.resolve} negative")
            if p.bullets < 0 or p.shells < 0:
                out.append(f"{p.name} ammunition negative")
            if p.alive and p.hp == 0:
                out.append(f"{p.name} alive at 0 HP")
        if not 0 <= self.killer.hp <= self.d.killer_hp_max:
            out.append(f"Killer HP {self.killer.hp} out of bounds")
        if not 0 <= self.killer.rage < len(self.d.rage):
            out.append(f"Killer Rage {self.killer.rage} out of bounds")
        if self.stage not in ("setup-mixed", "setup-rooms", "setup-board", "setup-faces", "setup-mc", "setup-gifts",
                              "setup-rewards", "setup-place", "setup-killer"):
            missing = cut_off(self.lock_grid())
            if missing and self.players > 1:
                out.append(f"cut off: {missing}")
        return out


# --------------------------------------------------------------------------------------------
# A goal-directed controller (``--controller policy``): searches for Keys, heads for an Exit with
# two, fights only when armed, and as the MC sends the Killer after the nearest Participant.


def _first(legal: Sequence[Action], kind: str, **args: Any) -> Action | None:
    for action in legal:
        if action.kind == kind and all(action.get(k) == v for k, v in args.items()):
            return action
    return None


def _toward(state: HallsState, frm: int, targets: set[int], dirs: Sequence[str]) -> list[str]:
    """The directions among ``dirs`` that shorten the way from ``frm`` to the nearest target."""
    best: list[str] = []
    best_d = 10**6
    for d in dirs:
        j = state.step(frm, d)
        if j is None:
            continue
        dist = state.distances(j)
        near = min((dist[t] for t in targets if t in dist), default=10**6)
        if near < best_d:
            best, best_d = [d], near
        elif near == best_d:
            best.append(d)
    return best


def _valuable(state: HallsState, i: int) -> bool:
    rd = state.rdef(i)
    return any(rd.rewards[k].reward in ("key", "melee", "firearm", "utility") for k in state.available_slots(i))


def policy(state: GameState, legal: Choices, rng: Rng) -> Action:
    assert isinstance(state, HallsState)
    actions = list(legal)
    need = state._need
    kind = need.kind if need is not None else ""
    seat = need.actor if need is not None else ""
    pick = actions[rng.below(len(actions))]
    if kind == "choose":
        p = state.participant(seat)
        names = [str(a["action"]) for a in actions]
        if "attack" in names:
            armed = len(state.weapon_options(p)) > 1
            killer_here = state.killer.active() and state.killer.pos == p.pos
            fight = armed or (not killer_here and p.hp >= 6)
            return Action.of("choose", action="attack" if fight else "escape")
        opts = state.search_options(p) if "search" in names else []
        wanted = {"exit", "body", "puzzle", "gift"} & set(opts)
        if wanted or ("first-aid" in opts and p.hp <= 6) or ("room" in opts and _valuable(state, p.pos)):
            return Action.of("choose", action="search")
        dirs = [n for n in names if n in DIRS]
        if not dirs:
            return pick
        exits = {i for i, r in enumerate(state.rooms) if r.up and not r.locked and state.d.rooms[r.card].mode == "exit"}
        if p.keys >= 2 and exits:
            targets = exits
        else:
            targets = {i for i, r in enumerate(state.rooms) if not r.locked and not r.temp and i != p.pos
                       and (not r.up or _valuable(state, i) or r.gift)}
        if state.killer.active():
            dirs = [d for d in dirs if state.step(p.pos, d) != state.killer.pos] or dirs
        good = _toward(state, p.pos, targets, dirs) if targets else dirs
        return Action.of("choose", action=good[rng.below(len(good))])
    if kind == "search":
        for what in ("exit", "body", "puzzle", "gift", "room", "first-aid", "panic"):
            found = _first(actions, "search", what=what)
            if found is not None:
                return found
    if kind == "search-resolve":
        ctx = state.ctx
        p = state.participant(seat)
        if ctx["what"] in ("puzzle", "exit"):
            spend = not state._pairs(ctx["drawn"])
        else:
            k = state.best_reward(p.pos, ctx["drawn"])
            spend = k is None or state.rdef(p.pos).rewards[k].reward in NEGATIVE
        return Action.of("resolve", spend=spend)
    if kind == "search-discard":
        p = state.participant(seat)
        drawn = list(state.ctx["drawn"])
        for action in actions:
            card = str(action["card"])
            rest = list(drawn)
            if card != "none":
                rest.remove(card)
            k = state.best_reward(p.pos, rest)
            if k is not None and state.rdef(p.pos).rewards[k].reward not in NEGATIVE:
                return action
        return actions[0]
    if kind == "weapon":
        return max(actions, key=lambda a: 0 if a["name"] == "basic" else state.d.weapons[str(a["name"])].damage)
    if kind == "combat-resolve":
        others = [state.successes(t) for t in [*state.ctx["members"], *(["killer"] if state.ctx["killer"] else [])] if t != seat]
        rerolls = [a for a in actions if a.kind == "reroll"]
        if rerolls and state.successes(seat) <= max(others, default=0):
            return max(rerolls, key=lambda a: len(ints(a["dice"])))
        return actions[0]
    if kind in ("symbol", "killer-move"):
        prey = {p.pos for p in state.living() if p.seat != state.controller()} or {p.pos for p in state.living()}
        moves = [str(a.get("use") or a.get("dir")) for a in actions if str(a.get("use") or a.get("dir")) in DIRS]
        if moves:
            best = _toward(state, state.killer.pos, prey, moves)
            if best:
                d = best[rng.below(len(best))]
                return _first(actions, "symbol", use=d) or _first(actions, "killer-move", dir=d) or pick
        return _first(actions, "symbol", use="enrage") or _first(actions, "symbol", use="heal") or actions[0]
    return pick


# --------------------------------------------------------------------------------------------
# Positions: a state built directly from a mapping (dispute scenarios), its inverse, the game's
# invariants and a picture. Every key and default is listed in docs/halls-of-horror.md.

PathKey = tuple[str | int, ...]
POSITION_KEYS = ("round", "first", "rooms", "participants", "killer", "decks", "discards", "used_gifts",
                 "dead", "mc", "mc_holders", "keys_spent", "note")
ROOM_KEYS = ("at", "up", "locked", "temp", "exhausted", "covered", "gift")
PARTICIPANT_KEYS = ("room", "hp", "resolve", "items", "bullets", "shells", "keys", "panic", "alive", "searched")
KILLER_KEYS = ("room", "hp", "rage", "stunned", "key_given", "carried", "two_keys")


def _guess(word: object, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(str(word), list(choices), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


class _Builder:
    """Collects every problem of a position (path inside ``position``, message) before failing."""

    def __init__(self, state: HallsState) -> None:
        self.state = state
        self.problems: list[tuple[PathKey, str]] = []

    def bad(self, path: PathKey, message: str) -> None:
        self.problems.append((path, message))

    def mapping(self, value: Any, path: PathKey, allowed: Sequence[str], what: str) -> Mapping[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            self.bad(path, f"{what} is a mapping, got {value!r}")
            return {}
        for key in value:
            if key not in allowed:
                self.bad((*path, key), f"unknown key {key!r} in {what}{_guess(key, allowed)}; known: {', '.join(allowed)}")
        return value

    def flag(self, entry: Mapping[str, Any], key: str, path: PathKey, default: bool) -> bool:
        value = entry.get(key, default)
        if not isinstance(value, bool):
            self.bad((*path, key), f"{key} is true or false, got {value!r}")
            return default
        return value

    def number(self, entry: Mapping[str, Any], key: str, path: PathKey, default: int, lo: int, hi: int | None = None) -> int:
        value = entry.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < lo or (hi is not None and value > hi):
            span = f"from {lo} to {hi}" if hi is not None else f"of at least {lo}"
            self.bad((*path, key), f"{key} is a whole number {span}, got {value!r}")
            return default
        return value

    def cell(self, value: Any, path: PathKey, cards: Mapping[str, int] | None = None) -> int | None:
        """A room given as ``[row, col]`` (or, with ``cards``, by the id of the card lying there)."""
        s = self.state
        if isinstance(value, str) and cards is not None:
            if value not in cards:
                self.bad(path, f"no room {value!r} is on the board{_guess(value, cards)}")
                return None
            return cards[value]
        if (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
                and 0 <= value[0] < s.rows and 0 <= value[1] < s.cols):
            return s.idx(value[0], value[1])
        also = " or the id of a room on the board" if cards is not None else ""
        self.bad(path, f"a room is [row, col] inside the {s.rows}x{s.cols} grid (rows 0-{s.rows - 1}, cols 0-{s.cols - 1}){also}, "
                       f"got {value!r}")
        return None

    def seat(self, value: Any, path: PathKey) -> int | None:
        seats = self.state.seats()
        if value not in seats:
            self.bad(path, f"{value!r} is not a seat of this {len(seats)}-player game ({', '.join(seats)})")
            return None
        return seats.index(str(value))

    def pile(self, value: Any, path: PathKey, known: Sequence[str], what: str) -> list[str]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.bad(path, f"{what} is a list of card ids, got {value!r}")
            return []
        out = []
        for n, card in enumerate(value):
            if card not in known:
                self.bad((*path, n), f"unknown {what} {card!r}{_guess(card, known)}")
            else:
                out.append(str(card))
        return out

    def deal(self, full: Sequence[str], parts: Sequence[tuple[PathKey, list[str]]], what: str) -> list[str]:
        """What is left of ``full`` (a deck with repeats, in spec order) once the listed cards are
        taken out; a card listed more often than the deck holds it is a problem at its place."""
        left: dict[str, int] = {}
        for card in full:
            left[card] = left.get(card, 0) + 1
        for path, cards in parts:
            for n, card in enumerate(cards):
                if left.get(card, 0) <= 0:
                    self.bad((*path, n), f"more {card!r} than the {what} holds ({full.count(card)})")
                else:
                    left[card] -= 1
        out = []
        for card in full:
            if left.get(card, 0) > 0:
                out.append(card)
                left[card] -= 1
        return out


def build_position(spec: GameSpec, players: int, options: Mapping[str, Any], position: Mapping[str, Any]) -> HallsState:
    """A Halls of Horror state at the start of a round's action selection, built from a scenario's
    ``position`` (documented in docs/halls-of-horror.md); raises PositionError naming every bad path."""
    from hauntcheck.engine.scenario import PositionError

    checked, bad_options = option_problems(spec, players, options)
    if bad_options:
        raise PositionError([((), f"option {m}") for m in bad_options])
    if not isinstance(position, Mapping):
        raise PositionError([((), f"a position is a mapping, got {position!r}")])
    state = HallsState(spec, players, checked)
    d = state.d
    b = _Builder(state)
    b.mapping(position, (), POSITION_KEYS, "the position")
    starts = [state.idx(r, c) for r, c in state.lay["starts"]]
    start_card = {side: k for k, pair in enumerate(d.starts) for side in pair}

    # -- rooms
    grid: list[Room | None] = [None] * (state.rows * state.cols)
    placed: dict[str, int] = {}
    rooms = position.get("rooms") or {}
    if not isinstance(rooms, Mapping):
        b.bad(("rooms",), f"rooms maps room card ids to {{at: [row, col], ...}}, got {rooms!r}")
        rooms = {}
    for card, raw in rooms.items():
        path: PathKey = ("rooms", card)
        if card not in d.rooms:
            b.bad(path, f"unknown room {card!r}{_guess(card, d.rooms)}")
            continue
        entry = b.mapping(raw, path, ROOM_KEYS, f"room {card}")
        if "at" not in entry:
            b.bad(path, f"room {card} needs at: [row, col]")
            continue
        i = b.cell(entry["at"], (*path, "at"))
        if i is None:
            continue
        if grid[i] is not None:
            b.bad((*path, "at"), f"{list(state.cell(i))} already holds {grid[i].card}")  # type: ignore[union-attr]
            continue
        if card in start_card:
            twin = next(side for side in d.starts[start_card[card]] if side != card)
            if i not in starts:
                b.bad((*path, "at"), f"{card} is a starting room; starting rooms lie on the corners "
                                     f"{[list(state.cell(j)) for j in starts]}")
            if twin in placed:
                b.bad(path, f"{card} and {twin} are the two faces of one starting room card")
        elif i in starts:
            b.bad((*path, "at"), f"{list(state.cell(i))} is a starting room's corner; only a starting room card goes there")
        rd = d.rooms[card]
        locked = b.flag(entry, "locked", path, False)
        up = b.flag(entry, "up", path, not locked)
        if locked and up:
            b.bad((*path, "up"), "a locked room lies face down")
        if card in start_card and not up and not locked:
            b.bad((*path, "up"), "starting rooms lie face up")
        room = Room(card=card, up=up and not locked, locked=locked, start=i in starts)
        room.exhausted = b.flag(entry, "exhausted", path, False)
        room.temp = b.flag(entry, "temp", path, False)
        if room.temp and (rd.mode != "puzzle" or not room.up):
            b.bad((*path, "temp"), f"only a face-up puzzle room closes around a Participant; {rd.name} is not one")
        covered = entry.get("covered", [])
        if not (isinstance(covered, list) and all(isinstance(k, int) and 0 <= k < len(rd.rewards) for k in covered)
                and len(set(covered)) == len(covered)):
            b.bad((*path, "covered"), f"covered lists reward places of {rd.name} (0-{len(rd.rewards) - 1}, left to right), "
                                      f"got {covered!r}")
        else:
            room.covered = sorted(covered)
        gift = entry.get("gift", "")
        if gift and gift not in d.gifts:
            b.bad((*path, "gift"), f"unknown MC Gift {gift!r}{_guess(gift, d.gifts)}")
        else:
            room.gift = str(gift or "")
        grid[i] = room
        placed[card] = i
    fill_variant = "B" if state.variant == "B" else "A"
    removed = set(state.lay.get("remove_rooms", []))
    numbered = [d.numbered[n][fill_variant] for n in sorted(d.numbered)
                if n not in removed and not any(v in placed for v in d.numbered[n].values())]
    exits = [e for e in d.exits if e not in placed]
    free = [i for i in range(len(grid)) if grid[i] is None and i not in starts]
    fill = numbered[: max(0, len(free) - len(exits))] + exits
    for i, card in zip(free, fill, strict=False):
        grid[i] = Room(card=card)
    spare = [pair for pair in d.starts if not any(side in placed for side in pair)]
    for i in starts:
        if grid[i] is None and spare:
            grid[i] = Room(card=spare.pop(0)[0], up=True, start=True)
    cards = {room.card: i for i, room in enumerate(grid) if room is not None}
    board = [room if room is not None else Room() for room in grid]

    def standable(i: int | None, path: PathKey, who: str, face_down_ok: bool = False) -> int | None:
        if i is None:
            return None
        room = board[i]
        if room.locked:
            b.bad(path, f"{who} cannot be in the locked room {list(state.cell(i))}")
        elif not room.up and not face_down_ok:
            b.bad(path, f"{who} cannot be in the face-down room {list(state.cell(i))} (entering a room turns it face up)")
        return i

    # -- participants
    parts = b.mapping(position.get("participants"), ("participants",), state.seats(), "participants")
    state._make_participants()
    for k, p in enumerate(state.pp):
        path = ("participants", p.seat)
        entry = b.mapping(parts.get(p.seat), path, PARTICIPANT_KEYS, p.seat)
        p.alive = b.flag(entry, "alive", path, True)
        where = b.cell(entry["room"], (*path, "room"), cards) if "room" in entry else starts[k]
        p.pos = standable(where, (*path, "room"), f"{p.seat} ({p.name})") or 0
        if p.alive:
            p.hp = b.number(entry, "hp", path, d.hp, 1, d.hp_max)
        else:
            p.hp = b.number(entry, "hp", path, 0, 0, 0)
        p.resolve = b.number(entry, "resolve", path, p.resolve, 0)
        items = entry.get("items", [])
        if not (isinstance(items, list) and all(it in ITEM_ORDER for it in items) and len(set(items)) == len(items)):
            b.bad((*path, "items"), f"items is a list of different items among {', '.join(ITEM_ORDER)} "
                                    f"(one of each at most), got {items!r}")
        else:
            p.items = sorted(items, key=ITEM_ORDER.index)
        p.bullets = b.number(entry, "bullets", path, 0, 0)
        p.shells = b.number(entry, "shells", path, 0, 0)
        p.keys = b.number(entry, "keys", path, 0, 0)
        p.panic = b.flag(entry, "panic", path, False)
        p.searched = b.flag(entry, "searched", path, False)
        if p.searched and p.alive:
            b.bad((*path, "searched"), "only a dead Participant's body is searched")
    dead = [k for k, p in enumerate(state.pp) if not p.alive]
    living = [k for k, p in enumerate(state.pp) if p.alive]
    if not living:
        b.bad(("participants",), "at least one Participant must be alive")
    if "dead" in position:
        order = [b.seat(s, ("dead", n)) for n, s in enumerate(position["dead"] or [])] if isinstance(position["dead"], list) else []
        if sorted(k for k in order if k is not None) != dead:
            names = ", ".join(state.seat_of(k) for k in dead) or "nobody"
            b.bad(("dead",), f"dead lists every dead Participant once, in the order they died ({names} in some order)")
        else:
            dead = [k for k in order if k is not None]
    state.dead_order = list(dead)
    state.mc_holders = list(dead)
    if "mc_holders" in position:
        raw = position["mc_holders"]
        holders = [b.seat(s, ("mc_holders", n)) for n, s in enumerate(raw)] if isinstance(raw, list) else [None]
        if None in holders or not set(holders) <= set(dead) or len(set(holders)) != len(holders):
            b.bad(("mc_holders",), "mc_holders lists dead Participants' seats (each has held the MC role)")
        else:
            state.mc_holders = [k for k in holders if k is not None]
    state.mc_index = dead[-1] if dead else -1
    if "mc" in position:
        mc_seat = b.seat(position["mc"], ("mc",))
        if mc_seat is not None and mc_seat not in dead:
            b.bad(("mc",), "the MC is a player whose Participant is dead")
        elif mc_seat is not None:
            state.mc_index = mc_seat
    if state.mc_index >= 0 and state.mc_index not in state.mc_holders:
        b.bad(("mc_holders",), f"the MC {state.seat_of(state.mc_index)} must be among mc_holders")
    first = b.seat(position["first"], ("first",)) if "first" in position else (living[0] if living else 0)
    if first is not None and first not in living and living:
        b.bad(("first",), "the First Player's Participant must be alive")
    state.first = first or 0
    state.round = b.number(position, "round", (), 1, 1, d.round_limit)
    state.keys_spent = b.number(position, "keys_spent", (), 0, 0)

    # -- the Killer
    path = ("killer",)
    entry = b.mapping(position.get("killer"), path, KILLER_KEYS, "the Killer")
    k_cell = b.cell(entry["room"], (*path, "room"), cards) if "room" in entry else state.idx(*state.lay["killer_cells"][0])
    killer = Killer(pos=standable(k_cell, (*path, "room"), "the Killer", face_down_ok=True) or 0)
    killer.hp = b.number(entry, "hp", path, d.killer_hp, 0, d.killer_hp_max)
    killer.rage = b.number(entry, "rage", path, 0, 0, len(d.rage) - 1)
    killer.stunned = b.flag(entry, "stunned", path, killer.hp == 0)
    if killer.hp == 0 and not killer.stunned:
        b.bad((*path, "stunned"), "a Killer at 0 HP is dead, and so Stunned")
    killer.key_given = b.flag(entry, "key_given", path, False)
    killer.carried = b.number(entry, "carried", path, 0, 0, 2)
    killer.two_keys = b.flag(entry, "two_keys", path, False)
    state.killer = killer

    for i, room in enumerate(board):
        if room.temp and not any(p.alive and p.pos == i for p in state.pp):
            b.bad(("rooms", room.card, "temp"), f"{room.card} is closed around a Participant, but no living Participant is in it")

    # -- decks and discards
    decks = b.mapping(position.get("decks"), ("decks",), ("rewards", "mc", "gifts"), "decks")
    discards = b.mapping(position.get("discards"), ("discards",), ("rewards", "mc"), "discards")
    mc_full = list(d.solo_deck) if state.solo else [c for c in d.mc_deck if c not in set(state.lay.get("remove_mc", []))]
    mc_known = sorted(set(mc_full))
    top = b.pile(decks.get("rewards"), ("decks", "rewards"), list(d.reward_symbols), "Reward card")
    gone = b.pile(discards.get("rewards"), ("discards", "rewards"), list(d.reward_symbols), "Reward card")
    state.reward_deck = top + b.deal(d.reward_deck, [(("decks", "rewards"), top), (("discards", "rewards"), gone)], "Reward deck")
    state.reward_discard = gone
    top = b.pile(decks.get("mc"), ("decks", "mc"), mc_known, "MC card")
    gone = b.pile(discards.get("mc"), ("discards", "mc"), mc_known, "MC card")
    state.mc_deck = top + b.deal(mc_full, [(("decks", "mc"), top), (("discards", "mc"), gone)], "MC deck")
    state.mc_discard = gone
    top = b.pile(decks.get("gifts"), ("decks", "gifts"), list(d.gifts), "MC Gift")
    used = b.pile(position.get("used_gifts"), ("used_gifts",), list(d.gifts), "MC Gift")
    in_rooms = [room.gift for room in board if room.gift]
    state.gift_pile = top + b.deal(d.gift_pool, [(("decks", "gifts"), top), (("used_gifts",), used),
                                                 (("rooms",), in_rooms)], "MC Gift pool")

    state.rooms = board
    held = sum(p.keys for p in state.pp)
    state.keys_made = held + state.keys_spent
    if not b.problems and players > 1:
        for walker, target in cut_off(state.lock_grid())[:1]:
            b.bad(("rooms",), f"the locked rooms cut {list(walker)} off from {list(target)}, "
                              "which every Participant and the Killer must be able to reach")
    if b.problems:
        raise PositionError(b.problems)
    state.milestones = set()
    if held or state.keys_spent:
        state.milestones.add("key")
    if dead:
        state.milestones.add("death")
    if killer.key_given:
        state.milestones.add("killer-dies")
    if any(r.up and d.rooms[r.card].mode == "exit" for r in board):
        state.milestones.add("exit-revealed")
    state.pool, state.ctx, state.turn, state.mc = [], {}, {}, {}
    state._need, state._legal, state.result = None, None, None
    state._begin_turn()
    state._advance()
    state._round_began = False
    state.anchor_len = 0
    state.remake = lambda: build_position(spec, players, options, position)
    state._events = []
    return state


def _multiset_minus(full: Sequence[str], *taken: Sequence[str]) -> list[str]:
    left = list(full)
    for part in taken:
        for card in part:
            if card in left:
                left.remove(card)
    return left


def describe_position(state: GameState) -> dict[str, Any]:
    """A state as a ``position`` mapping; building it gives back the same state when the state is
    at the start of a round's action selection. A state later in a round is described at that
    start (``lead_up`` gives the recorded actions from there), or, when the round's start is not
    known, as it stands (building it then starts the round's selection afresh)."""
    assert isinstance(state, HallsState)
    if state.anchor_len < 0 or state.trail_len == state.anchor_len:
        return _describe(state)
    start = state.remake()
    for _actor, action in state.actions_taken()[: state.anchor_len]:
        start.apply(action)
    out = _describe(start)
    out["note"] = (f"described at the start of round {start.round}'s action selection; "
                   f"{state.trail_len - state.anchor_len} recorded action(s) lead on from there")
    return out


def lead_up(state: GameState) -> list[tuple[str, Action]]:
    """(actor, action) recorded from the position ``describe_position`` gives to the state itself."""
    assert isinstance(state, HallsState)
    return state.actions_taken()[state.anchor_len:] if state.anchor_len >= 0 else []


def _describe(s: HallsState) -> dict[str, Any]:
    if s.stage.startswith("setup"):
        return {"note": "described during setup, before the board is dealt: this is the default position"}
    out: dict[str, Any] = {}
    if s.round != 1:
        out["round"] = s.round
    first = s.first
    if not s.pp[first].alive:
        # Mid-round, after the First Player's death: the card goes on to the next living Participant.
        first = next((k for k in [(s.first + n) % s.players for n in range(1, s.players + 1)] if s.pp[k].alive), first)
    out["first"] = s.seat_of(first)
    rooms: dict[str, Any] = {}
    for i, room in enumerate(s.rooms):
        entry: dict[str, Any] = {"at": list(s.cell(i))}
        if room.locked:
            entry["locked"] = True
        elif not room.up:
            entry["up"] = False
        for key in ("temp", "exhausted"):
            if getattr(room, key):
                entry[key] = True
        if room.covered:
            entry["covered"] = sorted(room.covered)
        if room.gift:
            entry["gift"] = room.gift
        rooms[room.card] = entry
    out["rooms"] = rooms
    parts: dict[str, Any] = {}
    for p in s.pp:
        entry = {"room": list(s.cell(p.pos)), "hp": p.hp, "resolve": p.resolve}
        if p.items:
            entry["items"] = list(p.items)
        for key in ("bullets", "shells", "keys"):
            if getattr(p, key):
                entry[key] = getattr(p, key)
        if p.panic:
            entry["panic"] = True
        if not p.alive:
            entry["alive"] = False
        if p.searched:
            entry["searched"] = True
        parts[p.seat] = entry
    out["participants"] = parts
    k = s.killer
    killer: dict[str, Any] = {"room": list(s.cell(k.pos)), "hp": k.hp, "rage": k.rage, "stunned": k.stunned}
    for key in ("key_given", "carried", "two_keys"):
        if getattr(k, key):
            killer[key] = getattr(k, key)
    out["killer"] = killer
    out["decks"] = {"rewards": list(s.reward_deck), "mc": list(s.mc_deck), "gifts": list(s.gift_pile)}
    discards = {name: list(pile) for name, pile in (("rewards", s.reward_discard), ("mc", s.mc_discard)) if pile}
    if discards:
        out["discards"] = discards
    used = _multiset_minus(s.d.gift_pool, s.gift_pile, [r.gift for r in s.rooms if r.gift])
    if used:
        out["used_gifts"] = used
    if s.dead_order:
        out["dead"] = [s.seat_of(k) for k in s.dead_order]
        out["mc"] = s.seat_of(s.mc_index)
        out["mc_holders"] = [s.seat_of(k) for k in s.mc_holders]
    if s.keys_spent:
        out["keys_spent"] = s.keys_spent
    if s.stage != "select" or s.turn.get("chosen"):
        out["note"] = (f"described as it stands in round {s.round} (stage {s.stage}); building it starts the "
                       "round's action selection afresh")
    return out


def invariants(state: GameState) -> list[str]:
    """Key conservation, HP and Rage within bounds, Resolve and ammunition never negative, nobody
    alive at 0 HP, and no living Participant or the Killer cut off from an Exit, a body or (while
    an Exit is hidden) a face-down room (checks.halls_locks)."""
    if not isinstance(state, HallsState):
        return [f"not a Halls of Horror state: {type(state).__name__}"]
    return state.invariant_errors()


SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd")


def _svg_text(x: float, y: float, text: str, size: int, fill: str = "#111", anchor: str = "middle") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-family="sans-serif" font-size="{size}" text-anchor="{anchor}" '
            f'fill="{fill}">{escape(text)}</text>')


def draw_svg(state: GameState) -> str:
    """The board seen from above, row 0 at the top: face-up rooms with their names (exhausted ones
    shaded, covered rewards counted), face-down rooms grey, locked rooms dark, a room closed
    around a puzzle solver outlined in orange; Participants are circles with their seat and HP (a
    body is a grey circle), the Killer a red square (hollow when Stunned), an MC Gift a small "G"."""
    assert isinstance(state, HallsState)
    s = state
    w, h, head = 120, 80, 30
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{s.cols * w + 10}" height="{s.rows * h + head + 10}">']
    k = s.killer
    parts.append(_svg_text(5, 18, f"round {s.round}, First Player {s.seat_of(s.first)}; Killer {k.hp} HP, Rage {k.rage}"
                           + (", Stunned" if k.stunned else ""), 13, anchor="start"))
    for i, room in enumerate(s.rooms):
        r, c = s.cell(i)
        x, y = 5 + c * w, head + r * h
        if room.locked:
            fill, label = "#444", "locked"
        elif not room.up:
            fill, label = "#bbb", "face down"
        else:
            fill = "#e4dccb" if room.exhausted else "#fbf8f0"
            label = s.d.rooms[room.card].name.replace(" (sample)", "")
        stroke = ' stroke="#ff7f0e" stroke-width="4"' if room.temp else ' stroke="#333"'
        parts.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}"{stroke}/>')
        colour = "#fff" if room.locked else "#111"
        parts.append(_svg_text(x + w / 2, y + 14, label[:22], 10, colour))
        notes = [f"[{r},{c}]"] + (["exhausted"] if room.exhausted else []) + ([f"{len(room.covered)} covered"] if room.covered else [])
        parts.append(_svg_text(x + w / 2, y + h - 6, ", ".join(notes), 9, colour))
        if room.gift:
            parts.append(f'<rect x="{x + w - 18}" y="{y + 20}" width="13" height="13" fill="#ffd700" stroke="#333"/>')
            parts.append(_svg_text(x + w - 11.5, y + 31, "G", 10))
    for n, p in enumerate(s.pp):
        if p.pos < 0 or p.escaped:
            continue
        r, c = s.cell(p.pos)
        x, y = 5 + c * w + 18 + 24 * n, head + r * h + 42
        colour = SEAT_COLOURS[n % len(SEAT_COLOURS)] if p.alive else "#999"
        parts.append(f'<circle cx="{x}" cy="{y}" r="10" fill="{colour}" stroke="#111"/>')
        parts.append(_svg_text(x, y + 3.5, p.seat, 9, "#fff"))
        parts.append(_svg_text(x, y + 20, f"{p.hp} HP", 7))
    r, c = s.cell(k.pos)
    x, y = 5 + c * w + w - 24, head + r * h + 48
    parts.append(f'<rect x="{x}" y="{y}" width="16" height="16" fill="{"none" if k.stunned else "#b00"}" stroke="#b00" stroke-width="2"/>')
    parts.append(_svg_text(x + 8, y + 12, "K", 10, "#b00" if k.stunned else "#fff"))
    parts.append("</svg>\n")
    return "".join(parts)


# --------------------------------------------------------------------------------------------
# Game definition


def option_problems(spec: GameSpec, players: int, options: Mapping[str, Any]) -> tuple[dict[str, str], list[str]]:
    """The game options, checked: (options with defaults, problems)."""
    variant = str(options.get("variant", "A"))
    side = str(options.get("side", "beginner"))
    decks = str(options.get("decks", "separate"))
    problems = []
    if variant not in ("A", "B", "mixed"):
        problems.append(f"variant must be A, B or mixed, not {variant!r}")
    if side not in ("beginner", "advanced"):
        problems.append(f"side must be beginner or advanced, not {side!r}")
    if decks not in ("separate", "combined"):
        problems.append(f"decks must be separate or combined, not {decks!r}")
    elif decks == "combined" and variant == "mixed":
        problems.append("decks combined and variant mixed are two alternative ways of mixing the decks (8.1); choose one")
    if players not in load_data(spec).layouts:
        problems.append(f"Halls of Horror has no layout for {players} players")
    return {"variant": variant, "side": side, "decks": decks}, problems


def new_game(spec: GameSpec, players: int, options: Mapping[str, Any]) -> HallsState:
    checked, problems = option_problems(spec, players, options)
    if problems:
        raise ValueError(problems[0])
    return HallsState(spec, players, checked)


def cross_check(spec: GameSpec) -> list[SpecError]:
    """Errors spanning files: rule ids, layouts that do not fill their grid, unknown MC cards."""
    errors = rule_id_errors(spec)
    comp = spec.one("hoh-components")
    rooms = spec.one("hoh-rooms").data
    decks = spec.one("hoh-decks").data
    rules = {r["id"] for r in spec.one("rules").data["rules"]}
    mc_ids = {c["id"] for c in decks["mc"]}
    numbers = {r["number"] for r in rooms["rooms"]}
    for n, lay in enumerate(comp.data["layouts"]):
        free = lay["rows"] * lay["cols"] - len(lay["starts"])
        if lay["numbered_rooms"] + lay["exits"] != free:
            errors.append(comp.error(("layouts", n, "numbered_rooms"),
                                     f"{lay['numbered_rooms']} rooms + {lay['exits']} exits do not fill the {free} free squares"))
        if len(numbers - set(lay.get("remove_rooms", []))) < lay["numbered_rooms"]:
            errors.append(comp.error(("layouts", n, "numbered_rooms"), "not enough numbered rooms for this layout"))
        if lay["rule"] not in rules:
            errors.append(comp.error(("layouts", n, "rule"), f"rule {lay['rule']!r} is not in rules.yaml"))
        for m, card in enumerate(lay.get("remove_mc", [])):
            if card not in mc_ids:
                errors.append(comp.error(("layouts", n, "remove_mc", m), f"no MC card {card!r}"))
    for n, lay in enumerate(comp.data["layouts"]):
        for key in ("starts", "killer_cells"):
            for m, (r, c) in enumerate(lay[key]):
                if not (0 <= r < lay["rows"] and 0 <= c < lay["cols"]):
                    errors.append(comp.error(("layouts", n, key, m), f"cell [{r}, {c}] is outside the {lay['rows']}x{lay['cols']} grid"))
    room_file = spec.one("hoh-rooms")
    for section in ("rooms", "exits"):
        for n, room in enumerate(rooms[section]):
            errors.extend(_room_errors(room_file, (section, n), room))
    for n, start in enumerate(rooms["starting_rooms"]):
        for m, side in enumerate(start["sides"]):
            errors.extend(_room_errors(room_file, ("starting_rooms", n, "sides", m), side))
    if len(rooms["starting_rooms"]) < max(len(lay["starts"]) for lay in comp.data["layouts"]):
        errors.append(room_file.error(("starting_rooms",), "fewer starting rooms than a layout needs"))
    parts = spec.one("hoh-participants")
    for n, p in enumerate(parts.data["participants"]):
        for m, pw in enumerate(p["advanced"]["powers"]):
            if pw["rule"] not in rules:
                where = ("participants", n, "advanced", "powers", m, "rule")
                errors.append(parts.error(where, f"rule {pw['rule']!r} is not in rules.yaml"))
    return errors


def _room_errors(file: Any, path: tuple[str | int, ...], room: Mapping[str, Any]) -> list[SpecError]:
    """A room's rewards must suit its mode, and ``also`` must name another reward of the room."""
    out = []
    rewards = room.get("rewards", [])
    mode = room["mode"]
    if mode in ("search", "puzzle") and not room.get("search"):
        out.append(file.error((*path, "mode"), f"a {mode} room needs a 'search' value (cards to draw)"))
    if mode in ("automatic", "puzzle") and not rewards:
        out.append(file.error((*path, "rewards"), f"a {mode} room needs at least one reward"))
    if mode == "exit" and not room.get("needs_keys"):
        out.append(file.error((*path, "mode"), "an Exit needs 'needs_keys'"))
    for k, slot in enumerate(rewards):
        also = slot.get("also")
        if also is not None and not (0 <= also < len(rewards) and also != k):
            out.append(file.error((*path, "rewards", k, "also"), f"'also' must name another reward of this room (0-{len(rewards) - 1})"))
        if slot["reward"] in ("melee", "firearm", "utility") and "item" not in slot:
            out.append(file.error((*path, "rewards", k), f"a {slot['reward']} reward must name its item"))
        if slot["reward"] == "ammo" and "ammo" not in slot:
            out.append(file.error((*path, "rewards", k), "an ammo reward must say bullet or shell"))
    return out


def notices(spec: GameSpec) -> list[str]:
    marks = spec.marks()
    samples = sum(1 for m in marks if m.kind == "sample")
    judgements = sum(1 for m in marks if m.kind == "judgement")
    return [f"halls-of-horror: {samples} sample card entries and {judgements} judgement values are in use "
            "(the rulebook prints no card faces); owners of the game can replace them with the real card data"]


GAME = GameDef(
    id=GAME_ID,
    title="Halls of Horror",
    min_players=1,
    max_players=4,
    new_game=new_game,
    cross_check=cross_check,
    options=(
        Option("variant", "room deck: A | B | mixed (8.1, one card of each number)", "A"),
        Option("decks", "separate | combined (8.1: both room decks shuffled into one 48-card deck)", "separate"),
        Option("side", "Participant sheets: beginner | advanced (powers)", "beginner"),
    ),
    golden=(
        GoldenCase("four-players-policy-seed-3", players=4, seed=3, controller="policy"),
        GoldenCase("four-players-advanced-mixed-seed-8", players=4, seed=8, options={"variant": "mixed", "side": "advanced"}),
        GoldenCase("four-players-combined-decks-policy-seed-12", players=4, seed=12, options={"decks": "combined"}, controller="policy"),
        GoldenCase("three-players-policy-seed-4", players=3, seed=4, controller="policy"),
        GoldenCase("two-players-seed-3", players=2, seed=3),
        GoldenCase("solo-policy-seed-5", players=1, seed=5, controller="policy"),
        GoldenCase("solo-seed-3", players=1, seed=3),
    ),
    policy=policy,
    milestones=("key", "death", "exit-revealed", "killer-dies"),
    notices=notices,
    position=build_position,
    describe_position=describe_position,
    lead_up=lead_up,
    invariants=invariants,
    draw_svg=draw_svg,
)

