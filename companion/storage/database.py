"""The SQLite file itself: its schema and upgrades, how it is opened (held by this
process alone, its log never checkpointed inside a commit) or read without writing,
and the links refused in its place."""

from __future__ import annotations

import fcntl
import os
import shutil
import sqlite3
import stat
import tempfile
from pathlib import Path

from companion.storage.files import StorageError

DATABASE_NAME = "companion.db"
SCHEMA_VERSION = 2
SYNCHRONOUS = "FULL"
"""Each commit on the card before it returns; OFF is the mutant the power cuts must catch."""
SCHEMA = """
CREATE TABLE current_game (
    id INTEGER PRIMARY KEY CHECK (id = 1),  -- at most one game in progress
    header TEXT NOT NULL                    -- its game log's first line (docs/game-log.md)
);
CREATE TABLE moves (                        -- the game in progress's confirmed actions
    number INTEGER PRIMARY KEY,             -- 1 for its first action
    line TEXT NOT NULL                      -- the action's game log line
);
CREATE TABLE progress (                     -- where the table stands in the cards
    id INTEGER PRIMARY KEY CHECK (id = 1),
    acknowledged INTEGER NOT NULL,          -- actions whose steps the table confirmed
    asked_bonus TEXT NOT NULL,              -- JSON list: the 7x7 questions asked
    dealing INTEGER,                        -- first place shown while dealing the circle
    entering TEXT,                          -- JSON object: a circle being entered
    undone TEXT NOT NULL,                   -- JSON list: action lines an undo took back
    undone_unconfirmed INTEGER NOT NULL     -- how many of them had no steps confirmed
);
INSERT INTO progress VALUES (1, 0, '[]', NULL, NULL, '[]', 0);
CREATE TABLE games (                        -- every game that ended, oldest first
    id INTEGER PRIMARY KEY,
    ended TEXT NOT NULL,                    -- local time, YYYY-MM-DD HH:MM:SS
    finished INTEGER NOT NULL,              -- 1 played to the end, 0 given up for another
    mode TEXT NOT NULL,                     -- solo or two-player
    difficulty TEXT,                        -- solo only, e.g. fellow
    deck TEXT,                              -- solo only: normal or tactical
    scores TEXT,                            -- finished only: JSON object, side to score
    winner TEXT,                            -- finished only: player, automa, p1 or p2
    margin INTEGER,                         -- finished solo only: player minus Automa
    log TEXT NOT NULL,                      -- the whole game log, JSON Lines
    score INTEGER,                          -- finished solo only: the player's score
    beaten INTEGER                          -- finished solo only: levels beaten (docs/SOLO.md)
);
-- The statistics read these indexes alone, not the logs beside them in the table.
CREATE INDEX results ON games (finished, mode, difficulty, deck, winner, margin, score);
CREATE INDEX judged ON games (finished, mode, beaten);
"""
UPGRADES = {
    1: "ALTER TABLE games ADD COLUMN score INTEGER;"
    " ALTER TABLE games ADD COLUMN beaten INTEGER;"
    " UPDATE games SET score = json_extract(scores, '$.player') WHERE finished AND mode = 'solo';"
    " DROP INDEX results;"
    " CREATE INDEX results ON games (finished, mode, difficulty, deck, winner, margin, score);"
    " CREATE INDEX judged ON games (finished, mode, beaten);"
}
"""From each earlier schema version to the next: what the database of an earlier build
is given at its first start by this one."""


class StoreBusyError(StorageError):
    """Another process holds the database; one line naming the state directory."""


class UnusableDatabase(Exception):
    """The file in the database's place is not a database of ours; why, in a few words."""


