"""The serial button pad's line protocol, with no I/O: framing and meaning of lines.

The pad sends one line per input ("next", "previous", "select", "back",
"hold") or command ("PING", "STATE"); the daemon answers every line it
acts on with exactly one line. docs/serial-pad.md is the full description;
:mod:`companion.inputs.serial_pad` does the reading and writing.

>>> splitter = LineSplitter()
>>> [str(classify(line)) for line in splitter.feed(b"next\\r\\nNEXT\\nPING\\n\\n")]
['next', 'wrong-case', 'PING', 'empty']
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.inputs.events import Input

#: The longest line accepted, in bytes, not counting its "\n" or "\r\n".
MAX_LINE_BYTES = 128


class Command(StrEnum):
    """Requests that are not inputs: they change nothing."""

    PING = "PING"
    """Answered with "PONG"."""
    STATE = "STATE"
    """Answered with the game state as JSON on one line ("null" if there is none)."""


class Refusal(StrEnum):
    """Why a line was refused: the reason after "ERR " in the reply."""

    TOO_LONG = "too-long"
    NOT_UTF8 = "not-utf8"
    CONTROL_CHAR = "control-char"
    """NUL, tab, a stray carriage return or any other control character."""
    WRONG_CASE = "wrong-case"
    """A known word in the wrong case ("NEXT", "ping"): garbage, not a guess."""
    UNKNOWN = "unknown"
    STATE_UNAVAILABLE = "state-unavailable"
    """STATE asked but the state could not be produced (never from :func:`classify`)."""


class Ignored(StrEnum):
    """Lines that get no reply at all."""

    EMPTY = "empty"
    """An empty line: lets a pad end whatever half line a reset left on the wire."""
    ECHO = "echo"
    """One of the daemon's own replies ("OK", "PONG", "ERR …") come back by an echo
    (a loop:// port, a terminal with echo on): answering it would ping-pong forever."""


Request = Input | Command | Refusal | Ignored

_INPUTS = {item.value: item for item in Input}
_COMMANDS = {item.value: item for item in Command}
_KNOWN_FOLDED = {word.casefold() for word in (*_INPUTS, *_COMMANDS)}
_REPLY_WORDS = frozenset({"OK", "PONG", "ERR"})


@dataclass(frozen=True, slots=True)
class RawLine:
    """One line as received, without its line ending.

    ``too_long`` lines keep no data: their bytes were discarded as they came.
    """

    data: bytes = b""
    too_long: bool = False


class LineSplitter:
    """Cuts a byte stream into lines, never holding more than one short line.

    A line longer than ``max_bytes`` is dropped as it arrives, up to its
    newline, and yields a single ``RawLine(too_long=True)`` when that newline
    comes: a flood without newlines costs no memory and one refusal.
    One "\\r" before the "\\n" is removed.

    >>> splitter = LineSplitter(max_bytes=4)
    >>> splitter.feed(b"back\\r\\nprevious\\nne")
    [RawLine(data=b'back', too_long=False), RawLine(data=b'', too_long=True)]
    >>> splitter.feed(b"xt\\n")
    [RawLine(data=b'next', too_long=False)]
    """

    def __init__(self, max_bytes: int = MAX_LINE_BYTES) -> None:
        if max_bytes < 1:
            raise ValueError(f"max_bytes must be at least 1, not {max_bytes}")
        self.max_bytes = max_bytes
        self._buffer = bytearray()
        self._discarding = False

    @property
    def buffered(self) -> int:
        """Bytes of the unfinished line held now (at most ``max_bytes + 1``)."""
        return len(self._buffer)

    def feed(self, data: bytes) -> list[RawLine]:
        """Take the next bytes of the stream; return the lines they complete, in order."""
        lines: list[RawLine] = []
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start:end]
            if not self._discarding:
                self._buffer += piece
                # max_bytes + 1 leaves room for the "\r" of a "\r\n" ending.
                if len(self._buffer) > self.max_bytes + 1:
                    self._buffer.clear()
                    self._discarding = True
            if end < 0:
                break
            lines.append(self._finish_line())
            start = end + 1
        return lines

    def _finish_line(self) -> RawLine:
        line = bytes(self._buffer)
        self._buffer.clear()
        if self._discarding:
            self._discarding = False
            return RawLine(too_long=True)
        if line.endswith(b"\r"):
            line = line[:-1]
        if len(line) > self.max_bytes:
            return RawLine(too_long=True)
        return RawLine(line)


def classify(line: RawLine) -> Request:
    """What a received line asks for; see the module docstring and docs/serial-pad.md."""
    if line.too_long:
        return Refusal.TOO_LONG
    if not line.data:
        return Ignored.EMPTY
    try:
        text = line.data.decode("utf-8")
    except UnicodeDecodeError:
        return Refusal.NOT_UTF8
    if any(_is_control(char) for char in text):
        return Refusal.CONTROL_CHAR
    if text in _INPUTS:
        return _INPUTS[text]
    if text in _COMMANDS:
        return _COMMANDS[text]
    if text in _REPLY_WORDS or text.startswith("ERR "):
        return Ignored.ECHO
    if text.casefold() in _KNOWN_FOLDED:
        return Refusal.WRONG_CASE
    return Refusal.UNKNOWN


def _is_control(char: str) -> bool:
    # Unicode category Cc: C0 controls, DEL and the C1 controls.
    code = ord(char)
    return code < 0x20 or 0x7F <= code <= 0x9F


def error_reply(reason: Refusal) -> str:
    """The reply refusing a line: ``ERR <reason>``."""
    return f"ERR {reason.value}"


def state_reply(state: str | None) -> str:
    """The reply to STATE: the JSON text on one line, "null" for no state.

    A raw line break in JSON can only be whitespace between tokens (inside a
    string it would have to be escaped), so turning each into a space keeps
    pretty-printed JSON valid and equal while keeping the protocol one line.
    """
    if state is None:
        return "null"
    return state.replace("\r", " ").replace("\n", " ")


def encode_reply(text: str) -> bytes:
    """A reply as sent: UTF-8 and one "\\n"."""
    return text.encode("utf-8") + b"\n"
