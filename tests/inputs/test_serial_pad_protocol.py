"""The serial pad's line protocol without any port: framing, meaning, replies."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.inputs.events import Input
from companion.inputs.pad_protocol import (
    MAX_LINE_BYTES,
    Command,
    Ignored,
    LineSplitter,
    RawLine,
    Refusal,
    classify,
    encode_reply,
    error_reply,
    state_reply,
)


def classify_bytes(data: bytes):
    return classify(RawLine(data))


@pytest.mark.parametrize("item", list(Input))
def test_each_input_word_means_its_input(item):
    assert classify_bytes(item.value.encode()) is item


def test_commands_and_ignored_lines():
    assert classify_bytes(b"PING") is Command.PING
    assert classify_bytes(b"STATE") is Command.STATE
    assert classify_bytes(b"") is Ignored.EMPTY
    for echo in (b"OK", b"PONG", b"ERR", b"ERR too-long"):
        assert classify_bytes(echo) is Ignored.ECHO
    assert classify(RawLine(too_long=True)) is Refusal.TOO_LONG


@pytest.mark.parametrize(
    ("data", "refusal"),
    [
        (b"NEXT", Refusal.WRONG_CASE),
        (b"Hold", Refusal.WRONG_CASE),
        (b"pong", Refusal.UNKNOWN),  # not a word the pad may send, in any case
        (b"ok", Refusal.UNKNOWN),
        (b"ERRx", Refusal.UNKNOWN),
        (b"\xc0\xaf", Refusal.NOT_UTF8),  # an overlong encoding of "/"
        (b"back\x7f", Refusal.CONTROL_CHAR),
        (b"\xc2\x85", Refusal.CONTROL_CHAR),  # U+0085, a C1 control
    ],
)
def test_refusals(data, refusal):
    assert classify_bytes(data) is refusal


def test_replies_are_one_line_each():
    assert encode_reply("OK") == b"OK\n"
    assert encode_reply(error_reply(Refusal.TOO_LONG)) == b"ERR too-long\n"
    assert state_reply(None) == "null"
    pretty = json.dumps({"a": {"b": [1, "two\nlines"]}}, indent=4)
    assert "\n" not in state_reply(pretty)
    assert json.loads(state_reply(pretty)) == json.loads(pretty)


def test_line_ending_rules():
    splitter = LineSplitter()
    assert splitter.feed(b"a\r\nb\nc\r\r\n\r\n\n") == [
        RawLine(b"a"),
        RawLine(b"b"),
        RawLine(b"c\r"),  # only one "\r" belongs to the ending
        RawLine(b""),
        RawLine(b""),
    ]
    assert splitter.feed(b"no end yet\r") == []
    assert splitter.buffered == len(b"no end yet\r")


def test_max_length_boundary():
    splitter = LineSplitter()
    ok = b"y" * MAX_LINE_BYTES
    assert splitter.feed(ok + b"\n" + ok + b"\r\n") == [RawLine(ok), RawLine(ok)]
    assert splitter.feed(ok + b"y\n") == [RawLine(too_long=True)]
    assert splitter.feed(ok + b"y\r\n") == [RawLine(too_long=True)]
    assert splitter.feed(ok + b"\r\r\n") == [RawLine(too_long=True)]


def reference_lines(data: bytes, max_bytes: int) -> list[RawLine]:
    """The framing rules written the obvious way, with unbounded memory."""
    *complete, _rest = data.split(b"\n")
    lines = []
    for line in complete:
        body = line[:-1] if line.endswith(b"\r") else line
        lines.append(RawLine(too_long=True) if len(body) > max_bytes else RawLine(body))
    return lines


@given(
    data=st.lists(
        st.one_of(
            st.sampled_from([b"next", b"\n", b"\r\n", b"\r", b"PING", b"\x00", b"\xff"]),
            st.binary(max_size=40),
        ),
        max_size=60,
    ).map(b"".join),
    cuts=st.lists(st.integers(min_value=0, max_value=2_000), max_size=20),
    max_bytes=st.integers(min_value=1, max_value=40),
)
def test_any_chunking_gives_the_same_lines_in_bounded_memory(data, cuts, max_bytes):
    splitter = LineSplitter(max_bytes=max_bytes)
    lines = []
    start = 0
    for cut in [*sorted(cut % (len(data) + 1) for cut in cuts), len(data)]:
        lines += splitter.feed(data[start:cut])
        start = max(start, cut)
        assert splitter.buffered <= max_bytes + 1

    assert lines == reference_lines(data, max_bytes)


@given(st.binary(max_size=200))
def test_only_the_exact_words_are_inputs(data):
    request = classify_bytes(data)
    if isinstance(request, Input | Command):
        assert data == request.value.encode()
