"""The simulation's window: luma.emulator's pygame device, with keys and a help line.

luma.emulator draws the panel (square pixels at any scale, contrast, hide and
show); this adds what a person at a laptop needs: the keys pressed in the
window reach the simulated inputs, a line under the screen says which keys
do what, and closing the window quits like ``q`` instead of luma's
``sys.exit()`` in the middle of a frame. Imported only when a window is
wanted: the device has no pygame.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from luma.emulator.device import pygame as PygameDevice
from PIL import Image

from companion.display.sink import AlwaysHealthy
from companion.hardware.constants import HEIGHT, WIDTH
from companion.storage.settings import DEFAULT_CONTRAST

HEADLESS_DRIVERS = frozenset({"offscreen", "dummy"})
"""SDL video drivers that draw nowhere: pygame falls back to them when there is no display."""
MARGIN = 12
BACKGROUND, FRAME, HELP_COLOUR = (24, 24, 24), (90, 90, 90), (200, 200, 200)
HELP_FONT_SIZE = 22
DIM_ALPHA = 0.5


class NoGraphicalDisplay(RuntimeError):
    """There is no desktop to open the window on."""


def key_name(pygame: Any, event: Any) -> str | None:
    """The name the terminal's key decoder gives the key of a pygame KEYDOWN event, or None."""
    names = {
        pygame.K_RIGHT: "right",
        pygame.K_LEFT: "left",
        pygame.K_UP: "up",
        pygame.K_DOWN: "down",
        pygame.K_RETURN: "enter",
        pygame.K_KP_ENTER: "enter",
        pygame.K_SPACE: "space",
        pygame.K_BACKSPACE: "backspace",
        pygame.K_ESCAPE: "escape",
    }
    if event.key in names:
        return names[event.key]
    text = event.unicode
    return text if len(text) == 1 and "!" <= text <= "~" else None


class SimulationWindow(AlwaysHealthy, PygameDevice):
    """A window showing the 128x64 panel at ``scale`` with lines of key help below it.

    Call :meth:`pump` often from the thread that draws (SDL wants its events
    handled where its window lives): each key pressed goes to ``on_key`` by
    name, and closing the window calls ``on_close``.

    It draws on luma.emulator 1.7's own window (``_pygame``, ``_screen``) and keeps its
    ``_contrast`` and ``_last_image``, hence the pin on its minor version in pyproject.toml.
    """

    def __init__(
        self,
        *,
        help_lines: tuple[str, ...],
        on_key: Callable[[str], None],
        on_close: Callable[[], None],
        scale: int = 4,
        title: str = "Patchwork Companion",
        width: int = WIDTH,
        height: int = HEIGHT,
        mode: str = "1",
    ) -> None:
        super().__init__(width=width, height=height, mode=mode, transform="identity", scale=scale)
        pygame = self._pygame
        requested = os.environ.get("SDL_VIDEODRIVER", "")
        driver = pygame.display.get_driver()
        if driver in HEADLESS_DRIVERS and requested not in HEADLESS_DRIVERS:
            pygame.display.quit()
            raise NoGraphicalDisplay(
                f"SDL found no display to open a window on (it chose its {driver!r} driver); "
                "use --display terminal"
            )
        self._on_key, self._on_close = on_key, on_close
        pygame.display.set_caption(title)
        font = pygame.font.Font(None, HELP_FONT_SIZE)
        self._help = [font.render(line, True, HELP_COLOUR) for line in help_lines]
        panel = (self.width * scale, self.height * scale)
        help_width = max((line.get_width() for line in self._help), default=0)
        help_height = sum(line.get_height() for line in self._help)
        size = (max(panel[0], help_width) + 2 * MARGIN, panel[1] + help_height + 3 * MARGIN)
        self._screen = pygame.display.set_mode(size)
        self._panel_at = ((size[0] - panel[0]) // 2, MARGIN)
        self._help_at = []
        y = panel[1] + 2 * MARGIN
        for line in self._help:
            self._help_at.append(((size[0] - line.get_width()) // 2, y))
            y += line.get_height()
        self._screen.fill(BACKGROUND)
        pygame.display.flip()

    def display(self, image: Image.Image) -> None:
        """Draw ``image`` (luma's own drawing, without its exit on Esc or close)."""
        assert image.size == self.size
        self._last_image = image
        panel = self.to_surface(self.preprocess(image), alpha=self._contrast)
        pygame = self._pygame
        self._screen.fill(BACKGROUND)
        x, y = self._panel_at
        pygame.draw.rect(
            self._screen, FRAME, (x - 2, y - 2, panel.get_width() + 4, panel.get_height() + 4), 1
        )
        self._screen.blit(panel, self._panel_at)
        for line, position in zip(self._help, self._help_at, strict=True):
            self._screen.blit(line, position)
        pygame.display.flip()

    def contrast(self, value: int) -> None:
        """Full brightness from the default contrast up, half below it: dimmed, as the
        terminal shows it (luma's own mapping draws the default contrast half grey).

        Zero stays off, which is how luma's ``hide`` blanks the window.
        """
        if not 0 <= value <= 255:
            raise ValueError(f"contrast must be 0..255, not {value}")
        self._contrast = 1.0 if value >= DEFAULT_CONTRAST else DIM_ALPHA if value else 0.0
        if self._last_image is not None:
            self.display(self._last_image)

    def pump(self) -> None:
        """Handle the window's pending events: keys, closing, being uncovered."""
        pygame = self._pygame
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self._on_close()
            elif event.type == pygame.KEYDOWN:
                name = key_name(pygame, event)
                if name is not None:
                    self._on_key(name)
            elif event.type == pygame.WINDOWEXPOSED and self._last_image is not None:
                self.display(self._last_image)

    def cleanup(self) -> None:
        """Close the window."""
        self._pygame.display.quit()
