"""Serial garbage: random lines and raw byte bursts into the daemon over a real pseudo-terminal.

The daemon's own ``serve()`` runs with a real ``Companion``, the real luma
ssd1306 driver (on a bus that forgets its writes) and the serial-pad
profile, its pad pointed at a symlink (as /dev/serial/by-id/… on a device)
to the slave of an ``os.openpty()`` pair, set raw. This script plays the
microcontroller on the master end: it writes lines in segments of a few
hundred and a reader thread collects the replies concurrently, so the
terminal's buffers never block. Line kinds: valid words (``\\n`` or
``\\r\\n``), PING, STATE, protocol words in the wrong case, unknown words,
broken UTF-8, NUL and other control bytes, overlong lines (129 bytes to
8 kB), floods without a newline (4 kB to 256 kB), random binary, empty lines
and echoed replies. Every few segments the pad is unplugged in the middle of
a burst (the pty is closed and the symlink removed) and plugged back as a new
pty behind the same symlink.

Figures and targets:

- crashes: the pad's reader thread and the application thread alive at the
  end (target 0 crashes);
- state changes caused by invalid input: the inputs that reached the queue,
  in order, must equal the valid lines sent (for a segment cut by an unplug:
  a prefix of its valid lines), and a reference ``Companion`` fed only the
  valid inputs must end on the same view (target 0 differences);
- replies: one per line that expects one, each the expected reply, except
  lines lost in an unplug (counted);
- memory: RSS before and after, checked against a bound (``--max-rss-growth``); time.

Run (about 1-3 minutes for 100,000 lines on a laptop)::

    .venv/bin/python stress/serial_garbage.py [--lines 100000] [--seed 1]
        [--unplugs 8] [--time-limit 900] [--json FILE]
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import os
import random
import re
import select
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.app.companion import Companion
from companion.daemon import service
from companion.daemon.notify import Notifier
from companion.display.oled import open_oled
from companion.hardware.config import SerialPadConfig
from companion.hardware.profile import load_profile
from companion.inputs.events import EventQueue, Input, InputEvent
from companion.inputs.serial_pad import SerialPad
from companion.render.screens import render
from stress.common import (
    LogCounter,
    NullBus,
    Report,
    command_line,
    finish,
    rss_kib,
    wait_until,
    watchdog,
)

SEGMENT = 500
"""Lines written before waiting for all their replies."""
WAIT = 60.0
"""The longest one segment's replies may take before the run counts them missing."""
WORDS = [item.value for item in Input]
STATE = "<state>"
"""Expected reply marker: any JSON value on one line."""
ANY_ERR = re.compile(rb"^ERR (control-char|not-utf8|unknown|wrong-case)$")


@dataclasses.dataclass
class Line:
    data: bytes
    kind: str
    reply: bytes | str | re.Pattern | None
    """Exact reply, STATE, a pattern, or None when no reply is due."""
    input: Input | None = None


