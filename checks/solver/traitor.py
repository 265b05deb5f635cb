"""**traitor** - the traitor rule picks exactly one explorer for every legal party, proved with z3.

The traitor rule (``traitors.yaml`` and the haunt file's own ``traitor``) must pick exactly one
explorer for every legal party: every choice of explorers with at most one side of each character
card, every seating, every revealer and every value the compared trait can hold on the explorers'
8-value tracks, with the table's tie-break. The claim is proved with z3 (the negation is
unsatisfiable) or a party that breaks it is printed (:func:`prove_traitor_rule`, cached per rule).
Hidden-traitor and no-traitor haunts must say so in both places (:data:`KIND_RULES`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import z3

from hauntcheck.checks.solver.world import KIND_RULES, PICKING, PLAYER_COUNTS, Finding, PathKey, SolverReport, TieBreak, World
from hauntcheck.engine.spec import SpecFile


@dataclass(frozen=True)
class TraitorVerdict:
    """The result of proving a traitor rule at one player count: None if it always picks exactly
    one explorer, else a message and the counterexample party."""

    players: int
    problem: str | None = None
    counterexample: str | None = None
    #: The breaking party: (explorer id, compared value or None) per seat, revealer first.
    party: tuple[tuple[str, int | None], ...] = ()
    picks: tuple[int, ...] = ()


def describe_rule(rule: Mapping[str, Any]) -> str:
    kind = str(rule.get("rule"))
    text = kind
    if rule.get("trait"):
        text += f" {rule['trait']}"
    if rule.get("except_revealer"):
        text += " (not the revealer)"
    if kind == "explorer":
        text = f"{rule.get('explorer')} if playing"
        fallback = rule.get("else")
        text += f", else {describe_rule(fallback)}" if isinstance(fallback, Mapping) else ", else no one"
    return text


class _Party:
    """z3 variables for a party of ``n`` explorers seated in order, the revealer in seat 0.

    Seat k is k places to the revealer's left (P1 is the revealer, P2 sits to P1's left...).
    Fixing the revealer's seat loses nothing: seating is circular, so every seating and revealer
    is a rotation of one with the revealer first. Explorers are numbered so that the two sides of
    a card are 2c and 2c+1; "one side of each card" is then Distinct(x // 2)."""

    def __init__(self, world: World, n: int) -> None:
        self.world = world
        self.n = n
        self.x = [z3.Int(f"x{s}") for s in range(n)]
        cards = sorted({e.card for e in world.explorers})
        self.pairs = all(
            world.explorers[2 * i].card == c and world.explorers[2 * i + 1].card == c for i, c in enumerate(cards)
        ) and len(world.explorers) == 2 * len(cards)
        self.base: list[Any] = [z3.And(v >= 0, v < len(world.explorers)) for v in self.x]
        if self.pairs:
            self.base.append(z3.Distinct([v / 2 for v in self.x]))
        else:
            card_of = {i: cards.index(e.card) for i, e in enumerate(world.explorers)}
            cvars = [z3.Int(f"c{s}") for s in range(n)]
            for s in range(n):
                self.base.append(z3.Or([z3.And(self.x[s] == i, cvars[s] == c) for i, c in card_of.items()]))
            self.base.append(z3.Distinct(cvars))
        self.values: dict[str, list[Any]] = {}

    def value(self, what: str) -> list[Any]:
        """Per seat, the compared number: a trait's current value (any value on the explorer's
        track) or the printed age."""
        if what not in self.values:
            vs, constraints = _seat_values(self.world, self.n, what)
            self.base.extend(constraints)
            self.values[what] = list(vs)
        return self.values[what]

    def playing(self, explorer: str) -> Any:
        ids = [i for i, e in enumerate(self.world.explorers) if e.id == explorer]
        return z3.Or([v == i for v in self.x for i in ids]) if ids else z3.BoolVal(False)

    def seat_of(self, explorer: str, s: int) -> Any:
        ids = [i for i, e in enumerate(self.world.explorers) if e.id == explorer]
        return z3.Or([self.x[s] == i for i in ids]) if ids else z3.BoolVal(False)


@lru_cache(maxsize=256)
def _seat_values(world: World, n: int, what: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Per seat of a party of ``n``, the z3 variable of the compared number and the constraint
    tying it to the seated explorer's track (or age). Built once per world (the object itself),
    party size and trait: the same terms serve every rule that compares it, and building them was
    most of a proof's time."""
    x = [z3.Int(f"x{s}") for s in range(n)]  # the seats' explorers, as _Party names them
    vs = tuple(z3.Int(f"{what}{s}") for s in range(n))
    constraints = []
    for s in range(n):
        options = []
        for i, e in enumerate(world.explorers):
            allowed = sorted(set(e.tracks.get(what, ()))) if what != "age" else [e.age]
            if allowed:
                options.append(z3.And(x[s] == i, z3.Or([vs[s] == v for v in allowed])))
        constraints.append(z3.Or(options) if options else z3.BoolVal(False))
    return vs, tuple(constraints)


def _chosen(party: _Party, rule: Mapping[str, Any], tie: TieBreak) -> list[Any]:
    """Per seat, a z3 Bool: the rule picks that seat. Several may be true where the rule and its
    tie-break leave a tie; none where the rule names no one."""
    n = party.n
    kind = str(rule.get("rule"))
    if kind == "haunt-revealer":
        return [z3.BoolVal(s == 0) for s in range(n)]
    if kind == "left-of-revealer":
        return [z3.BoolVal(s == 1 % n) for s in range(n)]
    if kind in ("hidden", "none"):
        return [z3.BoolVal(False) for _ in range(n)]
    if kind == "explorer":
        present = party.playing(str(rule.get("explorer")))
        fallback = rule.get("else")
        other = _chosen(party, fallback, tie) if isinstance(fallback, Mapping) else [z3.BoolVal(False)] * n
        return [z3.If(present, party.seat_of(str(rule.get("explorer")), s), other[s]) for s in range(n)]
    what = "age" if kind in ("oldest", "youngest") else str(rule.get("trait"))
    higher = kind in ("highest", "oldest")
    vals = party.value(what)
    cand = [not (bool(rule.get("except_revealer")) and s == 0) for s in range(n)]
    best = z3.Int(f"best_{kind}_{what}_{id(rule)}")
    party.base.append(z3.And([(vals[s] <= best) if higher else (vals[s] >= best) for s in range(n) if cand[s]]))
    party.base.append(z3.Or([vals[s] == best for s in range(n) if cand[s]]))
    tied = [z3.And(z3.BoolVal(cand[s]), vals[s] == best) for s in range(n)]
    chosen = list(tied)
    if kind in tie.applies_to:
        for step in tie.order:
            if step == "revealer-if-tied":
                # The revealer, when tied, wins outright; other tied seats drop out.
                chosen = [z3.And(chosen[s], z3.Or(z3.Not(chosen[0]), z3.BoolVal(s == 0))) for s in range(n)]
            elif step == "nearest-to-revealers-left":
                # Seat order is the order to the revealer's left: the first still tied wins.
                chosen = [z3.And(chosen[s], *[z3.Not(chosen[t]) for t in range(s)]) for s in range(n)]
    return chosen


def prove_traitor_rule(world: World, rule: Mapping[str, Any], players: int) -> TraitorVerdict:
    """Prove that ``rule`` picks exactly one explorer for every legal party of ``players``, or
    return the party (seat order from the revealer leftwards, trait values) that breaks it."""
    return _prove_cached(world, _freeze(rule), players)


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple) and all(isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str) for x in value):
        return {k: _thaw(v) for k, v in value}
    return value


