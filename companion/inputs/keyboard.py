"""Keyboard and script input for the simulation.

Keys (or script lines) become *pin actions* on :class:`SimulatedInputs`, which
holds the real gpiozero devices on mock pins; the events then reach the
application exactly as on the device.

Keys: right/down/j next, left/up/k previous, Enter/space select,
Backspace/Esc back, h hold, q quit.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import termios
import threading
import tty
from collections.abc import Iterator

from companion.inputs.events import Input
from companion.inputs.simulated import SimulatedInputs

log = logging.getLogger(__name__)

ESC = 0x1B
#: how long a lone ESC byte waits for the rest of an arrow-key sequence (seconds)
ESC_TIMEOUT = 0.05

KEY_BINDINGS: dict[str, Input] = {
    "right": Input.NEXT,
    "down": Input.NEXT,
    "j": Input.NEXT,
    "left": Input.PREVIOUS,
    "up": Input.PREVIOUS,
    "k": Input.PREVIOUS,
    "enter": Input.SELECT,
    "space": Input.SELECT,
    "backspace": Input.BACK,
    "escape": Input.BACK,
    "h": Input.HOLD,
}
QUIT_KEYS = frozenset({"q"})
KEY_HELP = "→↓j next  ←↑k prev  Enter/Space select  ⌫/Esc back  h hold  q quit"
"""One line of help under the screen in the terminal (at most 66 columns)."""
WINDOW_KEY_HELP = (
    "Right, Down, j: next     Left, Up, k: previous     h: hold",
    "Enter, Space: select     Backspace, Esc: back     q: quit",
)
"""The same help under the window, in words: a window's font may have no arrows."""

_ARROWS = {ord("A"): "up", ord("B"): "down", ord("C"): "right", ord("D"): "left"}
_SINGLE_BYTES = {0x0D: "enter", 0x0A: "enter", 0x20: "space", 0x7F: "backspace", 0x08: "backspace"}


