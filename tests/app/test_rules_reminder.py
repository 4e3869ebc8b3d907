"""The rules reminder agrees with RULES.md (docs/RULES.md): numbers and the Automa's income."""

import re

from companion.app.rules_text import RULES_REMINDER
from companion.engine.catalogue import INCOME_MARKS, LEATHER_POSITIONS

TEXT = " ".join(RULES_REMINDER)


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
    assert "full quilt (81) takes it" in TEXT
    assert "put back in the box" in TEXT
    assert "unless you have taken it" in TEXT
