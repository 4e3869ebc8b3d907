"""Where the companion keeps its state (the journal, history and settings)."""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

from companion.storage.files import StorageError

logger = logging.getLogger(__name__)

APP_DIRECTORY = "patchwork-companion"


def resolve_state_dir(explicit: Path | None = None) -> Path:
    """The state directory, created if missing and checked to be writable.

    In order of precedence: `explicit` (a command-line option); the first of
    the colon-separated paths in `$STATE_DIRECTORY` (set by systemd's
    `StateDirectory=`); `$XDG_STATE_HOME/patchwork-companion`;
    `~/.local/state/patchwork-companion`. Raises `StorageError` with one line
    naming the directory and the problem if it cannot be created or written.
    """
    directory = _choose_state_dir(explicit)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise StorageError(f"state directory {directory}: exists but is not a directory") from None
    except OSError as error:
        raise StorageError(
            f"state directory {directory}: cannot be created ({_reason(error)})"
        ) from None
    try:
        # os.access answers for root as if everything were writable and ignores
        # read-only mounts; creating a file is the only honest test.
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as error:
        raise StorageError(
            f"state directory {directory}: cannot be written ({_reason(error)})"
        ) from None
    logger.debug("state directory: %s", directory)
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


def _reason(error: OSError) -> str:
    return error.strerror or str(error)
