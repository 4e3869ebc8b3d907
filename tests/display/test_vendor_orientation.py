"""Which way up the vendor builds show their picture: luma's real drivers, decoded from the bytes.

Waveshare's own driver for the HAT (``SH1106.py``, ``Init()``, in the HAT's
demo code) sends segment remap 0xA0 and COM scan 0xC0: that is the way up the
panel is mounted on the HAT, with the key and joystick labels. luma's sh1106
sends 0xA1 and 0xC8, a picture 180 degrees apart, so the profile must turn it.
"""

from PIL import Image
from spi_doubles import MockGpio, RecordingSpi

from companion.display.oled import open_oled
from companion.hardware.profile import load_profile
from companion.render.screens import render
from companion.testing.recording import RecordingBus, ScanDirections, panel_for
from companion.testing.screen_examples import EXAMPLES

WAVESHARE_UPRIGHT = ScanDirections(segment_remap=False, com_reversed=False)
"""0xA0, 0xC0: Waveshare's SH1106.py Init()."""


def open_hat():
    profile = load_profile("waveshare-oled-hat")
    gpio = MockGpio()
    bus = RecordingSpi(gpio, dc=profile.display.gpio_dc)
    display = open_oled(profile.display, bus=bus, gpio=gpio)
    return display, bus, gpio, profile.display


def glass_after(frame: Image.Image) -> Image.Image:
    """What the HAT's glass shows, the way its labels read, after ``frame`` and the init."""
    display, bus, _, _ = open_hat()
    display.display(frame)
    panel = panel_for("sh1106")
    panel.replay(bus.writes)
    return panel.glass(WAVESHARE_UPRIGHT)


def lit(image: Image.Image) -> list[tuple[int, int]]:
    width, height = image.size
    return [(x, y) for y in range(height) for x in range(width) if image.getpixel((x, y))]


def test_the_frames_top_left_pixel_lands_in_the_glass_top_left_corner():
    frame = Image.new("1", (128, 64))
    frame.putpixel((0, 0), 1)
    assert lit(glass_after(frame)) == [(0, 0)]


def test_a_whole_screen_reads_the_right_way_up():
    frame = render(EXAMPLES["menu"])
    assert glass_after(frame).tobytes() == frame.tobytes()


def test_reset_is_held_low_then_released_before_the_first_command():
    _, bus, gpio, config = open_hat()
    levels = gpio.changes(config.gpio_reset)
    assert [level for _, level in levels] == [True, False, True]
    (fell, _), (rose, _) = levels[1], levels[2]
    # The SH1106 asks for RES low at least 10 µs; 10 ms each way leaves no doubt on a cold start.
    assert rose - fell >= 0.010
    assert bus.writes[0].mode == 0x00  # a command: the init sequence
    assert bus.times[0] - rose >= 0.010


def test_the_spi_clock_is_the_profiles():
    _, bus, _, config = open_hat()
    assert bus.max_speed_hz == config.bus_speed_hz == 8_000_000


ADAFRUIT_UPRIGHT = ScanDirections(segment_remap=True, com_reversed=True)
"""0xA1, 0xC8: Adafruit's own SSD1306 driver (adafruit_ssd1306.py, init_display()),
which drives its OLED Bonnet the right way up."""


def test_the_adafruit_bonnet_needs_no_turn():
    """The same model on the other vendor build: luma's init is Adafruit's, so rotation 0."""
    profile = load_profile("adafruit-oled-bonnet")
    bus = RecordingBus()
    display = open_oled(profile.display, bus=bus)
    frame = Image.new("1", (128, 64))
    frame.putpixel((0, 0), 1)
    display.display(frame)
    panel = panel_for(profile.display.driver)
    panel.replay(bus.writes)
    assert lit(panel.glass(ADAFRUIT_UPRIGHT)) == [(0, 0)]
