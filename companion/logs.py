"""How the commands log: one bounded line per record, and a log file that stays in its directory.

A record can carry text read from a file (a damaged game log, a bad value
in a log): however long that is, a log line stays under `LINE_LIMIT`
characters, so neither journald nor a log file fills up with one record.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from companion.untrusted import open_regular_file

LINE_LIMIT = 300
FORMAT = "%(levelname)s %(name)s: %(message)s"
FILE_FORMAT = "%(asctime)s " + FORMAT


class BoundedFormatter(logging.Formatter):
    """A formatter whose lines (tracebacks included) are cut to `LINE_LIMIT` characters.

    >>> record = logging.makeLogRecord({"msg": "x" * 1000, "levelname": "INFO", "name": "a"})
    >>> len(BoundedFormatter(FORMAT).format(record))
    300
    """

    def format(self, record: logging.LogRecord) -> str:
        lines = super().format(record).splitlines() or [""]
        return "\n".join(_bounded(line) for line in lines)


def _bounded(line: str) -> str:
    return line if len(line) <= LINE_LIMIT else line[: LINE_LIMIT - 1] + "…"


class QuietStreamHandler(logging.StreamHandler):
    """A handler that drops a record it cannot write (a full card) instead of printing a
    traceback about it over the screen; the companion goes on either way."""

    def handleError(self, record: logging.LogRecord) -> None:
        pass


def log_to_stderr(level: int = logging.INFO) -> None:
    """The daemon's logging: to stderr, which systemd gives to the journal."""
    handler = logging.StreamHandler()
    handler.setFormatter(BoundedFormatter(FORMAT))
    logging.basicConfig(level=level, handlers=[handler])


def log_to_file(path: Path, level: int = logging.INFO) -> None:
    """Log to `path`, appending. A link, FIFO or device in its place raises
    `NotRegularFileError`: it is never written through."""
    try:
        fd = open_regular_file(path, os.O_WRONLY | os.O_APPEND)
    except FileNotFoundError:
        created = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        fd = os.open(path, created, 0o644)
    stream = open(fd, "a", encoding="utf-8", errors="replace")  # noqa: SIM115 (the handler owns it)
    handler = QuietStreamHandler(stream)
    handler.setFormatter(BoundedFormatter(FILE_FORMAT))
    logging.basicConfig(level=level, handlers=[handler])
