"""One-bit images as Unicode braille, so the display can be read in a terminal.

Each braille character shows a 2×4 block of pixels, so the 128×64 display
becomes 64 columns by 16 rows: it fits an 80×24 terminal with room to spare.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from PIL import Image

BRAILLE_BASE = 0x2800
CELL_WIDTH = 2
CELL_HEIGHT = 4

DOT_BITS: Mapping[tuple[int, int], int] = MappingProxyType(
    {
        (0, 0): 0x01,
        (0, 1): 0x02,
        (0, 2): 0x04,
        (1, 0): 0x08,
        (1, 1): 0x10,
        (1, 2): 0x20,
        (0, 3): 0x40,
        (1, 3): 0x80,
    }
)
"""Bit of each (dx, dy) pixel in a cell: dots 1–8 of the Unicode braille block.

Dots 7 and 8 (the bottom row) came later to braille, hence their high bits.
"""


def to_braille(image: Image.Image) -> list[str]:
    """The image as lines of braille, a raised dot for each lit pixel.

    Any size works; a partial cell at the right or bottom edge shows the
    missing pixels as dark. Modes other than "1" are thresholded by Pillow.

    >>> img = Image.new("1", (2, 4)); img.putpixel((0, 0), 1); img.putpixel((1, 3), 1)
    >>> to_braille(img)
    ['⢁']
    """
    if image.mode != "1":
        image = image.convert("1")
    width, height = image.size
    pixels = image.load()
    assert pixels is not None  # None only for an image that failed to load, which raised
    lines = []
    for top in range(0, height, CELL_HEIGHT):
        cells = []
        for left in range(0, width, CELL_WIDTH):
            bits = 0
            for (dx, dy), bit in DOT_BITS.items():
                x, y = left + dx, top + dy
                if x < width and y < height and pixels[x, y]:
                    bits |= bit
            cells.append(chr(BRAILLE_BASE + bits))
        lines.append("".join(cells))
    return lines
