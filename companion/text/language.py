"""The device's languages: every word a screen shows, looked up in one gettext catalog per
language.

Each language's catalog is `companion/text/locale/<code>/LC_MESSAGES/companion.po`, the
format translators' tools read (Poedit, Weblate, Transifex); building the package
compiles each to the `.mo` beside it (setup.py), which the standard library's `gettext`
reads here. A message's id is its English text, so English needs no catalog::

    words = words_for("pl")
    words("Income at {marks}: take {total}{button}", marks="5", total=2)
    -> 'Dochód na 5: weź 2●'

Numbers and names go into named placeholders (`{total}`), so a translation can put them
where its grammar wants them; the icons are placeholders every text may use
(`{button}`, `{check}`, `{cross}`, `{arrow}`, `{to}`). A text with a number of things
in it, `{count}`, is looked up with that number (`words.counted`), and each catalog
has as many forms of it as its language's plural rule has (`Plural-Forms`: Russian,
Polish and Czech three, Korean one). A text chosen at run time (a filter's name, a
difficulty) is written where it is chosen with `msg("largest")` (one with a count,
`counted_msg("…", "…")`), so that every message stands literally in the code:
`tests/test_languages.py` reads the code for `words("…")`, `words.counted("…", "…")`,
`msg("…")` and `counted_msg("…", "…")` and checks each catalog has exactly those
messages, translated, with the same placeholders.

A message may start with a context in brackets, `"[board] You"`: the same English
("You") where a language needs other words, here the board's header, which is drawn
in the small font alone (no Hangul). The catalogs hold it as `msgctxt "board"`;
English shows the text without the context.

Log files and the command line stay English: only screens use this.
"""

from __future__ import annotations

import gettext
import logging
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

from companion.text.glyphs import ARROW_RIGHT, ARROW_TO, BUTTON, CHECK, CROSS

log = logging.getLogger(__name__)

CONTEXT = re.compile(r"^\[([a-z ]+)\] ")
"""A message's leading context, e.g. "[board] ": not part of the English text."""

DOMAIN = "companion"
"""The catalogs' file name: locale/<code>/LC_MESSAGES/companion.mo."""
LOCALE_DIR = Path(__file__).parent / "locale"

ENGLISH = "en"
LANGUAGE_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "en": "English",
        "ru": "Русский",
        "pl": "Polski",
        "cs": "Čeština",
        "ko": "한국어",
    }
)
"""Every language of the device, named in itself (as a player looks for their own)."""

ICON_FIELDS: Mapping[str, str] = MappingProxyType(
    {"button": BUTTON, "check": CHECK, "cross": CROSS, "arrow": ARROW_RIGHT, "to": ARROW_TO}
)
"""Placeholders every text may use without being given them."""


def msg(key: str) -> str:
    """Mark `key` as a text to translate where it is looked up later (by `Words`)."""
    return key


def counted_msg(singular: str, plural: str) -> tuple[str, str]:
    """Mark a text with a count to translate where it is looked up later, with its count
    (`Words.counted(*text, count=…)`)."""
    return singular, plural


def split_context(key: str) -> tuple[str | None, str]:
    """A message's context and its English text.

    >>> split_context("[board] You")
    ('board', 'You')
    >>> split_context("You")
    (None, 'You')
    """
    found = CONTEXT.match(key)
    if found is None:
        return None, key
    return found.group(1), key[found.end() :]


class Words:
    """One language's words: call it with a message (the English text) and its fields."""

    def __init__(self, language: str, translations: gettext.NullTranslations) -> None:
        self.language = language
        self.translations = translations

    def __call__(self, key: str, /, **fields: object) -> str:
        context, text = split_context(key)
        if context is None:
            translated = self.translations.gettext(text)
        else:
            translated = self.translations.pgettext(context, text)
        return translated.format_map({**ICON_FIELDS, **fields})

    def counted(self, singular: str, plural: str, /, count: int, **fields: object) -> str:
        """A text with a number of things in it, in the form the language's plural rule
        gives `count` (filled in as `{count}`, with the other fields)."""
        translated = self.translations.ngettext(singular, plural, count)
        return translated.format_map({**ICON_FIELDS, **fields, "count": count})


class EnglishShown(gettext.NullTranslations):
    """What a catalog falls back on: the English text, each message without a translation
    logged once. Never a crash over a missing translation."""

    def __init__(self, language: str) -> None:
        super().__init__()
        self.language = language
        self.missing: set[str] = set()
        """The messages without a translation already logged."""

    def _missing(self, message: str) -> None:
        if self.language != ENGLISH and message not in self.missing:
            self.missing.add(message)
            log.warning("no %s translation of %r", self.language, message)

    def gettext(self, message: str) -> str:
        self._missing(message)
        return message

    def pgettext(self, context: str, message: str) -> str:
        self._missing(f"[{context}] {message}")
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        self._missing(msgid1)
        return msgid1 if n == 1 else msgid2


def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalog of `language` (English: its messages as they are); KeyError
    for a code the device does not know."""
    if language not in LANGUAGE_NAMES:
        raise KeyError(language)
    shown = EnglishShown(language)
    if language == ENGLISH:
        return shown
    try:
        catalog = gettext.translation(DOMAIN, LOCALE_DIR, languages=[language])
    except OSError as error:
        # A package built without its catalogs: the screens in English, said once.
        log.error("no %s catalog (%s): the screens are in English", language, error)
        return shown
    catalog.add_fallback(shown)
    return catalog


@cache
def words_for(language: str) -> Words:
    """The words of `language` (a code of `LANGUAGE_NAMES`)."""
    return Words(language, translations(language))
