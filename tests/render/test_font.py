from PIL import Image

from companion.text import glyphs
from companion.text.font import BUTTON, ICONS, LARGE, SMALL, TIME, Glyph, wrap

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
        assert bool(glyph.pixels) == (char != " "), char


def test_capitals_and_digits_stay_above_the_descender_row():
    for char in "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789bdhkl":
        assert max(y for _, y in SMALL.glyphs[char].pixels) == SMALL.cap_rows - 1, char


def test_only_descenders_reach_the_last_row():
    reaching = {c for c in PRINTABLE if any(y == 6 for _, y in SMALL.glyphs[c].pixels)}
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
    expected = {(3 + x, 2 + y) for x, y in SMALL.glyphs["T"].pixels}
    assert lit(image) == expected
    assert {value for _, value in image.getcolors()} == {0, 255}  # never grey, never 1


def test_large_is_exactly_twice_small():
    small = Image.new("1", (30, 10))
    large = Image.new("1", (60, 20))
    SMALL.draw(small, (0, 0), "7g")
    LARGE.draw(large, (0, 0), "7g")
    assert small.resize(large.size, Image.Resampling.NEAREST).tobytes() == large.tobytes()


def test_non_ascii_falls_back_without_crashing():
    assert SMALL.normalise("Café – 7×7") == "Cafe - 7x7"
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
