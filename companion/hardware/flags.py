"""luma-style display flags: ``--display sh1106 --interface i2c --i2c-address 0x3D``.

The same option names and meanings as ``luma.core.cmdline.create_parser``, so
luma's examples and documentation apply. :func:`add_display_arguments` adds
them to a parser; :func:`apply_display_overrides` applies those given to a
profile and checks the result as the profile loader would, naming the flag in
any refusal (``command line: --gpio-data-command: missing ...``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from companion.hardware.config import HardwareProfile
from companion.hardware.constants import DRIVERS, HEIGHT, TERMINAL_DRIVER, WIDTH
from companion.hardware.pins import check_pins, display_pins, groups_needed
from companion.hardware.sections import BUS_KEYS, DISPLAY_KEYS, display_as_table, read_display
from companion.hardware.tables import Table, Where


@dataclass(frozen=True, slots=True)
class _Flag:
    """One display flag: its argparse destination and the DisplayConfig field it sets."""

    dest: str
    """The argparse destination, as luma.core.cmdline names it."""
    key: str
    """The DisplayConfig field it sets."""
    type: Callable[[str], Any]
    help: str


def _i2c_address(text: str) -> int:
    """``0x3C``, ``3C`` or ``60``."""
    try:
        return int(text, 0)
    except ValueError:
        pass
    try:
        return int(text, 16)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an I2C address such as 0x3C") from None


# Same option names and meanings as luma.core.cmdline.create_parser, so luma's
# examples and documentation apply; defaults are None so that only the flags
# given override the profile.
_FLAGS = (
    _Flag("display", "driver", str, f"display driver: {', '.join(DRIVERS)}"),
    _Flag("interface", "interface", str, "interface type: i2c or spi"),
    _Flag("i2c_port", "i2c_port", int, "I2C bus number (1 on the 40-pin header)"),
    _Flag("i2c_address", "i2c_address", _i2c_address, "I2C display address, e.g. 0x3C or 0x3D"),
    _Flag("i2c_bus_speed", "bus_speed_hz", int, "I2C bus speed (Hz), as set in config.txt"),
    _Flag("spi_port", "spi_port", int, "SPI port number"),
    _Flag("spi_device", "spi_device", int, "SPI device (chip select)"),
    _Flag("spi_bus_speed", "bus_speed_hz", int, "SPI max bus speed (Hz)"),
    _Flag("gpio_data_command", "gpio_dc", int, "GPIO pin for D/C (SPI interface only)"),
    _Flag("gpio_reset", "gpio_reset", int, "GPIO pin for RESET (SPI interface only)"),
    _Flag("width", "width", int, f"width of the device in pixels (must be {WIDTH})"),
    _Flag("height", "height", int, f"height of the device in pixels (must be {HEIGHT})"),
    _Flag("rotate", "rotation", int, "rotation in quarter turns, as luma: 0, or 2 for 180 degrees"),
)


def _option(flag: _Flag) -> str:
    return "--" + flag.dest.replace("_", "-")


def add_display_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add luma-style display flags (``--display``, ``--i2c-address``...) to ``parser``.

    Each flag defaults to None, meaning "as the profile says"; pass the parsed
    arguments to :func:`apply_display_overrides`. Returns ``parser``.
    """
    group = parser.add_argument_group(
        "display", "override the hardware profile's display (flag names as in luma.core.cmdline)"
    )
    for flag in _FLAGS:
        metavar = flag.dest.upper() if flag.dest != "rotate" else "QUARTER_TURNS"
        group.add_argument(
            _option(flag), dest=flag.dest, type=flag.type, default=None, metavar=metavar,
            help=flag.help,
        )  # fmt: skip
    return parser


def apply_display_overrides(profile: HardwareProfile, args: argparse.Namespace) -> HardwareProfile:
    """``profile`` with the display flags in ``args`` applied and the result checked again.

    Flags not given (None, or absent from ``args``) keep the profile's values.
    Switching ``--interface`` drops the other interface's settings from the
    profile, so the new one must be given in full (e.g. ``--gpio-data-command``
    with ``--interface spi``). Raises :class:`ProfileError` with the flag as the key.
    """
    given = {
        flag.dest: getattr(args, flag.dest)
        for flag in _FLAGS
        if getattr(args, flag.dest, None) is not None
    }
    if not given:
        return profile
    where = Where("command line")
    old = profile.display
    labels = {flag.key: _option(flag) for flag in _FLAGS}

    raw = display_as_table(old)
    driver = given.get("display", old.driver)
    keeps_interface = TERMINAL_DRIVER not in (driver, old.driver)
    interface = given.get("interface", old.interface if keeps_interface else None)
    # A new interface (or none, or a first one) starts from that interface's defaults.
    if TERMINAL_DRIVER in (driver, old.driver) or interface != old.interface:
        raw = {key: value for key, value in raw.items() if key not in BUS_KEYS}
    for flag in _FLAGS:
        if flag.dest not in given:
            continue
        value = given[flag.dest]
        if flag.dest == "rotate":
            value = _rotation_from_quarter_turns(where, value)
        if flag.dest in ("i2c_bus_speed", "spi_bus_speed"):
            needed = flag.dest.split("_")[0]
            if interface != needed:
                where.fail(_option(flag), f"only used with interface {needed!r}")
        raw[flag.key] = value
    if interface is not None:
        raw["interface"] = interface
    raw["driver"] = driver
    labels["bus_speed_hz"] = "--i2c-bus-speed" if interface == "i2c" else "--spi-bus-speed"

    table = Table(where, "display", raw, DISPLAY_KEYS, labels)
    table.missing = f"missing (needed with --display {driver}"
    table.missing += f" --interface {interface})" if interface else ")"
    display = read_display(table)
    flagged = {flag.key for flag in _FLAGS if flag.dest in given}
    display_labels = {
        key: labels[key] if key in flagged else f"display.{key}"
        for key in ("gpio_dc", "gpio_reset")
    }
    own_pins = display_pins(display, display_labels)
    kept = [(key, pin) for key, pin in profile.pins if not key.startswith("display.")]
    # The profile's own pins first, so that a clash is reported on the flag.
    check_pins(where, [*kept, *own_pins], display, profile.serial_pad)
    pins = [*own_pins, *kept]
    return replace(
        profile,
        display=display,
        pins=tuple(pins),
        groups=groups_needed(display, pins, profile.serial_pad),
    )


def _rotation_from_quarter_turns(where: Where, turns: int) -> int:
    if turns not in (0, 2):
        where.fail(
            "--rotate",
            f"{turns} ({turns * 90} degrees) is not supported: the screens are landscape "
            f"{WIDTH}x{HEIGHT}, so use 0, or 2 for 180 degrees",
        )
    return turns * 90
