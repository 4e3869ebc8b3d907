"""Where the companion keeps its state (the store and the settings)."""

from __future__ import annotations

import errno
import logging
import os
import tempfile
from pathlib import Path

from companion.storage.files import StorageError, reason_of

logger = logging.getLogger(__name__)

APP_DIRECTORY = "patchwork-companion"
WRITE_CHECK_BYTES = 4096
"""One block: on a full file system even this much cannot be written."""


def resolve_state_dir(explicit: Path | None = None) -> Path:
    """The state directory, created if missing.

    In order of precedence: `explicit` (a command-line option); the first of
    the colon-separated paths in `$STATE_DIRECTORY` (set by systemd's
    `StateDirectory=`); `$XDG_STATE_HOME/patchwork-companion`;
    `~/.local/state/patchwork-companion`. Raises `StorageError` with one line
    naming the directory and the problem if it cannot be created. Whether it
    can be written is `write_problem`'s question: a full or read-only card
    must not stop the device, which can still show the game and say why
    nothing is saved.
    """
    directory = _choose_state_dir(explicit)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise StorageError(f"state directory {directory}: exists but is not a directory") from None
    except OSError as error:
        raise StorageError(
            f"state directory {directory}: cannot be created ({reason_of(error)})"
        ) from None
    if not directory.is_dir():
        raise StorageError(f"state directory {directory}: exists but is not a directory")
    logger.debug("state directory: %s", directory)
    return directory


def write_problem(directory: Path) -> OSError | None:
    """None if a block can be written to `directory` and fsynced; else the error, logged in
    one line (the screen says why in the player's words, from its errno).

    os.access answers for root as if everything were writable and ignores
    read-only mounts, and an empty file fits on a full disk: writing and
    syncing a whole block is the honest test.
    """
    try:
        fd, name = tempfile.mkstemp(prefix=".write-check.", dir=directory)
        try:
            os.unlink(name)
            if os.write(fd, b"\0" * WRITE_CHECK_BYTES) < WRITE_CHECK_BYTES:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as error:
        logger.error("state directory %s: cannot be written (%s)", directory, reason_of(error))
        return error
    return None


def existing_state_dir(explicit: Path | None = None) -> Path:
    """The state directory `resolve_state_dir` would use, without creating it: for a
    command that only reads. `StorageError` (one line) if it is not a directory."""
    directory = _choose_state_dir(explicit)
    if not directory.is_dir():
        raise StorageError(f"state directory {directory}: no such directory")
    return directory


def _choose_state_dir(explicit: Path | None) -> Path:
    if explicit is not None:
        return Path(explicit).expanduser()
    systemd = [part for part in os.environ.get("STATE_DIRECTORY", "").split(":") if part]
    if systemd:
        return Path(systemd[0])
    xdg = os.environ.get("XDG_STATE_HOME", "")
    # The XDG spec says a relative value is invalid and must be ignored.
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / APP_DIRECTORY
    return Path.home() / ".local" / "state" / APP_DIRECTORY
