#!/usr/bin/env python3
"""Cut the Hangul the device shows out of Baekmuk Gulim 12 and 10 into the package's subsets.

The Korean screens draw Hangul from Baekmuk Gulim at 12 pixels, the Automa's
turn at 10 (Debian's xfonts-baekmuk, `gulim12.pcf.gz` and `gulim10.pcf.gz`,
licence in `companion/text/fonts/LICENCE-baekmuk`). Only the syllables some
translation uses are shipped: every Hangul character of
`characters_used(language)`, for every language (the language menu names
Korean in Korean), in both sizes. Run it again whenever a translation gains a
syllable; `tests/render/test_hangul.py` says when.

    .venv/bin/python scripts/extract-hangul.py              # fetches xfonts-baekmuk
    .venv/bin/python scripts/extract-hangul.py --fonts /usr/share/fonts/X11/75dpi

Without `--font` it fetches the package with `apt-get download` into a
temporary directory (run `apt-get update` once first).
"""

from __future__ import annotations

import argparse
import gzip
import struct
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.testing.catalogs import characters_used  # noqa: E402
from companion.text.hangul import GULIM_10, GULIM_12, GulimSize  # noqa: E402
from companion.text.language import LANGUAGE_NAMES  # noqa: E402

PACKAGE = "xfonts-baekmuk"
FONTS_IN_PACKAGE = "usr/share/fonts/X11/75dpi"
FONTS = ROOT / "companion" / "text" / "fonts"
SIZES = (GULIM_12, GULIM_10)
"""Each cell is a row taller than shipped, its last row under the baseline's row below;
the syllables' ink ends on the row under the baseline, so that row (always blank) is
not shipped."""

# PCF table types and format bits (X11's pcf.h).
PCF_METRICS, PCF_BITMAPS, PCF_BDF_ENCODINGS = 1 << 2, 1 << 3, 1 << 5
PCF_BYTE_MSB, PCF_BIT_MSB, PCF_COMPRESSED_METRICS = 1 << 2, 1 << 3, 0x100


