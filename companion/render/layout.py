"""Pieces every screen is built from: the title bar, rows of text, wrapping around figures.

The display is an 8-pixel grid of text rows (`LINE`): a title bar fills the
first row, the body starts one pixel below it (`BODY_TOP`) so a highlighted
line never merges with the bar, and a hint sits on the last row
(`BOTTOM_ROW`). Whatever does not fit is drawn as far as it goes and reported
on the canvas: screens never raise for long text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.render.canvas import HEIGHT, WIDTH, Align, Box, Canvas, aligned_x
from companion.text.font import SMALL, wrap

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


def title_bar(canvas: Canvas, title: str, right: str = "") -> None:
    """An inverted bar across the top with `title` at the left and `right` at the right."""
    canvas.fill(TITLE_BAR)
    inner = TITLE_BAR.inset(PAD, 0)
    room = inner
    if right:
        width = SMALL.text_width(right)
        canvas.text_in_box(Box(inner.right - width, inner.y, width, inner.height), right, fill=0)
        room = Box(inner.x, inner.y, inner.width - width - GAP, inner.height)
    canvas.text_in_box(room, title, fill=0)


def text_line(canvas: Canvas, box: Box, text: str, *, align: Align = "left") -> None:
    """One line of text in a row `box` (8 px tall: the text's top on the box's top)."""
    x = aligned_x(box, SMALL.text_width(text), align)
    canvas.text((x, box.y), text, max_width=box.right - x)


def left_right(canvas: Canvas, box: Box, left: str, right: str, *, fill: int = 1) -> None:
    """`left` at the left of `box` and `right` at its right; `left` is cut (and reported)."""
    width = SMALL.text_width(right)
    if right:
        canvas.text_in_box(Box(box.right - width, box.y, width, box.height), right, fill=fill)
        room = Box(box.x, box.y, box.width - width - GAP, box.height)
    else:
        room = box
    canvas.text_in_box(room, left, fill=fill)


def hint(canvas: Canvas, text: str) -> None:
    """A hint on the last row ("press: done"), centred between two short rules.

    The rules set it apart from body text that may end just above it.
    """
    if not text:
        return
    text_line(canvas, Box(0, BOTTOM_ROW, WIDTH, SMALL.height), text, align="center")
    side = (WIDTH - SMALL.text_width(text)) // 2 - GAP
    if side >= MIN_RULE:
        y = BOTTOM_ROW + SMALL.cap_height // 2
        canvas.hline(y, 0, side - 1)
        canvas.hline(y, WIDTH - side, WIDTH - 1)


@dataclass(frozen=True, slots=True)
class Row:
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
        if whole and not SMALL.fits(paragraph, room(len(rows))[1]):
            for ahead in range(1, lookahead):
                if SMALL.fits(paragraph, room(len(rows) + ahead)[1]):
                    rows += [Row("", *room(len(rows) + skip)) for skip in range(ahead)]
                    break
        words = paragraph.split()
        line = ""
        first = True
        for word in words:
            x, width = _room(room, len(rows), 0 if first else indent)
            candidate = f"{line} {word}" if line else word
            if line and not SMALL.fits(candidate, width):
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


def draw_rows(canvas: Canvas, rows: Sequence[Row], top: int, count: int, what: str) -> int:
    """Draw up to `count` rows from `top`; more rows than that are reported. Returns rows drawn."""
    if len(rows) > count:
        canvas.report(f"{what}: {len(rows)} lines, room for {count}")
    for index, row in enumerate(rows[:count]):
        canvas.text((row.x, top + index * LINE), row.text, max_width=row.width)
    return min(len(rows), count)


def wrapped(paragraphs: Sequence[str], width: int) -> list[str]:
    """Each paragraph wrapped to `width`, one list of lines."""
    return [line for paragraph in paragraphs for line in wrap(SMALL, paragraph, width)]


def rows_between(top: int, bottom: int) -> int:
    """How many text rows fit from `top` with their glyphs ending before `bottom`."""
    return max(0, (bottom - top - SMALL.height) // LINE + 1)
