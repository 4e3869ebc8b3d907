#!/usr/bin/env python3
"""Draw what a terminal shows into a PNG, to judge a terminal picture by eye.

Reads the output of `tmux capture-pane -e -p` (text with ANSI colours) and
draws each cell with a real monospace font, DejaVu Sans Mono (Debian's
fonts-dejavu-core), as a terminal would: colours, dim, reverse video.
Braille, which DejaVu Sans Mono lacks, falls back to DejaVu Sans, as
terminals fall back to another font.

    tmux capture-pane -e -p -t sim > pane.txt
    .venv/bin/python scripts/terminal-png.py pane.txt pane.png --columns 140 --rows 40
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONTS = Path("/usr/share/fonts/truetype/dejavu")
MONOSPACE, FALLBACK = FONTS / "DejaVuSansMono.ttf", FONTS / "DejaVuSans.ttf"
DEFAULT_FOREGROUND, DEFAULT_BACKGROUND = (208, 208, 208), (30, 30, 30)
BASIC = [
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0),
    (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
    (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
    (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
]  # fmt: skip
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def xterm_colour(index: int) -> tuple[int, int, int]:
    """The xterm 256-colour palette."""
    if index < 16:
        return BASIC[index]
    if index < 232:
        index -= 16
        levels = [0, 95, 135, 175, 215, 255]
        return levels[index // 36], levels[index // 6 % 6], levels[index % 6]
    grey = 8 + 10 * (index - 232)
    return grey, grey, grey


class Style:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.foreground = self.background = None
        self.dim = self.reverse = False

    def apply(self, parameters: str) -> None:
        numbers = [int(p) if p else 0 for p in parameters.split(";")] if parameters else [0]
        index = 0
        while index < len(numbers):
            code = numbers[index]
            if code == 0:
                self.reset()
            elif code == 2:
                self.dim = True
            elif code == 22:
                self.dim = False
            elif code == 7:
                self.reverse = True
            elif code == 27:
                self.reverse = False
            elif 30 <= code <= 37 or 90 <= code <= 97:
                self.foreground = BASIC[code - 30 if code < 90 else code - 82]
            elif 40 <= code <= 47 or 100 <= code <= 107:
                self.background = BASIC[code - 40 if code < 100 else code - 92]
            elif code == 39:
                self.foreground = None
            elif code == 49:
                self.background = None
            elif code in (38, 48) and index + 1 < len(numbers):
                if numbers[index + 1] == 5:
                    colour = xterm_colour(numbers[index + 2])
                    index += 2
                else:
                    colour = tuple(numbers[index + 2 : index + 5])
                    index += 4
                if code == 38:
                    self.foreground = colour
                else:
                    self.background = colour
            index += 1

    def colours(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        foreground = self.foreground or DEFAULT_FOREGROUND
        background = self.background or DEFAULT_BACKGROUND
        if self.dim:
            foreground = tuple((f + b) // 2 for f, b in zip(foreground, background, strict=True))
        if self.reverse:
            foreground, background = background, foreground
        return foreground, background


def draw(text: str, columns: int, rows: int, size: int) -> Image.Image:
    mono = ImageFont.truetype(str(MONOSPACE), size)
    fallback = ImageFont.truetype(str(FALLBACK), size)
    ascent, descent = mono.getmetrics()
    cell_width, cell_height = round(mono.getlength("M")), ascent + descent
    image = Image.new("RGB", (columns * cell_width, rows * cell_height), DEFAULT_BACKGROUND)
    canvas = ImageDraw.Draw(image)
    style = Style()
    for row, line in enumerate(text.split("\n")[:rows]):
        column = 0
        parts = SGR.split(line)
        for index, part in enumerate(parts):
            if index % 2:
                style.apply(part)
                continue
            for char in part:
                if column >= columns:
                    break
                foreground, background = style.colours()
                x, y = column * cell_width, row * cell_height
                canvas.rectangle((x, y, x + cell_width - 1, y + cell_height - 1), fill=background)
                font = fallback if 0x2800 <= ord(char) <= 0x28FF else mono
                canvas.text((x, y), char, font=font, fill=foreground)
                column += 1
    return image


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("capture", type=Path, help="capture-pane -e -p output ('-' for stdin)")
    parser.add_argument("png", type=Path)
    parser.add_argument("--columns", type=int, default=80)
    parser.add_argument("--rows", type=int, default=24)
    parser.add_argument("--font-size", type=int, default=15)
    args = parser.parse_args()
    text = sys.stdin.read() if str(args.capture) == "-" else args.capture.read_text()
    draw(text, args.columns, args.rows, args.font_size).save(args.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
