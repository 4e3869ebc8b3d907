"""The real gpiozero classes on mock pins, driven as a person would drive them."""

import gc
import sys
import threading

import gpiozero.mixins
import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from companion.inputs.events import Input
from companion.inputs.gpio import (
    ButtonConfig,
    EncoderConfig,
    InputConfig,
    PressTracker,
    QuietButton,
    open_gpio_inputs,
)

A, B, SWITCH, BACK_KEY, SELECT_KEY = 5, 6, 13, 19, 26
NEVER_HOLD = 30.0  # no quick press can become a hold, however slow the machine
QUICK_HOLD = 0.1  # hold tests wait for the event, so this only sets their speed
PATIENCE = 10.0  # upper bound for waits that normally return at once


def config(hold_time=NEVER_HOLD, transitions_per_detent=4):
    return InputConfig(
        encoder=EncoderConfig(A, B, SWITCH, transitions_per_detent=transitions_per_detent),
        buttons=(ButtonConfig(BACK_KEY, Input.BACK), ButtonConfig(SELECT_KEY, Input.SELECT)),
        bounce_time=None,
        hold_time=hold_time,
    )


def drive(factory: MockFactory, *steps: str) -> None:
    """Apply steps like "A low" or "B high" to the mock pins."""
    for step in steps:
        name, level = step.split()
        pin = factory.pin({"A": A, "B": B}[name])
        pin.drive_low() if level == "low" else pin.drive_high()


class GroundedPin(MockPin):
    """A pin held low by a closed contact, so enabling its pull-up does not raise it."""

    def _set_pull(self, value):
        self._pull = value


CLOCKWISE = ("A low", "B low", "A high", "B high")
COUNTER_CLOCKWISE = ("B low", "A low", "B high", "A high")


def press_and_release(factory, pin):
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def test_clockwise_detent_gives_one_next(open_inputs, mock_factory, drain):
    open_inputs(config())
    drive(mock_factory, *CLOCKWISE)
    assert drain() == [Input.NEXT]


def test_counter_clockwise_detent_gives_one_previous(open_inputs, mock_factory, drain):
    open_inputs(config())
    drive(mock_factory, *COUNTER_CLOCKWISE)
    assert drain() == [Input.PREVIOUS]


def test_a_partial_turn_that_comes_back_gives_nothing(open_inputs, mock_factory, drain):
    open_inputs(config())
    drive(mock_factory, "A low", "B low", "B high", "A high")
    assert drain() == []


def test_200_fast_detents_give_exactly_200_events(open_inputs, mock_factory, queue, drain):
    open_inputs(config())
    for _ in range(150):
        drive(mock_factory, *CLOCKWISE)
    for _ in range(50):
        drive(mock_factory, *COUNTER_CLOCKWISE)
    assert drain() == [Input.NEXT] * 150 + [Input.PREVIOUS] * 50
    assert queue.dropped == 0


def test_uses_gpiozero_default_pin_factory(mock_factory, queue, drain):
    with open_gpio_inputs(config(), queue) as inputs:
        assert inputs.encoder.pin_factory is mock_factory
        drive(mock_factory, *CLOCKWISE)
    assert drain() == [Input.NEXT]


def test_close_releases_the_pins(mock_factory, queue):
    first = open_gpio_inputs(config(), queue)
    first.close()
    assert first.devices() and all(device.closed for device in first.devices())
    # The same pins again: gpiozero would raise GPIOPinInUse were they still reserved.
    second = open_gpio_inputs(config(), queue)
    assert not any(device.closed for device in second.devices())
    drive(mock_factory, *CLOCKWISE)
    second.close()
    assert queue.get(timeout=PATIENCE) is Input.NEXT


def test_short_press_of_the_switch_gives_select_only(open_inputs, mock_factory, drain):
    open_inputs(config())
    press_and_release(mock_factory, SWITCH)
    assert drain() == [Input.SELECT]


@pytest.mark.parametrize(("pin", "short"), [(SWITCH, Input.SELECT), (BACK_KEY, Input.BACK)])
def test_long_press_gives_hold_only(open_inputs, mock_factory, queue, drain, pin, short):
    open_inputs(config(hold_time=QUICK_HOLD))
    mock_factory.pin(pin).drive_low()
    assert queue.get(timeout=PATIENCE) is Input.HOLD  # fired by the button's hold timer
    mock_factory.pin(pin).drive_high()
    press_and_release(mock_factory, pin)  # the next short press is unaffected
    assert drain() == [short]


def test_idle_buttons_run_no_polling_thread(open_inputs, mock_factory):
    # gpiozero's HoldThread wakes every 0.1 s per button; ours sleep until pressed.
    open_inputs(config())
    names = [type(thread).__name__ for thread in threading.enumerate()]
    assert "HoldThread" not in names
    mock_factory.pin(SWITCH).drive_low()
    assert any(isinstance(t, threading.Timer) for t in threading.enumerate())
    mock_factory.pin(SWITCH).drive_high()


