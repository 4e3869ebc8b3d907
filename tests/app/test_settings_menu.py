"""The settings menu: the cursor stays on the row changed; no choice is refused, and
nothing the player reads names the file's keys."""

import dataclasses
import itertools

from companion.app.companion import Companion
from companion.app.settings_menu import CONTRASTS
from companion.inputs.events import Input
from companion.storage.settings import Settings
from companion.views import MenuView, NumberView, ScreenKind

KEYS = [field.name for field in dataclasses.fields(Settings)]


def settings_menu(tmp_path):
    app = Companion(tmp_path, itertools.count(1).__next__)
    # Home without a game: New solo game, New two-player game, Statistics, Settings.
    for item in (Input.NEXT, Input.NEXT, Input.NEXT, Input.SELECT):
        app.handle(item)
    assert app.view().kind is ScreenKind.SETTINGS
    return app


def go_to(app, row):
    for _ in range(row - app.view().selected):
        app.handle(Input.NEXT)


def texts(view):
    """Everything a screen writes."""
    return [value for value in dataclasses.astuple(view) if isinstance(value, str)] + [
        text for item in getattr(view, "items", ()) for text in (item.label, item.detail)
    ]


def test_after_a_change_the_cursor_stays_on_the_row_changed(tmp_path):
    app = settings_menu(tmp_path)
    go_to(app, 1)  # Dim after, 1 min by default
    app.handle(Input.SELECT)
    app.handle(Input.NEXT)  # 2 min
    app.handle(Input.SELECT)
    view = app.view()
    assert view.kind is ScreenKind.SETTINGS and view.selected == 1
    assert view.items[1].detail == "2 min" and app.settings.dim_after_s == 120
    app.handle(Input.NEXT)
    app.handle(Input.NEXT)  # Rotation
    app.handle(Input.SELECT)
    assert app.view().selected == 3 and app.view().items[3].detail == "180 deg"


def test_leaving_a_choice_unchanged_comes_back_to_its_row(tmp_path):
    app = settings_menu(tmp_path)
    go_to(app, 2)
    app.handle(Input.SELECT)
    app.handle(Input.BACK)
    assert app.view().selected == 2 and app.settings == Settings()


def test_contrast_turns_in_steps_of_16_and_back_to_the_default(tmp_path):
    app = settings_menu(tmp_path)
    app.handle(Input.SELECT)
    assert app.view() == NumberView("Settings", "Contrast", "128", "turn: change  press: ok")
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)
    assert app.settings.contrast == 144 and app.view().selected == 0
    app.handle(Input.SELECT)
    app.handle(Input.PREVIOUS)  # the default is a step, not a value only kept while chosen
    assert app.view().value == "128"
    app.handle(Input.SELECT)
    assert app.settings.contrast == 128


def test_contrast_reaches_both_ends_of_the_panel(tmp_path):
    app = settings_menu(tmp_path)
    app.handle(Input.SELECT)
    for _ in range(8):  # 128 is eight steps of 16 above 0
        app.handle(Input.PREVIOUS)
    assert app.view().value == "0"
    app.handle(Input.PREVIOUS)  # wraps round to the brightest
    assert app.view().value == "255"


def test_dimming_offers_only_times_up_to_blanking_and_says_why(tmp_path):
    app = settings_menu(tmp_path)
    go_to(app, 1)
    app.handle(Input.SELECT)
    # Blanking at 5 min: dimming can be never, 15 s, 30 s, 1 min, 2 min or 5 min.
    assert app.view().label == "Dim after (blank: 5 min)"
    seen = []
    for _ in range(6):
        seen.append(app.view().value)
        app.handle(Input.NEXT)
    assert seen == ["1 min", "2 min", "5 min", "never", "15 s", "30 s"]
    assert app.view().value == "1 min"  # round


def test_every_choice_of_every_setting_is_taken_and_no_key_is_ever_shown(tmp_path):
    app = settings_menu(tmp_path)
    for row in range(3):
        go_to(app, row)
        for _ in range(len(CONTRASTS) + 1):  # once round the longest list
            app.handle(Input.SELECT)
            assert not any(key in text for text in texts(app.view()) for key in KEYS)
            app.handle(Input.NEXT)
            app.handle(Input.SELECT)
            view = app.view()
            assert not any(key in text for text in texts(view) for key in KEYS), view
            # Taken at once: back on the menu, on the same row, never a refusal.
            assert isinstance(view, MenuView) and view.selected == row, view
