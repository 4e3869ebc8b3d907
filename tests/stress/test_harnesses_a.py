"""Smoke tests: each reliability harness of stress/ run at a tiny size, so they do not rot.

The full runs (200 kills, 1,000 journals, the whole config sweep) are in
stress/README.md; these only prove the harnesses still work and still pass.
"""

import itertools
import json
import re
import shutil
import subprocess
import sys
import time
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


def into_the_next_second() -> None:
    """Sleep until the wall clock's second changes (0.5 s on average, at most 1 s): a name
    made from the clock after it differs from every name made before."""
    time.sleep(1 - time.time() % 1)


def test_power_loss_harness_two_short_rounds():
    out = run("power_loss.py", "--rounds", "2", "--inputs", "120", "--seed", "3")
    assert "confirmed state lost or changed (target 0): 0" in out
    assert "traces that missed a write (target 0): 0" in out


def test_power_loss_child_records_the_same_run_for_the_same_seed(tmp_path):
    """The harness's figures come from the child's trace: the same seed must give the
    same trace. The run archives a game, which the wall clock once named (so the count
    of distinct crash states moved by one or two between runs); the runs are in
    different seconds, so a clock that moved would show."""
    traces = []
    for number in (1, 2):
        if number == 2:
            into_the_next_second()
        state, trace = tmp_path / f"state-{number}", tmp_path / f"trace-{number}.jsonl"
        state.mkdir()
        subprocess.run(
            [sys.executable, str(STRESS / "power_loss.py"), "--child", "--state-dir", str(state)]
            + ["--trace", str(trace), "--log", str(tmp_path / "child.log"), "--seed", "3"]
            + ["--round", "0", "--inputs", "400", "--mutant", "none"],
            check=True,
            timeout=120,
        )
        assert list((state / "history").glob("*.jsonl")), "no game was archived"
        # tempfile's random names (.progress.json.XXXXXXXX.tmp) are not the program's.
        traces.append(re.sub(r"\.[a-z0-9_]{8}\.tmp", ".tmp", trace.read_text()))
    assert traces[0] == traces[1]
    # The player undoes again right after an undo, as a person correcting two mistakes
    # does.
    assert undos_in_a_row(traces[0]) > 0


def undos_in_a_row(trace: str) -> int:
    """How often the screen's game went back to one shown before, fewer actions in (an
    undo), right after the game's last change was one too: read from the frames alone."""
    frames = [op for op in map(json.loads, trace.splitlines()) if op["op"] == "frame"]
    shown, undos = set(), []
    for before, after in itertools.pairwise(frames):
        shown.add(before["d"])
        if after["n"] != before["n"]:
            fewer = None not in (before["n"], after["n"]) and after["n"] < before["n"]
            undos.append(fewer and after["d"] in shown)
    return sum(first and second for first, second in itertools.pairwise(undos))


@pytest.mark.parametrize("mutant", ["no-fsync", "no-dir-fsync"])
def test_power_loss_harness_fails_a_program_that_does_not_fsync(mutant):
    done = subprocess.run(
        [sys.executable, str(STRESS / "power_loss.py"), "--rounds", "2", "--inputs", "120"]
        + ["--seed", "3", "--mutant", mutant],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    lost = re.search(r"confirmed state lost or changed \(target 0\): (\d+)", done.stdout)
    assert lost and int(lost[1]) > 0, done.stdout


def test_damaged_journals_harness_twenty_journals():
    out = run("damaged_journals.py", "--count", "20", "--seed", "3")
    assert "journals: 20 " in out
    assert "starts that failed (target 0): 0" in out


def test_damaged_journals_tells_the_same_texts_for_the_same_seed():
    """Files moved aside are named by the wall clock, and the notices name them: the
    runs are in different seconds, so a clock that moved would show."""
    runs = []
    for number in (1, 2):
        if number == 2:
            into_the_next_second()
        out = run("damaged_journals.py", "--count", "14", "--seed", "3", "--json")
        result = json.loads(out.splitlines()[-1])
        assert any(re.search(r"-damaged-\d{8}-\d{6}", text) for text in result["exact_notices"])
        del result["seconds"]
        runs.append(result)
    assert runs[0] == runs[1]


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
    # The app is watched for one sample only: what must fail here is the unit's exposure.
    done = subprocess.run(
        [sys.executable, str(STRESS / "security.py"), "--seconds", "0.05", "--unit", str(unit)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stdout
    level = re.search(r"overall exposure level \(target at most 2.5\): ([\d.]+)", done.stdout)
    assert level and float(level[1]) > 2.5 and "MISSED" in done.stdout


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
    done = subprocess.run(
        [sys.executable, str(STRESS / "security.py"), "--seconds", "0.05", "--unit", str(unit)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stdout
    assert f"    MISSING {protection}: " in done.stdout
    assert "verdict: FAILED" in done.stdout
