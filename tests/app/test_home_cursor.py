"""Back on the home menu from Statistics or Settings, the cursor is on the entry left:
from the top, one turn too many lands on a new game and its abandon question."""

import itertools

import pytest

from companion.app.companion import Companion
from companion.inputs.events import Input
from companion.views import MenuView, ScreenKind

# Home without a game: New solo game, New two-player game, Statistics, Settings.
STATISTICS, SETTINGS = 2, 3


def home_view(app):
    view = app.view()
    assert isinstance(view, MenuView) and view.kind is ScreenKind.HOME, view
    return view


@pytest.mark.parametrize("leave", [Input.SELECT, Input.BACK])
def test_back_from_statistics_is_on_statistics(tmp_path, leave):
    app = Companion(tmp_path, itertools.count(1).__next__)
    for item in (Input.NEXT, Input.NEXT, Input.SELECT, leave):
        app.handle(item)
    assert home_view(app).selected == STATISTICS


@pytest.mark.parametrize("leave", ["back entry", Input.BACK, Input.HOLD])
def test_back_from_settings_is_on_settings(tmp_path, leave):
    app = Companion(tmp_path, itertools.count(1).__next__)
    for item in (Input.PREVIOUS, Input.SELECT):
        app.handle(item)
    if leave == "back entry":  # the settings' last row
        app.handle(Input.PREVIOUS)
        app.handle(Input.SELECT)
    else:
        app.handle(leave)
    assert home_view(app).selected == SETTINGS


def test_the_home_menu_opens_on_its_first_entry(tmp_path):
    app = Companion(tmp_path, itertools.count(1).__next__)
    assert home_view(app).selected == 0
