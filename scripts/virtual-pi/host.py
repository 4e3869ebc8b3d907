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
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from panel import Panel  # noqa: E402

STATE_DIR = "/var/lib/patchwork-companion"
PANEL_LOG = "/sys/kernel/debug/i2c-stub-writes"
"""Every write that reached i2c-stub's chip (our addition to the driver)."""
SERVICE = "patchwork-companion.service"
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
BOOT_TIMEOUT = 240
READY_TIMEOUT = 240
QUIET = 1.0
"""Seconds without a new picture after which the first screen of a boot counts as settled."""
FRAME_TIMEOUT = 90
"""Seconds a press may take to reach the panel: generous, TCG on a loaded host is slow;
it is only ever waited in full when the device went wrong."""
POLL = 0.1
CUT_WINDOW = 0.5
"""A cut lands up to this many seconds after the release of the press before it:
before, during or after the journal write the press causes (press to frame takes
0.05-0.3 s under TCG)."""
# Where a power cut landed, from the press it follows.
BEFORE_WRITE = "before its journal write"
DURING_WRITE = "after its journal write, before its frame"
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
            # -cpu max: the wheels (Pillow's) use x86-64-v2 instructions that
            # TCG's default CPU model lacks (SIGILL at import).
            "qemu-system-x86_64",
            "-accel",
            accel,
            "-cpu",
            "max",
            "-m",
            "1024",
            "-smp",
            "2",
            "-kernel",
            str(args.image / "vmlinuz"),
            "-initrd",
            str(args.image / "initrd.img"),
            "-append",
            # The PC's own SMBus (i2c_piix4) stays out: otherwise the stub's bus
            # number depends on which driver loads first, boot after boot.
            "root=/dev/vda rw console=ttyS0 panic=1 quiet systemd.show_status=1 "
            "modprobe.blacklist=i2c_piix4",
            # cache=unsafe: qemu ignores the guest's flushes towards the host's
            # disk; the guest's own page cache is still lost when qemu is
            # killed, which is the power cut under test (the host never crashes).
            "-drive",
            f"file={work / 'disk.raw'},format=raw,if=virtio,cache=unsafe",
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
        self.guest: Guest | None = None
        self.panel = Panel()
        self.panel_offset = 0
        self.rng = random.Random(args.seed)
        self.longest_bounce = self.last_bounce = 0.0
        self.released_at = 0.0
        self.reference: list[str] = []
        self.menus: dict = {}
        self.accel = args.accel

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
        source = share / "source"
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
        if self.args.no_fsync:
            mutate_without_fsync(source)
        subprocess.run(
            [
                "cp",
                "--sparse=always",
                str(self.args.image / "disk.raw"),
                str(self.work / "disk.raw"),
            ],
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
        journal = self.guest.read(f"{STATE_DIR}/journal.jsonl")
        return {"journal": journal_lines(journal), "frame": self.panel.picture()}

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
        started = time.monotonic()
        result = guest.run(
            "env",
            "PIP_NO_INDEX=1",
            "PIP_FIND_LINKS=/mnt/virtual-pi/wheels",
            "/root/patchwork-companion/systemd/install.sh",
            "--profile",
            "/root/virtual-pi.toml",
            "--firmware",
            "sh1106-encoder",
            timeout=900,
        )
        (self.work / "install.log").write_text(result["out"] + result["err"])
        took = time.monotonic() - started
        print(f"      (install.sh took {took:.0f} s; output in {self.work / 'install.log'})")
        ok = c.check(
            result["rc"] == 0,
            "systemd/install.sh succeeds on Debian 12 without network",
            last_lines(result["out"] + result["err"]),
        )
        c.check(
            "config.txt" in result["out"] and "not a Raspberry Pi" in result["out"],
            "install.sh says it found no config.txt to edit",
        )
        c.check(
            "lgpio" in result["out"] and "PyPI" in result["out"],
            "install.sh says it takes lgpio from PyPI (no python3-lgpio in Debian 12)",
        )
        return ok

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
        return state

    def last_log(self) -> str:
        return last_lines(
            self.guest.sh(f"journalctl -b -u {SERVICE} --no-pager | tail -n 5")["out"]
        )

    def play(
        self, inputs: list[str], frames: list[str | None], first: int = 1
    ) -> list[dict] | None:
        """Press each input once its frame before is on the panel; the journal after each,
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
        self.menus = expected_run(self.args.repo, 0, menus)
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
        # journal is written before the screen, so its header names the seed.
        timed = self.timed_press("select", None)
        if timed is None:
            c.check(False, "the press that deals the game reached the panel")
            return
        header = journal_lines(self.guest.read(f"{STATE_DIR}/journal.jsonl"))[:1]
        seed = json.loads(header[0])["seed"] if header else None
        if not c.check(seed is not None, "the dealing press wrote the journal's header first"):
            return
        inputs = menus + ["select"] * CLEAN_GAME_SELECTS
        expected = expected_run(self.args.repo, seed, inputs)
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
        journal = snapshots[-1]["journal"]
        first_game = expected["first_game"]
        lengths = [len(snap["journal"]) for snap in snapshots]
        differ = [
            f"press {number}: {got} lines, the laptop {want}"
            for number, (got, want) in enumerate(
                zip(lengths, expected["journal_lengths"][dealt:], strict=True), start=dealt + 1
            )
            if got != want
        ]
        c.check(
            not differ,
            "after every press the journal has as many lines as the laptop's",
            "; ".join(differ[:5]),
        )
        c.check(
            bool(journal)
            and journal == first_game[: len(journal)]
            and len(journal) == expected["journal_lengths"][-1],
            f"the journal in {STATE_DIR} is the game as scripted ({len(journal) - 1} actions)",
            f"got {len(journal)} lines, expected {expected['journal_lengths'][-1]}",
        )
        # A watchdog that was not fed would have killed it (WatchdogSec=30)
        # during the game: the same process must still be there.
        after = self.service()
        elapsed = time.monotonic() - started
        c.check(
            after.get("MainPID") == state.get("MainPID")
            and after.get("NRestarts") == "0"
            and after.get("ActiveState") == "active",
            f"the watchdog was fed: the same process served the whole game ({elapsed:.0f} s)",
            str(after),
        )
        self.reference = expected_journal_for(self.args.repo, journal)

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
        for number in range(1, count + 1):
            # Play on with "select", then one last press and the cut a random
            # moment after its release.
            confirmed = self.snapshot()["journal"]
            for _ in range(self.rng.randint(0, 3)):
                if self.press_until("select", None):
                    confirmed = self.snapshot()["journal"]
            delay = self.rng.uniform(0, CUT_WINDOW)
            before = self.panel.picture()
            steps = press(SWITCH)
            steps[-1][2] = 0  # the delay runs from the release itself
            self.guest.pulls(steps)
            time.sleep(delay)
            # One look at both (a round trip less), then the cut at once.
            journal, log = self.guest.reads(
                (f"{STATE_DIR}/journal.jsonl", 0), (PANEL_LOG, self.panel_offset)
            )
            self.guest.cut()
            self.panel_offset += self.panel.feed(log or b"")
            written = journal_lines(journal)
            shown = self.panel.picture() != before
            # The journal goes to disk before the screen: a line whose frame
            # reached the panel was confirmed to the player.
            if shown:
                confirmed = written if len(written) > len(confirmed) else confirmed
                moment = AFTER_FRAME
            else:
                moment = DURING_WRITE if len(written) > len(confirmed) else BEFORE_WRITE
            moments[moment] += 1
            self.boot()
            state = self.wait_active()
            active = state.get("ActiveState") == "active"
            self.settle()
            on_disk = journal_lines(self.guest.read(f"{STATE_DIR}/journal.jsonl"))
            kept = on_disk[: len(confirmed)] == confirmed
            if on_disk and on_disk[0] != (self.reference or [""])[0]:
                # A game started after the last check: its own reference.
                self.reference = expected_journal_for(self.args.repo, on_disk)
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
                f"{len(confirmed)} journal lines confirmed on the panel, {len(written)} written, "
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
            "after every cut the journal on disk is the scripted game, cut short at most",
            f"{prefix_broken} cuts left a different or damaged journal",
        )

    def new_game(self) -> None:
        state = f"{STATE_DIR}/journal.jsonl {STATE_DIR}/progress.json {STATE_DIR}/history"
        self.guest.sh(f"systemctl stop {SERVICE} && rm -rf {state} && systemctl start {SERVICE}")
        self.wait_active()
        self.settle()
        for name in SETUP:  # settings.json stays: no question about the language
            self.press_until(name, None)


def mutate_without_fsync(source: Path) -> None:
    """The mutant that must fail: every os.fsync in the program does nothing."""
    changed = 0
    for path in (source / "companion").rglob("*.py"):
        text = path.read_text()
        if "os.fsync(" in text:
            path.write_text(text.replace("os.fsync(", "(lambda _fd: None)("))
            changed += 1
    if not changed:
        sys.exit("virtual-pi: --no-fsync found no os.fsync( in companion/ to remove")


def journal_lines(data: bytes | None) -> list[str]:
    if not data:
        return []
    lines = data.decode(errors="replace").split("\n")
    # A last line without its newline was being written: not part of the game.
    return [line for line in lines[:-1] if line.strip()]


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


def expected_run(repo: Path, seed: int, inputs: list[str]) -> dict:
    """The laptop companion's screens and journal for `inputs` (see expected.py)."""
    done = subprocess.run(
        [str(repo / ".venv/bin/python"), str(HERE / "expected.py"), str(seed), *inputs],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout)


def expected_journal_for(repo: Path, journal: list[str]) -> list[str]:
    """The game that "select" alone plays from the scripted set-up (with the seed
    of `journal`'s header), far enough for every cut before a new game."""
    seed = json.loads(journal[0]).get("seed") if journal else None
    if seed is None:
        return []
    presses = FIRST_START + SETUP + ["select"] * (DEAL_SELECTS + 1 + 2 * RESTART_AFTER_ACTIONS + 20)
    return expected_run(repo, seed, presses)["first_game"]


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
        "--no-fsync", action="store_true", help="install a mutant without fsync (must fail)"
    )
    parser.add_argument(
        "--accel", default=None, help="kvm or tcg (default: kvm if it boots, else tcg)"
    )
    args = parser.parse_args()
    if args.seed is None:
        args.seed = random.randrange(1 << 30)
    cuts = args.cuts if args.cuts is not None else (3 if args.ci else 50)
    print(
        f"virtual Pi: {cuts} power cuts, seed {args.seed}"
        + (", program WITHOUT fsync" if args.no_fsync else ""),
        flush=True,
    )
    pi = VirtualPi(args)
    started = time.monotonic()
    try:
        pi.accel = args.accel or choose_accel(args)
        pi.prepare()
        pi.boot()
        pi.checks.check(
            True, f"the guest boots Debian 12's kernel and systemd ({pi.accel.upper()})"
        )
        if pi.install():
            state = pi.service_checks()
            if state.get("ActiveState") == "active":
                pi.clean_game(state)
                pi.power_cuts(cuts)
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
