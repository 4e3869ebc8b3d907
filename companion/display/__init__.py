"""Display sinks: where rendered 128x64 one-bit images go."""

from companion.display.factory import DISPLAY_NAMES, DisplayUnavailable, open_display
from companion.display.oled import OledDisplay, open_oled
from companion.display.terminal import TerminalDisplay

__all__ = [
    "DISPLAY_NAMES",
    "DisplayUnavailable",
    "OledDisplay",
    "TerminalDisplay",
    "open_display",
    "open_oled",
]
