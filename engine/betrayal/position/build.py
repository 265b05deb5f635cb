""":func:`build_position`: a dispute scenario's position built as a real engine state.

The parts are put in place (:mod:`.parts`, :mod:`.haunt_phase`), then the engine's turn sequence
restarts at the position's ``turn``: a turn just starting (its start-of-turn effects apply, so a
roll they call for is the first decision), or a turn already under way with its fields. Problems
are all reported together as a ``PositionError``, each with its path inside ``position``.

A rebuild (``state.rebuild()``, what ``restart()`` and ``clone()`` of a built position call) does
not build again: the first build keeps its state as it was just before the turn restarted (the
setup over, so no program runs: plain data) and each rebuild restarts the turn on a copy of it
(:class:`KeptState`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any

from hauntcheck.engine.betrayal.haunt import HauntState, Monster
from hauntcheck.engine.betrayal.haunt import invariants as haunt_invariants
from hauntcheck.engine.betrayal.house import House
from hauntcheck.engine.betrayal.position.haunt_phase import _HauntBuilder
from hauntcheck.engine.betrayal.position.keys import KEYS, TURN_FLAGS, TURN_INTS, TURN_KEYS, _near
from hauntcheck.engine.betrayal.state import TURN_PROMPT, BetrayalState, Explorer, Turn
from hauntcheck.engine.compiled import fields_of, new_like, set_fields
from hauntcheck.engine.core import CHANCE, Action, DiceRoll, Outcome, Shuffle
from hauntcheck.engine.spec import GameSpec


def build_position(spec: GameSpec, players: int, options: Mapping[str, Any], position: Mapping[str, Any],
                   checked: bool = False) -> BetrayalState:
    """Build ``position`` as a real engine state; raise PositionError naming every bad path.
    ``checked``: the same position was built before and kept the invariants, so they are not
    judged again. The state's ``rebuild`` makes it again from a copy of the state this build
    kept before its turn restarted (a clone rebuilds its position; a chance enumeration makes
    thousands)."""
    from hauntcheck.engine.betrayal import new_game
    from hauntcheck.engine.scenario import PositionError

    if not isinstance(position, Mapping):
        raise PositionError([((), "a position is a mapping of the keys listed in docs/disputes.md")])
    try:
        state = new_game(spec, players, options)
    except ValueError as exc:
        raise PositionError([((), str(exc))]) from None
    builder = _Builder(state, position, [], checked)
    kept: list[tuple[KeptState, dict[str, Any]]] = []

    def place_then_start() -> None:
        if builder.place():
            # the parts in place, the turn not yet restarted: what every rebuild starts from
            kept.append((KeptState(state), dict(builder.taken)))
            builder.start()
            kept[0][0].warm(state)

    _built(builder, place_then_start)
    kept_state, taken = kept[0]

    def rebuild() -> BetrayalState:
        again = _Builder(kept_state.copy(), position, [], checked=True)
        again.live, again.taken = builder.live, dict(taken)
        _built(again, again.start)
        again.st.rebuild = rebuild
        return again.st

    state.rebuild = rebuild
    return state


def _built(builder: _Builder, steps: Callable[[], None]) -> None:
    """Run a build's ``steps`` quietly; raise PositionError with every problem found."""
    from hauntcheck.engine.scenario import PositionError

    state, problems = builder.st, builder.problems
    # Nobody reads the events of the setup and the parts put in place (the first action played
    # on the position starts its own), so the build is quiet: their texts are not made.
    state.quiet = True
    try:
        steps()
    except (TypeError, ValueError, KeyError) as exc:
        # a value of the wrong type somewhere no check names yet: still the user's mistake
        problems.append(((), f"a value of the wrong type in the position ({type(exc).__name__}: {str(exc)[:120]})"))
    finally:
        state.quiet = False  # events kept again (set, not deleted: a compiled state's field cannot be)
    if problems:
        raise PositionError(problems)
    state.history = []


