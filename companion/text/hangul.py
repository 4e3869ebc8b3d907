"""Korean on the 128×64 screen: Hangul at 12 pixels, with the small font for the rest.

A Hangul syllable cannot be drawn in the small font's seven rows, so Korean
text has a font of its own, `KOREAN`: the syllables of Baekmuk Gulim 12 (a
bitmap font, not a scaled outline, so every stroke lands on a whole pixel),
with every other character from `SMALL` sitting on the same baseline. A line
is 16 pixels, two of the panel's 8-row pages, so a Korean line rewrites two
pages where an English one rewrites one.

The Automa's turn is a card read at once: its decision, its steps and its
three filters, six rows. Gulim 12 holds five on the panel, so that screen
draws `KOREAN_DENSE`, the same syllables from Gulim 10 (nine rows of ink,
10-pixel lines), whose small font's figures stand nearly as tall as the
syllables beside them. The turn-again banner draws it too: in its eleven
rows Gulim 10 leaves a lit row round the letters.

Only the syllables the translations use are shipped, as a BDF subset of each
size (`fonts/gulim12-hangul.bdf`, `fonts/gulim10-hangul.bdf`, cut by
`scripts/extract-hangul.py` from Debian's xfonts-baekmuk; its licence beside
them). A syllable outside the subset is drawn as `?`, like any other character
no font has; so is every syllable if the subset is missing or damaged (one
warning, and the device runs on).

A subset is read the first time one of its Hangul characters is looked up
(drawn, measured, or asked whether Korean needs it), not at start: a device in
another language never reads it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from types import MappingProxyType

from companion.text.font import SMALL, DeferredGlyphs, Font, Glyph

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class GulimSize:
    """A size of Baekmuk Gulim whose syllables the package ships. The screens' layout is
    measured from the fonts when imported, so their metrics are constants (the subset
    must agree) and hold even when the subset cannot be read."""

    pixels: int
    """The font's size: its name in xfonts-baekmuk, gulim<pixels>.pcf.gz."""
    width: int
    """The shipped cell: the syllable and the gap after it."""
    ascent: int
    descent: int
    """Rows above and below the baseline: the syllables' ink, top to bottom."""

    @property
    def subset_name(self) -> str:
        return f"gulim{self.pixels}-hangul.bdf"

    @property
    def rows(self) -> int:
        return self.ascent + self.descent


GULIM_12 = GulimSize(12, width=12, ascent=10, descent=1)
GULIM_10 = GulimSize(10, width=11, ascent=8, descent=1)
"""Its syllables fill their 10-pixel cell to the right edge: the shipped cell adds the
column of gap that Gulim 12's cell has inside."""
LINE_HEIGHT = 16
"""Two of the panel's 8-row pages: a Korean line starts on a page boundary, as an English one."""
DENSE_LINE_HEIGHT = GULIM_10.rows + 1
"""Gulim 10's nine rows and a dark one: six lines in the panel's 64 rows."""


def read_bdf(text: str) -> tuple[Mapping[str, Glyph], int, int]:
    """The glyphs of a BDF font whose characters all fill its bounding box (a cell font),
    with its ascent and descent in rows; ValueError naming the line for anything else."""
    properties: dict[str, str] = {}
    glyphs: dict[str, Glyph] = {}
    # Each bitmap row decoded once: the syllables share their strokes (the subset's 2,706
    # rows are 129 different ones), and decoding every row was half of reading the font.
    decoded: dict[tuple[str, int], str] = {}
    lines: Iterator[tuple[int, str]] = enumerate(text.splitlines(), start=1)
    number = 0
    try:
        char, width, height = "", 0, 0
        for number, line in lines:
            key, _, value = line.partition(" ")
            if key in ("FONT_ASCENT", "FONT_DESCENT"):
                properties[key] = value
            elif key == "ENCODING":
                char = chr(int(value))
            elif key == "BBX":
                width, height = (int(size) for size in value.split()[:2])
            elif key == "BITMAP":
                if not char or not 0 < width <= 32 or not 0 < height <= 32:
                    raise ValueError("a BITMAP without an ENCODING and a BBX of 1 to 32 pixels")
                rows: list[str] = []
                for _ in range(height):
                    number, row = next(lines, (number, ""))
                    if not row:
                        raise ValueError("the bitmap is cut short")
                    bits = decoded.get((row, width))
                    if bits is None:
                        bits = decoded[row, width] = _bits(row, width)
                    rows.append(bits)
                # The cell holds the syllable's own gap: nothing more after it.
                glyphs[char] = Glyph(width=width, rows=tuple(rows), spacing=0)
                char = ""
            elif key == "ENDFONT":
                break
        else:
            raise ValueError("no ENDFONT: the file is cut short")
        ascent, descent = int(properties["FONT_ASCENT"]), int(properties["FONT_DESCENT"])
    except KeyError as error:
        raise ValueError(f"no {error.args[0]}") from None
    except (ValueError, OverflowError) as error:
        raise ValueError(f"line {number}: {error}") from None
    return MappingProxyType(glyphs), ascent, descent


