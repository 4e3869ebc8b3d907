"""Add i2c-stub-log.c (plain I2C transfers, a write log) to Debian's i2c-stub.c.

Usage: patch-i2c-stub.py ORIGINAL ADDITION OUTPUT. Each anchor must be found
exactly once, so a changed upstream file stops the build instead of
silently producing a stub without the log.
"""

import sys
from pathlib import Path

original, addition, output = sys.argv[1:]
source = Path(original).read_text()
extra = Path(addition).read_text()


def replace_once(text, old, new):
    if text.count(old) != 1:
        sys.exit(f"patch-i2c-stub: expected one '{old.strip()}' in {original}")
    return text.replace(old, new)


# The additions use chip_addr and stub_chips_nr: put them after both.
source = replace_once(
    source,
    "/* Return negative errno on error. */\nstatic s32 stub_xfer(",
    extra + "\n/* Return negative errno on error. */\nstatic s32 stub_xfer(",
)
source = replace_once(
    source,
    "\tif (!chip)\n\t\treturn -ENODEV;\n",
    "\tif (!chip)\n\t\treturn -ENODEV;\n\tstub_log_smbus(addr, read_write, command, size, data);\n",
)
source = replace_once(
    source,
    "\t.smbus_xfer\t= stub_xfer,\n",
    "\t.smbus_xfer\t= stub_xfer,\n\t.master_xfer\t= stub_i2c_xfer,\n",
)
source = replace_once(
    source,
    "\tret = i2c_add_adapter(&stub_adapter);\n",
    "\tret = stub_log_init();\n\tif (ret)\n\t\tgoto fail_free;\n"
    "\tret = i2c_add_adapter(&stub_adapter);\n",
)
source = replace_once(
    source,
    "\ti2c_del_adapter(&stub_adapter);\n\ti2c_stub_free();\n",
    "\ti2c_del_adapter(&stub_adapter);\n\tstub_log_exit();\n\ti2c_stub_free();\n",
)
source = replace_once(
    source,
    "static u32 stub_func(struct i2c_adapter *adapter)\n{\n"
    "\treturn STUB_FUNC_ALL & functionality;\n",
    "static u32 stub_func(struct i2c_adapter *adapter)\n{\n"
    "\treturn (STUB_FUNC_ALL & functionality) | I2C_FUNC_I2C;\n",
)
Path(output).write_text(source)
