"""A crisp pixel font for the 128×64 one-bit display: no anti-aliasing, ever.

luma's legacy fonts were considered: CP437/SINCLAIR/LCD are 8×8 cells (16 to
21 characters a line even when made proportional) and TINY_FONT is 3×5 with
lowercase that is hard to read. So the font is defined here as data
(`glyphs.py`, and `glyphs_alphabets.py` for the Polish, Czech and Russian
letters): proportional, mostly 4 pixels wide plus 1 of spacing, 7 rows plus 1
of leading. `SMALL` is the body font; `LARGE` is the same design drawn at
twice the size for big numbers and titles, except its digits, which are drawn
at their own size (`glyphs.LARGE_DIGIT_DATA`) so that 6 and 8 cannot be
mistaken for each other. Korean has a font of its own, with taller lines
(`companion.text.hangul`).

A character the font has no glyph for is first reduced to one it has where
that keeps its meaning (`ß` → `ss`, `ä` → `a`, `…` → `...`), and anything
still unknown is drawn as `?`: a name typed on a laptop must never crash the
device. The letters of the device's languages all have glyphs of their own.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeVar

from PIL import Image, ImageDraw

from companion.text import glyphs
from companion.text.glyphs import (
    ARROW_DOWN,
    ARROW_LEFT,
    ARROW_RIGHT,
    ARROW_TO,
    ARROW_UP,
    BUTTON,
    CHECK,
    CROSS,
    ICONS,
    LEATHER,
    LOST,
    TILE,
    TIME,
    WON,
)
from companion.text.glyphs_alphabets import LETTER_DATA

__all__ = [
    "ARROW_DOWN",
    "ARROW_LEFT",
    "ARROW_RIGHT",
    "ARROW_TO",
    "ARROW_UP",
    "BUTTON",
    "CHECK",
    "CROSS",
    "ICONS",
    "LARGE",
    "LEATHER",
    "LOST",
    "SMALL",
    "TILE",
    "TIME",
    "WON",
    "DeferredGlyphs",
    "Font",
    "Glyph",
    "ink",
    "wrap",
]

# Typographic characters a translator or a laptop keyboard is likely to produce,
# mapped to the ASCII that reads the same on a 4-pixel-wide font.
_SUBSTITUTES: Mapping[str, str] = MappingProxyType(
    {
        "\u2013": "-",  # en dash
        "\u2014": "-",  # em dash
        "\u2212": "-",  # minus sign
        "\u00d7": "x",  # multiplication sign, as in "7×7"
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2026": "...",
        "\u00a0": " ",
        "\u00df": "ss",
    }
)


def ink(fill: int) -> int:
    """The pixel value for `fill` in a mode "1" image: 255 for lit, 0 for dark.

    Pillow stores whatever non-zero value it is given; images drawn with 1 then
    differ from a PNG read back (255) although they look the same. Drawing
    always with 0/255 keeps image comparisons honest.
    """
    return 255 if fill else 0


_Laid = TypeVar("_Laid")

_REMEMBERED_TEXTS = 1024
"""How many texts a font keeps laid out. A screen's texts recur frame after frame
(every input renders the whole board again), so measuring and drawing each once
saves most of a frame's text work; forgetting them all at this many keeps a
device that runs for weeks within a bounded memory."""


class Typeset:
    """A text as a font lays it out: worked out once, then drawn and measured from this.

    A plain slotted class: every frame makes new ones, and this is the quickest to make."""

    __slots__ = ("drawn", "ends", "rise", "starts")

    def __init__(
        self, drawn: str, starts: tuple[int, ...], ends: tuple[int, ...], rise: int
    ) -> None:
        self.drawn = drawn
        """The characters drawn (see `Font.normalise`)."""
        self.starts = starts
        """Where each drawn character's bitmap starts, in pixels from the text's start."""
        self.ends = ends
        """Where each drawn character's bitmap ends, in pixels from the text's start."""
        self.rise = rise
        """Pixels above the line's top the text draws into."""

    @property
    def width(self) -> int:
        return self.ends[-1] if self.ends else 0


