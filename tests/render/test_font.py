import pytest
from helpers import glyph_pixels
from PIL import Image

from companion.text import glyphs
from companion.text.font import (
    BUTTON,
    ICONS,
    LARGE,
    SMALL,
    TIME,
    Font,
    Glyph,
    wrap,
)

PRINTABLE = [chr(code) for code in range(32, 127)]


def lit(image: Image.Image) -> set[tuple[int, int]]:
    return {
        (x, y) for y in range(image.height) for x in range(image.width) if image.getpixel((x, y))
    }


def test_every_printable_ascii_character_has_its_own_glyph():
    for char in PRINTABLE:
        assert char in SMALL.glyphs, char
        glyph = SMALL.glyphs[char]
        assert len(glyph.rows) == SMALL.rows == 7
        assert 1 <= glyph.width <= 5
        # Only the space is meant to be blank.
        assert bool(glyph_pixels(glyph)) == (char != " "), char


def test_capitals_and_digits_stay_above_the_descender_row():
    for char in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789bdhkl":
        assert max(y for _, y in glyph_pixels(SMALL.glyphs[char])) == SMALL.cap_rows - 1, char


def test_only_descenders_reach_the_last_row():
    reaching = {c for c in PRINTABLE if any(y == 6 for _, y in glyph_pixels(SMALL.glyphs[c]))}
    assert reaching == set("gjpqy$,_|")


def test_glyphs_are_distinct():
    seen: dict[tuple[str, ...], str] = {}
    for char in [*PRINTABLE, *ICONS]:
        rows = SMALL.glyphs[char].rows
        assert rows not in seen, f"{char!r} draws the same as {seen.get(rows)!r}"
        seen[rows] = char


def test_digits_are_tabular():
    assert {SMALL.glyphs[d].width for d in "0123456789"} == {4}


def test_metrics():
    assert (SMALL.height, SMALL.cap_height, SMALL.line_height) == (7, 6, 8)
    assert (LARGE.height, LARGE.cap_height, LARGE.line_height) == (14, 12, 16)
    assert 64 // SMALL.line_height == 8


def test_text_width_by_hand():
    assert SMALL.text_width("") == 0
    assert SMALL.text_width("A") == 4
    assert SMALL.text_width("Hi") == 4 + 1 + 1  # H, gap, i
    assert SMALL.text_width("10") == 4 + 1 + 4
    assert SMALL.text_width("M i") == 5 + 1 + 2 + 1 + 1
    assert SMALL.text_width(f"3{BUTTON}") == 4 + 1 + 5
    assert LARGE.text_width("Hi") == 2 * 6


def test_body_text_gets_more_than_21_characters_a_line():
    sentence = "Automa takes P21 and moves to 27"
    per_char = SMALL.text_width(sentence) / len(sentence)
    assert 128 / per_char > 21
    assert SMALL.fits("Player 1 buys P21 for 5", 128)


def test_drawn_pixels_match_the_glyph_exactly():
    image = Image.new("1", (20, 10))
    width = SMALL.draw(image, (3, 2), "T")
    assert width == 3
    expected = {(3 + x, 2 + y) for x, y in glyph_pixels(SMALL.glyphs["T"])}
    assert lit(image) == expected
    assert {value for _, value in image.getcolors()} == {0, 255}  # never grey, never 1


def test_large_letters_are_exactly_twice_small():
    small = Image.new("1", (30, 10))
    large = Image.new("1", (60, 20))
    SMALL.draw(small, (0, 0), "Kg")
    LARGE.draw(large, (0, 0), "Kg")
    assert small.resize(large.size, Image.Resampling.NEAREST).tobytes() == large.tobytes()


def large_digit(digit: str) -> set[tuple[int, int]]:
    image = Image.new("1", (LARGE.text_width(digit), LARGE.height))
    LARGE.draw(image, (0, 0), digit)
    return lit(image)


def closed_loops(digit: str) -> list[set[tuple[int, int]]]:
    """The dark areas of a large digit that ink closes all round (4-connected)."""
    ink = large_digit(digit)
    width, height = LARGE.text_width(digit), LARGE.cap_height
    dark = {(x, y) for x in range(width) for y in range(height)} - ink
    loops = []
    while dark:
        area, frontier = set(), [dark.pop()]
        while frontier:
            x, y = frontier.pop()
            area.add((x, y))
            for step in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if step in dark:
                    dark.discard(step)
                    frontier.append(step)
        if all(0 < x < width - 1 and 0 < y < height - 1 for x, y in area):
            loops.append(area)
    return loops


def test_large_digits_are_tabular_and_stay_above_the_descender_rows():
    for digit in "0123456789":
        assert LARGE.advance(digit) == LARGE.advance("0") == 10, digit
        assert max(y for _, y in large_digit(digit)) == LARGE.cap_height - 1, digit


def test_large_digits_each_differ_from_every_other_by_a_clear_area():
    # Scaled up from the small font, 6 and 8 differed by one small pixel: 4 large ones.
    for first in "0123456789":
        for second in "0123456789":
            if first < second:
                assert len(large_digit(first) ^ large_digit(second)) >= 16, (first, second)


