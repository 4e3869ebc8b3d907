"""The statistics pages' lines (expected texts written by hand)."""

from datetime import datetime
from pathlib import Path

from companion.app.statistics import statistics_lines
from companion.engine.setup import Mode
from companion.storage.history import GameRecord, Statistics
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
