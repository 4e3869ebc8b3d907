"""The catalogs: every language has every text the code uses, none it does not, and the
same placeholders as the English; unknown keys and missing translations never crash."""

from __future__ import annotations

import ast
import logging
import re
import string
from pathlib import Path

import pytest

import companion
from companion.text.language import (
    ENGLISH,
    ICON_FIELDS,
    LANGUAGE_NAMES,
    Words,
    catalog,
    characters_used,
    placeholders,
    words_for,
)

PACKAGE = Path(companion.__file__).parent
TRANSLATIONS = PACKAGE / "text" / "translations"
TRANSLATED = [code for code in LANGUAGE_NAMES if code != ENGLISH]
LOOKUPS = {"words", "msg"}
"""The names a key is looked up or marked with: `words("…")`, `self.app.words("…")`, `msg("…")`."""


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def lookups_in_code() -> list[tuple[str, str, ast.Call]]:
    """Every lookup of a literal key in the code: (where, key, the call)."""
    lookups = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.is_relative_to(TRANSLATIONS):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _called_name(node) in LOOKUPS and node.args:
                key = node.args[0]
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
                    lookups.append((where, key.value, node))
    return lookups


LOOKUPS_IN_CODE = lookups_in_code()
KEYS = {key: where for where, key, _ in reversed(LOOKUPS_IN_CODE)}
"""Every literal key the code looks up, with where it is first used."""


def test_the_code_looks_up_texts():
    # The scan finds the lookups (a broken scan would make every check below vacuous).
    assert "Language" in KEYS
    assert len(KEYS) > 5


def test_every_translated_language_has_a_file_of_words_and_every_file_a_language():
    files = TRANSLATIONS.glob("[!_]*.py")
    assert sorted(path.stem for path in files) == sorted(TRANSLATED)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_language_has_every_text(language):
    missing = sorted(set(KEYS) - set(catalog(language)))
    assert missing == [], "\n".join(f"{KEYS[key]}: {key!r}" for key in missing)


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_language_has_a_text_the_code_no_longer_uses(language):
    assert sorted(set(catalog(language)) - set(KEYS)) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_the_placeholders_of_the_english(language):
    # Icons may be used or left out where a language words them otherwise.
    def numbers_and_names(text: str) -> set[str]:
        return placeholders(text) - set(ICON_FIELDS)

    wrong = {
        key: text
        for key, text in catalog(language).items()
        if numbers_and_names(text) != numbers_and_names(key)
    }
    assert wrong == {}


def test_every_lookup_gives_exactly_the_fields_its_text_uses():
    # A field left out is a KeyError on that screen (in English too); one too many is
    # a number the player never sees. Icons are filled in by `Words` itself.
    wrong = []
    for where, key, call in LOOKUPS_IN_CODE:
        given = {keyword.arg for keyword in call.keywords}
        if _called_name(call) == "words" and None not in given:  # None: a **mapping
            needed = placeholders(key) - set(ICON_FIELDS)
            if given != needed:
                wrong.append(f"{where}: {key!r} given {sorted(given)}, uses {sorted(needed)}")
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_translation_is_worded_and_formats(language):
    for key, text in catalog(language).items():
        assert text.strip() == text and text, key
        fields = {name: 7 for name in placeholders(key) - set(ICON_FIELDS)}
        words_for(language)(key, **fields)


LATIN_WORD = re.compile(r"[A-Za-z]+")
PATCHES_AND_7X7 = re.compile(r"P\d\d|\d*x\d+")
LATIN_IN_CYRILLIC_AND_HANGUL = {"A", "B", "P", "AI"}
"""The rules' A and B (the Russian and Korean rulebooks letter the two actions so), and
Korean's 1P, 2P and AI: the board's header is drawn in the 8-pixel font alone, where
Hangul cannot be, and Korean games name players so (docs/LANGUAGES.md)."""
SAME_IN_POLISH_AND_CZECH = {"Patchwork", "Automa", "Menu", "{minutes} min", "{seconds} s"}
"""The game's and the Automa's names as their rulebooks print them, and words these
languages write as English does."""


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_english_is_left_in_a_translation(language):
    # The marked-language test finds texts never looked up; this, looked-up texts whose
    # translation is still English: Latin words in Russian and Korean, a Polish or Czech
    # text left as its English key.
    left = []
    for key, text in catalog(language).items():
        words = " ".join(literal for literal, *_ in string.Formatter().parse(text))
        if language in ("ru", "ko"):
            latin = set(LATIN_WORD.findall(PATCHES_AND_7X7.sub(" ", words)))
            if latin - LATIN_IN_CYRILLIC_AND_HANGUL:
                left.append(f"{key!r}: {text!r}")
        elif text == key and LATIN_WORD.search(words) and key not in SAME_IN_POLISH_AND_CZECH:
            left.append(f"{key!r} is not translated")
    assert left == []


def test_english_is_the_key_with_its_fields_and_icons_filled_in():
    words = words_for(ENGLISH)
    assert words("Income at {marks}: take {total}{button}", marks="5", total=2) == (
        "Income at 5: take 2\u25cf"
    )


def test_a_context_tells_two_uses_of_one_english_text_apart():
    words = Words("ko", {"You": "나", "[board] You": "P"})
    assert (words("You"), words("[board] You")) == ("나", "P")
    assert words_for(ENGLISH)("[board] You") == "You"


def test_a_missing_translation_is_the_english_text_logged_once(caplog):
    words = Words("pl", {"Yes": "Tak"})
    with caplog.at_level(logging.WARNING):
        assert words("Yes") == "Tak"
        assert words("No {count}", count=3) == "No 3"
        assert words("No {count}", count=4) == "No 4"
    assert [record.getMessage() for record in caplog.records] == [
        "no pl translation of 'No {count}'"
    ]


def test_an_unknown_language_has_no_catalog():
    with pytest.raises(KeyError):
        catalog("de")


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_the_characters_used_include_every_translation_and_the_language_names(language):
    used = characters_used(language)
    assert set("".join(catalog(language).values())) <= used
    assert set("".join(LANGUAGE_NAMES.values())) <= used
