"""Haunt predicates: the ``when`` / ``requires`` / ``if`` tests of the haunt vocabulary
(``docs/haunt-format.md``), one method per predicate key, and the order in which a predicate's
keys are tried (:data:`PREDICATE_ORDER`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hauntcheck.engine.betrayal import effects
from hauntcheck.engine.betrayal.haunt import registry
from hauntcheck.engine.betrayal.haunt.amounts import Amounts
from hauntcheck.engine.betrayal.haunt.pieces import HERO, Monster
from hauntcheck.engine.betrayal.hauntspec import is_mapping


class Predicates(Amounts):
    """Haunt predicates, one method per key."""

    def pred(self, p: Mapping[str, Any], seat: str | None = None, m: Monster | None = None,
             opponent: str | None = None) -> bool:
        """Evaluate a haunt predicate (``docs/haunt-format.md``): ``seat`` is the explorer it is
        about (if any), ``m`` a monster in question, ``opponent`` the other fighter.

        A predicate is tested by its key (see :data:`PREDICATE_ORDER`); other keys (``says``) are
        notes. Should a predicate carry two test keys, the one earlier in :data:`PREDICATE_ORDER`
        decides, as it always has. Each predicate is compiled once (:func:`judge_of`)."""
        return judge_of(p)(self, seat, m, opponent)

    def _pred_all(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return all(self.pred(x, seat, m, opponent) for x in p["all"])

    def _pred_any(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return any(self.pred(x, seat, m, opponent) for x in p["any"])

    def _pred_not(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return not self.pred(p["not"], seat, m, opponent)

    def _pred_opponent(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """The predicate holds of the other fighter (an explorer or a monster)."""
        if opponent is None:
            return False
        if opponent in self.ex:
            return self.pred(p["opponent"], opponent, m, seat)
        return self.pred(p["opponent"], None, self.monster(opponent), seat)

    def _pred_heroes_dead(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """All heroes dead, or (any other value) more than half of them."""
        ex, side = self.ex, self.side
        heroes = dead = 0
        for s in self.seat_ids:  # counted in one pass: goals ask this after every step
            if side.get(s) == HERO:
                heroes += 1
                dead += ex[s].dead
        return dead == heroes if p["heroes_dead"] == "all" else dead * 2 > heroes

    def _pred_heroes_gone(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """No hero left in the house: dead, removed, (``or_exited``) gone out, or with one of
        the ``or_status`` statuses."""
        spec = p["heroes_gone"] or {}
        statuses = spec.get("or_status") or ()
        or_exited = spec.get("or_exited")
        for s in self.heroes():
            if self.ex[s].dead or s in self.removed or (or_exited and s in self.exited):
                continue
            if statuses and any(x in statuses for x in self.hstatus.get(s, ())):
                continue
            return False  # this hero is still about
        return True

    def _pred_heroes_alive(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        spec = p["heroes_alive"]
        alive = len(self.living_heroes())
        if spec.get("or_exited"):
            # heroes who left the house alive count as alive (United We Stand's "all but one dead")
            alive += sum(1 for s in self.heroes() if s in self.exited and not self.ex[s].dead)
        return alive >= self._amount(spec.get("at_least", 1))

    def _pred_heroes_together_in(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                                 opponent: str | None) -> bool:
        """Every living hero stands in one and the same room of the location."""
        rooms = {self.ex[s].room for s in self.living_heroes()}
        return len(rooms) == 1 and rooms <= set(self._rooms_for(p["heroes_together_in"]))

    def _pred_all_heroes(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """Every living hero in the house meets the predicate (each in turn the explorer in
        question): haunt 35's Toy Airplane leaves only with every living hero aboard."""
        return all(self.pred(p["all_heroes"], s) for s in self.living_heroes())

    def _pred_heroes_exited(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return sum(1 for s in self.heroes() if s in self.exited) >= self._amount(p["heroes_exited"].get("at_least", 1))

    def _pred_exited(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return seat is not None and (seat in self.exited) == bool(p["exited"])

    def _pred_monsters_defeated(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                                opponent: str | None) -> bool:
        """All (or ``count``) monsters of a kind gone, by ``how`` if given."""
        spec = p["monsters_defeated"]
        kind = spec["monster"]
        how = spec.get("how")
        mine = done = 0
        for x in self.mon:  # counted in one pass: goals ask this after every step
            if x.kind == kind:
                mine += 1
                # judgement: a haunt that banishes a monster does it by a kill_monster outcome
                if x.gone and (how is None or x.gone == how or {x.gone, how} == {"killed", "banished"}):
                    done += 1
        count = spec.get("count", "all")
        return mine > 0 and (done == mine if count == "all" else done >= self._amount(count))

    def _pred_none_alive_with_status(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                                     opponent: str | None) -> bool:
        status, hstatus = p["none_alive_with_status"], self.hstatus
        # the status first: most explorers have none; a plain loop, no generator: goals ask this
        # after every step
        for s in self.seat_ids:  # noqa: SIM110
            if status in hstatus.get(s, ()) and self.in_play(s):
                return False
        return True

    def _pred_has_status(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """The explorer (without one: any explorer in play) has the status."""
        who = [seat] if seat else [s for s in self.seat_ids if self.in_play(s)]
        return any(p["has_status"] in self.hstatus.get(s, []) for s in who)

    def _pred_flag(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return str(p["flag"]) in self.hflags

    def _pred_carried(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return seat is not None and seat in self.carried

    def _pred_custom(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return registry.hook.predicate[str(p["custom"])](self.as_haunt_state(), seat, m)

    def _pred_condition(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return seat is not None and effects.condition(self, p["condition"], effects.Ctx(seat, "token:haunt"))

    def _pred_holds(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """Someone ``who`` names (explorers, or monsters of a kind) holds ``all`` and one of ``any``."""
        spec = p["holds"]
        who = spec.get("who", {})
        every, some = spec.get("all", ()), spec.get("any")
        if is_mapping(who) and "monster" in who:
            kind = who["monster"]
            # active_monsters() inlined, and plain loops: goals ask this after every step
            bags = [x.cards for x in self.mon if not x.gone and x.kind == kind]
        else:
            bags = [self.ex[s].cards + self.held.get(s, []) for s in self._who(who)]
        # map over the bag's own test: no generator frame per card
        return any(all(map(bag.__contains__, every)) and (not some or any(map(bag.__contains__, some))) for bag in bags)

    def _pred_monster_in_room(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                              opponent: str | None) -> bool:
        spec = p["monster_in_room"]
        kind, where = spec["monster"], spec["room"]
        return any(x.kind == kind and self.in_place(x.room, where) for x in self.active_monsters())

    def _pred_monsters_in_house(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                                opponent: str | None) -> bool:
        """At least ``count`` monsters of the kind are in the house (the Ouroboros Body complete)."""
        spec = p["monsters_in_house"]
        return sum(1 for x in self.active_monsters() if x.kind == spec["monster"]) >= self._amount(spec["count"])

    def _pred_monster_marked(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                             opponent: str | None) -> bool:
        """The rule's monster (a fight's monster) carries the mark (``mark_monster``)."""
        return m is not None and str(p["monster_marked"]) in self.hook_state.get("monster-marks", {}).get(m.uid, [])

    def _pred_item_destroyed(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                             opponent: str | None) -> bool:
        spec = p["item_destroyed"]
        if isinstance(spec, Mapping):
            # so many of a token destroyed (three Paint tokens in A Friend for the Ages)
            return self.destroyed.count(str(spec["item"])) >= self._amount(spec["count"])
        return str(spec) in self.destroyed

    def _pred_traitor_dead(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                           opponent: str | None) -> bool:
        """The traitor's explorer is dead (``true``), or alive (``false``); not merely out of the house."""
        traitor = self.traitor()
        return traitor is not None and self.ex[traitor].dead == bool(p["traitor_dead"])

    def _pred_item_in_room(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """The item is carried into, or lies in, one of the rooms."""
        spec = p["item_in_room"]
        rooms = set(self._rooms_for(spec["room"]))
        item = str(spec["item"])
        return any(self.holds(s, item) and self.ex[s].room in rooms for s in self.seat_ids if self.in_play(s)) \
            or any(item in self.piles.get(r, []) for r in rooms)

    def _pred_track_reaches(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                            opponent: str | None) -> bool:
        return self.track >= self._amount(p["track_reaches"])  # a number or an amount (a table)

    def _pred_tokens_collected(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                               opponent: str | None) -> bool:
        """Enough of the tokens earned, or (``in``) lying in the rooms named."""
        spec = p["tokens_collected"]
        need = self._amount(spec.get("count", 1))
        tokens = [spec["token"]] if "token" in spec else list(spec.get("tokens", []))
        if "in" in spec:
            rooms = set(self._rooms_for(spec["in"]))
            got = sum(1 for t in tokens for r in self.htokens.get(t, []) if r in rooms)
        else:
            got = sum(self.earned.get(t, 0) for t in tokens)
        return got >= need

    def _pred_alive(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        return seat is not None and self.in_play(seat) == bool(p["alive"])

    def _pred_killed_a_hero(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                            opponent: str | None) -> bool:
        return seat is not None and (seat in self.hero_killers) == bool(p["killed_a_hero"])

    def _pred_heroes_killed(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                            opponent: str | None) -> bool:
        """At least so many heroes killed by attacks won by the explorer in question or (``by:
        traitor``) by the haunt's traitor (United We Stand: absorb two heroes, then escape)."""
        spec = p["heroes_killed"]
        killer = self.traitor() if spec.get("by") == "traitor" else seat
        return killer is not None and self.hero_kills.get(killer, 0) >= self._amount(spec["at_least"])

    def _pred_the_traitor(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        traitor = self.haunt.get("traitor") if self.haunt is not None else None
        return seat is not None and (seat == traitor) == bool(p["the_traitor"])

    def _pred_holds_tokens(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                           opponent: str | None) -> bool:
        spec = p["holds_tokens"]
        kinds = {str(spec["token"])} if "token" in spec else {str(t) for t in spec["tokens"]}
        return seat is not None and sum(1 for t in self.held.get(seat, []) if t in kinds) >= self._amount(spec["count"])

    def _pred_holding(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        cards = p["holding"]
        cards = [cards] if isinstance(cards, str) else cards
        return seat is not None and all(self.holds(seat, c) for c in cards)

    def _pred_counterpart_fight(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                                opponent: str | None) -> bool:
        """A fight with the monster that is an explorer's counterpart: ``own`` (the explorer's
        own), else another's whose explorer is dead."""
        if m is None or seat is None or not m.counterpart:
            return False
        if p["counterpart_fight"] == "own":
            return m.counterpart == seat
        return m.counterpart != seat and self.ex[m.counterpart].dead

    def _pred_monster_away(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                           opponent: str | None) -> bool:
        """A monster of the kind is out of the house for now (``on_defeat: leaves-house``)."""
        return any(x.kind == p["monster_away"] and x.gone == "away" for x in self.mon)

    def _pred_attack_weapon(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                            opponent: str | None) -> bool:
        """The explorer's attack this turn is made with one of the named weapons."""
        cards = p["attack_weapon"]
        return any(f"attack-weapon:{c}" in self.turn.keys for c in ([cards] if isinstance(cards, str) else cards))

    def _pred_attack_trait(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                           opponent: str | None) -> bool:
        """In a fight being settled, the attack is made with one of the named traits (the Ring's
        Sanity attack)."""
        return getattr(self, "_trait", None) in p["attack_trait"]

    def _pred_fight_margin(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                           opponent: str | None) -> bool:
        """In a fight's outcomes: the winner won by at least ``at_least``."""
        return self.fight_margin >= int(p["fight_margin"]["at_least"])

    def _pred_sex(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """The explorer's sex, as the bios give it (Tomb of Dracula's Domination of the other sex)."""
        return seat is not None and self.t.explorers[self.ex[seat].id].sex == p["sex"]

    def _pred_hobby(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """The explorer's card lists a hobby naming the word ("Music" is also "Gaelic Music")."""
        word = str(p["hobby"]).lower()
        return seat is not None and any(word in h.lower().split() for h in self.t.explorers[self.ex[seat].id].hobbies)

    def _pred_traitor_alive(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                            opponent: str | None) -> bool:
        """The traitor's explorer is (``true``) or is no longer (``false``) in play."""
        traitor = self.traitor()
        return (traitor is not None and self.in_play(traitor)) == bool(p["traitor_alive"])

    def _pred_some_hero(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """Some living hero meets the predicate, judged about that hero (The Heir: the heir in
        the throne room holding the Spear and the Ring)."""
        return any(self.pred(p["some_hero"], s, m, opponent) for s in self.living_heroes())

    def _pred_some_explorer(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                            opponent: str | None) -> bool:
        """Some explorer in play, on either side, meets the predicate, judged about that explorer
        (``{not: {some_explorer: {not: ...}}}``: every explorer in play does)."""
        return any(self.pred(p["some_explorer"], s, m, opponent) for s in self.seat_ids if self.in_play(s))

    def _pred_in(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """The explorer (without one: the monster) is in one of the rooms; ``room_of: heroes``
        asks whether the monster shares a room with a living hero."""
        where = p["in"]
        room = m.room if m is not None and seat is None else self.ex[seat].room if seat else None
        if where.get("room_of") == "heroes" and m is not None:
            return any(self.ex[s].room == m.room for s in self.living_heroes())
        return room is not None and self.in_place(room, where)

    def _pred_on_side(self, p: Mapping[str, Any], seat: str | None, m: Monster | None, opponent: str | None) -> bool:
        """The explorer in question is on that side (``heroes`` or ``traitor``) in truth, a hidden
        traitor included: for outcomes the engine settles (an injection that kills a traitor),
        never for what a player is shown."""
        if seat is None or seat not in self.ex:
            return False
        return self.side.get(seat) == str(p["on_side"])

    def _pred_all_alive_with_status(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                                    opponent: str | None) -> bool:
        """Every explorer in play has the status (and at least one is in play)."""
        alive = [s for s in self.seat_ids if self.in_play(s)]
        return bool(alive) and all(p["all_alive_with_status"] in self.hstatus.get(s, []) for s in alive)

    def _pred_latest_convert(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                             opponent: str | None) -> bool:
        """The explorer in question is the one who joined the traitor's side most recently (a hidden
        traitor by a ``swap_tokens``, a hero by ``turn_traitor``); with ``false``, any other."""
        latest = seat is not None and bool(self.converts) and self.converts[-1] == seat
        return latest == bool(p["latest_convert"])

    def _pred_shares_room_with(self, p: Mapping[str, Any], seat: str | None, m: Monster | None,
                               opponent: str | None) -> bool:
        """The explorer in question, or another explorer in play in its room, meets the predicate
        (everyone in the room of the Shield's carrier is safe from the fire breath)."""
        if seat is None:
            return False
        room = self.ex[seat].room
        return any(self.pred(p["shares_room_with"], s, m, opponent) for s in self.seat_ids
                   if self.in_play(s) and self.ex[s].room == room)


#: :meth:`Predicates.pred`'s tests by predicate key, in the order they are tried: a predicate is
#: decided by the first of its keys in this list (other keys, like ``says``, are notes).
PREDICATE_ORDER: tuple[tuple[str, Callable[[Predicates, Mapping[str, Any], str | None, Monster | None, str | None],
                                           bool]], ...] = tuple(
    (key, getattr(Predicates, f"_pred_{key}")) for key in (
        "all", "any", "not", "opponent", "heroes_dead", "heroes_gone", "heroes_alive", "heroes_exited", "heroes_together_in", "exited",
        "all_heroes", "monsters_defeated", "none_alive_with_status", "has_status", "flag", "carried", "custom", "condition",
        "holds", "monster_in_room", "item_destroyed", "item_in_room", "track_reaches", "tokens_collected", "alive",
        "killed_a_hero", "the_traitor", "traitor_dead",
        "holds_tokens", "holding", "counterpart_fight", "in", "monster_away", "attack_weapon", "hobby", "traitor_dead", "traitor_alive",
        "monsters_in_house", "monster_marked", "attack_trait", "fight_margin", "sex", "heroes_killed",
        "shares_room_with", "some_hero", "some_explorer", "on_side", "all_alive_with_status", "latest_convert"))
#: Where each predicate key stands in :data:`PREDICATE_ORDER`.
PREDICATE_RANK: dict[str, int] = {key: i for i, (key, _) in enumerate(PREDICATE_ORDER)}


PredicateTest = Callable[[Predicates, Mapping[str, Any], str | None, Monster | None, str | None], bool]
#: A compiled predicate: called with the state, the explorer in question, the monster and the other
#: fighter, as :meth:`Predicates.pred` is.
Judge = Callable[[Predicates, str | None, Monster | None, str | None], bool]
#: id(predicate) -> (the predicate itself, its judge): each predicate of a haunt file is compiled
#: once, not looked up at every evaluation (win goals are judged after every step). The predicate
#: is kept with its judge and compared by identity, so a reused id never finds another's.
_JUDGES: dict[int, tuple[Mapping[str, Any], Judge]] = {}


def judge_of(p: Mapping[str, Any]) -> Judge:
    """Predicate ``p`` compiled (once per predicate object): its test found in
    :data:`PREDICATE_ORDER` and bound to it, and ``all`` / ``any`` / ``not`` made of their parts'
    judges, so that judging it again looks nothing up."""
    known = _JUDGES.get(id(p))
    if known is None or known[0] is not p:
        known = (p, _compile(p))
        if len(_JUDGES) > 4096:
            _JUDGES.clear()  # predicates built on the fly would otherwise pile up
        _JUDGES[id(p)] = known
    return known[1]


def _compile(p: Mapping[str, Any]) -> Judge:
    """The judge of ``p``: the same test as :meth:`Predicates.pred` would run."""
    test = _test_of(p)
    if test is Predicates._pred_all or test is Predicates._pred_any:
        parts = tuple(judge_of(x) for x in p["all" if test is Predicates._pred_all else "any"])
        if len(parts) == 2:  # the common case, without a generator: goals are judged after every step
            first, second = parts
            if test is Predicates._pred_all:
                return lambda st, seat, m, opponent: first(st, seat, m, opponent) and second(st, seat, m, opponent)
            return lambda st, seat, m, opponent: first(st, seat, m, opponent) or second(st, seat, m, opponent)
        if test is Predicates._pred_all:
            return lambda st, seat, m, opponent: all(j(st, seat, m, opponent) for j in parts)
        return lambda st, seat, m, opponent: any(j(st, seat, m, opponent) for j in parts)
    if test is Predicates._pred_not:
        inner = judge_of(p["not"])
        return lambda st, seat, m, opponent: not inner(st, seat, m, opponent)
    return lambda st, seat, m, opponent: test(st, p, seat, m, opponent)


def _test_of(p: Mapping[str, Any]) -> PredicateTest:
    """The test that decides predicate ``p``: its key earliest in :data:`PREDICATE_ORDER`."""
    rank = -1
    for key in p:
        r = PREDICATE_RANK.get(key, -1)
        if r >= 0 and (rank < 0 or r < rank):
            rank = r
    if rank < 0:
        raise NotImplementedError(f"haunt predicate {sorted(p)}")
    return PREDICATE_ORDER[rank][1]