class KeyDecoder:
    """Turns raw terminal bytes into key names, one chunk at a time.

    Names are ``up``, ``down``, ``left``, ``right``, ``enter``, ``space``,
    ``backspace``, ``escape`` or a printable ASCII character. An ESC byte on
    its own is ambiguous (the Esc key, or the start of an arrow sequence cut
    across two reads): it stays :attr:`pending` until more bytes arrive or the
    caller decides it has waited long enough and calls :meth:`flush`.
    Unknown escape sequences (function keys...) and other bytes are dropped.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()

    @property
    def pending(self) -> bool:
        """True while an escape sequence is incomplete."""
        return bool(self._buffer)

    def feed(self, data: bytes) -> list[str]:
        """Add bytes; return the keys they complete."""
        self._buffer += data
        keys: list[str] = []
        while self._buffer:
            consumed, key = self._decode_one(self._buffer)
            if consumed == 0:
                break  # incomplete escape sequence: wait for more bytes
            del self._buffer[:consumed]
            if key is not None:
                keys.append(key)
        return keys

    def flush(self) -> list[str]:
        """Give up waiting: a pending lone ESC is the Esc key; a partial sequence is dropped."""
        lone_escape = bytes(self._buffer) == bytes([ESC])
        self._buffer.clear()
        return ["escape"] if lone_escape else []

    @staticmethod
    def _decode_one(buffer: bytearray) -> tuple[int, str | None]:
        """Return (bytes consumed, key or None); consumed 0 means 'need more bytes'."""
        first = buffer[0]
        if first != ESC:
            if first in _SINGLE_BYTES:
                return 1, _SINGLE_BYTES[first]
            return 1, chr(first) if 0x21 <= first <= 0x7E else None
        if len(buffer) == 1:
            return 0, None
        introducer = buffer[1]
        if introducer == ord("O"):  # SS3: arrows in "application cursor" mode
            if len(buffer) == 2:
                return 0, None
            return 3, _ARROWS.get(buffer[2])
        if introducer == ord("["):  # CSI: parameters and intermediates, then a final byte
            for index in range(2, len(buffer)):
                if 0x40 <= buffer[index] <= 0x7E:
                    return index + 1, _ARROWS.get(buffer[index])
            return 0, None
        return 1, "escape"  # ESC then an ordinary key: Esc was pressed on its own


def read_keys(fd: int, esc_timeout: float = ESC_TIMEOUT) -> Iterator[str]:
    """Yield key names read from ``fd`` until end of input.

    Blocks in ``select`` with no timeout, except for ``esc_timeout`` after an
    ESC byte, to tell the Esc key from the start of an arrow sequence.
    """
    decoder = KeyDecoder()
    while True:
        ready, _, _ = select.select([fd], [], [], esc_timeout if decoder.pending else None)
        if not ready:
            yield from decoder.flush()
            continue
        data = os.read(fd, 64)
        if not data:
            yield from decoder.flush()
            return
        yield from decoder.feed(data)


@contextlib.contextmanager
def cbreak_terminal(fd: int) -> Iterator[None]:
    """Put the terminal on ``fd`` in cbreak mode (keys arrive at once, no echo).

    The previous settings are restored on exit, also on exceptions. Ctrl-C
    still raises KeyboardInterrupt. Does nothing if ``fd`` is not a terminal.
    """
    if not os.isatty(fd):
        yield
        return
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def press_key(simulated: SimulatedInputs, key: str) -> bool:
    """Perform the input bound to the key named ``key``; False if it is a quit key.

    The terminal and the window both name their keys as :class:`KeyDecoder`
    does, so they drive the same inputs.
    """
    if key in QUIT_KEYS:
        return False
    item = KEY_BINDINGS.get(key)
    if item is None:
        log.debug("unbound key %r", key)
    else:
        simulated.perform(item)
    return True


def run_keyboard(simulated: SimulatedInputs, fd: int = 0) -> None:
    """Drive ``simulated`` from the keys read on ``fd`` until q or end of input.

    Blocks; leaves the terminal mode alone (see :func:`keyboard_session`).
    """
    for key in read_keys(fd):
        if not press_key(simulated, key):
            return


@contextlib.contextmanager
def keyboard_session(simulated: SimulatedInputs, fd: int = 0) -> Iterator[threading.Thread]:
    """Read keys in a background thread while the ``with`` block runs.

    The thread plays the part of gpiozero's pin threads; when it ends (q, end
    of input, or an error) it closes ``simulated.queue``, which ends the
    application loop. The terminal is put in cbreak mode and restored by the
    *calling* thread: the reader is a daemon thread (it blocks in ``select``
    and must not keep the process alive), and a daemon thread's cleanup never
    runs when the main thread exits, e.g. on Ctrl-C.
    """

    def read_until_quit() -> None:
        try:
            run_keyboard(simulated, fd)
        finally:
            simulated.queue.close()

    with cbreak_terminal(fd):
        thread = threading.Thread(target=read_until_quit, name="keyboard", daemon=True)
        thread.start()
        yield thread


class ScriptError(ValueError):
    """A script line that is not one of the five input names."""

    def __init__(self, source: str, line_number: int, message: str) -> None:
        super().__init__(f"{source}, line {line_number}: {message}")
        self.source = source
        self.line_number = line_number


def parse_script(text: str, source: str = "<script>") -> list[Input]:
    """Parse one input name per line; ``#`` starts a comment, blank lines are skipped.

    Raises :class:`ScriptError` naming the first bad line.
    """
    expected = ", ".join(item.value for item in Input)
    inputs: list[Input] = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) > 1:
            raise ScriptError(source, line_number, f"one input per line, got {' '.join(words)!r}")
        try:
            inputs.append(Input(words[0].lower()))
        except ValueError:
            message = f"unknown input {words[0]!r} (expected one of: {expected})"
            raise ScriptError(source, line_number, message) from None
    return inputs
