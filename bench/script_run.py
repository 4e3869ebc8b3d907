"""How long `simulate --script` takes for a long script, holds included.

    .venv/bin/python bench/script_run.py [--inputs 1500] [--seed S]

Writes a script of N inputs (a new solo game, then a random mix in which
one line in seven is a hold), runs `patchwork-companion simulate
--script` on it as a user would (a fresh process, a temporary state dir),
and prints the wall time. The baseline, measured in the same run, is the same
script with every hold line dropped: holds should cost about what any other
input costs, not the 0.6 s a held switch takes on the device.

Not a test: it prints figures and never fails.
"""

from __future__ import annotations

import argparse
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NEW_SOLO_GAME = ["select"] * 8
MIX = ["next", "next", "next", "previous", "select", "back", "hold"]


def script_lines(count: int, rng: random.Random) -> list[str]:
    lines = NEW_SOLO_GAME[:count]
    while len(lines) < count:
        lines.append(rng.choice(MIX))
    return lines


def timed_run(lines: list[str], folder: Path, name: str) -> float:
    script = folder / f"{name}.txt"
    script.write_text("\n".join(lines) + "\n")
    command = [
        sys.executable,
        "-m",
        "companion",
        "simulate",
        "--seed",
        "1",
        "--script",
        str(script),
    ]
    started = time.perf_counter()
    subprocess.run(command, check=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    lines = script_lines(args.inputs, random.Random(args.seed))
    without_holds = [line for line in lines if line != "hold"]
    with tempfile.TemporaryDirectory() as folder:
        seconds = timed_run(lines, Path(folder), "with-holds")
        baseline = timed_run(without_holds, Path(folder), "without-holds")
    holds = len(lines) - len(without_holds)
    print(f"machine: {platform.machine()}, python {platform.python_version()}")
    print(f"script of {len(lines)} inputs ({holds} holds): {seconds:.1f} s")
    print(f"baseline, the same without its holds ({len(without_holds)} inputs): {baseline:.1f} s")
    print(f"holds waiting the device's 0.6 s would add {holds * 0.6:.0f} s")


if __name__ == "__main__":
    main()
