"""Simulated hardware: the real gpiozero input devices on mock pins, driven by code.

The keyboard simulation and scripted runs both go through :class:`SimulatedInputs`,
so a laptop exercises exactly the input code that runs on the device: only the
pins are fake.
"""

from __future__ import annotations

import threading

from gpiozero.pins.mock import MockFactory, MockPin

from companion.inputs.events import EventQueue, Input
from companion.inputs.gpio import (
    ButtonConfig,
    EncoderConfig,
    GpioInputs,
    InputConfig,
    QuietButton,
    open_gpio_inputs,
)

# Pin levels (A, B) through one clockwise quadrature cycle, starting at rest
# with both pulled high. gpiozero reads a low pin as active, so this is its
# clockwise edge sequence 0, 2, 3, 1 (see RotaryEncoder.TRANSITIONS).
CLOCKWISE_CYCLE = ((True, True), (False, True), (False, False), (True, False))


class SimulationError(RuntimeError):
    """A simulated pin action did not produce the input it should have."""


def simulation_config(transitions_per_detent: int = 4, hold_time: float = 0.6) -> InputConfig:
    """The simulated build: an encoder with push switch, plus a BACK button.

    Mock pins ignore ``bounce_time`` (gpiozero's MockPin does not implement
    it), and scripted presses are faster than any debounce, so it is off.
    """
    return InputConfig(
        encoder=EncoderConfig(a=17, b=18, switch=27, transitions_per_detent=transitions_per_detent),
        buttons=(ButtonConfig(pin=22, input=Input.BACK),),
        bounce_time=None,
        hold_time=hold_time,
    )


class SimulatedInputs:
    """Opens ``config`` on a private MockFactory and turns inputs into pin actions.

    Each :meth:`perform` drives the pins a person would, then waits until the
    resulting event is in ``queue``, so scripted runs are deterministic.
    The config needs an encoder with a switch; buttons are optional.
    """

    def __init__(
        self, queue: EventQueue, config: InputConfig | None = None, *, timeout: float = 10.0
    ) -> None:
        self.queue = queue
        self.config = config or simulation_config()
        if self.config.encoder is None or self.config.encoder.switch is None:
            raise ValueError("the simulation needs an encoder with a push switch")
        self._transitions_per_detent = self.config.encoder.transitions_per_detent
        #: how long to wait for an event (generous: a slow machine must not fail)
        self.timeout = timeout
        self.factory = MockFactory(pin_class=MockPin)
        self.inputs: GpioInputs = open_gpio_inputs(self.config, queue, pin_factory=self.factory)
        # The config has both, so open_gpio_inputs opened both.
        assert self.inputs.encoder is not None and self.inputs.switch is not None
        self._encoder = self.inputs.encoder
        self._switch: QuietButton = self.inputs.switch
        self._cycle_position = 0
        # The terminal's keys and the window's may arrive together: one input at a time.
        self._performing = threading.Lock()
        self._closed = False

    def perform(self, item: Input) -> None:
        """Drive the mock pins so that the devices emit ``item``, and wait for it.

        Once closed it does nothing: a key pressed as the window closes finds the
        devices gone, and must not end the simulation with a traceback."""
        with self._performing:
            if not self._closed:
                self._perform(Input(item))

    def _perform(self, item: Input) -> None:
        expected = self.queue.enqueued + 1
        if item is Input.NEXT:
            self.turn(clockwise=True)
        elif item is Input.PREVIOUS:
            self.turn(clockwise=False)
        elif item is Input.HOLD:
            self.hold(self._switch)
        else:
            self.tap(self._pin_for(item))
        if not self.queue.wait_until_enqueued(expected, self.timeout) and not self.queue.closed:
            raise SimulationError(f"simulated {item} produced no event within {self.timeout}s")

    def turn(self, clockwise: bool) -> None:
        """Turn the encoder one detent."""
        encoder = self._encoder
        step = 1 if clockwise else -1
        for _ in range(self._transitions_per_detent):
            old = CLOCKWISE_CYCLE[self._cycle_position]
            self._cycle_position = (self._cycle_position + step) % len(CLOCKWISE_CYCLE)
            new = CLOCKWISE_CYCLE[self._cycle_position]
            # Exactly one of the two pins changes per transition (Gray code).
            pin, level = (encoder.a.pin, new[0]) if old[0] != new[0] else (encoder.b.pin, new[1])
            _drive(pin, level)

    def tap(self, pin: MockPin) -> None:
        """Press and release a switch quickly (shorter than any hold time)."""
        _drive(pin, False)
        _drive(pin, True)

    def hold(self, button: QuietButton) -> None:
        """Press a switch, let its hold fire at once (no waiting), then release it.

        The hold goes through the real gpiozero press and the companion's
        hold handling; only the wait for ``hold_time`` is skipped.
        """
        expected = self.queue.enqueued + 1
        _drive(button.pin, False)
        try:
            button.elapse_hold()
            arrived = self.queue.wait_until_enqueued(expected, self.timeout)
            if not arrived and not self.queue.closed:
                raise SimulationError("holding the switch produced no HOLD event")
        finally:
            _drive(button.pin, True)

    def _pin_for(self, item: Input) -> MockPin:
        if item is Input.SELECT:
            return self._switch.pin
        for button_config, button in zip(self.config.buttons, self.inputs.buttons, strict=True):
            if button_config.input is item:
                return button.pin
        raise SimulationError(f"no simulated button gives {item}")

    def close(self) -> None:
        """Close the devices, once an input under way has been performed."""
        with self._performing:
            self._closed = True
            self.inputs.close()

    def __enter__(self) -> SimulatedInputs:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def _drive(pin: MockPin, high: bool) -> None:
    if high:
        pin.drive_high()
    else:
        pin.drive_low()
    # MockPin records every change for its own assertions; in a long
    # simulation that history would grow without bound.
    pin.clear_states()
