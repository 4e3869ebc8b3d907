"""The game state as one JSON line, for a serial pad's STATE, kept by the application thread."""

from __future__ import annotations

import json

from companion.app.companion import Companion


class StateSnapshot:
    """The game state as one JSON line, renewed by the application thread after each input.

    The serial pad's thread reads it for STATE without touching the game itself.
    """

    def __init__(self, app: Companion) -> None:
        self.app = app
        self.line = "null"

    def renew(self) -> None:
        game = self.app.game or self.app.last_finished
        if game is None:
            self.line = "null"
            return
        # Imported with the game, not at start-up: see `Companion.game_rooms`.
        from companion.engine.summary import state_dict

        self.line = json.dumps(state_dict(game))

    def __call__(self) -> str:
        return self.line
