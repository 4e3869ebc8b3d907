"""Half blocks: two vertically stacked pixels a character, worked out from pixel patterns."""

import pytest
from PIL import Image

from companion.display.half_blocks import to_half_blocks


def image_of(rows: list[str]) -> Image.Image:
    """A one-bit image drawn as text: '#' lit, '.' dark."""
    image = Image.new("1", (len(rows[0]), len(rows)))
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            image.putpixel((x, y), char == "#")
    return image


def test_the_four_pairs_of_a_column():
    # columns: neither lit, upper only, lower only, both
    assert to_half_blocks(image_of([".##.", "..##"])) == [" ▀█▄"]


def test_rows_pair_up_from_the_top():
    rows = [
        "#.",
        "..",
        ".#",
        "#.",
    ]
    assert to_half_blocks(image_of(rows)) == ["▀ ", "▄▀"]


def test_an_odd_last_row_is_drawn_in_upper_halves():
    assert to_half_blocks(image_of(["..", "..", "#."])) == ["  ", "▀ "]


def test_letter_t_of_the_small_font():
    rows = [
        "###",
        ".#.",
        ".#.",
        ".#.",
        ".#.",
    ]
    assert to_half_blocks(image_of(rows)) == ["▀█▀", " █ ", " ▀ "]


def test_scale_two_makes_each_pixel_two_columns_by_one_row():
    assert to_half_blocks(image_of(["#.", ".#"]), scale=2) == ["██  ", "  ██"]


def test_scale_three_spreads_a_pixel_over_three_by_three_half_cells():
    assert to_half_blocks(image_of(["#"]), scale=3) == ["███", "▀▀▀"]


def test_grey_images_are_thresholded():
    image = Image.new("L", (2, 2))
    image.putpixel((0, 0), 255)
    image.putpixel((1, 1), 40)
    assert to_half_blocks(image) == ["▀ "]


def test_the_whole_panel_is_128_columns_by_32_rows():
    lines = to_half_blocks(Image.new("1", (128, 64), 1))
    assert lines == ["█" * 128] * 32


def test_a_scale_below_one_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        to_half_blocks(image_of(["#"]), scale=0)
