"""Halls of Horror data: the spec read into plain types (rooms, rewards, weapons, the Killer's
numbers; :func:`load_data`, built once per spec), the game options checked against it, and the
pieces of a game state (a Room, a Participant, the Killer, a pending decision).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hauntcheck.engine.core import Action, Choices, RuleBook
from hauntcheck.engine.games import rulebook
from hauntcheck.engine.spec import GameSpec

GAME_ID = "halls-of-horror"
DIRS: dict[str, tuple[int, int]] = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
ITEM_ORDER = ("knife", "fireaxe", "pistol", "shotgun", "first-aid-kit", "kevlar-vest")
NEGATIVE = ("damage", "panic")


@functools.cache
def act_cell(kind: str, row: int, col: int) -> Action:
    """The action ``kind row=R col=C``, built once (see :func:`hauntcheck.engine.core.act`)."""
    return Action(kind, (("row", row), ("col", col)))


@functools.cache
def grid_steps(rows: int, cols: int) -> tuple[Mapping[str, int | None], ...]:
    """For each cell index of a rows x cols grid, the cell one step in each direction (None off the grid)."""
    out = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        out.append({d: (r + dr) * cols + c + dc if 0 <= r + dr < rows and 0 <= c + dc < cols else None
                    for d, (dr, dc) in DIRS.items()})
    return tuple(out)


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
    """The game's data, read once per spec object."""
    return spec.derived("halls.data", _load_data)


def _load_data(spec: GameSpec) -> HallsData:
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
