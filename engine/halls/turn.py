"""Setting up and the rules of a turn (rules ``setup.*``, ``turn.*``, ``move.*``): setup steps,
the secret action choice and the resolution in turn order (moves; Searches and combats are
started here and carried out by ``search`` and ``combat``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.core import Action, DiceRoll, Outcome, Shuffle, act
from hauntcheck.engine.halls.combat import CombatRules
from hauntcheck.engine.halls.model import DIRS, Participant, act_cell, num, strs


class TurnRules(CombatRules):
    """Setup, action selection and resolution."""

    if TYPE_CHECKING:
        # Where resolution hands over to the MC phase (``killer.KillerRules``).
        def _end_resolution(self) -> None: ...

    # ================================================================= setup

    def _st_setup_mixed(self) -> None:
        self.need_chance("mixed", DiceRoll(24, faces=(0, 1), purpose="A or B for each room number"))

    def _on_mixed(self, action: Action) -> None:
        faces = action["faces"]
        assert isinstance(faces, tuple)
        self.ctx["mixed"] = ["A" if f == 0 else "B" for f in faces]
        self._ev("variant.mixed-decks", "rooms chosen: " + "".join(self.ctx["mixed"]), decks=self.ctx["mixed"])
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
            self._ev("variant.combined-decks", f"both room decks shuffled together ({len(order)} cards)", count=len(order))
        self._ev("setup.room-deck", f"{len(self.pool)} rooms drawn for the board: {', '.join(self.pool)}", rooms=self.pool)
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
        self._ev(rule, f"{len(free)} rooms dealt face down on a {self.rows}x{self.cols} grid",
            count=len(free), rows=self.rows, cols=self.cols)
        self.stage = "setup-faces"

    def _st_setup_faces(self) -> None:
        self.need_chance("faces", DiceRoll(len(self.lay["starts"]), faces=(0, 1), purpose="starting room faces"))

    def _on_faces(self, action: Action) -> None:
        faces = action["faces"]
        assert isinstance(faces, tuple)
        names = []
        starts = []
        for k, ((r, c), f) in enumerate(zip(self.lay["starts"], faces, strict=True)):
            i = self.idx(r, c)
            starts.append(i)
            self.rooms[i].card = self.d.starts[k][num(f)]
            self.rooms[i].up = True
            self.rooms[i].start = True
            names.append(self.where(i))
        self._ev("setup.grid", "starting rooms: " + ", ".join(names), rooms=[self.rooms[i].card for i in starts],
                 cells=[list(self.cell(i)) for i in starts])
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
            self._ev(rule, f"MC deck shuffled ({len(self.mc_deck)} cards)", count=len(self.mc_deck))
            self.stage = "setup-gifts"
        else:
            self.mc_discard = []
            self._ev("mc.reshuffle", f"MC discards shuffled into a new deck ({len(self.mc_deck)} cards)", count=len(self.mc_deck))

    def _st_setup_gifts(self) -> None:
        self.need_chance("gift-shuffle", Shuffle("gifts", self.d.gift_pool))

    def _on_gift_shuffle(self, action: Action) -> None:
        self.gift_pile = strs(action["order"])
        self._ev("setup.decks", f"MC Gift tokens shuffled face down ({len(self.gift_pile)})", count=len(self.gift_pile))
        self.stage = "setup-rewards"

    def _st_setup_rewards(self) -> None:
        self.need_chance("reward-shuffle", Shuffle("rewards", self.d.reward_deck))

    def _on_reward_shuffle(self, action: Action) -> None:
        self.reward_deck = strs(action["order"])
        if self.stage == "setup-rewards":
            self._ev("setup.decks", f"Reward deck shuffled ({len(self.reward_deck)} cards)", count=len(self.reward_deck))
            self._make_participants()
            self.stage = "setup-place"
        else:
            self.reward_discard = []
            self._ev("search.reshuffle", f"Reward discards shuffled into a new deck ({len(self.reward_deck)} cards)",
                count=len(self.reward_deck))

    def _make_participants(self) -> None:
        for k in range(self.players):
            spec = self.d.participants[k % len(self.d.participants)]
            side = spec["advanced"] if self.side == "advanced" else spec["beginner"]
            powers = tuple(pw["id"] for pw in side.get("powers", []))
            resolve = int(side.get("resolve", self.d.resolve))
            self.pp.append(Participant(f"P{k + 1}", spec["id"], spec["name"], -1, self.d.hp, resolve, powers))
            self._ev("setup.participants", f"P{k + 1} plays {spec['name']} ({self.side} side): {self.d.hp} HP, "
                    f"{resolve} Resolve" + (f", powers {', '.join(powers)}" if powers else ""),
                    seat=f"P{k + 1}", participant=spec["id"], side=self.side, hp=self.d.hp, resolve=resolve, powers=list(powers))
            if "lucky" in powers:
                self._ev("power.lucky", f"{spec['name']} starts with {resolve} Resolve", participant=spec["id"], resolve=resolve)

    def _st_setup_place(self) -> None:
        taken = {p.pos for p in self.pp}
        for p in self.pp:
            if p.pos < 0:
                opts = [act_cell("start", r, c) for r, c in self.lay["starts"] if self.idx(r, c) not in taken]
                self.need(p.seat, "start", opts)
                return
        self.stage = "setup-killer"

    def _on_start(self, action: Action) -> None:
        p = next(p for p in self.pp if p.pos < 0)
        p.pos = self.idx(num(action["row"]), num(action["col"]))
        self._ev("setup.participants", f"{p.name} starts in {self.where(p.pos)}", seat=p.seat, cell=list(self.cell(p.pos)))

    def _st_setup_killer(self) -> None:
        cells = [self.idx(r, c) for r, c in self.lay["killer_cells"]]
        by = self.lay["killer_placed_by"]
        if by == "fixed" or len(cells) == 1:
            self._place_killer(cells[0])
            return
        seat = self.pp[0].seat if by == "first" else self.pp[1].seat
        self.need(seat, "killer-place", [act_cell("killer", self.cell(i)[0], self.cell(i)[1]) for i in cells])

    def _on_killer_place(self, action: Action) -> None:
        self._place_killer(self.idx(num(action["row"]), num(action["col"])))

    def _place_killer(self, i: int) -> None:
        self.killer.pos = i
        rule = {"first": "setup.killer", "second": "variant.two-players"}.get(self.lay["killer_placed_by"], self.lay["rule"])
        self._ev("setup.first-player", f"{self.pp[0].name} holds the First Player card", seat=self.pp[0].seat)
        self._ev(rule, f"the Killer ({self.killer.hp} HP, Rage 0) starts in {self.where(i)}", hp=self.killer.hp, cell=list(self.cell(i)))
        self._begin_turn()

    # ================================================================= selection

    def _begin_turn(self) -> None:
        if self.round > self.d.round_limit:
            self.result = Outcome("undecided", (), f"round limit {self.d.round_limit} reached")
            self._ev("turn.round-limit", f"round {self.round} would exceed the limit of {self.d.round_limit}: undecided",
                round=self.round, round_limit=self.d.round_limit)
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
        self._ev("turn.phases", f"round {self.round} begins; {self.pp[self.first].name} is First Player",
            round=self.round, seat=self.pp[self.first].seat)
        killer = self.killer
        if killer.stunned and any(p.pos == killer.pos for p in self.living()):
            self._ev("killer.stunned-absent", f"the Stunned Killer in {self.where(killer.pos)} counts as absent",
                cell=list(self.cell(killer.pos)))

    def select_options(self, p: Participant) -> list[Action]:
        """Rule turn.secret-choice: the action cards this Participant may choose, from the position
        at the start of the turn only (never from others' secret choices)."""
        if self.turn["combat"][p.seat]:
            return [act("choose", "action", "attack"), act("choose", "action", "escape")]
        room = self.rooms[p.pos]
        if room.temp:
            return [act("choose", "action", "search")]
        out = [act("choose", "action", d) for d in DIRS if self.open_step(p.pos, d) is not None]
        if self.search_options(p):
            out.append(act("choose", "action", "search"))
        return out or [act("choose", "action", "pass")]

    def _st_select(self) -> None:
        chosen = self.turn["chosen"]
        for k in self.living_order():
            p = self.pp[k]
            if p.seat not in chosen:
                self.need(p.seat, "choose", self.select_options(p))
                return
        if not self.quiet:
            shown = ", ".join(f"{self.pp[k].name} {chosen[self.pp[k].seat]}" for k in self.living_order())
            self._ev("turn.secret-choice", f"actions revealed: {shown}",
                seats=[self.pp[k].seat for k in self.living_order()], actions=[chosen[self.pp[k].seat] for k in self.living_order()])
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
                self._ev("turn.impossible-action", f"{p.name} has no possible action and passes", seat=p.seat)
        self._end_resolution()

    def _move(self, p: Participant, direction: str) -> None:
        frm = p.pos
        to = self.step(frm, direction)
        assert to is not None
        for seat, a, b in self.turn["moves"]:
            if a == to and b == frm:
                other = next(q for q in self.pp if q.seat == seat)
                self._ev("move.doorway", f"{p.name} and {other.name} meet in the doorway; {p.name} stays in {self.where(frm)}",
                    seat=p.seat, other=other.seat, origin=list(self.cell(frm)))
                return
        self.turn["moves"].append([p.seat, frm, to])
        self._enter(p, to, "move.one-space", f"{p.name} moves {direction}", dir=direction)
        met = [q.name for q in self.people_in(to) if q is not p]
        if self.killer.active() and self.killer.pos == to:
            met.append("the Killer")
        if met:
            # turn.resolution-order: actions resolve one by one but count as simultaneous, so a
            # meeting made during the resolution starts no combat (or changes no choice) this turn
            self._ev("turn.resolution-order", f"{p.name} joins {' and '.join(met)} in {self.where(to)}: the actions "
                     "of this turn count as simultaneous, so any combat waits for the next turn",
                seat=p.seat, met=list(met), to=list(self.cell(to)))
