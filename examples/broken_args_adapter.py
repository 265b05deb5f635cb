#!/usr/bin/env python3
"""The reference adapter with one event's arguments wrong, to show that `hauntcheck conform`
holds an engine to what its events say, not only to their rule ids:

    hauntcheck conform --engine "python examples/broken_args_adapter.py" --game betrayal

The engine plays the same game (every action, every decision point and every rule id is the
reference's), but its movement through doors (rule ``move.through-matching-doors``) reports the
room the explorer left as the room entered: the ``to`` argument repeats ``origin``. A version 1
transcript, whose events are compared by rule id only, cannot see the difference; the version 2
golden transcripts compare the arguments, and conform reports ``move.through-matching-doors``
at the first move through a door.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference_adapter import Adapter, serve

from hauntcheck.engine.betrayal.state import BetrayalState

RULE = "move.through-matching-doors"
_emit = BetrayalState.emit


def emit_with_the_wrong_room(self: BetrayalState, rule: str, text: str, **args: Any) -> None:
    """BetrayalState.emit, but a move through a door names the room left as the room entered."""
    if rule == RULE and "origin" in args:
        args["to"] = args["origin"]
    _emit(self, rule, text, **args)


if __name__ == "__main__":
    BetrayalState.emit = emit_with_the_wrong_room  # type: ignore[method-assign]
    serve(Adapter())
