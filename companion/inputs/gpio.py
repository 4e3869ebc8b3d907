"""Real gpiozero devices (encoder, its push switch, push buttons) feeding an EventQueue.

Everything here is written against a gpiozero pin factory: on the device the
default (lgpio), in tests and in simulation ``MockFactory``. The same code
therefore runs in all three.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from gpiozero import Button, RotaryEncoder
from gpiozero.mixins import HoldMixin
from gpiozero.pins import Factory

from companion.inputs.events import EventQueue, Input

Pin = int | str


@dataclass(frozen=True, slots=True)
class EncoderConfig:
    """A quadrature rotary encoder, optionally with a push switch.

    ``transitions_per_detent`` is 4 for encoders that go through a whole
    quadrature cycle per click (gpiozero's native counting), 2 for "half-cycle"
    encoders that rest at both 00 and 11.
    """

    a: Pin
    b: Pin
    switch: Pin | None = None
    transitions_per_detent: int = 4
    # gpiozero's state machine already ignores contact chatter, so no debounce.
    bounce_time: float | None = None

    def __post_init__(self) -> None:
        if self.transitions_per_detent not in (2, 4):
            raise ValueError(
                f"transitions_per_detent must be 2 or 4, not {self.transitions_per_detent}"
            )


@dataclass(frozen=True, slots=True)
class ButtonConfig:
    """A push button wired to ground: a short press gives ``input``, a long press HOLD."""

    pin: Pin
    input: Input


@dataclass(frozen=True, slots=True)
class InputConfig:
    """All GPIO inputs of one hardware build."""

    encoder: EncoderConfig | None = None
    buttons: tuple[ButtonConfig, ...] = ()
    #: debounce for switches and buttons (seconds), None for none
    bounce_time: float | None = 0.02
    #: how long a switch must be held down to count as HOLD (seconds)
    hold_time: float = 0.8


# Half-step decoding: (rest state left, intermediate state passed) -> clockwise?
# States are (A << 1) | B with 1 meaning "pin active" (low); see RotaryEncoder.TRANSITIONS.
_HALF_STEP_CLOCKWISE = MappingProxyType(
    {(0b00, 0b10): True, (0b00, 0b01): False, (0b11, 0b01): True, (0b11, 0b10): False}
)


class HalfStepRotaryEncoder(RotaryEncoder):
    """A gpiozero RotaryEncoder that counts one step per half quadrature cycle.

    gpiozero's state machine only yields a step on returning to 00 after a
    whole cycle (00 -> 10 -> 11 -> 01 -> 00 clockwise), so an encoder whose
    detents sit at both 00 and 11 would need two clicks per step. gpiozero has
    no option for this, so we replace only the decoding hook
    (``_change_state``, the method its pin callbacks call with each new 2-bit
    state) and keep everything else: pins, steps, events, callbacks.

    Decoding: a step happens when the pins arrive at the *other* rest state
    (00 <-> 11); the intermediate state they came through gives the direction.
    Wiggling back to the rest state it left counts nothing.

    This leans on gpiozero 2.0 internals (``_change_state``, ``_state``,
    ``_edge``), hence the pin on gpiozero's minor version in pyproject.toml;
    the half-step tests fail loudly if an upgrade changes them.
    """

    def __init__(self, a: Pin, b: Pin, **kwargs: Any) -> None:
        super().__init__(a, b, **kwargs)
        # gpiozero assumes the pins start at 00; a half-step encoder may rest at 11.
        self._edge = (int(self.a.value) << 1) | int(self.b.value)
        self._rest = self._edge if self._edge in (0b00, 0b11) else 0b00

    def _change_state(self, ticks: float, edge: int) -> None:
        previous, self._edge = self._edge, edge
        if edge not in (0b00, 0b11) or edge == self._rest:
            return
        clockwise = _HALF_STEP_CLOCKWISE.get((self._rest, previous))
        self._rest = edge
        if clockwise is None:  # both pins changed at once: direction unknown
            return
        # Reuse gpiozero's own step counting and event firing: put its state
        # machine in the last state of a cycle and feed it the closing edge 00.
        self._state = "cw3" if clockwise else "ccw3"
        super()._change_state(ticks, 0b00)
        self._edge = edge


class QuietButton(Button):
    """A gpiozero `Button` whose hold detection sleeps instead of polling.

    gpiozero's `HoldThread` wakes ten times a second for every button, pressed
    or not, which keeps an idle device from ever sleeping. Here a press starts a one-shot timer of
    `hold_time` and a release cancels it; `when_held` fires as before. This
    leans on gpiozero 2.0's `HoldMixin` internals (`_hold_thread`, its
    `stopping` and `holding` events, `_fire_activated`), hence the pin on
    gpiozero's minor version in pyproject.toml; the hold tests fail if an
    upgrade changes them.
    """

    # Class defaults too: a Ctrl-C while gpiozero builds the button may leave it without
    # them, and gpiozero's `__del__` still closes it.
    _hold_thread: Any = None
    """gpiozero's HoldThread (HoldMixin sets it), None once stopped here."""
    _hold_timer: threading.Timer | None = None
    """The pending hold, if any."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # gpiozero's own stop() sets `stopping` and joins, but the thread only
        # sees it when its 0.1 s poll of `holding` times out: a tenth of a second
        # per button at every start. Setting `holding` too wakes it at once.
        thread = self._hold_thread
        thread.stopping.set()
        thread.holding.set()
        thread.join()
        self._hold_thread = None
        self._hold_timer = None

    def _fire_activated(self) -> None:
        # Skip HoldMixin's (it wakes its polling thread); keep the events below it.
        super(HoldMixin, self)._fire_activated()
        self._hold_timer = threading.Timer(self.hold_time, self._hold_elapsed)
        self._hold_timer.daemon = True
        self._hold_timer.start()

    def _fire_deactivated(self) -> None:
        self._cancel_hold()
        super()._fire_deactivated()

    def elapse_hold(self) -> None:
        """Fire a pending hold now, as if ``hold_time`` had passed.

        The simulation's hold is one key or script line: it need not wait the
        real hold time, and a 1,500-line script must not take minutes.
        """
        if self._hold_timer is not None:
            self._cancel_hold()
            self._hold_elapsed()

    def _hold_elapsed(self) -> None:
        if self.is_active:
            self._held_from = self.pin_factory.ticks()
            self._fire_held()

    def _cancel_hold(self) -> None:
        if self._hold_timer is not None:
            self._hold_timer.cancel()
            self._hold_timer = None

    def close(self) -> None:
        # A docstring of our own: gpiozero's metaclass would copy Device.close's, whose
        # example opens a Buzzer on the default pin factory, into the doctest run.
        """Cancel a pending hold, then close the button as gpiozero does."""
        self._cancel_hold()
        super().close()


class PressTracker:
    """Turns one switch's press/hold/release into exactly one input per press.

    A short press emits ``short`` on release; a press that reaches the hold
    time emits ``long`` when the hold fires and nothing on release. gpiozero
    clears ``is_held`` *before* calling ``when_released`` and fires
    ``when_held`` from its own thread, which can race a release, so we keep
    our own per-press state under a lock instead of asking the Button.
    """

    def __init__(self, emit: Callable[[Input], None], short: Input, long: Input) -> None:
        self._emit = emit
        self._short = short
        self._long = long
        self._lock = threading.Lock()
        self._down = False
        self._held = False

    def attach(self, button: Button) -> None:
        """Install this tracker's handlers on ``button``."""
        button.when_pressed = self.pressed
        button.when_held = self.held
        button.when_released = self.released

    def pressed(self) -> None:
        """``when_pressed`` handler: a new press begins."""
        with self._lock:
            self._down, self._held = True, False

    def held(self) -> None:
        """``when_held`` handler (gpiozero's hold thread): emit ``long`` once per press."""
        with self._lock:
            if not self._down or self._held:
                return  # the hold thread lost the race against a release
            self._held = True
        self._emit(self._long)

    def released(self) -> None:
        """``when_released`` handler: emit ``short`` unless the press became a hold."""
        with self._lock:
            was_short = self._down and not self._held
            self._down = False
        if was_short:
            self._emit(self._short)


