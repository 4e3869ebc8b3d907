"""The pad's debouncing, hold, line and reply logic, with simulated millisecond ticks."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.inputs.events import Input
from firmware import FIRMWARE_DIR, load_firmware_module

logic = load_firmware_module("pad_logic")
pins = load_firmware_module("pins")

PERIOD = logic.TICKS_PERIOD


def run(button, samples, start=0):
    """Feed ``samples`` (one raw reading per ms from ``start``); return [(ms, name)]."""
    events = []
    for offset, pressed in enumerate(samples):
        now = (start + offset) % PERIOD
        name = button.update(pressed, now)
        if name is not None:
            events.append((offset, name))
    return events


def press(ms: int, before: int = 10, after: int = 50, bounce: int = 0) -> list[bool]:
    """Raw readings: released, pressed for ``ms`` (bouncing at first), released again."""
    held = [i >= bounce or i % 2 == 0 for i in range(ms)]
    return [False] * before + held + [False] * after


def test_the_input_names_are_the_companions():
    assert set(logic.INPUT_NAMES) == {item.value for item in Input}


def test_a_press_is_sent_once_the_reading_is_steady():
    button = logic.Button("next", debounce_ms=20)
    assert run(button, press(60)) == [(10 + 20, "next")]


def test_bouncing_contacts_give_one_input():
    button = logic.Button("previous", debounce_ms=20)
    events = run(button, press(80, bounce=15))
    assert [name for _, name in events] == ["previous"]


def test_a_glitch_shorter_than_the_debounce_is_ignored():
    button = logic.Button("back", debounce_ms=20)
    assert run(button, press(15)) == []


def test_a_short_press_of_a_hold_button_sends_its_name_on_release():
    button = logic.Button("select", hold=True, debounce_ms=20, hold_ms=700)
    assert run(button, press(200)) == [(10 + 200 + 20, "select")]


def test_a_long_press_sends_hold_once_and_nothing_on_release():
    button = logic.Button("select", hold=True, debounce_ms=20, hold_ms=700)
    assert run(button, press(3000)) == [(10 + 20 + 700, "hold")]


def test_a_dedicated_hold_button_sends_hold_at_once():
    button = logic.Button("hold", debounce_ms=20)
    assert run(button, press(100)) == [(30, "hold")]


@pytest.mark.parametrize("start", [PERIOD - 5, PERIOD - 400, PERIOD - 1])
def test_timing_survives_the_tick_counter_wrapping(start):
    button = logic.Button("select", hold=True, debounce_ms=20, hold_ms=700)
    assert run(button, press(3000), start=start) == [(730, "hold")]
    button = logic.Button("next", debounce_ms=20)
    assert run(button, press(60), start=start) == [(30, "next")]


def test_ticks_diff_is_signed_and_wraps():
    assert logic.ticks_diff(5, 2) == 3
    assert logic.ticks_diff(2, 5) == -3
    assert logic.ticks_diff(3, PERIOD - 2) == 5
    assert logic.ticks_diff(logic.ticks_add(PERIOD - 1, 10), PERIOD - 1) == 10


@given(st.lists(st.booleans(), max_size=400), st.integers(min_value=0, max_value=PERIOD - 1))
def test_contact_noise_never_gives_more_inputs_than_steady_presses(samples, start):
    """Each input needs the contacts closed for longer than the debounce time."""
    button = logic.Button("next", debounce_ms=5)
    events = run(button, samples, start)
    steady_presses = sum(
        1
        for i in range(len(samples) - 5)
        if all(samples[i : i + 6]) and (i == 0 or not samples[i - 1])
    )
    assert len(events) <= steady_presses


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "jump"}, "not an input name"),
        ({"name": "hold", "hold": True}, "cannot also be held"),
        ({"name": "next", "debounce_ms": 50, "hold_ms": 50}, "debounce_ms < hold_ms"),
    ],
)
def test_button_settings_are_checked(kwargs, message):
    with pytest.raises(ValueError, match=message):
        logic.Button(**kwargs)


def test_lines_are_input_names_and_a_newline():
    assert logic.format_line("previous") == "previous\n"
    with pytest.raises(ValueError):
        logic.format_line("NEXT")


def test_replies_are_read_line_by_line_in_bounded_memory():
    reader = logic.LineReader(max_len=8)
    assert reader.feed(b"OK\r\nPO") == ["OK"]
    assert reader.feed("NG\nERR x\n") == ["PONG", "ERR x"]
    assert reader.feed(b"x" * 10_000) == []
    assert len(reader._chars) <= 9
    assert reader.feed(b"\nOK\n") == [None, "OK"]


def test_reply_parsing():
    assert logic.parse_reply("OK") == ("ok", "")
    assert logic.parse_reply("PONG") == ("pong", "")
    assert logic.parse_reply("ERR not-utf8") == ("err", "not-utf8")
    assert logic.parse_reply("null") == ("other", "null")
    assert logic.parse_reply(None) == ("other", None)


def test_the_led_blinks_after_an_err():
    session = logic.PadSession([logic.Button("next")], blink_ms=150)
    assert session.step(1000, [False], b"OK\n") == ""
    assert not session.led(1000)
    session.step(2000, [False], b"ERR unknown\n")
    assert (session.oks, session.errors, session.last_error) == (1, 1, "unknown")
    assert session.led(2000)
    assert session.led(2149)
    assert not session.led(2150)


def test_a_session_sends_what_its_buttons_decide():
    session = logic.PadSession(logic.make_buttons(pins.BUTTONS, debounce_ms=20, hold_ms=700))
    assert session.greeting() == "\n"
    sent = ""
    for now in range(1000):
        next_down = 100 <= now < 200
        select_down = 100 <= now < 1000
        readings = [next_down, False, select_down, False, False]
        sent += session.step(now, readings)
    assert sent == "next\nhold\n"
    assert session.sent == 2


def test_the_pin_configuration_is_valid():
    buttons = logic.make_buttons(pins.BUTTONS)
    assert {button.name for button in buttons} <= set(logic.INPUT_NAMES)
    assert {"next", "previous", "select", "back"} <= {button.name for button in buttons}
    gpios = [gpio for gpio, _, _ in pins.BUTTONS]
    assert all(0 <= gpio <= 29 for gpio in gpios)  # the RP2040's GPIOs
    assert any(button.hold for button in buttons)  # some long press gives "hold"
    assert pins.DEBOUNCE_MS < pins.HOLD_MS


def test_a_gpio_used_twice_is_refused():
    with pytest.raises(ValueError, match="GPIO 2"):
        logic.make_buttons([(2, "next", False), (2, "back", False)])


@pytest.mark.parametrize("name", ["pad_logic.py", "pins.py"])
def test_the_pure_modules_use_only_what_micropython_has(name):
    tree = ast.parse((FIRMWARE_DIR / name).read_text())
    for node in ast.walk(tree):
        assert not isinstance(node, ast.Import | ast.ImportFrom), f"{name} imports something"
        assert not isinstance(node, ast.AnnAssign), f"{name} has a variable annotation"
        assert not isinstance(node, ast.JoinedStr), f"{name} has an f-string"
        if isinstance(node, ast.FunctionDef):
            assert node.returns is None and all(arg.annotation is None for arg in node.args.args), (
                f"{name}: {node.name} has annotations"
            )
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id != "zip" or not node.keywords, "MicroPython's zip has no strict="


def test_main_only_imports_what_the_board_has():
    tree = ast.parse((FIRMWARE_DIR / "main.py").read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module)
    assert imported == {"sys", "time", "select", "machine", "pad_logic", "pins"}
