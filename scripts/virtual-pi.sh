#!/usr/bin/env bash
# The virtual Raspberry Pi: a Debian 12 machine under qemu with the Pi's
# buses made of real kernel drivers (gpio-sim, i2c-stub), on which the real
# systemd/install.sh installs the companion, a scripted game is played
# through the GPIO lines and read back from the I2C panel, and the power is
# cut (qemu killed, no shutdown) at random moments of play. See
# hardware/README.md ("A virtual Raspberry Pi") for what it checks.
#
#   sudo ./scripts/virtual-pi.sh              # the full run: 50 power cuts
#   sudo ./scripts/virtual-pi.sh --ci         # CI: the same checks, 3 cuts
#   sudo ./scripts/virtual-pi.sh --cuts 10 --seed 7
#   sudo ./scripts/virtual-pi.sh --no-fsync   # a build without fsync: must fail
#
# Needs root on Debian or Ubuntu (apt-get installs qemu-system-x86,
# debootstrap and friends if missing) and the network the first time: the
# image (Debian 12, its kernel, the two drivers built from Debian's
# linux-source-6.1) and the wheels are cached outside the repository, in
# $VIRTUAL_PI_CACHE (default: $XDG_CACHE_HOME/patchwork-virtual-pi if
# XDG_CACHE_HOME is set, else /var/cache/patchwork-virtual-pi).
# Prints one line per check and ends with "N passed, M failed"; exits
# non-zero on any failure. A machine that cannot run it at all (not root, not
# Debian or Ubuntu on x86_64, apt or Debian's mirror out of reach, no qemu)
# gets one line "SKIPPED: <why>" and exit status 77, which .ci/run does not
# count as a failure; whatever fails after the image exists is a failure.

set -euo pipefail

REPO=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
HERE=$REPO/scripts/virtual-pi
if [[ -n "${VIRTUAL_PI_CACHE:-}" ]]; then
    CACHE=$VIRTUAL_PI_CACHE
elif [[ -n "${XDG_CACHE_HOME:-}" ]]; then
    CACHE=$XDG_CACHE_HOME/patchwork-virtual-pi
else
    CACHE=/var/cache/patchwork-virtual-pi