def make_line(rng: random.Random) -> Line:
    """One line a broken, noisy or confused pad might send."""
    end = rng.choice((b"\n", b"\r\n"))
    word = rng.choice(WORDS)
    kind = rng.choices(
        [
            "valid",
            "ping",
            "state",
            "case",
            "unknown",
            "utf8",
            "control",
            "long",
            "flood",
            "binary",
            "empty",
            "echo",
            "mixed",
        ],
        weights=[40, 3, 2, 6, 6, 6, 6, 4, 0.3, 12, 3, 2, 6],
    )[0]
    if kind == "valid":
        return Line(word.encode() + end, kind, b"OK", Input(word))
    if kind == "ping":
        return Line(b"PING" + end, kind, b"PONG")
    if kind == "state":
        return Line(b"STATE" + end, kind, STATE)
    if kind == "case":
        text = rng.choice([word.upper(), word.title(), "ping", "State", "sTATE", word.swapcase()])
        if text in WORDS:
            text = text.upper()
        return Line(text.encode() + end, kind, b"ERR wrong-case")
    if kind == "unknown":
        text = rng.choice([" " + word, word + " ", word + "x", "jump", word + word, "n\u00e9xt"])
        return Line(text.encode() + end, kind, b"ERR unknown")
    if kind == "utf8":
        bad = rng.choice([b"\xff", b"\xc3", b"\xe2\x82", b"\x80", b"\xed\xa0\x80", b"\xf8\x88"])
        cut = rng.randrange(len(word) + 1)
        return Line(word[:cut].encode() + bad + word[cut:].encode() + end, kind, b"ERR not-utf8")
    if kind == "control":
        bad = bytes([rng.choice([0, 1, 7, 8, 9, 11, 12, 13, 27, 127])])
        cut = rng.randrange(len(word) + 1)
        data = word[:cut].encode() + bad + word[cut:].encode()
        if data.endswith(b"\r") and end == b"\n":
            data += b"x"  # a lone "\r" before "\n" is a line ending, not garbage
        return Line(data + end, kind, b"ERR control-char")
    if kind == "long":
        size = rng.randint(129, 8192)
        filler = word.encode() * (size // len(word) + 1)
        return Line(filler[:size] + end, kind, b"ERR too-long")
    if kind == "flood":
        size = rng.randint(4096, 262_144)
        data = bytes(rng.choice(b"nextselectback\x00\xff\r") for _ in range(64)) * (size // 64)
        return Line(data + b"\n", kind, b"ERR too-long")
    if kind == "binary":
        size = rng.randint(1, 128)
        data = bytearray(rng.randbytes(size).replace(b"\n", b"\x00"))
        data[rng.randrange(size)] = rng.choice([0, 1, 0x1B, 0x7F, 0xFF, 0xC3])
        if data.endswith(b"\r"):
            data[-1] = 0
        return Line(bytes(data) + end, kind, ANY_ERR)
    if kind == "empty":
        return Line(end, kind, None)
    if kind == "echo":
        return Line(rng.choice([b"OK", b"PONG", b"ERR unknown", b"ERR"]) + end, kind, None)
    # "mixed": valid words glued into one line with garbage between them
    text = rng.choice(["next,next", "next\x00select", "back back", "hold;", "selectback"])
    reply = b"ERR control-char" if "\x00" in text else b"ERR unknown"
    return Line(text.encode() + end, kind, reply)


def reply_matches(expected: bytes | str | re.Pattern, got: bytes) -> bool:
    if expected is STATE:
        try:
            json.loads(got)
        except ValueError:
            return False
        return True
    if isinstance(expected, re.Pattern):
        return bool(expected.match(got))
    return got == expected


class PadEnd:
    """The master end of a pty (the microcontroller), with a thread collecting the replies."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo, no line discipline, before the daemon opens it
        self.path = os.ttyname(self.slave)
        self.replies: list[bytes] = []
        self.written = 0
        self._partial = bytearray()
        self._changed = threading.Condition()
        self._stop = os.pipe()
        self.closed = False
        self._reader = threading.Thread(target=self._read, name="pad-replies", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            ready, _, _ = select.select([self.master, self._stop[0]], [], [])
            if self._stop[0] in ready:
                return
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            with self._changed:
                self._partial += data
                *lines, rest = self._partial.split(b"\n")
                self._partial = bytearray(rest)
                self.replies.extend(bytes(line) for line in lines)
                self._changed.notify_all()

    def write(self, data: bytes) -> None:
        self.written += len(data)
        view = memoryview(data)
        while view:
            written = os.write(self.master, view[:65536])
            view = view[written:]

    def wait_replies(self, count: int, timeout: float) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: len(self.replies) >= count, timeout)

    def close(self) -> None:
        """Pull the plug: both ends of the pseudo-terminal go away."""
        if self.closed:
            return
        self.closed = True
        os.write(self._stop[1], b"x")
        self._reader.join(5)
        for fd in (self.slave, self.master, *self._stop):
            os.close(fd)


class RecordingQueue(EventQueue):
    """The daemon's queue, remembering every input put into it, in order, and whether
    the application has finished with every event it took."""

    def __init__(self, *, put_timeout: float) -> None:
        super().__init__(put_timeout=put_timeout)
        self.put_log: list[Input] = []
        self.handed_out = 0
        self.handed_out_when_last_asked = 0

    def put(self, item: Input) -> None:
        self.put_log.append(Input(item))
        super().put(item)

    def get_event(self, timeout: float | None = None) -> InputEvent | None:
        # The application asks for the next event once it has handled the one before.
        self.handed_out_when_last_asked = self.handed_out
        event = super().get_event(timeout)
        if event is not None:
            self.handed_out += 1
        return event

    def handled_everything(self) -> bool:
        """Every put finished, every event taken (or dropped), and the application back
        asking for the next: what it was given has been handled. An event taken but not
        yet counted in `handed_out` leaves the count short of the puts."""
        return (
            not len(self)
            and self.enqueued <= len(self.put_log)
            and self.handed_out + self.dropped == self.enqueued
            and self.handed_out_when_last_asked == self.handed_out
        )


def _plug(link: Path, end: PadEnd) -> None:
    if link.is_symlink():
        link.unlink()
    link.symlink_to(end.path)


def _connected(end: PadEnd, opened: Callable[[], bool]) -> bool:
    """Once the daemon's pad has opened this end (``opened``), one PING gets one PONG.

    Nothing is written before: a port is flushed as it opens, so what was written
    earlier would be read or not as the threads' timing decides, and the pad's counters
    (lines, bytes, replies) with it."""
    if not wait_until(opened, WAIT):
        return False
    end.write(b"PING\n")
    end.wait_replies(1, WAIT)
    with end._changed:
        answered = end.replies == [b"PONG"]
        end.replies.clear()
    return answered


MAX_RSS_GROWTH_KIB = 32 * 1024
"""The bound on memory growth over a run. The full run (100,000 lines, 59 MB sent) grows
by about 8 MB (the harness's own lists of inputs, the games played); a pad that kept
the floods it was sent, or any line longer than its 128-byte limit, would pass it."""


def whole_lines(batch: list[Line], size: int) -> list[Line]:
    """The lines of `batch` that lie whole in its first `size` bytes."""
    ends = itertools.accumulate(len(line.data) for line in batch)
    return [line for line, end in zip(batch, ends, strict=True) if end <= size]


def run(
    lines: int = 100_000,
    seed: int = 1,
    *,
    unplugs: int = 8,
    command: str = "",
    max_rss_growth_kib: int = MAX_RSS_GROWTH_KIB,
) -> Report:
    report = Report("serial garbage: random lines over a real pty into serve()", command)
    started = time.monotonic()
    rng = random.Random(seed)
    pads: list[SerialPad] = []

    class Pad(SerialPad):  # the daemon's own class, only remembered so its counters can be read
        def __init__(self, *args, **kwargs) -> None:
            kwargs.setdefault("reconnect_interval", 0.05)
            # This end reads every reply as it comes: a reply that takes long to write
            # is this machine's load, not a pad that stopped reading, and must not be
            # dropped as one (tests/inputs/test_serial_pad.py drops replies to a pad that
            # stopped reading). pyserial also counts as a timeout a reply it wrote whole
            # when its thread ran late.
            kwargs.setdefault("write_timeout", WAIT)
            super().__init__(*args, **kwargs)
            pads.append(self)

    failure: list[BaseException] = []
    pad: SerialPad | None = None
    pad_alive = app_alive = False
    rss_before = rss_after = None
    segments = max(1, -(-lines // SEGMENT))
    unplug_at = (
        set(rng.sample(range(1, segments), min(unplugs, segments - 1))) if segments > 1 else set()
    )
    counts: dict[str, int] = {}
    replies_expected = replies_ok = replies_wrong = replies_missing = 0
    lost_in_unplug = inputs_in_cut_segments = processed_after_cut = 0
    bytes_sent = 0
    order_errors = 0
    wrong_examples: list[str] = []
    valid_sent: list[Input] = []
    segment_inputs: list[tuple[int, list[Input], bool]] = []  # (log start, inputs, cut)

    with tempfile.TemporaryDirectory(prefix="garbage-") as tmp, LogCounter() as logs:
        tmp_path = Path(tmp)
        link = tmp_path / "ttyPAD"
        end = PadEnd()
        ends = [end]
        _plug(link, end)
        profile = dataclasses.replace(
            load_profile("serial-pad"), serial_pad=SerialPadConfig(str(link))
        )
        app = Companion(tmp_path / "state", seeds=lambda: seed)
        # The same for the queue: an application late under load must not lose inputs.
        queue = RecordingQueue(put_timeout=WAIT)
        display = open_oled(profile.display, bus=NullBus())

        def daemon() -> None:
            try:
                service.serve(app, display, queue, Notifier.from_environment({}), profile)
            except BaseException as error:
                failure.append(error)

        def unread() -> int:
            """Bytes written to the pad that its daemon side has not read yet."""
            return sum(each.written for each in ends) - pads[-1].stats().bytes_received

        def opened() -> bool:
            """The daemon's pad has opened the latest end (after one reconnect per replug)."""
            return (
                bool(pads) and pads[-1].stats().reconnects == len(ends) - 1 and pads[-1].connected
            )

        # serve opens a pad of the class its module names: it gets this one.
        service.SerialPad = Pad
        thread = threading.Thread(target=daemon, name="daemon", daemon=True)
        thread.start()
        try:
            if not _connected(end, opened):
                raise RuntimeError("the daemon's serial pad never answered")
            rss_before = rss_kib()
            sent = 0
            for segment in range(segments):
                batch = [make_line(rng) for _ in range(min(SEGMENT, lines - sent))]
                sent += len(batch)
                for line in batch:
                    counts[line.kind] = counts.get(line.kind, 0) + 1
                data = b"".join(line.data for line in batch)
                expected = [line.reply for line in batch if line.reply is not None]
                inputs = [line.input for line in batch if line.input is not None]
                log_start = len(queue.put_log)
                replies_expected += len(expected)
                cut = segment in unplug_at
                if cut:
                    # Unplugged in the middle of the burst, with half a line on the wire.
                    # Where comes from the seed, and the plug is pulled once the daemon
                    # has answered and queued every whole line before it (never at a
                    # moment the threads' timing picks), so two runs of a seed agree.
                    cut_at = rng.randrange(len(data) // 4, len(data))
                    whole = whole_lines(batch, cut_at)
                    end.write(data[:cut_at] + b"nex")
                    end.wait_replies(sum(line.reply is not None for line in whole), WAIT)
                    taken = log_start + sum(line.input is not None for line in whole)
                    wait_until(lambda taken=taken: len(queue.put_log) >= taken, WAIT)
                    bytes_sent += cut_at + 3
                    wait_until(lambda: unread() <= 0, WAIT)
                    failed_opens = pads[-1].stats().open_failures
                    end.close()
                    link.unlink()
                    # The daemon retries every 0.05 s: once it found nothing to open, replug.
                    wait_until(
                        lambda failed=failed_opens: pads[-1].stats().open_failures > failed, WAIT
                    )
                    got = end.replies[: len(expected)]
                    end = PadEnd()
                    ends.append(end)
                    _plug(link, end)
                    if not _connected(end, opened):
                        raise RuntimeError("the pad did not come back after a replug")
                    end.write(b"t\n")  # the rest of the half line: must be "unknown"
                    end.wait_replies(1, WAIT)
                    tail = end.replies[:1]
                    with end._changed:
                        end.replies.clear()
                    if tail != [b"ERR unknown"]:
                        replies_wrong += 1
                        wrong_examples.append(f"after replug: {tail!r}")
                    lost_in_unplug += len(expected) - len(got)
                else:
                    bytes_sent += len(data)
                    end.write(data)
                    end.wait_replies(len(expected), WAIT)
                    with end._changed:
                        got = end.replies[: len(expected)]
                        del end.replies[: len(expected)]
                    replies_missing += len(expected) - len(got)
                for want, reply in zip(expected, got, strict=False):
                    if reply_matches(want, reply):
                        replies_ok += 1
                    else:
                        replies_wrong += 1
                        if len(wrong_examples) < 5:
                            wrong_examples.append(f"expected {want!r}, got {reply!r}")
                reached = queue.put_log[log_start:]
                if cut:
                    inputs_in_cut_segments += len(inputs)
                    processed_after_cut += len(reached)
                    if reached != inputs[: len(reached)]:
                        order_errors += 1
                    valid_sent += reached  # what the daemon took before the plug was pulled
                else:
                    if reached != inputs:
                        order_errors += 1
                    valid_sent += inputs
                segment_inputs.append((log_start, inputs, cut))
            # Everything sent has been answered: let the application catch up.
            wait_until(queue.handled_everything, WAIT)
            pad = pads[-1] if pads else None
            pad_alive = bool(pad and pad.running)
            app_alive = thread.is_alive()
            rss_after = rss_kib()
            view_bytes = render(app.view()).tobytes()
        finally:
            queue.close()
            thread.join(WAIT)
            service.SerialPad = SerialPad
            end.close()
            display.cleanup()
        stats = pad.stats() if pad else None

        # The reference: a Companion fed only the valid inputs that reached the daemon.
        reference = Companion(tmp_path / "reference", seeds=lambda: seed)
        for item in valid_sent:
            reference.handle(item)
        same_view = render(reference.view()).tobytes() == view_bytes
        warnings = logs.count(30)
        errors = logs.count(40) + logs.count(50)

    elapsed = time.monotonic() - started
    changes = order_errors + (0 if queue.put_log == valid_sent else 1) + (0 if same_view else 1)
    report.figure("lines sent", f"{lines} in {segments} segments of {SEGMENT}")
    report.figure("line kinds", dict(sorted(counts.items())))
    report.figure("bytes sent", f"{bytes_sent:,}")
    report.figure("unplug/replug cycles", len(unplug_at))
    report.figure("pad reconnects (daemon's count)", stats.reconnects if stats else None)
    report.figure(
        "crashes (pad thread / app thread)",
        (f"{0 if pad_alive else 1} / {0 if app_alive and not failure else 1}"),
    )
    report.figure("inputs sent in whole segments + taken in cut ones", len(valid_sent))
    report.figure("inputs that reached the queue", len(queue.put_log))
    report.figure(
        "inputs in cut segments (sent / taken before the cut)",
        (f"{inputs_in_cut_segments} / {processed_after_cut}"),
    )
    report.figure("queue: dropped / puts that waited", f"{queue.dropped} / {queue.waited}")
    report.figure("state changes caused by invalid input", changes)
    report.figure("final view equals the valid-inputs-only reference", same_view)
    report.figure("replies expected", replies_expected)
    report.figure("replies right", replies_ok)
    report.figure("replies wrong", replies_wrong)
    report.figure("replies missing (whole segments)", replies_missing)
    report.figure("replies lost in unplugs", lost_in_unplug)
    report.figure("pad counters", dataclasses.asdict(stats) if stats else None)
    report.figure("log records: warnings / errors", f"{warnings} / {errors}")
    growth = None if rss_before is None or rss_after is None else rss_after - rss_before
    report.figure("RSS before / after / growth", f"{rss_before} / {rss_after} / {growth} KiB")
    report.figure("time", f"{elapsed:.2f} s ({lines / elapsed:,.0f} lines/s)")
    report.check(
        "0 crashes", pad_alive and app_alive and not failure, repr(failure[0]) if failure else ""
    )
    report.check("0 state changes caused by invalid input", changes == 0)
    report.check(
        "one right reply per line (except lines lost in unplugs)",
        replies_wrong == 0 and replies_missing == 0,
        "; ".join(wrong_examples),
    )
    report.check("no input dropped by the queue", queue.dropped == 0)
    report.check("no error logged", errors == 0, f"{errors} error record(s)")
    report.check(
        f"memory bounded: RSS growth at most {max_rss_growth_kib:,} KiB",
        growth is not None and growth <= max_rss_growth_kib,
        f"grew by {growth} KiB",
    )
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--unplugs", type=int, default=8, help="unplug/replug cycles")
    parser.add_argument("--time-limit", type=float, default=900.0)
    parser.add_argument(
        "--max-rss-growth", type=int, default=MAX_RSS_GROWTH_KIB, help="KiB (default 32 MiB)"
    )
    parser.add_argument("--json", help="also write the report as JSON to this file")
    args = parser.parse_args(argv)
    watchdog(args.time_limit, "serial_garbage")
    report = run(
        args.lines,
        args.seed,
        unplugs=args.unplugs,
        command=command_line("serial_garbage.py", argv),
        max_rss_growth_kib=args.max_rss_growth,
    )
    return finish(report, args.json)


if __name__ == "__main__":
    raise SystemExit(main())
