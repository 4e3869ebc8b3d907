"""Laying out the patch circle: dealt by the companion, or entered by the player."""

import itertools

from companion.app.companion import Companion
from companion.inputs.events import Input
from companion.views import DealView, ScreenKind, TurnView


def new_app(tmp_path, seed=1):
    return Companion(tmp_path, itertools.count(seed).__next__)


def to_the_circle_menu(app):
    """Home: New solo game, Fellow (preselected), normal deck: the circle menu."""
    for item in (Input.SELECT, Input.SELECT, Input.SELECT):
        app.handle(item)
    assert app.view().kind is ScreenKind.CIRCLE


def test_a_dealt_circle_is_laid_out_in_four_presses_eight_patches_a_screen(tmp_path):
    app = new_app(tmp_path)
    to_the_circle_menu(app)
    app.handle(Input.SELECT)  # "Deal it for me"
    circle = app.game.setup.circle
    shown, presses = [], 0
    while isinstance(view := app.view(), DealView):
        # Places are numbered from 1 after P00; every screen continues the last.
        assert view.first == len(shown) + 1 and view.total == 32
        shown += [patch.patch_id for patch in view.patches]
        app.handle(Input.SELECT)
        presses += 1
    # 32 places after P00 at 8 a screen: 4 screens, one press each, then the first turn.
    assert presses == 4
    assert isinstance(app.view(), TurnView)
    # Every place shown once, in the circle's order (P00 itself is laid first, not shown).
    assert tuple(shown) == circle[:32] and circle[32] == "P00"


def test_dealing_turns_back_a_screen_and_a_restart_comes_back_to_the_same_screen(tmp_path):
    app = new_app(tmp_path)
    to_the_circle_menu(app)
    app.handle(Input.SELECT)
    circle = app.game.setup.circle
    app.handle(Input.SELECT)
    app.handle(Input.SELECT)
    assert app.view().first == 17
    app.handle(Input.PREVIOUS)
    assert app.view().first == 9
    assert [p.patch_id for p in app.view().patches] == list(circle[8:16])
    app.handle(Input.BACK)
    app.handle(Input.BACK)  # on the first screen, back stays there
    assert app.view().first == 1
    app.handle(Input.NEXT)
    assert new_app(tmp_path).view() == app.view()


def test_a_place_saved_mid_screen_resumes_on_the_screen_holding_it(tmp_path):
    """A journal from when one patch was dealt a screen: place 11 is on the second screen."""
    app = new_app(tmp_path)
    to_the_circle_menu(app)
    app.handle(Input.SELECT)
    app.session.deal_at(10)
    resumed = new_app(tmp_path)
    assert isinstance(resumed.view(), DealView) and resumed.view().first == 9