@dataclass(frozen=True, slots=True)
class Glyph:
    """One character's bitmap: `rows` of `#`/`.` strings, all `width` long.

    `spacing` columns are left blank after it; a glyph whose bitmap already
    holds its own gap (a Hangul syllable's square) has none.
    """

    width: int
    rows: tuple[str, ...]
    spacing: int = 1

    @classmethod
    def parse(cls, data: str) -> Glyph:
        """Build a glyph from the `glyphs.py` notation: rows separated by spaces."""
        rows = tuple(data.split(" "))
        widths = {len(row) for row in rows}
        if len(widths) != 1 or set("".join(rows)) - {"#", "."}:
            raise ValueError(f"malformed glyph rows {data!r}")
        return cls(widths.pop(), rows)

    def mask(self, scale: int) -> Image.Image:
        """The glyph as a mode "1" image, each pixel a `scale`×`scale` block."""
        # One call to set the pixels and one to scale them, not a rectangle a pixel: the
        # first frame draws some forty glyphs, and Pillow's work a call was most of it.
        image = Image.new("1", (self.width, len(self.rows)), 0)
        image.putdata([255 if cell == "#" else 0 for row in self.rows for cell in row])
        if scale == 1:
            return image
        size = (self.width * scale, len(self.rows) * scale)
        return image.resize(size, Image.Resampling.NEAREST)


class DeferredGlyphs(Mapping[str, Glyph]):
    """A font's glyphs, some read only the first time one of them is asked for.

    `at_hand` are there from the start; `read()` returns those of the characters
    `deferred(char)` is true for, which always come from it (a character it lacks is
    missing, whatever `at_hand` holds). Going through the whole table reads them too.
    Its reader checks what it reads: `Font` checks only the glyphs at hand when made.
    """

    def __init__(
        self,
        at_hand: Mapping[str, Glyph],
        deferred: Callable[[str], bool],
        read: Callable[[], Mapping[str, Glyph]],
    ) -> None:
        self.at_hand = at_hand
        self._deferred = deferred
        self._read = read
        self._glyphs: Mapping[str, Glyph] | None = None

    def _read_glyphs(self) -> Mapping[str, Glyph]:
        if self._glyphs is None:
            self._glyphs = self._read()
        return self._glyphs

    def __getitem__(self, char: str) -> Glyph:
        return (self._read_glyphs() if self._deferred(char) else self.at_hand)[char]

    def __contains__(self, char: object) -> bool:
        if not isinstance(char, str):
            return False
        return char in (self._read_glyphs() if self._deferred(char) else self.at_hand)

    def __iter__(self) -> Iterator[str]:
        yield from (char for char in self.at_hand if not self._deferred(char))
        yield from self._read_glyphs()

    def __len__(self) -> int:
        return sum(1 for _ in self)


_NO_GLYPHS: Mapping[str, Glyph] = MappingProxyType({})


