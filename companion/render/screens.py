"""Every screen of the companion: a view (plain data) in, a 128×64 one-bit image out.

    render(view) -> PIL.Image.Image        mode "1", 128×64
    render_canvas(view) -> Canvas          the same, with `overflows` for tests and logs

Both are pure: the image depends on the view and nothing else (no clock, no
state kept between calls), so the same view always gives the same bytes. The
layouts live in `screens_menus` (menus, questions, numbers, pages, notices,
input test), `screens_verdicts` (a solo game against every level), `screens_circle`
(dealing and entering the circle) and `screens_game` (turn, steps, Automa, score); the
last three are imported when a screen of theirs is first drawn.

The golden images of the tests are written by `companion.testing.goldens`.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import Any

from PIL import Image

from companion.render.canvas import Canvas
from companion.render.screens_menus import (
    draw_input_test,
    draw_menu,
    draw_number,
    draw_question,
    draw_test_pattern,
    draw_text,
)
from companion.views import (
    AutomaView,
    DealView,
    InputTestView,
    MenuView,
    NumberView,
    PickPatchView,
    QuestionView,
    ScoreView,
    StepView,
    TestPatternView,
    TextView,
    TurnView,
    VerdictsView,
    View,
)

__all__ = ["LAYOUTS", "render", "render_canvas"]

log = logging.getLogger(__name__)


def _imported_when_drawn(module: str, name: str) -> Callable[[Canvas, Any], None]:
    """The layout `name` of `module`, imported when a screen first needs it: the game's
    layouts bring the patches, the track and the engine's catalogue, and a fresh start's
    first frame, the home menu, needs none of them (see `Companion.game_rooms`), nor
    does a resumed game's turn need the verdicts' table of a solo game's end."""

    def layout(canvas: Canvas, view: Any) -> None:
        getattr(importlib.import_module(module), name)(canvas, view)

    return layout


_SCREENS_GAME = "companion.render.screens_game"
_SCREENS_CIRCLE = "companion.render.screens_circle"
_SCREENS_VERDICTS = "companion.render.screens_verdicts"
LAYOUTS: dict[type, Callable[[Canvas, Any], None]] = {
    MenuView: draw_menu,
    DealView: _imported_when_drawn(_SCREENS_CIRCLE, "draw_deal"),
    PickPatchView: _imported_when_drawn(_SCREENS_CIRCLE, "draw_pick_patch"),
    TurnView: _imported_when_drawn(_SCREENS_GAME, "draw_turn"),
    StepView: _imported_when_drawn(_SCREENS_GAME, "draw_step"),
    AutomaView: _imported_when_drawn(_SCREENS_GAME, "draw_automa"),
    QuestionView: draw_question,
    NumberView: draw_number,
    ScoreView: _imported_when_drawn(_SCREENS_GAME, "draw_score"),
    TextView: draw_text,
    VerdictsView: _imported_when_drawn(_SCREENS_VERDICTS, "draw_verdicts"),
    InputTestView: draw_input_test,
    TestPatternView: draw_test_pattern,
}
"""The layout function of each view type."""


def render_canvas(view: View) -> Canvas:
    """Draw `view` on a fresh canvas; its `overflows` list what did not fit."""
    layout = LAYOUTS.get(type(view))
    if layout is None:
        raise TypeError(f"no layout for {type(view).__name__}")
    canvas = Canvas()
    layout(canvas, view)
    return canvas


def render(view: View) -> Image.Image:
    """The screen for `view`: a mode "1" 128×64 image."""
    return render_canvas(view).image
