"""Correcting a button count from the game menu: it starts unchanged, cancels at 0,
and says what was corrected (nothing moves at the table)."""

import itertools
import random

from helpers import choose_row

from companion.app.companion import Companion
from companion.inputs.events import Input
from companion.render.screens import render_canvas
from companion.testing.autoplay import start_game
from companion.views import NumberView, ScreenKind, StepView, TurnView


def first_turn(tmp_path, solo=True):
    app = Companion(tmp_path, itertools.count(3).__next__)
    start_game(app, solo, False, random.Random(3))
    while not isinstance(app.view(), TurnView):
        app.handle(Input.SELECT)  # the dealt circle
    return app


def open_correction(app, side_label="You"):
    app.handle(Input.HOLD)
    assert app.view().kind is ScreenKind.GAME_MENU
    choose_row(app, "Correct buttons")
    choose_row(app, side_label)
    return app.view()


def test_the_correction_starts_unchanged_and_a_press_there_cancels(tmp_path):
    app = first_turn(tmp_path)
    actions = len(app.game.move_stack)
    view = open_correction(app)
    # Set-up gives the player 5 buttons (RULES.md §1).
    assert view == NumberView("Correct buttons", "You have 5●", "no change", "press: cancel")
    app.handle(Input.SELECT)
    assert app.view().kind is ScreenKind.GAME_MENU
    assert len(app.game.move_stack) == actions and app.game.sides["player"].buttons == 5


def test_a_correction_says_corrected_and_the_new_count_not_the_bank(tmp_path):
    app = first_turn(tmp_path)
    open_correction(app)
    for _ in range(3):
        app.handle(Input.NEXT)
    view = app.view()
    assert view.value == "+3 = 8" and view.hint == "press: correct  0: cancel"
    app.handle(Input.SELECT)
    card = app.view()
    assert isinstance(card, StepView)
    assert card.lines == ("Corrected: +3 buttons", "Your buttons: 5 → 8")
    assert render_canvas(card).overflows == []
    assert app.game.sides["player"].buttons == 8
    app.handle(Input.SELECT)
    assert isinstance(app.view(), TurnView)


def test_turning_down_stops_at_no_buttons_and_one_is_singular(tmp_path):
    app = first_turn(tmp_path)
    open_correction(app)
    app.handle(Input.PREVIOUS)
    assert app.view().value == "-1 = 4"
    for _ in range(4):
        app.handle(Input.PREVIOUS)
    assert app.view().value == "-5 = 0"  # 5 buttons: no more can be taken away
    app.handle(Input.NEXT)
    app.handle(Input.NEXT)
    app.handle(Input.NEXT)
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)
    assert app.view().lines == ("Corrected: -1 button", "Your buttons: 5 → 4")


def test_whose_buttons_has_a_way_back_by_turning_and_pressing(tmp_path):
    app = first_turn(tmp_path, solo=False)
    app.handle(Input.HOLD)
    choose_row(app, "Correct buttons")
    assert [item.label for item in app.view().items][-1] == "Back"
    choose_row(app, "Back")
    assert app.view().kind is ScreenKind.GAME_MENU


def test_back_on_the_number_cancels(tmp_path):
    app = first_turn(tmp_path)
    open_correction(app, "Automa")
    app.handle(Input.NEXT)
    app.handle(Input.BACK)
    assert app.view().kind is ScreenKind.GAME_MENU
    assert app.game.sides["automa"].buttons == 0