@lru_cache(maxsize=4096)
def _prove_cached(world: World, frozen: Any, players: int) -> TraitorVerdict:
    rule = _thaw(frozen)
    kind = str(rule.get("rule"))
    if kind in ("haunt-revealer", "left-of-revealer"):
        # One fixed seat in every party: true by construction, no search needed.
        return TraitorVerdict(players)
    party = _Party(world, players)
    chosen = _chosen(party, rule, world.tie_break)
    solver = z3.Solver()
    solver.add(*party.base)
    # The proof below is "no legal party breaks the rule"; make sure legal parties exist at all,
    # or it would hold vacuously.
    if solver.check() != z3.sat:
        cards = len({e.card for e in world.explorers})
        return TraitorVerdict(players, f"no legal party of {players} exists to apply the traitor rule '{describe_rule(rule)}' to "
                              f"({cards} character cards in explorers.yaml, or a compared trait missing from a track)")
    picked = z3.Sum([z3.If(c, 1, 0) for c in chosen])
    solver.add(picked != 1)
    if solver.check() != z3.sat:
        return TraitorVerdict(players)
    model = solver.model()
    seats = [model.eval(v, model_completion=True).as_long() for v in party.x]
    picks = [s for s in range(players) if z3.is_true(model.eval(chosen[s], model_completion=True))]
    shown = []
    for s, idx in enumerate(seats):
        e = world.explorers[idx]
        bits = [f"{t} {model.eval(party.values[t][s], model_completion=True)}" for t in sorted(party.values) if t != "age"]
        if "age" in party.values:
            bits.append(f"age {e.age}")
        label = f"P{s + 1}{' (revealer)' if s == 0 else ''}: {e.name}"
        shown.append(label + (f" [{', '.join(bits)}]" if bits else ""))
    party_text = f"{players} players, seated leftwards from the revealer: " + "; ".join(shown)
    if picks:
        problem = f"can leave {len(picks)} explorers tied ({', '.join(f'P{s + 1}' for s in picks)}) with no tie-break settling it"
    else:
        problem = "can pick no explorer"
    compared = [t for t in sorted(party.values) if t != "age"]
    structured = tuple(
        (world.explorers[idx].id, model.eval(party.values[compared[0]][s], model_completion=True).as_long() if compared else None)
        for s, idx in enumerate(seats)
    )
    return TraitorVerdict(players, f"the traitor rule '{describe_rule(rule)}' {problem}", party_text, structured, tuple(picks))


