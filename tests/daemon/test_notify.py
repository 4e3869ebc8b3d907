"""sd_notify over a real AF_UNIX datagram socket, as systemd would receive it."""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.daemon import notify
from companion.daemon.notify import Notifier


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """A bound datagram socket standing in for /run/systemd/notify."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    yield sock, str(path)
    sock.close()


@pytest.fixture
def abstract_receiver() -> Iterator[tuple[socket.socket, str]]:
    name = f"patchwork-companion-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    yield sock, "@" + name
    sock.close()


def received(sock: socket.socket) -> str:
    return sock.recv(4096).decode()


def test_ready_status_watchdog_stopping_reach_the_socket(receiver):
    sock, path = receiver
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": path})
    assert notifier.enabled

    assert notifier.ready()
    assert received(sock) == "READY=1"
    assert notifier.status("solo game, turn 12")
    assert received(sock) == "STATUS=solo game, turn 12"
    assert notifier.watchdog()
    assert received(sock) == "WATCHDOG=1"
    assert notifier.stopping()
    assert received(sock) == "STOPPING=1"
    notifier.close()


def test_ready_and_stopping_carry_a_status_in_the_same_datagram(receiver):
    sock, path = receiver
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": path})
    notifier.ready("first frame shown")
    assert received(sock) == "READY=1\nSTATUS=first frame shown"
    notifier.stopping("saving")
    assert received(sock) == "STOPPING=1\nSTATUS=saving"


def test_a_status_is_kept_to_one_line(receiver):
    sock, path = receiver
    Notifier.from_environment({"NOTIFY_SOCKET": path}).status("two\nlines")
    assert received(sock) == "STATUS=two lines"


def test_abstract_socket(abstract_receiver):
    sock, name = abstract_receiver
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": name})
    assert notifier.ready()
    assert received(sock) == "READY=1"
    assert notifier.watchdog()
    assert received(sock) == "WATCHDOG=1"


def test_the_socket_is_reused_between_messages(receiver):
    sock, path = receiver
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": path})
    notifier.watchdog()
    first = notifier._socket
    notifier.watchdog()
    assert notifier._socket is first
    assert received(sock) == received(sock) == "WATCHDOG=1"


def test_no_socket_means_every_call_is_a_no_op():
    notifier = Notifier.from_environment({"WATCHDOG_USEC": "30000000"})
    assert not notifier.enabled
    assert notifier.watchdog_interval is None
    assert notifier.ready("x") is False
    assert notifier.status("x") is False
    assert notifier.watchdog() is False
    assert notifier.stopping() is False
    notifier.close()


def test_empty_notify_socket_is_no_socket():
    assert not Notifier.from_environment({"NOTIFY_SOCKET": ""}).enabled


def test_a_vsock_address_is_ignored_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING, logger=notify.__name__):
        notifier = Notifier.from_environment({"NOTIFY_SOCKET": "vsock:2:1234"})
    assert not notifier.enabled
    assert "not a unix socket" in caplog.text


def test_from_environment_reads_os_environ_by_default(receiver, monkeypatch):
    sock, path = receiver
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    notifier = Notifier.from_environment()
    assert notifier.watchdog_interval == 15.0
    notifier.ready()
    assert received(sock) == "READY=1"


@pytest.mark.parametrize(
    ("env", "interval"),
    [
        ({"WATCHDOG_USEC": "30000000"}, 15.0),
        ({"WATCHDOG_USEC": "1000"}, 0.0005),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "4242"}, 15.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "4243"}, None),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "not-a-pid"}, None),
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "-5"}, None),
        ({"WATCHDOG_USEC": "soon"}, None),
        ({"WATCHDOG_PID": "4242"}, None),
        ({}, None),
    ],
)
def test_watchdog_interval_is_half_the_timeout_for_our_pid_only(receiver, env, interval):
    _, path = receiver
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": path, **env}, pid=4242)
    assert notifier.watchdog_interval == interval


def test_send_errors_are_logged_once_and_never_raised(tmp_path, caplog):
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    with caplog.at_level(logging.DEBUG, logger=notify.__name__):
        assert notifier.ready() is False
        assert notifier.watchdog() is False
        assert notifier.stopping() is False
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "cannot notify systemd" in warnings[0].getMessage()
    assert str(tmp_path / "gone") in warnings[0].getMessage()


def test_sending_works_again_once_the_socket_appears(tmp_path):
    path = tmp_path / "late"
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": str(path)})
    assert notifier.watchdog() is False
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        sock.bind(str(path))
        sock.settimeout(2)
        assert notifier.watchdog() is True
        assert received(sock) == "WATCHDOG=1"
    finally:
        sock.close()
