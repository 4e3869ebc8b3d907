"""The host side of the virtual Pi (run by scripts/virtual-pi.sh): boots the
guest under qemu, installs the companion with the real systemd/install.sh,
plays a scripted game through gpio-sim's lines, reads the panel back from
i2c-stub's write log with its own SH1106 decoder, and cuts the power.

Standard library only, with /usr/bin/python3; the expected game and screen
come from the laptop simulation of the same inputs (the repository's .venv),
the expected state of the disk after a cut from what the panel had shown.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import random
import re
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from panel import Panel  # noqa: E402

STATE_DIR = "/var/lib/patchwork-companion"
DATABASE = f"{STATE_DIR}/companion.db"
DATABASE_FILES = ((DATABASE, 0), (f"{DATABASE}-wal", 0))
"""The store and its write-ahead log, read from the start in one round trip."""
FS_ERROR_TRIGGER = "/sys/fs/ext4/vda/trigger_fs_error"
"""Writing to it makes ext4 meet an error: the errors= mount option decides the rest."""
PANEL_LOG = "/sys/kernel/debug/i2c-stub-writes"
"""Every write that reached i2c-stub's chip (our addition to the driver)."""
SERVICE = "patchwork-companion.service"
BOOT_CONFIG = "/boot/firmware/config.txt"
STOCK_CONFIG = HERE / "guest" / "boot" / "config.txt"
"""Raspberry Pi OS's config.txt as a new card has it: the boot partition's only file."""
BEGIN, END = "# BEGIN patchwork-companion", "# END patchwork-companion"
# The sh1106-encoder build's wiring, as in scripts/virtual-pi/virtual-pi.toml.
ENCODER_A, ENCODER_B, SWITCH, BACK_KEY = 17, 27, 22, 5
# The scripted set-up: a solo game, as docs/demo-solo.txt starts it; then
# "select" is all a player presses: through the dealing of the circle, then
# every turn (Advance, the Automa's turns) from there on. A cut game goes on
# the same way after the reboot, whatever screen it resumes on.
FIRST_START = ["select"]
"""The device's first start asks for the language: English, where the cursor starts."""
SETUP = ["select", "previous", "select", "next", "select"]
DEAL_SELECTS = 4
"""The dealt circle: 32 patches, eight a screen, one press a screen."""
CLEAN_GAME_SELECTS = DEAL_SELECTS + 1 + 20
# A game is started again once this many actions are confirmed, so the cut
# runs stay inside the part of a game that "select" alone can play.
RESTART_AFTER_ACTIONS = 30
BOOT_TIMEOUT = 600
READY_TIMEOUT = 600
"""Generous: an emulated arm64 boot on a loaded 2-core host takes minutes. Only ever
waited in full when the guest went wrong."""
QUIET = 1.0
"""Seconds without a new picture after which the first screen of a boot counts as settled."""
FRAME_TIMEOUT = 90
"""Seconds a press may take to reach the panel: generous, TCG on a loaded host is slow;
it is only ever waited in full when the device went wrong."""
POLL = 0.1
CUT_WINDOW = 0.5
"""A cut lands up to this many seconds after the release of the press before it:
before, during or after the commit the press causes (press to frame takes
0.05-0.3 s under TCG)."""
NOTICE_WITHIN = 8
"""Presses after a card failure within which the player must be told: those through
an action's step cards save only which card shows (a refusal there is not announced),
and no action has that many cards."""
# Where a power cut landed, from the press it follows.
BEFORE_WRITE = "before its commit"
DURING_WRITE = "after its commit, before its frame"
AFTER_FRAME = "after its frame"


class Checks:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, ok: bool, what: str, detail: str = "") -> bool:
        if ok:
            self.passed += 1
            print(f"ok    {what}", flush=True)
        else:
            self.failed += 1
            print(f"FAIL  {what}" + (f": {detail}" if detail else ""), flush=True)
        return ok


class GuestError(RuntimeError):
    pass


CONSOLE = {"amd64": "ttyS0", "arm64": "ttyAMA0"}
BOARD_REVISION = 0xC03114
"""A Raspberry Pi 4 Model B 4 GB, rev 1.4, as its firmware writes it in the device tree."""


def machine(arch: str, accel: str) -> list[str]:
    """The qemu command line of the machine, before its disks and devices."""
    if arch == "arm64":
        # A Pi 3/4/Zero 2 W's cores are Cortex-A53/A72 (ARMv8.0): the wheels
        # must run on the older of them.
        return ["qemu-system-aarch64", "-M", "virt", "-accel", "tcg", "-cpu", "cortex-a53"] + [
            "-m", "1024", "-smp", "2"
        ]  # fmt: skip
    # -cpu max: the wheels (Pillow's) use x86-64-v2 instructions that TCG's
    # default CPU model lacks (SIGILL at import).
    return ["qemu-system-x86_64", "-accel", accel, "-cpu", "max", "-m", "1024", "-smp", "2"]


