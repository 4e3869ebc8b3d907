"""The language setting: chosen in Settings or at the first start, kept in settings.json,
and every word on screen changes at once."""

from __future__ import annotations

import errno
import json

from companion.app import settings_menu
from companion.app.companion import Companion
from companion.inputs.events import Input
from companion.render.screens import render_canvas
from companion.text.language import LANGUAGE_NAMES, words_for
from companion.views import MenuView, ScreenKind, TextView


def press(app: Companion, *inputs: Input) -> None:
    for event in inputs:
        app.handle(event)


def open_settings(app: Companion) -> None:
    press(app, Input.NEXT, Input.NEXT, Input.NEXT, Input.SELECT)  # home: the fourth entry
    assert app.view().kind is ScreenKind.SETTINGS


def choose_language(app: Companion, steps: int) -> None:
    """From the settings menu, open Language and turn `steps` entries down from English."""
    menu = app.view()
    language = next(i for i, item in enumerate(menu.items) if item.label == "Language")
    press(app, *[Input.NEXT] * language, Input.SELECT)
    assert app.view().kind is ScreenKind.LANGUAGE
    press(app, *[Input.NEXT] * steps, Input.SELECT)


def test_choosing_polish_in_settings_changes_every_word_and_is_kept(tmp_path):
    app = Companion(tmp_path)
    open_settings(app)
    choose_language(app, 2)  # en, ru, pl
    menu = app.view()
    assert menu.kind is ScreenKind.SETTINGS and menu.title == "Ustawienia"
    assert ("Język", "Polski") in [(item.label, item.detail) for item in menu.items]
    assert json.loads((tmp_path / "settings.json").read_text())["language"] == "pl"
    app.home()
    assert [item.label for item in app.view().items] == [
        "Nowa gra solo",
        "Nowa gra dla dwóch",
        "Statystyki",
        "Ustawienia",
    ]
    # A restart speaks Polish from the first screen.
    again = Companion(tmp_path, ask_language=True)
    assert again.view().kind is ScreenKind.HOME and again.view().items[2].label == "Statystyki"


def test_statistics_and_their_hint_are_in_the_language(tmp_path):
    (tmp_path / "settings.json").write_text('{"language": "ru"}')
    app = Companion(tmp_path)
    press(app, Input.NEXT, Input.NEXT, Input.SELECT)
    page = app.view()
    assert isinstance(page, TextView)
    assert (page.title, page.lines[0], page.footer) == (
        "Статистика",
        "Законченных игр пока нет.",
        "нажать: назад",
    )


def test_the_first_start_asks_the_language_each_named_in_itself(tmp_path):
    app = Companion(tmp_path, ask_language=True)
    menu = app.view()
    assert isinstance(menu, MenuView) and menu.kind is ScreenKind.LANGUAGE
    assert [item.label for item in menu.items] == [
        "English",
        "Русский",
        "Polski",
        "Čeština",
        "한국어",
    ]
    # The title is "Language" in the language under the cursor.
    assert menu.title == "Language"
    press(app, Input.PREVIOUS)
    assert app.view().title == "언어"
    press(app, Input.SELECT)
    home = app.view()
    assert home.kind is ScreenKind.HOME and home.title == "패치워크"
    assert json.loads((tmp_path / "settings.json").read_text())["language"] == "ko"
    # Asked once: the next start goes straight home.
    assert Companion(tmp_path, ask_language=True).view().kind is ScreenKind.HOME


def test_the_first_start_question_can_be_left_in_english(tmp_path):
    app = Companion(tmp_path, ask_language=True)
    press(app, Input.BACK)
    assert app.view().kind is ScreenKind.HOME and app.view().title == "Patchwork"