@pytest.mark.parametrize(("pin", "short"), [(BACK_KEY, Input.BACK), (SELECT_KEY, Input.SELECT)])
def test_plain_buttons_give_their_input(open_inputs, mock_factory, drain, pin, short):
    open_inputs(config())
    press_and_release(mock_factory, pin)
    press_and_release(mock_factory, pin)
    assert drain() == [short, short]


def test_a_hold_that_loses_the_race_against_release_emits_nothing():
    emitted = []
    tracker = PressTracker(emitted.append, short=Input.SELECT, long=Input.HOLD)
    tracker.pressed()
    tracker.released()
    tracker.held()  # gpiozero's hold thread woke up just too late
    assert emitted == [Input.SELECT]


def test_transitions_per_detent_must_be_2_or_4():
    with pytest.raises(ValueError, match="transitions_per_detent"):
        EncoderConfig(A, B, transitions_per_detent=3)


class TestHalfStepEncoder:
    """Encoders that rest at both 00 and 11: two transitions per detent."""

    def test_each_half_cycle_is_one_step(self, open_inputs, mock_factory, drain):
        open_inputs(config(transitions_per_detent=2))
        drive(mock_factory, "A low", "B low")  # 00 -> 11
        drive(mock_factory, "A high", "B high")  # 11 -> 00
        drive(mock_factory, "A low", "B low")
        assert drain() == [Input.NEXT] * 3
        drive(mock_factory, "A high", "B high")  # clockwise back to 00
        drive(mock_factory, "B low", "A low")  # counter-clockwise 00 -> 11
        drive(mock_factory, "B high", "A high")  # counter-clockwise 11 -> 00
        assert drain() == [Input.NEXT, Input.PREVIOUS, Input.PREVIOUS]

    def test_gpiozero_alone_would_count_half_as_many(self, open_inputs, mock_factory, drain):
        open_inputs(config(transitions_per_detent=4))
        drive(mock_factory, "A low", "B low")
        drive(mock_factory, "A high", "B high")
        assert drain() == [Input.NEXT]

    def test_wiggle_and_chatter_count_nothing_extra(self, open_inputs, mock_factory, drain):
        open_inputs(config(transitions_per_detent=2))
        drive(mock_factory, "A low", "A high")  # back to where it started
        assert drain() == []
        drive(mock_factory, "A low", "B low", "B high", "B low")  # contact chatter on B
        assert drain() == [Input.NEXT]

    def test_starting_at_rest_11(self, open_inputs, mock_factory, drain):
        for pin in (A, B):  # the knob was left at 11: both contacts closed
            mock_factory.pin(pin, pin_class=GroundedPin).drive_low()
        inputs = open_inputs(config(transitions_per_detent=2))
        assert inputs.encoder.a.value == inputs.encoder.b.value == 1
        drive(mock_factory, "A high", "B high")
        drive(mock_factory, "B low", "A low")
        assert drain() == [Input.NEXT, Input.PREVIOUS]

    def test_200_fast_half_detents(self, open_inputs, mock_factory, drain):
        open_inputs(config(transitions_per_detent=2))
        for _ in range(100):
            drive(mock_factory, "A low", "B low", "A high", "B high")
        assert drain() == [Input.NEXT] * 200


HOLD_THREAD_WAITS: list[bool] = []
"""For each wait of gpiozero's hold thread: True if the event woke it, False if it timed out."""


class TimedEvent(threading.Event):
    def wait(self, timeout=None):
        woken = super().wait(timeout)
        HOLD_THREAD_WAITS.append(woken)
        return woken


def test_a_ctrl_c_while_a_button_is_built_leaves_nothing_for_its_destructor(monkeypatch):
    # Ctrl-C lands in gpiozero's constructor: the half-built button is closed by its
    # __del__, whose error Python prints as a traceback ("Exception ignored in").
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)

    def interrupted(self, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(gpiozero.mixins.HoldMixin, "__init__", interrupted)
    with pytest.raises(KeyboardInterrupt):
        QuietButton(SWITCH, pin_factory=MockFactory())
    gc.collect()
    assert [hook.exc_value for hook in unraisable] == []


def test_a_button_stops_gpiozeros_hold_thread_without_waiting_out_its_poll(monkeypatch):
    """The hold thread polls every 0.1 s; QuietButton wakes it to stop it, never waits that out."""
    monkeypatch.setattr(gpiozero.mixins, "Event", TimedEvent)
    HOLD_THREAD_WAITS.clear()
    for pin in (BACK_KEY, SELECT_KEY, SWITCH):
        QuietButton(pin, pin_factory=MockFactory()).close()
    assert False not in HOLD_THREAD_WAITS
