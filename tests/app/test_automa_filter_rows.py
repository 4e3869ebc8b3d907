"""The Automa's turn in every language: each filter of the card on one row, all three
on the first screen.

A filter that wrapped took a second row and pushed the next one below ▼, to be read
only after a turn of the knob. In the Latin languages the steps here are the longest
a turn without the 7×7 tile has (a leather patch: a row more), so the third filter
is the screen's last row, beside ▼; Korean's six rows hold the usual two steps, and
a leather patch or the tile named at the end of the token's line."""

from __future__ import annotations

import random

import pytest
from helpers import place, solo_game

from companion.app.play import AutomaScreen
from companion.app.terms import FILTER_NAMES
from companion.app.wording import FILTER_EFFECTS, automa_summary
from companion.engine.actions import AUTOMA_TURN, AutomaTurn
from companion.engine.automa import DIFFICULTIES, Deck
from companion.engine.game import Game
from companion.engine.setup import solo_setup
from companion.inputs.events import Input
from companion.render.screens import render_canvas
from companion.testing.screen_examples import EXAMPLES
from companion.text.language import LANGUAGE_NAMES, words_for
from companion.views import AutomaView

KEPT = (1, 2, 3)
"""How many patches a filter can leave: the offer is three patches."""


def automa_turn(language: str, filters: tuple[str, ...], *, leather: bool) -> AutomaView:
    """The Automa taking the third patch, worded in `language`, with `filters` as the
    card's three rows."""
    words = words_for(language)
    steps = [
        words("Pile without {button}; neutral there"),
        f"{words('Token {start} {to} {end}', start=30, end=36)} {words('on top')}",
    ]
    if leather:
        steps.append(words("Leather {square} to Automa's pile", square=32))
    numbers = {"number": 18, "virtual": 10}
    headline = words(
        "Card {number}, {virtual}{button}: takes {patch} ({ordinal})",
        patch="P16",
        ordinal=words("3rd"),
        **numbers,
    )
    lines = (
        headline,
        *steps,
        *filters,
        words.counted("{count} affordable", "{count} affordable", count=3),
        words("Card {number}: {virtual}{button}, income {income}{button}", income=1, **numbers),
    )
    board = EXAMPLES["automa_take"].board
    return AutomaView(board, lines, actions=1 + len(steps), filters=len(filters))


def every_filter_row(language: str) -> list[str]:
    words = words_for(language)
    return [
        words.counted(*effect, count=count, filter=words(name))
        for name in FILTER_NAMES.values()
        for effect in FILTER_EFFECTS.values()
        for count in KEPT
    ]


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_every_filter_row_shows_whole_with_the_steps(language):
    leather = language != "ko"
    rows = every_filter_row(language)
    for row in rows:
        view = automa_turn(language, (row, row, row), leather=leather)
        canvas = render_canvas(view)
        drawn = [record.text for record in canvas.texts]
        assert drawn.count(row) == 3, f"{row!r} is cut, wrapped or below the screen: {drawn}"
        assert canvas.overflows == [], row


LATIN_LANGUAGES = tuple(code for code in LANGUAGE_NAMES if code != "ko")


@pytest.mark.parametrize("language", LATIN_LANGUAGES)
def test_a_leather_patch_and_the_tile_in_one_move_leave_the_filters_on_screen(language):
    # Card 5 (5 virtual buttons: no overtake, most buttons, farthest) at the Apprentice
    # level, whose 7x7 mark is 44, a leather square. P05 (cost 1, time 4, 1 button),
    # P06 (1, 5, 1), P17 (3, 6, 2); the Automa on 40, the player on 50: no overtake
    # keeps all three (44, 45, 46), most buttons P17, which takes it 40 -> 46 over the
    # income mark 41, the leather patch on 44 and its 7x7 mark: two steps and a third
    # for both, under the headline; the filters below, the last beside ▼.
    game = solo_game("P05", "P06", "P17", cards=(5,), difficulty="apprentice")
    place(game, "automa", 40)
    place(game, "player", 50)
    summary = automa_summary(game.push(AUTOMA_TURN), words_for(language))
    assert summary.patch_id == "P17" and len(summary.steps) == 3
    view = AutomaView(
        EXAMPLES["automa_take"].board,
        summary.lines,
        actions=1 + len(summary.steps),
        filters=len(summary.filters),
    )
    canvas = render_canvas(view)
    drawn = [record.text for record in canvas.texts]
    assert canvas.overflows == []
    for line in (summary.headline, *summary.steps, *summary.filters):
        assert line in drawn, f"{line!r} is not on the first screen: {drawn}"


