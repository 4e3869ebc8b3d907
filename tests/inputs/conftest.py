"""Fixtures: a MockFactory installed as gpiozero's default, restored afterwards."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin

from companion.inputs.events import EventQueue, Input
from companion.inputs.gpio import GpioInputs, InputConfig, open_gpio_inputs


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    saved = Device.pin_factory
    factory = MockFactory(pin_class=MockPin)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def queue() -> EventQueue:
    return EventQueue()


@pytest.fixture
def open_inputs(
    mock_factory: MockFactory, queue: EventQueue
) -> Iterator[Callable[[InputConfig], GpioInputs]]:
    """Open GPIO inputs on the mock factory; everything opened is closed after the test."""
    opened: list[GpioInputs] = []

    def opener(config: InputConfig) -> GpioInputs:
        inputs = open_gpio_inputs(config, queue, pin_factory=mock_factory)
        opened.append(inputs)
        return inputs

    yield opener
    for inputs in opened:
        inputs.close()


@pytest.fixture
def drain(queue: EventQueue) -> Callable[[], list[Input]]:
    """A function returning (and removing) everything in ``queue`` right now."""

    def drainer() -> list[Input]:
        items = []
        while (item := queue.get(timeout=0)) is not None:
            items.append(item)
        return items

    return drainer
