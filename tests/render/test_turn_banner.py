"""The Korean turn-again banner: its Hangul inside a lit box with a lit row round it.

The banner stands between the offer's patches and the turn's bottom line, in place of
the scores. Row by row, across the banner's columns, it must read: a dark row under
the patches, a lit row, the letters, a lit row, then the dark row before the bottom
line's Hangul.
"""

from __future__ import annotations

import dataclasses

from PIL import Image

from companion.app.wording import advance_words
from companion.engine.catalogue import PATCHES
from companion.render.canvas import HEIGHT
from companion.render.screens import render_canvas
from companion.testing.screen_examples import EXAMPLES
from companion.text.hangul import KOREAN
from companion.text.language import words_for
from companion.views import PatchView, TurnLine

BOTTOM_LINE_TOP = HEIGHT - KOREAN.height
"""The Korean bottom line's first row: its Hangul fills eleven rows to the last."""
TALLEST = tuple(patch.id for patch in PATCHES if patch.height == 3)[:3]


def row_kinds(image: Image.Image, left: int, right: int) -> list[str]:
    """Each row of the columns `left` to `right`: 'dark', 'lit' or 'ink' (both)."""
    kinds = []
    for y in range(HEIGHT):
        lit = [image.getpixel((x, y)) > 0 for x in range(left, right)]
        kinds.append("lit" if all(lit) else "dark" if not any(lit) else "ink")
    return kinds


def korean_banners():
    words = words_for("ko")
    turn = EXAMPLES["turn_again"]
    lines = tuple(TurnLine("press", advance_words(22, 1, words)) for _ in range(len(turn.choices)))
    board = dataclasses.replace(turn.board, offer=tuple(PatchView(p) for p in TALLEST))
    player_2 = words("Player {number}", number=2)
    for banner in (
        words("Your turn again (on top)"),
        words("Your turn again"),
        words("{side}'s turn again (on top)", side=player_2),
    ):
        yield dataclasses.replace(turn, board=board, lines=lines, banner=banner)


def test_the_korean_banner_has_a_lit_row_above_and_below_its_letters():
    for view in korean_banners():
        canvas = render_canvas(view)
        assert canvas.overflows == []
        [banner] = [record for record in canvas.texts if record.text == view.banner]
        rows = row_kinds(canvas.image, banner.box.x, banner.box.right)
        dump = "\n".join(f"{y:2} {kind}" for y, kind in enumerate(rows))
        # The box: the rows round the banner's first that are not dark, between the
        # nearest dark row above it and the nearest below (none: the box has no edge).
        above = [y for y in range(banner.box.y) if rows[y] == "dark"]
        below = [y for y in range(banner.box.y + 1, HEIGHT) if rows[y] == "dark"]
        assert above and below, dump
        top, bottom = above[-1] + 1, below[0] - 1
        box = rows[top : bottom + 1]
        assert box[0] == "lit" and box[-1] == "lit" and "ink" in box, dump
        # Dark above it (the patches apart), and the dark row before the bottom line.
        assert bottom + 1 == BOTTOM_LINE_TOP - 1, dump
        assert "ink" in rows[BOTTOM_LINE_TOP:], dump
