"""Inputs per turn, over the bench's full games: what playing costs in presses and turns.

    .venv/bin/python bench/presses.py [--games N] [--seed S] [--buying F]

Plays N full games (solo and two-player alternately, seeds S, S+1, ..., as
bench/simulation.py does) through the application's inputs with the stand-in
player (`companion.testing.autoplay`: buys a random affordable patch with
probability F, 0.5 unless told, else advances; presses through every card),
and counts every input (a turn of the knob or a press) from a player's turn
screen to the next turn: the choice, the step cards, any 7x7 question.
Printed per player turn, for advances and buys apart, and per Automa turn.

Not a test: it prints figures and never fails.
"""

from __future__ import annotations

import argparse
import itertools
import random
import tempfile
from pathlib import Path
from typing import NamedTuple

from companion.app.companion import Companion
from companion.engine.actions import AutomaTurn, Buy
from companion.inputs.events import Input
from companion.testing.autoplay import inputs_for, random_choice, start_game
from companion.views import AutomaView, MenuView, QuestionView, ScreenKind, StepView, TurnView

PLAYER_SCREENS = (TurnView, StepView, QuestionView)


class Counts(NamedTuple):
    """Inputs and turns of one or more games."""

    advance_inputs: int = 0
    advances: int = 0
    buy_inputs: int = 0
    buys: int = 0
    automa_inputs: int = 0
    automa_turns: int = 0

    def plus(self, other: Counts) -> Counts:
        return Counts(*(a + b for a, b in zip(self, other, strict=True)))

    @property
    def player_inputs(self) -> int:
        return self.advance_inputs + self.buy_inputs

    @property
    def player_turns(self) -> int:
        return self.advances + self.buys


def play_counting(
    state_dir: Path, seed: int, solo: bool, buying: float = 0.5
) -> tuple[list[Input], Counts]:
    """One whole game: its inputs, and the inputs of each kind of turn (`buying`: how
    often the player buys when it can)."""
    rng = random.Random(seed)
    app = Companion(state_dir, itertools.count(seed).__next__)
    pressed = start_game(app, solo, enter_circle=False, rng=rng)
    choose = random_choice(rng, buying)
    chosen: list[bool] = []  # per player turn: a buy?
    player_inputs: list[int] = []
    automa_inputs = 0
    while True:
        view = app.view()
        if isinstance(view, MenuView) and view.kind is ScreenKind.HOME:
            break
        inputs = inputs_for(view, choose, rng)
        if isinstance(view, TurnView):
            # The stand-in turns to its choice and presses; the press plays it.
            chosen.append(isinstance(view.choices[_landing(view, inputs)], Buy))
            player_inputs.append(0)
        if isinstance(view, AutomaView):
            automa_inputs += len(inputs)
        elif isinstance(view, PLAYER_SCREENS) and app.game and not app.game.is_over:
            player_inputs[-1] += len(inputs)
        for item in inputs:
            app.handle(item)
        pressed += inputs
    game = app.last_finished
    assert game is not None
    automa_turns = sum(isinstance(action, AutomaTurn) for action in game.move_stack)
    buys = [count for count, buy in zip(player_inputs, chosen, strict=True) if buy]
    advances = [count for count, buy in zip(player_inputs, chosen, strict=True) if not buy]
    counts = Counts(sum(advances), len(advances), sum(buys), len(buys), automa_inputs, automa_turns)
    return pressed, counts


def _landing(view: TurnView, inputs: list[Input]) -> int:
    """The choice the cursor is on when `inputs` press."""
    steps = inputs.count(Input.NEXT) - inputs.count(Input.PREVIOUS)
    return (view.selected + steps) % len(view.choices)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--buying", type=float, default=0.5, help="how often the player buys when it can"
    )
    args = parser.parse_args()
    totals = Counts()
    with tempfile.TemporaryDirectory() as scratch:
        for number in range(args.games):
            seed, solo = args.seed + number, number % 2 == 0
            _, counts = play_counting(Path(scratch, str(number)), seed, solo, args.buying)
            totals = totals.plus(counts)
    solo, two_player = (args.games + 1) // 2, args.games // 2
    print(
        f"{args.games} full games ({solo} solo, {two_player} two-player), seeds from "
        f"{args.seed}, buying {args.buying:.0%} of the turns it can"
    )
    for what, inputs, turns in (
        ("player turn", totals.player_inputs, totals.player_turns),
        ("  advance", totals.advance_inputs, totals.advances),
        ("  buy", totals.buy_inputs, totals.buys),
        ("Automa turn", totals.automa_inputs, totals.automa_turns),
    ):
        print(f"inputs per {what}: {inputs / turns:.2f} ({inputs} / {turns})")


if __name__ == "__main__":
    main()
