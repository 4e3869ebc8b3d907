"""The display loop: frames only when they change, dimming and blanking when idle, waking."""

import itertools

from companion.app.companion import Companion
from companion.display.sink import DummyDisplay
from companion.inputs.events import EventQueue, Input
from companion.runtime.loop import DIM_CONTRAST, DisplayLoop, Periodic


class RecordingSerial:
    """A luma serial interface that keeps the command bytes a panel would receive."""

    def __init__(self):
        self.commands = []

    def command(self, *cmd):
        self.commands.append(cmd)

    def data(self, data):
        pass

    def cleanup(self):
        pass


def panel():
    serial = RecordingSerial()
    return DummyDisplay(width=128, height=64, mode="1", serial_interface=serial), serial


def test_only_changed_frames_are_sent(tmp_path):
    app = Companion(tmp_path, itertools.count(1).__next__)
    device, _ = panel()
    loop = DisplayLoop(app, device)
    loop.refresh()
    loop.refresh()
    assert loop.figures.frames == 1
    app.handle(Input.NEXT)
    loop.refresh()
    assert loop.figures.frames == 2
    assert device.image.tobytes() == loop.image.tobytes()


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class TimedQueue(EventQueue):
    """An EventQueue on a fake clock: a wait for an event moves the clock on at once.

    ``steps`` are (time, action) pairs in order: an action (the test's checks and
    inputs) runs when a wait reaches its time, as if the player acted then.
    """

    def __init__(self, clock, *steps):
        super().__init__()
        self.clock = clock
        self.steps = list(steps)

    def get_event(self, timeout=None):
        if not len(self) and not self.closed and self.steps:
            when, action = self.steps[0]
            if timeout is not None and self.clock.now + timeout < when:
                self.clock.now += timeout
                return None
            self.steps.pop(0)
            self.clock.now = max(self.clock.now, when)
            action()
        return super().get_event(0)


def test_idle_dims_then_blanks_and_the_waking_input_does_nothing_else(tmp_path):
    app = Companion(tmp_path, itertools.count(1).__next__)
    app.settings = app.settings.with_value("dim_after_s", 1).with_value("blank_after_s", 2)
    device, serial = panel()
    pings = []
    home = []

    def dimmed_then_blanked():
        # Contrast (0x81) to the setting, then to the dim level; then the display off (0xAE).
        assert serial.commands[:3] == [(0x81, 128), (0x81, DIM_CONTRAST), (0xAE,)]
        home.append(app.view())
        queue.put(Input.NEXT)  # wakes the display; the cursor does not move

    def woken():
        assert serial.commands[3:5] == [(0xAF,), (0x81, 128)]
        assert app.view() == home[0] and loop.figures.wakes == 1
        queue.put(Input.NEXT)  # now it moves the cursor
        queue.close()

    clock = FakeClock()
    queue = TimedQueue(clock, (2.6, dimmed_then_blanked), (2.8, woken))
    loop = DisplayLoop(app, device, clock=clock, periodic=(Periodic(0.5, lambda: pings.append(1)),))
    loop.run(queue)
    assert not queue.steps
    assert app.view().selected == 1
    # The watchdog-like timer ran at start and about every 0.5 s while idle.
    assert 4 <= len(pings) <= 8


def test_the_watchdog_is_pinged_on_time_under_a_backlog_of_inputs(tmp_path):
    # The queue is never empty while the backlog lasts: pings must not wait for it to be.
    app = Companion(tmp_path, itertools.count(1).__next__)
    device, _ = panel()
    now = [0.0]
    pings: list[float] = []

    def slow_handle(event, handle=app.handle):
        now[0] += 0.1  # each input takes 0.1 s of the fake clock
        handle(event)

    app.handle = slow_handle
    loop = DisplayLoop(
        app, device, clock=lambda: now[0], periodic=(Periodic(1.0, lambda: pings.append(now[0])),)
    )
    queue = EventQueue(maxlen=1000)
    for _ in range(200):  # 20 s of work, all queued before the loop starts
        queue.put(Input.NEXT)
    queue.close()
    loop.run(queue)
    assert now[0] >= 20
    gaps = [later - earlier for earlier, later in itertools.pairwise([0.0, *pings, now[0]])]
    assert max(gaps) <= 1.0 + 0.1 + 1e-9  # never more than one input late
