"""Haunt 17, A Breath of Wind: the Poltergeist may re-form in an omen room at the start of its turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hauntcheck.engine.betrayal.haunt.pieces import Monster
from hauntcheck.engine.betrayal.haunt.registry import hook
from hauntcheck.engine.betrayal.state import Gen
from hauntcheck.engine.core import Action

if TYPE_CHECKING:
    from hauntcheck.engine.betrayal.haunt.state import HauntState

#: The track after re-forming, and in the one room that gives more.
RE_FORMED_TRACK = 3
JUNK_ROOM, JUNK_ROOM_TRACK = "junk-room", 4


@hook.turn("poltergeist-re-form")
def poltergeist_re_form(st: HauntState, m: Monster) -> Gen[bool]:
    """Haunt 17, the Poltergeist's movement hook ``poltergeist-re-form``: at the start of each
    monster turn its controller may re-form it in any room with an omen symbol. It drops every
    item it carries where it is, the Turn/Damage track is set to 3 (4 in the Junk Room), and it
    appears in the chosen omen room; then it moves and attacks as usual (the hook returns False)."""
    rooms = [r for r in sorted(st.house.spots) if st.t.rooms[r].symbol == "omen"]
    if not rooms:
        return False
    acts = [Action.of("monster-stay", monster=m.uid)]
    acts += [Action.of("monster-re-form", monster=m.uid, to=r,
                       track=JUNK_ROOM_TRACK if r == JUNK_ROOM else RE_FORMED_TRACK) for r in rooms]
    a = yield from st.ask(st.monster_controller(m), acts, f"re-form {st.mname(m)} in an omen room?")
    if a.kind != "monster-re-form":
        return False
    if m.cards:
        st.piles.setdefault(m.room, []).extend(m.cards)
        st.emit("haunt.rules-override", f"{st.mname(m)} re-forms and drops "
                f"{', '.join(st.card_name(c) for c in m.cards)} in {st.room_name(m.room)}", monster=m.uid, cards=list(m.cards), room=m.room)
        m.cards = []
    src, m.room = m.room, str(a["to"])
    st.track = int(str(a["track"]))
    st.emit("haunt.rules-override", f"{st.mname(m)} re-forms: {st.room_name(src)} -> {st.room_name(m.room)}; "
            f"the Turn/Damage track is set to {st.track}", monster=m.uid, origin=src, room=m.room, track=st.track)
    return False
