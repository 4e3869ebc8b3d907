"""Figures for the companion's screens, from scripted full games.

    .venv/bin/python bench/simulation.py [--games N] [--seed S]

1. Plays N full games (solo and two-player alternately) through the
   application's inputs with the stand-in player (`companion.testing.autoplay`),
   and counts the inputs per player turn (choose + confirm the steps + any
   7x7 question) and per Automa turn.
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
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from companion.app.companion import Companion
from companion.display.factory import open_display
from companion.engine.actions import Advance, AutomaTurn, Buy
from companion.inputs.events import EventQueue, Input
from companion.inputs.simulated import SimulatedInputs
from companion.runtime.loop import DisplayLoop
from companion.testing.autoplay import inputs_for, random_choice, start_game
from companion.views import AutomaView, MenuView, QuestionView, ScreenKind, StepView, TurnView

PLAYER_SCREENS = (TurnView, StepView, QuestionView)


def play_counting(state_dir: Path, seed: int, solo: bool) -> tuple[list[Input], int, int, int, int]:
    """One whole game: its inputs, and inputs and turns for players and for the Automa."""
    rng = random.Random(seed)
    app = Companion(state_dir, itertools.count(seed).__next__)
    pressed = start_game(app, solo, enter_circle=False, rng=rng)
    choose = random_choice(rng)
    player_inputs = automa_inputs = 0
    while True:
        view = app.view()
        if isinstance(view, MenuView) and view.kind is ScreenKind.HOME:
            break
        inputs = inputs_for(view, choose, rng)
        if isinstance(view, AutomaView):
            automa_inputs += len(inputs)
        elif isinstance(view, PLAYER_SCREENS) and app.game and not app.game.is_over:
            player_inputs += len(inputs)
        for item in inputs:
            app.handle(item)
        pressed += inputs
    game = app.last_finished
    assert game is not None
    automa_turns = sum(isinstance(action, AutomaTurn) for action in game.move_stack)
    player_turns = sum(isinstance(action, Advance | Buy) for action in game.move_stack)
    return pressed, player_inputs, player_turns, automa_inputs, automa_turns


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
    totals = [0, 0, 0, 0]
    latencies: list[float] = []
    with tempfile.TemporaryDirectory() as scratch:
        for number in range(args.games):
            seed, solo = args.seed + number, number % 2 == 0
            pressed, *counts = play_counting(Path(scratch, f"play{number}"), seed, solo)
            totals = [a + b for a, b in zip(totals, counts, strict=True)]
            latencies += replay_latencies(Path(scratch, f"replay{number}"), seed, pressed)
    player_inputs, player_turns, automa_inputs, automa_turns = totals
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
