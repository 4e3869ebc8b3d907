"""Patch tiles drawn to scale: one lit block per square, countable at a glance.

Squares are `cell`×`cell` blocks with a one-pixel gap, so a player can count
them even at two pixels a square. Buttons drawn on the tile appear as a hole in
the middle of a square (a ring, like the printed button) once a square is at
least three pixels wide. An unaffordable patch is drawn hatched.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from companion.engine.catalogue import PATCH_BY_ID, Patch
from companion.render.canvas import Box, Canvas
from companion.text.font import BUTTON, TIME

GAP = 1
MIN_BUTTON_CELL = 3
"""Below three pixels a hole would leave no visible ring around it."""


class PatchLayout(NamedTuple):
    """Where a patch's squares went: for drawing, hit-testing and tests."""

    cell: int
    bounds: Box
    squares: tuple[Box, ...]
    """One box per `#` of the shape, in reading order."""
    button_squares: tuple[Box, ...]
    """The squares that carry a button mark (empty if they are too small)."""


def fit_cell(shape_width: int, shape_height: int, box: Box) -> int:
    """The largest square size (pixels, gaps excluded) that fits the shape in `box`.

    Zero means it does not fit even at one pixel a square.
    """
    across = (box.width + GAP) // shape_width - GAP
    down = (box.height + GAP) // shape_height - GAP
    return max(0, min(across, down))


def common_cell(patches: Iterable[Patch], box: Box) -> int:
    """One square size at which every patch fits a box of `box`'s size.

    Use it to draw several patches side by side at the same scale, so the
    bigger patch also looks bigger.
    """
    return min(fit_cell(patch.width, patch.height, box) for patch in patches)


def button_indices(squares: int, buttons: int) -> tuple[int, ...]:
    """Which squares (in reading order) get a button mark: spread evenly.

    The catalogue does not say where the buttons are printed, only how many.

    >>> button_indices(6, 1), button_indices(4, 3)
    ((3,), (0, 2, 3))
    """
    buttons = min(buttons, squares)
    return tuple((2 * i + 1) * squares // (2 * buttons) for i in range(buttons))


def layout_patch(patch: Patch, box: Box, cell: int | None = None) -> PatchLayout:
    """Place `patch` centred in `box` at `cell` pixels a square (largest fit if None)."""
    if cell is None:
        cell = fit_cell(patch.width, patch.height, box)
    pitch = cell + GAP
    width = patch.width * pitch - GAP
    height = patch.height * pitch - GAP
    left = box.x + (box.width - width) // 2
    top = box.y + (box.height - height) // 2
    squares = tuple(
        Box(left + column * pitch, top + row * pitch, cell, cell)
        for row, line in enumerate(patch.shape)
        for column, square in enumerate(line)
        if square == "#"
    )
    marked = button_indices(len(squares), patch.buttons) if cell >= MIN_BUTTON_CELL else ()
    return PatchLayout(
        cell=cell,
        bounds=Box(left, top, width, height),
        squares=squares,
        button_squares=tuple(squares[i] for i in marked),
    )


def button_hole(square: Box) -> Box:
    """The dark centre of a square carrying a button, leaving a ring around it."""
    ring = max(1, square.width // 3)
    size = square.width - 2 * ring
    return Box(square.x + ring, square.y + ring, size, size)


def draw_patch(
    canvas: Canvas,
    box: Box,
    patch: Patch,
    *,
    cell: int | None = None,
    affordable: bool = True,
    show_buttons: bool = True,
) -> PatchLayout:
    """Draw `patch` centred in `box`; a patch that does not fit is reported, not drawn.

    `affordable=False` hatches the squares (outline and half-lit inside) so
    the patch reads as greyed out while its squares stay countable.
    """
    layout = layout_patch(patch, box, cell)
    if layout.cell < 1 or not box.contains(layout.bounds):
        canvas.report(f"patch {patch.id} does not fit {box.corners} at cell {layout.cell}")
        return layout
    for square in layout.squares:
        if affordable:
            canvas.fill(square)
        else:
            hatch(canvas, square)
    if show_buttons:
        for square in layout.button_squares:
            # Dark hole in a lit square; on a hatched one a solid dot shows better.
            canvas.fill(button_hole(square), fill=0 if affordable else 1)
    return layout


def hatch(canvas: Canvas, square: Box) -> None:
    """A square's outline filled with a checkerboard: a lit-but-dimmed look.

    The pattern starts lit at the top-left corner, so each square keeps a lit
    corner pixel even at one or two pixels a side.
    """
    if square.width >= MIN_BUTTON_CELL:
        canvas.frame(square)
    # All the pattern's pixels in one call: Pillow's work a call, not a pixel's, is the cost.
    pattern = [
        (square.x + dx, square.y + dy)
        for dy in range(square.height)
        for dx in range(dy % 2, square.width, 2)
    ]
    canvas.draw.point(pattern, fill=255)


def known_patch(canvas: Canvas, patch_id: str) -> Patch | None:
    """The catalogue patch, or None (reported) for an id it does not know."""
    patch = PATCH_BY_ID.get(patch_id)
    if patch is None:
        canvas.report(f"unknown patch {patch_id!r}")
    return patch


def patch_label(patch: Patch, *, compact: bool = False, buttons: bool = True) -> str:
    """The tile's label as text with icons: cost, time, and the buttons it shows.

    `compact` drops the spaces (the icons already separate the numbers), so
    the widest label fits a third of the display. Without `buttons` it is what
    the tile's label prints (cost and time): the patch drawn beside it shows
    its buttons.

    >>> from companion.engine.catalogue import PATCH_BY_ID
    >>> patch_label(PATCH_BY_ID["P32"]) == f"10{BUTTON} 5{TIME} +3{BUTTON}"
    True
    """
    parts = [f"{patch.cost}{BUTTON}", f"{patch.time}{TIME}"]
    if buttons and patch.buttons:
        parts.append(f"+{patch.buttons}{BUTTON}")
    return ("" if compact else " ").join(parts)
