"""Durable file operations shared by everything the companion keeps on disk.

Writing a file in place can leave it half written if the power goes; every
whole-file write here goes to a temporary file in the same directory, is
fsynced, and replaces the old file with one atomic `os.replace`, after which
the directory itself is fsynced so the new name survives a power cut too.
"""

from __future__ import annotations

import codecs
import logging
import os
import tempfile
from collections.abc import Callable
from datetime import datetime
from json import JSONDecodeError
from pathlib import Path
from typing import Any, TypeVar

from companion.engine.json_limits import loads
from companion.untrusted import UnusableFileError, read_capped

logger = logging.getLogger(__name__)

T = TypeVar("T")

TEMP_SUFFIX = ".tmp"
DAMAGED_TIME_FORMAT = "%Y%m%d-%H%M%S"
ONE_LINE_LIMIT = 120
SMALL_FILE_LIMIT = 64 * 1024
"""settings.json and progress.json hold a few hundred bytes; anything near this is not ours."""


class StorageError(OSError):
    """A file or directory the companion needs cannot be used; one line for the log.

    `cause`, the system's failure behind it, gives its `errno`: the screen says why from
    that, in the player's language.
    """

    def __init__(self, message: str, cause: OSError | None = None) -> None:
        super().__init__(message)
        if cause is not None:
            self.errno = cause.errno


def reason_of(error: OSError) -> str:
    """Why a system call failed, in a few English words for the log ("No space left on
    device")."""
    return error.strerror or str(error)


class BadJsonError(UnusableFileError):
    """A file that is not UTF-8 JSON within the limits of `companion.untrusted`."""


def one_line(text: str, limit: int = ONE_LINE_LIMIT) -> str:
    """`text` squeezed onto one line and cut to `limit` characters, for a small screen."""
    squeezed = " ".join(text.split())
    return squeezed if len(squeezed) <= limit else squeezed[: limit - 1].rstrip() + "…"


