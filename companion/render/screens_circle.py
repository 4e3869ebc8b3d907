"""Layouts of the set-up screens that show patches: dealing the circle, entering it.

The deal screen shows the patches to lay in a grid of small tiles, the order
to lay them in reading order, so a screenful is laid out before the next
press. Entering the circle shows a cost, big, and the patches left at that cost
in tiles beside it. Every tile is drawn at one scale, so a bigger patch looks
bigger.
"""

from __future__ import annotations

from companion.engine.catalogue import PATCHES
from companion.render.canvas import WIDTH, Box, Canvas
from companion.render.layout import (
    BOTTOM_ROW,
    LINE,
    hint,
    title_bar,
)
from companion.render.patches import (
    common_cell,
    draw_patch,
    known_patch,
    patch_label,
)
from companion.text.font import ARROW_LEFT, ARROW_RIGHT, BUTTON, LARGE
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


def tile_box(slot: int, columns: int = GRID_COLUMNS, left: int = 0) -> Box:
    """The tile of the `slot`-th patch (0-based, reading order) in a grid of
    `columns` tiles a row, starting `left` tile widths from the left edge."""
    row, column = divmod(slot, columns)
    x = (left + column) * TILE_WIDTH
    return Box(x, GRID_TOP + row * TILE_HEIGHT, TILE_WIDTH, TILE_HEIGHT)


def draw_tile(canvas: Canvas, box: Box, shown: PatchView, *, lit: bool = False) -> None:
    """A patch at the tile scale, its cost and time (as printed on it) underneath;
    `lit`, the label is a lit bar (the cursor is on it), a page of its own.

    The label is compact: spaced, neighbouring labels would be as far apart as
    the numbers within one."""
    patch = known_patch(canvas, shown.patch_id)
    if patch is None:
        return
    area = Box(box.x + TILE_INSET, box.y, box.width - 2 * TILE_INSET, TILE_PATCH_HEIGHT)
    draw_patch(canvas, area, patch, cell=TILE_CELL, affordable=shown.affordable)
    label = Box(box.x, box.y + TILE_PATCH_HEIGHT, box.width, LINE)
    if lit:
        canvas.fill(label)
    text = patch_label(patch, compact=True, buttons=False)
    canvas.text_in_box(label, text, align="center", fill=0 if lit else 1)


def draw_deal(canvas: Canvas, view: DealView) -> None:
    last = view.first + len(view.patches) - 1
    title_bar(canvas, view.title, f"{view.first}-{last}/{view.total}")
    if len(view.patches) > DEAL_PER_SCREEN:
        canvas.report(f"{len(view.patches)} patches to deal, room for {DEAL_PER_SCREEN}")
    for slot, shown in enumerate(view.patches[:DEAL_PER_SCREEN]):
        draw_tile(canvas, tile_box(slot), shown)
    hint(canvas, view.hint)


# --- entering the circle: the cost, then the patch -----------------------------------

COST_BOX = Box(0, GRID_TOP, TILE_WIDTH, TILE_HEIGHT)
"""The cost in the first tile's place, the patches at that cost beside it: its
number big on the tile's two patch pages, a ● between ◀ ▶ (turn: the cost
changes) on its label page."""
COST_NUMBER = Box(COST_BOX.x, COST_BOX.y, COST_BOX.width, TILE_PATCH_HEIGHT)
COST_MARK = Box(COST_BOX.x, COST_BOX.y + TILE_PATCH_HEIGHT, COST_BOX.width, LINE)
PICK_COLUMNS = GRID_COLUMNS - 1
PICK_TILES = PICK_COLUMNS * GRID_ROWS
"""Room for six patches: no cost has more (cost 2 has six besides P00)."""


def draw_pick_patch(canvas: Canvas, view: PickPatchView) -> None:
    title_bar(canvas, view.title)
    on_back = view.selected >= len(view.patches) if view.picking else view.cost is None
    if view.cost is None:
        canvas.text_in_box(
            Box(0, GRID_TOP, WIDTH, GRID_ROWS * TILE_HEIGHT),
            f"{ARROW_LEFT} {view.back_label}",
            align="center",
        )
    else:
        # Picking, the cost stays and its ◀ ▶ go; lit, it is the way back to it.
        lit = view.picking and on_back
        ink = 0 if lit else 1
        if lit:
            canvas.fill(COST_BOX)
        canvas.text_in_box(COST_NUMBER, str(view.cost), font=LARGE, align="center", fill=ink)
        mark = BUTTON if view.picking and not lit else f"{ARROW_LEFT} {BUTTON}"
        if not view.picking:
            mark += f" {ARROW_RIGHT}"
        canvas.text_in_box(COST_MARK, mark, align="center", fill=ink)
        if len(view.patches) > PICK_TILES:
            canvas.report(f"{len(view.patches)} patches at one cost, room for {PICK_TILES}")
        for slot, shown in enumerate(view.patches[:PICK_TILES]):
            lit = view.picking and slot == view.selected
            draw_tile(canvas, tile_box(slot, columns=PICK_COLUMNS, left=1), shown, lit=lit)
    hint(canvas, view.hint)