class Font:
    """A proportional bitmap font drawn at an integer `scale`.

    Metrics are in display pixels (already scaled). `height` is the tallest
    glyph including descenders, `cap_height` the top of capitals to the
    baseline, `line_height` the distance from one line's top to the next.

    Every glyph is drawn with its last row on the line's last row (`rows`), so
    glyphs of different heights share a baseline: a shorter glyph starts lower
    (a Latin letter among Hangul), and a glyph one row taller than the line
    rises into the leading above it (an accented capital).
    """

    def __init__(
        self,
        name: str,
        glyphs: Mapping[str, Glyph],
        rows: int,
        cap_rows: int,
        scale: int = 1,
        leading: int = 1,
        fallback: str = "?",
        full_size: Mapping[str, Glyph] = _NO_GLYPHS,
    ) -> None:
        self.name = name
        self.glyphs = glyphs
        self.rows = rows
        self.cap_rows = cap_rows
        self.scale = scale
        self.leading = leading
        self.fallback = fallback
        self.full_size = full_size
        """Glyphs drawn pixel for pixel at this font's size, in place of the scaled design."""
        self._masks: dict[str, Image.Image] = {}
        """Each glyph's bitmap, drawn the first time it is used: start-up draws none of them."""
        self._typeset: dict[str, Typeset] = {}
        """Texts laid out, by text (at most `_REMEMBERED_TEXTS`)."""
        self._text_masks: dict[str, Image.Image] = {}
        """Whole texts' bitmaps, by the characters drawn (at most `_REMEMBERED_TEXTS`)."""
        if self.fallback not in self.glyphs:
            raise ValueError(f"font {self.name}: fallback {self.fallback!r} has no glyph")
        for char, glyph in self.full_size.items():
            if char not in self.glyphs or len(glyph.rows) != self.height:
                raise ValueError(f"font {self.name}: full-size {char!r} has no place in it")
        # Deferred glyphs are checked as they are read: checking them here would read them.
        at_hand = glyphs.at_hand if isinstance(glyphs, DeferredGlyphs) else glyphs
        too_tall = [char for char, glyph in at_hand.items() if len(glyph.rows) > self.rows + 1]
        if too_tall:
            raise ValueError(f"font {self.name}: glyphs taller than a line: {too_tall[:5]}")

    @property
    def height(self) -> int:
        return self.rows * self.scale

    @property
    def cap_height(self) -> int:
        return self.cap_rows * self.scale

    @property
    def line_height(self) -> int:
        return (self.rows + self.leading) * self.scale

    def scaled(
        self, scale: int, name: str | None = None, full_size: Mapping[str, Glyph] | None = None
    ) -> Font:
        """The same design drawn `scale` times larger than the unscaled glyphs.

        `full_size` glyphs are drawn as they are instead (a design only holds at
        the size it was drawn for, so none are carried over from this font).
        """
        return Font(
            name=name or f"{self.name}x{scale}",
            glyphs=self.glyphs,
            rows=self.rows,
            cap_rows=self.cap_rows,
            scale=scale,
            leading=self.leading,
            fallback=self.fallback,
            full_size=MappingProxyType(dict(full_size or {})),
        )

    def has_glyph(self, char: str) -> bool:
        """Whether `char` is drawn with a glyph of its own (not reduced, not `?`)."""
        return char in self.glyphs

    def normalise(self, text: str) -> str:
        """`text` as the characters this font will actually draw.

        >>> SMALL.normalise("Café – 7×7 € ä …")
        'Café – 7x7 ? a ...'
        """
        return "".join(self._drawable(char) for char in text)

    def _drawable(self, char: str) -> str:
        if char in self.glyphs:
            return char
        if char in _SUBSTITUTES:
            return _SUBSTITUTES[char]
        # Accented Latin letters lose their accent rather than become "?".
        base = unicodedata.normalize("NFKD", char)[:1]
        if base and base != char and base in self.glyphs and base.isalpha():
            return base
        return self.fallback

    def rise(self, text: str) -> int:
        """Pixels above the line's top that `text` draws into (an accented capital's mark).

        >>> SMALL.rise("Cas"), SMALL.rise("Čas")
        (0, 1)
        """
        return self.typeset(text).rise

    def advance(self, char: str) -> int:
        """Pixels from the start of `char` to the start of the next one."""
        glyph = self.glyphs[char]
        return self._width(char, glyph) + glyph.spacing * self.scale

    def _width(self, char: str, glyph: Glyph) -> int:
        """Pixels `char`'s bitmap (`glyph`, its design) is wide, without drawing it."""
        full_size = self.full_size.get(char)
        return full_size.width if full_size else glyph.width * self.scale

    def _mask(self, char: str) -> Image.Image:
        """`char`'s bitmap, drawn once so that drawing is a handful of bitmap pastes."""
        mask = self._masks.get(char)
        if mask is None:
            full_size = self.full_size.get(char)
            mask = full_size.mask(1) if full_size else self.glyphs[char].mask(self.scale)
            self._masks[char] = mask
        return mask

    def text_width(self, text: str) -> int:
        """Width in pixels of `text` from first lit column to last (no trailing gap).

        >>> SMALL.text_width("Hi")
        6
        """
        return self.typeset(text).width

    def typeset(self, text: str) -> Typeset:
        """`text` laid out in this font, worked out the first time it is asked for."""
        laid_out = self._typeset.get(text)
        if laid_out is None:
            drawn = self.normalise(text)
            starts, ends, x, tallest = [], [], 0, 0
            for char in drawn:
                glyph = self.glyphs[char]
                width = self._width(char, glyph)
                starts.append(x)
                ends.append(x + width)
                x += width + glyph.spacing * self.scale
                tallest = max(tallest, len(glyph.rows))
            rise = max(0, tallest - self.rows) * self.scale
            laid_out = Typeset(drawn, tuple(starts), tuple(ends), rise)
            _remember(self._typeset, text, laid_out)
        return laid_out

    def fits(self, text: str, width: int) -> bool:
        """Whether `text` fits in `width` pixels without being cut."""
        return self.text_width(text) <= width

    def draw(
        self,
        target: Image.Image | ImageDraw.ImageDraw,
        xy: tuple[int, int],
        text: str,
        fill: int = 1,
        max_width: int | None = None,
    ) -> int:
        """Draw `text` with its top-left at `xy`; return the width actually drawn.

        With `max_width`, glyphs that would end beyond it are left out whole,
        so cut text is visible as missing letters rather than as half a glyph.
        """
        laid_out = self.typeset(text)
        # The glyphs before the first that would end beyond max_width.
        count = len(laid_out.ends) if max_width is None else bisect_right(laid_out.ends, max_width)
        if count == 0:
            return 0
        draw = target if isinstance(target, ImageDraw.ImageDraw) else ImageDraw.Draw(target)
        mask = self._text_mask(laid_out, count)
        x, y = xy
        # Bottom-aligned, as each glyph in it is: the mask's last row on the line's last row.
        draw.bitmap((x, y + self.height - mask.height), mask, fill=ink(fill))
        return laid_out.ends[count - 1]

    def _text_mask(self, laid_out: Typeset, count: int) -> Image.Image:
        """The bitmap of the first `count` characters `laid_out`, each glyph bottom-aligned
        where it goes.

        One bitmap a text rather than one a glyph: Pillow's per-call work, not the
        pixels, is what a drawing call costs."""
        drawn = laid_out.drawn[:count]
        mask = self._text_masks.get(drawn)
        if mask is None:
            # `drawn` may be the first `count` of the starts only.
            starts = zip(laid_out.starts, drawn, strict=False)
            glyphs = [(x, self._mask(char)) for x, char in starts]
            last_x, last = glyphs[-1]
            height = max(glyph.height for _, glyph in glyphs)
            mask = Image.new("1", (last_x + last.width, height), 0)
            for x, glyph in glyphs:
                mask.paste(255, (x, height - glyph.height), glyph)
            _remember(self._text_masks, drawn, mask)
        return mask


