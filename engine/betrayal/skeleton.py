"""``hauntcheck new-haunt NAME``: a commented haunt file to start a designer's haunt from. It lints
clean and plays to a result as written (two Ghouls against the heroes); the comments say what to
change and where the vocabulary is described (``docs/haunt-format.md``, ``docs/write-a-haunt.md``)."""

from __future__ import annotations

import re

TEMPLATE = """\
# {title}: a haunt for Betrayal at House on the Hill, written for hauntcheck.
#
#   hauntcheck lint {file}
#       checks it: schema, references, solver checks, and whether the engine can play it
#   hauntcheck play betrayal --players 4 --seed 1 --haunt-file {file}
#       plays it (--from-reveal prints it from the reveal on; --svg end.svg draws the last position)
#
# Everything below is data in the haunt vocabulary (docs/haunt-format.md); docs/write-a-haunt.md
# walks through it. As written, two Ghouls hunt the heroes: change it into your haunt.
spec_version: 1
kind: haunt
game: betrayal
# number: a draft may leave it out (it plays as haunt 0) or use a number above 50;
# 1-50 are the book's haunts.
title: {title}
slug: {slug}
# traitor, hidden-traitor or none (then leave out traitor_side)
haunt_kind: traitor
# who becomes the traitor: haunt-revealer, left-of-revealer, {{rule: highest, trait: might}}, ...
traitor: {{rule: haunt-revealer}}
says: The traitor wakes the Ghouls of the house; the heroes must destroy them.
# Your own sources: every `cite` names one of them (the book's haunts cite spec/sources.yaml).
sources:
  - {{id: design-notes, title: Design notes for {title}}}
cite: {{source: design-notes, section: First draft}}
tokens:
  - {{id: ghoul-token, component: small-monster-tokens, colour: green, represents: a Ghoul}}
monsters:
  - id: ghoul
    name: Ghoul
    token: ghoul-token
    controlled_by: traitor
    stats: {{speed: 3, might: 4, sanity: 3, knowledge: 2}}
    # it rolls its Speed and heads for the nearest hero
    movement: {{roll: speed, toward: nearest-hero}}
    must:
      - id: ghoul-attacks
        who: {{monster: ghoul}}
        when: monster-turn
        do: [{{monster_attack: {{else: controller-chooses}}}}]
        says: A Ghoul that shares a room with a hero attacks one.
    says: Ghouls hunt the nearest hero and fight with Might.
    cite: {{source: design-notes, section: Ghouls}}
traitor_side:
  knows: The heroes want to destroy every Ghoul.
  # the "Right Now" steps, in order
  setup:
    - place: {{monster: ghoul, count: 2, in: {{haunt_room: true}}}}
      says: Two Ghouls appear in the haunt's room.
  wins:
    - id: heroes-dead
      when: {{heroes_dead: all}}
      says: Every hero is dead.
heroes_side:
  knows: The traitor wants every hero dead.
  wins:
    - id: ghouls-destroyed
      when: {{monsters_defeated: {{monster: ghoul, count: all}}}}
      says: Every Ghoul is destroyed.
# Rules the vocabulary cannot say are named hooks: {{custom: <id>}} where the rule applies, the
# id declared here (hooks:), and its code in engine/betrayal/hooks/ (docs/haunt-phase.md).
"""


def slug_of(name: str) -> str:
    """The id form of a haunt's name: lower case words joined by hyphens."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not slug or not slug[0].isalpha():
        raise ValueError(f"a haunt's name starts with a letter, got {name!r}")
    return slug


def skeleton(name: str, file: str) -> str:
    """The commented haunt file for a haunt called ``name`` (written to ``file``)."""
    title = " ".join(name.split())
    if ":" in title or "#" in title or '"' in title:
        raise ValueError(f"a haunt's name here is plain words (no ':', '#' or quotes), got {name!r}")
    return TEMPLATE.format(title=title, slug=slug_of(title), file=file)
