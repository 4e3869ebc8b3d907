"""Korean is drawn in Hangul from the shipped Baekmuk Gulim 12 subset, on 16-pixel lines."""

import unicodedata
from importlib.resources import files

from PIL import Image

from companion.text.font import SMALL
from companion.text.hangul import KOREAN, SUBSET_NAME, read_bdf
from companion.text.language import LANGUAGE_NAMES, characters_used
from companion.text.typefaces import body_font, font_for

REGENERATE = "run scripts/extract-hangul.py to cut the subset again"
GULIM_SYLLABLES = 2350
"""Modern syllables in Gulim 12 (KS C 5601), of its 8226 glyphs."""


def hangul_of(chars: set[str]) -> set[str]:
    return {char for char in chars if unicodedata.name(char, "").startswith("HANGUL")}


def used_hangul() -> set[str]:
    return hangul_of(set().union(*(characters_used(code) for code in LANGUAGE_NAMES)))


def shipped_hangul() -> set[str]:
    subset = files("companion.text").joinpath("fonts", SUBSET_NAME).read_text(encoding="ascii")
    glyphs, _, _ = read_bdf(subset)
    return set(glyphs)


def ink_rows(text: str) -> tuple[int, int]:
    image = Image.new("1", (128, 20))
    KOREAN.draw(image, (0, 2), text)
    bbox = image.getbbox()
    assert bbox is not None
    return bbox[1] - 2, bbox[3] - 1 - 2


def test_every_syllable_a_translation_uses_has_its_glyph():
    missing = used_hangul() - shipped_hangul()
    assert not missing, f"no glyph for {''.join(sorted(missing))}: {REGENERATE}"
    for char in used_hangul():
        assert KOREAN.has_glyph(char) and KOREAN.glyphs[char].pixels, char


def test_only_the_syllables_used_are_shipped():
    unused = shipped_hangul() - used_hangul()
    assert not unused, f"{''.join(sorted(unused))} shipped but unused: {REGENERATE}"
    assert len(shipped_hangul()) < GULIM_SYLLABLES / 4


def test_the_language_menu_names_korean_in_hangul():
    assert hangul_of(set(LANGUAGE_NAMES["ko"])) <= shipped_hangul()


def test_a_korean_line_is_two_pages_tall():
    assert (KOREAN.height, KOREAN.cap_height, KOREAN.line_height) == (11, 10, 16)
    assert 64 // KOREAN.line_height == 4


def test_hangul_fills_the_cell_and_latin_shares_its_baseline():
    # 게: strokes from the cell's top row; 임: its ㅁ ends a row under the baseline.
    assert ink_rows("게임") == (0, 10)
    # A digit stands on the baseline (row 9 is its last), its top 6 rows up.
    assert ink_rows("2") == (4, 9)
    assert ink_rows("새 2인 게임") == (0, 10)


def test_a_syllable_is_twelve_pixels_with_its_gap_inside():
    assert KOREAN.text_width("가") == 12
    assert KOREAN.text_width("가나") == 24
    assert KOREAN.text_width("가 나") == 12 + 3 + 12  # the small font's space and gap
    assert KOREAN.text_width("2인") == 4 + 1 + 12


def test_other_scripts_keep_the_small_fonts_glyphs():
    for char in "AzĄčЖя0●":
        assert KOREAN.glyphs[char] is SMALL.glyphs[char]


def test_the_font_is_chosen_by_language_or_by_the_texts():
    assert body_font("ko") is KOREAN
    assert all(body_font(code) is SMALL for code in ("en", "ru", "pl", "cs"))
    assert font_for(["Ustawienia", "Čeština", "Русский"]) is SMALL
    assert font_for(["Language", "한국어"]) is KOREAN
    # A name typed with a syllable no translation uses is not a reason for tall lines.
    assert font_for(["뷁"]) is SMALL


def test_bdf_reading_by_hand():
    glyphs, ascent, descent = read_bdf(
        "STARTFONT 2.1\nFONT_ASCENT 2\nFONT_DESCENT 1\nCHARS 1\n"
        "STARTCHAR U+AC00\nENCODING 44032\nBBX 3 3 0 -1\nBITMAP\nA0\n40\nE0\nENDCHAR\nENDFONT\n"
    )
    assert (ascent, descent) == (2, 1)
    assert glyphs["가"].rows == ("#.#", ".#.", "###")
    assert glyphs["가"].spacing == 0
