"""Pieces every screen is built from: the title bar, rows of text, wrapping around figures.

The display is an 8-pixel grid of text rows (`LINE`): a title bar fills the
first row, the body starts one pixel below it (`BODY_TOP`) so a highlighted
line never merges with the bar, and a hint sits on the last row
(`BOTTOM_ROW`). Whatever does not fit is drawn as far as it goes and reported
on the canvas: screens never raise for long text.

Korean is drawn on 16-pixel rows (`HANGUL`, two of the panel's pages a row)
under a 13-pixel title bar, its body starting on the third page. A screen takes
its `Lettering` from its view's own texts (`lettering_of`): still a pure
function of the view.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from companion.render.canvas import HEIGHT, WIDTH, Align, Box, Canvas, aligned_x
from companion.text.font import SMALL, Font, wrap
from companion.text.hangul import KOREAN
from companion.text.typefaces import font_for

LINE = SMALL.line_height
"""One text row: 7 pixels of glyph and 1 of leading."""
TITLE_BAR = Box(0, 0, WIDTH, LINE)
BODY_TOP = TITLE_BAR.bottom + 1
BOTTOM_ROW = HEIGHT - SMALL.height
"""The top of a hint line that ends on the display's last row."""
GAP = 4
"""Pixels kept between two pieces of text on one line."""
PAD = 2
"""Left and right margin of text inside a bar."""
MIN_RULE = 4
"""The shortest rule worth drawing beside a hint."""
TILE_NAME = "7x7"
"""The 7×7 tile's name, the same in every language: in a turn's header beside the buttons
of the side that holds it, and in the verdicts' header as the key to its mark (`TILE`)."""


@dataclass(frozen=True, slots=True)
class Lettering:
    """A body font and the rows a screen lays it out on."""

    font: Font
    title_height: int
    body_top: int
    """The first body row's top: under the title bar, with a gap so a lit row never
    merges with the bar."""

    @property
    def line(self) -> int:
        """One text row, top to top."""
        return self.font.line_height

    @property
    def title_bar(self) -> Box:
        return Box(0, 0, WIDTH, self.title_height)

    @property
    def bottom_row(self) -> int:
        """The top of a hint line that ends on the display's last row."""
        return HEIGHT - self.font.height


LATIN = Lettering(SMALL, title_height=LINE, body_top=BODY_TOP)
"""English, Polish, Czech, Russian: 8-pixel rows."""
HANGUL = Lettering(KOREAN, title_height=KOREAN.height + 2, body_top=KOREAN.line_height)
"""Korean: 16-pixel rows; a 13-pixel title bar (a row of margin round the Hangul),
the body from the third page on, so a lit row stands three rows clear of the bar."""


def lettering_of(view: object) -> Lettering:
    """`HANGUL` if some text of `view` (a views dataclass, however nested) needs it."""
    return HANGUL if font_for(_texts(view)) is KOREAN else LATIN


