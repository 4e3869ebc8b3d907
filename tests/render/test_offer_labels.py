"""The offer's three labels under the patches: each whole, in a cell of its own.

Every patch of the game, in each of the three places, beside the widest labels there
are (the patches that cost 10: "10●5⌛+3●", 41 pixels), each of the three lit, in the
Latin turn (labels on page 6) and the Korean one (page 5).
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from PIL import Image, ImageDraw

from companion.engine.catalogue import PATCHES
from companion.render.canvas import WIDTH
from companion.render.screens import render_canvas
from companion.testing.screen_examples import EXAMPLES
from companion.text.font import BUTTON, SMALL, TIME
from companion.text.language import words_for
from companion.views import PatchView, TurnLine, TurnView

DEAREST = [patch.id for patch in PATCHES if patch.cost == 10]
LATIN_ROW = 48
"""The label row's top in Latin letters: the offer's three pages start on page 3."""
KOREAN_ROW = 40
"""In Korean the labels are on page 5, the Hangul line below them."""


def expected_label(patch_id: str) -> str:
    """Cost, time and the buttons with their plus, as the tile prints them."""
    patch = next(patch for patch in PATCHES if patch.id == patch_id)
    buttons = f"+{patch.buttons}{BUTTON}" if patch.buttons else ""
    return f"{patch.cost}{BUTTON}{patch.time}{TIME}{buttons}"


def korean(turn: TurnView) -> TurnView:
    """The same turn with its lines in Korean: the screen takes the Korean layout."""
    menu = words_for("ko")("Menu")
    return dataclasses.replace(turn, lines=(TurnLine("press", menu),) * len(turn.lines))


def ink_columns(text: str, x: int) -> tuple[int, int]:
    """The first and last lit column of `text` drawn alone from column `x`."""
    alone = Image.new("1", (WIDTH + 64, SMALL.height), 0)
    SMALL.draw(ImageDraw.Draw(alone), (x + 32, 0), text, fill=1)
    box = alone.getbbox()
    assert box is not None
    return box[0] - 32, box[2] - 1 - 32


def column_lit(image: Image.Image, x: int, top: int) -> list[bool]:
    if not 0 <= x < WIDTH:
        return [False] * 8  # off the display: dark
    return [image.getpixel((x, y)) > 0 for y in range(top, top + 8)]


def offers() -> list[tuple[str, str, str]]:
    """Each patch in each place, the other two places taken by the dearest patches."""
    found = []
    for patch in PATCHES:
        for place in range(3):
            others = [other for other in DEAREST if other != patch.id][:2]
            offer = [*others]
            offer.insert(place, patch.id)
            found.append(tuple(offer))
    return found


def check_labels(view: TurnView, top: int) -> None:
    canvas = render_canvas(view)
    assert canvas.overflows == []
    image = canvas.image
    records = sorted(
        (record for record in canvas.texts if top <= record.box.y < top + 8),
        key=lambda record: record.box.x,
    )
    offer = [shown.patch_id for shown in view.board.offer]
    # Each label whole: its plus too.
    assert [record.text for record in records] == [expected_label(p) for p in offer]
    inks = [ink_columns(record.text, record.box.x) for record in records]
    under = top + 7  # below the figures: only lit boxes and rules
    for index, (record, (first, last)) in enumerate(zip(records, inks, strict=True)):
        lit = index == view.selected
        # A lit column round the lit label's figures (its box's edge in view), a dark
        # one round an unlit label's.
        for x in (first - 1, last + 1):
            assert column_lit(image, x, top) == [lit] * 8, (offer, view.selected, index, x)
        # Nothing but the label in its own columns: no neighbour's box or rule over it.
        x, y = record.box.x, record.box.y
        alone = Image.new("1", image.size, 0)
        SMALL.draw(ImageDraw.Draw(alone), (x, y), record.text, fill=1)
        for column in range(first, last + 1):
            for row in range(top, top + 8):
                expected = (alone.getpixel((column, row)) > 0) != lit
                assert (image.getpixel((column, row)) > 0) == expected, (offer, column, row)
    # Between two unlit labels a rule stands alone, a dark column either side.
    for index, ((_, left_last), (right_first, _)) in enumerate(itertools.pairwise(inks)):
        if view.selected in (index, index + 1):
            continue
        between = [image.getpixel((x, under)) > 0 for x in range(left_last + 1, right_first)]
        assert between.count(True) == 1, (offer, index, between)
        assert not between[0] and not between[-1], (offer, index, between)


@pytest.mark.parametrize("lettering", ["latin", "korean"])
def test_every_label_of_the_offer_fits_its_own_cell(lettering):
    turn = EXAMPLES["turn_solo"]
    top = LATIN_ROW if lettering == "latin" else KOREAN_ROW
    for offer in offers():
        board = dataclasses.replace(turn.board, offer=tuple(PatchView(p) for p in offer))
        for selected in range(3):
            view = dataclasses.replace(turn, board=board, selected=selected)
            check_labels(korean(view) if lettering == "korean" else view, top)


def test_the_dearest_three_together_each_whole_and_apart():
    # The three patches that cost 10 side by side: 123 pixels of labels in 128.
    turn = EXAMPLES["turn_solo"]
    for offer in itertools.permutations(DEAREST):
        board = dataclasses.replace(turn.board, offer=tuple(PatchView(p) for p in offer))
        for selected in range(3):
            view = dataclasses.replace(turn, board=board, selected=selected)
            check_labels(view, LATIN_ROW)
            check_labels(korean(view), KOREAN_ROW)
