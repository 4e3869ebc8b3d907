"""The in-game menu: back to the game, claim the 7×7, correct buttons, undo, rules, home."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Protocol

from companion.app.rules_text import rules_reminder
from companion.app.widgets import Action, Entry, Menu, NumberPicker, Pages, Question
from companion.app.wording import about_side, side_label
from companion.engine.actions import Adjust
from companion.engine.setup import Side
from companion.text.language import msg
from companion.views import ScreenKind

if TYPE_CHECKING:
    from companion.app.host import Host
    from companion.app.session import GameSession
    from companion.engine.actions import Action as GameAction

CORRECTION_LIMIT = 30
"""The most buttons a correction can give at once."""


class Play(Protocol):
    """What the menu does to the game it was opened from (`GameFlow`)."""

    session: GameSession

    def resume(self) -> None: ...

    def play(self, action: GameAction) -> None: ...

    def claim_bonus(self, side: Side) -> None: ...

    def undo(self) -> None: ...


class GameMenu:
    def __init__(self, app: Host, flow: Play) -> None:
        self.app, self.flow, self.session = app, flow, flow.session

    def show(self) -> None:
        game, words = self.session.current, self.app.words
        entries = [Entry(words("Back to the game"), self.flow.resume)]
        # A claim or a correction opened on a card would be confirmed with the cards still
        # due, losing them (a leather patch never told). Both wait for the turn screen, one
        # press away; the engine asks for the 7×7 before any move that could take it.
        cards_due = self.session.cards_due()
        if not cards_due and (claimants := game.bonus_claimants()):
            entries.append(self.claim_entry(claimants))
        if not game.is_over and not cards_due:
            sides = list(game.sides)
            entries.append(
                Entry(
                    words("Correct buttons"),
                    lambda: self._choose_side(words("Whose buttons?"), sides, self._correct),
                )
            )
        if self.session.can_undo():
            entries.append(Entry(words("Undo last action"), lambda: self.confirm_undo(self.show)))
        entries += [
            Entry(words("Rules reminder"), self._rules),
            Entry(words("Home"), self.app.home),
        ]
        self.app.show(
            Menu(words("Game menu"), entries, on_back=self.flow.resume, kind=ScreenKind.GAME_MENU)
        )

    def claim_entry(self, claimants: tuple[Side, ...]) -> Entry:
        words = self.app.words
        return Entry(
            words("Claim 7x7 bonus"),
            lambda: self._choose_side(words("Who claims?"), list(claimants), self.flow.claim_bonus),
        )

    def _choose_side(self, title: str, sides: list[Side], then: Callable[[Side], None]) -> None:
        if len(sides) == 1:
            then(sides[0])
            return
        words = self.app.words
        entries = [Entry(side_label(side, words), partial(then, side)) for side in sides]
        entries.append(Entry(words("Back"), self.show))
        self.app.show(Menu(title, entries, on_back=self.show))

    def _correct(self, side: Side) -> None:
        """The count starts unchanged (0): a press there, or back, cancels."""
        buttons, words = self.session.current.sides[side].buttons, self.app.words

        def correct(delta: int) -> None:
            if delta:
                self.flow.play(Adjust(side, delta))
            else:
                self.show()

        self.app.show(
            NumberPicker(
                words("Correct buttons"),
                about_side(
                    words,
                    side,
                    msg("You have {buttons}{button}"),
                    msg("Automa has {buttons}{button}"),
                    msg("{side} has {buttons}{button}"),
                    buttons=buttons,
                ),
                0,
                range(-buttons, CORRECTION_LIMIT + 1),
                lambda delta: f"{delta:+d} = {buttons + delta}" if delta else words("no change"),
                correct,
                self.show,
                words,
                hint=lambda delta: (
                    words("press: correct  0: cancel") if delta else words("press: cancel")
                ),
            )
        )

    def confirm_undo(self, back: Action) -> None:
        """Name what the undo takes back; `back` is where "No" returns to."""
        # Imported on the first undo: the start-up never needs its wording or steps.
        from companion.app.undo_wording import undo_prompt_lines

        plan = self.session.undo_plan()
        assert plan is not None, "undo offered with nothing to undo"
        words = self.app.words
        self.app.show(
            Question(
                words("Undo"),
                undo_prompt_lines(plan, words),
                (Entry(words("No"), back), Entry(words("Yes, undo"), self.flow.undo)),
                on_back=back,
                kind=ScreenKind.CONFIRM_UNDO,
            )
        )

    def _rules(self) -> None:
        words = self.app.words
        self.app.show(Pages(words("Rules"), rules_reminder(words), self.show, words))
