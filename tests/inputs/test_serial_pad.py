"""The serial button pad over real pseudo-terminals, loop:// and injected failures.

The pad's end is the master of an ``os.openpty()`` pair; the companion opens the
slave path with pyserial exactly as it opens /dev/ttyACM0 on the device.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import random
import select
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial

from companion.inputs.events import EventQueue, Input
from companion.inputs.serial_pad import SerialPad

#: Generous: a slow machine must not fail a test; every wait returns as soon as it can.
TIMEOUT = 10.0


def wait_for(predicate: Callable[[], bool], timeout: float = TIMEOUT) -> bool:
    """Poll ``predicate`` until it is true (``True``) or ``timeout`` passes (``False``)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


class PadEnd:
    """A pseudo-terminal whose master end plays the microcontroller.

    The companion opens :attr:`path` (the slave, a real ``/dev/pts/N``) with
    pyserial; what the test writes here arrives there as the pad's lines, and
    the companion's replies are read back here.
    """

    def __init__(self) -> None:
        self.master, self._slave = os.openpty()
        self.path = os.ttyname(self._slave)
        os.set_blocking(self.master, False)
        self._received = bytearray()
        self.closed = False

    def exchange(self, data: bytes, replies: int, timeout: float = TIMEOUT) -> list[bytes]:
        """Write ``data`` and return the next ``replies`` lines (without "\\n").

        Writing and reading are interleaved, so a burst larger than the
        terminal's buffers cannot deadlock against the replies it causes.
        Raises ``TimeoutError`` if the replies do not all come in time.
        """
        pending = memoryview(data)
        deadline = time.monotonic() + timeout
        while pending or self._received.count(b"\n") < replies:
            left = deadline - time.monotonic()
            if left <= 0:
                got = self._received.count(b"\n")
                raise TimeoutError(
                    f"{got} of {replies} replies, "
                    f"{len(pending)} bytes unwritten: {bytes(self._received[-200:])!r}"
                )
            readable, writable, _ = select.select(
                [self.master], [self.master] if pending else [], [], min(left, 0.1)
            )
            if readable:
                self._received += os.read(self.master, 65536)
            if writable:
                try:
                    written = os.write(self.master, pending[:4096])
                except BlockingIOError:
                    written = 0
                pending = pending[written:]
        lines = []
        for _ in range(replies):
            end = self._received.index(b"\n")
            lines.append(bytes(self._received[:end]))
            del self._received[: end + 1]
        return lines

    FENCE = b"Ping\n"
    """A line whose reply ends no test's lines: a wrong-case PING, an error."""

    def nothing_more(self) -> bool:
        """No reply has come beyond those already taken, nor will: the next reply is the
        one to :attr:`FENCE`, sent now (the pad answers its lines in order, so a stray
        reply to an earlier line would come before it)."""
        return self.exchange(self.FENCE, 1) == [b"ERR wrong-case"]

    def close(self) -> None:
        """Pull the plug: both ends of the pseudo-terminal go away."""
        if not self.closed:
            self.closed = True
            os.close(self._slave)
            os.close(self.master)


# -- fixtures ---------------------------------------------------------------------


@pytest.fixture
def pad_end() -> Iterator[PadEnd]:
    end = PadEnd()
    yield end
    end.close()


@pytest.fixture
def open_pad(queue: EventQueue) -> Iterator[Callable[..., SerialPad]]:
    """Start SerialPads (closed after the test); ``wait=True`` waits until connected."""
    pads: list[SerialPad] = []

    def opener(
        url: str,
        state: Callable[[], str | None] = lambda: None,
        *,
        wait: bool = True,
        queue: EventQueue = queue,
        **kwargs: object,
    ) -> SerialPad:
        pad = SerialPad(url, 115_200, queue, state, **kwargs)
        pads.append(pad)
        pad.start()
        if wait:
            assert pad.wait_connected(TIMEOUT), "the pad never connected"
        return pad

    yield opener
    for pad in pads:
        pad.close()


