"""The layout of a solo game's end against every level: a table, a row a level.

    ▣ 7x7         You  Automa         the header bar: the tile's mark, the columns' names
    Intern        -49    7▣  ✘ 56     each score right-aligned in its column, ▣ after
    Apprentice    -49   13▣  ✘ 62     the score of the side that holds the 7×7 tile,
    ...                               ✔ won or ✘ lost and by how many points (= a tie)
    Legend        -49   42▣  ✘ 91     the level played lit, as a menu's chosen line
    Deal 0000-00D6
    ------ press: ok ------

The columns are laid from the right edge, each as wide as its widest figure on any
page or its name, so they stay put when the knob turns the page. A page holds as many
rows as a text page has lines (`companion.text.pages.page_lines`, which the app pages
by): the five levels and the deal, or three in Korean, whose rows are 13 pixels apart
(a lit row keeps a lit pixel above and below the Hangul, and a dark one from the next)
under a header bar in the small font.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.render.canvas import WIDTH, Box, Canvas
from companion.render.layout import HANGUL, LATIN, PAD, TILE_NAME, hint, lettering_of
from companion.text.font import LOST, SMALL, TILE, WON, Font
from companion.text.pages import page_lines
from companion.text.typefaces import font_for
from companion.views import VerdictRow, VerdictsView

TILE_GAP = 2
"""Pixels between a score and the tile's mark after it: with one, 7▣ read as a number."""
LEGEND = f"{TILE} {TILE_NAME}"
"""The header's key to the tile's mark."""


@dataclass(frozen=True, slots=True)
class Spacing:
    column: int
    """Pixels between two columns."""
    result: int
    """Pixels between ✔/✘ and the margin: with one, ✘56 read as x56."""
    edge: int
    """Pixels between the margin and the panel's right edge."""


SPACINGS = (Spacing(column=3, result=3, edge=PAD), Spacing(column=2, result=2, edge=1))
"""The table's spacing, the first that leaves the level names room: the second only for
the longest names beside three-digit figures (Russian's Подмастерье beside 100 and 100)."""


@dataclass(frozen=True, slots=True)
class Columns:
    """Where the table's columns are, and the names over its score columns."""

    scores: tuple[tuple[int, int], tuple[int, int]]
    """The player's score column and the Automa's, each (left, right), right exclusive:
    the digits right-aligned, then room for the tile's mark."""
    result: int
    """The ✔/✘ mark's left edge."""
    margin: int
    """The margin's right edge: right-aligned there."""
    labels: tuple[str, str]
    """The score columns' names, centred over them."""
    levels: int
    """The right edge of the level names' room (from `PAD`)."""


def margin_text(row: VerdictRow) -> str:
    return "=" if row.tie else str(row.margin)


def tile_mark_width(font: Font) -> int:
    return TILE_GAP + font.text_width(TILE)


def columns_of(view: VerdictsView, font: Font) -> Columns:
    """The columns, laid from the right edge, each as wide as its widest figure or its
    name. The names are the full ones or the short, those in the small font first (a Korean
    header in the small font, "1P" and "AI", leaves its rows the height they need), and
    the spacing the first of `SPACINGS`, that leave the level names room beside them."""

    def widest(texts: list[str], font: Font = font) -> int:
        return max((font.text_width(text) for text in texts), default=0)

    margin = widest([margin_text(row) for row in view.rows])
    figures = [widest([str(row.scores[side]) for row in view.rows]) for side in (0, 1)]
    levels = PAD + widest([row.level for row in view.rows])
    names = sorted((view.labels, view.short_labels), key=lambda labels: font_for(labels) != SMALL)
    for spacing in SPACINGS:
        result = WIDTH - spacing.edge - margin - spacing.result - widest([WON, LOST])
        for labels in names:
            player, automa = (
                max(figure + tile_mark_width(font), widest([label], font_for(labels)))
                for figure, label in zip(figures, labels, strict=True)
            )
            automa_left = result - spacing.column - automa
            player_left = automa_left - spacing.column - player
            columns = Columns(
                scores=(
                    (player_left, automa_left - spacing.column),
                    (automa_left, result - spacing.column),
                ),
                result=result,
                margin=WIDTH - spacing.edge,
                labels=labels,
                levels=player_left - spacing.column,
            )
            if levels <= columns.levels:
                return columns
    return columns


def draw_verdicts(canvas: Canvas, view: VerdictsView) -> None:
    font = lettering_of(view).font
    columns = columns_of(view, font)
    header = LATIN if font_for(columns.labels) is SMALL else HANGUL
    _header(canvas, view, columns, header.title_bar)
    # A lit row keeps a lit pixel row above its letters and one below (a Latin row's
    # descender row, a pixel more in Korean).
    pitch = SMALL.line_height if font is SMALL else font.height + 2
    top = header.title_bar.bottom + 1
    room = page_lines(font)  # the page the app cuts the table into
    shown = view.rows[view.first : view.first + view.count]
    if len(shown) + bool(view.deal) > room:
        canvas.report(f"verdicts: {len(shown)} rows and the deal, room for {room}")
    for index, row in enumerate(shown):
        _row(canvas, Box(0, top + index * pitch, WIDTH, pitch), row, columns, font)
    if view.deal:
        canvas.text((PAD, top + len(shown) * pitch + 1), view.deal, font=font)
    hint(canvas, view.hint, lettering=lettering_of(view))


def _header(canvas: Canvas, view: VerdictsView, columns: Columns, bar: Box) -> None:
    """The lit bar: the tile's mark at the left, each score column's name centred over it,
    the page at the right when there are more."""
    font = font_for(columns.labels)
    canvas.fill(bar)
    y = bar.y + max(0, (bar.height - font.cap_height) // 2)
    canvas.text((PAD, y), LEGEND, font=font, fill=0, max_width=columns.levels - PAD)
    end = 0
    for (left, right), label in zip(columns.scores, columns.labels, strict=True):
        x = (left + right - font.text_width(label)) // 2
        canvas.text((x, y), label, font=font, fill=0, max_width=right - x)
        end = x + font.text_width(label)
    if view.pages > 1:
        page = f"{view.page}/{view.pages}"
        x = WIDTH - PAD - font.text_width(page)
        canvas.text((x, y), page, font=font, fill=0)
        if x <= end:
            canvas.report(f"verdicts: the page {page} runs into {columns.labels[1]!r}")


def _row(canvas: Canvas, box: Box, row: VerdictRow, columns: Columns, font: Font) -> None:
    """One level's row, lit for the level played as a menu's chosen line is."""
    fill = 1
    if row.played:
        canvas.fill(box)
        fill = 0
    y = box.y + 1
    canvas.text((PAD, y), row.level, font=font, fill=fill, max_width=columns.levels - PAD)
    for side, (_, right) in enumerate(columns.scores):
        score = str(row.scores[side])
        digits = right - tile_mark_width(font)
        canvas.text((digits - font.text_width(score), y), score, font=font, fill=fill)
        if row.tile == side:
            canvas.text((digits + TILE_GAP, y), TILE, font=font, fill=fill)
    canvas.text((columns.result, y), WON if row.won else LOST, font=font, fill=fill)
    margin = margin_text(row)
    canvas.text((columns.margin - font.text_width(margin), y), margin, font=font, fill=fill)
