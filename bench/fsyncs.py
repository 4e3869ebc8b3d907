"""How many inputs fsync before their frame, over the scripted games of bench/device.py.

    .venv/bin/python bench/fsyncs.py [--games 6]

The games are those of bench/device.py's bytes-per-input loop (the same seeds, the same
stand-in player, from each game's first turn to its end), played one after the other on
one companion as on the device (its store taking them all), without a display:
nothing is drawn, so every fsync an input's handling makes comes before its frame. The
program runs under strace, which counts the fsync and fdatasync calls the process makes
(SQLite's as well as Python's); a marker written to /dev/null before each input, and
one where its frame would be sent, split them by input. After the frame marker the
companion's `after_frame` runs (the write-ahead log emptied after a game's end): its
fsyncs delay no frame and are not counted.

Not a test: it prints figures and never fails.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

MARKER = b"@input\n"
FRAME = b"@frame\n"
"""Written where the input's frame would be sent: what follows is not before it."""
SYNC = re.compile(r"\b(fsync|fdatasync)\(")


def play(games: int) -> None:
    """Run in the traced child: the games, one after the other on one companion and one
    state directory, as on the device; a marker before each input."""
    import itertools
    import json
    import random

    from companion.app.companion import Companion
    from companion.testing.autoplay import inputs_for, random_choice, start_game

    marker = os.open(os.devnull, os.O_WRONLY)
    with tempfile.TemporaryDirectory() as state:
        Path(state, "settings.json").write_text(json.dumps({"language": "en"}))
        app = Companion(Path(state), itertools.count(0).__next__)
        for number in range(games):
            rng = random.Random(number)
            start_game(app, number % 2 == 0, False, rng)
            choose = random_choice(rng)
            while app.game is not None:
                for item in inputs_for(app.view(), choose, rng):
                    os.write(marker, MARKER)
                    app.handle(item)
                    os.write(marker, FRAME)
                    app.after_frame()


def count(trace: str) -> collections.Counter[int]:
    """How many inputs made 0, 1, 2, … fsyncs."""
    per_input: collections.Counter[int] = collections.Counter()
    current = None
    for line in trace.splitlines():
        if '"@input\\n"' in line or '"@frame\\n"' in line:
            if current is not None:
                per_input[current] += 1
            current = 0 if "@input" in line else None
        elif current is not None and SYNC.search(line):
            current += 1
    return per_input


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--play", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        play(args.games)
        return
    with tempfile.NamedTemporaryFile(suffix=".strace") as trace:
        command = ["strace", "-f", "-qq", "-e", "trace=fsync,fdatasync,write", "-o", trace.name]
        command += [sys.executable, __file__, "--play", "--games", str(args.games)]
        subprocess.run(command, check=True)
        per_input = count(Path(trace.name).read_text())
    total = sum(per_input.values())
    synced = sum(n for fsyncs, n in per_input.items() if fsyncs)
    print(f"inputs of {args.games} games: {total}")
    print(f"inputs that fsync before their frame: {synced} of {total}")
    for fsyncs in sorted(per_input):
        print(f"  {fsyncs} fsync(s): {per_input[fsyncs]} inputs")


if __name__ == "__main__":
    main()