def drain(queue: EventQueue) -> list[Input]:
    items = []
    while (item := queue.get(timeout=0)) is not None:
        items.append(item)
    return items


# -- the protocol over a real pseudo-terminal --------------------------------------


def test_each_input_word_is_enqueued_and_answered_ok(pad_end, open_pad, queue):
    pad = open_pad(pad_end.path)

    replies = pad_end.exchange(b"next\nprevious\nselect\nback\nhold\n", 5)

    assert replies == [b"OK"] * 5
    assert drain(queue) == [Input.NEXT, Input.PREVIOUS, Input.SELECT, Input.BACK, Input.HOLD]
    assert pad.stats().inputs_accepted == 5
    assert pad.stats().lines_received == 5
    assert pad.stats().bytes_received == len(b"next\nprevious\nselect\nback\nhold\n")


def test_crlf_line_endings_are_tolerated(pad_end, open_pad, queue):
    open_pad(pad_end.path)

    assert pad_end.exchange(b"select\r\nback\r\n", 2) == [b"OK", b"OK"]
    assert drain(queue) == [Input.SELECT, Input.BACK]


def test_a_line_split_across_writes_is_one_line(pad_end, open_pad, queue):
    pad = open_pad(pad_end.path)

    pad_end.exchange(b"pre", 0)
    # Read before the rest is written: the half line must be kept.
    assert wait_for(lambda: pad.stats().bytes_received == 3)
    assert pad_end.exchange(b"vious\n", 1) == [b"OK"]
    assert drain(queue) == [Input.PREVIOUS]


def test_ping_is_answered_pong_and_changes_nothing(pad_end, open_pad, queue):
    open_pad(pad_end.path)

    assert pad_end.exchange(b"PING\n", 1) == [b"PONG"]
    assert len(queue) == 0


def test_state_answers_the_json_from_the_callable(pad_end, open_pad, queue):
    state = {"screen": "turn", "buttons": [5, 7], "player": "Zoë"}
    open_pad(pad_end.path, lambda: json.dumps(state, ensure_ascii=False))

    (reply,) = pad_end.exchange(b"STATE\n", 1)

    assert json.loads(reply.decode("utf-8")) == state
    assert len(queue) == 0


def test_state_is_null_without_a_game_and_pretty_json_stays_on_one_line(pad_end, open_pad):
    states = iter([None, json.dumps({"a": [1, 2], "b": "x\ny"}, indent=2)])
    open_pad(pad_end.path, lambda: next(states))

    replies = pad_end.exchange(b"STATE\nSTATE\nPING\n", 3)

    assert replies[0] == b"null"
    assert json.loads(replies[1]) == {"a": [1, 2], "b": "x\ny"}
    assert replies[2] == b"PONG"


def test_a_failing_state_callable_is_refused_and_the_pad_goes_on(pad_end, open_pad, queue):
    def broken() -> str:
        raise RuntimeError("no state yet")

    open_pad(pad_end.path, broken)

    assert pad_end.exchange(b"STATE\nnext\n", 2) == [b"ERR state-unavailable", b"OK"]
    assert drain(queue) == [Input.NEXT]


def test_an_overlong_line_gets_exactly_one_err_and_the_next_line_works(pad_end, open_pad, queue):
    pad = open_pad(pad_end.path)

    replies = pad_end.exchange(b"n" * 200 + b"\n" + b"next\n", 2)

    assert replies == [b"ERR too-long", b"OK"]
    assert pad.stats().errors_sent == 1
    assert pad_end.nothing_more()
    assert drain(queue) == [Input.NEXT]


def test_128_bytes_is_the_longest_line(pad_end, open_pad):
    open_pad(pad_end.path)

    replies = pad_end.exchange(b"x" * 128 + b"\n" + b"x" * 128 + b"\r\n" + b"x" * 129 + b"\n", 3)

    assert replies == [b"ERR unknown", b"ERR unknown", b"ERR too-long"]


