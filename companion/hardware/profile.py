"""Hardware profiles: the TOML description of one build, found, read and checked.

A profile names the display (driver, bus, address, pins), the GPIO inputs
(encoder, buttons, joystick), an optional serial button pad and an optional
kernel shut-down pin. Shipped profiles live in ``companion/hardware/profiles/``
as package data, so a bare name (``"sh1106-encoder"``) works from a source tree,
an editable install and a wheel alike; anything that looks like a path
(``"./my.toml"``, ``"/etc/patchwork/box.toml"``) is read as is. The wiring
tables are in the top-level ``hardware/README.md``.

Every problem is refused when the profile is read, as one :class:`ProfileError`
line naming the file, the key and the problem::

    hardware/x.toml: display.driver: unknown driver 'ssd9999' (expected one of ...)

so a daemon can print it and stop before touching a pin. This module finds and
reads the file; :mod:`~companion.hardware.sections` reads its tables,
:mod:`~companion.hardware.pins` applies the pin rules, and
:mod:`~companion.hardware.flags` overrides the display with luma-style flags.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any, NoReturn

from companion.hardware.config import HardwareProfile
from companion.hardware.pins import check_pins, display_pins, groups_needed
from companion.hardware.sections import (
    DISPLAY_KEYS,
    INPUT_KEYS,
    SERIAL_KEYS,
    check_inputs_suffice,
    read_display,
    read_inputs,
    read_serial_pad,
)
from companion.hardware.tables import ProfileError, Table, Where
from companion.untrusted import UnusableFileError, read_capped

__all__ = [
    "DEVICE_DEFAULT_PROFILE",
    "SIMULATION_PROFILE",
    "ProfileError",
    "default_profile_name",
    "load_profile",
    "parse_profile",
    "profile_names",
    "shipped_profile_path",
]

#: where ``default_profile_name`` looks for GPIO and for a Raspberry Pi (tests monkeypatch these)
GPIOCHIP_PATH = Path("/dev/gpiochip0")
DEVICE_TREE_MODEL_PATH = Path("/proc/device-tree/model")

PROFILE_LIMIT = 64 * 1024
"""The shipped profiles take 2 kB; a larger file is not a profile."""

SIMULATION_PROFILE = "simulation"
#: the first build of the guide: a 1.3" SH1106 I2C module with an EC11 encoder
DEVICE_DEFAULT_PROFILE = "sh1106-encoder"

_PROFILE_DIR = Path(__file__).with_name("profiles")
"""The shipped profiles: files of the installed package, as `shipped_profile_path` hands them
on. Not found through importlib.resources, whose first `files()` imports its readers at
every start."""

_TOP_KEYS = ("name", "description", "display", "inputs", "serial_pad", "system")
_SYSTEM_KEYS = ("shutdown_pin",)
_TOML_POSITION = r"^(?P<message>.*) \(at line (?P<line>\d+), column (?P<column>\d+)\)$"
"""Where tomllib says a syntax error is; compiled (and kept by `re`) only when a profile has
one, not at every start."""


# --- finding and reading ---------------------------------------------------------------


def profile_names() -> list[str]:
    """The names of the shipped profiles, sorted."""
    return sorted(
        entry.name.removesuffix(".toml")
        for entry in _PROFILE_DIR.iterdir()
        if entry.name.endswith(".toml")
    )


def shipped_profile_path(name: str) -> Path:
    """The file of the shipped profile ``name`` (it may not exist)."""
    return _PROFILE_DIR / f"{name}.toml"


def load_profile(name_or_path: str | os.PathLike[str]) -> HardwareProfile:
    """Read and check a hardware profile: a shipped profile's name, or a path to a TOML file.

    A string with a path separator, or ending in ``.toml``, is a path; anything
    else is the name of a shipped profile (:func:`profile_names`).
    Raises :class:`ProfileError` (one line) for any problem.
    """
    text = os.fspath(name_or_path)
    if _looks_like_path(text):
        path, source = Path(text), text
    else:
        if text not in profile_names():
            raise ProfileError(
                f"unknown hardware profile {text!r} (expected one of "
                f"{', '.join(profile_names())}, or a path to a .toml file)"
            )
        path = shipped_profile_path(text)
        source = str(path)
    return parse_profile(_read_text(path, source), source, default_name=path.stem)


def parse_profile(text: str, source: str, *, default_name: str = "profile") -> HardwareProfile:
    """Check the TOML ``text`` of a profile; ``source`` names it in messages."""
    where = Where(source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        _fail_syntax(where, error)
    except RecursionError:
        where.fail("TOML", "nested too deeply")
    except ValueError as error:  # e.g. an integer of thousands of digits
        where.fail("TOML", str(error).split(";")[0])
    return _read_profile(where, data, default_name)


def _looks_like_path(text: str) -> bool:
    separators = [sep for sep in ("/", os.sep, os.altsep) if sep]
    return any(sep in text for sep in separators) or text.endswith(".toml")


def _read_text(path: Path, source: str) -> str:
    try:
        raw, size = read_capped(path, PROFILE_LIMIT)
    except FileNotFoundError:
        raise ProfileError(f"{source}: cannot read the profile: no such file") from None
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ProfileError(f"{source}: cannot read the profile: {reason}") from None
    except UnusableFileError as error:  # a FIFO or a device: refused, never read
        raise ProfileError(f"{source}: cannot read the profile: {error}") from None
    if size > len(raw):
        raise ProfileError(f"{source}: {size:,} bytes, more than a profile can take")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ProfileError(f"{source}: not UTF-8 text (bad byte at offset {error.start})") from None


def _fail_syntax(where: Where, error: tomllib.TOMLDecodeError) -> NoReturn:
    message = str(error)
    found = re.match(_TOML_POSITION, message)
    if found:
        where.fail(
            f"line {found['line']}, column {found['column']}",
            f"TOML syntax error: {found['message']}",
        )
    where.fail("TOML", f"syntax error: {message}")


# --- the profile -------------------------------------------------------------------------


def _read_profile(where: Where, data: dict[str, Any], default_name: str) -> HardwareProfile:
    top = Table(where, "", data, _TOP_KEYS)
    name = top.string("name", default_name)
    if not name.strip():
        top.fail("name", "must not be empty")
    description = top.string("description", "")
    display_table = top.table("display", DISPLAY_KEYS)
    if display_table is None:
        top.fail("display", "missing (every profile needs a [display] table)")
    display = read_display(display_table)

    inputs_table = top.table("inputs", INPUT_KEYS)
    inputs, input_pins = read_inputs(inputs_table)

    serial_table = top.table("serial_pad", SERIAL_KEYS)
    serial_pad = read_serial_pad(serial_table) if serial_table is not None else None

    system = top.table("system", _SYSTEM_KEYS)
    shutdown_pin = system.pin("shutdown_pin", None) if system is not None else None

    pins = [*display_pins(display), *input_pins]
    if shutdown_pin is not None:
        pins.append(("system.shutdown_pin", shutdown_pin))
    check_pins(where, pins, display, serial_pad)
    if serial_pad is None:
        check_inputs_suffice(where, inputs)
    return HardwareProfile(
        name=name,
        source=where.source,
        display=display,
        inputs=inputs,
        serial_pad=serial_pad,
        shutdown_pin=shutdown_pin,
        groups=groups_needed(display, pins, serial_pad),
        description=description,
        pins=tuple(pins),
    )


# --- default profile ---------------------------------------------------------------------


def default_profile_name() -> str:
    """``"simulation"`` without GPIO, else ``"sh1106-encoder"`` (the guide's first build).

    "Without GPIO" means no ``/dev/gpiochip0``, or a device-tree model that does
    not name a Raspberry Pi (another single-board computer, a container, a laptop).
    """
    if not GPIOCHIP_PATH.exists():
        return SIMULATION_PROFILE
    try:
        model = DEVICE_TREE_MODEL_PATH.read_bytes().decode("utf-8", "replace")
    except OSError:
        return SIMULATION_PROFILE
    return DEVICE_DEFAULT_PROFILE if "Raspberry Pi" in model else SIMULATION_PROFILE
