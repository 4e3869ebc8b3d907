"""luma-style display flags override a profile's display, and are checked like the profile."""

from __future__ import annotations

import argparse

import pytest
from luma.core.cmdline import create_parser, get_display_types

from companion.hardware.constants import OLED_DRIVERS
from companion.hardware.flags import add_display_arguments, apply_display_overrides
from companion.hardware.profile import ProfileError, load_profile


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="test")
    add_display_arguments(parser)
    return parser.parse_args(argv)


def overridden(name: str, *argv: str):
    return apply_display_overrides(load_profile(name), parse(*argv))


def refused(name: str, *argv: str) -> str:
    with pytest.raises(ProfileError) as caught:
        overridden(name, *argv)
    message = str(caught.value)
    assert "\n" not in message
    assert "Traceback" not in message
    return message


def test_no_flags_leave_the_profile_alone() -> None:
    profile = load_profile("sh1106-encoder")
    assert apply_display_overrides(profile, parse()) is profile


def test_a_namespace_without_display_flags_is_fine() -> None:
    profile = load_profile("sh1106-encoder")
    assert apply_display_overrides(profile, argparse.Namespace(profile="x")) is profile


def test_flag_names_are_luma_cmdline_names() -> None:
    ours = {action.dest for action in add_display_arguments(argparse.ArgumentParser())._actions}
    luma = {action.dest for action in create_parser("", autocomplete=False)._actions}
    # --i2c-bus-speed is ours (luma leaves the I2C speed to the kernel); the rest are luma's.
    assert ours - {"help", "i2c_bus_speed"} <= luma


def test_our_drivers_are_luma_oled_drivers() -> None:
    assert set(OLED_DRIVERS) <= set(get_display_types()["oled"])


def test_i2c_address_in_hex() -> None:
    profile = overridden("sh1106-encoder", "--i2c-address", "0x3D")
    assert profile.display.i2c_address == 0x3D
    assert overridden("sh1106-encoder", "--i2c-address", "3d").display.i2c_address == 0x3D
    assert overridden("sh1106-encoder", "--i2c-address", "61").display.i2c_address == 0x3D
    # Everything else is kept.
    assert profile.inputs == load_profile("sh1106-encoder").inputs
    assert profile.display.driver == "sh1106"


def test_bad_i2c_address_is_an_argparse_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse("--i2c-address", "0xZZ")
    assert "argument --i2c-address: '0xZZ' is not an I2C address such as 0x3C" in (
        capsys.readouterr().err
    )


def test_i2c_address_out_of_range() -> None:
    assert refused("sh1106-encoder", "--i2c-address", "0x80") == (
        "command line: --i2c-address: 0x80 is out of range (expected 0x03 to 0x77; "
        "these modules answer at 0x3C or 0x3D)"
    )


def test_driver() -> None:
    assert overridden("ssd1306-buttons", "--display", "ssd1309").display.driver == "ssd1309"
    assert refused("ssd1306-buttons", "--display", "ssd9999") == (
        "command line: --display: unknown driver 'ssd9999' "
        "(expected one of ssd1306, sh1106, ssd1309, terminal)"
    )


@pytest.mark.parametrize(("turns", "degrees"), [("0", 0), ("2", 180)])
def test_rotate_in_quarter_turns(turns: str, degrees: int) -> None:
    assert overridden("sh1106-encoder", "--rotate", turns).display.rotation == degrees


@pytest.mark.parametrize("turns", ["1", "3", "4", "-1"])
def test_rotate_refuses_other_turns(turns: str) -> None:
    message = refused("sh1106-encoder", "--rotate", turns)
    assert message.startswith(f"command line: --rotate: {turns} (")
    assert message.endswith(
        "is not supported: the screens are landscape 128x64, so use 0, or 2 for 180 degrees"
    )


def test_size_must_stay_128x64() -> None:
    assert overridden("sh1106-encoder", "--width", "128", "--height", "64").display.width == 128
    assert refused("sh1106-encoder", "--height", "32") == (
        "command line: --height: must be 64 for this app (the screens are 128x64)"
    )


