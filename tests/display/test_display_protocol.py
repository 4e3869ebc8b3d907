"""Every sink the companion can draw on is a Display, so the runtime loop needs no probing."""

import atexit
import io

import pytest
from luma.core.device import dummy
from PIL import Image

from companion.display.factory import DISPLAY_NAMES, open_display
from companion.display.oled import open_oled
from companion.display.sink import Display
from companion.hardware.config import DisplayConfig
from companion.testing.recording import COMMANDS, RecordingBus, Write


def opened(name, tmp_path):
    if name == "terminal":
        return open_display(name, stream=io.StringIO())
    if name == "pygame":
        pytest.importorskip("pygame")
        return open_display(name, help_lines=(), on_key=print, on_close=print)
    return open_display(name, path=tmp_path / f"{name}_{{0}}.png")


@pytest.mark.parametrize("name", DISPLAY_NAMES)
def test_every_named_sink_is_a_display(name, tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    sink = opened(name, tmp_path)
    try:
        assert isinstance(sink, Display)
        assert sink.healthy
        assert (sink.size, sink.mode) == ((128, 64), "1")
    finally:
        if name == "gifanim":
            atexit.unregister(sink.write_animation)


def test_the_oled_is_a_display():
    oled = open_oled(DisplayConfig("sh1106"), bus=RecordingBus())
    assert isinstance(oled, Display)
    assert (oled.width, oled.height, oled.size, oled.mode) == (128, 64, (128, 64), "1")


def test_a_bare_luma_device_is_not_one():
    """luma's devices do not say whether their panel answers: the sinks add ``healthy``."""
    assert not isinstance(dummy(width=128, height=64, mode="1"), Display)


def test_gifanim_writes_its_file_at_cleanup(tmp_path):
    path = tmp_path / "game.gif"
    sink = open_display("gifanim", path=path, scale=1, transform="none")
    sink.display(Image.new("1", (128, 64)))
    sink.cleanup()
    assert path.exists()


@pytest.mark.parametrize(("persist", "switched_off"), [(False, True), (True, False)])
def test_the_oled_leaves_its_picture_up_when_asked(persist, switched_off):
    """``persist`` (set by the daemon for its "saved" screen) reaches luma's cleanup."""
    bus = RecordingBus()
    oled = open_oled(DisplayConfig("ssd1306"), bus=bus)
    bus.take()
    oled.persist = persist
    oled.cleanup()
    display_off = Write(0x3C, COMMANDS, bytes([0xAE]))
    assert (display_off in bus.take()) is switched_off
