"""Layouts of the general screens: menus, questions, numbers, pages, notices, input test.

Menu items, answers and titles are single lines: one that is too long is cut
and reported. Prose (question lines, pages, notices) is wrapped, and only more
lines than the screen holds is reported.
"""

from __future__ import annotations

from companion.render.canvas import HEIGHT, WIDTH, Align, Box, Canvas
from companion.render.layout import (
    BODY_TOP,
    GAP,
    LINE,
    PAD,
    draw_rows,
    flow,
    hint,
    left_right,
    lettering_of,
    rows_between,
    text_line,
    title_bar,
    wrapped,
)
from companion.text.font import (
    ARROW_DOWN,
    ARROW_LEFT,
    ARROW_RIGHT,
    ARROW_UP,
    LARGE,
    SMALL,
    Font,
)
from companion.text.pages import TEXT_PAGE_WIDTH, page_pitch
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
    lettering = lettering_of(view)
    font, line = lettering.font, lettering.line
    title_bar(canvas, view.title, lettering=lettering)
    top = MENU_TOP if line == LINE else lettering.body_top
    if view.note:
        note = Box(PAD, top if line > LINE else LINE, WIDTH - 2 * PAD, line)
        canvas.text_in_box(note, view.note, font=font, align="center")
        if line > LINE:
            # Korean has no page under the title for the note: it takes a row.
            top += line
    rows = (HEIGHT - top) // line
    count = len(view.items)
    selected = min(max(view.selected, 0), max(count - 1, 0))
    first = visible_window(count, selected, rows)
    scrolls = count > rows
    width = WIDTH - (SCROLL_ROOM if scrolls else 0)
    shown = range(first, min(count, first + rows))
    for row, index in enumerate(shown):
        box = Box(0, top + row * line, width, line)
        item = view.items[index]
        fill = 1
        if index == selected:
            canvas.fill(box)
            fill = 0
        left_right(canvas, box.inset(PAD, 0), item.label, item.detail, fill=fill, font=font)
    if scrolls:
        arrow_x = WIDTH - SMALL.text_width(ARROW_UP)
        if first > 0:
            canvas.text((arrow_x, top), ARROW_UP)
        if first + rows < count:
            canvas.text((arrow_x, top + (len(shown) - 1) * line), ARROW_DOWN)


def draw_question(canvas: Canvas, view: QuestionView) -> None:
    lettering = lettering_of(view)
    font, line = lettering.font, lettering.line
    title_bar(canvas, view.title, lettering=lettering)
    chips = [font.text_width(answer) + 2 * CHIP_PAD for answer in view.answers]
    across = sum(chips) + GAP * (len(chips) - 1) <= WIDTH
    # Korean chips keep a row clear above the Hangul and none below (its last row is
    # mostly blank), so three lines fit above them.
    chip_height = CHIP_HEIGHT if font is SMALL else font.height + 3
    # A question is read, not scrolled: Korean lines and listed answers go 12 pixels
    # apart, the lines from right under the title bar: three above the answers, not two.
    top, pitch = (
        (BODY_TOP, line) if font is SMALL else (lettering.title_height + 1, page_pitch(font))
    )
    answers_top = HEIGHT - (chip_height if across else len(view.answers) * pitch)
    text_rows = rows_between(top, answers_top - 1, font=font, pitch=pitch)
    rows = flow(view.lines, lambda _: (PAD, WIDTH - 2 * PAD), font=font)
    draw_rows(canvas, rows, top, text_rows, "question", font=font, pitch=pitch)
    if across:
        x = (WIDTH - sum(chips) - GAP * (len(chips) - 1)) // 2
        for index, (answer, width) in enumerate(zip(view.answers, chips, strict=True)):
            box = Box(x, answers_top, width, chip_height)
            _answer(canvas, box, answer, index == view.selected, "center", font)
            x += width + GAP
    else:
        for index, answer in enumerate(view.answers):
            box = Box(0, answers_top + index * pitch, WIDTH, pitch)
            _answer(canvas, box, answer, index == view.selected, "left", font)


def _answer(
    canvas: Canvas, box: Box, answer: str, selected: bool, align: Align, font: Font
) -> None:
    """An answer: lit when selected, otherwise outlined (across) or plain (a list)."""
    if selected:
        canvas.selection_bar(box, answer, font=font, align=align, padding=PAD)
        return
    if align == "center":
        # Outlined, so the answers read as buttons side by side.
        canvas.frame(box)
    canvas.text_in_box(box.inset(PAD, 0), answer, font=font, align=align)


