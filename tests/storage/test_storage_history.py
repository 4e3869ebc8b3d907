"""History: finished games replayed from history/, and the statistics from them."""

from __future__ import annotations

import logging
import os
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from storage_games import finished_solo, finished_two_player, play

from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.game import Game
from companion.engine.setup import Mode, solo_setup
from companion.storage.history import History, SoloStatistics, Statistics
from companion.storage.journal import Journal

START = datetime(2026, 11, 22, 10, 0, 0)

# (difficulty, deck, seed, extra buttons): the player only advances, so it wins
# exactly when given a few hundred buttons at the start.
SOLO_GAMES = [
    ("fellow", "normal", 1, 0),
    ("fellow", "normal", 2, 300),
    ("legend", "tactical", 4, 300),
    ("fellow", "normal", 3, 250),
    ("legend", "tactical", 5, 0),
    ("intern", "normal", 6, 150),
]


def solo_by_name(stats: Statistics) -> dict[tuple[str, str], SoloStatistics]:
    """The solo statistics by the names of their difficulty and deck."""
    return {(level.name, deck.value): solo for (level, deck), solo in stats.solo.items()}


class Clock:
    """A minute later at every call."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


@pytest.fixture
def archived(tmp_path) -> tuple[Path, list[Game]]:
    """Six solo games and one two-player game finished, plus two abandoned, in order."""
    journal = Journal(tmp_path / "journal.jsonl", clock=Clock())
    games: list[Game] = []
    for number, (difficulty, deck, seed, extra) in enumerate(SOLO_GAMES):
        game = finished_solo(difficulty, deck, seed, extra)
        journal.start(game)
        journal.archive(finished=True)
        games.append(game)
        if number == 2:
            journal.start(finished_two_player(7))
            journal.archive(finished=True)
            journal.start(
                play(Game(solo_setup(DIFFICULTY_BY_NAME["master"], Deck.NORMAL, seed=8)), 10)
            )
            journal.archive(finished=False)
    # Abandoned even though it is over: the name says not to count it.
    journal.start(finished_solo("master", "normal", 9, 300))
    journal.archive(finished=False)
    return tmp_path / "history", games


def test_player_scores_by_hand():
    # 5 buttons to start, 53 for advancing square by square, the extra ones;
    # minus 2 per empty square, the only cover being the 1×1 leather patches taken.
    for difficulty, deck, seed, extra in SOLO_GAMES:
        game = finished_solo(difficulty, deck, seed, extra)
        leather = game.sides["player"].leather
        assert game.outcome().scores["player"] == 5 + 53 + extra - 2 * (81 - leather)


def test_entries_are_the_finished_games_oldest_first(archived):
    directory, games = archived
    entries = History(directory).entries()
    assert [entry.mode for entry in entries] == [Mode.SOLO] * 3 + [Mode.TWO_PLAYER] + [
        Mode.SOLO
    ] * 3
    assert [entry.path.name for entry in entries] == [
        "2026-11-22T10-01-00-solo.jsonl",
        "2026-11-22T10-02-00-solo.jsonl",
        "2026-11-22T10-03-00-solo.jsonl",
        "2026-11-22T10-04-00-two-player.jsonl",
        "2026-11-22T10-06-00-solo.jsonl",
        "2026-11-22T10-07-00-solo.jsonl",
        "2026-11-22T10-08-00-solo.jsonl",
    ]
    assert entries[0].date == datetime(2026, 11, 22, 10, 1, 0)
    solo = [entry for entry in entries if entry.mode is Mode.SOLO]
    for entry, game, (difficulty, deck, _, _) in zip(solo, games, SOLO_GAMES, strict=True):
        outcome = game.outcome()
        assert (entry.difficulty, entry.deck) == (DIFFICULTY_BY_NAME[difficulty], Deck(deck))
        assert dict(entry.scores) == outcome.scores
        assert entry.winner == outcome.winner
        assert entry.margin == outcome.scores["player"] - outcome.scores["automa"]
        assert entry.player_won is (outcome.winner == "player")
        assert entry.label == f"{difficulty}, {deck}"
    two = entries[3]
    assert two.margin is None and two.player_won is None and two.label == "two-player"
    assert dict(two.scores) == finished_two_player(7).outcome().scores


def test_statistics(archived):
    directory, games = archived
    margins = [g.outcome().scores["player"] - g.outcome().scores["automa"] for g in games]
    fellow = [margins[0], margins[1], margins[3]]
    legend = [margins[2], margins[4]]
    intern = [margins[5]]
    # Advance-only games: 0 extra buttons lose, a few hundred win.
    assert [m > 0 for m in margins] == [False, True, True, True, False, True]

    stats = History(directory).statistics(recent=3)

    by_name = solo_by_name(stats)
    assert list(by_name) == [("intern", "normal"), ("fellow", "normal"), ("legend", "tactical")]
    assert by_name["fellow", "normal"].games == 3
    assert by_name["fellow", "normal"].wins == 2
    assert by_name["fellow", "normal"].best_margin == max(fellow) == margins[1]
    assert by_name["fellow", "normal"].average_margin == pytest.approx(sum(fellow) / 3)
    assert by_name["legend", "tactical"].games == 2
    assert by_name["legend", "tactical"].wins == 1
    assert by_name["legend", "tactical"].best_margin == margins[2]
    assert by_name["legend", "tactical"].average_margin == pytest.approx(sum(legend) / 2)
    assert by_name["intern", "normal"].games == 1
    assert by_name["intern", "normal"].wins == 1
    assert by_name["intern", "normal"].best_margin == intern[0]
    assert by_name["intern", "normal"].average_margin == intern[0]

    overall = stats.solo_overall
    assert (overall.games, overall.wins) == (6, 4)
    assert overall.best_margin == max(margins)
    assert overall.average_margin == pytest.approx(sum(margins) / 6)
    assert stats.two_player_games == 1
    assert [entry.path.name[:19] for entry in stats.recent] == [
        "2026-11-22T10-08-00",
        "2026-11-22T10-07-00",
        "2026-11-22T10-06-00",
    ]


def test_the_statistics_by_hand_for_two_games(tmp_path):
    journal = Journal(tmp_path / "journal.jsonl", clock=Clock())
    for seed, extra in [(1, 0), (2, 300)]:
        journal.start(finished_solo("fellow", "normal", seed, extra))
        journal.archive(finished=True)
    # Worked out from the replayed games (see test_player_scores_by_hand):
    # seed 1: player 58 − 2×80 = −102, Automa 28: margin −130;
    # seed 2: player 358 − 2×79 = 200, Automa 30: margin 170.
    stats = History(tmp_path / "history").statistics()
    fellow = stats.solo[DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL]
    assert (fellow.games, fellow.wins, fellow.best_margin) == (2, 1, 170)
    assert fellow.average_margin == 20.0
    assert [entry.margin for entry in stats.recent] == [170, -130]
    assert [entry.winner for entry in stats.recent] == ["player", "automa"]


def test_no_history_at_all(tmp_path):
    history = History(tmp_path / "history")
    assert history.entries() == []
    stats = history.statistics()
    assert stats.solo == {} and stats.solo_overall is None
    assert stats.two_player_games == 0 and stats.recent == ()


def test_unreadable_and_unfinished_files_are_skipped_and_logged(tmp_path, caplog):
    journal = Journal(tmp_path / "journal.jsonl", clock=Clock())
    journal.start(finished_solo("fellow", "normal", 2, 300))
    good = journal.archive(finished=True)
    history = tmp_path / "history"
    (history / "2026-11-22T11-00-00-solo.jsonl").write_bytes(b"\xff\xfe garbage\n")
    (history / "2026-11-22T11-01-00-solo.jsonl").write_text("")
    (history / "notes.txt").write_text("not a log")
    journal.start(play(Game(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=3)), 5))
    unfinished = journal.archive(finished=True)  # a caller's mistake, still not fatal
    with caplog.at_level(logging.WARNING, logger="companion.storage.history"):
        entries = History(history).entries()
    assert [entry.path for entry in entries] == [good]
    logged = caplog.text
    assert "2026-11-22T11-00-00-solo.jsonl: line 1: not UTF-8" in logged
    assert "2026-11-22T11-01-00-solo.jsonl: line 1: the log is empty" in logged
    assert f"{unfinished.name}: the game is not over" in logged


def test_a_log_copied_in_by_hand_is_dated_by_its_file_time(tmp_path):
    history = tmp_path / "history"
    journal = Journal(tmp_path / "journal.jsonl", clock=Clock())
    journal.start(finished_two_player(3))
    archived = journal.archive(finished=True)
    copied = archived.rename(history / "my game.jsonl")
    when = datetime(2025, 5, 6, 7, 8, 9)
    os.utime(copied, (when.timestamp(), when.timestamp()))
    (entry,) = History(history).entries()
    assert entry.date == when and entry.mode is Mode.TWO_PLAYER


def test_games_in_the_same_second_keep_their_order(tmp_path):
    journal = Journal(tmp_path / "journal.jsonl", clock=lambda: START)
    margins = []
    for extra in (0, 300, 150):
        game = finished_solo("fellow", "normal", 1, extra)
        margins.append(game.outcome().scores["player"] - game.outcome().scores["automa"])
        journal.start(game)
        journal.archive(finished=True)
    entries = History(tmp_path / "history").entries()
    assert [entry.path.name for entry in entries] == [
        "2026-11-22T10-00-00-solo.jsonl",
        "2026-11-22T10-00-00-solo-2.jsonl",
        "2026-11-22T10-00-00-solo-3.jsonl",
    ]
    assert [entry.margin for entry in entries] == margins


def test_statistics_call_keepalive_after_each_file_and_skip_oversized_ones(tmp_path):
    history = tmp_path / "history"
    history.mkdir()
    for number in range(3):
        (history / f"2026-01-0{number + 1}T10-00-00-solo.jsonl").write_text("not a game\n")
    (history / "2026-01-09T10-00-00-solo.jsonl").write_bytes(b" " * (2 << 20))
    calls = []
    stats = History(history).statistics(keepalive=lambda: calls.append(1))
    assert len(calls) == 4 and stats.solo_overall is None
