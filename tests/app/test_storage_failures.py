"""A full, read-only or forbidden card, met by the app driven through its inputs.

Real failures where the machine allows: a tiny tmpfs mounted for the test
(root only; skipped otherwise), filled up, or remounted read-only; a history/
the app may not write, by a child process without the permission (root
ignores permissions: as root the child runs as nobody, through setpriv). The
app-level EACCES test injects it at the `os` call the archive makes.
The device must keep running, say on screen that the action was not saved
and why, never show it as done, and save again once the card allows it.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from helpers import damage_line_4, read_only, solo_game, started_game

from companion.app.companion import Companion
from companion.inputs.events import Input
from companion.storage.journal import Journal
from companion.storage.paths import write_problem
from companion.testing.autoplay import inputs_for, play_to_the_end, random_choice, start_game
from companion.views import QuestionView, ScreenKind, TextView, TurnView

PAGE = os.sysconf("SC_PAGE_SIZE")
"""tmpfs gives a file its space a page at a time."""


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


def assert_not_saved(app: Companion, journal: Path, before: bytes, moves: int, why: str) -> None:
    text = shown_text(app)
    assert "not saved" in text.lower() and why in text
    assert journal.read_bytes() == before
    assert len(app.game.move_stack) == moves  # not shown as done, not kept in memory
    app.handle(Input.SELECT)
    assert isinstance(app.view(), TurnView)  # back on the same turn, still running


def play_until_refused(app: Companion, journal: Path, presses: int = 400) -> None:
    """Play on; every action shown as done must be on disk, until one is refused."""
    rng = random.Random(1)
    choose = random_choice(rng)
    for _ in range(presses):
        view = app.view()
        if isinstance(view, TextView) and "not saved" in " ".join(view.lines).lower():
            return
        before, moves = journal.read_bytes(), len(app.game.move_stack)
        for item in inputs_for(view, choose, rng):
            app.handle(item)
            if isinstance(app.view(), TextView):
                break
        if isinstance(app.view(), TextView):
            assert journal.read_bytes() == before and len(app.game.move_stack) == moves
        else:  # whatever the screen shows as done is saved
            loaded = Journal(journal).load()
            assert loaded.game is not None, loaded.notice
            assert loaded.game.state() == app.game.state()
    raise AssertionError("no action was refused")


def test_a_full_card_refuses_the_action_says_so_and_saves_again_once_freed(small_fs):
    state = small_fs / "state"
    app = started_game(state, turns=3)
    journal = state / "journal.jsonl"
    # A full card still takes an append while the journal's last block has room:
    # fill that block with blank lines (which a log may have), then the card.
    with journal.open("ab") as handle:
        handle.write(b"\n" * (PAGE - journal.stat().st_size % PAGE - 8))
    filler = fill(small_fs)
    play_until_refused(app, journal)
    text = shown_text(app)
    assert "not saved" in text.lower() and "the card is full" in text
    before, moves = journal.read_bytes(), len(app.game.move_stack)
    app.handle(Input.SELECT)  # still running: the turn again, or the Automa's turn retried
    assert isinstance(app.view(), (TurnView, TextView))
    assert journal.read_bytes() == before and len(app.game.move_stack) == moves
    filler.unlink()
    for _ in range(5):
        press_to_play(app)
    assert len(app.game.move_stack) > moves
    assert Journal(journal).load().game.state() == app.game.state()


def test_a_card_remounted_read_only_mid_game(small_fs):
    state = small_fs / "state"
    app = started_game(state, turns=3)
    journal = state / "journal.jsonl"
    before, moves = journal.read_bytes(), len(app.game.move_stack)
    with read_only(small_fs):
        press_to_play(app)
        assert_not_saved(app, journal, before, moves, "the card is read-only")
    press_to_play(app)
    assert Journal(journal).load().game.state() == app.game.state()


def files_in(directory: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in directory.iterdir() if path.is_file()}


def notices_then_home(app: Companion) -> list[str]:
    """The notices the start shows, each dismissed, up to the first menu."""
    shown = []
    while isinstance(app.view(), TextView):
        shown.append(shown_text(app))
        app.handle(Input.SELECT)
    return shown


def test_a_damaged_game_on_a_read_only_card_is_left_as_it_is_and_the_device_runs(small_fs):
    # The journal could be neither replayed nor moved aside: the start raised, and the
    # device stopped with one line instead of running on without saving.
    state = small_fs / "state"
    game, _, damaged = damage_line_4(state)
    before = files_in(state)
    with read_only(small_fs):
        app = Companion(state, cannot_save=write_problem(state))
        nothing_saved, left_as_it_is = notices_then_home(app)
        assert "the card is read-only" in nothing_saved
        assert "neither read nor set aside" in left_as_it_is
        assert app.view().kind is ScreenKind.HOME and app.game is None
        start_game(app, True, False, random.Random(1))  # a new game is refused, not begun
        assert "not saved" in shown_text(app).lower() and app.game is None
        assert files_in(state) == before
    # Writable again, the next start keeps the damaged file aside and offers its first
    # actions back, as it does for any damaged journal.
    app = Companion(state)
    kept = next(state.glob("journal-damaged-*.jsonl"))
    assert kept.read_bytes() == damaged and not (state / "journal.jsonl").exists()
    assert app.session.damaged_prefix.move_stack == game.move_stack[:2]


def test_a_new_game_over_a_journal_left_damaged_waits_for_the_card_not_a_restart(small_fs):
    # The journal left in place refused every new game as "a game is already in
    # progress": the screen said "the card could not be written" on a read-only card,
    # and once the card took writes again no new game started until a restart.
    state = small_fs / "state"
    _, _, damaged = damage_line_4(state)
    with read_only(small_fs):
        app = Companion(state, cannot_save=write_problem(state))
        notices_then_home(app)
        start_game(app, True, False, random.Random(1))
        assert "not saved" in shown_text(app).lower() and "the card is read-only" in shown_text(app)
        app.handle(Input.SELECT)
    start_game(app, True, False, random.Random(1))
    assert app.game is not None and (state / "journal.jsonl").exists()
    [kept] = state.glob("journal-damaged-*.jsonl")
    assert kept.read_bytes() == damaged
    assert Journal(state / "journal.jsonl").load().game.state() == app.game.state()


def test_a_journal_left_damaged_and_taken_away_since_is_no_bar_to_a_new_game(small_fs):
    # Removed by hand while the device ran: moving it aside found no file, and every new
    # game was refused ("damaged, and still cannot be moved aside") until a restart.
    state = small_fs / "state"
    damage_line_4(state)
    with read_only(small_fs):
        app = Companion(state, cannot_save=write_problem(state))
        notices_then_home(app)
    (state / "journal.jsonl").unlink()
    start_game(app, True, False, random.Random(1))
    assert app.game is not None
    assert Journal(state / "journal.jsonl").load().game.state() == app.game.state()


def test_a_torn_line_on_a_read_only_card_goes_before_the_next_write(small_fs):
    # A write cut short can leave a whole line of zeros. On a read-only card the start
    # cannot drop it: it raised; and an action appended behind it, once the card took
    # writes again, left that line mid-journal, the game damaged at the next start.
    state = small_fs / "state"
    app = started_game(state, turns=3)
    journal = state / "journal.jsonl"
    saved, moves = journal.read_bytes(), len(app.game.move_stack)
    journal.write_bytes(saved + b"\0" * 40 + b"\n")
    before = files_in(state)
    with read_only(small_fs):
        app = Companion(state, cannot_save=write_problem(state))
        assert len(app.game.move_stack) == moves
        assert files_in(state) == before
    for _ in range(5):
        press_to_play(app)
    assert len(app.game.move_stack) > moves
    assert journal.read_bytes().startswith(saved) and b"\0" not in journal.read_bytes()
    assert Journal(journal).load().game.state() == app.game.state()


def test_history_that_cannot_be_written_keeps_the_finished_game(tmp_path, monkeypatch):
    rng = random.Random(3)
    app = Companion(tmp_path, itertools.count(3).__next__)
    start_game(app, False, False, rng)
    real_replace = os.replace
    refused = []

    def no_history(source, target, **kwargs):
        if Path(target).parent.name == "history":
            refused.append(target)
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_replace(source, target, **kwargs)

    monkeypatch.setattr(os, "replace", no_history)
    with contextlib.suppress(StopIteration):

        def stop_at_notice(view):
            if refused:
                raise StopIteration

        play_to_the_end(app, rng, on_view=stop_at_notice)
    assert refused
    text = shown_text(app)
    assert "not saved" in text.lower() and "not allowed to write" in text
    assert (tmp_path / "journal.jsonl").exists() and app.game is not None and app.game.is_over
    monkeypatch.undo()
    app.handle(Input.SELECT)
    play_to_the_end(app, rng)  # "Save and finish" again: now it goes to the history
    assert not (tmp_path / "journal.jsonl").exists()
    assert len(list((tmp_path / "history").glob("*.jsonl"))) == 1


def test_a_claim_of_the_7x7_tile_the_card_refuses_asks_the_question_again(tmp_path, monkeypatch):
    """The question counts as asked only once the claim is saved: marked before, the claim
    refused here (or cut by a power cut) lost the question, and the Automa played on."""
    app = Companion(tmp_path, itertools.count(1).__next__)
    app.session.start(solo_game().setup)
    app.game.sides["player"].covered = 50  # reached 49 with this buy: ask now
    app.play.continue_game()
    assert app.view().kind is ScreenKind.BONUS_QUESTION
    real_append = app.session.journal.append

    def full_card(action):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(app.session.journal, "append", full_card)
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)  # Yes, claim it
    assert "not saved" in shown_text(app)
    app.handle(Input.SELECT)
    view = app.view()
    assert isinstance(view, QuestionView) and view.kind is ScreenKind.BONUS_QUESTION
    monkeypatch.setattr(app.session.journal, "append", real_append)
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)
    assert app.game.bonus_holder == "player"
    # The covered squares were set by hand, so the file cannot be replayed: its last line.
    assert '"claim_bonus"' in (tmp_path / "journal.jsonl").read_text().splitlines()[-1]


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
    journal, moves = (tmp_path / "journal.jsonl").read_bytes(), len(app.game.move_stack)
    app.home()
    monkeypatch.setattr(os, "replace", card_full)
    app.handle(Input.SELECT if app.view().items[0].label == "New solo game" else Input.NEXT)
    while app.view().kind is not ScreenKind.ABANDON_GAME:
        app.handle(Input.SELECT)
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)  # yes, abandon it
    assert "not saved" in shown_text(app)
    assert (tmp_path / "journal.jsonl").read_bytes() == journal
    assert len(app.game.move_stack) == moves and not list(tmp_path.glob("history/*"))
    app.handle(Input.SELECT)
    assert app.view().kind is ScreenKind.HOME


def test_an_entered_circle_the_card_refuses_is_offered_again(tmp_path, monkeypatch):
    rng = random.Random(2)
    app = Companion(tmp_path, itertools.count(1).__next__)
    start_game(app, True, True, rng)
    monkeypatch.setattr(app.session.journal, "start", card_full)
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
    assert app.game is not None and Journal(tmp_path / "journal.jsonl").load().game is not None


NOBODY = 65534
FORBIDDEN_HISTORY_CHILD = """
import contextlib, itertools, json, random, signal, sys
# Ends itself if the test never gets that far: a test stopped by its timeout leaves
# its child behind, still playing (three such were found running 20 minutes later).
signal.alarm(120)
from pathlib import Path
from companion.app.companion import Companion
from companion.inputs.events import Input
from companion.testing.autoplay import play_to_the_end, start_game
from companion.views import TextView

