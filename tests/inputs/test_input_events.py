import threading
import time

import pytest

from companion.inputs.events import EventQueue, Input

PATIENCE = 10.0  # upper bound for waits that normally return at once


def test_input_values_are_their_names():
    assert [item.value for item in Input] == ["next", "previous", "select", "back", "hold"]
    assert Input("hold") is Input.HOLD
    assert Input.NEXT == "next"


def test_events_come_out_in_order_with_monotonic_timestamps(queue):
    for item in (Input.NEXT, Input.SELECT, Input.BACK):
        queue.put(item)
    events = [queue.get_event(timeout=0) for _ in range(3)]
    assert [event.input for event in events] == [Input.NEXT, Input.SELECT, Input.BACK]
    assert events[0].timestamp <= events[1].timestamp <= events[2].timestamp


def test_get_returns_none_when_nothing_arrives(queue):
    assert queue.get(timeout=0) is None
    assert queue.get(timeout=0.01) is None


def test_get_wakes_up_for_a_put_from_another_thread(queue):
    threading.Timer(0.05, queue.put, args=(Input.HOLD,)).start()
    assert queue.get(timeout=PATIENCE) is Input.HOLD


def test_overflow_drops_the_oldest_and_counts_it():
    queue = EventQueue(maxlen=3, put_timeout=0)  # nobody reads: drop at once
    for item in (Input.NEXT, Input.PREVIOUS, Input.SELECT, Input.BACK, Input.HOLD):
        queue.put(item)
    assert queue.dropped == 2
    assert queue.enqueued == 5
    assert len(queue) == 3
    assert [queue.get(timeout=0) for _ in range(3)] == [Input.SELECT, Input.BACK, Input.HOLD]


def test_maxlen_must_be_positive():
    with pytest.raises(ValueError):
        EventQueue(maxlen=0)
    with pytest.raises(ValueError):
        EventQueue(put_timeout=-1)


def test_a_full_queue_makes_put_wait_for_the_reader_and_loses_nothing():
    queue = EventQueue(maxlen=2, put_timeout=PATIENCE)
    sent = [Input.NEXT, Input.PREVIOUS, Input.SELECT, Input.BACK, Input.HOLD] * 20
    producer = threading.Thread(target=lambda: [queue.put(item) for item in sent])
    producer.start()
    received = [queue.get(timeout=PATIENCE) for _ in sent]
    producer.join(PATIENCE)
    assert received == sent
    assert queue.dropped == 0
    assert queue.waited > 0
    assert queue.high_water == 2


def test_a_stalled_reader_costs_one_timeout_then_drops_the_oldest_at_once():
    queue = EventQueue(maxlen=2, put_timeout=0.05)
    queue.put(Input.NEXT)
    queue.put(Input.PREVIOUS)
    started = time.monotonic()
    queue.put(Input.SELECT)  # waits 0.05 s, then drops NEXT
    assert time.monotonic() - started >= 0.05
    queue.put(Input.BACK)  # stalled: drops PREVIOUS at once
    assert queue.waited == 1  # counted, not timed: a loaded machine may be 0.05 s late
    assert queue.dropped == 2
    assert queue.get(timeout=0) is Input.SELECT  # reading again ends the stall
    queue.put(Input.HOLD)
    assert queue.dropped == 2
    assert [queue.get(timeout=0) for _ in range(2)] == [Input.BACK, Input.HOLD]


def test_close_wakes_a_put_waiting_for_room():
    queue = EventQueue(maxlen=1, put_timeout=PATIENCE)
    queue.put(Input.NEXT)
    threading.Timer(0.05, queue.close).start()
    started = time.monotonic()
    queue.put(Input.BACK)
    assert time.monotonic() - started < PATIENCE
    assert queue.dropped == 0
    assert queue.get(timeout=0) is Input.NEXT


def test_close_wakes_a_waiting_get_and_ignores_later_puts(queue):
    threading.Timer(0.05, queue.close).start()
    assert queue.get(timeout=PATIENCE) is None
    assert queue.closed
    queue.put(Input.NEXT)
    assert queue.get(timeout=PATIENCE) is None  # at once: nothing can arrive any more
    assert queue.wait_until_enqueued(1, timeout=PATIENCE) is False


def test_wait_until_enqueued_counts_events_already_consumed(queue):
    queue.put(Input.NEXT)
    assert queue.get(timeout=0) is Input.NEXT
    assert queue.wait_until_enqueued(1, timeout=0)
    assert not queue.wait_until_enqueued(2, timeout=0)
    threading.Timer(0.05, queue.put, args=(Input.BACK,)).start()
    assert queue.wait_until_enqueued(2, timeout=PATIENCE)


def test_events_put_before_close_can_still_be_read(queue):
    queue.put(Input.SELECT)
    queue.close()
    assert queue.get(timeout=PATIENCE) is Input.SELECT
    assert queue.get(timeout=PATIENCE) is None
