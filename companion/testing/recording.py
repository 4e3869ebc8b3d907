"""A recording I2C bus and panel simulators: what an OLED would show for the bytes it was sent.

:class:`RecordingBus` stands in for ``smbus2.SMBus`` under luma's
``luma.core.interface.serial.i2c(bus=...)``. luma writes commands as
``write_i2c_block_data(addr, 0x00, cmds)`` and, on a bus it was *given*, data as
``write_i2c_block_data(addr, 0x40, chunk)`` in chunks of 32 bytes; on a bus it
opened itself it sends data with ``i2c_rdwr(i2c_msg.write(addr, [0x40, ...]))``
in one message of up to 4096 bytes. Both are recorded as :class:`Write` s. The
bus can be told to fail (``OSError``) for fault tests.

:class:`Ssd1306Ram` and :class:`Sh1106Ram` replay those writes into simulated
GDDRAM, interpreting the commands as the controllers do, and give back the
image, in luma's coordinates (column x, page y // 8, bit y % 8), which is the
picture the right way up on modules made for luma's init. They also follow the
segment remap (0xA0/0xA1) and COM scan direction (0xC0/0xC8) commands, so
:meth:`~_Controller.glass` can say what the glass shows taking another init
(a module maker's own) as upright.

:func:`measure_bytes` compares partial updates with luma's whole frames.
"""

from __future__ import annotations

import errno as errnos
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from PIL import Image

from companion.display.partial import PAGE_HEIGHT

COMMANDS, DATA = 0x00, 0x40
"""The I2C control bytes luma sends before commands and before data."""


def image_from_pages(data: bytes, width: int, height: int) -> Image.Image:
    """The mode "1" image of GDDRAM page bytes: the inverse of `partial.page_bytes`."""
    pages = height // PAGE_HEIGHT
    if len(data) != width * pages:
        raise ValueError(f"expected {width * pages} page bytes, got {len(data)}")
    rows = bytearray(width * pages)
    for page in range(pages):
        rows[pages - 1 - page :: pages] = data[page * width : (page + 1) * width]
    return Image.frombytes("1", (height, width), bytes(rows)).transpose(Image.Transpose.ROTATE_90)


@dataclass(frozen=True, slots=True)
class ScanDirections:
    """How a controller maps its RAM onto the glass: segment remap and COM scan direction.

    ``segment_remap``: 0xA1 (RAM column 0 drives the last segment) rather than
    0xA0; ``com_reversed``: 0xC8 (scan from the last COM) rather than 0xC0.
    """

    segment_remap: bool
    com_reversed: bool


@dataclass(frozen=True, slots=True)
class Write:
    """One I2C write: the device address, the control byte (0x00 commands, 0x40 data), the bytes."""

    address: int
    mode: int
    data: bytes


class RecordingBus:
    """An SMBus stand-in that records every write and can be made to fail.

    ``fail(times)`` makes the next ``times`` writes raise ``OSError`` (all of
    them until :meth:`heal` if ``times`` is None); ``fail_when(index)``, if
    set, is asked before every write with the number of writes attempted so far.
    Failed writes are not recorded.
    """

    def __init__(self, *, fail_when: Callable[[int], bool] | None = None) -> None:
        self.writes: list[Write] = []
        self._writes_lock = threading.Lock()
        """A write and `take()` from two threads (the display's, a test's): without it, a
        write appended to the list `take()` had just handed over was never replayed."""
        self.attempts = 0
        self.fail_when = fail_when
        self._failures: int | None = 0
        self._errno = errnos.EREMOTEIO

    # smbus2's interface, as far as luma uses it

    def write_i2c_block_data(
        self, i2c_addr: int, register: int, data: list[int], force: bool | None = None
    ) -> None:
        self._maybe_fail()
        if len(data) > 32:
            raise ValueError("Data length cannot exceed 32 bytes")  # as smbus2
        with self._writes_lock:
            self.writes.append(Write(i2c_addr, register, bytes(data)))

    def i2c_rdwr(self, *messages: Any) -> None:  # smbus2.i2c_msg, bytes() of it the buffer
        self._maybe_fail()
        with self._writes_lock:
            for message in messages:
                raw = bytes(message)
                self.writes.append(Write(message.addr, raw[0], raw[1:]))

    def close(self) -> None:
        pass

    # fault injection

    def fail(self, times: int | None = None, errno: int = errnos.EREMOTEIO) -> None:
        """Make the next ``times`` writes (or every write, if None) raise ``OSError(errno)``."""
        self._failures = times
        self._errno = errno

    def heal(self) -> None:
        """Stop failing."""
        self._failures = 0
        self.fail_when = None

    def _maybe_fail(self) -> None:
        index = self.attempts
        self.attempts += 1
        failing = self.fail_when is not None and self.fail_when(index)
        if self._failures is None:
            failing = True
        elif self._failures > 0:
            self._failures -= 1
            failing = True
        if failing:
            raise OSError(self._errno, "Remote I/O error (simulated)")

    # reading back

    def take(self) -> list[Write]:
        """The writes recorded since the last ``take()``, forgetting them."""
        with self._writes_lock:
            writes, self.writes = self.writes, []
        return writes

    @property
    def payload_bytes(self) -> int:
        """Command and data bytes recorded (control bytes not counted)."""
        return sum(len(write.data) for write in self.writes)


