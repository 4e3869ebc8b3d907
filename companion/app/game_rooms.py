"""What a game needs beside the menus: its session and the flows that lead through it.

`Companion.game_rooms` imports this module, and with it the engine, the session
and the game's screens, the first time a game is started, resumed or
looked for in the state directory. A fresh start's first frame is the home menu,
which needs none of them, so a fresh start does without them
(docs/ARCHITECTURE.md, beside the picture of the rooms).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.app.game_flow import GameFlow
from companion.app.new_game import NewGameFlow
from companion.app.session import GameSession
from companion.engine.setup import new_seed

if TYPE_CHECKING:
    from companion.app.host import Host
    from companion.engine.deal import Deal
    from companion.storage.store import Store


class GameRooms:
    """The game in progress (if any), read from the store, and the flows that start one
    and play it."""

    def __init__(
        self,
        app: Host,
        store: Store,
        seeds: Callable[[], int] | None,
        deal: Deal | None = None,
    ) -> None:
        """`seeds`: each dealt game's seed (None: a random one, `new_seed`); `deal`: the
        deal of every new solo game, if one is given."""
        self.session = GameSession(store)
        self.play = GameFlow(app, self.session)
        self.new_game = NewGameFlow(app, self.session, self.play, seeds or new_seed, deal)
