"""Smoke tests: each reliability harness of stress/ run at a tiny size, so they do not rot.

The full runs (the whole config sweep, minutes of watching) are in
stress/README.md; these only prove the harnesses still work and still pass.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

STRESS = Path(__file__).resolve().parents[2] / "stress"


def run(script, *args, timeout=60):
    done = subprocess.run(
        [sys.executable, str(STRESS / script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "machine:" in done.stdout and "command:" in done.stdout
    return done.stdout


def test_bad_config_harness_full_sweep_one_command_line_case():
    out = run("bad_config.py", "--cli-sample", "1", "--seed", "3")
    assert "anything else (target 0): 0" in out
    assert "2 runs, 2 with status 2" in out


needs_systemd_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze measures the exposure"
)


@needs_systemd_analyze
def test_security_harness_one_second():
    out = run("security.py", "--seconds", "1")
    assert (
        "verdict: protections as pinned, exposure within target, only AF_UNIX or no sockets" in out
    )
    assert "pinned protections (10 settings and a user other than root): all as pinned" in out


@needs_systemd_analyze
def test_security_harness_fails_a_unit_without_its_hardening(tmp_path):
    # The shipped unit with every sandboxing line dropped: exposure far above 2.5.
    kept = ("[", "Description", "Type", "ExecStart", "User", "Group", "PrivateNetwork")
    unit = tmp_path / "weak.service"
    unit.write_text(
        "\n".join(
            line
            for line in (STRESS.parent / "systemd" / "patchwork-companion.service")
            .read_text()
            .splitlines()
            if line.startswith(kept) or line == "RestrictAddressFamilies=AF_UNIX"
        )
        + "\n"
    )
    done = run_security_harness(unit)
    assert done.returncode == 1, done.stdout
    level = re.search(r"overall exposure level \(target at most 2.5\): ([\d.]+)", done.stdout)
    assert level and float(level[1]) > 2.5 and "MISSED" in done.stdout


def run_security_harness(unit: Path) -> subprocess.CompletedProcess[str]:
    """stress/security.py on `unit`, the app watched for one sample only: what must fail
    is the unit."""
    return subprocess.run(
        [sys.executable, str(STRESS / "security.py"), "--seconds", "0.05", "--unit", str(unit)],
        capture_output=True,
        text=True,
        timeout=120,
    )


# Each key protection of the shipped unit, and the lines that removing it takes out.
LOOSENED = {
    "ProtectSystem": ("ProtectSystem=",),
    "ProtectHome": ("ProtectHome=",),
    "PrivateTmp": ("PrivateTmp=",),
    "DevicePolicy": ("DevicePolicy=", "DeviceAllow="),
    "NoNewPrivileges": ("NoNewPrivileges=",),
    "SystemCallFilter": ("SystemCallFilter=",),
    "User": ("User=",),
}


@needs_systemd_analyze
@pytest.mark.parametrize("protection", sorted(LOOSENED))
def test_security_harness_fails_a_unit_missing_one_protection(tmp_path, protection):
    # Each of these alone moves the exposure by 0.7 at most (within 2.5): the
    # harness must see the line itself is gone.
    unit = tmp_path / "loosened.service"
    shipped = (STRESS.parent / "systemd" / "patchwork-companion.service").read_text()
    unit.write_text(
        "".join(
            line
            for line in shipped.splitlines(keepends=True)
            if not line.startswith(LOOSENED[protection])
        )
    )
    done = run_security_harness(unit)
    assert done.returncode == 1, done.stdout
    assert f"    MISSING {protection}: " in done.stdout
    assert "verdict: FAILED" in done.stdout


def test_kills_harness_three_kills():
    out = run("kills.py", "--kills", "3", "--seed", "3", timeout=120)
    assert "shown as done, then lost or changed (target 0): 0" in out


def test_kills_harness_fails_a_store_that_writes_behind_the_screen():
    done = subprocess.run(
        [sys.executable, str(STRESS / "kills.py"), "--kills", "4", "--seed", "3"]
        + ["--mutant", "write-behind"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    lost = re.search(r"shown as done, then lost or changed \(target 0\): (\d+)", done.stdout)
    assert lost and int(lost[1]) > 0, done.stdout
