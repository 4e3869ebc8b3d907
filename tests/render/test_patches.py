import pytest
from PIL import Image

from companion.engine.catalogue import PATCH_BY_ID, PATCHES
from companion.render.canvas import Box, Canvas
from companion.render.patches import (
    button_hole,
    button_indices,
    common_cell,
    draw_patch,
    fit_cell,
    layout_patch,
    patch_label,
)
from companion.testing.sample_sheet import draw_patch_label
from companion.text.font import SMALL


def components(image: Image.Image, diagonal: bool = False) -> list[set[tuple[int, int]]]:
    """Groups of lit pixels touching side to side (and corner to corner if `diagonal`)."""
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if diagonal:
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    pixels = {
        (x, y) for y in range(image.height) for x in range(image.width) if image.getpixel((x, y))
    }
    groups = []
    while pixels:
        stack = [pixels.pop()]
        group = set(stack)
        while stack:
            x, y = stack.pop()
            for neighbour in ((x + dx, y + dy) for dx, dy in steps):
                if neighbour in pixels:
                    pixels.remove(neighbour)
                    group.add(neighbour)
                    stack.append(neighbour)
        groups.append(group)
    return groups


@pytest.mark.parametrize("patch", PATCHES, ids=lambda p: p.id)
@pytest.mark.parametrize("box", [Box(0, 0, 128, 64), Box(3, 5, 40, 20), Box(0, 0, 14, 14)])
def test_each_square_is_one_separate_block(patch, box):
    canvas = Canvas()
    layout = draw_patch(canvas, box, patch)
    assert canvas.overflows == []
    assert len(layout.squares) == patch.squares
    assert len(components(canvas.image)) == patch.squares
    assert box.contains(layout.bounds)


@pytest.mark.parametrize("patch", PATCHES, ids=lambda p: p.id)
def test_button_marks_match_the_catalogue(patch):
    canvas = Canvas()
    layout = draw_patch(canvas, Box(0, 0, 60, 60), patch)
    assert layout.cell >= 3
    holes = [button_hole(s) for s in layout.button_squares]
    assert len(holes) == patch.buttons
    for hole in holes:
        assert canvas.image.getpixel((hole.x, hole.y)) == 0
    marked = sum(
        1
        for s in layout.squares
        if canvas.image.getpixel((s.x + s.width // 2, s.y + s.width // 2)) == 0
    )
    assert marked == patch.buttons


def test_no_button_marks_when_squares_are_tiny():
    layout = layout_patch(PATCH_BY_ID["P32"], Box(0, 0, 7, 3))
    assert layout.cell == 1
    assert layout.button_squares == ()


def test_fit_cell_is_the_largest_that_fits():
    # "#####": 5 squares at cell c take 5c + 4 px.
    assert fit_cell(5, 1, Box(0, 0, 29, 10)) == 5
    assert fit_cell(5, 1, Box(0, 0, 28, 10)) == 4
    assert fit_cell(2, 2, Box(0, 0, 100, 7)) == 3
    assert fit_cell(5, 3, Box(0, 0, 3, 3)) == 0


def test_common_cell_draws_patches_at_the_same_scale():
    box = Box(0, 0, 30, 20)
    cell = common_cell(PATCHES, box)
    assert cell == fit_cell(5, 3, box)  # the 5-wide, 3-tall P05 is the limiting one
    for patch in PATCHES:
        assert layout_patch(patch, box, cell).cell == cell


def test_patch_too_big_is_reported_not_drawn():
    canvas = Canvas()
    draw_patch(canvas, Box(0, 0, 6, 6), PATCH_BY_ID["P25"])
    assert len(canvas.overflows) == 1
    assert canvas.image.getbbox() is None


@pytest.mark.parametrize("patch", PATCHES, ids=lambda p: p.id)
def test_unaffordable_patch_is_hatched_but_countable(patch):
    canvas = Canvas()
    layout = draw_patch(canvas, Box(0, 0, 60, 40), patch, affordable=False)
    for square in layout.squares:
        assert canvas.image.getpixel((square.x, square.y)) == 255
        inside = [
            canvas.image.getpixel((x, y))
            for x in range(square.x + 1, square.right - 1)
            for y in range(square.y + 1, square.bottom - 1)
        ]
        assert 0 in inside  # dimmed, not solid
    # The checkerboard touches its outline only at corners; squares still never touch.
    assert len(components(canvas.image, diagonal=True)) == patch.squares


def test_button_indices_spread_over_the_squares():
    assert button_indices(6, 1) == (3,)
    assert button_indices(4, 3) == (0, 2, 3)
    assert button_indices(5, 0) == ()
    for patch in PATCHES:
        chosen = button_indices(patch.squares, patch.buttons)
        assert len(set(chosen)) == patch.buttons
        assert all(0 <= i < patch.squares for i in chosen)


def test_labels_fit_a_third_of_the_display():
    for patch in PATCHES:
        canvas = Canvas()
        draw_patch_label(canvas, Box(0, 0, 128 // 3, 8), patch)
        assert canvas.overflows == [], patch.id
    assert SMALL.text_width(patch_label(PATCH_BY_ID["P32"], compact=True)) == 41
