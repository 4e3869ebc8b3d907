"""What a hardware profile describes: the display, the inputs, the serial pad.

Profiles are TOML files shipped in `companion/hardware/profiles/` (wiring and
sources in the top-level hardware/README.md); `profile.py` reads and checks them
into these values. GPIO pins are BCM numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.hardware.constants import (
    HEIGHT,
    I2C_DEFAULT_ADDRESS,
    I2C_DEFAULT_SPEED,
    WIDTH,
    Interface,
)
from companion.inputs.gpio import InputConfig


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    """The display of one hardware build: its driver, its bus and its size."""

    driver: str
    """A luma.oled driver ("ssd1306", "sh1106", "ssd1309"), or "terminal" in simulation."""
    interface: Interface = "i2c"
    """Ignored by the terminal."""
    i2c_port: int = 1
    i2c_address: int = I2C_DEFAULT_ADDRESS
    spi_port: int = 0
    spi_device: int = 0
    gpio_dc: int | None = None
    """SPI data/command pin."""
    gpio_reset: int | None = None
    bus_speed_hz: int = I2C_DEFAULT_SPEED
    """I2C: must match the kernel's i2c_arm_baudrate; SPI: the clock."""
    width: int = WIDTH
    height: int = HEIGHT
    rotation: int = 0
    """0 or 180 degrees: how the panel is mounted (settings can turn it further)."""


@dataclass(frozen=True, slots=True)
class SerialPadConfig:
    """A serial button pad: where it is plugged in, and its speed."""

    url: str
    """A serial device under /dev ("/dev/ttyACM0", "/dev/serial0"), or "loop://" in tests:
    the loader refuses pyserial's other URLs (socket://, spy://...)."""
    baudrate: int = 115_200


@dataclass(frozen=True, slots=True)
class HardwareProfile:
    """One hardware build as its profile describes it: display, inputs, serial pad, pins."""

    name: str
    source: str
    """The file it was read from, for messages."""
    display: DisplayConfig
    inputs: InputConfig
    serial_pad: SerialPadConfig | None = None
    shutdown_pin: int | None = None
    """A safe shut-down button handled by the kernel (gpio-shutdown overlay), not by us."""
    groups: tuple[str, ...] = ("gpio", "i2c", "spi", "dialout")
    """Unix groups the service user needs for this build (the loader computes them)."""
    description: str = ""
    """One line for people: what the build is made of."""
    pins: tuple[tuple[str, int], ...] = ()
    """Every GPIO the profile claims, as (profile key, BCM pin), e.g.
    ("inputs.encoder.a", 17): display DC/reset first, then inputs, then the shut-down pin.
    The loader guarantees no pin appears twice and none belongs to the display's bus."""
