"""MicroPython main program of the serial button pad (RP2040, e.g. Raspberry Pi Pico).

Only glue: it reads the pins and the serial line and hands them to
pad_logic.PadSession, which decides what to send; the LED blinks when the
companion answers "ERR". Copy main.py, pad_logic.py and pins.py to the
board (README.md). Ctrl-C over USB stops it and gives back the REPL.
"""

import sys
import time

import pad_logic
import pins
from machine import UART, Pin


def open_led():
    try:
        return Pin(pins.LED, Pin.OUT)
    except (TypeError, ValueError):
        return Pin(25, Pin.OUT)  # the Pico's LED on firmware that has no "LED" name


class UsbLine:
    """The USB CDC serial line: MicroPython's sys.stdin and sys.stdout."""

    def __init__(self):
        import select

        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._in = getattr(sys.stdin, "buffer", sys.stdin)
        self._out = getattr(sys.stdout, "buffer", sys.stdout)

    def read_available(self):
        data = b""
        while len(data) < 64 and self._poll.poll(0):
            chunk = self._in.read(1)
            if not chunk:
                break
            data += chunk if isinstance(chunk, bytes) else chunk.encode()
        return data

    def write(self, text):
        self._out.write(text.encode() if self._out is not sys.stdout else text)


class UartLine:
    """A hardware UART, for wiring the pad to a Pi's GPIO 14/15 (/dev/serial0)."""

    def __init__(self, config):
        self._uart = UART(
            config["id"],
            baudrate=config.get("baudrate", 115200),
            tx=Pin(config["tx"]),
            rx=Pin(config["rx"]),
        )

    def read_available(self):
        waiting = self._uart.any()
        if not waiting:
            return b""
        return self._uart.read(min(waiting, 64)) or b""

    def write(self, text):
        self._uart.write(text.encode())


def main():
    buttons = pad_logic.make_buttons(
        pins.BUTTONS, pins.DEBOUNCE_MS, pins.HOLD_MS, diff=time.ticks_diff
    )
    inputs = [Pin(gpio, Pin.IN, Pin.PULL_UP) for gpio, _, _ in pins.BUTTONS]
    session = pad_logic.PadSession(buttons, diff=time.ticks_diff)
    line = UsbLine() if pins.UART is None else UartLine(pins.UART)
    led = open_led()

    line.write(session.greeting())
    while True:
        now = time.ticks_ms()
        readings = [pin.value() == 0 for pin in inputs]  # pulled up: low means pressed
        out = session.step(now, readings, line.read_available())
        if out:
            line.write(out)
        led.value(session.led(now))
        time.sleep_ms(pins.POLL_MS)


main()
