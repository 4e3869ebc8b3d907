"""The calibration command and its reference players (docs/SOLO.md, "Calibration")."""

from __future__ import annotations

import re
from pathlib import Path

from helpers import circle_starting_with

from companion.engine.actions import ADVANCE, Buy
from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.game import Game
from companion.engine.setup import solo_setup
from companion.testing.calibration import PLAYERS, calibrate, greedy_player, table

SOLO_DOC = Path(__file__).parent.parent / "docs" / "SOLO.md"


def test_the_command_reproduces_the_documented_table():
    documented = re.search(
        r"<!-- calibration table: .*? -->\n(.*?)\n<!-- end of the calibration table -->",
        SOLO_DOC.read_text(),
        re.DOTALL,
    )
    assert documented is not None
    assert table(calibrate(), tuple(PLAYERS)) == documented[1]


def greedy_choice(*offer: str, position: int = 0, buttons: int = 5):
    game = Game(
        solo_setup(
            DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=1, circle=circle_starting_with(*offer)
        )
    )
    game.sides["player"].position, game.sides["player"].buttons = position, buttons
    game.sides["automa"].position = position + 1  # the player behind: its turn
    assert game.turn == "player"
    return greedy_player(game, rng=None)


def test_the_greedy_player_buys_the_best_worth_per_square_of_time():
    # On 0 with 5 buttons; 9 income marks ahead. P01 0/3/1,6: (12 + 9 − 0) / 3 = 7.
    # P07 2/1/0,6: (12 + 0 − 2) / 1 = 10. P25 7/1/1 costs more than 5. -> P07.
    assert greedy_choice("P01", "P07", "P25") == Buy(1)
    # On 48 (one mark ahead, 53): P08 2/2/0,3: (6 − 2) / 2 = 2; P04 1/3/0,3: 5/3.
    # P08, worth 2, beats advancing (1 a square).
    assert greedy_choice("P04", "P08", "P30", position=48) == Buy(1)


def test_the_greedy_player_advances_when_no_patch_beats_a_button_a_square():
    # P28 7/6/3,4 on 47 (one mark ahead): (8 + 3 − 7) / 6 = 2/3; P31 and P32 cost 10.
    assert greedy_choice("P28", "P31", "P32", position=47, buttons=8) == ADVANCE
