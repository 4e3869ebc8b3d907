"""Input storm: thousands of encoder detents and key presses as fast as the mock pins allow.

The real gpiozero devices of the sh1106-encoder profile (``open_gpio_inputs``
with the profile's inputs: RotaryEncoder on 17/27, its push switch on 22,
keys on 5 and 6) sit on a gpiozero ``MockFactory``; one thread drives their
pins as fast as it can (4 Gray-code edges per detent, low/high per press)
while the application thread runs the real ``DisplayLoop`` + ``Companion``
with the real luma sh1106 driver on a bus that forgets its writes. Before and
after the storm a few inputs are sent one at a time to measure the
input-to-frame latency when nothing else is going on.

Figures: events sent and received by the application (lost, doubled, order),
events dropped by the queue, puts that had to wait for room (backpressure),
the queue's longest length, storm rate, latency before/after, RSS, time.
Targets: nothing lost, doubled or dropped; the queue never longer than its
bound; the median latency after the storm back within 2x (+2 ms) of before;
the application thread alive.

Run::

    .venv/bin/python stress/input_storm.py [--events 10000] [--seed 1]
        [--put-timeout S] [--time-limit 600] [--json FILE]

``--put-timeout 0`` gives the queue's old policy (drop the oldest at once
when full) for comparison. Nothing outside a temporary directory is touched.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gpiozero.pins.mock import MockFactory, MockPin

from companion.app.companion import Companion
from companion.display.oled import open_oled
from companion.hardware.profile import load_profile
from companion.inputs.events import DEFAULT_PUT_TIMEOUT, EventQueue, Input, InputEvent
from companion.inputs.gpio import open_gpio_inputs
from companion.runtime.loop import DisplayLoop
from stress.common import (
    NullBus,
    Report,
    command_line,
    finish,
    median,
    ms,
    rss_kib,
    wait_until,
    watchdog,
)

PROFILE = "sh1106-encoder"
PACED = 20
"""Inputs sent one at a time before and after the storm, for the latency figures."""
WAIT = 30.0
"""The longest any single wait for the application may take before the run gives up."""


class ObservedQueue(EventQueue):
    """An EventQueue that remembers what the application took, in order, and its longest length."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.taken: list[Input] = []
        self.max_seen = 0

    def put(self, item: Input) -> None:
        super().put(item)
        self.max_seen = max(self.max_seen, len(self._events))

    def get_event(self, timeout: float | None = None) -> InputEvent | None:
        event = super().get_event(timeout)
        if event is not None:
            self.taken.append(event.input)
        return event


class Pins:
    """The profile's pins on the mock factory, driven as a hand would."""

    def __init__(self, factory: MockFactory, profile) -> None:
        encoder = profile.inputs.encoder
        self.a, self.b = factory.pin(encoder.a), factory.pin(encoder.b)
        self.keys = {Input.SELECT: factory.pin(encoder.switch)}
        for button in profile.inputs.buttons:
            self.keys.setdefault(button.input, factory.pin(button.pin))
        self.edges = 0

    def perform(self, item: Input) -> None:
        if item is Input.NEXT:  # clockwise: A low, B low, A high, B high
            steps = ((self.a, False), (self.b, False), (self.a, True), (self.b, True))
        elif item is Input.PREVIOUS:
            steps = ((self.b, False), (self.a, False), (self.b, True), (self.a, True))
        else:
            key = self.keys[item]
            steps = ((key, False), (key, True))
        for pin, high in steps:
            pin.drive_high() if high else pin.drive_low()
            self.edges += 1

    def forget_history(self) -> None:
        # MockPin keeps every change; a long storm must not grow without bound.
        for pin in (self.a, self.b, *self.keys.values()):
            pin.clear_states()


def storm_inputs(rng: random.Random, count: int, keys: list[Input]) -> list[Input]:
    """Detents (60 %) and short presses (40 %) of the profile's switch and keys."""
    return [
        rng.choice((Input.NEXT, Input.PREVIOUS)) if rng.random() < 0.6 else rng.choice(keys)
        for _ in range(count)
    ]


def _wait(predicate, timeout: float = WAIT) -> bool:
    return wait_until(predicate, timeout, poll=0.0005)


