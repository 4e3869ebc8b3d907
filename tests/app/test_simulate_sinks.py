"""Which sink `simulate` draws on, and the window played with its own keys."""

import argparse
import json
import os
import subprocess
import sys
import threading
import time

import pytest
from helpers import settled_log_bytes

from companion import simulate
from companion.display.factory import graphical_display_available
from companion.inputs.events import EventQueue, Input
from companion.inputs.simulated import SimulatedInputs, simulation_config


@pytest.mark.parametrize(
    ("requested", "scripted", "graphical", "window", "expected"),
    [
        (None, False, True, True, "pygame"),  # a desktop with pygame: the window
        (None, False, True, False, "terminal"),  # no pygame installed
        (None, False, False, True, "terminal"),  # no desktop (ssh, a console)
        (None, True, True, True, "dummy"),  # a script draws nowhere unless asked
        ("terminal", False, True, True, "terminal"),  # --display always wins
        ("pygame", False, False, False, "pygame"),
        ("capture", True, False, False, "capture"),
    ],
)
def test_the_sink_chosen(requested, scripted, graphical, window, expected):
    chosen = simulate.choose_display(
        requested, scripted=scripted, graphical=graphical, window=window
    )
    assert chosen == expected


@pytest.mark.parametrize(
    ("environ", "platform", "expected"),
    [
        ({}, "linux", False),
        ({"DISPLAY": ":0"}, "linux", True),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", True),
        ({"DISPLAY": ""}, "linux", False),
        ({}, "darwin", True),
        ({}, "win32", True),
    ],
)
def test_a_graphical_display_is_there(environ, platform, expected):
    assert graphical_display_available(environ, platform) is expected


def test_the_desktop_extra_is_found():
    pytest.importorskip("pygame")
    assert simulate.window_installed()


def test_asking_for_a_window_without_a_desktop_is_one_line(tmp_path):
    pytest.importorskip("pygame")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("SDL_VIDEODRIVER", None)
    result = subprocess.run(
        [sys.executable, "-m", "companion", "simulate", "--display", "pygame",
         "--state-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=60, env=env, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "no graphical display" in result.stderr and "--display terminal" in result.stderr


def test_keys_pressed_in_the_window_play_and_closing_it_quits(tmp_path, monkeypatch, capsys):
    """The whole run in this process, on SDL's dummy driver; a thread plays the person."""
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")

    def person() -> None:
        deadline = time.monotonic() + 30
        while pygame.display.get_surface() is None:  # wait for the window
            assert time.monotonic() < deadline
            time.sleep(0.02)
        for _ in range(8):  # new solo game, Fellow, normal deck, dealt circle, 4 deal screens
            event = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, unicode="\r")
            pygame.event.post(event)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, unicode="h"))
        # The game has started once the store has taken it: then the window is closed.
        settled_log_bytes(tmp_path, deadline)
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    thread = threading.Thread(target=person, daemon=True)
    thread.start()
    args = argparse.Namespace(
        command="simulate",
        display="pygame",
        output=None,
        script=None,
        seed=7,
        state_dir=tmp_path,
        json=True,
    )
    assert simulate.run(args) == 0
    thread.join()
    state = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert state["mode"] == "solo" and state["turn"] == "player"
    assert (tmp_path / "companion.db").exists()


def test_a_simulated_hold_does_not_wait_the_hold_time():
    queue = EventQueue()
    # An hour's hold time: only a hold that fires at once can arrive within the timeout.
    with SimulatedInputs(queue, simulation_config(hold_time=3600), timeout=5) as simulated:
        simulated.perform(Input.HOLD)
        simulated.perform(Input.SELECT)  # a tap after it is still a tap
    assert [queue.get(0), queue.get(0)] == [Input.HOLD, Input.SELECT]
