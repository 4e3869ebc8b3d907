"""The physical game in numbers: the 33 patches, the time track and its marks.

Everything here is transcribed from docs/RULES.md §1 and §2; ids `P00`–`P32` are the
canonical ones used in logs, JSON and on screen.
"""

from __future__ import annotations

from dataclasses import dataclass

FINAL_POSITION = 53
"""The central square of the time track; a token never moves past it."""

INCOME_MARKS: tuple[int, ...] = (5, 11, 17, 23, 29, 35, 41, 47, 53)
LEATHER_POSITIONS: tuple[int, ...] = (20, 26, 32, 44, 50)

QUILT_SQUARES = 81
BONUS_POINTS = 7
BONUS_SQUARES = 49
"""A 7×7 square needs at least this many covered squares, so no claim before."""

STARTING_BUTTONS = 5
EMPTY_SQUARE_PENALTY = 2


def marks_crossed(marks: tuple[int, ...], start: int, end: int) -> tuple[int, ...]:
    """The marks `m` with `start < m <= end`: those a token moving start → end crosses.

    docs/RULES.md §1: a mark is crossed moving from a position `< m` to one `>= m`.

    >>> marks_crossed(INCOME_MARKS, 4, 12)
    (5, 11)
    >>> marks_crossed(INCOME_MARKS, 5, 10)
    ()
    """
    return tuple(m for m in marks if start < m <= end)


@dataclass(frozen=True, slots=True)
class Patch:
    """One patch tile: price on its label, buttons drawn on it, and its shape."""

    id: str
    cost: int
    time: int
    buttons: int
    shape: tuple[str, ...]
    """Rows of the shape in one orientation; `#` is a square, `.` is empty."""

    @property
    def squares(self) -> int:
        return sum(row.count("#") for row in self.shape)

    @property
    def width(self) -> int:
        return len(self.shape[0])

    @property
    def height(self) -> int:
        return len(self.shape)


def _patch(number: int, cost: int, time: int, buttons: int, shape: str) -> Patch:
    return Patch(f"P{number:02d}", cost, time, buttons, tuple(shape.split(" / ")))


PATCHES: tuple[Patch, ...] = (
    _patch(0, 2, 1, 0, "##"),
    _patch(1, 0, 3, 1, "..#. / #### / ..#."),
    _patch(2, 1, 2, 0, "#.# / ###"),
    _patch(3, 1, 2, 0, "...# / #### / #..."),
    _patch(4, 1, 3, 0, ".# / ##"),
    _patch(5, 1, 4, 1, "..#.. / ##### / ..#.."),
    _patch(6, 1, 5, 1, "#..# / ####"),
    _patch(7, 2, 1, 0, "..#. / #### / .#.."),
    _patch(8, 2, 2, 0, "###"),
    _patch(9, 2, 2, 0, "### / .#."),
    _patch(10, 2, 2, 0, "##. / ###"),
    _patch(11, 2, 3, 0, "#.# / ### / #.#"),
    _patch(12, 2, 3, 1, "##.. / .###"),
    _patch(13, 3, 1, 0, ".# / ##"),
    _patch(14, 3, 2, 1, "##. / .##"),
    _patch(15, 3, 3, 1, "####"),
    _patch(16, 3, 4, 1, "#### / .#.."),
    _patch(17, 3, 6, 2, "#.# / ### / .#."),
    _patch(18, 4, 2, 0, "###. / .###"),
    _patch(19, 4, 2, 1, "### / #.."),
    _patch(20, 4, 6, 2, "### / #.."),
    _patch(21, 5, 3, 1, ".##. / #### / .##."),
    _patch(22, 5, 4, 2, ".#. / ### / .#."),
    _patch(23, 5, 5, 2, "### / .#. / .#."),
    _patch(24, 6, 5, 2, "## / ##"),
    _patch(25, 7, 1, 1, "#####"),
    _patch(26, 7, 2, 2, "...# / #### / ...#"),
    _patch(27, 7, 4, 2, ".##. / ####"),
    _patch(28, 7, 6, 3, "##. / .##"),
    _patch(29, 8, 6, 3, ".## / .## / ##."),
    _patch(30, 10, 3, 2, "#### / #..."),
    _patch(31, 10, 4, 3, "..# / .## / ##."),
    _patch(32, 10, 5, 3, "##.. / ####"),
)

PATCH_BY_ID: dict[str, Patch] = {patch.id: patch for patch in PATCHES}

STARTING_PATCH_ID = "P00"
"""The 2×1 patch: the neutral token starts directly clockwise of it."""