def connect(path: Path) -> sqlite3.Connection:
    """The database at `path`, held exclusively, its schema made if it is new. `UnusableDatabase`
    if the file is not a database of ours; sqlite3.Error if the card refuses it."""
    connection = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
    try:
        # Before WAL mode: with the lock held, WAL needs no shared memory file.
        connection.execute("PRAGMA locking_mode = EXCLUSIVE")
        (check,) = connection.execute("PRAGMA quick_check(1)").fetchone()
        if check != "ok":
            raise UnusableDatabase(f"damaged ({' '.join(check.split())})")  # its report spans lines
        (version,) = connection.execute("PRAGMA user_version").fetchone()
        new = version == 0 and not connection.execute("SELECT 1 FROM sqlite_schema").fetchone()
        if not new and version != SCHEMA_VERSION and version not in UPGRADES:
            raise UnusableDatabase(f"not a database of this build (schema version {version})")
        # Only now, on a database found usable: a file set aside keeps its bytes.
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")
        # No checkpoint inside a commit (two fsyncs more before that input's frame): the
        # log is copied into the database at each start, after the frame of an input
        # that ended a game (`empty_the_log`), and when it is closed.
        connection.execute("PRAGMA wal_autocheckpoint = 0")
        if new:
            connection.executescript(
                f"BEGIN IMMEDIATE; {SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
            )
        else:
            _take_the_lock(connection)
            _upgrade(connection, version)
    except sqlite3.DatabaseError as error:
        connection.close()
        if error_code(error) in (sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT):
            raise UnusableDatabase(f"not a database ({error})") from None
        raise
    except UnusableDatabase:
        connection.close()
        raise
    return connection


def read_only(path: Path) -> sqlite3.Connection:
    """The database at `path` to read, creating nothing beside it (SQLite's `mode=ro`
    would create its `-wal` and `-shm`). The file as it is if its log is empty: read
    whole (`immutable`); else a copy of both, in a temporary directory."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        # The range SQLite locks for readers: a companion holds it while it runs.
        fcntl.lockf(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB, 510, 0x40000002)
    except OSError:
        raise StoreBusyError(
            f"state directory {path.parent} is in use by another companion"
        ) from None
    finally:
        os.close(descriptor)
    wal = path.with_name(path.name + "-wal")
    try:
        if not wal.exists() or wal.stat().st_size == 0:
            connection = sqlite3.connect(f"{path.absolute().as_uri()}?immutable=1", uri=True)
            connection.execute("SELECT 1 FROM current_game, progress").fetchall()
            return connection
        with tempfile.TemporaryDirectory() as copies:
            copy = Path(copies) / DATABASE_NAME
            shutil.copyfile(path, copy)
            shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
            connection = sqlite3.connect(copy)
            connection.execute("SELECT 1 FROM current_game, progress").fetchall()
            # Read into memory: the copies go with the temporary directory.
            memory = sqlite3.connect(":memory:")
            connection.backup(memory)
            connection.close()
            return memory
    except (sqlite3.Error, OSError) as error:
        raise StorageError(f"{path}: cannot be read ({error})") from None


def _take_the_lock(connection: sqlite3.Connection) -> None:
    """Hold the database now, not at the first write: a second companion is refused at its
    start; and copy in what the log holds from a run a power cut ended. On a read-only
    card only reading is possible: the game shows, writes are refused."""
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("COMMIT")
    except sqlite3.OperationalError as error:
        if error_code(error) != sqlite3.SQLITE_READONLY:
            raise


def _upgrade(connection: sqlite3.Connection, version: int) -> None:
    """Bring an earlier build's database to this schema, in one transaction. On a card
    that takes no writes this fails, and the store reads the database as it is (what it
    lacks reads as nothing: the statistics say so)."""
    if version == SCHEMA_VERSION:
        return
    steps = " ".join(UPGRADES[number] for number in range(version, SCHEMA_VERSION))
    connection.executescript(
        f"BEGIN IMMEDIATE; {steps} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
    )


def error_code(error: sqlite3.Error) -> int:
    return getattr(error, "sqlite_errorcode", 0) & 0xFF


SIDECAR_SUFFIXES = ("-wal", "-shm", "-journal")
"""The files SQLite writes beside the database: the same rule holds for them."""


def refuse_links(directory: Path, path: Path) -> None:
    """`StorageError` if the state directory, the database or a file SQLite writes beside
    it is a symbolic link, or one of these files has another name elsewhere: the game
    would be written outside the directory."""
    if directory.is_symlink():
        raise StorageError(f"state directory {directory} is a symbolic link; refusing to use it")
    for suffix in ("", *SIDECAR_SUFFIXES):
        file = path.with_name(path.name + suffix)
        try:
            status = os.lstat(file)
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(status.st_mode):
            raise StorageError(f"{file} is a symbolic link; refusing to use it")
        if status.st_nlink > 1:
            raise StorageError(f"{file} has {status.st_nlink} links; refusing to use it")
