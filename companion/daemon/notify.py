"""Tell systemd how the daemon is doing: sd_notify(3) without libsystemd.

The unit (systemd/patchwork-companion.service) is `Type=notify` with a
`WatchdogSec=`: systemd waits for READY=1 before it calls the service started,
and restarts it if WATCHDOG=1 does not arrive in time. The protocol is one
datagram of newline-separated `KEY=VALUE` lines sent to the AF_UNIX socket
named by `$NOTIFY_SOCKET` (a path, or an abstract name written with a leading
"@").

Outside systemd (simulation, tests, a shell) there is no `$NOTIFY_SOCKET` and
every method does nothing, so callers never need to ask.

>>> notifier = Notifier.from_environment({})
>>> notifier.enabled, notifier.watchdog_interval
(False, None)
>>> notifier.ready("first frame shown")
False
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Mapping

logger = logging.getLogger(__name__)

_USEC_PER_SECOND = 1_000_000


class Notifier:
    """Sends state changes to systemd's notification socket.

    Build it with `from_environment()`. Sending never raises: a failure is
    logged once (a daemon must not die because its supervisor is gone) and
    the method returns False.
    """

    def __init__(self, address: str | None = None, watchdog_usec: int | None = None) -> None:
        """`address`: the socket ("/path" or "@abstract"), None for no systemd.

        `watchdog_usec`: the watchdog timeout systemd expects pings within, or None.
        """
        self._address = _socket_address(address) if address else None
        self._watchdog_usec = watchdog_usec if watchdog_usec and watchdog_usec > 0 else None
        self._socket: socket.socket | None = None
        self._lock = threading.Lock()
        self._failure_logged = False

    @classmethod
    def from_environment(
        cls, environ: Mapping[str, str] | None = None, pid: int | None = None
    ) -> Notifier:
        """Read `$NOTIFY_SOCKET`, `$WATCHDOG_USEC` and `$WATCHDOG_PID`.

        The watchdog is ours only if `$WATCHDOG_PID` is unset or is our pid
        (`pid`, default `os.getpid()`): systemd sets it for the main process,
        and a child that inherited the environment must not ping for it.
        """
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET") or None
        if address is not None and not address.startswith(("/", "@")):
            # systemd 254+ may also name an AF_VSOCK socket ("vsock:…"), for
            # virtual machines; a Raspberry Pi service never gets one.
            logger.warning("NOTIFY_SOCKET=%r is not a unix socket; not notifying systemd", address)
            address = None
        return cls(address, _watchdog_usec(env, os.getpid() if pid is None else pid))

    @property
    def enabled(self) -> bool:
        """True when running under systemd with a notification socket."""
        return self._address is not None

    @property
    def watchdog_interval(self) -> float | None:
        """Seconds between watchdog pings (half the timeout), or None if no watchdog."""
        if self._address is None or self._watchdog_usec is None:
            return None
        return self._watchdog_usec / _USEC_PER_SECOND / 2

    def ready(self, status: str | None = None) -> bool:
        """Start-up is over (the first frame is on the display)."""
        return self.notify(READY="1", STATUS=status)

    def status(self, text: str) -> bool:
        """A one-line status, shown by `systemctl status`."""
        return self.notify(STATUS=text)

    def watchdog(self) -> bool:
        """Still alive: call every `watchdog_interval` seconds from the main loop."""
        return self.notify(WATCHDOG="1")

    def stopping(self, status: str | None = None) -> bool:
        """Shut-down has begun (after SIGTERM, before the database is closed)."""
        return self.notify(STOPPING="1", STATUS=status)

    def notify(self, **fields: str | None) -> bool:
        """Send `KEY=value` lines (None values are left out); True if sent."""
        if self._address is None:
            return False
        lines = [f"{key}={_one_line(value)}" for key, value in fields.items() if value is not None]
        if not lines:
            return False
        message = "\n".join(lines).encode("utf-8", "replace")
        with self._lock:
            try:
                if self._socket is None:
                    self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                self._socket.sendto(message, self._address)
            except OSError as error:
                self._log_failure(error)
                return False
        return True

    def close(self) -> None:
        """Close the socket (it is reopened if another message is sent)."""
        with self._lock:
            if self._socket is not None:
                self._socket.close()
                self._socket = None

    def __repr__(self) -> str:
        return f"Notifier(address={self._address!r}, watchdog_usec={self._watchdog_usec!r})"

    def _log_failure(self, error: OSError) -> None:
        if self._failure_logged:
            logger.debug("systemd notification failed again: %s", error)
            return
        self._failure_logged = True
        logger.warning(
            "cannot notify systemd at %s: %s (further failures are not logged)",
            self._address,
            error.strerror or error,
        )


def _socket_address(address: str) -> str:
    # "@name" is Linux's abstract namespace: a leading NUL byte, no file.
    return "\0" + address[1:] if address.startswith("@") else address


def _watchdog_usec(env: Mapping[str, str], pid: int) -> int | None:
    raw_usec = env.get("WATCHDOG_USEC")
    if not raw_usec:
        return None
    raw_pid = env.get("WATCHDOG_PID")
    if raw_pid:
        try:
            if int(raw_pid) != pid:
                return None
        except ValueError:
            logger.warning("WATCHDOG_PID=%r is not a pid; ignoring the watchdog", raw_pid)
            return None
    try:
        usec = int(raw_usec)
    except ValueError:
        logger.warning("WATCHDOG_USEC=%r is not a number; ignoring the watchdog", raw_usec)
        return None
    return usec if usec > 0 else None


def _one_line(value: str) -> str:
    # A newline would start a new assignment in the datagram.
    return " ".join(value.splitlines())
