"""JSON from files anyone could have written: bounded nesting and numbers, one-line errors.

`json.loads` raises `RecursionError` on a line of 100,000 `[` and a bare
`ValueError` (with a hint about `sys.set_int_max_str_digits`) on a 5,000-digit
number; both would reach the player as a traceback. Every JSON the companion
reads (game logs, settings, progress) goes through `loads`, which refuses both
with a `JsonLimitError` that names the problem in a few words. It lives in the
engine because the game log's reader needs it, and the engine imports nothing
else of the companion.

>>> loads('{"a": [1, 2]}')
{'a': [1, 2]}
>>> loads("[" * 100)
Traceback (most recent call last):
...
companion.engine.json_limits.JsonLimitError: nested deeper than 20 levels
>>> loads("1" * 30)
Traceback (most recent call last):
...
companion.engine.json_limits.JsonLimitError: a number of 30 digits (at most 20)
"""

from __future__ import annotations

import json
from typing import Any

MAX_DEPTH = 20
"""The companion's own files nest 3 levels at most."""
MAX_DIGITS = 20
"""Enough for any 64-bit integer (seeds are below 2**32)."""
SHORT_REPR = 40


class JsonLimitError(ValueError):
    """Valid JSON, perhaps, but nested too deep or with too long a number for the companion."""


def loads(text: str) -> Any:
    """`json.loads(text)` with the limits above. Raises `json.JSONDecodeError` for bad JSON
    and `JsonLimitError` for JSON beyond the limits (both are `ValueError`s)."""
    if _depth_exceeds(text, MAX_DEPTH):
        raise JsonLimitError(f"nested deeper than {MAX_DEPTH} levels")
    return json.loads(text, parse_int=_bounded_int, parse_float=_bounded_float)


def short_repr(value: Any, limit: int = SHORT_REPR) -> str:
    """`repr(value)` cut to `limit` characters, for messages about values read from a file.

    >>> short_repr("x" * 100, 12)
    "'xxxxxxxxxx…"
    """
    text = repr(value) if not isinstance(value, (list, dict)) else _kind(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _kind(value: list | dict) -> str:
    return f"a list of {len(value)}" if isinstance(value, list) else f"an object of {len(value)}"


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise JsonLimitError(f"a number of {len(digits.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(digits)


def _bounded_float(text: str) -> float:
    if len(text) > 2 * MAX_DIGITS:
        raise JsonLimitError(f"a number of {len(text)} characters (at most {2 * MAX_DIGITS})")
    return float(text)


def _depth_exceeds(text: str, limit: int) -> bool:
    if text.count("[") + text.count("{") <= limit:
        return False  # the usual case: too few brackets to be that deep
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False
