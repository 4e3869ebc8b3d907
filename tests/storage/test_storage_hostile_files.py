"""State files as an attacker, a worn card or a hand-edit over SSH leaves them.

Each case once stopped the start (an exception at boot), read without bound,
or wrote outside the state directory.
"""

from __future__ import annotations

import json
import os
import threading
import tracemalloc
from datetime import datetime
from pathlib import Path

import pytest
from storage_games import play

import companion.storage.journal as journal_module
import companion.untrusted as untrusted
from companion.engine.actions import ADVANCE, AutomaTurn, Buy
from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.game import Game
from companion.engine.gamelog import header_line, log_lines, with_checksums
from companion.engine.setup import Mode, SetupChoice, Side, solo_setup, two_player_setup
from companion.storage.journal import Journal
from companion.storage.progress import Entering, Progress
from companion.storage.settings import Settings, load_settings
from companion.untrusted import NotRegularFileError, read_capped

WHEN = datetime(2026, 11, 22, 10, 15, 3)
DEEP = "[" * 100_000
HUGE = "1" * 5_000


def journalled(directory: Path, actions: int, seed: int = 11) -> tuple[Journal, Game]:
    journal = Journal(directory / "journal.jsonl", clock=lambda: WHEN)
    game = Game(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.TACTICAL, seed=seed))
    journal.start(game.setup)
    play(game, actions, journal)
    return journal, game


def aside(directory: Path, stem: str) -> list[Path]:
    return sorted(directory.glob(f"{stem}-damaged-*"))


# --- progress.json ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        '{"acknowledged": "5"}',
        "null",
        '{"dealing": 100000}',
        '{"entering": "x"}',
        DEEP,
        '{"acknowledged": ' + HUGE + "}",
        '{"acknowledged": -1}',
        '{"asked_bonus": [[1]]}',
        '{"asked_bonus": ["automa"]}',
        '{"asked_bonus": ["player@x"]}',
        '{"asked_bonus": ["player@\\u0662"]}',  # an Arabic-Indic 2: a digit, but not ASCII
        '{"asked_bonus": ["player@1234567"]}',  # more actions than a game holds
        '{"entering": {"mode": "solo", "difficulty": "boss", "deck": "normal", '
        '"seed": 1, "placed": []}}',
        '{"entering": {"mode": "solo", "difficulty": "Fellow", "deck": "normal", '
        '"seed": 1, "placed": []}}',
        '{"entering": {"mode": "solo", "difficulty": ["fellow"], "deck": "normal", '
        '"seed": 1, "placed": []}}',
        '{"entering": {"mode": "solo", "difficulty": "fellow", "deck": "Normal", '
        '"seed": 1, "placed": []}}',
        '{"entering": {"mode": "two-player", "start": "p1", "seed": 1, "placed": [["P01"]]}}',
        '{"extra": 1}',
        '{"undone": "advance"}',
        '{"undone": [{"action": "fly"}]}',
        '{"undone": [{"action": "buy", "index": "2"}]}',
        '{"undone": [7]}',
        '{"undone": [{"action": "claim_bonus", "side": {"p1": 1}}]}',
        '{"undone": [{"action": "adjust", "side": "p3", "delta": 1}]}',
        "\xff",
    ],
)
def test_a_bad_progress_file_is_moved_aside_with_one_line(tmp_path, content):
    path = tmp_path / "progress.json"
    path.write_bytes(content.encode("utf-8", "surrogateescape"))
    progress, notice = Progress.load(path)
    assert progress == Progress()
    assert notice is not None and "\n" not in notice and len(notice) <= 200
    assert notice.startswith("progress.json: ")
    [kept] = aside(tmp_path, "progress")
    assert kept.read_bytes() == content.encode("utf-8", "surrogateescape")


@pytest.mark.parametrize(
    ("undone", "problem"),
    [
        (None, "'undone' must be a list of actions, not None"),
        ({"action": "advance"}, "'undone' must be a list of actions, not an object of 1"),
        # One undo takes back a person's action and the Automa's turns after it: never
        # a thousand. More than that is not the companion's file (and costs a replay).
        ([{"action": "advance"}] * 1001, "'undone' lists 1001 actions; at most 1000"),
    ],
)
def test_undone_actions_that_are_not_a_short_list_are_named(tmp_path, undone, problem):
    path = tmp_path / "progress.json"
    path.write_text(json.dumps({"undone": undone}))
    progress, notice = Progress.load(path)
    assert progress == Progress()
    assert notice is not None and notice.startswith(f"progress.json: {problem};")


