"""Inputs to lay out the patch circle: dealt by the companion, or entered by hand.

    .venv/bin/python bench/setup_inputs.py [--circles 200] [--seed S]

Plays the real application through its five inputs, as a player who reads the
screen and takes the shortest way, from the "Patch circle" menu to the first
turn, for many random circles. Beside each figure, the baseline worked out in
the same run for the same circles entered the plainer way: one dealt patch per
press; every patch not yet placed in one list in catalogue order, turned from
its first entry (`one_list_inputs`, the same shortest-way player).

Not a test: it prints figures and never fails.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import tempfile
from pathlib import Path

from companion.app.circle import CIRCLE_PLACES
from companion.app.companion import Companion
from companion.engine.catalogue import PATCHES, STARTING_PATCH_ID
from companion.inputs.events import Input
from companion.testing.autoplay import enter_circle, move_to
from companion.views import DealView, ScreenKind, TurnView


def to_the_circle_menu(app: Companion) -> None:
    """Home: New solo game, Fellow (preselected), normal deck."""
    for item in (Input.SELECT, Input.SELECT, Input.SELECT):
        app.handle(item)
    assert app.view().kind is ScreenKind.CIRCLE  # type: ignore[union-attr]


def deal_presses(state_dir: Path, seed: int) -> int:
    """Presses from "Deal it for me" to the first turn."""
    app = Companion(state_dir, itertools.count(seed).__next__)
    to_the_circle_menu(app)
    app.handle(Input.SELECT)
    presses = 0
    while isinstance(app.view(), DealView):
        app.handle(Input.SELECT)
        presses += 1
    assert isinstance(app.view(), TurnView)
    return presses


def enter_inputs(state_dir: Path, seed: int, circle: list[str]) -> tuple[int, int]:
    """Turns and presses from "I laid it out" to the first turn, entering `circle`."""
    app = Companion(state_dir, itertools.count(seed).__next__)
    to_the_circle_menu(app)
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)
    pressed = enter_circle(app, circle)
    assert isinstance(app.view(), TurnView)
    presses = pressed.count(Input.SELECT)
    return len(pressed) - presses, presses


def one_list_inputs(circle: list[str]) -> tuple[int, int]:
    """The baseline: every patch not yet placed in one list in catalogue order, then
    the way back; the cursor on the first; a press places; the last place fills itself."""
    remaining = [patch.id for patch in PATCHES if patch.id != STARTING_PATCH_ID]
    turns = presses = 0
    for patch in circle[:-1]:
        turns += len(move_to(0, remaining.index(patch), len(remaining) + 1))
        presses += 1
        remaining.remove(patch)
    return turns, presses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--circles", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    circles = []
    for _ in range(args.circles):
        circle = [patch.id for patch in PATCHES if patch.id != STARTING_PATCH_ID]
        rng.shuffle(circle)
        circles.append(circle)
    with tempfile.TemporaryDirectory() as temporary:
        dealt = [
            deal_presses(Path(temporary) / f"deal-{n}", args.seed + n) for n in range(args.circles)
        ]
        entered = [
            enter_inputs(Path(temporary) / f"enter-{n}", args.seed + n, circle)
            for n, circle in enumerate(circles)
        ]
    baseline = [one_list_inputs(circle) for circle in circles]
    print(f"{args.circles} circles (seed {args.seed}), from the circle menu to the first turn")
    print(f"dealt:   {statistics.mean(dealt):6.1f} presses    baseline {CIRCLE_PLACES} presses")
    for name, figures in (("entered:", entered), ("baseline", baseline)):
        turns = statistics.mean(turn for turn, _ in figures)
        presses = statistics.mean(press for _, press in figures)
        print(
            f"{name} {turns:6.1f} turns + {presses:4.1f} presses = {turns + presses:6.1f} inputs"
            f"  (most turns {max(turn for turn, _ in figures)})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
