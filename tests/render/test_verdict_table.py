"""The screen of a solo game against every level is a table in every language: with the
widest figures a game gives (−80 beside 100, lost by 180, three-digit scores on both
sides, a tie), every row's level, scores, tile mark, ✔/✘ and margin fit the panel in
columns that do not run into each other, and each column's figures end on one pixel
column (right-aligned), its marks start on one."""

from __future__ import annotations

import dataclasses
from itertools import pairwise

import pytest

from companion.app.verdict_pages import VerdictPages, verdict_rows
from companion.engine.automa import DIFFICULTIES
from companion.engine.score import outcome_of
from companion.engine.setup import Side
from companion.engine.verdicts import Verdict
from companion.inputs.events import Input
from companion.render.canvas import WIDTH
from companion.render.screens import render_canvas
from companion.text.font import LOST, TILE, WON
from companion.text.language import LANGUAGE_NAMES, words_for
from companion.views import VerdictsView

EXTREMES = (
    # (player, Automa, who holds the tile, who reached 53 first)
    (100, 0, Side.PLAYER, Side.AUTOMA),  # won by 100
    (-80, 100, Side.AUTOMA, Side.AUTOMA),  # lost by 180: the widest row
    (42, 42, Side.PLAYER, Side.PLAYER),  # a tie won by reaching 53 first
    (-8, 100, None, Side.PLAYER),
    (-80, 7, Side.AUTOMA, Side.AUTOMA),
)


def extreme_verdicts() -> tuple[Verdict, ...]:
    return tuple(
        Verdict(level, holder, outcome_of({Side.PLAYER: player, Side.AUTOMA: automa}, first))
        for level, (player, automa, holder, first) in zip(DIFFICULTIES, EXTREMES, strict=True)
    )


def pages(language: str, played: int) -> list[VerdictsView]:
    """Every page of the table, pressing from the first to the last."""
    words = words_for(language)
    rows = verdict_rows(extreme_verdicts(), DIFFICULTIES[played], words)
    done: list[bool] = []
    screen = VerdictPages(
        rows, words("Deal {code}", code="G127-TY7K"), lambda: done.append(True), words
    )
    shown = []
    while not done:
        shown.append(screen.view())
        screen.handle(Input.SELECT)
    return shown


def apart(texts) -> bool:
    """Whether `texts`, left to right, lie within the panel with two dark columns or more
    between each and the next."""
    edges = [(text.box.x, text.box.right) for text in texts]
    return (
        edges[0][0] >= 0
        and edges[-1][1] <= WIDTH
        and all(right + 2 <= left for (_, right), (left, _) in pairwise(edges))
    )


@pytest.mark.parametrize("played", [0, 1, 4])
@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_the_widest_figures_fit_in_aligned_columns(language, played):
    views = pages(language, played)
    assert [view.first for view in views] == [
        sum(v.count for v in views[:i]) for i in range(len(views))
    ]
    assert sum(view.count for view in views) == len(DIFFICULTIES)
    assert views[-1].deal and not any(view.deal for view in views[:-1])
    edges: dict[str, set[int]] = {}
    for view in views:
        canvas = render_canvas(view)
        assert canvas.overflows == []
        header = [text for text in canvas.texts if text.box.y < canvas.texts[0].box.bottom]
        assert apart(header), [text.text for text in header]
        # The page the app cuts the table into (`page_lines`) ends above the hint.
        (hint,) = [text for text in canvas.texts if text.text == view.hint]
        body = [text for text in canvas.texts if text not in header and text is not hint]
        assert max(text.box.bottom for text in body) <= hint.room.y, view
        for row in view.rows[view.first : view.first + view.count]:
            (top,) = {text.box.y for text in canvas.texts if text.text == row.level}
            texts = sorted(
                (text for text in canvas.texts if text.box.y == top), key=lambda t: t.box.x
            )
            # Left to right: the level, each score with the tile's mark after its holder's,
            # ✔ or ✘, the margin (= on a tie).
            expected = [row.level]
            for side in (0, 1):
                expected += [str(row.scores[side])] + [TILE] * (row.tile == side)
            expected += [WON if row.won else LOST, "=" if row.tie else str(row.margin)]
            assert [text.text for text in texts] == expected
            assert canvas.image.getpixel((0, top)) == (255 if row.played else 0), row.level
            assert apart(texts), expected
            scores = [text for text in texts[1:-2] if text.text != TILE]
            places = {
                "player's right": scores[0].box.right,
                "Automa's right": scores[1].box.right,
                "result's left": texts[-2].box.x,
                "margin's right": texts[-1].box.right,
            }
            for side in (0, 1):
                if row.tile == side:
                    places[f"tile {side}'s left"] = texts[texts.index(scores[side]) + 1].box.x
            for name, place in places.items():
                edges.setdefault(name, set()).add(place)
    unaligned = {name: sorted(places) for name, places in edges.items() if len(places) > 1}
    assert not unaligned, f"{language}: columns whose rows do not line up: {unaligned}"


def test_a_page_given_more_lines_than_the_app_cuts_is_reported():
    # Korean's page holds three lines (its first page: three rows, no deal); the same
    # three rows with the deal under them are four, one below the hint.
    first, last = pages("ko", 0)[0], pages("ko", 0)[-1]
    assert (first.count, first.deal) == (3, "")
    assert render_canvas(first).overflows == []
    crowded = dataclasses.replace(first, deal=last.deal)
    assert render_canvas(crowded).overflows == ["verdicts: 3 rows and the deal, room for 3"]
