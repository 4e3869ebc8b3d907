"""Hardware profiles: a TOML description of one build, read and checked into a HardwareProfile.

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

so a daemon can print it and stop before touching a pin.

The display can be overridden from the command line with luma.core.cmdline's
flag names (``--display sh1106 --interface i2c --i2c-address 0x3D``):
:func:`add_display_arguments` and :func:`apply_display_overrides`.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn

from companion.hardware.config import DisplayConfig, HardwareProfile, SerialPadConfig
from companion.inputs.events import Input
from companion.inputs.gpio import ButtonConfig, EncoderConfig, InputConfig

__all__ = [
    "DEVICE_DEFAULT_PROFILE",
    "SIMULATION_PROFILE",
    "ProfileError",
    "add_display_arguments",
    "apply_display_overrides",
    "default_profile_name",
    "load_profile",
    "parse_profile",
    "profile_names",
    "shipped_profile_path",
]

#: where ``default_profile_name`` looks for GPIO and for a Raspberry Pi (tests monkeypatch these)
GPIOCHIP_PATH = Path("/dev/gpiochip0")
DEVICE_TREE_MODEL_PATH = Path("/proc/device-tree/model")

SIMULATION_PROFILE = "simulation"
#: the first build of the guide: a 1.3" SH1106 I2C module with an EC11 encoder
DEVICE_DEFAULT_PROFILE = "sh1106-encoder"

_PROFILE_PACKAGE = "companion.hardware"
_PROFILE_DIR = "profiles"

OLED_DRIVERS = ("ssd1306", "sh1106", "ssd1309")
TERMINAL_DRIVER = "terminal"
DRIVERS = (*OLED_DRIVERS, TERMINAL_DRIVER)
INTERFACES = ("i2c", "spi")
WIDTH, HEIGHT = 128, 64
ROTATIONS = (0, 180)

BCM_PINS = range(28)
I2C_ADDRESSES = range(0x03, 0x78)  # 7-bit addresses outside the reserved blocks
I2C_PORTS = range(23)
# 10 kHz (slow mode, long wires) to 1 MHz (fast-mode plus); the kernel sets the
# real speed (dtparam=i2c_arm_baudrate), the profile records what it should be.
I2C_SPEEDS = range(10_000, 1_000_001)
# The speeds luma.core's spi() accepts, up to 32 MHz (beyond that no SSD1306/SH1106 follows).
SPI_SPEEDS = tuple(int(mhz * 1_000_000) for mhz in (0.5, 1, 2, 4, 8, 16, 20, 24, 28, 32))
DEFAULT_I2C_SPEED = 400_000
DEFAULT_SPI_SPEED = 8_000_000
HOLD_TIMES = (0.2, 5.0)
BOUNCE_TIMES = (0.0, 0.5)
BAUDRATES = range(300, 4_000_001)

#: joystick direction -> the input it gives
JOYSTICK_INPUTS: Mapping[str, Input] = {
    "up": Input.PREVIOUS,
    "down": Input.NEXT,
    "left": Input.BACK,
    "right": Input.SELECT,
    "centre": Input.SELECT,
}
#: what a player cannot do without: turn (or step) both ways and press
REQUIRED_INPUTS = (Input.NEXT, Input.PREVIOUS, Input.SELECT)

# Pins taken by a bus the display uses, by (interface, port).
_BUS_PINS: Mapping[tuple[str, int], Mapping[int, str]] = {
    ("i2c", 0): {0: "I2C0 SDA", 1: "I2C0 SCL"},
    ("i2c", 1): {2: "I2C1 SDA", 3: "I2C1 SCL"},
    ("spi", 0): {7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"},
    ("spi", 1): {
        16: "SPI1 CE2",
        17: "SPI1 CE1",
        18: "SPI1 CE0",
        19: "SPI1 MISO",
        20: "SPI1 MOSI",
        21: "SPI1 SCLK",
    },
}
_SPI_DEVICES = {0: range(2), 1: range(3)}
# A serial pad on the Pi's own UART (not USB) takes GPIO 14/15.
_UART_URLS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")
_UART_PINS = {14: "UART TXD", 15: "UART RXD"}

_TOP_KEYS = ("name", "description", "display", "inputs", "serial_pad", "system")
_DISPLAY_KEYS = (
    "driver",
    "interface",
    "i2c_port",
    "i2c_address",
    "spi_port",
    "spi_device",
    "gpio_dc",
    "gpio_reset",
    "bus_speed_hz",
    "width",
    "height",
    "rotation",
)
_I2C_KEYS = ("i2c_port", "i2c_address")
_SPI_KEYS = ("spi_port", "spi_device", "gpio_dc", "gpio_reset")
_BUS_KEYS = ("interface", *_I2C_KEYS, *_SPI_KEYS, "bus_speed_hz")
_INPUT_KEYS = ("hold_time", "bounce_time", "encoder", "buttons", "joystick")
_ENCODER_KEYS = ("a", "b", "switch", "transitions_per_detent", "bounce_time")
_BUTTON_KEYS = ("pin", "input")
_SERIAL_KEYS = ("url", "baudrate")
_SYSTEM_KEYS = ("shutdown_pin",)

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_PROFILE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")
_TOML_POSITION = re.compile(r"^(?P<message>.*) \(at line (?P<line>\d+), column (?P<column>\d+)\)$")


class ProfileError(ValueError):
    """A hardware profile (or a display flag) that cannot be used.

    ``str(error)`` is one line: ``<file>: <key>: <problem>``.
    """


# --- finding and reading ---------------------------------------------------------------


def profile_names() -> list[str]:
    """The names of the shipped profiles, sorted."""
    folder = resources.files(_PROFILE_PACKAGE).joinpath(_PROFILE_DIR)
    return sorted(
        entry.name.removesuffix(".toml")
        for entry in folder.iterdir()
        if entry.name.endswith(".toml")
    )


def shipped_profile_path(name: str) -> Path:
    """The file of the shipped profile ``name`` (it may not exist)."""
    return Path(str(resources.files(_PROFILE_PACKAGE).joinpath(_PROFILE_DIR, f"{name}.toml")))


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
        if not _PROFILE_NAME.fullmatch(text) or text not in profile_names():
            raise ProfileError(
                f"unknown hardware profile {text!r} (expected one of "
                f"{', '.join(profile_names())}, or a path to a .toml file)"
            )
        path = shipped_profile_path(text)
        source = str(path)
    return parse_profile(_read_text(path, source), source, default_name=path.stem)


def parse_profile(text: str, source: str, *, default_name: str = "profile") -> HardwareProfile:
    """Check the TOML ``text`` of a profile; ``source`` names it in messages."""
    where = _Where(source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        _fail_syntax(where, error)
    return _read_profile(where, data, default_name)


def _looks_like_path(text: str) -> bool:
    separators = {"/", os.sep, os.altsep} - {None}
    return any(sep in text for sep in separators) or text.endswith(".toml")


def _read_text(path: Path, source: str) -> str:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ProfileError(f"{source}: cannot read the profile: no such file") from None
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ProfileError(f"{source}: cannot read the profile: {reason}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ProfileError(f"{source}: not UTF-8 text (bad byte at offset {error.start})") from None


def _fail_syntax(where: _Where, error: tomllib.TOMLDecodeError) -> NoReturn:
    message = str(error)
    found = _TOML_POSITION.match(message)
    if found:
        where.fail(
            f"line {found['line']}, column {found['column']}",
            f"TOML syntax error: {found['message']}",
        )
    where.fail("TOML", f"syntax error: {message}")


# --- reading tables ----------------------------------------------------------------------


class _Where:
    """Where the values come from (a file, or "command line"): raises the one-line errors."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, problem: str) -> NoReturn:
        line = f"{self.source}: {key}: {problem}"
        raise ProfileError(" ".join(line.splitlines()))