def test_an_overlong_line_of_valid_words_enqueues_nothing(pad_end, open_pad, queue):
    open_pad(pad_end.path)

    assert pad_end.exchange(b"next" * 50 + b"\n", 1) == [b"ERR too-long"]
    assert len(queue) == 0


def test_a_flood_without_newlines_costs_one_err(pad_end, open_pad, queue):
    pad = open_pad(pad_end.path)
    flood = b"select" * 50_000  # 300 kB and no line end

    replies = pad_end.exchange(flood + b"\nback\n", 2)

    assert replies == [b"ERR too-long", b"OK"]
    assert drain(queue) == [Input.BACK]
    assert pad.stats().bytes_received == len(flood) + len(b"\nback\n")


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        (b"\xff\xfenext", b"ERR not-utf8"),
        (b"sel\xc3ect", b"ERR not-utf8"),
        (b"NEXT", b"ERR wrong-case"),
        (b"Select", b"ERR wrong-case"),
        (b"ping", b"ERR wrong-case"),
        (b"State", b"ERR wrong-case"),
        (b"next\x00", b"ERR control-char"),
        (b"\x00", b"ERR control-char"),
        (b"ne\rxt", b"ERR control-char"),
        (b"back\r\r", b"ERR control-char"),
        (b"\tback", b"ERR control-char"),
        (b" next", b"ERR unknown"),
        (b"next ", b"ERR unknown"),
        (b"jump", b"ERR unknown"),
        (b"n\xc3\xa9xt", b"ERR unknown"),
    ],
)
def test_garbage_is_refused_and_changes_nothing(pad_end, open_pad, queue, line, reply):
    open_pad(pad_end.path)

    assert pad_end.exchange(line + b"\n", 1) == [reply]
    assert pad_end.exchange(b"PING\n", 1) == [b"PONG"]  # exactly one reply, then in step
    assert len(queue) == 0


def test_empty_lines_and_echoed_replies_get_no_reply(pad_end, open_pad, queue):
    pad = open_pad(pad_end.path)

    replies = pad_end.exchange(b"\n\r\nOK\nPONG\nERR unknown\nPING\n", 1)

    assert replies == [b"PONG"]
    assert pad_end.nothing_more()
    assert pad.stats().lines_ignored == 5
    assert len(queue) == 0


def burst(rng: random.Random, count: int) -> list[tuple[bytes, bytes | None, Input | None]]:
    """``count`` lines a confused pad might send: (line, expected reply, expected input)."""
    words = [item.value for item in Input]
    lines: list[tuple[bytes, bytes | None, Input | None]] = []
    for _ in range(count):
        kind = rng.choice(
            ["valid"] * 8 + ["ping", "state", "case", "unknown", "utf8", "nul", "long", "empty"]
        )
        ending = rng.choice([b"\n", b"\r\n"])
        word = rng.choice(words)
        if kind == "valid":
            lines.append((word.encode() + ending, b"OK", Input(word)))
        elif kind == "ping":
            lines.append((b"PING" + ending, b"PONG", None))
        elif kind == "state":
            lines.append((b"STATE" + ending, b'{"turn": 12}', None))
        elif kind == "case":
            lines.append((rng.choice([word.upper(), word.title()]).encode() + ending,
                          b"ERR wrong-case", None))  # fmt: skip
        elif kind == "unknown":
            lines.append((word.encode() + b"x" + ending, b"ERR unknown", None))
        elif kind == "utf8":
            lines.append((word.encode() + bytes([rng.randrange(0x80, 0x100)]) + ending,
                          b"ERR not-utf8", None))  # fmt: skip
        elif kind == "nul":
            lines.append((word.encode() + b"\x00" + ending, b"ERR control-char", None))
        elif kind == "long":
            lines.append((b"x" * rng.randint(129, 600) + ending, b"ERR too-long", None))
        else:
            lines.append((ending, None, None))
    return lines


