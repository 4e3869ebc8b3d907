"""The device's languages: every word a screen shows, looked up in one catalog per language.

The key of a text is its English wording, so the English catalog is the keys
themselves and each translation file (`companion/text/translations/<code>.py`)
reads as a list of English texts with their translations beside them::

    words = words_for("pl")
    words("Income at {marks}: take {total}{button}", marks="5", total=2)
    -> 'Dochód na 5: weź 2●'

Numbers and names go into named placeholders (`{total}`), so a translation can
put them where its grammar wants them; the icons are placeholders every text
may use (`{button}`, `{check}`, `{cross}`, `{arrow}`, `{to}`). A text chosen at
run time (a filter's name, a difficulty) is written where it is chosen with
`msg("largest")`, so that every key stands literally in the code:
`tests/test_languages.py` reads the code for `words("…")` and `msg("…")` and
checks each catalog has exactly those keys, with the same placeholders.

A key may start with a context in brackets, `"[board] You"`: the same English
("You") where a language needs other words, here the board's header, which is
drawn in the small font alone (no Hangul). English shows it without the context.

Log files and the command line stay English: only screens use this.
"""

from __future__ import annotations

import importlib
import logging
import re
import string
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from companion.text.glyphs import ARROW_RIGHT, ARROW_TO, BUTTON, CHECK, CROSS

log = logging.getLogger(__name__)

CONTEXT = re.compile(r"^\[[a-z ]+\] ")
"""A key's leading context, e.g. "[board] ": not part of the English text."""

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


def placeholders(text: str) -> set[str]:
    """The named placeholders of `text`, icons included.

    >>> sorted(placeholders("Buy {patch}: pay {cost}{button}"))
    ['button', 'cost', 'patch']
    """
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


class Words:
    """One language's words: call it with a key (the English text) and its fields."""

    def __init__(self, language: str, catalog: Mapping[str, str]) -> None:
        self.language = language
        self.catalog = catalog
        """Key -> translation; empty for English, whose keys are the texts."""
        self._missing: set[str] = set()
        """The keys without a translation already logged."""

    def __call__(self, key: str, /, **fields: object) -> str:
        text = self.catalog.get(key)
        if text is None:
            text = CONTEXT.sub("", key)
            if self.language != ENGLISH and key not in self._missing:
                # Never a crash over a missing translation: the English text, logged once.
                self._missing.add(key)
                log.warning("no %s translation of %r", self.language, key)
        return text.format_map({**ICON_FIELDS, **fields})


def catalog(language: str) -> Mapping[str, str]:
    """The translations of `language` (empty for English); KeyError for an unknown code."""
    if language not in LANGUAGE_NAMES:
        raise KeyError(language)
    if language == ENGLISH:
        return MappingProxyType({})
    module = importlib.import_module(f"companion.text.translations.{language}")
    return MappingProxyType(module.TRANSLATIONS)


@cache
def words_for(language: str) -> Words:
    """The words of `language` (a code of `LANGUAGE_NAMES`)."""
    return Words(language, catalog(language))


def characters_used(language: str) -> set[str]:
    """Every character the translations of `language` can show (the fonts must draw these).

    >>> sorted(characters_used("en"))[:3]
    [' ', '!', '"']
    """
    texts = catalog(language).values() if language != ENGLISH else ()
    used = {char for text in texts for char in text}
    used |= {char for name in LANGUAGE_NAMES.values() for char in name}
    used |= set("".join(ICON_FIELDS.values()))
    used |= {chr(code) for code in range(32, 127)}
    return used