def test_an_unknown_language_in_the_file_is_one_line_and_the_file_is_kept(tmp_path, caplog):
    (tmp_path / "settings.json").write_text('{"language": "de"}')
    app = Companion(tmp_path, ask_language=True)
    assert app.settings.language == "en"
    (kept,) = tmp_path.glob("settings-damaged-*.json")
    assert json.loads(kept.read_text()) == {"language": "de"}
    assert "'language' must be one of en, ru, pl, cs, ko, not 'de'" in caplog.text
    # The file was set aside, so this is a first start again: the language is asked,
    # and what was wrong is told in the language chosen (Polish, the third).
    assert app.view().kind is ScreenKind.LANGUAGE
    press(app, Input.NEXT, Input.NEXT, Input.SELECT)
    notice = app.view()
    assert isinstance(notice, TextView) and notice.title == words_for("pl")("Note")
    told = words_for("pl")("The settings could not be read; the defaults are used.")
    assert " ".join(notice.lines) == told
    press(app, Input.SELECT)
    assert app.view().kind is ScreenKind.HOME and app.view().title == "Patchwork"
    assert app.view().items[0].label == words_for("pl")("New solo game")


def test_a_notice_is_known_by_its_kind_not_its_title_and_other_texts_are_not_notices(tmp_path):
    # Harnesses read past what the start had to say by the screen's kind: the title is in
    # the player's language ("Uwaga"), so one waiting for "Note" stopped at the notice.
    (tmp_path / "settings.json").write_text('{"language": "pl"}')
    (tmp_path / "journal.jsonl").symlink_to(tmp_path / "nowhere")
    app = Companion(tmp_path)
    notice = app.view()
    assert isinstance(notice, TextView) and notice.kind is ScreenKind.NOTICE
    assert notice.title == words_for("pl")("Note") != "Note"
    press(app, Input.SELECT)
    assert app.view().kind is ScreenKind.HOME
    press(app, Input.NEXT, Input.NEXT, Input.SELECT)  # no game: new solo, two-player, statistics
    statistics = app.view()
    assert isinstance(statistics, TextView) and statistics.title == words_for("pl")("Statistics")
    assert statistics.kind is ScreenKind.OTHER


def test_a_card_that_cannot_be_written_is_said_before_the_language_is_asked(tmp_path):
    # No choice made can be kept: the player is told before making one, in English, the
    # only language known then; what else the start found follows it.
    (tmp_path / "settings.json").write_text('{"language": "de"}')
    full = OSError(errno.ENOSPC, "No space left on device")
    app = Companion(tmp_path, cannot_save=full, ask_language=True)
    told = []
    while isinstance(app.view(), TextView):
        told.append(" ".join(app.view().lines))
        press(app, Input.SELECT)
    assert told == [
        "Nothing can be saved: the card is full.",
        "The settings could not be read; the defaults are used.",
    ]
    assert app.view().kind is ScreenKind.LANGUAGE


def test_a_first_start_language_the_card_refuses_still_leads_to_what_the_start_found(
    tmp_path, monkeypatch
):
    # The card fills between the start's check and the choice: the refusal is said, and
    # then, the language still English, the damaged settings, and home.
    (tmp_path / "settings.json").write_text('{"language": "de"}')
    app = Companion(tmp_path, ask_language=True)

    def full_card(path, settings):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(settings_menu, "save_settings", full_card)
    press(app, Input.NEXT, Input.NEXT, Input.SELECT)  # Polski
    told = []
    while isinstance(app.view(), TextView):
        told.append(" ".join(app.view().lines))
        press(app, Input.SELECT)
    assert len(told) == 2 and "not saved" in told[0] and "the card is full" in told[0]
    assert told[1] == "The settings could not be read; the defaults are used."
    assert app.view().kind is ScreenKind.HOME and app.view().title == "Patchwork"


def test_the_saved_screen_fits_one_page_in_every_language(tmp_path):
    # Left on the panel after the device stops: no knob turns a second page then.
    for code in LANGUAGE_NAMES:
        (tmp_path / "settings.json").write_text(json.dumps({"language": code}))
        saved = Companion(tmp_path).saved_view()
        assert saved.title == words_for(code)("Saved")
        assert render_canvas(saved).overflows == [], code
