#!/bin/sh
# Build gpio-sim and i2c-stub for the guest kernel, inside the guest's root
# (chroot), from Debian's linux-source-6.1 and linux-headers packages.
#   build-modules.sh KERNEL_VERSION MODULE_DIR
# Debian 12 builds its kernels without CONFIG_GPIO_SIM (and CONFIG_IRQ_SIM,
# which gpio-sim needs); irq_sim.c is compiled into the module, with its one
# call of irq_to_desc() (not exported to modules) replaced by the exported
# generic_handle_irq(), which looks the descriptor up itself.
set -eu
kver=$1
here=$2
build=$(mktemp -d)
tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$build" --strip-components=1 \
    linux-source-6.1/drivers/gpio/gpio-sim.c linux-source-6.1/drivers/gpio/gpiolib.h \
    linux-source-6.1/kernel/irq/irq_sim.c linux-source-6.1/drivers/i2c/i2c-stub.c
out=$build/out
mkdir "$out"
cp "$here/Kbuild" "$out/"
cp "$build/drivers/gpio/gpio-sim.c" "$out/gpio-sim-main.c"
cp "$build/drivers/gpio/gpiolib.h" "$out/"
grep -q 'handle_simple_irq(irq_to_desc(irqnum));' "$build/kernel/irq/irq_sim.c"
sed 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' \
    "$build/kernel/irq/irq_sim.c" >"$out/irq_sim.c"
python3 "$here/patch-i2c-stub.py" "$build/drivers/i2c/i2c-stub.c" "$here/i2c-stub-log.c" "$out/i2c-stub.c"
make -s -C "/lib/modules/$kver/build" M="$out" modules
mkdir -p "/lib/modules/$kver/updates/virtual-pi"
cp "$out/gpio-sim.ko" "$out/i2c-stub.ko" "/lib/modules/$kver/updates/virtual-pi/"
depmod "$kver"
rm -rf "$build"
