#!/usr/bin/env python3
"""Power-loss harness: kill the companion with SIGKILL at random moments, restart, compare.

    .venv/bin/python stress/power_loss.py [--kills 200] [--seed S] [--time-limit 900]

The parent starts a child process (this file with ``--child``) that runs the real
application: ``Companion`` + ``DisplayLoop`` on luma's dummy display, driven by
``SimulatedInputs`` (gpiozero devices on MockFactory pins), in a state directory
inside a temporary directory. The child plays games with the stand-in player of
``companion.testing.autoplay`` (the inputs are generated from what the screen shows,
as a person reads it) and, after every frame it sends, prints one line::

    F {"n": <actions in the game>, "d": <digest of Game.state()>, "f": <games in history>}

which is what the screen now shows as done. The parent kills the child with
SIGKILL, then checks what a boot would find on disk (``Journal.load`` on a copy of
the state directory; a fresh ``Companion`` is also started on a second copy to
prove it boots to a usable screen), and starts the child again on the real
directory, which carries on with the rest of the game.

The rule checked after every kill: the resumed game equals the last state the
screen confirmed (the last ``F`` line before the kill), or is exactly one action
further (an action journalled and fsynced whose screen had not been sent yet:
the next boot shows that action's steps screen, so the player still sees it),
never behind.

Where the kills land:

- ``random-frame``: a random delay (0-0.5 s) after the child's first frame.
- ``random-boot``: a random delay from the child's start, up to its measured
  time to first frame (kills during import, the journal repair, the resume).
- aimed kills: with ``STRESS_PAUSE_AT=point:k`` in its environment the child
  wraps the storage functions and, at the k-th time it reaches ``point``, prints
  ``P point <offset>`` and sleeps; the parent kills it as soon as it reads that
  line, so the process dies exactly there. The points:

  - ``journal-mid-write``: ``Journal.append``'s write is split in two at a
    random byte; the kill lands between the halves (a torn line on disk).
  - ``journal-before-fsync``: the whole line written, fsync not yet called.
  - ``journal-after-fsync``: ``Journal.append`` returned, the steps screen not
    yet sent (the "one action ahead" case).
  - ``progress-temp``, ``journal-start-temp``: half of the temporary file of
    ``atomic_write_text`` written, not yet renamed (progress.json, a new
    game's journal header).
  - ``progress-after``: progress.json replaced, the next frame not yet sent.
  - ``archive-after``: a finished game moved to history/, home not yet shown.

SIGKILL kills the process, not the machine: the page cache survives it. For the
kills between write and fsync the parent therefore also plays the power cut's
part on the unsynced bytes (from the offset the child printed to the end of the
file): kept, lost (truncated), cut at a random byte, or zeroed (what a journalled
file system can show after a crash). A real power cut can do no worse to them;
what was fsynced before is never touched.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import queue as queue_module
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
from stress.common import invocation, machine_line  # noqa: E402

PAUSE_ENV = "STRESS_PAUSE_AT"
PAUSE_SECONDS = 60.0
"""How long the child sleeps at an aimed point: it is killed long before."""

AIMED_POINTS = {
    # point: (weight, highest k)
    "journal-mid-write": (20, 4),
    "journal-before-fsync": (12, 4),
    "journal-after-fsync": (8, 4),
    "progress-temp": (5, 4),
    "progress-after": (3, 4),
    "journal-start-temp": (3, 1),
    "archive-after": (4, 1),
}
RANDOM_KINDS = {"random-frame": 35, "random-boot": 10}
UNSYNCED_POINTS = ("journal-mid-write", "journal-before-fsync")
UNSYNCED_FATES = ("kept", "lost", "cut", "zeroed")
AIM_TIMEOUT = 20.0
"""Seconds to wait for an aimed point before killing anyway (counted as not reached)."""


# --- shared ------------------------------------------------------------------------------


def digest(game) -> str | None:
    if game is None:
        return None
    return hashlib.sha256(repr(game.state()).encode()).hexdigest()[:16]


# --- the child ---------------------------------------------------------------------------


def child_main(args: argparse.Namespace) -> int:
    import logging

    from companion.app.companion import Companion
    from companion.display.factory import open_display
    from companion.inputs.events import EventQueue, Input
    from companion.inputs.simulated import SimulatedInputs
    from companion.runtime.loop import DisplayLoop
    from companion.storage import journal as journal_module
    from companion.storage import progress as progress_module
    from companion.testing.autoplay import inputs_for, move_to, random_choice
    from companion.views import MenuView, ScreenKind

    state_dir = Path(args.state_dir)
    logging.basicConfig(filename=args.log, level=logging.INFO)
    rng = random.Random(f"{args.seed}-{args.run}")
    _install_pause_points(os.environ.get(PAUSE_ENV), progress_module, journal_module, rng)

    seeds = random.Random(f"games-{args.seed}-{args.run}")
    app = Companion(state_dir, lambda: seeds.randrange(2**31))
    history = state_dir / "history"

    def frame_sent() -> None:
        game = app.game
        finished = len(list(history.iterdir())) if history.is_dir() else 0
        line = {"n": len(game.move_stack) if game else None, "d": digest(game), "f": finished}
        sys.stdout.write("F " + json.dumps(line) + "\n")
        sys.stdout.flush()

    display = open_display("dummy")
    events = EventQueue()
    loop = DisplayLoop(app, display, on_frame=frame_sent)
    choose = random_choice(rng)

    def decide():
        view = app.view()
        if isinstance(view, MenuView):
            labels = [item.label for item in view.items]
            if view.kind is ScreenKind.HOME:
                wanted = "Resume game" if "Resume game" in labels else None
                wanted = wanted or rng.choice(["New solo game", "New two-player game"])
                target = labels.index(wanted)
            elif view.kind is ScreenKind.GAME_MENU:
                target = labels.index("Back to the game")
            else:  # difficulty, deck, start player, circle: anything but Back
                target = rng.randrange(len([label for label in labels if label != "Back"]))
            return [*move_to(view.selected, target, len(labels)), Input.SELECT]
        return inputs_for(view, choose, rng)

    def feed(simulated: SimulatedInputs) -> None:
        performed = 0
        try:
            while not events.closed:
                deadline = time.monotonic() + 30
                while loop.figures.inputs < performed and time.monotonic() < deadline:
                    time.sleep(0.0005)
                for item in decide():
                    simulated.perform(item)
                    performed += 1
        finally:
            events.close()

    with SimulatedInputs(events) as simulated:
        threading.Thread(target=feed, args=(simulated,), daemon=True).start()
        loop.run(events)
    return 0


def _install_pause_points(spec, progress_module, journal_module, rng) -> None:
    """Wrap the storage functions so that the child stops at the k-th `point` (see above)."""
    if not spec:
        return
    point, _, k = spec.partition(":")
    target = int(k or 1)
    counts: Counter[str] = Counter()

    def is_target(name: str) -> bool:
        if name != point:
            return False
        counts[name] += 1
        return counts[name] == target

    def pause(name: str, offset: int = -1) -> None:
        sys.stdout.write(f"P {name} {offset}\n")
        sys.stdout.flush()
        time.sleep(PAUSE_SECONDS)

    original_write_all = journal_module._write_all

    def split_write(fd: int, data: bytes) -> None:
        start = os.lseek(fd, 0, os.SEEK_CUR)
        cut = rng.randrange(1, len(data))
        original_write_all(fd, data[:cut])
        if is_target("journal-mid-write"):
            pause("journal-mid-write", start)
        original_write_all(fd, data[cut:])
        if is_target("journal-before-fsync"):
            pause("journal-before-fsync", start)

    journal_module._write_all = split_write

    journal_class = journal_module.Journal
    original_append = journal_class.append
    original_archive = journal_class.archive

    def append(self, action):
        original_append(self, action)
        if is_target("journal-after-fsync"):
            pause("journal-after-fsync")

    def archive(self, finished):
        kept = original_archive(self, finished)
        if is_target("archive-after"):
            pause("archive-after")
        return kept

    journal_class.append = append
    journal_class.archive = archive

    def wrap_atomic(module, attribute: str) -> None:
        original = getattr(module, attribute)

        def atomic_write_text(path, text):
            name = "progress" if Path(path).name == "progress.json" else "journal-start"
            if is_target(f"{name}-temp"):
                # What atomic_write_text does, stopped half-way through the temporary file.
                fd, _ = tempfile.mkstemp(
                    prefix=f".{Path(path).name}.", suffix=".tmp", dir=path.parent
                )
                data = text.encode("utf-8")
                os.write(fd, data[: len(data) // 2])
                os.close(fd)
                pause(f"{name}-temp")
            original(path, text)
            if is_target(f"{name}-after"):
                pause(f"{name}-after")

        setattr(module, attribute, atomic_write_text)

    wrap_atomic(progress_module, "atomic_write_text")
    wrap_atomic(journal_module, "atomic_write_text")


# --- the parent --------------------------------------------------------------------------


class Child:
    """One run of the child, its output lines arriving on a queue."""

    def __init__(self, state_dir: Path, seed: int, run: int, log: Path, pause: str | None):
        env = dict(os.environ)
        env.pop(PAUSE_ENV, None)
        if pause:
            env[PAUSE_ENV] = pause
        command = [
            sys.executable, __file__, "--child", "--state-dir", str(state_dir),
            "--seed", str(seed), "--run", str(run), "--log", str(log),
        ]  # fmt: skip
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=REPO
        )
        self.lines: queue_module.Queue = queue_module.Queue()
        self.stderr = b""
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for raw in self.process.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def next_line(self, timeout: float) -> str | None:
        try:
            return self.lines.get(timeout=max(0.0, timeout))
        except queue_module.Empty:
            return ""

    def kill(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.stderr = self.process.stderr.read()
        self.process.stdout.close()
        self.process.stderr.close()


def on_disk(state_dir: Path, scratch: Path):
    """What a boot finds: the journal loaded (on a copy) and a fresh Companion (another copy)."""
    from companion.app.companion import Companion
    from companion.render.screens import render
    from companion.storage.journal import Journal
    from companion.views import MenuView

    for name in ("journal", "boot"):
        shutil.rmtree(scratch / name, ignore_errors=True)
        shutil.copytree(state_dir, scratch / name)
    loaded = Journal(scratch / "journal" / "journal.jsonl").load()
    history = scratch / "journal" / "history"
    finished = len(list(history.iterdir())) if history.is_dir() else 0
    app = Companion(scratch / "boot")
    view = app.view()
    # Usable: a real screen (not the empty placeholder menu) that draws on the panel.
    usable = not (isinstance(view, MenuView) and not view.items)
    render(view)
    return loaded, finished, usable, type(view).__name__


def classify(ref: dict, loaded, finished: int) -> str:
    game = loaded.game
    n = len(game.move_stack) if game else None
    if n == ref["n"] and digest(game) == ref["d"] and finished == ref["f"]:
        return "exact"
    if finished == ref["f"]:
        if ref["n"] is None and n == 0:
            return "ahead-start"
        if ref["n"] is not None and n == ref["n"] + 1:
            last = game.pop()
            same = digest(game) == ref["d"]
            game.push(last)
            if same:
                return "ahead"
    if finished == ref["f"] + 1 and game is None and ref["n"] is not None:
        return "ahead-archive"
    return "behind-or-different"


def apply_power_cut(journal: Path, offset: int, rng: random.Random) -> str:
    """Decide the fate of the bytes written after `offset` and not fsynced."""
    fate = rng.choice(UNSYNCED_FATES)
    data = journal.read_bytes()
    if fate == "lost":
        journal.write_bytes(data[:offset])
    elif fate == "cut" and len(data) > offset + 1:
        journal.write_bytes(data[: rng.randrange(offset + 1, len(data))])
    elif fate == "zeroed":
        journal.write_bytes(data[:offset] + b"\0" * (len(data) - offset))
    return fate


def choose_kind(rng: random.Random) -> tuple[str, str | None]:
    kinds = {**RANDOM_KINDS, **{point: weight for point, (weight, _) in AIMED_POINTS.items()}}
    kind = rng.choices(list(kinds), weights=list(kinds.values()))[0]
    if kind in AIMED_POINTS:
        return kind, f"{kind}:{rng.randint(1, AIMED_POINTS[kind][1])}"
    return kind, None


def run_harness(kills: int, seed: int, time_limit: float, keep: bool = False) -> dict:
    import logging

    from companion.storage.journal import TORN_NOTICE

    rng = random.Random(seed)
    started = time.monotonic()
    figures: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    fates: Counter[str] = Counter()
    notices: Counter[str] = Counter()
    failures: list[str] = []
    boot_times: list[float] = []
    max_actions = 0
    root = Path(tempfile.mkdtemp(prefix="stress-power-loss-"))
    state_dir, scratch = root / "state", root / "scratch"
    scratch.mkdir()
    # The boots in this process log their repairs; keep them out of the report.
    logging.basicConfig(filename=root / "parent.log", level=logging.INFO, force=True)
    ref = {"n": None, "d": None, "f": 0}
    try:
        for run in range(kills):
            if time.monotonic() - started > time_limit:
                failures.append(f"time limit of {time_limit:.0f} s reached after {run} kills")
                break
            kind, pause = choose_kind(rng)
            kinds[kind] += 1
            child = Child(state_dir, seed, run, root / f"child-{run % 2}.log", pause)
            boot_delay = rng.uniform(0, (sum(boot_times) / len(boot_times)) if boot_times else 1.0)
            frame_delay = rng.uniform(0, 0.5)
            aimed_offset = None
            first_frame = None
            run_ref = None
            deadline = child.started + (boot_delay if kind == "random-boot" else AIM_TIMEOUT + 10)
            while True:
                line = child.next_line(deadline - time.monotonic())
                if line is None:  # the child ended by itself: that is a failure
                    failures.append(f"run {run}: the child exited on its own")
                    break
                if line == "":  # the deadline passed
                    if pause:
                        figures["aimed point not reached"] += 1
                    break
                if line.startswith("F "):
                    run_ref = json.loads(line[2:])
                    if first_frame is None:
                        first_frame = time.monotonic()
                        boot_times.append(first_frame - child.started)
                        if kind == "random-frame":
                            deadline = first_frame + frame_delay
                elif line.startswith("P "):
                    _, _, offset = line.split(" ")
                    aimed_offset = int(offset)
                    break
            child.kill()
            if first_frame is None:
                figures["kills before the first frame"] += 1
            if run_ref is not None:
                ref = run_ref
            if pause and pause.split(":")[0] in UNSYNCED_POINTS and aimed_offset is not None:
                fates[apply_power_cut(state_dir / "journal.jsonl", aimed_offset, rng)] += 1
            try:
                loaded, finished, usable, view_name = on_disk(state_dir, scratch)
            except Exception as error:  # a boot that raises is the worst failure
                figures["boots that raised"] += 1
                failures.append(f"run {run} ({kind}): boot raised {error!r}")
                continue
            if loaded.notice:
                notices[loaded.notice] += 1
                if loaded.notice != TORN_NOTICE:
                    figures["journals that failed to load"] += 1
            if not usable:
                figures["boots without a usable screen"] += 1
                failures.append(f"run {run}: boot shows {view_name}")
            verdict = classify(ref, loaded, finished)
            figures[verdict] += 1
            if verdict == "behind-or-different":
                failures.append(
                    f"run {run} ({kind}, {pause}): confirmed {ref}, found "
                    f"n={len(loaded.game.move_stack) if loaded.game else None} "
                    f"d={digest(loaded.game)} f={finished}"
                )
            game = loaded.game
            max_actions = max(max_actions, len(game.move_stack) if game else 0)
            # The next child starts from what is durable now.
            ref = {"n": len(game.move_stack) if game else None, "d": digest(game), "f": finished}
        history = state_dir / "history"
        games_finished = len(list(history.iterdir())) if history.is_dir() else 0
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)
    elapsed = time.monotonic() - started
    return {
        "kills": sum(kinds.values()),
        "exact": figures["exact"],
        "ahead": figures["ahead"] + figures["ahead-start"] + figures["ahead-archive"],
        "ahead_detail": {
            "action journalled, steps screen not sent": figures["ahead"],
            "new game's journal written, first screen not sent": figures["ahead-start"],
            "finished game archived, home not sent": figures["ahead-archive"],
        },
        "confirmed_lost": figures["behind-or-different"],
        "journals_failed_to_load": figures["journals that failed to load"],
        "boots_raised": figures["boots that raised"],
        "boots_unusable": figures["boots without a usable screen"],
        "kills_before_first_frame": figures["kills before the first frame"],
        "aimed_not_reached": figures["aimed point not reached"],
        "kill_kinds": dict(sorted(kinds.items())),
        "unsynced_fates": dict(sorted(fates.items())),
        "notices": dict(notices),
        "games_finished": games_finished,
        "mean_boot_s": round(sum(boot_times) / len(boot_times), 3) if boot_times else None,
        "failures": failures,
        "seconds": round(elapsed, 1),
    }


def report(result: dict, seed: int) -> str:
    kinds = ", ".join(f"{kind} {count}" for kind, count in result["kill_kinds"].items())
    lines = [
        "power_loss: SIGKILL at random and aimed moments, restart, compare with the screen",
        f"command: {invocation()}",
        f"machine: {machine_line()}",
        f"seed: {seed}",
        f"kills: {result['kills']} ({kinds})",
        f"resumed on the exact confirmed state: {result['exact']}",
        f"resumed one action ahead (durable, screen not yet sent): {result['ahead']}",
    ]
    lines += [f"    {what}: {count}" for what, count in result["ahead_detail"].items()]
    lines += [
        f"confirmed actions lost (target 0): {result['confirmed_lost']}",
        f"journals that failed to load (target 0): {result['journals_failed_to_load']}",
        f"boots that raised (target 0): {result['boots_raised']}",
        f"boots without a usable screen (target 0): {result['boots_unusable']}",
        f"kills before the child's first frame: {result['kills_before_first_frame']}",
        f"aimed points not reached in {AIM_TIMEOUT:.0f} s: {result['aimed_not_reached']}",
        f"unsynced bytes after write-before-fsync kills: {result['unsynced_fates']}",
        f"games played to the end and archived: {result['games_finished']}",
        f"mean time from start to first frame: {result['mean_boot_s']} s",
        "notices shown at boot:",
    ]
    lines += [f"    {count} x {text}" for text, count in result["notices"].items()] or ["    none"]
    lines.append(f"total time: {result['seconds']} s")
    if result["failures"]:
        lines.append("FAILURES:")
        lines += [f"    {failure}" for failure in result["failures"][:20]]
    return "\n".join(lines)


def passed(result: dict) -> bool:
    return not (
        result["failures"]
        or result["confirmed_lost"]
        or result["journals_failed_to_load"]
        or result["boots_raised"]
        or result["boots_unusable"]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--time-limit", type=float, default=900.0, help="seconds (default 900)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--state-dir", help=argparse.SUPPRESS)
    parser.add_argument("--run", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--log", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child_main(args)
    seed = args.seed if args.seed is not None else random.randrange(10**6)
    result = run_harness(args.kills, seed, args.time_limit, args.keep)
    print(report(result, seed))
    if args.json:
        print(json.dumps(result))
    return 0 if passed(result) else 1


if __name__ == "__main__":
    sys.exit(main())
