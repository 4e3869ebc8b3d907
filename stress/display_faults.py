"""Display faults: games played through DisplayLoop while the I2C bus fails on a schedule.

For each driver (ssd1306, sh1106) the autoplay stand-in player plays solo
games through the real application thread (``DisplayLoop.run`` on an
``EventQueue``, a real ``Companion``) and the real luma driver opened by
``open_oled(config, bus=RecordingBus())``. Every input goes through the
queue and the player waits for it to be handled, reading the screen as a
person would. Between frames the bus is made to fail: outages (every write
fails for 1 to 40 frames) and glitches (the next 1 to 8 writes fail), with
EIO, EREMOTEIO or ENXIO. A simulated controller (``panel_for(driver)``)
decodes every write that got through, so what the panel shows is known at
every frame. The same games are then played again without faults.

Figures and targets:

- game state intact: the stored game and the history of the faulty run replay to
  the same states as the run without faults (target: identical);
- inputs accepted during faults: every input sent while the panel was lost
  was handled (target: all);
- panel correct: at every frame while the panel is healthy, the decoded
  GDDRAM equals the frame the loop rendered, and at the end equals
  ``render(app.view())`` (target: 0 mismatches);
- log records: warnings per outage (target: exactly one "lost the panel"
  warning and one "answers again" per outage, not one per frame);
- recovery: frames and seconds from the bus working again to the panel
  being healthy and correct (bounded by the retry interval, ``--retry``).

Run (about 1 minute with the defaults on a laptop)::

    .venv/bin/python stress/display_faults.py [--frames 2000] [--seed 1]
        [--retry 0.05] [--drivers ssd1306,sh1106] [--time-limit 900] [--json FILE]

The device retries every 5 s (``open_oled``'s default) and the loop offers
the frame again every 2 s when idle; ``--retry`` shortens the first so that
a run takes a minute, not an hour. Nothing outside a temporary directory is
touched.
"""

from __future__ import annotations

import argparse
import errno as errnos
import logging
import random
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.app.companion import Companion
from companion.display.oled import open_oled
from companion.engine.gamelog import read_log
from companion.engine.summary import state_dict
from companion.hardware.profile import load_profile
from companion.inputs.events import EventQueue, Input
from companion.render.screens import render
from companion.runtime.loop import DisplayLoop
from companion.storage.store import Store
from companion.testing.autoplay import inputs_for, move_to, random_choice
from companion.testing.recording import RecordingBus, panel_for
from companion.views import MenuView, QuestionView, ScreenKind
from stress.common import LogCounter, Report, command_line, finish, median, watchdog

PROFILES = {"ssd1306": "serial-pad", "sh1106": "sh1106-encoder"}
"""A shipped profile whose display uses each driver."""
ERRNOS = (errnos.EIO, errnos.EREMOTEIO, errnos.ENXIO)
WAIT = 30.0
FRAME_SECONDS = 0.005
"""How far the display's clock moves per frame drawn (see `FrameClock`)."""


@dataclass
class FrameClock:
    """The display's clock in this harness: it moves with the frames drawn, not with time.

    When a lost panel is tried again depends on this clock; on the real one it depended
    on how fast the machine drew, and so did when the next fault came (it is drawn from
    the frame the panel came back on): the count of faults differed run to run. With
    this clock the seed decides every fault. `extra` lets the run's end move it on,
    so that the last outage heals once no frame comes any more.
    """

    frames: int = 0
    extra: float = 0.0

    def __call__(self) -> float:
        return self.frames * FRAME_SECONDS + self.extra


@dataclass
class Faults:
    """The fault schedule, run from the loop's on_frame hook (the application thread)."""

    rng: random.Random
    bus: RecordingBus
    display: object
    enabled: bool
    next_start: int = 5
    active: str | None = None  # "outage", "glitch", or None
    end_frame: int = 0
    healed: int | None = None
    """The frame the bus healed on, until the panel answers again."""
    attempts_at_start: int = 0
    errno_name: str = ""
    episodes: dict[str, int] = field(default_factory=lambda: {"outage": 0, "glitch": 0})
    by_errno: dict[str, int] = field(default_factory=dict)
    recovery_frames: list[int] = field(default_factory=list)

    @property
    def faulty(self) -> bool:
        """True from the first injected failure until the panel is healthy again."""
        return self.active is not None or self.healed is not None

    def on_frame(self, frame: int) -> None:
        if not self.enabled:
            return
        if self.active == "outage" and frame >= self.end_frame:
            self.bus.heal()
            self.active, self.healed = None, frame
        elif self.active == "glitch" and self.bus._failures == 0:
            self.active, self.healed = None, frame
        if self.healed is not None and self.display.healthy:
            self.recovery_frames.append(frame - self.healed)
            self.healed = None
            self.next_start = frame + self.rng.randint(3, 30)
        if self.active is None and self.healed is None and frame >= self.next_start:
            code = self.rng.choice(ERRNOS)
            name = errnos.errorcode[code]
            self.by_errno[name] = self.by_errno.get(name, 0) + 1
            self.attempts_at_start, self.errno_name = self.bus.attempts, name
            if self.rng.random() < 0.6:
                self.active = "outage"
                self.end_frame = frame + self.rng.randint(1, 40)
                self.bus.fail(None, code)
            else:
                self.active = "glitch"
                self.bus.fail(self.rng.randint(1, 8), code)
            self.episodes[self.active] += 1

    def stop(self) -> None:
        if self.active is not None and self.bus.attempts == self.attempts_at_start:
            # The run ended before the panel was written to again: the fault never reached
            # the display, so it owes no warning; counting it would make the result depend
            # on which thread got there first.
            self.episodes[self.active] -= 1
            self.by_errno[self.errno_name] -= 1
            self.bus.heal()
            self.active = None
        elif self.active is not None:
            self.bus.heal()
            self.active, self.healed = None, -1


