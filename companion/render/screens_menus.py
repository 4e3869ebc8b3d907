"""Layouts of the general screens: menus, questions, numbers, pages, notices, input test.

Menu items, answers and titles are single lines: one that is too long is cut
and reported. Prose (question lines, pages, notices) is wrapped, and only more
lines than the screen holds is reported.
"""

from __future__ import annotations

from companion.render.canvas import HEIGHT, WIDTH, Align, Box, Canvas
from companion.render.layout import (
    BODY_TOP,
    BOTTOM_ROW,
    GAP,
    LINE,
    PAD,
    draw_rows,
    flow,
    hint,
    left_right,
    rows_between,
    text_line,
    title_bar,
    wrapped,
)
from companion.text.font import ARROW_DOWN, ARROW_LEFT, ARROW_RIGHT, ARROW_UP, LARGE, SMALL
from companion.text.pages import TEXT_PAGE_WIDTH
from companion.views import (
    InputTestView,
    MenuView,
    NumberView,
    QuestionView,
    TestPatternView,
    TextView,
)

NUMBER_TOP = 29
"""Top of the big value on a number screen, below two label lines."""
ARROW_ROWS = 5
"""Rows of ink in the ◀ and ▶ glyphs."""
CHIP_HEIGHT = 11
CHIP_PAD = 4
"""An answer side by side with others: text with room around it inside a frame."""
SCROLL_ROOM = 7
"""Columns kept at the right of a scrolling menu for its ▲/▼ marks."""
MENU_TOP = 2 * LINE
"""Menu rows start on the panel's third 8-pixel page, so a row is one whole page
and moving the highlight rewrites two pages (a row straddling two rewrites three).
The page under the title holds the note, if any: a highlighted first row right
under the title bar would merge with it."""


