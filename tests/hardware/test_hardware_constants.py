"""The hardware facts written once in companion.hardware.constants agree with luma's own."""

from luma.core.interface.serial import spi
from spi_doubles import MockGpio, RecordingSpi

from companion.hardware.constants import SPI_DEFAULT_SPEED, SPI_SPEEDS


def opened_at(speed: int) -> RecordingSpi:
    gpio = MockGpio()
    bus = RecordingSpi(gpio)
    spi(spi=bus, gpio=gpio, bus_speed_hz=speed)
    return bus


def accepted(speed: int) -> bool:
    try:
        return opened_at(speed).max_speed_hz == speed
    except AssertionError:  # luma asserts on a clock it does not offer
        return False


def test_the_spi_clocks_are_exactly_those_luma_accepts():
    every_half_megahertz = range(500_000, 64_000_001, 500_000)
    assert tuple(speed for speed in every_half_megahertz if accepted(speed)) == SPI_SPEEDS


def test_the_default_clock_is_lumas():
    gpio = MockGpio()
    bus = RecordingSpi(gpio)
    spi(spi=bus, gpio=gpio)
    assert bus.max_speed_hz == SPI_DEFAULT_SPEED