def test_progress_round_trip(tmp_path):
    choice = SetupChoice(Mode.SOLO, difficulty=DIFFICULTY_BY_NAME["fellow"], deck=Deck.NORMAL)
    undone = [Buy(1), AutomaTurn((3, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12))]
    # "player@2": asked before the Automa's move that takes the tile, after 2 actions.
    progress = Progress(
        3, ["player", "player@2"], None, Entering(choice, 7, ["P01", "P30"]), undone, 1
    )
    progress.save(tmp_path / "progress.json")
    assert Progress.load(tmp_path / "progress.json") == (progress, None)


def test_progress_equality_sees_every_key_the_file_holds(tmp_path):
    # The round trip above is checked with Progress.__eq__: a key it skipped could be lost
    # between save and load unseen. The file's keys are those __eq__ and from_json know.
    choice = SetupChoice(Mode.SOLO, difficulty=DIFFICULTY_BY_NAME["fellow"], deck=Deck.NORMAL)
    entering = Entering(choice, 7, ["P01"])
    saved = Progress(3, ["player"], 8, entering, [Buy(1)], 1)
    saved.save(tmp_path / "progress.json")
    assert sorted(json.loads((tmp_path / "progress.json").read_text())) == sorted(Progress.KEYS)
    others = {
        "acknowledged": 4,
        "asked_bonus": ["automa"],
        "dealing": 16,
        "entering": None,
        "undone": [ADVANCE],
        "undone_unconfirmed": 0,
    }
    assert sorted(others) == sorted(Progress.KEYS)
    for key, value in others.items():
        changed = saved.copy()
        setattr(changed, key, value)
        assert changed != saved, key
    two_player = SetupChoice(Mode.TWO_PLAYER, start=Side.P2)
    for other in (
        Entering(two_player, 7, ["P01"]),
        Entering(choice, 8, ["P01"]),
        Entering(choice, 7),
    ):
        assert other != entering and Entering(choice, 7, ["P01"]) == entering


def test_a_progress_is_shown_by_what_it_holds():
    # A failed comparison of two progresses showed `<Progress object at 0x…>` on both sides.
    choice = SetupChoice(Mode.SOLO, difficulty=DIFFICULTY_BY_NAME["fellow"], deck=Deck.NORMAL)
    shown = repr(Progress(3, ["player@2"], 8, Entering(choice, 7, ["P30"]), [Buy(1)], 1))
    assert shown.startswith("Progress(acknowledged=3, asked_bonus=['player@2'], dealing=8, ")
    assert "entering=Entering(choice=SetupChoice(mode=<Mode.SOLO" in shown
    assert "seed=7, placed=['P30'])" in shown
    assert shown.endswith(", undone=[Buy(index=1)], undone_unconfirmed=1)")


def test_a_progress_file_from_before_undone_unconfirmed_still_loads(tmp_path):
    # Written by a companion that had no such key: the undo's reverse steps all due.
    (tmp_path / "progress.json").write_text(
        json.dumps({"acknowledged": 2, "undone": [{"action": "advance"}]})
    )
    progress, notice = Progress.load(tmp_path / "progress.json")
    assert notice is None and progress.undone == [ADVANCE] and progress.undone_unconfirmed == 0


@pytest.mark.parametrize("count", [-1, 2, True, "1"])
def test_more_unconfirmed_undone_actions_than_undone_is_damage(tmp_path, count):
    (tmp_path / "progress.json").write_text(
        json.dumps({"undone": [{"action": "advance"}], "undone_unconfirmed": count})
    )
    progress, notice = Progress.load(tmp_path / "progress.json")
    assert progress == Progress() and "'undone_unconfirmed' must be a whole number 0–1" in notice


# --- settings.json ------------------------------------------------------------------------


@pytest.mark.parametrize("content", ['{"contrast": ' + HUGE + "}", DEEP, '{"a": ' * 50_000])
def test_settings_with_huge_numbers_or_deep_nesting_fall_back_to_the_defaults(tmp_path, content):
    path = tmp_path / "settings.json"
    path.write_text(content)
    settings, notice = load_settings(path)
    assert settings == Settings()
    assert notice is not None and "\n" not in notice
    assert aside(tmp_path, "settings")[0].read_text() == content


