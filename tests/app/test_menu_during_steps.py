"""A claim or a correction from the game menu while an action's cards are showing
must not lose those cards (issue 11: the table is told every step)."""

import itertools

import pytest
from helpers import place, solo_game

from companion.app.companion import Companion
from companion.app.session import GameSession
from companion.engine.actions import ADVANCE
from companion.inputs.events import Input
from companion.storage.store import Store
from companion.views import MenuView, StepView, TurnView

MENU_ACTIONS = ("Claim 7x7 bonus", "Correct buttons")


def _app_on_the_first_card(tmp_path):
    """The player, on 22 with 50 squares covered (answered "Not yet" at 49), advances
    past the Automa on 27 to 28 (RULES.md §3 A): +6 buttons, and crosses the leather
    patch on 26 (§1), two cards. (The income mark 23 pays 0: no patch has buttons.)"""
    app = Companion(tmp_path, itertools.count(1).__next__)
    app.session.start(solo_game("P10", "P17", "P02", "P03").setup)
    place(app.game, "automa", 27)
    place(app.game, "player", 22)
    app.game.sides["player"].covered = 50
    app.session.progress.asked_bonus = ["player"]
    app.play.continue_game()
    assert isinstance(app.view(), TurnView)
    app.handle(Input.SELECT)  # Advance (the cursor starts on it)
    view = app.view()
    assert isinstance(view, StepView) and view.number == 1 and view.total >= 2
    return app


def _menu_labels(app):
    view = app.view()
    assert isinstance(view, MenuView)
    return [item.label for item in view.items]


def _choose(app, label):
    view = app.view()
    for _ in range(view.selected, _menu_labels(app).index(label)):
        app.handle(Input.NEXT)
    app.handle(Input.SELECT)


def _cards_until_the_automa(app):
    """The headlines of every card shown, pressing through them to the Automa's turn."""
    told = []
    while isinstance(view := app.view(), StepView):
        told.append(view.lines[0])
        app.handle(Input.SELECT)
    return told


def _told_every_step_of_the_advance(told):
    assert any("28" in line and "6" in line for line in told), told  # to 28, 6 buttons
    assert any("26" in line for line in told), told  # the leather patch on 26


@pytest.mark.parametrize("wanted", MENU_ACTIONS)
def test_the_menu_on_a_card_cannot_skip_the_cards_still_due(tmp_path, wanted):
    app = _app_on_the_first_card(tmp_path)
    app.handle(Input.BACK)  # the game menu, on card 1
    labels = _menu_labels(app)
    if wanted in labels:  # offered here, it must not lose the advance's cards
        _choose(app, wanted)
        if wanted == "Correct buttons":
            app.handle(Input.NEXT)  # +1
            app.handle(Input.SELECT)
    else:
        _choose(app, "Back to the game")
    _told_every_step_of_the_advance(_cards_until_the_automa(app))


def test_the_claim_waits_for_the_cards_and_is_offered_right_after(tmp_path):
    app = _app_on_the_first_card(tmp_path)
    app.handle(Input.BACK)
    assert "Claim 7x7 bonus" not in _menu_labels(app)
    _choose(app, "Back to the game")
    while isinstance(app.view(), StepView):
        app.handle(Input.SELECT)
    # The Automa on 27 behind the player on 28 moves next: its turn, then the player's.
    while not isinstance(app.view(), TurnView):
        app.handle(Input.SELECT)
    assert app.game.bonus_holder is None
    app.handle(Input.BACK)
    _choose(app, "Claim 7x7 bonus")
    assert isinstance(app.view(), StepView)
    app.handle(Input.SELECT)
    assert app.game.bonus_holder == "player"


def test_cards_due_hold_across_a_restart(tmp_path):
    """The menu asks `cards_due`, read from the store as a restart does."""
    session = GameSession(Store(tmp_path))
    session.start(solo_game().setup)
    session.play(ADVANCE)
    assert GameSession(session.store).cards_due()  # a power cut on the advance's card
    session.acknowledge()
    session.save()
    assert not GameSession(session.store).cards_due()


def test_an_undo_s_reverse_cards_are_cards_due(tmp_path):
    """An undo's reverse steps are due too: the advance confirmed, then undone, its token
    must be put back before a claim or a correction; confirmed, nothing is due."""
    session = GameSession(Store(tmp_path))
    session.start(solo_game().setup)
    session.play(ADVANCE)
    session.acknowledge()
    assert session.undo() is not None  # the advance's reverse steps, shown on cards
    assert GameSession(session.store).cards_due()
    session.undo_confirmed()
    session.save()
    assert not GameSession(session.store).cards_due()
