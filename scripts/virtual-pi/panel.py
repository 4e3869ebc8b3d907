"""An SH1106 panel as the test sees it: its own reading of the bytes that
reached the I2C bus (i2c-stub's write log), written from the SH1106
datasheet, independent of the program's display code.

A log record is the chip address (1 byte), a length (2 bytes, little
endian) and the message: a control byte (0x00: commands follow, 0x40: data
follow) and its bytes. The panel's RAM is 8 pages of 132 columns, a byte a
column holding 8 rows (bit 0 on top); luma's SH1106 driver shows the 128
columns from column 2 on.
"""

from __future__ import annotations

ADDRESS = 0x3C
PAGES, COLUMNS, WIDTH = 8, 132, 128
FIRST_VISIBLE_COLUMN = 2
# Commands followed by one argument byte (SH1106 datasheet, section 9),
# and the SSD1306 charge pump (0x8D) luma sends to either chip.
TWO_BYTE_COMMANDS = {0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB, 0x8D}


class PanelError(ValueError):
    pass


class Panel:
    def __init__(self) -> None:
        self.ram = [bytearray(COLUMNS) for _ in range(PAGES)]
        self.page = 0
        self.column = 0
        self.display_on = False
        self.contrast = None
        self.data_written = False
        self.messages = 0
        self.wakes = 0
        """Times the panel was brightened or switched back on (a press that woke it)."""

    def feed(self, log: bytes) -> int:
        """Apply the whole records at the start of `log`; return the bytes used."""
        at = 0
        while at + 3 <= len(log):
            address, length = log[at], log[at + 1] | log[at + 2] << 8
            if at + 3 + length > len(log):
                break
            if address != ADDRESS:
                raise PanelError(f"a write to 0x{address:02X}, not the panel")
            self.message(log[at + 3 : at + 3 + length])
            at += 3 + length
        return at

    def message(self, message: bytes) -> None:
        self.messages += 1
        if not message:
            return
        control, body = message[0], message[1:]
        if control == 0x00:
            self.commands(body)
        elif control == 0x40:
            for byte in body:
                if self.column < COLUMNS:
                    self.ram[self.page][self.column] = byte
                self.column += 1
            self.data_written = True
        else:
            raise PanelError(f"control byte 0x{control:02X} (expected 0x00 or 0x40)")

    def commands(self, body: bytes) -> None:
        at = 0
        while at < len(body):
            command = body[at]
            if command in TWO_BYTE_COMMANDS:
                if at + 1 >= len(body):
                    raise PanelError(f"command 0x{command:02X} without its argument")
                if command == 0x81:
                    if self.contrast is not None and body[at + 1] > self.contrast:
                        self.wakes += 1
                    self.contrast = body[at + 1]
                at += 2
                continue
            if command <= 0x0F:
                self.column = (self.column & 0xF0) | command
            elif command <= 0x1F:
                self.column = (self.column & 0x0F) | (command & 0x0F) << 4
            elif 0xB0 <= command <= 0xB7:
                self.page = command & 0x07
            elif command in (0xAE, 0xAF):
                if command == 0xAF and not self.display_on and self.data_written:
                    self.wakes += 1
                self.display_on = command == 0xAF
            at += 1

    def picture(self) -> str | None:
        """The visible 128x64 pixels, '1' lit, row by row; None before any data."""
        if not self.data_written:
            return None
        rows = []
        for y in range(PAGES * 8):
            page = self.ram[y // 8]
            bit = 1 << (y % 8)
            rows.append(
                "".join("1" if page[FIRST_VISIBLE_COLUMN + x] & bit else "0" for x in range(WIDTH))
            )
        return "".join(rows)
