"""The catalogs: every language has every text the code uses, none it does not, each
translated, in every plural form its language has, with the same placeholders as the
English; unknown messages and missing translations never crash."""

from __future__ import annotations

import ast
import gettext
import logging
import re
import string
from pathlib import Path

import pytest

import companion
from companion.testing.catalogs import (
    TRANSLATED,
    characters_used,
    english,
    messages,
    placeholders,
    read_catalog,
    translated,
)
from companion.text.language import (
    ENGLISH,
    ICON_FIELDS,
    LANGUAGE_NAMES,
    EnglishShown,
    Words,
    translations,
    words_for,
)

PACKAGE = Path(companion.__file__).parent
LOOKUPS = {"words", "msg"}
"""The names a message is looked up or marked with: `words("…")`, `self.app.words("…")`,
`msg("…")`; a text with a count, `words.counted("…", "…", count=…)`."""
COUNTED = {"counted", "counted_msg"}


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def lookups_in_code() -> list[tuple[str, tuple[str, ...], ast.Call]]:
    """Every lookup of a literal message in the code: (where, its English, the call); the
    English is the text, or the singular and the plural of a text with a count."""
    lookups = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name, texts = _called_name(node), [_literal(arg) for arg in node.args[:2]]
            where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
            if name in COUNTED and len(texts) == 2 and None not in texts:
                lookups.append((where, tuple(texts), node))
            elif name in LOOKUPS and texts and texts[0] is not None:
                lookups.append((where, (texts[0],), node))
    return lookups  # type: ignore[return-value]


LOOKUPS_IN_CODE = lookups_in_code()
KEYS = {texts[0]: where for where, texts, _ in reversed(LOOKUPS_IN_CODE)}
"""Every literal message the code looks up (a counted one by its singular), with where it
is first used."""
PLURALS = {texts[0]: texts[1] for _, texts, _ in LOOKUPS_IN_CODE if len(texts) == 2}
"""The texts looked up with a count: singular -> plural."""
CATALOGS = {language: messages(language) for language in TRANSLATED}
PLURAL_FORMS = {"ru": 3, "pl": 3, "cs": 3, "ko": 1}
"""How many forms a count takes (CLDR, as the catalogs' Plural-Forms say): Russian, Polish
and Czech one, few, many; Korean one."""


def test_the_code_looks_up_texts():
    # The scan finds the lookups (a broken scan would make every check below vacuous).
    assert "Language" in KEYS
    assert "{filter}: {count} left" in PLURALS
    assert len(KEYS) > 5


def test_every_language_but_english_has_a_catalog():
    assert set(TRANSLATED) == set(LANGUAGE_NAMES) - {ENGLISH}
    assert TRANSLATED and all(CATALOGS.values())


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_language_has_every_text(language):
    missing = sorted(set(KEYS) - set(CATALOGS[language]))
    assert missing == [], "\n".join(f"{KEYS[key]}: {key!r}" for key in missing)


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_language_has_a_text_the_code_no_longer_uses(language):
    assert sorted(set(CATALOGS[language]) - set(KEYS)) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_and_none_is_a_guess_left_unchecked(language):
    # A fuzzy message (a tool's or a translator's guess) is left out of the .mo, and so
    # shown in English: none may be in a catalog the device ships.
    untranslated = [
        key
        for key, message in CATALOGS[language].items()
        if message.fuzzy or not all(form.strip() == form and form for form in translated(message))
    ]
    assert untranslated == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_catalog_counts_with_its_languages_plural_rule(language):
    catalog = read_catalog(language)
    assert catalog.num_plurals == PLURAL_FORMS[language]
    # The rule itself, worked out from each grammar by hand: the form for 1, 2, 4, 5,
    # 11, 12, 21, 22, 25 (Russian 21 is "one", Polish 21 "many", Czech 22 "many").
    expected = {
        "ru": [0, 1, 1, 2, 2, 2, 0, 1, 2],
        "pl": [0, 1, 1, 2, 2, 2, 2, 1, 2],
        "cs": [0, 1, 1, 2, 2, 2, 2, 2, 2],
        "ko": [0] * 9,
    }[language]
    rule = gettext.c2py(catalog.plural_expr)
    assert [rule(n) for n in (1, 2, 4, 5, 11, 12, 21, 22, 25)] == expected


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_text_with_a_count_has_each_plural_form_in_every_catalog(language):
    # Plural forms, not one text for every number: "{filter}: zostało {count}" was wrong
    # with 1 ("został 1") and 2 ("zostały 2").
    wrong = {}
    for singular, plural in PLURALS.items():
        message = CATALOGS[language].get(singular)
        if message is None or english(message) != (singular, plural):
            wrong[singular] = "not a plural message in the catalog"
        elif len(list(filter(None, translated(message)))) != PLURAL_FORMS[language]:
            # (Babel reads a form left out of the .po as an empty one.)
            wrong[singular] = f"{len(list(filter(None, translated(message))))} forms"
    assert wrong == {}