def fsync_directory(directory: Path) -> None:
    """Make a new, renamed or removed name in `directory` survive a power cut."""
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_text(path: Path, text: str, durable_name: bool = True) -> None:
    """Replace `path` with `text` (UTF-8) so that a power cut leaves the old or the new file.

    A crash before `os.replace` leaves the old file untouched and a stray
    temporary file (`.NAME.*.tmp`, see `remove_stale_temp_files`); after it,
    the new file is complete because it was fsynced first. With
    `durable_name=False` the directory is not fsynced: after a power cut the
    name may still be the old file's, which a caller can accept to save one
    fsync. `path` itself is never opened: a symbolic link there is replaced,
    not followed.
    """
    path = Path(path)
    fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    temp = Path(temp_name)
    try:
        try:
            write_all(fd, text.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    if durable_name:
        fsync_directory(path.parent)


def write_all(fd: int, data: bytes) -> None:
    """`os.write` until all of `data` is written (a write may take only part of it)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def temp_files_of(path: Path) -> list[Path]:
    """The temporary files of `atomic_write_text(path, …)` in `path`'s folder: any left
    there by a write cut short (`.NAME.<random>.tmp`, as `tempfile.mkstemp` names them).

    An empty list if the folder is missing or cannot be read (nothing to remove there)."""
    prefix = f".{path.name}."
    try:
        names = os.listdir(path.parent)
    except OSError:
        return []
    # Matched by hand, not by a glob and a regex, which would be compiled at every start.
    return [
        path.parent / name
        for name in names
        if name.startswith(prefix)
        and name.endswith(TEMP_SUFFIX)
        and len(name) >= len(prefix) + len(TEMP_SUFFIX)
    ]


def remove_stale_temp_files(path: Path) -> None:
    """Remove temporary files left by an `atomic_write_text(path, …)` cut short.

    They never hold the only copy of anything: until the rename, the old file
    is the real one.
    """
    for candidate in temp_files_of(Path(path)):
        logger.info("removing %s, left by a write cut short", candidate)
        try:
            candidate.unlink(missing_ok=True)
        except OSError as error:  # a read-only card, or a directory of that name
            # Left where it is, harmless: a start must not stop on it.
            logger.warning("cannot remove %s: %s", candidate, reason_of(error))


def read_json_file(path: Path, limit: int = SMALL_FILE_LIMIT) -> Any:
    """The JSON value in `path`. OSError (e.g. FileNotFoundError) as raised; an
    `UnusableFileError` if it is not a regular file, larger than `limit`, not
    UTF-8, not valid JSON or beyond `companion.untrusted`'s limits."""
    data, size = read_capped(path, limit)
    if size > limit:
        raise BadJsonError(f"{size:,} bytes, more than the {limit:,} such a file can hold")
    try:
        # A byte order mark, as Windows' Notepad writes at the start, is not damage. Taken
        # off by hand: the "utf-8-sig" codec is a module of its own to import at start.
        text = data.removeprefix(codecs.BOM_UTF8).decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadJsonError(f"not UTF-8 text (byte {error.start})") from None
    try:
        return loads(text)
    except JSONDecodeError as error:
        raise BadJsonError(
            f"not valid JSON ({error.msg} at line {error.lineno} column {error.colno})"
        ) from None
    except ValueError as error:
        raise BadJsonError(f"not usable JSON ({error})") from None


def load_state_json(
    path: Path, parse: Callable[[Any], T], damaged_stem: str, fallback: str
) -> tuple[T | None, str | None]:
    """`parse` of the JSON in `path`, and None; or None and one line saying why.

    A missing file is (None, None). A file that is not usable (not a regular
    file, too large, not JSON, or refused by `parse` with a ValueError) is
    moved aside as `damaged_stem-<time>.<suffix>` so nothing in it is lost;
    the line names the file, the problem, `fallback` (what the companion
    does instead) and where the file was kept.
    """
    path = Path(path)
    remove_stale_temp_files(path)
    try:
        return parse(read_json_file(path)), None
    except FileNotFoundError:
        return None, None
    except OSError as error:
        message = f"{path.name}: cannot be read ({reason_of(error)}); {fallback}"
        logger.warning("%s", message)
        return None, message
    except ValueError as error:  # UnusableFileError, and the parser's own refusals
        problem = str(error)
    if not problem.startswith(f"{path.name}:"):
        problem = f"{path.name}: {problem}"
    try:
        kept = move_aside(path, damaged_stem, path.suffix, datetime.now())
        where = f"kept as {kept.name}"
    except OSError as error:
        where = f"could not be moved aside: {reason_of(error)}"
    message = one_line(f"{problem}; {fallback} ({where})", limit=200)
    logger.warning("%s", message)
    return None, message


def unique_path(directory: Path, stem: str, suffix: str) -> Path:
    """`directory/stem+suffix`, or with `-2`, `-3`, … before the suffix if that is taken.

    The companion is the only writer of its state directory, so checking for
    the name is enough; no other process can take it in between.
    """
    candidate = directory / f"{stem}{suffix}"
    number = 2
    while candidate.exists() or candidate.is_symlink():
        candidate = directory / f"{stem}-{number}{suffix}"
        number += 1
    return candidate


def rename_durably(source: Path, target: Path) -> None:
    """Move `source` to `target` (same file system) and fsync both directories."""
    os.replace(source, target)
    fsync_directory(target.parent)
    if source.parent.resolve() != target.parent.resolve():
        fsync_directory(source.parent)


def move_aside(path: Path, damaged_stem: str, suffix: str, when: datetime) -> Path:
    """Keep a file that cannot be used under a new name beside it, and return that name.

    For example `journal.jsonl` becomes `journal-damaged-20261122-101503.jsonl`:
    the bytes are kept exactly, for the player (or a bug report) to look at.
    """
    path = Path(path)
    stem = f"{damaged_stem}-{when.strftime(DAMAGED_TIME_FORMAT)}"
    target = unique_path(path.parent, stem, suffix)
    rename_durably(path, target)
    logger.warning("moved %s aside to %s", path, target)
    return target
