#!/usr/bin/env python3
"""Security harness: the unit's protections, its exposure, the user it runs as, and no
network socket open.

    .venv/bin/python stress/security.py [--seconds 5] [--unit FILE]

1. The protections that matter, pinned line by line (``PINNED``): the file
   system read-only but for the state directory (``ProtectSystem=strict``),
   no home directories, a private /tmp, no devices but the buses a build uses
   (``DevicePolicy=closed`` and exactly the ``DeviceAllow=`` lines shipped),
   no privilege gained through exec, no capabilities, the system-call
   filter, no network, and a user that is not root. A unit missing or
   changing any of them fails the run, whatever its exposure number: one
   missing line takes it from 0.6 to 2.1 at most (most of them to 0.7),
   inside any threshold that tolerates systemd's scoring changing between
   versions.
2. ``systemd-analyze security --offline=true systemd/patchwork-companion.service``:
   the overall exposure level and every check it marks as not passed. The
   target is an exposure of at most 2.5 (``EXPOSURE_TARGET``); a unit above
   it fails the run, and so does a machine without ``systemd-analyze`` (250
   or later), since the exposure then cannot be measured. ``--unit`` checks
   another unit file (the tests give it the shipped unit with each pinned
   protection removed in turn, which must fail).
3. From the unit: ``User=``, ``Group=``, ``SupplementaryGroups=``, and the
   network settings (``PrivateNetwork=yes``, ``RestrictAddressFamilies=AF_UNIX``,
   ``IPAddressDeny=any``).
4. The running application opens no network socket. The real daemon
   (``patchwork-companion run``) needs an I2C or SPI panel, which this machine
   may not have; so the process examined is ``patchwork-companion simulate
   --display dummy --script`` with a long seeded script of random inputs: the
   same ``Companion``, ``DisplayLoop`` and gpiozero input devices (on
   MockFactory pins) on luma's dummy display, playing and storing
   actions as it goes through the menus. For ``--seconds`` it samples
   ``/proc/<pid>/fd`` every 50 ms, and each ``socket:[inode]`` found is looked
   up in ``/proc/<pid>/net/{tcp,tcp6,udp,udp6,raw,raw6,unix,netlink,packet}``.
   Passes when every socket is AF_UNIX (or there is none). The daemon proper
   adds only the OLED's bus (/dev/i2c-*, /dev/spidev*), the GPIO chip, a serial
   port for the serial pad and sd_notify's AF_UNIX datagram: no network either,
   and the unit forbids it anyway (PrivateNetwork, RestrictAddressFamilies).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
from companion.storage.store import Store  # noqa: E402
from stress.common import invocation, machine_line  # noqa: E402

UNIT = REPO / "systemd" / "patchwork-companion.service"
EXPOSURE_TARGET = 2.5
PINNED: dict[str, list[str]] = {
    "ProtectSystem": ["strict"],
    "ProtectHome": ["yes"],
    "PrivateTmp": ["yes"],
    "DevicePolicy": ["closed"],
    "DeviceAllow": [
        "char-gpiochip rw",
        "char-i2c rw",
        "char-spi rw",
        "char-ttyACM rw",
        "/dev/ttyAMA0 rw",
        "/dev/ttyS0 rw",
    ],
    "NoNewPrivileges": ["yes"],
    "CapabilityBoundingSet": [""],
    "SystemCallFilter": ["@system-service", "~@privileged @resources"],
    "PrivateNetwork": ["yes"],
    "RestrictAddressFamilies": ["AF_UNIX"],
}
"""Each protection's lines exactly as the unit must have them, in order."""
SCRIPT_INPUTS = 60_000
"""Enough random presses to keep the simulation busy for longer than it is watched."""
NET_TABLES = ("tcp", "tcp6", "udp", "udp6", "raw", "raw6", "unix", "netlink", "packet")
FAMILY = {
    "tcp": "AF_INET tcp",
    "tcp6": "AF_INET6 tcp",
    "udp": "AF_INET udp",
    "udp6": "AF_INET6 udp",
    "raw": "AF_INET raw",
    "raw6": "AF_INET6 raw",
    "unix": "AF_UNIX",
    "netlink": "AF_NETLINK",
    "packet": "AF_PACKET",
}