def test_every_text_with_a_count_is_looked_up_with_it():
    # A text with a number of things in it ({count}) takes its language's plural form
    # for that number: looked up with words.counted, never words().
    wrong = [
        f"{where}: {texts[0]!r}"
        for where, texts, _ in LOOKUPS_IN_CODE
        if len(texts) == 1 and "count" in placeholders(texts[0])
    ]
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_the_placeholders_of_the_english(language):
    # Icons may be used or left out where a language words them otherwise.
    def numbers_and_names(*texts: str) -> set[str]:
        return set().union(*(placeholders(text) for text in texts)) - set(ICON_FIELDS)

    wrong = {
        key: translated(message)
        for key, message in CATALOGS[language].items()
        if any(
            numbers_and_names(form) != numbers_and_names(*english(message))
            for form in translated(message)
        )
    }
    assert wrong == {}


def test_every_lookup_gives_exactly_the_fields_its_text_uses():
    # A field left out is a KeyError on that screen (in English too); one too many is
    # a number the player never sees. Icons are filled in by `Words` itself, and a
    # counted text's number by `Words.counted`.
    wrong = []
    for where, texts, call in LOOKUPS_IN_CODE:
        given = {keyword.arg for keyword in call.keywords}
        if _called_name(call) in ("msg", "counted_msg") or None in given:  # None: a **mapping
            continue
        needed = set().union(*(placeholders(text) for text in texts)) - set(ICON_FIELDS)
        if len(texts) == 2:
            needed, given = needed - {"count"}, given - {"count"}
        if given != needed:
            wrong.append(f"{where}: {texts[0]!r} given {sorted(given)}, uses {sorted(needed)}")
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_device_shows_each_catalogs_translation(language):
    # The compiled .mo the device reads says what the .po says (a stale one would not),
    # and every translation formats with its fields.
    words = words_for(language)
    for key, message in CATALOGS[language].items():
        texts = english(message)
        fields = {name: 7 for name in placeholders(" ".join(texts)) - set(ICON_FIELDS)}
        forms = translated(message)
        if len(texts) == 1:
            assert words(key, **fields) == forms[0].format_map({**ICON_FIELDS, **fields})
        else:
            fields.pop("count", None)
            for count, form in zip(
                (1, 2, 5), (0, 1, 2) if len(forms) == 3 else (0, 0, 0), strict=True
            ):
                shown = words.counted(*texts, count=count, **fields)
                assert shown == forms[form].format_map({**ICON_FIELDS, **fields, "count": count})