def test_a_burst_of_1000_mixed_lines(pad_end, open_pad):
    queue = EventQueue(maxlen=5_000)
    pad = open_pad(pad_end.path, lambda: '{"turn": 12}', queue=queue)
    lines = burst(random.Random(2024), 1_000)
    expected_replies = [reply for _, reply, _ in lines if reply is not None]
    expected_inputs = [item for _, _, item in lines if item is not None]
    data = b"".join(line for line, _, _ in lines) + b"PING\n"  # ends with a marker

    replies = pad_end.exchange(data, len(expected_replies) + 1, timeout=60)

    assert replies == [*expected_replies, b"PONG"]
    assert pad_end.nothing_more()  # one more line, an error: the counts below include it
    assert drain(queue) == expected_inputs
    # The pad counts a reply once written: the fence's, just read, may not be counted yet.
    assert wait_for(lambda: pad.stats().replies_sent == len(expected_replies) + 2)
    stats = pad.stats()
    assert stats.lines_received == 1_002
    assert stats.inputs_accepted == len(expected_inputs)
    assert stats.errors_sent == 1 + sum(reply.startswith(b"ERR") for reply in expected_replies)
    assert stats.lines_ignored == 1_000 - len(expected_replies)
    assert stats.bytes_received == len(data + pad_end.FENCE)


# -- unplugged and plugged back ---------------------------------------------------


def test_unplug_and_replug_reconnects_and_carries_on(tmp_path, open_pad, queue, caplog):
    caplog.set_level(logging.INFO, logger="companion.inputs.serial_pad")
    link = tmp_path / "ttyPAD"  # like /dev/serial/by-id/…: the name survives a replug
    first = PadEnd()
    link.symlink_to(first.path)
    pad = open_pad(str(link), reconnect_interval=0.05)
    assert first.exchange(b"next\n", 1) == [b"OK"]

    link.unlink()
    first.close()
    assert wait_for(lambda: not pad.connected)
    assert wait_for(lambda: pad.stats().open_failures >= 3)  # several with nothing to open
    assert not pad.connected
    assert pad.running

    second = PadEnd()
    try:
        link.symlink_to(second.path)
        assert wait_for(lambda: pad.connected and pad.stats().reconnects == 1)
        assert second.exchange(b"select\nPING\n", 2) == [b"OK", b"PONG"]
        assert drain(queue) == [Input.NEXT, Input.SELECT]

        warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warnings) == 1, [r.getMessage() for r in warnings]  # logged once
        assert "lost" in warnings[0].getMessage()
        assert any("reconnected" in r.getMessage() for r in caplog.records)

        started = time.monotonic()
        pad.close()
        assert time.monotonic() - started < 1.0
        assert not pad.running
    finally:
        second.close()


class FlakyOpener:
    """``serial_for_url`` that fails while :attr:`failures` is positive (a port not there yet)."""

    def __init__(self, failures: int = 0, path: str | None = None) -> None:
        self.failures = failures
        self.path = path
        self.calls: list[float] = []

    def __call__(self, url: str, **kwargs: object) -> serial.SerialBase:
        self.calls.append(time.monotonic())
        if self.failures > 0:
            self.failures -= 1
            raise serial.SerialException(f"[Errno 2] could not open port {url}")
        return serial.serial_for_url(self.path or url, **kwargs)


def test_opening_fails_a_few_times_then_connects(pad_end, open_pad, queue, caplog):
    caplog.set_level(logging.DEBUG, logger="companion.inputs.serial_pad")
    opener = FlakyOpener(failures=4)
    pad = open_pad(pad_end.path, reconnect_interval=0.01, open_serial=opener)

    assert len(opener.calls) == 5
    assert pad.stats().open_failures == 4
    assert pad.stats().reconnects == 0  # a first connection, not a reconnection
    assert pad_end.exchange(b"hold\n", 1) == [b"OK"]
    assert drain(queue) == [Input.HOLD]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1


