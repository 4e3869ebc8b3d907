"""A profile's tables read into configuration values: [display], [inputs], [serial_pad].

Each reader takes a :class:`~companion.hardware.tables.Table` and returns the
value it describes, refusing (one line: file, key, problem) whatever the
hardware could not do: a driver luma lacks, a clock luma refuses, a chip select
the bus lacks, a hold time out of range, a serial pad that is not a device.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from typing import Any

from companion.hardware.config import DisplayConfig, SerialPadConfig
from companion.hardware.constants import (
    DRIVERS,
    HEIGHT,
    I2C_ADDRESSES,
    I2C_DEFAULT_SPEED,
    I2C_PORTS,
    I2C_SPEEDS,
    INTERFACES,
    ROTATIONS,
    SPI_DEFAULT_SPEED,
    SPI_SPEEDS,
    TERMINAL_DRIVER,
    WIDTH,
)
from companion.hardware.pins import SPI_CHIP_SELECTS
from companion.hardware.tables import Table, Where
from companion.inputs.events import Input
from companion.inputs.gpio import ButtonConfig, EncoderConfig, InputConfig

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

# The keys each table may hold (any other is refused, with a "did you mean").
DISPLAY_KEYS = (
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
I2C_KEYS = ("i2c_port", "i2c_address")
SPI_KEYS = ("spi_port", "spi_device", "gpio_dc", "gpio_reset")
BUS_KEYS = ("interface", *I2C_KEYS, *SPI_KEYS, "bus_speed_hz")
INPUT_KEYS = ("hold_time", "bounce_time", "encoder", "buttons", "joystick")
ENCODER_KEYS = ("a", "b", "switch", "transitions_per_detent", "bounce_time")
BUTTON_KEYS = ("pin", "input")
SERIAL_KEYS = ("url", "baudrate")

HOLD_TIMES = (0.2, 5.0)
BOUNCE_TIMES = (0.0, 0.5)
BAUDRATES = range(300, 4_000_001)
LOOPBACK_URL = "loop://"
"""pyserial's loopback port: what the pad writes comes back (tests only)."""


def read_display(table: Table) -> DisplayConfig:
    """The [display] table: driver, size, rotation, and the bus (I2C or SPI) with its pins."""
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
        for key in BUS_KEYS:
            if table.has(key):
                table.fail(key, f"not used by driver {TERMINAL_DRIVER!r} (the simulation)")
        return DisplayConfig(**common)

    interface = table.string("interface")
    if interface not in INTERFACES:
        expected = ", ".join(INTERFACES)
        table.fail("interface", f"unknown interface {interface!r} (expected one of {expected})")
    others = SPI_KEYS if interface == "i2c" else I2C_KEYS
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
                f"{_hex(address)} is out of range (expected {_hex(I2C_ADDRESSES[0])} to "
                f"{_hex(I2C_ADDRESSES[-1])}; these modules answer at 0x3C or 0x3D)",
            )
        speed = table.integer("bus_speed_hz", I2C_DEFAULT_SPEED)
        if speed not in I2C_SPEEDS:
            table.fail(
                "bus_speed_hz",
                f"{speed} Hz is out of range for I2C ({I2C_SPEEDS[0]} to {I2C_SPEEDS[-1]}; "
                f"{I2C_DEFAULT_SPEED} is usual)",
            )
        return DisplayConfig(
            **common, interface="i2c", i2c_port=port, i2c_address=address, bus_speed_hz=speed
        )

    port = table.integer("spi_port", 0)
    if port not in SPI_CHIP_SELECTS:
        table.fail("spi_port", f"{port} is not an SPI bus on the header (expected 0 or 1)")
    device = table.integer("spi_device", 0)
    if device not in SPI_CHIP_SELECTS[port]:
        shown = ", ".join(str(number) for number in SPI_CHIP_SELECTS[port])
        table.fail("spi_device", f"{device} is not a chip select of SPI{port} (expected {shown})")
    gpio_dc = table.pin("gpio_dc")
    gpio_reset = table.pin("gpio_reset", None)
    speed = table.integer("bus_speed_hz", SPI_DEFAULT_SPEED)
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


def read_inputs(
    table: Table | None,
) -> tuple[InputConfig, list[tuple[str, int]]]:
    """The [inputs] table (absent: none), and the pins it claims as (key, pin)."""
    if table is None:
        return InputConfig(), []
    hold_time = table.number("hold_time", 0.8)
    table.in_range("hold_time", hold_time, *HOLD_TIMES, " s")
    bounce_time = _bounce(table, "bounce_time", 0.02)
    pins: list[tuple[str, int]] = []

    encoder = None
    encoder_table = table.table("encoder", ENCODER_KEYS)
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
    for button_table in table.tables("buttons", BUTTON_KEYS):
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


def _bounce(table: Table, name: str, default: float | None) -> float | None:
    value = table.number(name, default)
    if value is None:
        return None
    table.in_range(name, value, *BOUNCE_TIMES, " s")
    # 0 turns debouncing off (TOML has no null).
    return float(value) or None


def read_serial_pad(table: Table) -> SerialPadConfig:
    """The [serial_pad] table: a local serial device and its baud rate."""
    url = table.string("url")
    if not url.strip():
        table.fail("url", "must not be empty (e.g. /dev/ttyACM0)")
    if not is_serial_device(url):
        table.fail(
            "url",
            f"{url!r} is not a device path (expected one under /dev, e.g. /dev/ttyACM0 or "
            f"/dev/serial0; {LOOPBACK_URL} for tests)",
        )
    baudrate = table.integer("baudrate", 115_200)
    if baudrate not in BAUDRATES:
        table.fail("baudrate", f"{baudrate} is out of range ({BAUDRATES[0]} to {BAUDRATES[-1]})")
    return SerialPadConfig(url=url, baudrate=baudrate)


def is_serial_device(url: str) -> bool:
    """A path under /dev (no ``..`` out of it), or pyserial's loopback for tests.

    pyserial opens whatever ``serial_for_url`` is given: ``socket://host:port``
    would take the player's inputs from the network and ``spy://...?file=``
    writes any file, so a profile may name a local port and nothing else.
    """
    if url == LOOPBACK_URL:
        return True
    return "://" not in url and posixpath.normpath(url).startswith("/dev/")


def check_inputs_suffice(where: Where, inputs: InputConfig) -> None:
    """Refuse a build without a way to give next, previous and select."""
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


def display_as_table(display: DisplayConfig) -> dict[str, Any]:
    """The profile keys that describe ``display`` (the inverse of ``read_display``)."""
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


def _hex(value: int) -> str:
    return f"0x{value:02X}" if value >= 0 else str(value)
