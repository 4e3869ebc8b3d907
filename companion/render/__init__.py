"""Rendering toolkit for the 128×64 one-bit display.

Screens are composed from these primitives: a `Canvas` that records text
overflow, the `SMALL`/`LARGE` pixel fonts with icons, patch and time-track
drawings, and braille output for the terminal simulation.
"""

from companion.render.braille import braille_text, to_braille
from companion.render.canvas import DISPLAY, HEIGHT, WIDTH, Align, Box, Canvas, TextBox
from companion.render.font import (
    ARROW_DOWN,
    ARROW_LEFT,
    ARROW_RIGHT,
    ARROW_TO,
    ARROW_UP,
    BUTTON,
    CHECK,
    CROSS,
    LARGE,
    LEATHER,
    SMALL,
    TIME,
    Font,
    wrap,
)
from companion.render.patches import (
    PatchLayout,
    common_cell,
    cross_out,
    draw_patch,
    draw_patch_label,
    fit_cell,
    patch_label,
)
from companion.render.track import TRACK_HEIGHT, TrackLayout, draw_track

__all__ = [
    "ARROW_DOWN",
    "ARROW_LEFT",
    "ARROW_RIGHT",
    "ARROW_TO",
    "ARROW_UP",
    "BUTTON",
    "CHECK",
    "CROSS",
    "DISPLAY",
    "HEIGHT",
    "LARGE",
    "LEATHER",
    "SMALL",
    "TIME",
    "TRACK_HEIGHT",
    "WIDTH",
    "Align",
    "Box",
    "Canvas",
    "Font",
    "PatchLayout",
    "TextBox",
    "TrackLayout",
    "braille_text",
    "common_cell",
    "cross_out",
    "draw_patch",
    "draw_patch_label",
    "draw_track",
    "fit_cell",
    "patch_label",
    "to_braille",
    "wrap",
]
