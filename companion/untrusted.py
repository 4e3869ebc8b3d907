"""Files anyone could have written: regular files only, never through a link, bounded in size.

A state file, a profile, a script or a game log may have been replaced by a
symbolic link, a FIFO or a device, or grown to any size: `open_regular_file`
and `read_capped` refuse anything but a regular file without reading from it
or writing through it, and never hold more than a given number of bytes.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path


class UnusableFileError(ValueError):
    """A file that is there but cannot be used as it is; the message says why, without its name."""


class NotRegularFileError(UnusableFileError):
    """A symbolic link, FIFO, device or directory where a state file should be.

    Never followed nor read: a link could lead writes outside the state
    directory, and a FIFO or a device could be read for ever.
    """


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
    for what is refused. The content, not the size the file system gives, is
    what counts: a /proc file's size reads 0 whatever it holds, so it is read to
    its end (or `limit`) like any other. The size is then what was read, or, for
    a file with more than `limit` bytes, its given size or at least `limit` + 1.
    """
    fd = open_regular_file(path)
    try:
        given = os.fstat(fd).st_size
        chunks, wanted = [], limit
        while wanted > 0 and (chunk := os.read(fd, min(wanted, 1 << 20))):
            chunks.append(chunk)
            wanted -= len(chunk)
        data = b"".join(chunks)
        if wanted > 0 or not os.read(fd, 1):  # the end came within the limit
            return data, len(data)
        return data, max(given, limit + 1)
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
