"""luma.emulator's devices as :class:`~companion.display.sink.Display` sinks.

A module of its own because importing luma.emulator imports pygame, which the
device does not have: :func:`companion.display.factory.open_display` imports it
only when one of these is asked for.
"""

from __future__ import annotations

import atexit

import pygame
from luma.emulator.device import capture, gifanim
from PIL import Image

from companion.display.sink import AlwaysHealthy, RecordingFailed
from companion.display.window import SimulationWindow


class CaptureDisplay(AlwaysHealthy, capture):
    """One PNG per frame. A frame that cannot be written is named from luma.emulator's
    ``_file_template`` and ``_count`` (1.7, the minor version pinned in pyproject.toml)."""

    def display(self, image: Image.Image) -> None:
        try:
            super().display(image)
        except (OSError, pygame.error) as error:  # a full disk, a folder gone
            frame = self._file_template.format(self._count)
            reason = error.strerror if isinstance(error, OSError) else error
            raise RecordingFailed(f"cannot write {frame}: {reason}") from None


class GifDisplay(AlwaysHealthy, gifanim):
    """An animated GIF, written at ``cleanup()``.

    luma writes it at interpreter exit, by then into a folder that may be gone
    (a test's temporary folder); here ``cleanup()`` writes it and cancels that,
    first, so a GIF that cannot be written is said once, not again in a traceback
    at exit (named from luma.emulator's ``_filename``, as for ``CaptureDisplay``).
    """

    def cleanup(self) -> None:
        atexit.unregister(self.write_animation)
        try:
            self.write_animation()
        except OSError as error:
            raise RecordingFailed(
                f"cannot write {self._filename}: {error.strerror or error}"
            ) from None
        finally:
            super().cleanup()


EMULATORS: dict[str, type] = {
    "pygame": SimulationWindow,
    "capture": CaptureDisplay,
    "gifanim": GifDisplay,
}
