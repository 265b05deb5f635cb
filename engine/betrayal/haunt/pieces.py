"""The plain data of the haunt phase: the two sides, a monster token, a weapon card, and the haunt
files and weapon cards of a spec read into them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hauntcheck.engine.betrayal.hauntspec import HauntSpec, load_haunt

DEFAULT_ROUNDS = 40
HERO, TRAITOR = "heroes", "traitor"


@dataclass(slots=True)
class Monster:
    """One monster token in the house."""

    uid: str  # "zombie-1"
    kind: str  # the monster id in the haunt file
    room: str
    stats: dict[str, int] = field(default_factory=dict)
    stunned: bool = False
    gone: str = ""  # "" while in play; else how it left: killed, trapped, banished
    damage: int = 0
    counterpart: str = ""  # the seat whose double this is (Evil Twins)
    cards: list[str] = field(default_factory=list)  # items and companions it carries
    part: int = 0  # side of a barrier room it stopped on (chosen by its controller)
    facing: int | None = None  # world side it faces (0 = north), for ``movement.straight_ahead`` only

    def out_of_play(self) -> bool:
        """Whether the monster has left play (``gone`` is set). Asked again after a step that may
        have removed it: a method, because a test of the attribute itself would be taken by mypy
        (and compiled code) as still holding what an earlier test of it found."""
        return bool(self.gone)


@dataclass(frozen=True, slots=True)
class Weapon:
    card: str
    trait: str
    defend: str
    bonus: int
    ranged: bool
    cap: int = 8


def whole_option(options: Mapping[str, Any], name: str) -> int | None:
    """A positive whole-number option, or None when it is not given."""
    value = options.get(name)
    if value in (None, "", False):
        return None
    try:
        number = int(str(value))
    except ValueError:
        raise ValueError(f"option {name} must be a whole number, got {value!r}") from None
    if number < 1:
        raise ValueError(f"option {name} must be at least 1, got {value!r}")
    return number


def load_haunts(spec: Any) -> dict[int, tuple[HauntSpec, Mapping[str, Any]]]:
    """Every haunt file of the spec by number: the typed record and the raw data."""
    out: dict[int, tuple[HauntSpec, Mapping[str, Any]]] = {}
    for file in spec.by_kind("haunt"):
        record = load_haunt(file.data)
        out[record.number] = (record, file.data)
    return out


def load_weapons(spec: Any) -> dict[str, Weapon]:
    """The weapon cards (items and omens with a ``weapon`` entry) by card id."""
    out: dict[str, Weapon] = {}
    for kind in ("items", "omens"):
        for file in spec.by_kind(kind):
            for card in file.data["cards"]:
                w = card.get("weapon")
                if not isinstance(w, Mapping):
                    continue
                trait = str(w.get("attack_trait", "might"))
                out[str(card["id"])] = Weapon(
                    card=str(card["id"]), trait=trait, defend=str(w.get("defend_trait", trait)),
                    bonus=int(w.get("bonus_dice", 0)), ranged=bool(w.get("ranged", False)),
                    cap=int(w.get("max_dice", 8)),
                )
    return out
