"""The main screens (home, a turn, the Automa's turn, the end breakdown) of one seeded
solo game in each language against their golden images, reviewed by eye.

After an intended change, rewrite them with

    python -m companion.testing.language_examples tests/golden

and look at every changed one scaled up (the command also writes a contact sheet of
the whole game per language, tests/golden/<code>-game-<n>.png: delete those after looking).
The README's two pictures of the Automa's turn are the ru and pl goldens 4x larger, and
its picture of the verdicts the en golden: save them again when those change.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from companion.render.screens import render_canvas
from companion.testing.language_examples import MAIN_SCREENS, main_screens
from companion.text.language import LANGUAGE_NAMES

GOLDEN = Path(__file__).parent.parent / "golden"


@cache
def screens(language: str):
    return main_screens(language)


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
@pytest.mark.parametrize("name", MAIN_SCREENS)
def test_main_screen_matches_its_golden_in_each_language(language, name):
    canvas = render_canvas(screens(language)[name])
    assert canvas.overflows == []
    path = GOLDEN / language / f"{name}.png"
    assert path.exists(), f"no golden {path}: write it (see the docstring) and review it"
    golden = Image.open(path).convert("1")
    difference = ImageChops.difference(golden, canvas.image).getbbox()
    assert difference is None, f"{language}/{name} differs from its golden within {difference}"


def test_the_screens_differ_between_languages():
    # Each language's words reach the screen: no two languages draw the same home menu.
    homes = {render_canvas(screens(code)["home"]).image.tobytes() for code in LANGUAGE_NAMES}
    assert len(homes) == len(LANGUAGE_NAMES)


def test_no_stray_language_goldens():
    stored = {path.relative_to(GOLDEN).as_posix() for path in GOLDEN.glob("*/*.png")}
    expected = {f"{code}/{name}.png" for code in LANGUAGE_NAMES for name in MAIN_SCREENS}
    assert stored <= expected


README_PICTURES = {
    ("ru", "automa"): "screen-automa-ru.png",
    ("pl", "automa"): "screen-automa-pl.png",
    ("en", "verdicts"): "screen-verdicts.png",
}
"""The README's pictures of the Automa's turn in two languages and of the verdicts: each
is its golden, 4x larger."""
README_SCALE = 4


@pytest.mark.parametrize(("language", "name"), README_PICTURES)
def test_the_readme_pictures_are_the_goldens_scaled_up(language, name):
    golden = Image.open(GOLDEN / language / f"{name}.png")
    expected = golden.resize(
        (golden.width * README_SCALE, golden.height * README_SCALE), Image.Resampling.NEAREST
    ).convert("L")
    path = Path(__file__).parents[2] / "docs" / README_PICTURES[language, name]
    picture = Image.open(path).convert("L")
    difference = None if picture.size != expected.size else ImageChops.difference(picture, expected)
    assert difference is not None and difference.getbbox() is None, (
        f"{path.name} is not {language}/{name}.png scaled {README_SCALE}x: after changing the "
        "golden, save it again with Image.resize(..., Image.Resampling.NEAREST)"
    )
