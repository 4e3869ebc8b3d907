"""Text cut into pages that fit the screen's text page, for notices, rules and statistics.

The application pages long texts itself (turning the encoder turns the page),
so it must know how the renderer's text page measures text: both use this
module, and `tests/render/test_screens.py` checks the renderer's text page
holds exactly `TEXT_PAGE_LINES` lines of `TEXT_PAGE_WIDTH` pixels.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.text.font import SMALL, Font, wrap

TEXT_PAGE_LINES = 6
"""Lines of the small font between the title bar and the footer hint."""
TEXT_PAGE_WIDTH = 124
"""The 128-pixel screen less a 2-pixel margin each side."""
KOREAN_PAGE_LINES = 3
"""Lines of Korean between its taller title bar and footer hint, 12 pixels apart."""


def page_lines(font: Font) -> int:
    """How many lines of `font` a text page holds."""
    return TEXT_PAGE_LINES if font is SMALL else KOREAN_PAGE_LINES


def page_pitch(font: Font) -> int:
    """Top to top of a text page's lines: a menu's row for the small font; for Korean
    one blank row between lines, not a menu's 16 (a page is rewritten whole when
    turned, so keeping to the panel's pages buys nothing, and it holds 3 lines, not 2)."""
    return font.line_height if font is SMALL else font.height + 1


def text_page_lines(texts: Sequence[str], font: Font = SMALL) -> list[str]:
    """`texts` wrapped to a text page's width, long words broken: one string per line.

    The application cuts these into pages of `page_lines(font)`, so a message
    of any length is shown whole.
    """
    return [line for text in texts for line in wrap(font, text, TEXT_PAGE_WIDTH, break_words=True)]
