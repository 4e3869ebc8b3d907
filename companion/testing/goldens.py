"""Writes the golden images of the screen tests from `screen_examples.EXAMPLES`.

    python -m companion.testing.goldens --write-goldens tests/golden [--zoom DIR]

rewrites them (and, with --zoom, writes 4× copies for looking at them).
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from companion.render.screens import render_canvas
from companion.testing.sample_sheet import zoom
from companion.testing.screen_examples import EXAMPLES

log = logging.getLogger(__name__)


def write_goldens(directory: Path, zoom_directory: Path | None = None) -> list[Path]:
    """Render every example into `directory` as `<name>.png` (and 4× into `zoom_directory`)."""
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
    parser = argparse.ArgumentParser(prog="python -m companion.testing.goldens")
    parser.add_argument("--write-goldens", type=Path, required=True, metavar="DIR")
    parser.add_argument("--zoom", type=Path, metavar="DIR", help="also write 4x copies here")
    args = parser.parse_args(argv)
    written = write_goldens(args.write_goldens, args.zoom)
    log.info("wrote %d golden images to %s", len(written), args.write_goldens)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