@dataclass
class Played:
    in_progress: dict | None
    history: list[dict]
    inputs: int
    inputs_during_faults: int
    frames: int
    games: int
    mismatches: int
    checked_frames: int
    final_ok: bool
    faults: Faults
    warnings: int
    recovered_logs: int
    debug_retries: int
    error_count: int
    crashed: str = ""
    seconds: float = 0.0


def _states(store: Store) -> tuple[dict | None, list[dict]]:
    """The stored game in progress and every game that ended, replayed, as state dicts."""
    current = store.current_log()
    in_progress = state_dict(read_log(current.splitlines())) if current else None
    ended = store.query("SELECT log FROM games ORDER BY id")
    return in_progress, [state_dict(read_log(log.splitlines())) for (log,) in ended]


def play(driver: str, frames: int, seed: int, retry: float, faulty: bool) -> Played:
    started = time.monotonic()
    config = load_profile(PROFILES[driver]).display
    bus = RecordingBus()
    clock = FrameClock()
    display = open_oled(config, bus=bus, retry_interval=retry, clock=clock)
    panel = panel_for(driver, config.width, config.height)
    panel.replay(bus.take())
    rng = random.Random(seed)
    choose = random_choice(rng)
    faults = Faults(random.Random(seed + 1), bus, display, faulty)
    queue = EventQueue()
    checked = [0, 0]  # frames checked, mismatches
    failure: list[BaseException] = []
    with (
        tempfile.TemporaryDirectory(prefix=f"faults-{driver}-") as tmp,
        LogCounter("companion.display.oled") as logs,
    ):
        state_dir = Path(tmp)
        app = Companion(state_dir, seeds=lambda: seed)
        loop: DisplayLoop

        def frame_sent() -> None:
            panel.replay(bus.take())
            if display.healthy:
                checked[0] += 1
                if panel.image().tobytes() != loop.image.tobytes():
                    checked[1] += 1
            clock.frames = loop.figures.frames
            faults.on_frame(loop.figures.frames)

        loop = DisplayLoop(app, display, on_frame=frame_sent)

        def panel_shows(image: Image.Image | None) -> bool:
            panel.replay(bus.take())
            return image is not None and panel.image().tobytes() == image.tobytes()

        def application() -> None:
            try:
                loop.run(queue)
            except BaseException as error:
                failure.append(error)

        thread = threading.Thread(target=application, name="application", daemon=True)
        thread.start()
        handled = [0, 0]  # inputs, inputs sent while faulty

        def press(*items: Input) -> None:
            for item in items:
                if faults.faulty or not display.healthy:
                    handled[1] += 1
                handled[0] += 1
                queue.put(item)
                deadline = time.monotonic() + WAIT
                while loop.figures.inputs + loop.figures.wakes < handled[0]:
                    if time.monotonic() > deadline or not thread.is_alive():
                        raise RuntimeError(f"input {handled[0]} ({item}) was not handled")
                    time.sleep(0.0002)

        def start_game() -> None:  # autoplay.start_game, through the queue
            view = app.view()
            target = [entry.label for entry in view.items].index("New solo game")
            press(*move_to(view.selected, target, len(view.items)), Input.SELECT)
            if isinstance(app.view(), QuestionView):
                press(Input.NEXT, Input.SELECT)
            press(*move_to(app.view().selected, rng.randrange(5), 5), Input.SELECT)
            press(*([Input.NEXT] * rng.randrange(2)), Input.SELECT)
            press(Input.SELECT)  # the companion deals the circle

        games = 0
        try:
            while loop.figures.frames < frames:
                view = app.view()
                if isinstance(view, MenuView) and view.kind is ScreenKind.HOME:
                    start_game()
                    games += 1
                    continue
                press(*inputs_for(view, choose, rng))
        except Exception as error:  # a lost input: reported, not raised
            failure.append(error)
        faults.stop()
        clock.extra += retry  # no frame comes any more: the next retry is due
        lost_at_the_end = not display.healthy
        deadline = time.monotonic() + WAIT
        # The loop offers the frame again every 2 s while idle. The clock stands still
        # now, so once a retry has failed no other comes: the panel stays lost.
        while not display.healthy and clock() >= display._next_retry:
            if time.monotonic() > deadline:
                break
            time.sleep(0.01)
        if lost_at_the_end:
            # The panel answered: wait until the loop's redraw of the frame has reached it.
            while display.healthy and not panel_shows(loop.image):
                if time.monotonic() > deadline:
                    break
                time.sleep(0.01)
        panel.replay(bus.take())
        final_ok = display.healthy and (
            panel.image().tobytes() == render(app.view()).tobytes() == loop.image.tobytes()
        )
        queue.close()
        thread.join(WAIT)
        in_progress, history = _states(app.store)
        played = Played(
            in_progress=in_progress,
            history=history,
            inputs=handled[0],
            inputs_during_faults=handled[1],
            frames=loop.figures.frames,
            games=games,
            mismatches=checked[1],
            checked_frames=checked[0],
            final_ok=final_ok,
            faults=faults,
            warnings=logs.count(logging.WARNING, text="lost the panel"),
            recovered_logs=logs.count(logging.INFO, text="answers again"),
            debug_retries=logs.count(logging.DEBUG, text="still lost"),
            error_count=display.error_count,
            crashed=repr(failure[0]) if failure else "",
        )
        display.cleanup()
    played.seconds = time.monotonic() - started
    return played


