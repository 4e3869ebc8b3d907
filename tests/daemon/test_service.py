"""The daemon end to end: real luma driver on a recording bus, gpiozero on mock pins,
sd_notify on a real socket, a serial pad on a real pseudo-terminal."""

import contextlib
import dataclasses
import functools
import json
import math
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import tty

from gpiozero.pins.mock import MockFactory
from helpers import damaged_database, read_only
from storage.storage_games import finished_two_player, store_ended

from companion.app.companion import Companion
from companion.cli import build_parser
from companion.daemon import service
from companion.daemon.notify import Notifier
from companion.daemon.service import serve
from companion.display.oled import open_oled
from companion.hardware.config import SerialPadConfig
from companion.hardware.profile import load_profile
from companion.inputs.events import EventQueue, Input
from companion.inputs.gpio import open_gpio_inputs
from companion.render.screens import render
from companion.runtime.loop import closing_on_signals
from companion.testing.recording import RecordingBus, panel_for
from companion.views import TextView

SAVED_IN_ENGLISH = TextView("Saved", ("The game is saved.", "See you next game."), 1, 1)
"""The screen the daemon leaves on the panel when it stops, for a player of English."""


def wait_for(condition, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def turn_clockwise(factory, profile):
    """One detent: A low, B low, A high, B high (pins pulled up: low is active)."""
    a, b = (factory.pin(profile.inputs.encoder.a), factory.pin(profile.inputs.encoder.b))
    for pin, high in ((a, False), (b, False), (a, True), (b, True)):
        pin.drive_high() if high else pin.drive_low()


def test_the_daemon_shows_each_screen_on_the_panel_and_says_ready_and_saved(tmp_path):
    profile = load_profile("sh1106-encoder")
    notify_path = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(notify_path)
    listener.settimeout(5)
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": notify_path, "WATCHDOG_USEC": "400000"})
    bus = RecordingBus()
    display = open_oled(profile.display, bus=bus)
    panel = panel_for(profile.display.driver)
    app = Companion(tmp_path / "state")
    queue = EventQueue()
    factory = MockFactory()
    with open_gpio_inputs(profile.inputs, queue, pin_factory=factory):
        daemon = threading.Thread(target=serve, args=(app, display, queue, notifier, profile))
        daemon.start()
        messages = []
        while "READY=1" not in messages:
            messages += listener.recv(256).decode().split("\n")
        panel.replay(bus.take())
        assert panel.image().tobytes() == render(app.view()).tobytes()
        turn_clockwise(factory, profile)  # home menu: the cursor goes to the second entry
        wait_for(lambda: app.view().selected == 1)
        wait_for(lambda: panel.replay(bus.take()).tobytes() == render(app.view()).tobytes())
        while "WATCHDOG=1" not in messages:  # one comes every 0.2 s; recv fails after 5 s
            messages += listener.recv(256).decode().split("\n")
        queue.close()
        daemon.join(timeout=10)
    panel.replay(bus.take())
    assert panel.image().tobytes() == render(SAVED_IN_ENGLISH).tobytes()
    # The daemon has ended: whatever it sent is already queued on the socket.
    listener.setblocking(False)
    while True:
        try:
            messages += listener.recv(256).decode().split("\n")
        except BlockingIOError:
            break
    assert "WATCHDOG=1" in messages and messages[-1] == "STOPPING=1"


def read_reply(fd, timeout, line):
    """Write `line` to the pad's end and read one reply line (b"" if none in time)."""
    os.write(fd, line)
    reply = b""
    deadline = time.monotonic() + timeout
    while not reply.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], max(0, deadline - time.monotonic()))
        if not ready:
            return reply
        reply += os.read(fd, 1)
    return reply


def reply_past_late_pongs(fd, line):
    """The reply to `line`, skipping PONGs to PINGs whose 0.2 s wait ran out before them."""
    reply = read_reply(fd, 5, line)
    while reply.startswith(b"PONG"):
        reply = read_reply(fd, 5, b"")
    return reply