#: The state's fields that hold the spec's own data (tables, rule book, haunt files, what is derived
#: from them once per spec) or a finished program: a copy shares them, never copies them.
SHARED_FIELDS = frozenset({
    "setup", "t", "rules", "t_links", "no_end_rooms", "room_abilities_by_trigger", "variants",
    "haunts", "weapons", "hs", "_gen", "rebuild",
})

#: The menu caches a first build's turn restart fills, which every rebuild starts with
#: (:meth:`KeptState.warm`): each turn restarted at the position asks the same menu.
WARM_CACHES = frozenset({"_moves_cache", "_exits_cache"})

#: Values a copy shares: immutable (a tuple holds plain values or the spec's frozen data).
_IMMUTABLE: frozenset[type] = frozenset({str, int, float, bool, type(None), tuple, frozenset, Action, Outcome})

#: The mutable records inside a state, by class: the names of their fields.
_RECORDS: dict[type, tuple[str, ...]] = {cls: tuple(f.name for f in fields(cls)) for cls in (Explorer, Turn, Monster)}


class KeptState:
    """A state with no running program (a position's, after its setup) kept to be copied: each
    :meth:`copy` is independent of it and of every other copy. The spec's data
    (:data:`SHARED_FIELDS`) and immutable values are shared, every other field copied down to its
    immutable values."""

    def __init__(self, state: BetrayalState) -> None:
        assert state._req is None, "only a state whose program has ended is plain data"
        self.blank = new_like(state)  # what each copy is made like (compiled, a native state is never bare)
        # How each field is copied is worked out once: the kept state itself is never played on
        # (every rebuild plays on a copy), so its fields keep their shapes.
        # (Kept as a copy of its own: the state it was taken from plays on.)
        self.fields = [(key, value, None) if key in SHARED_FIELDS else (key, kept := _copied(value), _copier(kept))
                       for key, value in fields_of(state).items()]

    def warm(self, started: BetrayalState) -> None:
        """Give every copy the menu caches (:data:`WARM_CACHES`) of ``started``, a copy of this
        state whose turn has restarted: their entries are keyed by the house's versions (of the
        changes near each room) and the links, so what holds for the state they were made on holds for every copy that reaches
        it; their lists are shared, as in a game (never changed, only replaced)."""
        self.fields = [(key, dict(getattr(started, key)), dict.copy) if key in WARM_CACHES else (key, value, copy)
                       for key, value, copy in self.fields]

    def copy(self) -> BetrayalState:
        return set_fields(new_like(self.blank), {key: value if copy is None else copy(value) for key, value, copy in self.fields})


def _copier(value: Any) -> Callable[[Any], Any] | None:
    """How the kept ``value`` is copied, planned down its whole shape once (the kept state never
    changes, so each copy walks the same shape): None when it is immutable (shared), a container
    of immutable items by its own ``copy``, anything else by a plan that copies each mutable part
    by its own plan and shares the rest (no type test per item and copy)."""
    cls = type(value)
    if cls in _IMMUTABLE:
        return None
    if cls is set:
        return set.copy
    if cls is House:
        return House.copy
    if cls is list:
        item_plans = [_copier(x) for x in value]
        if not any(item_plans):
            return list.copy
        return lambda kept: [x if plan is None else plan(x) for x, plan in zip(kept, item_plans, strict=True)]
    if cls is dict:
        value_plans = [(key, _copier(x)) for key, x in value.items()]
        if not any(plan for _, plan in value_plans):
            return dict.copy
        return lambda kept: {key: kept[key] if plan is None else plan(kept[key]) for key, plan in value_plans}
    names = _RECORDS.get(cls)
    if names is None:
        raise TypeError(f"a state field holds a {cls.__name__}, which KeptState does not know how to copy")
    field_plans = [(name, _copier(getattr(value, name))) for name in names]
    setter = object.__setattr__  # the records may be frozen

    def record(kept: Any) -> Any:
        other = new_like(kept)
        for name, plan in field_plans:
            part = getattr(kept, name)
            setter(other, name, part if plan is None else plan(part))
        return other
    return record


