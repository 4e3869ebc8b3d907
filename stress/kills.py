"""SIGKILL at random moments of scripted games: nothing the screen showed as done is lost.

    .venv/bin/python stress/kills.py [--kills 200] [--seed 1] [--mutant write-behind]

A child process runs the real application (`Companion` on a state directory, driven
by the stand-in player of `companion/testing/autoplay.py`, which undoes now and then)
and, after each input, prints what the screen now shows as done: the actions of the
game in progress as game log lines and the number of games ended. The harness kills
it with SIGKILL at a random moment, then opens the store the child left (as the next
start does) and exports its game: it must be the game the child last showed, or that
game changed by the one input in flight when the kill came (an action more, an undo,
the game ended or a new one begun). The next child resumes on the same directory, so
every kill also lands on a resumed game.

A SIGKILL keeps the page cache: this shows what a process dying anywhere between two
statements does to the store (a transaction half done, a lock left), not what an fsync
is for; the virtual Pi's power cuts (scripts/virtual-pi.sh) show that. `--mutant
write-behind` makes the child's store write a moment after the screen moves on: the
harness must fail it.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
from stress.common import Report, command_line, finish, watchdog  # noqa: E402

LONGEST_RUN = 1.5
"""Seconds a child plays, from its first screen, at most before its kill."""
WRITE_BEHIND = "write-behind"
WRITE_BEHIND_SECONDS = 0.2


def child(state_dir: Path, seed: int, mutant: str) -> None:
    """Play on from what `state_dir` holds, reporting after each input (never returns)."""
    import itertools

    if mutant == WRITE_BEHIND:
        write_behind()

    from companion.app.companion import Companion
    from companion.engine.gamelog import log_lines
    from companion.inputs.events import Input
    from companion.testing.autoplay import inputs_for, move_to, random_choice
    from companion.views import MenuView, QuestionView, ScreenKind, TurnView

    app = Companion(state_dir, itertools.count(seed * 1000).__next__)
    rng = random.Random(seed)
    choose = random_choice(rng)

    def decide() -> list[Input]:
        """As a player would, but for the menus: a new game or the one in progress from
        home, an undo now and then from the game menu, yes to abandon or undo."""
        view = app.view()
        if isinstance(view, MenuView):
            labels = [item.label for item in view.items]
            if view.kind is ScreenKind.HOME:
                wanted = "Resume game" if "Resume game" in labels and rng.random() < 0.9 else None
                target = labels.index(
                    wanted or rng.choice(["New solo game", "New two-player game"])
                )
            elif view.kind is ScreenKind.GAME_MENU:
                undo = "Undo last action" in labels and rng.random() < 0.5
                target = labels.index("Undo last action" if undo else "Back to the game")
            else:  # difficulty, deck, start player, circle: anything but Back or a code
                choices = [label for label in labels if label not in ("Back", "Deal code")]
                target = labels.index(rng.choice(choices))
            return [*move_to(view.selected, target, len(labels)), Input.SELECT]
        if isinstance(view, QuestionView) and view.kind in (
            ScreenKind.ABANDON_GAME,
            ScreenKind.CONFIRM_UNDO,
        ):
            return [Input.NEXT, Input.SELECT]  # yes, abandon / yes, undo
        if isinstance(view, TurnView) and rng.random() < 0.05:
            return [Input.HOLD]  # the game menu
        return inputs_for(view, choose, rng)

    def shown() -> None:
        # What the screen now shows as done: the game in memory. The count of games
        # ended is the store's (no screen shows it).
        log = log_lines(app.game) if app.game else []
        ended = app.store.query("SELECT count(*) FROM games")[0][0]
        print(json.dumps({"log": log, "ended": ended}), flush=True)

    shown()
    while True:
        for item in decide():
            print(json.dumps({"in_flight": True}), flush=True)
            app.handle(item)
            shown()


def write_behind() -> None:
    """The mutant the harness must catch: the store's writes made a moment after the
    screen moves on (a write-behind cache), in order, by a thread of their own."""
    import queue

    from companion.storage.store import Store

    pending: queue.SimpleQueue = queue.SimpleQueue()

    def writer() -> None:
        while True:
            write, args, kwargs = pending.get()
            time.sleep(WRITE_BEHIND_SECONDS)
            write(*args, **kwargs)

    def later(write):
        return lambda *args, **kwargs: pending.put((write, args, kwargs))

    threading.Thread(target=writer, daemon=True).start()
    for name in ("start", "save", "end"):
        setattr(Store, name, later(getattr(Store, name)))


def stored(state_dir: Path) -> tuple[list[str], int]:
    """The game the store holds (its log's lines) and the number of games ended."""
    from companion.storage.store import Store

    with Store(state_dir) as store:
        log = store.current_log()
        ended = store.query("SELECT count(*) FROM games")[0][0]
    return (log.splitlines() if log else []), ended


def read(process: subprocess.Popen, reports: list[dict], first_screen: threading.Event) -> None:
    for line in process.stdout:  # type: ignore[union-attr]
        reports.append(json.loads(line))
        first_screen.set()
    first_screen.set()


def acceptable(shown: dict, in_flight: bool, lines: list[str], ended: int) -> bool:
    """Whether the stored game is the one shown, or that one changed by one input."""
    before = shown["log"]
    if lines == before and ended == shown["ended"]:
        return True
    if not in_flight:
        return False
    if ended == shown["ended"] + 1:  # the game ended (or was given up for a new one)
        return not lines or len(lines) == 1
    if ended != shown["ended"]:
        return False
    if not before:  # a new game begun
        return len(lines) == 1
    same_game = lines[:1] == before[:1]
    one_more = lines[:-1] == before and len(lines) == len(before) + 1
    undone = len(lines) < len(before) and before[: len(lines)] == lines
    return same_game and (one_more or undone)


def run(kills: int, seed: int, command: str, mutant: str = "none") -> Report:
    report = Report("SIGKILL at random moments of scripted games", command)
    rng = random.Random(seed)
    lost, raised, in_flight_kills = 0, 0, 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="stress-kills-") as folder:
        state = Path(folder)
        for number in range(kills):
            process = subprocess.Popen(
                [sys.executable, __file__, "--child", str(state), str(seed * 100_000 + number)]
                + [mutant],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=REPO,
            )
            reports: list[dict] = []
            first_screen = threading.Event()
            reader = threading.Thread(target=read, args=(process, reports, first_screen))
            reader.start()
            first_screen.wait(60)
            time.sleep(rng.uniform(0, LONGEST_RUN))
            process.send_signal(signal.SIGKILL)
            process.wait()
            reader.join()
            error = process.stderr.read()
            process.stdout.close()
            process.stderr.close()
            if "Traceback" in error:
                raised += 1
                report.notes.append(f"kill {number}: the child raised: {error[-300:]}")
            done = [entry for entry in reports if "log" in entry]
            if not done:
                continue  # killed before its first screen: nothing was shown
            in_flight = "log" not in reports[-1]  # killed while handling an input
            in_flight_kills += in_flight
            lines, ended = stored(state)
            if not acceptable(done[-1], in_flight, lines, ended):
                lost += 1
                report.notes.append(f"kill {number}: stored {len(lines)} lines, {ended} ended")
        report.figure("kills", kills)
        report.figure("kills with an input in flight", in_flight_kills)
        report.figure("games ended", stored(state)[1])
        report.figure("time", f"{time.monotonic() - started:.1f} s")
    report.check("shown as done, then lost or changed (target 0)", lost == 0, str(lost))
    report.check("children that raised (target 0)", raised == 0, str(raised))
    return report


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] == ["--child"]:
        child(Path(arguments[1]), int(arguments[2]), arguments[3])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mutant", choices=["none", WRITE_BEHIND], default="none")
    parser.add_argument("--time-limit", type=float, default=1200.0)
    parser.add_argument("--json", help="also write the report as JSON to this file")
    args = parser.parse_args(arguments)
    watchdog(args.time_limit, "kills")
    report = run(args.kills, args.seed, command_line("kills.py", argv), args.mutant)
    return finish(report, args.json)


if __name__ == "__main__":
    raise SystemExit(main())