fi
MIRROR=${VIRTUAL_PI_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${VIRTUAL_PI_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
HOST_PYTHON=/usr/bin/python3
# Debian's python3 in the guest is 3.11: the wheels are fetched for it.
GUEST_PYTHON_VERSION=3.11

say() { printf 'virtual-pi: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }
# 77: "skipped", as automake's test drivers count it (.ci/run does too).
cannot_run_here() {
    printf '*** virtual-pi: SKIPPED, this machine cannot run the virtual Pi: %s ***\n' "$*" >&2
    exit 77
}

[[ $EUID -eq 0 ]] || cannot_run_here "not root (debootstrap and chroot need it): sudo $0 $*"
[[ "$(uname -m)" == x86_64 ]] ||
    cannot_run_here "not x86_64 (the guest is amd64 and the host tools are set up for an x86_64 host)"
{ command -v apt-get && command -v dpkg-query; } >/dev/null ||
    cannot_run_here "no apt-get (it needs Debian or Ubuntu to install qemu and debootstrap)"

# --- the host's tools --------------------------------------------------------

HOST_PACKAGES=(qemu-system-x86 qemu-utils debootstrap debian-archive-keyring e2fsprogs
    python3 python3-venv xz-utils)

ensure_host_packages() {
    local missing=() package
    for package in "${HOST_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
            missing+=("$package")
    done
    ((${#missing[@]} == 0)) && return
    say "installing host packages: ${missing[*]}"
    if ! apt-get update -q >/dev/null ||
        ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
            "${missing[@]}" >/dev/null; then
        cannot_run_here "apt-get could not install ${missing[*]} (is the package mirror reachable?)"
    fi
}

# The image comes from Debian's mirror: one look before building it, so that
# a machine without it is told so rather than failed halfway (debootstrap
# itself fetches with wget, a dependency of its package).
ensure_mirror_reachable() {
    wget -q --spider --tries=2 --timeout=30 "$MIRROR/dists/bookworm/InRelease" ||
        cannot_run_here "Debian's mirror $MIRROR is unreachable, and no image is cached in $CACHE"
}

# --- the image -----------------------------------------------------------------

# Everything that goes into the image: a change to any of it builds a new one.
image_recipe_hash() {
    {
        sed -n '/^# --- the image/,/^# --- end of the image/p' "$0"
        (cd "$HERE/guest" && find modules image -type f | LC_ALL=C sort | xargs tail -n +1)
    } | sha256sum | cut -c1-16
}

# Debian packages of the guest. python3-venv, python3-spidev and i2c-tools are
# what install.sh asks apt for (installed here because the guest has no
# network: apt then finds them installed); python3-lgpio is not in Debian 12.
GUEST_PACKAGES=(linux-image-amd64 linux-headers-amd64 linux-source-6.1 gcc make libc6-dev
    xz-utils python3 python3-venv python3-spidev i2c-tools)

chroot_mounts() {
    local root=$1
    mount --bind /proc "$root/proc"
    mount --bind /sys "$root/sys"
    mount --bind /dev "$root/dev"
}

chroot_unmounts() {
    local root=$1 point
    for point in dev sys proc; do
        mountpoint -q "$root/$point" && umount -l "$root/$point"
    done
    return 0
}

build_image() {
    local image=$1 work=$CACHE/build.tmp root
    root=$work/root
    if [[ -d "$work" ]]; then
        chroot_unmounts "$root"
        rm -rf -- "$work"
    fi
    mkdir -p "$work"
    trap 'chroot_unmounts "'"$root"'"' EXIT
    say "building the Debian 12 image (debootstrap, kernel, gpio-sim and i2c-stub): a few minutes"
    debootstrap --variant=minbase \
        --include=systemd-sysv,udev,kmod,initramfs-tools,ca-certificates,procps \
        bookworm "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 ||
        die "debootstrap failed: see $work/debootstrap.log"
    cat >"$root/etc/apt/sources.list" <<EOF
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb $SECURITY_MIRROR bookworm-security main
EOF
    # A small initramfs (the modules to reach the disk, not every driver).
    mkdir -p "$root/etc/initramfs-tools/conf.d"
    echo MODULES=list >"$root/etc/initramfs-tools/conf.d/virtual-pi"
    printf '%s\n' virtio_pci virtio_blk ext4 >>"$root/etc/initramfs-tools/modules"
    chroot_mounts "$root"
    chroot "$root" sh -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends ${GUEST_PACKAGES[*]}" \
        >"$work/packages.log" 2>&1 || die "installing the guest's packages failed: see $work/packages.log"
    local kver
    kver=$(find "$root/lib/modules" -mindepth 1 -maxdepth 1 -name '*-amd64' -printf '%f\n' | sort | tail -n 1)
    mkdir -p "$root/opt/virtual-pi-build"
    cp "$HERE"/guest/modules/* "$root/opt/virtual-pi-build/"
    chroot "$root" sh /opt/virtual-pi-build/build-modules.sh "$kver" /opt/virtual-pi-build \
        >"$work/modules.log" 2>&1 || die "building gpio-sim and i2c-stub failed: see $work/modules.log"
    # The machine: its disk, its name, the test's units, nothing periodic.
    cp -r "$HERE"/guest/image/. "$root/"
    chroot "$root" sh -c 'echo virtual-pi >/etc/hostname
        printf "/dev/vda / ext4 errors=remount-ro 0 1\nvirtualpi /mnt/virtual-pi 9p trans=virtio,version=9p2000.L,ro,nofail 0 0\n" >/etc/fstab
        mkdir -p /mnt/virtual-pi
        passwd -d root >/dev/null
        systemctl enable virtual-pi-hardware.service virtual-pi-agent.service >/dev/null 2>&1
        # Nothing periodic, no text consoles (no screen): each boot is short under TCG.
        systemctl mask apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer \
            e2scrub_reap.service getty-static.service getty@tty1.service systemd-binfmt.service \
            proc-sys-fs-binfmt_misc.automount >/dev/null 2>&1
        rm -rf /opt/virtual-pi-build /usr/src/linux-source-6.1.tar.xz
        apt-get clean' >>"$work/modules.log" 2>&1
    chroot_unmounts "$root"
    trap - EXIT
    cp "$root/boot/vmlinuz-$kver" "$work/vmlinuz"
    cp "$root/boot/initrd.img-$kver" "$work/initrd.img"
    mkfs.ext4 -q -F -L virtual-pi -d "$root" "$work/disk.raw" 3G >/dev/null
    mkdir -p "$image"
    mv "$work/vmlinuz" "$work/initrd.img" "$work/disk.raw" "$image/"
    rm -rf -- "$work"
    say "image cached in $image"
}
# --- end of the image ----------------------------------------------------------

# --- the wheels --------------------------------------------------------------------

# The project's dependencies and lgpio, as manylinux wheels for the guest's
# Python, fetched on the host (the guest has no network) with pip download.
# pip takes only the platform tags it is given: every manylinux up to the
# guest's glibc 2.36 (lgpio 0.2.2 is manylinux_2_34 only).
WHEEL_PLATFORMS=(manylinux_2_36_x86_64 manylinux_2_35_x86_64 manylinux_2_34_x86_64
    manylinux_2_31_x86_64 manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_17_x86_64
    manylinux2014_x86_64 any)
fetch_wheels() {
    local wheels=$1 pip_venv=$CACHE/host-pip
    if [[ ! -x "$pip_venv/bin/pip" ]]; then
        "$HOST_PYTHON" -m venv "$pip_venv"
    fi
    mkdir -p "$wheels.tmp"
    "$pip_venv/bin/pip" wheel --quiet --no-deps --disable-pip-version-check \
        --wheel-dir "$wheels.tmp/project" "$REPO" >/dev/null
    local status=0
    "$pip_venv/bin/pip" download --quiet --disable-pip-version-check --dest "$wheels.tmp" \
        --only-binary=:all: --python-version "$GUEST_PYTHON_VERSION" --implementation cp \
        "${WHEEL_PLATFORMS[@]/#/--platform=}" \
        "$wheels.tmp"/project/*.whl lgpio 'setuptools>=77' 2>"$CACHE/pip.log" || status=$?
    # (pip's warnings about the index locations a machine's pip.conf names)
    grep -v "^WARNING: Location" "$CACHE/pip.log" >&2 || true
    ((status == 0)) || die "fetching the wheels failed (pip download: is PyPI reachable?)"
    rm -rf -- "$wheels.tmp/project" "$wheels.tmp"/patchwork_companion-* "$wheels"
    mv "$wheels.tmp" "$wheels"
}

main() {
    ensure_host_packages
    qemu-system-x86_64 -version >/dev/null 2>&1 ||
        cannot_run_here "qemu-system-x86_64 does not run: $(qemu-system-x86_64 -version 2>&1 | head -n 1)"
    mkdir -p "$CACHE"
    # One run at a time per cache (its image build and its run/ folder): a
    # second one waits, however it was started.
    exec {cache_lock}>"$CACHE/lock"
    if ! flock -n "$cache_lock"; then
        say "another virtual Pi run uses $CACHE: waiting for it to finish"
        flock "$cache_lock"
    fi
    local image
    image=$CACHE/image-$(image_recipe_hash)
    if [[ ! -f "$image/disk.raw" ]]; then
        ensure_mirror_reachable
        build_image "$image"
    fi
    local wheels
    wheels=$CACHE/wheels-$({
        cat "$REPO/pyproject.toml"
        printf '%s\n' "${WHEEL_PLATFORMS[@]}"
    } | sha256sum | cut -c1-16)
    if [[ ! -d "$wheels" ]]; then
        say "fetching wheels for the guest"
        fetch_wheels "$wheels"
    fi
    # The expected game and screens come from the laptop simulation (the
    # repository's own venv, as ./scripts/test.sh sets it up).
    bash "$REPO/scripts/setup-venv.sh" dev >/dev/null
    exec "$HOST_PYTHON" "$HERE/host.py" --repo "$REPO" --image "$image" --wheels "$wheels" \
        --work "$CACHE/run" "$@"
}

main "$@"
