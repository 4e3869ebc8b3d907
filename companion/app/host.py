"""What the flows need of the application that shows their screens.

`Companion` is the host; the flows (`new_game`, `game_flow`, `game_menu`,
`settings_menu`) know it only through `Host`, so none of them imports it back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from companion.app.widgets import Action, Screen
from companion.storage.settings import Settings
from companion.text.language import Words


class Host(Protocol):
    settings: Settings
    settings_path: Path

    @property
    def words(self) -> Words:
        """The words of the language the player chose."""
        ...

    def show(self, screen: Screen) -> None: ...

    def home(self, on: str = "") -> None:
        """The home menu, its cursor on the entry whose key is `on` (the first if none)."""
        ...

    def not_saved(self, what: str, error: OSError, then: Action) -> None:
        """Say that `what` (a key marked with `msg`) was not saved and why; `then` after."""
        ...
