"""The rules reminder agrees with RULES.md (docs/RULES.md): numbers and the Automa's income."""

import re

import pytest

from companion.app.rules_text import RULES_REMINDER, rules_reminder
from companion.engine import catalogue
from companion.engine.catalogue import INCOME_MARKS, LEATHER_POSITIONS
from companion.text.font import SMALL
from companion.text.language import LANGUAGE_NAMES, words_for
from companion.text.pages import page_lines, text_page_lines
from companion.text.typefaces import body_font

TEXT = " ".join(RULES_REMINDER)


def shown_in_english() -> str:
    """The reminder as the screens show it, its page lines joined again."""
    return " ".join(" ".join(rules_reminder(words_for("en"))).split())


def test_the_marks_and_leather_positions_are_the_rulebook_ones():
    # §1: income marks 5 … 53, leather patches at 20 26 32 44 50.
    marks = re.search(r"Income marks ([\d ]+):", TEXT).group(1).split()
    leather = re.search(r"Leather ([\d ]+):", TEXT).group(1).split()
    assert tuple(map(int, marks)) == INCOME_MARKS
    assert tuple(map(int, leather)) == LEATHER_POSITIONS


def test_the_automa_income_is_the_cards_income_value_not_its_number():
    # §4 step 4: at each mark the Automa takes the income number of the card (0-5).
    assert "card's number" not in TEXT
    assert "the card's income (0-5)" in TEXT


def test_a_full_quilt_and_the_automa_mark_are_explained():
    # §3: a full quilt takes the free tile and discards a leather patch; §4: the
    # Automa takes the tile at its mark unless the player has taken it.
    assert "put back in the box" in TEXT
    assert "unless you have taken it" in TEXT


def test_the_quilt_the_bonus_and_the_penalty_are_the_rulebook_ones():
    # §3: a quilt has 81 squares; the 7x7 tile is worth 7; each empty square costs 2.
    text = shown_in_english()
    assert "+7 points" in text
    assert "a full quilt (81) takes it" in text
    assert "Score: buttons + bonus - 2 per empty square" in text


def test_the_reminder_takes_those_figures_from_the_engine(monkeypatch):
    monkeypatch.setattr(catalogue, "QUILT_SQUARES", 64)
    monkeypatch.setattr(catalogue, "BONUS_POINTS", 5)
    monkeypatch.setattr(catalogue, "EMPTY_SQUARE_PENALTY", 3)
    text = shown_in_english()
    assert "+5 points" in text
    assert "a full quilt (64) takes it" in text
    assert "Score: buttons + bonus - 3 per empty square" in text


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_no_rules_page_holds_only_the_last_words_of_a_section(language):
    # Each section starts a page; one a line longer than its page left a page with only
    # the last words of a sentence (Russian "перед вами, без пуговиц." alone on 8/9).
    # The small font's sections fit a page each; Korean's 3-line pages never end a
    # section with one line alone.
    words = words_for(language)
    font = body_font(language)
    figures = {
        "squares": catalogue.QUILT_SQUARES,
        "points": catalogue.BONUS_POINTS,
        "penalty": catalogue.EMPTY_SQUARE_PENALTY,
    }
    for section in RULES_REMINDER:
        lines = text_page_lines([words(section, **figures)], font)
        if font is SMALL:
            assert len(lines) <= page_lines(font), lines
        else:
            assert len(lines) % page_lines(font) != 1, lines