_MISSING: Any = object()


class _Table:
    """One TOML table: typed access by key path, and no key that nobody asked for."""

    def __init__(
        self,
        where: _Where,
        path: str,
        data: Mapping[str, Any],
        allowed: Iterable[str],
        labels: Mapping[str, str] | None = None,
    ) -> None:
        self.where = where
        self.path = path
        self.data = data
        self.labels = labels or {}
        #: the problem reported for a required key that is absent
        self.missing = "missing"
        allowed = tuple(allowed)
        for key in data:
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                self.fail(key, f"unknown key (expected one of {', '.join(allowed)}){hint}")

    def key(self, name: str) -> str:
        if name in self.labels:
            return self.labels[name]
        shown = name if _BARE_KEY.fullmatch(name) else repr(name)
        return f"{self.path}.{shown}" if self.path else shown

    def fail(self, name: str, problem: str) -> NoReturn:
        self.where.fail(self.key(name), problem)

    def has(self, name: str) -> bool:
        return name in self.data

    def _get(self, name: str, default: Any) -> Any:
        if name in self.data:
            return self.data[name]
        if default is _MISSING:
            self.fail(name, self.missing)
        return default

    def integer(self, name: str, default: Any = _MISSING) -> Any:
        value = self._get(name, default)
        if name in self.data and (isinstance(value, bool) or not isinstance(value, int)):
            self.fail(name, f"expected an integer, got {_describe(value)}")
        return value

    def number(self, name: str, default: Any = _MISSING) -> Any:
        value = self._get(name, default)
        if name in self.data and (isinstance(value, bool) or not isinstance(value, int | float)):
            self.fail(name, f"expected a number, got {_describe(value)}")
        return value

    def string(self, name: str, default: Any = _MISSING) -> Any:
        value = self._get(name, default)
        if name in self.data and not isinstance(value, str):
            self.fail(name, f"expected a string, got {_describe(value)}")
        return value

    def table(self, name: str, allowed: Iterable[str]) -> _Table | None:
        if name not in self.data:
            return None
        value = self.data[name]
        if not isinstance(value, dict):
            self.fail(name, f"expected a table ([{self.key(name)}]), got {_describe(value)}")
        return _Table(self.where, self.key(name), value, allowed)

    def tables(self, name: str, allowed: Iterable[str]) -> list[_Table]:
        if name not in self.data:
            return []
        value = self.data[name]
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            self.fail(
                name, f"expected an array of tables ([[{self.key(name)}]]), got {_describe(value)}"
            )
        return [
            _Table(self.where, f"{self.key(name)}[{index}]", item, allowed)
            for index, item in enumerate(value)
        ]

    def pin(self, name: str, default: Any = _MISSING) -> Any:
        value = self.integer(name, default)
        if value is not None and value not in BCM_PINS:
            self.fail(name, f"GPIO {value} is out of range (BCM pins 0 to 27)")
        return value

    def in_range(self, name: str, value: float, low: float, high: float, unit: str = "") -> None:
        if not low <= value <= high:
            self.fail(name, f"{value}{unit} is out of range ({low}{unit} to {high}{unit})")


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return f"a {type(value).__name__}"


