"""Figures for the companion on its hardware, measured without the hardware.

    .venv/bin/python bench/device.py [--games N] [--idle-seconds S] [--startup-runs N]
                                     [--language CODE ...]

The daemon's own code runs with the real luma.oled driver writing to a
recording I2C bus (`companion.testing.recording.RecordingBus`) and gpiozero's
real devices on MockFactory pins. Printed, each against its reference:

1. bytes on the bus per input over scripted full games, against luma's whole
   frame (1024 data bytes and its commands), for SSD1306 and SH1106, each share
   to one decimal and judged against its target unrounded;
2. input-to-bytes latency (an input entering the queue to its frame's bytes
   having been written), median and p99;
3. idle: CPU time and wake-ups (context switches) of the idle daemon over S
   seconds, against a plain loop redrawing every 100 ms;
4. start-up to the first frame, fresh and with a game in progress to resume,
   against a bare `import PIL, luma.oled, gpiozero` (`print_start_up`): each
   program timed from its start to READY=1 on a real notify socket, which the
   bare imports send right after them, CPU read at that moment; the median of
   `--startup-runs` starts of each, taken in turn, with the companion's
   bytecode compiled first;
5. resident memory of the running daemon.

Figures 1 and 2 are measured in each `--language` (default English): Korean
draws taller lines, and the board must keep its pixels in every language.

Not a test: it prints figures and never fails.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from gpiozero.pins.mock import MockFactory

from companion.app.companion import Companion
from companion.display.oled import open_oled
from companion.hardware.config import DisplayConfig
from companion.hardware.profile import load_profile
from companion.inputs.events import EventQueue, Input
from companion.inputs.gpio import open_gpio_inputs
from companion.render.screens import render
from companion.runtime.loop import DisplayLoop
from companion.storage.settings import SETTINGS_NAME
from companion.testing.autoplay import inputs_for, random_choice, start_game
from companion.testing.recording import RecordingBus
from companion.text.language import LANGUAGE_NAMES, words_for
from companion.views import AutomaView, MenuView, QuestionView, StepView, TurnView

PROFILE = "sh1106-encoder"


def companion_in(state_dir: Path, language: str, seed: int = 0) -> Companion:
    """The app as it starts with `language` chosen in its settings."""
    state_dir.mkdir(parents=True, exist_ok=True)
    (state_dir / SETTINGS_NAME).write_text(json.dumps({"language": language}))
    return Companion(state_dir, itertools.count(seed).__next__)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def kind_of(view: object, item: object) -> str:
    """Which typical interaction an input is, by the screen it was pressed on."""
    if isinstance(view, AutomaView):
        return "Automa turn confirmed"
    if isinstance(view, TurnView | MenuView | QuestionView) and item.value in ("next", "previous"):
        return "turn of the knob in a menu or turn"
    if isinstance(view, TurnView | StepView):
        return "player's action or step"
    return "set-up and other screens"


def full_frame_bytes(driver: str) -> int:
    bus = RecordingBus()
    display = open_oled(DisplayConfig(driver), bus=bus, partial=False)
    bus.take()
    display.display(render(MenuView("x", (), 0)))
    return bus.payload_bytes


def bytes_per_input(driver: str, games: int, language: str) -> dict[str, list[float]]:
    """Fraction of a full frame sent for each input of `games` scripted games."""
    full = full_frame_bytes(driver)
    ratios: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for number in range(games):
            rng = random.Random(number)
            app = companion_in(Path(scratch, str(number)), language, number)
            bus = RecordingBus()
            loop = DisplayLoop(app, open_oled(DisplayConfig(driver), bus=bus))
            loop.refresh()
            start_game(app, number % 2 == 0, False, rng)
            loop.refresh()
            choose = random_choice(rng)
            while app.game is not None:
                view = app.view()
                for item in inputs_for(view, choose, rng):
                    bus.take()
                    app.handle(item)
                    loop.refresh()
                    ratios.setdefault(kind_of(view, item), []).append(bus.payload_bytes / full)
    return ratios


def undo_bytes(driver: str, games: int, language: str) -> dict[str, list[float]]:
    """Fraction of a full frame sent for each input of an undo, now and then in `games`
    scripted games: the question, the first reverse card, the next ones, the turn after."""
    full = full_frame_bytes(driver)
    ratios: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for number in range(games):
            play_with_undos(Path(scratch, str(number)), number, driver, full, ratios, language)
    return ratios


def play_with_undos(
    state_dir: Path,
    number: int,
    driver: str,
    full: int,
    ratios: dict[str, list[float]],
    language: str,
) -> None:
    """One scripted game that undoes on about one turn in five (`undo_bytes`)."""
    rng = random.Random(number)
    app = companion_in(state_dir, language, number)
    undo = words_for(language)("Undo last action")
    bus = RecordingBus()
    loop = DisplayLoop(app, open_oled(DisplayConfig(driver), bus=bus))
    start_game(app, number % 2 == 0, False, rng)
    loop.refresh()
    choose = random_choice(rng)

    def press(item: Input, kind: str | None = None) -> None:
        bus.take()
        app.handle(item)
        loop.refresh()
        if kind:
            ratios.setdefault(kind, []).append(bus.payload_bytes / full)

    while app.game is not None:
        view = app.view()
        if isinstance(view, TurnView) and app.session.can_undo() and rng.random() < 0.2:
            press(Input.HOLD)
            menu = app.view()
            assert isinstance(menu, MenuView)
            for _ in range([item.label for item in menu.items].index(undo)):
                press(Input.NEXT)
            press(Input.SELECT, "undo: the question")
            press(Input.NEXT)  # "Yes, undo"
            press(Input.SELECT, "undo: yes, the first reverse card")
            while isinstance(card := app.view(), StepView):
                last = card.number == card.total
                press(
                    Input.SELECT,
                    f"undo: {'the last card to the turn' if last else 'the next card'}",
                )
            continue
        for item in inputs_for(view, choose, rng):
            press(item)


def latencies(games: int, language: str) -> list[float]:
    """Seconds from a knob detent on mock pins to its frame's last byte on the bus."""
    profile = load_profile(PROFILE)
    factory = MockFactory()
    measured: list[float] = []
    with tempfile.TemporaryDirectory() as scratch:
        app = companion_in(Path(scratch), language)
        bus = RecordingBus()
        display = open_oled(profile.display, bus=bus)
        queue = EventQueue()
        loop = DisplayLoop(app, display)
        a, b = factory.pin(profile.inputs.encoder.a), factory.pin(profile.inputs.encoder.b)
        with open_gpio_inputs(profile.inputs, queue, pin_factory=factory):
            runner = threading.Thread(target=loop.run, args=(queue,))
            runner.start()
            for _ in range(games * 100):
                handled = loop.figures.inputs
                for pin, high in ((a, False), (b, False), (a, True), (b, True)):
                    pin.drive_high() if high else pin.drive_low()
                while loop.figures.inputs == handled:
                    time.sleep(0.0002)
            queue.close()
            runner.join()
        measured = loop.figures.latencies
    return measured


