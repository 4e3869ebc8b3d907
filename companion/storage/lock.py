"""One companion per state directory: an exclusive `flock` on the directory itself.

Two processes appending to one journal interleave their lines, and the next
start has to set the game aside. The lock is taken on the directory (not on
a file in it), so it works on a read-only or full card too, and the kernel
drops it when the process dies, however it dies: there is never a stale lock
to clean up. The holder's PID is written to `companion.pid` beside it, only
so that a second instance can say who holds it.
"""

from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path

from companion.storage.files import atomic_write_text, reason_of
from companion.untrusted import UnusableFileError, read_capped

logger = logging.getLogger(__name__)

PID_NAME = "companion.pid"
PID_LIMIT = 32


class StateDirBusyError(RuntimeError):
    """Another process holds the state directory; the message is one line naming it and the PID."""


class StateDirLock:
    """Hold the state directory for this process until `release` (or exit).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as directory:
    ...     with StateDirLock(Path(directory)):
    ...         StateDirLock(Path(directory))
    Traceback (most recent call last):
    ...
    companion.storage.lock.StateDirBusyError: state directory ... is in use by process ...
    """

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self._fd: int | None = os.open(self.directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self._fd)
            self._fd = None
            raise StateDirBusyError(
                f"state directory {self.directory} is in use by {self._holder()}"
            ) from None
        try:
            atomic_write_text(self.directory / PID_NAME, f"{os.getpid()}\n")
        except OSError as error:
            # A full or read-only card: the lock still holds, only the PID is unknown.
            logger.warning("cannot record the PID in %s: %s", self.directory, reason_of(error))

    def _holder(self) -> str:
        try:
            data, _ = read_capped(self.directory / PID_NAME, PID_LIMIT)
            return f"process {int(data.decode('ascii').strip())}"
        except (OSError, UnusableFileError, ValueError):
            return "another process (its PID is not recorded)"

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the last descriptor drops the flock
            self._fd = None

    def __enter__(self) -> StateDirLock:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()
