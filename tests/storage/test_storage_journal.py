"""The journal: durable appends, undo, repair of a torn line, damaged files kept."""

from __future__ import annotations

import errno
import json
import os
from datetime import datetime
from pathlib import Path

import pytest
from helpers import read_only
from storage_games import finished_solo, finished_two_player, play, replay_of

import companion.storage.journal as journal_module
from companion.engine.actions import ADVANCE, Adjust
from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.game import Game
from companion.engine.gamelog import header_line, log_lines, with_checksums
from companion.engine.setup import solo_setup, two_player_setup
from companion.storage.files import StorageError
from companion.storage.journal import (
    TORN_NOTICE,
    Journal,
    JournalChangedError,
    JournalExistsError,
    JournalLoad,
    NothingToUndoError,
)

WHEN = datetime(2026, 11, 22, 10, 15, 3)


def fixed_clock() -> datetime:
    return WHEN


def new_game(seed: int = 11) -> Game:
    return Game(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.TACTICAL, seed=seed))


def journalled(tmp_path: Path, actions: int, seed: int = 11) -> tuple[Journal, Game]:
    journal = Journal(tmp_path / "journal.jsonl", clock=fixed_clock)
    game = new_game(seed)
    journal.start(game.setup)
    play(game, actions, journal)
    return journal, game


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines()


# --- round trip ---------------------------------------------------------------------------


def test_no_journal_means_no_game(tmp_path):
    loaded = Journal(tmp_path / "journal.jsonl").load()
    assert loaded.game is None and loaded.notice is None and loaded.moved_aside is None


def test_start_append_load_gives_the_same_game(tmp_path):
    journal, game = journalled(tmp_path, 25)
    assert len(game.move_stack) == 25
    loaded = Journal(tmp_path / "journal.jsonl").load()
    assert loaded.notice is None and loaded.moved_aside is None
    assert loaded.game.state() == game.state()
    assert loaded.game.move_stack == game.move_stack
    # Exactly the game log format: the header, then one line per action, each checksummed.
    assert journal.path.read_text().splitlines() == with_checksums(log_lines(game))


def test_the_journal_is_a_header_then_one_line_per_action(tmp_path):
    journal = Journal(tmp_path / "journal.jsonl")
    setup = two_player_setup("p2", seed=3)
    journal.start(setup)
    header = with_checksums([header_line(setup)])[0]
    assert journal.path.read_text() == header + "\n"
    journal.append(ADVANCE)
    journal.append(Adjust("p1", -2))
    plain = [
        header_line(setup),
        '{"action": "advance"}',
        '{"action": "adjust", "side": "p1", "delta": -2}',
    ]
    assert journal.path.read_text() == "".join(line + "\n" for line in with_checksums(plain))


def test_a_journal_begun_without_checksums_goes_on_without_them(tmp_path):
    # Written by an older companion: it still loads, and appends match it.
    setup = two_player_setup("p1", seed=3)
    path = tmp_path / "journal.jsonl"
    path.write_text(header_line(setup) + "\n" + '{"action": "advance"}\n')
    journal = Journal(path)
    assert len(journal.load().game.move_stack) == 1
    journal.append(ADVANCE)
    assert path.read_text().splitlines()[-1] == '{"action": "advance"}'
    assert len(journal.load().game.move_stack) == 2


def test_start_with_a_game_writes_its_actions_so_far(tmp_path):
    game = play(new_game(), 7)
    journal = Journal(tmp_path / "journal.jsonl")
    journal.start(game)
    assert len(lines_of(journal.path)) == 8
    assert Journal(tmp_path / "journal.jsonl").load().game.state() == game.state()


def test_start_refuses_to_overwrite_a_game_in_progress(tmp_path):
    journal, _ = journalled(tmp_path, 4)
    before = journal.path.read_bytes()
    with pytest.raises(JournalExistsError, match="already in progress"):
        journal.start(new_game(99).setup)
    assert journal.path.read_bytes() == before


