"""The statistics screen over 100, 1,000 and 10,000 finished games: time to open it and
the memory it takes.

    .venv/bin/python bench/statistics_screen.py [--games 100 1000 10000]

Each size runs in a fresh process. The finished games are ten real ones, one per level
and deck, played to the end by the engine (the player only advances), stored again and
again (each with the levels it beat) in one transaction until there are N; then
`Companion.statistics()` is timed (the SQL, the lines, the first page drawn: what one
press on "Statistics" costs; the median of five) and the process's peak resident memory
(ru_maxrss) is read before and after them.

Not a test: it prints figures and never fails.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

MEASURE = r"""
import itertools, json, resource, sys, tempfile, time
from pathlib import Path

from companion.engine.actions import ADVANCE, AUTOMA_TURN
from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.game import Game
from companion.engine.gamelog import log_lines
from companion.engine.setup import Side, solo_setup

count = int(sys.argv[1])
games = []
for number, (level, deck) in enumerate(itertools.product(DIFFICULTY_BY_NAME, Deck)):
    game = Game(solo_setup(DIFFICULTY_BY_NAME[level], deck, seed=number))
    while not game.is_over:
        game.push(AUTOMA_TURN if game.turn == Side.AUTOMA else ADVANCE)
    games.append(game)

with tempfile.TemporaryDirectory() as state:
    state = Path(state)
    from companion.storage.progress import result_of
    from companion.storage.store import Store

    with Store(state) as store:
        rows = []
        for number in range(count):
            game = games[number % len(games)]
            result = result_of(game)
            rows.append((
                f"2026-01-01 10:{number // 60 % 60:02}:{number % 60:02}", result.finished,
                game.setup.mode.value, game.setup.difficulty.name, game.setup.deck.value,
                json.dumps(result.scores), result.winner, result.margin,
                "\n".join(log_lines(game)) + "\n", result.beaten,
            ))
        store._db.execute("BEGIN")
        store._db.executemany(
            "INSERT INTO games (ended, finished, mode, difficulty, deck, scores, winner,"
            " margin, log, beaten) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        store._db.execute("COMMIT")

    from companion.app.companion import Companion
    from companion.render.screens import render

    app = Companion(state)
    app.statistics()  # once, for the imports: a device imports them at its first visit
    app.home()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    times = []
    for _ in range(5):
        app.home()
        started = time.perf_counter()
        app.statistics()
        render(app.view())
        times.append(time.perf_counter() - started)
    seconds = sorted(times)[2]
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": seconds, "rss_kib": after, "grew_kib": after - before,
                      "title": app.view().title}))
"""


def measure(count: int) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(count)],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[100, 1000, 10000])
    args = parser.parse_args()
    print(
        f"machine: {platform.platform()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    )
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}")
    print("finished games | open the statistics screen | peak memory (grew while opening)")
    for count in args.games:
        figures = measure(count)
        print(
            f"{count:>14,} | {figures['seconds'] * 1000:>10.1f} ms"
            f" | {figures['rss_kib'] / 1024:.1f} MB (+{figures['grew_kib'] / 1024:.1f} MB)"
        )


if __name__ == "__main__":
    main()
