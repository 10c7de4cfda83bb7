// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel test's module (utils/linux/run): loaded, used and unloaded by
 * utils/linux/init.c to show that a module built with rsb-stuff's kernel
 * mode has its calls accounted. Reading /sys/kernel/debug/rsbtest runs a
 * call chain RSBTEST_DEPTH deep through the module's own functions and back
 * into the kernel, well past the RSB's 16 entries.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/string.h>

#define RSBTEST_DEPTH 40

static struct dentry *rsbtest_file;

static noinline int rsbtest_chain(int depth)
{
	int below;

	if (depth == 0)
		return (int)strlen("rsbtest");
	below = rsbtest_chain(depth - 1);
	barrier(); /* a real return per level: no tail-recursion elimination */
	return below + 1;
}

static ssize_t rsbtest_read(struct file *file, char __user *buf, size_t len,
			    loff_t *pos)
{
	char out[16];
	int n = scnprintf(out, sizeof(out), "%d\n",
			  rsbtest_chain(RSBTEST_DEPTH));

	return simple_read_from_buffer(buf, len, pos, out, n);
}

static const struct file_operations rsbtest_fops = {
	.owner = THIS_MODULE,
	.read = rsbtest_read,
};

static int __init rsbtest_init(void)
{
	rsbtest_file = debugfs_create_file("rsbtest", 0444, NULL, NULL,
					   &rsbtest_fops);
	pr_info("rsbtest: loaded, chain %d\n", rsbtest_chain(RSBTEST_DEPTH));
	return 0;
}

static void __exit rsbtest_exit(void)
{
	debugfs_remove(rsbtest_file);
	pr_info("rsbtest: unloaded\n");
}

module_init(rsbtest_init);
module_exit(rsbtest_exit);
MODULE_DESCRIPTION("rsb-stuff kernel test module");
MODULE_LICENSE("GPL");