class _Controller:
    """Command parsing shared by both controllers: commands with parameters may span writes."""

    PARAMETERS: ClassVar[dict[int, int]] = {}
    COLUMNS = 128

    def __init__(self, width: int = 128, height: int = 64) -> None:
        self.width, self.height = width, height
        self.pages = height // 8
        self.ram = bytearray(self.COLUMNS * self.pages)
        self.column = 0
        self.page = 0
        self.display_on = False
        self.contrast = 0x7F
        self.scan = ScanDirections(segment_remap=False, com_reversed=False)
        """The reset state is 0xA0, 0xC0."""
        self.commands: list[tuple[int, ...]] = []
        """Every command with its parameters, in order (for tests)."""
        self._pending: list[int] = []

    def feed(self, mode: int, data: Iterable[int]) -> None:
        """Take one write: ``mode`` 0x00 commands, 0x40 data."""
        if mode == COMMANDS:
            for byte in data:
                self._command_byte(byte)
        elif mode == DATA:
            for byte in data:
                self._data_byte(byte)
        else:
            raise ValueError(f"unexpected control byte 0x{mode:02X}")

    def replay(self, writes: Iterable[Write]) -> Image.Image:
        """Feed every write, then return :meth:`image`."""
        for write in writes:
            self.feed(write.mode, write.data)
        return self.image()

    def _command_byte(self, byte: int) -> None:
        self._pending.append(byte)
        if len(self._pending) - 1 < self.PARAMETERS.get(self._pending[0], 0):
            return
        command, self._pending = tuple(self._pending), []
        self.commands.append(command)
        self._execute(command)

    def _execute(self, command: tuple[int, ...]) -> None:
        op = command[0]
        if op == 0xAE:
            self.display_on = False
        elif op == 0xAF:
            self.display_on = True
        elif op == 0x81:
            self.contrast = command[1]
        elif op in (0xA0, 0xA1):
            self.scan = ScanDirections(op == 0xA1, self.scan.com_reversed)
        elif 0xC0 <= op <= 0xCF:  # the SH1106 reads bit 3 only; the SSD1306 takes C0 and C8
            self.scan = ScanDirections(self.scan.segment_remap, bool(op & 0x08))

    def _data_byte(self, byte: int) -> None:
        raise NotImplementedError

    def visible_pages(self) -> bytes:
        """The page bytes of the 128 visible columns."""
        raise NotImplementedError

    def image(self) -> Image.Image:
        """The GDDRAM as a mode "1" image (whether the panel is on or not)."""
        return image_from_pages(self.visible_pages(), self.width, self.height)

    def glass(self, upright: ScanDirections) -> Image.Image:
        """The GDDRAM as the glass shows it, for a module on which ``upright`` reads the right
        way up (its maker's init): the image, mirrored for each direction set otherwise.

        The mirror is exact: with the segments remapped, RAM column ``c`` drives
        segment ``last - c``, and the visible columns sit symmetrically in the RAM
        (the SH1106's 128 of 132 start at column 2 and end 2 before the last).
        """
        picture = self.image()
        if self.scan.segment_remap != upright.segment_remap:
            picture = picture.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        if self.scan.com_reversed != upright.com_reversed:
            picture = picture.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
        return picture

    def shown(self) -> Image.Image:
        """What the panel shows: the image, or black while it is off."""
        return self.image() if self.display_on else Image.new("1", (self.width, self.height))


