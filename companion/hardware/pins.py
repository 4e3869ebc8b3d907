"""Pin rules: which GPIOs a build's buses take, no pin claimed twice, the groups it needs.

BCM numbers throughout. A display bus takes its pins (I2C1 = GPIO 2/3, SPI0 =
GPIO 7-11...), and a serial pad on the Pi's own UART takes GPIO 14/15; no input,
D/C or reset pin may sit on them, and no pin may be claimed twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from companion.hardware.config import DisplayConfig, SerialPadConfig
from companion.hardware.constants import TERMINAL_DRIVER
from companion.hardware.tables import Where

BUS_PINS: Mapping[tuple[str, int], Mapping[int, str]] = {
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
"""Pins taken by a bus the display uses, by (interface, port): pin -> signal."""
SPI_CHIP_SELECTS: Mapping[int, range] = {0: range(2), 1: range(3)}
"""The chip selects (``spi_device``) of each SPI bus on the header."""
UART_URLS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")
"""A serial pad at one of these is on the Pi's own UART (not USB), which takes GPIO 14/15."""
UART_PINS = {14: "UART TXD", 15: "UART RXD"}


def display_pins(
    display: DisplayConfig, labels: Mapping[str, str] | None = None
) -> list[tuple[str, int]]:
    """The display's own GPIOs (SPI D/C and reset) as (key, pin); ``labels`` renames keys."""
    labels = labels or {}
    pins = []
    for name in ("gpio_dc", "gpio_reset"):
        pin = getattr(display, name)
        if pin is not None and display.interface == "spi" and display.driver != TERMINAL_DRIVER:
            pins.append((labels.get(name, f"display.{name}"), pin))
    return pins


def reserved_pins(
    display: DisplayConfig, serial_pad: SerialPadConfig | None
) -> dict[int, tuple[str, str]]:
    """Pins the buses take: pin -> (signal name, what uses it)."""
    reserved: dict[int, tuple[str, str]] = {}
    if display.driver != TERMINAL_DRIVER:
        port = display.i2c_port if display.interface == "i2c" else display.spi_port
        for pin, signal in BUS_PINS.get((display.interface, port), {}).items():
            reserved[pin] = (signal, f"the display's bus (interface {display.interface!r})")
    if serial_pad is not None and serial_pad.url in UART_URLS:
        for pin, signal in UART_PINS.items():
            reserved[pin] = (signal, f"the serial pad on {serial_pad.url}")
    return reserved


def check_pins(
    where: Where,
    pins: Iterable[tuple[str, int]],
    display: DisplayConfig,
    serial_pad: SerialPadConfig | None,
) -> None:
    """Refuse (on the first offending key) a pin on a bus in use, or a pin claimed twice."""
    reserved = reserved_pins(display, serial_pad)
    seen: dict[int, str] = {}
    for key, pin in pins:
        if pin in reserved:
            signal, user = reserved[pin]
            where.fail(key, f"GPIO {pin} is {signal}, used by {user}")
        if pin in seen:
            where.fail(key, f"GPIO {pin} is already used by {seen[pin]}")
        seen[pin] = key


def groups_needed(
    display: DisplayConfig, pins: Iterable[tuple[str, int]], serial_pad: SerialPadConfig | None
) -> tuple[str, ...]:
    """The Unix groups the service user needs for this build."""
    groups = []
    if display.driver != TERMINAL_DRIVER:
        # The kernel owns the shut-down pin; every other claimed pin goes through lgpio.
        if any(key != "system.shutdown_pin" for key, _ in pins):
            groups.append("gpio")
        groups.append(display.interface)
    if serial_pad is not None:
        groups.append("dialout")
    return tuple(groups)