def draw_number(canvas: Canvas, view: NumberView) -> None:
    lettering = lettering_of(view)
    font = lettering.font
    title_bar(canvas, view.title, lettering=lettering)
    label_lines = wrapped([view.label], WIDTH - 2 * PAD, font=font)
    # Two label lines above the value; Korean, twice as tall, has room for one.
    label_rows = 2 if font is SMALL else 1
    for index, line in enumerate(label_lines[:label_rows]):
        top = lettering.body_top + (2 if font is SMALL else 0) + index * lettering.line
        text_line(
            canvas, Box(PAD, top, WIDTH - 2 * PAD, font.height), line, align="center", font=font
        )
    if len(label_lines) > label_rows:
        canvas.report(f"number label {view.label!r} takes more than {label_rows} lines")

    # The value between ◀ and ▶, which say "turn to change it".
    arrow = SMALL.text_width(ARROW_LEFT)
    room = Box(arrow + GAP, NUMBER_TOP, WIDTH - 2 * (arrow + GAP), LARGE.height)
    # A value that is a word ("no change", Korean minutes) may be longer than the big
    # digits' room or have letters they lack: it goes in the body font, on their middle.
    value_font = LARGE
    if LARGE.text_width(view.value) > room.width or not all(map(LARGE.has_glyph, view.value)):
        value_font = font
    width = value_font.text_width(view.value)
    x = room.x + max(0, (room.width - width) // 2)
    y = room.y + (LARGE.cap_height - value_font.cap_height) // 2
    canvas.text((x, y), view.value, font=value_font, max_width=room.right - x)
    arrow_y = room.y + (LARGE.cap_height - ARROW_ROWS) // 2
    canvas.text((max(0, x - arrow - 2 * GAP), arrow_y), ARROW_LEFT)
    canvas.text((min(WIDTH - arrow, x + width + 2 * GAP), arrow_y), ARROW_RIGHT)
    hint(canvas, view.hint, lettering=lettering)


def draw_text(canvas: Canvas, view: TextView) -> None:
    lettering = lettering_of(view)
    font, top = lettering.font, lettering.body_top
    right = f"{view.page}/{view.pages}" if view.pages > 1 else ""
    title_bar(canvas, view.title, right, lettering=lettering)
    bottom = lettering.bottom_row - 1 if view.footer else HEIGHT
    rows = flow(view.lines, lambda _: (PAD, TEXT_PAGE_WIDTH), font=font)
    pitch = page_pitch(font)
    room = rows_between(top, bottom, font=font, pitch=pitch)
    draw_rows(canvas, rows, top, room, "page", font=font, pitch=pitch)
    hint(canvas, view.footer, lettering=lettering)


def draw_input_test(canvas: Canvas, view: InputTestView) -> None:
    lettering = lettering_of(view)
    font, top = lettering.font, lettering.body_top
    title_bar(canvas, view.title, view.counted, lettering=lettering)
    room = rows_between(top, lettering.bottom_row - 1, font=font)
    events = view.events[-room:]
    marker = f"{ARROW_RIGHT} "
    indent = font.text_width(marker) + 1
    for index, event in enumerate(events):
        newest = index == len(events) - 1
        x = PAD if newest else PAD + indent
        text = f"{marker}{event}" if newest else event
        y = top + index * lettering.line
        canvas.text((x, y), text, font=font, max_width=WIDTH - x)
    if not events:
        canvas.text((PAD, top), view.waiting, font=font)
    hint(canvas, view.hint, lettering=lettering)


CORNER_MARK = 6
"""The solid square in the top-left corner: shows which way up the panel is."""


def draw_test_pattern(canvas: Canvas, view: TestPatternView) -> None:
    """Every edge pixel lit (a missing row or column shows at once), the top left marked."""
    canvas.frame(Box(0, 0, WIDTH, HEIGHT))
    canvas.fill(Box(2, 2, CORNER_MARK, CORNER_MARK))
    lettering = lettering_of(view)
    line_height = lettering.line
    top = (HEIGHT - len(view.lines) * line_height) // 2
    inset = PAD + CORNER_MARK + 2
    for index, line in enumerate(view.lines):
        box = Box(inset, top + index * line_height, WIDTH - 2 * inset, line_height)
        canvas.text_in_box(box, line, font=lettering.font, align="center")
