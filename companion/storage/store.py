"""The store: one SQLite database, `companion.db`, in the state directory.

It holds the game in progress (its log header, its actions, where the table stands
in the cards) and every game that ended (its result and its whole log). A change is
one transaction, committed before the screen shows it as done: WAL with
`synchronous=FULL`, so a commit is one fsync and a power cut keeps it whole or not at
all. The database is held with `locking_mode=EXCLUSIVE` from `Store(…)` to the end of
the process. Nothing unusable is deleted: a file that is not a database of ours is
renamed aside, the files of earlier builds go to `earlier-build/`; a link in place of
the database or the state directory is refused (a write would land outside it).
"""

from __future__ import annotations

import errno
import json
import logging
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from companion.storage.database import (
    DATABASE_NAME,
    StoreBusyError,
    UnusableDatabase,
    connect,
    error_code,
    read_only,
    refuse_links,
)
from companion.storage.files import (
    DAMAGED_TIME_FORMAT,
    StorageError,
    fsync_directory,
    reason_of,
    unique_path,
)
from companion.storage.paths import write_problem

logger = logging.getLogger(__name__)

EARLIER_BUILD_FILES = ("journal.jsonl", "progress.json", "history", "companion.pid")
EARLIER_BUILD_DIRECTORY = "earlier-build"
ENDED_FORMAT = "%Y-%m-%d %H:%M:%S"
KEEPALIVE_STEPS = 10_000
"""SQLite steps of a query between two calls of `Store.keepalive` (well under a
millisecond of this machine's)."""

_REASONS = {
    sqlite3.SQLITE_FULL: errno.ENOSPC,
    sqlite3.SQLITE_READONLY: errno.EROFS,
    sqlite3.SQLITE_PERM: errno.EACCES,
}


@dataclass(frozen=True, slots=True)
class Standing:
    """The `progress` row: where the table stands in the cards of the game in progress."""

    acknowledged: int = 0
    asked_bonus: tuple[str, ...] = ()
    dealing: int | None = None
    entering: dict[str, Any] | None = None
    undone: tuple[str, ...] = ()
    undone_unconfirmed: int = 0


@dataclass(frozen=True, slots=True)
class Result:
    """How the game in progress ended, for the `games` row."""

    finished: bool
    scores: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    margin: int | None = None
    beaten: int | None = None
    """A finished solo game's levels beaten, easiest first (`levels_beaten`)."""


