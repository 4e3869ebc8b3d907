"""Partial updates for page-organised monochrome OLEDs: send only what changed.

A 128x64 SSD1306/SSD1309/SH1106 keeps its picture in GDDRAM as 8 pages of 128
columns; each byte is 8 vertical pixels, least significant bit at the top
(luma.oled's ``ssd1306.display`` and ``sh1106.display`` build exactly that). Here
frames are handled as *page bytes*: ``bytes`` of ``pages * width``, byte
``page * width + x`` holding column ``x`` of ``page``.

Comparing the new frame's page bytes with the ones last sent gives the changed
columns of each page; they are grouped into :class:`Window` s and sent:

- SSD1306/SSD1309 (horizontal addressing, as luma configures them: ``0x20 0x00``):
  ``0x21 first_col last_col 0x22 first_page last_page`` then the window's bytes,
  page by page. One window may span several pages. Once a window's last byte is
  written the controller's pointers are back on its first column and page, so
  a window on the same pages as the one before it needs only ``0x21`` (and one
  on the same columns only ``0x22``); the first window of a frame sets both.
- SH1106 (page addressing, 132-column RAM, the 128 visible columns start at
  luma's ``page_address_offset``, 2): per window ``0xB0+page``,
  ``0x00 | (col & 0x0F)``, ``0x10 | (col >> 4)`` then the bytes of that page's
  column range. A window is one page; a second run on the page the data just
  went to needs only the two column commands.

Merge policy (cost in byte-times on I2C, where every ``command()`` and every
``data()`` call is its own transfer with an address and a control byte, ~2
bytes each): a window costs :data:`SSD1306_WINDOW_COST` (6 command bytes + 2
transfers = 10) or :data:`SH1106_WINDOW_COST` (3 + 4 = 7) plus one byte per
column and page it covers. Two changed runs on one page are merged when the
unchanged gap between them is no longer than a window costs (re-sending the gap
is no dearer than a new window); on the SSD1306 a run is also merged into a
window that reaches the page above (or the same page) when the merged rectangle
costs no more than the two separately. If the windows together would cost as
much as a whole frame, the whole frame is sent instead. (A window after another on
the same pages costs 3 command bytes less, as it sets only its columns; the policy
counts the whole cost, erring towards fewer transfers.)
"""

from __future__ import annotations

import re
from typing import NamedTuple, Protocol

from PIL import Image

PAGE_HEIGHT = 8

SSD1306_COLUMNADDR = 0x21
SSD1306_PAGEADDR = 0x22
SH1106_PAGE = 0xB0
SH1106_LOW_COLUMN = 0x00
SH1106_HIGH_COLUMN = 0x10

_NONZERO_BYTES = re.compile(rb"[^\x00]+")

SSD1306_WINDOW_COST = 10
"""Byte-times an SSD1306 window costs besides its data: 6 command bytes, 2 I2C transfers."""
SH1106_WINDOW_COST = 7
"""Byte-times an SH1106 page run costs besides its data: 3 command bytes, 2 I2C transfers."""


class Window(NamedTuple):
    """A rectangle of GDDRAM: pages and columns, both inclusive."""

    first_page: int
    last_page: int
    first_column: int
    last_column: int

    @property
    def size(self) -> int:
        """Data bytes the window holds."""
        pages = self.last_page - self.first_page + 1
        return pages * (self.last_column - self.first_column + 1)


class SerialDevice(Protocol):
    """What senders need from a luma device: its own ``command()`` and ``data()``."""

    def command(self, *cmd: int) -> None: ...

    def data(self, data: list[int]) -> None: ...


def page_bytes(image: Image.Image) -> bytes:
    """The GDDRAM page bytes of a mode "1" image whose height is a multiple of 8."""
    height = image.size[1]
    if image.mode != "1" or height % PAGE_HEIGHT:
        raise ValueError(f"expected a mode '1' image with a height multiple of 8, got {image}")
    pages = height // PAGE_HEIGHT
    # Turned a quarter clockwise, column x becomes row x read bottom to top, and
    # mode "1" packs 8 pixels per byte with the leftmost in the top bit: byte k of
    # row x is page pages-1-k of column x with the page's top row in bit 0.
    rows = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return b"".join(rows[pages - 1 - page :: pages] for page in range(pages))


