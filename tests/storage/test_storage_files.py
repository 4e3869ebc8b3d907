"""Atomic writes, unique names, moving aside."""

from __future__ import annotations

import os
from datetime import datetime

import pytest

from companion.storage.files import (
    BadJsonError,
    atomic_write_text,
    move_aside,
    one_line,
    read_json_file,
    remove_stale_temp_files,
    unique_path,
)


def test_atomic_write_replaces_the_file_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("old")
    atomic_write_text(path, "new ✓")
    assert path.read_text(encoding="utf-8") == "new ✓"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]


def test_atomic_write_syncs_the_data_before_the_rename(tmp_path, monkeypatch):
    path = tmp_path / "a.txt"
    events: list[str] = []
    real_replace = os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: events.append("fsync"))
    monkeypatch.setattr(
        os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b))[1]
    )
    atomic_write_text(path, "x")
    # The file's data, then the rename, then the directory entry.
    assert events == ["fsync", "replace", "fsync"]


def test_a_failed_atomic_write_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "a.txt"
    path.write_text("old")

    def failing_replace(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="No space"):
        atomic_write_text(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_stale_temporaries_of_that_file_only_are_removed(tmp_path):
    (tmp_path / ".a.txt.x1y2.tmp").write_text("partial")
    (tmp_path / ".b.txt.x1y2.tmp").write_text("someone else's")
    (tmp_path / "a.txt").write_text("real")
    remove_stale_temp_files(tmp_path / "a.txt")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".b.txt.x1y2.tmp", "a.txt"]


def test_a_stale_temporary_is_known_by_both_ends_of_its_name_whatever_its_middle(tmp_path):
    # `.a.txt.` + mkstemp's random characters + `.tmp`. A name on the card may hold any
    # byte but `/` and NUL: a byte that is not UTF-8, a line break, glob characters.
    kept = [".a.txt.x1y2.tmp.old", ".a.txt.x1y2.bak", "a.txt.x1y2.tmp", "a.txt"]
    stale = [".a.txt.\udcff.tmp", ".a.txt.x\ny.tmp", ".a.txt.*[?].tmp"]
    for name in kept + stale:
        (tmp_path / name).write_text("")
    remove_stale_temp_files(tmp_path / "a.txt")
    assert sorted(os.listdir(tmp_path)) == sorted(kept)


def test_only_a_name_with_a_middle_is_a_stale_temporary_and_a_missing_folder_has_none(tmp_path):
    # mkstemp puts random characters between `.a.txt.` and `.tmp`: `.a.txt.tmp` is not its.
    (tmp_path / ".a.txt.tmp").write_text("not a temporary")
    remove_stale_temp_files(tmp_path / "a.txt")
    assert [p.name for p in tmp_path.iterdir()] == [".a.txt.tmp"]
    remove_stale_temp_files(tmp_path / "missing" / "a.txt")  # nothing to remove, no error


def test_unique_path_counts_up(tmp_path):
    assert unique_path(tmp_path, "x", ".json") == tmp_path / "x.json"
    (tmp_path / "x.json").touch()
    (tmp_path / "x-2.json").touch()
    assert unique_path(tmp_path, "x", ".json") == tmp_path / "x-3.json"


def test_move_aside_keeps_the_bytes(tmp_path):
    path = tmp_path / "settings.json"
    path.write_bytes(b"\xff{bad")
    kept = move_aside(path, "settings-damaged", ".json", datetime(2026, 3, 4, 5, 6, 7))
    assert kept == tmp_path / "settings-damaged-20260304-050607.json"
    assert kept.read_bytes() == b"\xff{bad" and not path.exists()


def test_read_json_file_problems(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b'{"a": 1,}')
    # Python 3.13 blames the comma (column 8), earlier ones the closing brace (column 9).
    with pytest.raises(BadJsonError, match=r"not valid JSON \(.* at line 1 column [89]\)"):
        read_json_file(path)
    path.write_bytes(b'{"a": "\xe9"}')
    with pytest.raises(BadJsonError, match="not UTF-8 text"):
        read_json_file(path)
    path.write_text('{"a": [1, 2]}')
    assert read_json_file(path) == {"a": [1, 2]}
    with pytest.raises(FileNotFoundError):
        read_json_file(tmp_path / "missing.json")


def test_one_line():
    assert one_line("a\n  b\tc") == "a b c"
    assert one_line("x" * 50, limit=10) == "x" * 9 + "…"
