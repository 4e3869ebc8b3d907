"""Every screen reached in many random games, in every language, renders with no text cut
off or off the display and no character the font cannot draw."""

from __future__ import annotations

import dataclasses
import random

import pytest
from helpers import choose_row, companion_in, play_games, visit_menus

from companion.app.play import SCORE_LABELS
from companion.app.wording import short_header_label, side_label
from companion.inputs.events import Input
from companion.render.screens import render_canvas
from companion.testing.autoplay import move_to, play_to_the_end, start_game
from companion.testing.screen_examples import EXAMPLES
from companion.text.font import Font
from companion.text.language import LANGUAGE_NAMES, words_for
from companion.text.typefaces import body_font
from companion.views import (
    InputTestView,
    NumberView,
    ScoreColumn,
    ScoreView,
    ScreenKind,
    TurnView,
)


def undrawable(text: str, font: Font) -> set[str]:
    """Characters `font` would fold (an accent dropped) or show as its fallback."""
    return {
        char
        for char in text
        if not font.has_glyph(char) and (char.isalpha() or font.normalise(char) == font.fallback)
    }


def test_random_games_in_every_language_render_every_screen_within_the_display(tmp_path):
    problems: dict[str, object] = {}
    missing: dict[str, set[str]] = {}
    screens = 0

    def language_of(seed: int) -> str:
        return list(LANGUAGE_NAMES)[seed % len(LANGUAGE_NAMES)]

    def check(view):
        nonlocal screens
        screens += 1
        canvas = render_canvas(view)
        if canvas.overflows:
            problems.setdefault(type(view).__name__, (view, canvas.overflows))
        for record in canvas.texts:
            missing.setdefault(language, set()).update(undrawable(record.text, body_font(language)))

    language = ""
    for seed in range(25):
        language = language_of(seed)
        play_games(tmp_path, [seed], language_of, check)
    assert screens > 1500  # 25 whole games
    assert problems == {}, "\n".join(
        f"{name}: {view}\n  {over}" for name, (view, over) in problems.items()
    )
    assert {code: chars for code, chars in missing.items() if chars} == {}


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_menus_statistics_and_settings_fit(tmp_path, language):
    rng = random.Random(1)
    app = companion_in(tmp_path / "state", language, 1)
    start_game(app, True, False, rng)
    play_to_the_end(app, rng)
    views = []
    for path in (
        [Input.NEXT, Input.NEXT, Input.SELECT],  # statistics
        [Input.SELECT, Input.HOLD],
        [Input.NEXT, Input.SELECT],  # settings, under statistics where home came back
        *[[Input.NEXT] for _ in range(7)],  # once round the 7 entries, back to contrast
        [Input.SELECT, Input.NEXT, Input.NEXT],  # edit contrast
    ):
        for item in path:
            app.handle(item)
        views.append(app.view())
    assert any(type(v).__name__ == "TextView" for v in views)
    assert any(type(v).__name__ == "NumberView" for v in views)
    for view in views:
        assert render_canvas(view).overflows == [], view


def every_value(app) -> list[NumberView]:
    """The number screen open in `app` at each value the knob reaches, one way round."""
    views = [app.view()]
    for _ in range(40):
        app.handle(Input.NEXT)
        if app.view() in views:
            break
        views.append(app.view())
    return views


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_every_number_screen_draws_its_value_whole(tmp_path, language):
    # The value of a number screen is a word at times: the correction's "no change"
    # (Russian 13 letters), the settings' "1 min" or "never" (Korean has units in
    # Hangul). Each must be drawn whole, with glyphs the font has.
    app = companion_in(tmp_path / "state", language, 1)
    words = app.words
    choose_row(app, words("Settings"))
    numbers: list[NumberView] = []
    for index in range(len(app.view().items)):
        settings = app.view()
        for item in move_to(settings.selected, index, len(settings.items)):
            app.handle(item)
        app.handle(Input.SELECT)
        if isinstance(app.view(), NumberView):
            numbers += every_value(app)
        if app.view() != settings:
            app.handle(Input.BACK)
    app.handle(Input.BACK)
    start_game(app, True, False, random.Random(1))
    while not isinstance(app.view(), TurnView):
        app.handle(Input.SELECT)  # the dealt circle
    app.handle(Input.HOLD)
    choose_row(app, words("Correct buttons"))
    choose_row(app, side_label("player", words))
    correction = every_value(app)
    assert correction[0].value == words("no change")  # it starts at 0
    numbers += correction
    assert {view.title for view in numbers} > {words("Correct buttons")}
    for view in numbers:
        assert render_canvas(view).overflows == [], view


def breakdown(words, name: str, rows: dict[str, int]) -> ScoreColumn:
    """A side's end column as the app words it, from the engine's score lines."""
    lines = tuple((words(SCORE_LABELS[label]), points) for label, points in rows.items())
    return ScoreColumn(
        side_label(name, words), lines, sum(rows.values()), short_header_label(name, words)
    )


