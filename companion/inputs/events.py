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
from dataclasses import dataclass
from enum import StrEnum

log = logging.getLogger(__name__)

DEFAULT_MAXLEN = 256


class Input(StrEnum):
    """An abstract input: all the application ever learns about a key or knob."""

    NEXT = "next"
    PREVIOUS = "previous"
    SELECT = "select"
    BACK = "back"
    HOLD = "hold"


@dataclass(frozen=True, slots=True)
class InputEvent:
    """An input and the :func:`time.monotonic` time it was enqueued (for latency figures)."""

    input: Input
    timestamp: float


class EventQueue:
    """A bounded, thread-safe queue of :class:`InputEvent` with a blocking ``get``.

    ``put`` never blocks, because it runs inside device callbacks. When the
    queue is full the *oldest* event is dropped and :attr:`dropped` counts it:
    256 unread inputs mean the application has stalled, and what the player is
    pressing now matters more than what they pressed long ago.

    :meth:`close` wakes every waiter; afterwards ``put`` is ignored and ``get``
    returns what is left, then ``None`` without waiting. It is how a quit key
    or a signal handler ends the application loop.
    """

    def __init__(self, maxlen: int = DEFAULT_MAXLEN) -> None:
        if maxlen < 1:
            raise ValueError(f"maxlen must be at least 1, not {maxlen}")
        self._events: deque[InputEvent] = deque(maxlen=maxlen)
        self._changed = threading.Condition()
        self._enqueued = 0
        self._dropped = 0
        self._closed = False

    def put(self, item: Input) -> None:
        """Enqueue ``item`` stamped with the current monotonic time; safe from any thread."""
        event = InputEvent(Input(item), time.monotonic())
        with self._changed:
            if self._closed:
                return
            if len(self._events) == self._events.maxlen:
                self._dropped += 1
                if self._dropped == 1 or self._dropped % 100 == 0:
                    log.warning("input queue full: %d event(s) dropped so far", self._dropped)
            self._events.append(event)  # a full deque discards its oldest item
            self._enqueued += 1
            self._changed.notify_all()

    def get_event(self, timeout: float | None = None) -> InputEvent | None:
        """Wait up to ``timeout`` seconds (``None``: forever) for the next event.

        Returns ``None`` on timeout, or at once if the queue is closed and empty
        (check :attr:`closed` to tell the two apart).
        """
        with self._changed:
            self._changed.wait_for(lambda: self._events or self._closed, timeout)
            return self._events.popleft() if self._events else None

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
        """Events discarded because the queue was full."""
        return self._dropped

    def __len__(self) -> int:
        with self._changed:
            return len(self._events)
