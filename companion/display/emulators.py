"""luma.emulator's devices as :class:`~companion.display.sink.Display` sinks.

A module of its own because importing luma.emulator imports pygame, which the
device does not have: :func:`companion.display.factory.open_display` imports it
only when one of these is asked for.
"""

from __future__ import annotations

import atexit

from luma.emulator.device import capture, gifanim

from companion.display.sink import AlwaysHealthy
from companion.display.window import SimulationWindow


class CaptureDisplay(AlwaysHealthy, capture):
    """One PNG per frame."""


class GifDisplay(AlwaysHealthy, gifanim):
    """An animated GIF, written at ``cleanup()``.

    luma writes it at interpreter exit, by then into a folder that may be gone
    (a test's temporary folder); here ``cleanup()`` writes it and cancels that.
    """

    def cleanup(self) -> None:
        self.write_animation()
        atexit.unregister(self.write_animation)
        super().cleanup()


EMULATORS: dict[str, type] = {
    "pygame": SimulationWindow,
    "capture": CaptureDisplay,
    "gifanim": GifDisplay,
}
