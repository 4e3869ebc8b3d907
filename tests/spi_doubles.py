"""An SPI bus and RPi.GPIO for luma's ``spi()``, made of gpiozero's MockFactory pins.

luma drives the SPI panel's D/C and reset lines through the RPi.GPIO API
(``setup``, ``output``); :class:`MockGpio` gives it that API over MockFactory
pins, so each line keeps gpiozero's own record of its levels and when they
changed (``MockPin.states``). :class:`RecordingSpi` stands in for spidev and
files each write as a command or data :class:`~companion.testing.recording.Write`
by the D/C line's level at that moment, as the controller does, with the time
it was written.
"""

from __future__ import annotations

import errno
import time

from gpiozero.pins.mock import MockFactory

from companion.testing.recording import COMMANDS, DATA, Write


class MockGpio:
    """The part of RPi.GPIO that luma's bitbang/spi use, on MockFactory pins.

    Outputs start high, as the HAT's pulled-up reset line does at power-up, so
    that the reset pulse shows in the pin's history as a fall and a rise.
    """

    LOW, HIGH, OUT, BCM = 0, 1, "output", 11

    def __init__(self, factory: MockFactory | None = None) -> None:
        self.factory = factory or MockFactory()
        self.since: dict[int, float] = {}
        """When each pin's recorded history starts (``time.monotonic()``)."""

    def pin(self, number: int):
        return self.factory.pin(number)

    def setup(self, pin: int, direction: str, **kwargs) -> None:
        mock = self.pin(pin)
        mock.function = direction
        mock.state = self.HIGH
        mock.clear_states()
        self.since[pin] = time.monotonic()

    def output(self, pin: int, level: int) -> None:
        self.pin(pin).state = level

    def cleanup(self, pins=None) -> None:
        for number in pins or list(self.since):
            self.pin(number).function = "input"

    def changes(self, pin: int) -> list[tuple[float, bool]]:
        """(time.monotonic(), level) of every level the pin had since ``setup``.

        gpiozero records how long after the previous change each one came; the
        first entry is the level at ``setup``.
        """
        now = self.since[pin]
        result = []
        for state in self.pin(pin).states:
            now += state.timestamp
            result.append((now, bool(state.state)))
        return result


class RecordingSpi:
    """A spidev stand-in: D/C low means commands, high data (the controller's A0 line)."""

    def __init__(self, gpio: MockGpio, dc: int = 24, missing: bool = False) -> None:
        self.gpio, self.dc, self.missing = gpio, dc, missing
        self.writes: list[Write] = []
        self.times: list[float] = []
        """``time.monotonic()`` of each write in :attr:`writes`."""
        self.max_speed_hz: int | None = None

    def open(self, port: int, device: int) -> None:
        if self.missing:
            raise FileNotFoundError(errno.ENOENT, "No such file", f"/dev/spidev{port}.{device}")

    def writebytes(self, data) -> None:
        mode = DATA if self.gpio.pin(self.dc).state else COMMANDS
        self.writes.append(Write(0, mode, bytes(data)))
        self.times.append(time.monotonic())

    def close(self) -> None:
        pass
