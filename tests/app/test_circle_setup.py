"""Laying out the patch circle: dealt by the companion, or entered by the player."""

import itertools
import random

from companion.app.companion import Companion
from companion.engine.catalogue import PATCHES
from companion.inputs.events import Input
from companion.testing.autoplay import enter_circle
from companion.views import DealView, PickPatchView, ScreenKind, TurnView


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
    """A game saved when one patch was dealt a screen: place 11 is on the second screen."""
    app = new_app(tmp_path)
    to_the_circle_menu(app)
    app.handle(Input.SELECT)
    app.session.deal_at(10)
    app.session.save()
    resumed = new_app(tmp_path)
    assert isinstance(resumed.view(), DealView) and resumed.view().first == 9


def to_the_circle_entry(app):
    to_the_circle_menu(app)
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)  # "I laid it out"
    assert isinstance(app.view(), PickPatchView)


def test_entering_starts_on_the_cost_that_needs_the_fewest_turns(tmp_path):
    app = new_app(tmp_path)
    to_the_circle_entry(app)
    # The 32 patches after P00 cost 0 (1 patch), 1 (5), 2 (6), 3 (5), 4 (3), 5 (3), 6 (1),
    # 7 (4), 8 (1) and 10 (3): ten costs and the way back, 11 choices. Weighted by the
    # patches, turning from cost 3 takes 67 turns for all 32, from 2 68, from 4 72.
    view = app.view()
    assert (view.number, view.choices, view.selected, view.cost, view.picking) == (
        1, 11, 3, 3, False,
    )  # fmt: skip
    assert [p.patch_id for p in view.patches] == ["P13", "P14", "P15", "P16", "P17"]
    assert view.back_label == "Back to set-up"


def test_a_cost_with_one_patch_places_it_at_once_else_the_patch_is_picked(tmp_path):
    app = new_app(tmp_path)
    to_the_circle_entry(app)
    for _ in range(3):
        app.handle(Input.PREVIOUS)
    assert app.view().cost == 0 and [p.patch_id for p in app.view().patches] == ["P01"]
    app.handle(Input.SELECT)
    assert app.session.progress.entering.placed == ["P01"] and app.view().number == 2
    while app.view().cost != 2:
        app.handle(Input.PREVIOUS)
    app.handle(Input.SELECT)
    view = app.view()
    assert view.picking and view.selected == 0 and view.choices == 7  # P07-P12, back
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)  # P08
    assert app.session.progress.entering.placed == ["P01", "P08"]
    assert app.view().number == 3 and not app.view().picking


def test_the_last_choices_go_back_to_the_costs_and_undo_a_place(tmp_path):
    app = new_app(tmp_path)
    to_the_circle_entry(app)
    app.handle(Input.SELECT)  # cost 3: five patches
    app.handle(Input.PREVIOUS)  # wraps to the back choice
    assert app.view().back_label == "Other cost" and app.view().selected == 5
    app.handle(Input.SELECT)
    assert not app.view().picking and app.view().cost == 3  # back on the cost it left
    app.handle(Input.SELECT)
    app.handle(Input.SELECT)  # P13 at place 1
    while app.view().cost is not None:
        app.handle(Input.NEXT)
    assert app.view().back_label == "Undo place 1"
    app.handle(Input.SELECT)
    assert app.session.progress.entering.placed == [] and app.view().number == 1
    # A restart resumes the entry where it was (on the costs, at their start).
    assert new_app(tmp_path).view() == app.view()
    while app.view().cost is not None:
        app.handle(Input.NEXT)
    app.handle(Input.SELECT)  # "Back to set-up"
    assert app.view().kind is ScreenKind.HOME


def test_a_whole_circle_entered_by_hand_is_the_game_s_circle(tmp_path):
    app = new_app(tmp_path)
    to_the_circle_entry(app)
    circle = [patch.id for patch in PATCHES if patch.id != "P00"]
    random.Random(5).shuffle(circle)
    enter_circle(app, circle)
    assert isinstance(app.view(), TurnView)
    assert app.game.setup.circle == (*circle, "P00")