app = Companion(Path(sys.argv[1]), itertools.count(3).__next__)
rng = random.Random(3)
start_game(app, False, False, rng)

def screen():
    view = app.view()
    return " ".join(view.lines) if isinstance(view, TextView) else type(view).__name__

def stop_at_notice(view):
    if "not saved" in screen().lower():
        raise StopIteration

with contextlib.suppress(StopIteration):
    play_to_the_end(app, rng, on_view=stop_at_notice)
print(json.dumps({"screen": screen(), "over": app.game is not None and app.game.is_over}))
sys.stdout.flush()
sys.stdin.readline()  # history/ may be written again
app.handle(Input.SELECT)
play_to_the_end(app, rng)
print(json.dumps({"screen": screen(), "over": app.game is not None}))
"""


def test_a_history_the_app_may_not_write_really_refuses_and_the_game_waits(tmp_path):
    """A real EACCES, not an injected one: the finished game cannot go into history/."""
    root = os.geteuid() == 0
    if root and shutil.which("setpriv") is None:
        pytest.skip("running the app without root needs setpriv (util-linux)")
    as_nobody = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    if root:
        # An interpreter under /root (pyenv's) is out of nobody's reach.
        probe = [*as_nobody, sys.executable, "-c", "import companion"]
        reached = subprocess.run(probe, capture_output=True, text=True, check=False)
        if reached.returncode != 0:
            pytest.skip(f"nobody cannot run {sys.executable}: {reached.stderr.strip()[-200:]}")
    # Somewhere nobody can reach (pytest's own temporary folder is root's alone).
    with tempfile.TemporaryDirectory() as folder:
        state = Path(folder) / "state"
        history = state / "history"
        history.mkdir(parents=True)
        history.chmod(0o555)
        if root:
            os.chmod(folder, 0o755)
            os.chown(state, NOBODY, NOBODY)
        command = [sys.executable, "-c", FORBIDDEN_HISTORY_CHILD, str(state)]
        if root:
            command = [*as_nobody, sys.executable, "-c", FORBIDDEN_HISTORY_CHILD, str(state)]
        with subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        ) as child:
            refused = json.loads(child.stdout.readline())
            assert "not saved" in refused["screen"].lower()
            assert "not allowed to write" in refused["screen"]
            # Not shown as done: the finished game is still the game in progress.
            assert refused["over"]
            assert (state / "journal.jsonl").exists() and not list(history.iterdir())
            history.chmod(0o755)
            if root:
                os.chown(history, NOBODY, NOBODY)
            child.stdin.write("\n")
            child.stdin.flush()
            saved = json.loads(child.stdout.readline())
        assert child.returncode == 0
        assert not saved["over"]  # "Save and finish" again: saved, no game in progress
        assert not (state / "journal.jsonl").exists()
        assert len(list(history.glob("*.jsonl"))) == 1


def simulate(state: Path, script: str) -> subprocess.CompletedProcess:
    """The simulation run on `state` to the end of `script`, from a file beside the small
    file system (which may be full or read-only)."""
    path = state.parent.parent / "script.txt"
    path.write_text(script)
    return subprocess.run(
        [sys.executable, "-m", "companion", "simulate", "--script", str(path)]
        + ["--state-dir", str(state), "--seed", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
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
    started_game(state, turns=3)
    before = files_in(state)
    with read_only(small_fs):
        done = simulate(state, "select\n" * 20)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "unexpected" not in done.stderr
    assert f"not logging to {state / 'companion.log'}: Read-only file system" in done.stderr
    assert json.loads(done.stdout)["actions"] == len(
        Journal(state / "journal.jsonl").load().game.move_stack
    )
    assert files_in(state) == before


def test_every_line_said_on_a_read_only_card_names_the_program(small_fs):
    # The lock's "cannot record the PID" came before the simulation set up its logging:
    # logging's last resort printed it bare, the one line not naming the program.
    state = small_fs / "state"
    state.mkdir()
    with read_only(small_fs):
        done = simulate(state, "select\n")
    lines = done.stderr.splitlines()
    assert any(f"cannot record the PID in {state}: Read-only" in line for line in lines)
    assert all(line.startswith("patchwork-companion simulate: ") for line in lines), lines


def test_the_simulation_runs_on_a_read_only_card_beside_a_damaged_game(small_fs):
    state = small_fs / "state"
    damage_line_4(state)
    before = files_in(state)
    with read_only(small_fs):
        done = simulate(state, "select\n" * 5)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "journal" not in done.stderr
    assert json.loads(done.stdout) is None  # no game: the damaged one is not played
    assert files_in(state) == before