class Store:
    """The database of one state directory, held by this process until `close`."""

    def __init__(
        self,
        directory: Path,
        clock: Callable[[], datetime] | None = None,
        *,
        writable: bool = True,
    ) -> None:
        """Open (or create) the database in `directory`. `StoreBusyError` if another
        process holds it; `StorageError` (one line) if a link stands in its place.
        `clock`: the local time that names files set aside and dates games ended.

        Not `writable`, the database is opened to be read only: nothing in the directory
        is created, moved or written, and every write is refused; `StorageError` (one
        line) if there is no database."""
        self.directory = Path(directory)
        self.path = self.directory / DATABASE_NAME
        self._clock = clock or datetime.now
        self.set_aside: Path | None = None
        """Where an unusable database was moved."""
        self.earlier_build: Path | None = None
        """Where the files of an earlier build were moved."""
        self.problem: str | None = None
        """Why (English, for the log)."""
        self.left_damaged = False
        """An unusable database that could not be moved aside either (a read-only card)."""
        self._cannot_write: OSError | None = (
            None if writable else OSError(errno.EROFS, "opened to be read only")
        )
        """Why no database could be opened for writing: every write fails with it."""
        self._log_to_empty = False
        """A game ended since the write-ahead log was last copied into the database."""
        self.keepalive: Callable[[], object] = lambda: None
        """Called while a long query runs (the watchdog's ping, set by the daemon)."""
        refuse_links(self.directory, self.path)
        if writable:
            self._set_aside_earlier_build()
            self._db = self._open()
        else:
            self._db = self._open_to_read()

    # --- opening -----------------------------------------------------------------------

    def _open_to_read(self) -> sqlite3.Connection:
        if not self.path.is_file():
            raise StorageError(f"{self.path}: no such database")
        return read_only(self.path)

    def _open(self) -> sqlite3.Connection:
        try:
            return connect(self.path)
        except UnusableDatabase as unusable:
            return self._replace(f"{self.path.name}: {unusable}")
        except sqlite3.Error as error:
            if error_code(error) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise StoreBusyError(
                    f"state directory {self.directory} is in use by another companion"
                ) from None
            return self._in_memory(error)

    def _replace(self, problem: str) -> sqlite3.Connection:
        """Move the unusable database aside and open a new one in its place."""
        self.problem = problem
        logger.warning("%s; moving it aside", problem)
        try:
            self.set_aside = self._move_aside()
        except OSError as error:
            logger.error("%s: cannot be moved aside (%s)", self.path, reason_of(error))
            self.left_damaged = True
            return self._in_memory(error)
        return self._open()

    def move_aside(self, problem: str) -> None:
        """Set the database aside (`problem`: why it cannot be used) and start afresh."""
        self._db.close()
        self._db = self._replace(f"{self.path.name}: {problem}")

    def _in_memory(self, error: Exception) -> sqlite3.Connection:
        """The database as it is on a card that takes no writes (read-only, full), or an
        empty one in memory if it cannot be read either; every write is refused with the
        card's reason: the device runs, shows the game and says why nothing is saved."""
        self._cannot_write = write_problem(self.directory) or OSError(errno.EIO, str(error))
        logger.error("%s: cannot be opened (%s)", self.path, error)
        if not self.left_damaged and self.path.is_file():
            try:
                # Immutable: nothing can change it meanwhile, so no lock or log is needed.
                uri = f"{self.path.absolute().as_uri()}?immutable=1"
                connection = sqlite3.connect(uri, uri=True, check_same_thread=False)
                connection.execute("SELECT 1 FROM current_game, progress").fetchall()
                return connection
            except sqlite3.Error as unreadable:
                logger.error("%s: cannot be read either (%s)", self.path, unreadable)
        return connect(Path(":memory:"))

    def _move_aside(self) -> Path:
        stem = f"companion-damaged-{self._clock().strftime(DAMAGED_TIME_FORMAT)}"
        kept = unique_path(self.directory, stem, ".db")
        for suffix in ("-wal", ""):  # the WAL first: a database without it is still whole
            source = self.directory / (DATABASE_NAME + suffix)
            if os.path.lexists(source):
                os.rename(source, kept.with_name(kept.name + suffix))
        fsync_directory(self.directory)
        return kept

    def _set_aside_earlier_build(self) -> None:
        found = [name for name in EARLIER_BUILD_FILES if os.path.lexists(self.directory / name)]
        if not found:
            return
        try:
            folder = unique_path(self.directory, EARLIER_BUILD_DIRECTORY, "")
            folder.mkdir()
            for name in found:
                os.rename(self.directory / name, folder / name)
            fsync_directory(self.directory)
        except OSError as error:
            logger.error("cannot move the earlier build's files aside: %s", reason_of(error))
            return
        self.earlier_build = folder
        self.problem = f"the files of an earlier build ({', '.join(found)})"
        logger.warning("%s were moved to %s", self.problem, folder)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- reading -----------------------------------------------------------------------

    def has_game(self) -> bool:
        """Whether a game is in progress or a circle is being entered."""
        sql = "SELECT EXISTS (SELECT * FROM current_game) OR entering NOTNULL FROM progress"
        return bool(self._db.execute(sql).fetchone()[0])

    def load(self) -> tuple[str | None, list[str], Standing]:
        """The game in progress: its header (None if none), its action lines, its standing."""
        header = self._db.execute("SELECT header FROM current_game").fetchone()
        lines = self._db.execute("SELECT line FROM moves ORDER BY number").fetchall()
        row = self._db.execute(
            "SELECT acknowledged, asked_bonus, dealing, entering, undone, undone_unconfirmed"
            " FROM progress"
        ).fetchone()
        acknowledged, asked, dealing, entering, undone, unconfirmed = row
        standing = Standing(
            acknowledged,
            tuple(json.loads(asked)),
            dealing,
            json.loads(entering) if entering is not None else None,
            tuple(json.loads(undone)),
            unconfirmed,
        )
        return header[0] if header else None, [line for (line,) in lines], standing

    def query(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows of `sql`; `keepalive` is called every `KEEPALIVE_STEPS` of it, so a
        slow statistics screen on a slow card does not starve the watchdog."""
        self._db.set_progress_handler(self._keep_alive, KEEPALIVE_STEPS)
        try:
            return self._db.execute(sql, parameters).fetchall()
        finally:
            self._db.set_progress_handler(None, 0)

    def _keep_alive(self) -> int:
        self.keepalive()
        return 0  # go on with the query

    def current_log(self) -> str | None:
        """The game in progress as a game log (JSON Lines), None if there is none."""
        row = self._db.execute(
            "SELECT header || char(10) || coalesce((SELECT group_concat(line || char(10), '')"
            " FROM (SELECT line FROM moves ORDER BY number)), '') FROM current_game"
        ).fetchone()
        return row[0] if row else None

    def ended_log(self, number: int | None = None) -> str | None:
        """The log of ended game `number` (1 the first), or of the last one if None; that of
        a game set aside unfinished ends with `ABANDONED_LINE`."""
        # Here, not at the top: the device starts and draws its home menu without the engine.
        from companion.engine.gamelog import ABANDONED_LINE

        sql = "SELECT log, finished FROM games WHERE id = coalesce(?, (SELECT max(id) FROM games))"
        row = self._db.execute(sql, (number,)).fetchone()
        if row is None:
            return None
        log, finished = row
        return log if finished else f"{log}{ABANDONED_LINE}\n"

    # --- writing: one transaction each ---------------------------------------------------

    def start(self, header: str, standing: Standing, ending: Result | None = None) -> None:
        """A new game in progress, `ending` the one before if there is one."""
        with self._transaction():
            if ending is not None:
                self._end(ending)
            self._db.execute("INSERT INTO current_game VALUES (1, ?)", (header,))
            self._put(standing)

    def save(self, standing: Standing, *, add: str | None = None, keep: int | None = None) -> None:
        """Where the table stands; with `add`, one action line more; with `keep`, the game's
        actions after the first `keep` taken back (an undo)."""
        with self._transaction():
            if add is not None:
                self._db.execute(
                    "INSERT INTO moves VALUES ((SELECT count(*) + 1 FROM moves), ?)", (add,)
                )
            if keep is not None:
                self._db.execute("DELETE FROM moves WHERE number > ?", (keep,))
            self._put(standing)

    def end(self, result: Result) -> None:
        """The game in progress goes to `games`; nothing is in progress after it."""
        with self._transaction():
            self._end(result)
            self._put(Standing())

    def empty_the_log(self) -> None:
        """Copy the write-ahead log into the database and truncate it, if a game ended
        since the last time: called after the frame, where its fsyncs delay no input,
        so the log holds about one game. A failure only leaves the log as it was."""
        if not self._log_to_empty:
            return
        self._log_to_empty = False
        try:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as error:
            logger.warning("%s: the write-ahead log was not emptied (%s)", self.path, error)

    def _end(self, result: Result) -> None:
        self._log_to_empty = True
        log = self.current_log()
        self._db.execute(
            "INSERT INTO games (ended, finished, mode, difficulty, deck, scores, winner,"
            " margin, log, score, beaten) SELECT ?, ?, json_extract(header, '$.mode'),"
            " json_extract(header, '$.difficulty'), json_extract(header, '$.deck'),"
            " ?, ?, ?, ?, ?, ? FROM current_game",
            (
                self._clock().strftime(ENDED_FORMAT),
                result.finished,
                json.dumps(result.scores) if result.finished else None,
                result.winner,
                result.margin,
                log or "",
                result.scores.get("player"),
                result.beaten,
            ),
        )
        self._db.execute("DELETE FROM moves")
        self._db.execute("DELETE FROM current_game")

    def _put(self, standing: Standing) -> None:
        self._db.execute(
            "UPDATE progress SET acknowledged = ?, asked_bonus = ?, dealing = ?, entering = ?,"
            " undone = ?, undone_unconfirmed = ?",
            (
                standing.acknowledged,
                json.dumps(standing.asked_bonus),
                standing.dealing,
                json.dumps(standing.entering) if standing.entering is not None else None,
                json.dumps(standing.undone),
                standing.undone_unconfirmed,
            ),
        )

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One transaction, committed durably, or rolled back and `StorageError` raised
        with the card's reason (its `errno` says why on the screen)."""
        if self._cannot_write is not None:
            raise StorageError(f"{self.path}: cannot be written", self._cannot_write)
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
                self._refuse_a_read_only_card()
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            cause = write_problem(self.directory) or OSError(
                _REASONS.get(error_code(error) & 0xFF, errno.EIO), str(error)
            )
            raise StorageError(f"{self.path}: not saved ({error})", cause) from None

    def _refuse_a_read_only_card(self) -> None:
        """A card that failed into read-only (ext4's errors=remount-ro) may go on
        taking writes into the page cache, and the fsync of the commit it dropped may
        have returned success: the kernel's word is all a program has. Its mount
        flag is the one sign left, so it is read before every commit: the player is
        told at the next save at the latest, and that save is rolled back."""
        if os.statvfs(self.directory).f_flag & os.ST_RDONLY:
            cause = OSError(errno.EROFS, os.strerror(errno.EROFS))
            raise StorageError(f"{self.path}: not saved (the card is read-only)", cause)
