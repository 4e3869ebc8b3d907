#!/usr/bin/env bash
# Install (or remove) Patchwork Companion as a boot-time service on a
# Raspberry Pi running Raspberry Pi OS Bookworm or later. Run as root:
#
#   sudo ./systemd/install.sh --profile sh1106-encoder
#   sudo ./systemd/install.sh                      # again: upgrade, same profile
#   sudo ./systemd/install.sh --uninstall          # games in /var/lib are kept
#
# Safe to run any number of times: every step checks before it changes
# anything, and config.txt gets one marked block that is replaced, never
# duplicated. See systemd/README.md for what each step does.
#
# Every path and command can be overridden from the environment, which is
# how tests/install/test_installer.py runs it against a temporary root with
# stub commands: ROOT (a prefix for every path), OPT_DIR, ETC_DIR, STATE_DIR,
# UNIT_DIR, MODULES_LOAD_DIR, UDEV_RULES_DIR, RUN_DIR, BOOT_CONFIG, SERVICE_USER,
# and the commands APT_GET, APT_CACHE, DPKG, SYSTEMCTL, USERADD, USERDEL,
# USERMOD, GROUPADD, GETENT, PYTHON, PIP, MODPROBE, UDEVADM.

set -euo pipefail

readonly SERVICE=patchwork-companion.service
readonly BEGIN_MARK="# BEGIN patchwork-companion"
readonly END_MARK="# END patchwork-companion"
readonly DEVICE_GROUPS=(gpio i2c spi dialout)
# python3-lgpio: gpiozero's pin backend on Bookworm, built against Debian's
# liblgpio and reached through --system-site-packages (a Raspberry Pi OS
# package: elsewhere lgpio comes from PyPI, see install_program).
# python3-spidev: luma's SPI interface. i2c-tools: i2cdetect, to find the
# panel's address.
readonly APT_PACKAGES=(python3-venv python3-lgpio python3-spidev i2c-tools)
# Raspberry Pi OS packages and the PyPI wheels that stand in for them where
# apt has no such package (plain Debian, Ubuntu, other boards): lgpio has
# manylinux wheels for armhf, arm64 and x86_64; rpi-lgpio is pure Python.
declare -rA PYPI_INSTEAD=([python3-lgpio]="lgpio>=0.2.2" [python3-rpi-lgpio]="rpi-lgpio>=0.4")

ROOT=${ROOT:-}
OPT_DIR=${OPT_DIR:-/opt/patchwork-companion}
ETC_DIR=${ETC_DIR:-/etc/patchwork-companion}
STATE_DIR=${STATE_DIR:-/var/lib/patchwork-companion}
UNIT_DIR=${UNIT_DIR:-/etc/systemd/system}
MODULES_LOAD_DIR=${MODULES_LOAD_DIR:-/etc/modules-load.d}
UDEV_RULES_DIR=${UDEV_RULES_DIR:-/etc/udev/rules.d}
RUN_DIR=${RUN_DIR:-/run}
BOOT_CONFIG=${BOOT_CONFIG:-}
SERVICE_USER=${SERVICE_USER:-patchwork}

APT_GET=${APT_GET:-apt-get}
APT_CACHE=${APT_CACHE:-apt-cache}
DPKG=${DPKG:-dpkg}
SYSTEMCTL=${SYSTEMCTL:-systemctl}
USERADD=${USERADD:-useradd}
USERDEL=${USERDEL:-userdel}
USERMOD=${USERMOD:-usermod}
GROUPADD=${GROUPADD:-groupadd}
GETENT=${GETENT:-getent}
PYTHON=${PYTHON:-python3}
PIP=${PIP:-}
MODPROBE=${MODPROBE:-modprobe}
UDEVADM=${UDEVADM:-udevadm}

SCRIPT_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
SOURCE=$(dirname -- "$SCRIPT_DIR")
PROFILE=
FIRMWARE=
UNINSTALL=false
START=true
REBOOT_NEEDED=false
PYPI_WHEELS=()