def exposure(unit: Path) -> dict:
    tool = shutil.which("systemd-analyze")
    if not tool:
        return {"skipped": "systemd-analyze not found"}
    shown = unit.relative_to(REPO) if unit.is_relative_to(REPO) else unit
    command = [tool, "security", "--offline=true", str(shown)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=REPO)
    found = re.search(r"Overall exposure level for (\S+): ([\d.]+) (\w+)", done.stdout)
    if not found:
        return {
            "skipped": f"no exposure level (status {done.returncode}): "
            + " ".join((done.stderr or done.stdout).split())[:200],
            "command": " ".join(command),
        }
    not_passed = [line.split()[1] for line in done.stdout.splitlines() if line.startswith("✗")]
    return {
        "command": " ".join(command),
        "level": float(found[2]),
        "verdict": found[3],
        "not_passed": not_passed,
        "version": subprocess.run(
            [tool, "--version"], capture_output=True, text=True
        ).stdout.splitlines()[0],
    }


def unit_settings(unit: Path) -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in unit.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")) and "=" in line:
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def protection_gaps(settings: dict[str, list[str]]) -> list[str]:
    """The pinned protections the unit lacks or has otherwise, and a root user."""
    gaps = [
        f"{key}: want {' + '.join(map(repr, want))}, found "
        + (" + ".join(map(repr, settings[key])) if key in settings else "(not set)")
        for key, want in PINNED.items()
        if settings.get(key) != want
    ]
    if settings.get("User", ["root"])[-1] in ("root", "0", ""):
        gaps.append("User: runs as root")
    return gaps


def socket_inodes(pid: int) -> tuple[Counter[str], set[str]]:
    kinds: Counter[str] = Counter()
    inodes: set[str] = set()
    fd_dir = Path(f"/proc/{pid}/fd")
    for fd in fd_dir.iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue  # closed in between
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
            kinds["socket"] += 1
        elif target.startswith("pipe:"):
            kinds["pipe"] += 1
        elif target.startswith(("anon_inode:", "/dev/")):
            kinds[target] += 1
        else:
            # Temporary files of atomic writes: one name for all of them.
            kinds["file " + re.sub(r"\.[^.]+\.tmp$", ".*.tmp", Path(target).name)] += 1
    return kinds, inodes


def inode_families(pid: int) -> dict[str, str]:
    families = {}
    for table in NET_TABLES:
        path = Path(f"/proc/{pid}/net/{table}")
        try:
            lines = path.read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            # The inode is column 10 in tcp/udp/raw, 7 in unix, 9 in netlink, 9 in packet.
            column = {"unix": 6, "netlink": 8, "packet": 8}.get(table, 9)
            if len(fields) > column:
                families[fields[column]] = FAMILY[table]
    return families


def watch_child(seconds: float) -> dict:
    root = Path(tempfile.mkdtemp(prefix="stress-security-"))
    rng = random.Random(1)
    script = root / "script.txt"
    script.write_text(
        "".join(rng.choice(("next", "next", "previous", "select", "select", "back")) + "\n"
                for _ in range(SCRIPT_INPUTS))
    )  # fmt: skip
    command = [
        sys.executable, "-m", "companion", "simulate", "--display", "dummy",
        "--script", str(script), "--seed", "1", "--state-dir", str(root / "state"),
    ]  # fmt: skip
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)
    log = root / "state" / "companion.log"
    try:
        up_by = time.monotonic() + 30
        while not log.exists() and child.poll() is None and time.monotonic() < up_by:
            time.sleep(0.05)
        if child.poll() is not None or not log.exists():
            return {"error": "the simulation did not start: " + child.stderr.read().decode()[-300:]}
        fd_kinds: Counter[str] = Counter()
        families: Counter[str] = Counter()
        unknown: set[str] = set()
        samples = 0
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and child.poll() is None:
            kinds, inodes = socket_inodes(child.pid)
            known = inode_families(child.pid)
            samples += 1
            for kind, count in kinds.items():
                fd_kinds[kind] = max(fd_kinds[kind], count)
            for inode in inodes:
                if inode in known:
                    families[known[inode]] += 1
                else:
                    unknown.add(inode)
            time.sleep(0.05)
        still_running = child.poll() is None
        child.kill()  # its store is held until it ends
        child.wait()
        with Store(root / "state") as store:
            ((actions,),) = store.query("SELECT count(*) FROM moves")
        return {
            "pid": child.pid,
            "samples": samples,
            "actions_stored": actions,
            "most_fds_of_each_kind": dict(fd_kinds),
            "socket_families_seen": dict(families),
            "sockets_not_found_in_proc_net": len(unknown),
            "still_running": still_running,
        }
    finally:
        child.kill()
        child.wait()
        child.stdout.close()
        child.stderr.close()
        shutil.rmtree(root, ignore_errors=True)