def test_after_a_loss_failed_attempts_then_a_new_port(open_pad, queue):
    first, second = PadEnd(), PadEnd()
    try:
        opener = FlakyOpener(path=first.path)
        pad = open_pad("pad", reconnect_interval=0.01, open_serial=opener)
        assert first.exchange(b"back\n", 1) == [b"OK"]

        opener.failures = 3
        opener.path = second.path
        first.close()
        assert wait_for(lambda: pad.connected and pad.stats().reconnects == 1)

        assert len(opener.calls) == 5
        assert second.exchange(b"next\n", 1) == [b"OK"]
        assert drain(queue) == [Input.BACK, Input.NEXT]
    finally:
        first.close()
        second.close()


def test_waiting_to_reconnect_does_not_busy_loop(open_pad):
    opener = FlakyOpener(failures=10**9)
    pad = open_pad("pad", wait=False, reconnect_interval=0.02, open_serial=opener)

    time.sleep(0.11)
    pad.close()

    assert 1 <= len(opener.calls) <= 7
    gaps = [b - a for a, b in zip(opener.calls, opener.calls[1:], strict=False)]
    assert all(gap >= 0.018 for gap in gaps)


def test_close_is_prompt_while_waiting_to_reconnect(open_pad):
    opener = FlakyOpener(failures=10**9)
    pad = open_pad("pad", wait=False, reconnect_interval=30.0, open_serial=opener)
    assert wait_for(lambda: len(opener.calls) == 1)

    started = time.monotonic()
    pad.close()

    assert time.monotonic() - started < 1.0
    assert not pad.running
    assert len(opener.calls) == 1


def test_close_is_prompt_while_connected_and_idle(pad_end, open_pad):
    pad = open_pad(pad_end.path)

    started = time.monotonic()
    pad.close()

    assert time.monotonic() - started < 1.0
    assert not pad.running
    assert not pad.connected


def test_close_is_prompt_while_a_reply_is_stuck_writing(pad_end, open_pad):
    big_state = '{"notes": "' + "x" * 200_000 + '"}'  # more than the terminal buffers hold
    pad = open_pad(pad_end.path, lambda: big_state, write_timeout=30.0)
    pad_end.exchange(b"STATE\n", 0)  # and the pad never reads the reply
    assert wait_for(lambda: pad.stats().lines_received == 1)
    time.sleep(0.2)

    started = time.monotonic()
    pad.close()

    assert time.monotonic() - started < 1.0
    assert not pad.running


def test_an_unusable_url_stops_the_reader_with_an_error(open_pad, caplog):
    pad = open_pad("nonsense://pad", wait=False)

    assert wait_for(lambda: not pad.running)
    assert isinstance(pad.failure, ValueError)
    assert any(r.levelno == logging.ERROR for r in caplog.records)
    pad.close()


# -- a port whose other end stops reading ------------------------------------------


class StuckPort:
    """Delivers scripted bytes but every write times out, as when the pad stops reading."""

    def __init__(self, data: bytes) -> None:
        self._data = bytearray(data)
        self.writes = 0

    @property
    def in_waiting(self) -> int:
        return len(self._data)

    def read(self, size: int = 1) -> bytes:
        if not self._data:
            time.sleep(0.01)
            return b""
        chunk = bytes(self._data[:size])
        del self._data[:size]
        return chunk

    def write(self, data: bytes) -> int:
        self.writes += 1
        time.sleep(0.05)  # the write timeout running out
        raise serial.SerialTimeoutException("Write timeout")

    def close(self) -> None:
        pass


