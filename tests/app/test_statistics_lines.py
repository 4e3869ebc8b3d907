"""The statistics pages' lines (expected texts written by hand)."""

from datetime import datetime
from pathlib import Path

from storage.storage_games import finished_solo

from companion.app.statistics import statistics_lines
from companion.engine.setup import Mode
from companion.storage.history import GameRecord, History, Statistics
from companion.storage.journal import Journal
from companion.text.language import words_for


def test_a_recent_result_keeps_two_negative_scores_apart():
    # Scores are often negative (-2 per empty square, RULES.md section 3): joined by a
    # hyphen, -28 and -56 read "-28--56", and a solo -59 against the Automa's 7 read
    # "-59-7", like a difference. Joined by a colon, each keeps its own sign.
    record = GameRecord(
        path=Path("2026-11-23T19-43-47-two-player.jsonl"),
        date=datetime(2026, 11, 23, 19, 43, 47),
        mode=Mode.TWO_PLAYER,
        difficulty=None,
        deck=None,
        scores={"p1": -28, "p2": -56},
        winner="p1",
        tie=False,
        margin=None,
    )
    stats = Statistics(solo={}, solo_overall=None, two_player_games=1, recent=(record,))
    assert statistics_lines(stats, words_for("en"))[-1] == " 11-23 2P -28:-56"


def test_the_solo_line_names_the_margin_over_a_known_history(tmp_path):
    # Two fellow/normal games (worked out by hand in
    # tests/storage/test_storage_history.py): the player only advances, 5 + 53 buttons
    # minus 2 per empty square. Seed 1: -102 against the Automa's 28, margin -130;
    # seed 2, 300 buttons more: 200 against 30, margin +170. Best +170, average
    # (-130 + 170) / 2 = +20.0: the player's score minus the Automa's, not a score.
    minutes = iter([datetime(2026, 11, 23, 19, 0), datetime(2026, 11, 23, 19, 30)])
    journal = Journal(tmp_path / "journal.jsonl", clock=lambda: next(minutes))
    for seed, extra in [(1, 0), (2, 300)]:
        journal.start(finished_solo("fellow", "normal", seed, extra))
        journal.archive(finished=True)
    stats = History(tmp_path / "history").statistics()
    assert statistics_lines(stats, words_for("en")) == [
        "Fellow Normal: 1/2 won",
        "margin: best +170, avg +20.0",
        "All solo: 1/2 won",
        "Last results:",
        " 11-23 fel/nor 200:30",
        " 11-23 fel/nor -102:28",
    ]
    assert statistics_lines(stats, words_for("ru"))[1] == "разница: лучш. +170, ср. +20.0"
    assert statistics_lines(stats, words_for("ko"))[1] == "차이 최고 +170, 평균 +20.0"