# --- the profile -------------------------------------------------------------------------


def _read_profile(where: _Where, data: dict[str, Any], default_name: str) -> HardwareProfile:
    top = _Table(where, "", data, _TOP_KEYS)
    name = top.string("name", default_name)
    if not name.strip():
        top.fail("name", "must not be empty")
    description = top.string("description", "")
    display_table = top.table("display", _DISPLAY_KEYS)
    if display_table is None:
        top.fail("display", "missing (every profile needs a [display] table)")
    display = _read_display(display_table)

    inputs_table = top.table("inputs", _INPUT_KEYS)
    inputs, input_pins = _read_inputs(inputs_table)

    serial_table = top.table("serial_pad", _SERIAL_KEYS)
    serial_pad = _read_serial_pad(serial_table) if serial_table is not None else None

    system = top.table("system", _SYSTEM_KEYS)
    shutdown_pin = system.pin("shutdown_pin", None) if system is not None else None

    pins = [*_display_pins(display), *input_pins]
    if shutdown_pin is not None:
        pins.append(("system.shutdown_pin", shutdown_pin))
    _check_pins(where, pins, display, serial_pad)
    if serial_pad is None:
        _check_inputs_suffice(where, inputs)
    return HardwareProfile(
        name=name,
        source=where.source,
        display=display,
        inputs=inputs,
        serial_pad=serial_pad,
        shutdown_pin=shutdown_pin,
        groups=_groups(display, pins, serial_pad),
        description=description,
        pins=tuple(pins),
    )


