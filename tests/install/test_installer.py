"""systemd/install.sh, run for real against a temporary root with stub commands.

The stubs (small Python scripts in a temporary bin directory put first on
PATH) log their arguments and imitate just enough of the system for the
installer's checks to see its own earlier work: getent reads the root's
etc/passwd and etc/group, useradd/userdel/groupadd/usermod edit them,
`python3 -m venv` makes a venv-shaped directory whose pip records what it
installed, and systemctl enable/disable manage the wants/ link.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALLER = REPO / "systemd" / "install.sh"
UNIT = REPO / "systemd" / "patchwork-companion.service"
BEGIN = "# BEGIN patchwork-companion"
END = "# END patchwork-companion"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")

ORIGINAL_CONFIG = textwrap.dedent(
    """\
    # For more options and information see
    # http://rptl.io/configtxt
    dtparam=audio=on
    camera_auto_detect=1
    display_auto_detect=1
    auto_initramfs=1
    dtoverlay=vc4-kms-v3d
    max_framebuffers=2
    arm_64bit=1

    [cm4]
    otg_mode=1

    [all]
    """
)
ORIGINAL_GROUPS = "root:x:0:\ngpio:x:997:\ni2c:x:998:\ndialout:x:20:\n"
ORIGINAL_PASSWD = "root:x:0:0:root:/root:/bin/bash\n"

# A stub starts at each call, some fifteen times per installer run: that start-up is most of
# these tests' time. So the stubs skip site (-S) and use os.path, not pathlib (whose
# imports alone take longer than the rest of a stub).
STUB_HEADER = f"#!{sys.executable} -S\n" + textwrap.dedent(
    """\
    import os, sys
    root = os.environ["ROOT"]
    name = os.path.basename(sys.argv[0])
    args = sys.argv[1:]
    with open(os.environ["STUB_LOG"], "a") as log:
        log.write(" ".join([name, *args]) + "\\n")

    def read(path):
        with open(path) as f:
            return f.read()

    def write(path, text, mode="w"):
        with open(path, mode) as f:
            f.write(text)
    """
)

STUBS = {
    "apt-get": "",
    # Every package has a candidate, as on Raspberry Pi OS, except those
    # the test names in STUB_APT_MISSING (python3-lgpio on plain Debian).
    "apt-cache": """
        missing = os.environ.get("STUB_APT_MISSING", "").split()
        if args[0] == "policy" and args[1] not in missing:
            print(f"{args[1]}:\\n  Installed: (none)\\n  Candidate: 2.2-1")
        elif args[0] == "policy":
            print(f"{args[1]}:\\n  Installed: (none)\\n  Candidate: (none)")
        """,
    # An arm64 system, as Raspberry Pi OS (64-bit), unless the test names another.
    "dpkg": """
        assert args == ["--print-architecture"], args
        print(os.environ.get("STUB_DPKG_ARCH", "arm64"))
        """,
    "modprobe": "",
    "udevadm": "",
    "sync": "",
    "getent": """
        database, key = args
        path = os.path.join(root, "etc", "passwd" if database == "passwd" else "group")
        lines = read(path).splitlines() if os.path.exists(path) else []
        found = [line for line in lines if line.split(":")[0] == key]
        print(*found, sep="\\n") if found else None
        sys.exit(0 if found else 2)
        """,
    "useradd": """
        user = args[-1]
        home = args[args.index("--home-dir") + 1]
        shell = args[args.index("--shell") + 1]
        write(os.path.join(root, "etc", "passwd"), f"{user}:x:999:999::{home}:{shell}\\n", "a")
        write(os.path.join(root, "etc", "group"), f"{user}:x:999:\\n", "a")
        """,
    "userdel": """
        user = args[-1]
        for name in ("passwd", "group"):
            path = os.path.join(root, "etc", name)
            lines = read(path).splitlines(keepends=True)
            kept = []
            for line in lines:
                fields = line.rstrip("\\n").split(":")
                if fields[0] == user:
                    continue
                if name == "group":
                    members = [m for m in fields[3].split(",") if m and m != user]
                    line = ":".join([*fields[:3], ",".join(members)]) + "\\n"
                kept.append(line)
            write(path, "".join(kept))
        """,
    "groupadd": """
        write(os.path.join(root, "etc", "group"), f"{args[-1]}:x:996:\\n", "a")
        """,
    "usermod": """
        user = args[-1]
        groups = args[args.index("--groups") + 1].split(",")
        path = os.path.join(root, "etc", "group")
        out = []
        for line in read(path).splitlines():
            fields = line.split(":")
            members = [m for m in fields[3].split(",") if m]
            if fields[0] in groups and user not in members:
                members.append(user)
            out.append(":".join([*fields[:3], ",".join(members)]))
        write(path, "\\n".join(out) + "\\n")
        """,
    "systemctl": """
        wants = os.path.join(root, "etc/systemd/system/multi-user.target.wants")
        link = os.path.join(wants, "patchwork-companion.service")
        if args[0] == "enable":
            os.makedirs(wants, exist_ok=True)
            if not os.path.islink(link):
                os.symlink("/etc/systemd/system/patchwork-companion.service", link)
        elif args[0] == "disable":
            if os.path.lexists(link):
                os.unlink(link)
            if os.path.isdir(wants) and not os.listdir(wants):
                os.rmdir(wants)
        """,
    "python3": """
        assert args[:2] == ["-m", "venv"], args
        venv = args[-1]
        os.makedirs(os.path.join(venv, "bin"), exist_ok=True)
        system = "true" if "--system-site-packages" in args else "false"
        write(
            os.path.join(venv, "pyvenv.cfg"),
            f"home = /usr/bin\\ninclude-system-site-packages = {system}\\n",
        )
        pip = read(os.path.join(os.path.dirname(sys.argv[0]), "pip-in-venv"))
        for tool in ("python", "pip"):
            write(os.path.join(venv, "bin", tool), pip)
            os.chmod(os.path.join(venv, "bin", tool), 0o755)
        """,
    "pip-in-venv": """
        site = os.path.join(os.path.dirname(os.path.dirname(sys.argv[0])), "lib", "site-packages")
        os.makedirs(site, exist_ok=True)
        if args[-1].startswith("/"):
            write(os.path.join(site, "patchwork_companion.installed"), args[-1] + "\\n")
        else:
            words = [a for a in args if not a.startswith("-")]
            write(os.path.join(site, "wheels.installed"), " ".join(words) + "\\n", "a")
        """,
}


@dataclass
class Machine:
    root: Path
    bin: Path
    log: Path

    def run(self, *args: str, check: bool = True, **env: str) -> subprocess.CompletedProcess:
        environment = {
            "PATH": f"{self.bin}:{os.environ['PATH']}",
            "ROOT": str(self.root),
            "STUB_LOG": str(self.log),
            "HOME": str(self.root / "home"),
            **env,
        }
        result = subprocess.run(
            ["bash", str(INSTALLER), *args],
            env=environment,
            capture_output=True,
            text=True,
            timeout=60,
        )
        if check:
            assert result.returncode == 0, result.stdout + result.stderr
        return result

    def calls(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []

    def clear_log(self) -> None:
        self.log.unlink(missing_ok=True)

    def reboot(self) -> None:
        """/run is a tmpfs: a reboot empties it."""
        for path in (self.root / "run").iterdir():
            path.unlink()

    @property
    def config(self) -> Path:
        return self.root / "boot/firmware/config.txt"

    def path(self, absolute: str) -> Path:
        return self.root / absolute.lstrip("/")


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return fresh_machine(tmp_path)


@pytest.fixture(scope="session")
def installed_once(tmp_path_factory: pytest.TempPathFactory) -> Machine:
    """A machine after `install.sh --profile sh1106-encoder`, for `installed` to copy."""
    machine = fresh_machine(tmp_path_factory.mktemp("installed"))
    machine.run("--profile", "sh1106-encoder")
    return machine


@pytest.fixture
def installed(installed_once: Machine, tmp_path: Path) -> Machine:
    """A copy of `installed_once`, stub log included: the same tree as running the
    installer again (which most tests start with) in a fraction of its time."""
    root = tmp_path / "root"
    shutil.copytree(installed_once.root, root, symlinks=True)
    log = tmp_path / "calls.log"
    shutil.copy2(installed_once.log, log)
    return Machine(root=root, bin=installed_once.bin, log=log)


def fresh_machine(tmp_path: Path) -> Machine:
    """A Raspberry Pi OS root with an earlier game, and the stubs."""
    root = tmp_path / "root"
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/config.txt").write_text(ORIGINAL_CONFIG)
    # Bookworm leaves a pointer in the old place: it must not be edited.
    (root / "boot/config.txt").write_text("DO NOT EDIT THIS FILE\n")
    # Directories every Raspberry Pi OS has (and uninstalling must leave).
    for directory in ("etc/systemd/system", "etc/modules-load.d", "etc/udev/rules.d", "opt", "run"):
        (root / directory).mkdir(parents=True)
    (root / "etc/passwd").write_text(ORIGINAL_PASSWD)
    (root / "etc/group").write_text(ORIGINAL_GROUPS)
    # A game from an earlier installation.
    state = root / "var/lib/patchwork-companion"
    state.mkdir(parents=True)
    (state / "journal.jsonl").write_text('{"game": "in progress"}\n')
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in STUBS.items():
        stub = bin_dir / name
        stub.write_text(STUB_HEADER + textwrap.dedent(body))
        stub.chmod(0o755)
    return Machine(root=root, bin=bin_dir, log=tmp_path / "calls.log")


def snapshot(root: Path) -> dict[str, tuple[str, str]]:
    """Every path under root: its kind and mode, and its content or link target."""
    tree: dict[str, tuple[str, str]] = {}
    for path in sorted(root.rglob("*")):
        relative = str(path.relative_to(root))
        mode = stat.S_IMODE(path.lstat().st_mode)
        if path.is_symlink():
            tree[relative] = ("link", os.readlink(path))
        elif path.is_dir():
            tree[relative] = (f"dir {mode:o}", "")
        else:
            tree[relative] = (f"file {mode:o}", path.read_text())
    return tree


def block_of(config: str) -> str:
    assert config.count(BEGIN) == 1, config
    assert config.count(END) == 1, config
    start = config.index(BEGIN)
    return config[start : config.index(END, start) + len(END)]


def test_install_sets_up_everything(machine: Machine):
    result = machine.run("--profile", "sh1106-encoder")

    venv = machine.path("/opt/patchwork-companion/venv")
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    installed = venv / "lib/site-packages/patchwork_companion.installed"
    assert installed.read_text().strip() == str(REPO)
    assert machine.path("/etc/patchwork-companion/env").read_text().splitlines()[-1] == (
        "PROFILE=sh1106-encoder"
    )
    unit = machine.path("/etc/systemd/system/patchwork-companion.service")
    assert unit.read_text() == UNIT.read_text()
    assert stat.S_IMODE(unit.stat().st_mode) == 0o644
    assert machine.path(
        "/etc/systemd/system/multi-user.target.wants/patchwork-companion.service"
    ).is_symlink()
    assert (
        machine.path("/etc/modules-load.d/patchwork-companion.conf")
        .read_text()
        .endswith("i2c-dev\n")
    )

    config = machine.config.read_text()
    assert config.startswith(ORIGINAL_CONFIG)
    block = block_of(config)
    assert block.splitlines()[1] == "[all]"
    assert "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n" in block
    fragment = (REPO / "firmware_configs/sh1106-encoder/config.txt").read_text()
    assert fragment in block
    assert machine.path("/boot/firmware/config.txt.patchwork-companion.bak").read_text() == (
        ORIGINAL_CONFIG
    )
    assert machine.path("/boot/config.txt").read_text() == "DO NOT EDIT THIS FILE\n"

    passwd = machine.path("/etc/passwd").read_text()
    assert "patchwork:x:999:999::/var/lib/patchwork-companion:/usr/sbin/nologin" in passwd
    groups = {
        line.split(":")[0]: line.split(":")[3]
        for line in machine.path("/etc/group").read_text().splitlines()
    }
    for group in ("gpio", "i2c", "spi", "dialout"):
        assert groups[group] == "patchwork", group

    calls = machine.calls()
    assert any(call.startswith("apt-get install -y") and "python3-lgpio" in call for call in calls)
    assert "groupadd --system spi" in calls
    assert any(call.startswith("python3 -m venv --system-site-packages") for call in calls)
    assert "systemctl daemon-reload" in calls
    assert "systemctl enable patchwork-companion.service" in calls
    # config.txt changed: the bus appears only after a reboot, so no start now.
    assert "systemctl restart patchwork-companion.service" not in calls
    assert "reboot" in result.stdout


def test_second_run_changes_nothing(installed: Machine):
    installed.reboot()
    before = snapshot(installed.root)
    installed.clear_log()

    result = installed.run("--profile", "sh1106-encoder")

    assert snapshot(installed.root) == before
    assert installed.config.read_text().count(BEGIN) == 1
    assert "already up to date" in result.stdout
    assert "reboot" not in result.stdout
    calls = installed.calls()
    assert not [call for call in calls if call.split()[0] in ("useradd", "groupadd")]
    assert not [call for call in calls if call.startswith("python3 -m venv")]
    # The program is reinstalled (an upgrade) and the service restarted on it.
    assert any(call.startswith("pip install") and call.endswith(str(REPO)) for call in calls)
    assert "systemctl restart patchwork-companion.service" in calls


def test_what_it_installed_is_on_disk_before_the_service_starts(installed: Machine):
    """The virtual Pi's plug pulled a minute after an install found lgpio.py and its
    library zero-length on disk (still in the page cache), and the service never
    started again."""
    installed.reboot()
    installed.clear_log()
    installed.run("--profile", "sh1106-encoder")
    calls = installed.calls()
    pip = max(i for i, call in enumerate(calls) if call.startswith("pip install"))
    enabled = calls.index("systemctl enable patchwork-companion.service")
    flushed = calls.index("sync")
    assert pip < enabled < flushed < calls.index("systemctl restart patchwork-companion.service")


def test_a_second_run_before_the_reboot_does_not_start_the_service(installed: Machine):
    assert installed.path("/run/patchwork-companion.reboot-required").exists()
    before = snapshot(installed.root)
    installed.clear_log()
    result = installed.run("--profile", "sh1106-encoder")
    assert snapshot(installed.root) == before
    assert "systemctl restart patchwork-companion.service" not in installed.calls()
    assert "reboot to switch the bus on" in result.stdout


def test_a_later_run_keeps_the_installed_profile(machine: Machine):
    machine.run("--profile", "adafruit-oled-bonnet")
    before = snapshot(machine.root)
    result = machine.run()
    assert "Keeping the installed profile: adafruit-oled-bonnet" in result.stdout
    assert snapshot(machine.root) == before


def test_changing_profile_replaces_the_block(installed: Machine):
    installed.run("--profile", "waveshare-oled-hat")

    config = installed.config.read_text()
    block = block_of(config)
    assert "dtparam=spi=on" in block
    assert "i2c_arm" not in block
    assert config.startswith(ORIGINAL_CONFIG)
    assert not installed.path("/etc/modules-load.d/patchwork-companion.conf").exists()
    assert (
        "PROFILE=waveshare-oled-hat" in installed.path("/etc/patchwork-companion/env").read_text()
    )
    # luma's SPI interface needs the RPi.GPIO API, from lgpio rather than /dev/gpiomem.
    apt = [call for call in installed.calls() if call.startswith("apt-get install")]
    assert "python3-rpi-lgpio" not in apt[0]
    assert apt[-1].endswith("python3-rpi-lgpio")


def test_uninstall_removes_everything_but_the_games(machine: Machine):
    original = snapshot(machine.root)
    machine.run("--profile", "serial-pad")
    machine.run("--profile", "serial-pad")
    machine.clear_log()

    result = machine.run("--uninstall")

    after = snapshot(machine.root)
    # The one trace left is the group the installer had to create.
    assert after.pop("etc/group") == ("file 644", ORIGINAL_GROUPS + "spi:x:996:\n")
    original.pop("etc/group")
    assert after == original
    assert machine.config.read_text() == ORIGINAL_CONFIG
    assert (machine.root / "var/lib/patchwork-companion/journal.jsonl").exists()
    assert "Kept your games in /var/lib/patchwork-companion" in result.stdout
    calls = machine.calls()
    assert "systemctl disable --now patchwork-companion.service" in calls
    assert "userdel patchwork" in calls  # not --remove: its home is the games


def test_uninstall_twice_and_on_a_clean_machine(machine: Machine):
    original = snapshot(machine.root)
    machine.run("--uninstall")
    machine.run("--uninstall")
    assert snapshot(machine.root) == original
    assert not [call for call in machine.calls() if call.startswith("userdel")]


def test_a_block_is_appended_under_all_even_after_a_model_section(machine: Machine):
    machine.config.write_text("dtparam=audio=on\n[pi4]\narm_boost=1")  # no final newline
    machine.run("--profile", "ssd1306-buttons")
    config = machine.config.read_text()
    assert config.startswith("dtparam=audio=on\n[pi4]\narm_boost=1\n")
    assert block_of(config).splitlines()[1] == "[all]"
    before = snapshot(machine.root)
    machine.run("--profile", "ssd1306-buttons")
    assert snapshot(machine.root) == before


def test_block_is_replaced_where_it_stands(installed: Machine):
    installed.config.write_text(installed.config.read_text() + "dtoverlay=mine\n")
    installed.run("--profile", "waveshare-oled-hat")
    config = installed.config.read_text()
    assert config.endswith(END + "\ndtoverlay=mine\n")
    assert "dtparam=spi=on" in block_of(config)


def test_older_releases_use_boot_config_txt(machine: Machine):
    shutil.rmtree(machine.root / "boot/firmware")
    (machine.root / "boot/config.txt").write_text("dtparam=audio=on\n")
    machine.run("--profile", "sh1106-encoder")
    assert "dtparam=i2c_arm=on" in block_of((machine.root / "boot/config.txt").read_text())


def test_no_config_txt_is_reported_not_fatal(machine: Machine):
    shutil.rmtree(machine.root / "boot")
    result = machine.run("--profile", "sh1106-encoder")
    assert "no config.txt found" in result.stdout
    assert machine.path("/etc/systemd/system/patchwork-companion.service").exists()


def test_a_profile_file_is_copied_and_needs_a_firmware_fragment(machine: Machine, tmp_path: Path):
    mine = tmp_path / "my-box.toml"
    mine.write_text('name = "my-box"\n')
    refused = machine.run("--profile", str(mine), check=False)
    assert refused.returncode != 0
    assert "--firmware" in refused.stderr

    machine.run("--profile", str(mine), "--firmware", "ssd1306-buttons")
    etc = machine.path("/etc/patchwork-companion")
    assert (etc / "profile.toml").read_text() == 'name = "my-box"\n'
    assert "PROFILE=/etc/patchwork-companion/profile.toml" in (etc / "env").read_text()
    before = snapshot(machine.root)
    machine.run()  # keeps the file and its fragment
    assert snapshot(machine.root) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "--profile is required"),
        (("--profile", "simulation"), "simulation profile is for a computer"),
        (("--profile", "no-such-build"), "unknown profile 'no-such-build'"),
        (("--bogus",), "unknown option"),
        (("--profile", "sh1106-encoder", "--source", "/"), "not a Patchwork Companion checkout"),
    ],
)
def test_refusals_change_nothing(machine: Machine, args, message):
    before = snapshot(machine.root)
    result = machine.run(*args, check=False)
    assert result.returncode != 0
    assert message in result.stderr
    assert snapshot(machine.root) == before
    # At most the question of which system this is: it changes nothing.
    assert machine.calls() in ([], ["dpkg --print-architecture"])


@pytest.mark.parametrize("arch", ["armhf", "armel"])
def test_a_32_bit_system_is_told_to_use_the_64_bit_image_at_once(machine: Machine, arch):
    before = snapshot(machine.root)
    result = machine.run("--profile", "sh1106-encoder", check=False, STUB_DPKG_ARCH=arch)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"install.sh: this is a 32-bit system ({arch}): flash Raspberry Pi OS (64-bit) on a "
        "Pi 3, 4, 5, 400 or Zero 2 W, then run install.sh again (nothing was changed)\n"
    )
    assert snapshot(machine.root) == before
    assert machine.calls() == ["dpkg --print-architecture"]


def test_an_amd64_system_installs(machine: Machine):
    machine.run("--profile", "sh1106-encoder", STUB_DPKG_ARCH="amd64")
    assert BEGIN in machine.config.read_text()


def test_no_start_enables_without_starting(installed: Machine):
    installed.clear_log()
    installed.run("--no-start")
    assert "systemctl restart patchwork-companion.service" not in installed.calls()
    assert "systemctl enable patchwork-companion.service" in installed.calls()


def test_a_venv_without_system_site_packages_is_recreated(installed: Machine):
    cfg = installed.path("/opt/patchwork-companion/venv/pyvenv.cfg")
    cfg.write_text("include-system-site-packages = false\n")
    installed.clear_log()
    installed.run()
    assert "include-system-site-packages = true" in cfg.read_text()
    assert any(call.startswith("python3 -m venv") for call in installed.calls())


def test_help_needs_no_root(machine: Machine):
    result = subprocess.run(
        ["bash", str(INSTALLER), "--help"], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0
    assert "--uninstall" in result.stdout
    assert "sh1106-encoder" in result.stdout


def test_shellcheck_is_clean():
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        pytest.skip("shellcheck is not installed")
    result = subprocess.run([shellcheck, str(INSTALLER)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_without_python3_lgpio_the_wheel_comes_from_pypi(machine: Machine):
    result = machine.run("--profile", "sh1106-encoder", STUB_APT_MISSING="python3-lgpio")

    apt = [call for call in machine.calls() if call.startswith("apt-get install")]
    assert apt and all("python3-lgpio" not in call.split() for call in apt)
    assert "python3-spidev" in apt[0].split()
    wheels = machine.path("/opt/patchwork-companion/venv/lib/site-packages/wheels.installed")
    assert wheels.read_text().split()[1:] == ["lgpio>=0.2.2"]
    assert "No python3-lgpio package here" in result.stdout
    assert "from PyPI" in result.stdout


def test_raspberry_pi_os_lgpio_comes_from_apt(machine: Machine):
    machine.run("--profile", "waveshare-oled-hat")

    apt = [call for call in machine.calls() if call.startswith("apt-get install")]
    assert "python3-lgpio" in apt[0].split()
    assert "python3-rpi-lgpio" in apt[0].split()
    assert not machine.path(
        "/opt/patchwork-companion/venv/lib/site-packages/wheels.installed"
    ).exists()


def test_spi_build_without_pi_os_packages_takes_both_wheels(machine: Machine):
    machine.run(
        "--profile", "waveshare-oled-hat", STUB_APT_MISSING="python3-lgpio python3-rpi-lgpio"
    )
    wheels = machine.path("/opt/patchwork-companion/venv/lib/site-packages/wheels.installed")
    assert wheels.read_text().split()[1:] == ["lgpio>=0.2.2", "rpi-lgpio>=0.4"]


@pytest.mark.parametrize("action", [("--profile", "ssd1306-buttons"), ("--uninstall",)])
def test_a_block_without_its_end_line_is_never_edited(installed: Machine, action):
    backup = installed.path("/boot/firmware/config.txt.patchwork-companion.bak")
    assert backup.read_text() == ORIGINAL_CONFIG
    # Someone deletes the END line by hand; their own lines follow the block.
    damaged = installed.config.read_text().replace(END + "\n", "") + "dtoverlay=mine\nhdmi_safe=1\n"
    installed.config.write_text(damaged)
    before = snapshot(installed.root)
    installed.clear_log()

    result = installed.run(*action, check=False)

    assert result.returncode != 0
    assert len(result.stderr.strip().splitlines()) == 1
    assert "config.txt" in result.stderr
    assert "refusing to edit it" in result.stderr
    assert END in result.stderr
    assert installed.config.read_text() == damaged
    assert backup.read_text() == ORIGINAL_CONFIG
    assert snapshot(installed.root) == before
    assert installed.calls() == []


def test_gpio_and_spi_nodes_go_to_the_service_users_groups(installed: Machine):
    """Plain Debian leaves /dev/gpiochip* and /dev/spidev* to root (seen in the virtual Pi)."""
    rules = installed.path("/etc/udev/rules.d/60-patchwork-companion.rules").read_text()
    assert 'KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"' in rules
    assert 'SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"' in rules
    assert any(call.startswith("udevadm trigger") for call in installed.calls())
    installed.clear_log()
    installed.run()
    assert not any(call.startswith("udevadm trigger") for call in installed.calls())
