"""Whether the engine plays a haunt, decided from the haunt's file: no list of playable haunts.

A haunt plays when

* every vocabulary key it uses (``docs/haunt-format.md``) is one the interpreter carries out -
  the file is walked along ``spec/schema/haunt.schema.json`` and each key of a setup step, an
  outcome, a predicate, a monster, a task, a timer, a rule... is looked up in
  :data:`CARRIED_OUT` for its place in the vocabulary;
* every hook it names (``custom: <id>``) is registered for that place (:mod:`.registry`);
* each of its monsters has stats (``stats_from: none-printed`` blocks it).

:func:`gaps` returns each missing piece with its path in the file, so the callers (``lint``,
``play``, ``coverage``, the haunt phase itself) can name it at ``file:line:column``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from hauntcheck.engine.betrayal.haunt import registry
from hauntcheck.engine.betrayal.haunt.outcomes import OUTCOME_EFFECTS, OUTCOME_VERBS
from hauntcheck.engine.betrayal.haunt.predicates import PREDICATE_RANK
from hauntcheck.engine.betrayal.haunt.setup_steps import SETUP_VERBS
from hauntcheck.engine.betrayal.hauntspec import is_mapping
from hauntcheck.engine.spec import SCHEMA_DIR

PathKey = tuple[str | int, ...]

#: Keys that are notes in every place of the vocabulary.
NOTE_KEYS = frozenset({"says", "cite", "unverified", "judgement", "id"})

#: For each place of the vocabulary (a ``$defs`` entry of the haunt schema), the keys the
#: interpreter carries out, and the module that does. A place not listed here is plain data
#: (names, tables, token descriptions) that needs no interpreting.
CARRIED_OUT: dict[str, frozenset[str]] = {
    # setup_steps.py (``SetupSteps._setup_step``)
    "step": SETUP_VERBS | {"who"},
    # outcomes.py (``Outcomes._outcome``); part-1 effects it hands to the effects package are "effect"
    "haunt_outcome": OUTCOME_VERBS | {"who"},
    "effect": OUTCOME_EFFECTS | {"who"},
    # predicates.py (one ``_pred_<key>`` method per key)
    "predicate": frozenset(PREDICATE_RANK),
    # monsters.py and combat.py. ``acts``, ``discovers_rooms`` and ``movement.stays_in_room`` are
    # carried out by the monster turn's order and its rules (monsters never explore; a monster
    # with ``roll: none`` never moves) for the values :data:`VALUES_CARRIED_OUT` allows.
    "monster": frozenset({
        "name", "token", "count", "controlled_by", "acts", "stats", "stats_by_track", "stats_from", "group_move",
        "movement", "immune_to", "attackable", "on_defeat", "damage_capacity", "carries", "slows_explorers",
        "paired_with", "unaffected_by_cards", "may_not_use", "discovers_rooms", "must", "abilities", "attacks_together",
        "grabs", "trail", "may_not_use_tokens", "appears", "escort", "remains"}),
    "movement": frozenset({
        "roll", "toward", "chase_when_seen", "through_walls", "through_collapsed", "stays_in_room", "may_not_use",
        "teleport", "modes_by_roll", "custom", "exit", "room_cost", "straight_ahead"}),
    # tasks.py and turns.py
    "action": frozenset({
        "by", "where", "where_any", "holding", "requires", "after", "timing", "target", "cost", "limit",
        "exclusive_group", "reuse", "roll", "success", "failure", "do"}),
    "timer": frozenset({"starts", "start_flag", "start_at", "advance", "after_advance", "at", "stops_when"}),
    "turn_rule": frozenset({"who", "when", "where", "reuse", "unless", "requires", "roll", "success", "failure", "do", "slot"}),
    # combat.py (``halve_damage`` and ``defends_with`` are not carried out yet)
    "attack_rule": frozenset({
        "attacker", "defender", "requires", "optional", "forbidden", "by_ability", "attack_with", "damage_to",
        "steal_margin", "reroll_blanks", "no_skull", "on_attacker_wins", "on_defender_wins", "extra", "ends_turn",
        "may_target_stunned", "with_weapon", "result_bonus", "steal_tokens", "reach", "despite_immunity", "dice_bonus",
        "steal_only", "damage_type", "unarmed", "undefended"}),
    # outcomes.py and base.py; ``counts_as_hero: false`` goes with a change of side (``turn_traitor``)
    "status_def": frozenset({
        "blocks", "carried_like_item", "drops_items", "must_move_toward", "may_not_use", "no_skull", "damage_taken",
        "unaffected_by_cards", "immune_to_statuses", "removes_from_play", "counts_as_hero", "hurt_by_holders", "may_not_enter",
        "less_damage", "move_fewer", "traits_fixed", "room_cost", "stairs_roll", "symbol_rooms_end_turn", "moves_at",
        "carries_token", "carried_only_by", "unaffected_by_rooms", "hidden_from", "told_on_death", "through_walls", "damage_as",
        "trait_values"}),
    # hauntspec.py, turns.py and tasks.py (``on_enter``); views.py keeps ``hidden_from`` tokens from a side's seats
    "token": frozenset({
        "component", "represents", "colour", "trait", "name", "numbered", "carried_as_item", "carry_limit", "carried_by",
        "picked_up_by", "move_cost", "left_on_death", "on_take", "hidden_from", "on_enter", "move_fewer"}),
    # amounts.py and setup_steps.py (``on_card_of`` is not carried out yet)
    "location": frozenset({
        "room", "rooms", "room_of", "room_of_holder", "haunt_room", "symbol", "any_room", "room_with_token",
        "room_with_monster", "room_with_status", "next_to_token", "same_floor_as", "floor", "min_tiles_from",
        "as_far_as_possible_from", "fallback", "one_per_room", "overflow", "on_discovery", "chosen_by", "secret", "extras",
        "with_neighbours", "symbols", "unoccupied", "if_none", "next_to_room", "not_rooms", "cycle", "adjoining", "one_of", "otherwise",
        "first_found"}),
    # wins.py; ``also_wins`` is a note (those who share the win are on the winning side)
    "win": frozenset({"when", "winners", "also_wins"}),
    "side": frozenset({
        "knows", "rivals", "setup", "wins", "ends_without_winner", "tasks", "actions", "timers", "turn_rules",
        "attack_rules", "rules", "collapse", "bound_cards", "lost_powers"}),
    # collapse.py
    "collapse": frozenset({
        "first_room", "by", "rate", "chosen_by", "floors", "new_floor", "engulfed", "pause", "stops_when"}),
}

#: Keys carried out for some of their values only: (place, key) -> the values that are.
VALUES_CARRIED_OUT: dict[tuple[str, str], tuple[Any, ...]] = {
    ("monster", "acts"): ("monster-turn", "after-revealer"),
    ("monster", "discovers_rooms"): (False, True),
    ("movement", "stays_in_room"): (True,),
    ("status_def", "counts_as_hero"): (False,),
}

#: The hook kinds a ``custom`` key may name, by its place in the vocabulary.
#: (An outcome list may name a hook of any kind: a rule's ``do`` is also how a haunt switches on
#: the hooks that are consulted elsewhere, at the skull or in a room.)
HOOK_KINDS: dict[str, tuple[str, ...]] = {
    "step": ("setup",),
    "haunt_outcome": (),
    "effect": (),
    "predicate": ("predicate",),
    "movement": ("move", "turn"),
}


@dataclass(frozen=True, slots=True)
class Gap:
    """One thing that keeps the engine from playing a haunt: where in the file, and what."""

    path: PathKey
    message: str

    def at(self, where: Callable[[PathKey], object]) -> str:
        """The gap as ``file:line:column: message`` (``where`` gives a path's position)."""
        return f"{where(self.path)}: {self.message}"

    def __str__(self) -> str:
        return f"{'.'.join(str(p) for p in self.path) or '(top)'}: {self.message}"


@cache
def _schema() -> Mapping[str, Any]:
    data: Mapping[str, Any] = json.loads((SCHEMA_DIR / "haunt.schema.json").read_text(encoding="utf-8"))
    return data


#: Gaps already found, by the id of the haunt data (kept with the data, so a reused id is not mistaken).
_FOUND: dict[int, tuple[Mapping[str, Any], list[Gap]]] = {}


def gaps(data: Mapping[str, Any]) -> list[Gap]:
    """Every piece of the haunt file ``data`` that the engine does not carry out, in file order."""
    found = _FOUND.get(id(data))
    if found is not None and found[0] is data:
        return list(found[1])
    out = _gaps(data)
    _FOUND[id(data)] = (data, out)
    return list(out)


def _gaps(data: Mapping[str, Any]) -> list[Gap]:
    schema = _schema()
    out = list(_walk(data, schema, (), "haunt", schema["$defs"]))
    for i, monster in enumerate(data.get("monsters", ()) or ()):
        if isinstance(monster, Mapping) and monster.get("stats_from") == "none-printed":
            out.append(Gap(("monsters", i, "stats_from"), f"monster '{monster.get('id')}' has no printed stats"))
    for side in ("traitor_side", "heroes_side"):
        rules = (data.get(side) or {}).get("turn_rules", ()) if isinstance(data.get(side), Mapping) else ()
        for i, rule in enumerate(rules or ()):
            if isinstance(rule, Mapping) and rule.get("when") in MONSTER_MOMENTS:
                out.append(Gap((side, "turn_rules", i, "when"), f"'{rule['when']}' is carried out only in a "
                                                                 "monster's must rules"))
    return out


#: Moments of the monster turn (``when``) that only a monster's ``must`` rules can use.
MONSTER_MOMENTS = frozenset({"after-movement-roll", "after-monsters-move"})


def plays(data: Mapping[str, Any]) -> bool:
    """Whether the engine plays the haunt file ``data`` to its end (no :func:`gaps`)."""
    return not gaps(data)


def _verb(node: Mapping[str, Any]) -> str:
    return next((str(k) for k in node if k not in NOTE_KEYS and k != "who"), "")


def _resolve(ref: str, defs: Mapping[str, Any]) -> tuple[Mapping[str, Any], str]:
    """The schema a local ``$ref`` points at, and its place name (a ``$defs`` entry's own name;
    empty for a part of one)."""
    parts = ref.removeprefix("#/$defs/").split("/")
    node: Mapping[str, Any] = defs[parts[0]]
    for part in parts[1:]:
        node = node[part]
    return node, parts[0] if len(parts) == 1 else ""


def _fits(node: Any, alt: Mapping[str, Any], defs: Mapping[str, Any]) -> tuple[Mapping[str, Any], str] | None:
    """The schema (and place name) of an ``anyOf``/``oneOf`` alternative that describes ``node``."""
    name = ""
    if "$ref" in alt:
        ref = str(alt["$ref"])
        if not ref.startswith("#/$defs/"):
            return None
        alt, name = _resolve(ref, defs)
    props = alt.get("properties")
    if is_mapping(node) and is_mapping(props) and node and set(node) <= set(props):
        return alt, name
    return None


def _walk(node: Any, schema: Mapping[str, Any], path: PathKey, place: str,
          defs: Mapping[str, Any]) -> Iterator[Gap]:
    ref = schema.get("$ref")
    if isinstance(ref, str):
        if ref.startswith("#/$defs/"):
            target, name = _resolve(ref, defs)
            yield from _walk(node, target, path, name, defs)
        return  # another schema's vocabulary (part-1 effects, ids, citations): carried out by part 1
    if place == "outcome" and is_mapping(node):
        verb = _verb(node)
        if verb in defs["haunt_outcome"]["properties"]:
            yield from _walk(node, defs["haunt_outcome"], path, "haunt_outcome", defs)
        else:
            yield from _keys(node, path, "effect", {})
        return
    for key in ("anyOf", "oneOf"):
        for alt in schema.get(key, ()):
            fit = _fits(node, alt, defs)
            if fit is not None:
                yield from _walk(node, fit[0], path, fit[1], defs)
                break
    if is_mapping(node):
        props = schema.get("properties")
        if is_mapping(props):
            yield from _keys(node, path, place, props)
            for key, value in node.items():
                if key in props:
                    yield from _walk(value, props[key], (*path, key), "", defs)
        extra = schema.get("additionalProperties")
        if is_mapping(extra):
            for key, value in node.items():
                if not is_mapping(props) or key not in props:
                    yield from _walk(value, extra, (*path, key), "", defs)
    elif isinstance(node, list) and is_mapping(schema.get("items")):
        for i, value in enumerate(node):
            yield from _walk(value, schema["items"], (*path, i), "", defs)


def _keys(node: Mapping[str, Any], path: PathKey, place: str, props: Mapping[str, Any]) -> Iterator[Gap]:
    """The keys of ``node`` (a ``place`` of the vocabulary) that the interpreter does not carry out."""
    allowed = CARRIED_OUT.get(place)
    for key, value in node.items():
        here = (*path, key)
        if key == "custom" and place in HOOK_KINDS:
            kinds = registry.kinds_of(str(value))
            if not kinds:
                yield Gap(here, f"hook '{value}' is not registered")
            elif HOOK_KINDS[place] and not set(kinds) & set(HOOK_KINDS[place]):
                yield Gap(here, f"hook '{value}' is registered as a {' and '.join(kinds)} hook, not as a "
                                f"{' or '.join(HOOK_KINDS[place])} hook as it is used here")
            continue
        if allowed is None or key in NOTE_KEYS:
            continue
        if key not in allowed:
            what = "outcome" if place in ("haunt_outcome", "effect") else "setup step" if place == "step" else place
            yield Gap(here, f"{what} key '{key}' is not carried out by the interpreter yet")
        elif (place, key) in VALUES_CARRIED_OUT and value not in VALUES_CARRIED_OUT[place, key]:
            yield Gap(here, f"{place} key '{key}' is carried out only as "
                            f"{' or '.join(json.dumps(v) for v in VALUES_CARRIED_OUT[place, key])}, not {json.dumps(value)}")
