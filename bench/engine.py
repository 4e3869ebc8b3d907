"""Benchmark of the rules engine: random full solo games per second on one core.

    .venv/bin/python bench/engine.py [--games N] [--seed S]

Plays N random solo games (random difficulty and deck, a random legal action
each turn, as fast as the engine allows) and prints games per second and
Automa turns per second. Not a test: it prints figures and never fails.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from companion.engine.actions import AutomaTurn
from companion.engine.automa import DIFFICULTIES, Deck
from companion.engine.game import Game
from companion.engine.setup import solo_setup


def play(games: int, seed: int) -> tuple[float, int, int]:
    """Seconds spent, actions pushed and Automa turns played in `games` random games."""
    rng = random.Random(seed)
    setups = [
        solo_setup(rng.choice(DIFFICULTIES), rng.choice(list(Deck)), seed=rng.getrandbits(32))
        for _ in range(games)
    ]
    actions = automa_turns = 0
    started = time.perf_counter()
    for setup in setups:
        game = Game(setup)
        while not game.is_over:
            action = rng.choice(game.legal_actions())
            game.push(action)
            actions += 1
            automa_turns += isinstance(action, AutomaTurn)
    return time.perf_counter() - started, actions, automa_turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    play(200, args.seed)  # warm-up
    seconds, actions, automa_turns = play(args.games, args.seed)
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    print(f"{args.games} random solo games in {seconds:.2f} s")
    print(f"games per second:        {args.games / seconds:10.0f}  (target >= 1000)")
    print(f"Automa turns per second: {automa_turns / seconds:10.0f}")
    print(
        f"actions per second:      {actions / seconds:10.0f}  ({actions / args.games:.1f} per game)"
    )


if __name__ == "__main__":
    main()
