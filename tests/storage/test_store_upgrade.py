"""A database of the build before the verdicts (schema 1) is upgraded, never set aside."""

from __future__ import annotations

import sqlite3

from helpers import read_only
from storage.storage_games import finished_solo, store_ended

from companion.engine.gamelog import log_lines
from companion.storage.database import DATABASE_NAME, SCHEMA, SCHEMA_VERSION
from companion.storage.statistics import level_verdicts, statistics, suggested_level
from companion.storage.store import Store

SCHEMA_1 = (
    SCHEMA.replace(
        "log TEXT NOT NULL,                      -- the whole game log, JSON Lines\n"
        "    score INTEGER,                          -- finished solo only: the player's score\n"
        "    beaten INTEGER                          -- finished solo only: levels beaten"
        " (docs/SOLO.md)",
        "log TEXT NOT NULL                       -- the whole game log, JSON Lines",
    )
    .replace("winner, margin, score)", "winner, margin)")
    .replace("CREATE INDEX judged ON games (finished, mode, beaten);\n", "")
)
"""The schema of the build before the verdicts: no player's score or levels beaten."""


def schema_1_database(directory) -> None:
    """A database as the build before the verdicts left it, with one finished solo game."""
    assert "beaten" not in SCHEMA_1 and "score INTEGER" not in SCHEMA_1
    game = finished_solo("fellow", "normal", seed=1)
    db = sqlite3.connect(directory / DATABASE_NAME)
    db.execute("PRAGMA journal_mode = WAL")  # as the store keeps it
    db.executescript(f"{SCHEMA_1} PRAGMA user_version = 1;")
    db.execute(
        "INSERT INTO games (ended, finished, mode, difficulty, deck, scores, winner, margin,"
        " log) VALUES ('2026-11-27 10:00:00', 1, 'solo', 'fellow', 'normal', ?, ?, ?, ?)",
        ('{"player": -102, "automa": 28}', "automa", -130, "\n".join(log_lines(game))),
    )
    db.commit()
    db.close()


def columns(directory) -> list[str]:
    db = sqlite3.connect(directory / DATABASE_NAME)
    try:
        return [row[1] for row in db.execute("PRAGMA table_info(games)")]
    finally:
        db.close()


def test_a_schema_1_database_gains_the_verdicts_and_keeps_its_games(tmp_path):
    schema_1_database(tmp_path)
    assert "beaten" not in columns(tmp_path)
    with Store(tmp_path) as store:
        assert store.set_aside is None
        ((version,),) = store.query("PRAGMA user_version")
        assert version == SCHEMA_VERSION == 2
        # The game ended before: counted as played, its score found in its scores, with
        # no verdicts to count.
        overall = statistics(store).solo_overall
        assert (overall.games, overall.best_score) == (1, -102)
        assert level_verdicts(store) == {}
        store_ended(store, finished_solo("fellow", "normal", seed=2))
        counted = level_verdicts(store)
        assert {judged.games for judged in counted.values()} == {1}
    assert "beaten" in columns(tmp_path)


def test_on_a_read_only_card_a_schema_1_database_is_read_as_it_is(small_fs):
    schema_1_database(small_fs)
    with read_only(small_fs), Store(small_fs) as store:
        assert store.set_aside is None
        overall = statistics(store).solo_overall
        assert (overall.games, overall.best_score) == (1, -102)
        assert level_verdicts(store) == {} and suggested_level(store) is None
    assert "beaten" not in columns(small_fs)
