"""Korean is drawn in Hangul from the shipped Baekmuk Gulim 12 subset, on 16-pixel lines, and
the Automa's card from the Gulim 10 one, on 10-pixel lines."""

import logging
import subprocess
import sys
import unicodedata
from importlib.resources import files

import pytest
from helpers import glyph_pixels
from PIL import Image

from companion.testing.catalogs import characters_used
from companion.text import hangul
from companion.text.font import SMALL
from companion.text.hangul import GULIM_10, GULIM_12, KOREAN, KOREAN_DENSE, read_bdf
from companion.text.language import LANGUAGE_NAMES
from companion.text.typefaces import body_font, font_for

REGENERATE = "run scripts/extract-hangul.py to cut the subsets again"
SUBSET_NAME = GULIM_12.subset_name
GULIM_SYLLABLES = 2350
"""Modern syllables in Gulim 12 (KS C 5601), of its 8226 glyphs."""


def hangul_of(chars: set[str]) -> set[str]:
    return {char for char in chars if unicodedata.name(char, "").startswith("HANGUL")}


def used_hangul() -> set[str]:
    return hangul_of(set().union(*(characters_used(code) for code in LANGUAGE_NAMES)))


def shipped_hangul(subset_name: str = SUBSET_NAME) -> set[str]:
    subset = files("companion.text").joinpath("fonts", subset_name).read_text(encoding="ascii")
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
        assert KOREAN.has_glyph(char) and glyph_pixels(KOREAN.glyphs[char]), char


def test_only_the_syllables_used_are_shipped():
    unused = shipped_hangul() - used_hangul()
    assert not unused, f"{''.join(sorted(unused))} shipped but unused: {REGENERATE}"
    assert len(shipped_hangul()) < GULIM_SYLLABLES / 4


def test_the_automa_s_card_has_the_same_syllables_in_gulim_10():
    assert shipped_hangul(GULIM_10.subset_name) == shipped_hangul(), REGENERATE
    for char in used_hangul():
        assert KOREAN_DENSE.has_glyph(char) and glyph_pixels(KOREAN_DENSE.glyphs[char]), char


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


def test_the_dense_font_holds_six_lines_and_its_figures_stand_on_the_baseline():
    assert (KOREAN_DENSE.height, KOREAN_DENSE.cap_height, KOREAN_DENSE.line_height) == (9, 8, 10)
    assert 64 // KOREAN_DENSE.line_height == 6
    image = Image.new("1", (128, 20))
    KOREAN_DENSE.draw(image, (0, 2), "카드 17")
    syllables, figures = (
        image.crop((0, 0, 22, 20)).getbbox(),
        image.crop((22, 0, 128, 20)).getbbox(),
    )
    assert syllables is not None and figures is not None
    # 카드: ink from the cell's top row to the row under the baseline; 17 on the baseline.
    assert (syllables[1] - 2, syllables[3] - 1 - 2) == (0, 8)
    assert (figures[1] - 2, figures[3] - 1 - 2) == (2, 7)
    # Eleven pixels a syllable, its gap inside: Gulim 10 fills its own ten.
    assert KOREAN_DENSE.text_width("가나") == 22


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


GOOD_BDF = (
    "STARTFONT 2.1\nFONT_ASCENT 10\nFONT_DESCENT 1\nCHARS 1\nSTARTCHAR U+AC00\n"
    "ENCODING 44032\nBBX 2 11 0 -1\nBITMAP\n" + "C0\n" * 11 + "ENDCHAR\nENDFONT\n"
)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "no ENDFONT"),
        (GOOD_BDF.replace("FONT_ASCENT 10\n", ""), "no FONT_ASCENT"),
        (GOOD_BDF[: GOOD_BDF.index("C0\nENDCHAR")], "line 18: the bitmap is cut short"),
        (GOOD_BDF.replace("ENDFONT\n", ""), "no ENDFONT"),
        (GOOD_BDF.replace("ENCODING 44032", "ENCODING 99999999999"), "line 6"),
        (GOOD_BDF.replace("ENCODING 44032", "ENCODING x"), "line 6"),
        (GOOD_BDF.replace("BBX 2 11", "BBX 40 11"), "line 8"),
        (GOOD_BDF.replace("C0\n", "zz\n", 1), "line 9"),
        (GOOD_BDF.replace("BBX 2 11", "BBX 12 11"), "narrower than 12"),
    ],
)
def test_a_damaged_bdf_is_one_value_error_naming_the_problem(text, problem):
    with pytest.raises(ValueError, match=problem):
        read_bdf(text)
    assert read_bdf(GOOD_BDF)[0]["가"].rows == ("##",) * 11


