"""Layouts of the game screens: dealing, the turn, steps, the Automa's turn, the score.

Patches are drawn at fixed scales (one for the big single patch, one for the
offer), so the same patch is always the same size and sizes can be compared
between screens and turns.
"""

from __future__ import annotations

from companion.engine.actions import Advance, Buy
from companion.engine.catalogue import PATCH_BY_ID, PATCHES, Patch
from companion.render.canvas import HEIGHT, WIDTH, Box, Canvas
from companion.render.layout import (
    BODY_TOP,
    BOTTOM_ROW,
    GAP,
    ICON_SIZE,
    LINE,
    PAD,
    Row,
    draw_filter_icon,
    draw_rows,
    flow,
    hint,
    left_right,
    rows_between,
    text_line,
    title_bar,
)
from companion.render.patches import (
    common_cell,
    draw_patch,
    fit_cell,
    layout_patch,
    patch_label,
)
from companion.render.track import TRACK_HEIGHT, draw_track, track_width
from companion.text.font import (
    ARROW_LEFT,
    ARROW_RIGHT,
    BUTTON,
    CROSS,
    LARGE,
    SMALL,
)
from companion.views import (
    AutomaView,
    DealView,
    OpenMenu,
    PatchView,
    PickPatchView,
    ScoreColumn,
    ScoreView,
    StepView,
    TurnChoice,
    TurnView,
)

# --- one patch, big: dealing and entering the circle --------------------------------

BIG_AREA = Box(10, BODY_TOP, WIDTH - 20, 38)
"""Where a single patch is drawn; narrowed by the ◀ ▶ marks of the pick screen."""
BIG_CELL = common_cell(PATCHES, BIG_AREA)
"""One square size for every patch, so a big patch looks bigger than a small one."""
BIG_LABEL_Y = BIG_AREA.bottom + 2


def _patch(canvas: Canvas, patch_id: str) -> Patch | None:
    """The catalogue patch, or None (reported) for an id it does not know."""
    patch = PATCH_BY_ID.get(patch_id)
    if patch is None:
        canvas.report(f"unknown patch {patch_id!r}")
    return patch


def _big_patch(canvas: Canvas, shown: PatchView) -> None:
    """The patch centred at the big scale, its id and label on the line below."""
    patch = _patch(canvas, shown.patch_id)
    label = f"{shown.patch_id}  {patch_label(patch)}" if patch else shown.patch_id
    if patch:
        draw_patch(canvas, BIG_AREA, patch, cell=BIG_CELL, affordable=shown.affordable)
    text_line(canvas, Box(0, BIG_LABEL_Y, WIDTH, LINE), label, align="center")


def draw_deal(canvas: Canvas, view: DealView) -> None:
    title_bar(canvas, view.title, f"{view.number}/{view.total}")
    _big_patch(canvas, view.patch)
    where = "clockwise after P00" if view.number == 1 else "next clockwise"
    hint(canvas, where)


def draw_pick_patch(canvas: Canvas, view: PickPatchView) -> None:
    title_bar(canvas, f"Circle place {view.number}/{view.total}")
    if view.patch is None:
        canvas.text_in_box(BIG_AREA, f"{ARROW_LEFT} {view.back_label}", align="center")
    else:
        _big_patch(canvas, view.patch)
    # ◀ ▶ beside the patch: turning shows the other patches not yet placed.
    arrow_y = BIG_AREA.y + (BIG_AREA.height - 5) // 2
    canvas.text((PAD, arrow_y), ARROW_LEFT)
    canvas.text((WIDTH - PAD - SMALL.text_width(ARROW_RIGHT), arrow_y), ARROW_RIGHT)
    left_right(
        canvas,
        Box(PAD, BOTTOM_ROW, WIDTH - 2 * PAD, SMALL.height),
        f"{view.choice}/{view.choices}",
        "press: place it" if view.patch else "press: go back",
    )


# --- the turn -------------------------------------------------------------------------