usage() {
    cat <<EOF
Usage: sudo $0 [--profile NAME|FILE] [--firmware NAME] [--source DIR] [--no-start]
       sudo $0 --uninstall

  --profile NAME   hardware profile: one of $(list_profiles | tr '\n' ' ')
                   (required the first time; later runs keep the installed one)
  --profile FILE   your own profile file (copied to $ETC_DIR/profile.toml);
                   then --firmware NAME picks the config.txt fragment to apply
  --firmware NAME  the firmware_configs/NAME/config.txt fragment (default: the profile's)
  --source DIR     the Patchwork Companion checkout to install (default: $SOURCE)
  --no-start       enable the service but do not start it now
  --uninstall      stop and remove the service, the program, its configuration,
                   the config.txt block and the '$SERVICE_USER' user; the games in
                   $STATE_DIR are kept
EOF
}

say() { printf '%s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

list_profiles() {
    local dir
    for dir in "$SOURCE"/firmware_configs/*/; do
        if [[ -f "${dir}config.txt" ]]; then
            basename -- "$dir"
        fi
    done
}

parse_arguments() {
    while (($#)); do
        case $1 in
            --profile) PROFILE=${2:?--profile needs a name or a file}; shift ;;
            --profile=*) PROFILE=${1#*=} ;;
            --firmware) FIRMWARE=${2:?--firmware needs a name}; shift ;;
            --firmware=*) FIRMWARE=${1#*=} ;;
            --source) SOURCE=${2:?--source needs a directory}; shift ;;
            --source=*) SOURCE=${1#*=} ;;
            --no-start) START=false ;;
            --uninstall) UNINSTALL=true ;;
            -h | --help) usage; exit 0 ;;
            *) usage >&2; die "unknown option: $1" ;;
        esac
        shift
    done
    SOURCE=$(cd -- "$SOURCE" && pwd) || die "--source: no such directory"
    [[ -f "$SOURCE/pyproject.toml" && -f "$SOURCE/systemd/$SERVICE" ]] ||
        die "$SOURCE is not a Patchwork Companion checkout (no pyproject.toml or systemd/$SERVICE)"
}

# --- small idempotent file helpers --------------------------------------

# Write stdin to FILE (mode MODE) only if the content differs; true if changed.
write_file() {
    local file=$1 mode=$2 tmp
    tmp=$(mktemp "$(dirname -- "$file")/.install.XXXXXX")
    cat >"$tmp"
    if [[ -f "$file" ]] && cmp -s "$tmp" "$file"; then
        rm -f -- "$tmp"
        chmod "$mode" -- "$file"
        return 1
    fi
    chmod "$mode" -- "$tmp"
    mv -f -- "$tmp" "$file"
    say "  wrote ${file#"$ROOT"}"
}

remove_path() {
    local path=$1
    if [[ -e "$path" || -L "$path" ]]; then
        rm -rf -- "$path"
        say "  removed ${path#"$ROOT"}"
    fi
}

# --- config.txt ---------------------------------------------------------

find_boot_config() {
    if [[ -n "$BOOT_CONFIG" ]]; then
        printf '%s\n' "$ROOT$BOOT_CONFIG"
    elif [[ -f "$ROOT/boot/firmware/config.txt" ]]; then
        printf '%s\n' "$ROOT/boot/firmware/config.txt"   # Bookworm and later
    elif [[ -f "$ROOT/boot/config.txt" ]]; then
        printf '%s\n' "$ROOT/boot/config.txt"            # Bullseye and earlier
    fi
}

# A block whose END line was deleted (by hand) cannot be replaced or removed
# without guessing where it ended: every line after BEGIN would go. Refuse.
check_block_is_whole() {
    local config=$1 begins ends
    begins=$(grep -c "^$BEGIN_MARK" "$config" || true)
    ends=$(grep -c "^$END_MARK" "$config" || true)
    if ((begins != ends || begins > 1)); then
        die "${config#"$ROOT"}: the patchwork-companion block has $begins BEGIN and $ends END line(s); refusing to edit it (nothing changed): put back its '$END_MARK' line or remove the block by hand"
    fi
}

# Print FILE without our marked block.
without_block() {
    awk -v begin="$BEGIN_MARK" -v end="$END_MARK" '
        index($0, begin) == 1 { skipping = 1; next }
        skipping && index($0, end) == 1 { skipping = 0; next }
        !skipping { print }
    ' "$1"
}

# Print FILE with our block (from stdin) where the old one was, or at the end.
with_block() {
    local file=$1 block
    block=$(cat)
    # Through the environment: awk -v would interpret backslashes.
    BLOCK=$block awk -v begin="$BEGIN_MARK" -v end="$END_MARK" '
        BEGIN { block = ENVIRON["BLOCK"] }
        index($0, begin) == 1 { if (!done) print block; done = 1; skipping = 1; next }
        skipping && index($0, end) == 1 { skipping = 0; next }
        skipping { next }
        { print }
        END { if (!done) print block }
    ' "$file"
}

apply_boot_config() {
    local fragment=$1 config
    config=$(find_boot_config)
    if [[ -z "$config" ]]; then
        say "  no config.txt found (not a Raspberry Pi?): skipped; on a Pi, add $fragment to it by hand"
        return
    fi
    check_block_is_whole "$config"
    {
        say "$BEGIN_MARK (systemd/install.sh, profile ${FIRMWARE}; re-running replaces this block)"
        # Lines after a [pi4]/[cm4]… section would apply to that model only.
        say "[all]"
        cat -- "$fragment"
        say "$END_MARK"
    } | with_block "$config" >"$config.patchwork-companion.tmp"
    if cmp -s "$config" "$config.patchwork-companion.tmp"; then
        rm -f -- "$config.patchwork-companion.tmp"
        say "  ${config#"$ROOT"}: already up to date"
        return
    fi
    cp -p -- "$config" "$config.patchwork-companion.bak"
    # The boot partition is FAT: a new file, synced, then renamed over the
    # old one, so a power cut leaves one whole config.txt or the other.
    sync "$config.patchwork-companion.tmp" 2>/dev/null || sync
    mv -f -- "$config.patchwork-companion.tmp" "$config"
    say "  ${config#"$ROOT"}: patchwork-companion block written (previous file: ${config#"$ROOT"}.patchwork-companion.bak)"
    # /run is emptied at boot: until then a re-run must not start the service.
    mkdir -p -- "$ROOT$RUN_DIR"
    : >"$(reboot_marker)"
}

reboot_marker() { printf '%s\n' "$ROOT$RUN_DIR/patchwork-companion.reboot-required"; }

remove_boot_config() {
    local config
    config=$(find_boot_config)
    [[ -n "$config" && -f "$config" ]] || return 0
    check_block_is_whole "$config"
    if grep -q "^$BEGIN_MARK" "$config"; then
        without_block "$config" >"$config.patchwork-companion.tmp"
        sync "$config.patchwork-companion.tmp" 2>/dev/null || sync
        mv -f -- "$config.patchwork-companion.tmp" "$config"
        say "  ${config#"$ROOT"}: patchwork-companion block removed"
        REBOOT_NEEDED=true
    fi
    remove_path "$config.patchwork-companion.bak"
}

# --- steps ----------------------------------------------------------------

# Raspberry Pi OS (32-bit) is armhf, even on a Pi whose kernel is 64-bit.
# PyPI has no 32-bit ARM wheels of Pillow or lgpio: pip would compile them,
# with compilers and libraries this installer does not install, and no such
# install has ever been tried. Stop before changing anything.
refuse_32_bit() {
    local arch
    arch=$("$DPKG" --print-architecture 2>/dev/null || true)
    if [[ $arch == armhf || $arch == armel ]]; then
        die "this is a 32-bit system ($arch): flash Raspberry Pi OS (64-bit) on a Pi 3, 4, 5, 400 or Zero 2 W, then run install.sh again (nothing was changed)"
    fi
}

resolve_profile() {
    local env_file=$ROOT$ETC_DIR/env installed=
    if [[ -f "$env_file" ]]; then
        installed=$(sed -n 's/^PROFILE=//p' "$env_file" | tail -n 1)
    fi
    if [[ -z "$PROFILE" ]]; then
        [[ -n "$installed" ]] || {
            usage >&2
            die "--profile is required on the first install (the wiring cannot be detected)"
        }
        PROFILE=$installed
        if [[ "$PROFILE" == "$ETC_DIR/profile.toml" && -z "$FIRMWARE" ]]; then
            FIRMWARE=$(sed -n 's/^# firmware: //p' "$env_file" | tail -n 1)
        fi
        say "Keeping the installed profile: $PROFILE"
    fi
    if [[ "$PROFILE" == */* || "$PROFILE" == *.toml ]]; then
        [[ -f "$PROFILE" || "$PROFILE" == "$ETC_DIR/profile.toml" ]] ||
            die "--profile $PROFILE: no such file"
        [[ -n "$FIRMWARE" ]] || die "--profile FILE needs --firmware NAME (one of: $(list_profiles | tr '\n' ' '))"
    else
        [[ "$PROFILE" != simulation ]] ||
            die "the simulation profile is for a computer (./scripts/simulate.sh), not for the service"
        FIRMWARE=${FIRMWARE:-$PROFILE}
    fi
    [[ -f "$SOURCE/firmware_configs/$FIRMWARE/config.txt" ]] ||
        die "unknown profile '$FIRMWARE' (known: $(list_profiles | tr '\n' ' '))"
}

