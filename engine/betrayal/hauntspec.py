"""Haunt specs (``spec/betrayal/haunts/NN-slug.yaml``) as typed records, and the checks that span files.

A haunt file declares its own ids (tables, tokens, monsters, statuses, flags, hooks) and refers to
ids of other spec files: rooms, cards (omens, items, events), explorers, and the token components
of ``components.yaml``. :func:`haunt_cross_check` reports every reference that does not resolve,
with the path inside the haunt file and the file that should define the id; the lead wraps these
into ``SpecError`` values with positions. :func:`hook_coverage` lists the named ``custom`` hooks
each haunt needs, for the coverage report.

The loaders take plain data as produced by the spec loader (mapping keys are strings; player
counts may be given as ``"3"`` or ``3``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeGuard, TypeVar

from hauntcheck.engine.spec import did_you_mean

_T = TypeVar("_T")

PLAYER_COUNTS: tuple[int, ...] = (3, 4, 5, 6)
TRAIT_USED = "trait-used"  # reserved token name: "the token of the trait that was rolled"
TARGET = "target"  # reserved monster name in kill/stun/trap outcomes: the action's target

PathKey = tuple[str | int, ...]
TableValue = int | bool | str


# --------------------------------------------------------------------------------------------
# Records


@dataclass(frozen=True)
class PlayerTable:
    """A value for each player count 3..6 (no gaps), optionally with the printed formula."""

    id: str
    says: str
    values: Mapping[int, TableValue]
    formula: Mapping[str, Any] | None = None

    def __getitem__(self, players: int) -> TableValue:
        return self.values[players]


@dataclass(frozen=True)
class TokenDef:
    """A token kind: a component part of components.yaml, with colour or trait where it has one."""

    id: str
    component: str
    represents: str
    colour: str | None = None
    trait: str | None = None
    name: str | None = None
    numbered: bool = False
    carried_as_item: bool = False
    carry_limit: int | None = None  # at most this many on one explorer
    carried_by: str | None = None  # only this side picks it up, takes or steals it
    move_cost: int = 1  # spaces to enter a room while carrying one
    # an explorer dying in the haunt leaves one in its room; a mapping ``{killed_by, with_weapon}``
    # limits it to deaths by an attack won by that side (with a weapon)
    left_on_death: bool | Mapping[str, Any] = False
    on_take: tuple[Mapping[str, Any], ...] = ()  # outcomes for whoever takes it from a room (a trap)
    hidden_from: str | None = None  # the side kept from knowing where these tokens lie
    on_enter: Mapping[str, Any] | None = None  # an ambush sprung when an explorer moves into its room


@dataclass(frozen=True)
class MonsterDef:
    """A monster kind: stats (fixed, by track value, or copied from an explorer), movement,
    immunities, what defeating it does, and what it may carry."""

    id: str
    name: str
    token: str
    controlled_by: str
    stats: Mapping[str, Any] = field(default_factory=dict)  # a value, "none", or {table: id}
    stats_by_track: tuple[Mapping[str, Any], ...] = ()
    stats_from: str | None = None
    count: Any = None
    movement: Mapping[str, Any] = field(default_factory=dict)
    immune_to: tuple[str, ...] = ()
    attackable: str = "normally"
    on_defeat: str = "stun"
    damage_capacity: Mapping[str, Any] | None = None
    carries: Mapping[str, Any] = field(default_factory=dict)
    must: tuple[Mapping[str, Any], ...] = ()
    abilities: tuple[Mapping[str, Any], ...] = ()
    appears: Mapping[str, Any] | None = None  # kept out of the house, it shows up on its own
    paired_with: str | None = None
    slows_explorers: bool = True
    grabs: Mapping[str, Any] | None = None  # seizes explorers it beats (haunt/grabs.py)

    def stats_at(self, track: int) -> Mapping[str, int | str]:
        """Stats for a Turn/Damage track value (stats_by_track rows; the last row may hold 'and above')."""
        if not self.stats_by_track:
            return self.stats
        best: Mapping[str, Any] | None = None
        for row in self.stats_by_track:
            if row["track"] == track or (row.get("and_above") and track >= row["track"]):
                best = row
        if best is None:
            raise KeyError(f"{self.id} has no stats for track value {track}")
        return {k: v for k, v in best.items() if k in ("speed", "might", "sanity", "knowledge")}


@dataclass(frozen=True)
class WinDef:
    """A win condition: a predicate evaluated after every step, and who wins when it holds."""

    id: str
    when: Mapping[str, Any]
    says: str
    winners: Any = "side"


@dataclass(frozen=True)
class SideDef:
    """One book's side: setup steps, tasks, actions, timers, turn rules, attack rules, wins."""

    wins: tuple[WinDef, ...]
    knows: str | None = None
    setup: tuple[Mapping[str, Any], ...] = ()
    tasks: tuple[Mapping[str, Any], ...] = ()
    actions: tuple[Mapping[str, Any], ...] = ()
    timers: tuple[Mapping[str, Any], ...] = ()
    turn_rules: tuple[Mapping[str, Any], ...] = ()
    attack_rules: tuple[Mapping[str, Any], ...] = ()
    rules: tuple[Mapping[str, Any], ...] = ()
    ends_without_winner: tuple[WinDef, ...] = ()
    rivals: bool = False  # the side's explorers are one another's opponents (move.haunt-rivals)
    bound_cards: tuple[str, ...] = ()  # cards its explorers may not trade, give away or drop
    lost_powers: tuple[tuple[str, str], ...] = ()  # (card, effect): a card's power that no longer works for the side
    collapse: Mapping[str, Any] | None = None  # the house falling room by room (haunt/collapse.py)


