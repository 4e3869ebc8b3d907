"""The screen of a solo game's end against every level (docs/SOLO.md): the engine's
verdicts as a table's rows, turned a page at a time where they do not fit one."""

from __future__ import annotations

from companion.app.terms import difficulty_name
from companion.app.widgets import Action, Paged
from companion.app.wording import short_header_label, side_label
from companion.engine.automa import DifficultyLevel
from companion.engine.setup import SIDES, Mode, Side
from companion.engine.verdicts import Verdict
from companion.text.language import Words
from companion.text.pages import page_lines
from companion.text.typefaces import body_font
from companion.views import VerdictRow, VerdictsView

SOLO = SIDES[Mode.SOLO]
"""The player and the Automa: the order of a row's scores and the header's names."""


def verdict_rows(
    judged: tuple[Verdict, ...], played: DifficultyLevel, words: Words
) -> tuple[VerdictRow, ...]:
    """A row a level, easiest first, as the engine judged the game against it."""
    return tuple(
        VerdictRow(
            level=difficulty_name(verdict.level, words),
            scores=(verdict.player, verdict.automa),
            tile=None if verdict.bonus_holder is None else SOLO.index(verdict.bonus_holder),
            won=verdict.outcome.winner == Side.PLAYER,
            margin=verdict.outcome.margin,
            tie=verdict.outcome.tie,
            played=verdict.level == played,
        )
        for verdict in judged
    )


class VerdictPages(Paged):
    """The table, its rows and then the deal code a text page's lines each: one page in
    the small font, two in Korean."""

    def __init__(self, rows: tuple[VerdictRow, ...], deal: str, on_done: Action, words: Words):
        self.rows, self.deal = rows, deal
        self.per_page = page_lines(body_font(words.language))
        lines = len(rows) + bool(deal)
        super().__init__(-(-lines // self.per_page), on_done, words, ok=True)
        player, automa = SOLO
        self.labels = (side_label(player, words), side_label(automa, words))
        self.short_labels = (short_header_label(player, words), short_header_label(automa, words))

    def view(self) -> VerdictsView:
        page = self.cursor.index
        first = min(page * self.per_page, len(self.rows))
        count = min(self.per_page, len(self.rows) - first)
        last = page == self.cursor.count - 1
        return VerdictsView(
            labels=self.labels,
            short_labels=self.short_labels,
            rows=self.rows,
            first=first,
            count=count,
            deal=self.deal if last else "",
            page=page + 1,
            pages=self.cursor.count,
            hint=self.footer,
        )