def test_an_automa_reshuffle_is_journalled(tmp_path):
    # A whole game goes through the Automa deck several times.
    journal = Journal(tmp_path / "journal.jsonl")
    game = new_game(5)
    journal.start(game.setup)
    play(game, 400, journal)
    assert game.is_over and game.reshuffles > 0
    assert b'"reshuffle": [' in journal.path.read_bytes()
    loaded = Journal(tmp_path / "journal.jsonl").load().game
    assert loaded.state() == game.state() and loaded.is_over


def test_append_without_a_journal_is_a_storage_error(tmp_path):
    game = play(new_game(), 1)
    with pytest.raises(StorageError, match="no game in progress"):
        Journal(tmp_path / "journal.jsonl").append(game.move_stack[0])


# --- durability ---------------------------------------------------------------------------


def test_append_fsyncs_the_line_before_returning(tmp_path, monkeypatch):
    journal, game = journalled(tmp_path, 3)
    before = journal.path.read_bytes()
    game.push(play(replay_of(game, 3), 1).move_stack[-1])
    synced: list[bytes] = []

    def recording_fsync(fd: int) -> None:
        # What the file holds at the moment it is synced.
        synced.append(os.pread(fd, 1 << 16, 0))

    monkeypatch.setattr(os, "fsync", recording_fsync)
    journal.append(game.move_stack[-1])
    monkeypatch.undo()
    expected = before + with_checksums(log_lines(game))[-1].encode() + b"\n"
    assert synced == [expected]
    assert journal.path.read_bytes() == expected


def test_start_fsyncs_the_file_and_the_directory(tmp_path, monkeypatch):
    kinds: list[bool] = []

    def recording_fsync(fd: int) -> None:
        kinds.append(os.path.isdir(f"/proc/self/fd/{fd}") if Path("/proc").exists() else False)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    Journal(tmp_path / "journal.jsonl").start(new_game().setup)
    assert len(kinds) == 2
    if Path("/proc/self/fd").exists():
        assert kinds == [False, True]  # the file first, then its directory


