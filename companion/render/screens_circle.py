"""Layouts of the set-up screens that show patches: dealing the circle, entering it.

The deal screen shows the patches to lay in a grid of small tiles, the order
to lay them in reading order, so a screenful is laid out before the next
press. Every tile is drawn at one scale, so a bigger patch looks bigger.
"""

from __future__ import annotations

from companion.engine.catalogue import PATCHES
from companion.render.canvas import WIDTH, Box, Canvas
from companion.render.layout import (
    BODY_TOP,
    BOTTOM_ROW,
    LINE,
    PAD,
    hint,
    left_right,
    text_line,
    title_bar,
)
from companion.render.patches import (
    common_cell,
    draw_patch,
    known_patch,
    patch_label,
)
from companion.text.font import ARROW_LEFT, ARROW_RIGHT, SMALL
from companion.views import DEAL_PER_SCREEN, DealView, PatchView, PickPatchView

# --- a grid of small tiles: the dealt circle ------------------------------------------

GRID_COLUMNS = 4
GRID_ROWS = 2
TILE_WIDTH = WIDTH // GRID_COLUMNS
TILE_PATCH_HEIGHT = 2 * LINE
"""The patch's part of a tile; its label is on the row below. Both are whole
8-pixel pages of the panel, and a tile row is three."""
TILE_HEIGHT = TILE_PATCH_HEIGHT + LINE
GRID_TOP = LINE
"""Right under the title bar: the tallest patch is drawn centred, a pixel below it."""
TILE_INSET = 1
"""Columns kept clear at each side of a tile, so neighbours never touch."""
TILE_CELL = common_cell(PATCHES, Box(0, 0, TILE_WIDTH - 2 * TILE_INSET, TILE_PATCH_HEIGHT))
"""One square size for every patch (4 pixels: buttons still show as rings)."""
assert GRID_COLUMNS * GRID_ROWS == DEAL_PER_SCREEN
assert GRID_TOP + GRID_ROWS * TILE_HEIGHT <= BOTTOM_ROW


def tile_box(slot: int) -> Box:
    """The tile of the `slot`-th patch on the screen (0-based, reading order)."""
    row, column = divmod(slot, GRID_COLUMNS)
    return Box(column * TILE_WIDTH, GRID_TOP + row * TILE_HEIGHT, TILE_WIDTH, TILE_HEIGHT)


def draw_tile(canvas: Canvas, box: Box, shown: PatchView) -> None:
    """A patch at the tile scale, its cost and time (as printed on it) underneath.

    The label is compact: spaced, neighbouring labels would be as far apart as
    the numbers within one."""
    patch = known_patch(canvas, shown.patch_id)
    if patch is None:
        return
    area = Box(box.x + TILE_INSET, box.y, box.width - 2 * TILE_INSET, TILE_PATCH_HEIGHT)
    draw_patch(canvas, area, patch, cell=TILE_CELL, affordable=shown.affordable)
    label = Box(box.x, box.y + TILE_PATCH_HEIGHT, box.width, LINE)
    text_line(canvas, label, patch_label(patch, compact=True, buttons=False), align="center")


def draw_deal(canvas: Canvas, view: DealView) -> None:
    last = view.first + len(view.patches) - 1
    title_bar(canvas, "Lay out the circle", f"{view.first}-{last}/{view.total}")
    if len(view.patches) > DEAL_PER_SCREEN:
        canvas.report(f"{len(view.patches)} patches to deal, room for {DEAL_PER_SCREEN}")
    for slot, shown in enumerate(view.patches[:DEAL_PER_SCREEN]):
        draw_tile(canvas, tile_box(slot), shown)
    hint(canvas, "after P00, row by row" if view.first == 1 else "go on clockwise")


# --- one patch, big: entering the circle ----------------------------------------------

BIG_AREA = Box(10, BODY_TOP, WIDTH - 20, 38)
"""Where a single patch is drawn, between the ◀ ▶ marks."""
BIG_CELL = common_cell(PATCHES, BIG_AREA)
"""One square size for every patch, so a big patch looks bigger than a small one."""
BIG_LABEL_Y = BIG_AREA.bottom + 2


def _big_patch(canvas: Canvas, shown: PatchView) -> None:
    """The patch centred at the big scale, its id and label on the line below."""
    patch = known_patch(canvas, shown.patch_id)
    label = f"{shown.patch_id}  {patch_label(patch)}" if patch else shown.patch_id
    if patch:
        draw_patch(canvas, BIG_AREA, patch, cell=BIG_CELL, affordable=shown.affordable)
    text_line(canvas, Box(0, BIG_LABEL_Y, WIDTH, LINE), label, align="center")


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