NEVER_BOUGHT = {"buttons": 0, "empty squares": -2 * 81}
"""The lowest score: 81 empty squares at -2 each, every button spent (-162); no row
for the 7x7 tile, which the other side holds."""
RICH_QUILT = {"buttons": 150, "bonus tile": 7, "empty squares": 0}
"""A full quilt, the 7x7 tile and three-digit buttons (157)."""
AUTOMA_AT_ITS_HARDEST = {
    "buttons": 130,
    "patches with buttons": 20,
    "buttons on patches": 120,
    "bonus tile": 7,
}
"""The Automa's four rows (the level counting all three) with three-digit figures."""


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_end_breakdowns_at_extreme_scores_fit(language):
    words = words_for(language)
    low, high = breakdown(words, "p1", NEVER_BOUGHT), breakdown(words, "p2", RICH_QUILT)
    automa = breakdown(words, "automa", AUTOMA_AT_ITS_HARDEST)
    assert low.total == -162 and high.total == 157 and automa.total == 277
    views = [
        ScoreView((low, high), words("{side} wins by {margin}", side=high.label, margin=319)),
        ScoreView((low, low), words("Tie: {side} reached 53 first", side=low.label)),
        ScoreView(
            (breakdown(words, "player", NEVER_BOUGHT), automa),
            words("Automa wins by {margin}", margin=439),
        ),
    ]
    for view in views:
        # Korean holds three rows of the Automa's four: the knob turned shows the last.
        drawn = set()
        for last_rows in (False, True):
            canvas = render_canvas(dataclasses.replace(view, last_rows=last_rows))
            assert canvas.overflows == [], view
            drawn |= {record.text for record in canvas.texts}
        rows = {text for column in view.columns for line in column.lines for text in line[:1]}
        assert rows <= drawn, view


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_rows_neither_turn_of_the_end_screen_shows_are_reported(language):
    # The end screen shows a column's first rows or, the knob turned, its last: a column
    # with more than the two hold has rows between them that nobody would see. The
    # overflow check must say so, as it says of any text cut off.
    words = words_for(language)
    player = breakdown(words, "player", NEVER_BOUGHT)
    for count in range(1, 13):
        rows = tuple((f"{words('buttons')} {index}", index) for index in range(count))
        verdict = words("Tie: {side} reached 53 first", side=player.label)
        view = ScoreView((player, dataclasses.replace(player, lines=rows)), verdict)
        drawn, overflows = set(), []
        for last_rows in (False, True):
            canvas = render_canvas(dataclasses.replace(view, last_rows=last_rows))
            drawn |= {record.text for record in canvas.texts}
            overflows += canvas.overflows
        assert overflows or {what for what, _ in rows} <= drawn, count


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
@pytest.mark.parametrize("mover", [0, 1])
def test_both_scores_on_the_turn_stay_apart_at_three_digits(language, mover):
    # The lowest score is -162 (81 empty squares, no button); an income of 20 buttons
    # is more than any quilt under way pays: wider than any real pair of scores.
    words = words_for(language)
    # Where both units leave no room, the other's gives way: its bare number.
    mover_says = words("{points} pts, income {income}{button}", points=-162, income=20)
    named, scores = [words("{points} pts", points=-162)] * 2, [str(-162)] * 2
    named[mover] = scores[mover] = mover_says
    view = EXAMPLES["turn_two_player"]
    turn = dataclasses.replace(view, scores=tuple(named), scores_bare=tuple(scores))
    canvas = render_canvas(turn)
    assert canvas.overflows == []
    drawn = {record.text: record.box for record in canvas.texts}
    shown = named if all(text in drawn for text in named) else scores
    left, right = (drawn[text] for text in shown)
    # A rule stands between them, a gap clear on each side.
    gap = range(left.right, right.x)
    lit = [x for x in gap if canvas.image.getpixel((x, left.y + 2))]
    assert len(lit) == 1 and lit[0] - left.right > 2 and right.x - lit[0] > 2


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_the_automa_at_its_hardest_without_the_tile_fits(language):
    # Its three counted rows, no tile row (the player holds it): 130 + 20 + 120 = 270
    # against 150 + 7 = 157.
    words = words_for(language)
    without_tile = {k: points for k, points in AUTOMA_AT_ITS_HARDEST.items() if k != "bonus tile"}
    automa = breakdown(words, "automa", without_tile)
    player = breakdown(words, "player", RICH_QUILT)
    assert (automa.total, player.total) == (270, 157)
    view = ScoreView((player, automa), words("Automa wins by {margin}", margin=113))
    assert render_canvas(view).overflows == []


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_set_up_settings_and_language_screens_fit(tmp_path, language):
    # The random games are checked from the circle's first screen on: every menu and
    # question before it, and the settings' own, are checked here.
    app = companion_in(tmp_path / "state", language, 1)

    def check(view):
        assert render_canvas(view).overflows == [], view

    kinds = visit_menus(app, check)
    assert isinstance(app.view(), InputTestView)
    for item in (Input.NEXT, Input.PREVIOUS, Input.BACK, Input.HOLD, Input.SELECT):
        app.handle(item)
        check(app.view())
    assert kinds >= {
        ScreenKind.HOME,
        ScreenKind.DIFFICULTY,
        ScreenKind.DECK,
        ScreenKind.CIRCLE,
        ScreenKind.GAME_MENU,
        ScreenKind.ABANDON_GAME,
        ScreenKind.START_PLAYER,
        ScreenKind.SETTINGS,
        ScreenKind.LANGUAGE,
    }
