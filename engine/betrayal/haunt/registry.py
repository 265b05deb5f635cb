"""The registry of named hooks: haunt-specific code a haunt file names with ``custom: <id>``.

A hook lives in its haunt's own module under ``engine/betrayal/hooks/`` (``h08_wail_of_the_banshee.py``)
and registers itself with a decorator naming its kind and its id::

    from hauntcheck.engine.betrayal.haunt.registry import hook

    @hook.move("banshee-path")
    def banshee_path(st: HauntState, m: Monster, roll: int) -> Gen[None]:
        \"\"\"Haunt 8 (``banshee.moves``): ...\"\"\"

The registry finds the hook modules itself (every module of the ``hooks`` package, the first time
a hook is looked up); nothing lists them by hand. One id may serve several kinds (``banshee-path``
moves the Banshee and answers the wail's requirement), never one kind twice.

The kinds, and where the interpreter calls them:

* ``setup``: a "Right Now" setup step (it may ask for decisions);
* ``standing``: a standing rule switched on by an outcome;
* ``action``: a haunt's special action, done by the explorer taking it;
* ``outcome``: an outcome that may roll or ask (``custom`` in a ``do`` list);
* ``monster``: a monster outcome (fights and monster rules), given the explorer concerned and the monster;
* ``skull``: consulted when a trait reaches the skull; True when it replaced the death;
* ``move``: moves a monster on its turn (``movement.custom``);
* ``turn``: runs when a monster's move would begin; True when it replaced the move and attack;
* ``predicate``: a requirement (``custom`` predicate), given the explorer and monster in question;
* ``room``: True when it stops a room's own text from working;
* ``token_room``: for planning (the policy), whether a haunt token lying in a room can be had now.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Generic, TypeVar

from hauntcheck.engine.betrayal.haunt.pieces import Monster
from hauntcheck.engine.betrayal.state import Gen

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState

#: The package whose modules hold the hooks.
HOOK_PACKAGE = "hauntcheck.engine.betrayal.hooks"

SetupHook = Callable[["HauntState"], Gen[None]]
StandingHook = Callable[["HauntState"], None]
ActionHook = Callable[["HauntState", str], None]
OutcomeHook = Callable[["HauntState", "str | None", "str | None"], Gen[None]]
MonsterHook = Callable[["HauntState", "str | None", "Monster | None"], Gen[None]]
SkullHook = Callable[["HauntState", str, str], bool]
MoveHook = Callable[["HauntState", Monster, int], Gen[None]]
TurnHook = Callable[["HauntState", Monster], Gen[bool]]
PredicateHook = Callable[["HauntState", "str | None", "Monster | None"], bool]
RoomHook = Callable[["HauntState", str], bool]
TokenRoomHook = Callable[["HauntState", str], bool]

F = TypeVar("F", bound=Callable[..., object])

_discovered = False


def discover() -> None:
    """Import every module of the hooks package once, so that their decorators register them."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    package = importlib.import_module(HOOK_PACKAGE)
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        importlib.import_module(f"{HOOK_PACKAGE}.{info.name}")


class HookKind(Mapping[str, F], Generic[F]):
    """The hooks of one kind, by id; calling it with an id gives the decorator that registers one."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._table: dict[str, F] = {}
        self._where: dict[str, str] = {}

    def __call__(self, ident: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            if ident in self._table:
                raise ValueError(f"{self.kind} hook {ident!r} is registered twice: in {self._where[ident]} and "
                                 f"{fn.__module__}")
            self._table[ident] = fn
            self._where[ident] = fn.__module__
            return fn
        return register

    def __getitem__(self, ident: str) -> F:
        discover()
        return self._table[ident]

    def __contains__(self, ident: object) -> bool:  # Mapping's asks __getitem__, which compiled (mypyc) refuses None with TypeError
        discover()
        return ident in self._table

    def __iter__(self) -> Iterator[str]:
        discover()
        return iter(self._table)

    def __len__(self) -> int:
        discover()
        return len(self._table)


class Hooks:
    """Every kind of hook (see the module docstring); ``hook.<kind>(id)`` registers one."""

    def __init__(self) -> None:
        self.setup = HookKind[SetupHook]("setup")
        self.standing = HookKind[StandingHook]("standing")
        self.action = HookKind[ActionHook]("action")
        self.outcome = HookKind[OutcomeHook]("outcome")
        self.monster = HookKind[MonsterHook]("monster")
        self.skull = HookKind[SkullHook]("skull")
        self.move = HookKind[MoveHook]("move")
        self.turn = HookKind[TurnHook]("turn")
        self.predicate = HookKind[PredicateHook]("predicate")
        self.room = HookKind[RoomHook]("room")
        self.token_room = HookKind[TokenRoomHook]("token_room")

    def kinds(self) -> tuple[HookKind[Callable[..., object]], ...]:
        """Every kind, in the order above."""
        return (self.setup, self.standing, self.action, self.outcome, self.monster, self.skull,  # type: ignore[return-value]
                self.move, self.turn, self.predicate, self.room, self.token_room)


hook = Hooks()


def docs() -> dict[str, str]:
    """Every registered hook id with its docstring (the first kind's, for an id of several kinds)."""
    out: dict[str, str] = {}
    for kind in hook.kinds():
        for ident, fn in kind.items():
            out.setdefault(ident, fn.__doc__ or "")
    return out


def kinds_of(ident: str) -> list[str]:
    """The kinds a hook id is registered as (empty when it is not registered)."""
    return [kind.kind for kind in hook.kinds() if ident in kind]
