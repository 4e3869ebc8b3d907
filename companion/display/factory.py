"""Open a display sink by name: the terminal, a luma.emulator device or luma's dummy."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Any

from companion.display import DISPLAY_NAMES, EMULATORS
from companion.display.sink import Display, DisplayUnavailable, DummyDisplay
from companion.display.terminal import TerminalDisplay
from companion.hardware.constants import HEIGHT, WIDTH


def graphical_display_available(
    environ: Mapping[str, str] = os.environ, platform: str = sys.platform
) -> bool:
    """Whether a window could appear: always on macOS and Windows, with X11 or Wayland elsewhere."""
    if platform in ("darwin", "win32"):
        return True
    return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))


def open_display(
    name: str, *, path: str | os.PathLike[str] | None = None, **options: Any
) -> Display:
    """Open the sink called ``name``: a :class:`~companion.display.sink.Display`.

    ``name`` is one of :data:`DISPLAY_NAMES`:

    - ``terminal``: :class:`TerminalDisplay`; ``options`` go to its constructor
      (``stream``, ``help_text``).
    - ``dummy``: ``luma.core.device.dummy``, which keeps the last image (tests).
    - ``pygame``: :class:`~companion.display.window.SimulationWindow`, a window
      with key help (needs a desktop, or ``SDL_VIDEODRIVER=dummy``); ``options``
      go to its constructor (``help_lines``, ``on_key``, ``on_close``, ``scale``).
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
        _choose_window_driver()
    elif name == "capture":
        options.setdefault("file_template", os.fspath(path or "companion_{0:06}.png"))
    elif name == "gifanim":
        options.setdefault("filename", os.fspath(path or "companion.gif"))
    try:
        return EMULATORS[name](width=WIDTH, height=HEIGHT, mode="1", **options)
    except Exception as error:
        # luma raises RuntimeError without pygame, pygame its own `pygame.error` when
        # there is no screen to open a window on, the window NoGraphicalDisplay.
        raise DisplayUnavailable(f"display {name!r} is unavailable: {error}") from error


def _choose_window_driver() -> None:
    """Refuse a window where none can appear, and keep SDL's search for a screen quiet."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return  # chosen by the user (``dummy`` for a window drawn nowhere, in tests)
    if not graphical_display_available():
        raise DisplayUnavailable(
            "display 'pygame' is unavailable: there is no graphical display to open a window "
            "on (DISPLAY is not set); use --display terminal"
        )
    if sys.platform.startswith("linux") and not os.environ.get("WAYLAND_DISPLAY"):
        # Only X11 is there: without this SDL also tries Wayland, whose library
        # complains on stderr (into the terminal) when it finds none.
        os.environ["SDL_VIDEODRIVER"] = "x11"
