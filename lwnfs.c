// SPDX-License-Identifier: GPL-2.0
/*
 * lwnfs - a filesystem of counter files
 *
 * A modern port of the libfs example in "Creating Linux virtual
 * filesystems" (Jonathan Corbet, LWN, 2002).  Reading a counter returns
 * its value and increments it; writing a number sets it.  The whole tree
 * lives in the dentry cache: no lookup, no backing store.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "lwnfs.h"

/* Inode numbers: simple_fill_super() gives the root 1. */
enum {
	LWNFS_INO_ROOT = 1,
	LWNFS_INO_COUNTER,
	LWNFS_INO_SUBDIR,
	LWNFS_INO_SUBCOUNTER,
};

/*
 * The counters belong to the module, not to a superblock: they start at 0
 * on load and keep their values across umount and mount.  Each holds the
 * next value a read hands out.
 */
static atomic64_t lwnfs_counter = ATOMIC64_INIT(0);
static atomic64_t lwnfs_subcounter = ATOMIC64_INIT(0);

/* Per open file: the value it last took, which reads past 0 continue. */
struct lwnfs_file {
	atomic64_t value;
	bool taken;
};

static int lwnfs_open(struct inode *inode, struct file *file)
{
	struct lwnfs_file *lf = kzalloc(sizeof(*lf), GFP_KERNEL);

	if (!lf)
		return -ENOMEM;
	file->private_data = lf;
	return 0;
}

static int lwnfs_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

/*
 * A read at position 0 takes a value: one atomic fetch-and-increment, so
 * no two readers ever see the same value and none is lost.  A read further
 * on returns the rest of the text of the value this file took last, so a
 * short read still counts once.  Threads sharing a file each format the
 * value they took themselves; @value only serves the continuation reads.
 */
static ssize_t lwnfs_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	atomic64_t *counter = file_inode(file)->i_private;
	struct lwnfs_file *lf = file->private_data;
	char text[LWNFS_TEXT_MAX];
	s64 value;
	int len;

	if (!count)
		return 0;
	if (*ppos == 0) {
		/* S64_MAX is never handed out: its successor cannot be stored. */
		value = atomic64_fetch_add_unless(counter, 1, S64_MAX);
		if (value == S64_MAX)
			return -EOVERFLOW;
		atomic64_set(&lf->value, value);
		/* @value is set before @taken reads true: pairs with below */
		smp_store_release(&lf->taken, true);
	} else {
		/* pairs with the release above: @taken true, @value is set */
		if (!smp_load_acquire(&lf->taken))
			return 0;
		value = atomic64_read(&lf->value);
	}
	len = scnprintf(text, sizeof(text), "%lld\n", value);
	return simple_read_from_buffer(buf, count, ppos, text, len);
}

/*
 * A write sets the counter to one decimal s64, with an optional sign and
 * at most one trailing newline, written in one go at position 0.  Anything
 * else is refused and leaves the counter as it was.
 */
static ssize_t lwnfs_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	struct inode *inode = file_inode(file);
	char text[LWNFS_WRITE_MAX + 1];
	s64 value;
	int err;

	if (*ppos != 0 || count > LWNFS_WRITE_MAX)
		return -EINVAL;
	if (copy_from_user(text, buf, count))
		return -EFAULT;
	text[count] = '\0';
	if (strlen(text) != count)	/* a NUL byte inside */
		return -EINVAL;
	err = kstrtos64(text, 10, &value);
	if (err)
		return err;

	atomic64_set(inode->i_private, value);
	inode_lock(inode);
	inode_set_mtime_to_ts(inode, inode_set_ctime_current(inode));
	inode_unlock(inode);
	*ppos += count;
	return count;
}

static const struct file_operations lwnfs_counter_fops = {
	.owner		= THIS_MODULE,
	.open		= lwnfs_open,
	.release	= lwnfs_release,
	.read		= lwnfs_read,
	.write		= lwnfs_write,
	.llseek		= generic_file_llseek,
};