def run(
    events: int = 10_000,
    seed: int = 1,
    *,
    put_timeout: float = DEFAULT_PUT_TIMEOUT,
    command: str = "",
) -> Report:
    report = Report(
        "input storm: gpiozero devices on mock pins -> EventQueue -> DisplayLoop", command
    )
    started = time.monotonic()
    rng = random.Random(seed)
    profile = load_profile(PROFILE)
    factory = MockFactory(pin_class=MockPin)
    queue = ObservedQueue(put_timeout=put_timeout)
    failure: list[BaseException] = []
    with tempfile.TemporaryDirectory(prefix="storm-") as state:
        app = Companion(Path(state), seeds=lambda: seed)
        display = open_oled(profile.display, bus=NullBus())
        loop = DisplayLoop(app, display)

        def application() -> None:
            try:
                loop.run(queue)
            except BaseException as error:  # reported as a crash below
                failure.append(error)

        inputs = open_gpio_inputs(profile.inputs, queue, pin_factory=factory)
        thread = threading.Thread(target=application, name="application", daemon=True)
        try:
            pins = Pins(factory, profile)
            thread.start()
            sent: list[Input] = []

            def paced(count: int) -> list[float]:
                first = len(loop.figures.latencies)
                for index in range(count):
                    item = Input.NEXT if index % 2 == 0 else Input.PREVIOUS
                    target = len(queue.taken) + 1
                    pins.perform(item)
                    sent.append(item)
                    _wait(lambda target=target: len(queue.taken) >= target and not len(queue))
                    _wait(lambda target=target: loop.figures.inputs + loop.figures.wakes >= target)
                    time.sleep(0.01)
                return loop.figures.latencies[first:]

            rss_before = rss_kib()
            before = paced(PACED)
            keys = sorted(pins.keys, key=list(Input).index)
            storm = storm_inputs(rng, events, keys)
            storm_started = time.monotonic()
            for index, item in enumerate(storm):
                pins.perform(item)
                sent.append(item)
                if index % 64 == 63:
                    pins.forget_history()
            storm_put = time.monotonic() - storm_started
            # Every event taken by the app or dropped by the queue: a lossy queue (the
            # old policy) ends the wait as soon as a lossless one.
            drained = _wait(
                lambda: len(queue.taken) + queue.dropped >= len(sent) or not thread.is_alive(), 120
            )
            storm_done = time.monotonic() - storm_started
            after = paced(PACED)
            rss_after = rss_kib()
            # Every paced input was taken already; what a lossy queue dropped never will be.
            _wait(lambda: len(queue.taken) + queue.dropped >= len(sent) or not thread.is_alive(), 5)
        finally:
            queue.close()
            thread.join(WAIT)
            inputs.close()
            display.cleanup()
        alive = not failure and not thread.is_alive()

    taken = queue.taken
    lost = max(0, len(sent) - len(taken))
    doubled = max(0, len(taken) - len(sent))
    in_order = taken == sent
    first_difference = next(
        (i for i, (a, b) in enumerate(zip(sent, taken, strict=False)) if a != b), None
    )
    mixture = {item.value: storm.count(item) for item in Input if storm.count(item)}
    report.figure("events in the storm", f"{events} ({mixture})")
    report.figure("pin edges driven", pins.edges)
    report.figure("paced inputs before / after", f"{PACED} / {PACED}")
    report.figure("events sent (total)", len(sent))
    report.figure("events received by the app", len(taken))
    report.figure("lost", lost)
    report.figure("doubled", doubled)
    report.figure("same order", in_order)
    report.figure("dropped by the queue", queue.dropped)
    report.figure("puts that waited for room", queue.waited)
    report.figure("queue bound", queue._events.maxlen)
    report.figure("queue longest (observed)", max(queue.max_seen, queue.high_water))
    report.figure("storm: time to put / to drain", f"{storm_put:.2f} s / {storm_done:.2f} s")
    report.figure("storm rate (events/s put)", f"{events / storm_put:,.0f}" if storm_put else "n/a")
    report.figure(
        "app: inputs handled / wakes / frames",
        (f"{loop.figures.inputs} / {loop.figures.wakes} / {loop.figures.frames}"),
    )
    report.figure("median latency before", ms(median(before)))
    report.figure("median latency after", ms(median(after)))
    report.figure("RSS before / after", f"{rss_before} KiB / {rss_after} KiB")
    report.figure("time", f"{time.monotonic() - started:.2f} s")
    report.figure("put_timeout", f"{put_timeout:g} s")
    report.check("application thread alive to the end", alive, repr(failure[0]) if failure else "")
    report.check("storm drained", drained)
    report.check(
        "no event lost or doubled, same order",
        lost == 0 and doubled == 0 and in_order,
        "" if in_order else f"first difference at event {first_difference}",
    )
    report.check("no event dropped by the queue", queue.dropped == 0, f"{queue.dropped} dropped")
    report.check("queue bounded", max(queue.max_seen, queue.high_water) <= queue._events.maxlen)
    b, a = median(before), median(after)
    report.check(
        "latency back to normal after the storm (median <= 2x before + 2 ms)",
        b is not None and a is not None and a <= 2 * b + 0.002,
        f"{ms(b)} -> {ms(a)}",
    )
    report.notes.append(
        "MockPin ignores bounce_time and calls the callbacks in the driving thread, so the "
        "storm is as fast as gpiozero's own decoding; a full queue makes that thread wait."
    )
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--put-timeout",
        type=float,
        default=DEFAULT_PUT_TIMEOUT,
        help="EventQueue put_timeout (0: the old drop-at-once policy)",
    )
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--json", help="also write the report as JSON to this file")
    args = parser.parse_args(argv)
    watchdog(args.time_limit, "input_storm")
    report = run(
        args.events,
        args.seed,
        put_timeout=args.put_timeout,
        command=command_line("input_storm.py", argv),
    )
    return finish(report, args.json)


if __name__ == "__main__":
    raise SystemExit(main())