def test_the_saved_screen_left_on_the_panel_is_in_the_player_s_language(tmp_path):
    # As every other screen: a Korean player's last sight of the device is in Korean.
    profile = load_profile("sh1106-encoder")
    (tmp_path / "settings.json").write_text('{"language": "ko"}')
    bus, panel = RecordingBus(), panel_for("sh1106")
    queue = EventQueue()
    queue.close()  # stopped as on SIGTERM, once the first screen is up
    display = open_oled(profile.display, bus=bus)
    serve(Companion(tmp_path), display, queue, Notifier.from_environment({}), profile)
    display.cleanup()
    saved = TextView("저장됨", ("게임을 저장했어요.", "다음 게임에서 만나요!"), 1, 1)
    assert panel.replay(bus.take()).tobytes() == render(saved).tobytes()


def test_the_serial_pad_drives_the_daemon_and_reads_the_state(tmp_path):
    master, slave = os.openpty()
    tty.setraw(slave)  # no echo of what the pad writes, before the daemon opens the port
    profile = dataclasses.replace(
        load_profile("serial-pad"), serial_pad=SerialPadConfig(os.ttyname(slave))
    )
    bus = RecordingBus()
    app = Companion(tmp_path / "state")
    queue = EventQueue()
    daemon = threading.Thread(
        target=serve,
        args=(
            app,
            open_oled(profile.display, bus=bus),
            queue,
            Notifier.from_environment({}),
            profile,
        ),
    )
    daemon.start()
    # The port is opened by the daemon's reader: PING until it answers.
    deadline = time.monotonic() + 10
    while not read_reply(master, 0.2, b"PING\n").startswith(b"PONG"):
        assert time.monotonic() < deadline, "the serial pad never answered"
    replies = [reply_past_late_pongs(master, line) for line in (b"next\n", b"STATE\n", b"NEXT\n")]
    queue.close()
    daemon.join(timeout=10)
    os.close(master)
    lines = [reply.decode().rstrip("\n") for reply in replies]
    assert lines[0] == "OK"
    assert json.loads(lines[1]) is None  # no game yet: the home menu
    assert lines[2].startswith("ERR")
    assert app.view().selected == 1  # "next" moved the cursor; "NEXT" changed nothing


def test_run_with_a_terminal_profile_reads_its_serial_pad(tmp_path):
    # `run` with the terminal for a display (a pad tried on a laptop, or
    # `--profile serial-pad --display terminal`) played on the keyboard alone: the
    # pad's port was never opened, and nothing said so.
    master, slave = os.openpty()
    tty.setraw(slave)
    profile = tmp_path / "pad.toml"
    profile.write_text(
        f'[display]\ndriver = "terminal"\n[serial_pad]\nurl = "{os.ttyname(slave)}"\n'
    )
    state = tmp_path / "state"
    with (tmp_path / "screen.txt").open("wb") as screen:
        daemon = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--profile", profile, "--state-dir", state],
            stdin=subprocess.PIPE,  # the keyboard, open and silent
            stdout=screen,
            stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + 20
            while not read_reply(master, 0.2, b"PING\n").startswith(b"PONG"):
                assert time.monotonic() < deadline, "the serial pad was never read"
            # The first screen asks for the language: the pad's select chooses English.
            assert reply_past_late_pongs(master, b"select\n") == b"OK\n"
            wait_for(lambda: (state / "settings.json").exists())
            assert json.loads((state / "settings.json").read_text())["language"] == "en"
        finally:
            daemon.send_signal(signal.SIGTERM)
            _, errors = daemon.communicate(timeout=20)
            os.close(master)
            os.close(slave)
    assert daemon.returncode == 0 and b"Traceback" not in errors, errors


def test_sigterm_ends_the_loop():
    queue = EventQueue()
    with closing_on_signals(queue):
        os.kill(os.getpid(), signal.SIGTERM)
        wait_for(lambda: queue.closed)
    assert queue.get_event(timeout=0) is None


class WatchdogStub:
    """The part of `Notifier` the loop uses, recording the watchdog pings' times on `clock`."""

    watchdog_interval = 0.1

    def __init__(self, clock):
        self.clock = clock
        self.pings: list[float] = []

    def watchdog(self):
        self.pings.append(self.clock())
        return True

    def ready(self, status=None):
        return True