def run(
    frames: int = 2000,
    seed: int = 1,
    *,
    retry: float = 0.05,
    drivers: tuple[str, ...] = ("ssd1306", "sh1106"),
    command: str = "",
) -> Report:
    report = Report(
        "display faults: autoplay through DisplayLoop + open_oled(RecordingBus)", command
    )
    started = time.monotonic()
    for driver in drivers:
        faulty = play(driver, frames, seed, retry, faulty=True)
        clean = play(driver, frames, seed, retry, faulty=False)
        f = faulty.faults
        outages = f.episodes["outage"] + f.episodes["glitch"]
        same = faulty.in_progress == clean.in_progress and faulty.history == clean.history
        rec_frames = f.recovery_frames
        report.figure(
            f"{driver}: games / inputs / frames",
            (
                f"{faulty.games} / {faulty.inputs} / {faulty.frames} "
                f"(without faults: {clean.games} / {clean.inputs} / {clean.frames})"
            ),
        )
        report.figure(
            f"{driver}: outages / glitches (by errno)",
            (
                f"{f.episodes['outage']} / {f.episodes['glitch']} "
                f"{ {name: count for name, count in sorted(f.by_errno.items()) if count} }"
            ),
        )
        report.figure(f"{driver}: bus errors caught (incl. failed retries)", faulty.error_count)
        report.figure(
            f"{driver}: inputs handled during faults",
            (f"{faulty.inputs_during_faults} (all handled: {not faulty.crashed})"),
        )
        report.figure(f"{driver}: game in progress + history equal to the run without faults", same)
        report.figure(
            f"{driver}: frames checked on the decoded panel / mismatches",
            (f"{faulty.checked_frames} / {faulty.mismatches}"),
        )
        report.figure(f"{driver}: panel correct at the end", faulty.final_ok)
        report.figure(
            f"{driver}: log records: lost warnings / recovered infos / debug retries",
            (
                f"{faulty.warnings} / {faulty.recovered_logs} / {faulty.debug_retries} "
                f"for {outages} outages"
            ),
        )
        if rec_frames:
            report.figure(
                f"{driver}: recovery frames median / max",
                (
                    f"{median(rec_frames):g} / {max(rec_frames)} "
                    f"(a retry every {retry / FRAME_SECONDS:g} frames)"
                ),
            )
        report.figure(
            f"{driver}: time (faulty + clean runs)",
            (f"{faulty.seconds:.2f} s + {clean.seconds:.2f} s"),
        )
        report.check(
            f"{driver}: no crash, every input handled",
            not faulty.crashed and not clean.crashed,
            faulty.crashed or clean.crashed,
        )
        report.check(f"{driver}: game state intact", same)
        report.check(f"{driver}: faults were injected", outages > 0)
        report.check(
            f"{driver}: panel correct on every healthy frame and at the end",
            faulty.mismatches == 0 and faulty.final_ok and clean.mismatches == 0,
        )
        report.check(
            f"{driver}: one warning and one recovery log per outage",
            faulty.warnings == outages and faulty.recovered_logs == outages,
            f"{faulty.warnings} warnings, {faulty.recovered_logs} infos, {outages} outages",
        )
        report.check(
            f"{driver}: every outage recovered",
            len(rec_frames) >= outages - 1 and faulty.final_ok,
            f"{len(rec_frames)} of {outages} (the last one may end with the run)",
        )
    report.figure("time", f"{time.monotonic() - started:.2f} s")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=2000, help="frames per driver and run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--retry", type=float, default=0.05, help="the display's retry interval")
    parser.add_argument("--drivers", default="ssd1306,sh1106")
    parser.add_argument("--time-limit", type=float, default=900.0)
    parser.add_argument("--json", help="also write the report as JSON to this file")
    args = parser.parse_args(argv)
    watchdog(args.time_limit, "display_faults")
    report = run(
        args.frames,
        args.seed,
        retry=args.retry,
        drivers=tuple(args.drivers.split(",")),
        command=command_line("display_faults.py", argv),
    )
    return finish(report, args.json)


if __name__ == "__main__":
    raise SystemExit(main())