/* Inodes are not cached once unused: the dentry cache pins all we need. */
static const struct super_operations lwnfs_super_ops = {
	.statfs		= simple_statfs,
	.drop_inode	= inode_just_drop,
};

/*
 * Make @name in @parent, with a new inode, and pin it in the dentry cache:
 * the dentry cache is the only place the tree exists.  A regular file's
 * i_private points at its counter.
 */
static struct dentry *lwnfs_create(struct dentry *parent, const char *name,
				   umode_t mode, unsigned long ino,
				   atomic64_t *counter)
{
	struct dentry *dentry;
	struct inode *inode;

	dentry = d_alloc_name(parent, name);
	if (!dentry)
		return ERR_PTR(-ENOMEM);
	inode = new_inode(parent->d_sb);
	if (!inode) {
		dput(dentry);
		return ERR_PTR(-ENOMEM);
	}
	inode->i_ino = ino;
	inode->i_mode = mode;
	simple_inode_init_ts(inode);
	if (S_ISDIR(mode)) {
		inode->i_op = &simple_dir_inode_operations;
		inode->i_fop = &simple_dir_operations;
		inc_nlink(inode);		/* "." */
		inc_nlink(d_inode(parent));	/* ".." */
	} else {
		inode->i_fop = &lwnfs_counter_fops;
		inode->i_private = counter;
	}
	d_make_persistent(dentry, inode);
	dput(dentry);
	return dentry;
}

/*
 * simple_fill_super() makes the root; its files would get no i_private,
 * so the counters are made by hand like the subdirectory.
 */
static int lwnfs_fill_super(struct super_block *sb, struct fs_context *fc)
{
	static const struct tree_descr no_files[] = { { "" } };
	struct dentry *counter, *subdir, *subcounter;
	int err;

	err = simple_fill_super(sb, LWNFS_MAGIC, no_files);
	if (err)
		return err;
	sb->s_op = &lwnfs_super_ops;	/* simple_fill_super() set its own */

	counter = lwnfs_create(sb->s_root, "counter", S_IFREG | 0644,
			       LWNFS_INO_COUNTER, &lwnfs_counter);
	if (IS_ERR(counter))
		return PTR_ERR(counter);
	subdir = lwnfs_create(sb->s_root, "subdir", S_IFDIR | 0755,
			      LWNFS_INO_SUBDIR, NULL);
	if (IS_ERR(subdir))
		return PTR_ERR(subdir);
	subcounter = lwnfs_create(subdir, "subcounter", S_IFREG | 0644,
				  LWNFS_INO_SUBCOUNTER, &lwnfs_subcounter);
	return PTR_ERR_OR_ZERO(subcounter);
}

/* Every mount shares one superblock, so a write is seen through them all. */
static int lwnfs_get_tree(struct fs_context *fc)
{
	return get_tree_single(fc, lwnfs_fill_super);
}

static const struct fs_context_operations lwnfs_context_ops = {
	.get_tree	= lwnfs_get_tree,
};

static int lwnfs_init_fs_context(struct fs_context *fc)
{
	fc->ops = &lwnfs_context_ops;
	return 0;
}

/* No FS_USERNS_MOUNT: mounting needs CAP_SYS_ADMIN in the initial namespace. */
static struct file_system_type lwnfs_fs_type = {
	.owner			= THIS_MODULE,
	.name			= "lwnfs",
	.init_fs_context	= lwnfs_init_fs_context,
	.kill_sb		= kill_anon_super,
};

static int __init lwnfs_init(void)
{
	return register_filesystem(&lwnfs_fs_type);
}

static void __exit lwnfs_exit(void)
{
	unregister_filesystem(&lwnfs_fs_type);
}

module_init(lwnfs_init);
module_exit(lwnfs_exit);

MODULE_ALIAS_FS("lwnfs");
MODULE_DESCRIPTION("A filesystem of counter files, after LWN's 2002 libfs example");
MODULE_AUTHOR("The lwnfs developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(LWNFS_VERSION);
