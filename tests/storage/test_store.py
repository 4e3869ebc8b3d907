"""The store: one SQLite database for the game in progress and every game that ended.

Each test uses a real SQLite file in a temporary state directory, and real
processes where a second one is the point.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import sqlite3
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from storage.storage_games import finished_solo, finished_two_player, store_ended

from companion.app.companion import Companion
from companion.app.session import GameSession
from companion.display.sink import DummyDisplay
from companion.engine.actions import ADVANCE
from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.setup import solo_setup
from companion.inputs.events import EventQueue
from companion.runtime.loop import DisplayLoop
from companion.storage.database import DATABASE_NAME, SCHEMA_VERSION, StoreBusyError
from companion.storage.files import StorageError
from companion.storage.statistics import statistics
from companion.storage.store import Result, Store
from companion.testing.autoplay import inputs_for, random_choice, start_game
from companion.views import TextView

REPOSITORY = Path(__file__).resolve().parents[2]
DEMO = REPOSITORY / "docs" / "demo-solo.txt"


def companion(args: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        check=False,
        **{"cwd": REPOSITORY, **kwargs},
    )


def demo_played(state: Path) -> dict:
    """docs/demo-solo.txt played with seed 1 into `state` (17 actions); its final state."""
    done = companion(
        ["simulate", "--script", str(DEMO), "--seed", "1", "--state-dir", str(state), "--json"]
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def names_in(directory: Path) -> set[str]:
    return {path.name for path in directory.iterdir()}


# --- 1. one database ------------------------------------------------------------------


def test_the_game_in_progress_and_the_games_that_ended_are_one_database(tmp_path):
    app = Companion(tmp_path, itertools.count(1).__next__)
    rng = random.Random(1)
    for solo in (True, False):
        start_game(app, solo, False, rng)
        choose = random_choice(rng)
        while app.game is not None:
            for item in inputs_for(app.view(), choose, rng):
                app.handle(item)
    start_game(app, True, False, rng)
    assert names_in(tmp_path) <= {DATABASE_NAME, f"{DATABASE_NAME}-wal", "settings.json"}
    assert app.store.query("SELECT count(*) FROM games WHERE finished") == [(2,)]
    assert app.store.query("SELECT count(*) FROM current_game") == [(1,)]


def test_a_crafted_progress_file_deletes_no_confirmed_action(tmp_path):
    # The attack of issue 24: a progress.json naming the last 7 of 17 actions as undone
    # and 10 as confirmed cut the journal to 10 actions, without a copy. The store
    # keeps where the table stands itself: the file is set aside as an earlier build's.
    played = demo_played(tmp_path)
    assert played["actions"] == 17
    exported = companion(["export", "--state-dir", str(tmp_path)]).stdout.splitlines()
    last_seven = [json.loads(line) for line in exported[-7:]]
    (tmp_path / "progress.json").write_text(json.dumps({"acknowledged": 10, "undone": last_seven}))
    (tmp_path / "nothing.txt").write_text("")
    resumed = companion(
        ["simulate", "--script", str(tmp_path / "nothing.txt"), "--state-dir", str(tmp_path)]
        + ["--json"]
    )
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout) == played
    assert (tmp_path / "earlier-build" / "progress.json").exists()


# --- 2. one transaction per input, durably ---------------------------------------------


MODES = ("journal_mode", "synchronous", "wal_autocheckpoint")


def test_the_database_commits_durably_in_one_fsync(tmp_path):
    with Store(tmp_path) as store:
        modes = [store.query(f"PRAGMA {name}")[0][0] for name in MODES]
    # WAL: a commit appends to the log and fsyncs it once; FULL (2): before it returns;
    # never a checkpoint in a commit (it fsyncs the log and the database once more).
    assert modes == ["wal", 2, 0]


def commits_per_input(app: Companion, inputs: int, rng: random.Random) -> list[tuple[str, int]]:
    """Play on for `inputs` inputs; for each, what it was and how many commits it made."""
    commits = []
    app.store._db.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
    counted = []
    choose = random_choice(rng)
    while len(counted) < inputs and app.game is not None:
        for item in inputs_for(app.view(), choose, rng):
            before = len(commits)
            app.handle(item)
            counted.append((item.name, len(commits) - before))
    return counted


def test_each_input_makes_at_most_one_commit_and_one_that_changes_nothing_makes_none(tmp_path):
    app = Companion(tmp_path, itertools.count(3).__next__)
    rng = random.Random(3)
    start_game(app, True, False, rng)
    counted = commits_per_input(app, 300, rng)
    assert max(count for _, count in counted) == 1
    # Turning the encoder only moves the selection: nothing saved changes.
    turns = [count for name, count in counted if name in ("NEXT", "PREVIOUS")]
    assert turns and not any(turns)
    assert sum(count for _, count in counted) > 20


def test_the_write_ahead_log_is_emptied_after_the_frame_of_a_game_s_end(tmp_path):
    # Without a checkpoint between start and close the log grew by every game played
    # (50 MB after 60 games). Played through the display loop as on the device: the
    # frame of the input that ends a game is sent first, then the log is emptied.
    app = Companion(tmp_path, itertools.count(5).__next__)
    wal = tmp_path / f"{DATABASE_NAME}-wal"
    events: list[str] = []
    loop = DisplayLoop(app, DummyDisplay(width=128, height=64, mode="1"))
    loop.on_frame = lambda: events.append("frame")
    app.store._db.set_trace_callback(
        lambda sql: events.append("emptied") if "wal_checkpoint" in sql else None
    )
    rng = random.Random(5)
    for game in range(3):
        start_game(app, game % 2 == 0, False, rng)
        choose = random_choice(rng)
        while app.game is not None:
            queue = EventQueue(maxlen=1000)
            for item in inputs_for(app.view(), choose, rng):
                queue.put(item)
            queue.close()
            loop.run(queue)
        assert wal.stat().st_size == 0
    assert events.count("emptied") == 3
    after = [events[index - 1] for index, event in enumerate(events) if event == "emptied"]
    assert after == ["frame"] * 3
    assert app.store.query("SELECT count(*) FROM games WHERE finished") == [(3,)]


def test_an_undo_is_one_transaction(tmp_path, monkeypatch):
    # The power goes after the undo's actions are deleted and before the reverse steps
    # are recorded: nothing of the undo is kept, the game is as before it.
    from companion.app.session import GameSession
    from companion.engine.actions import ADVANCE, AUTOMA_TURN
    from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
    from companion.engine.setup import solo_setup

    class PowerCut(BaseException):
        pass

    store = Store(tmp_path)
    session = GameSession(store)
    session.start(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=3))
    session.play(ADVANCE)
    session.acknowledge()
    while session.current.turn == "automa":
        session.play(AUTOMA_TURN)
        session.acknowledge()
    moves = list(session.current.move_stack)

    def cut(standing):
        raise PowerCut

    monkeypatch.setattr(store, "_put", cut)
    with pytest.raises(PowerCut):
        session.undo()
    store.close()
    with Store(tmp_path) as reopened:
        resumed = GameSession(reopened)
        assert resumed.current.move_stack == moves and resumed.progress.undone == []


# --- 3. one writer ---------------------------------------------------------------------


@pytest.mark.one_process_per_store
def test_the_database_is_held_for_the_process_s_life(tmp_path):
    with Store(tmp_path):
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            sqlite3.connect(tmp_path / DATABASE_NAME, timeout=0).execute(
                "SELECT count(*) FROM games"
            ).fetchall()
        with pytest.raises(StoreBusyError, match=str(tmp_path)):
            Store(tmp_path)


def test_a_second_instance_exits_2_with_one_line_naming_the_state_dir(tmp_path):
    with Store(tmp_path):
        for command in (["simulate", "--script", str(DEMO)], ["export"]):
            done = companion([*command, "--state-dir", str(tmp_path)])
            assert done.returncode == 2
            assert done.stderr.count("\n") == 1 and str(tmp_path) in done.stderr
            assert "in use" in done.stderr


# --- 4. statistics are SQL ---------------------------------------------------------------


def test_statistics_are_worked_out_over_the_games_that_ended(tmp_path):
    # Worked out by hand (the player only advances, 5 + 53 buttons, -2 per empty
    # square, plus the buttons given): seed 1 at fellow/normal: -102 against the
    # Automa's 28, margin -130; seed 2 with 300 buttons more: 200 against 30, +170.
    # A two-player game and an abandoned solo game: the first counted apart, the
    # second not at all.
    minutes = (datetime(2026, 11, 23, 19, minute) for minute in itertools.count())
    with Store(tmp_path, clock=lambda: next(minutes)) as store:
        store_ended(store, finished_solo("fellow", "normal", 1))
        store_ended(store, finished_solo("fellow", "normal", 2, 300))
        store_ended(store, finished_two_player(5))
        store_ended(store, finished_solo("legend", "tactical", 3, 900), finished=False)
        stats = statistics(store)
    [(kind, solo)] = stats.solo.items()
    assert (kind[0].name, kind[1].value) == ("fellow", "normal")
    assert (solo.games, solo.wins, solo.best_margin, solo.average_margin) == (2, 1, 170, 20.0)
    assert stats.solo_overall == solo and stats.two_player_games == 1
    assert [record.date.minute for record in stats.recent] == [2, 1, 0]
    assert dict(stats.recent[1].scores) == {"player": 200, "automa": 30}


# --- 5. the game log stays the exchange format -------------------------------------------


def test_export_writes_the_game_in_progress_as_a_game_log_replay_reads(tmp_path):
    played = demo_played(tmp_path)
    exported = companion(["export", "--state-dir", str(tmp_path)])
    assert exported.returncode == 0, exported.stderr
    lines = exported.stdout.splitlines()
    assert len(lines) == 18 and json.loads(lines[0])["format"] == "patchwork-companion-log"
    log = tmp_path / "game.jsonl"
    log.write_text(exported.stdout)
    replayed = companion(["replay", str(log), "--json"])
    assert json.loads(replayed.stdout) == played


def test_export_reads_a_state_directory_named_relative_to_where_it_runs(tmp_path):
    demo_played(tmp_path / "state")
    exported = companion(["export", "--state-dir", "state"], cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    assert len(exported.stdout.splitlines()) == 18


def test_export_of_ended_games_by_number_and_the_last(tmp_path):
    with Store(tmp_path) as store:
        store_ended(store, finished_solo("fellow", "normal", 1))
        store_ended(store, finished_two_player(5))
    first = companion(["export", "--state-dir", str(tmp_path), "--game", "1"])
    last = companion(["export", "--state-dir", str(tmp_path), "--game", "last"])
    assert json.loads(first.stdout.splitlines()[0])["mode"] == "solo"
    assert json.loads(last.stdout.splitlines()[0])["mode"] == "two-player"
    for game, problem in (("3", "no game 3 has ended"), ("current", "no game is in progress")):
        missing = companion(["export", "--state-dir", str(tmp_path), "--game", game])
        assert missing.returncode == 2 and missing.stderr.strip().endswith(problem)


def test_an_abandoned_game_replays_as_abandoned_not_as_finished_or_in_progress(tmp_path):
    # Started, one advance (the player from 0 to 1, in front of the Automa: the Automa's
    # turn next, the circle's 33 patches untouched), then "New solo game" abandons it.
    session = GameSession(Store(tmp_path))
    session.start(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=7))
    session.play(ADVANCE)
    session.start(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=8))
    session.play(ADVANCE)
    session.abandon()
    assert session.store.query("SELECT finished FROM games") == [(0,), (0,)]
    session.store.close()
    with Store(tmp_path) as store:
        store_ended(store, finished_two_player(5))
    for game in ("1", "2"):
        log = tmp_path / f"game-{game}.jsonl"
        log.write_text(companion(["export", "--state-dir", str(tmp_path), "--game", game]).stdout)
        assert log.read_text().splitlines()[-1] == '{"end": "abandoned"}'
        text = companion(["replay", str(log)])
        assert text.returncode == 0, text.stderr
        lines = text.stdout.splitlines()
        assert lines[0] == "Solo game, fellow, normal deck; abandoned after 1 action, not finished."
        assert lines[-1] == "automa was to play; 33 patches left in the circle."
        state = json.loads(companion(["replay", str(log), "--json"]).stdout)
        assert (state["abandoned"], state["over"], state["actions"]) == (True, False, 1)
    finished = companion(["export", "--state-dir", str(tmp_path), "--game", "last"]).stdout
    replayed = companion(["replay", "-", "--json"], input=finished)
    assert json.loads(replayed.stdout)["abandoned"] is False
    assert "abandoned" not in companion(["replay", "-"], input=finished).stdout


def test_a_game_played_to_its_end_and_left_for_another_is_stored_finished(tmp_path):
    # Played to its end (always the first legal action), then a new game from the menu
    # before its end was confirmed: it is finished, not abandoned.
    session = GameSession(Store(tmp_path))
    session.start(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=7))
    while not session.current.is_over:
        session.play(session.current.legal_actions()[0])
    session.start(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=8))
    assert session.store.query("SELECT finished FROM games") == [(1,)]
    session.store.close()
    log = companion(["export", "--state-dir", str(tmp_path), "--game", "1"]).stdout
    assert '"end": "abandoned"' not in log
    assert json.loads(companion(["replay", "-", "--json"], input=log).stdout)["abandoned"] is False


def test_a_line_after_an_abandoned_games_end_is_refused(tmp_path):
    log = tmp_path / "game.jsonl"
    header = {"format": "patchwork-companion-log", "version": 1, "mode": "two-player"}
    ending = ['{"end": "abandoned"}', '{"action": "advance"}']
    log.write_text("\n".join([json.dumps({**header, "start": "p1", "seed": 3}), *ending]))
    refused = companion(["replay", str(log)])
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "line 3: the game was abandoned at line 2" in refused.stderr
    log.write_text(log.read_text().replace('"abandoned"}', '"lost"}', 1))
    assert (
        "line 2: 'end' is 'lost'; expected one of abandoned"
        in companion(["replay", str(log)]).stderr
    )


def test_a_line_both_an_action_and_the_end_is_refused(tmp_path):
    log = tmp_path / "game.jsonl"
    header = {"format": "patchwork-companion-log", "version": 1, "mode": "two-player"}
    both = '{"action": "advance", "end": "abandoned"}'
    log.write_text("\n".join([json.dumps({**header, "start": "p1", "seed": 3}), both]))
    refused = companion(["replay", str(log)])
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "line 2: an action or the game's end, not both" in refused.stderr


def test_export_pipes_into_replay_from_standard_input(tmp_path):
    played = demo_played(tmp_path)
    command = [sys.executable, "-m", "companion"]
    export = subprocess.Popen(
        [*command, "export", "--state-dir", str(tmp_path)], stdout=subprocess.PIPE, cwd=REPOSITORY
    )
    replayed = subprocess.run(
        [*command, "replay", "-", "--json"],
        stdin=export.stdout,
        capture_output=True,
        text=True,
        check=False,
        cwd=REPOSITORY,
    )
    export.stdout.close()
    assert export.wait() == 0 and replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout) == played
    too_long = companion(["replay", "-"], input="x" * (1 << 20) + "\n")
    assert too_long.returncode == 2 and too_long.stderr.count("\n") == 1
    assert "more than 1,048,576 bytes" in too_long.stderr


def test_export_only_reads(tmp_path):
    missing = companion(["export", "--state-dir", str(tmp_path / "none" / "deeper")])
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1
    assert "no such directory" in missing.stderr and not (tmp_path / "none").exists()
    empty = companion(["export", "--state-dir", str(tmp_path)])
    assert empty.returncode == 2 and empty.stderr.count("\n") == 1
    assert "no such database" in empty.stderr and not list(tmp_path.iterdir())
    demo_played(tmp_path)
    (tmp_path / "journal.jsonl").write_text("an earlier build's\n")
    before = names_in(tmp_path)
    exported = companion(["export", "--state-dir", str(tmp_path)])
    assert exported.returncode == 0 and exported.stderr == ""
    assert len(exported.stdout.splitlines()) == 18 and names_in(tmp_path) == before


def test_export_reads_what_the_log_holds_after_a_power_cut_and_refuses_a_held_database(
    tmp_path,
):
    # The files as a power cut leaves them: the last actions in the log alone.
    played_in = tmp_path / "played"
    state = tmp_path / "state"
    state.mkdir()
    demo_played(played_in)
    store = Store(played_in)
    store._db.execute("DELETE FROM moves WHERE number = 17")  # committed to the log alone
    busy = companion(["export", "--state-dir", str(played_in)])
    assert busy.returncode == 2 and busy.stderr.count("\n") == 1 and "in use" in busy.stderr
    # Read after: closing a descriptor of the database drops this process's locks on it.
    copies = {name: (played_in / name).read_bytes() for name in names_in(played_in)}
    assert copies[f"{DATABASE_NAME}-wal"]
    store.close()
    for name, data in copies.items():
        (state / name).write_bytes(data)
    before = names_in(state)
    exported = companion(["export", "--state-dir", str(state)])
    assert exported.returncode == 0, exported.stderr
    assert len(exported.stdout.splitlines()) == 1 + 16 and names_in(state) == before


def test_a_store_opened_to_read_has_every_field_of_one_opened_to_write(tmp_path):
    # Reading needs few of them, but a method reaching one that was never set would fail
    # with AttributeError, not a line the user can read.
    with Store(tmp_path) as written:
        fields = set(vars(written))
    with Store(tmp_path, writable=False) as read:
        assert set(vars(read)) == fields
        with pytest.raises(StorageError, match="cannot be written"):
            read.end(Result(finished=False))


# --- 6. damage and hostile files -----------------------------------------------------------


def notice_after_start(state: Path, language: str = "pl") -> str:
    (state / "settings.json").write_text(json.dumps({"language": language}))
    app = Companion(state)
    app.store.close()
    view = app.view()
    assert isinstance(view, TextView)
    return " ".join(view.lines)


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda path: path.write_bytes(b"not a database\n" * 100), id="not one"),
        pytest.param(lambda path: path.write_bytes(b""), id="empty and not ours"),
        pytest.param(
            lambda path: path.write_bytes(path.read_bytes()[:4096] + b"\xff" * 8192),
            id="pages overwritten",
        ),
    ],
)
def test_a_damaged_database_is_renamed_aside_with_a_notice_and_the_device_starts_fresh(
    tmp_path, damage
):
    with Store(tmp_path) as store:
        store_ended(store, finished_two_player(5))
    path = tmp_path / DATABASE_NAME
    damage(path)
    if not path.read_bytes():
        sqlite3.connect(path).execute("PRAGMA user_version = 7").close()
    before = path.read_bytes()
    text = notice_after_start(tmp_path)
    kept = [name for name in names_in(tmp_path) if name.startswith("companion-damaged-")]
    assert len(kept) == 1 and (tmp_path / kept[0]).read_bytes() == before
    # Polish: "the saved game could not be read; it was kept as …"
    assert "Nie udało się odczytać zapisanej gry" in text and kept[0] in text.replace(" ", "")
    with Store(tmp_path) as fresh:
        assert fresh.query("SELECT count(*) FROM games") == [(0,)]
        assert fresh.set_aside is None


def test_a_damaged_page_no_start_reads_is_found_by_the_quick_check(tmp_path):
    # The games that ended are not read at start: only the check finds their last page
    # overwritten, before the statistics screen would meet it.
    with Store(tmp_path) as store:
        for seed in range(12):
            store_ended(store, finished_two_player(seed))
    path = tmp_path / DATABASE_NAME
    data = path.read_bytes()
    path.write_bytes(data[:-4096] + b"\xff" * 4096)
    with Store(tmp_path) as store:
        assert store.set_aside is not None and "damaged" in store.problem
    path = tmp_path / DATABASE_NAME
    path.write_bytes(data[:-4096] + b"\xff" * 4096)
    (tmp_path / "script.txt").write_text("")
    done = companion(
        ["simulate", "--script", str(tmp_path / "script.txt"), "--state-dir", str(tmp_path)]
    )
    assert done.returncode == 0 and done.stderr.count("\n") == 1 and "damaged" in done.stderr


def test_a_database_whose_game_does_not_replay_is_renamed_aside(tmp_path):
    demo_played(tmp_path)
    with sqlite3.connect(tmp_path / DATABASE_NAME) as db:
        db.execute("""UPDATE moves SET line = '{"action": "buy", "index": 9}' WHERE number = 4""")
    db.close()
    text = notice_after_start(tmp_path, "en")
    assert "could not be read" in text and "companion-damaged-" in text.replace(" ", "")
    with Store(tmp_path) as store:
        assert not store.has_game()


def test_a_database_of_another_schema_version_is_not_used(tmp_path):
    with Store(tmp_path) as store:
        store._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with Store(tmp_path) as store:
        assert (
            store.set_aside is not None and f"schema version {SCHEMA_VERSION + 1}" in store.problem
        )


def test_a_symbolic_link_in_place_of_the_database_is_refused_and_its_target_untouched(tmp_path):
    outside = tmp_path / "outside.db"
    outside.write_bytes(b"")
    state = tmp_path / "state"
    state.mkdir()
    (state / DATABASE_NAME).symlink_to(outside)
    with pytest.raises(StorageError, match="symbolic link"):
        Store(state)
    done = companion(["simulate", "--script", str(DEMO), "--state-dir", str(state)])
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "symbolic link" in done.stderr and outside.read_bytes() == b""


def test_a_database_with_a_second_name_is_refused(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    Store(state).close()
    os.link(state / DATABASE_NAME, tmp_path / "elsewhere.db")
    with pytest.raises(StorageError, match="2 links"):
        Store(state)


@pytest.mark.parametrize("suffix", ["-wal", "-shm", "-journal"])
@pytest.mark.parametrize("link", ["hard", "symbolic"])
def test_a_linked_file_beside_the_database_is_refused_and_its_target_untouched(
    tmp_path, suffix, link
):
    outside = tmp_path / "outside"
    outside.write_bytes(b"X\n")
    state = tmp_path / "state"
    state.mkdir()
    sidecar = state / (DATABASE_NAME + suffix)
    if link == "hard":
        os.link(outside, sidecar)
    else:
        sidecar.symlink_to(outside)
    done = companion(["simulate", "--script", str(DEMO), "--state-dir", str(state)])
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert DATABASE_NAME + suffix in done.stderr and outside.read_bytes() == b"X\n"


def test_a_state_directory_that_is_a_symbolic_link_is_refused(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "state").symlink_to(real)
    done = companion(["simulate", "--script", str(DEMO), "--state-dir", str(tmp_path / "state")])
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "symbolic link" in done.stderr and not list(real.iterdir())


def test_the_files_of_an_earlier_build_are_set_aside_with_a_notice(tmp_path):
    (tmp_path / "journal.jsonl").write_text('{"format": "patchwork-companion-log"}\n')
    (tmp_path / "history").mkdir()
    (tmp_path / "history" / "2026-11-22T10-15-03-solo.jsonl").write_text("{}\n")
    text = notice_after_start(tmp_path, "en")
    assert text.replace(" ", "") == "Thefilesofanearlierversionweresetasideinearlier-build."
    kept = tmp_path / "earlier-build"
    assert (kept / "journal.jsonl").exists() and (kept / "history").is_dir()
    assert not (tmp_path / "journal.jsonl").exists()


def test_a_write_the_database_refuses_is_said_with_the_card_s_reason(tmp_path):
    # SQLite's own limit on the file's pages stands in for a full card here; the real
    # full and read-only cards are in tests/app/test_storage_failures.py.
    from companion.app.session import GameSession
    from companion.engine.actions import ADVANCE
    from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
    from companion.engine.setup import solo_setup

    store = Store(tmp_path)
    session = GameSession(store)
    session.start(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=3))
    ((pages,),) = store.query("PRAGMA page_count")
    store.query(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(OSError) as refused:
        store.save(session.progress.standing(), add='{"action": "advance"}' + " " * 9000)
    assert refused.value.errno == 28  # ENOSPC: "the card is full" on the screen
    assert session.current.move_stack == []
    store.query("PRAGMA max_page_count = 1000000")
    session.play(ADVANCE)
    assert store.query("SELECT count(*) FROM moves") == [(1,)]
