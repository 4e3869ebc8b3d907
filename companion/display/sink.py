"""The one interface every display sink offers: what the runtime loop draws on.

It is luma's device interface (``luma.core.device.device``: ``display()``,
``contrast()``, ``hide()``, ``show()``, ``cleanup()``, size, mode, ``persist``)
plus one attribute luma lacks, ``healthy``: whether the panel answers. Only the
real OLED (:class:`companion.display.oled.OledDisplay`) can lose its panel;
luma's own devices (the ``dummy`` here, luma.emulator's in
:mod:`companion.display.emulators`) and the terminal take :class:`AlwaysHealthy`.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from luma.core.device import dummy
from PIL import Image


@runtime_checkable
class Display(Protocol):
    """A 1-bit screen the companion draws on (a luma device, the terminal, the real OLED...)."""

    persist: bool
    """Leave the picture up at ``cleanup()`` (luma clears the panel unless this is set)."""

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    @property
    def size(self) -> tuple[int, int]: ...

    @property
    def mode(self) -> str: ...

    @property
    def healthy(self) -> bool:
        """False while the panel is lost: the loop then offers its frame again now and then."""
        ...

    def display(self, image: Image.Image) -> None:
        """Show ``image``: mode :attr:`mode`, size :attr:`size`."""

    def contrast(self, level: int) -> None:
        """Set the brightness, 0..255 (the loop dims an idle screen with it)."""

    def hide(self) -> None:
        """Blank the screen (an idle panel is switched off)."""

    def show(self) -> None:
        """Undo :meth:`hide`."""

    def cleanup(self) -> None:
        """Release the screen (luma switches a panel off unless :attr:`persist`)."""


def check_frame(display: Display, image: Image.Image) -> None:
    """Refuse with a ValueError an `image` that is not of `display`'s size and mode."""
    if image.size != display.size or image.mode != display.mode:
        raise ValueError(
            f"expected a {display.width}x{display.height} mode {display.mode!r} image, "
            f"got {image.size[0]}x{image.size[1]} mode {image.mode!r}"
        )


class DisplayUnavailable(RuntimeError):
    """The requested display cannot be opened here (e.g. pygame is not installed), or can no
    longer be drawn on (the terminal's standard output closed or full)."""


class RecordingFailed(RuntimeError):
    """A recording display (PNG frames, an animated GIF) could not write its file."""


class AlwaysHealthy:
    """For sinks that cannot lose their screen: ``healthy`` is always True."""

    healthy = True


class DummyDisplay(AlwaysHealthy, dummy):
    """luma's ``dummy`` device, which keeps the last image (``image``), as a :class:`Display`."""