class GpioInputs:
    """The open gpiozero devices of one :class:`InputConfig`; close them when done."""

    def __init__(self, config: InputConfig) -> None:
        self.config = config
        self.encoder: RotaryEncoder | None = None
        self.switch: QuietButton | None = None
        #: one Button per entry of ``config.buttons``, in the same order
        self.buttons: list[QuietButton] = []

    def devices(self) -> list:
        """Every open gpiozero device."""
        found = [self.encoder, self.switch, *self.buttons]
        return [device for device in found if device is not None]

    def close(self) -> None:
        """Close every device, releasing its pins (idempotent)."""
        for device in self.devices():
            device.close()

    def __enter__(self) -> GpioInputs:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def open_gpio_inputs(
    config: InputConfig, queue: EventQueue, *, pin_factory: Factory | None = None
) -> GpioInputs:
    """Create the gpiozero devices described by ``config``, each feeding ``queue``.

    ``pin_factory`` defaults to gpiozero's ``Device.pin_factory``.
    If creating any device fails, the ones already created are closed again.
    """
    inputs = GpioInputs(config)
    try:
        if config.encoder is not None:
            inputs.encoder = _open_encoder(config.encoder, queue, pin_factory)
            if config.encoder.switch is not None:
                inputs.switch = _open_button(
                    config, config.encoder.switch, Input.SELECT, queue, pin_factory
                )
        for button in config.buttons:
            inputs.buttons.append(
                _open_button(config, button.pin, button.input, queue, pin_factory)
            )
    except BaseException:
        inputs.close()
        raise
    return inputs


def _open_encoder(
    config: EncoderConfig, queue: EventQueue, pin_factory: Factory | None
) -> RotaryEncoder:
    cls = HalfStepRotaryEncoder if config.transitions_per_detent == 2 else RotaryEncoder
    # max_steps=0: we only want the direction events, never a clamped value.
    encoder = cls(
        config.a, config.b, bounce_time=config.bounce_time, max_steps=0, pin_factory=pin_factory
    )
    encoder.when_rotated_clockwise = lambda: queue.put(Input.NEXT)
    encoder.when_rotated_counter_clockwise = lambda: queue.put(Input.PREVIOUS)
    return encoder


def _open_button(
    config: InputConfig, pin: Pin, short: Input, queue: EventQueue, pin_factory: Factory | None
) -> QuietButton:
    button = QuietButton(
        pin,
        pull_up=True,
        bounce_time=config.bounce_time,
        hold_time=config.hold_time,
        pin_factory=pin_factory,
    )
    PressTracker(queue.put, short=short, long=Input.HOLD).attach(button)
    return button
