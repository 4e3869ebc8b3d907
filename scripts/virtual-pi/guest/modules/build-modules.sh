#!/bin/sh
# Build gpio-sim and i2c-stub for the guest kernel, inside the guest's root
# (chroot), from Debian's linux-headers and the four files of its
# linux-source that virtual-pi.sh unpacked into MODULE_DIR/src.
#   build-modules.sh KERNEL_VERSION MODULE_DIR
# Debian builds its kernels without CONFIG_GPIO_SIM (and CONFIG_IRQ_SIM,
# which gpio-sim needs); irq_sim.c is compiled into the module, with its one
# call of irq_to_desc() (not exported to modules) replaced by the exported
# generic_handle_irq(), which looks the descriptor up itself. A kernel that
# has either already keeps its own.
set -eu
kver=$1
here=$2
src=$here/src
config=/boot/config-$kver
out=$(mktemp -d)
modules="i2c-stub.o"
if ! grep -q '^CONFIG_GPIO_SIM=' "$config"; then
    modules="$modules gpio-sim.o"
    cp "$src/drivers/gpio/gpio-sim.c" "$out/gpio-sim-main.c"
    cp "$src/drivers/gpio/gpiolib.h" "$out/"
    if grep -q '^CONFIG_IRQ_SIM=y' "$config"; then
        echo "gpio-sim-y := gpio-sim-main.o" >"$out/Kbuild"
    else
        echo "gpio-sim-y := gpio-sim-main.o irq_sim.o" >"$out/Kbuild"
        grep -q 'handle_simple_irq(irq_to_desc(irqnum));' "$src/kernel/irq/irq_sim.c"
        sed 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' \
            "$src/kernel/irq/irq_sim.c" >"$out/irq_sim.c"
    fi
fi
echo "obj-m := $modules" >>"$out/Kbuild"
python3 "$here/patch-i2c-stub.py" "$src/drivers/i2c/i2c-stub.c" "$here/i2c-stub-log.c" "$out/i2c-stub.c"
make -s -C "/lib/modules/$kver/build" M="$out" modules
mkdir -p "/lib/modules/$kver/updates/virtual-pi"
cp "$out"/*.ko "/lib/modules/$kver/updates/virtual-pi/"
depmod "$kver"
rm -rf "$out"
