"""Screens that every flow uses: menus, questions, number pickers, pages, notices.

A screen turns inputs into calls of the functions it was given and describes
itself as a view; it never draws and never knows where inputs come from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.inputs.events import Input
from companion.text.language import Words
from companion.text.pages import page_lines, text_page_lines
from companion.text.typefaces import body_font
from companion.views import (
    MenuItem,
    MenuView,
    NumberView,
    QuestionView,
    ScreenKind,
    TextView,
    View,
)

Action = Callable[[], None]

BACKWARD = (Input.BACK, Input.HOLD)
"""Back and a long press both go back; never the only way to anything needed."""


class Screen:
    """The current screen: it shows a view and reacts to inputs."""

    def view(self) -> View:
        raise NotImplementedError

    def handle(self, event: Input) -> None:
        raise NotImplementedError


class Cursor:
    """A position in a list that the encoder turns through, wrapping at both ends."""

    def __init__(self, count: int, index: int = 0) -> None:
        self.count = count
        self.index = index

    def move(self, event: Input) -> bool:
        """Follow next/previous; True if the event was one of them."""
        if event not in (Input.NEXT, Input.PREVIOUS) or not self.count:
            return False
        step = 1 if event is Input.NEXT else -1
        self.index = (self.index + step) % self.count
        return True


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a menu: its label, what choosing it does, and a note shown beside it."""

    label: str
    run: Action
    detail: str = ""


class Menu(Screen):
    def __init__(
        self,
        title: str,
        entries: Sequence[Entry],
        on_back: Action | None = None,
        note: str = "",
        selected: int = 0,
        kind: ScreenKind = ScreenKind.OTHER,
    ) -> None:
        self.title, self.entries, self.on_back, self.note = title, list(entries), on_back, note
        self.kind = kind
        self.cursor = Cursor(len(self.entries), selected)

    def view(self) -> View:
        items = tuple(MenuItem(entry.label, entry.detail) for entry in self.entries)
        return MenuView(self.title, items, self.cursor.index, self.note, self.kind)

    def handle(self, event: Input) -> None:
        if self.cursor.move(event):
            return
        if event is Input.SELECT:
            self.entries[self.cursor.index].run()
        elif event in BACKWARD and self.on_back:
            self.on_back()


class Question(Menu):
    """A menu drawn as a question: a few lines, then the answers."""

    def __init__(
        self,
        title: str,
        lines: Sequence[str],
        answers: Sequence[Entry],
        on_back: Action | None = None,
        kind: ScreenKind = ScreenKind.OTHER,
    ) -> None:
        super().__init__(title, answers, on_back, kind=kind)
        self.lines = tuple(lines)

    def view(self) -> View:
        answers = tuple(entry.label for entry in self.entries)
        return QuestionView(self.title, self.lines, answers, self.cursor.index, self.kind)


class NumberPicker(Screen):
    """Turn to change a number, press to keep it; back leaves it as it was.

    `hint(value)` says what a press does at `value`, when that is not just "ok".
    """

    def __init__(
        self,
        title: str,
        label: str,
        value: int,
        allowed: Sequence[int],
        shown: Callable[[int], str],
        on_done: Callable[[int], None],
        on_back: Action,
        words: Words,
        hint: Callable[[int], str] | None = None,
    ) -> None:
        self.title, self.label, self.allowed, self.shown = title, label, list(allowed), shown
        self.on_done, self.on_back = on_done, on_back
        self.cursor = Cursor(len(self.allowed), self.allowed.index(value))
        usual = words("turn: change  press: ok")
        self.hint = hint or (lambda _: usual)

    def view(self) -> View:
        value = self.allowed[self.cursor.index]
        return NumberView(self.title, self.label, self.shown(value), self.hint(value))

    def handle(self, event: Input) -> None:
        if self.cursor.move(event):
            return
        if event is Input.SELECT:
            self.on_done(self.allowed[self.cursor.index])
        elif event in BACKWARD:
            self.on_back()


class Paged(Screen):
    """Pages turned with the encoder, a press to leave: the footer says which."""

    def __init__(self, pages: int, on_done: Action, words: Words, *, ok: bool) -> None:
        """`ok`: pressing acknowledges a message, rather than going back from a text; on
        a page with more after it, a press shows the next page, so no page is skipped."""
        self.on_done, self.ok = on_done, ok
        self.cursor = Cursor(pages)
        if pages == 1:
            self.last_footer = words("press: ok") if ok else words("press: back")
        else:
            self.last_footer = (
                words("turn: page  press: ok") if ok else words("turn: page  press: back")
            )
        self.next_page_footer = words("press: next page")

    @property
    def footer(self) -> str:
        """What turning and pressing do on the page shown."""
        return self.next_page_footer if self._press_turns_the_page() else self.last_footer

    def handle(self, event: Input) -> None:
        if self.cursor.move(event):
            return
        if event is Input.SELECT and self._press_turns_the_page():
            self.cursor.index += 1
        elif event in (Input.SELECT, *BACKWARD):
            self.on_done()

    def _press_turns_the_page(self) -> bool:
        return self.ok and self.cursor.index < self.cursor.count - 1


class Pages(Paged):
    """Text a page at a time: turn to page, press to leave."""

    def __init__(
        self,
        title: str,
        texts: Sequence[str],
        on_done: Action,
        words: Words,
        *,
        ok: bool = False,
        kind: ScreenKind = ScreenKind.OTHER,
    ) -> None:
        font = body_font(words.language)
        lines = text_page_lines(texts, font)
        per_page = page_lines(font)
        self.pages = [tuple(lines[i : i + per_page]) for i in range(0, len(lines), per_page)] or [
            ()
        ]
        super().__init__(len(self.pages), on_done, words, ok=ok)
        self.title, self.kind = title, kind

    def view(self) -> View:
        page = self.cursor.index
        lines, pages = self.pages[page], len(self.pages)
        return TextView(self.title, lines, page + 1, pages, self.footer, self.kind)


class Notice(Pages):
    """A message for the player, of any length, acknowledged with a press."""

    def __init__(self, title: str, texts: Sequence[str], on_done: Action, words: Words) -> None:
        super().__init__(title, texts, on_done, words, ok=True, kind=ScreenKind.NOTICE)
