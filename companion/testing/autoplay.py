"""A stand-in player that drives the application through its inputs only.

It reads the current view, as a person reads the screen, and answers with
inputs: used to write scripted games for the simulation, to test that every
flow reaches the end, and to measure how many inputs a turn takes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from companion.app.companion import Companion
from companion.engine.actions import ADVANCE, Buy
from companion.engine.catalogue import PATCH_BY_ID, PATCHES, STARTING_PATCH_ID
from companion.inputs.events import Input
from companion.views import (
    AutomaView,
    DealView,
    MenuView,
    PickPatchView,
    QuestionView,
    ScoreView,
    ScreenKind,
    StepView,
    TextView,
    TurnChoice,
    TurnView,
    VerdictsView,
    View,
)

Choose = Callable[[TurnView], int]


def move_to(selected: int, target: int, count: int) -> list[Input]:
    """The shortest turn of the encoder from `selected` to `target` in a wrapping list."""
    forward = (target - selected) % count
    if forward <= count - forward:
        return [Input.NEXT] * forward
    return [Input.PREVIOUS] * (count - forward)


def affordable(view: TurnView, choice: TurnChoice) -> bool:
    """A buy the turn allows (greyed patches can be chosen but not bought)."""
    return isinstance(choice, Buy) and view.board.offer[choice.index].affordable


def random_choice(rng: random.Random, buying: float = 0.5) -> Choose:
    """Buy a random affordable patch with probability `buying` (half the time), else
    advance."""

    def choose(view: TurnView) -> int:
        buys = [i for i, choice in enumerate(view.choices) if affordable(view, choice)]
        if buys and rng.random() < buying:
            return rng.choice(buys)
        return view.choices.index(ADVANCE)

    return choose


def inputs_for(view: View, choose: Choose, rng: random.Random) -> list[Input]:
    """What a player would press on this screen to get on with the game."""
    if isinstance(view, TurnView):
        return [*move_to(view.selected, choose(view), len(view.choices)), Input.SELECT]
    if isinstance(view, QuestionView) and view.kind is ScreenKind.BONUS_QUESTION:
        answer = rng.randrange(len(view.answers))
        return [*move_to(view.selected, answer, len(view.answers)), Input.SELECT]
    if isinstance(view, StepView):
        return [Input.SELECT] * (view.total - view.number + 1)
    if isinstance(view, PickPatchView):
        # Any cost, then any patch; never the last choice (which goes back).
        target = rng.randrange(view.choices - 1)
        return [*move_to(view.selected, target, view.choices), Input.SELECT]
    if isinstance(view, (AutomaView, DealView, TextView, VerdictsView, ScoreView, QuestionView)):
        return [Input.SELECT]
    raise ValueError(f"the stand-in player does not know what to do on {type(view).__name__}")


def enter_circle(app: Companion, circle: Sequence[str]) -> list[Input]:
    """Enter `circle` (the places after P00, in order) on the circle-entry screens,
    the shortest way, as a player who sees which patches are left on the table;
    returns the inputs."""
    pressed: list[Input] = []
    while isinstance(view := app.view(), PickPatchView):
        entering = app.session.progress.entering
        assert entering is not None
        wanted = PATCH_BY_ID[circle[len(entering.placed)]]
        if view.picking:
            target = [patch.patch_id for patch in view.patches].index(wanted.id)
        else:
            placed = {*entering.placed, STARTING_PATCH_ID}
            costs = sorted({patch.cost for patch in PATCHES if patch.id not in placed})
            target = costs.index(wanted.cost)
        for item in [*move_to(view.selected, target, view.choices), Input.SELECT]:
            app.handle(item)
            pressed.append(item)
    return pressed


def start_game(app: Companion, solo: bool, enter_circle: bool, rng: random.Random) -> list[Input]:
    """Inputs from the home menu to a new game's first screen."""
    pressed: list[Input] = []

    def press(*inputs: Input) -> None:
        for item in inputs:
            app.handle(item)
            pressed.append(item)

    view = app.view()
    assert isinstance(view, MenuView) and view.kind is ScreenKind.HOME, view
    entry = app.words("New solo game") if solo else app.words("New two-player game")
    target = [item.label for item in view.items].index(entry)
    press(*move_to(view.selected, target, len(view.items)), Input.SELECT)
    view = app.view()
    if isinstance(view, QuestionView) and view.kind is ScreenKind.ABANDON_GAME:
        press(Input.NEXT, Input.SELECT)
    if solo:
        view = app.view()
        assert isinstance(view, MenuView) and view.kind is ScreenKind.DIFFICULTY, view
        press(*move_to(view.selected, rng.randrange(5), 5), Input.SELECT)  # difficulty
        press(*([Input.NEXT] * rng.randrange(2)), Input.SELECT)  # deck
    else:
        press(*([Input.NEXT] * rng.randrange(2)), Input.SELECT)  # start player
    press(*([Input.NEXT] if enter_circle else []), Input.SELECT)
    return pressed


def play_to_the_end(
    app: Companion,
    rng: random.Random,
    choose: Choose | None = None,
    on_view: Callable[[View], None] | None = None,
) -> list[Input]:
    """Answer screens until the game is over and saved; returns every input pressed."""
    choose = choose or random_choice(rng)
    pressed: list[Input] = []
    while True:
        if on_view:
            on_view(app.view())
        view = app.view()
        if isinstance(view, MenuView) and view.kind is ScreenKind.HOME:
            return pressed
        for item in inputs_for(view, choose, rng):
            app.handle(item)
            pressed.append(item)
