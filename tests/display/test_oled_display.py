"""open_oled / OledDisplay: real luma drivers on a recording bus, decoded back into GDDRAM."""

import dataclasses
import errno
import logging
import sys

import pytest
import smbus2
from PIL import Image, ImageChops
from spi_doubles import MockGpio, RecordingSpi

from companion.display.oled import OledDisplay, open_oled
from companion.display.sink import DisplayUnavailable
from companion.hardware.config import DisplayConfig
from companion.render.screens import render
from companion.testing.recording import COMMANDS, DATA, RecordingBus, Write, panel_for
from companion.testing.screen_examples import EXAMPLES

DRIVERS = ("ssd1306", "sh1106")
FULL_BYTES = {"ssd1306": 6 + 1024, "sh1106": 8 * (3 + 128)}
"""What luma's display() sends: SSD1306 0x21 0 127 0x22 0 7 + 1024 data; SH1106 per page 3 + 128."""
ONE_BYTE_UPDATE = {"ssd1306": 6 + 1, "sh1106": 3 + 1}
"""A one-pixel change: one window (0x21 c c 0x22 p p / 0xB0+p low high) and one data byte."""


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def screens() -> list[Image.Image]:
    """Real screens, with small changes between some of them."""
    views = list(EXAMPLES.values())
    frames = [render(view) for view in views]
    menu = EXAMPLES["menu"]
    frames += [render(dataclasses.replace(menu, selected=i)) for i in (1, 2, 1)]
    number = EXAMPLES["number"]
    frames += [render(dataclasses.replace(number, value=v)) for v in ("13", "14", "9")]
    for xy in ((0, 0), (127, 63), (64, 31), (127, 0)):
        changed = frames[-1].copy()
        changed.putpixel(xy, 1 - changed.getpixel(xy) // 255)
        frames.append(changed)
    frames.append(frames[-1])  # unchanged
    frames.append(ImageChops.invert(frames[-1].convert("L")).convert("1"))  # everything changes
    return frames


def opened(driver, rotation=0, **options):
    bus = RecordingBus()
    display = open_oled(DisplayConfig(driver, rotation=rotation), bus=bus, **options)
    panel = panel_for(driver)
    panel.replay(bus.take())
    return display, bus, panel


def upright(frame: Image.Image, rotation: int) -> bytes:
    return (frame.rotate(180) if rotation == 180 else frame).tobytes()


@pytest.mark.parametrize("rotation", [0, 180])
@pytest.mark.parametrize("driver", DRIVERS)
def test_every_frame_decodes_to_the_rendered_image(driver, rotation):
    display, bus, panel = opened(driver, rotation)
    assert panel.display_on
    for frame in screens():
        display.display(frame)
        assert panel.replay(bus.take()).tobytes() == upright(frame, rotation)
    assert display.partial_frames > display.full_frames >= 2  # the first, and the inverted one


@pytest.mark.parametrize("driver", DRIVERS)
def test_partial_bytes_match_what_luma_sends_whole(driver):
    """The same frames through luma's own display(): identical GDDRAM after every frame."""
    display, bus, panel = opened(driver)
    whole, whole_bus, whole_panel = opened(driver, partial=False)
    for frame in screens():
        display.display(frame)
        whole.display(frame)
        assert panel.replay(bus.take()).tobytes() == whole_panel.replay(whole_bus.take()).tobytes()
    assert whole.partial_frames == 0


@pytest.mark.parametrize("driver", DRIVERS)
def test_first_frame_whole_then_unchanged_frame_sends_nothing(driver):
    display, bus, _ = opened(driver)
    frame = render(EXAMPLES["menu"])
    start = display.bytes_sent
    display.display(frame)
    assert display.bytes_sent - start == FULL_BYTES[driver]
    assert sum(len(w.data) for w in bus.take() if w.mode == DATA) == 1024
    display.display(frame.copy())
    assert bus.take() == []
    assert display.bytes_sent - start == FULL_BYTES[driver]


@pytest.mark.parametrize("rotation", [0, 180])
@pytest.mark.parametrize("driver", DRIVERS)
def test_whole_frames_are_byte_for_byte_luma(driver, rotation):
    display, bus, _ = opened(driver, rotation)
    whole, whole_bus, _ = opened(driver, rotation, partial=False)
    frame = render(EXAMPLES["turn_tactical"])
    for image in (frame, ImageChops.invert(frame.convert("L")).convert("1")):
        display.display(image)
        whole.display(image)
        assert bus.take() == whole_bus.take()
    assert display.full_frames == 2 and display.partial_frames == 0


@pytest.mark.parametrize("rotation", [0, 180])
@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("xy", [(0, 0), (127, 63), (70, 37), (127, 8), (0, 63)])
def test_one_pixel_sends_one_window_and_one_byte(driver, rotation, xy):
    display, bus, panel = opened(driver, rotation)
    frame = render(EXAMPLES["turn_solo"])
    display.display(frame)
    panel.replay(bus.take())
    changed = frame.copy()
    changed.putpixel(xy, 0 if frame.getpixel(xy) else 1)
    before = display.bytes_sent
    display.display(changed)
    writes = bus.take()
    assert display.bytes_sent - before == ONE_BYTE_UPDATE[driver]
    assert [w.mode for w in writes] == [COMMANDS, DATA]
    assert len(writes[1].data) == 1
    assert panel.replay(writes).tobytes() == upright(changed, rotation)


def test_sh1106_column_offset_and_nibbles():
    display, bus, _ = opened("sh1106")
    frame = Image.new("1", (128, 64))
    display.display(frame)
    bus.take()
    changed = frame.copy()
    changed.putpixel((127, 20), 1)  # page 2, column 127 -> RAM column 129 = 0x81
    display.display(changed)
    assert bus.take() == [
        Write(0x3C, COMMANDS, bytes([0xB2, 0x01, 0x18])),
        Write(0x3C, DATA, bytes([1 << 4])),
    ]


def test_ssd1306_window_spans_pages():
    display, bus, _ = opened("ssd1306")
    frame = Image.new("1", (128, 64))
    display.display(frame)
    bus.take()
    changed = frame.copy()
    changed.paste(1, (10, 6, 14, 10))  # rows 6..9: pages 0 and 1, columns 10..13
    display.display(changed)
    writes = bus.take()
    assert writes[0] == Write(0x3C, COMMANDS, bytes([0x21, 10, 13, 0x22, 0, 1]))
    assert writes[1].data == bytes([0xC0] * 4 + [0x03] * 4)


def three_changes(driver: str):
    """A blank frame shown, then one pixel set at (10, 16) and (100, 16) on page 2 and at
    (100, 40) on page 5: the writes sent for it, the frame, and the simulated panel."""
    display, bus, panel = opened(driver)
    frame = Image.new("1", (128, 64))
    display.display(frame)
    panel.replay(bus.take())
    changed = frame.copy()
    for x, y in ((10, 16), (100, 16), (100, 40)):
        changed.putpixel((x, y), 1)
    display.display(changed)
    return bus.take(), changed, panel


def test_ssd1306_a_window_on_the_pages_of_the_one_before_sets_only_its_columns():
    # Two changes far apart on page 2, then one on page 5 in the first one's columns:
    # the second window needs only 0x21 (its data left the pointer on page 2), the
    # third only 0x22; the panel, following the controller's pointers, shows all three.
    writes, changed, panel = three_changes("ssd1306")
    assert [write.data for write in writes] == [
        bytes([0x21, 10, 10, 0x22, 2, 2]),
        bytes([1]),
        bytes([0x21, 100, 100]),
        bytes([1]),
        bytes([0x22, 5, 5]),
        bytes([1]),
    ]
    assert panel.replay(writes).tobytes() == changed.tobytes()


def test_sh1106_a_second_run_on_a_page_sets_only_its_column():
    writes, changed, panel = three_changes("sh1106")
    # RAM columns 12 and 102 (0x66): the 128 visible ones start at column 2.
    assert [write.data for write in writes] == [
        bytes([0xB2, 0x0C, 0x10]),
        bytes([1]),
        bytes([0x06, 0x16]),
        bytes([1]),
        bytes([0xB5, 0x06, 0x16]),
        bytes([1]),
    ]
    assert panel.replay(writes).tobytes() == changed.tobytes()


@pytest.mark.parametrize("driver", DRIVERS)
def test_managed_bus_sends_data_with_i2c_rdwr(driver, monkeypatch):
    """Without bus=, luma opens smbus2 itself and sends data as one i2c_rdwr message."""
    bus = RecordingBus()
    monkeypatch.setattr(smbus2, "SMBus", lambda port: bus)
    display = open_oled(DisplayConfig(driver))
    panel = panel_for(driver)
    for frame in screens()[:6]:
        display.display(frame)
        assert panel.replay(bus.take()).tobytes() == frame.tobytes()
    assert display.device._serial_interface.serial._managed


# contrast, hide, show (how the display loop dims and blanks) -------------------------------


@pytest.mark.parametrize("driver", DRIVERS)
def test_contrast_hide_show_send_the_commands(driver):
    display, bus, panel = opened(driver)

    def sent():
        writes = bus.take()
        panel.replay(writes)
        assert all(w.mode == COMMANDS for w in writes)
        return [tuple(w.data) for w in writes]

    display.contrast(200)
    assert sent() == [(0x81, 200)]
    display.contrast(5)  # dimmed
    assert sent() == [(0x81, 5)]
    assert panel.contrast == 5
    display.hide()
    assert sent() == [(0xAE,)]
    assert not panel.display_on
    frame = render(EXAMPLES["question"])
    display.display(frame)  # a blanked panel still takes frames
    panel.replay(bus.take())
    assert panel.image().tobytes() == frame.tobytes()
    assert panel.shown().getbbox() is None
    display.show()
    display.contrast(100)
    assert sent() == [(0xAF,), (0x81, 100)]
    assert panel.display_on and panel.contrast == 100
    assert panel.shown().tobytes() == frame.tobytes()


def test_contrast_out_of_range():
    display, _, _ = opened("ssd1306")
    with pytest.raises(ValueError):
        display.contrast(256)


def test_wrong_image_is_refused():
    display, _, _ = opened("ssd1306")
    with pytest.raises(ValueError, match="128x64"):
        display.display(Image.new("1", (64, 32)))


# faults ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("fail_on", ["command", "data"])
@pytest.mark.parametrize("driver", DRIVERS)
def test_bus_errors_are_survived_and_the_panel_comes_back(driver, fail_on, caplog):
    clock = Clock()
    display, bus, panel = opened(driver, retry_interval=5.0, clock=clock)
    init_writes = None
    frames = screens()
    caplog.set_level(logging.DEBUG, logger="companion.display.oled")
    for frame in frames[:3]:
        display.display(frame)
        panel.replay(bus.take())

    if fail_on == "command":
        bus.fail()  # luma's i2c turns this into DeviceNotFoundError
    else:
        start = bus.attempts
        bus.fail_when = lambda index: index > start  # the data after the first window: OSError
    display.display(frames[3])
    assert not display.healthy and display.error_count == 1
    panel.replay(bus.take())  # what got through before the fault

    attempts = bus.attempts
    clock.now += 1
    display.display(frames[4])  # not due: nothing tried
    display.contrast(5)  # dimmed while lost
    assert bus.attempts == attempts

    clock.now += 5
    bus.fail()
    display.display(frames[5])  # due: one failed re-init
    assert bus.attempts == attempts + 1
    assert not display.healthy and display.error_count == 2

    bus.heal()
    clock.now += 1
    display.display(frames[6])  # not due yet
    assert bus.take() == [] and not display.healthy

    clock.now += 5
    display.display(frames[7])  # re-initialised and redrawn whole
    assert display.healthy and display.error_count == 2
    writes = bus.take()
    init_writes = _init_writes(driver)
    assert writes[: len(init_writes)] == init_writes  # luma's own init sequence, replayed
    assert panel.replay(writes).tobytes() == frames[7].tobytes()
    assert panel.contrast == 5  # asked for while lost, applied
    display.contrast(90)
    panel.replay(bus.take())
    assert panel.contrast == 90 and panel.display_on

    for frame in frames[8:]:
        display.display(frame)
        assert panel.replay(bus.take()).tobytes() == frame.tobytes()

    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1
    assert "lost the panel" in warnings[0].getMessage()
    assert "\n" not in warnings[0].getMessage()
    assert any("answers again" in r.getMessage() for r in caplog.records)


def _init_writes(driver):
    bus = RecordingBus()
    open_oled(DisplayConfig(driver), bus=bus)
    return bus.take()


def test_a_blanked_static_screen_comes_back_blank():
    """The loop re-offers its last frame while the panel is lost; hidden stays hidden."""
    clock = Clock()
    display, bus, panel = opened("sh1106", retry_interval=2.0, clock=clock)
    frame = render(EXAMPLES["score"])
    display.display(frame)
    bus.fail(times=1)
    display.hide()
    assert not display.healthy
    clock.now += 2
    display.display(frame)
    assert display.healthy
    image = panel.replay(bus.take())
    assert image.tobytes() == frame.tobytes() and not panel.display_on


def test_cleanup_never_raises():
    display, bus, _ = opened("ssd1306")
    bus.fail()
    display.cleanup()
    display.display(Image.new("1", (128, 64)))
    display.cleanup()


# opening -------------------------------------------------------------------------------------


def one_line(error: pytest.ExceptionInfo) -> str:
    message = str(error.value)
    assert "\n" not in message and message.startswith("display: ")
    return message


def test_missing_i2c_bus():
    with pytest.raises(DisplayUnavailable) as error:
        open_oled(DisplayConfig("ssd1306", i2c_port=99))
    assert one_line(error) == (
        "display: I2C bus 99 not found (/dev/i2c-99): enable I2C "
        "(dtparam=i2c_arm=on in config.txt) and reboot"
    )


def test_i2c_permission_denied(monkeypatch):
    def refuse(port):
        raise PermissionError(errno.EACCES, "Permission denied", f"/dev/i2c-{port}")

    monkeypatch.setattr(smbus2, "SMBus", refuse)
    with pytest.raises(DisplayUnavailable) as error:
        open_oled(DisplayConfig("sh1106"))
    assert "add the service user to the 'i2c' group" in one_line(error)


@pytest.mark.parametrize("code", [errno.EREMOTEIO, errno.EIO, errno.ENXIO])
def test_no_answer(code):
    bus = RecordingBus()
    bus.fail(errno=code)
    with pytest.raises(DisplayUnavailable) as error:
        open_oled(DisplayConfig("ssd1306", i2c_address=0x3D), bus=bus)
    assert one_line(error).startswith(
        "display: no answer at I2C address 0x3D on bus 1: check wiring"
    )


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        (DisplayConfig("ssd1351"), "unknown driver"),
        (DisplayConfig("ssd1306", rotation=90), "rotation 90"),
        (DisplayConfig("ssd1306", interface="parallel"), "unknown interface"),
        (DisplayConfig("sh1106", height=48), "does not support 128x48"),
        (DisplayConfig("sh1106", interface="spi", bus_speed_hz=3_000_000), "SPI clock"),
    ],
)
def test_bad_configs(config, expected):
    with pytest.raises(DisplayUnavailable) as error:
        open_oled(config, bus=RecordingBus())
    assert expected in one_line(error)