DAEMON = """
import sys, threading
import companion.cli  # what `patchwork-companion run` imports before the daemon's own
from pathlib import Path
from gpiozero.pins.mock import MockFactory
from companion.app.companion import Companion
from companion.daemon.notify import Notifier
from companion.daemon.service import serve
from companion.display.oled import open_oled
from companion.testing.recording import RecordingBus
from companion.hardware.profile import load_profile
from companion.inputs.events import EventQueue
from companion.inputs.gpio import open_gpio_inputs
profile = load_profile(sys.argv[1])
app = Companion(Path(sys.argv[3]))
queue = EventQueue()
notifier = Notifier.from_environment({"NOTIFY_SOCKET": sys.argv[2]})
display = open_oled(profile.display, bus=RecordingBus())
with open_gpio_inputs(profile.inputs, queue, pin_factory=MockFactory()):
    threading.Thread(target=lambda: (sys.stdin.read(), queue.close()), daemon=True).start()
    try:
        serve(app, display, queue, notifier, profile)
    finally:
        display.cleanup()  # as `run`'s panel_for does: the "saved" screen stays up
"""
"""The daemon as `run` starts it, importing what `run` imports, on a recording bus and
mock pins instead of /dev/i2c-1 and GPIO (figures 3, 4 and 5)."""


