"""`patchwork-companion simulate`: the device on a laptop.

The keyboard (or a script) drives the real gpiozero `RotaryEncoder` and
`Button` objects through `MockFactory` pins, so the simulation runs the same
input code as the device. The screen goes to the best sink there is
(:func:`choose_display`): a window on a desktop, else the terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import itertools
import json
import logging
import os
import queue as queues
import re
import signal
import string
import sys
import tempfile
import termios
import threading
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from companion.app.companion import Companion
from companion.display.factory import graphical_display_available, open_display
from companion.display.sink import Display, DisplayUnavailable, RecordingFailed
from companion.display.terminal import TerminalDisplay
from companion.engine.deal import Deal, DealCodeError, parse_deal
from companion.engine.setup import new_seed
from companion.engine.summary import state_dict
from companion.inputs.events import EventQueue
from companion.inputs.keyboard import (
    KEY_HELP,
    WINDOW_KEY_HELP,
    keyboard_session,
    parse_script,
    press_key,
)
from companion.inputs.serial_pad import SerialPad
from companion.inputs.simulated import SimulatedInputs
from companion.logs import log_to_file
from companion.output import PROGRAM, write_output
from companion.runtime.loop import DisplayLoop, Periodic, closing_on_signals
from companion.runtime.snapshot import StateSnapshot
from companion.storage.files import StorageError, move_aside
from companion.storage.paths import resolve_state_dir, write_problem
from companion.storage.store import Store
from companion.untrusted import NotRegularFileError, UnusableFileError, read_capped

if TYPE_CHECKING:  # imports pygame: only when a window is opened
    from companion.display.window import SimulationWindow

RECORDINGS = {"capture": ".png", "gifanim": ".gif"}
"""The displays that write files, and the kind of file each writes."""
WINDOW_SCALE = 4
"""Screen pixels per panel pixel in the window: 512x256, square, crisp."""
WINDOW_EVENTS_SECONDS = 1 / 30
"""How often the window's keys and close button are looked at: quicker than a person notices."""
EMULATOR_LOOK = {"transform": "identity", "scale": 3}
"""Crisp square pixels, three times the panel's size, for recordings."""
GIF_FRAME_SECONDS = 0.8
"""Long enough to read each frame of a recorded game."""


FEEDER_JOIN_SECONDS = 5.0
"""A perform waits for its event at most this long; on a closed queue it returns at once."""
SCRIPT_LIMIT = 1 << 20
"""A script of a million bytes is some 150,000 presses: far more than any game."""
LOG_NAME = "companion.log"


FRAME_NUMBER = re.compile(r"0?\d?d?")
"""The format spec a frame template may give its number: none, "04", "6d"."""


class UsageError(ValueError):
    """A command line that cannot work, said in one line."""


def window_installed() -> bool:
    """Whether luma.emulator and pygame (the ``desktop`` extra) are installed."""
    return all(importlib.util.find_spec(name) for name in ("pygame", "luma.emulator"))


def choose_display(requested: str | None, *, scripted: bool, graphical: bool, window: bool) -> str:
    """The display to use: the one asked for, else nowhere for a script, else the best there is.

    >>> choose_display(None, scripted=False, graphical=True, window=True)
    'pygame'
    >>> choose_display(None, scripted=False, graphical=True, window=False)
    'terminal'
    """
    if requested:
        return requested
    if scripted:
        return "dummy"
    return "pygame" if graphical and window else "terminal"


def capture_template(output: Path) -> str:
    """The frame file template for ``--display capture --output output``.

    A plain name (``frames/frame.png``) gets the frame number before its
    suffix (``frames/frame-000001.png``); a name with a ``str.format`` field
    (``frames/f{:04}.png``) is used as it is.

    >>> capture_template(Path("frames/frame.png"))
    'frames/frame-{:06}.png'
    """
    name = output.name
    if "{" not in name and "}" not in name:
        return os.fspath(output.with_name(f"{output.stem}-{{:06}}{output.suffix}"))
    try:
        # Only the frame number, at most 9 digits wide: "{0.x}" or "{0[0]}" raised
        # AttributeError or TypeError, "{:99999999999}" a MemoryError.
        for _, field, spec, conversion in string.Formatter().parse(name):
            if field is not None and (
                field not in ("", "0") or conversion or not FRAME_NUMBER.fullmatch(spec or "")
            ):
                shown = (
                    field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")
                )
                raise ValueError(f"{{{shown}}} is not the frame number")
        first, second = name.format(1), name.format(2)
    except (ValueError, IndexError) as error:
        raise UsageError(
            f"--output {output}: bad frame template ({error}); use {{}} or {{:04}} "
            "for the frame number"
        ) from None
    if first == second:
        raise UsageError(f"--output {output}: the template must contain the frame number")
    return os.fspath(output)


