"""companion.display.partial: page bytes and the windows that carry a change."""

import random

import pytest
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image

from companion.display.partial import (
    SH1106_WINDOW_COST,
    SSD1306_WINDOW_COST,
    Window,
    changed_runs,
    page_bytes,
    plan_windows,
)
from companion.render.screens import render
from companion.testing.recording import RecordingBus, image_from_pages
from companion.testing.screen_examples import EXAMPLES


def random_image(seed: int) -> Image.Image:
    rng = random.Random(seed)
    return Image.frombytes("1", (128, 64), rng.randbytes(128 * 64 // 8))


@pytest.mark.parametrize("driver", [ssd1306, sh1106])
def test_page_bytes_are_what_luma_sends(driver):
    """luma's display() data bytes, concatenated, are the page bytes."""
    bus = RecordingBus()
    device = driver(i2c(bus=bus))
    for image in (random_image(1), render(EXAMPLES["score"])):
        bus.take()
        device.display(image)
        data = b"".join(w.data for w in bus.take() if w.mode == 0x40)
        assert data == page_bytes(image)


def test_page_layout():
    image = Image.new("1", (128, 64))
    image.putpixel((5, 0), 1)  # page 0, bit 0 (LSB at the top)
    image.putpixel((5, 7), 1)  # page 0, bit 7
    image.putpixel((127, 63), 1)  # page 7, last column, bit 7
    data = page_bytes(image)
    assert data[5] == 0x81
    assert data[7 * 128 + 127] == 0x80
    assert sum(1 for b in data if b) == 2


@pytest.mark.parametrize("seed", range(3))
def test_image_from_pages_inverts_page_bytes(seed):
    image = random_image(seed)
    assert image_from_pages(page_bytes(image), 128, 64).tobytes() == image.tobytes()


def test_nothing_changed():
    data = page_bytes(random_image(4))
    assert plan_windows(data, data, 128, window_cost=10, multi_page=True) == []


def test_runs_merge_across_small_gaps_only():
    old = bytes(1024)
    new = bytearray(old)
    new[3 * 128 + 10] = 1
    new[3 * 128 + 10 + 1 + SSD1306_WINDOW_COST] = 1  # gap of exactly the window cost: merged
    new[3 * 128 + 100] = 1  # far away: its own run
    assert changed_runs(old, bytes(new), 128, 3, SSD1306_WINDOW_COST) == [(10, 21), (100, 100)]
    assert changed_runs(old, bytes(new), 128, 3, 0) == [(10, 10), (21, 21), (100, 100)]


def test_ssd1306_merges_pages_into_one_rectangle():
    old = bytes(1024)
    new = bytearray(old)
    for page in (2, 3, 4):
        new[page * 128 + 40 : page * 128 + 48] = b"\xff" * 8
    windows = plan_windows(old, bytes(new), 128, window_cost=SSD1306_WINDOW_COST, multi_page=True)
    assert windows == [Window(2, 4, 40, 47)]


def test_sh1106_windows_stay_on_their_page():
    old = bytes(1024)
    new = bytearray(old)
    for page in (2, 3):
        new[page * 128 + 40 : page * 128 + 48] = b"\xff" * 8
    windows = plan_windows(old, bytes(new), 128, window_cost=SH1106_WINDOW_COST, multi_page=False)
    assert windows == [Window(2, 2, 40, 47), Window(3, 3, 40, 47)]


def test_distant_rectangles_stay_apart():
    old = bytes(1024)
    new = bytearray(old)
    new[0 * 128 + 0] = 1
    new[1 * 128 + 120] = 1
    windows = plan_windows(old, bytes(new), 128, window_cost=SSD1306_WINDOW_COST, multi_page=True)
    assert windows == [Window(0, 0, 0, 0), Window(1, 1, 120, 120)]


@pytest.mark.parametrize(
    ("cost", "multi_page"), [(SSD1306_WINDOW_COST, True), (SH1106_WINDOW_COST, False)]
)
def test_a_frame_that_changes_everywhere_goes_whole(cost, multi_page):
    old = page_bytes(random_image(5))
    new = page_bytes(random_image(6))
    assert plan_windows(old, new, 128, window_cost=cost, multi_page=multi_page) is None


@pytest.mark.parametrize("seed", range(20))
def test_windows_cover_every_change(seed):
    rng = random.Random(seed)
    old = bytearray(page_bytes(random_image(seed)))
    new = bytearray(old)
    for _ in range(rng.randint(1, 60)):
        new[rng.randrange(1024)] ^= 1 << rng.randrange(8)
    for cost, multi_page in ((SSD1306_WINDOW_COST, True), (SH1106_WINDOW_COST, False)):
        windows = plan_windows(bytes(old), bytes(new), 128, window_cost=cost, multi_page=multi_page)
        patched = bytearray(old)
        for window in windows or [Window(0, 7, 0, 127)]:
            for page in range(window.first_page, window.last_page + 1):
                for x in range(window.first_column, window.last_column + 1):
                    patched[page * 128 + x] = new[page * 128 + x]
        assert patched == new
