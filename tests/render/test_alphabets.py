"""The Polish, Czech and Russian alphabets are drawn, letter by letter, with glyphs of their own."""

import unicodedata

import pytest
from helpers import glyph_pixels
from PIL import Image

from companion.text.font import SMALL

# Written out from each language's alphabet, not from the font.
ALPHABETS = {
    "pl": "AĄBCĆDEĘFGHIJKLŁMNŃOÓPRSŚTUWYZŹŻ",
    "cs": "AÁBCČDĎEÉĚFGHIÍJKLMNŇOÓPQRŘSŠTŤUÚŮVWXYÝZŽ",
    "ru": "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ",
}
LETTERS = {language: alphabet + alphabet.lower() for language, alphabet in ALPHABETS.items()}
SAMPLES = {
    "pl": "Zażółć gęślą jaźń",
    "cs": "Příliš žluťoučký kůň",
    "ru": "Съешь же ещё этих булок",
}


def ink_rows(text: str, top: int = 4) -> tuple[int, int]:
    """The first and last lit rows of `text` drawn with its line's top at `top`."""
    image = Image.new("1", (128, 16))
    SMALL.draw(image, (0, top), text)
    bbox = image.getbbox()
    assert bbox is not None
    return bbox[1] - top, bbox[3] - 1 - top


@pytest.mark.parametrize("language", sorted(LETTERS))
def test_every_letter_has_a_glyph_of_its_own(language):
    for letter in LETTERS[language]:
        assert SMALL.has_glyph(letter), letter
        assert SMALL.normalise(letter) == letter
        assert glyph_pixels(SMALL.glyphs[letter]), letter


@pytest.mark.parametrize("language", sorted(LETTERS))
def test_no_two_letters_of_an_alphabet_look_the_same(language):
    seen: dict[tuple[str, ...], str] = {}
    for letter in LETTERS[language]:
        rows = SMALL.glyphs[letter].rows
        assert rows not in seen, f"{letter} draws the same as {seen.get(rows)}"
        seen[rows] = letter


def test_an_accented_letter_is_its_letter_with_a_mark_not_the_bare_letter():
    for letter in LETTERS["pl"] + LETTERS["cs"]:
        base = unicodedata.normalize("NFD", letter)[0]
        if base != letter:
            assert SMALL.glyphs[letter].rows != SMALL.glyphs[base].rows, letter


def test_lowercase_accents_stay_inside_the_line():
    # Lowercase letters are 4 rows tall with 2 rows above for the mark, so
    # every lowercase letter of every alphabet fits the line's 7 rows.
    for letters in ALPHABETS.values():
        for letter in letters.lower():
            assert len(SMALL.glyphs[letter].rows) == 7, letter


def test_only_capitals_with_a_mark_above_rise_one_row():
    risers = {
        letter
        for letters in ALPHABETS.values()
        for letter in letters
        if len(SMALL.glyphs[letter].rows) == 8
    }
    assert risers == set("ĆŃÓŚŹŻÁČĎÉĚÍŇŘŠŤÚŮÝŽЁЙ")


@pytest.mark.parametrize("language", sorted(SAMPLES))
def test_a_sample_line_sits_in_its_rows(language):
    # Ascenders and capitals start on the line's first row, descenders
    # (g ę ą j ý щ) end on its seventh.
    assert ink_rows(SAMPLES[language]) == (0, 6)


MARKED_CAPITALS = "ĆŃÓŚŹŻ" + "ÁČĎÉĚÍŇŘŠŤÚŮÝŽ" + "ЁЙ"
"""The capitals of the three alphabets with a mark above, written out by hand."""


def lit_rows(text: str, top: int = 4) -> list[int]:
    """The rows of `text` with any pixel lit, drawn with its line's top at `top`."""
    image = Image.new("1", (32, 16))
    SMALL.draw(image, (0, top), text)
    return [y - top for y in range(image.height) if image.crop((0, y, 32, y + 1)).getbbox()]


@pytest.mark.parametrize("capital", MARKED_CAPITALS, ids=unicodedata.name)
def test_a_capital_mark_stands_apart_from_its_letter_within_the_line(capital):
    # The mark in the leading above the line (row -1), the line's first row dark,
    # the letter on rows 1-5: a mark touching its letter reads as part of it.
    assert lit_rows(capital) == [-1, 1, 2, 3, 4, 5]


def test_a_capital_mark_rises_into_the_leading_above():
    # Ż: the dot one row above the line, the letter on rows 1-5.
    assert ink_rows("Żaba") == (-1, 5)
    assert ink_rows("Čas") == (-1, 5)
    assert ink_rows("Ёж") == (-1, 5)


def test_widths_by_hand():
    assert SMALL.text_width("č") == 3
    assert SMALL.text_width("łąka") == 3 + 1 + 5 + 1 + 4 + 1 + 4
    assert SMALL.text_width("ďas") == 6 + 1 + 4 + 1 + 4
    assert SMALL.text_width("Шар") == 5 + 1 + 4 + 1 + 4
