"""Every screen of the companion: a view (plain data) in, a 128×64 one-bit image out.

    render(view) -> PIL.Image.Image        mode "1", 128×64
    render_canvas(view) -> Canvas          the same, with `overflows` for tests and logs

Both are pure: the image depends on the view and nothing else (no clock, no
state kept between calls), so the same view always gives the same bytes. The
layouts live in `screens_menus` (menus, questions, numbers, pages, notices,
input test) and `screens_game` (dealing, turn, steps, Automa, score).

    python -m companion.render.screens --write-goldens tests/golden [--zoom DIR]

rewrites the golden images of the tests from `screen_examples.EXAMPLES`
(and, with --zoom, 4× copies for looking at them).
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from companion.app.views import (
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
    View,
)
from companion.render.canvas import Canvas
from companion.render.screens_game import (
    draw_automa,
    draw_deal,
    draw_pick_patch,
    draw_score,
    draw_step,
    draw_turn,
)
from companion.render.screens_menus import (
    draw_input_test,
    draw_menu,
    draw_number,
    draw_question,
    draw_test_pattern,
    draw_text,
)

__all__ = ["LAYOUTS", "render", "render_canvas"]

log = logging.getLogger(__name__)

LAYOUTS: dict[type, Callable[[Canvas, Any], None]] = {
    MenuView: draw_menu,
    DealView: draw_deal,
    PickPatchView: draw_pick_patch,
    TurnView: draw_turn,
    StepView: draw_step,
    AutomaView: draw_automa,
    QuestionView: draw_question,
    NumberView: draw_number,
    ScoreView: draw_score,
    TextView: draw_text,
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


def write_goldens(directory: Path, zoom_directory: Path | None = None) -> list[Path]:
    """Render every example into `directory` as `<name>.png` (and 4× into `zoom_directory`)."""
    from companion.render.sample_sheet import zoom
    from companion.render.screen_examples import EXAMPLES

    directory.mkdir(parents=True, exist_ok=True)
    if zoom_directory is not None:
        zoom_directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, view in EXAMPLES.items():
        canvas = render_canvas(view)
        for problem in canvas.overflows:
            log.warning("%s: %s", name, problem)
        path = directory / f"{name}.png"
        canvas.image.save(path)
        written.append(path)
        if zoom_directory is not None:
            zoom(canvas.image.convert("L")).save(zoom_directory / f"{name}.png")
    return written


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    parser = argparse.ArgumentParser(prog="python -m companion.render.screens")
    parser.add_argument("--write-goldens", type=Path, required=True, metavar="DIR")
    parser.add_argument("--zoom", type=Path, metavar="DIR", help="also write 4x copies here")
    args = parser.parse_args(argv)
    written = write_goldens(args.write_goldens, args.zoom)
    log.info("wrote %d golden images to %s", len(written), args.write_goldens)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