def read_pcf(data: bytes) -> dict[int, tuple[list[str], int, int]]:
    """Every glyph of a PCF font: encoding -> (rows of '#'/'.', left bearing, ascent)."""
    if data[:4] != b"\x01fcp":
        raise SystemExit("not a PCF font")
    (count,) = struct.unpack_from("<i", data, 4)
    offsets = {}
    for index in range(count):
        kind, _, _, offset = struct.unpack_from("<iiii", data, 8 + 16 * index)
        offsets[kind] = offset

    def table(kind: int) -> tuple[int, str, int]:
        (fmt,) = struct.unpack_from("<i", data, offsets[kind])
        return fmt, ">" if fmt & PCF_BYTE_MSB else "<", offsets[kind] + 4

    fmt, order, at = table(PCF_METRICS)
    metrics = []
    if fmt & PCF_COMPRESSED_METRICS:
        (n,) = struct.unpack_from(order + "h", data, at)
        for i in range(n):
            left, right, _, ascent, descent = (
                b - 0x80 for b in data[at + 2 + 5 * i : at + 7 + 5 * i]
            )
            metrics.append((left, right, ascent, descent))
    else:
        (n,) = struct.unpack_from(order + "i", data, at)
        for i in range(n):
            left, right, _, ascent, descent, _ = struct.unpack_from(
                order + "hhhhhH", data, at + 4 + 12 * i
            )
            metrics.append((left, right, ascent, descent))

    fmt, order, at = table(PCF_BITMAPS)
    pad = 1 << (fmt & 3)
    (n,) = struct.unpack_from(order + "i", data, at)
    starts = struct.unpack_from(order + f"{n}i", data, at + 4)
    bitmaps = at + 4 + 4 * n + 16
    glyph_rows = []
    for (left, right, ascent, descent), start in zip(metrics, starts, strict=True):
        width = right - left
        stride = -(-((width + 7) // 8) // pad) * pad
        rows = []
        for y in range(ascent + descent):
            scanline = data[bitmaps + start + y * stride : bitmaps + start + (y + 1) * stride]
            bits = "".join(
                format(b if fmt & PCF_BIT_MSB else int(f"{b:08b}"[::-1], 2), "08b")
                for b in scanline
            )
            rows.append(bits[:width].replace("0", ".").replace("1", "#"))
        glyph_rows.append(rows)

    fmt, order, at = table(PCF_BDF_ENCODINGS)
    first_col, last_col, first_row, last_row, _ = struct.unpack_from(order + "5h", data, at)
    columns = last_col - first_col + 1
    glyphs = {}
    for row in range(first_row, last_row + 1):
        for col in range(first_col, last_col + 1):
            slot = at + 10 + 2 * ((row - first_row) * columns + col - first_col)
            (index,) = struct.unpack_from(order + "H", data, slot)
            if index != 0xFFFF:
                left, _, ascent, _ = metrics[index]
                glyphs[(row << 8) | col] = (glyph_rows[index], left, ascent)
    return glyphs


def ksc5601(char: str) -> int:
    """The font's encoding of `char`: KS C 5601 (the 2350 modern syllables), as X11 numbers it."""
    encoded = char.encode("euc_kr")
    if len(encoded) != 2:  # Python spells other syllables as an 8-byte jamo sequence
        raise SystemExit(f"{char!r} is not one of KS C 5601's syllables: Gulim 12 cannot draw it")
    return ((encoded[0] & 0x7F) << 8) | (encoded[1] & 0x7F)


def cell(size: GulimSize, rows: list[str], left: int, ascent: int) -> list[str]:
    """The glyph placed in the shipped cell: `size.width` wide, `size.rows` from Gulim's
    top row."""
    blank = "." * size.width
    placed = [blank] * (size.ascent - ascent) + [
        ("." * left + row).ljust(size.width, ".")[: size.width] for row in rows
    ]
    placed = (placed + [blank] * size.rows)[: size.rows + 1]
    if "#" in placed[size.rows]:
        raise SystemExit(f"a glyph of Gulim {size.pixels} reaches out of the shipped cell")
    return placed[: size.rows]


def hangul_used() -> list[str]:
    used = set().union(*(characters_used(language) for language in LANGUAGE_NAMES))
    return sorted(char for char in used if unicodedata.name(char, "").startswith("HANGUL"))


PERMISSION_NOTICE = """\
Copyright (c) 1986-2002 Kim Jeong-Hwan. All rights reserved.
Permission to use, copy, modify and distribute this font is
hereby granted, provided that both the copyright notice and
this permission notice appear in all copies of the font,
derivative works or modified versions, and that the following
acknowledgement appear in supporting documentation:
Baekmuk Batang, Baekmuk Dotum, Baekmuk Gulim, and
Baekmuk Headline are registered trademarks owned by
Kim Jeong-Hwan."""
"""The licence travels inside the subset too (it asks to be in every copy)."""


def bdf(size: GulimSize, chars: list[str], glyphs: dict[int, tuple[list[str], int, int]]) -> str:
    pixels, width, rows = size.pixels, size.width, size.rows
    lines = [
        "STARTFONT 2.1",
        *(f"COMMENT {line}" for line in PERMISSION_NOTICE.splitlines()),
        f"FONT -Baekmuk-Gulim-Medium-R-Normal--{pixels}-{pixels}0-75-75-M-{pixels}0-ISO10646-1",
        f"SIZE {pixels} 75 75",
        f"FONTBOUNDINGBOX {width} {rows} 0 {-size.descent}",
        "STARTPROPERTIES 4",
        'COPYRIGHT "Copyright (c) 1986-2002 Kim Jeong-Hwan"',
        f'NOTICE "Subset of Debian xfonts-baekmuk gulim{pixels}.pcf.gz: see LICENCE-baekmuk"',
        f"FONT_ASCENT {size.ascent}",
        f"FONT_DESCENT {size.descent}",
        "ENDPROPERTIES",
        f"CHARS {len(chars)}",
    ]
    for char in chars:
        cut = cell(size, *glyphs[ksc5601(char)])
        lines += [
            f"STARTCHAR U+{ord(char):04X}",
            f"ENCODING {ord(char)}",
            "SWIDTH 1000 0",
            f"DWIDTH {width} 0",
            f"BBX {width} {rows} 0 {-size.descent}",
            "BITMAP",
            *(
                f"{int(row.replace('.', '0').replace('#', '1'), 2) << (16 - width):04X}"
                for row in cut
            ),
            "ENDCHAR",
        ]
    return "\n".join([*lines, "ENDFONT", ""])


def fetch_fonts(directory: Path) -> Path:
    subprocess.run(["apt-get", "download", PACKAGE], cwd=directory, check=True)
    (package,) = directory.glob(f"{PACKAGE}_*.deb")
    subprocess.run(["dpkg-deb", "-x", str(package), str(directory / "root")], check=True)
    return directory / "root" / FONTS_IN_PACKAGE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--fonts", type=Path, help=f"the folder of gulim12.pcf.gz (default: fetch {PACKAGE})"
    )
    args = parser.parse_args()
    chars = hangul_used()
    with tempfile.TemporaryDirectory() as scratch:
        fonts = args.fonts or fetch_fonts(Path(scratch))
        for size in SIZES:
            font = fonts / f"gulim{size.pixels}.pcf.gz"
            glyphs = read_pcf(gzip.decompress(font.read_bytes()))
            subset = FONTS / size.subset_name
            subset.write_text(bdf(size, chars, glyphs), encoding="ascii")
            print(f"{subset.relative_to(ROOT)}: {len(chars)} of the font's {len(glyphs)} glyphs")


if __name__ == "__main__":
    main()
