#!/usr/bin/env python3
"""A contact sheet of a language's characters and words, as the panel draws them, scaled up.

Every character the language's translations use, then each translation, each
line in the language's font on a 128-pixel-wide strip at its own line height,
so a missing glyph (`?`), a mark that collides or a word cut short is seen by
eye before it reaches a screen.

    .venv/bin/python scripts/font-sheet.py ko sheet-ko.png [--scale 4]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.hardware.constants import WIDTH
from companion.testing.catalogs import characters_used, english, messages, translated
from companion.text.font import wrap
from companion.text.language import LANGUAGE_NAMES
from companion.text.typefaces import body_font


def sheet_lines(language: str) -> list[str]:
    font = body_font(language)
    chars = "".join(sorted(char for char in characters_used(language) if char.isprintable()))
    lines = wrap(font, " ".join(chars), WIDTH, break_words=True)
    # English has no catalog: its texts are the messages' (any catalog's: each holds them all).
    if language == "en":
        texts = [text for message in messages("ru").values() for text in english(message)]
    else:
        texts = [text for message in messages(language).values() for text in translated(message)]
    return lines + [line for text in texts for line in wrap(font, text, WIDTH, break_words=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("language", choices=LANGUAGE_NAMES)
    parser.add_argument("output", type=Path)
    parser.add_argument("--scale", type=int, default=4)
    args = parser.parse_args()
    font = body_font(args.language)
    lines = sheet_lines(args.language)
    image = Image.new("1", (WIDTH, font.line_height * len(lines) + 1), 0)
    for index, line in enumerate(lines):
        # One row down: an accented capital's mark rises into the row above.
        font.draw(image, (0, 1 + index * font.line_height), line)
    size = (image.width * args.scale, image.height * args.scale)
    image.resize(size, Image.Resampling.NEAREST).save(args.output)
    print(f"{args.output}: {len(lines)} lines of {font.line_height} px")


if __name__ == "__main__":
    main()