def test_an_oversized_settings_file_is_not_read_whole(tmp_path):
    path = tmp_path / "settings.json"
    path.write_bytes(b" " * (8 << 20) + b"{}")
    tracemalloc.start()
    settings, notice = load_settings(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert settings == Settings() and "bytes, more than" in notice
    assert peak < 1 << 20


# --- the journal --------------------------------------------------------------------------


def test_a_journal_whose_last_line_is_deeply_nested_loads(tmp_path):
    journal, game = journalled(tmp_path, 5)
    with journal.path.open("a") as handle:
        handle.write(DEEP + "\n")
    loaded = journal.load()  # used to raise RecursionError
    assert loaded.game is not None and loaded.game.state() == game.state()


def test_a_huge_number_in_the_journal_is_damage_named_at_its_line(tmp_path):
    journal, _ = journalled(tmp_path, 3)
    with journal.path.open("a") as handle:
        handle.write('{"action": "adjust", "side": "player", "delta": ' + HUGE + "}\n")
        handle.write('{"action": "advance"}\n')
    loaded = journal.load()
    assert loaded.game is None and "line 5:" in loaded.notice and "digits" in loaded.notice


def test_a_flipped_byte_in_a_middle_line_offers_the_actions_before_it(tmp_path):
    journal, game = journalled(tmp_path, 31)
    data = bytearray(journal.path.read_bytes())
    lines = data.split(b"\n")
    line_24 = sum(len(line) + 1 for line in lines[:24])  # 0-based: line 25 = action 24
    data[line_24 + 3] ^= 0x01
    journal.path.write_bytes(bytes(data))
    loaded = journal.load()
    assert loaded.game is None and loaded.moved_aside.read_bytes() == bytes(data)
    assert loaded.actions_in_file == 31
    assert loaded.prefix is not None and len(loaded.prefix.move_stack) == 23
    assert loaded.prefix.move_stack == game.move_stack[:23]


def test_a_line_spliced_from_another_game_is_found(tmp_path):
    # The very same action, but from another game: only the checksum can tell.
    journal, game = journalled(tmp_path, 20, seed=11)
    other = with_checksums(log_lines(play(Game(two_player_setup("p1", seed=3)), 20)))
    foreign = next(line for line in other if json.loads(line).get("action") == "advance")
    ours = journal.path.read_text().splitlines()
    spliced = next(
        number for number, line in enumerate(ours) if json.loads(line).get("action") == "advance"
    )
    ours[spliced] = foreign
    journal.path.write_text("\n".join(ours) + "\n")
    loaded = journal.load()
    assert loaded.game is None
    assert f"line {spliced + 1}: checksum does not match" in loaded.notice
    assert loaded.prefix.move_stack == game.move_stack[: spliced - 1]
    assert loaded.actions_in_file == 20


def test_an_old_journal_without_checksums_still_loads(tmp_path):
    game = play(Game(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.TACTICAL, seed=11)), 12)
    path = tmp_path / "journal.jsonl"
    path.write_text("".join(line + "\n" for line in log_lines(game)))
    loaded = Journal(path).load()
    assert loaded.notice is None and loaded.game.state() == game.state()


def test_sixteen_times_the_limit_in_blank_lines_takes_bounded_memory(tmp_path, monkeypatch):
    # A file of blank lines sixteen times the limit, the limit scaled down to 64 KB so that
    # tracemalloc, which slows each blank line replayed, stays quick. Two safeguards: the
    # read stops at the limit, and the lines are taken one at a time, not as a list;
    # without either the peak is well over four limits.
    limit = 1 << 16
    monkeypatch.setattr(journal_module, "JOURNAL_LIMIT", limit)
    path = tmp_path / "journal.jsonl"
    with path.open("wb") as handle:
        handle.write(
            with_checksums(
                [header_line(solo_setup(DIFFICULTY_BY_NAME["intern"], Deck.NORMAL, seed=1))]
            )[0].encode()
        )
        handle.write(b"\n" * (16 * limit))
    tracemalloc.start()
    loaded = Journal(path).load()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 4 * limit
    assert loaded.game is None and "more than the" in loaded.notice


def test_a_fifo_in_place_of_the_journal_is_moved_aside_at_once(tmp_path):
    path = tmp_path / "journal.jsonl"
    os.mkfifo(path)
    loaded = Journal(path).load()  # a read would wait for ever for a writer
    assert loaded.game is None and "a FIFO" in loaded.notice
    assert loaded.moved_aside.is_fifo() and not path.exists()


