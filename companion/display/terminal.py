"""A display sink that draws the 128x64 one-bit screen in a terminal.

The picture is as sharp as the terminal's size allows (:func:`choose_layout`):
half blocks (1×2 pixels a character, 130×35 with the frame and help line),
scaled up to 2×2 half cells a pixel or more when the terminal is larger
still, and braille (2×4 pixels a character, 66×20) only as the last resort,
with a line asking for a larger terminal. It draws on the terminal's
alternate screen, so leaving puts back what was there, and follows resizes.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal, TextIO

from PIL import Image, ImageOps

from companion.display.braille import to_braille
from companion.display.half_blocks import to_half_blocks
from companion.display.sink import AlwaysHealthy, DisplayUnavailable, check_frame
from companion.hardware.constants import HEIGHT, WIDTH
from companion.storage.settings import DEFAULT_CONTRAST

_CSI = "\x1b["
_ENTER_ALTERNATE_SCREEN, _LEAVE_ALTERNATE_SCREEN = f"{_CSI}?1049h", f"{_CSI}?1049l"
_HIDE_CURSOR, _SHOW_CURSOR = f"{_CSI}?25l", f"{_CSI}?25h"
_CLEAR_SCREEN = f"{_CSI}H{_CSI}2J"
_RESET = f"{_CSI}0m"
_REVERSE, _NO_REVERSE = f"{_CSI}7m", f"{_CSI}27m"
_REACH = 8  # cells either side (34 pixels in all) that decide whether a pixel row is light
# The panel's look whatever the terminal's theme: white pixels on black; grey when dimmed.
_LIT, _DIMMED = f"{_CSI}97;40m", f"{_CSI}38;5;244;40m"

UNWRITABLE = "the terminal display cannot write to {stream}: {reason}"

BRAILLE_HINT = "Enlarge the terminal to {columns}×{rows} or more for a sharper picture."


@dataclass(frozen=True, slots=True)
class Layout:
    """How the picture fits a terminal.

    ``style`` is "half blocks" (each pixel ``scale`` × ``scale`` half cells),
    "braille", or "too small" (nothing fits: only a request to enlarge).
    ``columns`` × ``rows`` is the block drawn (frame, help and hint lines).
    """

    style: Literal["half blocks", "braille", "too small"]
    scale: int
    columns: int
    rows: int


def half_block_size(width: int, height: int, scale: int) -> tuple[int, int]:
    """Columns and rows of a half-block picture with its frame and one help line."""
    return width * scale + 2, math.ceil(height * scale / 2) + 3


@contextlib.contextmanager
def _resizes_held() -> Iterator[None]:
    """Keep SIGWINCH from this thread while it writes to the terminal.

    A SIGWINCH that interrupted the write of a frame cut the frame short (a pty's
    write stopped after 8,192 bytes and the rest never came). Held, the signal goes
    to another thread or waits; its handler then runs between two Python steps,
    where `TerminalDisplay.resized` only asks the draw in progress to start over.
    """
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGWINCH})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def braille_size(width: int, height: int) -> tuple[int, int]:
    """Columns and rows of a braille picture with its frame, help and hint lines."""
    return math.ceil(width / 2) + 2, math.ceil(height / 4) + 4


def choose_layout(columns: int, rows: int, width: int = WIDTH, height: int = HEIGHT) -> Layout:
    """The sharpest picture of a ``width`` × ``height`` screen that fits the terminal.

    >>> choose_layout(80, 24)
    Layout(style='braille', scale=1, columns=66, rows=20)
    >>> choose_layout(140, 40)
    Layout(style='half blocks', scale=1, columns=130, rows=35)
    """
    scale = 1
    while all(
        need <= have
        for need, have in zip(
            half_block_size(width, height, scale + 1), (columns, rows), strict=True
        )
    ):
        scale += 1
    half = half_block_size(width, height, scale)
    if half[0] <= columns and half[1] <= rows:
        return Layout("half blocks", scale, *half)
    braille = braille_size(width, height)
    if braille[0] <= columns and braille[1] <= rows:
        return Layout("braille", 1, *braille)
    return Layout("too small", 0, columns, 1)


def braille_picture(image: Image.Image) -> list[str]:
    """The image in braille, light areas drawn in reverse video so they read as solid.

    A braille character shows its lit pixels as dots with gaps between them,
    so a white title bar becomes a grey field of dots with its dark text lost
    in it. Where most of a cell's four pixel rows are light, the cell shows
    instead the *dark* pixels as dots in reverse video: the bar is solid light
    and its text dark dots, as on the panel. A pixel row is light where it is
    mostly lit over 17 cells (34 pixels), which tells a bar from a dense
    letter: text never lights half of them.
    """
    lit = to_braille(image)
    dark = to_braille(ImageOps.invert(image.convert("L")))
    columns = len(lit[0])
    # Mean brightness of each pixel row across each cell's two pixels...
    strips = image.convert("L").resize((columns, image.height), Image.Resampling.BOX).tobytes()
    # ...and whether it is mostly lit around each cell.
    light_rows = []
    for y in range(image.height):
        strip = strips[y * columns : (y + 1) * columns]
        windows = [strip[max(0, c - _REACH) : c + _REACH + 1] for c in range(columns)]
        light_rows.append([sum(window) >= 128 * len(window) for window in windows])
    lines = []
    for row, (lit_line, dark_line) in enumerate(zip(lit, dark, strict=True)):
        ys = range(row * 4, min(image.height, row * 4 + 4))
        out, reversed_run = [], False
        for column in range(columns):
            light = sum(light_rows[y][column] for y in ys) >= 3
            if light != reversed_run:
                out.append(_REVERSE if light else _NO_REVERSE)
                reversed_run = light
            out.append(dark_line[column] if light else lit_line[column])
        if reversed_run:
            out.append(_NO_REVERSE)
        lines.append("".join(out))
    return lines


def _measure(stream: TextIO) -> tuple[int, int]:
    try:
        size = os.get_terminal_size(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return 80, 24  # not a terminal (a file, a test's buffer): the classic size
    return size.columns, size.lines


class TerminalDisplay(AlwaysHealthy):
    """A luma-like device that draws into a terminal with ANSI cursor moves.

    ``display(image)`` redraws in place (never scrolls) and only writes the
    rows that changed; an identical image writes nothing. Like luma devices,
    it insists on the right size and mode, so renderer bugs show up in
    simulation rather than on the device. ``terminal_size`` returns
    (columns, rows); by default the size of the terminal ``stream`` is on.

    A stream that takes nothing (standard output closed, or a full disk behind
    it) raises :class:`DisplayUnavailable` saying so in one line, at the start
    for a closed one, else at the first write that fails; nothing more is
    written to it after, not even at :meth:`cleanup`.
    """

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        width: int = WIDTH,
        height: int = HEIGHT,
        help_text: str = "",
        terminal_size: Callable[[], tuple[int, int]] | None = None,
    ) -> None:
        self.width = width
        self.height = height
        self.mode = "1"
        self.size = (width, height)
        self.bounding_box = (0, 0, width - 1, height - 1)
        self.rotate = 0
        self.persist = False
        self.help_text = help_text
        self._stream_name = "its stream" if stream is not None else "standard output"
        self._stream = stream if stream is not None else sys.stdout
        if self._stream is None:  # started with standard output closed (`>&-`)
            raise DisplayUnavailable(
                UNWRITABLE.format(stream=self._stream_name, reason="it is closed")
            )
        self._unwritable = False
        self._terminal_size = terminal_size or (lambda: _measure(self._stream))
        self._image: Image.Image | None = None
        self._shown: dict[int, str] | None = None  # terminal row -> what is drawn there
        self._entered = False  # on the alternate screen
        self._hidden = False
        self._dim = False
        self._drawing = False
        self._resized = False
        self.layout = choose_layout(*self._terminal_size(), width, height)

    def display(self, image: Image.Image) -> None:
        """Show ``image`` (``mode`` "1", ``size`` (width, height))."""
        check_frame(self, image)
        if self._image is not None and image.tobytes() == self._image.tobytes():
            return
        self._image = image.copy()
        self._redraw()

    def clear(self) -> None:
        """Show a blank screen."""
        self.display(Image.new(self.mode, self.size))

    def hide(self) -> None:
        """Blank the frame, as a panel switched off would be."""
        self._hidden = True
        self._redraw()

    def show(self) -> None:
        """Undo :meth:`hide`."""
        self._hidden = False
        self._redraw()

    def contrast(self, level: int) -> None:
        """A terminal has no brightness: levels below the default draw the screen grey instead."""
        if not 0 <= level <= 255:
            raise ValueError(f"contrast must be 0..255, not {level}")
        self._dim = level < DEFAULT_CONTRAST
        self._redraw()

    def resized(self) -> None:
        """The terminal changed size: lay the picture out anew.

        Safe to call from a signal handler that interrupts a draw in the same
        thread: the interrupted draw then starts over with the new size.
        """
        self._resized = True
        if not self._drawing:
            self._redraw()

    @contextlib.contextmanager
    def follow_resizes(self) -> Iterator[None]:
        """Redraw on SIGWINCH while the ``with`` block runs (main thread only)."""
        previous = signal.signal(signal.SIGWINCH, lambda *_: self.resized())
        try:
            yield
        finally:
            signal.signal(signal.SIGWINCH, previous)

    def cleanup(self) -> None:
        """Leave the alternate screen: the terminal shows again what it showed before."""
        if not self._entered or self._unwritable:
            return
        with _resizes_held():
            self._write(_RESET + _LEAVE_ALTERNATE_SCREEN + _SHOW_CURSOR)
        self._entered = False
        self._shown = None

    def _redraw(self) -> None:
        if self._image is None:
            return
        image = Image.new(self.mode, self.size) if self._hidden else self._image
        self._drawing = True
        try:
            with _resizes_held():
                while True:
                    self._resized = False
                    self._draw(image)
                    if not self._resized:
                        break
        finally:
            self._drawing = False
        # A SIGWINCH held during the draw is delivered as it is let through again, and its
        # handler may run before `_drawing` is cleared: it only marked the resize.
        if self._resized:
            self._redraw()

    def _draw(self, image: Image.Image) -> None:
        layout = choose_layout(*self._terminal_size(), self.width, self.height)
        out = []
        if not self._entered:
            out.append(_ENTER_ALTERNATE_SCREEN)
            self._entered = True
        if self._shown is None or layout != self.layout:
            out.append(_HIDE_CURSOR + _RESET + _CLEAR_SCREEN)
            self._shown = {}
            self.layout = layout
        lines = self._lines(layout, image)
        for row, line in lines.items():
            if self._shown.get(row) != line:
                out.append(f"{_CSI}{row};1H{line}")
        self._shown = lines
        self._write("".join(out))

    def _write(self, text: str) -> None:
        try:
            self._stream.write(text)
            self._stream.flush()
        except OSError as error:  # e.g. `>/dev/full`: a frame half-written, nothing more will go
            self._unwritable = True
            reason = error.strerror or str(error)
            raise DisplayUnavailable(
                UNWRITABLE.format(stream=self._stream_name, reason=reason)
            ) from None

    def _lines(self, layout: Layout, image: Image.Image) -> dict[int, str]:
        """Every terminal row (1-based) of the layout and what it shows, cursor moves included."""
        columns, rows = self._terminal_size()
        if layout.style == "too small":
            need = braille_size(self.width, self.height)
            return {1: f"Enlarge the terminal to at least {need[0]}×{need[1]}."[:columns]}
        if layout.style == "braille":
            picture = braille_picture(image)
            sharp = half_block_size(self.width, self.height, 1)
            notes = [self.help_text, BRAILLE_HINT.format(columns=sharp[0], rows=sharp[1])]
        else:
            picture = to_half_blocks(image, layout.scale)
            notes = [self.help_text]
        top = max(1, (rows - layout.rows) // 2 + 1)
        left = max(1, (columns - layout.columns) // 2 + 1)
        indent = f"{_CSI}{left}G"
        style = _DIMMED if self._dim else _LIT
        inner = layout.columns - 2
        lines = [indent + "┌" + "─" * inner + "┐"]
        lines += [f"{indent}│{style}{line}{_RESET}│" for line in picture]
        lines.append(indent + "└" + "─" * inner + "┘")
        lines += [f"{_CSI}{max(1, (columns - len(note)) // 2 + 1)}G{note}" for note in notes]
        return {top + index: line for index, line in enumerate(lines)}
