"""main.py, the firmware's glue, run on CPython against fake MicroPython modules.

A fake ``machine`` (pins wired to a scripted timeline), ``time`` (a simulated
millisecond clock), ``select`` and ``sys`` (the USB serial line) stand in for
the board; the loop runs until the scripted time is up.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from types import SimpleNamespace

import pytest

from firmware import FIRMWARE_DIR, load_firmware_module


class TimeUp(Exception):
    """Ends main.py's endless loop."""


class Board:
    """Pins, LED, clock and serial line of a simulated RP2040 board."""

    def __init__(self, end_ms: int, pressed: Callable[[int, int], bool]) -> None:
        self.now = 0
        self.end_ms = end_ms
        self.pressed = pressed  # (gpio, ms) -> is the button down?
        self.to_board = bytearray()  # what the companion sends
        self.from_board = bytearray()
        self.incoming: dict[int, bytes] = {}  # ms -> bytes the companion sends then
        self.led_on_at: list[int] = []
        self.pins: dict[object, str] = {}

    def machine(self) -> SimpleNamespace:
        board = self

        class Pin:
            IN, OUT, PULL_UP = "in", "out", "pull_up"

            def __init__(self, ident, mode=None, pull=None) -> None:
                self.ident = ident
                board.pins[ident] = f"{mode}/{pull}"

            def value(self, level=None):
                if level is None:  # pulled up: reads 0 while pressed
                    return 0 if board.pressed(self.ident, board.now) else 1
                if level and self.ident == "LED":
                    board.led_on_at.append(board.now)
                return None

        class UART:
            def __init__(self, ident, baudrate, tx, rx) -> None:
                board.uart = (ident, baudrate, tx.ident, rx.ident)

            def any(self) -> int:
                return len(board.to_board)

            def read(self, size: int) -> bytes:
                return board.take(size)

            def write(self, data: bytes) -> None:
                board.from_board += data

        return SimpleNamespace(Pin=Pin, UART=UART)

    def take(self, size: int) -> bytes:
        data = bytes(self.to_board[:size])
        del self.to_board[:size]
        return data

    def time(self, ticks_diff) -> SimpleNamespace:
        def sleep_ms(ms: int) -> None:
            self.now += ms
            if self.now in self.incoming:
                self.to_board += self.incoming[self.now]
            if self.now > self.end_ms:
                raise TimeUp

        return SimpleNamespace(ticks_ms=lambda: self.now, ticks_diff=ticks_diff, sleep_ms=sleep_ms)

    def usb(self) -> tuple[SimpleNamespace, SimpleNamespace]:
        board = self

        class Poll:
            def register(self, stream, events) -> None:
                pass

            def poll(self, timeout: int):
                return [(None, 1)] if board.to_board else []

        stdin = SimpleNamespace(buffer=SimpleNamespace(read=self.take))
        stdout = SimpleNamespace(buffer=SimpleNamespace(write=self.from_board.extend))
        return (
            SimpleNamespace(stdin=stdin, stdout=stdout),
            SimpleNamespace(poll=Poll, POLLIN=1),
        )


def run_main(board: Board, uart: dict | None = None) -> None:
    logic = load_firmware_module("pad_logic")
    pins = load_firmware_module("pins")
    pins.UART = uart
    fake_sys, fake_select = board.usb()
    modules = {
        "sys": fake_sys,
        "time": board.time(logic.ticks_diff),
        "select": fake_select,
        "machine": board.machine(),
        "pad_logic": logic,
        "pins": pins,
    }

    def fake_import(name, globals=None, locals=None, fromlist=(), level=0):
        return modules[name]

    namespace = {
        "__name__": "__main__",
        "__builtins__": {**vars(builtins), "__import__": fake_import},
    }
    code = compile((FIRMWARE_DIR / "main.py").read_text(), "main.py", "exec")
    with pytest.raises(TimeUp):
        exec(code, namespace)


def scripted(presses: dict[int, tuple[int, int]]) -> Callable[[int, int], bool]:
    """Buttons down from ms to ms: {gpio: (first, last)}."""

    def pressed(gpio: int, now: int) -> bool:
        first, last = presses.get(gpio, (-1, -2))
        return first <= now <= last

    return pressed


def test_main_sends_button_inputs_over_usb_and_blinks_on_err():
    # GP2 next: a tap; GP4 select: held 1 s -> hold; GP5 back: a tap.
    board = Board(2000, scripted({2: (100, 150), 4: (300, 1300), 5: (1500, 1540)}))
    board.incoming[1600] = b"OK\nERR wrong-case\n"

    run_main(board)

    assert bytes(board.from_board) == b"\nnext\nhold\nback\n"
    assert board.pins[2] == "in/pull_up"
    assert board.pins["LED"] == "out/None"
    assert board.led_on_at and min(board.led_on_at) >= 1600
    assert max(board.led_on_at) < 1600 + 200


def test_main_can_talk_over_a_uart_instead():
    board = Board(500, scripted({3: (100, 140)}))
    board.incoming[200] = b"OK\n"

    run_main(board, uart={"id": 0, "tx": 0, "rx": 1, "baudrate": 115200})

    assert board.uart == (0, 115200, 0, 1)
    assert bytes(board.from_board) == b"\nprevious\n"
    assert board.to_board == b""  # the reply was read
    assert board.led_on_at == []