def cpu_seconds(pid: int) -> float:
    """CPU seconds `pid`'s live threads have run, to the nanosecond: the first field of each
    thread's schedstat. (/proc/<pid>/stat counts in clock ticks, 10 ms, a tenth of a start.)"""
    tasks = Path(f"/proc/{pid}/task").iterdir()
    return sum(int((task / "schedstat").read_text().split()[0]) for task in tasks) / 1e9


def context_switches(pid: int) -> int:
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for line in (task / "status").read_text().splitlines():
            if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                total += int(line.split()[1])
    return total


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1])
    return 0


def game_in_progress(state_dir: Path, actions: int = 12) -> None:
    """Leave in `state_dir` a solo game `actions` actions in, stopped on its turn screen,
    as a device switched off mid-game has it: the daemon then resumes it at start."""
    rng = random.Random(0)
    app = Companion(state_dir, itertools.count(0).__next__)
    start_game(app, True, False, rng)
    choose = random_choice(rng)
    assert app.game is not None
    while len(app.game.move_stack) < actions or not isinstance(app.view(), TurnView):
        for item in inputs_for(app.view(), choose, rng):
            app.handle(item)
    app.store.close()  # as the device stops: the database is free for the next start


MEASURED_PYTHON = (sys.executable, "-P")
"""How a measured program is started: `-P` keeps the current directory off its path, which
`python -c` would otherwise search first for every import, so that a busy current
directory would move the counts from run to run."""

BARE_IMPORT = "import PIL.Image, luma.oled.device, gpiozero"
"""What any program that drives the panel with luma and reads gpiozero inputs imports."""

BARE_READY = f"""
{BARE_IMPORT}
import socket, sys
socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"READY=1", sys.argv[2])
sys.stdin.read()
"""
"""The bare imports timed as the daemon is: they say READY=1 on the notify socket (argument 2,
as the daemon's) right after them, then wait, so neither's interpreter exit is counted."""


def start_until_ready(
    program: str, scratch: str, listener: socket.socket, resumed: bool = False
) -> tuple[subprocess.Popen, float]:
    """`program` (`DAEMON` or `BARE_READY`) in a child process, and the seconds until it said
    READY=1; `resumed`: with a game in progress to resume (the daemon's first frame is then
    the turn), else a fresh start. The child waits for its stdin to close."""
    notify_path = os.path.join(scratch, "notify")
    listener.bind(notify_path)
    state = os.path.join(scratch, "state")
    if resumed:
        game_in_progress(Path(state))
    started = time.perf_counter()
    process = subprocess.Popen(
        [*MEASURED_PYTHON, "-c", program, PROFILE, notify_path, state], stdin=subprocess.PIPE
    )
    while b"READY=1" not in listener.recv(256):
        pass
    return process, time.perf_counter() - started


class StartUp(NamedTuple):
    """Seconds from starting a program to its READY=1."""

    wall: float
    cpu: float
    """Its threads' CPU at READY=1 (`cpu_seconds`)."""


def start_up(program: str, resumed: bool = False) -> StartUp:
    """One start of `program` to its READY=1 (see `start_until_ready`)."""
    with (
        tempfile.TemporaryDirectory() as scratch,
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener,
    ):
        process, wall = start_until_ready(program, scratch, listener, resumed)
        cpu = cpu_seconds(process.pid)
        process.communicate(b"")
    return StartUp(wall, cpu)


SCENARIOS = {"fresh (the home menu)": False, "a game resumed (its turn)": True}
"""The two first frames a device shows: no game saved, or one in progress (`resumed`)."""


def compile_bytecode() -> str:
    """Compile the companion's modules as pip does when it installs them on the device, and
    say so. Where PYTHONDONTWRITEBYTECODE is set (our shells, perhaps CI), a module whose .pyc
    is missing or stale is compiled again at every start, which no device does."""
    import compileall

    import companion

    if compileall.compile_dir(Path(companion.__file__).parent, quiet=1):
        return "the companion's bytecode compiled first, as pip does on the device"
    return "the companion's bytecode could NOT all be compiled: those modules compile at each start"


def start_up_medians(runs: int) -> tuple[StartUp, dict[str, StartUp]]:
    """The median of `runs` starts of the bare imports and of the daemon in each scenario,
    taken in turn so that a change in the machine's load falls on all of them."""
    bare: list[StartUp] = []
    daemon: dict[str, list[StartUp]] = {scenario: [] for scenario in SCENARIOS}
    for _ in range(runs):
        bare.append(start_up(BARE_READY))
        for scenario, resumed in SCENARIOS.items():
            daemon[scenario].append(start_up(DAEMON, resumed))

    def median(starts: list[StartUp]) -> StartUp:
        return StartUp(*(statistics.median(values) for values in zip(*starts, strict=True)))

    return median(bare), {scenario: median(starts) for scenario, starts in daemon.items()}