class Ssd1306Ram(_Controller):
    """SSD1306/SSD1309 GDDRAM: page, horizontal and vertical addressing, 0x21/0x22 windows."""

    PARAMETERS: ClassVar[dict[int, int]] = {
        0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2,
        0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1,
    }  # fmt: skip
    PAGE_MODE, HORIZONTAL, VERTICAL = 0x02, 0x00, 0x01

    def __init__(self, width: int = 128, height: int = 64) -> None:
        super().__init__(width, height)
        self.addressing = self.PAGE_MODE  # the reset state
        self.column_window = (0, self.COLUMNS - 1)
        self.page_window = (0, self.pages - 1)

    def _execute(self, command: tuple[int, ...]) -> None:
        op = command[0]
        if op == 0x20:
            self.addressing = command[1] & 0x03
        elif op == 0x21 and self.addressing != self.PAGE_MODE:
            self.column_window = (command[1] & 0x7F, command[2] & 0x7F)
            self.column = self.column_window[0]
        elif op == 0x22 and self.addressing != self.PAGE_MODE:
            self.page_window = (command[1] & 0x07, command[2] & 0x07)
            self.page = self.page_window[0]
        elif 0xB0 <= op <= 0xB7 and self.addressing == self.PAGE_MODE:
            self.page = op & 0x07
        elif op <= 0x0F and self.addressing == self.PAGE_MODE:
            self.column = (self.column & 0xF0) | op
        elif 0x10 <= op <= 0x1F and self.addressing == self.PAGE_MODE:
            self.column = (self.column & 0x0F) | ((op & 0x0F) << 4)
        else:
            super()._execute(command)

    def _data_byte(self, byte: int) -> None:
        if self.page < self.pages:
            self.ram[self.page * self.COLUMNS + self.column] = byte
        (first_column, last_column), (first_page, last_page) = self.column_window, self.page_window
        if self.addressing == self.HORIZONTAL:
            self.column += 1
            if self.column > last_column:
                self.column = first_column
                self.page = first_page if self.page >= last_page else self.page + 1
        elif self.addressing == self.VERTICAL:
            self.page += 1
            if self.page > last_page:
                self.page = first_page
                self.column = first_column if self.column >= last_column else self.column + 1
        else:
            self.column = (self.column + 1) % self.COLUMNS

    def visible_pages(self) -> bytes:
        return bytes(self.ram)


class Sh1106Ram(_Controller):
    """SH1106 GDDRAM: 132 columns, page addressing; the panel shows ``column_offset`` onwards."""

    PARAMETERS: ClassVar[dict[int, int]] = {
        0x81: 1,
        0x8D: 1,
        0xA8: 1,
        0xAD: 1,
        0xD3: 1,
        0xD5: 1,
        0xD9: 1,
        0xDA: 1,
        0xDB: 1,
    }
    # 0x8D is the SSD1306 charge pump, not an SH1106 command, but luma sends it
    # with its parameter (0x8D 0x14); reading 0x14 as "high column 4" would not
    # matter either, as every write sets the column first.
    COLUMNS = 132

    def __init__(self, width: int = 128, height: int = 64, column_offset: int = 2) -> None:
        super().__init__(width, height)
        self.column_offset = column_offset

    def _execute(self, command: tuple[int, ...]) -> None:
        op = command[0]
        if 0xB0 <= op <= 0xB7:
            self.page = op & 0x07
        elif op <= 0x0F:
            self.column = (self.column & 0xF0) | op
        elif 0x10 <= op <= 0x1F:
            self.column = (self.column & 0x0F) | ((op & 0x0F) << 4)
        else:
            super()._execute(command)

    def _data_byte(self, byte: int) -> None:
        if self.column < self.COLUMNS and self.page < self.pages:
            self.ram[self.page * self.COLUMNS + self.column] = byte
        self.column += 1  # no wrap: past column 131 writes are lost

    def visible_pages(self) -> bytes:
        first = self.column_offset
        return b"".join(
            self.ram[page * self.COLUMNS + first : page * self.COLUMNS + first + self.width]
            for page in range(self.pages)
        )


def panel_for(driver: str, width: int = 128, height: int = 64) -> _Controller:
    """A fresh simulated controller for a luma driver name."""
    if driver in ("ssd1306", "ssd1309"):
        return Ssd1306Ram(width, height)
    if driver == "sh1106":
        return Sh1106Ram(width, height)
    raise ValueError(f"no simulator for {driver!r}")


def decode(writes: Iterable[Write], driver: str) -> Image.Image:
    """The GDDRAM image a fresh ``driver`` panel holds after ``writes``."""
    return panel_for(driver).replay(writes)


def measure_bytes(
    frames: Iterable[Image.Image], driver: str = "ssd1306", *, rotate: int = 0
) -> list[tuple[int, int]]:
    """For each frame, (bytes with partial updates, bytes luma's whole-frame ``display()`` sends).

    Bytes are command + data bytes (I2C control and address bytes not counted);
    the whole frame is 1024 data bytes plus luma's commands (6 on the SSD1306,
    3 per page on the SH1106). An unchanged frame costs luma a whole frame and
    partial updates nothing. The first frame is whole in both.
    """
    from luma.core.interface.serial import i2c

    from companion.display.oled import OledDisplay

    partial = OledDisplay(i2c(bus=RecordingBus()), driver, rotate=rotate)
    whole = OledDisplay(i2c(bus=RecordingBus()), driver, rotate=rotate, partial=False)
    results = []
    for frame in frames:
        before = partial.bytes_sent, whole.bytes_sent
        partial.display(frame)
        whole.device.display(frame)  # luma's own display(), even for an unchanged frame
        results.append((partial.bytes_sent - before[0], whole.bytes_sent - before[1]))
    return results