def test_a_failed_append_leaves_the_journal_as_it_was(tmp_path, monkeypatch):
    journal, game = journalled(tmp_path, 3)
    before = journal.path.read_bytes()
    game.push(play(replay_of(game, 3), 1).move_stack[-1])
    calls = []

    def failing_fsync(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 1:
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(StorageError, match="cannot save the action"):
        journal.append(game.move_stack[-1])
    monkeypatch.undo()
    assert journal.path.read_bytes() == before
    # ...and the next append goes on cleanly.
    journal.append(game.move_stack[-1])
    assert Journal(tmp_path / "journal.jsonl").load().game.state() == game.state()


def test_append_refuses_to_follow_a_torn_line(tmp_path):
    journal, game = journalled(tmp_path, 2)
    with journal.path.open("ab") as handle:
        handle.write(b'{"action": "adv')
    with pytest.raises(StorageError, match="incomplete"):
        journal.append(game.move_stack[-1])


# --- undo ---------------------------------------------------------------------------------


def test_undo_then_load(tmp_path):
    journal, game = journalled(tmp_path, 10)
    for _ in range(3):
        journal.undo()
        game.pop()
    loaded = Journal(tmp_path / "journal.jsonl").load()
    assert loaded.notice is None
    assert loaded.game.state() == game.state()
    assert len(loaded.game.move_stack) == 7
    assert len(lines_of(journal.path)) == 8


def test_undo_goes_back_to_the_start_and_no_further(tmp_path):
    journal, game = journalled(tmp_path, 4)
    for _ in range(4):
        journal.undo()
    assert journal.path.read_text() == with_checksums([header_line(game.setup)])[0] + "\n"
    with pytest.raises(NothingToUndoError):
        journal.undo()
    loaded = Journal(tmp_path / "journal.jsonl").load().game
    assert loaded.state() == Game(game.setup).state() and loaded.move_stack == []


def test_an_undo_of_several_actions_shortens_the_file_once_or_not_at_all(tmp_path, monkeypatch):
    journal, game = journalled(tmp_path, 4)
    before = journal.path.read_bytes()
    with pytest.raises(NothingToUndoError):
        journal.undo(5)  # four actions, and the header stays
    assert journal.path.read_bytes() == before
    calls = []
    monkeypatch.setattr(os, "fsync", calls.append)
    journal.undo(3)
    assert len(calls) == 1
    for _ in range(3):
        game.pop()
    loaded = Journal(tmp_path / "journal.jsonl").load().game
    assert loaded.move_stack == game.move_stack and loaded.state() == game.state()


def failing_with(code: int):
    def fail(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    return fail


@pytest.mark.parametrize(
    ("operation", "module", "call", "code"),
    [
        ("start", journal_module, "atomic_write_text", errno.ENOSPC),
        ("undo", os, "ftruncate", errno.EROFS),
        ("undo", journal_module, "read_capped", errno.EIO),
    ],
)
def test_a_failure_keeps_the_systems_code_for_the_screen(
    tmp_path, monkeypatch, operation, module, call, code
):
    # The screen says why in the player's words from the code: "the card is full".
    journal, game = journalled(tmp_path, 3)
    if operation == "start":
        journal.archive(finished=False)
    monkeypatch.setattr(module, call, failing_with(code))
    with pytest.raises(StorageError) as raised:
        journal.start(game.setup) if operation == "start" else journal.undo()
    assert raised.value.errno == code


def test_undo_then_append_again(tmp_path):
    journal, game = journalled(tmp_path, 6)
    journal.undo()
    undone = game.pop()
    journal.append(undone)
    game.push(undone)
    assert Journal(tmp_path / "journal.jsonl").load().game.state() == game.state()


def test_undo_fsyncs(tmp_path, monkeypatch):
    journal, _ = journalled(tmp_path, 2)
    calls = []
    monkeypatch.setattr(os, "fsync", calls.append)
    journal.undo()
    assert len(calls) == 1


# --- a power cut during an append ---------------------------------------------------------


def test_a_torn_last_line_is_dropped_and_the_journal_is_appendable(tmp_path):
    journal, game = journalled(tmp_path, 5)
    complete = journal.path.read_bytes()
    with journal.path.open("ab") as handle:
        handle.write(b'{"action": "bu')
    loaded = Journal(tmp_path / "journal.jsonl").load()
    assert loaded.notice == TORN_NOTICE
    assert loaded.moved_aside is None
    assert loaded.game.state() == game.state()
    assert journal.path.read_bytes() == complete
    # The next append is clean, and a second load has nothing to report.
    play(game, 1, journal)
    again = Journal(tmp_path / "journal.jsonl").load()
    assert again.notice is None and again.game.state() == game.state()


def test_a_torn_line_a_read_only_card_kept_goes_before_an_undo_and_an_archive(small_fs):
    # `load` could not drop the line of zeros; once the card takes writes, an undo that
    # counted it as an action would take back the zeros and keep the last action, and an
    # archive would keep the zeros in the history and point the next game's first append
    # at where they began in the old file.
    journal, game = journalled(small_fs, 5)
    saved = journal.path.read_bytes()
    torn = b"\0" * 40 + b"\n"
    journal.path.write_bytes(saved + torn)
    with read_only(small_fs):
        assert journal.load().game.move_stack == game.move_stack
    journal.undo()
    assert Journal(journal.path).load().game.move_stack == game.move_stack[:-1]
    undone = journal.path.read_bytes()
    journal.path.write_bytes(undone + torn)
    with read_only(small_fs):
        journal.load()
    archived = journal.archive(finished=False)
    assert archived.read_bytes() == undone
    journal.start(new_game(99).setup)
    after = play(new_game(99), 2, journal)
    assert Journal(journal.path).load().game.move_stack == after.move_stack


def test_a_torn_line_kept_on_a_read_only_card_is_forgotten_when_the_journal_is_gone(small_fs):
    # The journal taken away by hand while the device runs: the torn line went with it,
    # and the offset where it began means nothing in the next game's journal. Truncating
    # there before the first append would cut that journal's header short, or pad it
    # with zeros past its end.
    journal, game = journalled(small_fs, 5)
    journal.path.write_bytes(journal.path.read_bytes() + b"\0" * 40 + b"\n")
    with read_only(small_fs):
        assert journal.load().game.move_stack == game.move_stack
    journal.path.unlink()
    journal.start(new_game(99).setup)
    after = play(new_game(99), 2, journal)
    assert Journal(journal.path).load().game.move_stack == after.move_stack


@pytest.mark.parametrize("write", ["append", "undo"])
def test_a_journal_removed_outside_after_a_read_only_card_kept_its_torn_line_is_changed(
    small_fs, write
):
    # Not "cannot be shortened" at every action until a restart, which would find no game:
    # the caller is told the journal changed, and writes it again from the game it holds.
    journal, game = journalled(small_fs, 5)
    journal.path.write_bytes(journal.path.read_bytes() + b"\0" * 40 + b"\n")
    with read_only(small_fs):
        assert journal.load().game.move_stack == game.move_stack
    journal.path.unlink()
    play(game, 1)
    with pytest.raises(JournalChangedError, match="removed"):
        journal.append(game.move_stack[-1]) if write == "append" else journal.undo()
    journal.rewrite(game)
    play(game, 1, journal)
    assert Journal(journal.path).load().game.move_stack == game.move_stack


def test_a_torn_line_kept_on_a_read_only_card_is_forgotten_when_the_journal_is_written_again(
    small_fs,
):
    # The file it was in is replaced whole; where it began would lie past the new file's
    # end (a shorter game), and truncating there would pad the new file with zeros.
    journal, game = journalled(small_fs, 5)
    journal.path.write_bytes(journal.path.read_bytes() + b"\0" * 40 + b"\n")
    with read_only(small_fs):
        assert journal.load().game.move_stack == game.move_stack
    shorter = replay_of(game, 2)
    journal.rewrite(shorter)
    play(shorter, 1, journal)
    assert Journal(journal.path).load().game.move_stack == shorter.move_stack


def test_a_whole_last_line_of_garbage_is_dropped(tmp_path):
    # A power cut can leave the new length on disk with zeroed data.
    journal, game = journalled(tmp_path, 5)
    complete = journal.path.read_bytes()
    with journal.path.open("ab") as handle:
        handle.write(b"\0" * 20 + b"\n")
    loaded = Journal(tmp_path / "journal.jsonl").load()
    assert loaded.notice == TORN_NOTICE
    assert loaded.game.state() == game.state()
    assert journal.path.read_bytes() == complete


def test_a_torn_line_right_after_the_header(tmp_path):
    journal, game = journalled(tmp_path, 0)
    with journal.path.open("ab") as handle:
        handle.write(b'{"act')
    loaded = Journal(tmp_path / "journal.jsonl").load()
    assert loaded.notice == TORN_NOTICE
    assert loaded.game.state() == game.state()


def test_trailing_whitespace_is_tidied_silently(tmp_path):
    journal, game = journalled(tmp_path, 3)
    complete = journal.path.read_bytes()
    with journal.path.open("ab") as handle:
        handle.write(b"  ")
    loaded = Journal(tmp_path / "journal.jsonl").load()
    assert loaded.notice is None and loaded.game.state() == game.state()
    assert journal.path.read_bytes() == complete


def test_a_stale_temporary_file_is_removed(tmp_path):
    _, game = journalled(tmp_path, 2)
    stale = tmp_path / ".journal.jsonl.abc123.tmp"
    stale.write_text("half a header")
    assert Journal(tmp_path / "journal.jsonl").load().game.state() == game.state()
    assert not stale.exists()


# --- damage: moved aside, never deleted --------------------------------------------------


def damaged_name(suffix: str = "") -> str:
    return f"journal-damaged-20261122-101503{suffix}.jsonl"


def test_a_damaged_middle_line_moves_the_journal_aside(tmp_path):
    journal, _ = journalled(tmp_path, 6)
    lines = lines_of(journal.path)
    lines[3] = b'{"action": oops}'
    damaged = b"\n".join(lines) + b"\n"
    journal.path.write_bytes(damaged)

    loaded = Journal(tmp_path / "journal.jsonl", clock=fixed_clock).load()
    assert loaded.game is None
    assert loaded.moved_aside == tmp_path / damaged_name()
    assert loaded.moved_aside.read_bytes() == damaged  # byte for byte
    assert not journal.path.exists()
    assert "line 4: not valid JSON" in loaded.notice
    assert damaged_name() in loaded.notice
    assert "\n" not in loaded.notice
    # The device starts clean: nothing to load, and a new game can start.
    assert Journal(tmp_path / "journal.jsonl").load() == JournalLoad(None)
    Journal(tmp_path / "journal.jsonl").start(new_game(2).setup)


def test_a_damaged_line_before_a_torn_one_is_still_damage(tmp_path):
    # Only the last line can be torn by a power cut; two bad lines are damage.
    journal, _ = journalled(tmp_path, 6)
    lines = lines_of(journal.path)
    lines[5] = b"\0\0\0"
    damaged = b"\n".join(lines) + b'\n{"action": "adv'
    journal.path.write_bytes(damaged)
    loaded = Journal(tmp_path / "journal.jsonl", clock=fixed_clock).load()
    assert loaded.game is None and loaded.moved_aside.read_bytes() == damaged


def test_an_illegal_last_action_is_damage_not_a_tear(tmp_path):
    journal, game = journalled(tmp_path, 2)
    # A complete, valid line cannot come from a torn write: it is kept, set aside.
    action = '{"action": "automa"}' if game.turn != "automa" else '{"action": "advance"}'
    checked = with_checksums([*log_lines(game), action])[-1]
    with journal.path.open("a") as handle:
        handle.write(checked + "\n")
    damaged = journal.path.read_bytes()
    loaded = Journal(tmp_path / "journal.jsonl", clock=fixed_clock).load()
    assert loaded.game is None
    assert "line 4: illegal" in loaded.notice
    assert loaded.moved_aside.read_bytes() == damaged


HEADER = json.loads(header_line(solo_setup(DIFFICULTY_BY_NAME["master"], Deck.NORMAL, seed=4)))


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        pytest.param(b"", "line 1: the log is empty", id="empty"),
        pytest.param(b"\n\n", "line 1: the log is empty", id="blank lines"),
        pytest.param(
            b"\xff\xfe\x00garbage\n" + b'{"action": "advance"}\n',
            "line 1: not UTF-8",
            id="not utf-8",
        ),
        pytest.param(
            (json.dumps(HEADER | {"version": 2}) + "\n").encode(),
            "line 1: log version 2 is not supported",
            id="future version",
        ),
        pytest.param(
            b'{"hello": "world", "values": [1, 2, 3]}\n{"another": 1}\n',
            "line 1: not a game log",
            id="another program's JSON",
        ),
        pytest.param(b"[1, 2, 3]\n", "line 1: expected a JSON object", id="a JSON list"),
        pytest.param(
            (json.dumps(HEADER)[:40]).encode(),
            "line 1: the header line is incomplete",
            id="torn header",
        ),
        pytest.param(
            (json.dumps(HEADER) + "\n" + '{"action": "buy", "index": 7}\n' * 1).encode()
            + b'{"action": "advance"}\n',
            "line 2: illegal buy",
            id="illegal action in the middle",
        ),
        pytest.param(
            (json.dumps(HEADER) + "\n" + '{"action": "claim_bonus", "side": "Automa"}\n').encode(),
            "line 2: 'side' is 'Automa'; expected one of player, automa, p1, p2",
            id="misspelt side",
        ),
        pytest.param(
            (json.dumps(HEADER | {"difficulty": "Master"}) + "\n").encode(),
            "line 1: unknown difficulty 'Master'; expected one of intern,",
            id="misspelt difficulty",
        ),
        pytest.param(
            (json.dumps(HEADER | {"deck": "tactical "}) + "\n").encode(),
            "line 1: 'deck' is 'tactical '; expected one of normal, tactical",
            id="misspelt deck",
        ),
    ],
)
def test_unreadable_journals_are_moved_aside_with_a_notice(tmp_path, content, problem):
    path = tmp_path / "journal.jsonl"
    path.write_bytes(content)
    loaded = Journal(tmp_path / "journal.jsonl", clock=fixed_clock).load()
    assert loaded.game is None
    assert loaded.moved_aside == tmp_path / damaged_name()
    assert loaded.moved_aside.read_bytes() == content
    assert not path.exists()
    assert problem in loaded.notice, loaded.notice
    assert damaged_name() in loaded.notice
    assert "\n" not in loaded.notice and len(loaded.notice) < 200


