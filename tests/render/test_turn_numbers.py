"""The numbers of the turn screen say what they are and keep every digit whole.

Each token's square, right of the track, follows a copy of that token level with it
(the first side's solid ▼ above the line, the second's hollow ▲ below it), so a player
reads "▼19" as the square of the ▼ on the track. And a two-player turn keeps every digit
of its header, squares and scores whole from no buttons to three-digit counts, in
every language.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from PIL import Image, ImageDraw

from companion.app.wording import header_label, short_header_label
from companion.engine.catalogue import FINAL_POSITION
from companion.engine.setup import Side
from companion.render.canvas import HEIGHT, WIDTH
from companion.render.screens import render_canvas
from companion.render.screens_game import TRACK_BOX
from companion.render.track import TrackLayout
from companion.testing.screen_examples import EXAMPLES
from companion.text.font import SMALL
from companion.text.language import LANGUAGE_NAMES, words_for
from companion.views import TurnView

TRACK = TrackLayout(TRACK_BOX, pitch=2)
UPPER_TOKEN_ROWS = range(TRACK_BOX.y, TRACK_BOX.y + 3)
"""The track's ▼: its first three rows."""
LOWER_TOKEN_ROWS = range(TRACK_BOX.bottom - 3, TRACK_BOX.bottom)
"""The track's ▲: its last three rows."""


def at(turn: TurnView, first: int, second: int) -> TurnView:
    sides = (
        dataclasses.replace(turn.board.sides[0], position=first),
        dataclasses.replace(turn.board.sides[1], position=second),
    )
    return dataclasses.replace(turn, board=dataclasses.replace(turn.board, sides=sides))


def lit_pixels(image: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, int]]:
    left, top, right, bottom = box
    return {
        (x, y)
        for x in range(max(0, left), min(WIDTH, right))
        for y in range(max(0, top), min(HEIGHT, bottom))
        if image.getpixel((x, y))
    }


def shape(pixels: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """`pixels` moved to start at (0, 0): a shape wherever it is drawn."""
    left, top = min(x for x, _ in pixels), min(y for _, y in pixels)
    return {(x - left, y - top) for x, y in pixels}


def touching(image: Image.Image, pixels: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """Lit pixels outside `pixels` that touch one of them, side or corner."""
    around = {
        (x + dx, y + dy)
        for x, y in pixels
        for dx, dy in itertools.product((-1, 0, 1), repeat=2)
        if 0 <= x + dx < WIDTH and 0 <= y + dy < HEIGHT
    }
    return {pixel for pixel in around - pixels if image.getpixel(pixel)}


POSITIONS = [(19, 21), (0, 0), (5, 53), (53, 9), (53, 53), (52, 51), (45, 52), (9, 10)]


@pytest.mark.parametrize(("first", "second"), POSITIONS)
def test_each_square_number_follows_a_copy_of_its_token(first, second):
    # In its token's rows, the one thing between the track's last square and each
    # number is that token's shape: a copy of it, or the token itself on square 53.
    turn = at(EXAMPLES["turn_two_player"], first, second)
    canvas = render_canvas(turn)
    assert canvas.overflows == []
    image = canvas.image
    numbers = [r for r in canvas.texts if r.box.x >= TRACK_BOX.right and r.text.isdigit()]
    upper, lower = sorted(numbers, key=lambda record: record.box.y)
    assert (upper.text, lower.text) == (str(first), str(second))
    last_square = TRACK.x_of(FINAL_POSITION) - 2
    for number, position, rows in (
        (upper, first, UPPER_TOKEN_ROWS),
        (lower, second, LOWER_TOKEN_ROWS),
    ):
        token_box = (TRACK.x_of(position) - 2, rows[0], TRACK.x_of(position) + 3, rows[-1] + 1)
        token = lit_pixels(image, token_box)
        digits = lit_pixels(image, (number.box.x, number.box.y, WIDTH, number.box.bottom))
        first_digit = min(x for x, _ in digits)
        start = last_square if position == FINAL_POSITION else TRACK_BOX.right
        mark = lit_pixels(image, (start, rows[0], first_digit, rows[-1] + 1))
        assert mark and shape(mark) == shape(token), (number.text, sorted(shape(mark)))
        # A dark column before the digits; nothing touching the copy or the token.
        assert first_digit - max(x for x, _ in mark) >= 2
        assert touching(image, mark) == set(), number.text


def ink_intact(image: Image.Image, record) -> bool:
    """Whether `record`'s glyphs are in the image as drawn, lit or dark in a lit box."""
    alone = Image.new("1", image.size, 0)
    SMALL.draw(ImageDraw.Draw(alone), (record.box.x, record.box.y), record.text, fill=1)
    box = alone.getbbox()
    if box is None:
        return True
    here, drawn = image.crop(box).tobytes(), alone.crop(box)
    inverse = Image.eval(drawn.convert("L"), lambda value: 255 - value).convert("1")
    return here in (drawn.tobytes(), inverse.tobytes())


BUTTON_COUNTS = (0, 9, 10, 15, 99, 100, 150)


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_a_two_player_turn_keeps_every_digit_whole(language):
    # Buttons from none to three digits on either side, the tile on either, either to
    # move, scores from -162 with a two-digit income: every text whole, none drawn over.
    words = words_for(language)
    turn = at(EXAMPLES["turn_two_player"], 45, 53)
    names = {
        side: dataclasses.replace(
            turn.board.sides[index],
            label=header_label(side, words),
            short_label=short_header_label(side, words),
        )
        for index, side in enumerate((Side.P1, Side.P2))
    }
    scores = [words.counted("{points} pt", "{points} pts", count=162, points=-162)] * 2
    income = ("{points} pt, income {income}{button}", "{points} pts, income {income}{button}")
    for buttons, tile, mover in itertools.product(
        itertools.product(BUTTON_COUNTS, repeat=2), (0, 1), (0, 1)
    ):
        sides = tuple(
            dataclasses.replace(side, buttons=count, holds_bonus=tile == index)
            for index, (side, count) in enumerate(zip(names.values(), buttons, strict=True))
        )
        named = list(scores)
        named[mover] = words.counted(*income, count=162, points=-162, income=20)
        bare = [str(-162)] * 2
        bare[mover] = named[mover]
        board = dataclasses.replace(turn.board, sides=sides, mover=mover)
        view = dataclasses.replace(turn, board=board, scores=tuple(named), scores_bare=tuple(bare))
        canvas = render_canvas(view)
        assert canvas.overflows == [], (buttons, tile, mover)
        for record in canvas.texts:
            if record.box.height == SMALL.height:  # Hangul's rows are the Korean font's
                assert ink_intact(canvas.image, record), (record.text, buttons, tile, mover)
