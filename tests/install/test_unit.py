"""The service unit and the config.txt fragments, checked with systemd's own tools.

`systemd-analyze verify` needs the unit's ExecStart= binary and the standard
targets to exist, so it runs against a temporary root holding a copy of the
host's unit directory, a stand-in executable and the environment file.
"""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.hardware.profile import load_profile

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "patchwork-companion.service"
FIRMWARE = REPO / "firmware_configs"
PROFILES = (
    "sh1106-encoder",
    "ssd1306-buttons",
    "adafruit-oled-bonnet",
    "waveshare-oled-hat",
    "serial-pad",
)
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
HOST_UNITS = next(
    (p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")) if p.is_dir()),
    None,
)
needs_systemd_analyze = pytest.mark.skipif(
    SYSTEMD_ANALYZE is None or HOST_UNITS is None, reason="needs systemd-analyze"
)
#: the exposure `systemd-analyze security` must not exceed
EXPOSURE_LIMIT = 2.5


def unit_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


@needs_systemd_analyze
def test_systemd_analyze_verify_passes(tmp_path: Path):
    root = tmp_path / "root"
    executable = root / "opt/patchwork-companion/venv/bin/patchwork-companion"
    executable.parent.mkdir(parents=True)
    executable.write_text("#!/bin/sh\n")
    executable.chmod(0o755)
    (root / "etc/patchwork-companion").mkdir(parents=True)
    (root / "etc/patchwork-companion/env").write_text("PROFILE=sh1106-encoder\n")
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(UNIT, root / "etc/systemd/system")
    shutil.copytree(HOST_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    result = subprocess.run(
        [SYSTEMD_ANALYZE, "verify", f"--root={root}", UNIT.name],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert UNIT.name not in result.stderr, result.stderr


@needs_systemd_analyze
def test_security_exposure_is_low():
    result = subprocess.run(
        [SYSTEMD_ANALYZE, "security", "--offline=true", "--no-pager", str(UNIT)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert match, result.stdout + result.stderr
    assert float(match.group(1)) <= EXPOSURE_LIMIT


def test_unit_is_a_notify_service_with_a_watchdog_and_no_privileges():
    settings = unit_settings()
    assert settings["Type"] == ["notify"]
    assert settings["WatchdogSec"] == ["30"]
    assert settings["User"] == ["patchwork"]
    assert settings["SupplementaryGroups"] == ["gpio i2c spi dialout"]
    assert settings["StateDirectory"] == ["patchwork-companion"]
    assert settings["EnvironmentFile"] == ["/etc/patchwork-companion/env"]
    assert settings["ExecStart"] == [
        "/opt/patchwork-companion/venv/bin/patchwork-companion run --profile ${PROFILE}"
    ]
    assert settings["CapabilityBoundingSet"] == [""]
    assert settings["PrivateNetwork"] == ["yes"]
    assert settings["RestrictAddressFamilies"] == ["AF_UNIX"]
    assert settings["DevicePolicy"] == ["closed"]
    assert "ProcSubset" not in settings  # gpiozero reads /proc/device-tree and /proc/cpuinfo


def test_unit_allows_every_bus_a_profile_can_name():
    """A profile may put the panel on any I2C bus (i2c_port 0-22) or SPI port: the
    virtual Pi's panel sits on whichever bus i2c-stub gets, and /dev/i2c-1 alone
    made the service fail there. Device classes as the kernel names them in
    /proc/devices (i2c, spi, gpiochip)."""
    allowed = unit_settings()["DeviceAllow"]
    assert "char-i2c rw" in allowed
    assert "char-spi rw" in allowed
    assert "char-gpiochip rw" in allowed
    assert not [rule for rule in allowed if rule.startswith(("/dev/i2c-", "/dev/spidev"))]


def test_unit_parses_as_ini():
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(UNIT.read_text())
    assert parser.sections() == ["Unit", "Service", "Install"]
    assert parser["Install"]["WantedBy"] == "multi-user.target"


@pytest.mark.parametrize("profile", PROFILES)
def test_every_device_profile_has_a_fragment(profile: str):
    lines = [
        line
        for line in (FIRMWARE / profile / "config.txt").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert lines, profile
    # Sections would leak into the rest of config.txt; the installer adds [all].
    assert not [line for line in lines if line.startswith("[")]


@pytest.mark.parametrize("profile", PROFILES)
def test_fragment_matches_the_profile(profile: str):
    """The bus switched on (and its speed) is the one the hardware profile uses."""
    hardware = load_profile(profile)
    fragment = (FIRMWARE / profile / "config.txt").read_text()
    active = {line for line in fragment.splitlines() if not line.startswith("#")}
    display = hardware.display
    if display.interface == "i2c":
        assert "dtparam=i2c_arm=on" in active
        assert f"dtparam=i2c_arm_baudrate={display.bus_speed_hz}" in active
    else:
        assert "dtparam=spi=on" in active
    # The kernel owns the shut-down pin exactly when the profile names one.
    shutdown = [line for line in active if line.startswith("dtoverlay=gpio-shutdown")]
    if hardware.shutdown_pin is None:
        assert shutdown == []
    else:
        assert shutdown == [
            f"dtoverlay=gpio-shutdown,gpio_pin={hardware.shutdown_pin},active_low=1,gpio_pull=up"
        ]
