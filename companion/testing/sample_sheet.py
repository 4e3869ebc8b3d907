"""A sheet of sample screens for judging the toolkit by eye.

    python -m companion.testing.sample_sheet /tmp/render-samples

Writes one PNG per sample screen and a contact sheet of all of them, scaled up
with nearest-neighbour so each display pixel stays a crisp square.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from PIL import Image

from companion.engine.catalogue import LEATHER_POSITIONS, PATCH_BY_ID, PATCHES, Patch
from companion.render.canvas import HEIGHT, WIDTH, Box, Canvas
from companion.render.patches import common_cell, draw_patch, patch_label
from companion.render.track import TRACK_HEIGHT, draw_track
from companion.text.font import (
    ARROW_RIGHT,
    BUTTON,
    CHECK,
    CROSS,
    ICONS,
    LARGE,
    SMALL,
    TIME,
    wrap,
)

log = logging.getLogger(__name__)

ZOOM = 4
PRINTABLE = "".join(chr(code) for code in range(32, 127))


def draw_patch_label(canvas: Canvas, box: Box, patch: Patch) -> None:
    """Draw the patch's label in `box`, compact only if the spaced one does not fit."""
    label = patch_label(patch)
    if not SMALL.fits(label, box.width):
        label = patch_label(patch, compact=True)
    canvas.text_in_box(box, label, align="center")


def font_screen() -> Canvas:
    """Every printable ASCII character and the icons, 1x."""
    canvas = Canvas()
    rows = [PRINTABLE[i : i + 24] for i in range(0, len(PRINTABLE), 24)]
    rows += ["".join(ICONS), "The quick brown fox jumps", "over the lazy dog. 0O 1lI"]
    for index, row in enumerate(rows):
        canvas.text((0, index * SMALL.line_height), row)
    return canvas


def prose_screen() -> Canvas:
    """Body text as a screen would show it: wrapped lines, a selection bar."""
    canvas = Canvas()
    text = (
        "Automa takes P21 (5 buttons): moves 3 squares to 27, crosses income 23 "
        "and gets 1 button. Your turn: buy or advance?"
    )
    lines = wrap(SMALL, text, WIDTH)
    for index, line in enumerate(lines[:6]):
        canvas.text((0, index * SMALL.line_height), line)
    bar = Box(0, 6 * SMALL.line_height - 1, WIDTH, SMALL.line_height + 1)
    canvas.selection_bar(bar, f"{ARROW_RIGHT} Advance to 28  +6{BUTTON}")
    canvas.text((0, 7 * SMALL.line_height + 1), f"{CHECK} Confirm  {CROSS} Undo", max_width=WIDTH)
    return canvas


def large_screen() -> Canvas:
    """The large font: digits, capitals, a score line."""
    canvas = Canvas()
    canvas.text((0, 0), "0123456789")
    canvas.text((0, 8), "0123456789", font=LARGE)
    canvas.text((0, 24), "SCORE 17", font=LARGE)
    canvas.text((0, 40), "-12 You win!", font=LARGE)
    canvas.text_in_box(Box(0, 56, WIDTH, 8), "centred small line", align="center")
    return canvas


def patches_screens() -> list[Canvas]:
    """All 33 patches at one common scale, 11 to a screen with their labels."""
    screens = []
    columns, rows = 4, 3
    cell_box = Box(0, 0, WIDTH // columns, HEIGHT // rows - SMALL.height)
    cell = common_cell(PATCHES, cell_box.inset(1))
    for first in range(0, len(PATCHES), columns * rows - 1):
        canvas = Canvas()
        for slot, patch in enumerate(PATCHES[first : first + columns * rows - 1]):
            column, row = slot % columns, slot // columns
            x, y = column * cell_box.width, row * (HEIGHT // rows)
            draw_patch(canvas, Box(x, y, cell_box.width, cell_box.height), patch, cell=cell)
            canvas.text_in_box(
                Box(x, y + cell_box.height, cell_box.width, SMALL.height),
                f"{patch.cost}/{patch.time}",
                align="center",
            )
        screens.append(canvas)
    return screens


def market_screen() -> Canvas:
    """Three patches for sale, largest scale each, one unaffordable, with labels."""
    canvas = Canvas()
    choice = [PATCH_BY_ID[i] for i in ("P05", "P29", "P32")]
    third = WIDTH // 3
    label_y = HEIGHT - SMALL.line_height
    for slot, patch in enumerate(choice):
        area = Box(slot * third + 1, 0, third - 2, label_y - 1)
        draw_patch(canvas, area, patch, affordable=slot != 2)
        draw_patch_label(canvas, Box(slot * third, label_y, third, 8), patch)
    return canvas


def track_screen() -> Canvas:
    """Time tracks: start, shared square, endgame with a bonus mark."""
    canvas = Canvas()
    layouts = [
        ((0, 0), LEATHER_POSITIONS, None),
        ((21, 21), LEATHER_POSITIONS[1:], 44),
        ((53, 50), (), 52),
    ]
    for index, (tokens, leather, bonus) in enumerate(layouts):
        box = Box(0, index * (TRACK_HEIGHT + 8), WIDTH, TRACK_HEIGHT)
        layout = draw_track(canvas, box, tokens, leather=leather, bonus_mark=bonus)
        right = Box(layout.width + 1, box.y + 3, WIDTH - layout.width - 1, 8)
        canvas.text_in_box(right, f"{tokens[0]}", align="right")
    canvas.text((0, 56), f"Time {TIME} and buttons {BUTTON}")
    return canvas


def sample_screens() -> dict[str, Canvas]:
    """Every sample screen by name: also used by tests to check for overflow."""
    screens = {
        "font": font_screen(),
        "prose": prose_screen(),
        "large": large_screen(),
        "market": market_screen(),
        "track": track_screen(),
    }
    for index, canvas in enumerate(patches_screens()):
        screens[f"patches-{index + 1}"] = canvas
    return screens


def contact_sheet(screens: dict[str, Canvas], columns: int = 2) -> Image.Image:
    """All screens in a grid on grey, so display edges are visible, then zoomed."""
    gap = 4
    rows = -(-len(screens) // columns)
    sheet = Image.new("L", (columns * (WIDTH + gap) + gap, rows * (HEIGHT + gap) + gap), 96)
    for index, canvas in enumerate(screens.values()):
        x = gap + (index % columns) * (WIDTH + gap)
        y = gap + (index // columns) * (HEIGHT + gap)
        sheet.paste(canvas.image.convert("L"), (x, y))
    return zoom(sheet)


def zoom(image: Image.Image, factor: int = ZOOM) -> Image.Image:
    """`image` scaled up by `factor` with hard pixel edges."""
    return image.resize((image.width * factor, image.height * factor), Image.Resampling.NEAREST)


def main(argv: list[str] | None = None) -> int:
    """Write the sample PNGs into the directory given (default /tmp/render-samples)."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "/tmp/render-samples")
    out.mkdir(parents=True, exist_ok=True)
    screens = sample_screens()
    for name, canvas in screens.items():
        zoom(canvas.image.convert("L")).save(out / f"{name}.png")
        for problem in canvas.overflows:
            log.warning("%s: %s", name, problem)
    contact_sheet(screens).save(out / "sheet.png")
    log.info("wrote %d screens and sheet.png to %s", len(screens), out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
