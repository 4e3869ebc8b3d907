"""One-bit images as Unicode half blocks, the sharpest picture a terminal can show.

A terminal cell is about twice as tall as it is wide, so splitting it into an
upper and a lower half gives two square pixels: ``▀`` lights the upper one,
``▄`` the lower, ``█`` both and a space neither. The 128×64 display becomes 128
columns by 32 rows, and its 5-pixel text stays readable (braille's 2×4 dots
per cell do not keep it so).
"""

from __future__ import annotations

from PIL import Image

UPPER, LOWER, BOTH, NEITHER = "▀", "▄", "█", " "
_CELLS = {(False, False): NEITHER, (True, False): UPPER, (False, True): LOWER, (True, True): BOTH}


def to_half_blocks(image: Image.Image, scale: int = 1) -> list[str]:
    """The image as lines of half blocks, each pixel drawn ``scale`` × ``scale`` half cells.

    A scale of 2 makes every pixel two columns wide and one row tall (two half
    rows), so it stays square. An odd number of pixel rows leaves the last
    line's lower halves dark. Modes other than "1" are thresholded by Pillow.

    >>> img = Image.new("1", (3, 2)); img.putpixel((0, 0), 1); img.putpixel((1, 1), 1)
    >>> img.putpixel((2, 0), 1); img.putpixel((2, 1), 1)
    >>> to_half_blocks(img)
    ['▀▄█']
    """
    if scale < 1:
        raise ValueError(f"scale must be at least 1, not {scale}")
    if image.mode != "1":
        image = image.convert("1")
    if scale > 1:
        image = image.resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST)
    width, height = image.size
    lit = [value != 0 for value in image.convert("L").tobytes()]  # row by row
    lines = []
    for top in range(0, height, 2):
        upper = lit[top * width : (top + 1) * width]
        lower = lit[(top + 1) * width : (top + 2) * width] or [False] * width
        lines.append("".join(_CELLS[pair] for pair in zip(upper, lower, strict=True)))
    return lines
