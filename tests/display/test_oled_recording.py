"""companion.testing.recording: the recording bus, the GDDRAM simulators and measure_bytes."""

import dataclasses
import errno
import sys
import threading

import pytest
import smbus2
from PIL import Image

from companion.render.screens import render
from companion.testing.recording import (
    COMMANDS,
    DATA,
    RecordingBus,
    Sh1106Ram,
    Ssd1306Ram,
    Write,
    decode,
    measure_bytes,
)
from companion.testing.screen_examples import EXAMPLES


def test_take_from_another_thread_loses_no_write():
    # The display writes on the application thread while a test or harness takes the
    # writes on its own: a write appended to the list just handed over was never
    # replayed, and the panel never showed the frame (the display-faults harness hid
    # that behind a fixed sleep). Thread switches are made as frequent as they go.
    bus, writes, taken = RecordingBus(), 100_000, []
    writer = threading.Thread(
        target=lambda: [bus.write_i2c_block_data(0x3C, 0x40, [n % 256]) for n in range(writes)]
    )
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        writer.start()
        while writer.is_alive():
            taken += bus.take()
        writer.join()
    finally:
        sys.setswitchinterval(interval)
    taken += bus.take()
    assert [write.data[0] for write in taken] == [n % 256 for n in range(writes)]


def test_bus_records_block_writes_and_rdwr_messages():
    bus = RecordingBus()
    bus.write_i2c_block_data(0x3C, COMMANDS, [0xAE, 0xAF])
    bus.i2c_rdwr(smbus2.i2c_msg.write(0x3C, [DATA, 1, 2, 3]))
    assert bus.take() == [
        Write(0x3C, COMMANDS, bytes([0xAE, 0xAF])),
        Write(0x3C, DATA, bytes([1, 2, 3])),
    ]
    assert bus.writes == []
    with pytest.raises(ValueError):
        bus.write_i2c_block_data(0x3C, DATA, [0] * 33)  # as smbus2


def test_bus_fails_on_request():
    bus = RecordingBus()
    bus.fail(times=2, errno=errno.EIO)
    for _ in range(2):
        with pytest.raises(OSError) as error:
            bus.write_i2c_block_data(0x3C, COMMANDS, [0xAF])
        assert error.value.errno == errno.EIO
    bus.write_i2c_block_data(0x3C, COMMANDS, [0xAF])
    bus.fail_when = lambda index: index == 3
    with pytest.raises(OSError):
        bus.write_i2c_block_data(0x3C, COMMANDS, [0xAF])
    bus.write_i2c_block_data(0x3C, COMMANDS, [0xAF])
    assert len(bus.writes) == 2 and bus.attempts == 5


def test_ssd1306_horizontal_window_wraps_inside_the_window():
    panel = Ssd1306Ram()
    panel.feed(COMMANDS, [0x20, 0x00, 0x21, 10, 11, 0x22, 2, 3])
    panel.feed(DATA, [1, 2, 3, 4, 5])  # the 5th byte wraps back to (10, page 2)
    assert panel.ram[2 * 128 + 10] == 5
    assert panel.ram[2 * 128 + 11] == 2
    assert panel.ram[3 * 128 + 10 : 3 * 128 + 12] == bytes([3, 4])


def test_ssd1306_page_mode_ignores_windows():
    panel = Ssd1306Ram()  # reset state: page addressing
    panel.feed(COMMANDS, [0x21, 50, 60, 0xB3, 0x05, 0x12])  # window ignored; page 3, column 0x25
    panel.feed(DATA, [0xFF])
    assert panel.ram[3 * 128 + 0x25] == 0xFF


def test_sh1106_offset_and_no_wrap():
    panel = Sh1106Ram()
    panel.feed(COMMANDS, [0xB1, 0x00, 0x10])  # page 1, RAM column 0: not visible
    panel.feed(DATA, [0xFF, 0xFF, 0x01])  # third byte lands on visible column 0
    image = panel.image()
    assert image.getpixel((0, 8)) and not image.getpixel((0, 9))
    assert not image.getpixel((1, 8))
    panel.feed(COMMANDS, [0xB1, 0x03, 0x18])  # column 131: the last of the RAM
    panel.feed(DATA, [0xFF, 0xFF])  # the second is lost, not wrapped
    assert panel.ram[1 * 132 + 131] == 0xFF
    assert panel.ram[2 * 132] == 0


def test_parameters_may_span_writes():
    panel = Ssd1306Ram()
    panel.feed(COMMANDS, [0x81])
    panel.feed(COMMANDS, [0x10])
    assert panel.contrast == 0x10
    assert (0x81, 0x10) in panel.commands


def test_unknown_control_byte():
    with pytest.raises(ValueError):
        Ssd1306Ram().feed(0x80, [0xAF])


def test_decode_needs_a_known_driver():
    with pytest.raises(ValueError):
        decode([], "ssd1351")


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106", "ssd1309"])
def test_measure_bytes(driver):
    menu = EXAMPLES["menu"]
    frames = [render(menu), render(menu), render(dataclasses.replace(menu, selected=1))]
    pixel = frames[-1].copy()
    pixel.putpixel((3, 3), 1 - pixel.getpixel((3, 3)) // 255)
    frames.append(pixel)
    full = 6 + 1024 if driver != "sh1106" else 8 * (3 + 128)
    figures = measure_bytes(frames, driver)
    assert figures[0] == (full, full)  # first frame: whole in both
    assert figures[1] == (0, full)  # unchanged
    assert 0 < figures[2][0] < full / 2  # the highlight moved one row
    assert figures[3] == (7 if driver != "sh1106" else 4, full)


def test_shown_is_black_while_off():
    panel = Ssd1306Ram()
    panel.feed(COMMANDS, [0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7])
    panel.feed(DATA, [0xFF] * 1024)
    assert panel.image().tobytes() == Image.new("1", (128, 64), 1).tobytes()
    assert panel.shown().getbbox() is None
    panel.feed(COMMANDS, [0xAF])
    assert panel.shown().getbbox() == (0, 0, 128, 64)
