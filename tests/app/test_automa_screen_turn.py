"""The Automa's turn: one turn of the knob shows the whole of why it chose.

The first screen is what to do at the table, then the card's filters as far as they
go; the rest of why (how many patches it could pay for, the card as printed) must be
at most one turn away, in every language, even when a leather patch adds a step."""

from __future__ import annotations

import pytest
from helpers import place, solo_game

from companion.app.play import AutomaScreen
from companion.app.wording import automa_summary
from companion.engine.actions import AUTOMA_TURN
from companion.inputs.events import Input
from companion.render.screens import render_canvas
from companion.testing.screen_examples import EXAMPLES
from companion.text.language import LANGUAGE_NAMES, words_for


def automa_screen(language: str) -> AutomaScreen:
    # Card 5 (5 virtual buttons: no overtake, most buttons, farthest). P14 (cost 3, time
    # 2, 1 button), P10 (2, 2, none), P12 (2, 3, 1); the Automa on 18 behind the player
    # on 30: no overtake keeps all three, most buttons P14 and P12, farthest P12, which
    # takes it 18 -> 21 over the leather patch on 20.
    game = solo_game("P14", "P10", "P12", cards=(5,))
    place(game, "automa", 18)
    place(game, "player", 30)
    summary = automa_summary(game.push(AUTOMA_TURN), words_for(language))
    assert len(summary.steps) == 3 and len(summary.filters) == 3
    board = EXAMPLES["automa_take"].board
    return AutomaScreen(board, summary, on_done=lambda: None, open_menu=lambda: None)


def drawn(screen: AutomaScreen) -> list[str]:
    canvas = render_canvas(screen.view())
    assert canvas.overflows == []
    return [record.text for record in canvas.texts]


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_one_turn_shows_the_filters_the_reason_and_the_card(language):
    screen = automa_screen(language)
    summary = screen.summary
    # Korean's six rows name the leather patch at the end of the token's line.
    steps = summary.compact_steps if language == "ko" else summary.steps
    assert set(steps) <= set(drawn(screen))
    screen.handle(Input.NEXT)
    shown = drawn(screen)
    for line in (*summary.filters, summary.reason, summary.card):
        assert line in shown, f"{line!r} is not one turn away: {shown}"
    # Turning back is one turn too: the steps again.
    screen.handle(Input.PREVIOUS)
    assert summary.headline in drawn(screen)
