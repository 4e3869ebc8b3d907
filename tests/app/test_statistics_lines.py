"""The statistics pages' lines (expected texts written by hand)."""

import dataclasses
from datetime import datetime

import pytest
from storage.storage_games import finished_solo, store_ended

from companion.app.statistics import statistics_lines
from companion.app.terms import DECK_NAMES, DIFFICULTY_NAMES
from companion.app.widgets import Pages
from companion.engine.automa import DIFFICULTIES, Deck
from companion.engine.setup import Mode
from companion.storage.statistics import (
    GameRecord,
    LevelVerdicts,
    SoloStatistics,
    Statistics,
    statistics,
)
from companion.storage.store import Store
from companion.text.language import LANGUAGE_NAMES, words_for
from companion.text.pages import page_lines, text_page_lines
from companion.text.typefaces import body_font

TWO_PLAYER_RESULT = GameRecord(
    date=datetime(2026, 11, 23, 19, 43, 47),
    mode=Mode.TWO_PLAYER,
    difficulty=None,
    deck=None,
    scores={"p1": -28, "p2": -56},
)
"""A finished two-player game: P1 -28, P2 -56, on 23 November."""


def test_a_recent_result_keeps_two_negative_scores_apart():
    # Scores are often negative (-2 per empty square, RULES.md section 3): joined by a
    # hyphen, -28 and -56 read "-28--56", and a solo -59 against the Automa's 7 read
    # "-59-7", like a difference; by a colon, "15:34" read as a clock time. An en dash,
    # a column wider than the hyphen, spaced before a minus, keeps each sign its own
    # and reads as neither.
    stats = Statistics(solo={}, solo_overall=None, two_player_games=1, recent=(TWO_PLAYER_RESULT,))
    assert statistics_lines(stats, words_for("en"), 6)[-1] == " 11/23 2P -28 – -56"


def test_the_solo_line_names_the_margin_over_a_known_history(tmp_path):
    # Two fellow/normal games (worked out by hand in
    # tests/storage/test_store.py): the player only advances, 5 + 53 buttons
    # minus 2 per empty square. Seed 1: -102 against the Automa's 28, margin -130;
    # seed 2, 300 buttons more: 200 against 30, margin +170. Best +170, average
    # (-130 + 170) / 2 = +20.0: the player's score minus the Automa's, not a score;
    # the best score 200.
    # Against each level: the player never covers a square, so never has the 7×7 and
    # scores the same at every level; the Automa always reaches 52 and holds it, 7 or
    # more at every level. Seed 1, -102, loses at all five. Seed 2, 200, wins at all
    # five: the Automa's most, Legend, is its Fellow 30 plus the buttons shown on its
    # patches, at most the 38 of all the patches: 68 at most. So 1/2 at each level.
    minutes = iter([datetime(2026, 11, 23, 19, 0), datetime(2026, 11, 23, 19, 30)])
    with Store(tmp_path, clock=lambda: next(minutes)) as store:
        for seed, extra in [(1, 0), (2, 300)]:
            store_ended(store, finished_solo("fellow", "normal", seed, extra))
        stats = statistics(store)
    assert statistics_lines(stats, words_for("en"), 6) == [
        "Won against each level:",
        "Intern 1/2",
        "Apprentice 1/2",
        "Fellow 1/2",
        "Master 1/2",
        "Legend 1/2",
        "Fellow Normal:",
        "1/2 won, best 200",
        "margin: best +170, avg +20.0",
        "All solo: 1/2 won",
        # The heading and its two results would straddle pages 2 and 3: they start
        # page 3 together.
        "",
        "",
        "Last results:",
        " 11/23 fel/nor 200–30",
        " 11/23 fel/nor -102–28",
    ]
    assert statistics_lines(stats, words_for("ru"), 6)[5:9] == [
        "Легенда 1/2",
        "Подмастерье Обычная:",
        "побед 1/2, рек. 200",
        "отрыв: лучш. +170, ср. +20.0",
    ]
    assert statistics_lines(stats, words_for("ko"), 6)[5:9] == [
        "전설 1/2",
        "보통 기본:",
        "2판 1승, 최고 200",
        "최고 차 +170, 평균 +20.0",
    ]


