"""The application's root: the current screen, the home menu, and what lives beside a game.

`Companion.handle(input)` is all the outside world calls, and `view()` is all
it reads back. The game in progress is a `GameSession` (the game and where the
table stands, stored before any screen shows an action as done); the flows
that lead through it are small modules: `new_game`, `game_flow`, `game_menu`
and `settings_menu`. The game's (`GameRooms`) are loaded only once a game is
started, resumed or found in the state directory (`game_rooms`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from companion.app.settings_menu import SettingsMenu
from companion.app.widgets import Action, Entry, Menu, Notice, Pages, Screen
from companion.app.write_errors import error_advice, error_reason
from companion.inputs.events import Input
from companion.storage.settings import SETTINGS_NAME, load_settings
from companion.storage.store import Store
from companion.text.language import Words, msg, words_for
from companion.text.pages import page_lines, text_page_lines
from companion.text.typefaces import body_font
from companion.views import ScreenKind, TextView, View

if TYPE_CHECKING:
    from companion.app.game_flow import GameFlow
    from companion.app.game_rooms import GameRooms
    from companion.app.new_game import NewGameFlow
    from companion.app.session import GameSession
    from companion.engine.deal import Deal
    from companion.engine.game import Game

log = logging.getLogger(__name__)


class Companion:
    """The application's state and its current screen."""

    def __init__(
        self,
        state_dir: Path,
        seeds: Callable[[], int] | None = None,
        *,
        cannot_save: OSError | None = None,
        ask_language: bool = False,
        deal: Deal | None = None,
        store: Store | None = None,
    ) -> None:
        """`seeds`: each dealt game's seed (None: a random one, `new_seed`).
        `deal`: the deal of every new solo game (`simulate --deal`), if given.
        `cannot_save`: why the command found the card cannot be written (said first).
        `ask_language`: on the first start (no settings yet), begin by asking the
        player's language (the device does; tests that script from the home menu do
        not). `store`: the state directory's, opened by the command (else opened here)."""
        state_dir.mkdir(parents=True, exist_ok=True)
        self.seeds, self.deal = seeds, deal
        self.state_dir = state_dir
        self.settings_path = state_dir / SETTINGS_NAME
        self.settings, settings_notice = load_settings(self.settings_path)
        self.store = store or Store(state_dir)
        # No file (or a damaged one, now set aside): nobody has chosen a language here.
        first_start = not self.settings_path.exists()
        self._game_rooms: GameRooms | None = None
        self.screen: Screen = Menu("", [])
        self.settings_menu = SettingsMenu(self)
        saved = self.session if self.store.has_game() else None
        if saved is not None and saved.progress.entering:
            self.new_game.resume_entering()
        elif saved is not None and saved.game:
            self.play.resume()
        elif ask_language and first_start and cannot_save is None:
            # What the files held wrong (a damaged settings.json is why the language is
            # asked again) is told once the language is known, not in English before it.
            def home_then_notices() -> None:
                self.home()
                self._tell(self._start_notices(settings_notice))

            self.settings_menu.choose_language(home_then_notices)
            return
        elif ask_language and first_start:
            self.settings_menu.choose_language(self.home)
        else:
            self.home()
        notices = self._start_notices(settings_notice)
        if cannot_save is not None:
            # Said first: nothing after it, not even a language chosen, can be kept.
            why = error_reason(cannot_save, self.words)
            notices.insert(0, self.words("Nothing can be saved: {reason}.", reason=why))
        self._tell(notices)

    def _tell(self, notices: list[str]) -> None:
        """Show `notices`, one after the other, before the current screen."""
        for notice in reversed(notices):
            self.screen = Notice(
                self.words("Note"), (notice,), self.back_to(self.screen), self.words
            )

    def _start_notices(self, settings_notice: str | None) -> list[str]:
        """What the start found wrong in the files, in the player's words: what happened
        and what the device did. The storage's own lines, English with the problem in
        detail, are in the log, which stays English."""
        notices, words = [], self.words
        if self.store.left_damaged:
            notices.append(
                words(
                    "The saved game could be neither read nor set aside; "
                    "it is left on the card untouched."
                )
            )
        elif self.store.set_aside:
            notices.append(
                words(
                    "The saved game could not be read; it was kept as {file} "
                    "and a new game can start.",
                    file=self.store.set_aside.name,
                )
            )
        if self.store.earlier_build:
            notices.append(
                words(
                    "The files of an earlier version were set aside in {folder}.",
                    folder=self.store.earlier_build.name,
                )
            )
        if settings_notice:
            notices.append(words("The settings could not be read; the defaults are used."))
        return notices

    @property
    def words(self) -> Words:
        """The words of the language the player chose: every screen's text goes through it."""
        return words_for(self.settings.language)

    @property
    def game_rooms(self) -> GameRooms:
        """The game's session and flows, loaded on first use."""
        if self._game_rooms is None:
            # The one place the game's modules (the engine, the store's session, the game's flows
            # and screens) are imported: a fresh start's first frame, the home menu, needs
            # none of them, and a start has a budget (docs/PERFORMANCE.md).
            from companion.app.game_rooms import GameRooms

            self._game_rooms = GameRooms(self, self.store, self.seeds, self.deal)
        return self._game_rooms

    @property
    def session(self) -> GameSession:
        return self.game_rooms.session

    @property
    def play(self) -> GameFlow:
        return self.game_rooms.play

    @property
    def new_game(self) -> NewGameFlow:
        return self.game_rooms.new_game

    @property
    def game(self) -> Game | None:
        """The game in progress, if any (none before the game's rooms are loaded: they
        are at start-up whenever the state directory holds a game)."""
        return self._game_rooms.session.game if self._game_rooms else None

    @property
    def last_finished(self) -> Game | None:
        """The game finished last since start-up, if any."""
        return self._game_rooms.session.last_finished if self._game_rooms else None

    # --- what the outside world uses -------------------------------------------------

    def handle(self, event: Input) -> None:
        self.screen.handle(event)
        if self._game_rooms is not None:
            self._game_rooms.session.save()  # what the input changed, in one transaction

    def after_frame(self) -> None:
        """Housekeeping that may take fsyncs, once the input's frame is shown."""
        self.store.empty_the_log()

    def view(self) -> View:
        return self.screen.view()

    def saved_view(self) -> TextView:
        """What the device leaves on the panel when it stops, in the player's language:
        every confirmed action is already in the store."""
        words = self.words
        texts = (words("The game is saved."), words("See you next game."))
        lines = text_page_lines(texts, body_font(words.language))
        return TextView(words("Saved"), tuple(lines), 1, 1)

    # --- what the flows use ------------------------------------------------------------

    def show(self, screen: Screen) -> None:
        self.screen = screen

    def back_to(self, screen: Screen) -> Action:
        return lambda: self.show(screen)

    def home(self, on: str = "") -> None:
        """The home menu, its cursor on the entry whose key is `on` (the first if none):
        back from Statistics or Settings, one turn from where the player was, not from
        the top, where one turn too many lands on a new game."""
        words = self.words
        entries = []
        if self.game:
            entries.append((msg("Resume game"), self.play.resume))
        entries += [
            (msg("New solo game"), lambda: self.new_game.confirm(self.new_game.solo)),
            (
                msg("New two-player game"),
                lambda: self.new_game.confirm(self.new_game.two_player),
            ),
            (msg("Statistics"), self.statistics),
            (msg("Settings"), self.settings_menu.show),
        ]
        keys = [key for key, _ in entries]
        selected = keys.index(on) if on in keys else 0
        menu = [Entry(words(key), run) for key, run in entries]
        self.show(Menu(words("Patchwork"), menu, selected=selected, kind=ScreenKind.HOME))

    def statistics(self) -> None:
        # Imported here, where the statistics are entered: the first frame never needs
        # their reading and wording, and the device starts faster without them.
        from companion.app.statistics import statistics_lines
        from companion.storage.statistics import statistics  # as for the lines

        rows = page_lines(body_font(self.words.language))
        lines = statistics_lines(statistics(self.store), self.words, rows)
        back = partial(self.home, msg("Statistics"))
        self.show(Pages(self.words("Statistics"), lines, back, self.words))

    def not_saved(self, what: str, error: OSError, then: Action) -> None:
        """Say that `what` (a key marked with `msg`) was not saved and why; `then` when the
        player has read it.

        Nothing not saved is shown as done: the caller has left the game as the
        store has it. Pressing again after freeing space simply saves.
        """
        log.error("%s was not saved: %s", what, error)
        words = self.words
        text = words(
            "{what} was not saved: {reason}. {advice}",
            what=words(what),
            reason=error_reason(error, words),
            advice=error_advice(error, words),
        )
        self.show(Notice(words("Not saved"), (text,), then, words))
