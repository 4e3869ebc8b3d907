from PIL import Image

from companion.display.braille import to_braille


def image_with(size, points):
    image = Image.new("1", size)
    for point in points:
        image.putpixel(point, 1)
    return image


def test_blank_display_is_64_by_16_blank_cells():
    lines = to_braille(Image.new("1", (128, 64)))
    assert len(lines) == 16
    assert all(line == "\u2800" * 64 for line in lines)


def test_each_dot_has_its_unicode_bit():
    expected = {
        (0, 0): "\u2801",
        (0, 1): "\u2802",
        (0, 2): "\u2804",
        (1, 0): "\u2808",
        (1, 1): "\u2810",
        (1, 2): "\u2820",
        (0, 3): "\u2840",
        (1, 3): "\u2880",
    }
    for point, char in expected.items():
        assert to_braille(image_with((2, 4), [point])) == [char], point


def test_full_cell_and_left_column():
    assert to_braille(Image.new("1", (2, 4), 1)) == ["\u28ff"]
    left = image_with((2, 4), [(0, y) for y in range(4)])
    assert to_braille(left) == ["\u2847"]  # dots 1, 2, 3, 7


def test_pattern_across_cells():
    image = image_with((4, 8), [(0, 0), (1, 1), (2, 2), (3, 3), (0, 4), (3, 7)])
    assert to_braille(image) == [
        "\u2811\u2884",  # (0,0)+(1,1) = 0x01|0x10; (2,2)+(3,3) = local (0,2)+(1,3) = 0x04|0x80
        "\u2801\u2880",  # (0,4) = local (0,0); (3,7) = local (1,3)
    ]


def test_partial_cells_are_padded_dark():
    assert to_braille(image_with((3, 5), [(2, 4)])) == ["\u2800\u2800", "\u2800\u2801"]