@pytest.mark.parametrize("sign", [-1, 1])
@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_every_statistics_line_fits_one_row_at_its_widest(language, sign):
    # The widest margin: the player's lowest score, -162 (81 empty squares, every button
    # spent), against the Automa's 277 (its four rows at three digits, as in
    # test_every_screen_fits): -439; its sign turned for the widest win. An average
    # a half short of it keeps one decimal. Counts of three digits: 999 games won.
    # Every level with both decks, so the longest pair of names is among them
    # (Russian "Подмастерье Тактическая"). The best score: the Automa's most, 277, is no
    # score of the player's, whose most is 5 + 53 + 38 × 9 income + 7 = 407 without
    # corrections; -162 is as wide. Every level won 999 times of 999.
    margin = sign * 439
    solo = SoloStatistics(
        games=999,
        wins=999,
        best_margin=margin,
        average_margin=margin - sign * 0.5,
        best_score=-162,
    )
    stats = Statistics(
        verdicts={level: LevelVerdicts(999, 999) for level in DIFFICULTIES},
        solo={(level, deck): solo for level in DIFFICULTIES for deck in Deck},
        solo_overall=solo,
        two_player_games=999,
        recent=tuple(
            dataclasses.replace(
                TWO_PLAYER_RESULT,
                mode=Mode.SOLO,
                difficulty=level,
                deck=deck,
                scores={"player": -162, "automa": 277},
            )
            for level in DIFFICULTIES
            for deck in Deck
        )
        + (dataclasses.replace(TWO_PLAYER_RESULT, scores={"p1": -162, "p2": -162}),),
    )
    words = words_for(language)
    lines = statistics_lines(stats, words, 6)
    for level in DIFFICULTIES:
        for deck in Deck:
            assert any(
                words(DIFFICULTY_NAMES[level.name]) in line and words(DECK_NAMES[deck]) in line
                for line in lines
            )
    assert any(f"{margin:+d}" in line and f"{margin - sign * 0.5:+.1f}" in line for line in lines)
    # (The page's wrapping drops a result's leading space.)
    assert {line: text_page_lines([line], body_font(language)) for line in lines} == {
        line: [line.lstrip()] for line in lines
    }


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_the_last_results_heading_never_ends_a_page_alone(language):
    # One level and deck (3 rows), all solo, two-player games: 5 rows, so the heading
    # would be a 6-row page's last (English, Russian, Polish, Czech) and a 3-row page's
    # last (Korean, rows 4-6). It starts the next page, above its first result.
    solo = SoloStatistics(games=2, wins=1, best_margin=170, average_margin=20.0, best_score=200)
    stats = Statistics(
        solo={(DIFFICULTIES[0], Deck.NORMAL): solo},
        solo_overall=solo,
        two_player_games=1,
        recent=(TWO_PLAYER_RESULT,),
    )
    words = words_for(language)
    pages = Pages(
        words("Statistics"),
        statistics_lines(stats, words, page_lines(body_font(language))),
        lambda: None,
        words,
    ).pages
    heading = words("Last results:")
    page = next(page for page in pages if heading in page)
    assert page.index(heading) < len(page) - 1
    # (The page's wrapping drops the result's leading space.)
    date = {"en": "11/23", "ru": "23.11", "pl": "23.11", "cs": "23.11", "ko": "11/23"}[language]
    assert page[page.index(heading) + 1] == f"{date} {words('2P')} -28 – -56"


@pytest.mark.parametrize("language", LANGUAGE_NAMES)
def test_a_recent_result_names_its_level_and_deck_in_the_languages_own_abbreviations(language):
    # Cut to three letters by code, Russian read "под/обы" (Подмастерье, Обычная); each
    # language abbreviates its own names. Dates are day.month where its readers write so.
    solo = dataclasses.replace(
        TWO_PLAYER_RESULT,
        mode=Mode.SOLO,
        difficulty=DIFFICULTIES[2],
        deck=Deck.TACTICAL,
        scores={"player": 12, "automa": 30},
    )
    stats = Statistics(solo={}, solo_overall=None, two_player_games=1, recent=(solo,))
    expected = {
        "en": " 11/23 fel/tac 12–30",
        "ru": " 23.11 подм/такт 12–30",
        "pl": " 23.11 czel/takt 12–30",
        "cs": " 23.11 tov/takt 12–30",
        "ko": " 11/23 보통/전 12–30",
    }
    assert statistics_lines(stats, words_for(language), 6)[-1] == expected[language]
