"""Which font draws which language, and how tall its lines are.

Polish, Czech and Russian are drawn in `SMALL` (8-pixel lines), as English
is; Korean in `KOREAN` (16-pixel lines). A screen whose texts hold Hangul,
whatever the language (the language menu names Korean in Korean), is laid
out in `KOREAN`: `font_for` picks the font from the texts themselves, so a
screen stays a pure function of its view.

    body_font("ko").fits("게임 이어 하기", 124)    # a translation's fit test
    font_for(["Settings", "한국어"]).line_height   # 16
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from companion.text.font import SMALL, Font
from companion.text.hangul import KOREAN
from companion.text.language import LANGUAGE_NAMES

BODY_FONTS: Mapping[str, Font] = MappingProxyType(
    {language: KOREAN if language == "ko" else SMALL for language in LANGUAGE_NAMES}
)
"""The font each language's words are drawn in."""


def body_font(language: str) -> Font:
    """The font `language`'s words are drawn in; KeyError for an unknown code."""
    return BODY_FONTS[language]


def font_for(texts: Iterable[str]) -> Font:
    """The font to lay out `texts` in: `SMALL` unless one needs a glyph only `KOREAN` has.

    >>> font_for(["Ustawienia", "Język"]).name, font_for(["Язык", "한국어"]).name
    ('small', 'korean')
    """
    return KOREAN if any(_needs_korean(text) for text in texts) else SMALL


@functools.lru_cache(maxsize=1024)
def _needs_korean(text: str) -> bool:
    """Whether `text` holds a glyph only `KOREAN` has: asked of every text of every
    frame's view, and a screen's texts recur from frame to frame. `SMALL` is asked first:
    it has almost every character of the other languages, and its table is a plain dict."""
    return any(not SMALL.has_glyph(char) and KOREAN.has_glyph(char) for char in text)
