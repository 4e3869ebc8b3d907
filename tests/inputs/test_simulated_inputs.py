"""The simulation drives the same gpiozero devices through mock pins."""

import threading

import pytest

from companion.inputs.events import Input
from companion.inputs.simulated import SimulatedInputs, SimulationError, simulation_config

QUICK_HOLD = 0.1  # perform(HOLD) waits for the event, so this only sets the test's speed


@pytest.fixture
def simulated(queue):
    with SimulatedInputs(queue, simulation_config(hold_time=QUICK_HOLD)) as sim:
        yield sim


@pytest.mark.parametrize("item", list(Input))
def test_each_input_produces_exactly_itself(simulated, drain, item):
    simulated.perform(item)
    assert drain() == [item]


def test_a_long_mixed_sequence_arrives_in_order(simulated, drain):
    sequence = [Input.NEXT] * 120 + [Input.PREVIOUS] * 80 + [Input.SELECT, Input.HOLD, Input.BACK]
    for item in sequence:
        simulated.perform(item)
    assert drain() == sequence


def test_half_step_profile(queue, drain):
    with SimulatedInputs(queue, simulation_config(transitions_per_detent=2)) as sim:
        for item in (Input.NEXT, Input.NEXT, Input.NEXT, Input.PREVIOUS):
            sim.perform(item)
    assert drain() == [Input.NEXT, Input.NEXT, Input.NEXT, Input.PREVIOUS]


def test_uses_its_own_factory_and_leaves_the_default_alone(queue):
    from gpiozero import Device

    before = Device.pin_factory
    with SimulatedInputs(queue) as sim:
        assert sim.inputs.encoder.pin_factory is sim.factory
    assert Device.pin_factory is before


def test_an_input_without_a_simulated_button_is_an_error(queue):
    config = simulation_config()
    config = type(config)(encoder=config.encoder, buttons=(), bounce_time=None)
    with SimulatedInputs(queue, config) as sim, pytest.raises(SimulationError, match="back"):
        sim.perform(Input.BACK)


def test_perform_after_close_of_the_queue_does_not_wait(simulated, queue):
    queue.close()
    simulated.timeout = 3600  # were it to wait for the event, the thread would outlive the join
    worker = threading.Thread(target=simulated.perform, args=(Input.NEXT,), daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive()
    assert queue.enqueued == 0 and queue.get_event(0) is None


def test_a_key_pressed_after_closing_does_nothing(queue, drain):
    # The window's keys are pressed on a thread of their own: one may still be pending
    # when closing the window closes the devices.
    with SimulatedInputs(queue, simulation_config()) as sim:
        pass
    sim.perform(Input.SELECT)
    assert drain() == []
