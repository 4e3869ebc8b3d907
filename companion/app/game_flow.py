"""Playing a game: the turn, the steps for the table, the Automa, the 7×7 question, the end.

Every screen here is chosen from the `GameSession`'s state, so a restart at any
moment comes back to the same screen (`resume`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.app.circle import DealScreen
from companion.app.game_menu import GameMenu
from companion.app.play import (
    AutomaScreen,
    EndScreen,
    StepsScreen,
    TurnScreen,
    board_view,
    offer_before,
    scores_view,
)
from companion.app.verdict_pages import VerdictPages, verdict_rows
from companion.app.widgets import Entry, Question, Screen
from companion.app.wording import (
    automa_summary,
    bonus_question_lines,
    player_cards,
)
from companion.engine.actions import AUTOMA_TURN, Action, Adjust, AutomaTurn, ClaimBonus, Step
from companion.engine.deal import deal_of
from companion.engine.game import BonusQuestion
from companion.engine.setup import Side
from companion.engine.verdicts import verdicts
from companion.text.language import msg
from companion.views import ScreenKind

if TYPE_CHECKING:
    from companion.app.host import Host
    from companion.app.session import GameSession
    from companion.engine.undo_steps import UndoPlan


class GameFlow:
    """From the circle laid out to the result saved in the history."""

    def __init__(self, app: Host, session: GameSession) -> None:
        self.app, self.session = app, session
        self.menu = GameMenu(app, self)

    def resume(self) -> None:
        """Back to the screen the game was on: dealing, unconfirmed steps, or the turn."""
        if self.session.progress.dealing is not None:
            self._show_dealing()
        elif unacknowledged := self.session.unacknowledged():
            self._show_steps(*unacknowledged)
        elif undone := self.session.unconfirmed_undo():
            self._show_undo(undone)
        else:
            self.continue_game()

    def _show_dealing(self) -> None:
        def done() -> None:
            self.session.deal_at(None)
            self.continue_game()

        setup = self.session.current.setup
        index = self.session.progress.dealing or 0
        deal = deal_of(setup)
        code = deal.code if deal else ""
        self.app.show(
            DealScreen(setup.circle, index, self.session.deal_at, done, self.app.words, code)
        )

    def continue_game(self) -> None:
        """The next screen once the table has done everything asked."""
        game = self.session.current
        if game.is_over:
            self.app.show(EndScreen(game, self._show_verdicts, self.menu.show, self.app.words))
        elif question := self.session.bonus_reminder_due():
            self._ask_bonus(question)
        elif game.turn == Side.AUTOMA:
            self.play(AUTOMA_TURN)
        else:
            again = self._plays_again()
            self.app.show(TurnScreen(game, self.play, self.menu.show, self.app.words, again=again))

    def play(self, action: Action) -> None:
        """Play `action`; its steps show once the store holds it."""
        try:
            self._show_steps(*self.session.play(action))
        except OSError as error:
            self._not_saved(error)

    def claim_bonus(self, side: Side, answers: tuple[str, ...] = ()) -> None:
        try:
            self._show_steps(*self.session.claim_bonus(side, answers))
        except OSError as error:
            self._not_saved(error)

    def _not_saved(self, error: OSError) -> None:
        self.app.not_saved(msg("The action"), error, self.continue_game)

    def _show_steps(self, action: Action, steps: tuple[Step, ...]) -> None:
        """The steps under the board. A player's keep the offer they chose from (as the
        turn showed it), the Automa's show the offer it leaves."""
        game, words = self.session.current, self.app.words
        screen: Screen
        if isinstance(action, AutomaTurn):
            board = board_view(game, Side.AUTOMA, words)
            summary = automa_summary(steps, words)
            screen = AutomaScreen(board, summary, self._acknowledge, self.menu.show)
        else:
            acting = action.side if isinstance(action, Adjust | ClaimBonus) else game.last_mover
            board = board_view(game, acting, words, offer_before(game))
            cards = player_cards(steps, words)
            scores = scores_view(game, acting, words)
            screen = StepsScreen(board, cards, self._acknowledge, self.menu.show, scores)
        self.app.show(screen)

    def _plays_again(self) -> bool:
        """The side to move made the last move too (it is still behind, or on top)."""
        game = self.session.current
        return game.last_mover == game.turn

    def _acknowledge(self) -> None:
        self.session.acknowledge()
        self.continue_game()

    def _ask_bonus(self, question: BonusQuestion) -> None:
        def not_yet() -> None:
            self.session.bonus_asked(*question.answers)
            self.continue_game()

        def claim() -> None:
            self.claim_bonus(question.side, question.answers)

        words = self.app.words
        self.app.show(
            Question(
                words("7x7 bonus"),
                bonus_question_lines(question, words),
                (Entry(words("Not yet"), not_yet), Entry(words("Yes, claim it"), claim)),
                kind=ScreenKind.BONUS_QUESTION,
            )
        )

    def _show_verdicts(self) -> None:
        """A solo game's end against every level (docs/SOLO.md), then the result saved."""
        game, words = self.session.current, self.app.words
        judged = verdicts(game)
        if judged is None:
            self._finish()
            return
        assert game.setup.difficulty is not None
        deal = deal_of(game.setup)
        code = words("Deal {code}", code=deal.code) if deal else ""
        rows = verdict_rows(judged, game.setup.difficulty, words)
        self.app.show(VerdictPages(rows, code, self._finish, words))

    def _finish(self) -> None:
        words = self.app.words
        entries = [
            Entry(words("Save and finish"), self._save_finished),
            Entry(words("Undo last action"), lambda: self.menu.confirm_undo(self._finish)),
        ]
        if claimants := self.session.current.bonus_claimants():
            # The tile is still free: whoever completed a 7×7 may take it now.
            entries.insert(1, self.menu.claim_entry(claimants))
        self.app.show(
            Question(
                words("Game over"),
                (words("Save the result to the history?"),),
                tuple(entries),
                on_back=self.continue_game,
                kind=ScreenKind.GAME_OVER,
            )
        )

    def _save_finished(self) -> None:
        try:
            self.session.finish()
        except OSError as error:
            self.app.not_saved(msg("The finished game"), error, self.continue_game)
            return
        self.app.home()

    def undo(self) -> None:
        """Take back the last action of a person, with any Automa turns after it; the
        reverse steps of those the table had confirmed show under the board as it is
        now, card by card."""
        try:
            plan = self.session.undo()
        except OSError as error:
            self.app.not_saved(msg("The undo"), error, self.continue_game)
            return
        if plan is None:  # only steps the table had not confirmed: nothing to put back
            self.continue_game()
        else:
            self._show_undo(plan)

    def _show_undo(self, plan: UndoPlan) -> None:
        """The reverse steps under the board as the undo left it, card by card."""
        # Imported on the first undo: the start-up never needs its wording or steps.
        from companion.app.undo_wording import undo_cards

        game = self.session.current
        board = board_view(game, game.turn, self.app.words)
        cards = undo_cards(plan, self.app.words)
        scores = scores_view(game, game.turn, self.app.words)
        self.app.show(StepsScreen(board, cards, self._undo_confirmed, self.menu.show, scores))

    def _undo_confirmed(self) -> None:
        self.session.undo_confirmed()
        self.continue_game()
