#!/usr/bin/env python3
"""hauntcheck's own engine behind the conformance protocol (docs/conformance-protocol.md).

A reference for implementers: it reads one JSON request per line on stdin and writes one JSON
answer per line on stdout, and is what `hauntcheck conform` is tested against:

    hauntcheck conform --engine "python examples/reference_adapter.py"

Another engine (a web app, a digital edition, an engine in another language) answers the same
requests from its own game state.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from hauntcheck.engine.core import Action, ActionList, GameState, IllegalAction
from hauntcheck.engine.games import game_spec, get_game
from hauntcheck.engine.scenario import chance_weights

PROTOCOL = 1
#: Actions are listed in answers to "legal" only up to this many (a shuffle has too many orders).
LIST_LIMIT = 10_000


class Adapter:
    """The games this process holds, by id, and one method per request."""

    def __init__(self) -> None:
        self.games: dict[str, GameState] = {}
        self.made = 0

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        method = getattr(self, f"op_{op}", None) if isinstance(op, str) else None
        if method is None:
            return {"error": f"unknown op {op!r}"}
        answer: dict[str, Any] = method(request)
        return answer

    def keep(self, state: GameState) -> dict[str, Any]:
        self.made += 1
        handle = f"g{self.made}"
        self.games[handle] = state
        return {"id": handle}

    def state(self, request: dict[str, Any]) -> GameState:
        return self.games[request["id"]]

    # -- requests ----------------------------------------------------------------------------

    def op_hello(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"protocol": PROTOCOL, "engine": "hauntcheck reference adapter"}

    def op_new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        definition = get_game(request["game"])
        spec = game_spec(definition.id)
        players, options = int(request["players"]), dict(request.get("options", {}))
        if "position" in request:
            if definition.position is None:
                return {"error": f"{definition.id} cannot start from a position"}
            return self.keep(definition.position(spec, players, options, request["position"]))
        return self.keep(self.new_game(definition.id, players, options))

    def new_game(self, game: str, players: int, options: dict[str, Any]) -> GameState:
        definition = get_game(game)
        return definition.new_game(game_spec(definition.id), players, options)

    def op_state(self, request: dict[str, Any]) -> dict[str, Any]:
        state = self.state(request)
        actor = state.to_move()
        outcome = state.outcome()
        answer: dict[str, Any] = {"to_move": actor, "outcome": None if outcome is None else outcome.to_data(),
                                   "roster": state.roster()}
        if actor is not None:
            legal = state.legal_actions()
            answer["offered"] = legal.size()
            answer["describe"] = legal.describe()
        return answer

    def op_legal(self, request: dict[str, Any]) -> dict[str, Any]:
        legal = self.state(request).legal_actions()
        if not isinstance(legal, ActionList) and legal.size() > LIST_LIMIT:
            return {"actions": None, "offered": legal.size()}
        return {"actions": [a.to_data() for a in legal], "offered": legal.size()}

    def op_chance(self, request: dict[str, Any]) -> dict[str, Any]:
        weights = chance_weights(self.state(request).legal_actions())
        if weights is None:
            return {"outcomes": None}
        return {"outcomes": [{"action": a.to_data(), "weight": str(w)} for a, w in weights]}

    def op_is_legal(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"legal": Action.from_data(request["action"]) in self.state(request).legal_actions()}

    def op_apply(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            events = self.state(request).apply(Action.from_data(request["action"]))
        except IllegalAction as exc:
            return {"illegal": exc.reason, "rule": exc.rule}
        return {"events": [{**e.to_data(), "text": e.text} for e in events]}

    def op_reached(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"reached": self.state(request).reached(request["milestone"])}

    def op_snapshot(self, request: dict[str, Any]) -> dict[str, Any]:
        return {"snapshot": self.state(request).snapshot()}

    def op_clone(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.keep(self.state(request).clone())

    def op_drop(self, request: dict[str, Any]) -> dict[str, Any]:
        self.games.pop(request["id"], None)
        return {}

    def op_quit(self, request: dict[str, Any]) -> dict[str, Any]:
        return {}


def serve(adapter: Adapter) -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        request: Any = {}
        try:
            request = json.loads(line)
            answer = adapter.handle(request)
        except Exception as exc:  # an engine error is an answer, so the driver can report it
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(answer, separators=(",", ":"), default=list) + "\n")
        sys.stdout.flush()
        if isinstance(request, dict) and request.get("op") == "quit":
            return


if __name__ == "__main__":
    serve(Adapter())
