"""The five abstract inputs and the queue that carries them to the application.

Input devices (gpiozero callbacks, the serial pad, the keyboard simulation)
run in their own threads and only ever *put* into an :class:`EventQueue`.
The single application thread blocks in :meth:`EventQueue.get` with a timeout
(the time until its next timer is due), so it sleeps until there is work.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from enum import StrEnum
from typing import NamedTuple

log = logging.getLogger(__name__)

DEFAULT_MAXLEN = 256
DEFAULT_PUT_TIMEOUT = 0.5
"""How long :meth:`EventQueue.put` waits for room in a full queue before dropping the oldest."""


class Input(StrEnum):
    """An abstract input: all the application ever learns about a key or knob."""

    NEXT = "next"
    PREVIOUS = "previous"
    SELECT = "select"
    BACK = "back"
    HOLD = "hold"


class InputEvent(NamedTuple):
    """An input and the :func:`time.monotonic` time it was enqueued (for latency figures)."""

    input: Input
    timestamp: float


class EventQueue:
    """A bounded, thread-safe queue of :class:`InputEvent` with a blocking ``get``.

    ``put`` runs in the producers' threads (gpiozero's pin callback thread,
    the serial pad's reader, a hold timer), never in the application's. When
    the queue is full it *waits* up to ``put_timeout`` seconds for the
    application to take an event: a burst of inputs (a fast spin of the
    encoder, a pad flooding lines) then slows its producer down instead of
    losing inputs, and the wait costs the application nothing. Only if no
    room comes within that bound (the application has stalled) is the
    *oldest* event dropped and counted in :attr:`dropped`: 256 unread
    inputs then mean the application is stuck, and what the player is
    pressing now matters more than what they pressed long ago. While it
    stays stalled (no event taken since a wait ran out) further puts drop at
    once, so a stuck application holds up a producer for one timeout, not
    one per input. ``put_timeout=0`` drops at once, as before.

    :meth:`close` wakes every waiter; afterwards ``put`` is ignored and ``get``
    returns what is left, then ``None`` without waiting. It is how a quit key
    or a signal handler ends the application loop.
    """

    def __init__(
        self, maxlen: int = DEFAULT_MAXLEN, *, put_timeout: float = DEFAULT_PUT_TIMEOUT
    ) -> None:
        if maxlen < 1:
            raise ValueError(f"maxlen must be at least 1, not {maxlen}")
        if put_timeout < 0:
            raise ValueError(f"put_timeout must not be negative, not {put_timeout}")
        self._events: deque[InputEvent] = deque(maxlen=maxlen)
        self._changed = threading.Condition()
        self._put_timeout = put_timeout
        self._enqueued = 0
        self._dropped = 0
        self._waited = 0
        self._high_water = 0
        self._stalled = False
        self._closed = False

    def put(self, item: Input) -> None:
        """Enqueue ``item`` stamped with the current monotonic time; safe from any thread.

        Never call it from the thread that consumes the queue: a full queue
        would make it wait ``put_timeout`` for itself.
        """
        event = InputEvent(Input(item), time.monotonic())
        with self._changed:
            if self._closed:
                return
            if self._full() and not self._stalled and self._put_timeout > 0:
                self._waited += 1
                room = self._changed.wait_for(
                    lambda: not self._full() or self._closed, self._put_timeout
                )
                if self._closed:
                    return
                if not room:
                    self._stalled = True
                    log.warning(
                        "input queue full for %g s: the application is not reading it",
                        self._put_timeout,
                    )
            if self._full():
                self._dropped += 1
                if self._dropped == 1 or self._dropped % 100 == 0:
                    log.warning("input queue full: %d event(s) dropped so far", self._dropped)
            self._events.append(event)  # a full deque discards its oldest item
            self._enqueued += 1
            self._high_water = max(self._high_water, len(self._events))
            self._changed.notify_all()

    def _full(self) -> bool:
        return len(self._events) == self._events.maxlen

    def get_event(self, timeout: float | None = None) -> InputEvent | None:
        """Wait up to ``timeout`` seconds (``None``: forever) for the next event.

        Returns ``None`` on timeout, or at once if the queue is closed and empty
        (check :attr:`closed` to tell the two apart).
        """
        with self._changed:
            self._changed.wait_for(lambda: self._events or self._closed, timeout)
            if not self._events:
                return None
            event = self._events.popleft()
            self._stalled = False  # the application reads again: producers may wait for room
            self._changed.notify_all()  # a put waiting for room
            return event

    def get(self, timeout: float | None = None) -> Input | None:
        """Like :meth:`get_event` but returns only the :class:`Input`."""
        event = self.get_event(timeout)
        return None if event is None else event.input

    def wait_until_enqueued(self, count: int, timeout: float) -> bool:
        """Wait until :attr:`enqueued` reaches ``count``; ``False`` on timeout.

        Lets a producer (the simulation, a test) know that the event its pin
        change caused has arrived, even if a consumer has already taken it.
        Returns early (``False``) if the queue is closed.
        """
        with self._changed:
            self._changed.wait_for(lambda: self._enqueued >= count or self._closed, timeout)
            return self._enqueued >= count

    def close(self) -> None:
        """Stop accepting events and wake all waiters (see the class docstring)."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has been called."""
        return self._closed

    @property
    def enqueued(self) -> int:
        """Total events ever put (including any later dropped); never decreases."""
        return self._enqueued

    @property
    def dropped(self) -> int:
        """Events discarded because the queue was full for longer than ``put_timeout``."""
        return self._dropped

    @property
    def waited(self) -> int:
        """Puts that found the queue full and waited for room (backpressure)."""
        return self._waited

    @property
    def high_water(self) -> int:
        """The most events ever pending at once (at most ``maxlen``)."""
        return self._high_water

    def __len__(self) -> int:
        with self._changed:
            return len(self._events)
