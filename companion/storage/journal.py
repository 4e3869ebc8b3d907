"""The journal: the game in progress, one line per confirmed action, safe from power cuts.

`journal.jsonl` in the state directory is a game log (docs/game-log.md): the
header, then one action per line. An action is shown as done on the screen
only once `Journal.append` has returned, and by then its line is fsynced;
at boot `Journal.load` replays the file into the game exactly as it was.

Where the power can go, and what the next `load` finds:

- `start`, before the atomic rename: no journal (a stray `.journal.jsonl.*.tmp`
  is removed), so no game: the start had not been confirmed. After it: the
  whole header. Never half a header.
- `append`, during the write or before the fsync returns: the new line is
  missing, cut short (no newline) or, rarely, complete but garbled (zeros).
  `load` drops that last line, truncates the file to the previous line's end
  and says so; the action had not been confirmed. After the fsync: kept.
- `undo`, around the truncation: the file has the old length (the undo had
  not been confirmed and the action is back) or the new one.
- `load` dropping a torn line: the same as `undo`; if the truncation is lost,
  the next `load` drops the line again.
- `load` moving a damaged journal aside, and `archive`: one atomic rename, so
  the file is under its old name or its new one, never both or neither. A
  finished game whose archive was cut short loads again as a game that is
  over: the caller shows the result and archives it again.

Only a line that was never confirmed is ever dropped, and only the last one;
anything else that cannot be replayed is moved aside whole, never deleted.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from companion.engine.actions import Action
from companion.engine.game import Game
from companion.engine.gamelog import LogError, action_line, header_line, log_lines, read_log
from companion.engine.setup import Mode, Setup
from companion.storage.files import (
    StorageError,
    atomic_write_text,
    fsync_directory,
    move_aside,
    one_line,
    remove_stale_temp_files,
    rename_durably,
    unique_path,
)

logger = logging.getLogger(__name__)

JOURNAL_NAME = "journal.jsonl"
HISTORY_DIRECTORY = "history"
LOG_SUFFIX = ".jsonl"
ARCHIVE_TIME_FORMAT = "%Y-%m-%dT%H-%M-%S"
ABANDONED_MARK = "abandoned"
TORN_NOTICE = "The last action was cut short by a power loss and was dropped."
PROBLEM_LIMIT = 80


class JournalExistsError(StorageError):
    """A game is already in progress: archive it before starting another."""


class NothingToUndoError(IndexError):
    """The journal holds only its header: undo reaches no further than the start."""


@dataclass(frozen=True, slots=True)
class JournalLoad:
    """What `Journal.load` found at boot."""

    game: Game | None
    """The game in progress, or None to start clean."""
    notice: str | None = None
    """One line for the player when something had to be repaired or set aside."""
    moved_aside: Path | None = None
    """Where a journal that could not be replayed was kept."""


class Journal:
    """The game in progress, kept in the file `path` (`journal.jsonl` in the state directory).

    Archived games go to `history_dir` (`history/` beside the journal unless
    given), damaged journals beside it; `clock` gives the local time that
    names them.
    """

    def __init__(
        self,
        path: Path,
        *,
        history_dir: Path | None = None,
        clock: Callable[[], datetime] = datetime.now,
    ) -> None:
        self.path = Path(path)
        self.history_dir = (
            Path(history_dir) if history_dir else self.path.parent / HISTORY_DIRECTORY
        )
        self._clock = clock

    def exists(self) -> bool:
        """Whether a game is in progress (a journal is on disk)."""
        return self.path.exists()

    # --- writing ----------------------------------------------------------------------

    def start(self, game_or_setup: Game | Setup) -> None:
        """Create the journal with the header (and a game's actions so far), atomically.

        Raises `JournalExistsError` if a game is in progress: the caller
        archives it first, so that it is never overwritten.
        """
        if self.exists():
            raise JournalExistsError(
                f"{self.path}: a game is already in progress; archive it before starting another"
            )
        if isinstance(game_or_setup, Game):
            lines = log_lines(game_or_setup)
        else:
            lines = [header_line(game_or_setup)]
        try:
            atomic_write_text(self.path, "".join(line + "\n" for line in lines))
        except OSError as error:
            raise StorageError(f"{self.path}: cannot start the game ({_reason(error)})") from None

    def append(self, action: Action) -> None:
        """Add one action; it is on disk (fsynced) when this returns.

        Pass the action as the game stored it (`game.move_stack[-1]` after
        `push`), so that an Automa turn carries its reshuffle. Raises
        `StorageError` if it cannot be saved; the journal is then left as it
        was, and the caller should `pop` the action from the game.
        """
        line = (action_line(action) + "\n").encode("utf-8")
        try:
            fd = os.open(self.path, os.O_RDWR)
        except FileNotFoundError:
            raise StorageError(f"{self.path}: no game in progress to add the action to") from None
        except OSError as error:
            raise StorageError(f"{self.path}: cannot save the action ({_reason(error)})") from None
        try:
            end = os.lseek(fd, 0, os.SEEK_END)
            self._check_ends_cleanly(fd, end)
            try:
                _write_all(fd, line)
                os.fsync(fd)
            except OSError as error:
                # Take back any part of the line that did get written, so the
                # next append does not follow a torn line in the middle.
                _truncate_quietly(fd, end)
                raise StorageError(
                    f"{self.path}: cannot save the action ({_reason(error)})"
                ) from None
        finally:
            os.close(fd)

    def undo(self) -> None:
        """Remove the last action's line, durably. Works back to the start of the game.

        Raises `NothingToUndoError` when only the header is left.
        """
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            raise StorageError(f"{self.path}: no game in progress to undo in") from None
        if data and not data.endswith(b"\n"):
            raise StorageError(f"{self.path}: the last line is incomplete; restart to repair it")
        lines = [(start, raw) for start, raw in _complete_lines(data) if raw.strip()]
        if len(lines) < 2:
            raise NothingToUndoError("nothing to undo: the game is at its start")
        self._truncate(lines[-1][0])

    def archive(self, finished: bool) -> Path:
        """Move the journal into `history/` and return its new path.

        Named by local time and mode, e.g. `2026-11-22T10-15-03-solo.jsonl`;
        a game given up for a new one (`finished=False`) is kept as
        `…-solo-abandoned.jsonl` and left out of the statistics. A second game
        in the same second gets `-2`, `-3`, … before the suffix.
        """
        if not self.exists():
            raise StorageError(f"{self.path}: no game in progress to archive")
        parts = [self._clock().strftime(ARCHIVE_TIME_FORMAT), self._mode_for_name()]
        if not finished:
            parts.append(ABANDONED_MARK)
        try:
            if not self.history_dir.is_dir():
                self.history_dir.mkdir(parents=True)
                fsync_directory(self.history_dir.parent)
            target = unique_path(self.history_dir, "-".join(parts), LOG_SUFFIX)
            rename_durably(self.path, target)
        except OSError as error:
            raise StorageError(
                f"{self.path}: cannot be archived in {self.history_dir} ({_reason(error)})"
            ) from None
        logger.info("archived the game as %s", target)
        return target

    # --- reading ----------------------------------------------------------------------

    def load(self) -> JournalLoad:
        """The game in progress, repaired or set aside if needed. Never raises for
        what is in the file; raises `StorageError` only if the file can be neither
        read nor moved aside."""
        remove_stale_temp_files(self.path)
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return JournalLoad(None)
        except OSError as error:
            return self._set_aside(f"it cannot be read ({_reason(error)})")
        keep, problem = _recoverable_prefix(data)
        if problem is not None:
            return self._set_aside(problem)
        try:
            game = read_log(raw for _, raw in _complete_lines(data[:keep]))
        except LogError as error:
            return self._set_aside(str(error))
        except Exception as error:
            # An engine bug on an odd file must not stop the device from booting;
            # the file is kept for the bug report.
            logger.exception("replaying %s failed", self.path)
            return self._set_aside(f"replay failed ({error!r})")
        notice = None
        if keep < len(data):
            self._truncate(keep)
            if data[keep:].strip():
                notice = TORN_NOTICE
                logger.warning("dropped a torn last line from %s: %r", self.path, data[keep:])
        return JournalLoad(game, notice)

    # --- helpers ------------------------------------------------------------------------

    def _check_ends_cleanly(self, fd: int, end: int) -> None:
        if end == 0:
            raise StorageError(f"{self.path}: the journal is empty; restart to repair it")
        if os.pread(fd, 1, end - 1) != b"\n":
            raise StorageError(f"{self.path}: the last line is incomplete; restart to repair it")

    def _truncate(self, length: int) -> None:
        try:
            fd = os.open(self.path, os.O_RDWR)
            try:
                os.ftruncate(fd, length)
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as error:
            raise StorageError(f"{self.path}: cannot be shortened ({_reason(error)})") from None

    def _set_aside(self, problem: str) -> JournalLoad:
        problem = one_line(problem, PROBLEM_LIMIT)
        try:
            kept = move_aside(self.path, f"{self.path.stem}-damaged", LOG_SUFFIX, self._clock())
        except OSError as error:
            raise StorageError(
                f"{self.path}: cannot be replayed ({problem}) nor moved aside ({_reason(error)})"
            ) from None
        notice = (
            f"The saved game could not be read ({problem}); "
            f"it was kept as {kept.name} and a new game can start."
        )
        return JournalLoad(None, notice, kept)

    def _mode_for_name(self) -> str:
        """The header's mode, for the archive's name; the header was checked by `load`."""
        try:
            with self.path.open("rb") as handle:
                mode = json.loads(handle.readline()).get("mode")
        except (OSError, ValueError, AttributeError):
            mode = None
        return mode if mode in {m.value for m in Mode} else "game"


def _complete_lines(data: bytes) -> list[tuple[int, bytes]]:
    """Each newline-terminated line of `data` with its start offset, without the newline."""
    lines = []
    start = 0
    while (end := data.find(b"\n", start)) != -1:
        lines.append((start, data[start:end]))
        start = end + 1
    return lines


def _recoverable_prefix(data: bytes) -> tuple[int, str | None]:
    """How much of the journal to replay, or the reason it cannot be.

    Only the very last line can have been cut short by a power cut (every
    earlier one was fsynced before the next was written), and the header is
    written atomically, so a tear anywhere else is damage, not a power cut.
    """
    complete_end = data.rfind(b"\n") + 1
    lines = [(start, raw) for start, raw in _complete_lines(data) if raw.strip()]
    if data[complete_end:].strip():
        if not lines:
            return 0, "line 1: the header line is incomplete"
        return complete_end, None
    # A write cut short can also leave a whole line of garbage (zeroed blocks).
    if len(lines) > 1 and not _is_json_object(lines[-1][1]):
        return lines[-1][0], None
    return complete_end, None


def _is_json_object(raw: bytes) -> bool:
    try:
        return isinstance(json.loads(raw.decode("utf-8")), dict)
    except ValueError:  # UnicodeDecodeError and JSONDecodeError are both ValueErrors
        return False


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _truncate_quietly(fd: int, length: int) -> None:
    try:
        os.ftruncate(fd, length)
        os.fsync(fd)
    except OSError:
        logger.exception("could not take back a partly written journal line")


def _reason(error: OSError) -> str:
    return error.strerror or str(error)