def test_a_slow_statistics_screen_does_not_starve_the_watchdog(tmp_path, monkeypatch):
    from companion.daemon import service
    from companion.display.sink import DummyDisplay
    from companion.inputs.events import Input
    from companion.storage import store as store_module

    with store_module.Store(tmp_path) as store:
        for seed in range(20):
            store_ended(store, finished_two_player(seed))
    real_keep_alive = store_module.Store._keep_alive
    # The loop's clock, moved on by the statistics' SQLite steps alone. Whole seconds
    # plus sixteenths are exact in binary, so the sums below are too, whatever the
    # machine's uptime.
    now = [float(math.floor(time.monotonic()))]
    step_seconds = 1 / 16  # KEEPALIVE_STEPS of a query on a slow card
    steps = []

    def slow_steps(store):
        now[0] += step_seconds
        steps.append(now[0])
        return real_keep_alive(store)

    def clock():
        return now[0]

    monkeypatch.setattr(store_module, "KEEPALIVE_STEPS", 20)
    monkeypatch.setattr(store_module.Store, "_keep_alive", slow_steps)
    app = Companion(tmp_path)
    notifier = WatchdogStub(clock)
    loop = service._loop(app, DummyDisplay(), notifier, service.StateSnapshot(app))
    loop.clock = clock
    queue = EventQueue()
    for item in (Input.NEXT, Input.NEXT, Input.SELECT):  # home: Statistics
        queue.put(item)
    queue.close()
    started = clock()
    loop.run(queue)
    assert app.view().title == "Statistics"
    gaps = [b - a for a, b in zip([started, *notifier.pings], notifier.pings, strict=False)]
    assert clock() - started == len(steps) * step_seconds and len(notifier.pings) >= 8
    # The watchdog's interval plus one slice of a query, never the whole screen's.
    assert max(gaps) <= notifier.watchdog_interval + step_seconds


def test_run_on_a_read_only_card_leaves_a_damaged_game_as_it_is_and_runs_on(
    small_fs, monkeypatch, caplog
):
    # A damaged database the read-only card would not let it move aside: the daemon must
    # not stop with one line, the panel dark. `run` itself,
    # on a panel decoded from its bus and gpiozero's mock pins, with its input queue
    # closed from the start: it shows the first screen, then stops as on SIGTERM.
    state = small_fs / "state"
    damaged = damaged_database(state)
    bus, panel, frames, served = RecordingBus(), panel_for("sh1106"), [], []

    @contextlib.contextmanager
    def decoded_panel(profile):
        display = open_oled(profile.display, bus=bus)
        sent = display.display

        def display_and_decode(image):
            sent(image)
            frames.append(panel.replay(bus.take()).copy())

        display.display = display_and_decode
        yield display
        display.cleanup()

    def serve_and_keep(app, *rest):
        served.append(app)
        return serve(app, *rest)

    def closed_queue():
        queue = EventQueue()
        queue.close()
        return queue

    monkeypatch.setattr(service, "panel_for", decoded_panel)
    pins = functools.partial(open_gpio_inputs, pin_factory=MockFactory())
    monkeypatch.setattr(service, "open_gpio_inputs", pins)
    monkeypatch.setattr(service, "serve", serve_and_keep)
    monkeypatch.setattr(service, "EventQueue", closed_queue)
    args = build_parser().parse_args(
        ["run", "--profile", "sh1106-encoder", "--state-dir", str(state)]
    )
    with read_only(small_fs):
        assert service.run(args) == 0
    assert (state / "companion.db").read_bytes() == damaged
    assert sorted(path.name for path in state.iterdir()) == ["companion.db"]
    [logged] = [r.getMessage() for r in caplog.records if "cannot be moved aside" in r.getMessage()]
    assert "Read-only file system" in logged and "\n" not in logged
    # The panel showed the app's first screen, then the daemon's goodbye.
    [app] = served
    assert [frame.tobytes() for frame in frames] == [
        render(app.view()).tobytes(),
        render(SAVED_IN_ENGLISH).tobytes(),
    ]
    told = []
    while isinstance(app.view(), TextView):
        told.append(" ".join(app.view().lines))
        app.handle(Input.SELECT)
    assert len(told) == 2
    assert "the card is read-only" in told[0] and "neither read nor set aside" in told[1]
