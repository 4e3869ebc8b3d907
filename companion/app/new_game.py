"""Starting a new game: mode, difficulty and deck or start player, then the patch circle."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from companion.app.circle import PickPatchScreen
from companion.app.deal_code import DealCodeScreen
from companion.app.terms import deck_name, difficulty_name
from companion.app.widgets import Action, Entry, Menu, Notice, Question
from companion.app.wording import side_label
from companion.engine.automa import DIFFICULTIES, Deck, DifficultyLevel
from companion.engine.deal import Deal
from companion.engine.setup import Mode, SetupChoice, Side
from companion.text.language import msg
from companion.views import ScreenKind

if TYPE_CHECKING:
    from companion.app.game_flow import GameFlow
    from companion.app.host import Host
    from companion.app.session import GameSession


DEFAULT_LEVEL = 2
"""Fellow, the middle level, offered first while the last games suggest none."""


class NewGameFlow:
    """The menus from "New solo game" or "New two-player game" to the first screen of play."""

    def __init__(
        self,
        app: Host,
        session: GameSession,
        play: GameFlow,
        seeds: Callable[[], int],
        deal: Deal | None = None,
    ) -> None:
        """`play`: the flow a started game goes on in; `seeds`: where each dealt game's
        seed comes from; `deal`: the deal every new solo game is dealt (its seed and
        deck), instead of a deck chosen and a seed drawn."""
        self.app, self.session, self.play, self.seeds = app, session, play, seeds
        self.deal = deal

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

        words = self.app.words
        self.app.show(
            Question(
                words("New game"),
                (words("A game is in progress. Abandon it? It stays in the history."),),
                (
                    Entry(words("No, keep it"), self.app.home),
                    Entry(words("Yes, abandon"), abandon),
                ),
                on_back=self.app.home,
                kind=ScreenKind.ABANDON_GAME,
            )
        )

    def solo(self) -> None:
        words = self.app.words
        entries = [
            Entry(
                difficulty_name(level, words),
                partial(self._pick_deck, level),
                words("7x7 at {square}", square=level.bonus_mark),
            )
            for level in DIFFICULTIES
        ]
        entries.append(Entry(words("Back"), self.app.home))
        # Imported here, where a new game is chosen, as `Companion.statistics` imports
        # them: a resumed game's first frame needs none of the statistics.
        from companion.storage.statistics import suggested_level

        # The level the last games' verdicts suggest is offered first (docs/SOLO.md).
        suggested = suggested_level(self.session.store)
        note = ""
        if suggested is not None:
            note = words("Suggested: {difficulty}", difficulty=difficulty_name(suggested, words))
        self.app.show(
            Menu(
                words("Difficulty"),
                entries,
                on_back=self.app.home,
                note=note,
                selected=DIFFICULTIES.index(suggested) if suggested else DEFAULT_LEVEL,
                kind=ScreenKind.DIFFICULTY,
            )
        )

    def _pick_deck(self, difficulty: DifficultyLevel, selected: int = 0) -> None:
        if self.deal is not None:
            # A deal given to the command decides the deck and the circle.
            self._deal(SetupChoice(Mode.SOLO, difficulty, self.deal.deck), self.deal.seed)
            return
        words = self.app.words
        entries = [
            Entry(
                deck_name(deck, words),
                partial(self._pick_circle, SetupChoice(Mode.SOLO, difficulty, deck)),
            )
            for deck in Deck
        ]
        entries.append(Entry(words("Deal code"), partial(self._enter_code, difficulty)))
        entries.append(Entry(words("Back"), self.solo))
        title = words("Automa deck")
        menu = Menu(title, entries, on_back=self.solo, selected=selected, kind=ScreenKind.DECK)
        self.app.show(menu)

    def two_player(self) -> None:
        words = self.app.words
        entries = [
            Entry(
                words("{side} starts", side=side_label(side, words)),
                partial(self._pick_circle, SetupChoice(Mode.TWO_PLAYER, start=side)),
            )
            for side in (Side.P1, Side.P2)
        ]
        entries.append(Entry(words("Back"), self.app.home))
        title = words("Start player")
        self.app.show(Menu(title, entries, on_back=self.app.home, kind=ScreenKind.START_PLAYER))

    def _pick_circle(self, choice: SetupChoice) -> None:
        words = self.app.words
        entries = [
            Entry(words("Deal it for me"), lambda: self._deal(choice)),
            Entry(words("I laid it out"), lambda: self._enter(choice)),
            Entry(words("Back"), self.app.home),
        ]
        title = words("Patch circle")
        self.app.show(Menu(title, entries, on_back=self.app.home, kind=ScreenKind.CIRCLE))

    def _enter_code(self, difficulty: DifficultyLevel) -> None:
        words = self.app.words

        def dealt(deal: Deal) -> None:
            self._deal(SetupChoice(Mode.SOLO, difficulty, deal.deck), deal.seed)

        def wrong(screen: DealCodeScreen) -> None:
            text = words("This is not a deal code: a character is wrong. Check it and correct it.")
            self.app.show(Notice(words("Deal code"), (text,), lambda: self.app.show(screen), words))

        # Back to the deck menu with the cursor on "Deal code", the row after the decks.
        back = partial(self._pick_deck, difficulty, selected=len(Deck))
        self.app.show(DealCodeScreen(dealt, wrong, back, words))

    def _deal(self, choice: SetupChoice, seed: int | None = None) -> None:
        try:
            self.session.start_dealt(choice.setup(self.seeds() if seed is None else seed))
        except OSError as error:
            self.app.not_saved(msg("The new game"), error, self.app.home)
            return
        self.play.resume()

    def _enter(self, choice: SetupChoice) -> None:
        self.session.begin_entering(choice, self.seeds())
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
            self.play.continue_game()

        def cancel() -> None:
            self.session.cancel_entering()
            self.app.home()

        placed, words = self.session.placed, self.app.words
        self.app.show(PickPatchScreen(entering.placed, placed, done, cancel, words))
