"""Every error of the command line is one line on stderr, never a traceback."""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import settled_log_bytes

from companion.app.session import GameSession
from companion.cli import seed_number
from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.gamelog import header_line
from companion.engine.setup import SEEDS, Side, solo_setup, two_player_setup
from companion.output import PROGRAM
from companion.storage.store import Store

DEEP = "[" * 100_000
HUGE = "1" * 5_000


def command(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        cwd=cwd,
    )


def assert_one_line(result: subprocess.CompletedProcess, status: int, *words: str) -> None:
    assert result.returncode == status, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    # The line names the program, as every line a user is shown does: a bare path
    # could come from any program in a pipeline.
    assert result.stderr.startswith(PROGRAM), result.stderr
    for word in words:
        assert word in result.stderr


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("deep.jsonl", DEEP + "\n", ("line 1", "nested")),
        (
            "huge.jsonl",
            '{"format": "patchwork-companion-log", "version": ' + HUGE + "}\n",
            ("line 1", "digits"),
        ),
        ("blank.jsonl", "\n" * (2 << 20), ("bytes, more than",)),
        (
            "side.jsonl",
            header_line(two_player_setup(Side.P1, seed=1))
            + '\n{"action": "adjust", "side": "p1\\u0000", "delta": 1}\n',
            ("line 2", "'side' is 'p1\\x00'"),
        ),
        (
            "difficulty.jsonl",
            header_line(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=1)).replace(
                '"fellow"', '"Fellow"'
            )
            + "\n",
            ("line 1", "unknown difficulty 'Fellow'; expected one of intern,"),
        ),
        (
            "deck.jsonl",
            header_line(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=1)).replace(
                '"normal"', '"norm\\u0000al"'
            )
            + "\n",
            ("line 1", "'deck' is 'norm\\x00al'; expected one of normal, tactical"),
        ),
    ],
)
def test_replay_of_a_hostile_log(tmp_path, name, content, words):
    (tmp_path / name).write_text(content)
    assert_one_line(command("replay", name, cwd=tmp_path), 2, name, *words)


def test_replay_of_a_file_whose_size_reads_0_judges_its_content(tmp_path):
    # /proc/self/status has a size of 0 and some thirty lines of "Name:\tpython3": it
    # was said to be empty; its first line is not JSON, let alone a log's header.
    result = command("replay", "/proc/self/status", cwd=tmp_path)
    assert_one_line(result, 2, "/proc/self/status: line 1: not valid JSON")
    assert "empty" not in result.stderr


def test_replay_of_a_missing_log_names_the_program_and_the_file(tmp_path):
    result = command("replay", "gone.jsonl", cwd=tmp_path)
    assert_one_line(result, 2, f"{PROGRAM} replay: gone.jsonl: cannot read")


def test_replay_of_a_fifo_is_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "log.jsonl")
    assert_one_line(command("replay", "log.jsonl", cwd=tmp_path), 2, "FIFO")


def input_closed() -> None:
    os.close(0)  # in the child, before it runs: `<&-`


def test_replay_of_a_closed_standard_input_says_so(tmp_path):
    # `replay - <&-`: Python gives no sys.stdin at all, not an empty one.
    result = subprocess.run(
        [sys.executable, "-m", "companion", "replay", "-"],
        capture_output=True,
        preexec_fn=input_closed,
        text=True,
        check=False,
        timeout=60,
        cwd=tmp_path,
    )
    assert_one_line(result, 2, f"{PROGRAM} replay: -: cannot read: standard input is closed")


def test_simulate_script_missing(tmp_path):
    result = command("simulate", "--script", "none.txt", "--state-dir", "state", cwd=tmp_path)
    assert_one_line(result, 2, "none.txt: cannot read: No such file or directory")
    assert "Errno" not in result.stderr


@pytest.mark.parametrize(
    "text", ["4294967296", "9" * 400, "0" * 11 + "9" * 400, "-1", "abc", "1e3", " 5", "٣"]
)
def test_a_seed_the_game_log_could_not_keep_is_refused(text):
    with pytest.raises(argparse.ArgumentTypeError, match="a seed is a whole number from 0 to"):
        seed_number(text)


def test_a_seed_may_start_with_zeros():
    assert seed_number("0") == 0 and seed_number("0" * 30 + "4294967295") == 4294967295


def test_a_game_of_the_largest_seed_is_read_back(tmp_path):
    # A 400-digit seed went into the game log, whose reader takes 20 digits at most: the
    # game was set aside as damaged at the next start. The largest seed allowed, and
    # the next game's (the simulation counts on from it), are kept.
    largest = seed_number(str(SEEDS.stop - 1))
    for seed in (largest, largest + 1):
        (tmp_path / str(seed)).mkdir()
        store = Store(tmp_path / str(seed))
        GameSession(store).start(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=seed))
        resumed = GameSession(store)
        assert store.set_aside is None and resumed.game.setup.seed == seed


