"""The application thread: wait for an input or a timer, let the app handle it, show the frame.

One thread, no polling: it sleeps in the queue until an input arrives or the
next timer is due (dimming, blanking, the watchdog, a lost display's retry).
A frame is sent to the display only when it differs from the last one sent.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import time
from collections.abc import Callable, Iterator
from enum import Enum

from PIL import Image

from companion.app.companion import Companion
from companion.display.sink import Display
from companion.inputs.events import EventQueue
from companion.render.screens import render

log = logging.getLogger(__name__)

DIM_CONTRAST = 8
"""Contrast while dimmed: still readable in a dark room, easy on the pixels."""
DISPLAY_RETRY_SECONDS = 2.0
"""How often a lost display is offered the current frame again while nothing else happens."""


class Brightness(Enum):
    AWAKE = "awake"
    DIMMED = "dimmed"
    BLANK = "blank"


class LoopFigures:
    """What a run measured: inputs handled, frames sent, input-to-frame latencies (s)."""

    def __init__(self) -> None:
        self.inputs = 0
        self.frames = 0
        self.wakes = 0
        self.latencies: list[float] = []


class Periodic:
    """A callback due every `interval` seconds (the watchdog's ping)."""

    def __init__(self, interval: float, callback: Callable[[], object]) -> None:
        self.interval = interval
        self.callback = callback
        self.due = 0.0


def frame_for(app: Companion) -> Image.Image:
    """The image of the app's current screen, turned as the settings ask."""
    image = render(app.view())
    return image.rotate(180) if app.settings.rotation == 180 else image


class DisplayLoop:
    """Keeps a display showing the app's current screen, dimming it when idle."""

    def __init__(
        self,
        app: Companion,
        display: Display,
        *,
        clock: Callable[[], float] = time.monotonic,
        periodic: tuple[Periodic, ...] = (),
        on_frame: Callable[[], None] | None = None,
    ) -> None:
        self.app, self.display, self.clock = app, display, clock
        self.periodic = list(periodic)
        self.on_frame = on_frame
        """Called after each frame is sent (the daemon reports ready after the first)."""
        self.last_frame: bytes | None = None
        self.image: Image.Image | None = None
        self.contrast: int | None = None
        self.brightness = Brightness.AWAKE
        self.last_input = clock()
        self.figures = LoopFigures()

    # --- the frame ---------------------------------------------------------------------

    def refresh(self) -> None:
        """Send the current screen if it changed, and the contrast if that changed."""
        if self.brightness is Brightness.AWAKE:
            self._set_contrast(self.app.settings.contrast)
        image = frame_for(self.app)
        data = image.tobytes()
        if data != self.last_frame:
            self.display.display(image)
            self.last_frame, self.image = data, image
            self.figures.frames += 1
            if self.on_frame:
                self.on_frame()

    def _set_contrast(self, level: int) -> None:
        if level != self.contrast:
            self.display.contrast(level)
            self.contrast = level

    # --- idle ----------------------------------------------------------------------------

    def _idle_deadline(self) -> float | None:
        """When the display should next dim or blank, or None."""
        settings = self.app.settings
        if self.brightness is Brightness.AWAKE and settings.dim_after_s:
            return self.last_input + settings.dim_after_s
        if self.brightness is not Brightness.BLANK and settings.blank_after_s:
            return self.last_input + settings.blank_after_s
        return None

    def _go_idle(self, now: float) -> None:
        settings = self.app.settings
        if settings.blank_after_s and now >= self.last_input + settings.blank_after_s:
            self.display.hide()
            self.brightness = Brightness.BLANK
        elif self.brightness is Brightness.AWAKE:
            self._set_contrast(DIM_CONTRAST)
            self.brightness = Brightness.DIMMED

    def _wake(self) -> None:
        if self.brightness is Brightness.BLANK:
            self.display.show()
        self.brightness = Brightness.AWAKE
        self._set_contrast(self.app.settings.contrast)
        self.figures.wakes += 1

    # --- the loop ------------------------------------------------------------------------

    def _next_due(self) -> float | None:
        deadlines = [timer.due for timer in self.periodic]
        if (idle := self._idle_deadline()) is not None:
            deadlines.append(idle)
        if not self.display.healthy:
            deadlines.append(self.clock() + DISPLAY_RETRY_SECONDS)
        return min(deadlines) if deadlines else None

    def keepalive(self) -> None:
        """Run the periodic callbacks that are due (the watchdog's ping).

        Called between inputs, however fast they come, so that systemd sees a
        busy daemon as alive. A daemon stuck for good stops calling it.
        """
        now = self.clock()
        for timer in self.periodic:
            if now >= timer.due:
                timer.callback()
                timer.due = now + timer.interval

    def _run_due(self, now: float) -> None:
        self.keepalive()
        idle = self._idle_deadline()
        if idle is not None and now >= idle:
            self._go_idle(now)
        if not self.display.healthy and self.image is not None:
            self.display.display(self.image)  # lets a lost panel be found again and redrawn

    def run(self, queue: EventQueue) -> LoopFigures:
        """Handle inputs and timers until the queue is closed and empty."""
        now = self.clock()
        for timer in self.periodic:
            timer.callback()
            timer.due = now + timer.interval
        self.refresh()
        while True:
            due = self._next_due()
            timeout = None if due is None else max(0.0, due - self.clock())
            event = queue.get_event(timeout)
            if event is None:
                if queue.closed:
                    return self.figures
                self._run_due(self.clock())
                continue
            self.last_input = self.clock()
            if self.brightness is not Brightness.AWAKE:
                # The input that wakes the display does nothing else.
                self._wake()
                continue
            self.app.handle(event.input)
            self.refresh()
            self.app.after_frame()
            self.figures.inputs += 1
            self.figures.latencies.append(time.monotonic() - event.timestamp)
            # A backlog of inputs never leaves the queue empty: ping between them too.
            self.keepalive()


@contextlib.contextmanager
def closing_on_signals(queue: EventQueue) -> Iterator[None]:
    """SIGTERM (systemd stop) and SIGINT end the loop; every confirmed action is in the store."""

    def stop(signum: int, frame: object) -> None:
        queue.close()

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
