"""Shared bits of the reliability harnesses in stress/.

Each harness is a script (``.venv/bin/python stress/NAME.py --help``) and a
module with a ``run(...)`` function returning a :class:`Report`, which the
smoke tests in tests/stress/ call with tiny sizes. A report holds the
figures, the checks against their targets, the machine and the exact
command; :meth:`Report.print` shows them and the script exits 0 only when
every check met its target. A watchdog (``--time-limit``) ends a hung run.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import platform
import shlex
import statistics
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from companion.testing.recording import RecordingBus

ROOT = Path(__file__).resolve().parent.parent


def machine() -> dict[str, Any]:
    """Where the figures were measured."""
    model = ""
    with contextlib.suppress(OSError):
        model = Path("/proc/device-tree/model").read_text().strip("\0\n")
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name") or line.startswith("Model"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu": cpu,
        "cpu_count": os.cpu_count(),
        "model": model,
        "python": platform.python_version(),
    }


def command_line(script: str, argv: list[str] | None) -> str:
    """The command that reproduces this run, as typed from the repository root."""
    args = sys.argv[1:] if argv is None else argv
    python = os.path.relpath(sys.executable, ROOT) if sys.executable else "python"
    if python.startswith(".."):
        python = sys.executable
    return shlex.join([python, f"stress/{script}", *args])


def machine_line() -> str:
    """The machine in one line, for the head of a report."""
    return (
        f"{platform.platform()}, {platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}"
    )


def invocation() -> str:
    """This process's command line, quoted so it can be pasted."""
    return " ".join(shlex.quote(part) for part in [sys.executable, *sys.argv])


def rss_kib() -> int | None:
    """Resident set size of this process in KiB (Linux), or None."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def wait_until(condition: Callable[[], bool], timeout: float, poll: float = 0.01) -> bool:
    """Poll ``condition`` until it holds (``True``) or ``timeout`` seconds pass (``False``)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(poll)
    return True


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def ms(seconds: float | None) -> str:
    return "n/a" if seconds is None else f"{seconds * 1000:.2f} ms"


class LogCounter(logging.Handler):
    """Keeps every record logged under ``logger`` (at ``level`` and above) while installed."""

    def __init__(self, logger: str = "companion", level: int = logging.DEBUG) -> None:
        super().__init__(level)
        self.records: list[logging.LogRecord] = []
        self._lock_records = threading.Lock()
        self._logger = logging.getLogger(logger)
        self._saved_level = self._logger.level

    def emit(self, record: logging.LogRecord) -> None:
        with self._lock_records:
            self.records.append(record)

    def __enter__(self) -> LogCounter:
        self._logger.addHandler(self)
        self._logger.setLevel(min(self.level, self._logger.getEffectiveLevel()))
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._logger.removeHandler(self)
        self._logger.setLevel(self._saved_level)

    def count(self, level: int | None = None, name: str | None = None, text: str = "") -> int:
        with self._lock_records:
            return sum(
                1
                for r in self.records
                if (level is None or r.levelno == level)
                and (name is None or r.name == name)
                and text in r.getMessage()
            )


class NullBus(RecordingBus):
    """A :class:`RecordingBus` that forgets its writes (long runs must not grow) but counts them."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def write_i2c_block_data(self, i2c_addr: int, register: int, data, force=None) -> None:
        self._maybe_fail()
        self.count += 1

    def i2c_rdwr(self, *messages) -> None:
        self._maybe_fail()
        self.count += 1


@dataclass
class Check:
    name: str
    ok: bool
    detail: str = ""


@dataclass
class Report:
    """What one harness run found."""

    title: str
    command: str
    figures: dict[str, Any] = field(default_factory=dict)
    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    machine: dict[str, Any] = field(default_factory=machine)

    def figure(self, name: str, value: Any) -> None:
        self.figures[name] = value

    def check(self, name: str, ok: bool, detail: str = "") -> bool:
        self.checks.append(Check(name, bool(ok), detail))
        return bool(ok)

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    def print(self, out=None) -> None:
        out = out or sys.stdout
        m = self.machine
        print(f"== {self.title}", file=out)
        print(f"command:  {self.command}", file=out)
        print(
            f"machine:  {m['platform']} ({m['machine']}), {m['cpu_count']} CPU(s)"
            f"{', ' + m['cpu'] if m['cpu'] else ''}{', ' + m['model'] if m['model'] else ''}"
            f", Python {m['python']}",
            file=out,
        )
        width = max((len(name) for name in self.figures), default=0)
        for name, value in self.figures.items():
            print(f"  {name:<{width}}  {value}", file=out)
        for check in self.checks:
            mark = "PASS" if check.ok else "MISS"
            print(f"  [{mark}] {check.name}{': ' + check.detail if check.detail else ''}", file=out)
        for note in self.notes:
            print(f"  note: {note}", file=out)
        print(f"result:   {'all targets met' if self.ok else 'TARGET MISSED'}", file=out)

    def as_json(self) -> str:
        return json.dumps(
            {
                "title": self.title,
                "command": self.command,
                "machine": self.machine,
                "figures": self.figures,
                "checks": [check.__dict__ for check in self.checks],
                "notes": self.notes,
                "ok": self.ok,
            },
            indent=2,
            default=str,
        )


def watchdog(seconds: float, what: str) -> threading.Timer:
    """End the whole process (exit status 3) if the run takes longer than ``seconds``."""

    def expire() -> None:
        print(f"{what}: time limit of {seconds:g} s exceeded; stopping", file=sys.stderr)
        sys.stderr.flush()
        sys.stdout.flush()
        os._exit(3)

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()
    return timer


def finish(report: Report, json_path: str | None) -> int:
    """Print the report (and write it as JSON if asked); the script's exit status."""
    report.print()
    if json_path:
        Path(json_path).write_text(report.as_json() + "\n")
    return 0 if report.ok else 1


def elapsed(started: float) -> str:
    return f"{time.monotonic() - started:.2f} s"


STEADY_NOW = datetime(2026, 1, 1, 12, 0, 0)
"""The wall clock under hold_the_wall_clock, which never moves."""


def hold_the_wall_clock() -> None:
    """Give the companion, in this process, a wall clock that never moves.

    Archived games and files moved aside are named by the wall clock, so with the real
    one a name (and a harness's figures built on names: a count of distinct crash
    states, of distinct notices) depended on the second a step ran in. With this clock
    the same seed gives the same names, and so the same figures.
    """
    from companion.storage import files, store

    class SteadyDatetime(datetime):
        @classmethod
        def now(cls, tz=None):
            return STEADY_NOW

    files.datetime = SteadyDatetime
    store.datetime = SteadyDatetime