def check_output(display: str, output: Path | None) -> None:
    """Refuse, in one line and before anything runs, an ``--output`` the display cannot write."""
    if display not in RECORDINGS:
        if output is not None:
            raise UsageError("--output is only for --display capture or gifanim")
        return
    suffix = RECORDINGS[display]
    if output is None:
        raise UsageError(f"--display {display} needs --output, e.g. --output frames/game{suffix}")
    if output.suffix.lower() != suffix:
        raise UsageError(f"--output {output}: --display {display} writes {suffix} files")
    folder = output.parent
    if not folder.is_dir():
        raise UsageError(f"--output {output}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"--output {output}: folder {folder} is not writable")
    # The first file written: a folder there, or a name longer than the folder takes,
    # was found only on writing it, the GIF's at the very end of the game.
    first = Path(capture_template(output).format(1)) if display == "capture" else output
    name_max = os.pathconf(folder, "PC_NAME_MAX")
    if len(os.fsencode(first.name)) > name_max:
        raise UsageError(
            f"--output {output}: the file name is longer than the {name_max} bytes "
            f"folder {folder} takes"
        )
    if first.is_dir():
        raise UsageError(f"--output {output}: {first} is a folder")


def run(args: argparse.Namespace) -> int:
    """Simulate; errors are said as the command the user typed (`args.command`: `simulate`,
    or `run` with a terminal profile)."""
    prefix = f"{PROGRAM} {args.command}"
    name = choose_display(
        args.display,
        scripted=args.script is not None,
        graphical=graphical_display_available(),
        window=window_installed(),
    )
    try:
        check_output(name, args.output)
        deal = _deal(args)
        inputs = _read_script(args.script) if args.script else None
    except (OSError, ValueError) as error:  # ScriptError, UsageError, UnusableFileError
        return _fail(prefix, error)
    try:
        with _store(args.state_dir, scripted=inputs is not None) as store:
            return _simulate(args, name, inputs, store, prefix, deal)
    except (StorageError, DisplayUnavailable, RecordingFailed) as error:
        return _fail(prefix, error)
    except KeyboardInterrupt:
        # Ctrl-C while starting (once the loop runs, it ends the loop in order).
        return 130


def _deal(args: argparse.Namespace) -> Deal | None:
    """The deal `--deal` gives, if any; `UsageError` (one line) for a code that is not one."""
    code = getattr(args, "deal", None)  # only `simulate` takes one
    if code is None:
        return None
    if args.seed is not None:
        raise UsageError("--deal and --seed cannot be given together: a deal code is a seed")
    try:
        return parse_deal(code)
    except DealCodeError as error:
        raise UsageError(f"--deal {code}: {error}") from None


def _read_script(path: Path) -> list:
    """The inputs of a script file; `ValueError` (one line) if it is not a UTF-8 text file of
    input names."""
    try:
        data, size = read_capped(path, SCRIPT_LIMIT)
        if size > len(data):
            raise UnusableFileError(f"{size:,} bytes, more than a script can hold")
        text = data.decode("utf-8")
    except OSError as error:  # as `replay` says it, not "[Errno 2] No such file ...: 'path'"
        raise UnusableFileError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise UnusableFileError(f"{path}: not UTF-8 text (byte {error.start})") from None
    except UnusableFileError as error:
        raise UnusableFileError(f"{path}: {error}") from None
    return parse_script(text, str(path))


def log_in_state_dir(state_dir: Path, prefix: str) -> None:
    """Log to companion.log in the state directory; a link or FIFO there is moved aside first.

    A card that takes no log (read-only, full) does not stop the simulation: the screen
    says that nothing can be saved, and the records go nowhere rather than over it.
    """
    path = state_dir / LOG_NAME
    try:
        try:
            log_to_file(path)
        except NotRegularFileError:
            move_aside(path, "companion-log-damaged", path.suffix, datetime.now())
            log_to_file(path)
    except OSError as error:
        print(
            f"{prefix}: not logging to {path}: {error.strerror or error}",
            file=sys.stderr,
        )
        logging.basicConfig(handlers=[logging.NullHandler()])


def _fail(prefix: str, error: Exception) -> int:
    print(f"{prefix}: {error}", file=sys.stderr)
    return 2


@contextlib.contextmanager
def _store(requested: Path | None, *, scripted: bool) -> Iterator[Store]:
    """The state directory's store, held by this process (one companion per state
    directory); a script without ``--state-dir`` never plays on the real game."""
    if scripted and requested is None:
        with (
            tempfile.TemporaryDirectory(prefix="patchwork-script-") as temporary,
            Store(Path(temporary)) as store,
        ):
            yield store
    else:
        with Store(resolve_state_dir(requested)) as store:
            yield store


def _simulate(
    args: argparse.Namespace,
    name: str,
    inputs: list | None,
    store: Store,
    prefix: str,
    deal: Deal | None,
) -> int:
    state_dir = store.directory
    # The terminal shows the screen: messages go to a file beside the database.
    log_in_state_dir(state_dir, prefix)
    seeds = itertools.count(args.seed).__next__ if args.seed is not None else new_seed
    if deal is not None:
        seeds = itertools.repeat(deal.seed).__next__
    queue = EventQueue()
    with SimulatedInputs(queue) as simulated, contextlib.ExitStack() as stack:
        display, periodic = _open(name, args, simulated, stack)
        app = Companion(
            state_dir,
            seeds,
            cannot_save=write_problem(state_dir),
            ask_language=inputs is None,
            deal=deal,
            store=store,
        )
        pad = getattr(args, "serial_pad", None)  # only `run` passes one
        # The state for the pad's STATE, renewed after each frame only if there is a pad.
        snapshot = StateSnapshot(app)
        on_frame = snapshot.renew if pad else None
        loop = DisplayLoop(app, display, periodic=periodic, on_frame=on_frame)
        stack.enter_context(closing_on_signals(queue))
        if pad:
            # `run` with a terminal profile that has a pad: it played on the keyboard
            # alone, the pad unread without a word.
            stack.enter_context(SerialPad(pad.url, pad.baudrate, queue, snapshot))
        if inputs is not None:
            feeder = threading.Thread(target=_feed, args=(simulated, inputs), daemon=True)
            feeder.start()
            # On the way out (the end, Ctrl-C), stop the feeder before its pins close.
            stack.callback(feeder.join, FEEDER_JOIN_SECONDS)
            stack.callback(queue.close)
        elif os.isatty(0) or not periodic:
            # A window started with no terminal (stdin at its end) is played in the window alone.
            if isinstance(display, TerminalDisplay) and os.isatty(0):
                stack.enter_context(job_control(display, queue))
            stack.enter_context(keyboard_session(simulated))
        loop.run(queue)
    if args.json:
        game = app.game or app.last_finished
        write_output(json.dumps(state_dict(game) if game else None))
    return 0


def _open(
    name: str, args: argparse.Namespace, simulated: SimulatedInputs, stack: contextlib.ExitStack
) -> tuple[Display, tuple[Periodic, ...]]:
    """Open the display (cleaned up when ``stack`` closes) and the timers it needs."""
    if name == "pygame":
        try:
            return _open_window(simulated, stack)
        except DisplayUnavailable as error:
            if args.display:
                raise
            logging.getLogger(__name__).info("no window, drawing in the terminal: %s", error)
            name = "terminal"
    options: dict[str, Any] = {}
    if name == "terminal":
        options["help_text"] = KEY_HELP
    elif name in RECORDINGS:
        options |= EMULATOR_LOOK
        if name == "gifanim":
            options["duration"] = GIF_FRAME_SECONDS
        options["path"] = capture_template(args.output) if name == "capture" else args.output
    display = open_display(name, **options)
    stack.callback(display.cleanup)
    if isinstance(display, TerminalDisplay):
        stack.enter_context(display.follow_resizes())
    return display, ()


def _open_window(
    simulated: SimulatedInputs, stack: contextlib.ExitStack
) -> tuple[Display, tuple[Periodic, ...]]:
    """The window, with its keys performed on a thread of their own (a hold must not stop it)."""
    keys: queues.SimpleQueue[str | None] = queues.SimpleQueue()
    window = cast(
        "SimulationWindow",  # what open_display("pygame") opens
        open_display(
            "pygame",
            help_lines=WINDOW_KEY_HELP,
            on_key=keys.put,
            on_close=simulated.queue.close,
            scale=WINDOW_SCALE,
        ),
    )
    stack.callback(window.cleanup)

    def press_window_keys() -> None:
        try:
            for key in iter(keys.get, None):
                if not press_key(simulated, key):
                    return
        finally:
            simulated.queue.close()

    threading.Thread(target=press_window_keys, name="window keys", daemon=True).start()
    stack.callback(keys.put, None)
    if os.isatty(0):
        write_output("The companion is in its window; its keys work there and here.")
    return window, (Periodic(WINDOW_EVENTS_SECONDS, window.pump),)


@contextlib.contextmanager
def job_control(display: TerminalDisplay, queue: EventQueue, fd: int = 0) -> Iterator[None]:
    """Ctrl-Z and Ctrl-\\ at the keyboard, in order; entered before the keys' cbreak mode.

    Ctrl-Z (SIGTSTP) gives the terminal back to the shell as it was, and `fg` draws the
    whole screen again; Ctrl-\\ (SIGQUIT) ends the simulation as q and Ctrl-C do. Left
    to their defaults, the first stopped the program with the shell in the alternate
    screen, no cursor and no echo, and `fg` drew only the rows that changed over the
    shell's lines; the second killed it with the terminal left in that state.
    """
    shell_modes = termios.tcgetattr(fd)

    def suspend(signum: int, frame: object) -> None:
        key_modes = termios.tcgetattr(fd)
        display.cleanup()
        termios.tcsetattr(fd, termios.TCSADRAIN, shell_modes)
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)  # stopped here until `fg`
        signal.signal(signal.SIGTSTP, suspend)
        termios.tcsetattr(fd, termios.TCSADRAIN, key_modes)
        display.resized()  # back on the alternate screen, every row drawn

    def end(signum: int, frame: object) -> None:
        queue.close()

    previous = {
        signal.SIGTSTP: signal.signal(signal.SIGTSTP, suspend),
        signal.SIGQUIT: signal.signal(signal.SIGQUIT, end),
    }
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _feed(simulated: SimulatedInputs, inputs: list) -> None:
    try:
        for item in inputs:
            if simulated.queue.closed:
                return
            simulated.perform(item)
    finally:
        simulated.queue.close()
