#!/usr/bin/env bash
# The virtual Raspberry Pi: a Debian machine under qemu with the Pi's buses
# made of real kernel drivers (gpio-sim, i2c-stub) and a FAT boot partition
# at /boot/firmware holding Raspberry Pi OS's stock config.txt, on which the
# real systemd/install.sh installs the companion, a scripted game is played
# through the GPIO lines and read back from the I2C panel, and the power is
# cut (qemu killed, no shutdown) at random moments of play. See
# hardware/README.md ("A virtual Raspberry Pi") for what it checks.
#
#   sudo ./scripts/virtual-pi.sh              # amd64, Debian 12: 50 power cuts
#   sudo ./scripts/virtual-pi.sh --ci         # CI: the same checks, 3 cuts
#   sudo ./scripts/virtual-pi.sh --arch arm64 --ci  # arm64 (Cortex-A53), Debian 13
#   sudo ./scripts/virtual-pi.sh --release 13       # amd64 on Debian 13
#   sudo ./scripts/virtual-pi.sh --cuts 10 --seed 7
#   sudo ./scripts/virtual-pi.sh --synchronous-off   # commits not on the card: must fail
#   sudo ./scripts/virtual-pi.sh --no-watchdog-ping  # must fail too
#
# --arch amd64 (the default) runs under qemu-system-x86_64, --arch arm64 under
# qemu-system-aarch64 -M virt -cpu cortex-a53 with the board revision in the
# device tree; --release 12 or 13 picks Debian 12 "bookworm" or 13 "trixie"
# (default: 12 on amd64, 13 on arm64, what Raspberry Pi OS is built on now).
# Needs root on Debian or Ubuntu (apt-get installs qemu, debootstrap and
# friends if missing; for arm64 also qemu-user-static, through which
# debootstrap runs the guest's programs) and the network the first time: the
# image (Debian, its kernel, the two drivers built from Debian's
# linux-source) and the wheels are cached outside the repository, in
# $VIRTUAL_PI_CACHE (default: $XDG_CACHE_HOME/patchwork-virtual-pi if
# XDG_CACHE_HOME is set, else /var/cache/patchwork-virtual-pi).
# Prints one line per check and ends with "N passed, M failed"; exits
# non-zero on any failure. A machine that cannot run it at all (not root, not
# Debian or Ubuntu on x86_64, apt or Debian's mirror out of reach, no qemu,
# for arm64 no binfmt_misc to run the guest's programs with)
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
ARCH=amd64
RELEASE=
for ((i = 1; i <= $#; i++)); do
    case ${!i} in
        --arch) j=$((i + 1)); ARCH=${!j:-} ;;
        --arch=*) ARCH=${!i#--arch=} ;;
        --release) j=$((i + 1)); RELEASE=${!j:-} ;;
        --release=*) RELEASE=${!i#--release=} ;;
    esac
done
case $ARCH in
    amd64) MACHINE=x86_64 QEMU_PACKAGE=qemu-system-x86 RELEASE=${RELEASE:-12} ;;
    arm64) MACHINE=aarch64 QEMU_PACKAGE=qemu-system-arm RELEASE=${RELEASE:-13} ;;
    *) printf 'virtual-pi: --arch must be amd64 or arm64, not "%s"\n' "$ARCH" >&2; exit 2 ;;
esac
# Per release: its name, the guest's Python (the wheels are fetched for it),
# its glibc (the newest manylinux tag it runs) and its kernel's source.
case $RELEASE in
    12) CODENAME=bookworm GUEST_PYTHON_VERSION=3.11 GUEST_GLIBC=36 KERNEL_SOURCE=6.1 ;;
    13) CODENAME=trixie GUEST_PYTHON_VERSION=3.13 GUEST_GLIBC=41 KERNEL_SOURCE=6.12 ;;
    *) printf 'virtual-pi: --release must be 12 or 13, not "%s"\n' "$RELEASE" >&2; exit 2 ;;
esac
QEMU=qemu-system-$MACHINE