LATIN_WORD = re.compile(r"[A-Za-z]+")
PATCHES_AND_7X7 = re.compile(r"P\d\d|\d*x\d+")
LATIN_IN_CYRILLIC_AND_HANGUL = {"A", "B", "P", "AI"}
"""The rules' A and B (the Russian and Korean rulebooks letter the two actions so), and
Korean's 1P, 2P and AI: the board's header is drawn in the 8-pixel font alone, where
Hangul cannot be, and Korean games name players so (docs/LANGUAGES.md)."""
SAME_IN_POLISH_AND_CZECH = {
    "Patchwork",
    "Automa",
    "[board] Automa",
    "[board short] A",
    "Menu",
    "{minutes} min",
    "{seconds} s",
    "[short] leg",
}
"""The game's and the Automa's names as their rulebooks print them (the header's "A"
its initial), and words these languages write as English does ("leg", Legenda's
abbreviation)."""


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_english_is_left_in_a_translation(language):
    # The marked-language test finds texts never looked up; this, looked-up texts whose
    # translation is still English: Latin words in Russian and Korean, a Polish or Czech
    # text left as its English.
    left = []
    for key, message in CATALOGS[language].items():
        for form in translated(message):
            words = " ".join(literal for literal, *_ in string.Formatter().parse(form))
            if language in ("ru", "ko"):
                latin = set(LATIN_WORD.findall(PATCHES_AND_7X7.sub(" ", words)))
                if latin - LATIN_IN_CYRILLIC_AND_HANGUL:
                    left.append(f"{key!r}: {form!r}")
            elif (
                form in english(message)
                and LATIN_WORD.search(words)
                and key not in SAME_IN_POLISH_AND_CZECH
            ):
                left.append(f"{key!r} is not translated")
    assert left == []


def test_english_is_the_message_with_its_fields_and_icons_filled_in():
    words = words_for(ENGLISH)
    assert words("Income at {marks}: take {total}{button}", marks="5", total=2) == (
        "Income at 5: take 2\u25cf"
    )
    corrected = ("Corrected: {delta} button", "Corrected: {delta} buttons")
    assert words.counted(*corrected, count=1, delta="+1") == "Corrected: +1 button"
    assert words.counted(*corrected, count=3, delta="+3") == "Corrected: +3 buttons"


def test_a_context_tells_two_uses_of_one_english_text_apart():
    assert (words_for("ko")("You"), words_for("ko")("[board] You")) == ("나", "1P")
    assert words_for(ENGLISH)("[board] You") == "You"


def test_a_missing_translation_is_the_english_text_logged_once(caplog):
    words = Words("pl", EnglishShown("pl"))
    with caplog.at_level(logging.WARNING):
        assert words("No {count}", count=3) == "No 3"
        assert words("No {count}", count=4) == "No 4"
        assert words.counted("{count} thing", "{count} things", count=2) == "2 things"
        assert words("[board] Yes") == "Yes"
    assert [record.getMessage() for record in caplog.records] == [
        "no pl translation of 'No {count}'",
        "no pl translation of '{count} thing'",
        "no pl translation of '[board] Yes'",
    ]


def test_a_message_the_catalog_lacks_falls_back_to_its_english(caplog):
    with caplog.at_level(logging.WARNING):
        assert words_for("cs")("A text no catalog has") == "A text no catalog has"
    assert "no cs translation of 'A text no catalog has'" in caplog.text


def test_a_language_whose_catalog_was_not_built_is_shown_in_english(monkeypatch, tmp_path, caplog):
    # A package built without its catalogs (no .mo) still runs: in English, said once.
    monkeypatch.setattr("companion.text.language.LOCALE_DIR", tmp_path)
    with caplog.at_level(logging.ERROR):
        words = Words("ru", translations("ru"))
    assert words("Statistics") == "Statistics"
    assert "no ru catalog" in caplog.text


def test_an_unknown_language_has_no_catalog():
    with pytest.raises(KeyError):
        translations("de")


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_the_characters_used_include_every_translation_and_the_language_names(language):
    used = characters_used(language)
    if language != ENGLISH:
        shown = {form for message in CATALOGS[language].values() for form in translated(message)}
        assert set("".join(shown)) <= used
    assert set("".join(LANGUAGE_NAMES.values())) <= used