def print_start_up(runs: int, indent: str = "") -> None:
    """Figure 4, as `bench/device.py` and `bench/startup.py` print it (`compile_bytecode`
    first)."""
    load = os.getloadavg()[0]
    bare, daemon = start_up_medians(runs)
    print(
        f"{indent}median of {runs} starts of each, in turn; load average {load:.1f} to "
        f"{os.getloadavg()[0]:.1f}"
    )
    print(
        f"{indent}bare import of PIL, luma.oled, gpiozero to READY=1: "
        f"{bare.wall * 1000:.1f} ms wall, {bare.cpu * 1000:.1f} ms CPU"
    )
    print(f"{indent}the daemon to its first frame (READY=1), ratio to the bare import:")
    for scenario, start in daemon.items():
        print(
            f"{indent}  {scenario}: {start.wall * 1000:.1f} ms wall ({start.wall / bare.wall:.2f}),"
            f" {start.cpu * 1000:.1f} ms CPU ({start.cpu / bare.cpu:.2f})"
        )


REDRAW_LOOP = """
import sys, time
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106
from companion.testing.recording import RecordingBus
from companion.render.screens import render
from companion.testing.screen_examples import EXAMPLES
device = sh1106(i2c(bus=RecordingBus()))
end = time.monotonic() + float(sys.argv[1])
while time.monotonic() < end:
    device.display(render(EXAMPLES["turn_solo"]))
    time.sleep(0.1)
"""


def idle_figures(seconds: float, process: subprocess.Popen) -> tuple[float, float, float, float]:
    """(daemon CPU s, daemon wake-ups, redraw loop CPU s, redraw loop wake-ups) over `seconds`."""
    cpu, switches = cpu_seconds(process.pid), context_switches(process.pid)
    time.sleep(seconds)
    daemon = cpu_seconds(process.pid) - cpu, context_switches(process.pid) - switches
    redraw = subprocess.Popen([sys.executable, "-c", REDRAW_LOOP, str(seconds)])
    time.sleep(1.0)  # measure after its imports, like the daemon
    cpu, switches = cpu_seconds(redraw.pid), context_switches(redraw.pid)
    time.sleep(seconds - 1.5)
    loop = cpu_seconds(redraw.pid) - cpu, context_switches(redraw.pid) - switches
    redraw.wait()
    return (
        daemon[0],
        daemon[1],
        loop[0] * seconds / (seconds - 1.5),
        loop[1] * seconds / (seconds - 1.5),
    )


def bare_luma_display_ms(repeats: int = 200) -> float:
    """Median ms to draw a turn screen and send it whole with luma's own display()."""
    from luma.core.interface.serial import i2c
    from luma.oled.device import sh1106

    from companion.testing.screen_examples import EXAMPLES

    device = sh1106(i2c(bus=RecordingBus()))
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        device.display(render(EXAMPLES["turn_solo"]))
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


IDLE_SECONDS = (1.5, 24 * 3600.0)
"""The idle period's bounds, both excluded: the redraw loop is measured from its first
second to half a second before its end; a day is more than anyone waits for a figure."""


def idle_seconds(text: str) -> float:
    """`--idle-seconds`, refused at once rather than after the figures before it: NaN,
    infinity or a year passed the check and stopped `time.sleep` with a traceback."""
    low, high = IDLE_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not low < seconds < high:  # False for NaN too
        raise argparse.ArgumentTypeError(
            f"{text} s: must be more than {low:g} (the redraw loop is measured from 1 s) "
            f"and less than {high:g} (a day)"
        )
    return seconds