def board_device_tree(command: list[str], dtb: Path) -> None:
    """qemu's own device tree for the arm64 machine, made a Raspberry Pi 4's where
    gpiozero looks: the board revision in /system/linux,revision (as the Pi's
    firmware puts it), and without the machine's PL061 GPIO controller and the
    power key on it, so that gpio-sim's chip is /dev/gpiochip0 as the header's
    is on a Pi 4."""
    raw = dtb.with_suffix(".qemu.dtb")
    subprocess.run([*command, "-machine", f"dumpdtb={raw}"], check=True, capture_output=True)
    source = subprocess.run(
        ["dtc", "-q", "-I", "dtb", "-O", "dts", str(raw)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    # Top-level nodes: one tab in, closed by the first "};" one tab in.
    source, removed = re.subn(
        r"\n\t(pl061@[0-9a-f]+|gpio-keys) \{.*?\n\t\};", "", source, flags=re.S
    )
    if removed != 2 or "\n\tchosen {" not in source:
        sys.exit("virtual-pi: qemu's device tree has no PL061 with its gpio-keys, or no /chosen")
    source = source.replace(
        "\n\tchosen {",
        f"\n\tsystem {{\n\t\tlinux,revision = <{BOARD_REVISION:#x}>;\n\t}};\n\n\tchosen {{",
        1,
    )
    subprocess.run(
        ["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", str(dtb), "-"],
        check=True,
        input=source,
        text=True,
    )


class Guest:
    """One boot of the virtual machine and its agent."""

    def __init__(self, args: argparse.Namespace, work: Path, accel: str) -> None:
        self.work = work
        self.console = work / "console.log"
        self.socket_path = work / "agent.sock"
        self.socket_path.unlink(missing_ok=True)
        with open(self.console, "ab") as console:
            console.write(f"\n===== boot at {time.strftime('%H:%M:%S')} =====\n".encode())
        # The serial console, appended boot after boot: the first place to look.
        command = [
            *machine(args.arch, accel),
            "-kernel",
            str(args.image / "vmlinuz"),
            "-initrd",
            str(args.image / "initrd.img"),
            "-append",
            f"root=/dev/vda rw console={CONSOLE[args.arch]} panic=1 quiet "
            # The PC's own SMBus (i2c_piix4) stays out: otherwise the stub's bus
            # number depends on which driver loads first, boot after boot.
            "systemd.show_status=1 modprobe.blacklist=i2c_piix4 "
            # udev finds the boot partition's label late under emulation.
            "systemd.default_device_timeout_sec=600",
            # cache=unsafe: qemu ignores the guest's flushes towards the host's
            # disk; the guest's own page cache is still lost when qemu is
            # killed, which is the power cut under test (the host never crashes).
            "-drive",
            f"file={work / 'disk.raw'},format=raw,if=virtio,cache=unsafe",
            # The boot partition (FAT, /boot/firmware), as the card's first one.
            "-drive",
            f"file={work / 'boot.raw'},format=raw,if=virtio,cache=unsafe",
            "-virtfs",
            f"local,path={work / 'share'},mount_tag=virtualpi,security_model=none,readonly=on",
            "-device",
            "virtio-serial",
            "-chardev",
            f"socket,id=agent,path={self.socket_path},server=on,wait=off",
            "-device",
            "virtserialport,chardev=agent,name=virtual-pi",
            "-nic",
            "none",
            "-display",
            "none",
            "-no-reboot",
            "-chardev",
            f"file,id=console,path={self.console},append=on",
            "-serial",
            "chardev:console",
        ]
        if args.arch == "arm64":
            dtb = work / "board.dtb"
            if not dtb.exists():
                board_device_tree(command, dtb)
            command += ["-dtb", str(dtb)]
        # A session of its own: a terminal's hang-up or Ctrl-C is not a power cut.
        with open(work / "qemu.err", "ab") as errors:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=errors,
                start_new_session=True,
            )
        self.sock: socket.socket | None = None
        self.buffer = b""
        self.next_id = 0

    def connect(self, timeout: float = BOOT_TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise GuestError(
                    f"qemu exited ({self.process.returncode}): see {self.work / 'qemu.err'}"
                )
            if self.sock is None:
                try:
                    self.sock = socket.socket(socket.AF_UNIX)
                    self.sock.connect(str(self.socket_path))
                except OSError:
                    self.sock = None
                    time.sleep(0.5)
                    continue
            try:
                # Until the agent runs, requests wait in the port; late
                # answers to earlier hellos are told apart by their id.
                return self.call({"op": "hello"}, timeout=3)["boot_id"]
            except TimeoutError:
                continue
            except (OSError, GuestError):
                # qemu drops a connection made while it starts: connect again.
                self.sock.close()
                self.sock = None
                time.sleep(0.5)
        raise GuestError(f"no answer from the guest within {timeout:.0f} s: see {self.console}")

    def call(self, request: dict, timeout: float = 120) -> dict:
        assert self.sock is not None
        self.next_id += 1
        request = {**request, "id": self.next_id}
        self.sock.sendall(json.dumps(request).encode() + b"\n")
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                reply = json.loads(line)
                if reply.get("id") == self.next_id or not reply.get("ok"):
                    if not reply.get("ok"):
                        raise GuestError(reply.get("error", "agent error"))
                    return reply
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"agent: no answer to {request['op']} in {timeout} s")
            self.sock.settimeout(left)
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise GuestError("agent connection closed")
            self.buffer += chunk

    def run(self, *argv: str, timeout: float = 300, input: str | None = None) -> dict:
        return self.call(
            {"op": "run", "argv": list(argv), "timeout": timeout, "input": input},
            timeout=timeout + 30,
        )

    def sh(self, script: str, timeout: float = 300) -> dict:
        return self.run("sh", "-c", script, timeout=timeout)

    def read(self, path: str, offset: int = 0) -> bytes | None:
        return self.reads((path, offset))[0]

    def reads(self, *files: tuple[str, int]) -> list[bytes | None]:
        """Files from an offset, read one after the other in one round trip (None: missing)."""
        reply = self.call({"op": "read", "files": [list(each) for each in files]})
        return [None if data is None else base64.b64decode(data) for data in reply["data"]]

    def pulls(self, steps: list) -> float:
        """Drive the lines; the longest bounce as it really lasted in the guest."""
        return self.call({"op": "pulls", "steps": steps}, timeout=60)["longest_bounce"]

    def cut(self) -> None:
        """Power off: SIGKILL to qemu, nothing written back, no shutdown."""
        self.process.kill()
        self.process.wait()
        if self.sock is not None:
            self.sock.close()


# --- inputs as the wires carry them -----------------------------------------------

UP, DOWN = "pull-up", "pull-down"
STEP = 0.05
DEBOUNCE = 0.02
"""The profile's bounce_time (scripts/virtual-pi/virtual-pi.toml)."""


def bouncy(line: int, level: str, settle: float) -> list:
    """A contact closing or opening: a bounce (the level, the other, the level
    again, written back to back), then the level held.

    Back to back, not 2 ms apart: a sleep lets the virtual CPU idle, and under
    TCG on a loaded host its wake-up can come tens of milliseconds late. Two
    such late wake-ups in one bounce outlast the 20 ms debounce and make one
    press two; writes in a row are stretched only if the host preempts qemu
    between them, twice over.
    """
    other = UP if level == DOWN else DOWN
    return [[line, level, 0], [line, other, 0], [line, level, settle]]


def press(line: int, held: float = 0.15) -> list:
    return bouncy(line, DOWN, held) + bouncy(line, UP, STEP)


def detent(clockwise: bool) -> list:
    """One detent of an EC11: the full quadrature cycle, bouncing on every edge."""
    first, second = (ENCODER_A, ENCODER_B) if clockwise else (ENCODER_B, ENCODER_A)
    return (
        bouncy(first, DOWN, STEP)
        + bouncy(second, DOWN, STEP)
        + bouncy(first, UP, STEP)
        + bouncy(second, UP, STEP)
    )


INPUTS = {
    "select": lambda: press(SWITCH),
    "back": lambda: press(BACK_KEY),
    "next": lambda: detent(True),
    "previous": lambda: detent(False),
}


# --- the run ---------------------------------------------------------------------


class VirtualPi:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.checks = Checks()
        self.work = args.work
        self.source = args.work / "share" / "source"
        """The copy of the checkout that the guest installs and the laptop runs."""
        self.guest: Guest | None = None
        self.panel = Panel()
        self.panel_offset = 0
        self.rng = random.Random(args.seed)
        self.longest_bounce = self.last_bounce = 0.0
        self.released_at = 0.0
        self.reference: list[str] = []
        self.menus: dict = {}
        self.accel = args.accel
        self.watchdog_seconds = 0.0
        self.stock_config: bytes | None = None

    # -- machine --

    def prepare(self) -> None:
        if self.work.exists():
            shutil.rmtree(self.work)
        share = self.work / "share"
        (share / "guest").mkdir(parents=True)
        for name in ("agent.py", "hardware.sh"):
            shutil.copy(HERE / "guest" / name, share / "guest" / name)
        shutil.copy(HERE / "virtual-pi.toml", share / "virtual-pi.toml")
        shutil.copytree(self.args.wheels, share / "wheels")
        source = self.source
        files = (
            subprocess.run(
                # safe.directory: run through sudo, root reads a checkout it does not own.
                ["git", "-c", f"safe.directory={self.args.repo}", "-C", str(self.args.repo)]
                + ["ls-files", "-co", "--exclude-standard", "-z"],
                check=True,
                capture_output=True,
            )
            .stdout.decode()
            .split("\0")
        )
        for name in filter(None, files):
            origin = self.args.repo / name
            if origin.is_file():
                (source / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(origin, source / name)
        for mutant in MUTANTS:
            if getattr(self.args, mutant):
                mutate(source, mutant)
        for disk in ("disk.raw", "boot.raw"):
            subprocess.run(
                ["cp", "--sparse=always", str(self.args.image / disk), str(self.work / disk)],
                check=True,
            )

    def boot(self) -> str:
        self.guest = Guest(self.args, self.work, self.accel)
        boot_id = self.guest.connect()
        self.panel = Panel()
        self.panel_offset = 0
        return boot_id

    # -- the panel --

    def poll_panel(self) -> int:
        data = self.guest.read(PANEL_LOG, self.panel_offset) or b""
        if data:
            consumed = self.panel.feed(data)
            self.panel_offset += consumed
        return len(data)

    def settle(self, timeout: float = 60) -> None:
        """Wait for a picture that stays the same for QUIET seconds (a boot's first screen)."""
        deadline = time.monotonic() + timeout
        last, since = self.panel.picture(), time.monotonic()
        while time.monotonic() < deadline:
            self.poll_panel()
            picture = self.panel.picture()
            if picture != last:
                last, since = picture, time.monotonic()
            elif picture is not None and time.monotonic() - since > QUIET:
                return
            time.sleep(POLL)

    def press_until(self, name: str, want: str | None) -> bool:
        """Press `name` and wait for the panel to show `want` (any new picture if None).

        Event-driven, never a fixed pause: the next press goes only once this
        one's frame is on the panel. A press that only woke a dimmed or blank
        panel (the device's idle timers) is pressed again, as a player would.
        """
        for _attempt in range(3):
            before, wakes = self.panel.picture(), self.panel.wakes
            self.enter(name)
            if self.wait_for(want, before, wakes):
                return True
            if self.panel.wakes == wakes or self.panel.picture() != before:
                return False
        return False

    def wait_for(self, want: str | None, before: str | None = None, wakes: int = -1) -> bool:
        """True once the panel shows `want` (or, if None, anything but `before`);
        False after FRAME_TIMEOUT, or at once when the panel woke up and
        showed nothing new."""
        deadline = time.monotonic() + FRAME_TIMEOUT
        while time.monotonic() < deadline:
            self.poll_panel()
            picture = self.panel.picture()
            if picture == want or (want is None and picture != before):
                return True
            if wakes >= 0 and self.panel.wakes > wakes and picture == before:
                return False
            time.sleep(POLL)
        return False

    # -- the disk as the program left it (page cache, not yet the disk) --

    def snapshot(self) -> dict:
        return {
            "game": game_lines(*self.guest.reads(*DATABASE_FILES)),
            "frame": self.panel.picture(),
        }

    def service(self) -> dict:
        out = self.guest.run(
            "systemctl",
            "show",
            SERVICE,
            "-p",
            "ActiveState",
            "-p",
            "SubState",
            "-p",
            "MainPID",
            "-p",
            "NRestarts",
            "-p",
            "WatchdogUSec",
            "-p",
            "User",
            "-p",
            "StatusErrno",
            "-p",
            "Result",
        )["out"]
        return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)

    def wait_active(self, timeout: float = READY_TIMEOUT) -> dict:
        """Type=notify: "active (running)" only once READY=1 came."""
        deadline = time.monotonic() + timeout
        state = {}
        while time.monotonic() < deadline:
            state = self.service()
            if state.get("ActiveState") == "active" and state.get("SubState") == "running":
                return state
            if state.get("ActiveState") == "failed":
                break
            time.sleep(1)
        return state

    def enter(self, name: str) -> None:
        self.last_bounce = self.guest.pulls(INPUTS[name]())
        self.longest_bounce = max(self.longest_bounce, self.last_bounce)
        self.released_at = time.monotonic()

    # -- phases --

    def install(self) -> bool:
        c = self.checks
        guest = self.guest
        hw = guest.sh(
            "cat /run/virtual-pi/gpio-sim /run/virtual-pi/i2c-stub; ls -l /dev/gpiochip0 /dev/i2c-*"
        )
        c.check(
            hw["rc"] == 0 and "gpio-sim" in hw["out"],
            "gpio-sim gives the guest /dev/gpiochip0 and i2c-stub an I2C bus",
            hw["out"] + hw["err"],
        )
        bus = guest.sh("cat /run/virtual-pi/i2c-stub")["out"].strip()
        # The panel's bus number comes from the machine: the profile is
        # written for it, as a user writes theirs for their Pi.
        profile = (self.work / "share" / "virtual-pi.toml").read_text()
        # As a user would: a copy of the checkout (pip builds in it), and the profile.
        guest.sh("rm -rf /root/patchwork-companion")
        guest.run("cp", "-r", "/mnt/virtual-pi/source", "/root/patchwork-companion")
        port = bus.removeprefix("i2c-")
        guest.run(
            "tee",
            "/root/virtual-pi.toml",
            input=profile.replace("i2c_port = 1", f"i2c_port = {port}"),
        )
        boot = guest.sh("findmnt -n -o FSTYPE /boot/firmware")["out"].strip()
        self.stock_config = guest.read(BOOT_CONFIG)
        c.check(
            boot == "vfat" and self.stock_config == STOCK_CONFIG.read_bytes(),
            f"{BOOT_CONFIG} is Raspberry Pi OS's stock file, on a FAT partition",
            f"/boot/firmware is {boot or 'not mounted'}",
        )
        started = time.monotonic()
        result = self.install_sh()
        (self.work / "install.log").write_text(result["out"] + result["err"])
        took = time.monotonic() - started
        print(f"      (install.sh took {took:.0f} s; output in {self.work / 'install.log'})")
        release = self.args.release
        ok = c.check(
            result["rc"] == 0,
            f"systemd/install.sh succeeds on Debian {release} without network",
            last_lines(result["out"] + result["err"]),
        )
        c.check(
            "lgpio" in result["out"] and "PyPI" in result["out"],
            f"install.sh says it takes lgpio from PyPI (no python3-lgpio in Debian {release})",
        )
        installed = guest.read(BOOT_CONFIG)
        fragment = (
            self.args.repo / "firmware_configs" / "sh1106-encoder" / "config.txt"
        ).read_text()
        block_lines = (
            (installed or b"")
            .decode(errors="replace")
            .splitlines()[len(STOCK_CONFIG.read_text().splitlines()) :]
        )
        c.check(
            installed is not None
            and installed.startswith(self.stock_config)
            and block_lines[:1] != []
            and block_lines[0].startswith(BEGIN)
            and block_lines[1:] == ["[all]", *fragment.splitlines(), END]
            and "reboot" in result["out"]
            and self.service().get("ActiveState") == "inactive",
            "install.sh adds its marked block (dtparam=i2c_arm=on, its baudrate, gpio-shutdown) "
            "after the stock lines, asks for a reboot and leaves the service stopped until then",
            f"config.txt ends with {block_lines[-3:]}; service {self.service().get('ActiveState')}",
        )
        again = self.install_sh()
        c.check(
            again["rc"] == 0
            and "already up to date" in again["out"]
            and guest.read(BOOT_CONFIG) == installed,
            "a second install.sh leaves config.txt as it was",
            last_lines(again["out"] + again["err"]),
        )
        if ok:
            self.reboot()
        return ok

    def install_sh(self, *options: str) -> dict:
        return self.guest.run(
            "env",
            "PIP_NO_INDEX=1",
            "PIP_FIND_LINKS=/mnt/virtual-pi/wheels",
            "/root/patchwork-companion/systemd/install.sh",
            *(options or ("--profile", "/root/virtual-pi.toml", "--firmware", "sh1106-encoder")),
            timeout=900,
        )

    def reboot(self) -> None:
        """A clean reboot, as the installer asks: poweroff, then the power on again."""
        # The agent may be stopped before its answer leaves.
        with contextlib.suppress(GuestError, TimeoutError, OSError):
            self.guest.run("systemctl", "poweroff", "--no-block", timeout=10)
        try:
            self.guest.process.wait(timeout=BOOT_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise GuestError(
                f"no poweroff within {BOOT_TIMEOUT} s: see {self.guest.console}"
            ) from None
        self.guest.cut()
        self.boot()

    def uninstall(self) -> None:
        result = self.install_sh("--uninstall")
        left = self.guest.sh("ls /boot/firmware")["out"].split()
        self.checks.check(
            result["rc"] == 0
            and self.guest.read(BOOT_CONFIG) == self.stock_config
            and left == ["config.txt"],
            "install.sh --uninstall puts config.txt back byte for byte, no backup left behind",
            f"/boot/firmware holds {left}; " + last_lines(result["out"] + result["err"]),
        )

    def service_checks(self) -> dict:
        c = self.checks
        state = self.wait_active()
        c.check(
            state.get("ActiveState") == "active" and state.get("SubState") == "running",
            "the service reaches READY=1 (active, running) under the hardened unit",
            f"{state}; {self.last_log()}",
        )
        user = self.guest.sh(f"ps -o user= -p {state.get('MainPID', 0)}")["out"].strip()
        c.check(
            user == "patchwork", "it runs as the unprivileged user patchwork", user or "no process"
        )
        c.check(
            state.get("WatchdogUSec") not in (None, "0", "infinity"),
            "the unit has a watchdog",
            str(state.get("WatchdogUSec")),
        )
        self.watchdog_seconds = seconds(state.get("WatchdogUSec", "0"))
        revision = self.guest.sh(
            "od -An -tx1 /proc/device-tree/system/linux,revision | tr -d ' \n'; "
            "ls /run/virtual-pi/cpuinfo"
        )["out"]
        if self.args.arch == "arm64":
            c.check(
                revision.strip() == f"{BOARD_REVISION:08x}",
                "gpiozero found the board in the device tree (linux,revision "
                f"{BOARD_REVISION:x}; no /proc/cpuinfo bound over)",
                revision,
            )
        return state

    def watchdog_fired(self) -> str:
        """What shows that the watchdog killed the service in this boot ("" if nothing)."""
        restarts = self.service().get("NRestarts")
        timeouts = self.guest.sh(
            f"journalctl -b -u {SERVICE} --no-pager -q | grep -c 'Watchdog timeout'"
        )["out"].strip()
        found = [f"NRestarts={restarts}"] if restarts != "0" else []
        found += [f"{timeouts} 'Watchdog timeout' in its journal"] if timeouts != "0" else []
        return ", ".join(found)

    def outlive_watchdog(self) -> float:
        """Wait until the service has been running 1.5 watchdog periods: a daemon that
        never pings is killed by then. systemd arms the watchdog at READY=1 (the unit
        turning active), not at the process's start. The seconds since READY=1."""
        since = self.guest.sh(
            f"systemctl show {SERVICE} -p ActiveEnterTimestampMonotonic --value; "
            "cut -d' ' -f1 /proc/uptime"
        )["out"].split()
        age = float(since[1]) - int(since[0]) / 1e6 if len(since) == 2 else 0.0
        wanted = 1.5 * self.watchdog_seconds
        if age < wanted:
            time.sleep(wanted - age)
        return max(age, wanted)

    def last_log(self) -> str:
        return last_lines(
            self.guest.sh(f"journalctl -b -u {SERVICE} --no-pager | tail -n 5")["out"]
        )

    def play(
        self, inputs: list[str], frames: list[str | None], first: int = 1
    ) -> list[dict] | None:
        """Press each input once its frame before is on the panel; the saved game after each,
        and the seconds from its release to its frame ("latency").

        None (after one FAIL line naming the press) if a press never showed its frame.
        """
        snapshots = []
        for number, (name, want) in enumerate(zip(inputs, frames, strict=True), start=first):
            if not self.press_until(name, want):
                self.checks.check(
                    False,
                    f"press {number} ({name}) shows the laptop's next screen",
                    f"after {FRAME_TIMEOUT} s the panel showed something else "
                    f"({diff_pictures(self.panel.picture(), want)}; "
                    f"both in {self.write_pictures(number, want)}; its longest bounce lasted "
                    f"{self.last_bounce * 1000:.0f} ms, the debounce time is "
                    f"{DEBOUNCE * 1000:.0f} ms)",
                )
                return None
            snapshots.append({**self.snapshot(), "latency": time.monotonic() - self.released_at})
        return snapshots

    def write_pictures(self, label: object, expected: str | None) -> Path:
        for name, picture in (("panel", self.panel.picture()), ("expected", expected)):
            (self.work / f"screen-{label}-{name}.txt").write_text(as_text(picture))
        return self.work / f"screen-{label}-*.txt"

    def clean_game(self, state: dict) -> None:
        c = self.checks
        started = time.monotonic()
        # The menus before a game are the same whatever its seed.
        menus = FIRST_START + SETUP
        self.menus = expected_run(self.args.repo, self.source, 0, menus)
        self.settle()
        c.check(
            self.panel.display_on and self.panel.picture() == self.menus["start"],
            "the first screen reached the panel over I2C (decoded from the stub's write log) "
            "and is the laptop's",
            f"{diff_pictures(self.panel.picture(), self.menus['start'])}; both in "
            f"{self.write_pictures(0, self.menus['start'])}",
        )
        if self.play(menus, self.menus["frames"]) is None:
            return
        # The next press deals a game from the device's own random seed; the
        # game is committed before the screen, so its header names the seed.
        timed = self.timed_press("select", None)
        if timed is None:
            c.check(False, "the press that deals the game reached the panel")
            return
        header = self.snapshot()["game"][:1]
        seed = json.loads(header[0])["seed"] if header else None
        if not c.check(seed is not None, "the dealing press saved the game's header first"):
            return
        inputs = menus + ["select"] * CLEAN_GAME_SELECTS
        expected = expected_run(self.args.repo, self.source, seed, inputs)
        dealt = len(menus)
        c.check(
            expected["frames"][:dealt] == self.menus["frames"]
            and self.wait_for(expected["frames"][dealt]),
            "the dealt game's first screen is the laptop's for the same seed",
            diff_pictures(self.panel.picture(), expected["frames"][dealt]),
        )
        dealing = {**self.snapshot(), "latency": timed}
        rest = self.play(inputs[dealt + 1 :], expected["frames"][dealt + 1 :], first=dealt + 2)
        if rest is None:
            return
        snapshots = [dealing, *rest]
        latencies = [snap["latency"] for snap in snapshots]
        c.check(
            True,
            f"each of the {len(inputs)} presses showed the laptop's screen for it before the next "
            f"(release to frame: median {statistics.median(latencies):.1f} s, "
            f"longest {max(latencies):.1f} s)",
        )
        game = snapshots[-1]["game"]
        first_game = expected["first_game"]
        lengths = [len(snap["game"]) for snap in snapshots]
        differ = [
            f"press {number}: {got} lines, the laptop {want}"
            for number, (got, want) in enumerate(
                zip(lengths, expected["game_lengths"][dealt:], strict=True), start=dealt + 1
            )
            if got != want
        ]
        c.check(
            not differ,
            "after every press the saved game has as many lines as the laptop's",
            "; ".join(differ[:5]),
        )
        c.check(
            bool(game)
            and game == first_game[: len(game)]
            and len(game) == expected["game_lengths"][-1],
            f"the game in {DATABASE} is the game as scripted ({len(game) - 1} actions)",
            f"got {len(game)} lines, expected {expected['game_lengths'][-1]}",
        )
        # A watchdog that was not fed kills the service within 1.5 periods
        # of its start: the same process must still be there after them.
        elapsed = time.monotonic() - started
        age = self.outlive_watchdog()
        after = self.service()
        fired = self.watchdog_fired()
        c.check(
            after.get("MainPID") == state.get("MainPID")
            and not fired
            and after.get("ActiveState") == "active",
            f"the watchdog was fed: the same process served the whole game ({elapsed:.0f} s) "
            f"and ran {age:.0f} s after READY=1, 1.5 x WatchdogSec, without a restart",
            fired or str(after),
        )
        self.reference = expected_game_for(self.args.repo, self.source, game)

    def timed_press(self, name: str, want: str | None) -> float | None:
        """press_until, and the seconds from the release to the frame (None: no frame)."""
        if not self.press_until(name, want):
            return None
        return time.monotonic() - self.released_at

    def power_cuts(self, count: int) -> None:
        c = self.checks
        lost = 0
        prefix_broken = 0
        no_resume = 0
        moments = {BEFORE_WRITE: 0, DURING_WRITE: 0, AFTER_FRAME: 0}
        watchdog: list[str] = []
        for number in range(1, count + 1):
            # Play on with "select", then one last press and the cut a random
            # moment after its release.
            confirmed = self.snapshot()["game"]
            for _ in range(self.rng.randint(0, 3)):
                if self.press_until("select", None):
                    confirmed = self.snapshot()["game"]
            fired = self.watchdog_fired()
            if fired:
                watchdog.append(f"boot before cut {number}: {fired}")
            delay, before = self.press_then_pause()
            # One look at both (a round trip less), then the cut at once.
            database, wal, log = self.guest.reads(*DATABASE_FILES, (PANEL_LOG, self.panel_offset))
            self.guest.cut()
            self.panel_offset += self.panel.feed(log or b"")
            written = game_lines(database, wal)
            shown = self.panel.picture() != before
            # The game is committed before the screen: a line whose frame
            # reached the panel was confirmed to the player.
            if shown:
                confirmed = written if len(written) > len(confirmed) else confirmed
                moment = AFTER_FRAME
            else:
                moment = DURING_WRITE if len(written) > len(confirmed) else BEFORE_WRITE
            moments[moment] += 1
            state, on_disk = self.power_on()
            active = state.get("ActiveState") == "active"
            kept = on_disk[: len(confirmed)] == confirmed
            if on_disk and on_disk[0] != (self.reference or [""])[0]:
                # A game started after the last check: its own reference.
                self.reference = expected_game_for(self.args.repo, self.source, on_disk)
            reference_prefix = on_disk == self.reference[: len(on_disk)]
            problems = [
                problem
                for problem, found in (
                    ("the service did not come back", not active),
                    ("confirmed lines lost", not kept),
                    ("not the scripted game", not reference_prefix),
                )
                if found
            ]
            status = f"FAIL ({', '.join(problems)})" if problems else "ok"
            print(
                f"      cut {number}/{count} {delay:.2f} s after a release, {moment}: "
                f"{len(confirmed)} game log lines confirmed on the panel, "
                f"{len(written)} committed, "
                f"{len(on_disk)} on disk after the reboot; "
                f"service {state.get('ActiveState')}: {status}",
                flush=True,
            )
            lost += not kept
            prefix_broken += not reference_prefix
            no_resume += not active
            if not active:
                (self.work / f"cut-{number}.log").write_text(self.last_log())
                break
            if len(on_disk) - 1 >= RESTART_AFTER_ACTIONS:
                self.new_game()
        c.check(
            no_resume == 0,
            f"the service came back after every power cut ({count} cuts)",
            f"{no_resume} did not: {self.last_log()}",
        )
        c.check(
            lost == 0,
            f"no confirmed action lost in {count} power cuts ({moments[BEFORE_WRITE]} "
            f"{BEFORE_WRITE}, {moments[DURING_WRITE]} {DURING_WRITE}, "
            f"{moments[AFTER_FRAME]} {AFTER_FRAME})",
            f"{lost} cuts lost confirmed actions",
        )
        c.check(
            prefix_broken == 0,
            "after every cut the game on disk is the scripted game, cut short at most",
            f"{prefix_broken} cuts left a different or damaged game",
        )
        age = self.outlive_watchdog()
        fired = self.watchdog_fired()
        if fired:
            watchdog.append(f"last boot: {fired}")
        c.check(
            not watchdog,
            f"the watchdog never fired: NRestarts=0 and no 'Watchdog timeout' in the journal "
            f"of each of the {count + 1} boots (the last one {age:.0f} s after READY=1)",
            "; ".join(watchdog),
        )

    def press_then_pause(self) -> tuple[float, str | None]:
        """Press select, then wait a random moment of up to CUT_WINDOW from the release:
        when a cut or a card failure lands. The pause, and the picture before the press."""
        delay = self.rng.uniform(0, CUT_WINDOW)
        before = self.panel.picture()
        steps = press(SWITCH)
        steps[-1][2] = 0  # the delay runs from the release itself
        self.guest.pulls(steps)
        time.sleep(delay)
        return delay, before

    def power_on(self) -> tuple[dict, list[str]]:
        """Boot after a cut: the service's state once it is up, and the game on the disk."""
        self.boot()
        state = self.wait_active()
        self.settle()
        return state, self.snapshot()["game"]

    def read_only_card(self, rounds: int) -> None:
        """The card fails into read-only mid-game: ext4 meets an error (set off
        through its trigger_fs_error) and, mounted errors=remount-ro as on
        Raspberry Pi OS, stops taking writes, a random moment 0-0.5 s after the
        release of a press. The next press that changes the game must tell the
        player that it was not saved. What the panel had shown as done and the
        card lost is measured (a figure, not a check: no program can keep what
        the kernel said it wrote and then dropped), after a power cut and a
        reboot."""
        told = lost = 0
        title = self.menus["not_saved_title"]
        for number in range(1, rounds + 1):
            confirmed = self.snapshot()["game"]
            delay, before = self.press_then_pause()
            self.guest.sh(f"echo 1 > {FS_ERROR_TRIGGER}")
            # Linux 6.6 on shuts ext4 down at an error instead of marking it
            # read-only: every open fails (EIO), so no program starts; the
            # agent, already running, is asked for a file.
            state = "read-only" if readable(self.guest, "/etc/hostname") else "shut down (EIO)"
            if self.wait_for(None, before):
                shown = self.snapshot()["game"] if state == "read-only" else []
                if len(shown) > len(confirmed):
                    confirmed = shown
            # The presses through the step cards save only which card shows
            # (not announced if refused); the next that changes the game tells.
            presses = 0
            shows_notice = False
            while not shows_notice and presses < NOTICE_WITHIN:
                self.press_until("select", None)
                self.settle()
                presses += 1
                shows_notice = (self.panel.picture() or "").startswith(title)
            pictures = self.write_pictures(f"read-only-{number}", None)
            self.guest.cut()
            service, on_disk = self.power_on()
            kept = on_disk[: len(confirmed)] == confirmed
            told += shows_notice
            lost += not kept
            print(
                f"      read-only {number}/{rounds} {delay:.2f} s after a release: card {state}; "
                f"{f'press {presses} after it showed' if shows_notice else 'NO press showed'} "
                f"'Not saved' (panel in {pictures}); {len(confirmed)} game log lines shown "
                f"as done, {len(on_disk)} on the card after a cut and a reboot "
                f"({'kept' if kept else 'LOST'}); service {service.get('ActiveState')}",
                flush=True,
            )
        self.checks.check(
            told == rounds,
            f"after the card failed, the next press that changes the game (within "
            f"{NOTICE_WITHIN}) showed 'Not saved' on the panel "
            f"({told} of {rounds}; shown as done and lost: {lost} of {rounds})",
        )

    def new_game(self) -> None:
        state = f"{DATABASE} {DATABASE}-wal {DATABASE}-shm"
        self.guest.sh(f"systemctl stop {SERVICE} && rm -rf {state} && systemctl start {SERVICE}")
        self.wait_active()
        self.settle()
        for name in SETUP:  # settings.json stays: no question about the language
            self.press_until(name, None)


def seconds(timespan: str) -> float:
    """systemd's printed time span ("30s", "1min 30s", "500ms") in seconds."""
    units = {"min": 60, "s": 1, "ms": 1e-3, "us": 1e-6}
    return sum(
        float(amount) * units[unit] for amount, unit in re.findall(r"(\d+)(min|ms|us|s)", timespan)
    )


MUTANTS = {
    "no_watchdog_ping": (
        "companion/daemon/notify.py",
        'return self.notify(WATCHDOG="1")',
        "return True",
    ),
    "synchronous_off": (
        "companion/storage/database.py",
        'SYNCHRONOUS = "FULL"',
        'SYNCHRONOUS = "OFF"',
    ),
}
"""The builds the checks must catch, each one line of the program changed: a daemon
that never sends WATCHDOG=1, a store that commits without waiting for the card."""


def readable(guest: Guest, path: str) -> bool:
    """False if the guest's kernel refuses to read `path` (EIO: Linux 6.6 on shuts ext4
    down at an error); any other failure of the agent is raised."""
    try:
        guest.read(path)
    except GuestError as error:
        if "[Errno 5]" not in str(error):
            raise
        return False
    return True


def mutate(source: Path, mutant: str) -> None:
    name, line, instead = MUTANTS[mutant]
    path = source / name
    text = path.read_text()
    if text.count(line) != 1:
        sys.exit(f"virtual-pi: --{mutant.replace('_', '-')} found no '{line}' in {path}")
    path.write_text(text.replace(line, instead))


def game_lines(database: bytes | None, wal: bytes | None) -> list[str]:
    """The game in progress in a copy of the store's files (its game log's lines: the
    header, then one per confirmed action); [] without one.

    A copy, opened on the host: the device's process holds its database
    exclusively. SQLite reads the copied WAL's committed transactions as it
    would at the device's next start, and nothing of a transaction not committed.
    """
    if not database:
        return []
    with tempfile.TemporaryDirectory(prefix="virtual-pi-store-") as folder:
        copy = Path(folder) / "companion.db"
        copy.write_bytes(database)
        if wal:
            copy.with_name("companion.db-wal").write_bytes(wal)
        connection = sqlite3.connect(copy)
        try:
            header = connection.execute("SELECT header FROM current_game").fetchone()
            moves = connection.execute("SELECT line FROM moves ORDER BY number").fetchall()
        except sqlite3.DatabaseError:
            return []
        finally:
            connection.close()
    return [header[0], *(line for (line,) in moves)] if header else []


def as_text(picture: str | None) -> str:
    """A picture as lines of '#' and '.', to look at when a check fails."""
    if picture is None:
        return "no picture\n"
    rows = [picture[y * 128 : (y + 1) * 128] for y in range(64)]
    return "".join(row.replace("1", "#").replace("0", ".") + "\n" for row in rows)


def last_lines(text: str, count: int = 3) -> str:
    return " | ".join(text.strip().splitlines()[-count:])


def diff_pictures(got, expected) -> str:
    if got is None or expected is None:
        return "no picture"
    return f"{sum(a != b for a, b in zip(got, expected, strict=False))} pixels differ"


def expected_run(repo: Path, source: Path, seed: int, inputs: list[str]) -> dict:
    """The laptop companion's screens and saved game for `inputs` (see expected.py),
    from the copy of the checkout the guest installed (with the repository's .venv):
    the checkout may change while a run goes on."""
    done = subprocess.run(
        [str(repo / ".venv/bin/python"), str(source / "scripts/virtual-pi/expected.py")]
        + [str(seed), *inputs],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(source)},
    )
    return json.loads(done.stdout)


def expected_game_for(repo: Path, source: Path, game: list[str]) -> list[str]:
    """The game that "select" alone plays from the scripted set-up (with the seed
    of `game`'s header), far enough for every cut before a new game."""
    seed = json.loads(game[0]).get("seed") if game else None
    if seed is None:
        return []
    presses = FIRST_START + SETUP + ["select"] * (DEAL_SELECTS + 1 + 2 * RESTART_AFTER_ACTIONS + 20)
    return expected_run(repo, source, seed, presses)["first_game"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--image", type=Path, required=True)
    parser.add_argument("--wheels", type=Path, required=True)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--ci", action="store_true", help="a handful of power cuts (3)")
    parser.add_argument("--cuts", type=int, help="power cuts (default 50, 3 with --ci)")
    parser.add_argument("--seed", type=int, default=None, help="the cut moments' random seed")
    parser.add_argument(
        "--read-only", type=int, default=1, help="times the card fails into read-only (default 1)"
    )
    parser.add_argument(
        "--synchronous-off",
        action="store_true",
        help="install a mutant whose store commits with synchronous=OFF (must fail)",
    )
    parser.add_argument(
        "--no-watchdog-ping",
        action="store_true",
        help="install a mutant that never sends WATCHDOG=1 (must fail)",
    )
    parser.add_argument(
        "--accel", default=None, help="kvm or tcg (default: kvm if it boots, else tcg)"
    )
    parser.add_argument("--arch", choices=("amd64", "arm64"), default="amd64")
    parser.add_argument("--release", choices=("12", "13"), default="12")
    args = parser.parse_args()
    if args.seed is None:
        args.seed = random.randrange(1 << 30)
    cuts = args.cuts if args.cuts is not None else (3 if args.ci else 50)
    print(
        f"virtual Pi ({args.arch}, Debian {args.release}): {cuts} power cuts, seed {args.seed}"
        + (", store with synchronous=OFF" if args.synchronous_off else "")
        + (", program WITHOUT watchdog pings" if args.no_watchdog_ping else ""),
        flush=True,
    )
    pi = VirtualPi(args)
    started = time.monotonic()
    try:
        pi.accel = args.accel or ("tcg" if args.arch == "arm64" else choose_accel(args))
        pi.prepare()
        pi.boot()
        pi.checks.check(
            True,
            f"the {args.arch} guest boots Debian {args.release}'s kernel and systemd "
            f"({pi.accel.upper()})",
        )
        if pi.install():
            state = pi.service_checks()
            if state.get("ActiveState") == "active":
                pi.clean_game(state)
                pi.power_cuts(cuts)
                pi.read_only_card(args.read_only)
                pi.uninstall()
    except (GuestError, TimeoutError, subprocess.CalledProcessError) as error:
        pi.checks.check(False, "the virtual Pi ran to the end", str(error))
    finally:
        if pi.guest is not None:
            pi.guest.cut()
    print(
        f"      ({time.monotonic() - started:.0f} s; the longest contact bounce lasted "
        f"{pi.longest_bounce * 1000:.0f} ms in the guest, the debounce time is 20 ms; "
        f"serial console: {args.work / 'console.log'})"
    )
    print(f"{pi.checks.passed} passed, {pi.checks.failed} failed")
    return 1 if pi.checks.failed else 0


def choose_accel(args: argparse.Namespace) -> str:
    """KVM only where it really boots this kernel (a probe, remembered in the cache)."""
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return "tcg"
    memo = args.work.parent / "accel"
    if memo.exists():
        return memo.read_text().strip()
    probe = subprocess.run(
        ["timeout", "30", "qemu-system-x86_64", "-accel", "kvm", "-m", "512"]
        + ["-kernel", str(args.image / "vmlinuz"), "-initrd", str(args.image / "initrd.img")]
        + ["-append", "console=ttyS0 panic=-1 rdinit=/bin/false", "-serial", "stdio"]
        + ["-display", "none", "-no-reboot", "-nic", "none"],
        capture_output=True,
        text=True,
    )
    accel = "kvm" if "Run /bin/false" in probe.stdout or "Kernel panic" in probe.stdout else "tcg"
    memo.write_text(accel)
    return accel


if __name__ == "__main__":
    sys.exit(main())