TRACK_BOX = Box(0, LINE, track_width(2), TRACK_HEIGHT)
"""The whole track at two pixels a square; the positions go to its right."""
OFFER_TOP = TRACK_BOX.bottom + 1
OFFER_COLUMNS = (Box(0, OFFER_TOP, 43, 25), Box(43, OFFER_TOP, 42, 25), Box(85, OFFER_TOP, 43, 25))
"""Three columns, one per patch on offer; the selected one is framed."""
OFFER_INSET = 2
OFFER_CELL = common_cell(PATCHES, OFFER_COLUMNS[1].inset(OFFER_INSET))
OFFER_LABEL_HEIGHT = 9
TURN_BOTTOM_Y = HEIGHT - SMALL.height


def draw_turn(canvas: Canvas, view: TurnView) -> None:
    _turn_header(canvas, view)
    mine, theirs = view.tokens
    draw_track(
        canvas,
        TRACK_BOX,
        (mine.position, theirs.position),
        leather=view.leather,
        bonus_mark=view.bonus_mark,
    )
    # Exact positions beside the track: ours level with our (upper) token.
    numbers = Box(TRACK_BOX.right, TRACK_BOX.y, WIDTH - TRACK_BOX.right, SMALL.height)
    text_line(canvas, numbers, str(mine.position), align="right")
    below = Box(numbers.x, TRACK_BOX.bottom - SMALL.cap_height, numbers.width, SMALL.height)
    text_line(canvas, below, str(theirs.position), align="right")

    choice = view.choices[view.selected] if 0 <= view.selected < len(view.choices) else None
    framed = choice.index if isinstance(choice, Buy) else None
    for index, shown in enumerate(view.offer[: len(OFFER_COLUMNS)]):
        _offer_column(canvas, OFFER_COLUMNS[index], shown, selected=index == framed)
    if len(view.offer) > len(OFFER_COLUMNS):
        canvas.report(f"offer of {len(view.offer)} patches, room for {len(OFFER_COLUMNS)}")
    text_line(canvas, Box(0, TURN_BOTTOM_Y, WIDTH, SMALL.height), _describe(view, choice))


def _turn_header(canvas: Canvas, view: TurnView) -> None:
    """Whose turn, their buttons and next income; at the right the Automa's next card or
    the opponent's buttons."""
    left = f"{view.side_label} {view.buttons}{BUTTON}"
    if view.to_next_income is not None:
        left += f" +{view.income}{BUTTON} in {view.to_next_income}"
    if view.next_virtual_buttons is not None:
        right = f"next {view.next_virtual_buttons}{BUTTON}"
    else:
        right = f"{view.opponent_label} {view.opponent_buttons}{BUTTON}"
    if not SMALL.fits(f"{left}  {right}", WIDTH):
        # Late in a rich game the numbers grow: the opponent's count alone still reads.
        right = right.split()[-1]
    left_right(canvas, Box(0, 0, WIDTH, SMALL.height), left, right)


def _offer_column(canvas: Canvas, column: Box, shown: PatchView, *, selected: bool) -> None:
    patch = _patch(canvas, shown.patch_id)
    if patch is None:
        return
    draw_patch(
        canvas,
        column.inset(OFFER_INSET),
        patch,
        cell=OFFER_CELL,
        affordable=shown.affordable,
    )
    label = Box(column.x, column.bottom, column.width, OFFER_LABEL_HEIGHT)
    if selected:
        # A frame round the patch standing on its lit label: one tag, the chosen one.
        canvas.frame(column)
        canvas.fill(label)
    _label(canvas, label, patch, fill=0 if selected else 1)


def _label(canvas: Canvas, box: Box, patch: Patch, *, fill: int) -> None:
    """The compact label: with three side by side, spaced labels would run together."""
    text = patch_label(patch, compact=True)
    canvas.text_in_box(box, text, align="center", fill=fill)


def _describe(view: TurnView, choice: TurnChoice | None) -> str:
    """The bottom line: what pressing now does, with its numbers."""
    if isinstance(choice, Buy):
        index = choice.index
        if index >= len(view.offer):
            return f"{ARROW_RIGHT} Buy"
        shown = view.offer[index]
        patch = PATCH_BY_ID.get(shown.patch_id)
        if patch is None:
            return f"{ARROW_RIGHT} Buy {shown.patch_id}"
        if not shown.affordable:
            return f"{CROSS} {shown.why_not}"
        return f"{ARROW_RIGHT} Buy {patch.id}: pay {patch.cost}{BUTTON}, to {shown.destination}"
    if isinstance(choice, Advance):
        return f"{ARROW_RIGHT} Advance to {view.advance_to}, +{view.advance_buttons}{BUTTON}"
    if isinstance(choice, OpenMenu):
        return f"{ARROW_RIGHT} Menu"
    return ""


