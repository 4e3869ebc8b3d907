"""Facts about the panels and buses the companion drives, written once.

The profile loader checks against these, ``open_oled`` opens luma with them,
and the display factory sizes its sinks by them.
"""

from __future__ import annotations

from typing import Literal, TypeAlias, get_args

WIDTH, HEIGHT = 128, 64
"""The only panel size the screens are drawn for."""

OLED_DRIVERS = ("ssd1306", "sh1106", "ssd1309")
"""luma.oled's monochrome drivers, by their luma names."""
TERMINAL_DRIVER = "terminal"
"""The simulation's "driver": the terminal, no bus."""
DRIVERS = (*OLED_DRIVERS, TERMINAL_DRIVER)
Interface: TypeAlias = Literal["i2c", "spi"]
"""The bus a panel is wired to."""
INTERFACES: tuple[Interface, ...] = get_args(Interface)
ROTATIONS = (0, 180)
"""Degrees; the screens are landscape, so a panel is mounted either way up."""

I2C_DEFAULT_ADDRESS = 0x3C
"""Where nearly every 128x64 SSD1306/SH1106 module answers (0x3D with a jumper)."""
I2C_ADDRESSES = range(0x03, 0x78)
"""7-bit addresses outside the reserved blocks."""
I2C_DEFAULT_SPEED = 400_000
"""Fast mode; the kernel sets the real speed (``dtparam=i2c_arm_baudrate``)."""
I2C_SPEEDS = range(10_000, 1_000_001)
"""10 kHz (slow mode, long wires) to 1 MHz (fast-mode plus)."""

SPI_SPEEDS = tuple(
    int(mhz * 1_000_000) for mhz in (0.5, 1, 2, 4, 8, 16, 20, 24, 28, 32, 36, 40, 44, 48, 50, 52)
)
"""The only clocks luma.core's ``spi()`` accepts (it asserts on any other): its own list,
copied from ``luma.core.interface.serial.spi.__init__`` (luma.core 2.6, the minor version
pinned in pyproject.toml; a test checks it against luma's spi() itself)."""
SPI_DEFAULT_SPEED = 8_000_000
"""luma.core's default SPI clock, and what luma's users run these panels at. The
datasheets are more cautious: the SSD1306 specifies a 100 ns clock cycle (10 MHz), and
the Linux kernel's ssd130x driver reads the SH1106's as 2 MHz. Waveshare's demo code for
its SH1106 HAT opens the bus at 1 MHz (config.py V1.0, 2020-06-17)."""
SPI_DEFAULT_DC, SPI_DEFAULT_RESET = 24, 25
"""luma's default data/command and reset pins (BCM), used when a profile names none."""
RESET_HOLD_SECONDS = 0.010
"""How long the panel's reset line is held low on SPI. The SH1106 datasheet asks for at
least 10 µs, the SSD1306's for 3 µs; luma's default is no hold at all, which a
cold panel may miss. Waveshare's demo holds it 100 ms."""
RESET_RELEASE_SECONDS = 0.010
"""How long after releasing reset before the first command (the controller's reset
takes a few µs; Waveshare's demo waits 100 ms)."""

BCM_PINS = range(28)
"""The GPIOs of the 40-pin header, by BCM number."""
I2C_PORTS = range(23)
"""``/dev/i2c-N`` bus numbers (1 on the header; the Pi 4/5 add more)."""