def test_a_journal_symlink_is_moved_aside_and_its_target_never_written(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("precious\n")
    state = tmp_path / "state"
    state.mkdir()
    path = state / "journal.jsonl"
    path.symlink_to(outside)
    journal = Journal(path)
    with pytest.raises(OSError):
        journal.append(play(Game(two_player_setup("p1", seed=1)), 1).move_stack[0])
    loaded = journal.load()
    assert loaded.game is None and "symbolic link" in loaded.notice
    assert loaded.moved_aside.is_symlink() and not path.exists()
    assert outside.read_text() == "precious\n"


def test_read_capped_refuses_links_and_devices(tmp_path):
    (tmp_path / "link").symlink_to("/dev/zero")
    for path in (tmp_path / "link", Path("/dev/zero")):
        with pytest.raises(NotRegularFileError):
            read_capped(path, 10)


def test_read_capped_reads_a_file_whose_size_reads_0():
    # A /proc file's size reads 0 whatever it holds: it was taken for an empty file.
    path = Path("/proc/self/status")
    assert os.stat(path).st_size == 0
    data, size = read_capped(path, 1 << 20)
    assert data.startswith(b"Name:\t") and data.endswith(b"\n") and size == len(data)
    data, size = read_capped(path, 5)
    assert data == b"Name:" and size > 5  # more there than the limit: too large


@pytest.mark.parametrize(("length", "whole"), [(9, True), (10, True), (11, False)])
def test_read_capped_tells_a_file_within_its_limit_from_a_larger_one(tmp_path, length, whole):
    (tmp_path / "file").write_bytes(b"x" * length)
    data, size = read_capped(tmp_path / "file", 10)
    assert data == b"x" * min(length, 10) and size == length
    assert (size <= len(data)) is whole


def test_a_long_torn_tail_is_logged_in_a_few_hundred_characters(tmp_path, caplog):
    journal, game = journalled(tmp_path, 5)
    with journal.path.open("ab") as handle:
        handle.write(b'{"action": "' + b"x" * 500_000)  # no newline: torn
    with caplog.at_level("DEBUG"):
        loaded = journal.load()
    assert loaded.game.state() == game.state()
    assert caplog.records and max(len(record.getMessage()) for record in caplog.records) < 400


# A link or FIFO put in place between the look at the name (lstat) and the open: each
# layer of `open_regular_file` must hold by itself. `lstat` is made to see the regular
# file that was there a moment before.


@pytest.fixture
def swapped_after_the_look(tmp_path, monkeypatch):
    regular = tmp_path / "was-regular"
    regular.write_text("{}")
    monkeypatch.setattr(untrusted.os, "lstat", lambda path: os.stat(regular))


def test_a_link_swapped_in_after_the_look_is_not_followed(tmp_path, swapped_after_the_look):
    outside = tmp_path / "outside.json"
    outside.write_text('{"contrast": 7}')
    (tmp_path / "settings.json").symlink_to(outside)
    with pytest.raises(NotRegularFileError):
        read_capped(tmp_path / "settings.json", 100)


def test_a_fifo_swapped_in_after_the_look_is_refused_without_waiting(
    tmp_path, swapped_after_the_look
):
    path = tmp_path / "journal.jsonl"
    os.mkfifo(path)
    outcome = []

    def read():
        try:
            read_capped(path, 100)
            outcome.append("read")
        except NotRegularFileError:
            outcome.append("refused")

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(5)
    if reader.is_alive():  # waiting for a writer: give it one, so the thread ends
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(5)
        pytest.fail("the open of a FIFO waited for a writer")
    assert outcome == ["refused"]


def test_a_fifo_or_device_is_never_even_opened(tmp_path, monkeypatch):
    # Opening a device can act (a serial port's DTR resets a microcontroller).
    fifo = tmp_path / "progress.json"
    os.mkfifo(fifo)
    opened = []
    real_open = os.open
    monkeypatch.setattr(
        untrusted.os, "open", lambda path, *args: opened.append(path) or real_open(path, *args)
    )
    for path in (fifo, Path("/dev/null")):
        with pytest.raises(NotRegularFileError):
            read_capped(path, 10)
    assert opened == []


@pytest.mark.parametrize("kind", ["link", "file"])
def test_a_history_that_is_not_a_directory_is_moved_aside_and_the_game_archived(tmp_path, kind):
    # A link would take the game out of the state directory; a file would refuse it.
    (tmp_path / "state").mkdir()
    journal, _ = journalled(tmp_path / "state", 3)
    journalled_bytes = journal.path.read_bytes()
    outside = tmp_path / "outside"
    outside.mkdir()
    history = tmp_path / "state" / "history"
    if kind == "link":
        history.symlink_to(outside)
    else:
        history.write_text("notes\n")
    archived = journal.archive(finished=False)
    assert archived.parent == history and history.is_dir() and not history.is_symlink()
    assert archived.read_bytes() == journalled_bytes
    assert list(outside.iterdir()) == []
    [kept] = (tmp_path / "state").glob("history-damaged-*")
    assert kept.is_symlink() if kind == "link" else kept.read_text() == "notes\n"