def test_switch_to_spi_needs_the_dc_pin() -> None:
    assert refused("sh1106-encoder", "--interface", "spi") == (
        "command line: --gpio-data-command: missing (needed with --display sh1106 --interface spi)"
    )


def test_switch_to_spi() -> None:
    profile = overridden(
        "ssd1306-buttons",
        "--interface", "spi", "--gpio-data-command", "24", "--gpio-reset", "25",
        "--spi-device", "1", "--spi-bus-speed", "16000000",
    )  # fmt: skip
    display = profile.display
    assert (display.interface, display.spi_port, display.spi_device) == ("spi", 0, 1)
    assert (display.gpio_dc, display.gpio_reset, display.bus_speed_hz) == (24, 25, 16_000_000)
    assert profile.groups == ("gpio", "spi")
    assert dict(profile.pins)["--gpio-data-command"] == 24


def test_switch_to_i2c_drops_the_spi_pins() -> None:
    profile = overridden("waveshare-oled-hat", "--interface", "i2c", "--i2c-address", "0x3C")
    assert profile.display.interface == "i2c"
    assert profile.display.bus_speed_hz == 400_000
    assert not any(key.startswith(("display.", "--")) for key, _ in profile.pins)
    assert profile.groups == ("gpio", "i2c")


def test_spi_flags_on_an_i2c_display() -> None:
    assert refused("sh1106-encoder", "--gpio-reset", "25") == (
        "command line: --gpio-reset: only used with interface 'spi'"
    )
    assert refused("sh1106-encoder", "--spi-bus-speed", "8000000") == (
        "command line: --spi-bus-speed: only used with interface 'spi'"
    )


def test_i2c_bus_speed() -> None:
    profile = overridden("sh1106-encoder", "--i2c-bus-speed", "1000000")
    assert profile.display.bus_speed_hz == 1_000_000
    assert refused("sh1106-encoder", "--i2c-bus-speed", "5") == (
        "command line: --i2c-bus-speed: 5 Hz is out of range for I2C (10000 to 1000000; "
        "400000 is usual)"
    )


def test_flag_pin_clashing_with_a_profile_pin() -> None:
    assert refused("waveshare-oled-hat", "--gpio-reset", "6") == (
        "command line: --gpio-reset: GPIO 6 is already used by inputs.joystick.up"
    )
    assert (
        refused("sh1106-encoder", "--interface", "spi", "--gpio-data-command", "17")
        == "command line: --gpio-data-command: GPIO 17 is already used by inputs.encoder.a"
    )


def test_flag_pin_on_the_bus() -> None:
    assert refused("waveshare-oled-hat", "--gpio-data-command", "11") == (
        "command line: --gpio-data-command: GPIO 11 is SPI0 SCLK, used by the display's bus "
        "(interface 'spi')"
    )


def test_moving_a_pin_frees_the_old_one() -> None:
    profile = overridden("waveshare-oled-hat", "--gpio-data-command", "12")
    pins = dict(profile.pins)
    assert pins["--gpio-data-command"] == 12
    assert "display.gpio_dc" not in pins
    assert pins["display.gpio_reset"] == 25


def test_terminal_display_from_the_command_line() -> None:
    profile = overridden("sh1106-encoder", "--display", "terminal")
    assert profile.display.driver == "terminal"
    assert profile.groups == ()
    assert refused("sh1106-encoder", "--display", "terminal", "--i2c-address", "0x3C") == (
        "command line: --i2c-address: not used by driver 'terminal' (the simulation)"
    )


def test_from_simulation_to_a_real_display() -> None:
    assert refused("simulation", "--display", "ssd1306") == (
        "command line: --interface: missing (needed with --display ssd1306)"
    )
    profile = overridden(
        "simulation", "--display", "ssd1306", "--interface", "i2c", "--i2c-address", "0x3C"
    )
    assert (profile.display.driver, profile.display.i2c_address) == ("ssd1306", 0x3C)
