"""A display sink that draws the 128x64 one-bit screen in a terminal, as Unicode braille.

Each braille cell holds 2x4 pixels, so the screen becomes 64 columns by 16
rows; with a border and one help line it fits an 80x24 terminal.
"""

from __future__ import annotations

import sys
from typing import TextIO

from PIL import Image

from companion.display.braille import BRAILLE_BASE, to_braille
from companion.display.sink import AlwaysHealthy

_CSI = "\x1b["
_HIDE_CURSOR = f"{_CSI}?25l"
_SHOW_CURSOR = f"{_CSI}?25h"
_CLEAR_SCREEN = f"{_CSI}H{_CSI}2J"
_DIM, _NORMAL = f"{_CSI}2m", f"{_CSI}0m"


def frame_lines(braille: list[str], help_text: str = "") -> list[str]:
    """Surround braille lines with a box and add the help line (if any) below."""
    width = max((len(line) for line in braille), default=0)
    lines = ["┌" + "─" * width + "┐"]
    lines += ["│" + line.ljust(width, chr(BRAILLE_BASE)) + "│" for line in braille]
    lines.append("└" + "─" * width + "┘")
    if help_text:
        lines.append(help_text)
    return lines


class TerminalDisplay(AlwaysHealthy):
    """A luma-like device that draws into a terminal with ANSI cursor moves.

    ``display(image)`` redraws in place (never scrolls) and only writes the
    rows that changed; an identical image writes nothing. Like luma devices,
    it insists on the right size and mode, so renderer bugs show up in
    simulation rather than on the device.
    """

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        width: int = 128,
        height: int = 64,
        help_text: str = "",
        top: int = 1,
    ) -> None:
        self.width = width
        self.height = height
        self.mode = "1"
        self.size = (width, height)
        self.bounding_box = (0, 0, width - 1, height - 1)
        self.rotate = 0
        self.persist = False
        self.help_text = help_text
        self._stream = stream if stream is not None else sys.stdout
        self._top = top  # terminal row (1-based) of the frame's top border
        self._image: Image.Image | None = None
        self._shown: list[str] | None = None  # the lines currently on the terminal
        self._hidden = False
        self._dim = False

    def display(self, image: Image.Image) -> None:
        """Show ``image`` (``mode`` "1", ``size`` (width, height))."""
        if image.size != self.size or image.mode != self.mode:
            raise ValueError(
                f"expected a {self.width}x{self.height} mode {self.mode!r} image, "
                f"got {image.size[0]}x{image.size[1]} mode {image.mode!r}"
            )
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
        """A terminal has no brightness: levels below 128 draw the screen dim instead."""
        if not 0 <= level <= 255:
            raise ValueError(f"contrast must be 0..255, not {level}")
        self._dim = level < 128
        self._shown = None  # SGR attributes changed: every row must be rewritten
        self._redraw()

    def cleanup(self) -> None:
        """Leave the picture on screen, put the cursor below it and show the cursor again."""
        if self._shown is None:
            return
        row = self._top + len(self._shown)
        self._stream.write(f"{_CSI}{row};1H{_SHOW_CURSOR}")
        self._stream.flush()

    def _redraw(self) -> None:
        if self._image is None:
            return
        image = Image.new(self.mode, self.size) if self._hidden else self._image
        lines = frame_lines(to_braille(image), self.help_text)
        out = []
        if self._shown is None or len(self._shown) != len(lines):
            out.append(_HIDE_CURSOR + _CLEAR_SCREEN)
            self._shown = [""] * len(lines)
        for index, (line, old) in enumerate(zip(lines, self._shown, strict=True)):
            if line != old:
                styled = f"{_DIM}{line}{_NORMAL}" if self._dim else line
                out.append(f"{_CSI}{self._top + index};1H{styled}")
        self._shown = lines
        self._stream.write("".join(out))
        self._stream.flush()
