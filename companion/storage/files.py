"""Files beside the store: the settings written atomically, files that cannot be read
moved aside, and the one-line errors every storage failure is told in."""

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
SMALL_FILE_LIMIT = 64 * 1024
"""settings.json holds a few hundred bytes; anything near this is not ours."""


class StorageError(OSError):
    """A file the companion needs cannot be used; one line for the log. Its `errno`, the
    system's failure behind it, says why on the screen in the player's language."""

    def __init__(self, message: str, cause: OSError | None = None) -> None:
        super().__init__(message)
        if cause is not None:
            self.errno = cause.errno


class BadJsonError(UnusableFileError):
    """A file that is not UTF-8 JSON within the limits of `companion.untrusted`."""


def reason_of(error: OSError) -> str:
    """Why a system call failed, in a few English words for the log."""
    return error.strerror or str(error)


def one_line(text: str, limit: int = 120) -> str:
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


def atomic_write_text(path: Path, text: str) -> None:
    """Replace `path` with `text` (UTF-8) so that a power cut leaves the old or the new file:
    a temporary file beside it (`.NAME.*.tmp`), fsynced, renamed over it, the directory
    fsynced. A symbolic link at `path` is replaced, not followed."""
    path = Path(path)
    fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        with open(fd, "wb") as temp:
            temp.write(text.encode("utf-8"))
            temp.flush()
            os.fsync(temp.fileno())
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
    fsync_directory(path.parent)


def remove_stale_temp_files(path: Path) -> None:
    """Remove temporary files an `atomic_write_text(path, …)` cut short left: never the only
    copy of anything, since until the rename the old file is the real one."""
    prefix = f".{path.name}."
    try:
        names = os.listdir(path.parent)
    except OSError:
        return
    for name in names:
        stale = len(name) >= len(prefix) + len(TEMP_SUFFIX)  # `.a.txt.tmp` is not one
        if stale and name.startswith(prefix) and name.endswith(TEMP_SUFFIX):
            logger.info("removing %s, left by a write cut short", name)
            try:
                (path.parent / name).unlink(missing_ok=True)
            except OSError as error:  # a read-only card: harmless where it is
                logger.warning("cannot remove %s: %s", name, reason_of(error))


def read_json_file(path: Path, limit: int = SMALL_FILE_LIMIT) -> Any:
    """The JSON value in `path`. OSError as raised; `UnusableFileError` if it is not a regular
    file, larger than `limit`, not UTF-8, not valid JSON or beyond `companion.untrusted`'s
    limits."""
    data, size = read_capped(path, limit)
    if size > limit:
        raise BadJsonError(f"{size:,} bytes, more than the {limit:,} such a file can hold")
    try:
        # A byte order mark, as Windows' Notepad writes, is not damage.
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

    A missing file is (None, None). A file that is not usable (or that `parse` refuses
    with a ValueError) is moved aside as `damaged_stem-<time>.<suffix>`; the line names
    the file, the problem, `fallback` (what the companion does instead) and where the
    file was kept.
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
        where = f"kept as {move_aside(path, damaged_stem, path.suffix, datetime.now()).name}"
    except OSError as error:
        where = f"could not be moved aside: {reason_of(error)}"
    message = one_line(f"{problem}; {fallback} ({where})", limit=200)
    logger.warning("%s", message)
    return None, message


def unique_path(directory: Path, stem: str, suffix: str) -> Path:
    """`directory/stem+suffix`, or with `-2`, `-3`, … before the suffix if that is taken."""
    candidate = directory / f"{stem}{suffix}"
    number = 2
    while candidate.exists() or candidate.is_symlink():
        candidate = directory / f"{stem}-{number}{suffix}"
        number += 1
    return candidate


def move_aside(path: Path, damaged_stem: str, suffix: str, when: datetime) -> Path:
    """Keep a file that cannot be used under a new name beside it (e.g. settings.json as
    `settings-damaged-20261122-101503.json`), durably, and return that name."""
    path = Path(path)
    stem = f"{damaged_stem}-{when.strftime(DAMAGED_TIME_FORMAT)}"
    target = unique_path(path.parent, stem, suffix)
    os.replace(path, target)
    fsync_directory(target.parent)
    logger.warning("moved %s aside to %s", path, target)
    return target