def test_large_eight_has_two_loops_one_above_the_other_and_six_one_below_an_open_top():
    top, bottom = sorted(closed_loops("8"), key=lambda loop: min(y for _, y in loop))
    assert max(y for _, y in top) < min(y for _, y in bottom)
    (six_loop,) = closed_loops("6")
    assert min(y for _, y in six_loop) >= LARGE.cap_height // 2
    # Where the 8 closes its top loop on the right, the 6 is open: no ink in the
    # three right-hand columns between its top row and its loop (a 3x4 gap).
    upper_right = {(x, y) for x in range(5, 8) for y in range(1, 5)}
    assert not large_digit("6") & upper_right
    assert large_digit("8") & upper_right
    (nine_loop,) = closed_loops("9")
    assert max(y for _, y in nine_loop) < LARGE.cap_height // 2
    assert closed_loops("3") == closed_loops("5") == []


def test_characters_outside_the_languages_fall_back_without_crashing():
    # The device's languages draw as they are; a German name typed on a laptop
    # loses its umlaut, and the sign for "times" reads as the x it looks like.
    assert SMALL.normalise("Café – 7×7") == "Café – 7x7"
    assert SMALL.normalise("Jürgen Straße") == "Jurgen Strasse"
    assert SMALL.normalise("€漢\n\t") == "????"
    assert SMALL.normalise(f"5{TIME}") == f"5{TIME}"
    assert SMALL.text_width("€") == SMALL.text_width("?")
    image = Image.new("1", (40, 8))
    SMALL.draw(image, (0, 0), "ü€😀")


def test_max_width_leaves_out_whole_glyphs():
    image = Image.new("1", (40, 8))
    drawn = SMALL.draw(image, (0, 0), "ABCD", max_width=12)
    assert drawn == 9  # "AB" is 9 px; "C" would end at 14
    assert max(x for x, _ in lit(image)) == 8


def test_a_text_drawn_again_cut_shorter_draws_only_the_glyphs_that_fit():
    # A font keeps each text it has drawn; the cut must still follow each draw's width.
    whole, cut = Image.new("1", (40, 8)), Image.new("1", (40, 8))
    assert SMALL.draw(whole, (0, 0), "ABCD") == 4 * 4 + 3
    assert SMALL.draw(cut, (0, 0), "ABCD", max_width=12) == 9
    assert lit(cut) == {(x, y) for x, y in lit(whole) if x < 9}


def test_glyphs_of_different_heights_keep_one_baseline_in_a_text():
    # Each glyph's last row on the line's last row: the accented capital rises
    # one row above the line's top, the letters after it sit on the same baseline.
    image = Image.new("1", (20, 12))
    SMALL.draw(image, (1, 3), "Čas")
    expected, x = set(), 1
    for char in "Čas":
        glyph = SMALL.glyphs[char]
        top = 3 + SMALL.rows - len(glyph.rows)
        expected |= {(x + gx, top + gy) for gx, gy in glyph_pixels(glyph)}
        x += glyph.width + glyph.spacing
    assert min(y for _, y in expected) == 2
    assert lit(image) == expected


def test_a_font_keeps_a_bounded_number_of_texts():
    font = SMALL.scaled(1, "fresh")
    image = Image.new("1", (128, 8))
    for number in range(3000):
        font.draw(image, (0, 0), str(number))
    assert 0 < len(font._typeset) <= 1024
    assert 0 < len(font._text_masks) <= 1024
    assert font.text_width("2999") == SMALL.text_width("2999")


def test_wrap_breaks_at_spaces_and_keeps_long_words_whole():
    assert wrap(SMALL, "aa bb cc", SMALL.text_width("aa bb")) == ["aa bb", "cc"]
    assert wrap(SMALL, "a\nb", 100) == ["a", "b"]
    assert wrap(SMALL, "unbreakable", 10) == ["unbreakable"]


def test_glyph_parse_rejects_ragged_rows():
    assert Glyph.parse("#. .#").width == 2
    for bad in ("#. #", "#x .."):
        try:
            Glyph.parse(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_icons_are_in_the_font():
    assert set(glyphs.ICONS) <= set(SMALL.glyphs)


def test_a_font_refuses_a_glyph_it_has_no_room_for():
    def font(rows: int, **changes: object) -> Font:
        glyphs = {"?": Glyph.parse(" ".join(["#"] * rows)), "a": Glyph.parse("# #")}
        return Font(**{"name": "t", "glyphs": glyphs, "rows": 2, "cap_rows": 2, **changes})

    assert font(3).rise("?") == 1  # one row into the leading above: an accented capital
    with pytest.raises(ValueError, match="taller than a line"):
        font(4)
    assert font(2, scale=2, full_size={"a": Glyph.parse("# # # #")}).text_width("a") == 1
    for full_size in ({"b": Glyph.parse("# # # #")}, {"a": Glyph.parse("# # #")}):
        with pytest.raises(ValueError, match="has no place"):
            font(2, scale=2, full_size=full_size)


def test_every_glyph_of_the_small_font_parses_and_fits_a_line_and_its_leading():
    assert all(len(glyph.rows) <= SMALL.rows + 1 for glyph in SMALL.glyphs.values())
