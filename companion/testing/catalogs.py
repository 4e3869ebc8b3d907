"""The catalogs as translators write them (`.po`), read with Babel: what the tests check
and the font scripts draw. The device itself reads the compiled `.mo` with the
standard library (`companion.text.language`).
"""

from __future__ import annotations

import string
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from companion.text.language import DOMAIN, ENGLISH, ICON_FIELDS, LANGUAGE_NAMES, LOCALE_DIR

TRANSLATED = tuple(code for code in LANGUAGE_NAMES if code != ENGLISH)
"""Every language with a catalog (English is the messages themselves)."""


def placeholders(text: str) -> set[str]:
    """The named placeholders of `text`, icons included.

    >>> sorted(placeholders("Buy {patch}: pay {cost}{button}"))
    ['button', 'cost', 'patch']
    """
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def catalog_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(language: str) -> Catalog:
    with catalog_path(language).open("rb") as source:
        return read_po(source, locale=language)


def _texts(value: object) -> tuple[str, ...]:
    return tuple(str(text) for text in value) if isinstance(value, tuple | list) else (str(value),)


def english(message: Message) -> tuple[str, ...]:
    """A message's English: its text, and its plural's."""
    return _texts(message.id)


def translated(message: Message) -> tuple[str, ...]:
    """A message's translation: one text, or one form for each of the language's plurals."""
    return _texts(message.string or "")


def key(message: Message) -> str:
    """A message as the code names it: its English, after its context in brackets.

    >>> key(Message("You", context="board"))
    '[board] You'
    """
    text = english(message)[0]
    return f"[{message.context}] {text}" if message.context else text


def messages(language: str) -> dict[str, Message]:
    """A catalog's messages (not its header) by the code's name for them."""
    return {key(message): message for message in read_catalog(language) if message.id}


def characters_used(language: str) -> set[str]:
    """Every character the screens can show in `language` (the fonts must draw these):
    its translations, every language's name, the icons and printable ASCII.

    >>> sorted(characters_used("en"))[:3]
    [' ', '!', '"']
    """
    texts = (
        [text for message in messages(language).values() for text in translated(message)]
        if language != ENGLISH
        else []
    )
    used = {char for text in texts for char in text}
    used |= {char for name in LANGUAGE_NAMES.values() for char in name}
    used |= set("".join(ICON_FIELDS.values()))
    used |= {chr(code) for code in range(32, 127)}
    return used
