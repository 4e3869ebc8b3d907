"""The time track 0..53 as one compact strip, 13 pixels tall.

Layout, top to bottom: the first token (a solid triangle pointing down at its
square), the track line with its marks, the second token (a hollow triangle
pointing up). Putting the two tokens on opposite sides of the line keeps them
both visible when they share a square. On the line: a tall tick for each
button-income mark, a solid 3×3 block for each leather patch still lying on
the track, a hollow diamond for the Automa's 7×7 bonus mark, and a thick bar at
the final square. The final square stands `FINAL_GAP` pixels further out than
the others, so a mark on square 52 (the Intern's 7×7 mark) keeps a dark column
between it and the bar instead of merging into it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.engine.catalogue import FINAL_POSITION, INCOME_MARKS, LEATHER_POSITIONS
from companion.render.canvas import Box, Canvas

TRACK_HEIGHT = 13
MARGIN = 2
"""Half a token's width: room for a token on square 0 or 53 to stay inside the box."""
FINAL_GAP = 2
"""Extra pixels before the final square: a diamond on 52 reaches two pixels right."""

_TOKEN_ROWS = 3
_LINE_ROW = 6
_BAND = (4, 8)  # first and last row of the marks around the line


@dataclass(frozen=True, slots=True)
class TrackLayout:
    """Where the track went; `x_of` gives the column of any square."""

    box: Box
    pitch: int
    """Pixels per square along the strip."""

    @property
    def line_y(self) -> int:
        return self.box.y + _LINE_ROW

    @property
    def width(self) -> int:
        """Pixels actually used from the box's left edge."""
        return track_width(self.pitch)

    def x_of(self, position: int) -> int:
        """The column of square `position` (0..53)."""
        extra = FINAL_GAP if position == FINAL_POSITION else 0
        return self.box.x + MARGIN + position * self.pitch + extra


def track_width(pitch: int) -> int:
    """Pixels the track takes across at `pitch` pixels a square."""
    return 2 * MARGIN + FINAL_POSITION * pitch + FINAL_GAP + 1


def track_pitch(width: int) -> int:
    """The most pixels per square that fit the whole track in `width` pixels."""
    # The final square's bar is two pixels wide, hence the extra one.
    return (width - 2 * MARGIN - FINAL_GAP - 1) // FINAL_POSITION


def draw_track(
    canvas: Canvas,
    box: Box,
    tokens: Sequence[int | None],
    *,
    leather: Iterable[int] = LEATHER_POSITIONS,
    bonus_mark: int | None = None,
) -> TrackLayout:
    """Draw the time track in `box` (left-aligned, 13 px tall).

    `tokens` holds up to two positions: the first drawn above the line, the
    second below (None leaves a side empty). `leather` lists the leather
    patches still on the track; `bonus_mark` is the Automa's 7×7 mark, if any.
    A box too small is reported on the canvas; positions outside 0..53 raise
    ValueError because they mean a bug upstream, not a long name.
    """
    if len(tokens) > 2:
        raise ValueError(f"the track has room for two tokens, got {len(tokens)}")
    marked = [*(t for t in tokens if t is not None), *leather]
    if bonus_mark is not None:
        marked.append(bonus_mark)
    for position in marked:
        _check_position(position)

    layout = TrackLayout(box=box, pitch=track_pitch(box.width))
    if layout.pitch < 1 or box.height < TRACK_HEIGHT:
        canvas.report(f"time track needs {track_width(1)}x{TRACK_HEIGHT}px, got {box}")
        if layout.pitch < 1:
            return layout

    _draw_line(canvas, layout)
    for mark in INCOME_MARKS:
        _draw_income(canvas, layout, mark)
    for position in leather:
        _draw_leather(canvas, layout, position)
    if bonus_mark is not None:
        _draw_bonus(canvas, layout, bonus_mark)
    for side, square in enumerate(tokens):
        if square is not None:
            _draw_token(canvas, layout, square, below=side == 1)
    return layout


def _check_position(position: int) -> None:
    if not 0 <= position <= FINAL_POSITION:
        raise ValueError(f"track position {position} is outside 0..{FINAL_POSITION}")


def _draw_line(canvas: Canvas, layout: TrackLayout) -> None:
    y = layout.line_y
    canvas.hline(y, layout.x_of(0), layout.x_of(FINAL_POSITION))
    canvas.vline(layout.x_of(0), y - 1, y + 1)
    final = layout.x_of(FINAL_POSITION)
    for x in (final, final + 1):
        canvas.vline(x, layout.box.y + _BAND[0], layout.box.y + _BAND[1])


def _draw_income(canvas: Canvas, layout: TrackLayout, position: int) -> None:
    canvas.vline(layout.x_of(position), layout.box.y + _BAND[0], layout.box.y + _BAND[1])


def _draw_leather(canvas: Canvas, layout: TrackLayout, position: int) -> None:
    x = layout.x_of(position)
    canvas.fill(Box(x - 1, layout.line_y - 1, 3, 3))


def _draw_bonus(canvas: Canvas, layout: TrackLayout, position: int) -> None:
    x, y = layout.x_of(position), layout.line_y
    # A hollow diamond: its dark centre sets it apart from a leather block.
    canvas.fill(Box(x - 1, y - 1, 3, 3), fill=0)
    canvas.draw.polygon([(x, y - 2), (x + 2, y), (x, y + 2), (x - 2, y)], outline=255)


def _draw_token(canvas: Canvas, layout: TrackLayout, position: int, *, below: bool) -> None:
    draw_token(canvas, layout.x_of(position), layout.box.y, below=below)


def draw_token(canvas: Canvas, x: int, track_top: int, *, below: bool) -> None:
    """A token centred on column `x`, three rows tall, in the rows of a track whose first
    row is `track_top`: the first side's solid ▼ on its first rows, or with `below` the
    second side's hollow ▲ on its last."""
    for row in range(_TOKEN_ROWS):
        half = _TOKEN_ROWS - 1 - row  # widest row furthest from the line
        if below:
            y = track_top + TRACK_HEIGHT - 1 - row
            # Hollow: only the outline, so the two sides differ in shape too.
            if row == 0:
                canvas.hline(y, x - half, x + half)
            else:
                canvas.draw.point((x - half, y), fill=255)
                canvas.draw.point((x + half, y), fill=255)
        else:
            canvas.hline(track_top + row, x - half, x + half)
