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

A card that refuses the repair (read-only) does not stop `load`: a journal it cannot
move aside is left exactly as it is, with no game (`JournalLoad.left_damaged`), and a
torn last line it cannot drop is left on the card, dropped before the next write.

Only a line that was never confirmed is ever dropped, and only the last one;
anything else that cannot be replayed is moved aside whole, never deleted,
and the actions before the first bad line are offered back (`JournalLoad.prefix`).

A journal changed outside the companion while a game runs (shortened, replaced by
another file, removed) is noticed before the next append or undo writes to it: the
file is not the one the journal last wrote or read (another inode, shorter, or its
last line not the one written last: the checksums chain, so any other line has another),
and `JournalChangedError` is raised with the file untouched. The
caller's game in memory is then the only whole record: it writes the journal again
from it (`rewrite`).

Every line carries a chained checksum (see `companion.engine.gamelog`), so a
changed byte or a line spliced in from another game is found at its line.
The file is read with a size cap (`JOURNAL_LIMIT`), never through a symbolic
link, and a FIFO or device in its place is moved aside unread.
"""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from companion.engine.actions import Action
from companion.engine.game import Game
from companion.engine.gamelog import (
    action_line,
    header_line,
    line_checksum,
    log_lines,
    replay_log,
    with_checksum,
    with_checksums,
)
from companion.engine.json_limits import loads
from companion.engine.setup import Mode, Setup
from companion.storage.files import (
    StorageError,
    atomic_write_text,
    fsync_directory,
    move_aside,
    one_line,
    reason_of,
    remove_stale_temp_files,
    rename_durably,
    unique_path,
    write_all,
)
from companion.storage.paths import HISTORY_DIRECTORY
from companion.untrusted import NotRegularFileError, iter_lines, open_regular_file, read_capped

logger = logging.getLogger(__name__)

LOG_SUFFIX = ".jsonl"
ARCHIVE_TIME_FORMAT = "%Y-%m-%dT%H-%M-%S"
ABANDONED_MARK = "abandoned"
TORN_NOTICE = "The last action was not completely saved (a power cut?) and was dropped."
PROBLEM_LIMIT = 80
JOURNAL_LIMIT = 1 << 20
"""A game takes a few kilobytes (a header of 600 bytes, under 40 bytes an action)."""
TAIL_LIMIT = 4096
"""The last line is looked for in this much of the end of the file."""
LOGGED_BYTES = 120


class JournalExistsError(StorageError):
    """A game is already in progress: archive it before starting another."""


class JournalChangedError(StorageError):
    """The journal on the card is not the file it last wrote or read: changed outside the
    companion. Nothing was written; `Journal.rewrite` puts the game back whole."""


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
    prefix: Game | None = None
    """For a journal moved aside: the game up to its first bad line, for the player to take
    back (`Journal.start(prefix)`); None if not even the header could be read."""
    actions_in_file: int = 0
    """For a journal moved aside: how many action lines it held, good or bad."""
    left_damaged: bool = False
    """A journal that could be neither replayed nor moved aside (a read-only card): left
    exactly as it was, and no game. A new game starts only once it can be moved aside
    (`move_damaged_aside`): `start` never writes over it."""


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
        self._torn_from: int | None = None
        """Where a torn last line starts that `load` could not drop (a read-only card):
        dropped before anything else is written (`_drop_torn_line`)."""
        self._last_seen: _SeenFile | None = None
        """The journal as this object last wrote or read it; None when it has no game
        of its own (not loaded or started yet, archived, moved aside)."""

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
        # A torn line `load` could not drop went with the journal (taken away by hand):
        # where it began means nothing in the new one.
        self._torn_from = None
        if isinstance(game_or_setup, Game):
            lines = log_lines(game_or_setup)
        else:
            lines = [header_line(game_or_setup)]
        try:
            self._write_whole(lines)
        except OSError as error:
            raise StorageError(
                f"{self.path}: cannot start the game ({reason_of(error)})", error
            ) from None

    def rewrite(self, game: Game) -> None:
        """Replace the journal, atomically, with `game`'s header and every action, as a
        `start` and an `append` for each would have written it: for a journal changed
        outside the companion (`JournalChangedError`), when the game in memory is the
        only whole record. Raises `StorageError` if it cannot be written; the file is
        then as it was."""
        self._torn_from = None  # the file it was in is replaced
        try:
            self._write_whole(log_lines(game))
        except OSError as error:
            raise StorageError(
                f"{self.path}: cannot write the game again ({reason_of(error)})", error
            ) from None

    def _write_whole(self, lines: list[str]) -> None:
        checked = with_checksums(lines)
        atomic_write_text(self.path, "".join(line + "\n" for line in checked))
        self._remember(line_checksum(checked[-1]))

    def append(self, action: Action) -> None:
        """Add one action; it is on disk (fsynced) when this returns.

        Pass the action as the game stored it (`game.move_stack[-1]` after
        `push`), so that an Automa turn carries its reshuffle. Raises
        `StorageError` if it cannot be saved; the journal is then left as it
        was, and the caller should `pop` the action from the game.
        """
        self._drop_torn_line()
        try:
            fd = open_regular_file(self.path, os.O_RDWR)
        except FileNotFoundError:
            if self._last_seen is not None:
                raise JournalChangedError(f"{self.path}: removed") from None
            raise StorageError(f"{self.path}: no game in progress to add the action to") from None
        except NotRegularFileError as error:
            raise StorageError(f"{self.path}: cannot save the action ({error})") from None
        except OSError as error:
            raise StorageError(
                f"{self.path}: cannot save the action ({reason_of(error)})", error
            ) from None
        try:
            status = os.fstat(fd)
            end = os.lseek(fd, 0, os.SEEK_END)
            tail = os.pread(fd, min(end, TAIL_LIMIT), end - min(end, TAIL_LIMIT))
            self._check_ends_cleanly(tail, self._change_since_last_seen(status))
            previous = line_checksum(_last_line(tail))
            self._check_unchanged(status, previous)
            text = action_line(action)
            checksum = None
            if previous is not None:  # a journal begun by an older companion has none
                text, checksum = with_checksum(text, previous)
            line = (text + "\n").encode("utf-8")
            try:
                write_all(fd, line)
                os.fsync(fd)
            except OSError as error:
                # Take back any part of the line that did get written, so the
                # next append does not follow a torn line in the middle.
                _truncate_quietly(fd, end)
                raise StorageError(
                    f"{self.path}: cannot save the action ({reason_of(error)})", error
                ) from None
            # The file as the line left it, known without asking: written at its end.
            self._last_seen = _SeenFile(status.st_dev, status.st_ino, end + len(line), checksum)
        finally:
            os.close(fd)

    def undo(self, count: int = 1) -> None:
        """Remove the last `count` actions' lines, durably, in one truncation: an undo of
        a person's action and the Automa's turns after it is all or nothing, even on a
        card that fails half-way. Works back to the start of the game.

        Raises `NothingToUndoError`, the file unchanged, when fewer than `count`
        actions are left.
        """
        self._drop_torn_line()
        try:
            status = os.lstat(self.path)
            # Before the checks of its ending below: a cut made outside is written again.
            changed = self._change_since_last_seen(status)
            if changed:
                raise JournalChangedError(changed)
            data, size = read_capped(self.path, JOURNAL_LIMIT)
        except JournalChangedError:
            raise
        except FileNotFoundError:
            if self._last_seen is not None:
                raise JournalChangedError(f"{self.path}: removed") from None
            raise StorageError(f"{self.path}: no game in progress to undo in") from None
        except OSError as error:
            raise StorageError(
                f"{self.path}: cannot be read to undo ({reason_of(error)})", error
            ) from None
        except ValueError as error:  # no longer a regular file
            raise StorageError(f"{self.path}: cannot be read to undo ({error})") from None
        if size > len(data):
            raise StorageError(f"{self.path}: too large to undo in; restart to repair it")
        if data and not data.endswith(b"\n"):
            raise StorageError(f"{self.path}: the last line is incomplete; restart to repair it")
        self._check_unchanged(status, line_checksum(_last_line(data)))
        end = len(data)
        for _ in range(count):
            last = _last_nonblank_start(data, end)
            if last is None or _last_nonblank_start(data, last) is None:
                raise NothingToUndoError("nothing to undo: the game is at its start")
            end = last
        self._truncate(end)
        self._remember(line_checksum(_last_line(data[:end])))

    def archive(self, finished: bool) -> Path:
        """Move the journal into `history/` and return its new path.

        Named by local time and mode, e.g. `2026-11-22T10-15-03-solo.jsonl`;
        a game given up for a new one (`finished=False`) is kept as
        `…-solo-abandoned.jsonl` and left out of the statistics. A second game
        in the same second gets `-2`, `-3`, … before the suffix.
        """
        if not self.exists():
            raise StorageError(f"{self.path}: no game in progress to archive")
        self._drop_torn_line()
        parts = [self._clock().strftime(ARCHIVE_TIME_FORMAT), self._mode_for_name()]
        if not finished:
            parts.append(ABANDONED_MARK)
        try:
            self._make_history_directory()
            target = unique_path(self.history_dir, "-".join(parts), LOG_SUFFIX)
            rename_durably(self.path, target)
        except OSError as error:
            raise StorageError(
                f"{self.path}: cannot be archived in {self.history_dir} ({reason_of(error)})",
                error,
            ) from None
        self._last_seen = None
        logger.info("archived the game as %s", target)
        return target

    # --- reading ----------------------------------------------------------------------

    def load(self) -> JournalLoad:
        """The game in progress, repaired or set aside if needed. Never raises: a
        file the card will not let it repair is left as it is (see the module's
        docstring)."""
        remove_stale_temp_files(self.path)
        self._last_seen = None
        try:
            data, size = read_capped(self.path, JOURNAL_LIMIT)
        except FileNotFoundError:
            return JournalLoad(None)
        except NotRegularFileError as error:
            return self._set_aside(str(error))
        except OSError as error:
            return self._set_aside(f"it cannot be read ({reason_of(error)})")
        too_large = None
        if size > len(data):
            # Replay what fits, up to the last whole line in it; the rest is damage.
            data = data[: data.rfind(b"\n") + 1]
            too_large = f"{size:,} bytes, more than the {JOURNAL_LIMIT:,} a game can take"
        keep, problem = _recoverable_prefix(data)
        if problem is not None:
            return self._set_aside(problem)
        try:
            replayed = replay_log(iter_lines(data, keep))
        except Exception as error:
            # An engine bug on an odd file must not stop the device from booting;
            # the file is kept for the bug report.
            logger.exception("replaying %s failed", self.path)
            return self._set_aside(f"replay failed ({error!r})")
        if replayed.error is not None or too_large:
            problem = str(replayed.error) if replayed.error else too_large
            return self._set_aside(problem, replayed.game, replayed.actions)  # type: ignore[arg-type]
        notice = None
        if keep < len(data):
            self._torn_from = keep
            try:
                self._drop_torn_line()
            except StorageError as error:
                logger.warning("%s; the torn line goes before the next write", error)
            if data[keep:].strip():
                notice = TORN_NOTICE
                logger.warning(
                    "dropped a torn last line from %s (%d bytes): %r",
                    self.path,
                    len(data) - keep,
                    data[keep : keep + LOGGED_BYTES],
                )
        self._remember(line_checksum(_last_line(data[:keep])))
        return JournalLoad(replayed.game, notice)

    # --- helpers ------------------------------------------------------------------------

    def _make_history_directory(self) -> None:
        """`history_dir` as a directory of its own: a symbolic link there (which would
        take the games out of the state directory) or a file is moved aside first."""
        try:
            mode: int | None = os.lstat(self.history_dir).st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None and not stat.S_ISDIR(mode):
            move_aside(self.history_dir, f"{self.history_dir.name}-damaged", "", self._clock())
            mode = None
        if mode is None:
            self.history_dir.mkdir(parents=True)
            fsync_directory(self.history_dir.parent)

    def _drop_torn_line(self) -> None:
        """Drop the torn last line `load` found, if the card refused it then. Nothing is
        written after it: an action appended behind a whole line of zeros, or an undo
        counting that line as an action, would damage the game."""
        if self._torn_from is not None:
            try:
                gone = self._change_since_last_seen(os.lstat(self.path)) is not None
            except FileNotFoundError:
                gone = True
            if gone:
                # The file it was in was removed or replaced outside: the offset means
                # nothing now, and the write's own check finds the change.
                self._torn_from = None
                return
            seen = self._last_seen
            self._truncate(self._torn_from)
            self._remember(seen.last_checksum if seen else None)
            self._torn_from = None

    def _change_since_last_seen(self, now: os.stat_result) -> str | None:
        """How the file is not the one last written or read (another file in its place,
        or shorter), None if it may be. Blank lines added after it change nothing."""
        seen = self._last_seen
        if seen is None:
            return None
        if (now.st_dev, now.st_ino) != (seen.device, seen.inode):
            return f"{self.path}: replaced by another file outside the companion"
        if now.st_size < seen.size:
            return (
                f"{self.path}: shortened outside the companion "
                f"({seen.size} bytes when last written, now {now.st_size})"
            )
        return None

    def _check_unchanged(self, now: os.stat_result, last_checksum: int | None) -> None:
        """`JournalChangedError` if the file is not the one last written or read, or its
        last line is not the one written last."""
        changed = self._change_since_last_seen(now)
        if changed is None and self._last_seen and last_checksum != self._last_seen.last_checksum:
            changed = f"{self.path}: its last line was changed outside the companion"
        if changed:
            raise JournalChangedError(changed)

    def _check_ends_cleanly(self, tail: bytes, changed: str | None) -> None:
        """Refuse to write after an empty file or an incomplete line (`tail`, the file's
        last bytes, does not end with a newline); as a
        `JournalChangedError` if that came from outside (`changed`), for the caller to
        write the game again rather than lose the lines before the tear at the next load."""
        error = JournalChangedError if changed else StorageError
        if not tail:
            raise error(f"{self.path}: the journal is empty; restart to repair it")
        if not tail.endswith(b"\n"):
            raise error(f"{self.path}: the last line is incomplete; restart to repair it")

    def _remember(self, last_checksum: int | None) -> None:
        """The file as it is now, its last line carrying `last_checksum`, is the journal's."""
        try:
            self._last_seen = _SeenFile.of(os.lstat(self.path), last_checksum)
        except OSError:
            self._last_seen = None  # gone since: the next write finds no game, as before

    def _truncate(self, length: int) -> None:
        try:
            fd = open_regular_file(self.path, os.O_RDWR)
            try:
                os.ftruncate(fd, length)
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as error:
            raise StorageError(
                f"{self.path}: cannot be shortened ({reason_of(error)})", error
            ) from None
        except NotRegularFileError as error:
            raise StorageError(f"{self.path}: cannot be shortened ({error})") from None

    def _set_aside(
        self, problem: str, prefix: Game | None = None, actions_in_file: int = 0
    ) -> JournalLoad:
        problem = one_line(problem, PROBLEM_LIMIT)
        try:
            kept = self._move_aside()
        except OSError as error:
            notice = (
                f"The saved game could not be read ({problem}) nor moved aside "
                f"({reason_of(error)}); it was left as it is."
            )
            logger.error("%s: %s", self.path, notice)
            return JournalLoad(None, notice, left_damaged=True)
        if prefix is not None and prefix.move_stack:
            notice = f"The saved game is damaged ({problem}); it was kept as {kept.name}."
            logger.warning("%s", notice)
            return JournalLoad(None, notice, kept, prefix, actions_in_file)
        notice = (
            f"The saved game could not be read ({problem}); "
            f"it was kept as {kept.name} and a new game can start."
        )
        logger.warning("%s", notice)
        return JournalLoad(None, notice, kept)

    def move_damaged_aside(self) -> Path | None:
        """Move aside the journal `load` left where it was (`JournalLoad.left_damaged`), for a
        new game to start in its place; `StorageError`, with the card's reason, if it still
        cannot be. None if it is gone since (taken away by hand): nothing is in the way."""
        try:
            return self._move_aside()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise StorageError(
                f"{self.path}: damaged, and still cannot be moved aside ({reason_of(error)})",
                error,
            ) from None

    def _move_aside(self) -> Path:
        self._last_seen = None
        return move_aside(self.path, f"{self.path.stem}-damaged", LOG_SUFFIX, self._clock())

    def _mode_for_name(self) -> str:
        """The header's mode, for the archive's name; the header was checked by `load`."""
        try:
            data, _ = read_capped(self.path, TAIL_LIMIT)
            mode = loads(data[: data.find(b"\n")].decode("utf-8")).get("mode")
        except (OSError, ValueError, AttributeError):
            mode = None
        return mode if mode in {m.value for m in Mode} else "game"


