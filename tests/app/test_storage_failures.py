"""A full, read-only or refusing card, met by the app driven through its inputs.

Real failures where the machine allows: a tiny tmpfs mounted for the test
(root only; skipped otherwise), filled up, or mounted read-only before the
start (a file system with the database open for writing cannot be remounted);
a refusal injected at the store's write otherwise. The device must keep
running, say on screen that the action was not saved and why, never show it
as done, and save again once the card allows it.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from helpers import damaged_database, read_only, solo_game, started_game

from companion.app.companion import Companion
from companion.app.session import GameSession
from companion.inputs.events import Input
from companion.render.screens import render_canvas
from companion.storage.paths import write_problem
from companion.testing.autoplay import inputs_for, random_choice, start_game
from companion.text.language import LANGUAGE_NAMES, msg, words_for
from companion.views import QuestionView, ScreenKind, TextView, TurnView


def fill(directory: Path) -> Path:
    """Fill the file system of `directory` to the last byte; returns the filler file."""
    filler = directory / "filler"
    with filler.open("wb", buffering=0) as handle:
        with contextlib.suppress(OSError):
            while True:
                handle.write(b"\0" * 4096)
        with contextlib.suppress(OSError):
            while True:
                handle.write(b"\0")
    return filler


def press_to_play(app: Companion) -> None:
    for item in inputs_for(app.view(), random_choice(random.Random(1)), random.Random(1)):
        app.handle(item)


def shown_text(app: Companion) -> str:
    view = app.view()
    assert isinstance(view, TextView), view
    return " ".join(view.lines)


def stored_state(app: Companion) -> dict | None:
    """The game the store holds, as a restart would find it."""
    game = GameSession(app.store).game
    return game.state() if game else None


def assert_not_saved(app: Companion, before: dict | None, moves: int, why: str) -> None:
    text = shown_text(app)
    assert "not saved" in text.lower() and why in text
    assert stored_state(app) == before
    assert len(app.game.move_stack) == moves  # not shown as done, not kept in memory
    app.handle(Input.SELECT)
    assert isinstance(app.view(), TurnView)  # back on the same turn, still running


def play_until_refused(app: Companion, presses: int = 2000) -> None:
    """Play on; every action shown as done must be stored, until one is refused."""
    rng = random.Random(1)
    choose = random_choice(rng)
    for _ in range(presses):
        view = app.view()
        if isinstance(view, TextView) and "not saved" in " ".join(view.lines).lower():
            return
        moves = len(app.game.move_stack)
        for item in inputs_for(view, choose, rng):
            app.handle(item)
            if isinstance(app.view(), TextView):
                break
        if isinstance(app.view(), TextView):
            assert len(app.game.move_stack) == moves
        else:  # whatever the screen shows as done is stored
            assert stored_state(app) == app.game.state()
    raise AssertionError("no action was refused")


def test_a_full_card_refuses_the_action_says_so_and_saves_again_once_freed(small_fs):
    state = small_fs / "state"
    app = started_game(state, turns=3)
    filler = fill(small_fs)
    play_until_refused(app)
    text = shown_text(app)
    assert "not saved" in text.lower() and "the card is full" in text
    assert text.endswith(FULL_ADVICE) and "Restart" not in text
    before, moves = stored_state(app), len(app.game.move_stack)
    app.handle(Input.SELECT)  # still running: the turn again, or the Automa's turn retried
    assert isinstance(app.view(), (TurnView, TextView))
    assert stored_state(app) == before and len(app.game.move_stack) == moves
    filler.unlink()
    for _ in range(5):
        press_to_play(app)
    assert len(app.game.move_stack) > moves
    assert stored_state(app) == app.game.state()


def files_in(directory: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in directory.iterdir() if path.is_file()}


def notices_then_home(app: Companion) -> list[str]:
    """The notices the start shows, each dismissed, up to the first menu."""
    shown = []
    while isinstance(app.view(), TextView):
        shown.append(shown_text(app))
        app.handle(Input.SELECT)
    return shown


def test_a_card_gone_read_only_that_still_takes_writes_refuses_the_next_action(
    tmp_path, monkeypatch
):
    # ext4 with errors=remount-ro after an error: the mount is read-only, yet a write
    # into the page cache and its fsync may still return success. Only the mount flag
    # tells; the real event is the virtual Pi's (scripts/virtual-pi.sh).
    app = started_game(tmp_path / "state", turns=3)
    before, moves = stored_state(app), len(app.game.move_stack)
    statvfs = os.statvfs

    def gone_read_only(path):
        found = statvfs(path)
        return os.statvfs_result((*found[:8], found.f_flag | os.ST_RDONLY, *found[9:]))

    monkeypatch.setattr(os, "statvfs", gone_read_only)
    play_until_refused(app)
    assert shown_text(app).endswith(READ_ONLY_ADVICE)
    assert_not_saved(app, before, moves, "the card is read-only")


FULL_ADVICE = "Free space on the card, then try again."
READ_ONLY_ADVICE = "Restart the device; if the card stays read-only, replace it."
"""A read-only card is not helped by freeing space: ext4 set it read-only after an error,
and only a restart (with its check of the card) or another card writes again."""
SHUT_DOWN_ADVICE = "Restart the device; if this happens again, replace the card."
"""A card Linux shut down after an error (EIO on every read and write) is restarted too."""


def test_a_database_sqlite_refuses_as_read_only_is_told_as_a_read_only_card(tmp_path):
    # SQLite's "attempt to write a readonly database" (SQLITE_READONLY), as a card that
    # went read-only under an open database gives it, on a directory that still takes a
    # write: the store's reason is SQLite's, the advice a read-only card's.
    app = started_game(tmp_path / "state", turns=3)
    before, moves = stored_state(app), len(app.game.move_stack)
    app.store.query("PRAGMA query_only = 1")
    play_until_refused(app)
    assert shown_text(app) == f"The action was not saved: the card is read-only. {READ_ONLY_ADVICE}"
    assert_not_saved(app, before, moves, "the card is read-only")


def test_a_damaged_database_on_a_read_only_card_is_left_as_it_is_and_the_device_runs(small_fs):
    # It could be neither read nor moved aside: the device runs on without saving, says
    # why, and refuses a new game rather than write over it.
    state = small_fs / "state"
    damaged = damaged_database(state)
    before = files_in(state)
    with read_only(small_fs):
        app = Companion(state, cannot_save=write_problem(state))
        nothing_saved, left_as_it_is = notices_then_home(app)
        assert "the card is read-only" in nothing_saved
        assert "neither read nor set aside" in left_as_it_is
        assert app.view().kind is ScreenKind.HOME and app.game is None
        start_game(app, True, False, random.Random(1))  # a new game is refused, not begun
        assert "not saved" in shown_text(app).lower() and app.game is None
        app.store.close()
        assert files_in(state) == before
    # Writable again, the next start keeps the damaged file aside and starts afresh.
    app = Companion(state)
    [kept] = state.glob("companion-damaged-*.db")
    assert kept.read_bytes() == damaged and app.game is None


def test_a_claim_of_the_7x7_tile_the_card_refuses_asks_the_question_again(tmp_path, monkeypatch):
    """The question counts as asked only with the claim, in its transaction: a claim
    refused here (or cut by a power cut) leaves the question to be asked again."""
    app = Companion(tmp_path, itertools.count(1).__next__)
    app.session.start(solo_game().setup)
    app.game.sides["player"].covered = 50  # reached 49 with this buy: ask now
    app.play.continue_game()
    assert app.view().kind is ScreenKind.BONUS_QUESTION
    monkeypatch.setattr(app.store, "save", card_full)
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)  # Yes, claim it
    assert "not saved" in shown_text(app)
    app.handle(Input.SELECT)
    view = app.view()
    assert isinstance(view, QuestionView) and view.kind is ScreenKind.BONUS_QUESTION
    monkeypatch.undo()
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)
    assert app.game.bonus_holder == "player"
    # The covered squares were set by hand, so the game cannot be replayed: its rows.
    [(last,)] = app.store.query("SELECT line FROM moves ORDER BY number DESC LIMIT 1")
    assert '"claim_bonus"' in last


def card_full(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_setting_the_card_refuses_is_not_kept(tmp_path, monkeypatch):
    app = Companion(tmp_path, itertools.count(1).__next__)
    for item in (Input.NEXT, Input.NEXT, Input.NEXT, Input.SELECT):  # Settings
        app.handle(item)
    assert app.view().kind is ScreenKind.SETTINGS
    monkeypatch.setattr(os, "replace", card_full)
    app.handle(Input.NEXT)  # Dim after, 1 min
    app.handle(Input.SELECT)
    app.handle(Input.NEXT)  # 2 min
    app.handle(Input.SELECT)
    assert "not saved" in shown_text(app)
    assert app.settings.dim_after_s == 60 and not (tmp_path / "settings.json").exists()
    app.handle(Input.SELECT)
    assert app.view().kind is ScreenKind.SETTINGS
    monkeypatch.undo()
    for _ in range(1 - app.view().selected):
        app.handle(Input.NEXT)
    app.handle(Input.SELECT)
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)
    assert app.settings.dim_after_s == 120 and "120" in (tmp_path / "settings.json").read_text()


def test_a_game_the_card_cannot_set_aside_is_kept_in_progress(tmp_path, monkeypatch):
    app = started_game(tmp_path, turns=3)
    before, moves = stored_state(app), len(app.game.move_stack)
    app.home()
    monkeypatch.setattr(app.store, "end", card_full)
    app.handle(Input.SELECT if app.view().items[0].label == "New solo game" else Input.NEXT)
    while app.view().kind is not ScreenKind.ABANDON_GAME:
        app.handle(Input.SELECT)
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)  # yes, abandon it
    assert "not saved" in shown_text(app)
    assert stored_state(app) == before and len(app.game.move_stack) == moves
    assert app.store.query("SELECT count(*) FROM games") == [(0,)]
    app.handle(Input.SELECT)
    assert app.view().kind is ScreenKind.HOME


def test_an_entered_circle_the_card_refuses_is_offered_again(tmp_path, monkeypatch):
    rng = random.Random(2)
    app = Companion(tmp_path, itertools.count(1).__next__)
    start_game(app, True, True, rng)
    monkeypatch.setattr(app.store, "start", card_full)
    choose = random_choice(rng)
    while not isinstance(app.view(), TextView):  # lay the whole circle
        for item in inputs_for(app.view(), choose, rng):
            app.handle(item)
    assert "not saved" in shown_text(app) and app.game is None
    placed = list(app.session.progress.entering.placed)
    assert placed
    app.handle(Input.SELECT)
    assert not isinstance(app.view(), TextView)  # the circle again, as it was laid
    assert app.session.progress.entering.placed == placed
    monkeypatch.undo()
    while app.game is None and not isinstance(app.view(), TextView):
        for item in inputs_for(app.view(), choose, rng):
            app.handle(item)
    assert app.game is not None and stored_state(app) == app.game.state()


def simulate(state: Path, script: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The simulation run on `state` to the end of `script`, from a file beside the small
    file system (which may be full or read-only); `cwd`: run there, `state` named
    relative to it."""
    path = state.parent.parent / "script.txt"
    path.write_text(script)
    named = state.relative_to(cwd) if cwd else state
    return subprocess.run(
        [sys.executable, "-m", "companion", "simulate", "--script", str(path)]
        + ["--state-dir", str(named), "--seed", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=cwd,
    )


def test_the_simulation_runs_on_a_full_card_to_the_end_of_its_script(small_fs):
    state = small_fs / "state"
    state.mkdir()
    fill(small_fs)
    done = simulate(state, "select\n" * 80)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_the_simulation_starts_on_a_read_only_card(small_fs):
    # The log file cannot be opened there: the game is still shown, and nothing written.
    state = small_fs / "state"
    app = started_game(state, turns=3)
    moves = len(app.game.move_stack)
    app.store.close()
    before = files_in(state)
    with read_only(small_fs):
        done = simulate(state, "select\n" * 20)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "unexpected" not in done.stderr
    assert f"not logging to {state / 'companion.log'}: Read-only file system" in done.stderr
    assert json.loads(done.stdout)["actions"] == moves
    assert files_in(state) == before


def test_the_simulation_starts_on_a_read_only_card_named_relative_to_where_it_runs(small_fs):
    state = small_fs / "state"
    app = started_game(state, turns=3)
    moves = len(app.game.move_stack)
    app.store.close()
    with read_only(small_fs):
        done = simulate(state, "select\n", cwd=small_fs.parent)
    assert done.returncode == 0, done.stderr
    assert "unexpected" not in done.stderr
    assert json.loads(done.stdout)["actions"] == moves


def test_every_line_said_on_a_read_only_card_names_the_program(small_fs):
    # What the store says before the simulation sets up its logging goes through
    # logging's last resort: it names the program, as every other line does.
    state = small_fs / "state"
    state.mkdir()
    with read_only(small_fs):
        done = simulate(state, "select\n")
    lines = done.stderr.splitlines()
    assert any(f"{state / 'companion.db'}: cannot be opened" in line for line in lines)
    assert all(line.startswith("patchwork-companion simulate: ") for line in lines), lines


def test_the_simulation_runs_on_a_read_only_card_beside_a_damaged_database(small_fs):
    state = small_fs / "state"
    damaged_database(state)
    before = files_in(state)
    with read_only(small_fs):
        done = simulate(state, "select\n" * 5)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert json.loads(done.stdout) is None  # no game: the damaged one is not played
    assert files_in(state) == before


def test_the_full_read_only_and_shut_down_notices_are_drawn_whole_in_every_language(tmp_path):
    for code in LANGUAGE_NAMES:
        (tmp_path / "settings.json").write_text(json.dumps({"language": code}))
        app = Companion(tmp_path)
        words = words_for(code)
        told = {}
        for number in (errno.ENOSPC, errno.EROFS, errno.EIO):
            app.not_saved(msg("The action"), OSError(number, os.strerror(number)), app.home)
            pages = []
            while isinstance(app.view(), TextView):  # every page, pressed through
                assert render_canvas(app.view()).overflows == [], code
                pages.append(shown_text(app))
                app.handle(Input.SELECT)
            told[number] = " ".join(pages)
        assert told[errno.ENOSPC].endswith(words(FULL_ADVICE)), code
        assert told[errno.EROFS].endswith(words(READ_ONLY_ADVICE)), code
        assert words(FULL_ADVICE) not in told[errno.EROFS], code
        # A card Linux shut down (EIO on every read and write) is restarted too.
        assert told[errno.EIO].endswith(words(SHUT_DOWN_ADVICE)), code
