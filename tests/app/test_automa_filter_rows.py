"""The Automa's turn in Russian: each filter of the card on one row, even the last.

With a leather patch the steps take a row more, and the third filter is the screen's
last row, beside ▼: a filter that wrapped there needed a turn of the knob to read."""

from __future__ import annotations

from companion.app.terms import FILTER_NAMES
from companion.app.wording import FILTER_EFFECTS
from companion.render.canvas import WIDTH
from companion.render.layout import GAP
from companion.text.font import ARROW_DOWN, SMALL
from companion.text.language import words_for

LAST_ROW = WIDTH - GAP - (SMALL.text_width(ARROW_DOWN) + GAP)
"""A filter's room on the last row: indented, and clear of ▼ (`draw_automa`)."""


def test_every_russian_filter_row_fits_the_last_row():
    words = words_for("ru")
    # Counts of each plural form, up to the 33 patches of the circle.
    for name in FILTER_NAMES.values():
        for effect in FILTER_EFFECTS.values():
            for count in (1, 2, 5, 12, 21, 22, 33):
                row = words.counted(*effect, count=count, filter=words(name))
                assert SMALL.text_width(row) <= LAST_ROW, row