def visible_window(count: int, selected: int, rows: int) -> int:
    """The first item shown so that `selected` is visible, centred when it can be.

    The screen is a pure function of the view, so the window cannot remember
    where it was: keeping the selection in the middle scrolls smoothly both ways.

    >>> visible_window(10, 0, 6), visible_window(10, 5, 6), visible_window(10, 9, 6)
    (0, 3, 4)
    """
    if count <= rows:
        return 0
    return max(0, min(selected - (rows - 1) // 2, count - rows))


def draw_menu(canvas: Canvas, view: MenuView) -> None:
    title_bar(canvas, view.title)
    top = MENU_TOP
    if view.note:
        canvas.text_in_box(Box(PAD, LINE, WIDTH - 2 * PAD, LINE), view.note, align="center")
    rows = (HEIGHT - top) // LINE
    count = len(view.items)
    selected = min(max(view.selected, 0), max(count - 1, 0))
    first = visible_window(count, selected, rows)
    scrolls = count > rows
    width = WIDTH - (SCROLL_ROOM if scrolls else 0)
    shown = range(first, min(count, first + rows))
    for row, index in enumerate(shown):
        box = Box(0, top + row * LINE, width, LINE)
        item = view.items[index]
        fill = 1
        if index == selected:
            canvas.fill(box)
            fill = 0
        left_right(canvas, box.inset(PAD, 0), item.label, item.detail, fill=fill)
    if scrolls:
        arrow_x = WIDTH - SMALL.text_width(ARROW_UP)
        if first > 0:
            canvas.text((arrow_x, top), ARROW_UP)
        if first + rows < count:
            canvas.text((arrow_x, top + (len(shown) - 1) * LINE), ARROW_DOWN)


def draw_question(canvas: Canvas, view: QuestionView) -> None:
    title_bar(canvas, view.title)
    chips = [SMALL.text_width(answer) + 2 * CHIP_PAD for answer in view.answers]
    across = sum(chips) + GAP * (len(chips) - 1) <= WIDTH
    answers_top = HEIGHT - (CHIP_HEIGHT if across else len(view.answers) * LINE)
    text_rows = rows_between(BODY_TOP, answers_top - 1)
    rows = flow(view.lines, lambda _: (PAD, WIDTH - 2 * PAD))
    draw_rows(canvas, rows, BODY_TOP, text_rows, "question")
    if across:
        x = (WIDTH - sum(chips) - GAP * (len(chips) - 1)) // 2
        for index, (answer, width) in enumerate(zip(view.answers, chips, strict=True)):
            box = Box(x, answers_top, width, CHIP_HEIGHT)
            _answer(canvas, box, answer, index == view.selected, "center")
            x += width + GAP
    else:
        for index, answer in enumerate(view.answers):
            box = Box(0, answers_top + index * LINE, WIDTH, LINE)
            _answer(canvas, box, answer, index == view.selected, "left")


def _answer(canvas: Canvas, box: Box, answer: str, selected: bool, align: Align) -> None:
    """An answer: lit when selected, otherwise outlined (across) or plain (a list)."""
    if selected:
        canvas.selection_bar(box, answer, align=align, padding=PAD)
        return
    if align == "center":
        # Outlined, so the answers read as buttons side by side.
        canvas.frame(box)
    canvas.text_in_box(box.inset(PAD, 0), answer, align=align)


def draw_number(canvas: Canvas, view: NumberView) -> None:
    title_bar(canvas, view.title)
    for index, line in enumerate(wrapped([view.label], WIDTH - 2 * PAD)[:2]):
        box = Box(PAD, BODY_TOP + 2 + index * LINE, WIDTH - 2 * PAD, SMALL.height)
        text_line(canvas, box, line, align="center")
    if len(wrapped([view.label], WIDTH - 2 * PAD)) > 2:
        canvas.report(f"number label {view.label!r} takes more than 2 lines")

    # The value between ◀ and ▶, which say "turn to change it".
    arrow = SMALL.text_width(ARROW_LEFT)
    room = Box(arrow + GAP, NUMBER_TOP, WIDTH - 2 * (arrow + GAP), LARGE.height)
    width = LARGE.text_width(view.value)
    x = room.x + max(0, (room.width - width) // 2)
    canvas.text((x, room.y), view.value, font=LARGE, max_width=room.right - x)
    arrow_y = room.y + (LARGE.cap_height - ARROW_ROWS) // 2
    canvas.text((max(0, x - arrow - 2 * GAP), arrow_y), ARROW_LEFT)
    canvas.text((min(WIDTH - arrow, x + width + 2 * GAP), arrow_y), ARROW_RIGHT)
    hint(canvas, view.hint)


def draw_text(canvas: Canvas, view: TextView) -> None:
    title_bar(canvas, view.title, f"{view.page}/{view.pages}" if view.pages > 1 else "")
    bottom = BOTTOM_ROW - 1 if view.footer else HEIGHT
    rows = flow(view.lines, lambda _: (PAD, TEXT_PAGE_WIDTH))
    draw_rows(canvas, rows, BODY_TOP, rows_between(BODY_TOP, bottom), "page")
    hint(canvas, view.footer)


def draw_input_test(canvas: Canvas, view: InputTestView) -> None:
    title_bar(canvas, view.title, view.counted)
    room = rows_between(BODY_TOP, BOTTOM_ROW - 1)
    events = view.events[-room:]
    marker = f"{ARROW_RIGHT} "
    indent = SMALL.text_width(marker) + 1
    for index, event in enumerate(events):
        newest = index == len(events) - 1
        x = PAD if newest else PAD + indent
        text = f"{marker}{event}" if newest else event
        canvas.text((x, BODY_TOP + index * LINE), text, max_width=WIDTH - x)
    if not events:
        canvas.text((PAD, BODY_TOP), view.waiting)
    hint(canvas, view.hint)


CORNER_MARK = 6
"""The solid square in the top-left corner: shows which way up the panel is."""


def draw_test_pattern(canvas: Canvas, view: TestPatternView) -> None:
    """Every edge pixel lit (a missing row or column shows at once), the top left marked."""
    canvas.frame(Box(0, 0, WIDTH, HEIGHT))
    canvas.fill(Box(2, 2, CORNER_MARK, CORNER_MARK))
    top = (HEIGHT - len(view.lines) * LINE) // 2
    for index, line in enumerate(view.lines):
        canvas.text_in_box(
            Box(
                PAD + CORNER_MARK + 2, top + index * LINE, WIDTH - 2 * (PAD + CORNER_MARK + 2), LINE
            ),
            line,
            align="center",
        )
