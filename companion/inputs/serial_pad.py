"""The serial button pad: a microcontroller sending input names over a serial line.

A :class:`SerialPad` owns one daemon thread. It opens the port with pyserial's
``serial_for_url`` (so "/dev/ttyACM0", "/dev/serial0", a pty path and
"loop://" all work), reads lines (protocol in :mod:`companion.inputs.pad_protocol`
and docs/serial-pad.md), puts each valid input in the :class:`EventQueue`
and answers every line with one reply. It never touches the application.

The pad may be unplugged and plugged back at any moment: a read or write
error closes the port, logs once, and the thread tries again every
``reconnect_interval`` seconds, sleeping on an Event so that :meth:`close`
ends it at once.

Try a pad from a laptop: ``python -m companion.inputs.serial_pad /dev/ttyACM0``.
"""

from __future__ import annotations

import argparse
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import serial

from companion.inputs.events import EventQueue, Input
from companion.inputs.pad_protocol import (
    Command,
    Ignored,
    LineSplitter,
    RawLine,
    Refusal,
    classify,
    encode_reply,
    error_reply,
    state_reply,
)

log = logging.getLogger(__name__)

#: How long one read waits for data. :meth:`SerialPad.close` cancels a waiting read at
#: once (pyserial's ``cancel_read``); this only bounds the rare read it cannot reach, and
#: keeps an idle pad from waking the device more than every couple of seconds.
READ_TIMEOUT = 2.0
#: The most bytes taken from the port in one read.
READ_CHUNK = 256
#: How long one reply may take to write before it is dropped.
DEFAULT_WRITE_TIMEOUT = 0.5
#: After a reply timed out, further replies are dropped at once for this long, so
#: a pad that stopped reading slows its own inputs down by one timeout, not one per line.
STALL_BACKOFF = 2.0
#: How long :meth:`SerialPad.close` waits for the thread to end.
JOIN_TIMEOUT = 2.0

OpenSerial = Callable[..., serial.Serial]
StateSource = Callable[[], str | None]


@dataclass(frozen=True, slots=True)
class SerialPadStats:
    """A snapshot of a :class:`SerialPad`'s counters (all since it was made)."""

    lines_received: int = 0
    """Complete lines, whatever they held (overlong, empty and echoed ones too)."""
    inputs_accepted: int = 0
    """Lines that put an input in the queue."""
    errors_sent: int = 0
    """Lines refused with "ERR …" (including refusals whose reply was dropped)."""
    reconnects: int = 0
    """Times the port was opened again after being lost."""
    bytes_received: int = 0
    replies_sent: int = 0
    replies_dropped: int = 0
    """Replies not written because the other end stopped reading."""
    lines_ignored: int = 0
    """Empty lines and echoes of our own replies: they get no reply."""
    open_failures: int = 0