def test_unread_replies_are_dropped_and_inputs_still_arrive(open_pad, queue):
    port = StuckPort(b"next\nback\nselect\nPING\n")
    opens: list[str] = []

    def opener(url: str, **kwargs: object) -> StuckPort:
        opens.append(url)
        return port

    pad = open_pad("stuck", open_serial=opener)
    assert queue.wait_until_enqueued(3, TIMEOUT)
    assert wait_for(lambda: pad.stats().lines_received == 4)

    assert drain(queue) == [Input.NEXT, Input.BACK, Input.SELECT]
    stats = pad.stats()
    assert stats.replies_dropped == 4
    assert port.writes == 1  # then it stops waiting on a reader that is not there
    assert stats.reconnects == 0
    assert opens == ["stuck"]
    assert pad.connected


# -- loop:// ------------------------------------------------------------------------


def test_loop_url_echoes_are_not_answered(open_pad, queue):
    ports: list[serial.SerialBase] = []

    def opener(url: str, **kwargs: object) -> serial.SerialBase:
        port = serial.serial_for_url(url, **kwargs)
        ports.append(port)
        return port

    pad = open_pad("loop://", lambda: '{"turn": 1}', open_serial=opener)
    (port,) = ports

    # One line at a time: loop:// carries our lines and the pad's replies on one queue.
    port.write(b"next\n")
    assert queue.wait_until_enqueued(1, TIMEOUT)
    assert wait_for(lambda: pad.stats().lines_received == 2)  # "next", then its echoed "OK"
    port.write(b"PING\n")
    assert wait_for(lambda: pad.stats().lines_received == 4)
    port.write(b"STATE\n")  # its JSON reply comes back as a line: refused, echo ignored
    assert wait_for(lambda: pad.stats().lines_received == 7)

    assert drain(queue) == [Input.NEXT]
    stats = pad.stats()
    assert stats.inputs_accepted == 1
    assert stats.errors_sent == 1
    assert stats.lines_ignored == 3
    assert pad.connected


# -- the pad's firmware logic talking to the companion -------------------------------


def load_pad_logic():
    """The firmware's pure logic module (MicroPython code, run here on CPython)."""
    path = Path(__file__).parents[2] / "firmware_configs" / "serial-pad" / "pad_logic.py"
    spec = importlib.util.spec_from_file_location("serial_pad_firmware_logic", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_firmware_logic_drives_the_companion(pad_end, open_pad, queue):
    logic = load_pad_logic()
    config = [(2, "next", False), (3, "previous", False), (4, "select", True), (5, "back", False)]
    session = logic.PadSession(logic.make_buttons(config))
    # (first ms, last ms, button): each press bounces for its first 8 ms.
    presses = [(100, 160, 0), (300, 340, 0), (500, 560, 1), (800, 950, 2), (1200, 2200, 2)]
    presses.append((2500, 2540, 3))

    def readings(now: int) -> list[bool]:
        down = [False] * len(config)
        for first, last, button in presses:
            if first <= now <= last:
                down[button] = now - first >= 8 or (now - first) % 2 == 0
        return down

    open_pad(pad_end.path)
    sent = session.greeting() + "".join(session.step(now, readings(now)) for now in range(3000))
    replies = pad_end.exchange(sent.encode(), 6)
    session.step(3000, readings(3000), b"".join(reply + b"\n" for reply in replies))

    assert drain(queue) == [
        Input.NEXT,
        Input.NEXT,
        Input.PREVIOUS,
        Input.SELECT,
        Input.HOLD,
        Input.BACK,
    ]
    assert (session.sent, session.oks, session.errors) == (6, 6, 0)
    assert not session.led(3000)

    # Line noise reaches the companion; the refusal blinks the pad's LED.
    (refusal,) = pad_end.exchange(b"Next\n", 1)
    session.step(4000, readings(4000), refusal + b"\n")
    assert (session.errors, session.last_error) == (1, "wrong-case")
    assert session.led(4100)
    assert not session.led(4200)
    assert len(queue) == 0