def _read_display(table: _Table) -> DisplayConfig:
    driver = table.string("driver")
    if driver not in DRIVERS:
        table.fail("driver", f"unknown driver {driver!r} (expected one of {', '.join(DRIVERS)})")
    width = table.integer("width", WIDTH)
    if width != WIDTH:
        table.fail("width", f"must be {WIDTH} for this app (the screens are {WIDTH}x{HEIGHT})")
    height = table.integer("height", HEIGHT)
    if height != HEIGHT:
        table.fail("height", f"must be {HEIGHT} for this app (the screens are {WIDTH}x{HEIGHT})")
    rotation = table.integer("rotation", 0)
    if rotation not in ROTATIONS:
        table.fail("rotation", f"must be 0 or 180 (degrees), not {rotation}")
    common = {"driver": driver, "width": width, "height": height, "rotation": rotation}
    if driver == TERMINAL_DRIVER:
        for key in _BUS_KEYS:
            if table.has(key):
                table.fail(key, f"not used by driver {TERMINAL_DRIVER!r} (the simulation)")
        return DisplayConfig(**common)

    interface = table.string("interface")
    if interface not in INTERFACES:
        expected = ", ".join(INTERFACES)
        table.fail("interface", f"unknown interface {interface!r} (expected one of {expected})")
    others = _SPI_KEYS if interface == "i2c" else _I2C_KEYS
    for key in others:
        if table.has(key):
            table.fail(key, f"only used with interface {'spi' if interface == 'i2c' else 'i2c'!r}")
    if interface == "i2c":
        port = table.integer("i2c_port", 1)
        if port not in I2C_PORTS:
            table.fail("i2c_port", f"{port} is out of range (I2C buses 0 to {I2C_PORTS[-1]})")
        address = table.integer("i2c_address")
        if address not in I2C_ADDRESSES:
            table.fail(
                "i2c_address",
                f"{_hex(address)} is out of range (expected 0x03 to 0x77; "
                "these modules answer at 0x3C or 0x3D)",
            )
        speed = table.integer("bus_speed_hz", DEFAULT_I2C_SPEED)
        if speed not in I2C_SPEEDS:
            table.fail(
                "bus_speed_hz",
                f"{speed} Hz is out of range for I2C (10000 to 1000000; 400000 is usual)",
            )
        return DisplayConfig(
            **common, interface="i2c", i2c_port=port, i2c_address=address, bus_speed_hz=speed
        )

    port = table.integer("spi_port", 0)
    if port not in _SPI_DEVICES:
        table.fail("spi_port", f"{port} is not an SPI bus on the header (expected 0 or 1)")
    device = table.integer("spi_device", 0)
    if device not in _SPI_DEVICES[port]:
        shown = ", ".join(str(number) for number in _SPI_DEVICES[port])
        table.fail("spi_device", f"{device} is not a chip select of SPI{port} (expected {shown})")
    gpio_dc = table.pin("gpio_dc")
    gpio_reset = table.pin("gpio_reset", None)
    speed = table.integer("bus_speed_hz", DEFAULT_SPI_SPEED)
    if speed not in SPI_SPEEDS:
        shown = ", ".join(str(value) for value in SPI_SPEEDS)
        table.fail("bus_speed_hz", f"{speed} Hz is not an SPI speed luma accepts ({shown})")
    return DisplayConfig(
        **common,
        interface="spi",
        spi_port=port,
        spi_device=device,
        gpio_dc=gpio_dc,
        gpio_reset=gpio_reset,
        bus_speed_hz=speed,
    )


