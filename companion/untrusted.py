"""Reading what anyone could have written: files and JSON, with bounds and one-line errors.

A state file, a profile or a game log may have been replaced by a symbolic
link, a FIFO or a device, or grown to any size: `open_regular_file` and
`read_capped` refuse anything but a regular file without reading from it or
writing through it, and never hold more than a given number of bytes.

`json.loads` raises `RecursionError` on a line of 100,000 `[` and a bare
`ValueError` (with a hint about `sys.set_int_max_str_digits`) on a 5,000-digit
number; both would reach the player as a traceback. Every JSON the companion
reads (game logs, settings, progress) goes through `loads`, which refuses both
with a `JsonLimitError` that names the problem in a few words.

>>> loads('{"a": [1, 2]}')
{'a': [1, 2]}
>>> loads("[" * 100)
Traceback (most recent call last):
...
companion.untrusted.JsonLimitError: nested deeper than 20 levels
>>> loads("1" * 30)
Traceback (most recent call last):
...
companion.untrusted.JsonLimitError: a number of 30 digits (at most 20)
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MAX_DEPTH = 20
"""The companion's own files nest 3 levels at most."""
MAX_DIGITS = 20
"""Enough for any 64-bit integer (seeds are below 2**32)."""
SHORT_REPR = 40


class UnusableFileError(ValueError):
    """A file that is there but cannot be used as it is; the message says why, without its name."""


class NotRegularFileError(UnusableFileError):
    """A symbolic link, FIFO, device or directory where a state file should be.

    Never followed nor read: a link could lead writes outside the state
    directory, and a FIFO or a device could be read for ever.
    """


class JsonLimitError(ValueError):
    """Valid JSON, perhaps, but nested too deep or with too long a number for the companion."""


def loads(text: str) -> Any:
    """`json.loads(text)` with the limits above. Raises `json.JSONDecodeError` for bad JSON
    and `JsonLimitError` for JSON beyond the limits (both are `ValueError`s)."""
    if _depth_exceeds(text, MAX_DEPTH):
        raise JsonLimitError(f"nested deeper than {MAX_DEPTH} levels")
    return json.loads(text, parse_int=_bounded_int, parse_float=_bounded_float)


def short_repr(value: Any, limit: int = SHORT_REPR) -> str:
    """`repr(value)` cut to `limit` characters, for messages about values read from a file.

    >>> short_repr("x" * 100, 12)
    "'xxxxxxxxxx…"
    """
    text = repr(value) if not isinstance(value, (list, dict)) else _kind(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _kind(value: list | dict) -> str:
    return f"a list of {len(value)}" if isinstance(value, list) else f"an object of {len(value)}"


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise JsonLimitError(f"a number of {len(digits.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(digits)


def _bounded_float(text: str) -> float:
    if len(text) > 2 * MAX_DIGITS:
        raise JsonLimitError(f"a number of {len(text)} characters (at most {2 * MAX_DIGITS})")
    return float(text)


def _depth_exceeds(text: str, limit: int) -> bool:
    if text.count("[") + text.count("{") <= limit:
        return False  # the usual case: too few brackets to be that deep
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def open_regular_file(path: Path, flags: int = os.O_RDONLY) -> int:
    """`os.open(path, flags)`, refusing anything but a regular file, and never following a link.

    Raises `NotRegularFileError` for a symbolic link, FIFO, socket, device or
    directory (nothing is read from or written through it), OSError as raised.
    """
    path = Path(path)
    kind = _special_kind(os.lstat(path).st_mode)
    if kind is not None:
        raise NotRegularFileError(f"{kind}, not a regular file")
    try:
        # O_NONBLOCK: a FIFO swapped in after the lstat opens at once instead of waiting.
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENXIO):
            raise NotRegularFileError("a symbolic link or FIFO, not a regular file") from None
        raise
    kind = _special_kind(os.fstat(fd).st_mode)
    if kind is not None:
        os.close(fd)
        raise NotRegularFileError(f"{kind}, not a regular file")
    return fd


def iter_lines(data: bytes, end: int | None = None) -> Iterator[bytes]:
    """Each line of `data[:end]` without its newline, one at a time (no list of a million
    blank lines); a last line without a newline is left out."""
    start = 0
    stop_at = len(data) if end is None else end
    while (stop := data.find(b"\n", start, stop_at)) != -1:
        yield data[start:stop]
        start = stop + 1


def read_capped(path: Path, limit: int) -> tuple[bytes, int]:
    """The first `limit` bytes of the regular file `path`, and its whole size.

    Memory stays within `limit` whatever the file holds; see `open_regular_file`
    for what is refused.
    """
    fd = open_regular_file(path)
    try:
        size = os.fstat(fd).st_size
        chunks = []
        wanted = min(size, limit)
        while wanted > 0 and (chunk := os.read(fd, min(wanted, 1 << 20))):
            chunks.append(chunk)
            wanted -= len(chunk)
        return b"".join(chunks), size
    finally:
        os.close(fd)


def _special_kind(mode: int) -> str | None:
    """What a file that is not a regular file is, in a few words; None for a regular file."""
    kinds = [
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISDIR, "a directory"),
    ]
    return next(
        (kind for test, kind in kinds if test(mode)),
        None if stat.S_ISREG(mode) else "an unknown kind of file",
    )
