"""TOML tables read with one-line errors: ``<file>: <key>: <problem>``.

:class:`Table` gives typed access to one table of a profile (an integer, a
string, a pin, a sub-table...) and refuses any key nobody asked for, with a
"did you mean" hint; every refusal is a :class:`ProfileError` naming the source
(a file, or "command line"), the key path and the problem.
"""

from __future__ import annotations

import difflib
import string
from collections.abc import Iterable, Mapping
from typing import Any, NoReturn

from companion.hardware.constants import BCM_PINS

_BARE_KEY_CHARACTERS = frozenset(string.ascii_letters + string.digits + "_-")
"""What a TOML bare key is made of (a set, not a regex compiled at every start)."""


class ProfileError(ValueError):
    """A hardware profile (or a display flag) that cannot be used.

    ``str(error)`` is one line: ``<file>: <key>: <problem>``.
    """


class Where:
    """Where the values come from (a file, or "command line"): raises the one-line errors."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, problem: str) -> NoReturn:
        line = f"{self.source}: {key}: {problem}"
        raise ProfileError(" ".join(line.splitlines()))


_MISSING: Any = object()


class Table:
    """One TOML table: typed access by key path, and no key that nobody asked for."""

    def __init__(
        self,
        where: Where,
        path: str,
        data: Mapping[str, Any],
        allowed: Iterable[str],
        labels: Mapping[str, str] | None = None,
    ) -> None:
        self.where = where
        self.path = path
        self.data = data
        self.labels = labels or {}
        #: the problem reported for a required key that is absent
        self.missing = "missing"
        allowed = tuple(allowed)
        for key in data:
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                self.fail(key, f"unknown key (expected one of {', '.join(allowed)}){hint}")

    def key(self, name: str) -> str:
        if name in self.labels:
            return self.labels[name]
        shown = name if name and _BARE_KEY_CHARACTERS.issuperset(name) else repr(name)
        return f"{self.path}.{shown}" if self.path else shown

    def fail(self, name: str, problem: str) -> NoReturn:
        self.where.fail(self.key(name), problem)

    def has(self, name: str) -> bool:
        return name in self.data

    def _get(self, name: str, default: Any) -> Any:
        if name in self.data:
            return self.data[name]
        if default is _MISSING:
            self.fail(name, self.missing)
        return default

    def integer(self, name: str, default: Any = _MISSING) -> Any:
        value = self._get(name, default)
        if name in self.data and (isinstance(value, bool) or not isinstance(value, int)):
            self.fail(name, f"expected an integer, got {_describe(value)}")
        return value

    def number(self, name: str, default: Any = _MISSING) -> Any:
        value = self._get(name, default)
        if name in self.data and (isinstance(value, bool) or not isinstance(value, int | float)):
            self.fail(name, f"expected a number, got {_describe(value)}")
        return value

    def string(self, name: str, default: Any = _MISSING) -> Any:
        value = self._get(name, default)
        if name in self.data and not isinstance(value, str):
            self.fail(name, f"expected a string, got {_describe(value)}")
        return value

    def table(self, name: str, allowed: Iterable[str]) -> Table | None:
        if name not in self.data:
            return None
        value = self.data[name]
        if not isinstance(value, dict):
            self.fail(name, f"expected a table ([{self.key(name)}]), got {_describe(value)}")
        return Table(self.where, self.key(name), value, allowed)

    def tables(self, name: str, allowed: Iterable[str]) -> list[Table]:
        if name not in self.data:
            return []
        value = self.data[name]
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            self.fail(
                name, f"expected an array of tables ([[{self.key(name)}]]), got {_describe(value)}"
            )
        return [
            Table(self.where, f"{self.key(name)}[{index}]", item, allowed)
            for index, item in enumerate(value)
        ]

    def pin(self, name: str, default: Any = _MISSING) -> Any:
        value = self.integer(name, default)
        if value is not None and value not in BCM_PINS:
            self.fail(name, f"GPIO {value} is out of range (BCM pins 0 to 27)")
        return value

    def in_range(self, name: str, value: float, low: float, high: float, unit: str = "") -> None:
        if not low <= value <= high:
            self.fail(name, f"{value}{unit} is out of range ({low}{unit} to {high}{unit})")


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return f"a {type(value).__name__}"
