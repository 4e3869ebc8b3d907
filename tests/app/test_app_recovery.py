"""Starting up on a damaged journal or settings file: the player is told, nothing is lost."""

from helpers import damage_line_4, started_game

from companion.app.companion import Companion
from companion.inputs.events import Input
from companion.render.screens import render_canvas
from companion.views import MenuView, QuestionView, ScreenKind, TextView, TurnView


def test_a_torn_last_line_is_dropped_with_a_notice_and_the_game_resumes(tmp_path):
    app = started_game(tmp_path)
    state = app.game.state()
    journal = tmp_path / "journal.jsonl"
    with journal.open("ab") as file:
        file.write(b'{"action": "buy", "ind')  # the power went during this write
    resumed = Companion(tmp_path)
    view = resumed.view()
    assert isinstance(view, TextView) and "power" in " ".join(view.lines)
    assert render_canvas(view).overflows == []
    resumed.handle(Input.SELECT)
    assert isinstance(resumed.view(), TurnView)
    assert resumed.game.state() == state


def test_a_damaged_journal_is_kept_and_its_valid_part_offered_on_screen(tmp_path, caplog):
    game, actions, damaged = damage_line_4(tmp_path)
    app = Companion(tmp_path)
    view = app.view()
    assert isinstance(view, TextView)
    assert render_canvas(view).overflows == []
    kept = list(tmp_path.glob("journal-damaged-*.jsonl"))
    assert len(kept) == 1 and kept[0].read_bytes() == damaged
    # The screen names the copy kept (a long name is broken over lines); the log, in
    # English, which line was bad.
    assert kept[0].name in "".join(view.lines) and "damaged" in view.lines[0]
    assert "line 4" in caplog.text
    assert not (tmp_path / "journal.jsonl").exists() and app.game is None
    app.handle(Input.SELECT)
    offer = app.view()
    assert isinstance(offer, QuestionView) and offer.kind is ScreenKind.RESUME_DAMAGED
    assert " ".join(offer.lines) == f"Resume from action 2 of {actions}?"
    assert render_canvas(offer).overflows == []
    app.handle(Input.SELECT)  # yes, resume (and the Automa plays on if it is its turn)
    assert app.game.move_stack[:2] == game.move_stack[:2]
    # Journalled anew: a restart finds the same two actions, and no notice.
    again = Companion(tmp_path)
    assert again.game.state() == app.game.state() and not isinstance(again.view(), TextView)


def test_the_offer_can_be_declined_for_a_clean_start(tmp_path):
    damage_line_4(tmp_path)
    app = Companion(tmp_path)
    app.handle(Input.SELECT)  # the notice
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)  # no, start clean
    home = app.view()
    assert isinstance(home, MenuView) and home.kind is ScreenKind.HOME and app.game is None
    assert len(list(tmp_path.glob("journal-damaged-*.jsonl"))) == 1


def test_an_unreadable_journal_is_kept_named_on_screen_and_why_in_the_log(tmp_path, caplog):
    started_game(tmp_path)
    (tmp_path / "journal.jsonl").write_bytes(b"not a journal\n")
    app = Companion(tmp_path)
    view = app.view()
    [kept] = tmp_path.glob("journal-damaged-*.jsonl")
    assert kept.read_bytes() == b"not a journal\n"
    assert isinstance(view, TextView) and kept.name in "".join(view.lines)
    assert render_canvas(view).overflows == []
    assert "line 1" in caplog.text  # the screen's words say what, the log which line
    app.handle(Input.SELECT)
    assert app.view().kind is ScreenKind.HOME and app.game is None


def test_bad_settings_are_refused_with_one_line_and_defaults_used(tmp_path, caplog):
    (tmp_path / "settings.json").write_text('{"contrast": "high"}')
    app = Companion(tmp_path)
    view = app.view()
    assert isinstance(view, TextView)
    assert "defaults" in " ".join(view.lines) and view.pages == 1
    assert "'contrast'" in caplog.text
    assert render_canvas(view).overflows == []
    assert app.settings.contrast == 128
    assert list(tmp_path.glob("settings-damaged-*.json"))


def test_a_directory_named_as_a_temporary_file_does_not_stop_the_start(tmp_path, caplog):
    # Loading removes a write's temporaries; one it cannot remove (a directory of that
    # name here, a read-only card on the device) is left and logged, and the game resumes.
    app = started_game(tmp_path)
    state = app.game.state()
    for name in (".journal.jsonl.x1.tmp", ".progress.json.x2.tmp"):
        (tmp_path / name).mkdir()
    resumed = Companion(tmp_path)
    assert isinstance(resumed.view(), TurnView)
    assert resumed.game.state() == state
    assert "cannot remove" in caplog.text and ".progress.json.x2.tmp" in caplog.text
