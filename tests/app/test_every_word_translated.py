"""Every text a game shows is looked up in the player's language: the app is run in a
"marked" language whose every text is its English between ⟦ ⟧, and any text on any
screen outside the marks (other than numbers, patch ids, 7x7 and icons) was not."""

from __future__ import annotations

import dataclasses
import re
import unicodedata

from helpers import companion_in, play_games, visit_menus

from companion.app.companion import Companion
from companion.render.screens import render_canvas
from companion.text.language import LANGUAGE_NAMES, Words, catalog, placeholders, words_for
from companion.views import TextView

OPEN, CLOSE = "\u27e6", "\u27e7"
"""⟦ ⟧ round every looked-up text in the marked language below."""


def marked_words() -> Words:
    """A language whose every text is its English between ⟦ ⟧, placeholders kept."""
    keys = catalog("ru")
    return Words("en", {key: f"{OPEN}{key}{CLOSE}" for key in keys})


def unmarked(text: str) -> str:
    """What is left of `text` outside every ⟦…⟧ (innermost first: texts nest)."""
    inner = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
    while True:
        shorter = inner.sub(" ", text)
        if shorter == text:
            return text
        text = shorter


NOT_WORDS = re.compile(r"P\d\d|\d+x\d+|[\d\W_]")
"""Patch ids, 7x7, numbers, signs and icons: the same in every language."""


def strings_of(value) -> list[str]:
    """Every text of a view; a page's lines joined (a text wrapped over lines is one)."""
    if isinstance(value, TextView):
        return [value.title, " ".join(value.lines), value.footer]
    if isinstance(value, str):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [
            s for field in dataclasses.fields(value) for s in strings_of(getattr(value, field.name))
        ]
    if isinstance(value, tuple | list):
        return [s for item in value for s in strings_of(item)]
    return []


def test_every_text_a_game_shows_is_looked_up_in_the_players_language(tmp_path, monkeypatch):
    words = marked_words()
    monkeypatch.setattr(Companion, "words", property(lambda self: words))
    untranslated: dict[str, str] = {}
    drawn_by_the_renderer: dict[str, str] = {}
    # The language menu names each language, and itself, in the language under the cursor.
    shown = set(LANGUAGE_NAMES.values()) | {words_for(code)("Language") for code in LANGUAGE_NAMES}

    def has_words(text: str) -> bool:
        left = NOT_WORDS.sub("", text)
        return bool(left) and not unicodedata.category(left[0]).startswith("S")

    def check(view):
        texts = strings_of(view)
        for text in texts:
            if text not in shown and has_words(unmarked(text)):
                untranslated.setdefault(text, type(view).__name__)
        # The renderer words nothing: whatever it draws is (a wrapped piece of) the view's.
        # (A row may join a few of the view's texts: the header's label and buttons.)
        for record in render_canvas(view).texts:
            if any(record.text in text for text in texts):
                continue
            rest = record.text
            # Only texts with words: taking a bare score ("7") out of "7x7" leaves an "x".
            for text in sorted(filter(has_words, texts), key=len, reverse=True):
                rest = rest.replace(text, " ")
            if has_words(rest):
                drawn_by_the_renderer.setdefault(record.text, type(view).__name__)

    play_games(tmp_path, range(6), lambda seed: "en", check)
    visit_menus(companion_in(tmp_path / "menus", "en", 1), check)
    assert untranslated == {}, "\n".join(f"{view}: {text!r}" for text, view in untranslated.items())
    assert drawn_by_the_renderer == {}, "\n".join(
        f"{view}: {text!r}" for text, view in drawn_by_the_renderer.items()
    )


def test_the_marked_language_marks_every_key():
    # The check above relies on every key being marked and its placeholders still filled.
    words = marked_words()
    assert unmarked(words("Menu")).strip() == ""
    key = "Income at {marks}: take {total}{button}"
    assert placeholders(key) == {"marks", "total", "button"}
    assert words(key, marks=5, total=3).startswith(f"{OPEN}Income at 5")
