"""Which state directory is used, and what happens when it cannot be."""

from __future__ import annotations

import errno
import logging
import os
import tempfile

import pytest

from companion.storage.files import StorageError
from companion.storage.paths import resolve_state_dir, write_problem


@pytest.fixture
def env(monkeypatch, tmp_path):
    """A clean environment with HOME in tmp_path."""
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return monkeypatch


def test_explicit_wins_over_everything(env, tmp_path):
    env.setenv("STATE_DIRECTORY", str(tmp_path / "systemd"))
    env.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert resolve_state_dir(tmp_path / "mine") == tmp_path / "mine"
    assert (tmp_path / "mine").is_dir()
    assert not (tmp_path / "systemd").exists()


def test_systemd_state_directory_first_of_several(env, tmp_path):
    env.setenv("STATE_DIRECTORY", f"{tmp_path / 'one'}:{tmp_path / 'two'}")
    env.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert resolve_state_dir(None) == tmp_path / "one"


def test_xdg_state_home(env, tmp_path):
    env.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    assert resolve_state_dir(None) == tmp_path / "xdg" / "patchwork-companion"
    assert (tmp_path / "xdg" / "patchwork-companion").is_dir()


def test_home_fallback(env, tmp_path):
    expected = tmp_path / "home" / ".local" / "state" / "patchwork-companion"
    assert resolve_state_dir(None) == expected
    assert expected.is_dir()


def test_empty_and_relative_variables_are_ignored(env, tmp_path):
    env.setenv("STATE_DIRECTORY", "")
    env.setenv("XDG_STATE_HOME", "relative/state")
    expected = tmp_path / "home" / ".local" / "state" / "patchwork-companion"
    assert resolve_state_dir(None) == expected


def test_a_file_in_the_way(env, tmp_path):
    (tmp_path / "blocker").write_text("")
    with pytest.raises(StorageError) as caught:
        resolve_state_dir(tmp_path / "blocker" / "state")
    message = str(caught.value)
    assert str(tmp_path / "blocker" / "state") in message
    assert "cannot be created" in message and "\n" not in message


def test_a_file_where_the_directory_should_be(env, tmp_path):
    (tmp_path / "state").write_text("")
    with pytest.raises(StorageError, match="exists but is not a directory"):
        resolve_state_dir(tmp_path / "state")


def test_a_directory_that_cannot_be_written(env, tmp_path, monkeypatch, caplog):
    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    directory = resolve_state_dir(tmp_path / "state")  # still usable for reading
    with caplog.at_level(logging.ERROR):
        assert write_problem(directory).errno == errno.EROFS
    assert caplog.messages == [
        f"state directory {tmp_path / 'state'}: cannot be written (Read-only file system)"
    ]


def test_the_write_check_catches_a_full_disk(env, tmp_path, monkeypatch):
    # An empty file fits on a full disk; the check writes and syncs a whole block.
    real_write = os.write

    def full_disk(fd, data):
        if len(data) > 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full_disk)
    assert write_problem(tmp_path).errno == errno.ENOSPC
    monkeypatch.undo()
    assert write_problem(tmp_path) is None
