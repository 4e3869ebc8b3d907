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

from luma.emulator.device import pygame as PygameDevice
from PIL import Image

HEADLESS_DRIVERS = frozenset({"offscreen", "dummy"})
"""SDL video drivers that draw nowhere: pygame falls back to them when there is no display."""
MARGIN = 12
BACKGROUND, FRAME, HELP_COLOUR = (24, 24, 24), (90, 90, 90), (200, 200, 200)
HELP_FONT_SIZE = 22


class NoGraphicalDisplay(RuntimeError):
    """There is no desktop to open the window on."""


def key_name(pygame, event) -> str | None:
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


class SimulationWindow(PygameDevice):
    """A window showing the 128x64 panel at ``scale`` with a key help line below it.

    Call :meth:`pump` often from the thread that draws (SDL wants its events
    handled where its window lives): each key pressed goes to ``on_key`` by
    name, and closing the window calls ``on_close``.
    """

    def __init__(
        self,
        *,
        help_text: str,
        on_key: Callable[[str], None],
        on_close: Callable[[], None],
        scale: int = 4,
        title: str = "Patchwork Companion",
    ) -> None:
        super().__init__(width=128, height=64, mode="1", transform="identity", scale=scale)
        pygame = self._pygame
        requested = os.environ.get("SDL_VIDEODRIVER", "")
        if pygame.display.get_driver() in HEADLESS_DRIVERS and requested not in HEADLESS_DRIVERS:
            pygame.display.quit()
            raise NoGraphicalDisplay(
                "there is no graphical display to open a window on "
                "(DISPLAY is not set); use --display terminal"
            )
        self._on_key, self._on_close = on_key, on_close
        pygame.display.set_caption(title)
        self._help = pygame.font.Font(None, HELP_FONT_SIZE).render(help_text, True, HELP_COLOUR)
        panel = (self.width * scale, self.height * scale)
        size = (
            max(panel[0], self._help.get_width()) + 2 * MARGIN,
            panel[1] + self._help.get_height() + 3 * MARGIN,
        )
        self._screen = pygame.display.set_mode(size)
        self._panel_at = ((size[0] - panel[0]) // 2, MARGIN)
        self._help_at = ((size[0] - self._help.get_width()) // 2, panel[1] + 2 * MARGIN)
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
        self._screen.blit(self._help, self._help_at)
        pygame.display.flip()

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
