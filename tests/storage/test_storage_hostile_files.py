"""Files as an attacker, a worn card or a hand-edit over SSH leaves them: the settings,
and any file read through `companion.untrusted` (a game log, a script).

Each case once stopped the start (an exception at boot), read without bound,
or wrote outside the state directory.
"""

from __future__ import annotations

import os
import threading
import tracemalloc
from pathlib import Path

import pytest

import companion.untrusted as untrusted
from companion.storage.settings import Settings, load_settings
from companion.untrusted import NotRegularFileError, read_capped

DEEP = "[" * 100_000
HUGE = "1" * 5_000


def aside(directory: Path, stem: str) -> list[Path]:
    return sorted(directory.glob(f"{stem}-damaged-*"))


# --- settings.json ------------------------------------------------------------------------


@pytest.mark.parametrize("content", ['{"contrast": ' + HUGE + "}", DEEP, '{"a": ' * 50_000])
def test_settings_with_huge_numbers_or_deep_nesting_fall_back_to_the_defaults(tmp_path, content):
    path = tmp_path / "settings.json"
    path.write_text(content)
    settings, notice = load_settings(path)
    assert settings == Settings()
    assert notice is not None and "\n" not in notice
    assert aside(tmp_path, "settings")[0].read_text() == content


def test_an_oversized_settings_file_is_not_read_whole(tmp_path):
    path = tmp_path / "settings.json"
    path.write_bytes(b" " * (8 << 20) + b"{}")
    tracemalloc.start()
    settings, notice = load_settings(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert settings == Settings() and "bytes, more than" in notice
    assert peak < 1 << 20


def test_read_capped_refuses_links_and_devices(tmp_path):
    (tmp_path / "link").symlink_to("/dev/zero")
    for path in (tmp_path / "link", Path("/dev/zero")):
        with pytest.raises(NotRegularFileError):
            read_capped(path, 10)


def test_read_capped_reads_a_file_whose_size_reads_0():
    # A /proc file's size reads 0 whatever it holds: it was taken for an empty file.
    path = Path("/proc/self/status")
    assert os.stat(path).st_size == 0
    data, size = read_capped(path, 1 << 20)
    assert data.startswith(b"Name:\t") and data.endswith(b"\n") and size == len(data)
    data, size = read_capped(path, 5)
    assert data == b"Name:" and size > 5  # more there than the limit: too large


@pytest.mark.parametrize(("length", "whole"), [(9, True), (10, True), (11, False)])
def test_read_capped_tells_a_file_within_its_limit_from_a_larger_one(tmp_path, length, whole):
    (tmp_path / "file").write_bytes(b"x" * length)
    data, size = read_capped(tmp_path / "file", 10)
    assert data == b"x" * min(length, 10) and size == length
    assert (size <= len(data)) is whole


# A link or FIFO put in place between the look at the name (lstat) and the open: each
# layer of `open_regular_file` must hold by itself. `lstat` is made to see the regular
# file that was there a moment before.


@pytest.fixture
def swapped_after_the_look(tmp_path, monkeypatch):
    regular = tmp_path / "was-regular"
    regular.write_text("{}")
    monkeypatch.setattr(untrusted.os, "lstat", lambda path: os.stat(regular))


def test_a_link_swapped_in_after_the_look_is_not_followed(tmp_path, swapped_after_the_look):
    outside = tmp_path / "outside.json"
    outside.write_text('{"contrast": 7}')
    (tmp_path / "settings.json").symlink_to(outside)
    with pytest.raises(NotRegularFileError):
        read_capped(tmp_path / "settings.json", 100)


def test_a_fifo_swapped_in_after_the_look_is_refused_without_waiting(
    tmp_path, swapped_after_the_look
):
    path = tmp_path / "game.jsonl"
    os.mkfifo(path)
    outcome = []

    def read():
        try:
            read_capped(path, 100)
            outcome.append("read")
        except NotRegularFileError:
            outcome.append("refused")

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(5)
    if reader.is_alive():  # waiting for a writer: give it one, so the thread ends
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(5)
        pytest.fail("the open of a FIFO waited for a writer")
    assert outcome == ["refused"]


def test_a_fifo_or_device_is_never_even_opened(tmp_path, monkeypatch):
    # Opening a device can act (a serial port's DTR resets a microcontroller).
    fifo = tmp_path / "settings.json"
    os.mkfifo(fifo)
    opened = []
    real_open = os.open
    monkeypatch.setattr(
        untrusted.os, "open", lambda path, *args: opened.append(path) or real_open(path, *args)
    )
    for path in (fifo, Path("/dev/null")):
        with pytest.raises(NotRegularFileError):
            read_capped(path, 10)
    assert opened == []