def changed_runs(old: bytes, new: bytes, width: int, page: int, gap: int) -> list[tuple[int, int]]:
    """Column ranges (inclusive) of ``page`` that differ, merging runs at most ``gap`` apart."""
    start = page * width
    before, after = old[start : start + width], new[start : start + width]
    if before == after:
        return []
    # The columns that differ are the non-zero bytes of the two pages XORed; found
    # by int and re in C, not byte by byte in Python (a frame has 1024 of them).
    differences = (int.from_bytes(before, "big") ^ int.from_bytes(after, "big")).to_bytes(
        width, "big"
    )
    runs: list[tuple[int, int]] = []
    for changed in _NONZERO_BYTES.finditer(differences):
        first, last = changed.start(), changed.end() - 1
        if runs and first - runs[-1][1] - 1 <= gap:
            runs[-1] = (runs[-1][0], last)
        else:
            runs.append((first, last))
    return runs


def plan_windows(
    old: bytes, new: bytes, width: int, *, window_cost: int, multi_page: bool
) -> list[Window] | None:
    """The windows to send to turn ``old`` into ``new``; ``[]`` if nothing changed.

    ``None`` means the windows would cost as much as the whole frame: send it all.
    """
    pages = len(new) // width
    windows: list[Window] = []
    for page in range(pages):
        for first, last in changed_runs(old, new, width, page, window_cost):
            run = Window(page, page, first, last)
            if multi_page:
                merged = _merge_into(windows, run, window_cost)
                if merged:
                    continue
            windows.append(run)
    cost = sum(window_cost + window.size for window in windows)
    if windows and cost >= _full_cost(width, pages, window_cost, multi_page):
        return None
    return windows


def _merge_into(windows: list[Window], run: Window, window_cost: int) -> bool:
    """Grow a window reaching the run's page (or the one above) by ``run`` if that is cheaper."""
    for index in range(len(windows) - 1, -1, -1):
        window = windows[index]
        if window.last_page < run.first_page - 1:
            break  # windows are in page order: none further back can reach
        union = Window(
            min(window.first_page, run.first_page),
            max(window.last_page, run.last_page),
            min(window.first_column, run.first_column),
            max(window.last_column, run.last_column),
        )
        if union.size <= window.size + run.size + window_cost:
            windows[index] = union
            return True
    return False


def _full_cost(width: int, pages: int, window_cost: int, multi_page: bool) -> int:
    if multi_page:
        return window_cost + width * pages
    return pages * (window_cost + width)


def window_data(frame: bytes, width: int, window: Window) -> list[int]:
    """The bytes of ``window`` in the order the controller fills it: page by page."""
    out: list[int] = []
    for page in range(window.first_page, window.last_page + 1):
        start = page * width
        out.extend(frame[start + window.first_column : start + window.last_column + 1])
    return out


def send_ssd1306(
    device: SerialDevice, frame: bytes, width: int, windows: list[Window], *, column_start: int = 0
) -> None:
    """Send windows with SSD1306 horizontal addressing: column and page window, then data.

    Each window's data fills it exactly, which leaves the pointers on its first column
    and page: the next window sets only the range that differs."""
    previous: Window | None = None
    for window in windows:
        first, last = column_start + window.first_column, column_start + window.last_column
        same_pages = previous is not None and previous[:2] == window[:2]
        same_columns = previous is not None and previous[2:] == window[2:]
        columns = () if same_columns else (SSD1306_COLUMNADDR, first, last)
        pages = () if same_pages else (SSD1306_PAGEADDR, window.first_page, window.last_page)
        if columns or pages:
            device.command(*columns, *pages)
        device.data(window_data(frame, width, window))
        previous = window


def send_sh1106(
    device: SerialDevice, frame: bytes, width: int, windows: list[Window], *, column_offset: int = 2
) -> None:
    """Send one-page windows with SH1106 page addressing: page, column nibbles, then data.

    Data leaves the page where it was, so a run on the page just written to sets only
    the column."""
    page_set: int | None = None
    for window in windows:
        column = column_offset + window.first_column
        for page in range(window.first_page, window.last_page + 1):
            nibbles = (SH1106_LOW_COLUMN | (column & 0x0F), SH1106_HIGH_COLUMN | (column >> 4))
            if page == page_set:
                device.command(*nibbles)
            else:
                device.command(SH1106_PAGE + page, *nibbles)
            page_set = page
            start = page * width
            device.data(list(frame[start + window.first_column : start + window.last_column + 1]))
