"""The rules reminder: docs/RULES.md in a few short sections, one page each (or more).

Each section starts on a page of its own, so a translation longer than the
English only pushes its own section onto a second page.
"""

from __future__ import annotations

from companion.engine import catalogue
from companion.text.language import Words, msg
from companion.text.pages import page_lines, text_page_lines
from companion.text.typefaces import body_font

RULES_REMINDER: tuple[str, ...] = (
    msg(
        "Whose turn: the token further behind; on the same square, the one on top"
        " (it arrived last). Turns may come in a row."
    ),
    msg("A: Advance in front of the other token and take 1 button per square."),
    msg(
        "B: Buy one of the 3 patches after the neutral token; it goes there. Pay the cost,"
        " place the patch, move by its time. Land on the other token: go on top of it."
    ),
    msg(
        "Income marks 5 11 17 23 29 35 41 47 53: take the buttons on your quilt."
        " Leather 20 26 32 44 50: first to cross takes it and places it at once."
    ),
    msg(
        "With a full quilt the leather patch is put back in the box. 7x7 bonus: first to"
        " fill a 7x7 square, +{points} points. Claim it in the menu; a full quilt ({squares})"
        " takes it."
    ),
    msg(
        "End: both tokens on 53. Score: buttons + bonus - {penalty} per empty square."
        " Tie: first on 53 wins."
    ),
    msg(
        "Automa: its card's virtual buttons pay; filters pick, skipping one no patch passes;"
        " none affordable: it goes in front of you, no pay."
    ),
    msg(
        "Its income at a mark is the card's income (0-5). At its 7x7 mark it takes the tile"
        " unless you have taken it. Ties: first on 53 wins."
    ),
)
"""The sections, in English (the keys of their translations); the figures of the rules
are the engine's, given to each section when it is shown."""


def rules_reminder(words: Words) -> list[str]:
    """The sections in the player's language as page lines, each from the top of a page."""
    font = body_font(words.language)
    lines: list[str] = []
    figures = {
        "squares": catalogue.QUILT_SQUARES,
        "points": catalogue.BONUS_POINTS,
        "penalty": catalogue.EMPTY_SQUARE_PENALTY,
    }
    for section in RULES_REMINDER:
        lines += text_page_lines([words(section, **figures)], font)
        lines += [""] * (-len(lines) % page_lines(font))
    return lines