def test_spi_without_rpi_gpio(monkeypatch):
    monkeypatch.setitem(sys.modules, "RPi", None)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", None)
    with pytest.raises(DisplayUnavailable) as error:
        open_oled(DisplayConfig("sh1106", interface="spi"))
    assert "RPi.GPIO" in one_line(error)


def test_spi_sh1106_partial_updates():
    gpio = MockGpio()
    bus = RecordingSpi(gpio, dc=25)
    config = DisplayConfig("sh1106", interface="spi", gpio_dc=25, gpio_reset=27)
    display = open_oled(config, bus=bus, gpio=gpio)
    panel = panel_for("sh1106")
    assert bus.max_speed_hz == 8_000_000  # the I2C default speed means luma's SPI default
    for frame in screens():
        display.display(frame)
        assert panel.replay(bus.writes).tobytes() == frame.tobytes()
        bus.writes.clear()


def test_spi_device_missing():
    gpio = MockGpio()
    with pytest.raises(DisplayUnavailable) as error:
        open_oled(
            DisplayConfig("sh1106", interface="spi"),
            bus=RecordingSpi(gpio, missing=True),
            gpio=gpio,
        )
    assert one_line(error) == (
        "display: SPI device /dev/spidev0.0 not found: enable SPI (dtparam=spi=on) and reboot"
    )


def test_oled_display_is_luma_like():
    display, _, _ = opened("ssd1306")
    assert isinstance(display, OledDisplay)
    assert (display.width, display.height, display.mode, display.size) == (128, 64, "1", (128, 64))
    assert display.bounding_box == (0, 0, 127, 63)
    display.clear()


def test_offering_the_same_frame_again_recovers_a_lost_panel():
    """DisplayLoop re-offers its last image while the display is not healthy."""
    clock = Clock()
    display, bus, panel = opened("ssd1306", retry_interval=5.0, clock=clock)
    frame = render(EXAMPLES["automa_take"])
    display.display(frame)
    panel.replay(bus.take())
    bus.fail(times=1)
    display.contrast(8)
    assert not display.healthy
    clock.now += 5
    display.display(frame)
    assert display.healthy
    assert panel.replay(bus.take()).tobytes() == frame.tobytes()
    assert panel.contrast == 8