def test_simulate_script_not_utf8(tmp_path):
    (tmp_path / "script.txt").write_bytes(b"next\n\xff\xfe\n")
    result = command("simulate", "--script", "script.txt", "--state-dir", "state", cwd=tmp_path)
    assert_one_line(result, 2, "script.txt", "not UTF-8")


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("a = " + "[" * 5_000 + "\n", ("deep.toml", "nested too deeply")),
        ("a = " + "[" * 100_000 + "\n", ("deep.toml", "more than a profile")),
        ("a = " + HUGE + "\n", ("deep.toml", "5000 digits")),
    ],
)
def test_run_with_a_hostile_profile(tmp_path, content, words):
    (tmp_path / "deep.toml").write_text(content)
    result = command("run", "--profile", "deep.toml", "--state-dir", "state", cwd=tmp_path)
    assert_one_line(result, 2, *words)


def test_run_with_a_fifo_as_profile_is_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "pad.toml")
    result = command("run", "--profile", "pad.toml", "--state-dir", "state", cwd=tmp_path)
    assert_one_line(result, 2, "pad.toml", "FIFO")


def test_a_second_instance_on_one_state_dir_exits_2_naming_it(tmp_path):
    (tmp_path / "state").mkdir()
    (tmp_path / "script.txt").write_text("next\n")
    with Store(tmp_path / "state"):
        result = command("simulate", "--script", "script.txt", "--state-dir", "state", cwd=tmp_path)
        assert_one_line(result, 2, "state directory state is in use by another companion")
        assert not (tmp_path / "state" / "companion.log").exists()
    # Released: the same command now runs.
    result = command("simulate", "--script", "script.txt", "--state-dir", "state", cwd=tmp_path)
    assert result.returncode == 0, result.stderr


def test_run_with_a_terminal_profile_names_run_in_its_errors(tmp_path):
    # The simulation profile draws in the terminal: `run` simulates, and its one-line
    # errors name the command the user typed, `run`, not `simulate`.
    (tmp_path / "state").mkdir()
    with Store(tmp_path / "state"):
        result = command("run", "--profile", "simulation", "--state-dir", "state", cwd=tmp_path)
    assert_one_line(result, 2, "patchwork-companion run: ", "is in use by another companion")


def test_ctrl_c_in_the_simulation_is_one_line(tmp_path):
    # A long script keeps the simulation busy; Ctrl-C is SIGINT to the process. The script
    # starts a game first: once it is committed, the loop is running.
    (tmp_path / "script.txt").write_text("select\n" * 8 + "next\nprevious\n" * 50_000)
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "simulate", "--script", "script.txt"]
        + ["--state-dir", "state"],
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    settled_log_bytes(tmp_path / "state", deadline, quiet=0.2)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    # Ctrl-C ends the loop in order (the game is stored): at most one line, never a
    # traceback, whether it lands in the loop (status 0) or before it (130).
    assert process.returncode in (0, 130), stderr
    assert "Traceback" not in stderr and stderr.count("\n") <= 1, stderr


def test_an_error_before_any_log_is_set_up_is_one_line(tmp_path):
    # A command imports what it runs only when it runs (a missing part of the install
    # fails there), before it sets up its log: logging's last resort would print the
    # traceback on stderr.
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.modules['companion.simulate'] = None; "
            "from companion.cli import main; sys.exit(main(['simulate']))",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        cwd=tmp_path,
    )
    assert_one_line(result, 1, "unexpected error", "companion.simulate")