@pytest.mark.parametrize(
    ("difficulty", "start", "token_line"),
    [
        ("fellow", 30, "토큰 30 → 33, 가죽 32"),
        ("master", 36, "토큰 36 → 39, 7x7"),
        ("apprentice", 42, "토큰 42 → 45, 가죽 44, 7x7"),
    ],
    ids=["leather", "tile", "both"],
)
def test_korean_names_a_leather_patch_and_the_tile_beside_the_filters(
    difficulty, start, token_line
):
    # Card 5 (5 virtual buttons: no overtake, most buttons, farthest). P14 (cost 3, time
    # 2, 1 button), P10 (2, 2, none), P12 (2, 3, 1); the player on 50: no overtake keeps
    # all three, most buttons P14 and P12, farthest P12 (a button: the pile with
    # buttons), three squares on. From 30 it crosses the leather patch on 32, from 36
    # the master's 7x7 mark 38, from 42 the leather patch on 44, the apprentice's mark;
    # no income mark (29, 35, 41, 47) in any. Six rows: the headline, two steps, three
    # filters, with nothing to do at the table left to a turn of the knob.
    game = solo_game("P14", "P10", "P12", cards=(5,), difficulty=difficulty)
    place(game, "automa", start)
    place(game, "player", 50)
    summary = automa_summary(game.push(AUTOMA_TURN), words_for("ko"))
    board = EXAMPLES["automa_take"].board
    screen = AutomaScreen(board, summary, on_done=lambda: None, open_menu=lambda: None)
    canvas = render_canvas(screen.view())
    drawn = [record.text for record in canvas.texts]
    assert canvas.overflows == []
    first_screen = (
        "카드 5, 5●: P12 셋째",
        "● 있는 더미, 위치 토큰 →",
        token_line,
        "추월 안 함: 3개 모두",
        "단추 최다: 2개 남음",
        "가장 먼: 1개 남음",
    )
    for line in first_screen:
        assert line in drawn, f"{line!r} is not on the first screen: {drawn}"


def test_korean_leaves_the_income_a_turn_away_for_the_third_filter():
    # Card 5 (5 virtual buttons, income 1: no overtake, most buttons, farthest) at the
    # Fellow level. P05 (cost 1, time 4, 1 button), P06 (1, 5, 1), P17 (3, 6, 2); the
    # Automa on 28, the player on 50: no overtake keeps all three (32, 33, 34), most
    # buttons P17 alone, which takes it 28 -> 34 over the income mark 29 (the card's
    # income, 1) and the leather patch on 32. Its income on the token's line would
    # wrap it to a second row: the first screen names what is done at the table, and
    # all three filters; a turn of the knob shows the card's income with its number
    # (the header, the Automa's buttons with it).
    game = solo_game("P05", "P06", "P17", cards=(5,), difficulty="fellow")
    place(game, "automa", 28)
    place(game, "player", 50)
    summary = automa_summary(game.push(AUTOMA_TURN), words_for("ko"))
    board = EXAMPLES["automa_take"].board
    screen = AutomaScreen(board, summary, on_done=lambda: None, open_menu=lambda: None)
    canvas = render_canvas(screen.view())
    assert canvas.overflows == []
    first_screen = (
        "카드 5, 5●: P17 셋째",
        "● 있는 더미, 위치 토큰 →",
        "토큰 28 → 34, 가죽 32",
        "추월 안 함: 3개 모두",
        "단추 최다: 1개 남음",
        "가장 먼: 해당 없음",
    )
    assert [record.text for record in canvas.texts if record.text != "▼"] == list(first_screen)
    screen.handle(Input.NEXT)
    turned = [record.text for record in render_canvas(screen.view()).texts]
    assert "카드 5: 5●, 수입 1●" in turned


GAMES = 40
"""Random solo games whose every Automa turn is checked: about 700 turns."""


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_every_automa_turn_of_random_games_shows_its_filters_on_the_first_screen(language):
    rng = random.Random(25)
    words = words_for(language)
    board = EXAMPLES["automa_take"].board
    for _ in range(GAMES):
        setup = solo_setup(
            rng.choice(DIFFICULTIES), rng.choice(list(Deck)), seed=rng.getrandbits(32)
        )
        game = Game(setup)
        while not game.is_over:
            action = rng.choice(game.legal_actions())
            steps = game.push(action)
            if not isinstance(action, AutomaTurn):
                continue
            summary = automa_summary(steps, words)
            screen = AutomaScreen(board, summary, on_done=lambda: None, open_menu=lambda: None)
            drawn = [record.text for record in render_canvas(screen.view()).texts]
            for line in (summary.headline, *summary.filters):
                assert line in drawn, f"{setup}: {line!r} is not on the first screen: {drawn}"
