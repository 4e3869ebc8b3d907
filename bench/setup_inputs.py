"""Inputs to lay out the patch circle: dealt by the companion, or entered by hand.

    .venv/bin/python bench/setup_inputs.py [--circles 200] [--seed S]

Plays the real application through its five inputs, as a player who reads the
screen and takes the shortest way, from the "Patch circle" menu to the first
turn, for many random circles. Beside each figure, the baseline measured in the
same run: the same circles on the earlier screens (one dealt patch per press;
every patch not yet placed in one list in catalogue order, turned from its
first entry), counted by the same shortest-way player.

Not a test: it prints figures and never fails.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import tempfile
from pathlib import Path

from companion.app.circle import CIRCLE_PLACES
from companion.app.companion import Companion
from companion.inputs.events import Input
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--circles", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        dealt = [
            deal_presses(Path(temporary) / f"deal-{n}", args.seed + n) for n in range(args.circles)
        ]
    print(f"{args.circles} circles (seed {args.seed}), from the circle menu to the first turn")
    print(f"dealt:   {statistics.mean(dealt):6.1f} presses    baseline {CIRCLE_PLACES} presses")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