def _texts(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _texts(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _texts(getattr(value, field.name))


def title_bar(canvas: Canvas, title: str, right: str = "", *, lettering: Lettering = LATIN) -> None:
    """An inverted bar across the top with `title` at the left and `right` at the right."""
    bar, font = lettering.title_bar, lettering.font
    canvas.fill(bar)
    inner = bar.inset(PAD, 0)
    room = inner
    if right:
        width = font.text_width(right)
        canvas.text_in_box(
            Box(inner.right - width, inner.y, width, inner.height), right, font=font, fill=0
        )
        room = Box(inner.x, inner.y, inner.width - width - GAP, inner.height)
    canvas.text_in_box(room, title, font=font, fill=0)


def text_line(
    canvas: Canvas, box: Box, text: str, *, align: Align = "left", font: Font = SMALL
) -> None:
    """One line of text in a row `box` (a row tall: the text's top on the box's top)."""
    x = aligned_x(box, font.text_width(text), align)
    canvas.text((x, box.y), text, font=font, max_width=box.right - x)


def left_right(
    canvas: Canvas, box: Box, left: str, right: str, *, fill: int = 1, font: Font = SMALL
) -> None:
    """`left` at the left of `box` and `right` at its right; `left` is cut (and reported)."""
    width = font.text_width(right)
    if right:
        right_box = Box(box.right - width, box.y, width, box.height)
        canvas.text_in_box(right_box, right, font=font, fill=fill)
        room = Box(box.x, box.y, box.width - width - GAP, box.height)
    else:
        room = box
    canvas.text_in_box(room, left, font=font, fill=fill)


def hint(canvas: Canvas, text: str, *, lettering: Lettering = LATIN) -> None:
    """A hint on the last row ("press: done"), centred between two short rules.

    The rules set it apart from body text that may end just above it.
    """
    if not text:
        return
    font, top = lettering.font, lettering.bottom_row
    text_line(canvas, Box(0, top, WIDTH, font.height), text, align="center", font=font)
    side = (WIDTH - font.text_width(text)) // 2 - GAP
    if side >= MIN_RULE:
        y = top + font.cap_height // 2
        canvas.hline(y, 0, side - 1)
        canvas.hline(y, WIDTH - side, WIDTH - 1)


class Row(NamedTuple):
    """One wrapped line of text and where it may go."""

    text: str
    x: int
    width: int


def flow(
    paragraphs: Sequence[str],
    room: Callable[[int], tuple[int, int]],
    *,
    indent: int = 0,
    whole: bool = False,
    lookahead: int = 8,
    font: Font = SMALL,
) -> list[Row]:
    """Wrap `paragraphs` onto rows whose (x, width) is `room(row_index)`.

    Rows can be narrower beside a figure and wider below it; each paragraph
    starts a new row and its continuation rows are indented by `indent`. A word
    wider than its row stays whole, so drawing it reports the overflow.

    With `whole`, a paragraph that would be split in a narrow row but fits one
    wider row further down (within `lookahead` rows) moves there, leaving the
    narrow rows empty: a list of short steps reads better unbroken.
    """
    rows: list[Row] = []
    for paragraph in paragraphs:
        if whole and not font.fits(paragraph, room(len(rows))[1]):
            for ahead in range(1, lookahead):
                if font.fits(paragraph, room(len(rows) + ahead)[1]):
                    rows += [Row("", *room(len(rows) + skip)) for skip in range(ahead)]
                    break
        words = paragraph.split()
        line = ""
        first = True
        for word in words:
            x, width = _room(room, len(rows), 0 if first else indent)
            candidate = f"{line} {word}" if line else word
            if line and not font.fits(candidate, width):
                rows.append(Row(line, x, width))
                first = False
                line = word
            else:
                line = candidate
        x, width = _room(room, len(rows), 0 if first else indent)
        rows.append(Row(line, x, width))
    return rows


def _room(room: Callable[[int], tuple[int, int]], index: int, indent: int) -> tuple[int, int]:
    x, width = room(index)
    return x + indent, width - indent


def draw_rows(
    canvas: Canvas,
    rows: Sequence[Row],
    top: int,
    count: int,
    what: str,
    *,
    font: Font = SMALL,
    pitch: int | None = None,
) -> int:
    """Draw up to `count` rows from `top`, `pitch` apart (the font's line height unless
    given); more rows than that are reported. Returns rows drawn."""
    if len(rows) > count:
        canvas.report(f"{what}: {len(rows)} lines, room for {count}")
    for index, row in enumerate(rows[:count]):
        y = top + index * (pitch or font.line_height)
        canvas.text((row.x, y), row.text, font=font, max_width=row.width)
    return min(len(rows), count)


def wrapped(paragraphs: Sequence[str], width: int, *, font: Font = SMALL) -> list[str]:
    """Each paragraph wrapped to `width`, one list of lines."""
    return [line for paragraph in paragraphs for line in wrap(font, paragraph, width)]


def rows_between(top: int, bottom: int, *, font: Font = SMALL, pitch: int | None = None) -> int:
    """How many text rows, `pitch` apart, fit from `top` with their glyphs ending before
    `bottom`."""
    return max(0, (bottom - top - font.height) // (pitch or font.line_height) + 1)