def _remember(memory: dict[str, _Laid], text: str, value: _Laid) -> None:
    if len(memory) >= _REMEMBERED_TEXTS:
        memory.clear()
    memory[text] = value


def wrap(font: Font, text: str, max_width: int, break_words: bool = False) -> list[str]:
    """Split `text` into lines no wider than `max_width`, breaking at spaces.

    A single word wider than the line is kept whole on its own line, so the
    caller's overflow check still reports it instead of it being mangled;
    unless `break_words`, for text that must be shown whole (a file name).
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        words = paragraph.split()
        if break_words:
            words = [piece for word in words for piece in _pieces(font, word, max_width)]
        for word in words:
            candidate = f"{line} {word}" if line else word
            if line and not font.fits(candidate, max_width):
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


def _pieces(font: Font, word: str, max_width: int) -> list[str]:
    """`word` cut into pieces that each fit `max_width`."""
    pieces = [""]
    for char in word:
        if pieces[-1] and not font.fits(pieces[-1] + char, max_width):
            pieces.append("")
        pieces[-1] += char
    return pieces


def _parse_all(data: Mapping[str, str]) -> Mapping[str, Glyph]:
    return MappingProxyType({char: Glyph.parse(rows) for char, rows in data.items()})


def _build_small() -> Font:
    return Font(
        name="small",
        # A line's rows and the row of leading above it, which an accented capital rises into.
        glyphs=_parse_all({**glyphs.GLYPH_DATA, **LETTER_DATA}),
        rows=glyphs.GLYPH_ROWS,
        cap_rows=glyphs.CAP_ROWS,
    )


SMALL: Font = _build_small()
"""Body text: 7 px tall, 8 px lines (8 lines a screen), ~5 px a character."""

LARGE: Font = SMALL.scaled(2, name="large", full_size=_parse_all(glyphs.LARGE_DIGIT_DATA))
"""Titles and big numbers: SMALL at twice the size with its own digits, 16 px lines."""
