"""Text a page at a time: a press acknowledges a message only on its last page."""

from __future__ import annotations

from companion.app.widgets import Pages
from companion.inputs.events import Input
from companion.text.language import words_for

LINES = [f"Line {number}" for number in range(1, 15)]
"""Three pages of six lines in English."""


def test_a_press_on_a_message_s_page_with_more_shows_the_next():
    # The Korean verdicts take two pages: a press on the first went straight on and
    # skipped Master and Legend.
    done = []
    words = words_for("en")
    pages = Pages("Title", LINES, lambda: done.append(True), words, ok=True)
    assert len(pages.pages) == 3
    assert pages.view().footer == words("press: next page")
    pages.handle(Input.SELECT)
    assert pages.view().page == 2 and not done
    pages.handle(Input.SELECT)
    assert pages.view().page == 3 and pages.view().footer == words("turn: page  press: ok")
    pages.handle(Input.SELECT)
    assert done == [True]


def test_back_leaves_from_any_page():
    done = []
    pages = Pages("Title", LINES, lambda: done.append(True), words_for("en"), ok=True)
    pages.handle(Input.BACK)
    assert done == [True]
    # A text to read (not a message) leaves on a press from any page, as it says.
    texts = Pages("Help", LINES, lambda: done.append(False), words_for("en"))
    texts.handle(Input.SELECT)
    assert done == [True, False]