def at_least_one(unit: str, needed_for: str) -> Callable[[str], int]:
    """An argument's type: a whole number of `unit`s, at least one (`needed_for` says why)."""

    def count(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of {unit}s") from None
        if number < 1:
            raise argparse.ArgumentTypeError(
                f"{number}: at least one {unit} is needed {needed_for}"
            )
        return number

    return count


game_count = at_least_one("game", "for figures")
"""`--games`: 0 games gave no inputs to take a median of, and a traceback."""

run_count = at_least_one("run", "for a median")
"""`--startup-runs` (`--runs` of bench/startup.py): no run gave no median to print."""


BYTES_TARGETS = {"ssd1306": (0.27, 0.37), "sh1106": (0.25, 0.35)}
"""Bytes per input as a share of a frame, median and mean: the SSD1306's are the
Automa's card's (docs/PERFORMANCE.md, "Bytes per input")."""


def against_target(share: float, target: float) -> str:
    """Whether `share` meets `target`, judged unrounded: a share printed as 25.0% beside a
    25% target is still said to miss it when it does."""
    return "within the target" if share <= target else "OVER THE TARGET"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=game_count, default=6)
    parser.add_argument("--idle-seconds", type=idle_seconds, default=60.0)
    parser.add_argument("--startup-runs", type=run_count, default=15, help="(default: 15)")
    parser.add_argument(
        "--language",
        nargs="+",
        action="extend",
        choices=list(LANGUAGE_NAMES),
        help="one or several, as the docs write it: --language en ru (default: en)",
    )
    args = parser.parse_args()
    languages = args.language or ["en"]
    cores = os.cpu_count()
    print(f"machine: {platform.machine()}, {cores} cores, Python {platform.python_version()}")
    print(compile_bytecode())
    for language, driver in itertools.product(languages, ("ssd1306", "sh1106")):
        ratios = bytes_per_input(driver, args.games, language)
        every = [r for values in ratios.values() for r in values]
        full = full_frame_bytes(driver)
        print(f"\n1. bytes on the bus per input, {driver}, share of luma's full frame ({full} B)")
        print(f"   in {language}: {len(every)} inputs of {args.games} scripted games")
        median_target, mean_target = BYTES_TARGETS[driver]
        print(f"   (target: median <= {median_target:.0%}, mean <= {mean_target:.0%}):")
        median, mean = statistics.median(every), statistics.mean(every)
        print(
            f"   all inputs: median {median:.1%}, {against_target(median, median_target)}; "
            f"mean {mean:.1%}, {against_target(mean, mean_target)}"
        )
        for kind, values in sorted(ratios.items()):
            print(f"   {kind}: median {statistics.median(values):.1%} over {len(values)}")
        print("   undo, now and then in the same games (not in the figures above):")
        for kind, values in sorted(undo_bytes(driver, args.games, language).items()):
            print(f"   {kind}: median {statistics.median(values):.1%} over {len(values)}")
    reference = bare_luma_display_ms()
    for language in languages:
        measured = [seconds * 1000 for seconds in latencies(args.games, language)]
        median = statistics.median(measured)
        print(
            f"\n2. input to bytes on the bus, in {language}, {len(measured)} detents on mock pins:"
        )
        print(f"   median {median:.2f} ms, p99 {percentile(measured, 0.99):.2f} ms")
        print(f"   one bare luma display() of a full frame plus drawing it: {reference:.2f} ms")
        print(f"   ratio of medians {median / reference:.2f}")
    with (
        tempfile.TemporaryDirectory() as scratch,
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener,
    ):
        process, _ = start_until_ready(DAEMON, scratch, listener)
        rss_start = rss_kib(process.pid)
        cpu, wakes, loop_cpu, loop_wakes = idle_figures(args.idle_seconds, process)
        rss_idle = rss_kib(process.pid)
        process.communicate(b"")
    seconds = args.idle_seconds
    print(f"\n3. idle over {seconds:.0f} s (target: daemon CPU <= 0.1%):")
    print(f"   daemon: CPU {cpu:.3f} s ({cpu / seconds:.3%}), {wakes / seconds:.2f} wake-ups/s")
    print(
        f"   a loop redrawing every 100 ms: CPU {loop_cpu:.2f} s ({loop_cpu / seconds:.1%}), "
        f"{loop_wakes / seconds:.1f} wake-ups/s"
    )
    print("\n4. start-up to the first frame:")
    print_start_up(args.startup_runs, indent="   ")
    print(f"\n5. resident memory of the daemon: {rss_start / 1024:.1f} MiB at start,")
    print(f"   {rss_idle / 1024:.1f} MiB after the idle period")


if __name__ == "__main__":
    main()
