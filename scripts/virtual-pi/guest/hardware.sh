#!/bin/sh
# The virtual Pi's hardware, set up at boot before basic.target (as a Pi's
# buses exist before any service starts), by virtual-pi-hardware.service:
# - gpio-sim: one chip of 28 lines named GPIO0..GPIO27 like the Pi's header
#   GPIOs, /dev/gpiochip0 (the only GPIO chip of this machine);
# - i2c-stub: an I2C adapter with a chip at 0x3C, the panel;
# - the board revision of a Raspberry Pi 4 Model B, which gpiozero's pin
#   factories need to map GPIO numbers to the header (a real Pi's firmware
#   puts it in the device tree): the arm64 machine has it in its device tree
#   (/proc/device-tree/system/linux,revision, put there by host.py), as a Pi;
#   the amd64 machine has no device tree, so it gets a copy of /proc/cpuinfo
#   with a Revision line, which the drop-in
#   patchwork-companion.service.d/virtual-pi.conf binds over /proc/cpuinfo
#   for the service only (no setting of gpiozero's own supplies it outside
#   its MockFactory).
set -eu
modprobe gpio-sim
modprobe i2c-stub chip_addr=0x3c
modprobe i2c-dev
sim=/sys/kernel/config/gpio-sim/virtual-pi
if [ ! -d "$sim" ]; then
    mkdir "$sim" "$sim/gpio-bank0"
    echo 28 >"$sim/gpio-bank0/num_lines"
    echo pinctrl-bcm2711 >"$sim/gpio-bank0/label" 2>/dev/null || true
    # One mkdir for all lines: every process costs under TCG.
    (cd "$sim/gpio-bank0" && mkdir $(seq -f 'line%g' 0 27))
    i=0
    while [ $i -lt 28 ]; do
        echo "GPIO$i" >"$sim/gpio-bank0/line$i/name"
        i=$((i + 1))
    done
    echo 1 >"$sim/live"
fi
mkdir -p /run/virtual-pi
if [ ! -e /proc/device-tree/system/linux,revision ]; then
    {
        cat /proc/cpuinfo
        printf 'Hardware\t: BCM2835\nRevision\t: c03114\nModel\t\t: Raspberry Pi 4 Model B Rev 1.4 (virtual)\n'
    } >/run/virtual-pi/cpuinfo
fi
# Where the test finds the lines' pull attributes and the panel's bus.
printf '%s\n' "/sys/devices/platform/$(cat "$sim/dev_name")/$(cat "$sim/gpio-bank0/chip_name")" \
    >/run/virtual-pi/gpio-sim
for adapter in /sys/bus/i2c/devices/i2c-*; do
    if [ "$(cat "$adapter/name")" = "SMBus stub driver" ]; then
        basename "$adapter" >/run/virtual-pi/i2c-stub
    fi
done
