"""Open a display sink by name: the terminal, a luma.emulator device or luma's dummy."""

from __future__ import annotations

import os
from typing import Any

from companion.display.sink import Display, DummyDisplay
from companion.display.terminal import TerminalDisplay
from companion.hardware.constants import HEIGHT, WIDTH

EMULATORS = ("pygame", "capture", "gifanim")
DISPLAY_NAMES = ("terminal", "dummy", *EMULATORS)


class DisplayUnavailable(RuntimeError):
    """The requested display cannot be opened here (e.g. pygame is not installed)."""


def open_display(
    name: str, *, path: str | os.PathLike[str] | None = None, **options: Any
) -> Display:
    """Open the sink called ``name``: a :class:`~companion.display.sink.Display`.

    ``name`` is one of :data:`DISPLAY_NAMES`:

    - ``terminal``: :class:`TerminalDisplay`; ``options`` go to its constructor
      (``stream``, ``help_text``).
    - ``dummy``: ``luma.core.device.dummy``, which keeps the last image (tests).
    - ``pygame``: :class:`~companion.display.window.SimulationWindow`, a window
      with a key help line (needs a desktop, or ``SDL_VIDEODRIVER=dummy``);
      ``options`` go to its constructor (``help_text``, ``on_key``, ``on_close``).
    - ``capture``: one PNG per frame; ``path`` is a ``str.format`` template
      with the frame number, default ``companion_{0:06}.png``.
    - ``gifanim``: an animated GIF at ``path`` (default ``companion.gif``),
      written at ``cleanup()``.

    Other ``options`` go to the luma.emulator constructor (``scale``,
    ``transform``...). luma.emulator (and so pygame) is imported only here,
    so the device, which has neither, can still use the other sinks.
    """
    if name == "terminal":
        return TerminalDisplay(width=WIDTH, height=HEIGHT, **options)
    if name == "dummy":
        return DummyDisplay(width=WIDTH, height=HEIGHT, mode="1", **options)
    if name in EMULATORS:
        return _open_emulator(name, path, options)
    raise ValueError(f"unknown display {name!r}; choose one of {', '.join(DISPLAY_NAMES)}")


def _open_emulator(
    name: str, path: str | os.PathLike[str] | None, options: dict[str, Any]
) -> Display:
    # pygame prints a greeting on import, which would land in the simulation's terminal.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        from companion.display.emulators import EMULATORS
    except ImportError as error:
        raise DisplayUnavailable(
            f"display {name!r} needs luma.emulator: pip install 'patchwork-companion[desktop]'"
        ) from error
    if name == "pygame":
        return _open_window(options)
    if name == "capture":
        options.setdefault("file_template", os.fspath(path or "companion_{0:06}.png"))
    elif name == "gifanim":
        options.setdefault("filename", os.fspath(path or "companion.gif"))
    try:
        return EMULATORS[name](width=WIDTH, height=HEIGHT, mode="1", **options)
    except Exception as error:
        # luma raises RuntimeError without pygame, and pygame its own `pygame.error`
        # when there is no screen to open a window on.
        raise DisplayUnavailable(f"display {name!r} is unavailable: {error}") from error


def _open_window(options: dict[str, Any]):
    from companion.display.window import SimulationWindow

    try:
        return SimulationWindow(**options)
    except RuntimeError as error:
        # NoGraphicalDisplay, or `pygame.error` when the display cannot be reached.
        raise DisplayUnavailable(f"display 'pygame' is unavailable: {error}") from error