def test_damaged_journals_in_the_same_second_get_distinct_names(tmp_path):
    kept = []
    for content in (b"first", b"second", b"third"):
        (tmp_path / "journal.jsonl").write_bytes(content)
        kept.append(Journal(tmp_path / "journal.jsonl", clock=fixed_clock).load().moved_aside)
    assert [path.name for path in kept] == [
        damaged_name(),
        damaged_name("-2"),
        damaged_name("-3"),
    ]
    assert [path.read_bytes() for path in kept] == [b"first", b"second", b"third"]


def test_a_long_problem_is_cut_to_one_short_line(tmp_path):
    header = HEADER | {"difficulty": "x" * 500}
    (tmp_path / "journal.jsonl").write_text(json.dumps(header) + "\n")
    loaded = Journal(tmp_path / "journal.jsonl", clock=fixed_clock).load()
    assert loaded.game is None
    assert "line 1: unknown difficulty" in loaded.notice
    assert "…" in loaded.notice and len(loaded.notice) < 200


# --- archive --------------------------------------------------------------------------


def test_archive_of_a_finished_game(tmp_path):
    journal = Journal(tmp_path / "journal.jsonl", clock=fixed_clock)
    game = finished_solo("fellow", "normal", seed=1)
    journal.start(game)
    content = journal.path.read_bytes()
    kept = journal.archive(finished=True)
    assert kept == tmp_path / "history" / "2026-11-22T10-15-03-solo.jsonl"
    assert kept.read_bytes() == content
    assert not journal.exists()
    assert journal.load().game is None


