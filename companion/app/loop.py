"""The application thread: wait for an input, let the app handle it, show the new frame.

One thread, no polling: it sleeps in the queue until an input arrives, and a
frame is sent to the display only when it differs from the last one sent.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from companion.app.companion import Companion
from companion.inputs.events import EventQueue
from companion.render.screens import render

log = logging.getLogger(__name__)


@dataclass
class LoopFigures:
    """What a run measured: inputs handled and input-to-frame latencies (seconds)."""

    inputs: int = 0
    frames: int = 0
    latencies: list[float] = field(default_factory=list)


def frame_for(app: Companion) -> Image.Image:
    """The image of the app's current screen, turned as the settings ask."""
    image = render(app.view())
    return image.rotate(180) if app.settings.rotation == 180 else image


class DisplayLoop:
    """Keeps a display showing the app's current screen."""

    def __init__(self, app: Companion, display: Any) -> None:
        self.app, self.display = app, display
        self.last_frame: bytes | None = None
        self.contrast: int | None = None
        self.figures = LoopFigures()

    def refresh(self) -> None:
        """Send the current screen if it changed, and the contrast if that changed."""
        contrast = self.app.settings.contrast
        if contrast != self.contrast and hasattr(self.display, "contrast"):
            self.display.contrast(contrast)
            self.contrast = contrast
        image = frame_for(self.app)
        data = image.tobytes()
        if data != self.last_frame:
            self.display.display(image)
            self.last_frame = data
            self.figures.frames += 1

    def run(self, queue: EventQueue) -> LoopFigures:
        """Handle inputs until the queue is closed and empty."""
        self.refresh()
        while (event := queue.get_event()) is not None:
            self.app.handle(event.input)
            self.refresh()
            self.figures.inputs += 1
            self.figures.latencies.append(time.monotonic() - event.timestamp)
        return self.figures
