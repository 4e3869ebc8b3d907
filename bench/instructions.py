"""Instruction counts (valgrind callgrind) of the hot paths, for estimating a Pi Zero 2 W.

    .venv/bin/python bench/instructions.py

Instructions, unlike seconds, do not depend on what else the machine is doing.
Each figure is the difference between a run doing N units of work and the same
run doing none, divided by N, so start-up is not counted in it. Start-up is
counted on its own, as `bench/startup.py` counts it against its budget: the
daemon to its first frame beside the bare imports, each whole process, with
the companion's bytecode compiled first (as pip does on the device). Takes a few
minutes under callgrind. Needs valgrind.
Not a test: it prints figures and never fails.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import tempfile
from pathlib import Path

from device import (
    BARE_IMPORT,
    DAEMON,
    MEASURED_PYTHON,
    PROFILE,
    SCENARIOS,
    compile_bytecode,
    game_in_progress,
)

INPUTS = """
import itertools, random, sys, tempfile
from pathlib import Path
from companion.testing.autoplay import inputs_for, random_choice, start_game
from companion.app.companion import Companion
from companion.runtime.loop import DisplayLoop
from companion.display.oled import open_oled
from companion.testing.recording import RecordingBus
from companion.hardware.config import DisplayConfig
limit, rng = int(sys.argv[1]), random.Random(3)
app = Companion(Path(tempfile.mkdtemp()), itertools.count(3).__next__)
bus = RecordingBus()
loop = DisplayLoop(app, open_oled(DisplayConfig("sh1106"), bus=bus))
loop.refresh()
start_game(app, True, False, rng)
loop.refresh()
done, choose = 0, random_choice(rng)
while done < limit and app.game is not None:
    for item in inputs_for(app.view(), choose, rng):
        app.handle(item)
        loop.refresh()
        bus.take()
        done += 1
print(done)
"""
"""Inputs of a solo game: the app handles each, renders it, sends what changed."""

LUMA = """
import sys
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106
from companion.testing.recording import RecordingBus
from companion.testing.screen_examples import EXAMPLES
from companion.render.screens import render
device = sh1106(i2c(bus=RecordingBus()))
for _ in range(int(sys.argv[1])):
    device.display(render(EXAMPLES["turn_solo"]))
print(sys.argv[1])
"""
"""The reference: drawing a screen and sending it whole with luma's display()."""

GAMES = """
import random, sys
from companion.engine.game import Game
from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.setup import solo_setup
rng = random.Random(1)
for number in range(int(sys.argv[1])):
    game = Game(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=number))
    while not game.is_over:
        game.push(rng.choice(game.legal_actions()))
print(sys.argv[1])
"""
"""Random full solo games in the engine."""


def instructions(program: str, *args: str) -> tuple[int, str]:
    """Instructions callgrind counted for `python -P -c program args` (`MEASURED_PYTHON`), and
    what it printed."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch, "callgrind.out")
        result = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             *MEASURED_PYTHON, "-c", program, *args],
            capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    collected = re.search(r"Collected : (\d+)", result.stderr)
    assert collected, result.stderr[-500:]
    return int(collected.group(1)), result.stdout.strip()


def per_unit(program: str, units: int) -> tuple[float, int]:
    """Instructions per unit of work, and the units actually done."""
    base, _ = instructions(program, "0")
    total, done = instructions(program, str(units))
    return (total - base) / int(done), base


def daemon_instructions(before: str = "", resumed: bool = False) -> int:
    """Instructions of the daemon to its first frame and its exit (`before` run first, if
    any; `resumed`: with a game in progress to resume)."""
    with (
        tempfile.TemporaryDirectory() as scratch,
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener,
    ):
        notify_path = os.path.join(scratch, "notify")
        listener.bind(notify_path)
        state = os.path.join(scratch, "state")
        if resumed:
            game_in_progress(Path(state))
        count, _ = instructions(before + DAEMON, PROFILE, notify_path, state)
    return count


START_UP_BUDGET = 0.9e9
"""The daemon's instructions to its first frame, fresh and resumed, on x86-64: 0.9 to 1.8 s
on a Pi Zero 2 W by `main`'s estimate."""


def print_start_up_instructions(indent: str = "") -> tuple[int, int]:
    """Print the daemon's instructions to its first frame in each scenario against the
    budget, beside the bare imports'; return the bare imports' and a resumed game's."""
    bare, _ = instructions(BARE_IMPORT)
    print(f"{indent}instructions (callgrind), each whole process:")
    print(f"{indent}  bare import of PIL, luma.oled, gpiozero: {bare / 1e9:.3f} G")
    print(f"{indent}  the daemon to its first frame (budget {START_UP_BUDGET / 1e9:.1f} G):")
    counts: dict[bool, int] = {}
    for scenario, resumed in SCENARIOS.items():
        counts[resumed] = count = daemon_instructions(resumed=resumed)
        verdict = "within the budget" if count <= START_UP_BUDGET else "OVER THE BUDGET"
        print(f"{indent}    {scenario}: {count / 1e9:.3f} G, {verdict}")
    return bare, counts[True]


def main() -> None:
    print(compile_bytecode())
    per_input, _ = per_unit(INPUTS, 150)
    per_display, _ = per_unit(LUMA, 40)
    per_game, _ = per_unit(GAMES, 30)
    print("instructions (callgrind), x86_64:")
    print(f"  one input handled, rendered and sent: {per_input / 1e6:.2f} M")
    print(f"  one bare luma display() of a full frame plus drawing it: {per_display / 1e6:.2f} M")
    print(f"  ratio: {per_input / per_display:.2f}")
    print(f"  one random full solo game in the engine: {per_game / 1e6:.2f} M")
    print("  start-up:")
    bare, startup = print_start_up_instructions(indent="    ")
    print("estimate for a Pi Zero 2 W (Cortex-A53, 1 GHz), assuming CPython retires")
    print("0.5 to 1 instruction per cycle there (an assumption, not a measurement):")
    for label, count in (("input", per_input), ("bare luma display", per_display)):
        print(f"  {label}: {count / 1e6:.1f} to {count / 0.5e6:.1f} ms of CPU")
    print(
        f"  start-up (a game resumed): {startup / 1e9:.1f} to {startup / 0.5e9:.1f} s;"
        f" bare import {bare / 1e9:.1f} to {bare / 0.5e9:.1f} s"
    )
    print(f"  engine: {0.5e9 / per_game:.0f} to {1e9 / per_game:.0f} full games per second")


if __name__ == "__main__":
    main()