@pytest.mark.parametrize(
    "subset",
    [
        None,
        b"\xff\xfe",
        GOOD_BDF.replace("FONT_ASCENT 10", "FONT_ASCENT 9").encode(),
        GOOD_BDF.replace("ENCODING 44032", "ENCODING 65").encode(),
    ],
    ids=["missing", "not text", "other metrics", "not Hangul"],
)
def test_an_unusable_subset_leaves_korean_in_question_marks(subset, tmp_path, monkeypatch, caplog):
    (tmp_path / "fonts").mkdir()
    if subset is not None:
        (tmp_path / "fonts" / SUBSET_NAME).write_bytes(subset)
    monkeypatch.setattr(hangul, "files", lambda package: tmp_path)
    caplog.set_level(logging.WARNING)
    korean = hangul._build_korean("korean", GULIM_12, hangul.LINE_HEIGHT)
    # The layout's measurements are kept without reading the subset.
    assert (korean.height, korean.cap_height, korean.line_height) == (11, 10, 16)
    assert not caplog.records
    # Read at the first Hangul asked for: one warning, every syllable the small font's '?'.
    assert not korean.has_glyph("게")
    assert [record.getMessage().count("\n") for record in caplog.records] == [0]
    assert SUBSET_NAME in caplog.text
    assert korean.normalise("게임 2 A") == "?? 2 A"
    assert korean.glyphs["A"] is SMALL.glyphs["A"]  # the small font's, whatever the subset holds
    assert len(caplog.records) == 1  # read once
    monkeypatch.undo()
    assert font_for(["게임"]) is KOREAN  # the module's own font is unaffected


def test_the_shipped_subset_is_read_without_a_warning(tmp_path, monkeypatch, caplog):
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / SUBSET_NAME).write_text(GOOD_BDF)
    monkeypatch.setattr(hangul, "files", lambda package: tmp_path)
    korean = hangul._build_korean("korean", GULIM_12, hangul.LINE_HEIGHT)
    assert korean.glyphs["가"].rows == ("##",) * 11
    assert not caplog.records
    assert sorted(korean.glyphs) == sorted({*SMALL.glyphs, "가"})


def test_hangul_is_every_character_unicode_names_hangul():
    # What scripts/extract-hangul.py may cut into the subset; all others come from SMALL.
    for code in range(0x10000):
        char = chr(code)
        named = unicodedata.name(char, "")
        assert hangul.is_hangul(char) == named.startswith("HANGUL") or not named, hex(code)


FIRST_FRAMES = """
import itertools, json, random, sys, tempfile
from pathlib import Path
opened = []
sys.addaudithook(lambda event, args: event == "open" and opened.append(str(args[0])))
from companion.app.companion import Companion
from companion.render.screens import render
from companion.testing.autoplay import inputs_for, random_choice, start_game
def subset_read():
    return any(path.endswith("-hangul.bdf") for path in opened)
english = Path(tempfile.mkdtemp())
(english / "settings.json").write_text(json.dumps({"language": "en"}))
app, rng = Companion(english, itertools.count().__next__), random.Random(0)
render(app.view())
home = subset_read()
start_game(app, True, False, rng)
choose = random_choice(rng)
for _ in range(40):
    for item in inputs_for(app.view(), choose, rng):
        app.handle(item)
        render(app.view())
game = subset_read()
render(Companion(Path(tempfile.mkdtemp()), ask_language=True).view())  # the language menu
print(home, game, subset_read())
"""


def test_an_english_device_never_reads_the_korean_subsets():
    # In a process of its own: this one may have read it already. The language menu of a
    # very first start names Korean in Hangul, so it reads it; an English home menu and game
    # do not.
    result = subprocess.run(
        [sys.executable, "-c", FIRST_FRAMES], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == ["False", "False", "True"], result.stderr