def _read_inputs(
    table: _Table | None,
) -> tuple[InputConfig, list[tuple[str, int]]]:
    if table is None:
        return InputConfig(), []
    hold_time = table.number("hold_time", 0.8)
    table.in_range("hold_time", hold_time, *HOLD_TIMES, " s")
    bounce_time = _bounce(table, "bounce_time", 0.02)
    pins: list[tuple[str, int]] = []

    encoder = None
    encoder_table = table.table("encoder", _ENCODER_KEYS)
    if encoder_table is not None:
        a = encoder_table.pin("a")
        b = encoder_table.pin("b")
        switch = encoder_table.pin("switch", None)
        per_detent = encoder_table.integer("transitions_per_detent", 4)
        if per_detent not in (2, 4):
            encoder_table.fail(
                "transitions_per_detent",
                f"must be 4 (a whole quadrature cycle per click) or 2 (half), not {per_detent}",
            )
        encoder = EncoderConfig(
            a=a,
            b=b,
            switch=switch,
            transitions_per_detent=per_detent,
            bounce_time=_bounce(encoder_table, "bounce_time", None),
        )
        pins += [(encoder_table.key("a"), a), (encoder_table.key("b"), b)]
        if switch is not None:
            pins.append((encoder_table.key("switch"), switch))

    buttons = []
    for button_table in table.tables("buttons", _BUTTON_KEYS):
        pin = button_table.pin("pin")
        given = button_table.string("input")
        if given not in tuple(Input):
            expected = ", ".join(item.value for item in Input)
            button_table.fail("input", f"unknown input {given!r} (expected one of {expected})")
        buttons.append(ButtonConfig(pin=pin, input=Input(given)))
        pins.append((button_table.key("pin"), pin))

    joystick = []
    joystick_table = table.table("joystick", JOYSTICK_INPUTS)
    if joystick_table is not None:
        if not joystick_table.data:
            table.fail("joystick", f"empty (give pins for {', '.join(JOYSTICK_INPUTS)})")
        for direction, given in JOYSTICK_INPUTS.items():
            pin = joystick_table.pin(direction, None)
            if pin is not None:
                joystick.append(ButtonConfig(pin=pin, input=given))
                pins.append((joystick_table.key(direction), pin))

    config = InputConfig(
        encoder=encoder,
        buttons=(*buttons, *joystick),
        bounce_time=bounce_time,
        hold_time=float(hold_time),
    )
    return config, pins


def _bounce(table: _Table, name: str, default: float | None) -> float | None:
    value = table.number(name, default)
    if value is None:
        return None
    table.in_range(name, value, *BOUNCE_TIMES, " s")
    # 0 turns debouncing off (TOML has no null).
    return float(value) or None


def _read_serial_pad(table: _Table) -> SerialPadConfig:
    url = table.string("url")
    if not url.strip():
        table.fail("url", "must not be empty (e.g. /dev/ttyACM0)")
    baudrate = table.integer("baudrate", 115_200)
    if baudrate not in BAUDRATES:
        table.fail("baudrate", f"{baudrate} is out of range (300 to 4000000)")
    return SerialPadConfig(url=url, baudrate=baudrate)


def _display_pins(
    display: DisplayConfig, labels: Mapping[str, str] | None = None
) -> list[tuple[str, int]]:
    labels = labels or {}
    pins = []
    for name in ("gpio_dc", "gpio_reset"):
        pin = getattr(display, name)
        if pin is not None and display.interface == "spi" and display.driver != TERMINAL_DRIVER:
            pins.append((labels.get(name, f"display.{name}"), pin))
    return pins


def _reserved_pins(
    display: DisplayConfig, serial_pad: SerialPadConfig | None
) -> dict[int, tuple[str, str]]:
    """Pins the buses take: pin -> (signal name, what uses it)."""
    reserved: dict[int, tuple[str, str]] = {}
    if display.driver != TERMINAL_DRIVER:
        port = display.i2c_port if display.interface == "i2c" else display.spi_port
        for pin, signal in _BUS_PINS.get((display.interface, port), {}).items():
            reserved[pin] = (signal, f"the display's bus (interface {display.interface!r})")
    if serial_pad is not None and serial_pad.url in _UART_URLS:
        for pin, signal in _UART_PINS.items():
            reserved[pin] = (signal, f"the serial pad on {serial_pad.url}")
    return reserved


def _check_pins(
    where: _Where,
    pins: Iterable[tuple[str, int]],
    display: DisplayConfig,
    serial_pad: SerialPadConfig | None,
) -> None:
    reserved = _reserved_pins(display, serial_pad)
    seen: dict[int, str] = {}
    for key, pin in pins:
        if pin in reserved:
            signal, user = reserved[pin]
            where.fail(key, f"GPIO {pin} is {signal}, used by {user}")
        if pin in seen:
            where.fail(key, f"GPIO {pin} is already used by {seen[pin]}")
        seen[pin] = key