def _bits(hex_row: str, width: int) -> str:
    bits = bin(int(hex_row, 16))[2:].zfill(len(hex_row) * 4)
    if len(bits) < width:
        raise ValueError(f"bitmap row {hex_row!r} narrower than {width}")
    return bits[:width].replace("0", ".").replace("1", "#")


HANGUL_RANGES = (
    ("\uac00", "\ud7fb"),  # syllables, then jamo extended-B
    ("\u1100", "\u11ff"),  # jamo
    ("\u3131", "\u318e"),  # compatibility jamo
    ("\ua960", "\ua97c"),  # jamo extended-A
    ("\u302e", "\u302f"),  # tone marks
)
"""Where Unicode's Hangul characters are: every one whose name starts with HANGUL, which
is what `scripts/extract-hangul.py` may cut into the subset."""


def is_hangul(char: str) -> bool:
    """Whether `char` is Hangul: `KOREAN` draws these from the subset, the rest as `SMALL`."""
    return "\u1100" <= char <= "\ud7fb" and any(low <= char <= high for low, high in HANGUL_RANGES)


def hangul_glyphs(subset: Traversable, size: GulimSize) -> Mapping[str, Glyph]:
    """The syllables of `subset` (a cut of `size`), or none if it is missing or unreadable:
    then one warning, Korean drawn as `?` in the small font's layout, and the device keeps
    running."""
    try:
        glyphs, ascent, descent = read_bdf(subset.read_text(encoding="ascii"))
        if (ascent, descent) != (size.ascent, size.descent):
            raise ValueError(
                f"ascent {ascent} and descent {descent}, not {size.ascent} and {size.descent}"
            )
        misfits = [char for char, glyph in glyphs.items() if len(glyph.rows) != size.rows]
        if misfits:
            raise ValueError(f"{misfits[0]!r} is not {size.rows} rows tall")
        strays = [char for char in glyphs if not is_hangul(char)]
        if strays:
            raise ValueError(f"{strays[0]!r} is not Hangul")
    except (OSError, ValueError) as error:  # UnicodeDecodeError is a ValueError
        log.warning("Korean font %s unusable, Hangul drawn as '?': %s", size.subset_name, error)
        return MappingProxyType({})
    return glyphs


def _build_korean(name: str, size: GulimSize, line_height: int) -> Font:
    def read_subset() -> Mapping[str, Glyph]:
        # Found as it is read, at the first Hangul looked up: finding a package's file
        # imports importlib's readers, which a start in any other language does not need.
        return hangul_glyphs(files("companion.text").joinpath("fonts", size.subset_name), size)

    return Font(
        name=name,
        glyphs=DeferredGlyphs(SMALL.glyphs, is_hangul, read_subset),
        rows=size.rows,
        cap_rows=size.ascent,
        leading=line_height - size.rows,
    )


KOREAN: Font = _build_korean("korean", GULIM_12, LINE_HEIGHT)
"""Korean text: Hangul 11 rows tall (10 above the baseline), 16-pixel lines."""
KOREAN_DENSE: Font = _build_korean("korean dense", GULIM_10, DENSE_LINE_HEIGHT)
"""The Automa's card and the turn-again banner in Korean: Hangul 9 rows tall (8 above the
baseline), 10-pixel lines."""
