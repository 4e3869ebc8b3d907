"""Every text a game shows is looked up in the player's language: the app is run in a
"marked" language whose every text is its English between ⟦ ⟧, and any text on any
screen outside the marks (other than numbers, patch ids, 7x7 and icons) was not."""

from __future__ import annotations

import dataclasses
import errno
import gettext
import os
import re
import string
import unicodedata
from pathlib import Path

import pytest
from helpers import companion_in, damaged_database, play_games, started_game, visit_menus

from companion.app.companion import Companion
from companion.inputs.events import Input
from companion.render.screens import render_canvas
from companion.storage.files import StorageError
from companion.testing.catalogs import placeholders
from companion.text.language import LANGUAGE_NAMES, Words, msg, words_for
from companion.views import QuestionView, TextView, TurnLine

OPEN, CLOSE = "\u27e6", "\u27e7"
"""⟦ ⟧ round every looked-up text in the marked language below."""


def marked_text(key: str) -> str:
    """`key` with its own words between ⟦ ⟧ and its placeholders outside them, so what
    fills a placeholder is checked too (a reason from the system, a name).

    >>> marked_text("{what} was not saved: {reason}.")
    '{what}⟦ was not saved: ⟧{reason}⟦.⟧'
    """
    parts = []
    for literal, name, spec, conversion in string.Formatter().parse(key):
        parts.append(f"{OPEN}{literal}{CLOSE}" if literal else "")
        if name is not None:
            parts.append(
                "{"
                + name
                + (f"!{conversion}" if conversion else "")
                + (f":{spec}" if spec else "")
                + "}"
            )
    return "".join(parts)


class Marked(gettext.NullTranslations):
    """A catalog whose every text is its English, its words between ⟦ ⟧."""

    def gettext(self, message: str) -> str:
        return marked_text(message)

    def pgettext(self, context: str, message: str) -> str:
        return marked_text(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return marked_text(msgid1 if n == 1 else msgid2)


def marked_words() -> Words:
    """A language whose every text is its English, its words between ⟦ ⟧."""
    return Words("en", Marked())


def unmarked(text: str) -> str:
    """What is left of `text` outside every ⟦…⟧ (innermost first: texts nest)."""
    inner = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
    while True:
        shorter = inner.sub(" ", text)
        if shorter == text:
            return text
        text = shorter


NOT_WORDS = re.compile(
    r"companion-damaged-[\d -]+\.db|earlier-build|P\d\d|\d+x\d+|[0-9A-Z]{4}-[0-9A-Z]{4}|[\d\W_]"
)
"""A database's name as it was kept (broken over lines), patch ids, 7x7, deal codes,
numbers, signs and icons: the same in every language."""


def strings_of(value) -> list[str]:
    """Every text of a view; a page's lines joined (a text wrapped over lines is one)."""
    if isinstance(value, TextView):
        return [value.title, " ".join(value.lines), value.footer]
    if isinstance(value, TurnLine):
        return [value.text]  # its mark is drawn as a sign, not written
    if isinstance(value, str):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [
            s for field in dataclasses.fields(value) for s in strings_of(getattr(value, field.name))
        ]
    if isinstance(value, tuple | list):
        return [s for item in value for s in strings_of(item)]
    return []


SHOWN_AS_THEY_ARE = set(LANGUAGE_NAMES.values()) | {
    words_for(code)("Language") for code in LANGUAGE_NAMES
}
"""The language menu names each language, and itself, in the language under the cursor."""


def has_words(text: str) -> bool:
    left = NOT_WORDS.sub("", text)
    return bool(left) and not unicodedata.category(left[0]).startswith("S")


class Unlooked:
    """Texts found on screens that were not looked up, by the view that showed them."""

    def __init__(self) -> None:
        self.untranslated: dict[str, str] = {}
        self.drawn_by_the_renderer: dict[str, str] = {}

    def check(self, view) -> None:
        texts = strings_of(view)
        for text in texts:
            if text not in SHOWN_AS_THEY_ARE and has_words(unmarked(text)):
                self.untranslated.setdefault(text, type(view).__name__)
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
                self.drawn_by_the_renderer.setdefault(record.text, type(view).__name__)

    def assert_none(self) -> None:
        assert self.untranslated == {}, "\n".join(
            f"{view}: {text!r}" for text, view in self.untranslated.items()
        )
        assert self.drawn_by_the_renderer == {}, "\n".join(
            f"{view}: {text!r}" for text, view in self.drawn_by_the_renderer.items()
        )


@pytest.fixture
def unlooked(monkeypatch):
    words = marked_words()
    monkeypatch.setattr(Companion, "words", property(lambda self: words))
    return Unlooked()


def test_every_text_a_game_shows_is_looked_up_in_the_players_language(tmp_path, unlooked):
    play_games(tmp_path, range(6), lambda seed: "en", unlooked.check)
    visit_menus(companion_in(tmp_path / "menus", "en", 1), unlooked.check)
    unlooked.assert_none()


def damage(state: Path, what: str) -> None:
    """A game under way in `state` whose files are then damaged as `what` says."""
    if what in ("damaged", "left as it is"):
        damaged_database(state)
        return
    started_game(state).store.close()
    if what == "earlier build":
        (state / "journal.jsonl").write_text("{}\n")
    elif what == "settings":
        (state / "settings.json").write_text('{"contrast": "high"}')


def card_read_only(*args, **kwargs):
    raise OSError(errno.EROFS, "Read-only file system")


@pytest.mark.parametrize(
    "what", ["damaged", "left as it is", "earlier build", "settings", "cannot save"]
)
def test_what_the_start_found_is_told_in_the_players_language(
    tmp_path, unlooked, what, monkeypatch
):
    damage(tmp_path, what)
    if what == "left as it is":  # the damaged database cannot be moved aside
        monkeypatch.setattr(os, "rename", card_read_only)
    cannot_save = OSError(errno.EROFS, "Read-only file system") if what == "cannot save" else None
    app = Companion(tmp_path, cannot_save=cannot_save)
    notices = 0
    while isinstance(app.view(), TextView | QuestionView):
        notices += isinstance(app.view(), TextView)
        unlooked.check(app.view())
        app.handle(Input.SELECT)
    assert notices == 1
    unlooked.assert_none()


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EMFILE])
def test_what_was_not_saved_and_why_is_told_in_the_players_language(tmp_path, unlooked, code):
    app = started_game(tmp_path)
    cause = OSError(code, os.strerror(code))
    failure = StorageError("companion.db: not saved", cause)
    app.not_saved(msg("The action"), failure, app.home)
    unlooked.check(app.view())
    unlooked.assert_none()


def test_the_marked_language_marks_every_key():
    # The checks above rely on every key being marked and its placeholders still filled,
    # outside the marks.
    words = marked_words()
    assert unmarked(words("Menu")).strip() == ""
    key = "Income at {marks}: take {total}{button}"
    assert placeholders(key) == {"marks", "total", "button"}
    assert unmarked(words(key, marks=5, total=3)) == " 5 3\u25cf"
    # What fills a placeholder stays outside the marks, where it is checked.
    assert unmarked(
        words(
            "{what} was not saved: {reason}. {advice}",
            what="The game",
            reason="disk full",
            advice="Free space",
        )
    ).split() == ["The", "game", "disk", "full", "Free", "space"]
