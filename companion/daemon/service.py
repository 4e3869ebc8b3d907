"""`patchwork-companion run`: the companion on its hardware, started at boot.

One application thread sleeps in the input queue; gpiozero's callbacks and
the serial pad's reader only enqueue. The store makes every confirmed
action durable, so SIGTERM only has to say goodbye.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from gpiozero.exc import GPIOZeroError

from companion.app.companion import Companion
from companion.daemon.notify import Notifier
from companion.display.factory import open_display
from companion.display.oled import open_oled
from companion.display.sink import Display, DisplayUnavailable
from companion.hardware.config import HardwareProfile
from companion.hardware.constants import TERMINAL_DRIVER
from companion.hardware.flags import apply_display_overrides
from companion.hardware.profile import ProfileError, default_profile_name, load_profile
from companion.inputs.events import EventQueue
from companion.inputs.gpio import open_gpio_inputs
from companion.inputs.keyboard import KEY_HELP
from companion.inputs.serial_pad import SerialPad
from companion.logs import log_to_stderr
from companion.output import PROGRAM
from companion.render.screens import render
from companion.runtime.loop import DisplayLoop, LoopFigures, Periodic, closing_on_signals
from companion.runtime.snapshot import StateSnapshot
from companion.storage.files import StorageError
from companion.storage.paths import resolve_state_dir, write_problem
from companion.storage.store import Store

log = logging.getLogger(__name__)

EXIT_BAD_SETUP = 2


def open_profile(args: argparse.Namespace) -> HardwareProfile:
    return apply_display_overrides(load_profile(args.profile or default_profile_name()), args)


def run(args: argparse.Namespace) -> int:
    try:
        profile = open_profile(args)
        state_dir = resolve_state_dir(args.state_dir)
    except (ProfileError, StorageError) as error:
        print(f"{PROGRAM}: {error}", file=sys.stderr)
        return EXIT_BAD_SETUP
    if profile.display.driver == TERMINAL_DRIVER:
        # No panel and no GPIO: the simulation, driven from this terminal's keyboard.
        from companion import simulate  # only here: the device starts faster without it

        return simulate.run(
            argparse.Namespace(
                command=args.command,  # its errors name `run`, the command typed
                display=None,
                output=None,
                script=None,
                seed=None,
                state_dir=state_dir,
                json=False,
                serial_pad=profile.serial_pad,  # read as on the device, beside the keyboard
            )
        )
    log_to_stderr()
    try:
        store = Store(state_dir)  # held by this process: one companion per state directory
    except StorageError as error:
        print(f"{PROGRAM}: {error}", file=sys.stderr)
        return EXIT_BAD_SETUP
    queue = EventQueue()
    with ExitStack() as stack:
        stack.enter_context(store)
        app = Companion(
            state_dir, cannot_save=write_problem(state_dir), ask_language=True, store=store
        )
        try:
            display = stack.enter_context(panel_for(profile))
            stack.enter_context(open_gpio_inputs(profile.inputs, queue))
        except (DisplayUnavailable, GPIOZeroError, OSError) as error:
            print(f"{PROGRAM}: {profile.name}: {error}", file=sys.stderr)
            return EXIT_BAD_SETUP
        stack.enter_context(closing_on_signals(queue))
        serve(app, display, queue, Notifier.from_environment(), profile)
    log.info("stopped; the game is saved")
    return 0


def serve(
    app: Companion,
    display: Display,
    queue: EventQueue,
    notifier: Notifier,
    profile: HardwareProfile,
) -> LoopFigures:
    """Run the companion until `queue` is closed, then leave the "saved" screen up."""
    snapshot = StateSnapshot(app)
    with ExitStack() as stack:
        if profile.serial_pad:
            pad = SerialPad(profile.serial_pad.url, profile.serial_pad.baudrate, queue, snapshot)
            stack.enter_context(pad)
        loop = _loop(app, display, notifier, snapshot)
        notifier.status(f"running with profile {profile.name}")
        figures = loop.run(queue)
    # Left on the panel after the service stops: luma clears it unless asked not to.
    display.persist = True
    display.display(render(app.saved_view()))
    notifier.stopping()
    return figures


def _loop(
    app: Companion, display: Display, notifier: Notifier, snapshot: StateSnapshot
) -> DisplayLoop:
    ready: list[bool] = []

    def frame_sent() -> None:
        snapshot.renew()
        if not ready:
            ready.append(True)
            notifier.ready("first frame shown")

    periodic: tuple[Periodic, ...] = ()
    if notifier.watchdog_interval:
        periodic = (Periodic(notifier.watchdog_interval, notifier.watchdog),)
    loop = DisplayLoop(app, display, periodic=periodic, on_frame=frame_sent)
    app.store.keepalive = loop.keepalive  # a slow screen (statistics) keeps the watchdog fed
    return loop


@contextmanager
def panel_for(profile: HardwareProfile) -> Iterator[Display]:
    """The profile's display, opened, and cleaned up afterwards."""
    display: Display
    if profile.display.driver == TERMINAL_DRIVER:
        display = open_display("terminal", help_text=KEY_HELP)
    else:
        display = open_oled(profile.display)
    try:
        yield display
    finally:
        display.cleanup()
