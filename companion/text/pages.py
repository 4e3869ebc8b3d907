"""Text cut into pages that fit the screen's text page, for notices, rules and statistics.

The application pages long texts itself (turning the encoder turns the page),
so it must know how the renderer's text page measures text: both use this
module, and `tests/render/test_screens.py` checks the renderer's text page
holds exactly `TEXT_PAGE_LINES` lines of `TEXT_PAGE_WIDTH` pixels.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.text.font import SMALL, wrap

TEXT_PAGE_LINES = 6
"""Lines of the small font between the title bar and the footer hint."""
TEXT_PAGE_WIDTH = 124
"""The 128-pixel screen less a 2-pixel margin each side."""


def text_page_lines(texts: Sequence[str]) -> list[str]:
    """`texts` wrapped to a text page's width, long words broken: one string per line.

    The application cuts these into pages of `TEXT_PAGE_LINES`, so a message
    of any length is shown whole.
    """
    return [line for text in texts for line in wrap(SMALL, text, TEXT_PAGE_WIDTH, break_words=True)]
