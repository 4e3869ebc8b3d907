"""`patchwork-companion simulate`: the device on a laptop.

The keyboard (or a script) drives the real gpiozero `RotaryEncoder` and
`Button` objects through `MockFactory` pins, so the simulation runs the same
input code as the device; the display is the terminal or a luma.emulator
device.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import sys
import threading
from pathlib import Path

from companion.app.companion import Companion
from companion.display.factory import DisplayUnavailable, open_display
from companion.display.sink import Display
from companion.engine.setup import new_seed
from companion.engine.summary import state_dict
from companion.inputs.events import EventQueue
from companion.inputs.keyboard import KEY_HELP, ScriptError, keyboard_session, parse_script
from companion.inputs.simulated import SimulatedInputs
from companion.runtime.loop import DisplayLoop
from companion.storage.files import StorageError
from companion.storage.paths import resolve_state_dir

DISPLAYS = ("terminal", "pygame", "capture", "gifanim", "dummy")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--display",
        choices=DISPLAYS,
        help="where to draw: the terminal (default), a pygame window, PNG captures, an "
        "animated GIF, or nowhere (dummy; the default with --script)",
    )
    parser.add_argument("--output", type=Path, help="file for capture/gifanim (e.g. game.gif)")
    parser.add_argument("--script", type=Path, help="read inputs from FILE, one per line, and exit")
    parser.add_argument("--seed", type=int, help="deal and shuffle new games reproducibly")
    parser.add_argument("--state-dir", type=Path, help="where journal, history, settings live")
    parser.add_argument("--json", action="store_true", help="print the final state as JSON on exit")


def run(args: argparse.Namespace) -> int:
    try:
        inputs = parse_script(args.script.read_text(), str(args.script)) if args.script else None
        state_dir = resolve_state_dir(args.state_dir)
    except (OSError, ScriptError, StorageError) as error:
        print(f"patchwork-companion simulate: {error}", file=sys.stderr)
        return 2
    # The terminal shows the screen: messages go to a file beside the journal.
    logging.basicConfig(
        filename=state_dir / "companion.log",
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    seeds = itertools.count(args.seed).__next__ if args.seed is not None else new_seed
    app = Companion(state_dir, seeds)
    name = args.display or ("dummy" if inputs is not None else "terminal")
    try:
        display = _open(name, args.output)
    except DisplayUnavailable as error:
        print(f"patchwork-companion simulate: {error}", file=sys.stderr)
        return 2
    queue = EventQueue()
    loop = DisplayLoop(app, display)
    with SimulatedInputs(queue) as simulated:
        if inputs is None:
            with keyboard_session(simulated):
                loop.run(queue)
        else:
            feeder = threading.Thread(target=_feed, args=(simulated, inputs), daemon=True)
            feeder.start()
            loop.run(queue)
    display.cleanup()
    if args.json:
        game = app.game or app.last_finished
        print(json.dumps(state_dict(game) if game else None))
    return 0


EMULATOR_LOOK = {"transform": "identity", "scale": 3}
"""Crisp square pixels, three times the panel's size, for windows and recordings."""
GIF_FRAME_SECONDS = 0.8
"""Long enough to read each frame of a recorded game."""


def _open(name: str, output: Path | None) -> Display:
    if name == "terminal":
        return open_display(name, help_text=KEY_HELP)
    if name == "dummy":
        return open_display(name)
    options = dict(EMULATOR_LOOK)
    if name == "gifanim":
        options["duration"] = GIF_FRAME_SECONDS
    return open_display(name, path=output, **options)


def _feed(simulated: SimulatedInputs, inputs: list) -> None:
    try:
        for item in inputs:
            simulated.perform(item)
    finally:
        simulated.queue.close()