def test_archive_names_are_unique_and_say_mode_and_abandonment(tmp_path):
    journal = Journal(tmp_path / "journal.jsonl", clock=fixed_clock)
    names = []
    for game, finished in [
        (finished_solo("intern", "normal", seed=2), True),
        (finished_solo("intern", "normal", seed=3), True),
        (play(new_game(4), 6), False),
        (play(new_game(5), 6), False),
        (finished_two_player(6), True),
        (play(Game(two_player_setup(seed=7)), 3), False),
    ]:
        journal.start(game)
        names.append(journal.archive(finished).name)
    assert names == [
        "2026-11-22T10-15-03-solo.jsonl",
        "2026-11-22T10-15-03-solo-2.jsonl",
        "2026-11-22T10-15-03-solo-abandoned.jsonl",
        "2026-11-22T10-15-03-solo-abandoned-2.jsonl",
        "2026-11-22T10-15-03-two-player.jsonl",
        "2026-11-22T10-15-03-two-player-abandoned.jsonl",
    ]
    assert sorted(path.name for path in (tmp_path / "history").iterdir()) == sorted(names)


def test_archive_names_sort_by_time(tmp_path):
    times = iter([datetime(2026, 1, 2, 9, 0, 0), datetime(2026, 11, 22, 8, 5, 1)])
    journal = Journal(tmp_path / "journal.jsonl", clock=lambda: next(times))
    for seed in (1, 2):
        journal.start(new_game(seed))
        journal.archive(finished=False)
    assert sorted(path.name for path in (tmp_path / "history").iterdir()) == [
        "2026-01-02T09-00-00-solo-abandoned.jsonl",
        "2026-11-22T08-05-01-solo-abandoned.jsonl",
    ]


