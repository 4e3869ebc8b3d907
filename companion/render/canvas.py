"""The drawing surface screens render onto: one 128×64 one-bit image.

A `Canvas` draws like Pillow but also keeps a record of every piece of text it
drew and of every piece that would be cut, in `overflows`. Nothing raises: a
test renders many screens, with long names and big numbers, and asserts that
`overflows` stayed empty.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from PIL import Image, ImageDraw

from companion.hardware.constants import HEIGHT, WIDTH
from companion.text.font import SMALL, Font, ink

Align = Literal["left", "center", "right"]


class Box(NamedTuple):
    """A rectangle of whole pixels; `right` and `bottom` are exclusive."""

    x: int
    y: int
    width: int
    height: int

    @property
    def right(self) -> int:
        return self.x + self.width

    @property
    def bottom(self) -> int:
        return self.y + self.height

    @property
    def corners(self) -> tuple[int, int, int, int]:
        """The inclusive (x0, y0, x1, y1) that Pillow's rectangle expects."""
        return (self.x, self.y, self.right - 1, self.bottom - 1)

    def inset(self, dx: int, dy: int | None = None) -> Box:
        """This box shrunk by `dx` on the left and right and `dy` top and bottom."""
        dy = dx if dy is None else dy
        return Box(self.x + dx, self.y + dy, self.width - 2 * dx, self.height - 2 * dy)

    def contains(self, other: Box) -> bool:
        """Whether `other` lies wholly inside this box."""
        return (
            self.x <= other.x
            and self.y <= other.y
            and other.right <= self.right
            and other.bottom <= self.bottom
        )


def aligned_x(box: Box, width: int, align: Align) -> int:
    """Where something `width` pixels wide starts when aligned in `box`."""
    if align == "center":
        return box.x + max(0, (box.width - width) // 2)
    if align == "right":
        return box.x + max(0, box.width - width)
    return box.x


class TextBox(NamedTuple):
    """Where a piece of text went: its ink box and the room it was given."""

    text: str
    box: Box
    room: Box
    cut: bool


class Canvas:
    """A fresh black 128×64 image with text-aware drawing helpers.

    `image` and `draw` are there for anything the helpers do not cover; draw
    with fill 255 (or `ink(1)`) so images compare equal to PNGs read back.
    """

    def __init__(self) -> None:
        self.image = Image.new("1", (WIDTH, HEIGHT), 0)
        self.draw = ImageDraw.Draw(self.image)
        self.bounds = Box(0, 0, WIDTH, HEIGHT)
        self.texts: list[TextBox] = []
        self.overflows: list[str] = []

    def report(self, problem: str) -> None:
        """Record something that did not fit, for tests and the log to show."""
        self.overflows.append(problem)

    def text(
        self,
        xy: tuple[int, int],
        text: str,
        *,
        font: Font = SMALL,
        fill: int = 1,
        max_width: int | None = None,
    ) -> TextBox:
        """Draw `text` with its top-left at `xy`, cut (and reported) at `max_width`."""
        x, y = xy
        room_width = self.bounds.right - x if max_width is None else max_width
        return self._place(text, x, y, Box(x, y, room_width, font.height), font, fill)

    def text_in_box(
        self,
        box: Box,
        text: str,
        *,
        font: Font = SMALL,
        align: Align = "left",
        fill: int = 1,
    ) -> TextBox:
        """Draw `text` inside `box`, aligned horizontally and centred vertically.

        Vertical centring uses the capital height, so a bar one pixel taller
        than the font leaves the same margin above capitals as below them.
        """
        x = aligned_x(box, font.text_width(text), align)
        y = box.y + max(0, (box.height - font.cap_height) // 2)
        return self._place(text, x, y, box, font, fill)

    def selection_bar(
        self,
        box: Box,
        text: str,
        *,
        font: Font = SMALL,
        align: Align = "left",
        padding: int = 1,
    ) -> TextBox:
        """A lit bar filling `box` with dark text: the highlighted menu line."""
        self.fill(box)
        return self.text_in_box(box.inset(padding, 0), text, font=font, align=align, fill=0)

    def fill(self, box: Box, fill: int = 1) -> None:
        """Fill `box` completely (fill=0 clears it)."""
        if box.width > 0 and box.height > 0:
            self.draw.rectangle(box.corners, fill=ink(fill))

    def frame(self, box: Box, fill: int = 1) -> None:
        """A one-pixel outline just inside `box`."""
        if box.width > 0 and box.height > 0:
            self.draw.rectangle(box.corners, outline=ink(fill))

    def hline(self, y: int, x0: int = 0, x1: int = WIDTH - 1, fill: int = 1) -> None:
        """A horizontal rule on row `y` from column `x0` to `x1` inclusive."""
        self.draw.line((x0, y, x1, y), fill=ink(fill))

    def vline(self, x: int, y0: int = 0, y1: int = HEIGHT - 1, fill: int = 1) -> None:
        """A vertical rule in column `x` from row `y0` to `y1` inclusive."""
        self.draw.line((x, y0, x, y1), fill=ink(fill))

    def _place(self, text: str, x: int, y: int, room: Box, font: Font, fill: int) -> TextBox:
        width = font.text_width(text)
        ink_box = Box(x, y, width, font.height)
        drawn = font.draw(self.draw, (x, y), text, fill=fill, max_width=room.right - x)
        problems = []
        if width > room.width:
            problems.append(f"is {width}px wide, only {room.width}px available")
        elif not room.contains(ink_box):
            problems.append(f"does not fit its box {room.corners}")
        # An accented capital's mark rises into the leading above the line: only
        # the display's edge can cut it.
        rise = font.rise(text)
        if not self.bounds.contains(Box(x, y - rise, width, font.height + rise)):
            problems.append("runs off the display")
        # A character no font draws shows as "?": the language's words must never.
        # (Only characters without a glyph of their own are looked at: the "?"
        # itself has one, and the rest are each text's few accented letters.)
        unknown = {char for char in text if not font.has_glyph(char)}
        missing = sorted(char for char in unknown if font.normalise(char) == font.fallback)
        if missing:
            problems.append(f"has no glyph for {''.join(missing)}")
        if problems:
            self.report(f"text {text!r} at {ink_box.corners} " + " and ".join(problems))
        record = TextBox(text=text, box=ink_box, room=room, cut=drawn < width or bool(problems))
        self.texts.append(record)
        return record
