"""Figures for the companion's screens, from scripted full games.

    .venv/bin/python bench/simulation.py [--games N] [--seed S]

1. Plays N full games (solo and two-player alternately) through the
   application's inputs with the stand-in player, and counts the inputs per
   player turn and per Automa turn (bench/presses.py, which also prints
   them alone and for advances and buys apart).
2. Replays each game's inputs through the simulation's real input path
   (keys -> gpiozero MockFactory pins -> RotaryEncoder/Button -> queue) into
   the display loop with luma's dummy device, one input at a time as a person
   would press them, and reports the time from an input entering the queue to
   its new frame having been sent: median and 99th percentile.

Not a test: it prints figures and never fails.
"""

from __future__ import annotations

import argparse
import itertools
import platform
import statistics
import tempfile
import threading
import time
from pathlib import Path

from presses import Counts, play_counting

from companion.app.companion import Companion
from companion.display.factory import open_display
from companion.inputs.events import EventQueue, Input
from companion.inputs.simulated import SimulatedInputs
from companion.runtime.loop import DisplayLoop


def replay_latencies(state_dir: Path, seed: int, inputs: list[Input]) -> list[float]:
    """Seconds from each input entering the queue to its frame being sent."""
    app = Companion(state_dir, itertools.count(seed).__next__)
    loop = DisplayLoop(app, open_display("dummy"))
    queue = EventQueue()

    def press_like_a_person(simulated: SimulatedInputs) -> None:
        for count, item in enumerate(inputs, start=1):
            simulated.perform(item)
            while loop.figures.inputs < count:  # wait for the screen before the next press
                time.sleep(0.0005)
        queue.close()

    with SimulatedInputs(queue) as simulated:
        presser = threading.Thread(target=press_like_a_person, args=(simulated,), daemon=True)
        presser.start()
        loop.run(queue)
        presser.join()
    return loop.figures.latencies


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    totals = Counts()
    latencies: list[float] = []
    with tempfile.TemporaryDirectory() as scratch:
        for number in range(args.games):
            seed, solo = args.seed + number, number % 2 == 0
            pressed, counts = play_counting(Path(scratch, f"play{number}"), seed, solo)
            totals = totals.plus(counts)
            latencies += replay_latencies(Path(scratch, f"replay{number}"), seed, pressed)
    player_inputs, player_turns = totals.player_inputs, totals.player_turns
    automa_inputs, automa_turns = totals.automa_inputs, totals.automa_turns
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    solo_games, two_player_games = (args.games + 1) // 2, args.games // 2
    print(f"{args.games} full games ({solo_games} solo, {two_player_games} two-player)")
    print(
        f"inputs per player turn: {player_inputs / player_turns:.2f} "
        f"({player_inputs} / {player_turns}; target <= 3)"
    )
    print(
        f"inputs per Automa turn: {automa_inputs / automa_turns:.2f} "
        f"({automa_inputs} / {automa_turns}; target exactly 1)"
    )
    ms = [latency * 1000 for latency in latencies]
    print(f"input to new frame over {len(ms)} inputs (mock pins -> dummy display):")
    print(
        f"  median {statistics.median(ms):.2f} ms, p99 {percentile(ms, 0.99):.2f} ms, "
        f"max {max(ms):.2f} ms"
    )


if __name__ == "__main__":
    main()