@dataclass(frozen=True)
class HauntSpec:
    """A loaded haunt file."""

    number: int
    title: str
    slug: str
    haunt_kind: str
    traitor: Mapping[str, Any]
    heroes_side: SideDef
    traitor_side: SideDef | None = None
    tables: Mapping[str, PlayerTable] = field(default_factory=dict)
    tokens: Mapping[str, TokenDef] = field(default_factory=dict)
    monsters: Mapping[str, MonsterDef] = field(default_factory=dict)
    statuses: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    flags: Mapping[str, str] = field(default_factory=dict)
    hooks: Mapping[str, str] = field(default_factory=dict)

    _sides: Mapping[str, SideDef] = field(init=False, repr=False, compare=False)
    _task_lists: dict[tuple[bool, bool], tuple[Mapping[str, Any], ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict)
    _derived: dict[str, Any] = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        # The sides are asked for at every step of play; build the (read-only) map once.
        out = {"heroes": self.heroes_side}
        if self.traitor_side is not None:
            out["traitor"] = self.traitor_side
        object.__setattr__(self, "_sides", MappingProxyType(out))

    def derived(self, name: str, build: Callable[[HauntSpec], _T]) -> _T:
        """``build(self)``, computed once per haunt spec object and kept on it under ``name`` (what
        the haunt file fixes, looked up during play: its compiled goals, whether any attack reaches
        next door), as :meth:`GameSpec.derived` keeps a game's; ``build`` must depend on the spec
        alone."""
        try:
            value: _T = self._derived[name]
        except KeyError:
            value = self._derived[name] = build(self)
        return value

    def sides(self) -> Mapping[str, SideDef]:
        """The book's sides by name: the heroes first, then the traitor's side if it has one."""
        return self._sides

    def tasks_by(self, hero: bool, traitor: bool) -> tuple[Mapping[str, Any], ...]:
        """Every task and special action an explorer may take, by each one's ``by``: ``hero`` /
        ``heroes`` for an explorer playing as a hero, ``traitor`` for the traitor's side,
        ``explorers`` for anyone; unset, the side whose page it is on. Worked out once for each
        kind of explorer: the book does not change during play."""
        key = (hero, traitor)
        got = self._task_lists.get(key)
        if got is None:
            out: list[Mapping[str, Any]] = []
            for side_name, side in self.sides().items():
                for task in [*side.tasks, *side.actions]:
                    by = task.get("by", "hero" if side_name == "heroes" else "traitor")
                    if by == "explorers" or (by in ("hero", "heroes") and hero) or (by == "traitor" and traitor):
                        out.append(task)
            got = self._task_lists[key] = tuple(out)
        return got

    def amount(self, value: Any, players: int) -> int:
        """Resolve an amount (number, {table: id} or formula) for a player count at setup."""
        if isinstance(value, bool):
            raise TypeError(f"not an amount: {value!r}")
        if isinstance(value, int):
            return value
        if isinstance(value, Mapping) and "table" in value:
            got = self.tables[str(value["table"])][players]
            if isinstance(got, bool) or not isinstance(got, int):
                raise TypeError(f"table {value['table']!r} does not hold numbers")
            return got
        if isinstance(value, Mapping) and "of" in value:
            if value["of"] != "players":
                raise ValueError(f"{value['of']!r} is known only during play, not from the player count")
            return evaluate_formula(value, players)
        raise TypeError(f"not an amount: {value!r}")


def evaluate_formula(formula: Mapping[str, Any], base: int) -> int:
    """(base x times + plus) / div, rounded down or up, then capped at max."""
    value = base * int(formula.get("times", 1)) + int(formula.get("plus", 0))
    div = int(formula.get("div", 1))
    if div > 1:
        value = -(-value // div) if formula.get("round") == "up" else value // div
    if "max" in formula:
        value = min(value, int(formula["max"]))
    return value


def formula_base(formula: Mapping[str, Any], players: int) -> int | None:
    """The quantity a formula starts from at setup, or None if it depends on play."""
    return players if formula.get("of") == "players" else None


# --------------------------------------------------------------------------------------------
# Loading


def _tuple(items: Any) -> tuple[Mapping[str, Any], ...]:
    return tuple(items or ())


def _table(data: Mapping[str, Any]) -> PlayerTable:
    values = {int(k): v for k, v in data["values"].items()}
    return PlayerTable(id=str(data["id"]), says=str(data["says"]), values=values, formula=data.get("formula"))


def _token(data: Mapping[str, Any]) -> TokenDef:
    return TokenDef(
        id=str(data["id"]),
        component=str(data["component"]),
        represents=str(data["represents"]),
        colour=data.get("colour"),
        trait=data.get("trait"),
        name=data.get("name"),
        numbered=bool(data.get("numbered", False)),
        carried_as_item=bool(data.get("carried_as_item", False)),
        carry_limit=int(data["carry_limit"]) if "carry_limit" in data else None,
        carried_by=data.get("carried_by"),
        move_cost=int(data.get("move_cost", 1)),
        left_on_death=dict(data["left_on_death"]) if isinstance(data.get("left_on_death"), Mapping)
        else bool(data.get("left_on_death", False)),
        on_take=tuple(data.get("on_take", ())),
        hidden_from=data.get("hidden_from"),
        on_enter=data.get("on_enter"),
    )


def _monster(data: Mapping[str, Any]) -> MonsterDef:
    return MonsterDef(
        id=str(data["id"]),
        name=str(data["name"]),
        token=str(data["token"]),
        controlled_by=str(data["controlled_by"]),
        stats=dict(data.get("stats", {})),
        stats_by_track=_tuple(data.get("stats_by_track")),
        stats_from=data.get("stats_from"),
        count=data.get("count"),
        movement=dict(data.get("movement", {})),
        immune_to=tuple(data.get("immune_to", ())),
        attackable=str(data.get("attackable", "normally")),
        on_defeat=str(data.get("on_defeat", "stun")),
        damage_capacity=data.get("damage_capacity"),
        carries=dict(data.get("carries", {})),
        must=_tuple(data.get("must")),
        abilities=_tuple(data.get("abilities")),
        appears=data.get("appears"),
        paired_with=data.get("paired_with"),
        slows_explorers=bool(data.get("slows_explorers", True)),
        grabs=data.get("grabs"),
    )


def _win(data: Mapping[str, Any]) -> WinDef:
    return WinDef(id=str(data["id"]), when=data["when"], says=str(data["says"]), winners=data.get("winners", "side"))


def _side(data: Mapping[str, Any]) -> SideDef:
    return SideDef(
        wins=tuple(_win(w) for w in data["wins"]),
        knows=data.get("knows"),
        setup=_tuple(data.get("setup")),
        tasks=_tuple(data.get("tasks")),
        actions=_tuple(data.get("actions")),
        timers=_tuple(data.get("timers")),
        turn_rules=_tuple(data.get("turn_rules")),
        attack_rules=_tuple(data.get("attack_rules")),
        rules=_tuple(data.get("rules")),
        ends_without_winner=tuple(_win(w) for w in data.get("ends_without_winner", ())),
        rivals="rivals" in data,
        bound_cards=tuple(str(c) for c in data.get("bound_cards", ())),
        lost_powers=tuple((str(p["card"]), str(p["power"])) for p in data.get("lost_powers", ())),
        collapse=data.get("collapse"),
    )


#: The book's haunts are numbered 1 to 50; a designer's draft uses a number above, or none.
BOOK_HAUNTS = 50
#: The number a draft without one plays under.
DRAFT_NUMBER = 0


def is_draft(data: Mapping[str, Any]) -> bool:
    """A designer's draft haunt: numbered above the book's 50, or not numbered at all. Its own
    ``sources``, traitor rule and chart place are allowed; the book's haunts are checked against
    the traitor table and the chart."""
    number = data.get("number")
    return not isinstance(number, int) or number > BOOK_HAUNTS


def load_haunt(data: Mapping[str, Any]) -> HauntSpec:
    """Build the record of one schema-valid haunt file."""
    traitor_side = data.get("traitor_side")
    return HauntSpec(
        number=int(data["number"]) if "number" in data else DRAFT_NUMBER,
        title=str(data["title"]),
        slug=str(data["slug"]),
        haunt_kind=str(data["haunt_kind"]),
        traitor=data["traitor"],
        heroes_side=_side(data["heroes_side"]),
        traitor_side=_side(traitor_side) if isinstance(traitor_side, Mapping) else None,
        tables={t["id"]: _table(t) for t in data.get("tables", ())},
        tokens={t["id"]: _token(t) for t in data.get("tokens", ())},
        monsters={m["id"]: _monster(m) for m in data.get("monsters", ())},
        statuses={s["id"]: s for s in data.get("statuses", ())},
        flags={f["id"]: str(f["says"]) for f in data.get("flags", ())},
        hooks={h["id"]: str(h["says"]) for h in data.get("hooks", ())},
    )


# --------------------------------------------------------------------------------------------
# Hooks


#: The hooks already found, by the id of the haunt data (kept with the data and checked by identity,
#: so a reused id is never mistaken): a game that reaches the reveal asks for its haunt's hooks.
_HOOKS_USED: dict[int, tuple[Any, tuple[tuple[PathKey, str], ...]]] = {}


def custom_hooks_used(data: Any) -> list[tuple[PathKey, str]]:
    """Every ``custom: <hook>`` in a haunt file, with its path, in file order; a shared-effects
    condition under ``condition`` (``vault-opened``) is part 1's vocabulary, not a haunt hook."""
    found = _HOOKS_USED.get(id(data))
    if found is None or found[0] is not data:
        if len(_HOOKS_USED) > 1024:
            _HOOKS_USED.clear()  # haunt files built on the fly (tests) would otherwise pile up
        found = _HOOKS_USED[id(data)] = (data, _custom_hooks_used(data))
    return list(found[1])


def _custom_hooks_used(data: Any) -> tuple[tuple[PathKey, str], ...]:
    from hauntcheck.engine.betrayal.effects import CONDITION_HOOKS

    return tuple((path, value) for path, key, value in _walk(data, ()) if key == "custom" and isinstance(value, str)
                 and not ("condition" in path and value in CONDITION_HOOKS))


def hook_coverage(haunt_files: Mapping[str, Mapping[str, Any]]) -> dict[str, tuple[str, ...]]:
    """For each haunt file, the distinct hooks it needs (declared under ``hooks``), sorted."""
    return {name: tuple(sorted({h["id"] for h in data.get("hooks", ())})) for name, data in sorted(haunt_files.items())}


# --------------------------------------------------------------------------------------------
# Cross-file checks


@dataclass(frozen=True)
class HauntProblem:
    """A reference in a haunt file that does not resolve (or a declaration that disagrees)."""

    file: str
    path: PathKey
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {'.'.join(str(p) for p in self.path) or '(top)'}: {self.message}"


def _ids(data: Mapping[str, Any] | None, key: str) -> set[str]:
    if not data:
        return set()
    return {str(entry["id"]) for entry in data.get(key, ()) if isinstance(entry, Mapping) and "id" in entry}


def _token_parts(components: Mapping[str, Any] | None) -> dict[str, Mapping[str, Any]]:
    parts: dict[str, Mapping[str, Any]] = {}

    def visit(entries: Sequence[Any]) -> None:
        for entry in entries:
            if isinstance(entry, Mapping):
                if entry.get("category") in ("token", "figure"):  # a figure may stand for a token (a corpse)
                    parts[str(entry["id"])] = entry
                visit(entry.get("parts", ()))

    if components:
        visit(components.get("components", ()))
    return parts


# Keys whose string values (or lists of strings) name an id of one category. Categories in
# capitals are external (defined in another spec file); the rest are declared in the haunt file.
_KEY_KINDS: dict[str, str] = {
    "room": "ROOM",
    "rooms": "ROOM",
    "in_room": "ROOM",
    "room_in_house": "ROOM",
    "among": "ROOM",
    "may_not_use": "ROOM",
    "immune_to_rooms": "ROOM",
    "card": "CARD",
    "cards": "CARD",
    "anyone_holds": "CARD",
    "room_of_holder": "CARD",
    "attack_weapon": "CARD",
    "unless_in_house": "ROOM",
    "unaffected_by_cards": "CARD",
    "custody_of": "CARD_OR_TOKEN",
    "holding": "CARD_OR_TOKEN",
    "with_weapon": "CARD",
    "item": "CARD_OR_TOKEN",
    "item_destroyed": "CARD_OR_TOKEN",
    "destroy_item": "CARD_OR_TOKEN",
    "explorer": "EXPLORER",
    "token": "token",
    "tokens": "token",
    "take_token": "token",
    "return_token": "token",
    "discard_token": "token",
    "room_with_token": "token",
    "next_to_token": "token",
    "replace_with_token": "token",
    "replace_with": "token",
    "onto_token": "token",
    "monster": "monster",
    "room_with_monster": "monster",
    "paired_with": "monster",
    "kill_monster": "monster",
    "stun_monster": "monster",
    "trap_monster": "monster",
    "hit_monster": "monster",
    "monster_away": "monster",
    "has_status": "status",
    "lose_status": "status",
    "nearest_with_status": "status",
    "room_with_status": "status",
    "or_status": "status",
    "none_alive_with_status": "status",
    "immune_to_statuses": "status",
    "flag": "flag",
    "set_flag": "flag",
    "clear_flag": "flag",
    "start_flag": "flag",
    "table": "table",
    "custom": "hook",
}

_WHERE_DEFINED = {
    "ROOM": ("room", "spec/betrayal/rooms.yaml"),
    "CARD": ("card", "spec/betrayal/omens.yaml, items.yaml or events.yaml"),
    "EXPLORER": ("explorer", "spec/betrayal/explorers.yaml"),
    "token": ("token", "this file's tokens list"),
    "monster": ("monster", "this file's monsters list"),
    "status": ("status", "this file's statuses list"),
    "flag": ("flag", "this file's flags list"),
    "table": ("table", "this file's tables list"),
    "hook": ("hook", "this file's hooks list"),
}

# Parent keys under which the usual meaning of a child key changes.
_DECLARATION_LISTS = ("tables", "tokens", "monsters", "statuses", "flags", "hooks")


#: What a spec file holds besides mappings: answered by :func:`is_mapping` without the ABC's check.
_NOT_MAPPINGS = frozenset({str, int, float, bool, list, tuple, type(None)})


def is_mapping(node: object) -> TypeGuard[Mapping[str, Any]]:
    """``isinstance(node, Mapping)``, with the plain types of a loaded file (a dict, a string, a
    list ...) answered at once: the static walks over the spec ask it of every node, and the
    check against the abstract class is a Python-level call each time."""
    kind = type(node)
    return kind is dict or (kind not in _NOT_MAPPINGS and isinstance(node, Mapping))


def _walk(node: Any, path: PathKey) -> Iterator[tuple[PathKey, str, Any]]:
    """Yield (path, key, value) for every mapping entry, depth first, in file order."""
    if is_mapping(node):
        for key, value in node.items():
            yield (*path, key), str(key), value
            yield from _walk(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk(value, (*path, index))


def _values(value: Any) -> list[tuple[PathKey, str]]:
    if isinstance(value, str):
        return [((), value)]
    if isinstance(value, list):
        return [((i,), v) for i, v in enumerate(value) if isinstance(v, str)]
    return []


def _kind_of(path: PathKey, key: str, value: Any) -> str | None:
    parent = str(path[-2]) if len(path) >= 2 and isinstance(path[-2], str) else ""
    if key == "id":
        return None
    if parent == "holds" and key in ("all", "any"):
        return "CARD_OR_TOKEN"
    if parent == "monsters_defeated" and key == "by":
        return "CARD_OR_TOKEN"
    if key == "holds" and not isinstance(value, Mapping):
        return "CARD"  # the effect vocabulary's condition 'holds'
    if key == "status" and isinstance(value, str):
        return "status"
    if key == "become" and isinstance(value, str):
        return "status"
    if key in ("after", "by_ability") and isinstance(value, str):
        return "action"
    return _KEY_KINDS.get(key)


def haunt_cross_check(
    haunt_files: Mapping[str, Mapping[str, Any]],
    rooms: Mapping[str, Any] | None,
    omens: Mapping[str, Any] | None,
    items: Mapping[str, Any] | None,
    events: Mapping[str, Any] | None,
    explorers: Mapping[str, Any] | None,
    components: Mapping[str, Any] | None,
) -> list[HauntProblem]:
    """Check every haunt file's references against the other spec files and its own declarations.

    ``haunt_files`` maps a display name to the file's data; the other arguments are the loaded data
    of rooms.yaml, omens.yaml, items.yaml, events.yaml, explorers.yaml and components.yaml (None if
    the file is missing: its ids then count as absent). Also checks: ids declared once; every
    declared hook used and every used hook declared; table formulas agree with their values; token
    components, colours, traits and names exist in components.yaml; ``after`` names an action of
    the same file."""
    external = {
        "ROOM": _ids(rooms, "rooms"),
        "CARD": _ids(omens, "cards") | _ids(items, "cards") | _ids(events, "cards"),
        "EXPLORER": _ids(explorers, "explorers"),
    }
    parts = _token_parts(components)
    problems: list[HauntProblem] = []
    for name, data in sorted(haunt_files.items()):
        problems.extend(_check_file(name, data, external, parts))
    return problems


def _check_file(
    name: str, data: Mapping[str, Any], external: Mapping[str, set[str]], parts: Mapping[str, Mapping[str, Any]]
) -> list[HauntProblem]:
    problems: list[HauntProblem] = []

    def report(path: PathKey, message: str) -> None:
        problems.append(HauntProblem(name, path, message))

    local: dict[str, set[str]] = {"token": set(), "monster": set(), "status": set(), "flag": set(), "table": set(), "hook": set()}
    singular = {"tables": "table", "tokens": "token", "monsters": "monster", "statuses": "status", "flags": "flag", "hooks": "hook"}
    for listing in _DECLARATION_LISTS:
        for index, entry in enumerate(data.get(listing, ())):
            ident = str(entry.get("id"))
            if ident in local[singular[listing]]:
                report((listing, index, "id"), f"{singular[listing]} {ident!r} is declared twice")
            local[singular[listing]].add(ident)
    actions: set[str] = set()
    for side in ("traitor_side", "heroes_side"):
        for group in ("tasks", "actions"):
            for entry in (data.get(side) or {}).get(group, ()):
                actions.add(str(entry.get("id")))
    for monster in data.get("monsters", ()):
        for ability in monster.get("abilities", ()):
            actions.add(str(ability.get("id")))

    from hauntcheck.engine.betrayal.effects import CONDITION_HOOKS

    hooks_used: set[str] = set()
    for path, key, value in _walk(data, ()):
        if path[:1] in (("traitor",), ("cite",)):
            if key == "explorer" and isinstance(value, str) and value not in external["EXPLORER"]:
                report(path, f"unknown explorer {value!r} (explorers are defined in spec/betrayal/explorers.yaml)")
            continue
        if len(path) >= 3 and path[0] in _DECLARATION_LISTS and path[2] == "id":
            continue
        kind = _kind_of(path, key, value)
        if kind is None:
            continue
        for sub, ident in _values(value):
            where = (*path, *sub)
            if kind == "hook":
                hooks_used.add(ident)
            if kind == "action":
                if ident not in actions:
                    report(where, f"unknown action {ident!r} (tasks and actions are defined in this file's sides)")
                continue
            if kind == "CARD_OR_TOKEN":
                if ident not in external["CARD"] and ident not in local["token"]:
                    hint = did_you_mean(ident, sorted(external["CARD"] | local["token"]))
                    report(
                        where,
                        f"unknown card or token {ident!r}{hint} (cards are defined in spec/betrayal/omens.yaml, items.yaml or "
                        "events.yaml; tokens in this file's tokens list)",
                    )
                continue
            if kind == "hook" and "condition" in path and ident in CONDITION_HOOKS:
                continue  # a shared-effects condition (vault-opened), part 1's vocabulary
            if kind == "monster" and ident == TARGET and key in ("kill_monster", "stun_monster", "trap_monster", "hit_monster"):
                continue
            if kind == "token" and ident == TRAIT_USED:
                continue
            known = external[kind] if kind.isupper() else local[kind]
            if ident not in known:
                what, home = _WHERE_DEFINED[kind]
                report(where, f"unknown {what} {ident!r}{did_you_mean(ident, sorted(known))} (defined in {home})")

    for index, hook in enumerate(data.get("hooks", ())):
        if hook.get("id") not in hooks_used:
            report(("hooks", index, "id"), f"hook {hook.get('id')!r} is declared but never used as custom")

    for index, table in enumerate(data.get("tables", ())):
        formula = table.get("formula")
        if not isinstance(formula, Mapping):
            continue
        for players in PLAYER_COUNTS:
            base = formula_base(formula, players)
            got = table.get("values", {}).get(str(players), table.get("values", {}).get(players))
            if base is not None and got != evaluate_formula(formula, base):
                report(
                    ("tables", index, "values", str(players)),
                    f"table {table.get('id')!r} gives {got!r} for {players} players but its formula gives "
                    f"{evaluate_formula(formula, base)}",
                )

    for index, token in enumerate(data.get("tokens", ())):
        component = str(token.get("component"))
        part = parts.get(component)
        if part is None:
            report(("tokens", index, "component"), f"unknown token component {component!r} (defined in spec/betrayal/components.yaml)")
            continue
        colour = token.get("colour")
        colours = part.get("colours")
        if colour is not None and (not colours or colour not in colours):
            report(
                ("tokens", index, "colour"),
                f"{component} come in no colour {colour!r} (colours are listed in spec/betrayal/components.yaml)",
            )
        name_ = token.get("name")
        if name_ is not None and name_ not in (part.get("names") or ()):
            report(
                ("tokens", index, "name"), f"{component} has no token named {name_!r} (names are listed in spec/betrayal/components.yaml)"
            )

    return problems
