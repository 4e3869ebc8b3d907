import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

# Lets tests import their shared set-ups as `helpers`.
sys.path.insert(0, str(Path(__file__).parent))


def _use_the_ram_disk_for_temporary_files() -> None:
    """Send tempfile, tmp_path and the tests' subprocesses to /dev/shm when it can take them.

    The suite writes thousands of small files and fsyncs every journal line, which on a
    disk takes longer than the tests' own work. No test can observe fsync's effect
    (that the code calls it is asserted with a recording os.fsync). A TMPDIR set by
    whoever runs the tests wins, and so does a RAM disk that may not run programs (the
    installer tests run scripts from their temporary trees).
    """
    ram_disk = "/dev/shm"
    if "TMPDIR" in os.environ or not os.path.isdir(ram_disk):
        return
    if not os.access(ram_disk, os.W_OK | os.X_OK) or os.statvfs(ram_disk).f_flag & os.ST_NOEXEC:
        return
    os.environ["TMPDIR"] = ram_disk
    tempfile.tempdir = None  # gettempdir() reads TMPDIR again


_use_the_ram_disk_for_temporary_files()


def _let_python_keep_compiled_modules() -> None:
    """Undo PYTHONDONTWRITEBYTECODE for the suite and the programs it starts.

    Some machines set it (the unit file does, for the device). Then each of the suite's
    hundred-odd `python -m companion` runs compiles the companion afresh: a quarter of
    their time. The compiled files go to the __pycache__ folders git ignores.
    """
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


_let_python_keep_compiled_modules()


SMALL_FS_SIZE = "256k"


@pytest.fixture
def small_fs(tmp_path):
    """A 256 kB tmpfs at tmp_path/fs, unmounted afterwards; skips unless it can be mounted.
    Being root, the tests make a card full by filling it and read-only by remounting it
    (`helpers.read_only`): permissions do not stop root."""
    mount_point = tmp_path / "fs"
    mount_point.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={SMALL_FS_SIZE}", "tmpfs", str(mount_point)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip("mounting a tmpfs needs root")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)


@pytest.fixture(autouse=True)
def a_second_store_is_a_restart(request, monkeypatch):
    """A second `Store` on a state directory in a test stands for the companion started
    again: the process that held the first has ended, and its lock with it (the first is
    closed here). Tests of the lock itself are marked `one_process_per_store`."""
    from companion.storage.store import Store

    opened: dict[str, Store] = {}
    if request.node.get_closest_marker("one_process_per_store") is None:
        open_store = Store.__init__

        def restart(store, directory, *args, **kwargs):
            key = os.path.realpath(directory)
            if key in opened:
                opened[key].close()
            open_store(store, directory, *args, **kwargs)
            opened[key] = store

        monkeypatch.setattr(Store, "__init__", restart)
    yield
    for store in opened.values():
        store.close()