def test_replay_into_a_pipe_nobody_reads_says_nothing(tmp_path):
    # `patchwork-companion replay LOG | head -1`: head gone, as `cat` would, silently.
    # Its output block-buffered, as on the player's machine (not this one's unbuffered
    # Python), so the pipe is found closed at the flush, not at the print.
    buffered = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    read_end, write_end = os.pipe()
    os.close(read_end)
    example = Path(__file__).resolve().parents[1] / "docs" / "example-solo.jsonl"
    try:
        done = subprocess.run(
            [sys.executable, "-m", "companion", "replay", str(example)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=60,
            cwd=tmp_path,
            env=buffered,
        )
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (141, "")


def output_closed() -> None:
    os.close(1)  # in the child, before it runs: `>&-`


UNWRITABLE_OUTPUTS = pytest.mark.parametrize(
    ("stdout", "preexec_fn", "reason"),
    [(None, output_closed, "it is closed"), ("/dev/full", None, "No space left on device")],
)


@pytest.fixture(scope="module")
def a_game_played_once(tmp_path_factory):
    """A state directory with a solo game on its first turn, played once for the module."""
    where = tmp_path_factory.mktemp("game")
    (where / "start.txt").write_text("select\n" * 8)  # new solo game, its deal shown
    result = command(
        "simulate", "--script", "start.txt", "--state-dir", "state", "--seed", "5", cwd=where
    )
    assert result.returncode == 0, result.stderr
    assert (where / "state" / "companion.db").exists()
    return where / "state"


@pytest.fixture
def state_with_a_game(a_game_played_once, tmp_path):
    """A copy of that state directory, this test's own, and its files' bytes."""
    state = shutil.copytree(a_game_played_once, tmp_path / "state")
    return state, files_of(state)


def files_of(state: Path) -> dict[str, bytes]:
    # The log is the run's own; everything else is the game's.
    return {
        path.name: path.read_bytes() for path in state.iterdir() if path.name != "companion.log"
    }


@UNWRITABLE_OUTPUTS
@pytest.mark.parametrize("how", [["simulate", "--display", "terminal"], ["run"]])
def test_a_terminal_display_that_cannot_write_says_so_and_keeps_the_game(
    tmp_path, state_with_a_game, stdout, preexec_fn, reason, how
):
    state, files = state_with_a_game
    profile = ["--profile", "simulation"] if how == ["run"] else []
    with open(stdout or os.devnull, "w") as output:
        result = subprocess.run(
            [sys.executable, "-m", "companion", *how, *profile, "--state-dir", str(state)],
            stdin=subprocess.DEVNULL,
            stdout=output if stdout else None,
            stderr=subprocess.PIPE,
            preexec_fn=preexec_fn,
            text=True,
            check=False,
            timeout=60,
        )
    # Said as the command typed: `run` with a terminal profile runs the simulation's code.
    said = f"patchwork-companion {how[0]}: the terminal display cannot write to standard output"
    assert_one_line(result, 2, f"{said}: {reason}")
    assert files_of(state) == files


@pytest.mark.parametrize("unbuffered", ["1", ""])
@UNWRITABLE_OUTPUTS
def test_replay_that_cannot_write_says_so(tmp_path, stdout, preexec_fn, reason, unbuffered):
    # Unbuffered, the print fails; block-buffered, as on most machines, the flush at the end.
    env = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = unbuffered
    example = Path(__file__).resolve().parents[1] / "docs" / "example-solo.jsonl"
    with open(stdout or os.devnull, "w") as output:
        result = subprocess.run(
            [sys.executable, "-m", "companion", "replay", str(example)],
            stdout=output if stdout else None,
            stderr=subprocess.PIPE,
            preexec_fn=preexec_fn,
            env=env,
            text=True,
            check=False,
            timeout=60,
        )
    assert_one_line(result, 1, f"cannot write to standard output: {reason}")


def environment(*, unbuffered: str) -> dict[str, str]:
    """This environment, Python's output unbuffered (PYTHONUNBUFFERED, as `-u`) or not."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = unbuffered
    return env


SCRIPTED_JSON = ["simulate", "--script", "start.txt", "--json"]
WRITERS = pytest.mark.parametrize(
    "how", [SCRIPTED_JSON, ["check-hardware", "--profile", "simulation"]], ids=" ".join
)


@pytest.mark.parametrize("unbuffered", ["1", ""])
@UNWRITABLE_OUTPUTS
@WRITERS
def test_a_command_that_cannot_write_says_so(tmp_path, stdout, preexec_fn, reason, unbuffered, how):
    # As replay says it: `simulate --json` raised OSError inside the command, unbuffered
    # ("unexpected error"), and check-hardware's description went nowhere without a word.
    (tmp_path / "start.txt").write_text("select\n" * 8)
    with open(stdout or os.devnull, "w") as output:
        result = subprocess.run(
            [sys.executable, "-m", "companion", *how],
            stdin=subprocess.DEVNULL,
            stdout=output if stdout else None,
            stderr=subprocess.PIPE,
            preexec_fn=preexec_fn,
            env=environment(unbuffered=unbuffered),
            text=True,
            check=False,
            timeout=60,
            cwd=tmp_path,
        )
    assert_one_line(result, 1, f"patchwork-companion: cannot write to standard output: {reason}")


@pytest.mark.parametrize("unbuffered", ["1", ""])
@WRITERS
def test_a_command_writing_into_a_pipe_nobody_reads_says_nothing(tmp_path, unbuffered, how):
    # `simulate --script S --json | head -0`: head gone, silently, as replay and `cat`.
    (tmp_path / "start.txt").write_text("select\n" * 8)
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "companion", *how],
            stdin=subprocess.DEVNULL,
            stdout=write_end,
            stderr=subprocess.PIPE,
            env=environment(unbuffered=unbuffered),
            text=True,
            check=False,
            timeout=60,
            cwd=tmp_path,
        )
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (141, "")