# --- one step at the table ------------------------------------------------------------

STEP_CELL = 4
"""The small scale of a step's patch: 24×14 pixels at most."""
STEP_FIGURE_WIDTH = 5 * (STEP_CELL + 1) - 1


def draw_step(canvas: Canvas, view: StepView) -> None:
    title_bar(canvas, view.title, f"{view.number}/{view.total}")
    beside, narrow = 0, WIDTH - 2 * PAD
    patch = _patch(canvas, view.patch_id) if view.patch_id else None
    if patch is not None:
        # The patch in the top right corner; the rows beside it are shortened.
        height = patch.height * (STEP_CELL + 1) - 1
        figure = Box(WIDTH - STEP_FIGURE_WIDTH - PAD, BODY_TOP + 1, STEP_FIGURE_WIDTH, height)
        draw_patch(canvas, figure, patch, cell=STEP_CELL)
        beside = -(-(figure.bottom + 1 - BODY_TOP) // LINE)
        narrow = figure.x - GAP - PAD

    def room(row: int) -> tuple[int, int]:
        return (PAD, narrow) if row < beside else (PAD, WIDTH - 2 * PAD)

    rows = flow(view.lines, room, indent=GAP, whole=True)
    draw_rows(canvas, rows, BODY_TOP, rows_between(BODY_TOP, BOTTOM_ROW - 1), "step")
    hint(canvas, "press: done")


# --- the Automa's turn ----------------------------------------------------------------

CARD = Box(0, 0, 31, 31)
"""The revealed card: virtual buttons, its three filters, its income."""
AUTOMA_X = CARD.right + 2
AUTOMA_ROWS = HEIGHT // LINE
AUTOMA_MAX_CELL = 4
ICON_GAP = 2


def _automa_room(row: int) -> tuple[int, int]:
    """Rows beside the card are narrower; below it they take the whole width."""
    if row * LINE < CARD.bottom:
        return (AUTOMA_X, WIDTH - AUTOMA_X)
    return (0, WIDTH)


def draw_automa(canvas: Canvas, view: AutomaView) -> None:
    _draw_card(canvas, view)
    headline = Box(AUTOMA_X, 0, WIDTH - AUTOMA_X, LINE)
    canvas.selection_bar(headline, view.headline, padding=PAD)
    rows = flow([view.reason], lambda row: _automa_room(row + 1))
    start = len(rows)
    rows += flow(view.steps, lambda row: _automa_room(row + 1 + start), indent=GAP, whole=True)
    drawn = draw_rows(canvas, rows, LINE, AUTOMA_ROWS - 1, "automa")
    patch = _patch(canvas, view.patch_id) if view.patch_id else None
    if patch is not None:
        _automa_patch(canvas, patch, rows[:drawn])


def _draw_card(canvas: Canvas, view: AutomaView) -> None:
    card = view.card
    canvas.frame(CARD)
    inner = CARD.inset(1)
    number = str(card.virtual_buttons)
    width = LARGE.text_width(number) + 1 + SMALL.text_width(BUTTON)
    x = inner.x + max(0, (inner.width - width) // 2)
    top = inner.y + 1
    canvas.text((x, top), number, font=LARGE, max_width=inner.right - x)
    button_x = x + LARGE.text_width(number) + 1
    canvas.text((button_x, top + LARGE.cap_height - SMALL.cap_height), BUTTON)

    icons_y = top + LARGE.cap_height + 1
    if card.filters:
        count = len(card.filters)
        span = count * ICON_SIZE + (count - 1) * ICON_GAP
        icon_x = inner.x + (inner.width - span) // 2
        for index, name in enumerate(card.filters):
            x = icon_x + index * (ICON_SIZE + ICON_GAP)
            draw_filter_icon(canvas, (x, icons_y), str(name))
    else:
        text_line(canvas, Box(inner.x, icons_y, inner.width, SMALL.height), "-", align="center")
    income = Box(inner.x, icons_y + ICON_SIZE + 1, inner.width, SMALL.height)
    text_line(canvas, income, f"+{card.income}{BUTTON}", align="center")


def _automa_patch(canvas: Canvas, patch: Patch, rows: list[Row]) -> None:
    """The taken patch, small, in the largest free space right of the text, if any."""
    used = {index + 1: row.x + SMALL.text_width(row.text) for index, row in enumerate(rows)}
    best: tuple[int, Box] | None = None
    for first in range(1, AUTOMA_ROWS):
        for last in range(first, AUTOMA_ROWS):
            span = range(first, last + 1)
            left = max(max(used.get(r, 0), _automa_room(r)[0]) for r in span) + GAP + 1
            box = Box(left, first * LINE, WIDTH - left, len(span) * LINE - 1)
            if box.width <= 0:
                continue
            cell = min(fit_cell(patch.width, patch.height, box), AUTOMA_MAX_CELL)
            if cell >= 2 and (best is None or cell > best[0]):
                best = (cell, box)
    if best is not None:
        cell, box = best
        # Tight to the right edge rather than floating in the middle of the gap.
        bounds = layout_patch(patch, box, cell).bounds
        draw_patch(
            canvas, Box(WIDTH - bounds.width, box.y, bounds.width, box.height), patch, cell=cell
        )


# --- the score ------------------------------------------------------------------------

SCORE_RULE_Y = LARGE.height
SCORE_ROWS_TOP = SCORE_RULE_Y + 2
SCORE_DIVIDER = 5
"""Pixels between the two columns, with a vertical rule in the middle."""


def draw_score(canvas: Canvas, view: ScoreView) -> None:
    verdict = flow([view.verdict], lambda _: (PAD, WIDTH - 2 * PAD))
    bar_height = len(verdict) * LINE + 1
    bar = Box(0, HEIGHT - bar_height, WIDTH, bar_height)
    left_width = _left_column_width(view.columns)
    boxes = (
        Box(0, 0, left_width, bar.y - 1),
        Box(left_width + SCORE_DIVIDER, 0, WIDTH - left_width - SCORE_DIVIDER, bar.y - 1),
    )
    for column, box in zip(view.columns, boxes, strict=True):
        _score_column(canvas, box, column)
    canvas.vline(left_width + SCORE_DIVIDER // 2, 0, bar.y - 2)
    canvas.fill(bar)
    for index, row in enumerate(verdict):
        canvas.text_in_box(
            Box(row.x, bar.y + 1 + index * LINE, row.width, SMALL.height),
            row.text,
            align="center",
            fill=0,
        )


def _needed(column: ScoreColumn) -> int:
    """The narrowest a column can be with every row's label and points on one line."""
    header = SMALL.text_width(column.label) + GAP + LARGE.text_width(str(column.total))
    rows = [SMALL.text_width(what) + GAP + SMALL.text_width(str(p)) for what, p in column.lines]
    return max([header, *rows])


def _left_column_width(columns: tuple[ScoreColumn, ScoreColumn]) -> int:
    """Half the display each, unless one column needs more and the other can give it."""
    half = (WIDTH - SCORE_DIVIDER) // 2
    left, right = (_needed(column) for column in columns)
    if left <= half and right <= WIDTH - SCORE_DIVIDER - half:
        return half
    if left + right + SCORE_DIVIDER <= WIDTH:
        return left if left > half else WIDTH - SCORE_DIVIDER - right
    return half


def _score_column(canvas: Canvas, box: Box, column: ScoreColumn) -> None:
    total = str(column.total)
    total_width = LARGE.text_width(total)
    canvas.text((box.right - total_width, 0), total, font=LARGE)
    # The label sits on the big number's baseline.
    label_y = LARGE.cap_height - SMALL.cap_height
    canvas.text((box.x, label_y), column.label, max_width=box.width - total_width - GAP)
    canvas.hline(SCORE_RULE_Y, box.x, box.right - 1)
    count = rows_between(SCORE_ROWS_TOP, box.bottom)
    if len(column.lines) > count:
        canvas.report(f"score {column.label!r}: {len(column.lines)} rows, room for {count}")
    for index, (what, points) in enumerate(column.lines[:count]):
        row = Box(box.x, SCORE_ROWS_TOP + index * LINE, box.width, SMALL.height)
        left_right(canvas, row, what, str(points))