# True if apt knows a version of PACKAGE it could install (Raspberry Pi OS
# has python3-lgpio; plain Debian 12 and Ubuntu do not).
apt_has() {
    local candidate
    candidate=$("$APT_CACHE" policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
    [[ -n "$candidate" && "$candidate" != "(none)" ]]
}

install_packages() {
    local wanted=("${APT_PACKAGES[@]}") packages=() package
    if grep -q '^dtparam=spi=on' "$SOURCE/firmware_configs/$FIRMWARE/config.txt"; then
        # luma drives an SPI panel's DC and reset pins through the RPi.GPIO
        # API: rpi-lgpio provides it on top of lgpio (/dev/gpiochip*, which
        # the unit allows; the old RPi.GPIO's /dev/gpiomem is not). It
        # replaces python3-rpi.gpio, whose API it keeps.
        wanted+=(python3-rpi-lgpio)
    fi
    for package in "${wanted[@]}"; do
        if [[ -n "${PYPI_INSTEAD[$package]:-}" ]] && ! apt_has "$package"; then
            PYPI_WHEELS+=("${PYPI_INSTEAD[$package]}")
            say "No $package package here (it comes with Raspberry Pi OS): ${PYPI_INSTEAD[$package]} from PyPI goes into the venv instead"
            continue
        fi
        packages+=("$package")
    done
    say "Debian packages: ${packages[*]}"
    # Already installed packages make this a no-op; stale package lists are
    # refreshed only if the first attempt fails.
    if ! DEBIAN_FRONTEND=noninteractive "$APT_GET" install -y --no-install-recommends "${packages[@]}"; then
        "$APT_GET" update
        DEBIAN_FRONTEND=noninteractive "$APT_GET" install -y --no-install-recommends "${packages[@]}"
    fi
}

create_user() {
    local group missing=() present=()
    say "Service user '$SERVICE_USER'"
    for group in "${DEVICE_GROUPS[@]}"; do
        if ! "$GETENT" group "$group" >/dev/null; then
            # Raspberry Pi OS has all four; the unit's SupplementaryGroups=
            # refuses to start if one is missing, so create it (empty).
            "$GROUPADD" --system "$group"
            missing+=("$group")
        fi
        present+=("$group")
    done
    ((${#missing[@]} == 0)) || say "  created missing groups: ${missing[*]}"
    if ! "$GETENT" passwd "$SERVICE_USER" >/dev/null; then
        # No login, no home of its own: its only files are the games in the
        # state directory, which systemd creates and owns for it.
        "$USERADD" --system --user-group --no-create-home --home-dir "$STATE_DIR" \
            --shell /usr/sbin/nologin --comment "Patchwork Companion" "$SERVICE_USER"
        say "  created the user"
    fi
    local groups_csv
    groups_csv=$(IFS=,; printf '%s' "${present[*]}")
    "$USERMOD" --append --groups "$groups_csv" "$SERVICE_USER"
}

install_program() {
    local venv=$ROOT$OPT_DIR/venv pip
    say "Program: ${venv#"$ROOT"} (from $SOURCE)"
    mkdir -p -- "$ROOT$OPT_DIR"
    if [[ -f "$venv/pyvenv.cfg" ]] &&
        ! grep -qi '^include-system-site-packages *= *true' "$venv/pyvenv.cfg"; then
        say "  the existing venv cannot see Debian's python3-lgpio: recreating it"
        rm -rf -- "$venv"
    fi
    if [[ ! -x "$venv/bin/python" ]]; then
        # --system-site-packages: lgpio (and spidev) come from Debian.
        "$PYTHON" -m venv --system-site-packages "$venv"
        say "  created the venv"
    fi
    pip=${PIP:-$venv/bin/pip}
    # A plain (not editable) install: the checkout can be deleted afterwards.
    "$pip" install --disable-pip-version-check --no-input --quiet --upgrade "$SOURCE"
    if ((${#PYPI_WHEELS[@]})); then
        # pip's own settings (PIP_INDEX_URL, PIP_FIND_LINKS...) apply, so an
        # offline machine can be given the wheels in a folder.
        "$pip" install --disable-pip-version-check --no-input --quiet "${PYPI_WHEELS[@]}"
        say "  from PyPI into the venv: ${PYPI_WHEELS[*]}"
    fi
    if [[ -f "$SOURCE/README.md" ]]; then
        write_file "$ROOT$OPT_DIR/README.md" 0644 <"$SOURCE/README.md" || true
    fi
}

write_configuration() {
    local etc=$ROOT$ETC_DIR profile_value=$PROFILE
    say "Configuration: $ETC_DIR"
    mkdir -p -- "$etc"
    chmod 0755 -- "$etc"
    if [[ "$PROFILE" == */* || "$PROFILE" == *.toml ]]; then
        if [[ "$PROFILE" != "$ETC_DIR/profile.toml" ]]; then
            write_file "$etc/profile.toml" 0644 <"$PROFILE" || true
        fi
        profile_value=$ETC_DIR/profile.toml
    else
        remove_path "$etc/profile.toml"
    fi
    write_file "$etc/env" 0644 <<EOF || true
# Patchwork Companion: read by $SERVICE (EnvironmentFile=).
# PROFILE: a hardware profile name (sh1106-encoder, ssd1306-buttons,
# adafruit-oled-bonnet, waveshare-oled-hat, serial-pad) or a profile file.
# After editing: sudo systemctl restart patchwork-companion
# firmware: $FIRMWARE
PROFILE=$profile_value
EOF
}

configure_firmware() {
    local fragment=$SOURCE/firmware_configs/$FIRMWARE/config.txt
    local modules=$ROOT$MODULES_LOAD_DIR/patchwork-companion.conf
    say "Firmware: firmware_configs/$FIRMWARE/config.txt"
    apply_boot_config "$fragment"
    if [[ -e "$(reboot_marker)" ]]; then
        REBOOT_NEEDED=true
    fi
    if grep -q '^dtparam=i2c_arm=on' "$fragment"; then
        # /dev/i2c-1 exists only once i2c-dev is loaded (raspi-config does
        # the same through /etc/modules).
        mkdir -p -- "$ROOT$MODULES_LOAD_DIR"
        printf '# Patchwork Companion: /dev/i2c-* for the OLED\ni2c-dev\n' |
            write_file "$modules" 0644 || true
        "$MODPROBE" i2c-dev 2>/dev/null || true
    else
        remove_path "$modules"
    fi
}

# Raspberry Pi OS gives /dev/gpiochip* to the gpio group and /dev/spidev* to
# spi (its 99-com.rules); plain Debian leaves them to root, and the service
# user could not open them. The same rules, for any Debian (i2c-tools already
# gives /dev/i2c-* to i2c).
device_permissions() {
    local rules=$ROOT$UDEV_RULES_DIR/60-patchwork-companion.rules
    say "Device permissions: ${rules#"$ROOT"}"
    mkdir -p -- "$ROOT$UDEV_RULES_DIR"
    if write_file "$rules" 0644 <<'EOF'; then
# Patchwork Companion (systemd/install.sh): GPIO and SPI nodes for the groups
# its service user is in, as Raspberry Pi OS has them.
SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"
SUBSYSTEM=="spidev", GROUP="spi", MODE="0660"
EOF
        # Apply to the nodes already there (udev reads new rules by itself).
        "$UDEVADM" trigger --action=change --subsystem-match=gpio --subsystem-match=spidev 2>/dev/null || true
        "$UDEVADM" settle 2>/dev/null || true
    fi
}

install_unit() {
    local unit=$ROOT$UNIT_DIR/$SERVICE
    say "Service: ${unit#"$ROOT"}"
    mkdir -p -- "$ROOT$UNIT_DIR"
    write_file "$unit" 0644 <"$SOURCE/systemd/$SERVICE" || true
    "$SYSTEMCTL" daemon-reload
    "$SYSTEMCTL" enable "$SERVICE"
    # All of the above is still in the page cache. The virtual Pi's power cut
    # a minute after an install left lgpio.py and its library zero-length on
    # disk, and a service that never started again: write it out first.
    sync
    if [[ $START == false ]]; then
        say "  enabled; not started (--no-start)"
    elif [[ $REBOOT_NEEDED == true ]]; then
        # The bus it needs appears only after the reboot; starting now would
        # only fail and count against the start limit.
        say "  enabled; it starts after the reboot"
    else
        # restart, not start: a re-run must pick up the new version.
        "$SYSTEMCTL" restart "$SERVICE"
        say "  started"
    fi
}

install() {
    resolve_profile
    install_packages
    create_user
    install_program
    write_configuration
    configure_firmware
    device_permissions
    install_unit
    say ""
    say "Installed with profile $PROFILE."
    say "  status: systemctl status patchwork-companion"
    say "  log:    journalctl -u patchwork-companion"
    if [[ $REBOOT_NEEDED == true ]]; then
        say "config.txt changed: reboot to switch the bus on (sudo reboot); the service starts then."
    fi
}

uninstall() {
    say "Removing Patchwork Companion"
    "$SYSTEMCTL" disable --now "$SERVICE" 2>/dev/null || true
    remove_path "$ROOT$UNIT_DIR/$SERVICE"
    "$SYSTEMCTL" daemon-reload
    "$SYSTEMCTL" reset-failed "$SERVICE" 2>/dev/null || true
    remove_path "$ROOT$OPT_DIR"
    remove_path "$ROOT$ETC_DIR"
    remove_path "$ROOT$MODULES_LOAD_DIR/patchwork-companion.conf"
    remove_path "$ROOT$UDEV_RULES_DIR/60-patchwork-companion.rules"
    remove_boot_config
    rm -f -- "$(reboot_marker)"
    if "$GETENT" passwd "$SERVICE_USER" >/dev/null; then
        # Without --remove: its home is the state directory, the games.
        "$USERDEL" "$SERVICE_USER"
        say "  removed the user '$SERVICE_USER'"
    fi
    say ""
    say "Kept your games in $STATE_DIR (history, settings, the game in progress)."
    say "  Delete them with: sudo rm -rf $STATE_DIR"
    say "Left installed: the Debian packages (${APT_PACKAGES[*]}) and the groups."
    if [[ $REBOOT_NEEDED == true ]]; then
        say "config.txt changed: the next reboot switches the bus off."
    fi
}

main() {
    parse_arguments "$@"
    if [[ -z "$ROOT" && $EUID -ne 0 ]]; then
        die "run as root: sudo $0 $*"
    fi
    umask 022
    # Before any step: a damaged block stops the run with nothing changed.
    local config
    config=$(find_boot_config)
    if [[ -n "$config" && -f "$config" ]]; then
        check_block_is_whole "$config"
    fi
    if [[ $UNINSTALL == true ]]; then
        uninstall
    else
        refuse_32_bit
        install
    fi
}

main "$@"
