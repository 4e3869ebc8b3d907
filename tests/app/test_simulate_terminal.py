"""`simulate` in a real pseudo-terminal: what it draws, and that leaving puts the terminal back.

The simulation runs as a child process whose controlling terminal is a pty,
as in a terminal window; the test types keys into the pty's master side and
reads what the program writes there.
"""

import fcntl
import json
import os
import re
import signal
import struct
import subprocess
import sys
import termios
import threading
import time

import pytest
from ansi_screen import Screen
from helpers import settled_log_bytes, wait_for_a_commit

from companion.inputs.keyboard import KEY_HELP

# The first start's language (English), then the home menu: New solo game, Fellow,
# normal deck, dealt circle, then 4 deal screens.
NEW_SOLO_GAME = b"\r" * 9
END_OF_OUTPUT = b"[the test: the program has exited]"
"""Written on the program's terminal once it has exited: it reaches the reader after
everything the program wrote. (No line end: the terminal may translate those.)"""


class Simulation:
    """``patchwork-companion simulate`` on its own pty, COLUMNS x ROWS."""

    def __init__(
        self, state_dir, *arguments, columns=140, rows=40, display=None, command="simulate"
    ):
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        #: the terminal's modes before the program ran (the parent keeps the slave open)
        self.modes_before = termios.tcgetattr(self.slave)
        self.size = (columns, rows)
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        env["TERM"] = "xterm-256color"
        if display:
            env["DISPLAY"] = display
        command = [sys.executable, "-m", "companion", command, "--state-dir", str(state_dir)]
        self.pid = os.fork()
        if self.pid == 0:  # the child: a session of its own with the pty as its terminal
            os.setsid()
            fcntl.ioctl(self.slave, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(self.slave, fd)
            os.execve(sys.executable, [*command, *map(str, arguments)], env)
        self.status = None
        # Read all the time, as a terminal does: a full pty would stop the program mid-write.
        self._output = bytearray()
        self._reader = threading.Thread(target=self._read_all, daemon=True)
        self._reader.start()

    def _read_all(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # EIO: the program and every copy of the slave are gone
                return
            if not chunk:
                return
            self._output += chunk

    @property
    def output(self) -> bytes:
        return bytes(self._output)

    def forget_output(self) -> None:
        self._output.clear()

    def read(self, until: bytes, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while until not in self.output:
            assert time.monotonic() < deadline, f"{until!r} never came; got {self.output[-2000:]!r}"
            time.sleep(0.01)

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def wait(self, timeout: float = 30) -> int:
        deadline = time.monotonic() + timeout
        while self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
            else:
                assert time.monotonic() < deadline, "the simulation did not exit"
                time.sleep(0.01)
        # The last bytes the program wrote may still be on their way to the reader.
        os.write(self.slave, END_OF_OUTPUT)
        self.read(END_OF_OUTPUT, timeout)
        del self._output[self._output.rindex(END_OF_OUTPUT) :]
        return self.status

    def close(self) -> None:
        if self.status is None:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.master)
        os.close(self.slave)

    def text(self) -> str:
        return self.output.decode("utf-8", errors="replace")


@pytest.fixture
def simulation(tmp_path):
    started = []

    def start(*arguments, **options):
        started.append(Simulation(tmp_path / "state", *arguments, **options))
        return started[-1]

    yield start
    for sim in started:
        sim.close()


def final_state(state_dir):
    """The game saved in ``state_dir``, read back by a second, scripted run."""
    script = state_dir.parent / "nothing.txt"
    script.write_text("# no inputs: load the state and report it\n")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "simulate", "--script", str(script),
         "--state-dir", str(state_dir), "--json"],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    return json.loads(result.stdout)


def assert_left_clean(sim: Simulation) -> None:
    assert termios.tcgetattr(sim.slave) == sim.modes_before  # echo, line editing: as before
    text = sim.text()
    assert "Traceback" not in text and "Error" not in text
    screen = Screen(*sim.size).feed(text.replace("\r\n", "\n"))
    assert not screen.alternate and screen.cursor_visible and screen.style == ""


@pytest.mark.parametrize("display", [None, ":99999"], ids=["no desktop", "unreachable desktop"])
def test_q_leaves_the_terminal_as_it_was(simulation, display):
    sim = simulation(display=display)
    sim.read(KEY_HELP.encode())  # drawn in the terminal (no window could open)
    modes = termios.tcgetattr(sim.slave)
    assert not modes[3] & termios.ICANON and not modes[3] & termios.ECHO  # keys come one by one
    assert "▀".encode() in sim.output or "▄".encode() in sim.output  # half blocks at 140x40
    sim.type(b"q")
    assert sim.wait() == 0
    assert_left_clean(sim)


def test_ctrl_c_saves_the_game_and_leaves_the_terminal_as_it_was(simulation, tmp_path):
    sim = simulation("--seed", "5")
    sim.read(KEY_HELP.encode())
    sim.type(NEW_SOLO_GAME)
    deadline = time.monotonic() + 60
    started = settled_log_bytes(tmp_path / "state", deadline)  # dealt, on the first turn
    sim.type(b"\r")  # Advance from the first turn (the cursor starts on it)
    wait_for_a_commit(tmp_path / "state", started, deadline)  # the advance is saved
    sim.type(b"\x03")  # Ctrl-C: the terminal sends SIGINT to the program
    assert sim.wait() == 0
    assert_left_clean(sim)
    state = final_state(tmp_path / "state")
    assert state["mode"] == "solo" and state["sides"]["player"]["position"] == 1


def test_a_small_terminal_gets_braille_and_a_hint(simulation):
    sim = simulation(columns=80, rows=24)
    sim.read(b"for a sharper picture")
    assert KEY_HELP.encode() in sim.output
    sim.type(b"q")
    assert sim.wait() == 0
    assert_left_clean(sim)


def test_a_resize_redraws_at_the_new_size(simulation):
    sim = simulation(columns=80, rows=24)
    sim.read(b"for a sharper picture")
    sim.forget_output()
    fcntl.ioctl(sim.slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
    os.kill(sim.pid, signal.SIGWINCH)  # what the terminal does when its window is resized
    sim.read(KEY_HELP.encode())
    assert "▀".encode() in sim.output and b"sharper" not in sim.output
    sim.type(b"q")
    assert sim.wait() == 0


def test_ctrl_backslash_ends_in_order_like_ctrl_c(simulation):
    # SIGQUIT's default killed the program with the terminal in the alternate screen,
    # its cursor hidden and its keys unechoed.
    sim = simulation()
    sim.read(KEY_HELP.encode())
    sim.type(b"\x1c")  # Ctrl-\: the terminal sends SIGQUIT to the program
    assert sim.wait() == 0
    assert_left_clean(sim)


@pytest.mark.parametrize(
    "arguments",
    [(), ("--profile", "simulation")],
    ids=["simulate", "check-hardware"],
)
def test_ctrl_z_gives_the_terminal_back_and_draws_everything_again(simulation, arguments):
    # SIGTSTP's default stopped the program with the shell in the alternate screen, no
    # cursor and no echo; back, it drew only the rows that changed over the shell's
    # lines. (The test's program leads its own session: nothing there takes a stopped
    # job back, so the kernel lets it run on at once, as `fg` would.) check-hardware
    # draws in the terminal with the simulation profile, and did the same.
    command = "check-hardware" if arguments else "simulate"
    sim = simulation(*arguments, command=command)
    sim.read(KEY_HELP.encode())
    keys = termios.tcgetattr(sim.slave)
    sim.forget_output()
    sim.type(b"\x1a")  # Ctrl-Z: the terminal sends SIGTSTP to the program
    sim.read(KEY_HELP.encode())
    text = sim.text()
    given_back = text.index("\x1b[?1049l")  # leaves the alternate screen, then re-enters
    assert "\x1b[?25h" in text[given_back:] and "\x1b[?1049h" in text[given_back:]
    back = text.index("\x1b[?1049h", given_back)
    # Every row of the picture (35 at 140x40: 32 of pixels, the frame, the help line),
    # not only those that changed: none did.
    assert len(re.findall(r"\x1b\[\d+;1H", text[back:])) == 35
    assert termios.tcgetattr(sim.slave) == keys  # keys one by one again
    sim.type(b"q")
    assert sim.wait() == 0
    assert_left_clean(sim)