say() { printf 'virtual-pi: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }
# 77: "skipped", as automake's test drivers count it (.ci/run does too).
cannot_run_here() {
    printf '*** virtual-pi: SKIPPED, this machine cannot run the virtual Pi: %s ***\n' "$*" >&2
    exit 77
}

[[ $EUID -eq 0 ]] || cannot_run_here "not root (debootstrap and chroot need it): sudo $0 $*"
[[ "$(uname -m)" == x86_64 ]] ||
    cannot_run_here "not x86_64 (the host tools are set up for an x86_64 host)"
{ command -v apt-get && command -v dpkg-query; } >/dev/null ||
    cannot_run_here "no apt-get (it needs Debian or Ubuntu to install qemu and debootstrap)"

# --- the host's tools --------------------------------------------------------

HOST_PACKAGES=("$QEMU_PACKAGE" qemu-utils debootstrap debian-archive-keyring e2fsprogs
    dosfstools mtools python3 python3-venv xz-utils)
# An arm64 guest's programs run on the host during the build through
# qemu-user and binfmt_misc; its device tree gets the board's revision (fdtput).
if [[ $ARCH == arm64 ]]; then
    HOST_PACKAGES+=(qemu-user-static binfmt-support device-tree-compiler)
fi

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

# debootstrap runs an arm64 guest's programs in a chroot: the kernel hands
# them to qemu-aarch64-static through binfmt_misc.
ensure_binfmt() {
    [[ $ARCH == arm64 ]] || return 0
    local binfmt=/proc/sys/fs/binfmt_misc
    if [[ ! -e $binfmt/status ]]; then
        mount -t binfmt_misc binfmt_misc "$binfmt" 2>/dev/null ||
            cannot_run_here "binfmt_misc cannot be mounted (needed to build the arm64 image)"
    fi
    [[ -e $binfmt/qemu-aarch64 ]] || update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
    [[ -e $binfmt/qemu-aarch64 ]] ||
        cannot_run_here "binfmt_misc has no qemu-aarch64 entry (update-binfmts --enable qemu-aarch64 failed)"
}

# The image comes from Debian's mirror: one look before building it, so that
# a machine without it is told so rather than failed halfway (debootstrap
# itself fetches with wget, a dependency of its package).
ensure_mirror_reachable() {
    wget -q --spider --tries=2 --timeout=30 "$MIRROR/dists/$CODENAME/InRelease" ||
        cannot_run_here "Debian's mirror $MIRROR is unreachable, and no image is cached in $CACHE"
}

# --- the image -----------------------------------------------------------------

# Everything that goes into the image: a change to any of it builds a new one.
image_recipe_hash() {
    {
        printf '%s %s\n' "$ARCH" "$RELEASE"
        sed -n '/^# --- the image/,/^# --- end of the image/p' "$0"
        (cd "$HERE/guest" && find modules image boot -type f | LC_ALL=C sort | xargs tail -n +1)
    } | sha256sum | cut -c1-16
}

# Debian packages of the guest. python3-venv, python3-spidev and i2c-tools are
# what install.sh asks apt for (installed here because the guest has no
# network: apt then finds them installed); python3-lgpio is not in Debian 12
# or 13. dosfstools: fsck.vfat, for the boot partition as on Raspberry Pi OS.
GUEST_PACKAGES=("linux-image-$ARCH" "linux-headers-$ARCH" gcc make libc6-dev
    xz-utils python3 python3-venv python3-spidev i2c-tools dosfstools)

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
    say "building the Debian $RELEASE $ARCH image (debootstrap, kernel, gpio-sim and i2c-stub):" \
        "$([[ $ARCH == arm64 ]] && echo "half an hour or more, emulated" || echo "a few minutes")"
    debootstrap --variant=minbase --arch="$ARCH" \
        --include=systemd-sysv,udev,kmod,initramfs-tools,ca-certificates,procps \
        "$CODENAME" "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 ||
        die "debootstrap failed: see $work/debootstrap.log"
    cat >"$root/etc/apt/sources.list" <<EOF
deb $MIRROR $CODENAME main
deb $MIRROR $CODENAME-updates main
deb $SECURITY_MIRROR $CODENAME-security main
EOF
    # A small initramfs (the modules to reach the disk, not every driver).
    mkdir -p "$root/etc/initramfs-tools/conf.d"
    echo MODULES=list >"$root/etc/initramfs-tools/conf.d/virtual-pi"
    printf '%s\n' virtio_pci virtio_blk ext4 >>"$root/etc/initramfs-tools/modules"
    chroot_mounts "$root"
    chroot "$root" sh -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends ${GUEST_PACKAGES[*]} &&
        cd /root && apt-get download -q linux-source-$KERNEL_SOURCE" \
        >"$work/packages.log" 2>&1 || die "installing the guest's packages failed: see $work/packages.log"
    local kver
    kver=$(find "$root/lib/modules" -mindepth 1 -maxdepth 1 -name "*-$ARCH" -printf '%f\n' | sort | tail -n 1)
    # The drivers' four source files, unpacked by the host's own dpkg and xz
    # (under qemu-user they would take minutes).
    local build=$root/opt/virtual-pi-build
    mkdir -p "$build/src"
    cp "$HERE"/guest/modules/* "$build/"
    dpkg-deb --fsys-tarfile "$root"/root/linux-source-"$KERNEL_SOURCE"_*.deb |
        tar -xO "./usr/src/linux-source-$KERNEL_SOURCE.tar.xz" |
        tar -xJ -C "$build/src" --strip-components=1 \
            linux-source-"$KERNEL_SOURCE"/{drivers/gpio/gpio-sim.c,drivers/gpio/gpiolib.h,kernel/irq/irq_sim.c,drivers/i2c/i2c-stub.c}
    rm -f "$root"/root/linux-source-*.deb
    chroot "$root" sh /opt/virtual-pi-build/build-modules.sh "$kver" /opt/virtual-pi-build \
        >"$work/modules.log" 2>&1 || die "building gpio-sim and i2c-stub failed: see $work/modules.log"
    # The machine: its disks, its name, the test's units, nothing periodic.
    # The boot partition is FAT and mounted where Raspberry Pi OS mounts it.
    cp -r "$HERE"/guest/image/. "$root/"
    chroot "$root" sh -c 'echo virtual-pi >/etc/hostname
        printf "/dev/vda / ext4 errors=remount-ro 0 1\nLABEL=bootfs /boot/firmware vfat defaults 0 2\nvirtualpi /mnt/virtual-pi 9p trans=virtio,version=9p2000.L,ro,nofail 0 0\n" >/etc/fstab
        mkdir -p /mnt/virtual-pi /boot/firmware
        passwd -d root >/dev/null
        systemctl enable virtual-pi-hardware.service virtual-pi-agent.service >/dev/null 2>&1
        # Nothing periodic, no text consoles (no screen): each boot is short under TCG.
        systemctl mask apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer \
            e2scrub_reap.service getty-static.service getty@tty1.service systemd-binfmt.service \
            proc-sys-fs-binfmt_misc.automount >/dev/null 2>&1
        rm -rf /opt/virtual-pi-build
        apt-get clean' >>"$work/modules.log" 2>&1
    chroot_unmounts "$root"
    trap - EXIT
    cp "$root/boot/vmlinuz-$kver" "$work/vmlinuz"
    cp "$root/boot/initrd.img-$kver" "$work/initrd.img"
    mkfs.ext4 -q -F -L virtual-pi -d "$root" "$work/disk.raw" 3G >/dev/null
    # 256 MiB of FAT32 labelled bootfs, as Raspberry Pi OS's first partition.
    mkfs.vfat -C -F 32 -n bootfs "$work/boot.raw" 262144 >/dev/null
    mcopy -i "$work/boot.raw" "$HERE/guest/boot/config.txt" ::config.txt
    mkdir -p "$image"
    mv "$work/vmlinuz" "$work/initrd.img" "$work/disk.raw" "$work/boot.raw" "$image/"
    rm -rf -- "$work"
    say "image cached in $image"
}
# --- end of the image ----------------------------------------------------------

# --- the wheels --------------------------------------------------------------------

# The project's dependencies and lgpio (what install.sh asks PyPI for, as it
# does where apt has no python3-lgpio), and what building the project needs
# (pyproject.toml's build-system: setuptools, and Babel to compile the
# catalogs), as wheels for the guest's Python, fetched on the host (the guest
# has no network) with pip download. pip takes only the platform tags it is
# given: every manylinux up to the guest's glibc (lgpio 0.2.2 is
# manylinux_2_34 only).
readonly LGPIO=$(sed -n 's/.*\[python3-lgpio\]="\([^"]*\)".*/\1/p' "$REPO/systemd/install.sh")
mapfile -t WHEEL_PLATFORMS < <(
    seq -f "manylinux_2_%g_$MACHINE" "$GUEST_GLIBC" -1 17
    printf '%s\n' "manylinux2014_$MACHINE" any
)
pip_download() {
    local status=0
    "$CACHE/host-pip/bin/pip" download --quiet --disable-pip-version-check "$@" 2>"$CACHE/pip.log" ||
        status=$?
    # (pip's warnings about the index locations a machine's pip.conf names)
    grep -v "^WARNING: Location" "$CACHE/pip.log" >&2 || true
    return $status
}
fetch_wheels() {
    local wheels=$1 image=$2
    if [[ ! -x "$CACHE/host-pip/bin/pip" ]]; then
        "$HOST_PYTHON" -m venv "$CACHE/host-pip"
    fi
    mkdir -p "$wheels.tmp"
    "$CACHE/host-pip/bin/pip" wheel --quiet --no-deps --disable-pip-version-check \
        --wheel-dir "$wheels.tmp/project" "$REPO" >/dev/null
    local for_guest=(--only-binary=:all: --python-version "$GUEST_PYTHON_VERSION" --implementation cp
        "${WHEEL_PLATFORMS[@]/#/--platform=}")
    pip_download --dest "$wheels.tmp" "${for_guest[@]}" \
        "$wheels.tmp"/project/*.whl 'setuptools>=77' 'Babel>=2.12' ||
        die "fetching the wheels failed (pip download: is PyPI reachable?)"
    if ! pip_download --dest "$wheels.tmp" --no-deps "${for_guest[@]}" "$LGPIO" 2>/dev/null; then
        build_lgpio_wheel "$image" "$wheels.tmp"
    fi
    rm -rf -- "$wheels.tmp/project" "$wheels.tmp"/patchwork_companion-* "$wheels"
    mv "$wheels.tmp" "$wheels"
}

# PyPI has lgpio wheels for Python up to 3.12 only, and Debian no
# python3-lgpio (Raspberry Pi OS has its own): for Debian 13's Python 3.13
# the wheel is built from PyPI's source, the way its maintainers build theirs
# (PYPI=1: liblgpio linked in), in the guest's own system: the cached image
# seen through an overlay, so the image itself stays as it was (for arm64 its
# programs run through qemu-user, a few minutes).
build_lgpio_wheel() {
    local image=$1 wheels=$2 work=$CACHE/lgpio.tmp
    say "no $LGPIO wheel for Python $GUEST_PYTHON_VERSION on PyPI: building it from source in the image"
    ensure_binfmt
    if [[ -d "$work" ]]; then
        chroot_unmounts "$work/root"
        umount "$work/root" "$work/image" 2>/dev/null || true
        rm -rf -- "$work"
    fi
    mkdir -p "$work"/{image,changes,overlay,root}
    mount -o loop,ro,noload "$image/disk.raw" "$work/image"
    mount -t overlay overlay \
        -o "lowerdir=$work/image,upperdir=$work/changes,workdir=$work/overlay" "$work/root"
    trap 'chroot_unmounts "'"$work/root"'"; umount "'"$work/root"'" "'"$work/image"'"' EXIT
    local root=$work/root build=/opt/lgpio-build
    mkdir -p "$root$build"
    pip_download --dest "$root$build" --no-deps --no-binary=:all: "$LGPIO" ||
        die "fetching lgpio's source failed (pip download: is PyPI reachable?)"
    cp "$wheels"/setuptools-*.whl "$root$build/"
    rm -f "$root/etc/resolv.conf"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    chroot_mounts "$root"
    chroot "$root" sh -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends swig python3-dev &&
        python3 -m venv $build/venv &&
        $build/venv/bin/pip install -q --no-index --find-links $build setuptools &&
        PYPI=1 $build/venv/bin/pip wheel -q --no-index --no-build-isolation --no-deps \
            --wheel-dir $build/wheel $build/lgpio-*.tar.gz" >"$CACHE/lgpio.log" 2>&1 ||
        die "building lgpio failed: see $CACHE/lgpio.log"
    cp "$root$build"/wheel/lgpio-*.whl "$wheels/"
    chroot_unmounts "$root"
    umount "$root" "$work/image"
    trap - EXIT
    rm -rf -- "$work"
}

main() {
    ensure_host_packages
    "$QEMU" -version >/dev/null 2>&1 ||
        cannot_run_here "$QEMU does not run: $("$QEMU" -version 2>&1 | head -n 1)"
    mkdir -p "$CACHE"
    # One run at a time per cache (its image build and its run/ folder): a
    # second one waits, however it was started.
    exec {cache_lock}>"$CACHE/lock"
    if ! flock -n "$cache_lock"; then
        say "another virtual Pi run uses $CACHE: waiting for it to finish"
        flock "$cache_lock"
    fi
    local image
    image=$CACHE/image-$ARCH-debian$RELEASE-$(image_recipe_hash)
    if [[ ! -f "$image/disk.raw" ]]; then
        ensure_mirror_reachable
        ensure_binfmt
        build_image "$image"
    fi
    local wheels
    wheels=$CACHE/wheels-$ARCH-py$GUEST_PYTHON_VERSION-$({
        cat "$REPO/pyproject.toml"
        printf '%s\n' "$LGPIO" "${WHEEL_PLATFORMS[@]}"
    } | sha256sum | cut -c1-16)
    if [[ ! -d "$wheels" ]]; then
        say "fetching wheels for the guest"
        fetch_wheels "$wheels" "$image"
    fi
    # The expected game and screens come from the laptop simulation (the
    # repository's own venv, as ./scripts/test.sh sets it up).
    bash "$REPO/scripts/setup-venv.sh" dev >/dev/null
    exec "$HOST_PYTHON" "$HERE/host.py" --repo "$REPO" --image "$image" --wheels "$wheels" \
        --work "$CACHE/run" --arch "$ARCH" --release "$RELEASE" "$@"
}

main "$@"
