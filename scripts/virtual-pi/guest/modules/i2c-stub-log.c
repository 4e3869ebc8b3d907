// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Appended to Debian's drivers/i2c/i2c-stub.c by scripts/virtual-pi.sh:
 * plain I2C transfers (I2C_RDWR, which luma.oled uses for its data) and a
 * log of every write that reached a chip, read back by the test from
 * debugfs (i2c-stub-writes). A record is the chip address (1 byte), the
 * length (2 bytes, little-endian) and the bytes as they went on the wire
 * after the address: for an SMBus block write, the command byte first.
 */
#include <linux/debugfs.h>
#include <linux/vmalloc.h>

#define STUB_LOG_SIZE (16 << 20)

static u8 *stub_log;
static size_t stub_log_len;
static DEFINE_MUTEX(stub_log_lock);
static struct dentry *stub_log_file;

static void stub_log_write(u16 addr, u8 first, bool has_first,
			   const u8 *buf, size_t len)
{
	size_t total = len + (has_first ? 1 : 0);

	mutex_lock(&stub_log_lock);
	/* Full: stop logging; the reader sees the size and says so. */
	if (stub_log && total <= 0xffff &&
	    stub_log_len + 3 + total <= STUB_LOG_SIZE) {
		stub_log[stub_log_len++] = addr;
		stub_log[stub_log_len++] = total & 0xff;
		stub_log[stub_log_len++] = total >> 8;
		if (has_first)
			stub_log[stub_log_len++] = first;
		memcpy(stub_log + stub_log_len, buf, len);
		stub_log_len += len;
	}
	mutex_unlock(&stub_log_lock);
}

static void stub_log_smbus(u16 addr, char read_write, u8 command, int size,
			   union i2c_smbus_data *data)
{
	if (read_write != I2C_SMBUS_WRITE)
		return;
	switch (size) {
	case I2C_SMBUS_BYTE:
		stub_log_write(addr, command, true, NULL, 0);
		break;
	case I2C_SMBUS_BYTE_DATA:
		stub_log_write(addr, command, true, &data->byte, 1);
		break;
	case I2C_SMBUS_I2C_BLOCK_DATA:
		stub_log_write(addr, command, true, data->block + 1,
			       data->block[0]);
		break;
	}
}

static ssize_t stub_log_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&stub_log_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, stub_log,
				      stub_log_len);
	mutex_unlock(&stub_log_lock);
	return ret;
}

static const struct file_operations stub_log_fops = {
	.owner = THIS_MODULE,
	.read = stub_log_read,
	.llseek = default_llseek,
};

/*
 * Plain I2C messages: writes to a stub chip are logged (its registers are
 * left as they are: the panel is write-only); reads return zeroes.
 */
static int stub_i2c_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs,
			 int num)
{
	int i, c;

	for (i = 0; i < num; i++) {
		for (c = 0; c < stub_chips_nr; c++)
			if (msgs[i].addr == chip_addr[c])
				break;
		if (c == stub_chips_nr)
			return -ENXIO;
		if (msgs[i].flags & I2C_M_RD)
			memset(msgs[i].buf, 0, msgs[i].len);
		else
			stub_log_write(msgs[i].addr, 0, false, msgs[i].buf,
				       msgs[i].len);
	}
	return num;
}

static int stub_log_init(void)
{
	stub_log = vmalloc(STUB_LOG_SIZE);
	if (!stub_log)
		return -ENOMEM;
	stub_log_file = debugfs_create_file("i2c-stub-writes", 0400, NULL,
					    NULL, &stub_log_fops);
	return 0;
}

static void stub_log_exit(void)
{
	debugfs_remove(stub_log_file);
	vfree(stub_log);
}