def _copied(value: Any) -> Any:
    """``value`` copied down to its immutable parts; a type not known to be plain data is an error
    (a new kind of field must be listed here or in :data:`SHARED_FIELDS`, never shared by chance)."""
    # The immutable test is written out in each comprehension: most items are strings and
    # numbers, and a call for each would cost more than the copy itself.
    cls = type(value)
    if cls is list:
        return [x if type(x) in _IMMUTABLE else _copied(x) for x in value]
    if cls is dict:
        return {k: v if type(v) in _IMMUTABLE else _copied(v) for k, v in value.items()}
    if cls is set:
        return set(value)
    if cls in _IMMUTABLE:
        return value
    if cls is House:
        return value.copy()
    names = _RECORDS.get(cls)
    if names is None:
        raise TypeError(f"a state field holds a {cls.__name__}, which KeptState does not know how to copy")
    record = new_like(value)
    for name in names:
        field_value = getattr(value, name)
        object.__setattr__(record, name, field_value if type(field_value) in _IMMUTABLE else _copied(field_value))
    return record


class _Builder(_HauntBuilder):
    """A whole position built: every part in place, then the turn sequence restarted at the chosen turn."""

    def place(self) -> bool:
        """Put every part in place (the setup's explorers, rooms, cards, ...): whether all went well."""
        for key in self.pos:
            if key not in KEYS:
                hint = _near(str(key), KEYS)
                self.bad((key,), f"unknown key {key!r}" + (f" (did you mean {hint}?)" if hint else "")
                         + f"; a position has: {', '.join(KEYS)}")
        if "monsters" in self.pos and not self.pos.get("haunt"):
            self.bad(("monsters",), "monsters are in play only in a haunt phase: add a haunt (a playable one) to the position")
        if not self.choose_explorers():
            return False
        self.place_rooms()
        self.place_explorers()
        self.place_cards()
        self.place_tokens()
        self.place_deck_tops()
        self.bookkeeping()
        return not self.problems

    def start(self) -> None:
        """Restart the turn sequence at the position's turn (and judge the invariants once)."""
        self.start_turn()
        if not self.problems and not self.checked:
            for problem in haunt_invariants(self.st):
                self.bad((), f"the position breaks an invariant: {problem}")

    def start_turn(self) -> None:
        st = self.st
        raw = self.pos.get("turn")
        turn: Mapping[str, Any] = {"seat": raw} if isinstance(raw, str) or raw is None else raw
        if not isinstance(turn, Mapping):
            self.bad(("turn",), "turn is a seat, or a mapping {seat, begun, moved, ...}")
            return
        for key in turn:
            if key not in TURN_KEYS:
                self.bad(("turn", key), f"unknown turn field {key!r}; fields: {', '.join(TURN_KEYS)}")
        if isinstance(raw, Mapping) and "seat" not in raw:
            self.bad(("turn",), "a turn mapping names its seat: {seat: P1, ...}")
            return
        if "moved" in self.pos:
            turn = {**turn, "moved": self.pos["moved"]}
        seat = turn.get("seat")
        if self.live:
            self.start_haunt_turn(seat, turn)
            return
        if st.haunt is not None:
            start = st.left_of(st.haunt["traitor"] or st.haunt["revealer"])
            if seat not in (None, start):
                self.bad(("turn",), f"once the haunt has begun a position starts its round with {start}, "
                         "left of the traitor (or revealer)")
                return
            seat = start
        seat = seat or st.first_seat
        if seat not in st.seat_ids:
            self.bad(("turn", "seat") if isinstance(raw, Mapping) else ("turn",), f"turn must be one of {', '.join(st.seat_ids)}")
            return
        begun = bool(turn.get("begun", any(k not in ("seat", "begun") for k in turn)))
        number = self.pos.get("turn_number", 1)
        if not isinstance(number, int) or number < 1:
            self.bad(("turn_number",), "turn_number is 1 or more")
            return
        if self.problems:
            return
        st.turn_number = number - 1
        e = st.ex[seat]
        hidden = (e.cards, e.kept, e.status)
        if begun:
            # A turn under way has had its start-of-turn effects already: hide what they read.
            e.cards, e.kept, e.status = [], [], {}
        first = st.first_seat
        rooms = {s: (x.room, x.part) for s, x in st.ex.items()}
        st.restart_turns(seat)
        st.first_seat = first
        e.cards, e.kept, e.status = hidden
        st.held_cache.clear()
        if begun:
            fresh = self.turn_under_way(seat, turn, e.room)
            if fresh is None:
                return
            st.turn = fresh
            st.refresh()
        moved = [s for s, x in sorted(st.ex.items()) if rooms[s] != (x.room, x.part)]
        if moved:
            self.bad(("where", moved[0]), f"{moved[0]} cannot start the turn in {rooms[moved[0]][0]}: the engine moves "
                     f"them on at once to {st.ex[moved[0]].room} (a single legal option is taken without asking)")
        elif not _turn_starts(st, seat):
            self.bad(("turn",), f"{seat}'s turn cannot start here: the engine asks "
                     f"{st.to_move()} to {st._req.what if st._req else 'nothing'}")

    def turn_under_way(self, seat: str, turn: Mapping[str, Any], start_room: str) -> Turn | None:
        """The turn record of a position whose turn has already begun (None, with the problem
        noted, when a count is not a number of spaces)."""
        fresh = Turn(seat, start_room=start_room)
        for key in TURN_INTS:
            value = turn.get(key, 0)
            if not isinstance(value, int) or value < 0:
                self.bad(("turn", key), f"{key} is a number of spaces")
                return None
            setattr(fresh, key, value)
        for key in TURN_FLAGS:
            setattr(fresh, key, bool(turn.get(key, False)))
        for key in ("keys", "items_acted"):
            getattr(fresh, key).update(str(x) for x in turn.get(key) or [])
        fresh.omens = [(str(c), str(r)) for c, r in (turn.get("omens") or [])]
        fresh.last = str(turn.get("last", ""))
        fresh.start_room = str(turn.get("start_room", start_room))
        return fresh

    def start_haunt_turn(self, seat: Any, turn: Mapping[str, Any]) -> None:
        st = self.st
        assert isinstance(st, HauntState) and st.haunt is not None
        hidden = st.haunt.get("kind") == "hidden"  # hidden-traitor.turn-order: from the revealer's left
        anchor = str(st.haunt["revealer"]) if hidden else st.traitor() or str(st.haunt["revealer"])
        seat = seat or st.left_of(anchor)
        if seat not in st.seat_ids:
            self.bad(("turn",), f"turn must be one of {', '.join(st.seat_ids)}")
            return
        begun = bool(turn.get("begun", any(k not in ("seat", "begun") for k in turn)))
        number = self.pos.get("turn_number", 1)
        if not isinstance(number, int) or number < 1:
            self.bad(("turn_number",), "turn_number is 1 or more")
            return
        st.turn_number = number - 1
        fresh: Turn | None = None
        if begun:
            fresh = self.turn_under_way(str(seat), turn, "")
            if fresh is None:
                return
        first = st.first_seat
        ready: dict[str, Any] = {"done": False}
        st._gen.close()
        st._gen = self.haunt_program(str(seat), fresh, ready)
        st._events = []
        st._req = next(st._gen, None)  # None: the program ended at once (a problem, or the game is won)
        # The haunt's own setup may ask for decisions (a placement, trait points): a position
        # takes the first offered, then states what it wants over the result.
        while not ready["done"] and st._req is not None:
            choices = st._req.choices
            if isinstance(choices, Shuffle) and not all(str(x).isdigit() for x in choices.items):
                # not a deal of numbered tokens (a scatter of distinct ones): they go out in the
                # listed order; the position's ``tokens`` and ``pool`` say where they lie
                st.apply(Action.of("shuffle", pile=choices.pile, order=list(choices.items)))
            elif isinstance(choices, Shuffle):
                order = self.deal_order(st, choices)
                if order is None:
                    return
                st.apply(Action.of("shuffle", pile=choices.pile, order=order))
            else:
                st.apply(next(iter(choices)))
        st.first_seat = first
        st.held_cache.clear()
        if self.problems:
            return
        if st.outcome() is not None:
            self.bad(("haunt",), f"the position is already over: {st.outcome()}")
        elif not _turn_starts(st, str(seat)):
            self.bad(("turn",), f"{seat}'s turn cannot start here: the engine asks "
                     f"{st.to_move()} to {st._req.what if st._req else 'nothing'}")

    def deal_order(self, st: HauntState, shuffle: Shuffle) -> list[str] | None:
        """The order of tokens a haunt's setup deals (one per player from the revealer's left),
        as the position states it: ``haunt.deal`` (seat -> token number, for every deal; or token
        -> {seat -> number}, deal by deal), or for a hidden traitor
        ``haunt.hidden_traitor.seat`` holding the traitor's number; the other seats get the other
        numbers in dealing order. Without either, the tokens go out in order (1 to the player left
        of the revealer)."""
        haunt = self.pos["haunt"]
        assert st.haunt is not None
        seats = [st.left_of(str(st.haunt["revealer"]), k) for k in range(1, st.n + 1)]
        numbers = sorted(shuffle.items, key=int)
        raw = haunt.get("deal")
        if isinstance(raw, Mapping) and raw and not any(k in seats for k in raw):
            raw = raw.get(shuffle.pile)  # per token: {token: {seat: number}}
        wanted: dict[str, str] = {}
        if raw is not None:
            if not (isinstance(raw, Mapping) and all(s in seats and str(v) in numbers and not isinstance(v, bool)
                                                    for s, v in raw.items())
                    and len({str(v) for v in raw.values()}) == len(raw)):
                self.bad(("haunt", "deal"), f"deal maps seats ({', '.join(seats)}) to different token numbers "
                         f"({', '.join(numbers)})")
                return None
            wanted = {str(s): str(v) for s, v in raw.items()}
        hidden = haunt.get("hidden_traitor")
        hidden_pile = str((st._hidden_deal_step() or {}).get("token", "hidden-traitor-token"))
        if isinstance(hidden, Mapping) and hidden.get("seat") in seats and shuffle.pile == hidden_pile:
            number = str((st._hidden_deal_step() or {}).get("traitor_number", 1))
            holder = next((s for s, v in wanted.items() if v == number), None)
            if holder is not None and holder != hidden["seat"]:
                self.bad(("haunt", "deal"), f"the deal gives token {number} (the traitor's) to {holder}, "
                         f"but hidden_traitor names {hidden['seat']}")
                return None
            wanted.setdefault(str(hidden["seat"]), number)
        spare = [n for n in numbers if n not in wanted.values()]
        order = [wanted[s] if s in wanted else spare.pop(0) for s in seats[:len(numbers)]]
        return order + spare  # a deal of several tokens each (per_player): the rest go round in order


def _turn_starts(st: BetrayalState, seat: str) -> bool:
    """The position's turn is ready: the seat is asked for its turn, or chance must first roll
    what the start of the turn calls for (an open Music Box's Sanity roll): a position may start
    with that roll, and the scenario scripts it like any other."""
    req = st._req
    if req is None:
        return False
    if req.actor == CHANCE:
        return isinstance(req.choices, DiceRoll) and st.current == seat
    return st.to_move() == seat and req.what == TURN_PROMPT
