"""The application's root: the current screen, the home menu, and what lives beside a game.

`Companion.handle(input)` is all the outside world calls, and `view()` is all
it reads back. The game in progress is a `GameSession` (game, journal and
progress, journalled before any screen shows an action as done); the flows
that lead through it are small modules: `new_game`, `game_flow`, `game_menu`
and `settings_menu`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from companion.app.game_flow import GameFlow
from companion.app.new_game import NewGameFlow
from companion.app.session import GameSession
from companion.app.settings_menu import SettingsMenu
from companion.app.statistics import statistics_lines
from companion.app.widgets import Action, Entry, Menu, Notice, Pages, Screen
from companion.engine.game import Game
from companion.engine.setup import new_seed
from companion.inputs.events import Input
from companion.storage.history import History
from companion.storage.journal import HISTORY_DIRECTORY
from companion.storage.settings import SETTINGS_NAME, load_settings
from companion.views import ScreenKind, View


class Companion:
    """The application's state and its current screen."""

    def __init__(self, state_dir: Path, seeds: Callable[[], int] = new_seed) -> None:
        state_dir.mkdir(parents=True, exist_ok=True)
        self.seeds = seeds
        self.history = History(state_dir / HISTORY_DIRECTORY)
        self.settings_path = state_dir / SETTINGS_NAME
        self.settings, settings_notice = load_settings(self.settings_path)
        self.session = GameSession(state_dir)
        self.screen: Screen = Menu("", [])
        self.play = GameFlow(self)
        self.new_game = NewGameFlow(self)
        self.settings_menu = SettingsMenu(self)
        if self.session.progress.entering:
            self.new_game.resume_entering()
        elif self.session.game:
            self.play.resume()
        else:
            self.home()
        notices = [
            text
            for text in (self.session.load_notice, self.session.progress_notice, settings_notice)
            if text
        ]
        for notice in reversed(notices):
            self.screen = Notice("Note", (notice,), self.back_to(self.screen))

    @property
    def game(self) -> Game | None:
        """The game in progress, if any."""
        return self.session.game

    @property
    def last_finished(self) -> Game | None:
        """The game finished last since start-up, if any."""
        return self.session.last_finished

    # --- what the outside world uses -------------------------------------------------

    def handle(self, event: Input) -> None:
        self.screen.handle(event)

    def view(self) -> View:
        return self.screen.view()

    # --- what the flows use ------------------------------------------------------------

    def show(self, screen: Screen) -> None:
        self.screen = screen

    def back_to(self, screen: Screen) -> Action:
        return lambda: self.show(screen)

    def home(self) -> None:
        entries = []
        if self.session.game:
            entries.append(Entry("Resume game", self.play.resume))
        entries += [
            Entry("New solo game", lambda: self.new_game.confirm(self.new_game.solo)),
            Entry("New two-player game", lambda: self.new_game.confirm(self.new_game.two_player)),
            Entry("Statistics", self.statistics),
            Entry("Settings", self.settings_menu.show),
        ]
        self.show(Menu("Patchwork", entries, kind=ScreenKind.HOME))

    def statistics(self) -> None:
        self.show(Pages("Statistics", statistics_lines(self.history.statistics()), self.home))
