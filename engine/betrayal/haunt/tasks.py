"""Tasks: the actions a haunt gives its explorers (``tasks`` of the haunt file): which are open to
whom, where and against what, the roll they need, and what success and failure do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt.pieces import HERO, TRAITOR, Monster
from hauntcheck.engine.betrayal.haunt.setup_steps import SetupSteps
from hauntcheck.engine.betrayal.hauntspec import HauntSpec
from hauntcheck.engine.betrayal.model import TRAITS
from hauntcheck.engine.betrayal.state import Gen
from hauntcheck.engine.core import Action


class Tasks(SetupSteps):
    """Haunt tasks: when they are open and what they do."""

    def tasks_for(self, seat: str) -> tuple[Mapping[str, Any], ...]:
        """Every task and special action the explorer may take (by its ``by``: the explorer's
        side, or ``explorers`` on either side's page); the haunt spec's own tuple, not a copy."""
        assert self.hs is not None
        return self.hs.tasks_by(*self._task_pages(seat))

    def tasks_at(self, seat: str, timing: str) -> tuple[Mapping[str, Any], ...]:
        """The explorer's tasks (:meth:`tasks_for`, in their order) with this ``timing``: those
        that happen by themselves are looked for at every move and at every turn's end."""
        assert self.hs is not None
        return tasks_by_timing(self.hs)[self._task_pages(seat)].get(timing, ())

    def _task_pages(self, seat: str) -> tuple[bool, bool]:
        """Whose tasks the explorer may take: (the heroes', the traitor's side's)."""
        mine = self.side.get(seat, HERO)
        hero = mine == HERO or self.masked(seat)  # the hidden traitor plays as a hero in public
        return hero, mine == TRAITOR

    def _task_actions(self, seat: str) -> list[Action]:
        """Task rolls and special actions that are possible now."""
        out: list[Action] = []
        if self._blocks(seat, "act"):
            return out
        assert self.hs is not None
        for task, gate in self.hs.derived("menu-tasks", _menu_tasks)[self._task_pages(seat)]:
            if not self._task_open(seat, task, gate):
                continue
            roll = task.get("roll", {})
            places = self._task_places(seat, task)
            if places is not None:
                out.extend(Action.of("task", id=task["id"], place=x) for x in places)
            elif task.get("target", {}).get("kind") == "monster":
                out.extend(Action.of("task", id=task["id"], target=m.uid) for m in self._monster_targets(seat, task["target"]))
            elif "target" in task:
                out.extend(Action.of("task", id=task["id"], target=t) for t in self._task_targets(seat, task))
            elif "trait_choice" in roll:
                out.extend(Action.of("task", id=task["id"], trait=t) for t in roll["trait_choice"])
            else:
                out.append(Action.of("task", id=task["id"]))
        return out

    def _monster_targets(self, seat: str, target: Mapping[str, Any]) -> list[Monster]:
        """Monsters in the explorer's room an action may aim at: of the target's ``monster`` kind,
        and not already carrying its ``unless_marked`` mark."""
        marks = self.hook_state.get("monster-marks", {})
        return [m for m in self.active_monsters(self.ex[seat].room)
                if target.get("monster", m.kind) == m.kind and target.get("unless_marked") not in marks.get(m.uid, [])]

    def _task_targets(self, seat: str, task: Mapping[str, Any]) -> list[str]:
        """Explorers an action may be aimed at (``target``): in play, in range; an action that
        takes away a dealt token (a collar) needs a target still holding one."""
        spec = task["target"]
        if spec.get("kind") != "explorer" or spec.get("range") != "same-room":
            return self.targets(spec, self.ex[seat].room, seat)
        room = self.ex[seat].room
        out = [s for s in self.seat_ids if self.in_play(s) and self.ex[s].room == room]
        for eff in task.get("do", []) + task.get("success", []):
            for sub in eff.get("on_target", []):
                token = sub.get("discard_token")
                if token is not None and str(token) in self.dealt:
                    out = [s for s in out if s in self.dealt[str(token)]]
        return out

    def _task_open(self, seat: str, task: Mapping[str, Any], gate: TaskGate | None = None) -> bool:
        """Whether the task may be taken now: the once-a-turn limits, its place, what it needs
        held or true, a flag it sets not yet set, and the movement it costs. ``gate``: the task's
        gate (:meth:`_task_gate`) where the caller has it at hand."""
        if gate is None:
            gate = self._task_gate(task)
        keys = self.turn.keys
        if gate.one_roll and "task-roll" in keys:
            return False  # roll.task-once-per-turn, unless the action may be repeated (limit: unlimited)
        if gate.instead_of_attack and ("attack" in keys or self.turn.no_attack):
            return False
        if gate.untouched and not self._turn_untouched():
            return False  # a full turn's action, or one at the start of the turn: nothing else done this turn yet
        if gate.taken_key is not None and gate.taken_key in keys:
            return False  # limit: once-per-turn
        if gate.group_key is not None and gate.group_key in keys:
            return False
        if "after" in task and task["after"] not in self.done:
            return False
        if gate.flags and all(f in self.hflags for f in gate.flags):
            return False  # judgement: a step that sets a flag is done once the flag is set
        if gate.after_key is not None and gate.after_key in keys:
            return False
        room = self.ex[seat].room
        if gate.where_rooms is not None:
            if room not in gate.where_rooms:
                return False
        elif "where" in task and not self._where_ok(seat, task["where"]):
            return False
        if gate.places_held:
            if self._task_places(seat, task) == []:
                return False  # nowhere here and nothing held to do it with
        elif "where_any" in task and room not in gate.where_any_rooms \
                and not any(self._where_ok(seat, where) for where in gate.where_any_found):
            return False
        if gate.holding and not all(self.holds(seat, h) for h in gate.holding):
            return False
        if "requires" in task and not self.pred(task["requires"], seat):
            return False
        if gate.once_per_place and not gate.places_held and f"{task['id']}/{room}" in self.used_places:
            return False
        return not (gate.cost and self.movement_left(seat) < gate.cost)

    def _task_gate(self, task: Mapping[str, Any]) -> TaskGate:
        """What :meth:`_task_open` reads from the task itself, worked out once per task of the
        haunt file (a task from elsewhere, made on the fly, is read afresh)."""
        assert self.hs is not None
        known = self.hs.derived("task-gates", _task_gates).get(id(task))
        return known[1] if known is not None and known[0] is task else task_gate(task)

    def _turn_untouched(self) -> bool:
        """Nothing done yet this turn: no space moved or room left, no attack, roll, task, item picked
        up, traded or dropped (``timing: full-turn`` and ``timing: start-of-turn``)."""
        t = self.turn
        return t.moved == 0 and not t.left_room and not t.picked and not t.traded and not t.dropped and not any(
            k in ("attack", "task-roll", "rolled") or k.startswith(("task:", "action:")) for k in t.keys)

    def _task_roll_of(self, seat: str, trait: str, task: Mapping[str, Any]) -> Gen[int | None]:
        """The task's roll: the turn's one task roll (``roll.task-once-per-turn``), or, for a task
        with ``limit: unlimited``, a roll that leaves that one task roll as it was."""
        extra = self._extra_dice(seat, task)
        if task.get("limit") != "unlimited":
            return (yield from self.task_roll(seat, trait, task["id"], extra))
        keys = self.turn.keys
        made = "task-roll" in keys
        keys.discard("task-roll")
        total = yield from self.task_roll(seat, trait, task["id"], extra)
        if not made:
            keys.discard("task-roll")
        else:
            keys.add("task-roll")
        return total

    def _extra_dice(self, seat: str, task: Mapping[str, Any]) -> int:
        """``roll.extra_dice``: dice added to the task roll, each entry's ``dice`` (an amount read
        in the explorer's room) counting while its ``when`` holds of the explorer - a die for each
        other explorer in the Research Laboratory and one for the Book there (haunt 43)."""
        extra = 0
        room = self.ex[seat].room
        for entry in task.get("roll", {}).get("extra_dice", []):
            if "when" not in entry or self.pred(entry["when"], seat):
                extra += max(0, self._amount(entry["dice"], room))
        if extra:
            self.emit("haunt.rules-override", f"{self.name(seat)} rolls {extra} extra {'die' if extra == 1 else 'dice'} "
                      f"for {task['id']}", seat=seat, count=extra, task=task['id'])
        return extra

    def _task_places(self, seat: str, task: Mapping[str, Any]) -> list[str] | None:
        """For a task whose ``where_any`` also offers cards (``holding``: carrying any of them),
        the rooms and cards the explorer could use for it now (unused ones, with ``reuse:
        once-per-place``); None for other tasks."""
        alternatives = task.get("where_any", [])
        if not any("holding" in w for w in alternatives):
            return None
        room = self.ex[seat].room
        out: list[str] = []
        for w in alternatives:
            if "in" in w and self.in_place(room, w["in"]):
                out.append(room)
            held = w.get("holding", [])
            out += [c for c in ([held] if isinstance(held, str) else held) if self.holds(seat, c)]
        if task.get("reuse") == "once-per-place":
            out = [x for x in out if f"{task['id']}/{x}" not in self.used_places]
        return sorted(set(out))

    def _where_ok(self, seat: str, where: Mapping[str, Any]) -> bool:
        if where.get("any_room") and not {"same_floor_as", "floor"} & set(where):
            return True
        return self.in_place(self.ex[seat].room, where)

    def roll_modifiers(self, seat: str, roll: Mapping[str, Any], tell: bool = True) -> int:
        """What a roll's ``modifiers`` add to its result now (each while its ``when`` holds of the
        roller); with ``tell``, each one that counts is told in the transcript."""
        change = 0
        for mod in roll.get("modifiers", ()):
            if "when" in mod and not self.pred(mod["when"], seat):
                continue
            k = self.roller_amount(mod["add"], seat) if "add" in mod else -self.roller_amount(mod["subtract"], seat)
            if k:
                change += k
                if tell:
                    self.emit("haunt.rules-override", f"{k:+d} to the roll: {mod['says']}", amount=k)
        return change

    def fatal_mark(self, seat: str, roll: Mapping[str, Any]) -> int:
        """The highest ``fatal_below`` of the risky bonuses that count now: a total under it kills
        the roller (0 when none counts)."""
        return max((int(mod["fatal_below"]) for mod in roll.get("modifiers", ())
                    if "fatal_below" in mod and ("when" not in mod or self.pred(mod["when"], seat))), default=0)

    def entry_actions(self, seat: str) -> Gen[None]:
        """Actions with ``timing: on-entry`` open where the explorer has just entered happen at
        once; they are no choice (The Mummy Walks: whoever enters the Girl's room takes her)."""
        for task in self.tasks_at(seat, "on-entry"):
            if self._task_open(seat, task):
                yield from self._task(seat, Action.of("task", id=task["id"]))

    def ambushes(self, seat: str) -> Gen[None]:
        """Tokens with ``on_enter`` in the room the explorer has just moved into: an explorer of
        the token's ``by`` side sets each off, unless its ``chosen_by`` lets it pass; a sprung
        token is turned up and removed, and its ``do`` outcomes run about the explorer, whoever's
        turn it is (The Heir's Assassins: a sneak attack, then the Assassin is gone)."""
        assert self.hs is not None
        room = self.ex[seat].room
        side = self.side.get(seat)
        for tdef in self.hs.tokens.values():
            spec = tdef.on_enter
            if spec is None or room not in self.htokens.get(tdef.id, []) or not self.in_play(seat):
                continue
            if spec["by"] != "explorers" and side != {"heroes": HERO, "traitor": TRAITOR}[str(spec["by"])]:
                continue
            chooser = self._who(spec["chosen_by"]) if "chosen_by" in spec else []
            if chooser:
                a = yield from self.ask(chooser[0], [Action.of("spring", token=tdef.id, room=room, target=seat),
                                                     Action.of("let-pass", token=tdef.id, room=room, target=seat)],
                                        f"spring the {tdef.id} on {self.name(seat)}?")
                if a.kind != "spring":
                    continue
            self.htokens[tdef.id].remove(room)
            self.emit("haunt.rules-override", f"the hidden {tdef.id} in {self.room_name(room)} springs on {self.name(seat)}"
                      " and is removed", token=tdef.id, room=room, target=seat)
            for eff in spec["do"]:
                if self._check_wins() or not self.in_play(seat):
                    return
                yield from self._outcome(eff, seat, None)

    def _task(self, seat: str, a: Action) -> Gen[None]:
        """``haunt.specific-action``: a task roll (``roll.task-once-per-turn``) or a special action."""
        task = next(t for t in self.tasks_for(seat) if t["id"] == a["id"])
        keys = self.turn.keys
        keys.add(f"task:{task['id']}")
        if task.get("timing") == "instead-of-attack":
            keys.add("attack")
        if task.get("timing") == "full-turn":
            self.turn.end_now = True  # it takes the whole turn: no move, no attack, nothing after it
            self.emit("haunt.specific-action", f"{self.name(seat)} spends the whole turn on {task['id']}",
                      seat=seat, task=task["id"])
        if "exclusive_group" in task:
            keys.add(f"group:{task['exclusive_group']}")
        cost = task.get("cost", {}).get("movement", 0)
        if cost:
            self.turn.moved += cost
        room = self.ex[seat].room
        ok = True
        roll = task.get("roll")
        target = str(a["target"]) if a.get("target") else None
        dice_total: int | None = None  # what the dice showed, before modifiers (for bands)
        if roll and roll.get("each_trait"):
            # one task roll made with every trait in turn; all must reach the target
            results = []
            for trait in TRAITS:
                if trait == TRAITS[0]:
                    total = yield from self._task_roll_of(seat, trait, task)
                    if total is None:
                        return
                else:
                    total = yield from effects.own_roll(self, seat, self.value(seat, trait), "trait", f"a {trait} task roll",
                                                        effects.Ctx(seat, "task"))
                results.append(f"{trait} {total}")
                ok = ok and total >= int(roll.get("target", 0))
            self.emit("haunt.specific-action", f"{self.name(seat)}: {task.get('says', task['id'])} - "
                      f"{', '.join(results)} against {roll.get('target')}+ each: {'success' if ok else 'failure'}",
                seat=seat, results=list(results), passed=bool(ok), task=task['id'])
        elif roll:
            trait = str(a["trait"]) if a.get("trait") else str(roll.get("trait", "might"))
            self.rolled = trait
            total = yield from self._task_roll_of(seat, trait, task)
            if total is None or self.ex[seat].dead:
                return  # an item used on the roll can cost the explorer's life before it counts
            if roll.get("opposed_by") == "target" and target is not None:
                other = yield from self.roll(self.value(target, trait), f"{self.name(target)}'s {trait} roll")
                ok = total > sum(other)
                self.emit("haunt.specific-action", f"{task['id']}: {total} against {self.name(target)}'s {sum(other)}",
                    task=task['id'], total=total, target=target, against=sum(other))
            elif "against_dice" in roll:
                other = yield from self.roll(int(roll["against_dice"]), f"{task['id']} defends")
                ok = total > sum(other)
                self.emit("haunt.specific-action", f"{task['id']}: {total} against {sum(other)}",
                    task=task['id'], total=total, against=sum(other))
            elif "bands" in roll and "target" not in roll:
                # a lookup roll: the total, modifiers added, picks the band (with a target, the
                # bands read the dice instead, beside success or failure: below)
                fatal = self.fatal_mark(seat, roll)
                total += self.roll_modifiers(seat, roll)
                band = next((b for b in roll["bands"] if b["min"] <= total <= b.get("max", total)), None)
                self.emit("haunt.specific-action", f"{self.name(seat)}: {task['id']} - the result is "
                          f"{total}: {band.get('says', '') if band else 'no band'}", seat=seat, task=task['id'], total=total)
                if total < fatal:
                    self.emit("haunt.rules-override", f"{total} is under {fatal}: the risky clue kills {self.name(seat)}",
                        total=total, need=fatal, seat=seat)
                    yield from self._outcome({"kill": True}, seat, None)
                    return
                for eff in [*(band.get("then", []) if band else []), *task.get("do", [])]:
                    yield from self._outcome(eff, seat, None, target)
                    if not self.in_play(seat):
                        return
                return
            else:
                dice_total = total
                total += self.roll_modifiers(seat, roll)
                self.task_total = total  # the amount ``of: task-roll`` in the outcomes
                ok = total >= self._amount(roll.get("target", 0))
                if "modifiers" in roll:
                    self.emit("haunt.rules-override", f"the result is {total} against {self._amount(roll.get('target', 0))}+", total=total,
                      need=self._amount(roll.get('target', 0)))
            self.emit("haunt.specific-action", f"{self.name(seat)}: {task.get('says', task['id'])} - "
                      f"{'success' if ok else 'failure'}", seat=seat, passed=bool(ok), task=task['id'])
        else:
            self.emit("haunt.specific-action", f"{self.name(seat)}: {task.get('says', task['id'])}", seat=seat, task=task['id'])
        outs = task.get("do", []) if not roll else [*task.get("success" if ok else "failure", []), *task.get("do", [])]
        if roll and "bands" in roll and dice_total is not None:
            # a band of the dice rolled (before modifiers) adds its outcomes: a roll of 2 or less sets the bomb off
            for band in roll["bands"]:
                if band.get("min", 0) <= dice_total <= band.get("max", 99):
                    self.emit("haunt.specific-action", f"the dice show {dice_total}: {band.get('says', 'a band of the roll')}",
                        total=dice_total)
                    outs = [*outs, *band.get("then", [])]
        gone = [str(e["take_token"]) for e in outs if "take_token" in e and not self._token_left(seat, str(e["take_token"]))]
        if ok and gone and len(outs) > 1:
            # judgement: a search that finds nothing (every token already taken) is no find: the
            # place is not used up and what follows a find (stopping) does not happen
            self.emit("haunt.specific-action", f"no {gone[0]} token is left to find: {self.name(seat)} finds nothing", seat=seat,
                      token=gone[0])
            return
        if ok:
            self.done.add(str(task["id"]))
            keys.add(f"done-this-turn:{task['id']}")
            if task.get("reuse") == "once-per-place":
                self.used_places.add(f"{task['id']}/{a.get('place') or room}")
        for eff in outs:
            yield from self._outcome(eff, seat, None, target)
        if ok and any("take_token" in eff or "earn" in eff for eff in outs):
            self.emit("haunt.knowledge-shared", "what was found is known to every hero")


class TaskGate(NamedTuple):
    """What decides whether a task is open that the task itself fixes (:meth:`Tasks._task_open`)."""

    #: Its roll is the turn's one task roll (``roll.task-once-per-turn``; not ``limit: unlimited``).
    one_roll: bool
    #: ``timing: instead-of-attack``.
    instead_of_attack: bool
    #: ``timing: full-turn`` or ``start-of-turn``: only while nothing else was done this turn.
    untouched: bool
    #: The turn key that marks it taken (``limit: once-per-turn``), its group's, and the one that
    #: marks the task it comes ``after`` done this turn; None where the task has no such limit.
    taken_key: str | None
    group_key: str | None
    after_key: str | None
    #: The flags its outcomes set: once all are set, it is done.
    flags: tuple[str, ...]
    #: The rooms its ``where`` names, where they are fixed (named rooms); None where the state
    #: decides (a token's room ...) or there is no ``where``.
    where_rooms: frozenset[str] | None
    #: Its ``where_any`` places by ``in``: the fixed rooms among them, and the others, to be found.
    where_any_rooms: frozenset[str]
    where_any_found: tuple[Mapping[str, Any], ...]
    #: Its ``where_any`` offers cards held as places (:meth:`Tasks._task_places` is not None).
    places_held: bool
    #: The cards it needs held.
    holding: tuple[str, ...]
    once_per_place: bool
    #: Spaces of movement it costs.
    cost: int


def task_gate(task: Mapping[str, Any]) -> TaskGate:
    """The task's :class:`TaskGate`."""
    held = task.get("holding")
    after = task.get("after")
    places = [w["in"] for w in task.get("where_any", []) if "in" in w]
    fixed = [named_rooms(where) for where in places]
    return TaskGate(
        one_roll="roll" in task and task.get("limit") != "unlimited",
        instead_of_attack=task.get("timing") == "instead-of-attack",
        untouched=task.get("timing") in ("full-turn", "start-of-turn"),
        taken_key=f"task:{task['id']}" if task.get("limit") == "once-per-turn" else None,
        group_key=f"group:{task['exclusive_group']}" if "exclusive_group" in task else None,
        after_key=f"done-this-turn:{after}" if after else None,
        flags=tuple(str(eff["set_flag"]) for eff in task.get("success", []) + task.get("do", []) if "set_flag" in eff),
        where_rooms=named_rooms(task["where"]) if "where" in task else None,
        where_any_rooms=frozenset(room for rooms in fixed if rooms is not None for room in rooms),
        where_any_found=tuple(where for where, rooms in zip(places, fixed, strict=True) if rooms is None),
        places_held=any("holding" in w for w in task.get("where_any", [])),
        holding=(held,) if isinstance(held, str) else tuple(held) if held else (),
        once_per_place=task.get("reuse") == "once-per-place",
        cost=int(task.get("cost", {}).get("movement", 0)),
    )


def named_rooms(where: Mapping[str, Any]) -> frozenset[str] | None:
    """The rooms a task's location names outright (``room`` or ``rooms``, nothing added around
    them), as :meth:`Tasks._where_ok` reads it; None for a location the state decides."""
    if where.get("any_room") or where.get("with_neighbours") or where.get("adjoining"):
        return None
    if "room" in where:
        return frozenset((str(where["room"]),))
    if "rooms" in where:
        return frozenset(str(r) for r in where["rooms"])
    return None


#: Every page of tasks :meth:`Tasks._task_pages` may give: (the heroes', the traitor's side's).
TASK_PAGES: tuple[tuple[bool, bool], ...] = ((False, False), (False, True), (True, False), (True, True))


def _task_gates(hs: HauntSpec) -> dict[int, tuple[Mapping[str, Any], TaskGate]]:
    """Every task of the haunt file with its gate, by the task's identity (the task is kept with
    its gate and compared, so the key never finds another task)."""
    tasks = {id(t): t for page in TASK_PAGES for t in hs.tasks_by(*page)}
    return {key: (task, task_gate(task)) for key, task in tasks.items()}


def _menu_tasks(hs: HauntSpec) -> dict[tuple[bool, bool], tuple[tuple[Mapping[str, Any], TaskGate], ...]]:
    """Per :meth:`Tasks._task_pages`, the tasks a turn menu may offer, each with its gate: not those
    that take an item (offered by ``_side_actions``) nor those that happen by themselves (at the
    end of a turn without a roll, or to whoever enters)."""
    def offered(task: Mapping[str, Any]) -> bool:
        timing = task.get("timing")
        return not (any("take_item" in d for d in task.get("do", []))
                    or (timing == "end-of-turn" and "roll" not in task) or timing == "on-entry")

    return {page: tuple((t, task_gate(t)) for t in hs.tasks_by(*page) if offered(t)) for page in TASK_PAGES}


def tasks_by_timing(hs: HauntSpec) -> dict[tuple[bool, bool], dict[str, tuple[Mapping[str, Any], ...]]]:
    """Per :meth:`Tasks._task_pages`, the tasks with a ``timing`` by that timing, in the book's
    order (worked out once per haunt spec)."""
    return hs.derived("tasks-by-timing", _tasks_by_timing)


def _tasks_by_timing(hs: HauntSpec) -> dict[tuple[bool, bool], dict[str, tuple[Mapping[str, Any], ...]]]:
    out: dict[tuple[bool, bool], dict[str, tuple[Mapping[str, Any], ...]]] = {}
    for page in TASK_PAGES:
        grouped: dict[str, list[Mapping[str, Any]]] = {}
        for task in hs.tasks_by(*page):
            if task.get("timing") is not None:
                grouped.setdefault(task["timing"], []).append(task)
        out[page] = {when: tuple(tasks) for when, tasks in grouped.items()}
    return out
