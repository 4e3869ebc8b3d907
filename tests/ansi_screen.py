"""A tiny terminal model: what a screen shows after some ANSI output.

Knows the sequences the terminal display writes (cursor position, column,
clear, colours, the alternate screen, cursor visibility) and fails on
anything written outside the screen, where a real terminal would scroll.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_SEQUENCE = re.compile(r"(\x1b\[[0-9;?]*[A-Za-z])")


@dataclass
class Screen:
    columns: int = 80
    rows: int = 24
    cells: list[list[str]] = field(init=False)
    #: the SGR parameters each cell was written with ("" for none)
    styles: list[list[str]] = field(init=False)
    alternate: bool = False
    cursor_visible: bool = True
    row: int = 0
    column: int = 0
    style: str = ""

    def __post_init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.cells = [[" "] * self.columns for _ in range(self.rows)]
        self.styles = [[""] * self.columns for _ in range(self.rows)]

    def feed(self, output: str) -> Screen:
        for token in _SEQUENCE.split(output):
            if token.startswith("\x1b["):
                self._control(token[2:-1], token[-1])
            else:
                self._text(token)
        return self

    def lines(self) -> list[str]:
        return ["".join(line).rstrip() for line in self.cells]

    def _control(self, parameters: str, final: str) -> None:
        if final == "H":
            row, _, column = parameters.partition(";")
            self.row, self.column = int(row or 1) - 1, int(column or 1) - 1
        elif final == "G":
            self.column = int(parameters or 1) - 1
        elif final == "J" and parameters == "2":
            self.clear()
        elif final == "m":
            self.style = "" if parameters in ("", "0") else parameters
        elif parameters == "?1049":
            self.alternate = final == "h"
        elif parameters == "?25":
            self.cursor_visible = final == "h"
        else:
            raise AssertionError(f"unexpected sequence ESC[{parameters}{final}")

    def _text(self, text: str) -> None:
        for char in text:
            if char == "\n":
                self.row, self.column = self.row + 1, 0
                continue
            if char == "\r":
                self.column = 0
                continue
            assert 0 <= self.row < self.rows and 0 <= self.column < self.columns, (
                f"{char!r} would land at row {self.row}, column {self.column}"
            )
            self.cells[self.row][self.column] = char
            self.styles[self.row][self.column] = self.style
            self.column += 1