class SerialPad:
    """Reads a serial button pad in its own daemon thread and feeds ``queue``.

    ``state`` is called (from the pad's thread, so it must be thread-safe,
    e.g. return a string the application keeps up to date) to answer STATE;
    it returns JSON text or ``None``. ``open_serial`` is called as
    ``open_serial(url, baudrate=…, timeout=…, write_timeout=…)`` and must
    return an open pyserial port; tests inject failures through it.
    """

    def __init__(
        self,
        url: str,
        baudrate: int,
        queue: EventQueue,
        state: StateSource,
        *,
        reconnect_interval: float = 1.0,
        write_timeout: float = DEFAULT_WRITE_TIMEOUT,
        open_serial: OpenSerial = serial.serial_for_url,
    ) -> None:
        if reconnect_interval <= 0:
            raise ValueError(f"reconnect_interval must be positive, not {reconnect_interval}")
        if write_timeout <= 0:
            raise ValueError(f"write_timeout must be positive, not {write_timeout}")
        self.url = url
        self.baudrate = baudrate
        self._queue = queue
        self._state = state
        self._reconnect_interval = reconnect_interval
        self._write_timeout = write_timeout
        self._open_serial = open_serial

        self._stop = threading.Event()
        self._connected = threading.Event()
        self._thread: threading.Thread | None = None
        # Guards _port against close() cancelling I/O on a port being closed
        # (its cancel pipes' file descriptors could already belong to someone else).
        self._port_lock = threading.Lock()
        self._port: serial.Serial | None = None
        self._ever_connected = False
        self._outage_logged = False
        self._stalled_until = 0.0
        self._failure: BaseException | None = None

        self._lines_received = 0
        self._inputs_accepted = 0
        self._errors_sent = 0
        self._reconnects = 0
        self._bytes_received = 0
        self._replies_sent = 0
        self._replies_dropped = 0
        self._lines_ignored = 0
        self._open_failures = 0

    # -- life cycle ---------------------------------------------------------

    def start(self) -> SerialPad:
        """Start the reader thread (once); returns ``self``."""
        if self._thread is not None:
            raise RuntimeError("a SerialPad can only be started once")
        self._thread = threading.Thread(
            target=self._run, name=f"serial-pad {self.url}", daemon=True
        )
        self._thread.start()
        return self

    def close(self, timeout: float = JOIN_TIMEOUT) -> None:
        """Stop the thread and close the port: at once, or within :data:`READ_TIMEOUT`."""
        self._stop.set()
        with self._port_lock:
            if self._port is not None:
                for name in ("cancel_read", "cancel_write"):
                    cancel = getattr(self._port, name, None)
                    if cancel is not None:
                        try:
                            cancel()
                        except Exception:  # best effort: the read timeout ends it anyway
                            log.debug("serial pad %s: %s failed", self.url, name, exc_info=True)
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
            if thread.is_alive():
                log.warning(
                    "serial pad %s: reader thread still running after %.1f s", self.url, timeout
                )

    def __enter__(self) -> SerialPad:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- what others may look at -------------------------------------------

    @property
    def connected(self) -> bool:
        """True while the port is open."""
        return self._connected.is_set()

    def wait_connected(self, timeout: float | None = None) -> bool:
        """Wait until the port is open; ``False`` on timeout."""
        return self._connected.wait(timeout)

    @property
    def running(self) -> bool:
        """True while the reader thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    @property
    def failure(self) -> BaseException | None:
        """The error that stopped the thread for good (a bad URL or setting), if any."""
        return self._failure

    def stats(self) -> SerialPadStats:
        """All counters at once (each read without locking: they only ever grow)."""
        return SerialPadStats(
            lines_received=self._lines_received,
            inputs_accepted=self._inputs_accepted,
            errors_sent=self._errors_sent,
            reconnects=self._reconnects,
            bytes_received=self._bytes_received,
            replies_sent=self._replies_sent,
            replies_dropped=self._replies_dropped,
            lines_ignored=self._lines_ignored,
            open_failures=self._open_failures,
        )

    # -- the thread -------------------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                port = self._open()
                if port is None:
                    break
                try:
                    self._serve(port)
                except (serial.SerialException, OSError) as exc:
                    self._lost(exc)
                except Exception as exc:
                    # A bug, not an unplugged cable: say so loudly, but keep the pad alive.
                    log.exception("serial pad %s: unexpected error", self.url)
                    self._lost(exc)
                finally:
                    self._close_port(port)
                self._stop.wait(self._reconnect_interval)
        except Exception as exc:
            # Opening failed in a way that retrying cannot fix (a bad URL or baud rate).
            self._failure = exc
            log.error("serial pad %s cannot be used: %s", self.url, exc)
        finally:
            self._connected.clear()

    def _open(self) -> serial.Serial | None:
        """Open the port, retrying until it opens; ``None`` if closed meanwhile."""
        while not self._stop.is_set():
            try:
                port = self._open_serial(
                    self.url,
                    baudrate=self.baudrate,
                    timeout=READ_TIMEOUT,
                    write_timeout=self._write_timeout,
                )
            except (serial.SerialException, OSError) as exc:
                self._open_failures += 1
                if self._outage_logged:
                    log.debug("serial pad %s still unavailable: %s", self.url, exc)
                else:
                    self._outage_logged = True
                    log.warning(
                        "serial pad %s unavailable (%s); trying again every %g s",
                        self.url,
                        exc,
                        self._reconnect_interval,
                    )
                self._stop.wait(self._reconnect_interval)
                continue
            with self._port_lock:
                if self._stop.is_set():
                    port.close()
                    return None
                self._port = port
            self._outage_logged = False
            self._stalled_until = 0.0
            if self._ever_connected:
                self._reconnects += 1
                log.info("serial pad %s reconnected", self.url)
            else:
                self._ever_connected = True
                log.info("serial pad connected on %s", self.url)
            self._connected.set()
            return port
        return None

    def _lost(self, exc: BaseException) -> None:
        self._outage_logged = True
        log.warning(
            "serial pad %s lost (%s); trying again every %g s",
            self.url,
            exc,
            self._reconnect_interval,
        )

    def _close_port(self, port: serial.Serial) -> None:
        self._connected.clear()
        with self._port_lock:
            self._port = None
            try:
                port.close()
            except Exception:  # a vanished device may fail to close; it is gone either way
                log.debug("serial pad %s: error closing the port", self.url, exc_info=True)

    def _serve(self, port: serial.Serial) -> None:
        """Read, answer and enqueue until closed; raises when the device goes away."""
        splitter = LineSplitter()
        while not self._stop.is_set():
            # Block for one byte (up to READ_TIMEOUT), then take what has come, bounded.
            size = min(max(port.in_waiting, 1), READ_CHUNK)
            data = port.read(size)
            if not data:
                continue
            self._bytes_received += len(data)
            for line in splitter.feed(data):
                self._answer(port, line)

    def _answer(self, port: serial.Serial, line: RawLine) -> None:
        self._lines_received += 1
        request = classify(line)
        if isinstance(request, Input):
            self._queue.put(request)
            self._inputs_accepted += 1
            reply = "OK"
        elif request is Command.PING:
            reply = "PONG"
        elif request is Command.STATE:
            reply = self._state_reply()
        elif isinstance(request, Ignored):
            self._lines_ignored += 1
            return
        else:
            reply = error_reply(request)
        if reply.startswith("ERR"):
            self._errors_sent += 1
        self._send(port, reply)

    def _state_reply(self) -> str:
        try:
            state = self._state()
            if state is not None and not isinstance(state, str):
                raise TypeError(f"state() returned {type(state).__name__}, not str or None")
        except Exception:
            log.exception("serial pad %s: the state could not be read", self.url)
            return error_reply(Refusal.STATE_UNAVAILABLE)
        return state_reply(state)

    def _send(self, port: serial.Serial, reply: str) -> None:
        if time.monotonic() < self._stalled_until:
            self._replies_dropped += 1
            return
        try:
            port.write(encode_reply(reply))
        except serial.SerialTimeoutException:
            # Not a lost device: the other end is not reading. Keep reading its inputs.
            self._replies_dropped += 1
            if self._stalled_until == 0.0:
                log.warning("serial pad %s is not reading its replies; dropping them", self.url)
            self._stalled_until = time.monotonic() + STALL_BACKOFF
        else:
            self._replies_sent += 1
            self._stalled_until = 0.0


def main(argv: list[str] | None = None) -> int:
    """Show what a pad sends: each input as it arrives, then the counters."""
    parser = argparse.ArgumentParser(
        prog="python -m companion.inputs.serial_pad",
        description="Read a serial button pad and print its inputs (Ctrl-C to stop).",
    )
    parser.add_argument("url", help='a serial port or pyserial URL: "/dev/ttyACM0", "/dev/serial0"')
    parser.add_argument("--baudrate", type=int, default=115_200)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    queue = EventQueue()
    pad = SerialPad(args.url, args.baudrate, queue, lambda: None)
    with pad:
        try:
            while True:
                event = queue.get_event(timeout=None)
                if event is not None:
                    print(f"{event.timestamp:12.3f}  {event.input.value}", flush=True)
        except KeyboardInterrupt:
            pass
    print(pad.stats())
    return 0 if pad.failure is None else 1


if __name__ == "__main__":
    raise SystemExit(main())