def run_harness(seconds: float, unit: Path = UNIT) -> dict:
    started = time.monotonic()
    settings = unit_settings(unit)
    return {
        "protection_gaps": protection_gaps(settings),
        "exposure": exposure(unit),
        "user": settings.get("User", ["(root: no User=)"])[-1],
        "group": settings.get("Group", ["-"])[-1],
        "supplementary_groups": " ".join(settings.get("SupplementaryGroups", [])),
        "network": {
            key: settings.get(key, ["(not set)"])[-1]
            for key in ("PrivateNetwork", "RestrictAddressFamilies", "IPAddressDeny")
        },
        "process": watch_child(seconds),
        "seconds": round(time.monotonic() - started, 1),
    }


def passed(result: dict) -> bool:
    process = result["process"]
    only_unix = set(process.get("socket_families_seen", {})) <= {"AF_UNIX"}
    return (
        not result["protection_gaps"]
        and exposure_ok(result["exposure"])
        and "error" not in process
        and process["samples"] > 0
        and only_unix
        and process["sockets_not_found_in_proc_net"] == 0
    )


def exposure_ok(measured: dict) -> bool:
    """The unit's exposure was measured and is within the target."""
    return "level" in measured and measured["level"] <= EXPOSURE_TARGET


def report(result: dict) -> str:
    exposure_ = result["exposure"]
    process = result["process"]
    lines = [
        "security: the unit's protections and exposure, its user, and the sockets the app opens",
        f"command: {invocation()}",
        f"machine: {machine_line()}",
    ]
    gaps = result["protection_gaps"]
    lines.append(
        f"pinned protections ({len(PINNED)} settings and a user other than root): "
        + ("all as pinned" if not gaps else f"{len(gaps)} MISSING or changed")
    )
    lines += [f"    MISSING {gap}" for gap in gaps]
    if "skipped" in exposure_:
        lines.append(f"systemd-analyze security: skipped ({exposure_['skipped']})")
    else:
        lines += [
            f"systemd-analyze security: {exposure_['command']} ({exposure_['version']})",
            f"    overall exposure level (target at most {EXPOSURE_TARGET}): "
            f"{exposure_['level']} {exposure_['verdict']}"
            f"{'' if exposure_ok(exposure_) else '  MISSED'}",
            f"    checks not passed ({len(exposure_['not_passed'])}): "
            + ", ".join(exposure_["not_passed"]),
        ]
    lines += [
        f"runs as: User={result['user']} Group={result['group']} "
        f"SupplementaryGroups={result['supplementary_groups']}",
        "network in the unit: "
        + ", ".join(f"{key}={value}" for key, value in result["network"].items()),
    ]
    if "error" in process:
        lines.append(f"process: {process['error']}")
    else:
        lines += [
            f"process (patchwork-companion simulate, pid {process['pid']}): "
            f"{process['samples']} samples of /proc/<pid>/fd; "
            f"{process['actions_stored']} actions of its game stored at the end",
            f"    open descriptors (most at once): {process['most_fds_of_each_kind']}",
            f"    socket families seen: {process['socket_families_seen'] or 'none'}",
            f"    sockets not found in /proc/<pid>/net: {process['sockets_not_found_in_proc_net']}",
        ]
    verdict = "protections as pinned, exposure within target, only AF_UNIX or no sockets"
    lines.append(f"verdict: {verdict if passed(result) else 'FAILED'}")
    lines.append(f"total time: {result['seconds']} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to watch the app")
    parser.add_argument("--unit", type=Path, default=UNIT, help="the unit file to analyse")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    result = run_harness(args.seconds, args.unit.resolve())
    print(report(result))
    if args.json:
        print(json.dumps(result))
    return 0 if passed(result) else 1


if __name__ == "__main__":
    sys.exit(main())
