"""The reliability harnesses of stress/ (serial_garbage, display_faults, input_storm), run tiny.

Each must run to the end and meet its targets on a few hundred events, so a
change that breaks a harness (or what it measures) is caught by the tests.
"""

import errno
import importlib.util
import itertools
import sys
import time
from functools import partial
from pathlib import Path

import pytest
from serial import serialutil

from companion.app.companion import Companion
from companion.runtime import loop

ROOT = Path(__file__).resolve().parents[2]


def harness(name: str):
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    spec = importlib.util.spec_from_file_location(f"stress_{name}", ROOT / "stress" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_serial_garbage_runs_tiny_and_meets_its_targets():
    report = harness("serial_garbage").run(lines=600, seed=3, unplugs=1)
    assert report.ok, report.as_json()
    assert report.figures["state changes caused by invalid input"] == 0
    assert report.figures["unplug/replug cycles"] == 1


def test_display_faults_runs_tiny_and_meets_its_targets(monkeypatch):
    # After its last fault the harness waits for the loop to offer the lost panel the frame
    # again, which it does every 2 s while no input comes: here as often as the display
    # itself retries (0.05 s), so that wait stays short.
    monkeypatch.setattr(loop, "DISPLAY_RETRY_SECONDS", 0.05)
    report = harness("display_faults").run(frames=50, seed=2, drivers=("ssd1306", "sh1106"))
    assert report.ok, report.as_json()


def test_display_faults_gives_the_same_figures_for_the_same_seed(monkeypatch):
    """When a lost panel is tried again, and so when the next fault comes, follows the
    frames drawn, not the real clock: two runs count the same faults, the second with
    the app slower, as on a loaded machine."""
    monkeypatch.setattr(loop, "DISPLAY_RETRY_SECONDS", 0.05)
    runs = [harness("display_faults").run(frames=120, seed=2, drivers=("sh1106",)).figures]
    handle = Companion.handle

    def slow_handle(app, event):
        time.sleep(0.003)
        handle(app, event)

    monkeypatch.setattr(Companion, "handle", slow_handle)
    runs.append(harness("display_faults").run(frames=120, seed=2, drivers=("sh1106",)).figures)
    for figures in runs:
        del figures["time"], figures["sh1106: time (faulty + clean runs)"]
    assert runs[0] == runs[1]
    assert "0 / 0" not in runs[0]["sh1106: outages / glitches (by errno)"]


def test_input_storm_runs_tiny_and_loses_nothing(monkeypatch):
    input_storm = harness("input_storm")
    # The paced inputs around the storm only feed the latency figures, not asserted here.
    monkeypatch.setattr(input_storm, "PACED", 4)
    report = input_storm.run(events=400, seed=4)
    # The latency target is a timing, which a loaded machine can miss: the harness run
    # on its own reports it; here only what a busy machine cannot change is asserted.
    untimed = [check for check in report.checks if not check.name.startswith("latency")]
    assert len(untimed) == len(report.checks) - 1
    assert all(check.ok for check in untimed), report.as_json()
    assert report.figures["lost"] == 0 and report.figures["doubled"] == 0


def test_serial_garbage_fails_a_pad_that_keeps_what_it_reads(monkeypatch):
    # A leak: the line splitter keeps every chunk (many times over, so that the tiny run
    # sent enough to cross the bound). The memory check must catch it.
    from companion.inputs import serial_pad

    kept = []
    real_feed = serial_pad.LineSplitter.feed

    def leaking_feed(self, data):
        kept.append(bytes(data) * 400)
        return real_feed(self, data)

    monkeypatch.setattr(serial_pad.LineSplitter, "feed", leaking_feed)
    report = harness("serial_garbage").run(lines=600, seed=3, unplugs=0)
    failed = [check.name for check in report.checks if not check.ok]
    assert failed == ["memory bounded: RSS growth at most 32,768 KiB"], report.as_json()


def test_serial_garbage_gives_the_same_figures_for_the_same_seed(monkeypatch):
    """Where each unplug cuts, and so what it loses, comes from the seed, never from the
    threads' timing: two runs agree though the second runs as on a loaded machine. There
    the app is slower (its queue fills, and the pad waits to put), and each look at
    pyserial's clock finds it 0.3 s later, as when the pad's thread waits long for the
    CPU: pyserial then calls a reply it wrote whole a timeout. Only the clock's figures
    may differ: the time, memory, how often the queue was full, and how often the daemon
    tried a port that was not there."""
    runs = [harness("serial_garbage").run(lines=1000, seed=4, unplugs=2).figures]
    handle = Companion.handle

    def slow_handle(app, event):
        time.sleep(0.002)
        handle(app, event)

    late = itertools.count()
    monkeypatch.setattr(Companion, "handle", slow_handle)
    monkeypatch.setattr(
        serialutil.Timeout, "TIME", staticmethod(lambda: time.monotonic() + 0.3 * next(late))
    )
    runs.append(harness("serial_garbage").run(lines=1000, seed=4, unplugs=2).figures)
    for figures in runs:
        for name in ("time", "RSS before / after / growth", "queue: dropped / puts that waited"):
            del figures[name]
        del figures["pad counters"]["open_failures"]
    assert runs[0] == runs[1]


# Each harness must be able to fail: given a program without one of its safeguards, it
# misses a target and its exit status says so. (security.py is shown failing in
# test_harnesses_a.py, serial_garbage.py above.)


@pytest.fixture
def wall_clock_given_back(monkeypatch):
    """bad_config.py holds the wall clock for the rest of its process
    (`hold_the_wall_clock`); run in this one, the tests after it get it back."""
    from companion.storage import files, store

    monkeypatch.setattr(files, "datetime", files.datetime)
    monkeypatch.setattr(store, "datetime", store.datetime)


def exit_status(report) -> int:
    from stress.common import finish

    return finish(report, None)


def test_bad_config_fails_when_a_bad_value_is_accepted(monkeypatch, capsys, wall_clock_given_back):
    # A loader that takes any serial pad URL (pyserial would open socket:// or spy://).
    from companion.hardware import sections

    monkeypatch.setattr(sections, "is_serial_device", lambda url: True)
    assert harness("bad_config").main(["--cli-sample", "0", "--seed", "3"]) == 1
    assert "serial_pad.url" in capsys.readouterr().out


def test_display_faults_fails_when_the_panel_never_comes_back(monkeypatch):
    from companion.display.oled import OledDisplay

    def still_lost(self):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(loop, "DISPLAY_RETRY_SECONDS", 0.05)
    monkeypatch.setattr(OledDisplay, "_reinitialise", still_lost)
    report = harness("display_faults").run(frames=50, seed=2, drivers=("ssd1306",))
    failed = {check.name for check in report.checks if not check.ok}
    assert "ssd1306: every outage recovered" in failed, report.as_json()
    assert exit_status(report) == 1


def test_input_storm_fails_with_a_queue_that_drops_at_once(monkeypatch):
    # The app slowed down (5 ms an input), so the storm fills the queue however fast
    # the machine is.
    handle = Companion.handle

    def slow_handle(app, event):
        time.sleep(0.005)
        handle(app, event)

    monkeypatch.setattr(Companion, "handle", slow_handle)
    input_storm = harness("input_storm")
    # A queue of 32 overflows as surely as one of 256, and the app then works through 32
    # slow inputs, not 256; the paced inputs only feed the latency figures.
    monkeypatch.setattr(input_storm, "ObservedQueue", partial(input_storm.ObservedQueue, 32))
    monkeypatch.setattr(input_storm, "PACED", 4)
    report = input_storm.run(events=400, seed=4, put_timeout=0)
    assert report.figures["lost"] > 0
    assert exit_status(report) == 1
