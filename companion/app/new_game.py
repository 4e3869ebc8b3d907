"""Starting a new game: mode, difficulty and deck or start player, then the patch circle."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from companion.app.circle import PickPatchScreen
from companion.app.widgets import Action, Entry, Menu, Question
from companion.engine.automa import DIFFICULTIES, Deck
from companion.engine.setup import Mode, SetupChoice, Side
from companion.text.language import msg
from companion.views import ScreenKind

if TYPE_CHECKING:
    from companion.app.companion import Companion


class NewGameFlow:
    """The menus from "New solo game" or "New two-player game" to the first screen of play."""

    def __init__(self, app: Companion) -> None:
        self.app = app
        self.session = app.session

    def confirm(self, start: Action) -> None:
        """Go on to `start`, after asking whether to abandon a game in progress."""
        if not self.session.game:
            start()
            return

        def abandon() -> None:
            try:
                self.session.abandon()
            except OSError as error:
                self.app.not_saved(msg("Abandoning the game"), error, self.app.home)
                return
            start()

        self.app.show(
            Question(
                "New game",
                ("A game is in progress.", "Abandon it? It stays", "in the history."),
                (Entry("No, keep it", self.app.home), Entry("Yes, abandon", abandon)),
                on_back=self.app.home,
                kind=ScreenKind.ABANDON_GAME,
            )
        )

    def solo(self) -> None:
        entries = [
            Entry(
                level.name.capitalize(),
                partial(self._pick_deck, level.name),
                f"7x7 at {level.bonus_mark}",
            )
            for level in DIFFICULTIES
        ]
        entries.append(Entry("Back", self.app.home))
        self.app.show(
            Menu(
                "Difficulty",
                entries,
                on_back=self.app.home,
                selected=2,
                kind=ScreenKind.DIFFICULTY,
            )
        )

    def _pick_deck(self, difficulty: str) -> None:
        entries = [
            Entry(
                deck.value.capitalize(),
                partial(self._pick_circle, SetupChoice(Mode.SOLO, difficulty, deck)),
            )
            for deck in Deck
        ]
        entries.append(Entry("Back", self.solo))
        self.app.show(Menu("Automa deck", entries, on_back=self.solo, kind=ScreenKind.DECK))

    def two_player(self) -> None:
        entries = [
            Entry(
                f"{side.upper()} starts",
                partial(self._pick_circle, SetupChoice(Mode.TWO_PLAYER, start=side)),
            )
            for side in (Side.P1, Side.P2)
        ]
        entries.append(Entry("Back", self.app.home))
        self.app.show(
            Menu("Start player", entries, on_back=self.app.home, kind=ScreenKind.START_PLAYER)
        )

    def _pick_circle(self, choice: SetupChoice) -> None:
        entries = [
            Entry("Deal it for me", lambda: self._deal(choice)),
            Entry("I laid it out", lambda: self._enter(choice)),
            Entry("Back", self.app.home),
        ]
        self.app.show(Menu("Patch circle", entries, on_back=self.app.home, kind=ScreenKind.CIRCLE))

    def _deal(self, choice: SetupChoice) -> None:
        try:
            self.session.start_dealt(choice.setup(self.app.seeds()))
        except OSError as error:
            self.app.not_saved(msg("The new game"), error, self.app.home)
            return
        self.app.play.resume()

    def _enter(self, choice: SetupChoice) -> None:
        self.session.begin_entering(choice, self.app.seeds())
        self.resume_entering()

    def resume_entering(self) -> None:
        """The circle being entered, where the player left it."""
        entering = self.session.progress.entering
        assert entering is not None

        def done(circle: tuple[str, ...]) -> None:
            try:
                self.session.start_entered(circle)
            except OSError as error:
                self.app.not_saved(msg("The new game"), error, self.resume_entering)
                return
            self.app.play.continue_game()

        def cancel() -> None:
            self.session.cancel_entering()
            self.app.home()

        self.app.show(PickPatchScreen(entering.placed, self.session.placed, done, cancel))