def pick_traitor(world: World, rule: Mapping[str, Any], party: Sequence[tuple[str, Mapping[str, int]]]) -> list[int]:
    """The seats the z3 encoding of ``rule`` picks for one given party: (explorer id, current
    trait values) per seat, the revealer first and then leftwards. Used to cross-check the
    engine's own traitor selection."""
    seated = _Party(world, len(party))
    chosen = _chosen(seated, rule, world.tie_break)
    solver = z3.Solver()
    solver.add(*seated.base)
    index = {e.id: i for i, e in enumerate(world.explorers)}
    for s, (explorer, values) in enumerate(party):
        solver.add(seated.x[s] == index[explorer])
        for trait, vs in seated.values.items():
            if trait != "age" and trait in values:
                solver.add(vs[s] == values[trait])
    if solver.check() != z3.sat:
        raise ValueError("not a legal party (two sides of one card, or a value off its track)")
    model = solver.model()
    return [s for s in range(len(party)) if z3.is_true(model.eval(chosen[s], model_completion=True))]


def traitor_findings(world: World, file: SpecFile, rule: Mapping[str, Any], path: PathKey,
                     haunt_kind: str | None, report: SolverReport) -> None:
    """Check one traitor rule (from traitors.yaml or a haunt file) at every player count."""
    kind = str(rule.get("rule"))
    where = file.where(path)
    allowed = KIND_RULES.get(haunt_kind or "traitor", PICKING)
    if haunt_kind == "traitor" and kind == "none" and rule.get("later"):
        allowed = allowed | {"none"}  # traitors appear during the haunt (the rule says how)
    if haunt_kind is not None and kind not in allowed:
        report.findings.append(Finding("traitor", where, f"haunt_kind {haunt_kind!r} does not fit the traitor rule {kind!r} "
                                       f"(expected one of: {', '.join(sorted(allowed))})"))
        return
    if kind not in PICKING:
        report.count("traitor")
        return
    broken = []
    for n in PLAYER_COUNTS:
        verdict = prove_traitor_rule(world, rule, n)
        report.count("traitor")
        if verdict.problem is not None:
            broken.append(verdict)
    if broken:
        counts = ", ".join(str(v.players) for v in broken)
        first = broken[0]
        report.findings.append(Finding("traitor", where, f"at {counts} players {first.problem}", first.counterexample))