@dataclass(frozen=True, slots=True)
class _SeenFile:
    """The journal's file as last written or read: a file put in its place has another
    inode, one shortened a smaller size, one rewritten in place another last line."""

    device: int
    inode: int
    size: int
    last_checksum: int | None
    """The chained checksum of its last line (None in a journal without checksums)."""

    @classmethod
    def of(cls, status: os.stat_result, last_checksum: int | None) -> _SeenFile:
        return cls(status.st_dev, status.st_ino, status.st_size, last_checksum)


def _last_nonblank_start(data: bytes, end: int) -> int | None:
    """Where the last non-blank complete line before `end` starts (`end` at a line start)."""
    stop = end
    while stop > 0:
        start = data.rfind(b"\n", 0, stop - 1) + 1
        if data[start:stop].strip():
            return start
        stop = start
    return None


def _last_line(tail: bytes) -> bytes:
    """The last non-blank complete line in `tail` (which ends with a newline)."""
    start = _last_nonblank_start(tail, len(tail))
    return tail[start:] if start is not None else b""


def _recoverable_prefix(data: bytes) -> tuple[int, str | None]:
    """How much of the journal to replay, or the reason it cannot be.

    Only the very last line can have been cut short by a power cut (every
    earlier one was fsynced before the next was written), and the header is
    written atomically, so a tear anywhere else is damage, not a power cut.
    """
    complete_end = data.rfind(b"\n") + 1
    last = _last_nonblank_start(data, complete_end)
    if data[complete_end:].strip():
        if last is None:
            return 0, "line 1: the header line is incomplete"
        return complete_end, None
    # A write cut short can also leave a whole line of garbage (zeroed blocks);
    # a JSON object is never torn: if it is wrong, it is damage.
    if (
        last is not None
        and _last_nonblank_start(data, last) is not None
        and not _is_json_object(data[last:complete_end])
    ):
        return last, None
    return complete_end, None


def _is_json_object(raw: bytes) -> bool:
    try:
        return isinstance(loads(raw.decode("utf-8")), dict)
    except ValueError:  # UnicodeDecodeError and JSONDecodeError are both ValueErrors
        return False


def _truncate_quietly(fd: int, length: int) -> None:
    try:
        os.ftruncate(fd, length)
        os.fsync(fd)
    except OSError:
        logger.exception("could not take back a partly written journal line")
