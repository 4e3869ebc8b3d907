"""Key decoding, the key loop over a pipe, terminal modes and scripts."""

import os
import pty
import termios
import tty

import pytest

from companion.inputs.events import Input
from companion.inputs.keyboard import (
    KEY_BINDINGS,
    KEY_HELP,
    KeyDecoder,
    ScriptError,
    cbreak_terminal,
    keyboard_session,
    parse_script,
    read_keys,
    run_keyboard,
)
from companion.inputs.simulated import SimulatedInputs, simulation_config


def decode(data: bytes) -> list[str]:
    decoder = KeyDecoder()
    return decoder.feed(data) + decoder.flush()


@pytest.mark.parametrize(
    ("data", "key", "item"),
    [
        (b"\x1b[C", "right", Input.NEXT),
        (b"\x1b[B", "down", Input.NEXT),
        (b"j", "j", Input.NEXT),
        (b"\x1b[D", "left", Input.PREVIOUS),
        (b"\x1b[A", "up", Input.PREVIOUS),
        (b"k", "k", Input.PREVIOUS),
        (b"\x1bOC", "right", Input.NEXT),  # application cursor mode
        (b"\r", "enter", Input.SELECT),
        (b"\n", "enter", Input.SELECT),  # Enter after the terminal's CR->NL translation
        (b" ", "space", Input.SELECT),
        (b"\x7f", "backspace", Input.BACK),
        (b"\x08", "backspace", Input.BACK),
        (b"\x1b", "escape", Input.BACK),
        (b"h", "h", Input.HOLD),
    ],
)
def test_keys_map_to_inputs(data, key, item):
    assert decode(data) == [key]
    assert KEY_BINDINGS[key] is item


def test_q_quits_and_is_not_an_input():
    assert decode(b"q") == ["q"]
    assert "q" not in KEY_BINDINGS


def test_lone_escape_waits_for_a_possible_sequence():
    decoder = KeyDecoder()
    assert decoder.feed(b"\x1b") == []
    assert decoder.pending
    assert decoder.feed(b"[") == []  # an arrow sequence split across reads
    assert decoder.feed(b"A") == ["up"]
    assert decoder.feed(b"\x1b") == []
    assert decoder.flush() == ["escape"]
    assert not decoder.pending


def test_escape_followed_by_another_key_is_escape_then_that_key():
    assert decode(b"\x1bj\x1b\x1b[B") == ["escape", "j", "escape", "down"]


def test_unknown_sequences_and_bytes_are_dropped():
    assert decode(b"\x1b[15~x\x1bOP\x01\xc3\xa9") == ["x"]  # F5, F1, Ctrl-A, é
    assert decode(b"\x1b[1;5C") == ["right"]  # Ctrl+Right is still right


def test_help_fits_an_80_column_terminal():
    assert len(KEY_HELP) <= 80


def test_read_keys_from_a_pipe_flushes_a_lone_escape():
    read_end, write_end = os.pipe()
    try:
        keys = read_keys(read_end)
        os.write(write_end, b"\x1b")
        assert next(keys) == "escape"  # after the short ESC timeout, not at end of input
        os.write(write_end, b"j\x1b[A")
        assert [next(keys), next(keys)] == ["j", "up"]
        os.close(write_end)
        assert list(keys) == []
    finally:
        os.close(read_end)


def test_run_keyboard_drives_the_simulated_devices(queue, drain):
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, b"jk\x1b[C\x1b[D\r \x7f\x08h\x1bq" + b"j")  # j after q is ignored
        with SimulatedInputs(queue, simulation_config(hold_time=0.1)) as sim:
            run_keyboard(sim, fd=read_end)
    finally:
        os.close(read_end)
        os.close(write_end)
    assert drain() == [
        Input.NEXT,
        Input.PREVIOUS,
        Input.NEXT,
        Input.PREVIOUS,
        Input.SELECT,
        Input.SELECT,
        Input.BACK,
        Input.BACK,
        Input.HOLD,
        Input.BACK,
    ]


def test_cbreak_terminal_restores_settings_even_after_an_exception():
    leader, follower = pty.openpty()
    try:
        before = termios.tcgetattr(follower)
        with pytest.raises(RuntimeError), cbreak_terminal(follower):
            inside = termios.tcgetattr(follower)
            raise RuntimeError("boom")
        assert not inside[3] & (termios.ICANON | termios.ECHO)
        assert termios.tcgetattr(follower) == before
    finally:
        os.close(leader)
        os.close(follower)


def test_cbreak_terminal_ignores_a_pipe(monkeypatch):
    calls = []
    monkeypatch.setattr(tty, "setcbreak", lambda fd: calls.append(("setcbreak", fd)))
    monkeypatch.setattr(termios, "tcsetattr", lambda *args: calls.append(("tcsetattr", args)))
    read_end, write_end = os.pipe()
    try:
        with cbreak_terminal(read_end):
            os.write(write_end, b"n")
            inside = os.read(read_end, 1)
        assert inside == b"n"
        assert calls == []  # no terminal call on a pipe: it would raise
    finally:
        os.close(read_end)
        os.close(write_end)


SCRIPT = """\
# a scripted turn
next
next   # comments may follow a word
PREVIOUS

select
hold
back
"""


def test_parse_script_skips_comments_and_blank_lines():
    assert parse_script(SCRIPT) == [
        Input.NEXT,
        Input.NEXT,
        Input.PREVIOUS,
        Input.SELECT,
        Input.HOLD,
        Input.BACK,
    ]


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("next\n\nselekt\n", 3, "unknown input 'selekt'"),
        ("# only a comment\nnext back\n", 2, "one input per line"),
        ("quit", 1, "expected one of: next, previous, select, back, hold"),
    ],
)
def test_script_errors_name_the_line(text, line, message):
    with pytest.raises(ScriptError, match=message) as caught:
        parse_script(text, source="turn.txt")
    assert caught.value.line_number == line
    assert f"turn.txt, line {line}:" in str(caught.value)


def test_keyboard_session_feeds_the_application_thread_and_quits(queue):
    """The shape of the real simulation: keys in one thread, the app blocking in get()."""
    read_end, write_end = os.pipe()
    received = []
    try:
        with SimulatedInputs(queue) as sim, keyboard_session(sim, fd=read_end) as thread:
            os.write(write_end, b"jj k q")
            while (item := queue.get(timeout=10)) is not None:
                received.append(item)
            thread.join(timeout=10)
            assert not thread.is_alive()
    finally:
        os.close(read_end)
        os.close(write_end)
    assert queue.closed
    assert received == [Input.NEXT, Input.NEXT, Input.SELECT, Input.PREVIOUS, Input.SELECT]


def test_keyboard_session_restores_the_terminal_in_the_calling_thread(queue):
    leader, follower = pty.openpty()
    try:
        before = termios.tcgetattr(follower)
        with SimulatedInputs(queue) as sim, keyboard_session(sim, fd=follower) as thread:
            assert not termios.tcgetattr(follower)[3] & termios.ICANON
            os.write(leader, b"q")
            thread.join(timeout=10)
        assert termios.tcgetattr(follower) == before
    finally:
        os.close(leader)
        os.close(follower)
