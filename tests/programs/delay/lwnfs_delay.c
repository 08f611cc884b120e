// SPDX-License-Identifier: GPL-2.0
/*
 * lwnfs_delay - a test module that widens one race window of lwnfs's, for
 * harness/guest/race.sh; not part of lwnfs.
 *
 * A write sets a counter's ctime, then its mtime from it, under the inode
 * lock, as a setattr (futimens(2)) sets both under that lock too: the
 * times left are one's or the other's, never a mix.  Without the lock
 * (tests/data/mutants, write-times-unlocked) a setattr could land between the
 * two stores, a window a few instructions wide that a test meets once in
 * thousands of runs.  A kretprobe on inode_set_ctime_current() holds the
 * task named comm= for delay_us microseconds when that call has just set
 * an lwnfs inode's ctime: between the two stores.  holding reads 1
 * while a write is held: tests/programs/lwnfs-race's "times ... HOLDING" waits for
 * it and sends its setter in then.  delays counts the holds.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/sysfs.h>

static char comm[TASK_COMM_LEN] = "lwnfs-race-held";
module_param_string(comm, comm, sizeof(comm), 0444);
MODULE_PARM_DESC(comm, "the task whose lwnfs ctime updates are held");

#define LWNFS_DELAY_MAX_US	100000	/* well below a soft lockup */
static unsigned int delay_us = 20000;
module_param(delay_us, uint, 0444);
MODULE_PARM_DESC(delay_us, "how long each is held, in microseconds (at most 100000)");

static atomic_t delays = ATOMIC_INIT(0);
static atomic_t holding = ATOMIC_INIT(0);

static int lwnfs_delay_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(kp->arg));
}

static const struct kernel_param_ops lwnfs_delay_ops = {
	.get = lwnfs_delay_get,
};
module_param_cb(delays, &lwnfs_delay_ops, &delays, 0444);
MODULE_PARM_DESC(delays, "how many were held");
module_param_cb(holding, &lwnfs_delay_ops, &holding, 0444);
MODULE_PARM_DESC(holding, "how many are held now");

/* Whether this call is one to hold: nonzero skips its return handler. */
static int lwnfs_delay_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct inode *inode = (struct inode *)regs_get_kernel_argument(regs, 0);

	return strcmp(current->comm, comm) || strcmp(inode->i_sb->s_type->name, "lwnfs");
}

/* Kretprobe handlers cannot sleep: a busy wait. */
static int lwnfs_delay_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	atomic_inc(&holding);
	mdelay(delay_us / 1000);
	udelay(delay_us % 1000);
	atomic_dec(&holding);
	atomic_inc(&delays);
	return 0;
}

static struct kretprobe lwnfs_delay_probe = {
	.kp.symbol_name	= "inode_set_ctime_current",
	.entry_handler	= lwnfs_delay_entry,
	.handler	= lwnfs_delay_return,
	.maxactive	= 4,
};

static int __init lwnfs_delay_init(void)
{
	if (delay_us > LWNFS_DELAY_MAX_US)
		return -EINVAL;
	return register_kretprobe(&lwnfs_delay_probe);
}

static void __exit lwnfs_delay_exit(void)
{
	unregister_kretprobe(&lwnfs_delay_probe);
}

module_init(lwnfs_delay_init);
module_exit(lwnfs_delay_exit);
MODULE_DESCRIPTION("lwnfs's tests: a write held between its ctime and its mtime");
MODULE_LICENSE("GPL");
