"""Korean on the 128×64 screen: Hangul at 12 pixels, with the small font for the rest.

A Hangul syllable cannot be drawn in the small font's seven rows, so Korean
text has a font of its own, `KOREAN`: the syllables of Baekmuk Gulim 12 (a
bitmap font, not a scaled outline, so every stroke lands on a whole pixel),
with every other character from `SMALL` sitting on the same baseline. A line
is 16 pixels, two of the panel's 8-row pages, so a Korean line rewrites two
pages where an English one rewrites one.

Only the syllables the translations use are shipped, as a BDF subset
(`fonts/gulim12-hangul.bdf`, cut by `scripts/extract-hangul.py` from Debian's
xfonts-baekmuk; its licence beside it). A syllable outside the subset is
drawn as `?`, like any other character no font has.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib.resources import files
from types import MappingProxyType

from companion.text.font import SMALL, Font, Glyph

SUBSET_NAME = "gulim12-hangul.bdf"
LINE_HEIGHT = 16
"""Two of the panel's 8-row pages: a Korean line starts on a page boundary, as an English one."""


def read_bdf(text: str) -> tuple[Mapping[str, Glyph], int, int]:
    """The glyphs of a BDF font whose characters all fill its bounding box (a cell font),
    with its ascent and descent in rows."""
    properties: dict[str, str] = {}
    glyphs: dict[str, Glyph] = {}
    lines: Iterator[str] = iter(text.splitlines())
    for line in lines:
        key, _, value = line.partition(" ")
        if key in ("FONT_ASCENT", "FONT_DESCENT", "FONTBOUNDINGBOX"):
            properties[key] = value
        elif key == "ENCODING":
            char = chr(int(value))
        elif key == "BBX":
            width, height = (int(number) for number in value.split()[:2])
        elif key == "BITMAP":
            rows = tuple(_bits(next(lines), width) for _ in range(height))
            # The cell holds the syllable's own gap: nothing more after it.
            glyphs[char] = Glyph(width=width, rows=rows, spacing=0)
    return MappingProxyType(glyphs), int(properties["FONT_ASCENT"]), int(properties["FONT_DESCENT"])


def _bits(hex_row: str, width: int) -> str:
    bits = bin(int(hex_row, 16))[2:].zfill(len(hex_row) * 4)
    return bits[:width].replace("0", ".").replace("1", "#")


def _build_korean() -> Font:
    subset = files("companion.text").joinpath("fonts", SUBSET_NAME).read_text(encoding="ascii")
    hangul, ascent, descent = read_bdf(subset)
    rows = ascent + descent
    return Font(
        name="korean",
        glyphs=MappingProxyType({**SMALL.glyphs, **hangul}),
        rows=rows,
        cap_rows=ascent,
        leading=LINE_HEIGHT - rows,
    )


KOREAN: Font = _build_korean()
"""Korean text: Hangul 11 rows tall (10 above the baseline), 16-pixel lines."""
