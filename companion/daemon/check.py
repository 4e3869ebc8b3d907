"""`patchwork-companion check-hardware`: is everything wired as the profile says?

It opens the display and shows a test pattern naming the profile, then shows
and prints every input as it arrives, until Ctrl-C (or q in simulation).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack

from gpiozero.exc import GPIOZeroError

from companion.daemon.service import EXIT_BAD_SETUP, open_profile, panel_for
from companion.display.sink import DisplayUnavailable
from companion.display.terminal import TerminalDisplay
from companion.hardware.config import HardwareProfile
from companion.hardware.constants import TERMINAL_DRIVER
from companion.hardware.profile import ProfileError
from companion.inputs.events import EventQueue
from companion.inputs.gpio import open_gpio_inputs
from companion.inputs.keyboard import keyboard_session
from companion.inputs.serial_pad import SerialPad
from companion.inputs.simulated import SimulatedInputs
from companion.output import PROGRAM, write_output
from companion.render.screens import render
from companion.runtime.loop import closing_on_signals
from companion.views import InputTestView, TestPatternView

SHOWN_EVENTS = 6


def describe(profile: HardwareProfile) -> list[str]:
    """The build in a few lines, for the terminal."""
    display = profile.display
    if display.driver == TERMINAL_DRIVER:
        where = "this terminal"
    elif display.interface == "i2c":
        where = f"I2C bus {display.i2c_port}, address 0x{display.i2c_address:02X}"
    else:
        where = f"SPI {display.spi_port}.{display.spi_device}, DC GPIO {display.gpio_dc}"
    lines = [
        f"profile {profile.name} ({profile.source})",
        f"display: {display.driver} on {where}, rotation {display.rotation}",
    ]
    encoder = profile.inputs.encoder
    if encoder:
        switch = f", switch GPIO {encoder.switch}" if encoder.switch is not None else ""
        lines.append(f"encoder: A GPIO {encoder.a}, B GPIO {encoder.b}{switch}")
    lines += [f"button: GPIO {button.pin} -> {button.input}" for button in profile.inputs.buttons]
    if profile.serial_pad:
        lines.append(f"serial pad: {profile.serial_pad.url} at {profile.serial_pad.baudrate} baud")
    return lines


def pattern_for(profile: HardwareProfile) -> TestPatternView:
    display = profile.display
    bus = "terminal" if display.driver == TERMINAL_DRIVER else display.interface.upper()
    return TestPatternView(
        ("Patchwork Companion", profile.name, f"{display.driver.upper()} {bus}", "press or turn")
    )


def run(args: argparse.Namespace) -> int:
    try:
        profile = open_profile(args)
    except ProfileError as error:
        print(f"{PROGRAM}: {error}", file=sys.stderr)
        return EXIT_BAD_SETUP
    write_output("\n".join(describe(profile)))
    queue = EventQueue()
    with ExitStack() as stack:
        try:
            display = stack.enter_context(panel_for(profile))
            if profile.display.driver == TERMINAL_DRIVER:
                simulated = stack.enter_context(SimulatedInputs(queue))
                if isinstance(display, TerminalDisplay) and os.isatty(0):
                    # Imported here: a panel's check never needs the simulation.
                    from companion.simulate import job_control

                    stack.enter_context(job_control(display, queue))
                stack.enter_context(keyboard_session(simulated))
            else:
                stack.enter_context(open_gpio_inputs(profile.inputs, queue))
        except (DisplayUnavailable, GPIOZeroError, OSError) as error:
            print(f"{PROGRAM}: {profile.name}: {error}", file=sys.stderr)
            return EXIT_BAD_SETUP
        if profile.serial_pad:
            pad = SerialPad(
                profile.serial_pad.url, profile.serial_pad.baudrate, queue, lambda: None
            )
            stack.enter_context(pad)
        stack.enter_context(closing_on_signals(queue))
        display.display(render(pattern_for(profile)))
        show_inputs(queue, display.display, print_line=_print_unless_terminal(profile))
    return 0


def _print_unless_terminal(profile: HardwareProfile) -> Callable[[str], None]:
    # In simulation the terminal shows the screen: printing would scroll it away.
    if profile.display.driver == TERMINAL_DRIVER:
        return lambda line: None
    return write_output


def check_inputs_view(events: list[str]) -> InputTestView:
    """check-hardware's input screen: a command-line tool's, so in English."""
    return InputTestView(
        tuple(events[-SHOWN_EVENTS:]),
        "Input test",
        f"inputs: {len(events)}",
        "Press or turn anything",
        "Ctrl-C to stop",
    )


def show_inputs(queue: EventQueue, show: Callable, print_line: Callable[[str], None]) -> int:
    """Show and print each input as it arrives, until the queue is closed; returns the count."""
    events: list[str] = []
    started = time.monotonic()
    while (event := queue.get_event()) is not None:
        events.append(event.input.value)
        print_line(f"{event.timestamp - started:9.3f} s  {event.input.value}")
        show(render(check_inputs_view(events)))
    return len(events)