def test_archive_without_a_game_is_a_storage_error(tmp_path):
    with pytest.raises(StorageError, match="no game in progress"):
        Journal(tmp_path / "journal.jsonl").archive(finished=True)


def test_after_an_archive_an_append_finds_no_game_not_a_changed_journal(tmp_path):
    # The journal moved into history/ by the companion itself is not one changed outside:
    # nothing is to be written again.
    journal, game = journalled(tmp_path, 2)
    journal.archive(finished=False)
    play(game, 1)
    with pytest.raises(StorageError, match="no game in progress") as refused:
        journal.append(game.move_stack[-1])
    assert not isinstance(refused.value, JournalChangedError)
    assert not journal.exists()


def test_a_finished_game_not_yet_archived_loads_as_over(tmp_path):
    # The power went between the last append and the archive.
    journal = Journal(tmp_path / "journal.jsonl")
    journal.start(finished_solo("apprentice", "tactical", seed=8))
    loaded = journal.load().game
    assert loaded.is_over and loaded.outcome() is not None


def test_the_history_directory_can_be_elsewhere(tmp_path):
    journal = Journal(
        tmp_path / "state" / "journal.jsonl", history_dir=tmp_path / "kept", clock=fixed_clock
    )
    (tmp_path / "state").mkdir()
    journal.start(new_game())
    assert journal.archive(finished=False) == (
        tmp_path / "kept" / "2026-11-22T10-15-03-solo-abandoned.jsonl"
    )


