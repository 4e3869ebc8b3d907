"""The tactical deck's next card on every screen that shows the board, in every language.

The rules: the backs of the tactical cards show their virtual buttons, so the player
always knows the Automa's next buttons, and the companion, which holds the deck, must
show that number whenever the tactical deck is in use. Every screen of a seeded solo
game with the tactical deck that draws the board (the turn, the step cards, the
Automa's card, before and after a turn of the knob) must draw it."""

from __future__ import annotations

import dataclasses

import pytest

from companion.app.wording import ORDINALS, header_label, short_header_label
from companion.engine.setup import Side
from companion.render.screens import render_canvas
from companion.testing.language_examples import play_solo_game
from companion.testing.screen_examples import EXAMPLES
from companion.text.language import LANGUAGE_NAMES, words_for
from companion.views import AutomaView, BoardView, SideView, View


def next_card_missing(view: View, board: BoardView) -> str | None:
    """What is drawn on `view` when neither wording of the next card is, else None."""
    drawn = [record.text for record in render_canvas(view).texts]
    # The header draws a side's name apart from its buttons and the next card after them.
    wanted = [text for text in (board.next_card, board.next_card_short) if text]
    if not any(next_card in text for text in drawn for next_card in wanted):
        return f"{type(view).__name__} without {board.next_card!r}: {drawn}"
    return None


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_every_board_screen_of_a_tactical_game_shows_the_next_card(language):
    missing: list[str] = []
    checked: set[str] = set()

    def check(view: View) -> None:
        board = getattr(view, "board", None)
        if not isinstance(board, BoardView) or not board.next_card:
            return
        views = [view]
        if isinstance(view, AutomaView):
            # Every screen the knob turns to: the steps, the filters on, the last line.
            views += [
                dataclasses.replace(view, first_row=first)
                for first in range(view.actions, len(view.lines))
            ]
        for shown in views:
            checked.add(type(shown).__name__)
            if problem := next_card_missing(shown, board):
                missing.append(problem)

    play_solo_game(language, check)
    assert checked >= {"TurnView", "StepView", "AutomaView"}
    assert missing == []


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
@pytest.mark.parametrize("ordinal", ORDINALS)
def test_the_widest_headline_keeps_the_next_card_beside_it(language, ordinal):
    # Cards 23 and 24 have the most virtual buttons (10), and so does the next card.
    words = words_for(language)
    headline = words(
        "Card {number}, {virtual}{button}: takes {patch} ({ordinal})",
        number=24,
        virtual=10,
        patch="P32",
        ordinal=words(ordinal),
    )
    board = dataclasses.replace(
        EXAMPLES["automa_take"].board,
        next_card=words("[board] next {virtual}{button}", virtual=10),
        next_card_short=words("[board short] {to}{virtual}{button}", virtual=10),
    )
    view = AutomaView(board, (headline, words("Pile with {button}; neutral there")), actions=2)
    canvas = render_canvas(view)
    assert canvas.overflows == []
    assert next_card_missing(view, board) is None
    assert headline in [record.text for record in canvas.texts]


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
@pytest.mark.parametrize("holder", [Side.PLAYER, Side.AUTOMA, None])
@pytest.mark.parametrize("buttons", [(10, 10), (99, 45), (45, 99), (99, 99)])
def test_two_digit_buttons_keep_the_automa_s_name_beside_the_next_card(language, holder, buttons):
    """With the tactical deck, the 7x7 tile held and two-digit buttons on both sides (the
    Automa's reach 45 at most: the cards' income at 9 marks), the header still names
    the Automa in full, on the turn and on the Automa's card."""
    words = words_for(language)
    sides = tuple(
        SideView(
            header_label(name, words),
            count,
            0,
            holds_bonus=name == holder,
            short_label=short_header_label(name, words),
        )
        for name, count in zip((Side.PLAYER, Side.AUTOMA), buttons, strict=True)
    )
    board = dataclasses.replace(
        EXAMPLES["turn_tactical"].board,
        sides=sides,
        next_card=words("[board] next {virtual}{button}", virtual=10),
        next_card_short=words("[board short] {to}{virtual}{button}", virtual=10),
    )
    automa = dataclasses.replace(EXAMPLES["automa_take"], board=board)
    for view in (dataclasses.replace(EXAMPLES["turn_tactical"], board=board), automa):
        if language == "ko" and view is automa:
            view = dataclasses.replace(view, first_row=view.actions)  # the header's screen
        canvas = render_canvas(view)
        assert canvas.overflows == []
        drawn = [record.text for record in canvas.texts]
        assert header_label(Side.AUTOMA, words) in drawn, drawn
        assert next_card_missing(view, board) is None