def _check_inputs_suffice(where: _Where, inputs: InputConfig) -> None:
    given = {button.input for button in inputs.buttons}
    if inputs.encoder is not None:
        given |= {Input.NEXT, Input.PREVIOUS}
        if inputs.encoder.switch is not None:
            given.add(Input.SELECT)
    lacking = [item.value for item in REQUIRED_INPUTS if item not in given]
    if lacking:
        where.fail(
            "inputs",
            f"nothing gives {', '.join(lacking)} (a player needs next, previous and select: "
            "add an encoder, buttons, a joystick or a [serial_pad])",
        )


def _groups(
    display: DisplayConfig, pins: Iterable[tuple[str, int]], serial_pad: SerialPadConfig | None
) -> tuple[str, ...]:
    groups = []
    if display.driver != TERMINAL_DRIVER:
        # The kernel owns the shut-down pin; every other claimed pin goes through lgpio.
        if any(key != "system.shutdown_pin" for key, _ in pins):
            groups.append("gpio")
        groups.append(display.interface)
    if serial_pad is not None:
        groups.append("dialout")
    return tuple(groups)


def _hex(value: int) -> str:
    return f"0x{value:02X}" if value >= 0 else str(value)


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


# --- display flags -----------------------------------------------------------------------


@dataclass(frozen=True)
class _Flag:
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
    where = _Where("command line")
    old = profile.display
    labels = {flag.key: _option(flag) for flag in _FLAGS}

    raw = _display_as_table(old)
    driver = given.get("display", old.driver)
    keeps_interface = TERMINAL_DRIVER not in (driver, old.driver)
    interface = given.get("interface", old.interface if keeps_interface else None)
    # A new interface (or none, or a first one) starts from that interface's defaults.
    if TERMINAL_DRIVER in (driver, old.driver) or interface != old.interface:
        raw = {key: value for key, value in raw.items() if key not in _BUS_KEYS}
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

    table = _Table(where, "display", raw, _DISPLAY_KEYS, labels)
    table.missing = f"missing (needed with --display {driver}"
    table.missing += f" --interface {interface})" if interface else ")"
    display = _read_display(table)
    flagged = {flag.key for flag in _FLAGS if flag.dest in given}
    display_labels = {
        key: labels[key] if key in flagged else f"display.{key}"
        for key in ("gpio_dc", "gpio_reset")
    }
    display_pins = _display_pins(display, display_labels)
    kept = [(key, pin) for key, pin in profile.pins if not key.startswith("display.")]
    # The profile's own pins first, so that a clash is reported on the flag.
    _check_pins(where, [*kept, *display_pins], display, profile.serial_pad)
    pins = [*display_pins, *kept]
    return replace(
        profile,
        display=display,
        pins=tuple(pins),
        groups=_groups(display, pins, profile.serial_pad),
    )


def _display_as_table(display: DisplayConfig) -> dict[str, Any]:
    """The profile keys that describe ``display`` (the inverse of ``_read_display``)."""
    raw: dict[str, Any] = {
        "driver": display.driver,
        "width": display.width,
        "height": display.height,
        "rotation": display.rotation,
    }
    if display.driver == TERMINAL_DRIVER:
        return raw
    raw["interface"] = display.interface
    raw["bus_speed_hz"] = display.bus_speed_hz
    if display.interface == "i2c":
        raw.update(i2c_port=display.i2c_port, i2c_address=display.i2c_address)
    else:
        raw.update(spi_port=display.spi_port, spi_device=display.spi_device)
        raw.update(gpio_dc=display.gpio_dc, gpio_reset=display.gpio_reset)
        if display.gpio_reset is None:
            del raw["gpio_reset"]
        if display.gpio_dc is None:
            del raw["gpio_dc"]
    return raw


def _rotation_from_quarter_turns(where: _Where, turns: int) -> int:
    if turns not in (0, 2):
        where.fail(
            "--rotate",
            f"{turns} ({turns * 90} degrees) is not supported: the screens are landscape "
            f"{WIDTH}x{HEIGHT}, so use 0, or 2 for 180 degrees",
        )
    return turns * 90
