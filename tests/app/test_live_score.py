"""The live score on the turn screen comes from the engine (expectations worked out by hand
from docs/RULES.md §3 and §4)."""

import pytest
from helpers import solo_game, two_player_game

from companion.app.play import TurnScreen
from companion.engine.actions import ADVANCE, AUTOMA_TURN, Buy
from companion.render.screens import render_canvas
from companion.text.font import BUTTON
from companion.text.language import ENGLISH, words_for


def turn_texts(game) -> list[str]:
    screen = TurnScreen(game, lambda action: None, lambda: None, words_for(ENGLISH))
    return [record.text for record in render_canvas(screen.view()).texts]


# Card 7 (7 virtual buttons; most buttons first) with P24 (2 buttons), P28 (3 buttons)
# and P08 on offer: the Automa takes P28. Its score then, by level: own buttons (0),
# patches showing buttons (1), buttons shown on them (3), as the level counts them.
@pytest.mark.parametrize(
    ("difficulty", "automa"),
    [("intern", 0), ("apprentice", 0), ("fellow", 1), ("master", 3), ("legend", 4)],
)
def test_each_side_s_score_so_far_is_on_the_turn(difficulty, automa):
    game = solo_game("P24", "P28", "P08", cards=(7,), difficulty=difficulty)
    # At the start: 5 buttons, 81 empty squares: 5 - 2 x 81 = -157; the Automa 0.
    assert f"-157 pts, income 0{BUTTON}" in turn_texts(game)
    assert "0 pts" in turn_texts(game)  # the Automa's, named by its unit
    game.push(ADVANCE)  # 0 -> 1: one button, 6 in all: 6 - 162 = -156
    game.push(AUTOMA_TURN)  # takes P28, 0 -> 6 (card 7's income is 0)
    assert f"-156 pts, income 0{BUTTON}" in turn_texts(game)
    assert (f"{automa} pt" if automa == 1 else f"{automa} pts") in turn_texts(game)


def test_a_bought_patch_counts_its_squares_and_its_buttons_as_income():
    # Player 1 buys P17 (cost 3, time 6, 6 squares, 2 buttons): 0 -> 6 crosses mark 5,
    # which pays 2: 5 - 3 + 2 = 4 buttons, 75 empty: 4 - 150 = -146. Player 2 (5
    # buttons, empty quilt, -157) then moves, with income 0.
    game = two_player_game("P10", "P17", "P03")
    game.push(Buy(1))
    texts = turn_texts(game)
    assert f"-157 pts, income 0{BUTTON}" in texts
    # "-146 pts" beside "-157 pts, income 0●" leaves no room for the rule between
    # them (35 + 82 of 124 pixels, 9 needed): the other's score goes bare.
    assert "-146" in texts
    assert f"Player 1 4{BUTTON}" in "".join(texts)  # the name is drawn apart, lit or not
