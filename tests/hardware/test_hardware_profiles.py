"""Hardware profiles: the shipped ones load and drive real gpiozero devices; bad ones are refused
with one line naming the file, the key and the problem."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from companion.hardware import profile as profile_module
from companion.hardware.config import HardwareProfile
from companion.hardware.profile import (
    DEVICE_DEFAULT_PROFILE,
    ProfileError,
    default_profile_name,
    load_profile,
    profile_names,
    shipped_profile_path,
)
from companion.inputs.events import EventQueue, Input
from companion.inputs.gpio import open_gpio_inputs
from companion.inputs.simulated import CLOCKWISE_CYCLE, simulation_config

SHIPPED = (
    "adafruit-oled-bonnet",
    "serial-pad",
    "sh1106-encoder",
    "simulation",
    "ssd1306-buttons",
    "waveshare-oled-hat",
)
I2C1_PINS = {2, 3}
SPI0_PINS = {7, 8, 9, 10, 11}

# A small valid profile; each error case below changes one thing in it.
BASE = """\
name = "test"

[display]
driver = "sh1106"
interface = "i2c"
i2c_address = 0x3C

[inputs.encoder]
a = 17
b = 27
switch = 22

[[inputs.buttons]]
pin = 5
input = "back"
"""

SPI_BASE = BASE.replace(
    'interface = "i2c"\ni2c_address = 0x3C', 'interface = "spi"\ngpio_dc = 24\ngpio_reset = 25'
)


def write(tmp_path: Path, text: str, name: str = "x.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def refused(path: Path) -> str:
    with pytest.raises(ProfileError) as caught:
        load_profile(str(path))
    message = str(caught.value)
    assert "\n" not in message
    assert "Traceback" not in message
    assert message.startswith(f"{path}: ")
    return message


# --- the shipped profiles ----------------------------------------------------------------


def test_the_shipped_profiles_are_the_documented_ones() -> None:
    assert tuple(profile_names()) == SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_profile_loads(name: str) -> None:
    profile = load_profile(name)
    assert isinstance(profile, HardwareProfile)
    assert profile.name == name
    assert profile.description
    assert profile.source == str(shipped_profile_path(name))
    assert (profile.display.width, profile.display.height) == (128, 64)


@pytest.mark.parametrize("name", SHIPPED)
def test_a_shipped_profile_loads_by_path_too(name: str) -> None:
    by_path = load_profile(shipped_profile_path(name))
    assert by_path == load_profile(name)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_pins_never_collide_nor_sit_on_the_bus(name: str) -> None:
    profile = load_profile(name)
    numbers = [pin for _, pin in profile.pins]
    assert len(numbers) == len(set(numbers)), profile.pins
    if profile.display.driver != "terminal":
        bus = I2C1_PINS if profile.display.interface == "i2c" else SPI0_PINS
        assert not bus & set(numbers)
    # Every input pin the devices will use is listed in pins.
    used = {button.pin for button in profile.inputs.buttons}
    if profile.inputs.encoder:
        encoder = profile.inputs.encoder
        used |= {encoder.a, encoder.b} | ({encoder.switch} - {None})
    assert used <= set(numbers)


def test_simulation_profile_is_the_simulated_build() -> None:
    profile = load_profile("simulation")
    assert profile.display.driver == "terminal"
    assert profile.inputs == simulation_config()
    assert profile.groups == ()


def test_vendor_pin_maps() -> None:
    bonnet = dict(load_profile("adafruit-oled-bonnet").pins)
    assert bonnet == {
        "inputs.buttons[0].pin": 5,
        "inputs.buttons[1].pin": 6,
        "inputs.joystick.up": 17,
        "inputs.joystick.down": 22,
        "inputs.joystick.left": 27,
        "inputs.joystick.right": 23,
        "inputs.joystick.centre": 4,
    }
    hat = load_profile("waveshare-oled-hat")
    assert (hat.display.driver, hat.display.interface) == ("sh1106", "spi")
    assert (hat.display.spi_port, hat.display.spi_device) == (0, 0)
    assert dict(hat.pins) == {
        "display.gpio_dc": 24,
        "display.gpio_reset": 25,
        "inputs.buttons[0].pin": 21,
        "inputs.buttons[1].pin": 20,
        "inputs.buttons[2].pin": 16,
        "inputs.joystick.up": 6,
        "inputs.joystick.down": 19,
        "inputs.joystick.left": 5,
        "inputs.joystick.right": 26,
        "inputs.joystick.centre": 13,
    }


def test_groups_follow_the_build() -> None:
    assert load_profile("sh1106-encoder").groups == ("gpio", "i2c")
    assert load_profile("waveshare-oled-hat").groups == ("gpio", "spi")
    # Only the kernel's shut-down pin: no gpio group needed.
    assert load_profile("serial-pad").groups == ("i2c", "dialout")


@pytest.mark.parametrize(
    "url",
    ["/dev/ttyACM0", "/dev/serial0", "/dev/serial/by-id/usb-Pico-if00", "/dev/pts/3", "loop://"],
)
def test_serial_pad_on_a_device_path(tmp_path: Path, url: str) -> None:
    path = write(tmp_path, BASE + f'[serial_pad]\nurl = "{url}"\n')
    assert load_profile(str(path)).serial_pad.url == url


def test_serial_pad_profile_has_no_gpio_inputs() -> None:
    profile = load_profile("serial-pad")
    assert profile.inputs.encoder is None
    assert profile.inputs.buttons == ()
    assert profile.serial_pad is not None
    assert profile.serial_pad.url == "/dev/ttyACM0"


def test_joystick_directions_become_buttons() -> None:
    inputs = load_profile("adafruit-oled-bonnet").inputs
    by_pin = {button.pin: button.input for button in inputs.buttons}
    assert by_pin == {
        5: Input.SELECT,
        6: Input.BACK,
        17: Input.PREVIOUS,
        22: Input.NEXT,
        27: Input.BACK,
        23: Input.SELECT,
        4: Input.SELECT,
    }


# --- real gpiozero devices on every shipped profile --------------------------------------


def _drive(pin: MockPin, high: bool) -> None:
    if high:
        pin.drive_high()
    else:
        pin.drive_low()


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_profile_opens_real_gpiozero_devices(name: str) -> None:
    profile = load_profile(name)
    queue = EventQueue()
    factory = MockFactory(pin_class=MockPin)
    try:
        inputs = open_gpio_inputs(profile.inputs, queue, pin_factory=factory)
        try:
            expected = len(profile.inputs.buttons)
            if profile.inputs.encoder is not None:
                expected += 1 + (profile.inputs.encoder.switch is not None)
            assert len(inputs.devices()) == expected
            # Each button, pressed briefly, gives the input the profile promises.
            for config, button in zip(profile.inputs.buttons, inputs.buttons, strict=True):
                assert button.pin.info.name == f"GPIO{config.pin}"
                count = queue.enqueued
                _drive(button.pin, False)
                _drive(button.pin, True)
                assert queue.wait_until_enqueued(count + 1, 5.0)
                assert queue.get(timeout=0) is config.input
            if inputs.encoder is not None:
                count = queue.enqueued
                for a, b in (*CLOCKWISE_CYCLE[1:], CLOCKWISE_CYCLE[0]):
                    if inputs.encoder.a.pin.state != a:
                        _drive(inputs.encoder.a.pin, a)
                    if inputs.encoder.b.pin.state != b:
                        _drive(inputs.encoder.b.pin, b)
                assert queue.wait_until_enqueued(count + 1, 5.0)
                assert queue.get(timeout=0) is Input.NEXT
        finally:
            inputs.close()
    finally:
        factory.reset()


# --- the catalogue of errors -------------------------------------------------------------

ERRORS = {
    "unknown driver": (
        BASE.replace('"sh1106"', '"ssd9999"'),
        "display.driver: unknown driver 'ssd9999' (expected one of ssd1306, sh1106, ssd1309, "
        "terminal)",
    ),
    "missing address": (
        BASE.replace("i2c_address = 0x3C\n", ""),
        "display.i2c_address: missing",
    ),
    "address as a string": (
        BASE.replace("0x3C", '"0x3C"'),
        "display.i2c_address: expected an integer, got the string '0x3C'",
    ),
    "address out of range": (
        BASE.replace("0x3C", "0x78"),
        "display.i2c_address: 0x78 is out of range (expected 0x03 to 0x77; "
        "these modules answer at 0x3C or 0x3D)",
    ),
    "address too low": (
        BASE.replace("0x3C", "0x02"),
        "display.i2c_address: 0x02 is out of range (expected 0x03 to 0x77; "
        "these modules answer at 0x3C or 0x3D)",
    ),
    "pin used twice": (
        BASE + '[[inputs.buttons]]\npin = 6\ninput = "hold"\n'
        '[[inputs.buttons]]\npin = 17\ninput = "select"\n',
        "inputs.buttons[2].pin: GPIO 17 is already used by inputs.encoder.a",
    ),
    "encoder pins the same": (
        BASE.replace("b = 27", "b = 17"),
        "inputs.encoder.b: GPIO 17 is already used by inputs.encoder.a",
    ),
    "joystick on a button's pin": (
        BASE + "[inputs.joystick]\nup = 5\n",
        "inputs.joystick.up: GPIO 5 is already used by inputs.buttons[0].pin",
    ),
    "shutdown pin on an input": (
        BASE + "[system]\nshutdown_pin = 22\n",
        "system.shutdown_pin: GPIO 22 is already used by inputs.encoder.switch",
    ),
    "input on the I2C bus": (
        BASE.replace("pin = 5", "pin = 2"),
        "inputs.buttons[0].pin: GPIO 2 is I2C1 SDA, used by the display's bus (interface 'i2c')",
    ),
    "shutdown pin on SCL": (
        BASE + "[system]\nshutdown_pin = 3\n",
        "system.shutdown_pin: GPIO 3 is I2C1 SCL, used by the display's bus (interface 'i2c')",
    ),
    "input on the SPI bus": (
        SPI_BASE.replace("pin = 5", "pin = 10"),
        "inputs.buttons[0].pin: GPIO 10 is SPI0 MOSI, used by the display's bus (interface 'spi')",
    ),
    "DC on chip select": (
        SPI_BASE.replace("gpio_dc = 24", "gpio_dc = 8"),
        "display.gpio_dc: GPIO 8 is SPI0 CE0, used by the display's bus (interface 'spi')",
    ),
    "reset on an input": (
        SPI_BASE.replace("gpio_reset = 25", "gpio_reset = 22"),
        "inputs.encoder.switch: GPIO 22 is already used by display.gpio_reset",
    ),
    "SPI without DC": (
        SPI_BASE.replace("gpio_dc = 24\n", ""),
        "display.gpio_dc: missing",
    ),
    "SPI key on I2C": (
        BASE.replace("i2c_address = 0x3C", "i2c_address = 0x3C\ngpio_dc = 24"),
        "display.gpio_dc: only used with interface 'spi'",
    ),
    "I2C key on SPI": (
        SPI_BASE.replace("gpio_dc = 24", "gpio_dc = 24\ni2c_address = 0x3C"),
        "display.i2c_address: only used with interface 'i2c'",
    ),
    "unknown interface": (
        BASE.replace('"i2c"', '"usb"'),
        "display.interface: unknown interface 'usb' (expected one of i2c, spi)",
    ),
    "pin out of range": (
        BASE.replace("a = 17", "a = 28"),
        "inputs.encoder.a: GPIO 28 is out of range (BCM pins 0 to 27)",
    ),
    "negative pin": (
        BASE.replace("pin = 5", "pin = -1"),
        "inputs.buttons[0].pin: GPIO -1 is out of range (BCM pins 0 to 27)",
    ),
    "pin as a boolean": (
        BASE.replace("a = 17", "a = true"),
        "inputs.encoder.a: expected an integer, got the boolean true",
    ),
    "pin as a float": (
        BASE.replace("a = 17", "a = 17.0"),
        "inputs.encoder.a: expected an integer, got the number 17.0",
    ),
    "I2C speed absurd": (
        BASE.replace("i2c_address = 0x3C", "i2c_address = 0x3C\nbus_speed_hz = 40000000"),
        "display.bus_speed_hz: 40000000 Hz is out of range for I2C (10000 to 1000000; "
        "400000 is usual)",
    ),
    "SPI speed luma refuses": (
        SPI_BASE.replace("gpio_reset = 25", "gpio_reset = 25\nbus_speed_hz = 9000000"),
        "display.bus_speed_hz: 9000000 Hz is not an SPI speed luma accepts (500000, 1000000, "
        "2000000, 4000000, 8000000, 16000000, 20000000, 24000000, 28000000, 32000000, 36000000, "
        "40000000, 44000000, 48000000, 50000000, 52000000)",
    ),
    "rotation 90": (
        BASE.replace('interface = "i2c"', 'interface = "i2c"\nrotation = 90'),
        "display.rotation: must be 0 or 180 (degrees), not 90",
    ),
    "width": (
        BASE.replace('interface = "i2c"', 'interface = "i2c"\nwidth = 132'),
        "display.width: must be 128 for this app (the screens are 128x64)",
    ),
    "height": (
        BASE.replace('interface = "i2c"', 'interface = "i2c"\nheight = 32'),
        "display.height: must be 64 for this app (the screens are 128x64)",
    ),
    "typo in a key": (
        BASE.replace("switch = 22", "swtich = 22"),
        "inputs.encoder.swtich: unknown key (expected one of a, b, switch, "
        "transitions_per_detent, bounce_time); did you mean 'switch'?",
    ),
    "typo in a table": (
        BASE + "[sytem]\nshutdown_pin = 21\n",
        "sytem: unknown key (expected one of name, description, display, inputs, serial_pad, "
        "system); did you mean 'system'?",
    ),
    "key that is not bare": (
        BASE + '[system]\n"shutdown pin" = 21\n',
        "system.'shutdown pin': unknown key (expected one of shutdown_pin); "
        "did you mean 'shutdown_pin'?",
    ),
    "empty key": (
        BASE + '[system]\n"" = 21\n',
        "system.'': unknown key (expected one of shutdown_pin)",
    ),
    "center for centre": (
        BASE + "[inputs.joystick]\ncenter = 4\n",
        "inputs.joystick.center: unknown key (expected one of up, down, left, right, centre); "
        "did you mean 'centre'?",
    ),
    "unknown input": (
        BASE.replace('input = "back"', 'input = "menu"'),
        "inputs.buttons[0].input: unknown input 'menu' (expected one of next, previous, select, "
        "back, hold)",
    ),
    "buttons as a table": (
        BASE.replace("[[inputs.buttons]]", "[inputs.buttons]"),
        "inputs.buttons: expected an array of tables ([[inputs.buttons]]), got a table",
    ),
    "display as a value": (
        'display = "sh1106"\n',
        "display: expected a table ([display]), got the string 'sh1106'",
    ),
    "no display": (
        '[[inputs.buttons]]\npin = 5\ninput = "back"\n',
        "display: missing (every profile needs a [display] table)",
    ),
    "transitions per detent": (
        BASE.replace("switch = 22", "switch = 22\ntransitions_per_detent = 3"),
        "inputs.encoder.transitions_per_detent: must be 4 (a whole quadrature cycle per click) "
        "or 2 (half), not 3",
    ),
    "hold time": (
        BASE.replace("[inputs.encoder]", "[inputs]\nhold_time = 60\n\n[inputs.encoder]"),
        "inputs.hold_time: 60 s is out of range (0.2 s to 5.0 s)",
    ),
    "bounce time": (
        BASE.replace("[inputs.encoder]", "[inputs]\nbounce_time = -1\n\n[inputs.encoder]"),
        "inputs.bounce_time: -1 s is out of range (0.0 s to 0.5 s)",
    ),
    "nothing to select with": (
        BASE.replace("switch = 22\n", ""),
        "inputs: nothing gives select (a player needs next, previous and select: "
        "add an encoder, buttons, a joystick or a [serial_pad])",
    ),
    "serial pad on the UART pins": (
        BASE.replace("pin = 5", "pin = 14") + '[serial_pad]\nurl = "/dev/serial0"\n',
        "inputs.buttons[0].pin: GPIO 14 is UART TXD, used by the serial pad on /dev/serial0",
    ),
    "serial pad without url": (
        BASE + "[serial_pad]\nbaudrate = 9600\n",
        "serial_pad.url: missing",
    ),
    "serial pad over TCP": (
        BASE + '[serial_pad]\nurl = "socket://192.0.2.1:7000"\n',
        "serial_pad.url: 'socket://192.0.2.1:7000' is not a device path (expected one under "
        "/dev, e.g. /dev/ttyACM0 or /dev/serial0; loop:// for tests)",
    ),
    "serial pad that writes a file": (
        BASE + '[serial_pad]\nurl = "spy:///dev/ttyACM0?file=/etc/passwd"\n',
        "serial_pad.url: 'spy:///dev/ttyACM0?file=/etc/passwd' is not a device path (expected "
        "one under /dev, e.g. /dev/ttyACM0 or /dev/serial0; loop:// for tests)",
    ),
    "serial pad on a file": (
        BASE + '[serial_pad]\nurl = "/dev/../home/pi/inputs"\n',
        "serial_pad.url: '/dev/../home/pi/inputs' is not a device path (expected one under "
        "/dev, e.g. /dev/ttyACM0 or /dev/serial0; loop:// for tests)",
    ),
    "serial pad by a relative name": (
        BASE + '[serial_pad]\nurl = "ttyACM0"\n',
        "serial_pad.url: 'ttyACM0' is not a device path (expected one under /dev, e.g. "
        "/dev/ttyACM0 or /dev/serial0; loop:// for tests)",
    ),
    "serial pad baudrate": (
        BASE + '[serial_pad]\nurl = "/dev/ttyACM0"\nbaudrate = 0\n',
        "serial_pad.baudrate: 0 is out of range (300 to 4000000)",
    ),
    "bus key on the terminal": (
        '[display]\ndriver = "terminal"\ni2c_address = 0x3C\n',
        "display.i2c_address: not used by driver 'terminal' (the simulation)",
    ),
    "syntax error": (
        BASE.replace("b = 27", "b = "),
        "line 10, column 5: TOML syntax error: Invalid value",
    ),
    "table declared twice": (
        BASE + "[display]\n",
        "line 16, column 9: TOML syntax error: Cannot declare ('display',) twice",
    ),
}


@pytest.mark.parametrize(("text", "expected"), ERRORS.values(), ids=ERRORS.keys())
def test_problems_are_refused_in_one_line(tmp_path: Path, text: str, expected: str) -> None:
    path = write(tmp_path, text)
    assert refused(path) == f"{path}: {expected}"


def test_the_base_of_the_error_cases_is_valid(tmp_path: Path) -> None:
    assert load_profile(str(write(tmp_path, BASE))).name == "test"
    assert load_profile(str(write(tmp_path, SPI_BASE, "spi.toml"))).display.gpio_dc == 24


def test_name_defaults_to_the_file_name(tmp_path: Path) -> None:
    text = BASE.replace('name = "test"\n', "")
    assert load_profile(str(write(tmp_path, text, "my-box.toml"))).name == "my-box"


def test_bounce_time_zero_turns_debouncing_off(tmp_path: Path) -> None:
    text = BASE.replace("[inputs.encoder]", "[inputs]\nbounce_time = 0\n\n[inputs.encoder]")
    assert load_profile(str(write(tmp_path, text))).inputs.bounce_time is None


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nothing.toml"
    assert refused(path) == f"{path}: cannot read the profile: no such file"


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(b'description = "caf\xe9"\n')
    assert refused(path) == f"{path}: not UTF-8 text (bad byte at offset 18)"


def test_unknown_profile_name() -> None:
    with pytest.raises(ProfileError) as caught:
        load_profile("sh1106-encodr")
    assert str(caught.value) == (
        "unknown hardware profile 'sh1106-encodr' (expected one of "
        + ", ".join(SHIPPED)
        + ", or a path to a .toml file)"
    )


def test_a_relative_path_is_read_as_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, BASE, "mine.toml")
    monkeypatch.chdir(tmp_path)
    assert load_profile("./mine.toml").source == "./mine.toml"
    assert load_profile("mine.toml").name == "test"


def test_profile_error_is_a_value_error() -> None:
    assert issubclass(ProfileError, ValueError)


# --- default profile ---------------------------------------------------------------------


@pytest.fixture
def fake_system(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    chip = tmp_path / "gpiochip0"
    model = tmp_path / "model"
    monkeypatch.setattr(profile_module, "GPIOCHIP_PATH", chip)
    monkeypatch.setattr(profile_module, "DEVICE_TREE_MODEL_PATH", model)
    return chip, model


def test_default_is_simulation_without_gpio(fake_system) -> None:
    _, model = fake_system
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    assert default_profile_name() == "simulation"


def test_default_on_a_raspberry_pi(fake_system) -> None:
    chip, model = fake_system
    chip.touch()
    model.write_bytes(b"Raspberry Pi Zero 2 W Rev 1.0\x00")
    assert default_profile_name() == DEVICE_DEFAULT_PROFILE == "sh1106-encoder"


def test_default_on_another_board_with_gpio(fake_system) -> None:
    chip, model = fake_system
    chip.touch()
    model.write_bytes(b"Radxa ROCK Pi 4B\x00")
    assert default_profile_name() == "simulation"


def test_default_with_gpio_but_no_device_tree(fake_system) -> None:
    chip, _ = fake_system
    chip.touch()
    assert default_profile_name() == "simulation"


def test_the_readme_example_profile_loads(tmp_path: Path) -> None:
    readme = Path(__file__).parents[2] / "hardware" / "README.md"
    example = readme.read_text(encoding="utf-8").split("```toml\n")[1].split("```")[0]
    profile = load_profile(str(write(tmp_path, example, "my-box.toml")))
    assert profile.name == "my-box"
    assert profile.shutdown_pin == 21
