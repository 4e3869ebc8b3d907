"""Entering a deal code with the encoder: turn to the character, press to keep it.

The code's 28 characters wrap around, and the cursor stays where the last one
was kept, so any character is at most 14 turns away. Back takes the last
character off (or leaves, with none). The eighth character checks the code.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.app.widgets import BACKWARD, Action, Cursor, Screen
from companion.engine.deal import ALPHABET, CODE_CHARACTERS, GROUP, Deal, DealCodeError, parse_deal
from companion.inputs.events import Input
from companion.text.language import Words
from companion.views import NumberView, View

PLACEHOLDER = "_"
"""A character still to enter."""


class DealCodeScreen(Screen):
    """The code so far above the character under the cursor."""

    def __init__(
        self,
        on_done: Callable[[Deal], None],
        on_wrong: Callable[[DealCodeScreen], None],
        on_back: Action,
        words: Words,
    ) -> None:
        """`on_wrong(screen)`: the code entered is not one; `screen` is this one, its last
        character taken off, to show again once the player has read why."""
        self.on_done, self.on_wrong, self.on_back, self.words = on_done, on_wrong, on_back, words
        self.entered = ""
        self.cursor = Cursor(len(ALPHABET))

    def view(self) -> View:
        words = self.words
        shown = self.entered.ljust(CODE_CHARACTERS, PLACEHOLDER)
        hint = words("press: keep  back: erase") if self.entered else words("press: keep")
        return NumberView(
            words("Deal code"),
            f"{shown[:GROUP]}-{shown[GROUP:]}",
            ALPHABET[self.cursor.index],
            hint,
        )

    def handle(self, event: Input) -> None:
        if self.cursor.move(event):
            return
        if event is Input.SELECT:
            self.entered += ALPHABET[self.cursor.index]
            if len(self.entered) == CODE_CHARACTERS:
                self._check()
        elif event in BACKWARD:
            if self.entered:
                self.entered = self.entered[:-1]
            else:
                self.on_back()

    def _check(self) -> None:
        try:
            deal = parse_deal(self.entered)
        except DealCodeError:
            self.entered = self.entered[:-1]
            self.on_wrong(self)
            return
        self.on_done(deal)