def test_an_append_after_blank_lines_chains_on_the_last_action(tmp_path):
    journal, game = journalled(tmp_path, 3)
    with journal.path.open("ab") as handle:
        handle.write(b"\n\n")
    play(game, 1, journal)
    assert Journal(journal.path).load().game.state() == game.state()


# --- changed outside the companion ----------------------------------------------------------


@pytest.mark.parametrize("write", ["append", "undo"])
def test_a_journal_shortened_outside_is_refused_untouched_and_written_again_whole(tmp_path, write):
    journal, game = journalled(tmp_path, 4)
    whole = journal.path.read_bytes()
    shortened = b"".join(whole.splitlines(keepends=True)[:3])  # the header and 2 actions
    journal.path.write_bytes(shortened)
    game.push(play(replay_of(game, 4), 1).move_stack[-1])
    with pytest.raises(JournalChangedError, match="shortened outside"):
        if write == "append":
            journal.append(game.move_stack[-1])
        else:
            journal.undo()
    assert journal.path.read_bytes() == shortened
    journal.rewrite(game)
    # What a start and an append for each action writes, from another journal.
    uninterrupted = Journal(tmp_path / "uninterrupted.jsonl")
    uninterrupted.start(game.setup)
    for action in game.move_stack:
        uninterrupted.append(action)
    assert journal.path.read_bytes() == uninterrupted.path.read_bytes()
    # The rewritten file is the journal's own again: the next append follows it.
    game.push(play(replay_of(game, 5), 1).move_stack[-1])
    journal.append(game.move_stack[-1])
    assert Journal(journal.path).load().game.move_stack == game.move_stack
